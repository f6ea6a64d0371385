// The T3E family compiled for the CUDA backend.
#include "../backend/exec_cuda.cuh"
#include "t3e_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_t3e_engine_cuda(const std::vector<Config>& cs,
                                             const EngineOptions& o) {
  return std::make_unique<T3eEngine<CudaExec>>(cs, o);
}

}  // namespace ls
