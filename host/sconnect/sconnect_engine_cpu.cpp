// The S-Connect family compiled for the CPU backend.
#include "../backend/exec_cpu.hpp"
#include "sconnect_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_sconnect_engine_cpu(const std::vector<Config>& cs,
                                                 const EngineOptions& o) {
  return std::make_unique<SconnectEngine<CpuExec>>(cs, o);
}

}  // namespace ls
