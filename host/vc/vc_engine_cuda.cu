// The vc family compiled for the CUDA backend.
#include "../backend/exec_cuda.cuh"
#include "vc_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_vc_engine_cuda(const std::vector<Config>& cs, const EngineOptions& o) {
  return std::make_unique<VcEngine<CudaExec>>(cs, o);
}

}  // namespace ls
