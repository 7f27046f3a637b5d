/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* NTT micro-benchmarks: the forward transform over 2^10..2^22 and the bellperson H computation (7 transforms and
 * the point-wise passes) at 2^16..2^20, in milliseconds (the best run), on fresh non-zero inputs. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cuzk/ntt.h"

static void fill(cuzk_fr_t *x, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t s = seed + i;
        uint64_t l[CUZK_FR_LIMBS] = {s * 0x9e3779b97f4a7c15ULL | 1, s ^ 0x5bd1e995, s >> 3, 0x1234};
        cuzk_fr_from_limbs(&x[i], l);
    }
}

/* Each transform one run, until ~50 ms have passed (small sizes: many runs, so one disturbance does not decide). */
static bench_stat time_forward(cuzk_fr_t *x, const cuzk_ntt_domain *d, int threads)
{
    bench_runs runs = {.cpu = threads == 1};
    double total = 0;
    do {
        bench_run_start(&runs);
        cuzk_ntt_forward(x, d, (unsigned)threads);
        bench_run_stop(&runs);
        total += runs.v[runs.n - 1];
    } while (total < 5e7 && runs.n < BENCH_MAX_RUNS);
    BENCH_KEEP(x[0]);
    return bench_stat_of(&runs);
}

void bench_micro_ntt(const bench_opts *o)
{
    int ts[2];
    int nt = bench_thread_set(o, ts);
    if (bench_selected(o, "ntt")) {
        for (unsigned k = 10; k <= 22; k += 2) {
            cuzk_ntt_domain d;
            cuzk_fr_t *x = malloc(((size_t)1 << k) * sizeof *x);
            if (x == NULL || cuzk_ntt_domain_init(&d, k, CUZK_FR_ROOTS_GEN7) != CUZK_OK) {
                fprintf(stderr, "cuzk-bench: ntt 2^%u: out of memory\n", k);
                free(x);
                return;
            }
            fill(x, d.n, k);
            for (int t = 0; t < nt; t++) {
                bench_stat st = time_forward(x, &d, ts[t]);
                bench_report_runs("ntt", d.n, ts[t], &st, 1e-6, "ms", bench_path_extra(CUZK_CPU_ADX));
            }
            cuzk_ntt_domain_free(&d);
            free(x);
        }
    }
    if (bench_selected(o, "ntt_h")) {
        for (unsigned k = 16; k <= 20; k += 2) {
            cuzk_ntt_domain d;
            size_t n = (size_t)1 << k;
            cuzk_fr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
            if (a == NULL || b == NULL || c == NULL || cuzk_ntt_domain_init(&d, k, CUZK_FR_ROOTS_GEN7) != CUZK_OK) {
                fprintf(stderr, "cuzk-bench: ntt_h 2^%u: out of memory\n", k);
                free(a), free(b), free(c);
                return;
            }
            for (int t = 0; t < nt; t++) {
                bench_runs runs = {.cpu = ts[t] == 1};
                for (int rep = 0; rep < 2; rep++) {
                    fill(a, n, 1);
                    fill(b, n, 2);
                    fill(c, n, 3);
                    bench_run_start(&runs);
                    cuzk_ntt_h_bellperson(a, a, b, c, &d, (unsigned)ts[t]);
                    bench_run_stop(&runs);
                    BENCH_KEEP(a[0]);
                }
                bench_stat st = bench_stat_of(&runs);
                bench_report_runs("ntt_h", n, ts[t], &st, 1e-6, "ms", bench_path_extra(CUZK_CPU_ADX));
            }
            cuzk_ntt_domain_free(&d);
            free(a), free(b), free(c);
        }
    }
}
