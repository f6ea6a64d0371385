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

// Inlined by force on the GPU alone. A kernel function that nvcc calls instead of inlining
// reaches the view, a kernel parameter, through a generic pointer: every state access in it is
// then a generic load or store (docs/performance.md, "Where the block schedule reads its view").
// The host compiler keeps its own choice (forced, Blue Gene/L's CPU cycle ran 6% slower).
// LS_INLINE_LAMBDA goes after a lambda's parameters: [&](int k) LS_INLINE_LAMBDA {...}.
#if defined(__CUDACC__)
#define LS_GPU_INLINE __forceinline__
#define LS_INLINE_LAMBDA __attribute__((always_inline))
#else
#define LS_GPU_INLINE inline
#define LS_INLINE_LAMBDA
#endif
