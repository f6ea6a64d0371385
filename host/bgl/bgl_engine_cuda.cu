// The Blue Gene/L family compiled for the CUDA backend.
#include "../backend/exec_cuda.cuh"
#include "bgl_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_bgl_engine_cuda(const std::vector<Config>& cs,
                                             const EngineOptions& o) {
  return std::make_unique<BglEngine<CudaExec>>(cs, o);
}

}  // namespace ls
