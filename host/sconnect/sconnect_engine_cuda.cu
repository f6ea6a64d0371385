// The S-Connect family compiled for the CUDA backend.
#include "../backend/exec_cuda.cuh"
#include "sconnect_engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_sconnect_engine_cuda(const std::vector<Config>& cs,
                                                  const EngineOptions& o) {
  return std::make_unique<SconnectEngine<CudaExec>>(cs, o);
}

}  // namespace ls
