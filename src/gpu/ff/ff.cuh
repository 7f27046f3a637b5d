/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Device field arithmetic for Fr (255 bits) and Fp (381 bits), Montgomery form, the same bytes as the CPU's cuzk_fr_t
 * and cuzk_fp_t (little-endian 64-bit limbs = little-endian 32-bit words on this little-endian machine), so arrays copy
 * between host and device unchanged. Every function returns the canonical (fully reduced) value, exactly like the
 * CPU layer, so results compare bit for bit.
 *
 * Multiplication is CIOS Montgomery over 32-bit words with the word products split by parity (mont_eo.h), written
 * as PTX carry chains. The carry flag lives between consecutive asm statements: each chain is a run of asm volatile
 * statements with no compiler-generated carry arithmetic in between. The measured alternatives (other word sizes,
 * product then reduction, 28-bit digits, the FP64 pipe) are the lab's (src/gpu/lab, docs/performance/msm.md). */
#ifndef CUZK_GPU_FF_CUH
#define CUZK_GPU_FF_CUH

#include <stdint.h>

/* ---- carry-chain primitives -------------------------------------------------------------------------------------- */
#define CUZK_PTX3(name, ty, reg, op)                                                                                   \
    static __device__ __forceinline__ ty name(ty a, ty b)                                                              \
    {                                                                                                                  \
        ty d;                                                                                                          \
        asm volatile(op " %0, %1, %2;" : "=" reg(d) : reg(a), reg(b));                                                 \
        return d;                                                                                                      \
    }
#define CUZK_PTX4(name, ty, reg, op)                                                                                   \
    static __device__ __forceinline__ ty name(ty a, ty b, ty c)                                                        \
    {                                                                                                                  \
        ty d;                                                                                                          \
        asm volatile(op " %0, %1, %2, %3;" : "=" reg(d) : reg(a), reg(b), reg(c));                                     \
        return d;                                                                                                      \
    }
CUZK_PTX3(add_cc, uint32_t, "r", "add.cc.u32")
CUZK_PTX3(addc_cc, uint32_t, "r", "addc.cc.u32")
CUZK_PTX3(addc, uint32_t, "r", "addc.u32")
CUZK_PTX3(sub_cc, uint32_t, "r", "sub.cc.u32")
CUZK_PTX3(subc_cc, uint32_t, "r", "subc.cc.u32")
CUZK_PTX3(subc, uint32_t, "r", "subc.u32")
CUZK_PTX4(madlo_cc, uint32_t, "r", "mad.lo.cc.u32")
CUZK_PTX4(madclo_cc, uint32_t, "r", "madc.lo.cc.u32")
CUZK_PTX4(madchi_cc, uint32_t, "r", "madc.hi.cc.u32")

#include "mont_eo.h" /* on the device it runs on the primitives above */
#include "inv_bgcd.h"

/* ---- constants --------------------------------------------------------------------------------------------------- */
/* Moduli as 64-bit limbs; the 32-bit views are the same bytes. */
static __constant__ uint64_t D_FR_P[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                          0x73eda753299d7d48ULL};
static __constant__ uint64_t D_FP_P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                          0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

/* Word i of a modulus given as 64-bit limbs, in W-bit words. */
template <typename W> static __device__ __forceinline__ W mod_word(const uint64_t *m, int i);
template <> __device__ __forceinline__ uint32_t mod_word<uint32_t>(const uint64_t *m, int i)
{
    return (uint32_t)(m[i >> 1] >> (32 * (i & 1)));
}
template <> __device__ __forceinline__ uint64_t mod_word<uint64_t>(const uint64_t *m, int i) { return m[i]; }

/* ---- N-word modular addition and subtraction ------------------------------------------------------------------ */
/* r = a + b mod m (inputs < m) */
template <typename W, int N>
static __device__ __forceinline__ void mp_add(W *r, const W *a, const W *b, const uint64_t *m)
{
    W s[N], d[N];
    s[0] = add_cc(a[0], b[0]);
#pragma unroll
    for (int i = 1; i < N; i++) s[i] = addc_cc(a[i], b[i]);
    W c = addc((W)0, (W)0);
    d[0] = sub_cc(s[0], mod_word<W>(m, 0));
#pragma unroll
    for (int i = 1; i < N; i++) d[i] = subc_cc(s[i], mod_word<W>(m, i));
    W keep = subc(c, (W)0); /* all ones exactly when s < m (no carry out, borrow) */
#pragma unroll
    for (int i = 0; i < N; i++) r[i] = d[i] ^ ((s[i] ^ d[i]) & keep);
}

/* r = a − b mod m */
template <typename W, int N>
static __device__ __forceinline__ void mp_sub(W *r, const W *a, const W *b, const uint64_t *m)
{
    W d[N];
    d[0] = sub_cc(a[0], b[0]);
#pragma unroll
    for (int i = 1; i < N; i++) d[i] = subc_cc(a[i], b[i]);
    W mask = subc((W)0, (W)0); /* all ones on borrow */
    r[0] = add_cc(d[0], mod_word<W>(m, 0) & mask);
#pragma unroll
    for (int i = 1; i < N - 1; i++) r[i] = addc_cc(d[i], mod_word<W>(m, i) & mask);
    r[N - 1] = addc(d[N - 1], mod_word<W>(m, N - 1) & mask);
}

/* ---- Fr and Fp element types (same layout as cuzk_fr_t / cuzk_fp_t) ---------------------------------------------- */
/* clang-format off */
typedef struct __align__(16) { uint32_t w[8]; } dfr;
typedef struct __align__(16) { uint32_t w[12]; } dfp;
typedef struct __align__(16) { dfp c0, c1; } dfp2;
/* clang-format on */

static __device__ __forceinline__ void dfr_add(dfr *r, const dfr *a, const dfr *b)
{
    mp_add<uint32_t, 8>(r->w, a->w, b->w, D_FR_P);
}
static __device__ __forceinline__ void dfr_sub(dfr *r, const dfr *a, const dfr *b)
{
    mp_sub<uint32_t, 8>(r->w, a->w, b->w, D_FR_P);
}
static __device__ __forceinline__ void dfp_add(dfp *r, const dfp *a, const dfp *b)
{
    mp_add<uint32_t, 12>(r->w, a->w, b->w, D_FP_P);
}
static __device__ __forceinline__ void dfp_sub(dfp *r, const dfp *a, const dfp *b)
{
    mp_sub<uint32_t, 12>(r->w, a->w, b->w, D_FP_P);
}
static __device__ __forceinline__ void dfp_mul_eo(dfp *r, const dfp *a, const dfp *b)
{
    eo_mul(MONT_FP, r->w, a->w, b->w);
}
static __device__ __forceinline__ void dfr_mul_eo(dfr *r, const dfr *a, const dfr *b)
{
    eo_mul(MONT_FR, r->w, a->w, b->w);
}
static __device__ __forceinline__ void dfp_sqr_eo(dfp *r, const dfp *a) { eo_sqr(MONT_FP, r->w, a->w); }

/* The Fr multiplication and squaring of every kernel: the parity split, the fastest measured
 * (docs/performance/msm.md) */
static __device__ __forceinline__ void dfr_mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul_eo(r, a, b); }
static __device__ __forceinline__ void dfr_sqr(dfr *r, const dfr *a) { eo_sqr(MONT_FR, r->w, a->w); }

/* Fp2 = Fp[u]/(u² + 1) */
static __device__ __forceinline__ void dfp2_add(dfp2 *r, const dfp2 *a, const dfp2 *b)
{
    dfp_add(&r->c0, &a->c0, &b->c0);
    dfp_add(&r->c1, &a->c1, &b->c1);
}

static __device__ __forceinline__ void dfp2_sub(dfp2 *r, const dfp2 *a, const dfp2 *b)
{
    dfp_sub(&r->c0, &a->c0, &b->c0);
    dfp_sub(&r->c1, &a->c1, &b->c1);
}

/* The Fp multiplication the curve and Fp2 code call: one out-of-line copy of the parity-split CIOS (mont_eo.h).
 * Inlined, the ten multiplications of a point addition made kernels far larger than the instruction caches, and
 * their warps stalled on instruction fetch (docs/performance/msm.md). */
static __device__ __noinline__ dfp dfp_mul_out(dfp a, dfp b)
{
    dfp r;
    dfp_mul_eo(&r, &a, &b);
    return r;
}
static __device__ __forceinline__ void dfp_mul_call(dfp *r, const dfp *a, const dfp *b) { *r = dfp_mul_out(*a, *b); }

/* Fp2 by Karatsuba with one reduction per coefficient, on the parity-split products and reductions (mont_eo.h):
 * 3 × 144 + 2 × 144 word products against 3 × 288 for three Fp multiplications. The curve code's only Fp2 body,
 * for squares too: a second large body beside it slowed G2 (ec/ec.cuh; docs/performance/msm.md). */
static __device__ __noinline__ dfp2 dfp2_mul_eo_out(dfp2 a, dfp2 b)
{
    dfp2 r;
    eo_fp2_mul(r.c0.w, r.c1.w, a.c0.w, a.c1.w, b.c0.w, b.c1.w);
    return r;
}
static __device__ __forceinline__ void dfp2_mul_eo(dfp2 *r, const dfp2 *a, const dfp2 *b)
{
    *r = dfp2_mul_eo_out(*a, *b);
}
/* the out-of-line dedicated Fp squaring: the parity-split square (78 word products) and reduction (144) */
static __device__ __noinline__ dfp dfp_sqr_out(dfp a)
{
    dfp r;
    dfp_sqr_eo(&r, &a);
    return r;
}
static __device__ __forceinline__ void dfp_sqr_call(dfp *r, const dfp *a) { *r = dfp_sqr_out(*a); }

/* 16-byte loads and stores of whole elements */
static __device__ __forceinline__ dfr dfr_load(const dfr *p)
{
    const uint4 *q = (const uint4 *)p;
    uint4 x = q[0], y = q[1];
    dfr r = {{x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w}};
    return r;
}
static __device__ __forceinline__ void dfr_store(dfr *p, const dfr *v)
{
    uint4 *q = (uint4 *)p;
    q[0] = make_uint4(v->w[0], v->w[1], v->w[2], v->w[3]);
    q[1] = make_uint4(v->w[4], v->w[5], v->w[6], v->w[7]);
}
static __device__ __forceinline__ bool dfr_is_zero(const dfr *a)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) acc |= a->w[i];
    return acc == 0;
}
static __device__ __forceinline__ bool dfr_eq(const dfr *a, const dfr *b)
{
    uint32_t d = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) d |= a->w[i] ^ b->w[i];
    return d == 0;
}

/* a^e for a 64-bit exponent (left to right square and multiply); one = 1 in Montgomery form */
static __device__ __forceinline__ void dfr_pow_u64(dfr *r, const dfr *a, uint64_t e, const dfr *one)
{
    dfr acc = *one;
    int top = 63;
    while (top >= 0 && !((e >> top) & 1)) top--;
    for (int i = top; i >= 0; i--) {
        dfr_sqr(&acc, &acc);
        if ((e >> i) & 1) dfr_mul(&acc, &acc, a);
    }
    *r = acc;
}

#endif
