/* Device field arithmetic for Fr (255 bits) and Fp (381 bits), Montgomery form, the same bytes as the CPU's cuzk_fr_t
 * and cuzk_fp_t (little-endian 64-bit limbs = little-endian 32-bit words on this little-endian machine), so arrays copy
 * between host and device unchanged. Every function returns the canonical (fully reduced) value, exactly like the
 * CPU layer, so results compare bit for bit.
 *
 * Multiplication is CIOS Montgomery over W-bit words (W = 32 or 64) written as PTX carry chains: mad.lo.cc /
 * madc.hi.cc accumulate the partial products a[j]·b[i] and m·p[j] into a running N+2 word sum; one word is shifted
 * out per outer step. The word width is a template parameter so the two can be measured against each other; the
 * 32-bit chains map one PTX instruction onto one IMAD, the 64-bit ones are expanded by ptxas.
 *
 * The carry flag lives between consecutive asm statements: each chain is a run of asm volatile statements with no
 * compiler-generated carry arithmetic in between. */
#ifndef CUZK_GPU_FF_CUH
#define CUZK_GPU_FF_CUH

#include <stdint.h>

#include "mont28.h"
#include "mont32w.h"

/* ---- carry-chain primitives, overloaded on the word type ---------------------------------------------------------- */
#define CUZK_PTX3(name, ty, reg, op)                                                                                    \
    static __device__ __forceinline__ ty name(ty a, ty b)                                                              \
    {                                                                                                                  \
        ty d;                                                                                                          \
        asm volatile(op " %0, %1, %2;" : "=" reg(d) : reg(a), reg(b));                                                 \
        return d;                                                                                                      \
    }
#define CUZK_PTX4(name, ty, reg, op)                                                                                    \
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
CUZK_PTX4(madhi_cc, uint32_t, "r", "mad.hi.cc.u32")
CUZK_PTX4(madchi_cc, uint32_t, "r", "madc.hi.cc.u32")
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

#include "mont_eo.h" /* on the device it runs on the primitives above */
#include "mont_f64.h"
#include "inv_bgcd.h"

/* ---- constants --------------------------------------------------------------------------------------------------- */
/* Moduli as 64-bit limbs; the 32-bit views are the same bytes. ninv = −m^−1 mod 2^W. */
__constant__ uint64_t D_FR_P[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                   0x73eda753299d7d48ULL};
__constant__ uint64_t D_FP_P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                   0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
#define D_FR_NINV64 0xfffffffeffffffffULL
#define D_FP_NINV64 0x89f3fffcfffcfffdULL

/* Word i of a modulus given as 64-bit limbs, in W-bit words. */
template <typename W> static __device__ __forceinline__ W mod_word(const uint64_t *m, int i);
template <> __device__ __forceinline__ uint32_t mod_word<uint32_t>(const uint64_t *m, int i)
{
    return (uint32_t)(m[i >> 1] >> (32 * (i & 1)));
}
template <> __device__ __forceinline__ uint64_t mod_word<uint64_t>(const uint64_t *m, int i) { return m[i]; }

/* ---- generic N-word Montgomery arithmetic ------------------------------------------------------------------------ */
/* r = a + b mod m (inputs < m) */
template <typename W, int N> static __device__ __forceinline__ void mp_add(W *r, const W *a, const W *b, const uint64_t *m)
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
template <typename W, int N> static __device__ __forceinline__ void mp_sub(W *r, const W *a, const W *b, const uint64_t *m)
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
template <typename W, int N>
static __device__ __forceinline__ void mp_redc(W *r, W *t, const uint64_t *m, W ninv)
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
static __device__ __forceinline__ void mp_mul_sos64(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint64_t *m,
                                                    uint64_t ninv)
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

/* ---- Fr and Fp element types (same layout as cuzk_fr_t / cuzk_fp_t) ------------------------------------------------------- */
typedef struct __align__(16) { uint32_t w[8]; } dfr;
typedef struct __align__(16) { uint32_t w[12]; } dfp;
typedef struct __align__(16) { dfp c0, c1; } dfp2;

static __device__ __forceinline__ void dfr_add(dfr *r, const dfr *a, const dfr *b) { mp_add<uint32_t, 8>(r->w, a->w, b->w, D_FR_P); }
static __device__ __forceinline__ void dfr_sub(dfr *r, const dfr *a, const dfr *b) { mp_sub<uint32_t, 8>(r->w, a->w, b->w, D_FR_P); }
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
static __device__ __forceinline__ void dfr_mul28(dfr *r, const dfr *a, const dfr *b) { m28_mul(M28_FR, r->w, a->w, b->w); }

static __device__ __forceinline__ void dfp_add(dfp *r, const dfp *a, const dfp *b) { mp_add<uint32_t, 12>(r->w, a->w, b->w, D_FP_P); }
static __device__ __forceinline__ void dfp_sub(dfp *r, const dfp *a, const dfp *b) { mp_sub<uint32_t, 12>(r->w, a->w, b->w, D_FP_P); }
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
static __device__ __forceinline__ void dfp_mul28(dfp *r, const dfp *a, const dfp *b) { m28_mul(M28_FP, r->w, a->w, b->w); }

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
static __device__ __forceinline__ void dfp_mul_w(dfp *r, const dfp *a, const dfp *b) { mw_mul_sos(M28_FP, r->w, a->w, b->w); }
static __device__ __forceinline__ void dfr_mul_w(dfr *r, const dfr *a, const dfr *b) { mw_mul_sos(M28_FR, r->w, a->w, b->w); }
static __device__ __forceinline__ void dfp_mul_eo(dfp *r, const dfp *a, const dfp *b) { eo_mul(M28_FP, r->w, a->w, b->w); }
static __device__ __forceinline__ void dfr_mul_eo(dfr *r, const dfr *a, const dfr *b) { eo_mul(M28_FR, r->w, a->w, b->w); }
static __device__ __forceinline__ void dfp_sqr_eo(dfp *r, const dfp *a) { eo_sqr(M28_FP, r->w, a->w); }
static __device__ __forceinline__ void dfr_mul_f64(dfr *r, const dfr *a, const dfr *b) { f64_mul(M28_FR, r->w, a->w, b->w); }
static __device__ __forceinline__ void dfp_mul_f64(dfp *r, const dfp *a, const dfp *b) { f64_mul(M28_FP, r->w, a->w, b->w); }
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
/* The Fr multiplication and squaring of every kernel but the NTT's measured variants: the parity split measured
 * 20.9 ps against 25.1 for the 64-bit-word product then reduction, the fastest before it
 * (docs/performance/msm.md) */
static __device__ __forceinline__ void dfr_mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul_eo(r, a, b); }
static __device__ __forceinline__ void dfr_sqr(dfr *r, const dfr *a) { eo_sqr(M28_FR, r->w, a->w); }
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
 * Inlined, each of the ~10 multiplications of a point addition is ~1 000 instructions, and a kernel around a mixed
 * addition grew to 17 000 (G1) and 49 000 (G2) instructions, far more than the instruction caches hold; its warps
 * then stalled on instruction fetch (ncu), and calling one copy made the G1 and G2 bucket accumulations 1.5× and 2×
 * faster (docs/performance/msm.md). The parity split measured 39.3 ps against 53.2 for the 64-bit-word
 * product then reduction (the multiply-add pipe no longer builds addend pairs), G1 MSMs 20 % faster. */
static __device__ __noinline__ dfp dfp_mul_out(dfp a, dfp b)
{
    dfp r;
    dfp_mul_eo(&r, &a, &b);
    return r;
}
static __device__ __forceinline__ void dfp_mul_call(dfp *r, const dfp *a, const dfp *b) { *r = dfp_mul_out(*a, *b); }

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
static __device__ __forceinline__ void dfp2_mul_lazy(dfp2 *r, const dfp2 *a, const dfp2 *b) { *r = dfp2_mul_lazy_out(*a, *b); }
/* The same with the parity-split products and reductions (mont_eo.h): 3 × 144 + 2 × 144 word products against
 * 3 × 288 for three Fp multiplications. Alone 131.6 ps against dfp2_mul's 148.6. As the curve code's Fp2
 * multiplication beside dfp2_sqr it made the G2 MSM 2^22 slower, 111.8 ms against 105.1: a second large out-of-line
 * body beside dfp_mul_out. As both the multiplication and the squaring it is the only body and the G2 MSM is
 * faster (ec/ec.cuh; docs/performance/msm.md). */
static __device__ __noinline__ dfp2 dfp2_mul_eo_out(dfp2 a, dfp2 b)
{
    dfp2 r;
    eo_fp2_mul(r.c0.w, r.c1.w, a.c0.w, a.c1.w, b.c0.w, b.c1.w);
    return r;
}
static __device__ __forceinline__ void dfp2_mul_eo(dfp2 *r, const dfp2 *a, const dfp2 *b) { *r = dfp2_mul_eo_out(*a, *b); }
/* the out-of-line dedicated Fp squaring: the parity-split square (78 word products) and reduction (144) */
static __device__ __noinline__ dfp dfp_sqr_out(dfp a)
{
    dfp r;
    dfp_sqr_eo(&r, &a);
    return r;
}
static __device__ __forceinline__ void dfp_sqr_call(dfp *r, const dfp *a) { *r = dfp_sqr_out(*a); }
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
