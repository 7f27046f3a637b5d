/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The MSM's bucket reduction (steps 4 and 5 of msm.cuh), and the pairwise sums the batch addition ends with too. */
#ifndef CUZK_GPU_MSM_REDUCE_CUH
#define CUZK_GPU_MSM_REDUCE_CUH

#include "msm/msm.cuh"

/* segment (w, k) of window w: buckets b = k·Ls + 1 .. (k + 1)·Ls; out[w·nseg + k] = Σ b·S_b over them */
template <typename F>
static __global__ void k_bucket_segments(dxyzz<F> *out, const dxyzz<F> *buckets, unsigned nw, uint32_t nb, uint32_t Ls,
                                         uint32_t nseg)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)nw * nseg) return;
    uint32_t w = (uint32_t)(t / nseg), k = (uint32_t)(t % nseg);
    const dxyzz<F> *bk = buckets + (size_t)w * (nb + 1);
    dxyzz<F> run, tot, s;
    xyzz_set_inf(&run);
    xyzz_set_inf(&tot);
    uint32_t base = k * Ls;
    for (uint32_t b = base + Ls; b > base; b--) {
        s = ld16(&bk[b]);
        xyzz_add(&run, &run, &s);
        xyzz_add(&tot, &tot, &run); /* tot = Σ (b − base)·S_b */
    }
    /* + base·run, double-and-add from the top bit */
    dxyzz<F> m;
    xyzz_set_inf(&m);
    for (int bit = 31; bit >= 0; bit--) {
        if (!xyzz_is_inf(&m)) xyzz_dbl(&m, &m);
        if ((base >> bit) & 1) xyzz_add(&m, &m, &run);
    }
    xyzz_add(&tot, &tot, &m);
    st16(&out[t], tot);
}

/* rows of `stride` points, the first m of each row live: out[r·stride + i] = in[r·stride + 2i] + in[... + 2i + 1] */
template <typename F>
static __global__ void k_pair_sum(dxyzz<F> *out, const dxyzz<F> *in, unsigned rows, size_t stride, size_t m)
{
    size_t half = (m + 1) / 2;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)rows * half) return;
    size_t r = t / half, i = t % half;
    dxyzz<F> a = ld16(&in[r * stride + 2 * i]);
    if (2 * i + 1 < m) {
        dxyzz<F> b = ld16(&in[r * stride + 2 * i + 1]);
        xyzz_add(&a, &a, &b);
    }
    st16(&out[r * stride + i], a);
}

/* Halves rows × m points at a (stride apart) until one per row is left; returns the buffer holding the result. */
template <typename F>
static cuzk_status pair_sum_all(dxyzz<F> **res, dxyzz<F> *a, dxyzz<F> *b, unsigned rows, size_t stride, size_t m)
{
    while (m > 1) {
        size_t half = (m + 1) / 2;
        k_pair_sum<F><<<blocks_for((size_t)rows * half, 128), 128>>>(b, a, rows, stride, m);
        CUZK_CUDA_LAUNCHED();
        dxyzz<F> *t = a;
        a = b, b = t;
        m = half;
    }
    *res = a;
    return CUZK_OK;
}

#endif
