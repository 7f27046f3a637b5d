/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk and blst side by side in one process (scripts/bench-vs-blst.sh builds this against a blst the user built):
 * the same inputs through both libraries' public APIs, each repetition timing cuzk then blst back to back by the
 * thread's CPU clock, so that both see the same load; every line has the two medians, their minima, the ratio
 * cuzk/blst of the medians and of the minima, and whether the two results are equal (both libraries hold Fp in
 * Montgomery form with R = 2^384, limbs little-endian, and build Fp12 the same way, so results compare by bytes).
 *
 *   cuzk-vs-blst [--filter NAME] [--reps N] [--max-msm-log2 K]     (K = 0: no MSM lines; default 20) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blst.h"
#include "cuzk/msm.h"
#include "cuzk/pairing.h"

#define KEEP(x) __asm__ volatile("" : : "g"(&(x)) : "memory")
#define MAX_REPS 101

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The operands: Fp, Fr, Fp2, Fp12 values (a cyclotomic one too), PAIRS pairs of points, and for the MSM, points
 * and scalars in both libraries' forms. */
#define PAIRS 4
static struct {
    cuzk_fp_t a, b;
    cuzk_fr_t c, d;
    cuzk_fp2_t x, y;
    cuzk_fp12_t f, g, m, ml;
    cuzk_g1_affine_t p[PAIRS];
    cuzk_g2_affine_t q[PAIRS];
    cuzk_g2_prepared_t q_prep; /* q[0] with its lines precomputed, both libraries (a verifier's fixed G2) */
    blst_fp6 q_lines[68];
    size_t msm_n;
    cuzk_g1_affine_t *bases;
    cuzk_fr_t *scalars;
    uint8_t *scalar_bytes;
    void *blst_scratch;
} in;

typedef struct {
    uint8_t cuzk[576], blst[576]; /* results as bytes: Fp12 at most */
    size_t len;
} result;

typedef enum {
    OP_FP_MUL,
    OP_FP_SQR,
    OP_FR_MUL,
    OP_FP2_MUL,
    OP_FP2_SQR,
    OP_FP12_MUL,
    OP_FP12_SQR,
    OP_CYC_SQR,
    OP_MILLER,
    OP_MILLER_PREPARED,
    OP_FINAL_EXP,
    OP_PAIRING,
    OP_MULTI3,
    OP_MULTI4,
    OP_MSM
} op_kind;

/* calls ops of kind k with cuzk (lib 0) or blst (lib 1); the last result into r */
static void run(op_kind k, int lib, long calls, result *r)
{
    uint8_t *out = lib ? r->blst : r->cuzk;
    switch (k) {
    case OP_FP_MUL:
    case OP_FP_SQR: {
        cuzk_fp_t v = in.a;
        blst_fp w;
        memcpy(&w, &in.a, sizeof w);
        for (long i = 0; i < calls; i++) {
            if (lib == 0) {
                if (k == OP_FP_MUL) cuzk_fp_mul(&v, &v, &in.b);
                else cuzk_fp_sqr(&v, &v);
            } else {
                if (k == OP_FP_MUL) blst_fp_mul(&w, &w, (const blst_fp *)&in.b);
                else blst_fp_sqr(&w, &w);
            }
        }
        KEEP(v);
        KEEP(w);
        memcpy(out, lib ? (void *)&w : (void *)&v, r->len = sizeof v);
        break;
    }
    case OP_FR_MUL: {
        cuzk_fr_t v = in.c;
        blst_fr w;
        memcpy(&w, &in.c, sizeof w);
        for (long i = 0; i < calls; i++) {
            if (lib == 0) cuzk_fr_mul(&v, &v, &in.d);
            else blst_fr_mul(&w, &w, (const blst_fr *)&in.d);
        }
        KEEP(v);
        KEEP(w);
        memcpy(out, lib ? (void *)&w : (void *)&v, r->len = sizeof v);
        break;
    }
    case OP_FP2_MUL:
    case OP_FP2_SQR: {
        cuzk_fp2_t v = in.x;
        blst_fp2 w;
        memcpy(&w, &in.x, sizeof w);
        for (long i = 0; i < calls; i++) {
            if (lib == 0) {
                if (k == OP_FP2_MUL) cuzk_fp2_mul(&v, &v, &in.y);
                else cuzk_fp2_sqr(&v, &v);
            } else {
                if (k == OP_FP2_MUL) blst_fp2_mul(&w, &w, (const blst_fp2 *)&in.y);
                else blst_fp2_sqr(&w, &w);
            }
        }
        KEEP(v);
        KEEP(w);
        memcpy(out, lib ? (void *)&w : (void *)&v, r->len = sizeof v);
        break;
    }
    case OP_FP12_MUL:
    case OP_FP12_SQR:
    case OP_CYC_SQR: {
        cuzk_fp12_t v = k == OP_CYC_SQR ? in.m : in.f;
        blst_fp12 w;
        memcpy(&w, &v, sizeof w);
        for (long i = 0; i < calls; i++) {
            if (lib == 0) {
                if (k == OP_FP12_MUL) cuzk_fp12_mul(&v, &v, &in.g);
                else if (k == OP_FP12_SQR) cuzk_fp12_sqr(&v, &v);
                else cuzk_fp12_cyclotomic_sqr(&v, &v);
            } else {
                if (k == OP_FP12_MUL) blst_fp12_mul(&w, &w, (const blst_fp12 *)&in.g);
                else if (k == OP_FP12_SQR) blst_fp12_sqr(&w, &w);
                else blst_fp12_cyclotomic_sqr(&w, &w);
            }
        }
        KEEP(v);
        KEEP(w);
        memcpy(out, lib ? (void *)&w : (void *)&v, r->len = sizeof v);
        break;
    }
    case OP_MILLER:
    case OP_FINAL_EXP:
    case OP_PAIRING:
    case OP_MULTI3:
    case OP_MULTI4: {
        size_t n = k == OP_MULTI3 ? 3 : k == OP_MULTI4 ? 4 : 1;
        cuzk_fp12_t v;
        blst_fp12 w;
        const blst_p2_affine *qs[PAIRS];
        const blst_p1_affine *ps[PAIRS];
        for (size_t j = 0; j < PAIRS; j++) {
            qs[j] = (const blst_p2_affine *)&in.q[j];
            ps[j] = (const blst_p1_affine *)&in.p[j];
        }
        for (long i = 0; i < calls; i++) {
            if (lib == 0) {
                if (k == OP_MILLER) cuzk_miller_loop(&v, in.p, in.q, 1);
                else if (k == OP_FINAL_EXP) cuzk_final_exponentiation(&v, &in.ml);
                else cuzk_multi_pairing(&v, in.p, in.q, n);
            } else {
                if (k == OP_MILLER) {
                    blst_miller_loop(&w, qs[0], ps[0]);
                } else if (k == OP_FINAL_EXP) {
                    blst_final_exp(&w, (const blst_fp12 *)&in.ml);
                } else {
                    blst_miller_loop_n(&w, qs, ps, n);
                    blst_final_exp(&w, &w);
                }
            }
        }
        KEEP(v);
        KEEP(w);
        memcpy(out, lib ? (void *)&w : (void *)&v, r->len = sizeof v);
        break;
    }
    case OP_MILLER_PREPARED: {
        cuzk_fp12_t v;
        blst_fp12 w;
        for (long i = 0; i < calls; i++) {
            if (lib == 0) cuzk_miller_loop_prepared(&v, in.p, &in.q_prep, 1);
            else blst_miller_loop_lines(&w, in.q_lines, (const blst_p1_affine *)&in.p[0]);
        }
        KEEP(v);
        KEEP(w);
        memcpy(out, lib ? (void *)&w : (void *)&v, r->len = sizeof v);
        break;
    }
    case OP_MSM: {
        cuzk_g1_jac_t j;
        cuzk_g1_affine_t a;
        blst_p1 bj;
        blst_p1_affine ba;
        for (long i = 0; i < calls; i++) {
            if (lib == 0) {
                cuzk_g1_msm(&j, in.bases, in.scalars, in.msm_n, 1);
            } else {
                const blst_p1_affine *pts[2] = {(const blst_p1_affine *)in.bases, NULL};
                const byte *scs[2] = {in.scalar_bytes, NULL};
                blst_p1s_mult_pippenger(&bj, pts, in.msm_n, scs, 255, in.blst_scratch);
            }
        }
        if (lib == 0) {
            cuzk_g1_jac_to_affine(&a, &j);
            memcpy(out, &a, r->len = sizeof a);
        } else {
            blst_p1_to_affine(&ba, &bj);
            memcpy(out, &ba, r->len = sizeof ba);
        }
        break;
    }
    }
}

static void line(const char *name, op_kind k, size_t size, long calls, int reps, double scale, const char *unit)
{
    double vc[MAX_REPS], vb[MAX_REPS];
    result r;
    run(k, 0, calls, &r); /* warm-up, and the results to compare */
    run(k, 1, calls, &r);
    if (k == OP_MILLER || k == OP_MILLER_PREPARED) {
        /* Miller-loop values differ by factors in subfields (each library scales its lines its own way), which
         * the final exponentiation removes: compare after it */
        cuzk_fp12_t u;
        memcpy(&u, r.cuzk, sizeof u);
        cuzk_final_exponentiation((cuzk_fp12_t *)r.cuzk, &u);
        memcpy(&u, r.blst, sizeof u);
        cuzk_final_exponentiation((cuzk_fp12_t *)r.blst, &u);
    }
    bool equal = memcmp(r.cuzk, r.blst, r.len) == 0;
    for (int i = 0; i < reps; i++) {
        double t0 = cpu_ns();
        run(k, 0, calls, &r);
        double t1 = cpu_ns();
        run(k, 1, calls, &r);
        double t2 = cpu_ns();
        vc[i] = (t1 - t0) / (double)calls * scale;
        vb[i] = (t2 - t1) / (double)calls * scale;
    }
    qsort(vc, (size_t)reps, sizeof vc[0], cmp_double);
    qsort(vb, (size_t)reps, sizeof vb[0], cmp_double);
    double mc = vc[reps / 2], mb = vb[reps / 2];
    printf("{\"name\": \"%s\", \"size\": %zu, \"threads\": 1, \"unit\": \"%s\", \"cuzk\": %.3f, \"blst\": %.3f, "
           "\"ratio\": %.3f, \"cuzk_min\": %.3f, \"blst_min\": %.3f, \"ratio_min\": %.3f, \"reps\": %d, "
           "\"clock\": \"cpu\", \"path\": \"%s\", \"equal\": %s}\n",
           name, size, unit, mc, mb, mc / mb, vc[0], vb[0], vc[0] / vb[0], reps,
           cuzk_cpu_path_name(k == OP_MSM                          ? cuzk_cpu_path_get()
                              : cuzk_cpu_path_get() > CUZK_CPU_ADX ? CUZK_CPU_ADX
                                                                   : cuzk_cpu_path_get()),
           equal ? "true" : "false");
    fflush(stdout);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void rand_fp(cuzk_fp_t *r)
{
    uint64_t l[CUZK_FP_LIMBS];
    for (int i = 0; i < CUZK_FP_LIMBS; i++) l[i] = next();
    l[CUZK_FP_LIMBS - 1] %= CUZK_FP_MODULUS[CUZK_FP_LIMBS - 1];
    cuzk_fp_from_limbs(r, l);
}

static void setup(void)
{
    rand_fp(&in.a);
    rand_fp(&in.b);
    uint64_t l[CUZK_FR_LIMBS] = {next(), next(), next(), next() >> 2};
    cuzk_fr_from_limbs(&in.c, l);
    l[0] = next();
    cuzk_fr_from_limbs(&in.d, l);
    rand_fp(&in.x.c0);
    rand_fp(&in.x.c1);
    rand_fp(&in.y.c0);
    rand_fp(&in.y.c1);
    cuzk_fp_t *f = (cuzk_fp_t *)&in.f, *g = (cuzk_fp_t *)&in.g;
    for (int i = 0; i < 12; i++) {
        rand_fp(&f[i]);
        rand_fp(&g[i]);
    }
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    for (int i = 0; i < PAIRS; i++) {
        uint64_t k[2] = {next(), next()};
        cuzk_g1_jac_t j1;
        cuzk_g2_jac_t j2;
        cuzk_g1_jac_from_affine(&j1, &g1);
        cuzk_g1_jac_mul(&j1, &j1, k, 2);
        cuzk_g1_jac_to_affine(&in.p[i], &j1);
        cuzk_g2_jac_from_affine(&j2, &g2);
        cuzk_g2_jac_mul(&j2, &j2, k + 1, 1);
        cuzk_g2_jac_to_affine(&in.q[i], &j2);
    }
    cuzk_miller_loop(&in.ml, in.p, in.q, 1);
    cuzk_g2_prepare_fixed(&in.q_prep, &in.q[0]);
    blst_precompute_lines(in.q_lines, (const blst_p2_affine *)&in.q[0]);
    cuzk_final_exponentiation(&in.m, &in.ml); /* in the cyclotomic subgroup */
}

/* n distinct points a·G + i·Q and random scalars below r, in both forms */
static bool setup_msm(size_t n)
{
    free(in.bases);
    free(in.scalars);
    free(in.scalar_bytes);
    free(in.blst_scratch);
    in.msm_n = n;
    in.bases = malloc(n * sizeof *in.bases);
    in.scalars = malloc(n * sizeof *in.scalars);
    in.scalar_bytes = malloc(n * 32);
    in.blst_scratch = malloc(blst_p1s_mult_pippenger_scratch_sizeof(n));
    cuzk_g1_jac_t *tmp = malloc(4096 * sizeof *tmp);
    if (!in.bases || !in.scalars || !in.scalar_bytes || !in.blst_scratch || !tmp) {
        free(tmp);
        return false;
    }
    cuzk_g1_affine_t gen, step;
    cuzk_g1_jac_t p, q;
    uint64_t a[2] = {next(), next()}, b[2] = {next(), next()};
    cuzk_g1_generator(&gen);
    cuzk_g1_jac_from_affine(&p, &gen);
    cuzk_g1_jac_mul(&q, &p, b, 2);
    cuzk_g1_jac_to_affine(&step, &q);
    cuzk_g1_jac_mul(&p, &p, a, 2);
    for (size_t i = 0; i < n; i += 4096) {
        size_t m = n - i < 4096 ? n - i : 4096;
        for (size_t j = 0; j < m; j++) {
            tmp[j] = p;
            cuzk_g1_jac_add_affine(&p, &p, &step);
        }
        cuzk_g1_jac_batch_to_affine(in.bases + i, tmp, m);
    }
    free(tmp);
    for (size_t i = 0; i < n; i++) {
        uint64_t l[CUZK_FR_LIMBS] = {next(), next(), next(), next() % CUZK_FR_MODULUS[3]};
        cuzk_fr_from_limbs(&in.scalars[i], l);
        cuzk_fr_to_bytes_le(in.scalar_bytes + 32 * i, &in.scalars[i]);
    }
    return true;
}

int main(int argc, char **argv)
{
    const char *filter = NULL;
    int reps = 31, max_msm = 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-msm-log2") == 0 && i + 1 < argc) max_msm = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: cuzk-vs-blst [--filter NAME] [--reps N] [--max-msm-log2 K]\n");
            return 2;
        }
    }
    if (reps < 1 || reps > MAX_REPS) reps = 31;
    setup();
    printf("{\"name\": \"cpu_path\", \"path\": \"%s\", \"best\": \"%s\"}\n", cuzk_cpu_path_name(cuzk_cpu_path_get()),
           cuzk_cpu_path_name(cuzk_cpu_path_best()));
    static const struct {
        const char *name;
        op_kind k;
        size_t size;
        long calls;
        double scale;
        const char *unit;
    } ops[] = {
        {"fp_mul", OP_FP_MUL, 1, 20000, 1, "ns"},
        {"fp_sqr", OP_FP_SQR, 1, 20000, 1, "ns"},
        {"fr_mul", OP_FR_MUL, 1, 20000, 1, "ns"},
        {"fp2_mul", OP_FP2_MUL, 1, 5000, 1, "ns"},
        {"fp2_sqr", OP_FP2_SQR, 1, 5000, 1, "ns"},
        {"fp12_mul", OP_FP12_MUL, 1, 300, 1, "ns"},
        {"fp12_sqr", OP_FP12_SQR, 1, 300, 1, "ns"},
        {"fp12_cyclotomic_sqr", OP_CYC_SQR, 1, 300, 1, "ns"},
        {"miller_loop", OP_MILLER, 1, 4, 1e-3, "us"},
        {"miller_loop_prepared", OP_MILLER_PREPARED, 1, 4, 1e-3, "us"},
        {"final_exp", OP_FINAL_EXP, 1, 4, 1e-3, "us"},
        {"pairing", OP_PAIRING, 1, 2, 1e-3, "us"},
        {"multi_pairing_3", OP_MULTI3, 3, 2, 1e-3, "us"},
        {"multi_pairing_4", OP_MULTI4, 4, 2, 1e-3, "us"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (filter != NULL && strstr(ops[i].name, filter) == NULL) continue;
        line(ops[i].name, ops[i].k, ops[i].size, ops[i].calls, reps, ops[i].scale, ops[i].unit);
    }
    if (filter == NULL || strstr("g1_msm", filter) != NULL) {
        for (int lg = 16; lg <= max_msm; lg += 4) {
            if (!setup_msm((size_t)1 << lg)) {
                fprintf(stderr, "cuzk-vs-blst: out of memory at 2^%d\n", lg);
                return 1;
            }
            line("g1_msm", OP_MSM, in.msm_n, 1, lg <= 16 ? 7 : 3, 1e-6, "ms");
        }
    }
    return 0;
}
