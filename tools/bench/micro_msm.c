/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM micro-benchmarks: G1 from 2^10 to 2^20 points, G2 at 2^16, bitmap batch addition at 2^16; random 255-bit
 * scalars and distinct random points; best of a few runs, in ms. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/msm.h"

/* xorshift64*: reproducible inputs without the test helpers */
static uint64_t bench_rng(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

/* Scalars < r with bit 254 as likely as any other: 4 random limbs with the top limb taken below r's. */
static void bench_scalars(cuzk_fr_t *k, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t l[4];
        for (int j = 0; j < 4; j++) l[j] = bench_rng(&seed);
        l[3] %= CUZK_FR_MODULUS[3];
        cuzk_fr_from_limbs(&k[i], l);
    }
}

/* Distinct points a·G, a·G + Q, a·G + 2Q, ...: one mixed addition each, then one batch normalization. */
#define BENCH_POINTS(G, AFF, JAC)                                                                                      \
    static void cuzk_##G##_bench_points(AFF *out, size_t n, uint64_t seed)                                             \
    {                                                                                                                  \
        enum { BLOCK = 4096 };                                                                                         \
        AFF gen, step;                                                                                                 \
        JAC p, q, *tmp = malloc(BLOCK * sizeof *tmp);                                                                  \
        uint64_t a[4], b[4];                                                                                           \
        for (int j = 0; j < 4; j++) {                                                                                  \
            a[j] = bench_rng(&seed);                                                                                   \
            b[j] = bench_rng(&seed);                                                                                   \
        }                                                                                                              \
        cuzk_##G##_generator(&gen);                                                                                    \
        cuzk_##G##_jac_from_affine(&p, &gen);                                                                          \
        cuzk_##G##_jac_mul(&q, &p, b, 4);                                                                              \
        cuzk_##G##_jac_to_affine(&step, &q);                                                                           \
        cuzk_##G##_jac_mul(&p, &p, a, 4);                                                                              \
        for (size_t i = 0; i < n; i += BLOCK) {                                                                        \
            size_t m = n - i < BLOCK ? n - i : BLOCK;                                                                  \
            for (size_t j = 0; j < m; j++) {                                                                           \
                tmp[j] = p;                                                                                            \
                cuzk_##G##_jac_add_affine(&p, &p, &step);                                                              \
            }                                                                                                          \
            cuzk_##G##_jac_batch_to_affine(out + i, tmp, m);                                                           \
        }                                                                                                              \
        free(tmp);                                                                                                     \
    }
BENCH_POINTS(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
BENCH_POINTS(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)

static int bench_reps(size_t n) { return n <= 4096 ? 15 : n <= 65536 ? 7 : 3; }

void bench_micro_msm(const bench_opts *o)
{
    int ts[2], nt = bench_thread_set(o, ts);
    if (bench_selected(o, "g1_msm") || bench_selected(o, "g1_batch_add")) {
        const size_t max_n = (size_t)1 << 20;
        bool big = bench_selected(o, "g1_msm");
        size_t n_alloc = big ? max_n : (size_t)1 << 16;
        cuzk_g1_affine_t *bases = malloc(n_alloc * sizeof *bases);
        cuzk_fr_t *k = malloc(n_alloc * sizeof *k);
        if (bases == NULL || k == NULL) return;
        cuzk_g1_bench_points(bases, n_alloc, 1);
        bench_scalars(k, n_alloc, 2);
        for (unsigned lg = 10; big && lg <= 20; lg += 2) {
            size_t n = (size_t)1 << lg;
            for (int t = 0; t < nt; t++) {
                bench_runs runs = {.cpu = ts[t] == 1};
                for (int rep = 0; rep < bench_reps(n); rep++) {
                    cuzk_g1_jac_t r;
                    bench_run_start(&runs);
                    cuzk_g1_msm(&r, bases, k, n, (unsigned)ts[t]);
                    bench_run_stop(&runs);
                    BENCH_KEEP(r);
                }
                bench_stat s = bench_stat_of(&runs);
                bench_report_runs("g1_msm", n, ts[t], &s, 1e-6, "ms", bench_path_extra(CUZK_CPU_IFMA));
            }
        }
        if (bench_selected(o, "g1_batch_add")) {
            size_t n = (size_t)1 << 16;
            uint64_t *bitmap = malloc(n / 64 * sizeof *bitmap);
            uint64_t seed = 3;
            for (size_t w = 0; w < n / 64; w++) bitmap[w] = bench_rng(&seed);
            for (int t = 0; t < nt; t++) {
                bench_runs runs = {.cpu = ts[t] == 1};
                for (int rep = 0; rep < 7; rep++) {
                    cuzk_g1_jac_t r;
                    bench_run_start(&runs);
                    cuzk_g1_batch_add(&r, bases, bitmap, n, (unsigned)ts[t]);
                    bench_run_stop(&runs);
                    BENCH_KEEP(r);
                }
                bench_stat s = bench_stat_of(&runs);
                bench_report_runs("g1_batch_add", n, ts[t], &s, 1e-6, "ms", bench_path_extra(CUZK_CPU_IFMA));
            }
            free(bitmap);
        }
        free(bases);
        free(k);
    }
    if (bench_selected(o, "g2_msm")) {
        size_t n = (size_t)1 << 16;
        cuzk_g2_affine_t *bases = malloc(n * sizeof *bases);
        cuzk_fr_t *k = malloc(n * sizeof *k);
        if (bases == NULL || k == NULL) return;
        cuzk_g2_bench_points(bases, n, 4);
        bench_scalars(k, n, 5);
        for (int t = 0; t < nt; t++) {
            bench_runs runs = {.cpu = ts[t] == 1};
            for (int rep = 0; rep < 3; rep++) {
                cuzk_g2_jac_t r;
                bench_run_start(&runs);
                cuzk_g2_msm(&r, bases, k, n, (unsigned)ts[t]);
                bench_run_stop(&runs);
                BENCH_KEEP(r);
            }
            bench_stat s = bench_stat_of(&runs);
            bench_report_runs("g2_msm", n, ts[t], &s, 1e-6, "ms", bench_path_extra(CUZK_CPU_ADX));
        }
        free(bases);
        free(k);
    }
}
