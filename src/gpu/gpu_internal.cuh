/* Host-side helpers shared by the CUDA translation units: every CUDA call goes through CUZK_CUDA, which records
 * the CUDA message and the call site for cuzk_gpu_last_error() and returns CUZK_ERR_DEVICE from the calling function, or
 * CUZK_ERR_NOMEM when the device (or pinned host memory) is merely full: the context stays usable then, and callers
 * such as the engine evict and retry instead of taking the device out of service. */
#ifndef CUZK_GPU_INTERNAL_CUH
#define CUZK_GPU_INTERNAL_CUH

#include <stdlib.h>

#include <cuda_runtime.h>

/* the CPU layers' headers carry no extern "C" of their own */
#include "cuzk/base.h"
#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "cuzk/gpu.h"

extern "C" void cuzk_gpu_set_error(const char *what, cudaError_t e, const char *file, int line);

#define CUZK_CUDA(call)                                                                                                \
    do {                                                                                                               \
        cudaError_t cuzk_e_ = (call);                                                                                  \
        if (cuzk_e_ != cudaSuccess) {                                                                                  \
            cuzk_gpu_set_error(#call, cuzk_e_, __FILE__, __LINE__);                                                         \
            return cuzk_e_ == cudaErrorMemoryAllocation ? CUZK_ERR_NOMEM : CUZK_ERR_DEVICE;                            \
        }                                                                                                              \
    } while (0)

/* After a kernel launch: configuration and launch errors. */
#define CUZK_CUDA_LAUNCHED() CUZK_CUDA(cudaGetLastError())

#define CUZK_TRY(expr)                                                                                                 \
    do {                                                                                                               \
        cuzk_status cuzk_s_ = (expr);                                                                                  \
        if (cuzk_s_ != CUZK_OK) return cuzk_s_;                                                                        \
    } while (0)

#endif
