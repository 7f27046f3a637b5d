/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The prover's MSMs over the key's bases: resident (dense, or a split's batch addition of the ones plus the tail by
 * index), or streamed from pinned host memory through two device buffers, chunk by chunk. */
#include <string.h>

#include "groth16/groth16.cuh"

/* Points of one streamed chunk of bases of point_bytes each: what fits one stream buffer, a multiple of 64 (a bitmap
 * word) */
extern "C" uint64_t cuzk_gpu_g16_chunk_points(const cuzk_gpu_prover *p, size_t point_bytes)
{
    return (p->sbuf_bytes / point_bytes) / 64 * 64;
}

/* bounds[c] = the first t with idx[t] >= c·chunk (idx ascending), for c ≤ chunks */
static __global__ void k_bounds(uint64_t *bounds, const uint32_t *idx, const int *count, uint64_t chunk,
                                uint64_t chunks)
{
    uint64_t c = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c > chunks) return;
    uint64_t lo = 0, hi = (uint64_t)*count, key = c * chunk;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (idx[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    bounds[c] = lo;
}

/* Point arithmetic on the host, per group, for the sums of chunks and of ones + tail. */
template <typename J> struct host_ops;
template <> struct host_ops<cuzk_g1_jac_t> {
    typedef cuzk_g1_affine_t A;
    static cuzk_status msm(cuzk_g1_jac_t *r, const A *b, const cuzk_fr_t *s, size_t n, cuzk_gpu_msm_ctx *x)
    {
        return cuzk_gpu_g1_msm(r, b, s, n, x);
    }
    static cuzk_status msm_idx(cuzk_g1_jac_t *r, const A *b, const uint32_t *i, const cuzk_fr_t *s, size_t n,
                               cuzk_gpu_msm_ctx *x)
    {
        return cuzk_gpu_g1_msm_idx(r, b, i, s, n, x);
    }
    static cuzk_status ones(cuzk_g1_jac_t *r, const A *b, const uint64_t *bm, size_t n, cuzk_gpu_msm_ctx *x)
    {
        return cuzk_gpu_g1_batch_add(r, b, bm, n, x);
    }
    static void add(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *a, const cuzk_g1_jac_t *b) { cuzk_g1_jac_add(r, a, b); }
    static void inf(cuzk_g1_jac_t *r) { cuzk_g1_jac_set_infinity(r); }
};
template <> struct host_ops<cuzk_g2_jac_t> {
    typedef cuzk_g2_affine_t A;
    static cuzk_status msm(cuzk_g2_jac_t *r, const A *b, const cuzk_fr_t *s, size_t n, cuzk_gpu_msm_ctx *x)
    {
        return cuzk_gpu_g2_msm(r, b, s, n, x);
    }
    static cuzk_status msm_idx(cuzk_g2_jac_t *r, const A *b, const uint32_t *i, const cuzk_fr_t *s, size_t n,
                               cuzk_gpu_msm_ctx *x)
    {
        return cuzk_gpu_g2_msm_idx(r, b, i, s, n, x);
    }
    static cuzk_status ones(cuzk_g2_jac_t *r, const A *b, const uint64_t *bm, size_t n, cuzk_gpu_msm_ctx *x)
    {
        return cuzk_gpu_g2_batch_add(r, b, bm, n, x);
    }
    static void add(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *a, const cuzk_g2_jac_t *b) { cuzk_g2_jac_add(r, a, b); }
    static void inf(cuzk_g2_jac_t *r) { cuzk_g2_jac_set_infinity(r); }
};

/* Streamed bases: chunk c (positions [c·m, min((c+1)·m, npos))) is copied into buffer c % 2 on the copy stream
 * while the previous chunk's MSM runs; events order the copy after the last use of its buffer and the MSM after
 * the copy. */
static cuzk_status stream_copy(cuzk_gpu_prover *p, const void *host, size_t elem, uint64_t lo, uint64_t hi,
                               unsigned slot)
{
    CUZK_CUDA(cudaStreamWaitEvent(p->copy_stream, p->ev_used[slot], 0));
    CUZK_CUDA(cudaMemcpyAsync(p->sbuf[slot], (const char *)host + lo * elem, (hi - lo) * elem, cudaMemcpyHostToDevice,
                              p->copy_stream));
    CUZK_CUDA(cudaEventRecord(p->ev_copied[slot], p->copy_stream));
    return CUZK_OK;
}

/* r = Σ over positions: dense scalars (scalars[p], idx NULL) or a split (bitmap ones + idx/tail of count). */
template <typename J>
static cuzk_status msm_over(J *r, cuzk_gpu_prover *p, const cuzk_gpu_key *k, const typename host_ops<J>::A *bases,
                            uint64_t npos, const cuzk_fr_t *scalars, bool is_split, uint64_t count)
{
    typedef host_ops<J> O;
    typedef typename O::A A;
    if (k->placement != CUZK_GPU_KEY_STREAMED) {
        if (!is_split) return O::msm(r, bases, scalars, npos, p->msm);
        J ones, rest;
        CUZK_TRY(O::ones(&ones, bases, p->bitmap, npos, p->msm));
        CUZK_TRY(O::msm_idx(&rest, bases, p->idx, p->tail, count, p->msm));
        O::add(r, &ones, &rest);
        return CUZK_OK;
    }
    uint64_t chunk = cuzk_gpu_g16_chunk_points(p, sizeof(A)), chunks = (npos + chunk - 1) / chunk;
    uint64_t *bounds = NULL;
    if (is_split && chunks > 0) {
        uint64_t cap = p->cap_bounds;
        CUZK_TRY(cuzk_gpu_g16_grow(p, (void **)&p->d_bounds, &cap, chunks + 1, sizeof(uint64_t)));
        p->cap_bounds = cap;
        k_bounds<<<blocks(chunks + 1, 128), 128>>>(p->d_bounds, p->idx, p->d_count, chunk, chunks);
        CUZK_CUDA_LAUNCHED();
        bounds = (uint64_t *)malloc((chunks + 1) * sizeof(uint64_t));
        if (bounds == NULL) return CUZK_ERR_NOMEM;
        cudaError_t e = cudaMemcpyAsync(bounds, p->d_bounds, (chunks + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost,
                                        cudaStreamPerThread);
        if (e == cudaSuccess) e = cudaStreamSynchronize(cudaStreamPerThread);
        if (e != cudaSuccess) {
            free(bounds);
            cuzk_gpu_set_error("chunk bounds", e, __FILE__, __LINE__);
            return CUZK_ERR_DEVICE;
        }
    }
    cuzk_status s = CUZK_OK;
    O::inf(r);
    if (chunks > 0) s = stream_copy(p, bases, sizeof(A), 0, chunk < npos ? chunk : npos, 0);
    for (uint64_t c = 0; c < chunks && s == CUZK_OK; c++) {
        unsigned slot = (unsigned)(c & 1);
        uint64_t lo = c * chunk, hi = lo + chunk < npos ? lo + chunk : npos;
        if (c + 1 < chunks) {
            uint64_t nhi = hi + chunk < npos ? hi + chunk : npos;
            s = stream_copy(p, bases, sizeof(A), hi, nhi, slot ^ 1);
            if (s != CUZK_OK) break;
        }
        if (cudaStreamWaitEvent(cudaStreamPerThread, p->ev_copied[slot], 0) != cudaSuccess) {
            cuzk_gpu_set_error("cudaStreamWaitEvent", cudaGetLastError(), __FILE__, __LINE__);
            s = CUZK_ERR_DEVICE;
            break;
        }
        const A *buf = (const A *)p->sbuf[slot];
        J part;
        if (!is_split) {
            s = O::msm(&part, buf, scalars + lo, hi - lo, p->msm);
        } else {
            J ones, rest;
            /* the tail's positions are absolute: the buffer stands for positions lo .. hi */
            const A *shifted = (const A *)((uintptr_t)buf - (uintptr_t)(lo * sizeof(A)));
            s = O::ones(&ones, buf, p->bitmap + lo / 64, hi - lo, p->msm);
            if (s == CUZK_OK)
                s = O::msm_idx(&rest, shifted, p->idx + bounds[c], p->tail + bounds[c], bounds[c + 1] - bounds[c],
                               p->msm);
            if (s == CUZK_OK) O::add(&part, &ones, &rest);
        }
        if (s == CUZK_OK) O::add(r, r, &part);
        if (s == CUZK_OK && cudaEventRecord(p->ev_used[slot], cudaStreamPerThread) != cudaSuccess) {
            cuzk_gpu_set_error("cudaEventRecord", cudaGetLastError(), __FILE__, __LINE__);
            s = CUZK_ERR_DEVICE;
        }
    }
    free(bounds);
    if (s == CUZK_OK && cudaStreamSynchronize(p->copy_stream) != cudaSuccess) {
        cuzk_gpu_set_error("copy stream", cudaGetLastError(), __FILE__, __LINE__);
        s = CUZK_ERR_DEVICE;
    }
    return s;
}

extern "C" cuzk_status cuzk_gpu_g16_msm_g1(cuzk_g1_jac_t *r, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                           const cuzk_g1_affine_t *bases, uint64_t npos, const cuzk_fr_t *scalars,
                                           bool is_split, uint64_t count)
{
    return msm_over<cuzk_g1_jac_t>(r, p, k, bases, npos, scalars, is_split, count);
}

extern "C" cuzk_status cuzk_gpu_g16_msm_g2(cuzk_g2_jac_t *r, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                           const cuzk_g2_affine_t *bases, uint64_t npos, const cuzk_fr_t *scalars,
                                           bool is_split, uint64_t count)
{
    return msm_over<cuzk_g2_jac_t>(r, p, k, bases, npos, scalars, is_split, count);
}

/* sum = Σ h_i·H_i over positions [lo, hi) of the H query, with p's copy of H's coefficients */
extern "C" cuzk_status cuzk_gpu_g16_msm_h(cuzk_g1_jac_t *sum, cuzk_gpu_prover *p, const cuzk_gpu_key *k, uint64_t lo,
                                          uint64_t hi, cuzk_errmsg *err)
{
    cuzk_gpu_msm_ctx_canonical(p->msm, true); /* cuzk_gpu_g16_h leaves them canonical */
    cuzk_status s = cuzk_gpu_g16_msm_g1(sum, p, k, k->h + lo, hi - lo, p->abc[0] + lo, false, 0);
    cuzk_gpu_msm_ctx_canonical(p->msm, false);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "H multi-scalar multiplication failed");
    return CUZK_OK;
}
