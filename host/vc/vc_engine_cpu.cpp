// The vc family compiled for the CPU backend.
#include "../backend/exec_cpu.hpp"
#include "vc_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_vc_engine_cpu(const std::vector<Config>& cs, const EngineOptions& o) {
  return std::make_unique<VcEngine<CpuExec>>(cs, o);
}

}  // namespace ls
