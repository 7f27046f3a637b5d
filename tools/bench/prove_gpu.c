/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench micro --gpu` Groth16 lines: whole proofs of synthetic PoRep-shaped circuits on the device.
 *   cuzk_gpu_setup         the key generated on the device (cuzk_gpu_setup)                          (s)
 *   cuzk_gpu_prove         one proof from the witness in pinned host memory, median of three    (ms)
 *   gpu_prove_<phase> its phases: upload, spmv, ntt_h, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly (ms)
 *   gpu_prove_vram    the key plus one prover's buffers on the device                      (MB)
 *   gpu_prove_pair    with two devices: the proof split over both (latency mode), median of three (ms)
 *   gpu_prove_packed  the proof from the witness packed in place (cuzk_gpu_witness_pack), with its upload and pack times
 *   gpu_prove_pair_packed  both (ms)
 *   cuzk_gpu_key_upload    a host key (2^20) copied up by cuzk_gpu_key_upload, and its .params file decoded on the device
 *                     by cuzk_gpu_key_load_params (GB/s), next to the CPU loader's rate
 *   gpu_prove_floor   the arithmetic floor of the proof's field multiplications (floor_gpu.c): six NTTs of its
 *                     domain, the H MSM and the tail MSMs of L, A and B (B in G1 and G2), at this device's rates;
 *                     the batch additions of the ones, the SpMV and the upload are not counted (ms)
 * Every proof is verified; at 2^20 the CPU prover proves the same witness with the same r, s and the two proofs
 * must be equal ("match" in the line). Sizes 2^20, 2^24, 2^26, 2^27 up to --max-log2 (default 24; with --sizes, those
 * listed, up to 2^27). Runs when the filter (if any) is part of gpu_prove, gpu_setup, gpu_key_upload or
 * cpu_params_load. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "floor.h"
#include "cuzk/circuits.h"
#include "cuzk/gpu.h"

/* seconds, for the whole-step times */
static double now(void) { return (double)cuzk_now_ns() * 1e-9; }

static void key_upload(unsigned log2, const cuzk_r1cs_t *r)
{
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    cuzk_groth16_pk pk;
    cuzk_errmsg err = {{0}};
    if (cuzk_groth16_setup(&pk, r, &so, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: setup: %s\n", err.msg);
        return;
    }
    cuzk_gpu_key *k = NULL;
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    if (cuzk_gpu_key_upload(&k, &pk, r, &ko, &err) == CUZK_OK) {
        cuzk_gpu_key_info info;
        cuzk_gpu_key_get_info(k, &info);
        bench_gpu_line("gpu_key_upload", (uint64_t)1 << log2, (double)info.vram_bytes / info.upload_s / 1e9, "GB/s",
                       ", \"from\": \"host key\"");
        cuzk_gpu_key_free(k);
    } else {
        fprintf(stderr, "cuzk-bench: gpu_key_upload: %s\n", err.msg);
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/cuzk-bench-%d.params", (int)getpid());
    if (cuzk_groth16_params_write(&pk, path, &err) == CUZK_OK) {
        double bps = 0;
        if (cuzk_gpu_key_load_params(&k, path, r, 0, &bps, &err) == CUZK_OK) {
            bench_gpu_line("gpu_key_upload", (uint64_t)1 << log2, bps / 1e9, "GB/s", ", \"from\": \"params file\"");
            cuzk_gpu_key_free(k);
        } else {
            fprintf(stderr, "cuzk-bench: gpu_key_load_params: %s\n", err.msg);
        }
        cuzk_groth16_pk cpu;
        FILE *f = fopen(path, "rb");
        double size = 0;
        if (f != NULL && fseek(f, 0, SEEK_END) == 0) size = (double)ftell(f);
        if (f != NULL) fclose(f);
        double t = now();
        if (cuzk_groth16_params_load(&cpu, path, 0, so.threads, &err) == CUZK_OK) {
            char extra[96];
            snprintf(extra, sizeof extra, ", \"from\": \"params file\", \"cpu_threads\": %u", so.threads);
            bench_gpu_line("cpu_params_load", (uint64_t)1 << log2, size / (now() - t) / 1e9, "GB/s", extra);
            cuzk_groth16_pk_free(&cpu);
        }
        unlink(path);
    }
    cuzk_groth16_pk_free(&pk);
}

/* gpu_prove_pair (latency mode, cuzk_gpu_prove_msms_pair): the same proof with the H side on device 0 and the L, A, B
 * sides and the rest of the H MSM on device 1, which has its own copy of the key (cuzk_gpu_setup with the same toxic
 * waste); median of three after one untimed proof, with each side's time and the H side's share of the H MSM.
 * pk: the witness pz is packed as it says (the line is then gpu_prove_pair_packed). */
static void prove_pair(uint64_t n, const cuzk_fr_t *z, const cuzk_fr_t *pz, const cuzk_gpu_witness_packing *pk,
                       const cuzk_groth16_prove_opts *po, cuzk_gpu_prover *p0, cuzk_gpu_key *k0, cuzk_gpu_prover *p1,
                       cuzk_gpu_key *k1)
{
    enum { REPS = 3 };
    cuzk_errmsg err = {{0}};
    cuzk_status s = CUZK_OK;
    bench_runs tot = {0}, hs = {0}, qs = {0}, up = {0};
    double share = 0;
    cuzk_groth16_proof_t proof;
    /* one proof first, untimed: it sets the share of the H MSM the H side keeps from its timings */
    for (int i = -1; i < REPS && s == CUZK_OK; i++) {
        cuzk_groth16_msm_sums sums;
        cuzk_gpu_prove_stats st;
        s = cuzk_gpu_prove_msms_pair(&sums, p0, k0, p1, k1, pz, pk, po, &st, &err);
        if (s == CUZK_OK) s = cuzk_groth16_assemble(&proof, cuzk_gpu_key_vk(k0), &sums, po);
        if (i < 0) continue;
        bench_run_add(&tot, st.total * 1e3);
        bench_run_add(&hs, (st.upload + st.spmv + st.ntt_h + st.msm_h) * 1e3);
        bench_run_add(&qs, (st.msm_l + st.msm_a + st.msm_b1 + st.msm_b2 + st.msm_h_other) * 1e3);
        bench_run_add(&up, st.upload * 1e3);
        share = st.h_share;
    }
    const char *name = pk != NULL ? "gpu_prove_pair_packed" : "gpu_prove_pair";
    if (s == CUZK_OK) {
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, cuzk_gpu_key_vk(k0));
        bool valid = cuzk_groth16_verify(&pvk, &proof, z + 1, cuzk_gpu_key_vk(k0)->num_inputs - 1) == CUZK_OK;
        bench_stat t = bench_stat_of(&tot);
        char extra[200];
        snprintf(extra, sizeof extra,
                 ", \"h_side_ms\": %.1f, \"other_side_ms\": %.1f, \"h_share\": %.3f, \"upload_ms\": %.1f, "
                 "\"valid\": %s",
                 bench_stat_of(&hs).median, bench_stat_of(&qs).median, share, bench_stat_of(&up).median,
                 valid ? "true" : "false");
        bench_gpu_runs(name, n, &t, 1, "ms", extra);
    } else {
        fprintf(stderr, "cuzk-bench: %s: %s\n", name, err.msg);
    }
}

/* gpu_prove_packed: the proof from the witness packed in place (cuzk_gpu_witness_pack on the host's threads, timed
 * apart), median of three: its upload against the whole witness's */
static void prove_packed(uint64_t n, const cuzk_fr_t *z, const cuzk_fr_t *pz, const cuzk_gpu_witness_packing *pk,
                         double pack_ms, const cuzk_groth16_prove_opts *po, cuzk_gpu_prover *p, cuzk_gpu_key *k)
{
    enum { REPS = 3 };
    cuzk_errmsg err = {{0}};
    cuzk_status s = CUZK_OK;
    bench_runs tot = {0}, up = {0};
    cuzk_groth16_proof_t proof;
    for (int i = 0; i < REPS && s == CUZK_OK; i++) {
        cuzk_groth16_msm_sums sums;
        cuzk_gpu_prove_stats st;
        s = cuzk_gpu_prove_msms(&sums, p, k, pz, pk, po, &st, &err);
        if (s == CUZK_OK) s = cuzk_groth16_assemble(&proof, cuzk_gpu_key_vk(k), &sums, po);
        bench_run_add(&tot, st.total * 1e3);
        bench_run_add(&up, st.upload * 1e3);
    }
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: gpu_prove_packed: %s\n", err.msg);
        return;
    }
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, cuzk_gpu_key_vk(k));
    bool valid = cuzk_groth16_verify(&pvk, &proof, z + 1, cuzk_gpu_key_vk(k)->num_inputs - 1) == CUZK_OK;
    uint64_t others = 0;
    for (unsigned c = 0; c < pk->chunks; c++) others += pk->others[c];
    bench_stat t = bench_stat_of(&tot);
    char extra[200];
    snprintf(extra, sizeof extra, ", \"upload_ms\": %.2f, \"pack_ms\": %.1f, \"sent_whole\": %.4f, \"valid\": %s",
             bench_stat_of(&up).median, pack_ms, pk->num_aux ? (double)others / (double)pk->num_aux : 0.0,
             valid ? "true" : "false");
    bench_gpu_runs("gpu_prove_packed", n, &t, 1, "ms", extra);
}

static void prove_floor(uint64_t n, const cuzk_gpu_prove_stats *st, const floor_rates *rate, double measured_ms)
{
    floor_work w = {st->domain_log2, st->h_points, st->tail_l, st->tail_a, st->tail_b};
    floor_proof f = floor_proof_ms(&w, rate);
    double all = f.all_ms;
    char extra[320];
    int len = snprintf(extra, sizeof extra,
                       ", \"ntt_h_ms\": %.1f, \"msm_h_ms\": %.1f, \"tails_ms\": %.1f, \"tail_l\": %llu, "
                       "\"tail_a\": %llu, \"tail_b\": %llu, \"measured_over_floor\": %.3f",
                       f.ntt_ms, f.h_ms, f.tails_ms, (unsigned long long)st->tail_l, (unsigned long long)st->tail_a,
                       (unsigned long long)st->tail_b, measured_ms / all);
    /* the goal: a 2^27 partition in at most 1 s */
    if (n == (uint64_t)1 << 27 && len > 0 && (size_t)len < sizeof extra)
        snprintf(extra + len, sizeof extra - (size_t)len, ", \"goal_ms\": 1000, \"goal_over_floor\": %.3f", 1000 / all);
    bench_gpu_line("gpu_prove_floor", n, all, "ms", extra);
}

static void prove_size(unsigned log2, cuzk_gpu_prover *p, const cuzk_gpu_prover_opts *popts, const floor_rates *rate)
{
    uint64_t n = (uint64_t)1 << log2;
    unsigned threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    cuzk_r1cs_t *r = NULL;
    cuzk_fr_t *z = NULL;
    cuzk_errmsg err = {{0}};
    double t = now();
    if (cuzk_circuits_synthetic(log2, 1, threads, &r, &z, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: circuit 2^%u: %s\n", log2, err.msg);
        return;
    }
    fprintf(stderr, "cuzk-bench: circuit 2^%u made in %.1f s\n", log2, now() - t);
    uint64_t nv = cuzk_r1cs_num_vars(r);
    if (log2 == 20) key_upload(log2, r);

    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    so.given_toxic = true; /* fixed toxic waste: the CPU's key below is the same key */
    cuzk_fr_from_u64(&so.tau, 0x1234567), cuzk_fr_from_u64(&so.alpha, 11), cuzk_fr_from_u64(&so.beta, 13);
    cuzk_fr_from_u64(&so.gamma, 17), cuzk_fr_from_u64(&so.delta, 19);
    cuzk_gpu_key *k = NULL;
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    t = now();
    if (cuzk_gpu_setup(&k, r, &so, &ko, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: gpu_setup 2^%u: %s\n", log2, err.msg);
        goto out;
    }
    bench_gpu_line("gpu_setup", n, now() - t, "s", NULL);

    cuzk_fr_t *pz = NULL;
    if (cuzk_gpu_host_alloc((void **)&pz, nv * sizeof(cuzk_fr_t)) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: pinned witness: %s\n", cuzk_gpu_last_error());
        goto out_key;
    }
    memcpy(pz, z, nv * sizeof(cuzk_fr_t));
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.given_rs = true;
    cuzk_fr_from_u64(&po.r, 23), cuzk_fr_from_u64(&po.s, 29);
    po.threads = threads;
    enum { REPS = 3 };
    cuzk_gpu_prove_stats st[REPS];
    cuzk_groth16_proof_t proof;
    /* what a service does when it loads a key: the prover's buffers grow now, and the first proof runs at speed */
    t = now();
    cuzk_status s = cuzk_gpu_prover_reserve(p, k, &err);
    if (s == CUZK_OK) {
        bench_gpu_line("gpu_prove_reserve", n, (now() - t) * 1e3, "ms", NULL);
        s = cuzk_gpu_prove(&proof, p, k, pz, &po, &st[0], &err);
    }
    if (s == CUZK_OK) {
        char first[64];
        snprintf(first, sizeof first, ", \"prepare_ms\": %.3f", st[0].prepare * 1e3);
        bench_gpu_line("gpu_prove_first", n, st[0].total * 1e3, "ms", first);
    }
    for (int i = 0; i < REPS && s == CUZK_OK; i++) s = cuzk_gpu_prove(&proof, p, k, pz, &po, &st[i], &err);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: gpu_prove 2^%u: %s\n", log2, err.msg);
        goto out_z;
    }
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, cuzk_gpu_key_vk(k));
    bool valid = cuzk_groth16_verify(&pvk, &proof, z + 1, cuzk_gpu_key_vk(k)->num_inputs - 1) == CUZK_OK;
    char extra[160] = "";
    if (log2 <= 20) {
        cuzk_groth16_pk pk;
        cuzk_groth16_proof_t cpu;
        bool match = cuzk_groth16_setup(&pk, r, &so, &err) == CUZK_OK;
        double tc = now();
        match = match && cuzk_groth16_prove(&cpu, &pk, r, z, &po, NULL, &err) == CUZK_OK &&
                memcmp(&cpu, &proof, sizeof cpu) == 0;
        double cpu_ms = (now() - tc) * 1e3;
        cuzk_groth16_pk_free(&pk);
        snprintf(extra, sizeof extra, ", \"valid\": %s, \"match_cpu\": %s, \"cpu_ms\": %.1f, \"cpu_threads\": %u",
                 valid ? "true" : "false", match ? "true" : "false", cpu_ms, threads);
    } else {
        snprintf(extra, sizeof extra, ", \"valid\": %s", valid ? "true" : "false");
    }
    /* the proof and each phase: the median of the REPS proofs */
    static const struct {
        const char *name;
        size_t offset;
    } phases[] = {
        {"gpu_prove", offsetof(cuzk_gpu_prove_stats, total)},
        {"gpu_prove_upload", offsetof(cuzk_gpu_prove_stats, upload)},
        {"gpu_prove_spmv", offsetof(cuzk_gpu_prove_stats, spmv)},
        {"gpu_prove_ntt_h", offsetof(cuzk_gpu_prove_stats, ntt_h)},
        {"gpu_prove_msm_h", offsetof(cuzk_gpu_prove_stats, msm_h)},
        {"gpu_prove_msm_l", offsetof(cuzk_gpu_prove_stats, msm_l)},
        {"gpu_prove_msm_a", offsetof(cuzk_gpu_prove_stats, msm_a)},
        {"gpu_prove_msm_b1", offsetof(cuzk_gpu_prove_stats, msm_b1)},
        {"gpu_prove_msm_b2", offsetof(cuzk_gpu_prove_stats, msm_b2)},
        {"gpu_prove_assembly", offsetof(cuzk_gpu_prove_stats, assembly)},
    };
    double total_ms = 0;
    for (size_t ph = 0; ph < sizeof phases / sizeof phases[0]; ph++) {
        bench_runs runs = {0};
        for (int i = 0; i < REPS; i++)
            bench_run_add(&runs, *(const double *)((const char *)&st[i] + phases[ph].offset));
        bench_stat v = bench_stat_of(&runs);
        if (ph == 0) total_ms = v.median * 1e3;
        bench_gpu_runs(phases[ph].name, n, &v, 1e3, "ms", ph == 0 ? extra : NULL);
    }
    cuzk_gpu_key_info info;
    cuzk_gpu_key_get_info(k, &info);
    bench_gpu_line("gpu_prove_vram", n, (double)(info.vram_bytes + st[REPS - 1].vram_bytes) / 1e6, "MB",
                   info.whole_ntt_tables ? ", \"whole_ntt_tables\": true" : ", \"whole_ntt_tables\": false");
    if (rate != NULL) prove_floor(n, &st[REPS - 1], rate, total_ms);

    /* device 1 with its own copy of the key, for the pair lines */
    cuzk_gpu_key *k1 = NULL;
    cuzk_gpu_prover *p1 = NULL;
    if (cuzk_gpu_device_count() > 1) {
        cuzk_gpu_key_opts ko1;
        memset(&ko1, 0, sizeof ko1);
        s = cuzk_gpu_set_device(1);
        if (s == CUZK_OK) s = cuzk_gpu_setup(&k1, r, &so, &ko1, &err);
        if (s == CUZK_OK) s = cuzk_gpu_prover_create(&p1, popts, &err);
        if (s == CUZK_OK) s = cuzk_gpu_prover_reserve(p1, k1, &err);
        cuzk_gpu_set_device(0);
        if (s == CUZK_OK) prove_pair(n, z, pz, NULL, &po, p, k, p1, k1);
        else fprintf(stderr, "cuzk-bench: device 1: %s\n", err.msg);
    }
    /* the witness packed in place (pz is not needed whole any more) */
    uint64_t *classes = malloc(cuzk_gpu_witness_classes_words(r->num_aux) * sizeof *classes + 8);
    if (classes != NULL) {
        cuzk_gpu_witness_packing pk;
        t = now();
        cuzk_gpu_witness_pack(&pk, pz, r->num_inputs, r->num_aux, classes, threads);
        double pack_ms = (now() - t) * 1e3;
        prove_packed(n, z, pz, &pk, pack_ms, &po, p, k);
        if (p1 != NULL) prove_pair(n, z, pz, &pk, &po, p, k, p1, k1);
        free(classes);
    }
    cuzk_gpu_prover_destroy(p1);
    cuzk_gpu_key_free(k1);
out_z:
    cuzk_gpu_host_free(pz);
out_key:
    cuzk_gpu_key_free(k);
out:
    cuzk_r1cs_free(r);
    free(z);
}

void bench_prove_gpu(const bench_opts *o)
{
    static const unsigned sizes[] = {20, 24, 26, 27};
    /* the lines of this file, by the names a filter may select */
    if (!bench_selected(o, "gpu_prove") && !bench_selected(o, "gpu_setup") && !bench_selected(o, "gpu_key_upload") &&
        !bench_selected(o, "cpu_params_load"))
        return;
    int max = o->max_log2 > 0 ? o->max_log2 : o->sizes != 0 ? 27 : 24;
    cuzk_gpu_prover *p = NULL;
    cuzk_errmsg err = {{0}};
    cuzk_gpu_prover_opts popts;
    bench_gpu_prover_opts(o, &popts);
    if (cuzk_gpu_prover_create(&p, &popts, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: %s\n", err.msg);
        return;
    }
    floor_rates rate;
    bool have_rate = bench_selected(o, "gpu_prove") && floor_rates_gpu(&rate);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if ((int)sizes[i] <= max && (o->min_log2 <= 0 || (int)sizes[i] >= o->min_log2) &&
            bench_size_selected(o, sizes[i]))
            prove_size(sizes[i], p, &popts, have_rate ? &rate : NULL);
    cuzk_gpu_prover_destroy(p);
}
