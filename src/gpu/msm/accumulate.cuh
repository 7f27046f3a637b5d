/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The MSM's digits (step 1) and bucket accumulation (step 3): see msm.cuh. Included by msm.cu. */
#ifndef CUZK_GPU_MSM_ACCUMULATE_CUH
#define CUZK_GPU_MSM_ACCUMULATE_CUH

#include "msm/msm.cuh"

/* canonical 256-bit value of an Fr element, as 4 little-endian 64-bit limbs: a Montgomery one times 1, a canonical
 * one as it is */
static __device__ __forceinline__ void scalar_limbs(uint64_t k[4], const dfr *s, bool canonical)
{
    dfr r = dfr_load(s);
    if (!canonical) {
        dfr one;
#pragma unroll
        for (int i = 0; i < 8; i++) one.w[i] = i == 0;
        dfr_mul(&r, &r, &one);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) k[i] = ((uint64_t)r.w[2 * i + 1] << 32) | r.w[2 * i];
}

/* signed digit of window j, width c (k < 2^255, so bit 256·… above the top is zero) */
static __device__ __forceinline__ int32_t scalar_digit(const uint64_t k[4], unsigned j, unsigned c)
{
    unsigned pos = j * c;
    uint64_t w;
    if (pos == 0) {
        w = k[0] << 1;
    } else {
        unsigned s = pos - 1, limb = s >> 6, sh = s & 63;
        w = limb < 4 ? k[limb] >> sh : 0;
        if (sh != 0 && limb + 1 < 4) w |= k[limb + 1] << (64 - sh);
    }
    w &= ((uint64_t)1 << (c + 1)) - 1;
    int32_t d = (int32_t)((w >> 1) + (w & 1));
    return d - (int32_t)((w >> c) << c);
}

/* idx NULL: scalar i goes with base i; else with base idx[i]. canonical: the scalars' words are their values. */
static __global__ void k_digits(uint32_t *keys, uint32_t *vals, const dfr *scalars, const uint32_t *idx, size_t n,
                                unsigned c, unsigned j0, unsigned gw, bool canonical)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t k[4];
    scalar_limbs(k, &scalars[i], canonical);
    uint32_t base = idx != NULL ? idx[i] : (uint32_t)i;
    for (unsigned jj = 0; jj < gw; jj++) {
        int32_t d = scalar_digit(k, j0 + jj, c);
        uint32_t a = (uint32_t)(d < 0 ? -d : d);
        keys[(size_t)jj * n + i] = (jj << c) | a;
        vals[(size_t)jj * n + i] = base | (d < 0 ? MSM_SIGN : 0u);
    }
}

/* bucket slot of a sorted key: window j0 + (key >> c), digit magnitude key & (2^c − 1) */
static __device__ __forceinline__ size_t slot_of(uint32_t key, unsigned c, unsigned j0, uint32_t nb)
{
    return (size_t)(j0 + (key >> c)) * (nb + 1) + (key & ((1u << c) - 1));
}

/* vals NULL: entry p is point p of `bases`, unsigned (the batch-affine rounds' list) */
template <typename F, int MINB>
static __global__ void __launch_bounds__(128, MINB)
    k_accumulate(dxyzz<F> *buckets, dxyzz<F> *heads, dxyzz<F> *tails, const uint32_t *keys, const uint32_t *vals,
                 const daff<F> *bases, size_t items, const uint32_t *count, size_t L, unsigned c, unsigned j0,
                 uint32_t nb)
{
    items = items_of(count, items);
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t start = t * L;
    if (start >= items) return;
    size_t end = start + L < items ? start + L : items;
    uint32_t cur = keys[start];
    bool from_prev = start > 0 && keys[start - 1] == cur;
    bool first_run = true;
    dxyzz<F> acc;
    xyzz_set_inf(&acc);
    for (size_t p = start;; p++) {
        uint32_t k = p < end ? keys[p] : 0;
        if (p == end || k != cur) {
            bool head = first_run && from_prev;
            bool tail = p == end && end < items && keys[end] == cur;
            if (head) st16(&heads[t], acc);
            else if (tail) st16(&tails[t], acc);
            else if ((cur & ((1u << c) - 1)) != 0) st16(&buckets[slot_of(cur, c, j0, nb)], acc);
            if (p == end) break;
            first_run = false;
            cur = k;
            xyzz_set_inf(&acc);
        }
        if ((k & ((1u << c) - 1)) == 0) continue; /* zero digit */
        uint32_t v = vals != NULL ? vals[p] : (uint32_t)p;
        daff<F> b = ld16(&bases[v & MSM_IDX_MASK]);
        if (aff_is_inf(&b)) continue;
        if (v & MSM_SIGN) f_neg(&b.y, &b.y);
        xyzz_madd(&acc, b.x, b.y);
    }
}

/* Heads of consecutive slices that continue one bucket are summed by a tree over aligned blocks: after round r,
 * heads[s] holds the sum of the block [s, s + 2^(r+1)) when s is a multiple of 2^(r+1) and the whole block continues
 * one bucket (its first slice starts inside the bucket and its last slice starts with the same key, so every slice
 * between does too); otherwise heads[s] keeps the sum of the largest such block found before. */
template <typename F>
static __global__ void k_heads_tree(dxyzz<F> *heads, const uint32_t *keys, const uint32_t *count, size_t L,
                                    size_t slices, unsigned r)
{
    if (count != NULL) slices = (*count + L - 1) / L;
    size_t half = (size_t)1 << r, s = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) << (r + 1);
    if (s == 0 || s + 2 * half - 1 >= slices) return;
    uint32_t k = keys[s * L];
    if (keys[s * L - 1] != k || keys[(s + 2 * half - 1) * L] != k) return;
    dxyzz<F> a = ld16(&heads[s]), b = ld16(&heads[s + half]);
    xyzz_add(&a, &a, &b);
    st16(&heads[s], a);
}

/* The thread whose slice holds a bucket's tail adds the bucket's head blocks (largest aligned block first). */
template <typename F>
static __global__ void k_fixup(dxyzz<F> *buckets, const dxyzz<F> *heads, const dxyzz<F> *tails, const uint32_t *keys,
                               size_t items, const uint32_t *count, size_t L, unsigned c, unsigned j0, uint32_t nb)
{
    items = items_of(count, items);
    size_t slices = (items + L - 1) / L;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= slices) return;
    size_t start = t * L, end = start + L < items ? start + L : items;
    uint32_t last = keys[end - 1];
    if (end >= items || keys[end] != last) return;                           /* the slice's last run ends inside it */
    if (keys[start] == last && start > 0 && keys[start - 1] == last) return; /* it is a head: not ours */
    if ((last & ((1u << c) - 1)) == 0) return;
    dxyzz<F> sum = ld16(&tails[t]);
    for (size_t s = t + 1; s < slices && keys[s * L] == last;) {
        size_t blk = 1;
        while ((s & (2 * blk - 1)) == 0 && s + 2 * blk - 1 < slices && keys[(s + 2 * blk - 1) * L] == last) blk *= 2;
        dxyzz<F> h = ld16(&heads[s]);
        xyzz_add(&sum, &sum, &h);
        s += blk;
    }
    st16(&buckets[slot_of(last, c, j0, nb)], sum);
}

template <typename F>
static void launch_accumulate(const cuzk_gpu_msm_opts *o, unsigned grid, dxyzz<F> *buckets, dxyzz<F> *heads,
                              dxyzz<F> *tails, const uint32_t *keys, const uint32_t *vals, const daff<F> *bases,
                              size_t items, const uint32_t *count, size_t L, unsigned c, unsigned j0, uint32_t nb)
{
    if (cuzk_gpu_msm_minb(o, sizeof(F) == sizeof(dfp)) == 4)
        k_accumulate<F, 4><<<grid, 128>>>(buckets, heads, tails, keys, vals, bases, items, count, L, c, j0, nb);
    else k_accumulate<F, 1><<<grid, 128>>>(buckets, heads, tails, keys, vals, bases, items, count, L, c, j0, nb);
}

#endif
