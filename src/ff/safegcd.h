/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Modular inversion by Bernstein–Yang divsteps ("Fast constant-time gcd computation and modular inversion", 2019),
 * in batches of 62 steps, shared by Fp and Fr.
 *
 * One divstep on (δ, f, g), f odd:
 *   δ > 0 and g odd:  (1 − δ, g, (g − f)/2)
 *   g odd otherwise:  (1 + δ, f, (g + f)/2)
 *   g even:           (1 + δ, f, g/2)
 * Starting from (1, m, x) the steps reach g = 0 with f = ±gcd(m, x) = ±1. The decisions of 62 steps depend only on
 * δ and the low 62 bits of f and g, so a batch runs on single words and yields a matrix T with
 *   2^62·(f', g') = T·(f, g),  |u| + |v| ≤ 2^62 and |q| + |r| ≤ 2^62  for T = [u v; q r],
 * which is then applied to the full-size values. Alongside, d and e with f ≡ d·x and g ≡ e·x (mod m) are updated
 * by the same matrix and divided by 2^62 modulo m (adding the multiple of m that clears the low 62 bits). At the
 * end x^-1 ≡ ±d.
 *
 * Big values are signed, in 62-bit limbs: limbs below the top in [0, 2^62), the top limb a signed int64. Sizes:
 * 7 limbs for p (381 bits), 5 for r (255 bits), enough for the (−2m, m) range that d and e pass through.
 *
 * Constant time: the theorem 11.2 bound of the paper says floor((49d + 57)/17) divsteps reach g = 0 for inputs
 * below 2^d (d ≥ 46): 1101 for d = 381 (18 batches of 62), 738 for d = 255 (12 batches). The constant-time
 * variant always runs that many, with masks instead of branches. The variable-time variant stops as soon as
 * g = 0, skips runs of zero bits with one count-trailing-zeros, clears up to 6 bits of g per elimination, and drops
 * top limbs of f and g once they are no longer needed. */
#ifndef CUZK_FF_SAFEGCD_H
#define CUZK_FF_SAFEGCD_H

#include <stddef.h>
#include <stdint.h>

#define SG_MAX_LIMBS 7
#define SG_MASK (((uint64_t)1 << 62) - 1)

typedef __int128 i128;

typedef struct {
    int64_t u, v, q, r;
} sg_matrix;

/* n 64-bit limbs (a non-negative value) to len 62-bit limbs */
static inline void sg_from_u64(int64_t *out, const uint64_t *in, size_t n, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        size_t bit = 62 * i, w = bit / 64, s = bit % 64;
        uint64_t x = w < n ? in[w] >> s : 0;
        if (s > 2 && w + 1 < n) x |= in[w + 1] << (64 - s);
        out[i] = (int64_t)(x & SG_MASK);
    }
}

/* len normalized 62-bit limbs of a value in [0, 2^(64n)) to n 64-bit limbs */
static inline void sg_to_u64(uint64_t *out, const int64_t *in, size_t n, size_t len)
{
    for (size_t w = 0; w < n; w++) {
        size_t bit = 64 * w, i = bit / 62, s = bit % 62;
        uint64_t x = (uint64_t)in[i] >> s;
        if (i + 1 < len) x |= (uint64_t)in[i + 1] << (62 - s); /* s ≤ 10 here: two limbs cover 64 bits */
        out[w] = x;
    }
}

/* 62 divsteps in constant time. Returns the new δ; *t receives the matrix. Only the low bits of f and g are used;
 * arithmetic is modulo 2^64, the final values of the matrix fit in int64. */
static inline int64_t sg_divsteps62_ct(int64_t delta, uint64_t f, uint64_t g, sg_matrix *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1, d = (uint64_t)delta;
    for (int i = 0; i < 62; i++) {
        /* swap when δ > 0 (−δ negative) and g odd */
        uint64_t c1 = (uint64_t)0 - ((((uint64_t)0 - d) >> 63) & g & 1);
        uint64_t x;
        x = (f ^ g) & c1, f ^= x, g ^= x, g = (g ^ c1) - c1;
        x = (u ^ q) & c1, u ^= x, q ^= x, q = (q ^ c1) - c1;
        x = (v ^ r) & c1, v ^= x, r ^= x, r = (r ^ c1) - c1;
        d = (d ^ c1) - c1;
        /* g odd now means: add f */
        uint64_t c2 = (uint64_t)0 - (g & 1);
        g += f & c2, q += u & c2, r += v & c2;
        /* halve g; doubling the f row instead keeps the matrix integral */
        g >>= 1, u += u, v += v, d += 1;
    }
    t->u = (int64_t)u, t->v = (int64_t)v, t->q = (int64_t)q, t->r = (int64_t)r;
    return (int64_t)d;
}

/* Up to 62 divsteps, variable time, with η = −δ. Returns the new η. */
static inline int64_t sg_divsteps62_var(int64_t eta, uint64_t f, uint64_t g, sg_matrix *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int left = 62;
    for (;;) {
        /* a run of even g: halve it that many times at once (bounded by the steps left) */
        int zeros = __builtin_ctzll(g | ((uint64_t)1 << left));
        g >>= zeros, u <<= zeros, v <<= zeros;
        eta -= zeros, left -= zeros;
        if (left == 0) break;
        /* g is odd; δ > 0 swaps the rows and negates the new g, after which both cases add f. Done with masks:
         * the condition is a coin flip, which a branch would mispredict half the time. */
        uint64_t c1 = (uint64_t)(eta >> 63), x;
        x = (f ^ g) & c1, f ^= x, g ^= x, g = (g ^ c1) - c1;
        x = (u ^ q) & c1, u ^= x, q ^= x, q = (q ^ c1) - c1;
        x = (v ^ r) & c1, v ^= x, r ^= x, r = (r ^ c1) - c1;
        eta = (int64_t)(((uint64_t)eta ^ c1) - c1);
        /* While η stays ≥ 0 the next steps only add f to odd g and halve: k of them add w·f with
         * w = −g/f mod 2^k, making k low bits of g zero. f⁻¹ mod 64 is f·(2 − f²) (f² ≡ 1 mod 8, one Newton step). */
        int k = eta + 1 < left ? (int)eta + 1 : left;
        if (k > 6) k = 6;
        uint64_t w = ((uint64_t)0 - g * f * (2 - f * f)) & (((uint64_t)1 << k) - 1);
        g += w * f, q += w * u, r += w * v;
    }
    t->u = (int64_t)u, t->v = (int64_t)v, t->q = (int64_t)q, t->r = (int64_t)r;
    return eta;
}

/* (f, g) = T·(f, g) / 2^62 on len limbs; the division is exact. */
static inline void sg_update_fg(int64_t *f, int64_t *g, const sg_matrix *t, size_t len)
{
    i128 cf = (i128)t->u * f[0] + (i128)t->v * g[0];
    i128 cg = (i128)t->q * f[0] + (i128)t->r * g[0];
    cf >>= 62, cg >>= 62;
    for (size_t i = 1; i < len; i++) {
        cf += (i128)t->u * f[i] + (i128)t->v * g[i];
        cg += (i128)t->q * f[i] + (i128)t->r * g[i];
        f[i - 1] = (int64_t)((uint64_t)cf & SG_MASK), cf >>= 62;
        g[i - 1] = (int64_t)((uint64_t)cg & SG_MASK), cg >>= 62;
    }
    f[len - 1] = (int64_t)cf, g[len - 1] = (int64_t)cg;
}

/* d = neg ? −d : d (neg is 0 or −1), then + m when negative: maps (−m, m) to [0, m) with normalized limbs. */
static inline void sg_normalize(int64_t *d, int64_t neg, const int64_t *m, size_t len)
{
    int64_t c = 0;
    for (size_t i = 0; i < len - 1; i++) {
        c += (d[i] ^ neg) - neg;
        d[i] = (int64_t)((uint64_t)c & SG_MASK), c >>= 62;
    }
    d[len - 1] = c + ((d[len - 1] ^ neg) - neg);
    int64_t s = d[len - 1] >> 63;
    c = 0;
    for (size_t i = 0; i < len - 1; i++) {
        c += d[i] + (m[i] & s);
        d[i] = (int64_t)((uint64_t)c & SG_MASK), c >>= 62;
    }
    d[len - 1] += c + (m[len - 1] & s);
}

/* (d, e) = T·(d, e) / 2^62 mod m, keeping both in (−m, m). minv62 = m⁻¹ mod 2^62.
 * With |d|, |e| < m the products are below 2^62·m in size; adding k·m with k in (−2^62, 0] chosen to clear the low
 * 62 bits lands in (−2m, m) after the division, and one conditional + m brings it back to (−m, m). */
static inline void sg_update_de(int64_t *d, int64_t *e, const sg_matrix *t, const int64_t *m, uint64_t minv62,
                                size_t len)
{
    uint64_t d0 = (uint64_t)d[0], e0 = (uint64_t)e[0];
    int64_t kd = -(int64_t)((((uint64_t)t->u * d0 + (uint64_t)t->v * e0) * minv62) & SG_MASK);
    int64_t ke = -(int64_t)((((uint64_t)t->q * d0 + (uint64_t)t->r * e0) * minv62) & SG_MASK);
    i128 cd = (i128)t->u * d[0] + (i128)t->v * e[0] + (i128)kd * m[0];
    i128 ce = (i128)t->q * d[0] + (i128)t->r * e[0] + (i128)ke * m[0];
    cd >>= 62, ce >>= 62;
    for (size_t i = 1; i < len; i++) {
        cd += (i128)t->u * d[i] + (i128)t->v * e[i] + (i128)kd * m[i];
        ce += (i128)t->q * d[i] + (i128)t->r * e[i] + (i128)ke * m[i];
        d[i - 1] = (int64_t)((uint64_t)cd & SG_MASK), cd >>= 62;
        e[i - 1] = (int64_t)((uint64_t)ce & SG_MASK), ce >>= 62;
    }
    d[len - 1] = (int64_t)cd, e[len - 1] = (int64_t)ce;
    sg_normalize(d, 0, m, len);
    sg_normalize(e, 0, m, len);
}

/* out = x⁻¹ mod m as a plain integer (n 64-bit limbs, x < m, m odd < 2^(62·len − 2)); 0 maps to 0.
 * Constant time in x: always `batches` batches. minv64 is −m⁻¹ mod 2^64 (the Montgomery constant). */
static inline void sg_inv_ct(uint64_t *out, const uint64_t *x, const uint64_t *mod, uint64_t minv64, size_t n,
                             size_t len, int batches)
{
    int64_t m[SG_MAX_LIMBS], f[SG_MAX_LIMBS], g[SG_MAX_LIMBS], d[SG_MAX_LIMBS] = {0}, e[SG_MAX_LIMBS] = {1};
    uint64_t minv62 = ((uint64_t)0 - minv64) & SG_MASK;
    sg_from_u64(m, mod, n, len);
    sg_from_u64(g, x, n, len);
    for (size_t i = 0; i < len; i++) f[i] = m[i];
    int64_t delta = 1;
    for (int b = 0; b < batches; b++) {
        sg_matrix t;
        delta = sg_divsteps62_ct(delta, (uint64_t)f[0] | ((uint64_t)f[1] << 62),
                                 (uint64_t)g[0] | ((uint64_t)g[1] << 62), &t);
        sg_update_fg(f, g, &t, len);
        sg_update_de(d, e, &t, m, minv62, len);
    }
    /* f = ±1 */
    sg_normalize(d, f[len - 1] >> 63, m, len);
    sg_to_u64(out, d, n, len);
}

static inline void sg_inv_var(uint64_t *out, const uint64_t *x, const uint64_t *mod, uint64_t minv64, size_t n,
                              size_t len)
{
    int64_t m[SG_MAX_LIMBS], f[SG_MAX_LIMBS], g[SG_MAX_LIMBS], d[SG_MAX_LIMBS] = {0}, e[SG_MAX_LIMBS] = {1};
    uint64_t minv62 = ((uint64_t)0 - minv64) & SG_MASK;
    sg_from_u64(m, mod, n, len);
    sg_from_u64(g, x, n, len);
    for (size_t i = 0; i < len; i++) f[i] = m[i];
    int64_t eta = -1;
    size_t flen = len; /* limbs still in use for f and g */
    for (;;) {
        int64_t any = 0;
        for (size_t i = 0; i < flen; i++) any |= g[i];
        if (any == 0) break;
        sg_matrix t;
        uint64_t f0 = (uint64_t)f[0] | (flen > 1 ? (uint64_t)f[1] << 62 : 0);
        uint64_t g0 = (uint64_t)g[0] | (flen > 1 ? (uint64_t)g[1] << 62 : 0);
        eta = sg_divsteps62_var(eta, f0, g0, &t);
        sg_update_fg(f, g, &t, flen);
        sg_update_de(d, e, &t, m, minv62, len);
        /* |f| and |g| never grow; once both top limbs are 0 or −1 the top limb folds into the one below */
        int64_t ft = f[flen - 1], gt = g[flen - 1];
        if (flen > 1 && ft == (ft >> 63) && gt == (gt >> 63)) {
            f[flen - 2] = (int64_t)((uint64_t)f[flen - 2] | ((uint64_t)ft << 62));
            g[flen - 2] = (int64_t)((uint64_t)g[flen - 2] | ((uint64_t)gt << 62));
            flen--;
        }
    }
    sg_normalize(d, f[flen - 1] >> 63, m, len);
    sg_to_u64(out, d, n, len);
}

#endif
