/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_GPU_MSM_BATCH_AFFINE_CUH
#define CUZK_GPU_MSM_BATCH_AFFINE_CUH

#include <cub/cub.cuh>

#include "msm/msm.cuh"

/* The MSM's batch-affine rounds (step 2b of msm.cuh). Included by msm.cu.
 *
 * Before the XYZZ accumulation, rounds of affine additions shrink each group's sorted list. Round r looks at slots
 * s of two entries, positions 2s − q and 2s − q + 1 of the current list (q = r mod 2): when both carry the same
 * key their sum goes to the next list, otherwise each (non-zero-digit) entry goes there unchanged, at the place an
 * exclusive sum of the slots' output counts gives. Runs are contiguous, so each round about halves every run; the
 * parity alternates so that a run of two that starts at an odd position is paired in the next round. A run of r
 * entries leaves at most r/2 + 1, so a list of m entries and at most R runs leaves at most m/2 + R: the buffers are
 * sized by that bound, and the host launches every round on the bound without waiting for the device's counts.
 *
 * An affine sum needs 1/(x_b − x_a). Each thread takes ba_slots slots (grid-stride, so that a warp's loads are
 * coalesced) and inverts the product of their denominators once (Montgomery's trick): the prefix products are
 * parked in the x of each pair's output slot on the way forward and read back on the way back. Per addition this
 * costs 5M + 1S and a ba_slots-th of an inversion, against 8M + 2S for a mixed XYZZ addition. Doubling (a = b) takes
 * 2y as its denominator; a = −b and infinity on either side need none (denominator 1). */
enum { BA_ADD, BA_DBL, BA_LEFT, BA_RIGHT, BA_INF };

/* Slot s of a round over m entries holds positions b − 1 and b, b = 2s + 1 − q: which of them are entries with a
 * non-zero digit, and whether the two pair up (same key). */
typedef struct {
    size_t b;
    bool left, right, paired;
} ba_slot_t;
static __device__ __forceinline__ ba_slot_t ba_slot(const uint32_t *keys, size_t m, size_t s, unsigned q,
                                                    uint32_t digit_mask)
{
    ba_slot_t x;
    x.b = 2 * s + 1 - q;
    x.left = x.b >= 1 && x.b - 1 < m && (keys[x.b - 1] & digit_mask) != 0;
    x.right = x.b < m && (keys[x.b] & digit_mask) != 0;
    x.paired = x.left && x.right && keys[x.b - 1] == keys[x.b];
    return x;
}

/* output count of each slot; slots past the list's end give 0 */
static __global__ void k_ba_count(uint32_t *cnt, const uint32_t *keys, const uint32_t *m_dev, size_t m_host,
                                  size_t slots, unsigned q, uint32_t digit_mask)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= slots) return;
    ba_slot_t x = ba_slot(keys, items_of(m_dev, m_host), s, q, digit_mask);
    cnt[s] = x.paired ? 1u : (uint32_t)x.left + (uint32_t)x.right;
}

/* the next list's length: the exclusive sum's last entry plus the last count */
static __global__ void k_ba_total(uint32_t *m_next, const uint32_t *off, const uint32_t *cnt, size_t slots)
{
    *m_next = off[slots - 1] + cnt[slots - 1];
}

/* entry e of the round's list: the first round reads the bases by index, with the sign of the digit */
template <typename F, bool FIRST>
static __device__ __forceinline__ daff<F> ba_point(const daff<F> *pts, const uint32_t *vals, size_t e)
{
    if (!FIRST) return ld16(&pts[e]);
    uint32_t v = vals[e];
    daff<F> p = ld16(&pts[v & MSM_IDX_MASK]);
    if (v & MSM_SIGN) f_neg(&p.y, &p.y); /* −0 = 0: infinity stays (0, 0) */
    return p;
}
template <typename F, bool FIRST>
static __device__ __forceinline__ F ba_x(const daff<F> *pts, const uint32_t *vals, size_t e)
{
    return ld16(&pts[FIRST ? vals[e] & MSM_IDX_MASK : e].x);
}

/* the kind of a + b and its denominator */
template <typename F> static __device__ __forceinline__ int ba_kind(F *d, const daff<F> &a, const daff<F> &b)
{
    if (aff_is_inf(&b)) {
        f_set_one(d);
        return BA_LEFT;
    }
    if (aff_is_inf(&a)) {
        f_set_one(d);
        return BA_RIGHT;
    }
    f_sub(d, &b.x, &a.x);
    if (!f_is_zero(d)) return BA_ADD;
    F t;
    f_sub(&t, &b.y, &a.y);
    if (f_is_zero(&t) && !f_is_zero(&a.y)) {
        f_add(d, &a.y, &a.y);
        return BA_DBL;
    }
    f_set_one(d);
    return BA_INF;
}

/* the denominator from the x's alone when they settle it (neither x zero, x's apart: an ordinary addition) */
template <typename F, bool FIRST>
static __device__ __forceinline__ void ba_denominator(F *d, const daff<F> *pts, const uint32_t *vals, size_t a)
{
    F xa = ba_x<F, FIRST>(pts, vals, a), xb = ba_x<F, FIRST>(pts, vals, a + 1);
    f_sub(d, &xb, &xa);
    if (!f_is_zero(d) && !f_is_zero(&xa) && !f_is_zero(&xb)) return;
    daff<F> pa = ba_point<F, FIRST>(pts, vals, a), pb = ba_point<F, FIRST>(pts, vals, a + 1);
    ba_kind(d, pa, pb);
}

template <typename F, bool FIRST, int MINB>
static __global__ void __launch_bounds__(128, MINB)
    k_ba_pair(daff<F> *out, uint32_t *keys_out, const daff<F> *pts, const uint32_t *vals, const uint32_t *keys,
              const uint32_t *off, const uint32_t *m_dev, size_t m_host, unsigned q, uint32_t digit_mask)
{
    size_t m = items_of(m_dev, m_host), slots = (m + q + 1) / 2;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, T = (size_t)gridDim.x * blockDim.x;
    if (t >= slots) return;
    /* forward: prefix products of the pairs' denominators, each parked in its output's x */
    F run;
    f_set_one(&run);
    bool any = false;
    for (size_t s = t; s < slots; s += T) {
        ba_slot_t x = ba_slot(keys, m, s, q, digit_mask);
        if (!x.paired) continue;
        F d;
        ba_denominator<F, FIRST>(&d, pts, vals, x.b - 1);
        st16(&out[off[s]].x, run);
        f_mul(&run, &run, &d);
        any = true;
    }
    F inv;
    if (any) f_inv(&inv, &run);
    /* backward: each pair's inverse from the running inverse and its parked prefix; unpaired entries copied */
    size_t last = t + (slots - 1 - t) / T * T;
    for (size_t s = last;; s -= T) {
        ba_slot_t x = ba_slot(keys, m, s, q, digit_mask);
        size_t b = x.b, o = off[s];
        if (x.paired) {
            daff<F> pa = ba_point<F, FIRST>(pts, vals, b - 1), pb = ba_point<F, FIRST>(pts, vals, b), r;
            F d, inv_d, pre = ld16(&out[o].x);
            int kind = ba_kind(&d, pa, pb);
            f_mul(&inv_d, &inv, &pre);
            f_mul(&inv, &inv, &d);
            if (kind == BA_ADD || kind == BA_DBL) {
                F num, lam, t2;
                if (kind == BA_ADD) {
                    f_sub(&num, &pb.y, &pa.y);
                } else {
                    f_sqr(&t2, &pa.x);
                    f_add(&num, &t2, &t2);
                    f_add(&num, &num, &t2); /* 3x² */
                }
                f_mul(&lam, &num, &inv_d);
                f_sqr(&t2, &lam);
                f_sub(&t2, &t2, &pa.x);
                f_sub(&r.x, &t2, &pb.x); /* x3 = λ² − xa − xb */
                f_sub(&t2, &pa.x, &r.x);
                f_mul(&t2, &lam, &t2);
                f_sub(&r.y, &t2, &pa.y); /* y3 = λ(xa − x3) − ya */
            } else if (kind == BA_LEFT) {
                r = pa;
            } else if (kind == BA_RIGHT) {
                r = pb;
            } else {
                f_set_zero(&r.x), f_set_zero(&r.y);
            }
            st16(&out[o], r);
            keys_out[o] = keys[b];
        } else {
            if (x.left) {
                st16(&out[o], ba_point<F, FIRST>(pts, vals, b - 1));
                keys_out[o++] = keys[b - 1];
            }
            if (x.right) {
                st16(&out[o], ba_point<F, FIRST>(pts, vals, b));
                keys_out[o] = keys[b];
            }
        }
        if (s < T) break;
    }
}

template <typename F>
static void launch_ba_pair(const cuzk_gpu_msm_opts *o, bool first, unsigned grid, daff<F> *out, uint32_t *keys_out,
                           const daff<F> *pts, const uint32_t *vals, const uint32_t *keys, const uint32_t *off,
                           const uint32_t *len, size_t m, unsigned q, uint32_t digit_mask)
{
#define BA_PAIR(FIRST, MINB)                                                                                           \
    k_ba_pair<F, FIRST, MINB><<<grid, 128>>>(out, keys_out, pts, vals, keys, off, len, m, q, digit_mask)
    bool capped = cuzk_gpu_msm_minb(o, sizeof(F) == sizeof(dfp)) == 4;
    if (first) capped ? BA_PAIR(true, 4) : BA_PAIR(true, 1);
    else capped ? BA_PAIR(false, 4) : BA_PAIR(false, 1);
#undef BA_PAIR
}

/* The batch-affine rounds of one group (sorted pairs in keys[1], vals[1]); the list they leave: keys, points and
 * the device's count of them. */
template <typename F>
static cuzk_status ba_rounds(cuzk_gpu_msm_ctx *x, const ba_plan *bp, const daff<F> *bases, unsigned c,
                             const uint32_t **keys_left, const daff<F> **pts_left, const uint32_t **count_left)
{
    const uint32_t *keys = x->keys[1], *vals = x->vals[1];
    const daff<F> *pts = bases;
    uint32_t digit_mask = (1u << c) - 1;
    for (unsigned r = 0; r < bp->rounds; r++) {
        size_t m = bp->len[r], slots = (m + 2) / 2, per = cuzk_gpu_msm_ba_slots(&x->opts),
               threads = (slots + per - 1) / per;
        unsigned q = r & 1;
        const uint32_t *len = r == 0 ? NULL : &x->ba_len[r];
        uint32_t *keys_out = r % 2 == 0 ? x->keys[0] : x->vals[0]; /* the sort's inputs, free now */
        daff<F> *out = (daff<F> *)x->ba_pts[r % 2];
        k_ba_count<<<blocks_for(slots, 256), 256>>>(x->ba_cnt, keys, len, m, slots, q, digit_mask);
        CUZK_CUDA_LAUNCHED();
        size_t tmp = x->cap_cub;
        CUZK_CUDA(cub::DeviceScan::ExclusiveSum(x->cub_tmp, tmp, x->ba_cnt, x->ba_off, (int)slots));
        k_ba_total<<<1, 1>>>(&x->ba_len[r + 1], x->ba_off, x->ba_cnt, slots);
        CUZK_CUDA_LAUNCHED();
        launch_ba_pair<F>(&x->opts, r == 0, blocks_for(threads, 128), out, keys_out, pts, vals, keys, x->ba_off, len, m,
                          q, digit_mask);
        CUZK_CUDA_LAUNCHED();
        keys = keys_out;
        pts = out;
    }
    *keys_left = keys;
    *pts_left = pts;
    *count_left = &x->ba_len[bp->rounds];
    return CUZK_OK;
}

#endif
