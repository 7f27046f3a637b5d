/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* snarkjs powers-of-tau files (.ptau, BLS12-381), already prepared for phase 2, from toxic waste known here: for test
 * fixtures, not a ceremony. Layout in docs/formats/snarkjs.md §3 and groth16.h.
 *
 * Every point is a generator times a scalar computed in Fr: the powers τ^i (times α or β), and for the prepared
 * sections the Lagrange values in closed form, L_i(τ) = (τ^N − 1)/N · ω^i/(τ − ω^i) for the 2^k domains (one batch
 * inversion per domain). The points are then made by fixed-base multiplication (fixed_base.c), a chunk at a time,
 * encoded and written, so memory holds the scalars and one chunk of points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16_internal.h"

enum {
    PT_HEADER = 1,
    PT_TAU_G1 = 2,
    PT_TAU_G2 = 3,
    PT_ALPHA_G1 = 4,
    PT_BETA_G1 = 5,
    PT_BETA_G2 = 6,
    PT_CONTRIB = 7,
    PT_LAG_TAU_G1 = 12, /* the Lagrange forms of 2, 3, 4, 5 */
    PT_LAG_TAU_G2 = 13,
    PT_LAG_ALPHA_G1 = 14,
    PT_LAG_BETA_G1 = 15,
};

#define PTAU_HEADER_BYTES (4 + CUZK_FP_BYTES + 4 + 4) /* n8, q, power, ceremonyPower */
#define PTAU_CHUNK 16384                              /* points multiplied, encoded and written together */

/* The point counts of sections 2-6 and 12-15 for a power p. */
static uint64_t ptau_count(uint32_t type, unsigned p)
{
    uint64_t n = (uint64_t)1 << p;
    switch (type) {
    case PT_TAU_G1: return 2 * n - 1;
    case PT_TAU_G2:
    case PT_ALPHA_G1:
    case PT_BETA_G1: return n;
    case PT_BETA_G2: return 1;
    case PT_LAG_TAU_G1: return 4 * n - 1; /* blocks 2^0 .. 2^(p+1) */
    default: return 2 * n - 1;            /* blocks 2^0 .. 2^p */
    }
}

static size_t ptau_point_bytes(uint32_t type)
{
    return type == PT_TAU_G2 || type == PT_BETA_G2 || type == PT_LAG_TAU_G2 ? CUZK_G2_IDEN3_BYTES : CUZK_G1_IDEN3_BYTES;
}

/* ---- writing ----------------------------------------------------------------------------------------------------- */

typedef struct {
    FILE *f;
    bool ok; /* false after the first failed write */
    unsigned threads;
    cuzk_g16_fb1_table t1;
    cuzk_g16_fb2_table t2;
    cuzk_fr_t *k;         /* PTAU_CHUNK scaled scalars */
    cuzk_g1_affine_t *p1; /* PTAU_CHUNK points of either group */
    cuzk_g2_affine_t *p2;
    uint8_t *bytes; /* PTAU_CHUNK encoded G2 points */
} ptau_out;

static void put_bytes(ptau_out *o, const void *p, size_t n)
{
    if (o->ok && fwrite(p, 1, n, o->f) != n) o->ok = false;
}

static void put_u32(ptau_out *o, uint32_t v) { put_bytes(o, &v, 4); }
static void put_u64(ptau_out *o, uint64_t v) { put_bytes(o, &v, 8); }

static void put_section(ptau_out *o, uint32_t type, uint64_t size)
{
    put_u32(o, type);
    put_u64(o, size);
}

/* The points k[i]·G, or k[i]·mul·G when mul is not NULL, for i < n, of G1 (g2 false) or G2. */
static void put_points(ptau_out *o, bool g2, const cuzk_fr_t *k, size_t n, const cuzk_fr_t *mul)
{
    for (size_t c = 0; c < n && o->ok; c += PTAU_CHUNK) {
        size_t m = n - c < PTAU_CHUNK ? n - c : PTAU_CHUNK;
        const cuzk_fr_t *kc = k + c;
        if (mul != NULL) {
            for (size_t i = 0; i < m; i++) cuzk_fr_mul(&o->k[i], &kc[i], mul);
            kc = o->k;
        }
        if (g2) {
            cuzk_g16_fb2_mul_many(o->p2, &o->t2, kc, m, o->threads);
            for (size_t i = 0; i < m; i++) cuzk_g2_to_iden3(o->bytes + i * CUZK_G2_IDEN3_BYTES, &o->p2[i]);
            put_bytes(o, o->bytes, m * CUZK_G2_IDEN3_BYTES);
        } else {
            cuzk_g16_fb1_mul_many(o->p1, &o->t1, kc, m, o->threads);
            for (size_t i = 0; i < m; i++) cuzk_g1_to_iden3(o->bytes + i * CUZK_G1_IDEN3_BYTES, &o->p1[i]);
            put_bytes(o, o->bytes, m * CUZK_G1_IDEN3_BYTES);
        }
    }
}

/* Section type whose points are k[0 .. count)·mul·G, with its section header. */
static void put_point_section(ptau_out *o, uint32_t type, unsigned p, const cuzk_fr_t *k, const cuzk_fr_t *mul)
{
    uint64_t n = ptau_count(type, p);
    put_section(o, type, n * ptau_point_bytes(type));
    put_points(o, ptau_point_bytes(type) == CUZK_G2_IDEN3_BYTES, k, n, mul);
}

/* lag[2^k − 1 + i] = L_i(τ) of the 2^k domain for k = 0 .. p + 1, i < 2^k (4·2^p − 1 values, section 12's layout);
 * in the last block the term of τ^(2^(p+1) − 1), which the file does not hold, is left out as prepare phase2 does:
 * L_i(X) = Σ_j ω^(−ij)·X^j / N, so that term is ω^i·τ^(N−1)/N. pw holds τ^0 .. τ^(2^(p+1) − 1). */
static cuzk_status ptau_lagrange(cuzk_fr_t *lag, const cuzk_fr_t *pw, unsigned p, const cuzk_fr_t *tau)
{
    uint64_t top = (uint64_t)2 << p;
    cuzk_fr_t *scratch = malloc(top * sizeof *scratch);
    if (scratch == NULL) return CUZK_ERR_NOMEM;
    cuzk_fr_t one, w, c;
    cuzk_fr_set_one(&one);
    for (unsigned k = 0; k <= p + 1; k++) {
        uint64_t n = (uint64_t)1 << k;
        cuzk_fr_root_of_unity(&w, k, CUZK_FR_ROOTS_GEN5);
        cuzk_g16_vanishing_over(&c, tau, n);
        cuzk_g16_lagrange(&lag[n - 1], scratch, n, &one, &w, tau, &c);
    }
    cuzk_fr_t t, x = one;
    cuzk_fr_from_u64(&t, top);
    cuzk_fr_inv_vartime(&t, &t);
    cuzk_fr_mul(&t, &t, &pw[top - 1]);
    for (uint64_t i = 0; i < top; i++) {
        cuzk_fr_t d;
        cuzk_fr_mul(&d, &x, &t);
        cuzk_fr_sub(&lag[top - 1 + i], &lag[top - 1 + i], &d);
        cuzk_fr_mul(&x, &x, &w);
    }
    free(scratch);
    return CUZK_OK;
}

static cuzk_status ptau_draw(cuzk_groth16_ptau_opts *t, const cuzk_groth16_ptau_opts *o, uint64_t order,
                             cuzk_errmsg *err)
{
    if (o->given_toxic) {
        *t = *o;
        if (cuzk_fr_is_zero(&t->alpha) || cuzk_fr_is_zero(&t->beta))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "given alpha or beta is zero");
        if (!cuzk_g16_tau_outside_domain(&t->tau, order))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "given tau lies in the 2^%d domain", __builtin_ctzll(order));
        return CUZK_OK;
    }
    cuzk_fr_t *all[3] = {&t->tau, &t->alpha, &t->beta};
    for (int i = 0; i < 3; i++) {
        do {
            if (cuzk_fr_random(all[i]) != CUZK_OK) return cuzk_fail(err, CUZK_ERR_IO, "OS random source failed");
        } while (cuzk_fr_is_zero(all[i]) || (i == 0 && !cuzk_g16_tau_outside_domain(all[i], order)));
    }
    return CUZK_OK;
}

cuzk_status cuzk_groth16_ptau_write(const char *path, unsigned power, const cuzk_groth16_ptau_opts *opts,
                                    cuzk_errmsg *err)
{
    if (path == NULL || opts == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (power < 1 || power > CUZK_PTAU_MAX_POWER)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "power %u outside 1 .. %d", power, CUZK_PTAU_MAX_POWER);
    unsigned p = power;
    uint64_t n = (uint64_t)1 << p, top = 2 * n;
    cuzk_groth16_ptau_opts tx;
    cuzk_status s = ptau_draw(&tx, opts, top, err);
    if (s != CUZK_OK) return s;

    ptau_out o = {.ok = true, .threads = opts->threads ? opts->threads : 1};
    cuzk_fr_t *pw = malloc(top * sizeof *pw), *lag = malloc((2 * top - 1) * sizeof *lag);
    o.k = malloc(PTAU_CHUNK * sizeof *o.k);
    o.p1 = malloc(PTAU_CHUNK * sizeof *o.p1);
    o.p2 = malloc(PTAU_CHUNK * sizeof *o.p2);
    o.bytes = malloc(PTAU_CHUNK * CUZK_G2_IDEN3_BYTES);
    if (pw == NULL || lag == NULL || o.k == NULL || o.p1 == NULL || o.p2 == NULL || o.bytes == NULL) {
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "cannot allocate the scalars of power %u", p);
        goto done;
    }
    cuzk_fr_set_one(&pw[0]);
    for (uint64_t i = 1; i < top; i++) cuzk_fr_mul(&pw[i], &pw[i - 1], &tx.tau);
    if ((s = ptau_lagrange(lag, pw, p, &tx.tau)) != CUZK_OK) {
        cuzk_fail(err, s, "cannot allocate the Lagrange values of power %u", p);
        goto done;
    }
    /* G1: sections 2, 4, 5, 12, 14, 15 (about 12·2^p points); G2: 3, 13 (about 3·2^p) */
    if ((s = cuzk_g16_fb1_table_build(&o.t1, 12 * n)) != CUZK_OK ||
        (s = cuzk_g16_fb2_table_build(&o.t2, 3 * n)) != CUZK_OK) {
        cuzk_fail(err, s, "cannot allocate the fixed-base tables");
        goto done;
    }
    if ((o.f = fopen(path, "wb")) == NULL) {
        s = cuzk_fail(err, CUZK_ERR_IO, "cannot create %s", path);
        goto done;
    }

    put_bytes(&o, "ptau", 4);
    put_u32(&o, 1);  /* version */
    put_u32(&o, 11); /* sections 1-7 and 12-15 */
    put_section(&o, PT_HEADER, PTAU_HEADER_BYTES);
    put_u32(&o, CUZK_FP_BYTES);
    for (int i = 0; i < CUZK_FP_LIMBS; i++) put_u64(&o, CUZK_FP_MODULUS[i]);
    put_u32(&o, p);
    put_u32(&o, p); /* ceremonyPower */
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    put_point_section(&o, PT_TAU_G1, p, pw, NULL);
    put_point_section(&o, PT_TAU_G2, p, pw, NULL);
    put_point_section(&o, PT_ALPHA_G1, p, pw, &tx.alpha);
    put_point_section(&o, PT_BETA_G1, p, pw, &tx.beta);
    put_point_section(&o, PT_BETA_G2, p, &one, &tx.beta);
    put_section(&o, PT_CONTRIB, 4);
    put_u32(&o, 0);
    put_point_section(&o, PT_LAG_TAU_G1, p, lag, NULL);
    put_point_section(&o, PT_LAG_TAU_G2, p, lag, NULL);
    put_point_section(&o, PT_LAG_ALPHA_G1, p, lag, &tx.alpha);
    put_point_section(&o, PT_LAG_BETA_G1, p, lag, &tx.beta);
    if (fclose(o.f) != 0) o.ok = false;
    if (!o.ok) {
        unlink(path);
        s = cuzk_fail(err, CUZK_ERR_IO, "cannot write %s", path);
    }

done:
    explicit_bzero(&tx, sizeof tx);
    cuzk_g16_fb1_table_free(&o.t1);
    cuzk_g16_fb2_table_free(&o.t2);
    free(pw);
    free(lag);
    free(o.k);
    free(o.p1);
    free(o.p2);
    free(o.bytes);
    return s;
}

/* ---- checking ---------------------------------------------------------------------------------------------------- */

/* How many sections of a type a checked container holds. */
static unsigned ptau_sections_of(const uint8_t *buf, uint32_t type)
{
    uint32_t nsect = cuzk_load_le32(buf + 8);
    unsigned found = 0;
    size_t pos = 12;
    for (uint32_t i = 0; i < nsect; i++) {
        found += cuzk_load_le32(buf + pos) == type;
        pos += 12 + (size_t)cuzk_load_le64(buf + pos + 4);
    }
    return found;
}

/* Decodes points [lo, lo + n) of a section (curve checked, infinity allowed): the first into *first (when not NULL),
 * the second into *second (when not NULL and n > 1), their sum into *sum (when not NULL). */
static cuzk_status ptau_g1_run(const uint8_t *sec, uint32_t type, uint64_t lo, uint64_t n, cuzk_g1_affine_t *first,
                               cuzk_g1_affine_t *second, cuzk_g1_jac_t *sum, cuzk_errmsg *err)
{
    if (sum != NULL) cuzk_g1_jac_set_infinity(sum);
    for (uint64_t i = 0; i < n; i++) {
        cuzk_g1_affine_t q;
        cuzk_status s = cuzk_g1_from_iden3(&q, sec + (lo + i) * CUZK_G1_IDEN3_BYTES, CUZK_G1_IDEN3_BYTES,
                                           CUZK_EC_DECODE_ALLOW_INFINITY | CUZK_EC_DECODE_SKIP_SUBGROUP);
        if (s != CUZK_OK)
            return cuzk_fail(err, s, "ptau: section %u point %llu is not a G1 point", type,
                             (unsigned long long)(lo + i));
        if (i == 0 && first != NULL) *first = q;
        if (i == 1 && second != NULL) *second = q;
        if (sum != NULL) cuzk_g1_jac_add_affine(sum, sum, &q);
    }
    return CUZK_OK;
}

static cuzk_status ptau_g2_run(const uint8_t *sec, uint32_t type, uint64_t lo, uint64_t n, cuzk_g2_affine_t *first,
                               cuzk_g2_affine_t *second, cuzk_g2_jac_t *sum, cuzk_errmsg *err)
{
    if (sum != NULL) cuzk_g2_jac_set_infinity(sum);
    for (uint64_t i = 0; i < n; i++) {
        cuzk_g2_affine_t q;
        cuzk_status s = cuzk_g2_from_iden3(&q, sec + (lo + i) * CUZK_G2_IDEN3_BYTES, CUZK_G2_IDEN3_BYTES,
                                           CUZK_EC_DECODE_ALLOW_INFINITY | CUZK_EC_DECODE_SKIP_SUBGROUP);
        if (s != CUZK_OK)
            return cuzk_fail(err, s, "ptau: section %u point %llu is not a G2 point", type,
                             (unsigned long long)(lo + i));
        if (i == 0 && first != NULL) *first = q;
        if (i == 1 && second != NULL) *second = q;
        if (sum != NULL) cuzk_g2_jac_add_affine(sum, sum, &q);
    }
    return CUZK_OK;
}

/* e(a, b) = e(c, d) */
static bool ptau_pairs_equal(const cuzk_g1_affine_t *a, const cuzk_g2_affine_t *b, const cuzk_g1_affine_t *c,
                             const cuzk_g2_affine_t *d)
{
    cuzk_g1_affine_t p[2] = {*a, *c};
    cuzk_g2_affine_t q[2] = {*b, *d};
    cuzk_g1_affine_neg(&p[1], &p[1]);
    return cuzk_multi_pairing_is_one(p, q, 2);
}

static cuzk_status ptau_check_buf(const uint8_t *buf, size_t len, cuzk_groth16_ptau_info *info, cuzk_errmsg *err)
{
    const uint8_t *sec[PT_LAG_BETA_G1 + 1] = {0};
    uint64_t size[PT_LAG_BETA_G1 + 1] = {0};
    cuzk_status s = cuzk_iden3_check(buf, len, "ptau", 1, "ptau", err);
    if (s == CUZK_OK) s = cuzk_iden3_find(buf, PT_HEADER, &sec[PT_HEADER], &size[PT_HEADER], "ptau", err);
    if (s != CUZK_OK) return s;
    const uint8_t *h = sec[PT_HEADER];
    if (size[PT_HEADER] < 4 + CUZK_FP_BYTES || cuzk_load_le32(h) != CUZK_FP_BYTES)
        return cuzk_fail(err, CUZK_ERR_WRONG_CURVE, "ptau: base field is not BLS12-381's");
    for (int i = 0; i < CUZK_FP_LIMBS; i++)
        if (cuzk_load_le64(h + 4 + 8 * i) != CUZK_FP_MODULUS[i])
            return cuzk_fail(err, CUZK_ERR_WRONG_CURVE, "ptau: base field is not BLS12-381's");
    if (size[PT_HEADER] != PTAU_HEADER_BYTES)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "ptau: header has %llu bytes, expected %d",
                         (unsigned long long)size[PT_HEADER], PTAU_HEADER_BYTES);
    info->power = cuzk_load_le32(h + 4 + CUZK_FP_BYTES);
    info->ceremony_power = cuzk_load_le32(h + 8 + CUZK_FP_BYTES);
    unsigned p = info->power;
    if (p < 1 || p > CUZK_PTAU_MAX_POWER)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "ptau: power %u outside 1 .. %d", p, CUZK_PTAU_MAX_POWER);
    info->prepared = ptau_sections_of(buf, PT_LAG_TAU_G1) > 0;
    for (uint32_t t = PT_TAU_G1; t <= PT_LAG_BETA_G1; t++) {
        if ((t > PT_CONTRIB && t < PT_LAG_TAU_G1) || (t >= PT_LAG_TAU_G1 && !info->prepared)) continue;
        if ((s = cuzk_iden3_find(buf, t, &sec[t], &size[t], "ptau", err)) != CUZK_OK) return s;
        if (t == PT_CONTRIB) {
            if (size[t] < 4) return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "ptau: contributions section is empty");
            info->contributions = cuzk_load_le32(sec[t]);
            continue;
        }
        uint64_t want = ptau_count(t, p) * ptau_point_bytes(t);
        if (size[t] != want)
            return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "ptau: section %u has %llu bytes, power %u needs %llu", t,
                             (unsigned long long)size[t], p, (unsigned long long)want);
    }

    /* every point, and the first two of each power section */
    cuzk_g1_affine_t g1, tau1[2], alpha1[2], beta1;
    cuzk_g2_affine_t g2, tau2[2], beta2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    if ((s = ptau_g1_run(sec[PT_TAU_G1], PT_TAU_G1, 0, ptau_count(PT_TAU_G1, p), &tau1[0], &tau1[1], NULL, err)) ||
        (s = ptau_g2_run(sec[PT_TAU_G2], PT_TAU_G2, 0, ptau_count(PT_TAU_G2, p), &tau2[0], &tau2[1], NULL, err)) ||
        (s = ptau_g1_run(sec[PT_ALPHA_G1], PT_ALPHA_G1, 0, ptau_count(PT_ALPHA_G1, p), &alpha1[0], &alpha1[1], NULL,
                         err)) ||
        (s = ptau_g1_run(sec[PT_BETA_G1], PT_BETA_G1, 0, ptau_count(PT_BETA_G1, p), &beta1, NULL, NULL, err)) ||
        (s = ptau_g2_run(sec[PT_BETA_G2], PT_BETA_G2, 0, 1, &beta2, NULL, NULL, err)))
        return s;
    if (!cuzk_g1_affine_eq(&tau1[0], &g1) || !cuzk_g2_affine_eq(&tau2[0], &g2))
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "ptau: the first powers of tau are not the generators");
    if (!ptau_pairs_equal(&tau1[1], &g2, &g1, &tau2[1]))
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "ptau: e(tau·G1, G2) != e(G1, tau·G2)");
    if (!ptau_pairs_equal(&alpha1[1], &g2, &alpha1[0], &tau2[1]))
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "ptau: e(alpha·tau·G1, G2) != e(alpha·G1, tau·G2)");
    if (!ptau_pairs_equal(&beta1, &g2, &g1, &beta2))
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "ptau: e(beta·G1, G2) != e(G1, beta·G2)");
    if (!info->prepared) return CUZK_OK;

    /* Σ_i L_i(τ) = 1 in every block (in the last block of 12 too: the dropped term ω^i·τ^(N−1)/N sums to zero) */
    const cuzk_g1_affine_t *want1[] = {
        [PT_LAG_TAU_G1] = &g1, [PT_LAG_ALPHA_G1] = &alpha1[0], [PT_LAG_BETA_G1] = &beta1};
    for (uint32_t t = PT_LAG_TAU_G1; t <= PT_LAG_BETA_G1; t++) {
        unsigned last = t == PT_LAG_TAU_G1 ? p + 1 : p;
        for (unsigned k = 0; k <= last; k++) {
            uint64_t n = (uint64_t)1 << k;
            bool eq;
            if (t == PT_LAG_TAU_G2) {
                cuzk_g2_jac_t sum, w;
                if ((s = ptau_g2_run(sec[t], t, n - 1, n, NULL, NULL, &sum, err)) != CUZK_OK) return s;
                cuzk_g2_jac_from_affine(&w, &g2);
                eq = cuzk_g2_jac_eq(&sum, &w);
            } else {
                cuzk_g1_jac_t sum, w;
                if ((s = ptau_g1_run(sec[t], t, n - 1, n, NULL, NULL, &sum, err)) != CUZK_OK) return s;
                cuzk_g1_jac_from_affine(&w, want1[t]);
                eq = cuzk_g1_jac_eq(&sum, &w);
            }
            if (!eq)
                return cuzk_fail(err, CUZK_ERR_MISMATCH,
                                 "ptau: section %u, the block of 2^%u Lagrange points does "
                                 "not sum to the first point of section %u",
                                 t, k, t - 10);
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_groth16_ptau_check_buf(const uint8_t *data, size_t len, cuzk_groth16_ptau_info *info, cuzk_errmsg *err)
{
    memset(info, 0, sizeof *info);
    return ptau_check_buf(data != NULL ? data : (const uint8_t *)"", data != NULL ? len : 0, info, err);
}

cuzk_status cuzk_groth16_ptau_check(const char *path, cuzk_groth16_ptau_info *info, cuzk_errmsg *err)
{
    memset(info, 0, sizeof *info);
    const uint8_t *data;
    size_t len;
    cuzk_status s = cuzk_map_file(path, &data, &len, err);
    if (s != CUZK_OK) return s;
    s = cuzk_groth16_ptau_check_buf(data, len, info, err);
    cuzk_unmap_file(data, len);
    return s;
}
