// The Blue Gene/L family compiled for the CPU backend.
#include "../backend/exec_cpu.hpp"
#include "bgl_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_bgl_engine_cpu(const std::vector<Config>& cs, const EngineOptions& o) {
  return std::make_unique<BglEngine<CpuExec>>(cs, o);
}

}  // namespace ls
