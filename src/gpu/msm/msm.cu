/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The MSM pipeline of msm.cuh, steps 1 to 5, for G1 and G2, and its entry points. */
#include <stdio.h>
#include <string.h>

#include <cub/cub.cuh>

#include "msm/accumulate.cuh"
#include "msm/batch_affine.cuh"
#include "msm/msm.cuh"
#include "msm/reduce.cuh"

template <typename F>
static cuzk_status msm_run(void *win_host, cuzk_gpu_msm_ctx *x, const daff<F> *bases, const uint32_t *idx,
                           const dfr *scalars, size_t n, unsigned *c_out, unsigned *nw_out)
{
    typedef dxyzz<F> X;
    msm_plan_t p;
    const cuzk_gpu_msm_opts *o = &x->opts;
    cuzk_gpu_msm_plan(o, &p, n, cuzk_gpu_msm_ba_on(o, sizeof(F) == sizeof(dfp), n) ? sizeof(daff<F>) : 0,
                      sizeof(F) == sizeof(dfp));
    *c_out = p.c, *nw_out = p.nw;
    scratch_sizes need;
    cuzk_gpu_msm_scratch_of(&need, &p, sizeof(X));
    CUZK_TRY(cuzk_gpu_msm_scratch_grow(x, &need));

    /* profiling: ev[0] start, per group ev[1 + 2g] after the sort and ev[2 + 2g] after the accumulation, then the
     * end of the reduction and of the copy */
    cudaEvent_t ev[2 * 128 + 4];
    unsigned nev = 0, groups = (p.nw + p.gw - 1) / p.gw;
    if (o->profile) {
        for (unsigned i = 0; i < 2 * groups + 3; i++) CUZK_CUDA(cudaEventCreate(&ev[i]));
        CUZK_CUDA(cudaEventRecord(ev[nev++]));
    }
    X *buckets = (X *)x->buckets;
    CUZK_CUDA(cudaMemsetAsync(buckets, 0, need.buckets)); /* empty buckets: infinity */
    for (unsigned j0 = 0; j0 < p.nw; j0 += p.gw) {
        unsigned gw = p.nw - j0 < p.gw ? p.nw - j0 : p.gw;
        size_t items = (size_t)gw * n;
        unsigned lg = 0;
        while ((1u << lg) < gw) lg++;
        k_digits<<<blocks_for(n, 256), 256>>>(x->keys[0], x->vals[0], scalars, idx, n, p.c, j0, gw, x->canonical);
        CUZK_CUDA_LAUNCHED();
        size_t tmp = x->cap_cub;
        CUZK_CUDA(cub::DeviceRadixSort::SortPairs(x->cub_tmp, tmp, x->keys[0], x->keys[1], x->vals[0], x->vals[1],
                                                  (int)items, 0, (int)(p.c + lg)));
        if (o->profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
        /* the sorted list, or the shorter one the batch-affine rounds leave (its length on the device) */
        const uint32_t *keys = x->keys[1], *vals = x->vals[1], *count = NULL;
        const daff<F> *pts = bases;
        size_t L = p.slice;
        ba_plan bp;
        cuzk_gpu_msm_ba_plan(&bp, items, (size_t)gw * p.nb, p.ba, p.ba_min_run);
        if (bp.rounds > 0) {
            CUZK_TRY(ba_rounds<F>(x, &bp, bases, p.c, &keys, &pts, &count));
            vals = NULL;
            items = bp.len[bp.rounds];
            L = bp.slice;
        }
        size_t slices = (items + L - 1) / L;
        launch_accumulate<F>(o, blocks_for(slices, 128), buckets, (X *)x->heads, (X *)x->tails, keys, vals, pts, items,
                             count, L, p.c, j0, p.nb);
        CUZK_CUDA_LAUNCHED();
        for (unsigned r = 0; ((size_t)2 << r) < slices; r++) {
            k_heads_tree<F><<<blocks_for(slices >> (r + 1), 128), 128>>>((X *)x->heads, keys, count, L, slices, r);
            CUZK_CUDA_LAUNCHED();
        }
        k_fixup<F><<<blocks_for(slices, 128), 128>>>(buckets, (const X *)x->heads, (const X *)x->tails, keys, items,
                                                     count, L, p.c, j0, p.nb);
        CUZK_CUDA_LAUNCHED();
        if (o->profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
    }
    X *seg0 = (X *)x->seg[0], *seg1 = (X *)x->seg[1], *res;
    k_bucket_segments<F><<<blocks_for((size_t)p.nw * p.nseg, 64), 64>>>(seg0, buckets, p.nw, p.nb, p.seg_len, p.nseg);
    CUZK_CUDA_LAUNCHED();
    CUZK_TRY(pair_sum_all<F>(&res, seg0, seg1, p.nw, p.nseg, p.nseg));
    if (o->profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
    CUZK_CUDA(cudaMemcpy2D(win_host, sizeof(X), res, p.nseg * sizeof(X), sizeof(X), p.nw, cudaMemcpyDeviceToHost));
    CUZK_CUDA(cudaGetLastError());
    if (o->profile) {
        CUZK_CUDA(cudaEventRecord(ev[nev++]));
        CUZK_CUDA(cudaEventSynchronize(ev[nev - 1]));
        float sort = 0, acc = 0, red = 0, copy = 0, t;
        for (unsigned g = 0; g < groups; g++) {
            CUZK_CUDA(cudaEventElapsedTime(&t, ev[2 * g], ev[2 * g + 1]));
            sort += t;
            CUZK_CUDA(cudaEventElapsedTime(&t, ev[2 * g + 1], ev[2 * g + 2]));
            acc += t;
        }
        CUZK_CUDA(cudaEventElapsedTime(&red, ev[2 * groups], ev[2 * groups + 1]));
        CUZK_CUDA(cudaEventElapsedTime(&copy, ev[2 * groups + 1], ev[2 * groups + 2]));
        fprintf(stderr,
                "msm profile: %s n=%zu c=%u windows=%u groups=%u slice=%zu segment=%u: memset+digits+sort %.3f ms, "
                "accumulate+fixup %.3f ms, bucket reduction %.3f ms, copy %.3f ms\n",
                sizeof(F) == sizeof(dfp) ? "G1" : "G2", n, p.c, p.nw, groups, p.slice, p.seg_len, sort, acc, red, copy);
        for (unsigned i = 0; i < nev; i++) cudaEventDestroy(ev[i]);
    }
    return CUZK_OK;
}

template <typename F>
static cuzk_status msm_flavoured(void *win_host, cuzk_gpu_msm_ctx *x, const void *bases, const uint32_t *idx,
                                 const dfr *scalars, size_t n, unsigned *c_out, unsigned *nw_out)
{
    typedef typename flavour_of<F>::T A;
    if (cuzk_gpu_msm_variant(&x->opts) & flavour_of<F>::bit)
        return msm_run<A>(win_host, x, (const daff<A> *)bases, idx, scalars, n, c_out, nw_out);
    return msm_run<F>(win_host, x, (const daff<F> *)bases, idx, scalars, n, c_out, nw_out);
}

#define WINDOWS_MAX 128

/* Horner over the window sums (host): Σ_j 2^(jc)·W_j */
#define MSM_ENTRY(G, F, AFF, JAC)                                                                                      \
    static cuzk_status msm_any_##G(JAC *r, const AFF *bases, const uint32_t *idx, const cuzk_fr_t *scalars, size_t n,  \
                                   cuzk_gpu_msm_ctx *ctx)                                                              \
    {                                                                                                                  \
        if (n > MSM_IDX_MASK) return CUZK_ERR_INVALID_ARG;                                                             \
        if (n == 0) {                                                                                                  \
            cuzk_##G##_jac_set_infinity(r);                                                                            \
            return CUZK_OK;                                                                                            \
        }                                                                                                              \
        cuzk_##G##_xyzz_t win[WINDOWS_MAX], acc;                                                                       \
        unsigned c, nw;                                                                                                \
        CUZK_TRY(msm_flavoured<F>(win, ctx, bases, idx, (const dfr *)scalars, n, &c, &nw));                            \
        acc = win[nw - 1];                                                                                             \
        for (unsigned j = nw - 1; j-- > 0;) {                                                                          \
            for (unsigned i = 0; i < c; i++) cuzk_##G##_xyzz_dbl(&acc, &acc);                                          \
            cuzk_##G##_xyzz_add(&acc, &acc, &win[j]);                                                                  \
        }                                                                                                              \
        cuzk_##G##_xyzz_to_jac(r, &acc);                                                                               \
        return CUZK_OK;                                                                                                \
    }                                                                                                                  \
    extern "C" cuzk_status cuzk_gpu_##G##_msm(JAC *r, const AFF *bases, const cuzk_fr_t *scalars, size_t n,            \
                                              cuzk_gpu_msm_ctx *ctx)                                                   \
    {                                                                                                                  \
        return msm_any_##G(r, bases, NULL, scalars, n, ctx);                                                           \
    }                                                                                                                  \
    extern "C" cuzk_status cuzk_gpu_##G##_msm_idx(JAC *r, const AFF *bases, const uint32_t *idx,                       \
                                                  const cuzk_fr_t *scalars, size_t n, cuzk_gpu_msm_ctx *ctx)           \
    {                                                                                                                  \
        return msm_any_##G(r, bases, idx, scalars, n, ctx);                                                            \
    }
MSM_ENTRY(g1, dfp, cuzk_g1_affine_t, cuzk_g1_jac_t)
MSM_ENTRY(g2, dfp2, cuzk_g2_affine_t, cuzk_g2_jac_t)
#undef MSM_ENTRY
