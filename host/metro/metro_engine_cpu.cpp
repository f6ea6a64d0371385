// The METRO family compiled for the CPU backend.
#include "../backend/exec_cpu.hpp"
#include "metro_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_metro_engine_cpu(const std::vector<Config>& cs,
                                              const EngineOptions& o) {
  return std::make_unique<MetroEngine<CpuExec>>(cs, o);
}

}  // namespace ls
