/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench zkey`: snarkjs-convention fixtures for timing `cuzk prove --zkey` as a whole command, without the
 * circom/snarkjs tool chain (whose power-16 ptau takes tens of minutes to prepare). Two circuits shaped like the
 * snarkjs comparisons in tests/interop:
 *   mulchain  x <- x·b, 65,000 times (ONE, out, a public; b and the chain private): a dense witness, domain 2^16,
 *             B used by b alone, so the zkey's B1/B2 points are infinity for every other signal, as snarkjs writes;
 *   bits      the PoRep-shaped synthetic circuit at 2^15 (32,763 constraints, 87 % bit witnesses), domain 2^15,
 *             the shape of circomlib's SHA-256 (31,554 constraints over 32 bytes).
 * Each key comes from cuzk_groth16_setup (conv SNARKJS, fixed seed) and is written by cuzk_groth16_zkey_write (sections
 * 1-10, layout in docs/formats/snarkjs.md §2), the witness as a .wtns; both are kept under
 * $XDG_CACHE_HOME/cuzk-bench (default ~/.cache/cuzk-bench) as zkey-NAME.zkey / zkey-NAME.wtns and made only when
 * missing. Prints the two paths per circuit (time `build/bin/cuzk prove --zkey ... --wtns ...` on them), then the
 * in-process parts of that command per circuit, as bench lines with size = constraints:
 *   zkey_load_NAME, wtns_load_NAME   process CPU time of cuzk_groth16_zkey_load / cuzk_r1cs_wtns_load (ms)
 *   zkey_prove_NAME, prove_<phase>   cuzk_groth16_prove and its phases (wall, best of two; bench_groth16_prove) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/circuits.h"

/* n multiplications x_{i+1} = x_i·b with x_0 = a; inputs ONE, out, a; aux b, x_1 .. x_{n−1} (out = x_n). */
static cuzk_r1cs_t *mulchain(uint32_t n, cuzk_fr_t **z_out)
{
    cuzk_r1cs_builder *bld = cuzk_r1cs_builder_new(3);
    cuzk_r1cs_var first;
    if (bld == NULL || cuzk_r1cs_builder_alloc_aux_n(bld, n, &first) != CUZK_OK) return NULL;
    cuzk_fr_t *z = malloc((3 + (size_t)n) * sizeof *z);
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    z[0] = one;
    cuzk_fr_from_u64(&z[2], 7);
    const uint64_t bl[CUZK_FR_LIMBS] = {0x9a4c3c6c9b1d3f15ULL, 0x27b2c44bULL, 0, 0};
    cuzk_fr_from_limbs(&z[3], bl);
    cuzk_fr_t x = z[2];
    for (uint32_t i = 0; i < n; i++) {
        cuzk_r1cs_var xin = i == 0 ? CUZK_R1CS_INPUT(2) : CUZK_R1CS_AUX(i),
                      xout = i + 1 == n ? CUZK_R1CS_INPUT(1) : CUZK_R1CS_AUX(i + 1);
        cuzk_r1cs_term a = {xin, one}, b = {CUZK_R1CS_AUX(0), one}, c = {xout, one};
        if (cuzk_r1cs_builder_enforce(bld, &a, 1, &b, 1, &c, 1) != CUZK_OK) return NULL;
        cuzk_fr_mul(&x, &x, &z[3]);
        z[i + 1 == n ? 1 : 3 + i + 1] = x;
    }
    cuzk_r1cs_t *r;
    if (cuzk_r1cs_builder_finish(bld, &r) != CUZK_OK) return NULL;
    *z_out = z;
    return r;
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The command's steps in process: key and witness loading (CPU time, best of 3), then the proof's phases. */
static void time_fixture(const bench_opts *o, const char *name, const char *zkey, const char *wtns)
{
    char nz[64], nw[64], np[64];
    snprintf(nz, sizeof nz, "zkey_load_%s", name);
    snprintf(nw, sizeof nw, "wtns_load_%s", name);
    snprintf(np, sizeof np, "zkey_prove_%s", name);
    unsigned threads = o->threads > 0 ? (unsigned)o->threads : 1;
    cuzk_groth16_pk pk;
    cuzk_fr_t *z = NULL;
    uint64_t nzv;
    cuzk_errmsg err = {{0}};
    bench_runs load_k = {0}, load_w = {0}; /* process CPU time, ms */
    for (int rep = 0; rep < 3; rep++) {
        double t = cpu_ms();
        if (cuzk_groth16_zkey_load(&pk, zkey, 0, threads, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: %s: %s\n", zkey, err.msg);
            return;
        }
        double k = cpu_ms() - t;
        t = cpu_ms();
        if (cuzk_r1cs_wtns_load(wtns, pk.circuit, &z, &nzv, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: %s: %s\n", wtns, err.msg);
            cuzk_groth16_pk_free(&pk);
            return;
        }
        bench_run_add(&load_k, k);
        bench_run_add(&load_w, cpu_ms() - t);
        if (rep < 2) {
            free(z);
            cuzk_groth16_pk_free(&pk);
        }
    }
    uint64_t size = pk.circuit->num_constraints;
    bench_stat sk = bench_stat_of(&load_k), sw = bench_stat_of(&load_w);
    bench_report_runs(nz, size, (int)threads, &sk, 1, "ms", NULL);
    bench_report_runs(nw, size, 1, &sw, 1, "ms", NULL);
    bench_groth16_prove(o, np, NULL, &pk, z, size);
    free(z);
    cuzk_groth16_pk_free(&pk);
}

static bool make_fixture(const bench_opts *o, const char *dir, const char *name, unsigned threads)
{
    char zkey[4200], wtns[4200];
    snprintf(zkey, sizeof zkey, "%s/zkey-%s.zkey", dir, name);
    snprintf(wtns, sizeof wtns, "%s/zkey-%s.wtns", dir, name);
    if (access(zkey, R_OK) == 0 && access(wtns, R_OK) == 0) {
        printf("%s %s\n", zkey, wtns);
        time_fixture(o, name, zkey, wtns);
        return true;
    }
    cuzk_r1cs_t *r = NULL;
    cuzk_fr_t *z = NULL;
    cuzk_errmsg err = {{0}};
    if (strcmp(name, "mulchain") == 0) {
        r = mulchain(65000, &z);
    } else if (cuzk_circuits_synthetic(15, 1, threads, &r, &z, &err) != CUZK_OK) {
        r = NULL;
    }
    if (r == NULL) {
        fprintf(stderr, "cuzk-bench: %s circuit: %s\n", name, err.msg);
        return false;
    }
    fprintf(stderr, "cuzk-bench: making the %s zkey once (%llu constraints)\n", name,
            (unsigned long long)r->num_constraints);
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    so.conv = CUZK_GROTH16_SNARKJS;
    so.given_toxic = true;
    cuzk_fr_from_u64(&so.tau, 0x1234567890abcdefULL);
    cuzk_fr_from_u64(&so.alpha, 11);
    cuzk_fr_from_u64(&so.beta, 13);
    cuzk_fr_from_u64(&so.gamma, 1);
    cuzk_fr_from_u64(&so.delta, 17);
    cuzk_groth16_pk pk;
    char tz[4300], tw[4300];
    snprintf(tz, sizeof tz, "%s.tmp", zkey);
    snprintf(tw, sizeof tw, "%s.tmp", wtns);
    cuzk_status s = cuzk_groth16_setup(&pk, r, &so, &err);
    bool ok = s == CUZK_OK;
    if (ok) {
        ok = (s = cuzk_groth16_zkey_write(&pk, tz, &err)) == CUZK_OK &&
             cuzk_r1cs_wtns_save(z, cuzk_r1cs_num_vars(r), tw, &err) == CUZK_OK && rename(tz, zkey) == 0 &&
             rename(tw, wtns) == 0;
        cuzk_groth16_pk_free(&pk);
    }
    if (!ok) {
        fprintf(stderr, "cuzk-bench: %s zkey: %s %s\n", name, cuzk_status_str(s), err.msg);
        unlink(tz);
        unlink(tw);
    }
    cuzk_r1cs_free(r);
    free(z);
    if (ok) {
        printf("%s %s\n", zkey, wtns);
        time_fixture(o, name, zkey, wtns);
    }
    return ok;
}

void bench_zkey_fixtures(const bench_opts *o)
{
    char dir[3900];
    if (!bench_cache_dir(dir, sizeof dir)) {
        fprintf(stderr, "cuzk-bench: no cache directory (set HOME or XDG_CACHE_HOME)\n");
        return;
    }
    unsigned threads = o->threads > 0 ? (unsigned)o->threads : 2;
    if (make_fixture(o, dir, "mulchain", threads)) make_fixture(o, dir, "bits", threads);
}
