/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The 0/1 split of a query side's scalars: each position classified (0 skipped, 1 into a bitmap, others flagged),
 * the others compacted with their positions (cub::DeviceSelect) and gathered. */
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "groth16/groth16.cuh"

/* Classifies the scalars of positions p < npos (variable vars[p], or base + p when vars is NULL): bit p of the
 * bitmap for 1, flags[p] for any other non-zero value. Launched over a multiple of 64 threads so that every bitmap
 * word is written whole (two 32-bit halves, little-endian). */
static __global__ void k_classify(uint32_t *bitmap32, uint8_t *flags, const dfr *z, const uint32_t *vars, uint64_t base,
                                  uint64_t npos, uint64_t launch, dfr one)
{
    uint64_t p = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool is_one = false;
    if (p < npos) {
        uint64_t v = vars != NULL ? vars[p] : base + p;
        dfr x = dfr_load(&z[v]);
        is_one = dfr_eq(&x, &one);
        flags[p] = !is_one && !dfr_is_zero(&x);
    }
    unsigned m = __ballot_sync(0xffffffffu, is_one);
    if ((threadIdx.x & 31) == 0 && p < launch) bitmap32[p >> 5] = m;
}

/* tail[t] = the scalar at position idx[t], t < *count */
static __global__ void k_gather(dfr *tail, const uint32_t *idx, const int *count, const dfr *z, const uint32_t *vars,
                                uint64_t base)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint64_t)*count) return;
    uint32_t p = idx[t];
    uint64_t v = vars != NULL ? vars[p] : base + p;
    dfr x = dfr_load(&z[v]);
    dfr_store(&tail[t], &x);
}

/* cub's scratch for selecting among npos positions (the split's compaction), grown to fit */
extern "C" cuzk_status cuzk_gpu_g16_select_scratch(cuzk_gpu_prover *p, uint64_t npos, size_t *need)
{
    thrust::counting_iterator<uint32_t> positions(0);
    *need = 0;
    CUZK_CUDA(cub::DeviceSelect::Flagged(NULL, *need, positions, p->flags, p->idx, p->d_count, (int)npos,
                                         cudaStreamPerThread));
    return cuzk_gpu_g16_cub_scratch(p, *need);
}

/* One split's classification and compaction; returns the count of "other" scalars. */
extern "C" cuzk_status cuzk_gpu_g16_split(cuzk_gpu_prover *p, const uint32_t *vars, uint64_t base, uint64_t npos,
                                          uint64_t *count)
{
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    uint64_t launch = (npos + 63) / 64 * 64;
    if (launch == 0) {
        *count = 0;
        return CUZK_OK;
    }
    k_classify<<<blocks(launch, 256), 256>>>((uint32_t *)p->bitmap, p->flags, (const dfr *)p->z, vars, base, npos,
                                             launch, to_dfr(&one));
    CUZK_CUDA_LAUNCHED();
    size_t need;
    CUZK_TRY(cuzk_gpu_g16_select_scratch(p, npos, &need));
    thrust::counting_iterator<uint32_t> positions(0);
    CUZK_CUDA(cub::DeviceSelect::Flagged(p->cub_tmp, need, positions, p->flags, p->idx, p->d_count, (int)npos,
                                         cudaStreamPerThread));
    k_gather<<<blocks(npos, 256), 256>>>((dfr *)p->tail, p->idx, p->d_count, (const dfr *)p->z, vars, base);
    CUZK_CUDA_LAUNCHED();
    int c = 0;
    CUZK_CUDA(cudaMemcpyAsync(&c, p->d_count, sizeof c, cudaMemcpyDeviceToHost, cudaStreamPerThread));
    CUZK_TRY(stream_sync());
    *count = (uint64_t)c;
    return CUZK_OK;
}
