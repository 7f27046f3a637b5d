/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* R1CS micro-benchmarks on a random system shaped like Filecoin PoRep: about 2.4 / 1.0 / 2.2 entries per row in
 * A / B / C, coefficients mostly ±1 (a few powers of two and arbitrary values), a witness that is mostly bits, and
 * columns mostly near the row (gadgets touch recently allocated variables) with some far away.
 *   spmv      a = A·z, b = B·z, c = C·z              (ms per call, the best of a few)
 *   spmv_ab   a, b and c = a∘b (C not read)           (ms per call)
 *   pce_load  map + full validation + SHA-256 checks  (ms, one thread, the better of two) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/r1cs.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void bench_coeff(cuzk_fr_t *c)
{
    uint64_t x = next_rand() % 100;
    cuzk_fr_set_one(c);
    if (x < 45) return;
    if (x < 90) {
        cuzk_fr_neg(c, c);
    } else if (x < 98) {
        cuzk_fr_from_u64(c, 1ULL << (next_rand() % 64));
    } else {
        uint64_t l[CUZK_FR_LIMBS] = {next_rand(), next_rand(), next_rand(), next_rand() >> 2};
        cuzk_fr_from_limbs(c, l);
    }
}

static cuzk_r1cs_var bench_var(uint64_t row, uint32_t ni, uint32_t na)
{
    uint64_t j = next_rand() % 10 ? (row + na - next_rand() % 1024) % na : next_rand() % na;
    if (next_rand() % 64 == 0) return CUZK_R1CS_INPUT(next_rand() % ni);
    return CUZK_R1CS_AUX(j);
}

static cuzk_r1cs_t *bench_circuit(uint64_t rows)
{
    uint32_t ni = 16, na = (uint32_t)rows;
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(ni);
    cuzk_r1cs_var first;
    cuzk_r1cs_builder_alloc_aux_n(b, na, &first);
    for (uint64_t i = 0; i < rows; i++) {
        cuzk_r1cs_term t[3][3];
        size_t n[3] = {2 + (next_rand() % 5 < 2), 1, 2 + (next_rand() % 5 == 0)};
        for (int k = 0; k < 3; k++) {
            for (size_t e = 0; e < n[k]; e++) {
                t[k][e].var = bench_var(i, ni, na);
                bench_coeff(&t[k][e].coeff);
            }
        }
        cuzk_r1cs_builder_enforce(b, t[0], n[0], t[1], n[1], t[2], n[2]);
    }
    cuzk_r1cs_t *r = NULL;
    cuzk_r1cs_builder_finish(b, &r);
    return r;
}

void bench_micro_r1cs(const bench_opts *o)
{
    if (!bench_selected(o, "spmv") && !bench_selected(o, "pce_load")) return;
    int threads[2];
    int nt = bench_thread_set(o, threads);
    for (unsigned log = 16; log <= 20; log += 2) {
        uint64_t rows = 1ULL << log;
        cuzk_r1cs_t *r = bench_circuit(rows);
        if (r == NULL) return;
        uint64_t nv = cuzk_r1cs_num_vars(r);
        cuzk_fr_t *z = malloc(nv * sizeof *z), *a = malloc(rows * sizeof *a), *b = malloc(rows * sizeof *b),
                  *c = malloc(rows * sizeof *c);
        cuzk_fr_set_one(&z[0]);
        for (uint64_t j = 1; j < nv; j++) {
            uint64_t l[CUZK_FR_LIMBS] = {next_rand(), next_rand(), next_rand(), next_rand() >> 2};
            if (next_rand() % 10) cuzk_fr_from_u64(&z[j], next_rand() & 1);
            else cuzk_fr_from_limbs(&z[j], l);
        }
        for (int ti = 0; ti < nt; ti++) {
            static const char *const name[2] = {"spmv", "spmv_ab"};
            static const cuzk_r1cs_c_mode mode[2] = {CUZK_R1CS_C_MATRIX, CUZK_R1CS_C_PRODUCT};
            for (int m = 0; m < 2; m++) {
                if (!bench_selected(o, name[m])) continue;
                int reps = log <= 16 ? 8 : log <= 18 ? 3 : 1;
                cuzk_r1cs_spmv(r, z, a, b, c, mode[m], (unsigned)threads[ti], NULL); /* warm-up */
                bench_runs runs = {.cpu = threads[ti] == 1};
                for (int i = 0; i < reps; i++) {
                    bench_run_start(&runs);
                    cuzk_r1cs_spmv(r, z, a, b, c, mode[m], (unsigned)threads[ti], NULL);
                    bench_run_stop(&runs);
                }
                BENCH_KEEP(c[0]);
                bench_stat st = bench_stat_of(&runs);
                bench_report_runs(name[m], rows, threads[ti], &st, 1e-6, "ms", bench_path_extra(CUZK_CPU_ADX));
            }
        }
        if (bench_selected(o, "pce_load")) {
            char path[64];
            snprintf(path, sizeof path, "/tmp/cuzk_bench_%d.pce", (int)getpid());
            if (cuzk_r1cs_pce_write(r, path, NULL) == CUZK_OK) {
                bench_runs runs = {0};
                cuzk_status s = CUZK_OK;
                for (int rep = 0; rep < 2 && s == CUZK_OK; rep++) {
                    cuzk_r1cs_t *l = NULL;
                    bench_run_start(&runs);
                    s = cuzk_r1cs_pce_load(path, 0, r->identity, &l, NULL);
                    bench_run_stop(&runs);
                    cuzk_r1cs_free(l);
                }
                bench_stat st = bench_stat_of(&runs);
                if (s == CUZK_OK) bench_report_runs("pce_load", rows, 1, &st, 1e-6, "ms", NULL);
            }
            unlink(path);
        }
        free(z);
        free(a);
        free(b);
        free(c);
        cuzk_r1cs_free(r);
    }
}
