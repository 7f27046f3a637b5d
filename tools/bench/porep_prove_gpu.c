/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench porep --gpu`: a whole PoRep C2 on one device. The partition's system is built on the host, the key is
 * generated on the device from it and the host system freed; then a witness thread makes partition k + 1's witness
 * (and packs it) into one of two pinned buffers while the device proves partition k from the other; the host
 * assembles each proof, and at the end verifies all partitions in one batch. The C2 time runs from the C1 check
 * (test sizes) or the first witness to the verification, its peak host memory over the same span. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/gpu.h"
#include "porep_bench.h"

typedef struct {
    const cuzk_fil_porep_circuit *c;
    const cuzk_fil_c1 *c1;
    const cuzk_fil_proof *p;
    unsigned threads;
    uint64_t nvars, num_inputs, num_aux;
    size_t npub;
    cuzk_fr_t *z[2];
    uint64_t *classes[2];
    cuzk_gpu_witness_packing packing[2];
    cuzk_fr_t *pub;          /* partitions × npub: each witness's inputs, for the verification */
    const cuzk_fr_t *expect; /* the same computed from public data (a sealed C1), or NULL */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int ready[2]; /* the partition a slot holds, −1 when free */
    bool failed;
    double witness_s, first_witness_s;
} pipe_t;

static void *witness_thread(void *arg)
{
    pipe_t *pp = arg;
    cuzk_errmsg err = {{0}};
    for (uint32_t k = 0; k < pp->p->partitions; k++) {
        int slot = k % 2;
        pthread_mutex_lock(&pp->lock);
        while (pp->ready[slot] >= 0 && !pp->failed) pthread_cond_wait(&pp->cond, &pp->lock);
        bool stop = pp->failed;
        pthread_mutex_unlock(&pp->lock);
        if (stop) break;
        double t0 = cuzk_now();
        cuzk_status s = cuzk_fil_porep_witness(pp->c, pp->c1, k, pp->threads, pp->z[slot], pp->nvars, &err);
        if (s == CUZK_OK) {
            memcpy(pp->pub + (size_t)k * pp->npub, pp->z[slot] + 1, pp->npub * sizeof(cuzk_fr_t));
            if (pp->expect != NULL &&
                memcmp(pp->pub + (size_t)k * pp->npub, pp->expect + (size_t)k * pp->npub, pp->npub * sizeof(cuzk_fr_t)))
                s = cuzk_fail(&err, CUZK_ERR_MISMATCH, "partition %u: the witness's inputs are not the public ones", k);
            cuzk_gpu_witness_pack(&pp->packing[slot], pp->z[slot], pp->num_inputs, pp->num_aux, pp->classes[slot],
                                  pp->threads);
        }
        double dt = cuzk_now() - t0;
        pthread_mutex_lock(&pp->lock);
        pp->witness_s += dt;
        if (k == 0) pp->first_witness_s = dt;
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzk-bench porep: witness %u: %s\n", k, err.msg);
            pp->failed = true;
        } else {
            pp->ready[slot] = (int)k;
        }
        pthread_cond_broadcast(&pp->cond);
        pthread_mutex_unlock(&pp->lock);
        if (s != CUZK_OK) break;
    }
    return NULL;
}

void porep_bench_c2_gpu(const cuzk_fil_porep_circuit *c, const cuzk_fil_proof *p, unsigned threads)
{
    cuzk_errmsg err = {{0}};
    bool real = p->sector_size <= (512ULL << 20);
    cuzk_fil_c1 c1;
    uint8_t prover_id[32] = {0};
    uint64_t sector_id = 0;
    if (real ? !porep_bench_test_c1(p, threads, &c1, prover_id, &sector_id)
             : cuzk_fil_c1_random(p, 1, &c1, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench porep: a C1: %s\n", err.msg);
        return;
    }
    /* the system, the key made from it on the device, the host system freed */
    cuzk_r1cs_t *r = NULL;
    cuzk_gpu_key *key = NULL;
    cuzk_gpu_prover *prover = NULL;
    pipe_t pp;
    memset(&pp, 0, sizeof pp);
    double t0 = cuzk_now();
    if (cuzk_fil_porep_shape(c, threads, &r, &err) != CUZK_OK) goto fail;
    porep_bench_line("porep_c2_gpu_shape", p, (int)threads, cuzk_now() - t0, "s", NULL);
    pp.num_inputs = r->num_inputs;
    pp.num_aux = r->num_aux;
    pp.nvars = cuzk_r1cs_num_vars(r);
    t0 = cuzk_now();
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.workers = 1;
    if (cuzk_gpu_setup(&key, r, &so, &ko, &err) != CUZK_OK) goto fail;
    porep_bench_line("porep_c2_gpu_setup", p, (int)threads, cuzk_now() - t0, "s", NULL);
    cuzk_r1cs_free(r);
    r = NULL;
    if (cuzk_gpu_prover_create(&prover, NULL, &err) != CUZK_OK || cuzk_gpu_prover_reserve(prover, key, &err) != CUZK_OK)
        goto fail;
    pp.c = c;
    pp.c1 = &c1;
    pp.p = p;
    pp.threads = threads;
    pp.npub = cuzk_fil_porep_public_input_count(p);
    pp.ready[0] = pp.ready[1] = -1;
    uint64_t words = cuzk_gpu_witness_classes_words(pp.num_aux);
    for (int i = 0; i < 2; i++) {
        if (cuzk_gpu_host_alloc((void **)&pp.z[i], pp.nvars * sizeof(cuzk_fr_t)) != CUZK_OK ||
            (pp.classes[i] = malloc(words * sizeof(uint64_t))) == NULL) {
            cuzk_fail(&err, CUZK_ERR_NOMEM, "pinned witness buffers");
            goto fail;
        }
        memset(pp.z[i], 0, pp.nvars * sizeof(cuzk_fr_t));
    }
    cuzk_fr_t *expect = NULL;
    pp.pub = malloc((size_t)p->partitions * pp.npub * sizeof *pp.pub);
    cuzk_groth16_proof_t *proofs = calloc(p->partitions, sizeof *proofs);
    if (pp.pub == NULL || proofs == NULL) {
        free(proofs);
        cuzk_fail(&err, CUZK_ERR_NOMEM, "out of memory");
        goto fail;
    }

    /* the C2 */
    uint64_t rss0 = porep_bench_status_kb("VmRSS:");
    bool reset = porep_bench_reset_peak();
    double c2 = cuzk_now(), check_s = 0, prove_s = 0, verify_s = 0;
    cuzk_status s = CUZK_OK;
    if (real) {
        s = cuzk_fil_porep_c1_check(&c1, prover_id, sector_id, threads, &err);
        cuzk_fil_porep_public pd;
        cuzk_fil_porep_public_of_c1(&c1, prover_id, sector_id, &pd);
        expect = malloc((size_t)p->partitions * pp.npub * sizeof *expect);
        if (expect == NULL) s = CUZK_ERR_NOMEM;
        for (uint32_t k = 0; k < p->partitions && s == CUZK_OK; k++)
            s = cuzk_fil_porep_public_inputs(p, &pd, k, expect + (size_t)k * pp.npub, &err);
        pp.expect = expect;
        check_s = cuzk_now() - c2;
    }
    pthread_mutex_init(&pp.lock, NULL);
    pthread_cond_init(&pp.cond, NULL);
    pthread_t wt;
    bool started = s == CUZK_OK && pthread_create(&wt, NULL, witness_thread, &pp) == 0;
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.c_mode = CUZK_R1CS_C_PRODUCT;
    for (uint32_t k = 0; started && k < p->partitions && s == CUZK_OK; k++) {
        int slot = k % 2;
        pthread_mutex_lock(&pp.lock);
        while (pp.ready[slot] != (int)k && !pp.failed) pthread_cond_wait(&pp.cond, &pp.lock);
        bool stop = pp.failed;
        pthread_mutex_unlock(&pp.lock);
        if (stop) {
            s = CUZK_ERR_MISMATCH;
            break;
        }
        double tp = cuzk_now();
        cuzk_groth16_msm_sums sums;
        cuzk_gpu_prove_stats gst;
        s = cuzk_gpu_prove_msms(&sums, prover, key, pp.z[slot], &pp.packing[slot], &po, &gst, &err);
        pthread_mutex_lock(&pp.lock);
        pp.ready[slot] = -1;
        if (s != CUZK_OK) pp.failed = true;
        pthread_cond_broadcast(&pp.cond);
        pthread_mutex_unlock(&pp.lock);
        if (s == CUZK_OK) s = cuzk_groth16_assemble(&proofs[k], cuzk_gpu_key_vk(key), &sums, &po);
        prove_s += cuzk_now() - tp;
    }
    if (started) pthread_join(wt, NULL);
    bool valid = false;
    if (started && s == CUZK_OK && !pp.failed) {
        double tv = cuzk_now();
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, cuzk_gpu_key_vk(key));
        valid = cuzk_groth16_verify_batch(&pvk, proofs, pp.pub, pp.npub, p->partitions) == CUZK_OK;
        verify_s = cuzk_now() - tv;
    }
    double total = cuzk_now() - c2;
    uint64_t hwm = porep_bench_status_kb("VmHWM:");
    pthread_mutex_destroy(&pp.lock);
    pthread_cond_destroy(&pp.cond);
    if (!started || s != CUZK_OK || pp.failed) {
        fprintf(stderr, "cuzk-bench porep: C2 on the device: %s\n", err.msg);
    } else {
        char extra[512];
        snprintf(extra, sizeof extra,
                 ", \"device\": \"gpu\", \"partitions\": %u, \"c1\": \"%s\", \"valid\": %s, \"check_s\": %.3f, "
                 "\"first_witness_s\": %.3f, \"witness_s\": %.3f, \"device_s\": %.3f, \"verify_s\": %.3f, "
                 "\"peak_rss_mb\": %.0f",
                 p->partitions, real ? "sealed" : "random", valid ? "true" : "false", check_s, pp.first_witness_s,
                 pp.witness_s, prove_s, verify_s, reset && hwm > rss0 ? (double)hwm / 1024 : -1);
        porep_bench_line("porep_c2_gpu", p, (int)threads, total, "s", extra);
    }
    free(expect);
    free(proofs);
    goto done;
fail:
    fprintf(stderr, "cuzk-bench porep: C2 on the device: %s\n", err.msg);
done:
    for (int i = 0; i < 2; i++) {
        cuzk_gpu_host_free(pp.z[i]);
        free(pp.classes[i]);
    }
    free(pp.pub);
    cuzk_gpu_prover_destroy(prover);
    cuzk_gpu_key_free(key);
    cuzk_r1cs_free(r);
    cuzk_fil_c1_free(&c1);
}
