// The T3E family compiled for the CPU backend.
#include "../backend/exec_cpu.hpp"
#include "t3e_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_t3e_engine_cpu(const std::vector<Config>& cs, const EngineOptions& o) {
  return std::make_unique<T3eEngine<CpuExec>>(cs, o);
}

}  // namespace ls
