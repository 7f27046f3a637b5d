/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Device curve arithmetic for G1 (over Fp) and G2 (over Fp2), written once over the coordinate field F.
 *
 * Points: affine (x, y), the point at infinity stored as x = y = 0 (as in ec.h), and XYZZ (X, Y, ZZ, ZZZ) with
 * x = X/ZZ, y = Y/ZZZ, infinity when ZZ = 0 (so all-zero memory is infinity). Same bytes as the CPU's cuzk_g1_affine_t,
 * cuzk_g1_xyzz_t, cuzk_g2_affine_t, cuzk_g2_xyzz_t. Both curves have a = 0.
 *
 * Operation counts (M = multiplication, S = squaring, in F): mixed addition XYZZ + affine 8M + 2S, addition
 * XYZZ + XYZZ 12M + 2S, doubling 6M + 3S (formulas of the XYZZ system, derived from x = X/ZZ, y = Y/ZZZ: the chord
 * slope is R/P with P = U2 − U1, R = S2 − S1 after bringing both points to a common ZZ, ZZZ). Every operation is
 * complete: infinity on either side, P = Q (doubling) and P = −Q (infinity) are recognized. */
#ifndef CUZK_GPU_EC_CUH
#define CUZK_GPU_EC_CUH

#include "ff/ff.cuh"

/* R mod p: one in Montgomery form */
static __constant__ uint64_t D_FP_ONE[6] = {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                                            0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL};

/* ---- field overloads: the curve templates call these for F = dfp and F = dfp2 ------------------------------------ */
/* multiplications go through the one out-of-line Fp multiplication (ff/ff.cuh says why) */
static __device__ __forceinline__ void f_add(dfp *r, const dfp *a, const dfp *b) { dfp_add(r, a, b); }
static __device__ __forceinline__ void f_sub(dfp *r, const dfp *a, const dfp *b) { dfp_sub(r, a, b); }
static __device__ __forceinline__ void f_mul(dfp *r, const dfp *a, const dfp *b) { dfp_mul_call(r, a, b); }
static __device__ __forceinline__ void f_sqr(dfp *r, const dfp *a) { dfp_mul_call(r, a, a); }
static __device__ __forceinline__ bool f_is_zero(const dfp *a)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 12; i++) acc |= a->w[i];
    return acc == 0;
}
static __device__ __forceinline__ void f_set_zero(dfp *r)
{
#pragma unroll
    for (int i = 0; i < 12; i++) r->w[i] = 0;
}
static __device__ __forceinline__ void f_set_one(dfp *r)
{
#pragma unroll
    for (int i = 0; i < 6; i++) {
        r->w[2 * i] = (uint32_t)D_FP_ONE[i];
        r->w[2 * i + 1] = (uint32_t)(D_FP_ONE[i] >> 32);
    }
}
static __device__ __forceinline__ void f_neg(dfp *r, const dfp *a)
{
    dfp z;
    f_set_zero(&z);
    dfp_sub(r, &z, a);
}

static __device__ __forceinline__ void f_add(dfp2 *r, const dfp2 *a, const dfp2 *b) { dfp2_add(r, a, b); }
static __device__ __forceinline__ void f_sub(dfp2 *r, const dfp2 *a, const dfp2 *b) { dfp2_sub(r, a, b); }
/* Fp2 products and squares both through the one out-of-line body of the one-reduction-per-coefficient product: with
 * the squaring as a product too, the G2 kernels call a single large body, which beat a cheaper separate squaring
 * (docs/performance/msm.md). */
static __device__ __forceinline__ void f_mul(dfp2 *r, const dfp2 *a, const dfp2 *b) { dfp2_mul_eo(r, a, b); }
static __device__ __forceinline__ void f_sqr(dfp2 *r, const dfp2 *a) { dfp2_mul_eo(r, a, a); }
static __device__ __forceinline__ bool f_is_zero(const dfp2 *a) { return f_is_zero(&a->c0) && f_is_zero(&a->c1); }
static __device__ __forceinline__ void f_set_zero(dfp2 *r)
{
    f_set_zero(&r->c0);
    f_set_zero(&r->c1);
}
static __device__ __forceinline__ void f_set_one(dfp2 *r)
{
    f_set_one(&r->c0);
    f_set_zero(&r->c1);
}
static __device__ __forceinline__ void f_neg(dfp2 *r, const dfp2 *a)
{
    f_neg(&r->c0, &a->c0);
    f_neg(&r->c1, &a->c1);
}

/* 1/a (0 gives 0): a^(p − 2) by fixed 4-bit windows of the public exponent, 380 squarings and at most 95
 * multiplications: the binary GCD's fallback, and its reference (CUZK_GPU_LAB_FP_INV). */
static __device__ __noinline__ dfp dfp_inv_fermat_out(dfp a)
{
    dfp tbl[16], r;
    f_set_one(&tbl[0]);
    tbl[1] = a;
    for (int i = 2; i < 16; i++) dfp_mul_call(&tbl[i], &tbl[i - 1], &a);
    bool started = false;
    for (int i = 95; i >= 0; i--) {
        uint64_t limb = D_FP_P[i >> 4] - (i >> 4 == 0 ? 2 : 0); /* p is odd: no borrow out of limb 0 */
        unsigned nib = (unsigned)(limb >> (4 * (i & 15))) & 15;
        if (started) {
            for (int k = 0; k < 4; k++) dfp_sqr_call(&r, &r);
            if (nib != 0) dfp_mul_call(&r, &r, &tbl[nib]);
        } else if (nib != 0) {
            r = tbl[nib];
            started = true;
        }
    }
    return r;
}
/* 1/a (0 gives 0) by the batched binary GCD (inv_bgcd.h), Fermat should it not converge: several times cheaper than
 * Fermat, which the batch-affine rounds feel (docs/performance/msm.md) */
static __device__ __noinline__ dfp dfp_inv_bgcd_out(dfp a)
{
    dfp r;
    if (!bg_inv(r.w, a.w)) r = dfp_inv_fermat_out(a);
    return r;
}
static __device__ __forceinline__ void f_inv(dfp *r, const dfp *a) { *r = dfp_inv_bgcd_out(*a); }
/* (c0 + c1·u)^−1 = (c0 − c1·u) / (c0² + c1²), as u² = −1 */
static __device__ __forceinline__ void f_inv(dfp2 *r, const dfp2 *a)
{
    dfp t0, t1;
    dfp_sqr_call(&t0, &a->c0);
    dfp_sqr_call(&t1, &a->c1);
    dfp_add(&t0, &t0, &t1);
    f_inv(&t0, &t0);
    dfp_mul_call(&r->c0, &a->c0, &t0);
    dfp_mul_call(&t1, &a->c1, &t0);
    f_neg(&r->c1, &t1);
}

/* The G1 coordinate field with the dedicated Fp squaring (same bytes; every other operation resolves to dfp's
 * overload): the curve code instantiated for it is measured side by side with the plain one
 * (cuzk_gpu_msm_opts.variant). */
struct dfp_sq : dfp {};
static __device__ __forceinline__ void f_sqr(dfp_sq *r, const dfp_sq *a) { dfp_sqr_call(r, a); }

/* ---- points ------------------------------------------------------------------------------------------------------ */
template <typename F> struct daff {
    F x, y;
};
template <typename F> struct dxyzz {
    F x, y, zz, zzz;
};

/* whole-element 16-byte loads and stores (every F is a multiple of 16 bytes, arrays are 16-byte aligned) */
template <typename T> static __device__ __forceinline__ T ld16(const T *p)
{
    static_assert(sizeof(T) % 16 == 0, "16-byte multiple");
    T r;
    const uint4 *s = (const uint4 *)p;
    uint4 *d = (uint4 *)&r;
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 16; i++) d[i] = s[i];
    return r;
}
template <typename T> static __device__ __forceinline__ void st16(T *p, const T &v)
{
    uint4 *d = (uint4 *)p;
    const uint4 *s = (const uint4 *)&v;
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 16; i++) d[i] = s[i];
}

template <typename F> static __device__ __forceinline__ void xyzz_set_inf(dxyzz<F> *r)
{
    f_set_zero(&r->x), f_set_zero(&r->y), f_set_zero(&r->zz), f_set_zero(&r->zzz);
}
template <typename F> static __device__ __forceinline__ bool xyzz_is_inf(const dxyzz<F> *p)
{
    return f_is_zero(&p->zz);
}
template <typename F> static __device__ __forceinline__ bool aff_is_inf(const daff<F> *p)
{
    return f_is_zero(&p->x) && f_is_zero(&p->y);
}

/* r = 2·(x, y) for an affine point (not infinity); y = 0 (2-torsion, absent from the groups) gives infinity. */
template <typename F> static __device__ __noinline__ void xyzz_dbl_aff(dxyzz<F> *r, const F &x, const F &y)
{
    F u, v, w, s, m, t;
    f_add(&u, &y, &y); /* U = 2y */
    f_sqr(&v, &u);     /* V = U² */
    f_mul(&w, &u, &v); /* W = U·V */
    f_mul(&s, &x, &v); /* S = x·V */
    f_sqr(&m, &x);
    f_add(&t, &m, &m);
    f_add(&m, &t, &m); /* M = 3x² */
    f_sqr(&t, &m);
    f_sub(&t, &t, &s);
    f_sub(&r->x, &t, &s); /* X3 = M² − 2S */
    f_sub(&t, &s, &r->x);
    f_mul(&t, &m, &t);
    f_mul(&u, &w, &y);
    f_sub(&r->y, &t, &u); /* Y3 = M(S − X3) − W·y */
    r->zz = v;
    r->zzz = w;
}

/* r = 2p (r may alias p) */
template <typename F> static __device__ __noinline__ void xyzz_dbl(dxyzz<F> *r, const dxyzz<F> *p)
{
    F u, v, w, s, m, t;
    f_add(&u, &p->y, &p->y);
    f_sqr(&v, &u);
    f_mul(&w, &u, &v);
    f_mul(&s, &p->x, &v);
    f_sqr(&m, &p->x);
    f_add(&t, &m, &m);
    f_add(&m, &t, &m);
    F y1 = p->y;
    f_mul(&r->zz, &v, &p->zz);
    f_mul(&r->zzz, &w, &p->zzz);
    f_sqr(&t, &m);
    f_sub(&t, &t, &s);
    f_sub(&r->x, &t, &s);
    f_sub(&t, &s, &r->x);
    f_mul(&t, &m, &t);
    f_mul(&u, &w, &y1);
    f_sub(&r->y, &t, &u);
}

/* acc += (x2, y2), an affine point that is not infinity */
template <typename F> static __device__ __forceinline__ void xyzz_madd(dxyzz<F> *acc, const F &x2, const F &y2)
{
    if (xyzz_is_inf(acc)) {
        acc->x = x2, acc->y = y2;
        f_set_one(&acc->zz), f_set_one(&acc->zzz);
        return;
    }
    F p, r, pp, ppp, q, t;
    f_mul(&p, &x2, &acc->zz);
    f_sub(&p, &p, &acc->x); /* P = x2·ZZ1 − X1 */
    f_mul(&r, &y2, &acc->zzz);
    f_sub(&r, &r, &acc->y); /* R = y2·ZZZ1 − Y1 */
    if (f_is_zero(&p)) {
        if (f_is_zero(&r)) xyzz_dbl_aff(acc, x2, y2);
        else xyzz_set_inf(acc);
        return;
    }
    f_sqr(&pp, &p);
    f_mul(&ppp, &p, &pp);
    f_mul(&q, &acc->x, &pp);
    f_mul(&acc->zz, &acc->zz, &pp);
    f_mul(&acc->zzz, &acc->zzz, &ppp);
    f_sqr(&t, &r);
    f_sub(&t, &t, &ppp);
    f_sub(&t, &t, &q);
    f_sub(&acc->x, &t, &q); /* X3 = R² − PPP − 2Q */
    f_sub(&t, &q, &acc->x);
    f_mul(&t, &r, &t);
    f_mul(&ppp, &acc->y, &ppp);
    f_sub(&acc->y, &t, &ppp); /* Y3 = R(Q − X3) − Y1·PPP */
}

/* r = a + b (r may alias a or b) */
template <typename F> static __device__ __noinline__ void xyzz_add(dxyzz<F> *r, const dxyzz<F> *a, const dxyzz<F> *b)
{
    if (xyzz_is_inf(b)) {
        *r = *a;
        return;
    }
    if (xyzz_is_inf(a)) {
        *r = *b;
        return;
    }
    F u1, s1, p, rr, pp, ppp, q, t;
    f_mul(&u1, &a->x, &b->zz);
    f_mul(&p, &b->x, &a->zz);
    f_sub(&p, &p, &u1); /* P = U2 − U1 */
    f_mul(&s1, &a->y, &b->zzz);
    f_mul(&rr, &b->y, &a->zzz);
    f_sub(&rr, &rr, &s1); /* R = S2 − S1 */
    if (f_is_zero(&p)) {
        if (f_is_zero(&rr)) xyzz_dbl(r, a);
        else xyzz_set_inf(r);
        return;
    }
    f_sqr(&pp, &p);
    f_mul(&ppp, &p, &pp);
    f_mul(&q, &u1, &pp);
    f_mul(&t, &a->zz, &b->zz);
    f_mul(&r->zz, &t, &pp);
    f_mul(&t, &a->zzz, &b->zzz);
    f_mul(&r->zzz, &t, &ppp);
    f_sqr(&t, &rr);
    f_sub(&t, &t, &ppp);
    f_sub(&t, &t, &q);
    f_sub(&r->x, &t, &q);
    f_sub(&t, &q, &r->x);
    f_mul(&t, &rr, &t);
    f_mul(&ppp, &s1, &ppp);
    f_sub(&r->y, &t, &ppp);
}

#endif
