/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The engine on the GPU backend (plain C, like gpu_check): synthetic multi-partition jobs of 2^10 .. 2^14 proved
 * through the whole pipeline (witness-only synthesis into pinned memory, keys generated on the device, proofs
 * assembled on the host and verified by the engine), each proof verified again here against the CPU's key for the
 * same seed, and the bytes compared with the CPU backend's for the same deterministic r and s. Then status and
 * metrics: the devices, their keys and busy time. Exits 77 (CTest skip) with a message when no CUDA device exists.
 * `gpu_engine_check quick` stops at 2^12. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "gpu_testutil.h"

/* latency: GPUs `gpus[0 .. ngpus)` in latency pairs; err: where cuzk_engine_create's refusal goes (else printed) */
static cuzk_engine *start_with(const char *dir, cuzk_engine_backend_kind kind, const int *gpus, size_t ngpus,
                               bool latency, cuzk_errmsg *err_out)
{
    cuzk_engine_config c;
    memset(&c, 0, sizeof c);
    c.gpu_devices = gpus;
    c.num_gpu_devices = ngpus;
    c.gpu_latency_pairs = latency;
    c.param_dir = dir;
    c.synthesis_workers = 2;
    c.synthesis_threads = 2;
    c.prover_threads = 2;
    c.gpu_queue_depth = 2;
    c.backend = kind;
    c.deterministic_rs = true;
    cuzk_engine *e = NULL;
    cuzk_errmsg err = {{0}};
    if (cuzk_engine_create(&e, &c, err_out != NULL ? err_out : &err) != CUZK_OK) {
        if (err_out == NULL)
            printf("engine_create (%s): %s\n", kind == CUZK_ENGINE_BACKEND_GPU ? "gpu" : "cpu", err.msg);
        return NULL;
    }
    return e;
}

static cuzk_engine *start(const char *dir, cuzk_engine_backend_kind kind)
{
    return start_with(dir, kind, NULL, 0, false, NULL);
}

/* proof bytes of one synthetic job, NULL on failure (printed) */
static uint8_t *prove(cuzk_engine *e, unsigned log2, uint64_t seed, uint32_t parts, double *secs)
{
    cuzk_engine_request r;
    memset(&r, 0, sizeof r);
    r.proof_kind = CUZK_ENGINE_KIND_SYNTHETIC;
    r.synthetic_log2 = log2;
    r.seed = seed;
    r.partitions = parts;
    r.priority = CUZK_ENGINE_PRIO_NORMAL;
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_errmsg err = {{0}};
    if (cuzk_engine_submit(e, &r, id, NULL, NULL, &err) != CUZK_OK) {
        printf("submit 2^%u: %s\n", log2, err.msg);
        return NULL;
    }
    cuzk_engine_result res;
    cuzk_engine_await(e, id, 600000, &res);
    uint8_t *out = NULL;
    if (res.status == CUZK_ENGINE_JOB_COMPLETED && res.proof_len == (size_t)parts * CUZK_GROTH16_PROOF_BYTES) {
        out = res.proof;
        res.proof = NULL;
    } else {
        printf("job 2^%u x %u: status %d: %s\n", log2, parts, res.status, res.error_message);
    }
    if (secs != NULL) *secs = (double)res.total_ms / 1000;
    cuzk_engine_result_clear(&res);
    return out;
}

/* every proof against the CPU's key for the seed (cuzk_groth16_setup with the engine's toxic waste is what the cache
 * holds after the CPU engine's run) and its partition's public inputs */
static void verify_outside(const char *dir, unsigned log2, uint64_t seed, uint32_t parts, const uint8_t *proofs)
{
    char path[600];
    snprintf(path, sizeof path, "%s/synthetic/%u-%llu.params", dir, log2, (unsigned long long)seed);
    cuzk_groth16_pk pk;
    if (cuzk_groth16_params_load(&pk, path, 0, 2, NULL) != CUZK_OK) {
        check(0, "the CPU engine cached its synthetic key");
        return;
    }
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk.vk);
    uint64_t ni = pk.vk.num_inputs - 1;
    for (uint32_t p = 0; p < parts; p++) {
        cuzk_fr_t *z = NULL;
        cuzk_groth16_proof_t proof;
        int ok = cuzk_circuits_synthetic_witness(log2, seed, seed + p, 2, &z, NULL) == CUZK_OK &&
                 cuzk_groth16_proof_from_bytes(&proof, proofs + (size_t)p * CUZK_GROTH16_PROOF_BYTES,
                                               CUZK_GROTH16_PROOF_BYTES) == CUZK_OK &&
                 cuzk_groth16_verify(&pvk, &proof, z + 1, ni) == CUZK_OK;
        char what[96];
        snprintf(what, sizeof what, "2^%u partition %u verifies outside the engine", log2, p);
        check(ok, what);
        free(z);
    }
    cuzk_groth16_pk_free(&pk);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    int rc = gpu_test_start();
    if (rc != 0) return rc;
    int n = cuzk_gpu_device_count();
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/cuzk-gpu-engine-%ld", (long)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0) return 1;

    cuzk_engine *cpu = start(dir, CUZK_ENGINE_BACKEND_CPU), *gpu = start(dir, CUZK_ENGINE_BACKEND_GPU);
    check(cpu != NULL && gpu != NULL, "both engines start");
    if (cpu == NULL || gpu == NULL) return 1;
    unsigned max = quick ? 12 : 14;
    for (unsigned log2 = 10; log2 <= max; log2 += 2) {
        uint32_t parts = log2 <= 12 ? 4 : 3;
        uint64_t seed = 1000 + log2;
        double ts_cpu = 0, ts_gpu = 0;
        uint8_t *c = prove(cpu, log2, seed, parts, &ts_cpu);
        uint8_t *g = prove(gpu, log2, seed, parts, &ts_gpu);
        char what[96];
        snprintf(what, sizeof what, "2^%u x %u: both backends complete", log2, parts);
        check(c != NULL && g != NULL, what);
        if (c != NULL && g != NULL) {
            snprintf(what, sizeof what, "2^%u x %u: GPU proofs equal the CPU's byte for byte", log2, parts);
            check(memcmp(c, g, (size_t)parts * CUZK_GROTH16_PROOF_BYTES) == 0, what);
            verify_outside(dir, log2, seed, parts, g);
        }
        printf("2^%u x %u: cpu %.2f s, gpu %.2f s (job wall, first job includes key generation)\n", log2, parts, ts_cpu,
               ts_gpu);
        free(c);
        free(g);
    }
    /* a second job on the same key: the device key is reused, and the proofs still match */
    {
        uint8_t *c = prove(cpu, 12, 1012, 5, NULL), *g = prove(gpu, 12, 1012, 5, NULL);
        check(c != NULL && g != NULL && memcmp(c, g, 5 * CUZK_GROTH16_PROOF_BYTES) == 0,
              "a second job on a resident key matches the CPU's");
        free(c);
        free(g);
    }

    cuzk_engine_status_report st;
    check(cuzk_engine_status(gpu, &st) == CUZK_OK, "status");
    check(st.num_gpus == (size_t)n, "one status entry per device");
    uint64_t parts = 0;
    for (size_t d = 0; d < st.num_gpus; d++) {
        const cuzk_engine_gpu_status *g = &st.gpus[d];
        printf("gpu %u: %s, VRAM %.1f GiB total, %.1f GiB free, budget %.1f GiB, %u keys (%.2f GiB), %llu "
               "partitions, busy %.1f s (%.0f%%)%s%s\n",
               g->ordinal, g->name, g->vram_total_bytes / 1073741824.0, g->vram_free_bytes / 1073741824.0,
               g->vram_budget_bytes / 1073741824.0, g->keys_resident, g->vram_keys_bytes / 1073741824.0,
               (unsigned long long)g->partitions, g->busy_seconds, 100 * g->busy_ratio, g->broken ? " BROKEN: " : "",
               g->error);
        parts += g->partitions;
        check(!g->broken, "no device went out of service");
        check(g->name[0] != 0 && g->vram_total_bytes > 0, "device name and VRAM reported");
    }
    check(parts > 0 && st.gpus[0].keys_resident + (n > 1 ? st.gpus[1].keys_resident : 0) > 0,
          "partitions were proved on the devices and keys are resident");
    cuzk_engine_status_clear(&st);
    char *m = cuzk_engine_metrics_text(gpu);
    check(m != NULL && strstr(m, "cuzk_gpu_busy_ratio{gpu=\"0\"}") != NULL &&
              strstr(m, "cuzk_stage_seconds_count{stage=\"upload\"}") != NULL,
          "metrics carry per-device busy time and the upload stage");
    free(m);
    cuzk_engine_destroy(gpu);

    /* latency mode: an odd number of GPUs is refused; two GPUs make one pair whose proofs equal the CPU's */
    {
        static const int one[] = {0}, two[] = {0, 1};
        cuzk_errmsg err = {{0}};
        cuzk_engine *bad = start_with(dir, CUZK_ENGINE_BACKEND_GPU, one, 1, true, &err);
        check(bad == NULL && strstr(err.msg, "even number") != NULL,
              "latency mode on one GPU is refused with a message");
        cuzk_engine_destroy(bad);
        if (n >= 2) {
            cuzk_engine *pair = start_with(dir, CUZK_ENGINE_BACKEND_GPU, two, 2, true, NULL);
            check(pair != NULL, "latency mode on two GPUs starts");
            if (pair != NULL) {
                uint8_t *c = prove(cpu, 12, 1012, 5, NULL), *g = prove(pair, 12, 1012, 5, NULL);
                check(c != NULL && g != NULL && memcmp(c, g, 5 * CUZK_GROTH16_PROOF_BYTES) == 0,
                      "latency mode: proofs split over a pair equal the CPU's byte for byte");
                if (g != NULL) verify_outside(dir, 12, 1012, 5, g);
                free(c);
                free(g);
                cuzk_engine_status_report ps;
                check(cuzk_engine_status(pair, &ps) == CUZK_OK && ps.num_gpus == 1 &&
                          strstr(ps.gpus[0].name, "latency pair") != NULL && ps.gpus[0].partitions == 5,
                      "latency mode: one status entry for the pair, with its five partitions");
                if (ps.num_gpus > 0)
                    printf("pair: %s, %llu partitions\n", ps.gpus[0].name, (unsigned long long)ps.gpus[0].partitions);
                cuzk_engine_status_clear(&ps);
                cuzk_engine_destroy(pair);
            }
        } else {
            printf("latency mode on two GPUs: skipped (one device)\n");
        }
    }
    cuzk_engine_destroy(cpu);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("could not remove %s\n", dir);
    return gpu_test_finish();
}
