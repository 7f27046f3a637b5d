/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* GPU backend check (plain C, no test framework, so it also runs on machines without cmocka): device field
 * arithmetic and NTTs against the CPU layers, bit for bit, on fresh random inputs (seed printed; replay with
 * CUZK_TEST_SEED) and edge cases. Prints "N passed, M failed"; exits 77 (CTest skip) when no CUDA device exists.
 * `gpu_check quick` limits the NTT sizes to 2^16 (for slow CPUs); `gpu_check msm` runs only the MSM checks, at full
 * sizes (`msm_quick`: the small ones, e.g. under compute-sanitizer); `gpu_check keys` only the device keys (cuzk_gpu_setup against cuzk_groth16_setup, cuzk_gpu_key_load_params against
 * cuzk_groth16_params_load on good and malformed files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include "cuzk/circuits.h"
#include "gpu_testutil.h"
#include "cuzk/groth16.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "groth16/key_bases.h"
#include "gpu_lab.h"

static void rand_fp(cuzk_fp_t *r)
{
    for (;;) {
        uint64_t l[CUZK_FP_LIMBS];
        for (int i = 0; i < CUZK_FP_LIMBS; i++) l[i] = rnd();
        l[CUZK_FP_LIMBS - 1] &= 0x1fffffffffffffffULL;
        if (cuzk_fp_from_limbs(r, l) == CUZK_OK) return;
    }
}

/* edge values: 0, 1, 2, −1, −2, and raw Montgomery limbs 1 and m − 1 */
static void edge_fr(cuzk_fr_t *r, int i)
{
    uint64_t l[CUZK_FR_LIMBS] = {0};
    switch (i % 7) {
    case 0: cuzk_fr_set_zero(r); break;
    case 1: cuzk_fr_set_one(r); break;
    case 2: cuzk_fr_from_u64(r, 2); break;
    case 3:
        cuzk_fr_set_one(r);
        cuzk_fr_neg(r, r);
        break;
    case 4:
        cuzk_fr_from_u64(r, 2);
        cuzk_fr_neg(r, r);
        break;
    case 5:
        l[0] = 1;
        cuzk_fr_from_mont_limbs(r, l);
        break;
    default:
        memcpy(l, CUZK_FR_MODULUS, sizeof l);
        l[0] -= 1;
        cuzk_fr_from_mont_limbs(r, l);
        break;
    }
}
static void edge_fp(cuzk_fp_t *r, int i)
{
    uint64_t l[CUZK_FP_LIMBS] = {0};
    switch (i % 7) {
    case 0: cuzk_fp_set_zero(r); break;
    case 1: cuzk_fp_set_one(r); break;
    case 2: cuzk_fp_from_u64(r, 2); break;
    case 3:
        cuzk_fp_set_one(r);
        cuzk_fp_neg(r, r);
        break;
    case 4:
        cuzk_fp_from_u64(r, 2);
        cuzk_fp_neg(r, r);
        break;
    case 5:
        l[0] = 1;
        cuzk_fp_from_mont_limbs(r, l);
        break;
    default:
        memcpy(l, CUZK_FP_MODULUS, sizeof l);
        l[0] -= 1;
        cuzk_fp_from_mont_limbs(r, l);
        break;
    }
}

#define NF 4096
#define NEDGE 49 /* 7 × 7 pairs at the front */

static void check_ff(void)
{
    static cuzk_fr_t ra[NF], rb[NF], rr[NF], re[NF];
    static cuzk_fp_t pa[NF], pb[NF], pr[NF], pe[NF];
    static cuzk_fp2_t qa[NF], qb[NF], qr[NF], qe[NF];
    for (int i = 0; i < NF; i++) {
        if (i < NEDGE) {
            edge_fr(&ra[i], i / 7), edge_fr(&rb[i], i % 7);
            edge_fp(&pa[i], i / 7), edge_fp(&pb[i], i % 7);
        } else {
            rand_fr(&ra[i]), rand_fr(&rb[i]);
            rand_fp(&pa[i]), rand_fp(&pb[i]);
        }
        rand_fp(&qa[i].c0), rand_fp(&qa[i].c1), rand_fp(&qb[i].c0), rand_fp(&qb[i].c1);
        if (i < NEDGE) qa[i].c0 = pa[i], qb[i].c1 = pb[i];
    }
    /* Fp2 with both coefficients at the edges (p − 1 everywhere: the largest products; equal products) */
    for (int i = 0; i < NEDGE; i++) {
        edge_fp(&qa[NEDGE + i].c0, i / 7), edge_fp(&qa[NEDGE + i].c1, i % 7);
        edge_fp(&qb[NEDGE + i].c0, i % 7), edge_fp(&qb[NEDGE + i].c1, i / 7);
    }
    static const struct {
        cuzk_gpu_lab_ff_op op;
        const char *name;
        int field;
    } ops[] = {
        {CUZK_GPU_LAB_FR_ADD, "fr_add", 0},
        {CUZK_GPU_LAB_FR_SUB, "fr_sub", 0},
        {CUZK_GPU_LAB_FR_MUL, "fr_mul", 0},
        {CUZK_GPU_LAB_FR_SQR, "fr_sqr", 0},
        {CUZK_GPU_LAB_FR_MUL64, "fr_mul64", 0},
        {CUZK_GPU_LAB_FP_ADD, "fp_add", 1},
        {CUZK_GPU_LAB_FP_SUB, "fp_sub", 1},
        {CUZK_GPU_LAB_FP_MUL, "fp_mul", 1},
        {CUZK_GPU_LAB_FP_SQR, "fp_sqr", 1},
        {CUZK_GPU_LAB_FP_MUL64, "fp_mul64", 1},
        {CUZK_GPU_LAB_FP2_ADD, "fp2_add", 2},
        {CUZK_GPU_LAB_FP2_SUB, "fp2_sub", 2},
        {CUZK_GPU_LAB_FP2_MUL, "fp2_mul", 2},
        {CUZK_GPU_LAB_FP2_SQR, "fp2_sqr", 2},
        {CUZK_GPU_LAB_FR_MUL_SPECIAL, "fr_mul_special", 0},
        {CUZK_GPU_LAB_FR_MUL28, "fr_mul28", 0},
        {CUZK_GPU_LAB_FP_MUL28, "fp_mul28", 1},
        {CUZK_GPU_LAB_FP_MUL_SOS64, "fp_mul_sos64", 1},
        {CUZK_GPU_LAB_FP_SQR_SOS64, "fp_sqr_sos64", 1},
        {CUZK_GPU_LAB_FP_MUL_SOS32, "fp_mul_sos32", 1},
        {CUZK_GPU_LAB_FP_SQR_SOS32, "fp_sqr_sos32", 1},
        {CUZK_GPU_LAB_FP2_MUL_LAZY, "fp2_mul_lazy", 2},
        {CUZK_GPU_LAB_FR_MUL_SOS64, "fr_mul_sos64", 0},
        {CUZK_GPU_LAB_FP_INV, "fp_inv", 1},
        {CUZK_GPU_LAB_FP2_INV, "fp2_inv", 2},
        {CUZK_GPU_LAB_FP_MUL_KA, "fp_mul_ka", 1},
        {CUZK_GPU_LAB_FP_MUL_W, "fp_mul_w", 1},
        {CUZK_GPU_LAB_FR_MUL_W, "fr_mul_w", 0},
        {CUZK_GPU_LAB_FP_MUL_EO, "fp_mul_eo", 1},
        {CUZK_GPU_LAB_FR_MUL_EO, "fr_mul_eo", 0},
        {CUZK_GPU_LAB_FP_SQR_EO, "fp_sqr_eo", 1},
        {CUZK_GPU_LAB_FP2_MUL_EO, "fp2_mul_eo", 2},
        {CUZK_GPU_LAB_FR_MUL_F64, "fr_mul_f64", 0},
        {CUZK_GPU_LAB_FR_MUL_MIX, "fr_mul_mix", 0},
        {CUZK_GPU_LAB_FP_MUL_F64, "fp_mul_f64", 1},
        {CUZK_GPU_LAB_FP_MUL_MIX, "fp_mul_mix", 1},
        {CUZK_GPU_LAB_FP_MUL_ADD, "fp_mul_add", 1},
        {CUZK_GPU_LAB_FP_INV_BGCD, "fp_inv_bgcd", 1},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        cuzk_status st;
        int bad = 0, first = -1;
        char what[160];
        if (ops[k].field == 0) {
            st = cuzk_gpu_lab_ff_batch(ops[k].op, rr, ra, rb, NF);
            for (int i = 0; i < NF; i++) {
                switch (ops[k].op) {
                case CUZK_GPU_LAB_FR_ADD: cuzk_fr_add(&re[i], &ra[i], &rb[i]); break;
                case CUZK_GPU_LAB_FR_SUB: cuzk_fr_sub(&re[i], &ra[i], &rb[i]); break;
                case CUZK_GPU_LAB_FR_SQR: cuzk_fr_sqr(&re[i], &ra[i]); break;
                default: cuzk_fr_mul(&re[i], &ra[i], &rb[i]); break;
                }
                if (memcmp(&re[i], &rr[i], sizeof re[i]) != 0 && bad++ == 0) first = i;
            }
        } else if (ops[k].field == 1) {
            st = cuzk_gpu_lab_ff_batch(ops[k].op, pr, pa, pb, NF);
            for (int i = 0; i < NF; i++) {
                switch (ops[k].op) {
                case CUZK_GPU_LAB_FP_ADD: cuzk_fp_add(&pe[i], &pa[i], &pb[i]); break;
                case CUZK_GPU_LAB_FP_SUB: cuzk_fp_sub(&pe[i], &pa[i], &pb[i]); break;
                case CUZK_GPU_LAB_FP_SQR:
                case CUZK_GPU_LAB_FP_SQR_SOS64:
                case CUZK_GPU_LAB_FP_SQR_SOS32:
                case CUZK_GPU_LAB_FP_SQR_EO: cuzk_fp_sqr(&pe[i], &pa[i]); break;
                case CUZK_GPU_LAB_FP_INV:
                case CUZK_GPU_LAB_FP_INV_BGCD: cuzk_fp_inv(&pe[i], &pa[i]); break; /* edge values include 0 → 0 */
                case CUZK_GPU_LAB_FP_MUL_ADD: {                                    /* a·b + (a + b)(a − b) */
                    cuzk_fp_t c, d, cd;
                    cuzk_fp_add(&c, &pa[i], &pb[i]);
                    cuzk_fp_sub(&d, &pa[i], &pb[i]);
                    cuzk_fp_mul(&cd, &c, &d);
                    cuzk_fp_mul(&pe[i], &pa[i], &pb[i]);
                    cuzk_fp_add(&pe[i], &pe[i], &cd);
                    break;
                }
                default: cuzk_fp_mul(&pe[i], &pa[i], &pb[i]); break;
                }
                if (memcmp(&pe[i], &pr[i], sizeof pe[i]) != 0 && bad++ == 0) first = i;
            }
        } else {
            st = cuzk_gpu_lab_ff_batch(ops[k].op, qr, qa, qb, NF);
            for (int i = 0; i < NF; i++) {
                switch (ops[k].op) {
                case CUZK_GPU_LAB_FP2_ADD: cuzk_fp2_add(&qe[i], &qa[i], &qb[i]); break;
                case CUZK_GPU_LAB_FP2_SUB: cuzk_fp2_sub(&qe[i], &qa[i], &qb[i]); break;
                case CUZK_GPU_LAB_FP2_SQR: cuzk_fp2_sqr(&qe[i], &qa[i]); break;
                case CUZK_GPU_LAB_FP2_INV: cuzk_fp2_inv(&qe[i], &qa[i]); break;
                default: cuzk_fp2_mul(&qe[i], &qa[i], &qb[i]); break;
                }
                if (memcmp(&qe[i], &qr[i], sizeof qe[i]) != 0 && bad++ == 0) first = i;
            }
        }
        if (st != CUZK_OK) {
            snprintf(what, sizeof what, "%s: %s: %s", ops[k].name, cuzk_status_str(st), cuzk_gpu_last_error());
            check(0, what);
            continue;
        }
        snprintf(what, sizeof what, "%s: %d of %d differ from the CPU (first at %d)", ops[k].name, bad, NF, first);
        check(bad == 0, what);
    }
}

static const char *kind_name[] = {"forward", "inverse", "coset_forward", "coset_inverse"};

/* The domain options of an NTT variant word (cuzk_gpu_lab_ntt_opts: multiplier, radix, tables) */
static void ntt_variant(unsigned v, cuzk_gpu_ntt_opts *no)
{
    if (cuzk_gpu_lab_ntt_opts(no, v) != CUZK_OK) memset(no, 0, sizeof *no);
}

static void check_ntt(unsigned k, cuzk_fr_roots conv, cuzk_gpu_ntt_kind kind, unsigned threads,
                      const cuzk_gpu_ntt_opts *no)
{
    size_t n = (size_t)1 << k;
    cuzk_fr_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), g;
    char what[200];
    if (x == NULL || y == NULL) {
        check(0, "ntt: out of host memory");
        free(x), free(y);
        return;
    }
    for (size_t i = 0; i < n; i++) rand_fr(&x[i]);
    if (n >= 4) cuzk_fr_set_zero(&x[1]), cuzk_fr_set_one(&x[2]); /* a few edge values inside */
    if (rnd() & 1) cuzk_fr_from_u64(&g, 7);
    else rand_fr(&g);
    memcpy(y, x, n * sizeof *x);

    cuzk_ntt_domain cd;
    cuzk_gpu_ntt_domain *gd = NULL;
    cuzk_status st = cuzk_ntt_domain_init(&cd, k, conv);
    if (st == CUZK_OK) st = cuzk_gpu_ntt_domain_create(&gd, k, conv, no);
    if (st == CUZK_OK) st = cuzk_gpu_ntt_host(y, gd, kind, &g);
    if (st != CUZK_OK) {
        snprintf(what, sizeof what, "ntt 2^%u gen%d %s: %s: %s", k, (int)conv, kind_name[kind], cuzk_status_str(st),
                 cuzk_gpu_last_error());
        check(0, what);
    } else {
        switch (kind) {
        case CUZK_GPU_NTT_FORWARD: cuzk_ntt_forward(x, &cd, threads); break;
        case CUZK_GPU_NTT_INVERSE: cuzk_ntt_inverse(x, &cd, threads); break;
        case CUZK_GPU_NTT_COSET_FORWARD: cuzk_ntt_coset_forward(x, &cd, &g, threads); break;
        case CUZK_GPU_NTT_COSET_INVERSE: cuzk_ntt_coset_inverse(x, &cd, &g, threads); break;
        }
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; i++)
            if (memcmp(&x[i], &y[i], sizeof x[i]) != 0 && bad++ == 0) first = i;
        snprintf(what, sizeof what, "ntt 2^%u gen%d %s: %zu of %zu differ from the CPU (first at %zu)", k, (int)conv,
                 kind_name[kind], bad, n, first);
        check(bad == 0, what);
    }
    cuzk_gpu_ntt_domain_destroy(gd);
    cuzk_ntt_domain_free(&cd);
    free(x), free(y);
}

/* Device-pointer round trip at a size too large to compare with the CPU quickly: inverse(forward(x)) = x, with
 * coset, on a poisoned scratch. */
static void check_roundtrip(unsigned k)
{
    size_t n = (size_t)1 << k, chunk = (size_t)1 << 16;
    cuzk_fr_t *x = malloc(chunk * sizeof *x), *y = malloc(chunk * sizeof *y), *dx = NULL, g;
    cuzk_gpu_ntt_domain *gd = NULL;
    char what[200];
    for (size_t i = 0; i < chunk; i++) rand_fr(&x[i]);
    rand_fr(&g);
    cuzk_status st = cuzk_gpu_ntt_domain_create(&gd, k, CUZK_FR_ROOTS_GEN7, NULL);
    if (st == CUZK_OK) st = cuzk_gpu_malloc((void **)&dx, n * sizeof(cuzk_fr_t));
    for (size_t o = 0; st == CUZK_OK && o < n; o += chunk)
        st = cuzk_gpu_to_device(dx + o, x, chunk * sizeof(cuzk_fr_t));
    if (st == CUZK_OK) st = cuzk_gpu_ntt_coset_forward(dx, gd, &g);
    if (st == CUZK_OK) st = cuzk_gpu_ntt_coset_inverse(dx, gd, &g);
    if (st == CUZK_OK) st = cuzk_gpu_sync();
    size_t bad = 0;
    for (size_t o = 0; st == CUZK_OK && o < n; o += n / 8) {
        st = cuzk_gpu_to_host(y, dx + o, chunk * sizeof(cuzk_fr_t));
        for (size_t i = 0; st == CUZK_OK && i < chunk; i++) bad += memcmp(&x[i], &y[i], sizeof x[i]) != 0;
    }
    if (st != CUZK_OK)
        snprintf(what, sizeof what, "roundtrip 2^%u: %s: %s", k, cuzk_status_str(st), cuzk_gpu_last_error());
    else snprintf(what, sizeof what, "roundtrip 2^%u: %zu sampled elements differ", k, bad);
    check(st == CUZK_OK && bad == 0, what);
    cuzk_gpu_free(dx);
    cuzk_gpu_ntt_domain_destroy(gd);
    free(x), free(y);
}

/* ---- MSM --------------------------------------------------------------------------------------------------------- */
/* n distinct random points of G1 / G2: [k]G, then a chain of additions of another random multiple, one batch
 * normalization */
static void rand_g1_points(cuzk_g1_affine_t *out, size_t n)
{
    cuzk_g1_jac_t *j = malloc((n ? n : 1) * sizeof *j), q;
    cuzk_g1_affine_t g;
    cuzk_g1_generator(&g);
    uint64_t k0[4] = {rnd(), rnd(), rnd(), rnd() >> 2}, k1[4] = {rnd(), rnd(), rnd(), rnd() >> 2};
    cuzk_g1_jac_t G;
    cuzk_g1_jac_from_affine(&G, &g);
    cuzk_g1_jac_mul(&q, &G, k1, 4);
    cuzk_g1_affine_t qa;
    cuzk_g1_jac_to_affine(&qa, &q);
    if (n) cuzk_g1_jac_mul(&j[0], &G, k0, 4);
    for (size_t i = 1; i < n; i++) cuzk_g1_jac_add_affine(&j[i], &j[i - 1], &qa);
    cuzk_g1_jac_batch_to_affine(out, j, n);
    free(j);
}
static void rand_g2_points(cuzk_g2_affine_t *out, size_t n)
{
    cuzk_g2_jac_t *j = malloc((n ? n : 1) * sizeof *j), q;
    cuzk_g2_affine_t g;
    cuzk_g2_generator(&g);
    uint64_t k0[4] = {rnd(), rnd(), rnd(), rnd() >> 2}, k1[4] = {rnd(), rnd(), rnd(), rnd() >> 2};
    cuzk_g2_jac_t G;
    cuzk_g2_jac_from_affine(&G, &g);
    cuzk_g2_jac_mul(&q, &G, k1, 4);
    cuzk_g2_affine_t qa;
    cuzk_g2_jac_to_affine(&qa, &q);
    if (n) cuzk_g2_jac_mul(&j[0], &G, k0, 4);
    for (size_t i = 1; i < n; i++) cuzk_g2_jac_add_affine(&j[i], &j[i - 1], &qa);
    cuzk_g2_jac_batch_to_affine(out, j, n);
    free(j);
}

/* scalar and base patterns: 0 random, 1 edge-heavy (zeros, ones, −1, small, repeated and negated points,
 * infinity), 2 one scalar for all (every window's digit in one bucket), 3 small scalars (top windows empty),
 * 4 one scalar for all and bases in neighbouring pairs P, P and P, −P, some at infinity (the batch-affine rounds'
 * doubling, opposite points and infinity, since the sort keeps the order within a bucket) */
static void make_scalars(cuzk_fr_t *k, size_t n, int pattern)
{
    cuzk_fr_t same;
    rand_fr(&same);
    for (size_t i = 0; i < n; i++) {
        if (pattern == 2 || pattern == 4) {
            k[i] = same;
        } else if (pattern == 3) {
            cuzk_fr_from_u64(&k[i], rnd() & 0xffff);
        } else if (pattern == 1 && i % 3 == 0) {
            switch ((i / 3) % 5) {
            case 0: cuzk_fr_set_zero(&k[i]); break;
            case 1: cuzk_fr_set_one(&k[i]); break;
            case 2:
                cuzk_fr_set_one(&k[i]);
                cuzk_fr_neg(&k[i], &k[i]);
                break;
            case 3: cuzk_fr_from_u64(&k[i], (uint64_t)1 << (rnd() % 64)); break;
            default: k[i] = k[i - 1]; break;
            }
        } else {
            rand_fr(&k[i]);
        }
    }
}

#define MSM_CHECK(G, AFF, JAC, rand_points)                                                                            \
    static void check_##G##_msm(size_t n, int pattern, unsigned c, size_t group, cuzk_gpu_msm_ctx *ctx,                \
                                const cuzk_gpu_msm_opts *opts)                                                         \
    {                                                                                                                  \
        AFF *b = malloc((n ? n : 1) * sizeof *b), ra, rb;                                                              \
        cuzk_fr_t *k = malloc((n ? n : 1) * sizeof *k);                                                                \
        void *db = NULL, *dk = NULL;                                                                                   \
        char what[240];                                                                                                \
        rand_points(b, n);                                                                                             \
        if (pattern == 1) {                                                                                            \
            for (size_t i = 5; i < n; i += 7) b[i] = b[i - 1];                          /* repeated */                 \
            for (size_t i = 6; i < n; i += 11) cuzk_##G##_affine_neg(&b[i], &b[i - 2]); /* negated */                  \
            for (size_t i = 2; i < n; i += 13) cuzk_##G##_affine_set_infinity(&b[i]);   /* infinity */                 \
        }                                                                                                              \
        if (pattern == 4) {                                                                                            \
            for (size_t i = 1; i < n; i += 2) {                                                                        \
                if (i % 4 == 1) b[i] = b[i - 1];                                                                       \
                else cuzk_##G##_affine_neg(&b[i], &b[i - 1]);                                                          \
            }                                                                                                          \
            for (size_t i = 6; i < n; i += 13) cuzk_##G##_affine_set_infinity(&b[i]);                                  \
        }                                                                                                              \
        make_scalars(k, n, pattern);                                                                                   \
        JAC r1, r2;                                                                                                    \
        memset(&r2, 0xa5, sizeof r2); /* poison */                                                                     \
        cuzk_gpu_msm_opts mo = *opts;                                                                                  \
        mo.window = c, mo.group_items = group;                                                                         \
        cuzk_gpu_msm_ctx_set_opts(ctx, &mo);                                                                           \
        cuzk_status st = cuzk_gpu_malloc(&db, (n ? n : 1) * sizeof *b);                                                \
        if (st == CUZK_OK) st = cuzk_gpu_malloc(&dk, (n ? n : 1) * sizeof *k);                                         \
        if (st == CUZK_OK && n) st = cuzk_gpu_to_device(db, b, n * sizeof *b);                                         \
        if (st == CUZK_OK && n) st = cuzk_gpu_to_device(dk, k, n * sizeof *k);                                         \
        if (st == CUZK_OK) st = cuzk_gpu_##G##_msm(&r2, db, dk, n, ctx);                                               \
        if (st == CUZK_OK) st = cuzk_gpu_sync();                                                                       \
        cuzk_gpu_msm_ctx_set_opts(ctx, opts);                                                                          \
        if (st != CUZK_OK) {                                                                                           \
            snprintf(what, sizeof what, #G "_msm n=%zu pattern %d c=%u group %zu: %s: %s", n, pattern, c, group,       \
                     cuzk_status_str(st), cuzk_gpu_last_error());                                                      \
            check(0, what);                                                                                            \
        } else {                                                                                                       \
            cuzk_##G##_msm(&r1, b, k, n, 16);                                                                          \
            cuzk_##G##_jac_to_affine(&ra, &r1);                                                                        \
            cuzk_##G##_jac_to_affine(&rb, &r2);                                                                        \
            int ok = memcmp(&ra, &rb, sizeof ra) == 0;                                                                 \
            snprintf(what, sizeof what,                                                                                \
                     #G "_msm n=%zu pattern %d c=%u (auto %u) group %zu: GPU differs from the CPU (cpu inf %d x0 "     \
                        "%016llx, gpu inf %d x0 %016llx)",                                                             \
                     n, pattern, c, cuzk_gpu_msm_window_for(n), group, (int)cuzk_##G##_affine_is_infinity(&ra),        \
                     (unsigned long long)((uint64_t *)&ra)[0], (int)cuzk_##G##_affine_is_infinity(&rb),                \
                     (unsigned long long)((uint64_t *)&rb)[0]);                                                        \
            check(ok, what);                                                                                           \
        }                                                                                                              \
        cuzk_gpu_free(db), cuzk_gpu_free(dk);                                                                          \
        free(b), free(k);                                                                                              \
    }                                                                                                                  \
    static void check_##G##_batch(size_t n, int fill, cuzk_gpu_msm_ctx *ctx)                                           \
    {                                                                                                                  \
        size_t words = (n + 63) / 64 + 1;                                                                              \
        AFF *b = malloc((n ? n : 1) * sizeof *b), ra, rb;                                                              \
        uint64_t *bm = malloc(words * 8);                                                                              \
        void *db = NULL, *dm = NULL;                                                                                   \
        char what[200];                                                                                                \
        rand_points(b, n);                                                                                             \
        for (size_t i = 3; i < n; i += 17) cuzk_##G##_affine_set_infinity(&b[i]);                                      \
        /* neighbours equal and opposite: a slice's partial sum meets P + P or P + (−P) where they open it */        \
        for (size_t i = 5; i < n; i += 11) b[i] = b[i - 1];                                                            \
        for (size_t i = 9; i < n; i += 13) cuzk_##G##_affine_neg(&b[i], &b[i - 1]);                                    \
        for (size_t i = 0; i < words; i++)                                                                             \
            bm[i] = fill == 0 ? rnd() : fill == 1 ? ~0ULL : fill == 3 && i % 37 == 0 ? 1ULL << (rnd() & 63) : 0;       \
        JAC r1, r2;                                                                                                    \
        memset(&r2, 0xa5, sizeof r2);                                                                                  \
        cuzk_status st = cuzk_gpu_malloc(&db, (n ? n : 1) * sizeof *b);                                                \
        if (st == CUZK_OK) st = cuzk_gpu_malloc(&dm, words * 8);                                                       \
        if (st == CUZK_OK && n) st = cuzk_gpu_to_device(db, b, n * sizeof *b);                                         \
        if (st == CUZK_OK) st = cuzk_gpu_to_device(dm, bm, words * 8);                                                 \
        if (st == CUZK_OK) st = cuzk_gpu_##G##_batch_add(&r2, db, dm, n, ctx);                                         \
        if (st == CUZK_OK) st = cuzk_gpu_sync();                                                                       \
        if (st != CUZK_OK) {                                                                                           \
            snprintf(what, sizeof what, #G "_batch_add n=%zu fill %d: %s: %s", n, fill, cuzk_status_str(st),           \
                     cuzk_gpu_last_error());                                                                           \
            check(0, what);                                                                                            \
        } else {                                                                                                       \
            cuzk_##G##_batch_add(&r1, b, bm, n, 16);                                                                   \
            cuzk_##G##_jac_to_affine(&ra, &r1);                                                                        \
            cuzk_##G##_jac_to_affine(&rb, &r2);                                                                        \
            snprintf(what, sizeof what, #G "_batch_add n=%zu fill %d: GPU differs from the CPU", n, fill);             \
            check(memcmp(&ra, &rb, sizeof ra) == 0, what);                                                             \
        }                                                                                                              \
        cuzk_gpu_free(db), cuzk_gpu_free(dm);                                                                          \
        free(b), free(bm);                                                                                             \
    }
MSM_CHECK(g1, cuzk_g1_affine_t, cuzk_g1_jac_t, rand_g1_points)
MSM_CHECK(g2, cuzk_g2_affine_t, cuzk_g2_jac_t, rand_g2_points)

static void check_msm(int quick)
{
    cuzk_gpu_msm_opts mo;
    memset(&mo, 0, sizeof mo);
    cuzk_gpu_msm_ctx *ctx = NULL;
    if (cuzk_gpu_msm_ctx_create(&ctx, &mo) != CUZK_OK) {
        check(0, "gpu_msm_ctx_create");
        return;
    }
    static const size_t small[] = {0, 1, 2, 3, 7, 100, 1000, 4097};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        for (int pat = 0; pat < 5; pat++) {
            check_g1_msm(small[i], pat, 0, 0, ctx, &mo);
            if (i % 2 == 1 || pat == 1) check_g2_msm(small[i], pat, 0, 0, ctx, &mo);
        }
    }
    /* window widths, and windows processed in groups (a small cap on the pairs sorted at once) */
    static const unsigned cs[] = {2, 3, 5, 8, 11, 13, 16, 17, 19, 20, 22, 23};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        check_g1_msm(3001, i % 2, cs[i], 0, ctx, &mo);
        check_g1_msm(3001, 1, cs[i], 3001 * 3 + 5, ctx, &mo);
        if (i % 3 == 0) check_g2_msm(1500, 1, cs[i], 1500 * 2, ctx, &mo);
    }
    check_g1_msm(20000, 2, 16, 0, ctx, &mo);  /* one heavy bucket per window, spread over many slices */
    check_g1_msm(200000, 0, 17, 0, ctx, &mo); /* 1-bit top window: two buckets of 10^5 points, long head chains */
    check_g2_msm(50000, 1, 15, 0, ctx, &mo);
    check_g2_msm(5000, 2, 13, 0, ctx, &mo);
    /* the other accumulation and batch-addition builds: no register cap for G1, a cap of 128 for G2 */
    mo.variant = 0x41;
    cuzk_gpu_msm_ctx_set_opts(ctx, &mo);
    check_g1_msm(4097, 1, 0, 0, ctx, &mo);
    check_g1_msm(20000, 2, 16, 0, ctx, &mo);
    check_g1_msm(65536 + 7, 0, 0, 0, ctx, &mo);
    check_g2_msm(4097, 1, 0, 0, ctx, &mo);
    check_g2_msm(16384 + 3, 0, 0, 0, ctx, &mo);
    check_g1_batch(70001, 0, ctx);
    check_g2_batch(1000, 1, ctx);
    /* G1 with the plain and with the dedicated Fp squaring (G2 has one flavour); the bucket reduction over 2^13
     * and 2^18 threads (segments of many buckets, and of one) */
    static const unsigned flavours[] = {0x14, 0x114, 0x1114, 0x6114, 0x614, 0x714};
    for (size_t i = 0; i < sizeof flavours / sizeof flavours[0]; i++) {
        mo.variant = flavours[i];
        cuzk_gpu_msm_ctx_set_opts(ctx, &mo);
        printf("msm variant %#x\n", flavours[i]);
        check_g1_msm(5000, 4, 12, 0, ctx, &mo);
        check_g1_msm(5001, 4, 3, 0, ctx, &mo);
        check_g1_msm(3001, 0, 3, 0, ctx, &mo);
        check_g1_msm(3001, 3, 5, 0, ctx, &mo);
        check_g2_msm(2001, 4, 11, 0, ctx, &mo);
        check_g2_msm(1500, 0, 4, 0, ctx, &mo);
        check_g1_msm(4097, 1, 0, 0, ctx, &mo);
        check_g1_msm(20000, 2, 16, 0, ctx, &mo);
        check_g1_msm(3001, 1, 11, 3001 * 3 + 5, ctx, &mo);
        check_g2_msm(4097, 1, 0, 0, ctx, &mo);
        check_g2_msm(5000, 2, 13, 0, ctx, &mo);
        check_g2_msm(1500, 1, 8, 1500 * 2, ctx, &mo);
        check_g1_batch(70001, 0, ctx);
        check_g2_batch(1000, 1, ctx);
    }
    mo.variant = 0;
    cuzk_gpu_msm_ctx_set_opts(ctx, &mo);
    check_g1_msm(65536 + 7, 0, 0, 0, ctx, &mo);
    check_g1_msm(65536 + 7, 1, 0, 0, ctx, &mo);
    check_g2_msm(16384 + 3, 0, 0, 0, ctx, &mo);
    if (!quick) {
        check_g1_msm((size_t)1 << 20, 0, 0, 0, ctx, &mo);
        check_g1_msm((size_t)1 << 20, 3, 0, 0, ctx, &mo);
        check_g2_msm((size_t)1 << 18, 0, 0, 0, ctx, &mo);
        check_g1_msm(300000, 1, 20, 0, ctx, &mo);
    }
    static const size_t bn[] = {0, 1, 63, 64, 65, 1000, 70001};
    for (size_t i = 0; i < sizeof bn / sizeof bn[0]; i++) {
        for (int fill = 0; fill < 4; fill++) {
            check_g1_batch(bn[i], fill, ctx);
            if (i < 6 || fill == 0) check_g2_batch(bn[i], fill, ctx);
        }
    }
    if (!quick) {
        check_g1_batch((size_t)1 << 21, 0, ctx);
        /* slices of more than a word each (L = 77), most of their words empty */
        check_g1_batch(5000000, 3, ctx);
        check_g1_batch(5000000, 0, ctx);
    }
    cuzk_gpu_msm_ctx_destroy(ctx);
}

/* ---- device keys: cuzk_gpu_setup and cuzk_gpu_key_load_params ------------------------------------------------------------- */
/* A random builder circuit: ni inputs, na aux, m rows of 1-3 / 0-2 / 0-2 terms with coefficients ±1 or random.
 * With gaps, every aux variable j with j % 7 == 3 appears in no constraint (infinity in L, absent from a and b);
 * without, row r's first A term is variable r mod (ni + na), so that m >= ni + na uses every variable (a .params
 * file cannot hold a point at infinity). */
static cuzk_r1cs_t *rand_circuit(uint32_t ni, uint32_t na, uint64_t m, int gaps)
{
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(ni);
    cuzk_r1cs_var first;
    if (b == NULL || (na > 0 && cuzk_r1cs_builder_alloc_aux_n(b, na, &first) != CUZK_OK)) {
        cuzk_r1cs_builder_free(b);
        return NULL;
    }
    for (uint64_t row = 0; row < m; row++) {
        cuzk_r1cs_term t[3][3];
        size_t len[3] = {1 + rnd() % 3, rnd() % 3, rnd() % 3};
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < len[k]; i++) {
                uint64_t v = rnd() % (ni + na);
                if (!gaps && k == 0 && i == 0) v = row % (ni + na);
                if (gaps && v >= ni && (v - ni) % 7 == 3) v = rnd() % ni;
                t[k][i].var = v < ni ? CUZK_R1CS_INPUT(v) : CUZK_R1CS_AUX(v - ni);
                /* distinct variables within a combination: two terms of one variable could cancel, and a variable
                 * left in no combination has L = 0, a point at infinity that the .params format refuses */
                bool repeated = false;
                for (size_t j = 0; j < i; j++) repeated |= t[k][j].var == t[k][i].var;
                if (repeated) {
                    len[k] = i;
                    break;
                }
                switch (rnd() % 3) {
                case 0: cuzk_fr_set_one(&t[k][i].coeff); break;
                case 1:
                    cuzk_fr_set_one(&t[k][i].coeff);
                    cuzk_fr_neg(&t[k][i].coeff, &t[k][i].coeff);
                    break;
                default: rand_fr(&t[k][i].coeff); break;
                }
            }
        if (cuzk_r1cs_builder_enforce(b, t[0], len[0], t[1], len[1], t[2], len[2]) != CUZK_OK) {
            cuzk_r1cs_builder_free(b);
            return NULL;
        }
    }
    cuzk_r1cs_t *c = NULL;
    if (cuzk_r1cs_builder_finish(b, &c) != CUZK_OK) return NULL;
    return c;
}

/* n points of a key array (device or pinned host) against the host key's */
static size_t diff_points(const void *key_arr, const void *want, uint64_t n, size_t psz, int resident, size_t *first)
{
    size_t bad = 0;
    *first = 0;
    if (n == 0) return 0;
    uint8_t *got = malloc(n * psz);
    if (got == NULL) return n;
    if (resident) {
        if (cuzk_gpu_to_host(got, key_arr, n * psz) != CUZK_OK) {
            free(got);
            return n;
        }
    } else {
        memcpy(got, key_arr, n * psz);
    }
    for (uint64_t i = 0; i < n; i++)
        if (memcmp(got + i * psz, (const uint8_t *)want + i * psz, psz) != 0 && bad++ == 0) *first = i;
    free(got);
    return bad;
}

static void compare_key(const char *name, const cuzk_gpu_key *k, const cuzk_groth16_pk *pk)
{
    char what[800];
    cuzk_gpu_key_bases kb;
    cuzk_gpu_key_get_bases(k, &kb);
    snprintf(what, sizeof what, "%s: lengths h %llu/%llu l %llu/%llu a %llu/%llu b %llu/%llu", name,
             (unsigned long long)kb.h_len, (unsigned long long)pk->h_len, (unsigned long long)kb.l_len,
             (unsigned long long)pk->l_len, (unsigned long long)kb.a_len, (unsigned long long)pk->a_len,
             (unsigned long long)kb.b_len, (unsigned long long)pk->b_len);
    int same_len = kb.h_len == pk->h_len && kb.l_len == pk->l_len && kb.a_len == pk->a_len && kb.b_len == pk->b_len;
    check(same_len, what);
    if (!same_len) return;
    int res = kb.placement == CUZK_GPU_KEY_RESIDENT;
    struct {
        const char *n;
        const void *got, *want;
        uint64_t len;
        size_t psz;
    } arr[5] = {{"h", kb.h, pk->h, pk->h_len, sizeof(cuzk_g1_affine_t)},
                {"l", kb.l, pk->l, pk->l_len, sizeof(cuzk_g1_affine_t)},
                {"a", kb.a, pk->a, pk->a_len, sizeof(cuzk_g1_affine_t)},
                {"b_g1", kb.b_g1, pk->b_g1, pk->b_len, sizeof(cuzk_g1_affine_t)},
                {"b_g2", kb.b_g2, pk->b_g2, pk->b_len, sizeof(cuzk_g2_affine_t)}};
    for (int i = 0; i < 5; i++) {
        size_t first, bad = diff_points(arr[i].got, arr[i].want, arr[i].len, arr[i].psz, res, &first);
        snprintf(what, sizeof what, "%s: %s: %zu of %llu points differ (first at %zu)", name, arr[i].n, bad,
                 (unsigned long long)arr[i].len, first);
        check(bad == 0, what);
    }
    const cuzk_groth16_vk *vk = cuzk_gpu_key_vk(k);
    int vk_ok = vk->num_inputs == pk->vk.num_inputs &&
                memcmp(&vk->alpha_g1, &pk->vk.alpha_g1, sizeof vk->alpha_g1) == 0 &&
                memcmp(&vk->beta_g1, &pk->vk.beta_g1, sizeof vk->beta_g1) == 0 &&
                memcmp(&vk->delta_g1, &pk->vk.delta_g1, sizeof vk->delta_g1) == 0 &&
                memcmp(&vk->beta_g2, &pk->vk.beta_g2, sizeof vk->beta_g2) == 0 &&
                memcmp(&vk->gamma_g2, &pk->vk.gamma_g2, sizeof vk->gamma_g2) == 0 &&
                memcmp(&vk->delta_g2, &pk->vk.delta_g2, sizeof vk->delta_g2) == 0 &&
                memcmp(vk->ic, pk->vk.ic, pk->vk.num_inputs * sizeof(cuzk_g1_affine_t)) == 0;
    snprintf(what, sizeof what, "%s: verifying key differs", name);
    check(vk_ok, what);
}

static void rand_toxic(cuzk_groth16_setup_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threads = 16;
    o->given_toxic = true;
    o->conv = CUZK_GROTH16_BELLPERSON;
    rand_fr(&o->tau), rand_fr(&o->alpha), rand_fr(&o->beta), rand_fr(&o->gamma), rand_fr(&o->delta);
}

static void check_gpu_setup(const char *name, const cuzk_r1cs_t *c, cuzk_gpu_key_placement place, size_t chunk)
{
    char what[800];
    if (c == NULL) {
        snprintf(what, sizeof what, "setup %s: cannot build the circuit", name);
        check(0, what);
        return;
    }
    cuzk_groth16_setup_opts o;
    rand_toxic(&o);
    cuzk_groth16_pk pk;
    cuzk_errmsg e1 = {""}, e2 = {""};
    cuzk_gpu_key *k = NULL;
    cuzk_status s1 = cuzk_groth16_setup(&pk, c, &o, &e1);
    cuzk_gpu_key_opts ko = {place, 0, 1, 0, false, chunk};
    cuzk_status s2 = cuzk_gpu_setup(&k, c, &o, &ko, &e2);
    snprintf(what, sizeof what, "setup %s: cpu %s (%s), gpu %s (%s)", name, cuzk_status_str(s1), e1.msg,
             cuzk_status_str(s2), e2.msg);
    check(s1 == CUZK_OK && s2 == CUZK_OK, what);
    if (s1 == CUZK_OK && s2 == CUZK_OK) {
        cuzk_gpu_key_info info;
        cuzk_gpu_key_get_info(k, &info);
        snprintf(what, sizeof what, "setup %s: placement %d, asked %d", name, (int)info.placement, (int)place);
        check(place == CUZK_GPU_KEY_AUTO || info.placement == place, what);
        snprintf(what, sizeof what, "setup %s (n %llu, chunk %zu, %s, %.3f s)", name,
                 (unsigned long long)pk.domain_size, chunk,
                 info.placement == CUZK_GPU_KEY_RESIDENT ? "resident" : "streamed", info.upload_s);
        compare_key(what, k, &pk);
    }
    cuzk_gpu_key_free(k);
    if (s1 == CUZK_OK) cuzk_groth16_pk_free(&pk);
}

static int write_bytes(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) return 0;
    int ok = fwrite(d, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* Loads path with both loaders: same status and message; on success the same key. */
static void compare_loaders(const char *name, const char *path, const cuzk_r1cs_t *c, unsigned flags,
                            cuzk_status expect)
{
    char what[700];
    cuzk_groth16_pk pk;
    cuzk_errmsg e1 = {""}, e2 = {""};
    cuzk_gpu_key *k = NULL;
    double bps = 0;
    cuzk_status s1 = cuzk_groth16_params_load(&pk, path, flags, 16, &e1);
    cuzk_status s2 = cuzk_gpu_key_load_params(&k, path, c, flags, &bps, &e2);
    snprintf(what, sizeof what, "params %s: cpu %s (%s), gpu %s (%s), expected %s", name, cuzk_status_str(s1), e1.msg,
             cuzk_status_str(s2), e2.msg, cuzk_status_str(expect));
    check(s1 == expect && s2 == expect && (s1 == CUZK_OK || strcmp(e1.msg, e2.msg) == 0), what);
    if (s1 == CUZK_OK && s2 == CUZK_OK) {
        snprintf(what, sizeof what, "params %s (%.1f MB/s)", name, bps / 1e6);
        compare_key(what, k, &pk);
    }
    cuzk_gpu_key_free(k);
    if (s1 == CUZK_OK) cuzk_groth16_pk_free(&pk);
}

/* An on-curve point outside the subgroup: a random x with x³ + b a square (the cofactor is far from 1, so the
 * point is in the subgroup with negligible probability). */
static void off_subgroup_g1(uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES])
{
    cuzk_g1_affine_t p;
    cuzk_fp_t rhs;
    do {
        rand_fp(&p.x);
        cuzk_g1_curve_rhs(&rhs, &p.x);
    } while (!cuzk_fp_sqrt(&p.y, &rhs));
    cuzk_g1_to_uncompressed(out, &p);
}
static void off_subgroup_g2(uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES])
{
    cuzk_g2_affine_t p;
    cuzk_fp2_t rhs;
    do {
        rand_fp(&p.x.c0), rand_fp(&p.x.c1);
        cuzk_g2_curve_rhs(&rhs, &p.x);
    } while (!cuzk_fp2_sqrt(&p.y, &rhs));
    cuzk_g2_to_uncompressed(out, &p);
}

static void check_params_file(const char *name, const cuzk_r1cs_t *c)
{
    char what[800], path[128], bad_path[128];
    if (c == NULL) {
        snprintf(what, sizeof what, "params %s: cannot build the circuit", name);
        check(0, what);
        return;
    }
    snprintf(path, sizeof path, "/tmp/cuzk_gpu_check_%d.params", (int)getpid());
    snprintf(bad_path, sizeof bad_path, "/tmp/cuzk_gpu_check_%d_bad.params", (int)getpid());
    cuzk_groth16_setup_opts o;
    rand_toxic(&o);
    cuzk_groth16_pk pk;
    cuzk_errmsg e = {""};
    cuzk_status s = cuzk_groth16_setup(&pk, c, &o, &e);
    if (s == CUZK_OK) s = cuzk_groth16_params_write(&pk, path, &e);
    snprintf(what, sizeof what, "params %s: setup and write: %s (%s)", name, cuzk_status_str(s), e.msg);
    check(s == CUZK_OK, what);
    if (s != CUZK_OK) return;
    compare_loaders(name, path, c, 0, CUZK_OK);
    snprintf(what, sizeof what, "%s subgroup", name);
    compare_loaders(what, path, c, CUZK_GROTH16_LOAD_SUBGROUP, CUZK_OK);

    /* the file image and where each array starts */
    FILE *f = fopen(path, "rb");
    size_t len = 0;
    uint8_t *img = NULL;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) {
        len = (size_t)ftell(f);
        rewind(f);
        img = malloc(len + 1);
        if (img != NULL && fread(img, 1, len, f) != len) len = 0;
    }
    if (f != NULL) fclose(f);
    check(img != NULL && len > 0, "params: cannot read the written file back");
    if (img == NULL || len == 0) {
        free(img);
        cuzk_groth16_pk_free(&pk);
        remove(path);
        return;
    }
    uint64_t ni = pk.vk.num_inputs;
    size_t o_alpha = 0, o_ic = 864 + 4, o_h = o_ic + ni * 96 + 4, o_l = o_h + pk.h_len * 96 + 4;
    size_t o_a = o_l + pk.l_len * 96 + 4, o_b1 = o_a + pk.a_len * 96 + 4, o_b2 = o_b1 + pk.b_len * 96 + 4;
    uint8_t *m = malloc(len + 1);
    struct {
        const char *n;
        size_t at;      /* point start */
        int kind;       /* 0 flip y's last byte, 1 x >= p, 2 compressed flag, 3 sign flag, 4 infinity, 5 infinity with
                          * junk, 6 off-subgroup G1, 7 off-subgroup G2, 8 G2 x.c0 >= p */
        uint64_t avail; /* points in the array (mutation skipped when the index is beyond) */
        uint64_t idx;
    } mut[] = {
        {"off-curve h", o_h, 0, pk.h_len, 5},
        {"x >= p l", o_l, 1, pk.l_len, 2},
        {"compressed flag a", o_a, 2, pk.a_len, 1},
        {"sign flag b_g1", o_b1, 3, pk.b_len, 0},
        {"infinity b_g1", o_b1, 4, pk.b_len, 1},
        {"infinity junk h", o_h, 5, pk.h_len, 0},
        {"off-curve b_g2", o_b2, 0, pk.b_len, pk.b_len - 1},
        {"x.c0 >= p b_g2", o_b2, 8, pk.b_len, 0},
        {"infinity b_g2", o_b2, 4, pk.b_len, 2},
        {"off-curve alpha", o_alpha, 0, 1, 0},
        {"x >= p ic", o_ic, 1, ni, 0},
        {"off-curve a last", o_a, 0, pk.a_len, pk.a_len - 1},
    };
    static const cuzk_status want[] = {CUZK_ERR_NOT_ON_CURVE, CUZK_ERR_COORD_RANGE, CUZK_ERR_BAD_FLAGS,
                                       CUZK_ERR_BAD_FLAGS,    CUZK_ERR_INFINITY,    CUZK_ERR_BAD_FLAGS,
                                       CUZK_ERR_NOT_ON_CURVE, CUZK_ERR_COORD_RANGE, CUZK_ERR_INFINITY,
                                       CUZK_ERR_NOT_ON_CURVE, CUZK_ERR_COORD_RANGE, CUZK_ERR_NOT_ON_CURVE};
    for (size_t i = 0; i < sizeof mut / sizeof mut[0]; i++) {
        if (mut[i].idx >= mut[i].avail) continue;
        memcpy(m, img, len);
        size_t psz = mut[i].at == o_b2 ? 192 : 96;
        uint8_t *p = m + mut[i].at + mut[i].idx * psz;
        switch (mut[i].kind) {
        case 0: p[psz - 1] ^= 1; break; /* y ± 1: off the curve (or >= p, which the y's of both loaders agree on) */
        case 1:
            memset(p, 0xff, 48);
            p[0] = 0x1f;
            break;
        case 2: p[0] |= 0x80; break;
        case 3: p[0] |= 0x20; break;
        case 4:
            memset(p, 0, psz);
            p[0] = 0x40;
            break;
        case 5:
            memset(p, 0, psz);
            p[0] = 0x40;
            p[psz / 2] = 1;
            break;
        case 8: memset(p + 48, 0xff, 48); break;
        }
        int ok = write_bytes(bad_path, m, len);
        check(ok, "params: cannot write the malformed file");
        if (!ok) continue;
        snprintf(what, sizeof what, "%s: %s[%llu]", name, mut[i].n, (unsigned long long)mut[i].idx);
        /* kind 0 on y: y ^ 1 could land >= p only for y = p − 1; expect what the CPU says, checked equal */
        compare_loaders(what, bad_path, c, 0, want[i]);
    }
    /* two bad points: the lower array wins, and within an array the lower index */
    if (pk.h_len > 3 && pk.l_len > 9) {
        memcpy(m, img, len);
        m[o_l + 7 * 96 + 95] ^= 1;
        m[o_h + 3 * 96 + 95] ^= 1;
        m[o_l + 9 * 96] |= 0x80;
        m[o_l + 4 * 96] |= 0x80;
        if (write_bytes(bad_path, m, len)) compare_loaders("two arrays bad", bad_path, c, 0, CUZK_ERR_NOT_ON_CURVE);
        memcpy(m, img, len);
        m[o_l + 9 * 96] |= 0x80;
        m[o_l + 4 * 96 + 95] ^= 1;
        if (write_bytes(bad_path, m, len)) compare_loaders("two in l", bad_path, c, 0, CUZK_ERR_NOT_ON_CURVE);
    }
    /* off the subgroup: accepted without the flag (same key otherwise), refused with it */
    if (pk.h_len > 6 && pk.b_len > 1) {
        memcpy(m, img, len);
        off_subgroup_g1(m + o_h + 6 * 96);
        if (write_bytes(bad_path, m, len)) {
            compare_loaders("off-subgroup h[6]", bad_path, c, CUZK_GROTH16_LOAD_SUBGROUP, CUZK_ERR_NOT_IN_SUBGROUP);
            compare_loaders("off-subgroup h[6] unchecked", bad_path, c, 0, CUZK_OK);
        }
        memcpy(m, img, len);
        off_subgroup_g2(m + o_b2 + 1 * 192);
        if (write_bytes(bad_path, m, len))
            compare_loaders("off-subgroup b_g2[1]", bad_path, c, CUZK_GROTH16_LOAD_SUBGROUP, CUZK_ERR_NOT_IN_SUBGROUP);
    }
    /* lengths */
    if (write_bytes(bad_path, img, len - 1)) compare_loaders("truncated by 1", bad_path, c, 0, CUZK_ERR_TRUNCATED);
    if (write_bytes(bad_path, img, o_h + 10)) compare_loaders("truncated in h", bad_path, c, 0, CUZK_ERR_TRUNCATED);
    if (write_bytes(bad_path, img, 500)) compare_loaders("truncated in vk", bad_path, c, 0, CUZK_ERR_TRUNCATED);
    memcpy(m, img, len);
    m[len] = 0;
    if (write_bytes(bad_path, m, len + 1)) compare_loaders("trailing byte", bad_path, c, 0, CUZK_ERR_BAD_LENGTH);
    free(m);
    free(img);
    cuzk_groth16_pk_free(&pk);
    remove(path);
    remove(bad_path);
}

static void check_keys(int quick)
{
    cuzk_r1cs_t *tiny = rand_circuit(3, 20, 10, 1);
    cuzk_r1cs_t *mid = rand_circuit(4, 3000, 5000 + rnd() % 3000, 1); /* n = 2^13, aux absent from constraints */
    cuzk_r1cs_t *tiny_full = rand_circuit(3, 20, 30, 0), *mid_full = rand_circuit(2, 2500, 3000 + rnd() % 1000, 0);
    cuzk_r1cs_t *syn = NULL;
    cuzk_status s = cuzk_circuits_synthetic(quick ? 12 : 14, rnd(), 16, &syn, NULL, NULL);
    check(s == CUZK_OK, "circuits_synthetic");
    check_gpu_setup("tiny", tiny, CUZK_GPU_KEY_AUTO, 0);
    check_gpu_setup("tiny streamed", tiny, CUZK_GPU_KEY_STREAMED, 0);
    check_gpu_setup("mid", mid, CUZK_GPU_KEY_RESIDENT, 0);
    check_gpu_setup("mid chunked", mid, CUZK_GPU_KEY_RESIDENT, 1000 + rnd() % 1000);
    check_gpu_setup("mid streamed chunked", mid, CUZK_GPU_KEY_STREAMED, 777);
    if (syn != NULL) check_gpu_setup("synthetic", syn, CUZK_GPU_KEY_AUTO, 0);
    /* random toxic waste: only that it works and fits */
    {
        cuzk_groth16_setup_opts o;
        memset(&o, 0, sizeof o);
        cuzk_gpu_key *k = NULL;
        cuzk_errmsg e = {""};
        char what[800];
        s = cuzk_gpu_setup(&k, mid, &o, NULL, &e);
        snprintf(what, sizeof what, "gpu_setup with random toxic waste: %s (%s)", cuzk_status_str(s), e.msg);
        check(s == CUZK_OK && k != NULL && cuzk_gpu_key_vk(k)->num_inputs == 4, what);
        cuzk_gpu_key_free(k);
    }
    check_gpu_setup("tiny full", tiny_full, CUZK_GPU_KEY_AUTO, 0);
    check_params_file("tiny", tiny_full);
    check_params_file("mid", mid_full);
    if (syn != NULL) check_params_file("synthetic", syn);
    cuzk_r1cs_free(tiny);
    cuzk_r1cs_free(mid);
    cuzk_r1cs_free(tiny_full);
    cuzk_r1cs_free(mid_full);
    cuzk_r1cs_free(syn);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    int rc = gpu_test_start();
    if (rc != 0) return rc;

    if (argc > 1 && strcmp(argv[1], "keys") == 0) {
        check_keys(0);
        return gpu_test_finish();
    }
    if (argc > 1 && (strcmp(argv[1], "msm") == 0 || strcmp(argv[1], "msm_quick") == 0)) {
        check_msm(strcmp(argv[1], "msm_quick") == 0);
        return gpu_test_finish();
    }
    check_msm(quick);
    check_ff();
    check_keys(quick);

    unsigned threads = 16;
    cuzk_gpu_ntt_opts no;
    memset(&no, 0, sizeof no);
    unsigned maxk = quick ? 16 : 22;
    static const unsigned ks[] = {6, 7, 9, 10, 11, 12, 13, 15, 16, 17, 19, 20, 21, 22};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        if (ks[i] > maxk) continue;
        for (int kind = 0; kind < 4; kind++) {
            check_ntt(ks[i], CUZK_FR_ROOTS_GEN7, (cuzk_gpu_ntt_kind)kind, threads, &no);
            if (ks[i] % 3 == 0 || ks[i] == 20)
                check_ntt(ks[i], CUZK_FR_ROOTS_GEN5, (cuzk_gpu_ntt_kind)kind, threads, &no);
        }
    }
    /* the other kernel variants (multiplier, register radix) */
    /* 32 is the default; 24 and 48 are 8 and 32 without direct tables */
    static const unsigned variants[] = {0, 1, 2, 4, 5, 6, 8, 12, 24, 36, 48, 64, 68};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        ntt_variant(variants[v], &no);
        printf("variant %u\n", variants[v]);
        check_ntt(10, CUZK_FR_ROOTS_GEN7, CUZK_GPU_NTT_FORWARD, threads, &no);
        check_ntt(quick ? 14 : 21, CUZK_FR_ROOTS_GEN7, CUZK_GPU_NTT_COSET_FORWARD, threads, &no);
        check_ntt(quick ? 15 : 20, CUZK_FR_ROOTS_GEN5, CUZK_GPU_NTT_INVERSE, threads, &no);
        check_ntt(quick ? 13 : 22, CUZK_FR_ROOTS_GEN7, CUZK_GPU_NTT_COSET_INVERSE, threads, &no);
    }
    /* variant bit 7: whole tables of the n-th roots for the first pass and of the coset factors, from 2^21 (the
     * inverse's roots by negated exponent: a dropped negation gives the forward roots and fails) */
    {
        ntt_variant(160, &no);
        printf("variant 160\n");
        check_ntt(21, CUZK_FR_ROOTS_GEN7, CUZK_GPU_NTT_FORWARD, threads, &no);
        check_ntt(21, CUZK_FR_ROOTS_GEN5, CUZK_GPU_NTT_INVERSE, threads, &no);
        check_ntt(21, CUZK_FR_ROOTS_GEN7, CUZK_GPU_NTT_COSET_FORWARD, threads, &no);
        check_ntt(quick ? 21 : 22, CUZK_FR_ROOTS_GEN5, CUZK_GPU_NTT_COSET_INVERSE, threads, &no);
    }
    /* the other tile sizes */
    ntt_variant(32, &no);
    for (unsigned t = 9; t <= 10; t++) {
        no.tile_log2 = t;
        check_ntt(quick ? 14 : 21, CUZK_FR_ROOTS_GEN7, CUZK_GPU_NTT_FORWARD, threads, &no);
        check_ntt(quick ? 13 : 20, CUZK_FR_ROOTS_GEN5, CUZK_GPU_NTT_COSET_INVERSE, threads, &no);
    }
    no.tile_log2 = 0;
    if (!quick) {
        check_ntt(24, CUZK_FR_ROOTS_GEN7, CUZK_GPU_NTT_FORWARD, threads, &no);
        check_roundtrip(26);
    }
    return gpu_test_finish();
}
