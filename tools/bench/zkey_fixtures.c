/* `cuzk-bench zkey`: snarkjs-convention fixtures for timing `cuzk prove --zkey` as a whole command, without the
 * circom/snarkjs tool chain (whose power-16 ptau takes tens of minutes to prepare). Two circuits shaped like the
 * snarkjs comparisons in tests/interop:
 *   mulchain  x <- x·b, 65,000 times (ONE, out, a public; b and the chain private): a dense witness, domain 2^16,
 *             B used by b alone, so the zkey's B1/B2 points are infinity for every other signal, as snarkjs writes;
 *   bits      the PoRep-shaped synthetic circuit at 2^15 (32,763 constraints, 87 % bit witnesses), domain 2^15,
 *             the shape of circomlib's SHA-256 (31,554 constraints over 32 bytes).
 * Each key comes from cuzk_groth16_setup (conv SNARKJS, fixed seed) and is written as a zkey with this file's own writer
 * (sections 1-10, layout in docs/formats/snarkjs.md §2), the witness as a .wtns; both are kept under
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

typedef struct {
    FILE *f;
    bool ok;
} zw;

static void zw_put(zw *w, const void *p, size_t n)
{
    if (w->ok && fwrite(p, 1, n, w->f) != n) w->ok = false;
}
static void zw_u32(zw *w, uint32_t v) { zw_put(w, &v, 4); }
static void zw_u64(zw *w, uint64_t v) { zw_put(w, &v, 8); }
static void zw_section(zw *w, uint32_t type, uint64_t bytes)
{
    zw_u32(w, type);
    zw_u64(w, bytes);
}
static void zw_g1(zw *w, const cuzk_g1_affine_t *p)
{
    uint8_t e[CUZK_G1_IDEN3_BYTES];
    cuzk_g1_to_iden3(e, p);
    zw_put(w, e, sizeof e);
}
static void zw_g2(zw *w, const cuzk_g2_affine_t *p)
{
    uint8_t e[CUZK_G2_IDEN3_BYTES];
    cuzk_g2_to_iden3(e, p);
    zw_put(w, e, sizeof e);
}

/* A SNARKJS key (pk->circuit: A and B with the input rows) as a zkey file. */
static bool zkey_write(const cuzk_groth16_pk *pk, const char *path)
{
    const cuzk_r1cs_t *m = pk->circuit;
    uint32_t nv = (uint32_t)cuzk_r1cs_num_vars(m), np = m->num_inputs - 1;
    zw w = {fopen(path, "wb"), true};
    if (w.f == NULL) return false;
    zw_put(&w, "zkey", 4);
    zw_u32(&w, 1);
    zw_u32(&w, 10);
    zw_section(&w, 1, 4);
    zw_u32(&w, 1);
    zw_section(&w, 2, 4 + CUZK_FP_BYTES + 4 + CUZK_FR_BYTES + 12 + 3 * CUZK_G1_IDEN3_BYTES + 3 * CUZK_G2_IDEN3_BYTES);
    zw_u32(&w, CUZK_FP_BYTES);
    zw_put(&w, CUZK_FP_MODULUS, CUZK_FP_BYTES);
    zw_u32(&w, CUZK_FR_BYTES);
    zw_put(&w, CUZK_FR_MODULUS, CUZK_FR_BYTES);
    zw_u32(&w, nv);
    zw_u32(&w, np);
    zw_u32(&w, (uint32_t)pk->domain_size);
    zw_g1(&w, &pk->vk.alpha_g1);
    zw_g1(&w, &pk->vk.beta_g1);
    zw_g2(&w, &pk->vk.beta_g2);
    zw_g2(&w, &pk->vk.gamma_g2);
    zw_g1(&w, &pk->vk.delta_g1);
    zw_g2(&w, &pk->vk.delta_g2);
    zw_section(&w, 3, pk->vk.num_inputs * CUZK_G1_IDEN3_BYTES);
    for (uint64_t i = 0; i < pk->vk.num_inputs; i++) zw_g1(&w, &pk->vk.ic[i]);
    /* coefficients (matrix, constraint, signal, coef·R² mod r), constraint by constraint as snarkjs writes them */
    uint64_t ncoef = m->m[CUZK_R1CS_A].nnz + m->m[CUZK_R1CS_B].nnz;
    zw_section(&w, 4, 4 + ncoef * (12 + CUZK_FR_BYTES));
    zw_u32(&w, (uint32_t)ncoef);
    cuzk_fr_t r2, two;
    const uint64_t e512 = 512;
    cuzk_fr_from_u64(&two, 2);
    cuzk_fr_pow(&r2, &two, &e512, 1);
    for (uint64_t row = 0; row < m->num_constraints; row++) {
        for (uint32_t k = 0; k < 2; k++) {
            for (uint64_t e = m->m[k].row_ptr[row]; e < m->m[k].row_ptr[row + 1]; e++) {
                cuzk_fr_t v;
                uint8_t le[CUZK_FR_BYTES];
                cuzk_fr_mul(&v, &m->values[m->m[k].coef[e]], &r2);
                cuzk_fr_to_bytes_le(le, &v);
                zw_u32(&w, k);
                zw_u32(&w, (uint32_t)row);
                zw_u32(&w, m->m[k].col[e]);
                zw_put(&w, le, sizeof le);
            }
        }
    }
    zw_section(&w, 5, pk->a_len * CUZK_G1_IDEN3_BYTES);
    for (uint64_t i = 0; i < pk->a_len; i++) zw_g1(&w, &pk->a[i]);
    zw_section(&w, 6, pk->b_len * CUZK_G1_IDEN3_BYTES);
    for (uint64_t i = 0; i < pk->b_len; i++) zw_g1(&w, &pk->b_g1[i]);
    zw_section(&w, 7, pk->b_len * CUZK_G2_IDEN3_BYTES);
    for (uint64_t i = 0; i < pk->b_len; i++) zw_g2(&w, &pk->b_g2[i]);
    zw_section(&w, 8, pk->l_len * CUZK_G1_IDEN3_BYTES);
    for (uint64_t i = 0; i < pk->l_len; i++) zw_g1(&w, &pk->l[i]);
    zw_section(&w, 9, pk->h_len * CUZK_G1_IDEN3_BYTES);
    for (uint64_t i = 0; i < pk->h_len; i++) zw_g1(&w, &pk->h[i]);
    /* section 10, the MPC transcript: a zero hash and no contributions */
    uint8_t hash[64] = {0};
    zw_section(&w, 10, 68);
    zw_put(&w, hash, sizeof hash);
    zw_u32(&w, 0);
    bool ok = w.ok;
    if (fclose(w.f) != 0) ok = false;
    return ok;
}

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
        cuzk_r1cs_var xin = i == 0 ? CUZK_R1CS_INPUT(2) : CUZK_R1CS_AUX(i), xout = i + 1 == n ? CUZK_R1CS_INPUT(1) : CUZK_R1CS_AUX(i + 1);
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
        ok = zkey_write(&pk, tz) && cuzk_r1cs_wtns_save(z, cuzk_r1cs_num_vars(r), tw, &err) == CUZK_OK &&
             rename(tz, zkey) == 0 && rename(tw, wtns) == 0;
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
