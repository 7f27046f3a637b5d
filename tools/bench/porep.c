/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench porep [--sector-size S] [--threads N] [--filter NAME] [--gpu]`: the PoRep C2 circuit (filecoin layer)
 * at one sector size (default 32 GiB), one JSON line per figure:
 *   porep_layout          the circuit object: challenge 0 counted to lay the partition out (s)
 *   porep_witness         one partition's witness into a prefaulted buffer, best of three, at 1, 2, 4, ... up to
 *                         the online CPUs (or --threads alone) (ms; "cpu_ms" the process CPU time it took,
 *                         "peak_rss_mb" the process's peak so far)
 *   porep_shape           the partition's system built in SHAPE mode (s), porep_shape_peak_rss its peak resident
 *                         memory above the process's before it (MB)
 *   porep_fingerprint     that system's counts, non-zeros (A with the prover's input rows) and density popcounts;
 *                         value 1 when they are the ones extracted from the Rust circuit, 0 when not (32 GiB; −1 at
 *                         sizes without a reference)
 *   porep_c2              a whole C2 through the library on the CPU (cuzk_fil_porep_prove), test sizes only: a
 *                         sealed test sector's C1, a test key cached in the bench cache (s, with the phases)
 *   porep_c2_gpu          with --gpu (built with CUDA): every partition's witness made on the host while the device
 *                         proves the previous one, then all verified; the key generated on the device (s, with
 *                         the peak host memory of the C2 alone). At 32 and 64 GiB the C1 is generated
 *                         (cuzk_fil_c1_random): structurally valid, random labels and paths, so the proof cannot
 *                         verify; the line says "c1": "random", "valid": false, and the C1 check is skipped.
 * The witness lines use a generated C1 at every size (no check, no verification: the witness work is the same). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "porep_bench.h"

double porep_bench_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t porep_bench_status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) return 0;
    char line[256];
    unsigned long long kb = 0;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, key, kl) == 0 && sscanf(line + kl, " %llu", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb;
}

bool porep_bench_reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return false;
    bool ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok;
}

void porep_bench_line(const char *name, const cuzk_fil_proof *p, int threads, double value, const char *unit,
                      const char *extra)
{
    printf("{\"name\": \"%s\", \"size\": %llu, \"threads\": %d, \"value\": %.3f, \"unit\": \"%s\", "
           "\"registered_proof\": %u%s}\n",
           name, (unsigned long long)p->sector_size, threads, value, unit, p->id, extra ? extra : "");
    fflush(stdout);
}

static void bench_witness(const bench_opts *o, const cuzk_fil_porep_circuit *c, const cuzk_fil_proof *p)
{
    cuzk_errmsg err = {{0}};
    cuzk_fil_c1 c1;
    if (cuzk_fil_c1_random(p, 1, &c1, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep: generating a C1: %s\n", err.msg);
        return;
    }
    uint64_t n = cuzk_fil_porep_circuit_num_vars(c);
    cuzk_fr_t *z = malloc(n * sizeof *z);
    if (z == NULL) {
        fprintf(stderr, "cuzk-bench porep: no memory for a witness of %llu values\n", (unsigned long long)n);
        cuzk_fil_c1_free(&c1);
        return;
    }
    memset(z, 0, n * sizeof *z);
    int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), counts[16], nc = 0;
    if (o->threads > 0) counts[nc++] = o->threads;
    else {
        for (int t = 1; t < ncpu && nc < 15; t *= 2) counts[nc++] = t;
        counts[nc++] = ncpu;
    }
    for (int i = 0; i < nc; i++) {
        bench_runs runs = {.n = 0};
        double best = -1, best_cpu = 0;
        for (int rep = 0; rep < 3; rep++) {
            double c0 = porep_bench_cpu_s();
            bench_run_start(&runs);
            cuzk_status s = cuzk_fil_porep_witness(c, &c1, 0, (unsigned)counts[i], z, n, &err);
            bench_run_stop(&runs);
            double dc = porep_bench_cpu_s() - c0, dt = runs.v[runs.n - 1];
            if (s != CUZK_OK) {
                fprintf(stderr, "cuzk-bench porep: witness: %s\n", err.msg);
                goto out;
            }
            if (best < 0 || dt < best) best = dt, best_cpu = dc;
        }
        char extra[160];
        snprintf(extra, sizeof extra, ", \"registered_proof\": %u, \"cpu_ms\": %.1f, \"peak_rss_mb\": %.0f", p->id,
                 best_cpu * 1e3, (double)porep_bench_status_kb("VmHWM:") / 1024);
        bench_stat st = bench_stat_of(&runs);
        bench_report_runs("porep_witness", p->sector_size, counts[i], &st, 1e-6, "ms", extra);
    }
out:
    free(z);
    cuzk_fil_c1_free(&c1);
}

static uint64_t popcount(const uint64_t *bits, uint64_t n)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < n / 64; i++) c += (uint64_t)__builtin_popcountll(bits[i]);
    if (n % 64) c += (uint64_t)__builtin_popcountll(bits[n / 64] & ((1ULL << (n % 64)) - 1));
    return c;
}

static void bench_shape(const cuzk_fil_porep_circuit *c, const cuzk_fil_proof *p, unsigned threads)
{
    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    uint64_t rss0 = porep_bench_status_kb("VmRSS:");
    bool reset = porep_bench_reset_peak();
    double t0 = cuzk_now();
    if (cuzk_fil_porep_shape(c, threads, &r, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep: shape: %s\n", err.msg);
        return;
    }
    double dt = cuzk_now() - t0;
    uint64_t hwm = porep_bench_status_kb("VmHWM:");
    porep_bench_line("porep_shape", p, (int)threads, dt, "s", NULL);
    porep_bench_line("porep_shape_peak_rss", p, (int)threads, reset && hwm > rss0 ? (double)(hwm - rss0) / 1024 : -1,
                     "MB", NULL);
    uint64_t a = r->m[0].nnz + r->num_inputs, b = r->m[1].nnz, cc = r->m[2].nnz;
    uint64_t da = popcount(r->a_aux_density, r->num_aux), dbi = popcount(r->b_input_density, r->num_inputs);
    uint64_t dba = popcount(r->b_aux_density, r->num_aux);
    bool big = p->sector_size == (32ULL << 30);
    bool match = big && r->num_constraints == 130278541 && r->num_inputs == 328 && r->num_aux == 130169893 &&
                 a == 309405051 && b == 130327340 && cc == 282656500 && da == 129753292 && dbi == 1 && dba == 33112281;
    char extra[512];
    snprintf(extra, sizeof extra,
             ", \"constraints\": %llu, \"inputs\": %u, \"aux\": %u, \"nnz_a_with_inputs\": %llu, \"nnz_b\": %llu, "
             "\"nnz_c\": %llu, \"a_aux_density\": %llu, \"b_input_density\": %llu, \"b_aux_density\": %llu%s",
             (unsigned long long)r->num_constraints, r->num_inputs, r->num_aux, (unsigned long long)a,
             (unsigned long long)b, (unsigned long long)cc, (unsigned long long)da, (unsigned long long)dbi,
             (unsigned long long)dba, big ? (match ? ", \"rust\": \"equal\"" : ", \"rust\": \"DIFFERENT\"") : "");
    porep_bench_line("porep_fingerprint", p, (int)threads, big ? (match ? 1 : 0) : -1, "bool", extra);
    cuzk_r1cs_free(r);
}

/* A sealed test sector's C1 for p (test sizes). */
bool porep_bench_test_c1(const cuzk_fil_proof *p, unsigned threads, cuzk_fil_c1 *c1, uint8_t prover_id[32],
                         uint64_t *sector_id)
{
    cuzk_errmsg err = {{0}};
    cuzk_fil_sdr_seal_params sp = {
        .sector_size = p->sector_size, .api = (cuzk_fil_sdr_api)p->api, .sector_id = 1, .threads = threads};
    memcpy(sp.porep_id, p->porep_id, 32);
    cuzk_fil_prover_id(1000, sp.prover_id);
    memset(sp.ticket, 7, 32);
    uint8_t seed[32];
    memset(seed, 9, 32);
    cuzk_fil_sdr_replica rep;
    if (cuzk_fil_sdr_seal(&sp, NULL, 0, &rep, &err) != CUZK_OK ||
        cuzk_fil_porep_c1_from_replica(&rep, p, sp.ticket, seed, c1, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep: a test C1: %s\n", err.msg);
        return false;
    }
    cuzk_fil_sdr_replica_free(&rep);
    memcpy(prover_id, sp.prover_id, 32);
    *sector_id = sp.sector_id;
    return true;
}

/* The test key of a shape, cached as porep-<size>-<identity>.params in the bench cache. */
static bool cached_key(const cuzk_r1cs_t *r, const cuzk_fil_proof *p, unsigned threads, cuzk_groth16_pk *pk)
{
    char dir[1024], path[1200], size[24];
    cuzk_errmsg err = {{0}};
    if (!bench_cache_dir(dir, sizeof dir)) return false;
    snprintf(path, sizeof path, "%s/porep-%s-%02x%02x%02x%02x.params", dir, cuzk_fil_size_str(p->sector_size, size),
             r->identity[0], r->identity[1], r->identity[2], r->identity[3]);
    if (access(path, R_OK) == 0 && cuzk_groth16_params_load(pk, path, 0, threads, &err) == CUZK_OK) return true;
    fprintf(stderr, "cuzk-bench porep: making a test key for the %s circuit (once, into %s)\n", size, path);
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    if (cuzk_groth16_setup(pk, r, &so, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep: setup: %s\n", err.msg);
        return false;
    }
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (cuzk_groth16_params_write(pk, tmp, &err) == CUZK_OK) rename(tmp, path);
    return true;
}

static void bench_c2_cpu(const cuzk_fil_porep_circuit *c, const cuzk_fil_proof *p, unsigned threads)
{
    if (p->sector_size > (512ULL << 20)) {
        fprintf(stderr, "cuzk-bench porep: porep_c2 on the CPU at test sizes only (--sector-size 2KiB); --gpu for "
                        "the production sizes\n");
        return;
    }
    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    if (cuzk_fil_porep_shape(c, threads, &r, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep: shape: %s\n", err.msg);
        return;
    }
    cuzk_groth16_pk pk;
    memset(&pk, 0, sizeof pk);
    cuzk_fil_c1 c1;
    uint8_t prover_id[32];
    uint64_t sector_id;
    if (cached_key(r, p, threads, &pk) && porep_bench_test_c1(p, threads, &c1, prover_id, &sector_id)) {
        cuzk_groth16_proof_t *proofs = calloc(p->partitions, sizeof *proofs);
        cuzk_fil_porep_prove_opts po = {.threads = threads};
        cuzk_fil_porep_prove_stats st;
        cuzk_status s = proofs
                            ? cuzk_fil_porep_prove(c, r, &pk, NULL, &c1, prover_id, sector_id, &po, proofs, &st, &err)
                            : CUZK_ERR_NOMEM;
        char extra[256];
        snprintf(extra, sizeof extra,
                 ", \"partitions\": %u, \"check_s\": %.3f, \"witness_s\": %.3f, \"prove_s\": %.3f, \"verify_s\": %.3f, "
                 "\"valid\": %s",
                 p->partitions, st.check, st.witness, st.prove, st.verify, s == CUZK_OK ? "true" : "false");
        if (s != CUZK_OK) fprintf(stderr, "cuzk-bench porep: C2: %s\n", err.msg);
        porep_bench_line("porep_c2", p, (int)threads, st.total, "s", extra);
        free(proofs);
        cuzk_fil_c1_free(&c1);
    }
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_free(r);
}

void bench_porep(const bench_opts *o)
{
    uint64_t sector_size = o->sector_size ? o->sector_size : 32ULL << 30;
    const cuzk_fil_proof *p = NULL;
    for (uint64_t id = 5; id < 10 && p == NULL; id++) {
        const cuzk_fil_proof *q = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, id);
        if (q != NULL && q->sector_size == sector_size) p = q;
    }
    if (p == NULL) {
        fprintf(stderr, "cuzk-bench porep: no PoRep of sector size %llu\n", (unsigned long long)sector_size);
        return;
    }
    unsigned threads = o->threads > 0 ? (unsigned)o->threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    cuzk_errmsg err = {{0}};
    cuzk_fil_porep_circuit *c;
    double t0 = cuzk_now();
    if (cuzk_fil_porep_circuit_new(&c, p, threads, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep: %s\n", err.msg);
        return;
    }
    if (bench_selected(o, "porep_layout"))
        porep_bench_line("porep_layout", p, (int)threads, cuzk_now() - t0, "s", NULL);
    if (bench_selected(o, "porep_witness")) bench_witness(o, c, p);
    if (bench_selected(o, "porep_shape") || bench_selected(o, "porep_fingerprint")) bench_shape(c, p, threads);
    if (o->gpu) {
#ifdef CUZK_HAVE_CUDA
        if (bench_selected(o, "porep_c2_gpu")) porep_bench_c2_gpu(c, p, threads);
#else
        fprintf(stderr, "cuzk-bench porep: --gpu: built without CUDA\n");
#endif
    } else if (bench_selected(o, "porep_c2")) {
        bench_c2_cpu(c, p, threads);
    }
    cuzk_fil_porep_circuit_free(c);
}
