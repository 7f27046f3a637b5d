/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The bitmap batch addition Σ_{bit i set} P_i over G1 and G2: partial sums of a thread's range each, then halving. */
#include <stdio.h>

#include "msm/msm.cuh"
#include "msm/reduce.cuh"

/* word w of the bitmap with only the bits of positions [lo, hi) kept */
static __device__ __forceinline__ uint64_t bits_in_range(const uint64_t *bitmap, size_t w, size_t lo, size_t hi)
{
    uint64_t b = bitmap[w];
    if (w == lo >> 6) b &= ~(uint64_t)0 << (lo & 63);
    if (w == (hi - 1) >> 6 && (hi & 63) != 0) b &= ((uint64_t)1 << (hi & 63)) - 1;
    return b;
}

/* partial sums of the bitmap-selected bases: thread t takes bases [tL, tL + L). Each iteration adds the next selected
 * base, found by a short scan of its own: the lanes of a warp meet again at every addition. (A test per position made
 * each lane wait through every addition any other lane needed; docs/performance/msm.md.) */
template <typename F, int MINB>
static __global__ void __launch_bounds__(128, MINB)
    k_batch_partial(dxyzz<F> *out, const daff<F> *bases, const uint64_t *bitmap, size_t n, size_t L, size_t parts)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= parts) return;
    dxyzz<F> acc;
    xyzz_set_inf(&acc);
    size_t lo = t * L, hi = lo + L < n ? lo + L : n;
    size_t w = lo >> 6, wend = (hi - 1) >> 6;
    uint64_t bits = bits_in_range(bitmap, w, lo, hi);
    for (;;) {
        while (bits == 0 && w < wend) bits = bits_in_range(bitmap, ++w, lo, hi);
        if (bits == 0) break;
        size_t i = (w << 6) + (unsigned)(__ffsll((long long)bits) - 1);
        bits &= bits - 1;
        daff<F> b = ld16(&bases[i]);
        if (aff_is_inf(&b)) continue;
        xyzz_madd(&acc, b.x, b.y);
    }
    st16(&out[t], acc);
}

template <typename F>
static void launch_batch_partial(const cuzk_gpu_msm_opts *o, unsigned grid, dxyzz<F> *out, const daff<F> *bases,
                                 const uint64_t *bitmap, size_t n, size_t L, size_t parts)
{
    if (cuzk_gpu_msm_minb(o, sizeof(F) == sizeof(dfp)) == 4)
        k_batch_partial<F, 4><<<grid, 128>>>(out, bases, bitmap, n, L, parts);
    else k_batch_partial<F, 1><<<grid, 128>>>(out, bases, bitmap, n, L, parts);
}

template <typename F>
static cuzk_status batch_run(void *sum_host, cuzk_gpu_msm_ctx *x, const daff<F> *bases, const uint64_t *bitmap,
                             size_t n)
{
    typedef dxyzz<F> X;
    const cuzk_gpu_msm_opts *o = &x->opts;
    size_t L = (n + MSM_PARTIALS - 1) / MSM_PARTIALS;
    if (L < 16) L = 16;
    size_t parts = (n + L - 1) / L;
    for (int i = 0; i < 2; i++) CUZK_TRY(cuzk_gpu_msm_grow(&x->seg[i], &x->cap_seg[i], parts * sizeof(X)));
    X *res;
    cudaEvent_t ev[2];
    if (o->profile) {
        for (int i = 0; i < 2; i++) CUZK_CUDA(cudaEventCreate(&ev[i]));
        CUZK_CUDA(cudaEventRecord(ev[0]));
    }
    launch_batch_partial<F>(o, blocks_for(parts, 128), (X *)x->seg[0], bases, bitmap, n, L, parts);
    CUZK_CUDA_LAUNCHED();
    CUZK_TRY(pair_sum_all<F>(&res, (X *)x->seg[0], (X *)x->seg[1], 1, parts, parts));
    if (o->profile) CUZK_CUDA(cudaEventRecord(ev[1]));
    CUZK_CUDA(cudaMemcpy(sum_host, res, sizeof(X), cudaMemcpyDeviceToHost));
    if (o->profile) {
        float ms;
        CUZK_CUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
        fprintf(stderr, "batch-add profile: %s n=%zu slice=%zu: %.3f ms\n", sizeof(F) == sizeof(dfp) ? "G1" : "G2", n,
                L, ms);
        for (int i = 0; i < 2; i++) cudaEventDestroy(ev[i]);
    }
    return CUZK_OK;
}

template <typename F>
static cuzk_status batch_flavoured(void *sum_host, cuzk_gpu_msm_ctx *x, const void *bases, const uint64_t *bitmap,
                                   size_t n)
{
    typedef typename flavour_of<F>::T A;
    if (cuzk_gpu_msm_variant(&x->opts) & flavour_of<F>::bit)
        return batch_run<A>(sum_host, x, (const daff<A> *)bases, bitmap, n);
    return batch_run<F>(sum_host, x, (const daff<F> *)bases, bitmap, n);
}

extern "C" cuzk_status cuzk_gpu_g1_batch_add(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const uint64_t *bitmap,
                                             size_t n, cuzk_gpu_msm_ctx *ctx)
{
    if (n == 0) {
        cuzk_g1_jac_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g1_xyzz_t s;
    CUZK_TRY(batch_flavoured<dfp>(&s, ctx, bases, bitmap, n));
    cuzk_g1_xyzz_to_jac(r, &s);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_g2_batch_add(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const uint64_t *bitmap,
                                             size_t n, cuzk_gpu_msm_ctx *ctx)
{
    if (n == 0) {
        cuzk_g2_jac_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g2_xyzz_t s;
    CUZK_TRY(batch_flavoured<dfp2>(&s, ctx, bases, bitmap, n));
    cuzk_g2_xyzz_to_jac(r, &s);
    return CUZK_OK;
}
