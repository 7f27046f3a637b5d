/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Groth16 benchmarks on random satisfiable circuits shaped loosely like Filecoin's (witness mostly bits: booleanity
 * rows, bit packing, and some multiplications of field values), with a test setup key:
 *   cuzk_groth16_setup         key generation for the circuit                        (ms)
 *   cuzk_groth16_prove         one proof, then its phases as prove_<phase>           (ms)
 *   cuzk_groth16_verify        one proof                                             (us)
 *   cuzk_groth16_verify_batch  10 proofs of the circuit in one check, per batch      (us)
 * The proof lines come from bench_groth16_prove (timing.c), which the prove and zkey benchmarks use too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/groth16.h"

static uint64_t g16_rng = 0x9e3779b97f4a7c15ULL;

static uint64_t g16_rand(void)
{
    g16_rng ^= g16_rng << 13;
    g16_rng ^= g16_rng >> 7;
    g16_rng ^= g16_rng << 17;
    return g16_rng;
}

static void g16_rand_fr(cuzk_fr_t *r)
{
    uint64_t l[CUZK_FR_LIMBS] = {g16_rand(), g16_rand(), g16_rand(), g16_rand() >> 2};
    cuzk_fr_from_limbs(r, l);
}

/* rows constraints, each allocating one aux variable; z gets the satisfying witness (malloc'd). */
static cuzk_r1cs_t *g16_bench_circuit(uint64_t rows, uint32_t num_inputs, cuzk_fr_t **z_out)
{
    cuzk_fr_t *z = calloc(num_inputs + rows, sizeof *z);
    cuzk_fr_t one, minus_one;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&minus_one, &one);
    z[0] = one;
    for (uint32_t i = 1; i < num_inputs; i++) g16_rand_fr(&z[i]);
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(num_inputs);
    uint64_t bits[16];
    unsigned nbits = 0;
    for (uint64_t row = 0; row < rows; row++) {
        cuzk_r1cs_var out;
        cuzk_r1cs_builder_alloc_aux(b, &out);
        uint64_t oc = num_inputs + row, used = oc;
        cuzk_r1cs_term a[16], bt[2], c[1];
        size_t na = 0, nb = 0, nc = 0;
        unsigned kind = (unsigned)(g16_rand() % 10);
        if (kind == 9 && nbits == 16) {
            for (unsigned i = 0; i < nbits; i++) {
                a[na].var = CUZK_R1CS_AUX(bits[i] - num_inputs);
                cuzk_fr_from_u64(&a[na].coeff, 1ULL << i);
                cuzk_fr_t t;
                cuzk_fr_mul(&t, &a[na].coeff, &z[bits[i]]);
                cuzk_fr_add(&z[oc], &z[oc], &t);
                na++;
            }
            bt[nb++] = (cuzk_r1cs_term){CUZK_R1CS_ONE, one};
            c[nc++] = (cuzk_r1cs_term){out, one};
            nbits = 0;
        } else if (kind >= 3) {
            cuzk_fr_from_u64(&z[oc], g16_rand() & 1);
            a[na++] = (cuzk_r1cs_term){out, one};
            bt[nb++] = (cuzk_r1cs_term){CUZK_R1CS_ONE, one};
            bt[nb++] = (cuzk_r1cs_term){out, minus_one};
            if (nbits < 16) bits[nbits++] = oc;
        } else {
            /* (x − y)·w = out over recent variables */
            uint64_t x = used - 1 - g16_rand() % (used < 64 ? used : 64);
            uint64_t y = g16_rand() % used, w = used - 1 - g16_rand() % (used < 8 ? used : 8);
            cuzk_r1cs_var vx = x < num_inputs ? CUZK_R1CS_INPUT(x) : CUZK_R1CS_AUX(x - num_inputs);
            cuzk_r1cs_var vy = y < num_inputs ? CUZK_R1CS_INPUT(y) : CUZK_R1CS_AUX(y - num_inputs);
            cuzk_r1cs_var vw = w < num_inputs ? CUZK_R1CS_INPUT(w) : CUZK_R1CS_AUX(w - num_inputs);
            a[na++] = (cuzk_r1cs_term){vx, one};
            a[na++] = (cuzk_r1cs_term){vy, minus_one};
            bt[nb++] = (cuzk_r1cs_term){vw, one};
            c[nc++] = (cuzk_r1cs_term){out, one};
            cuzk_fr_t d;
            cuzk_fr_sub(&d, &z[x], &z[y]);
            cuzk_fr_mul(&z[oc], &d, &z[w]);
        }
        cuzk_r1cs_builder_enforce(b, a, na, bt, nb, c, nc);
    }
    cuzk_r1cs_t *r = NULL;
    cuzk_r1cs_builder_finish(b, &r);
    *z_out = z;
    return r;
}

static void bench_groth16_verify(const cuzk_groth16_pk *pk, const cuzk_r1cs_t *r, const cuzk_fr_t *z, uint64_t size)
{
    enum { BATCH = 10 };
    cuzk_groth16_proof_t p[BATCH];
    uint64_t np = r->num_inputs - 1;
    cuzk_fr_t *x = malloc(BATCH * (np ? np : 1) * sizeof *x);
    for (int j = 0; j < BATCH; j++) {
        if (cuzk_groth16_prove(&p[j], pk, r, z, NULL, NULL, NULL) != CUZK_OK) {
            free(x);
            return;
        }
        memcpy(&x[j * np], &z[1], np * sizeof *x);
    }
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk->vk);
    bench_runs one = {.cpu = true}, batch = {.cpu = true};
    for (int i = 0; i < 20; i++) {
        bench_run_start(&one);
        cuzk_status s = cuzk_groth16_verify(&pvk, &p[i % BATCH], x, np);
        bench_run_stop(&one);
        if (s != CUZK_OK) fprintf(stderr, "groth16_verify failed\n");
    }
    bench_stat st = bench_stat_of(&one);
    bench_report_runs("groth16_verify", size, 1, &st, 1e-3, "us", bench_path_extra(CUZK_CPU_ADX));
    for (int i = 0; i < 9; i++) {
        bench_run_start(&batch);
        cuzk_status s = cuzk_groth16_verify_batch(&pvk, p, x, np, BATCH);
        bench_run_stop(&batch);
        if (s != CUZK_OK) fprintf(stderr, "groth16_verify_batch failed\n");
    }
    st = bench_stat_of(&batch);
    bench_report_runs("groth16_verify_batch", BATCH, 1, &st, 1e-3, "us", bench_path_extra(CUZK_CPU_ADX));
    free(x);
}

void bench_micro_groth16(const bench_opts *o)
{
    bool any = bench_selected(o, "groth16_setup") || bench_selected(o, "groth16_prove") ||
               bench_selected(o, "prove_") || bench_selected(o, "groth16_verify");
    if (!any) return;
    const unsigned logs[2] = {10, 12};
    for (int k = 0; k < 2; k++) {
        /* the domain holds rows + inputs: stay just under the power of two */
        uint32_t ni = 8;
        uint64_t rows = ((uint64_t)1 << logs[k]) - ni;
        cuzk_fr_t *z;
        cuzk_r1cs_t *r = g16_bench_circuit(rows, ni, &z);
        cuzk_groth16_setup_opts so;
        memset(&so, 0, sizeof so);
        so.threads = o->threads > 0 ? (unsigned)o->threads : 1;
        cuzk_groth16_pk pk;
        bench_runs runs = {0};
        cuzk_errmsg err = {{0}};
        bench_run_start(&runs); /* one run: the key is made once */
        cuzk_status s = cuzk_groth16_setup(&pk, r, &so, &err);
        bench_run_stop(&runs);
        if (s != CUZK_OK) {
            fprintf(stderr, "groth16_setup: %s (%s)\n", cuzk_status_str(s), err.msg);
        } else {
            bench_stat st = bench_stat_of(&runs);
            if (bench_selected(o, "groth16_setup"))
                bench_report_runs("groth16_setup", rows, (int)so.threads, &st, 1e-6, "ms", NULL);
            if (bench_selected(o, "groth16_prove") || bench_selected(o, "prove_"))
                bench_groth16_prove(o, "groth16_prove", r, &pk, z, rows);
            if (bench_selected(o, "groth16_verify")) bench_groth16_verify(&pk, r, z, rows);
            cuzk_groth16_pk_free(&pk);
        }
        cuzk_r1cs_free(r);
        free(z);
    }
}
