/* Circuit micro-benchmarks.
 *   synthetic_witness  one witness of the synthetic PoRep-shaped system (cuzk_circuits_synthetic_witness_into, what each
 *                      engine synthesis worker runs per partition), at 2^20 and up to --max-log2 in steps of 2
 *                      (ms per witness; the line's "ns_per_var" is the time per variable and thread) */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cuzk/circuits.h"

void bench_micro_circuits(const bench_opts *o)
{
    if (!bench_selected(o, "synthetic_witness")) return;
    int threads[2];
    int nt = bench_thread_set(o, threads);
    for (unsigned log = 20; log <= (unsigned)o->max_log2; log += 2) {
        uint64_t n = cuzk_circuits_synthetic_num_vars(log);
        cuzk_fr_t *z = malloc(n * sizeof(cuzk_fr_t));
        if (z == NULL) {
            fprintf(stderr, "cuzk-bench: synthetic_witness: out of memory at 2^%u\n", log);
            return;
        }
        for (int ti = 0; ti < nt; ti++) {
            cuzk_errmsg err = {{0}};
            double best = -1;
            for (int rep = 0; rep < 3; rep++) {
                double t0 = (double)cuzk_now_ns();
                cuzk_status s = cuzk_circuits_synthetic_witness_into(log, 1, 2 + (uint64_t)rep, (unsigned)threads[ti], z, n,
                                                                &err);
                double dt = (double)cuzk_now_ns() - t0;
                if (s != CUZK_OK) {
                    fprintf(stderr, "cuzk-bench: synthetic_witness 2^%u: %s\n", log, err.msg);
                    free(z);
                    return;
                }
                if (best < 0 || dt < best) best = dt;
            }
            BENCH_KEEP(z[n - 1]);
            printf("{\"name\": \"synthetic_witness\", \"size\": %llu, \"threads\": %d, \"value\": %.3f, \"unit\": "
                   "\"ms\", \"ns_per_var\": %.2f}\n",
                   (unsigned long long)n, threads[ti], best / 1e6, best * threads[ti] / (double)n);
            fflush(stdout);
        }
        free(z);
    }
}
