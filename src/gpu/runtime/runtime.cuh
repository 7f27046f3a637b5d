/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The GPU layer's runtime, shared by every topic: every CUDA call goes through CUZK_CUDA, which records the CUDA
 * message and the call site for cuzk_gpu_last_error() and returns CUZK_ERR_DEVICE from the calling function, or
 * CUZK_ERR_NOMEM when the device (or pinned host memory) is merely full: the context stays usable then, and callers
 * such as the engine evict and retry instead of taking the device out of service. */
#ifndef CUZK_GPU_RUNTIME_CUH
#define CUZK_GPU_RUNTIME_CUH

#include <stdlib.h>

#include <cuda_runtime.h>

#include "cuzk/base.h"
#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "cuzk/gpu.h"

/* Records a failed CUDA call (what, its error, where) as this thread's cuzk_gpu_last_error(). */
extern "C" void cuzk_gpu_set_error(const char *what, cudaError_t e, const char *file, int line);

/* cuzk_fail, with the CUDA detail of cuzk_gpu_last_error() appended when s is CUZK_ERR_DEVICE. */
extern "C" cuzk_status cuzk_gpu_fail(cuzk_errmsg *err, cuzk_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define CUZK_CUDA(call)                                                                                                \
    do {                                                                                                               \
        cudaError_t cuzk_e_ = (call);                                                                                  \
        if (cuzk_e_ != cudaSuccess) {                                                                                  \
            cuzk_gpu_set_error(#call, cuzk_e_, __FILE__, __LINE__);                                                    \
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
