/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The measured alternatives of the GPU's field multiplication (docs/performance/msm.md and ntt.md, "tried and lost"):
 * CIOS over 32- and 64-bit words, Fr's special reduction in 32-bit words, the product then the reduction (64 and 32
 * bits, dedicated squarings, a Karatsuba product, Fp2 with one reduction per coefficient), 28-bit digits (mont28.h),
 * 64-bit steps in plain C (mont32w.h) and the FP64 pipe (mont_f64.h), alone and on alternate warps. Each gives the
 * same canonical result as ff/ff.cuh's; the lab's element-wise kernels (ff_ops.cu) and NTT pass kernels
 * (ntt_lab.cu) measure them against the product's. */
#ifndef CUZK_GPU_LAB_FIELD_CUH
#define CUZK_GPU_LAB_FIELD_CUH

#include "ff/ff.cuh"
#include "lab/mont28.h"
#include "lab/mont32w.h"
#include "lab/mont_eo_sum.h"
#include "lab/mont_f64.h"

/* the carry-chain primitives ff/ff.cuh leaves out: 64-bit words, and the 32-bit mad.hi.cc */
CUZK_PTX4(madhi_cc, uint32_t, "r", "mad.hi.cc.u32")
CUZK_PTX3(add_cc, uint64_t, "l", "add.cc.u64")
CUZK_PTX3(addc_cc, uint64_t, "l", "addc.cc.u64")
CUZK_PTX3(addc, uint64_t, "l", "addc.u64")
CUZK_PTX3(sub_cc, uint64_t, "l", "sub.cc.u64")
CUZK_PTX3(subc_cc, uint64_t, "l", "subc.cc.u64")
CUZK_PTX3(subc, uint64_t, "l", "subc.u64")
CUZK_PTX4(madlo_cc, uint64_t, "l", "mad.lo.cc.u64")
CUZK_PTX4(madclo_cc, uint64_t, "l", "madc.lo.cc.u64")
CUZK_PTX4(madhi_cc, uint64_t, "l", "mad.hi.cc.u64")
CUZK_PTX4(madchi_cc, uint64_t, "l", "madc.hi.cc.u64")

/* −m^−1 mod 2^64 */
#define D_FR_NINV64 0xfffffffeffffffffULL
#define D_FP_NINV64 0x89f3fffcfffcfffdULL

/* ---- generic N-word Montgomery multiplication -------------------------------------------------------------------- */
/* r = v − m if v ≥ m, else v, where v = top·2^(W·N) + t < 2m (the last step of every Montgomery product) */
template <typename W, int N>
static __device__ __forceinline__ void mp_sub_once(W *r, const W *t, W top, const uint64_t *m)
{
    W d[N];
    d[0] = sub_cc(t[0], mod_word<W>(m, 0));
#pragma unroll
    for (int i = 1; i < N; i++) d[i] = subc_cc(t[i], mod_word<W>(m, i));
    W keep = subc(top, (W)0); /* all ones exactly when v < m */
#pragma unroll
    for (int i = 0; i < N; i++) r[i] = d[i] ^ ((t[i] ^ d[i]) & keep);
}

/* r = a·b·2^(−W·N) mod m, CIOS. r may alias a or b. */
template <typename W, int N>
static __device__ __forceinline__ void mp_mul(W *r, const W *a, const W *b, const uint64_t *m, W ninv)
{
    W t[N + 2];
#pragma unroll
    for (int j = 0; j < N + 2; j++) t[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        W bi = b[i];
        /* t += a·b_i : low halves into t[j], high halves into t[j+1] */
        t[0] = madlo_cc(a[0], bi, t[0]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j] = madclo_cc(a[j], bi, t[j]);
        t[N] = addc_cc(t[N], (W)0);
        t[N + 1] = addc((W)0, (W)0);
        t[1] = madhi_cc(a[0], bi, t[1]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j + 1] = madchi_cc(a[j], bi, t[j + 1]);
        t[N + 1] = addc(t[N + 1], (W)0);
        /* t += q·m with q chosen so that the low word vanishes, then shift one word out */
        W q = t[0] * ninv;
        t[0] = madlo_cc(q, mod_word<W>(m, 0), t[0]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j] = madclo_cc(q, mod_word<W>(m, j), t[j]);
        t[N] = addc_cc(t[N], (W)0);
        t[N + 1] = addc(t[N + 1], (W)0);
        t[1] = madhi_cc(q, mod_word<W>(m, 0), t[1]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j + 1] = madchi_cc(q, mod_word<W>(m, j), t[j + 1]);
        t[N + 1] = addc(t[N + 1], (W)0);
#pragma unroll
        for (int j = 0; j <= N; j++) t[j] = t[j + 1];
        t[N + 1] = 0;
    }
    mp_sub_once<W, N>(r, t, t[N], m); /* t < 2m */
}

/* a += b and a −= b over N words, no modulus: the caller knows the result fits (the carry or borrow out is dropped) */
template <typename W, int N> static __device__ __forceinline__ void mp_add_plain(W *a, const W *b)
{
    a[0] = add_cc(a[0], b[0]);
#pragma unroll
    for (int i = 1; i < N; i++) a[i] = addc_cc(a[i], b[i]);
}
template <typename W, int N> static __device__ __forceinline__ void mp_sub_plain(W *a, const W *b)
{
    a[0] = sub_cc(a[0], b[0]);
#pragma unroll
    for (int i = 1; i < N; i++) a[i] = subc_cc(a[i], b[i]);
}

/* ---- the same in two halves: a 2N-word product (or square), then a Montgomery reduction ------------------------
 * Separate halves let a sum of products be reduced once (Fp2 multiplication) and a square skip the repeated
 * cross products. */
/* t = a·b, 2N words */
template <typename W, int N> static __device__ __forceinline__ void mp_mul_wide(W *t, const W *a, const W *b)
{
#pragma unroll
    for (int j = 0; j < N; j++) t[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        W bi = b[i];
        /* before row i the sum is below 2^(W(N+i)): t[i+N] is free, and row i ends below 2^(W(N+i+1)) */
        t[i] = madlo_cc(a[0], bi, t[i]);
#pragma unroll
        for (int j = 1; j < N; j++) t[i + j] = madclo_cc(a[j], bi, t[i + j]);
        t[i + N] = addc((W)0, (W)0);
        t[i + 1] = madhi_cc(a[0], bi, t[i + 1]);
#pragma unroll
        for (int j = 1; j < N; j++) t[i + j + 1] = madchi_cc(a[j], bi, t[i + j + 1]);
    }
}

/* t = a², 2N words: the cross products a_i·a_j (i < j) once, doubled, then the squares a_i² on the diagonal */
template <typename W, int N> static __device__ __forceinline__ void mp_sqr_wide(W *t, const W *a)
{
#pragma unroll
    for (int j = 0; j < 2 * N; j++) t[j] = 0;
#pragma unroll
    for (int i = 0; i < N - 1; i++) {
        W ai = a[i];
        /* row i: a_i·a_j for j > i, at words i + j; carries out at i + N (lo) and i + N + 1 (hi) */
        t[2 * i + 1] = madlo_cc(a[i + 1], ai, t[2 * i + 1]);
#pragma unroll
        for (int j = i + 2; j < N; j++) t[i + j] = madclo_cc(a[j], ai, t[i + j]);
        t[i + N] = addc_cc(t[i + N], (W)0);
        if (i + N + 1 < 2 * N) t[i + N + 1] = addc((W)0, (W)0);
        t[2 * i + 2] = madhi_cc(a[i + 1], ai, t[2 * i + 2]);
#pragma unroll
        for (int j = i + 2; j < N; j++) t[i + j + 1] = madchi_cc(a[j], ai, t[i + j + 1]);
        if (i + N + 1 < 2 * N) t[i + N + 1] = addc(t[i + N + 1], (W)0);
    }
    /* the cross sum is below a²/2: doubling it fits */
    t[0] = add_cc(t[0], t[0]);
#pragma unroll
    for (int j = 1; j < 2 * N; j++) t[j] = addc_cc(t[j], t[j]);
    t[0] = madlo_cc(a[0], a[0], t[0]);
    t[1] = madchi_cc(a[0], a[0], t[1]);
#pragma unroll
    for (int i = 1; i < N; i++) {
        t[2 * i] = madclo_cc(a[i], a[i], t[2 * i]);
        t[2 * i + 1] = madchi_cc(a[i], a[i], t[2 * i + 1]);
    }
}

/* r = t·2^(−W·N) mod m for a 2N-word t < m·2^(W·N), canonical; t is destroyed. Each step clears word i; its two
 * carries out of word i + N are kept in `pend` and added one step later, so no carry runs to the top. */
template <typename W, int N> static __device__ __forceinline__ void mp_redc(W *r, W *t, const uint64_t *m, W ninv)
{
    W pend = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        W q = t[i] * ninv;
        t[i] = madlo_cc(q, mod_word<W>(m, 0), t[i]);
#pragma unroll
        for (int j = 1; j < N; j++) t[i + j] = madclo_cc(q, mod_word<W>(m, j), t[i + j]);
        t[i + N] = addc_cc(t[i + N], pend);
        W c = addc((W)0, (W)0);
        t[i + 1] = madhi_cc(q, mod_word<W>(m, 0), t[i + 1]);
#pragma unroll
        for (int j = 1; j < N; j++) t[i + j + 1] = madchi_cc(q, mod_word<W>(m, j), t[i + j + 1]);
        pend = addc(c, (W)0);
    }
    mp_sub_once<W, N>(r, t + N, pend, m); /* t[N .. 2N) + pend·2^(W·N) < 2m */
}

/* N 64-bit words from / to 2N little-endian 32-bit words (the same bytes) */
template <int N> static __device__ __forceinline__ void words_to64(uint64_t *x, const uint32_t *w)
{
#pragma unroll
    for (int i = 0; i < N; i++) x[i] = ((uint64_t)w[2 * i + 1] << 32) | w[2 * i];
}
template <int N> static __device__ __forceinline__ void words_from64(uint32_t *w, const uint64_t *z)
{
#pragma unroll
    for (int i = 0; i < N; i++) {
        w[2 * i] = (uint32_t)z[i];
        w[2 * i + 1] = (uint32_t)(z[i] >> 32);
    }
}

/* r = a·b·2^(−64N) mod m, product then reduction over N 64-bit words, on elements stored as 2N 32-bit words */
template <int N>
static __device__ __forceinline__ void mp_mul_sos64(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                                    const uint64_t *m, uint64_t ninv)
{
    uint64_t x[N], y[N], t[2 * N], z[N];
    words_to64<N>(x, a), words_to64<N>(y, b);
    mp_mul_wide<uint64_t, N>(t, x, y);
    mp_redc<uint64_t, N>(z, t, m, ninv);
    words_from64<N>(r, z);
}

/* t = a·b, 12 64-bit words, by one level of Karatsuba over 3-word halves: 27 word products instead of 36. With
 * a = a0 + a1·2^192 (a < 2^381, so a1 < 2^189) and b alike: z1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0
 * < 2^382 fits six words. The half sums carry at most one bit each (ca, cb), added back as ca·sb + cb·sa at 2^192
 * and ca·cb at 2^384 of a seven-word middle product, whose seventh word the subtractions bring back to zero. */
static __device__ __forceinline__ void mp_mul_wide_ka6(uint64_t *t, const uint64_t *a, const uint64_t *b)
{
    uint64_t z0[6], z2[6], m[6], sa[3], sb[3];
    mp_mul_wide<uint64_t, 3>(z0, a, b);
    mp_mul_wide<uint64_t, 3>(z2, a + 3, b + 3);
    sa[0] = add_cc(a[0], a[3]), sa[1] = addc_cc(a[1], a[4]), sa[2] = addc_cc(a[2], a[5]);
    uint64_t ca = addc((uint64_t)0, (uint64_t)0);
    sb[0] = add_cc(b[0], b[3]), sb[1] = addc_cc(b[1], b[4]), sb[2] = addc_cc(b[2], b[5]);
    uint64_t cb = addc((uint64_t)0, (uint64_t)0);
    uint64_t xa = (uint64_t)0 - ca, xb = (uint64_t)0 - cb, top = ca & cb;
    uint64_t ka[3] = {sb[0] & xa, sb[1] & xa, sb[2] & xa}, kb[3] = {sa[0] & xb, sa[1] & xb, sa[2] & xb};
    mp_mul_wide<uint64_t, 3>(m, sa, sb);
    m[3] = add_cc(m[3], ka[0]), m[4] = addc_cc(m[4], ka[1]), m[5] = addc_cc(m[5], ka[2]);
    top = addc(top, (uint64_t)0);
    m[3] = add_cc(m[3], kb[0]), m[4] = addc_cc(m[4], kb[1]), m[5] = addc_cc(m[5], kb[2]);
    top = addc(top, (uint64_t)0);
    m[0] = sub_cc(m[0], z0[0]);
#pragma unroll
    for (int i = 1; i < 6; i++) m[i] = subc_cc(m[i], z0[i]);
    top = subc(top, (uint64_t)0);
    m[0] = sub_cc(m[0], z2[0]);
#pragma unroll
    for (int i = 1; i < 6; i++) m[i] = subc_cc(m[i], z2[i]);
    top = subc(top, (uint64_t)0); /* 0 now: z1 < 2^382 */
    t[0] = z0[0], t[1] = z0[1], t[2] = z0[2];
    t[3] = add_cc(z0[3], m[0]), t[4] = addc_cc(z0[4], m[1]), t[5] = addc_cc(z0[5], m[2]);
    t[6] = addc_cc(z2[0], m[3]), t[7] = addc_cc(z2[1], m[4]), t[8] = addc_cc(z2[2], m[5]);
    t[9] = addc_cc(z2[3], top), t[10] = addc_cc(z2[4], (uint64_t)0), t[11] = addc(z2[5], (uint64_t)0);
}

/* ---- the alternatives, by field ---------------------------------------------------------------------------- */
static __device__ __forceinline__ void dfr_mul32(dfr *r, const dfr *a, const dfr *b)
{
    mp_mul<uint32_t, 8>(r->w, a->w, b->w, D_FR_P, (uint32_t)D_FR_NINV64);
}
static __device__ __forceinline__ void dfr_mul64(dfr *r, const dfr *a, const dfr *b)
{
    uint64_t x[4], y[4], z[4];
    words_to64<4>(x, a->w), words_to64<4>(y, b->w);
    mp_mul<uint64_t, 4>(z, x, y, D_FR_P, D_FR_NINV64);
    words_from64<4>(r->w, z);
}
/* product then reduction (SOS), 64-bit words */
static __device__ __forceinline__ void dfr_mul_sos64(dfr *r, const dfr *a, const dfr *b)
{
    mp_mul_sos64<4>(r->w, a->w, b->w, D_FR_P, D_FR_NINV64);
}
/* Fr only: its modulus has 32-bit words p0 = 1 and p1 = 2^32 − 1, and −p^−1 ≡ −1 (mod 2^32). So q = −t0, the low
 * word of q·p0 is q, and q·p1 = (q − [q ≠ 0])·2^32 + t0: four of the 2N multiply instructions of each reduction
 * step become additions. Same CIOS bounds as mp_mul. */
static __device__ __forceinline__ void dfr_mul_special(dfr *rr, const dfr *aa, const dfr *bb)
{
    const int N = 8;
    const uint32_t *a = aa->w, *b = bb->w;
    uint32_t t[N + 2];
#pragma unroll
    for (int j = 0; j < N + 2; j++) t[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        uint32_t bi = b[i];
        t[0] = madlo_cc(a[0], bi, t[0]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j] = madclo_cc(a[j], bi, t[j]);
        t[N] = addc_cc(t[N], 0u);
        t[N + 1] = addc(0u, 0u);
        t[1] = madhi_cc(a[0], bi, t[1]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j + 1] = madchi_cc(a[j], bi, t[j + 1]);
        t[N + 1] = addc(t[N + 1], 0u);
        uint32_t t0 = t[0], q = 0u - t0, h1 = q - (t0 != 0u);
        /* low halves: q·p0 = q, q·p1 low = t0, then the generic words */
        t[0] = add_cc(t0, q);
        t[1] = addc_cc(t[1], t0);
#pragma unroll
        for (int j = 2; j < N; j++) t[j] = madclo_cc(q, mod_word<uint32_t>(D_FR_P, j), t[j]);
        t[N] = addc_cc(t[N], 0u);
        t[N + 1] = addc(t[N + 1], 0u);
        /* high halves: q·p0 high = 0, q·p1 high = h1 */
        t[2] = add_cc(t[2], h1);
#pragma unroll
        for (int j = 2; j < N; j++) t[j + 1] = madchi_cc(q, mod_word<uint32_t>(D_FR_P, j), t[j + 1]);
        t[N + 1] = addc(t[N + 1], 0u);
#pragma unroll
        for (int j = 0; j <= N; j++) t[j] = t[j + 1];
        t[N + 1] = 0;
    }
    mp_sub_once<uint32_t, N>(rr->w, t, t[N], D_FR_P);
}
/* 28-bit digits, 64-bit columns: no carry chain (mont28.h) */
static __device__ __forceinline__ void dfr_mul28(dfr *r, const dfr *a, const dfr *b)
{
    m28_mul(MONT_FR, r->w, a->w, b->w);
}

static __device__ __forceinline__ void dfp_mul32(dfp *r, const dfp *a, const dfp *b)
{
    mp_mul<uint32_t, 12>(r->w, a->w, b->w, D_FP_P, (uint32_t)D_FP_NINV64);
}
static __device__ __forceinline__ void dfp_mul64(dfp *r, const dfp *a, const dfp *b)
{
    uint64_t x[6], y[6], z[6];
    words_to64<6>(x, a->w), words_to64<6>(y, b->w);
    mp_mul<uint64_t, 6>(z, x, y, D_FP_P, D_FP_NINV64);
    words_from64<6>(r->w, z);
}
static __device__ __forceinline__ void dfp_mul28(dfp *r, const dfp *a, const dfp *b)
{
    m28_mul(MONT_FP, r->w, a->w, b->w);
}
/* product then reduction (SOS), 64-bit and 32-bit words, and the dedicated squarings */
static __device__ __forceinline__ void dfp_mul_sos64(dfp *r, const dfp *a, const dfp *b)
{
    mp_mul_sos64<6>(r->w, a->w, b->w, D_FP_P, D_FP_NINV64);
}
static __device__ __forceinline__ void dfp_mul_ka(dfp *r, const dfp *a, const dfp *b)
{
    uint64_t x[6], y[6], t[12], z[6];
    words_to64<6>(x, a->w), words_to64<6>(y, b->w);
    mp_mul_wide_ka6(t, x, y);
    mp_redc<uint64_t, 6>(z, t, D_FP_P, D_FP_NINV64);
    words_from64<6>(r->w, z);
}
static __device__ __forceinline__ void dfp_mul_w(dfp *r, const dfp *a, const dfp *b)
{
    mw_mul_sos(MONT_FP, r->w, a->w, b->w);
}
static __device__ __forceinline__ void dfr_mul_w(dfr *r, const dfr *a, const dfr *b)
{
    mw_mul_sos(MONT_FR, r->w, a->w, b->w);
}
static __device__ __forceinline__ void dfr_mul_f64(dfr *r, const dfr *a, const dfr *b)
{
    f64_mul(MONT_FR, r->w, a->w, b->w);
}
static __device__ __forceinline__ void dfp_mul_f64(dfp *r, const dfp *a, const dfp *b)
{
    f64_mul(MONT_FP, r->w, a->w, b->w);
}
/* odd warps in double precision, even warps on the parity split (warp-uniform): each warp keeps one pipe busy */
static __device__ __forceinline__ bool warp_on_f64(void) { return (threadIdx.x >> 5) & 1; }
static __device__ __forceinline__ void dfr_mul_mix(dfr *r, const dfr *a, const dfr *b)
{
    if (warp_on_f64()) dfr_mul_f64(r, a, b);
    else dfr_mul_eo(r, a, b);
}
static __device__ __forceinline__ void dfp_mul_mix(dfp *r, const dfp *a, const dfp *b)
{
    if (warp_on_f64()) dfp_mul_f64(r, a, b);
    else dfp_mul_eo(r, a, b);
}
static __device__ __forceinline__ void dfp_sqr_sos64(dfp *r, const dfp *a)
{
    uint64_t x[6], t[12], z[6];
    words_to64<6>(x, a->w);
    mp_sqr_wide<uint64_t, 6>(t, x);
    mp_redc<uint64_t, 6>(z, t, D_FP_P, D_FP_NINV64);
    words_from64<6>(r->w, z);
}
static __device__ __forceinline__ void dfp_mul_sos32(dfp *r, const dfp *a, const dfp *b)
{
    uint32_t t[24];
    mp_mul_wide<uint32_t, 12>(t, a->w, b->w);
    mp_redc<uint32_t, 12>(r->w, t, D_FP_P, (uint32_t)D_FP_NINV64);
}
static __device__ __forceinline__ void dfp_sqr_sos32(dfp *r, const dfp *a)
{
    uint32_t t[24];
    mp_sqr_wide<uint32_t, 12>(t, a->w);
    mp_redc<uint32_t, 12>(r->w, t, D_FP_P, (uint32_t)D_FP_NINV64);
}

/* Karatsuba: c0 = a0b0 − a1b1, c1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 */
static __device__ __forceinline__ void dfp2_mul(dfp2 *r, const dfp2 *a, const dfp2 *b)
{
    dfp t0, t1, sa, sb;
    dfp_mul_call(&t0, &a->c0, &b->c0);
    dfp_mul_call(&t1, &a->c1, &b->c1);
    dfp_add(&sa, &a->c0, &a->c1);
    dfp_add(&sb, &b->c0, &b->c1);
    dfp_mul_call(&sa, &sa, &sb);
    dfp_sub(&r->c0, &t0, &t1);
    dfp_sub(&sa, &sa, &t0);
    dfp_sub(&r->c1, &sa, &t1);
}
/* Karatsuba with one reduction per coefficient (64-bit words):
 *   c1 = REDC((a0 + a1)(b0 + b1) − a0b0 − a1b1), the argument a0b1 + a1b0 < 2p² < p·2^384;
 *   c0 = REDC(a0b0 − a1b1 (+ p·2^384 when negative)), the argument in [0, p·2^384).
 * Three products and two reductions where dfp2_mul has three of each. */
static __device__ __noinline__ dfp2 dfp2_mul_lazy_out(dfp2 a, dfp2 b)
{
    uint64_t x0[6], x1[6], y0[6], y1[6], t0[12], t1[12], t2[12], z[6];
    words_to64<6>(x0, a.c0.w), words_to64<6>(x1, a.c1.w), words_to64<6>(y0, b.c0.w), words_to64<6>(y1, b.c1.w);
    mp_mul_wide<uint64_t, 6>(t0, x0, y0);
    mp_mul_wide<uint64_t, 6>(t1, x1, y1);
    /* a0 + a1 and b0 + b1 below 2p < 2^382: no reduction needed before the product */
    mp_add_plain<uint64_t, 6>(x0, x1);
    mp_add_plain<uint64_t, 6>(y0, y1);
    mp_mul_wide<uint64_t, 6>(t2, x0, y0);
    mp_sub_plain<uint64_t, 12>(t2, t0);
    mp_sub_plain<uint64_t, 12>(t2, t1);
    dfp2 r;
    mp_redc<uint64_t, 6>(z, t2, D_FP_P, D_FP_NINV64);
    words_from64<6>(r.c1.w, z);
    mp_sub_plain<uint64_t, 12>(t0, t1);
    uint64_t neg = subc((uint64_t)0, (uint64_t)0); /* the chain's borrow: all ones when a0b0 < a1b1 */
    t0[6] = add_cc(t0[6], D_FP_P[0] & neg);
#pragma unroll
    for (int i = 1; i < 6; i++) t0[6 + i] = addc_cc(t0[6 + i], D_FP_P[i] & neg);
    mp_redc<uint64_t, 6>(z, t0, D_FP_P, D_FP_NINV64);
    words_from64<6>(r.c0.w, z);
    return r;
}
static __device__ __forceinline__ void dfp2_mul_lazy(dfp2 *r, const dfp2 *a, const dfp2 *b)
{
    *r = dfp2_mul_lazy_out(*a, *b);
}
/* c0 = (a0 + a1)(a0 − a1), c1 = 2·a0·a1 */
static __device__ __forceinline__ void dfp2_sqr(dfp2 *r, const dfp2 *a)
{
    dfp s, d, p;
    dfp_add(&s, &a->c0, &a->c1);
    dfp_sub(&d, &a->c0, &a->c1);
    dfp_mul_call(&p, &a->c0, &a->c1);
    dfp_mul_call(&r->c0, &s, &d);
    dfp_add(&r->c1, &p, &p);
}

#endif
