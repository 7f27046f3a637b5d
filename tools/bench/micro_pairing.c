/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Pairing micro-benchmarks: one full pairing, its Miller loop, its final exponentiation, a Miller loop over prepared
 * G2 lines, and multi-pairings of 3 and 4 distinct pairs (one shared Miller loop and one final exponentiation: the
 * shape of a Groth16 verification without prepared keys). Each line is the best of ROUNDS rounds of CALLS calls, with
 * their median and spread, by the thread's CPU clock, and names the CPU path the kernels took. */
#include "bench.h"
#include "cuzk/pairing.h"

#define ROUNDS 21
#define CALLS 4
#define PAIRS 4

typedef enum { B_PAIRING, B_MILLER, B_FINAL_EXP, B_MILLER_PREPARED, B_MULTI3, B_MULTI4 } bench_kind;

static bench_stat run(bench_kind k, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                      const cuzk_g2_prepared_t *prep)
{
    bench_runs runs = {.cpu = true};
    cuzk_fp12_t f, m;
    cuzk_miller_loop(&m, p, q, 1);
    for (int round = 0; round < ROUNDS; round++) {
        bench_run_start(&runs);
        for (int i = 0; i < CALLS; i++) {
            switch (k) {
            case B_PAIRING: cuzk_pairing(&f, p, q); break;
            case B_MILLER: cuzk_miller_loop(&f, p, q, 1); break;
            case B_FINAL_EXP: cuzk_final_exponentiation(&f, &m); break;
            case B_MILLER_PREPARED: cuzk_miller_loop_prepared(&f, p, prep, 1); break;
            case B_MULTI3: cuzk_multi_pairing(&f, p, q, 3); break;
            case B_MULTI4: cuzk_multi_pairing(&f, p, q, 4); break;
            }
            BENCH_KEEP(f);
        }
        bench_run_stop(&runs);
    }
    return bench_stat_of(&runs);
}

void bench_micro_pairing(const bench_opts *o)
{
    static cuzk_g2_prepared_t prep;
    cuzk_g1_affine_t p[PAIRS], g1;
    cuzk_g2_affine_t q[PAIRS], g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    /* distinct pairs [k_i]G1, [k'_i]G2 */
    for (int i = 0; i < PAIRS; i++) {
        uint64_t k[2] = {0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1), 0x2545f4914f6cdd1dULL ^ (uint64_t)i};
        cuzk_g1_jac_t j1;
        cuzk_g2_jac_t j2;
        cuzk_g1_jac_from_affine(&j1, &g1);
        cuzk_g1_jac_mul(&j1, &j1, k, 2);
        cuzk_g1_jac_to_affine(&p[i], &j1);
        cuzk_g2_jac_from_affine(&j2, &g2);
        cuzk_g2_jac_mul(&j2, &j2, k + 1, 1);
        cuzk_g2_jac_to_affine(&q[i], &j2);
    }
    cuzk_g2_prepare(&prep, &q[0]);
    static const struct {
        const char *name;
        bench_kind kind;
        size_t pairs;
    } cases[] = {
        {"pairing", B_PAIRING, 1},        {"miller_loop", B_MILLER, 1},
        {"final_exp", B_FINAL_EXP, 1},    {"miller_loop_prepared", B_MILLER_PREPARED, 1},
        {"multi_pairing_3", B_MULTI3, 3}, {"multi_pairing_4", B_MULTI4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!bench_selected(o, cases[i].name)) continue;
        bench_stat s = run(cases[i].kind, p, q, &prep);
        bench_report_runs(cases[i].name, cases[i].pairs, 1, &s, 1e-3 / CALLS, "us", bench_path_extra(CUZK_CPU_ADX));
    }
}
