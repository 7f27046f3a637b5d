/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Curve micro-benchmarks. Additions run as dependent chains (acc = acc + base[i]), so latency is measured; each
 * figure is the best of a few repetitions, since the machine is shared. */
#include "bench.h"
#include "cuzk/ec.h"

#define BASES 64
#define REPS 15

static cuzk_g1_affine_t cuzk_g1_bases[BASES];
static cuzk_g2_affine_t cuzk_g2_bases[BASES];

/* Distinct non-trivial points: [7^i·c]G for a public c. */
static void make_bases(void)
{
    cuzk_g1_jac_t j1[BASES];
    cuzk_g2_jac_t j2[BASES];
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    uint64_t k[2] = {0x9e3779b97f4a7c15ULL, 0x0123456789abcdefULL};
    for (int i = 0; i < BASES; i++) {
        cuzk_g1_jac_from_affine(&j1[i], &g1);
        cuzk_g2_jac_from_affine(&j2[i], &g2);
        cuzk_g1_jac_mul(&j1[i], &j1[i], k, 2);
        cuzk_g2_jac_mul(&j2[i], &j2[i], k, 2);
        k[0] = k[0] * 7 + 1;
        k[1] ^= k[0];
    }
    cuzk_g1_jac_batch_to_affine(cuzk_g1_bases, j1, BASES);
    cuzk_g2_jac_batch_to_affine(cuzk_g2_bases, j2, BASES);
}

static void start_g1(cuzk_g1_jac_t *acc)
{
    cuzk_g1_jac_from_affine(acc, &cuzk_g1_bases[BASES - 1]);
    cuzk_g1_jac_dbl(acc, acc); /* Z ≠ 1, as in real chains */
}

void bench_micro_ec(const bench_opts *o)
{
    static const char *names[] = {"g1_add_mixed", "g1_add_xyzz_mixed", "g1_double",        "g2_add_mixed",
                                  "g1_mul_ct",    "g1_subgroup_check", "g2_subgroup_check"};
    bool any = false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) any |= bench_selected(o, names[i]);
    if (!any) return; /* skip building the bases */
    make_bases();
    if (bench_selected(o, "g1_add_mixed")) {
        enum { N = 40000 };
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            cuzk_g1_jac_t acc;
            start_g1(&acc);
            bench_run_start(&runs);
            for (int i = 0; i < N; i++) cuzk_g1_jac_add_affine(&acc, &acc, &cuzk_g1_bases[i % BASES]);
            bench_run_stop(&runs);
            BENCH_KEEP(acc);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs("g1_add_mixed", 1, 1, &s, 1.0 / N, "ns", bench_path_extra(CUZK_CPU_ADX));
    }
    if (bench_selected(o, "g1_add_xyzz_mixed")) {
        enum { N = 40000 };
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            cuzk_g1_xyzz_t acc;
            cuzk_g1_xyzz_from_affine(&acc, &cuzk_g1_bases[BASES - 1]);
            cuzk_g1_xyzz_dbl(&acc, &acc);
            bench_run_start(&runs);
            for (int i = 0; i < N; i++) cuzk_g1_xyzz_add_affine(&acc, &acc, &cuzk_g1_bases[i % BASES]);
            bench_run_stop(&runs);
            BENCH_KEEP(acc);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs("g1_add_xyzz_mixed", 1, 1, &s, 1.0 / N, "ns", bench_path_extra(CUZK_CPU_ADX));
    }
    if (bench_selected(o, "g1_double")) {
        enum { N = 40000 };
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            cuzk_g1_jac_t acc;
            start_g1(&acc);
            bench_run_start(&runs);
            for (int i = 0; i < N; i++) cuzk_g1_jac_dbl(&acc, &acc);
            bench_run_stop(&runs);
            BENCH_KEEP(acc);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs("g1_double", 1, 1, &s, 1.0 / N, "ns", bench_path_extra(CUZK_CPU_ADX));
    }
    if (bench_selected(o, "g2_add_mixed")) {
        enum { N = 10000 };
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            cuzk_g2_jac_t acc;
            cuzk_g2_jac_from_affine(&acc, &cuzk_g2_bases[BASES - 1]);
            cuzk_g2_jac_dbl(&acc, &acc);
            bench_run_start(&runs);
            for (int i = 0; i < N; i++) cuzk_g2_jac_add_affine(&acc, &acc, &cuzk_g2_bases[i % BASES]);
            bench_run_stop(&runs);
            BENCH_KEEP(acc);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs("g2_add_mixed", 1, 1, &s, 1.0 / N, "ns", bench_path_extra(CUZK_CPU_ADX));
    }
    if (bench_selected(o, "g1_mul_ct")) {
        enum { N = 20 };
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            cuzk_g1_jac_t acc;
            cuzk_fr_t k;
            uint64_t l[CUZK_FR_LIMBS] = {0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL, 0xa4093822299f31d0ULL,
                                         0x082efa98ec4e6c89ULL};
            cuzk_fr_from_limbs_reduce(&k, l);
            start_g1(&acc);
            bench_run_start(&runs);
            for (int i = 0; i < N; i++) cuzk_g1_jac_mul_ct(&acc, &acc, &k);
            bench_run_stop(&runs);
            BENCH_KEEP(acc);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs("g1_mul_ct", 1, 1, &s, 1e-3 / N, "us", bench_path_extra(CUZK_CPU_ADX));
    }
    if (bench_selected(o, "g1_subgroup_check")) {
        enum { N = 40 };
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            int ok = 0;
            bench_run_start(&runs);
            for (int i = 0; i < N; i++) ok += cuzk_g1_affine_in_subgroup(&cuzk_g1_bases[i % BASES]);
            bench_run_stop(&runs);
            BENCH_KEEP(ok);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs("g1_subgroup_check", 1, 1, &s, 1e-3 / N, "us", bench_path_extra(CUZK_CPU_ADX));
    }
    if (bench_selected(o, "g2_subgroup_check")) {
        enum { N = 40 };
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            int ok = 0;
            bench_run_start(&runs);
            for (int i = 0; i < N; i++) ok += cuzk_g2_affine_in_subgroup(&cuzk_g2_bases[i % BASES]);
            bench_run_stop(&runs);
            BENCH_KEEP(ok);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs("g2_subgroup_check", 1, 1, &s, 1e-3 / N, "us", bench_path_extra(CUZK_CPU_ADX));
    }
}
