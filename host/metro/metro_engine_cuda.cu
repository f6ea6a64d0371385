// The METRO family compiled for the CUDA backend.
#include "../backend/exec_cuda.cuh"
#include "metro_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_metro_engine_cuda(const std::vector<Config>& cs,
                                               const EngineOptions& o) {
  return std::make_unique<MetroEngine<CudaExec>>(cs, o);
}

}  // namespace ls
