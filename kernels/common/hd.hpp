// The one place that knows about CUDA: every kernel function is LS_HD so the same source
// compiles for the host (CPU backend, Thrust OpenMP) and the device (CUDA backend).
#pragma once

#if defined(__CUDACC__)
#define LS_HD __host__ __device__
#define LS_FORCEINLINE __forceinline__
#else
#define LS_HD
#define LS_FORCEINLINE inline __attribute__((always_inline))
#endif
