/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Latency mode: one proof's device work on two provers, normally on two devices holding copies of one key
 * (cuzk_gpu_prove_msms_pair; docs/performance/prover.md). */
#include <pthread.h>
#include <string.h>

#include "groth16/groth16.cuh"

/* Two keys are copies of one when their shapes and verifying keys agree. */
static bool same_key(const cuzk_gpu_key *a, const cuzk_gpu_key *b)
{
    const cuzk_groth16_vk *u = &a->vk, *v = &b->vk;
    return a->conv == b->conv && a->domain_size == b->domain_size && a->num_inputs == b->num_inputs &&
           a->num_aux == b->num_aux && a->h_len == b->h_len && a->l_len == b->l_len && a->a_len == b->a_len &&
           a->b_len == b->b_len && memcmp(&u->alpha_g1, &v->alpha_g1, sizeof u->alpha_g1) == 0 &&
           memcmp(&u->beta_g1, &v->beta_g1, sizeof u->beta_g1) == 0 &&
           memcmp(&u->delta_g1, &v->delta_g1, sizeof u->delta_g1) == 0 &&
           memcmp(&u->beta_g2, &v->beta_g2, sizeof u->beta_g2) == 0 &&
           memcmp(&u->gamma_g2, &v->gamma_g2, sizeof u->gamma_g2) == 0 &&
           memcmp(&u->delta_g2, &v->delta_g2, sizeof u->delta_g2) == 0 && u->num_inputs == v->num_inputs &&
           (u->num_inputs == 0 || memcmp(u->ic, v->ic, u->num_inputs * sizeof *u->ic) == 0);
}

/* One pair proof's two sides. The H side posts h_state under the lock once H's coefficients are computed (1) or
 * failed (−1); positions [cut, h_len) of H are then the other side's. */
typedef struct {
    cuzk_gpu_prover *p0, *p1;
    const cuzk_gpu_key *k0, *k1;
    const cuzk_fr_t *z;
    const cuzk_gpu_witness_packing *packed;
    cuzk_r1cs_c_mode mode;
    double t0;
    uint64_t cut;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int h_state;
    /* the H side's: upload, SpMV, H, the H MSM over [0, cut) */
    cuzk_gpu_prove_stats st0;
    cuzk_errmsg err0;
    cuzk_status s0;
    cuzk_g1_jac_t head;
    double h_ready; /* seconds from t0 */
    /* the other side's: upload, the splits and the L, A, B MSMs, then the H MSM over [cut, h_len) */
    cuzk_groth16_msm_sums sums;
    cuzk_gpu_prove_stats st1;
    cuzk_errmsg err1;
    cuzk_status s1;
    cuzk_g1_jac_t h_rest;
    double query_done, h_rest_s; /* seconds from t0; seconds of the share's copy and MSM */
} pair_job;

/* Lets `device` (the current one) read `peer`'s memory directly where the two can, once per process and pair;
 * where they cannot, copies between them go through the host. */
static void peer_access(int device, int peer)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static uint64_t tried[64]; /* bit `peer` of tried[device] */
    if (device == peer || device < 0 || peer < 0 || device >= 64 || peer >= 64) return;
    pthread_mutex_lock(&lock);
    if (!(tried[device] >> peer & 1)) {
        tried[device] |= (uint64_t)1 << peer;
        int can = 0;
        cudaError_t e = cudaDeviceCanAccessPeer(&can, device, peer);
        if (e == cudaSuccess && can) e = cudaDeviceEnablePeerAccess(peer, 0);
        if (e != cudaSuccess) cudaGetLastError(); /* not possible after all: the copies go through the host */
    }
    pthread_mutex_unlock(&lock);
}

/* H's coefficients at positions [lo, hi) from the H side's prover into p's a buffer (which p's query side leaves
 * unused), directly between the devices where they can reach each other, else through the host. */
static cuzk_status copy_h_share(cuzk_gpu_prover *p, const cuzk_gpu_prover *from, uint64_t lo, uint64_t hi,
                                cuzk_errmsg *err)
{
    peer_access(p->device, from->device);
    cudaError_t e = cudaMemcpyPeerAsync(p->abc[0] + lo, p->device, from->abc[0] + lo, from->device,
                                        (hi - lo) * sizeof(cuzk_fr_t), cudaStreamPerThread);
    if (e != cudaSuccess) {
        cuzk_gpu_set_error("cudaMemcpyPeerAsync", e, __FILE__, __LINE__);
        return cuzk_gpu_fail(err, CUZK_ERR_DEVICE, "copying H's coefficients to the second device failed");
    }
    if (stream_sync() != CUZK_OK)
        return cuzk_gpu_fail(err, CUZK_ERR_DEVICE, "copying H's coefficients to the second device failed");
    return CUZK_OK;
}

static void h_side(pair_job *j)
{
    double t = j->t0;
    j->s0 = cuzk_gpu_g16_prove_upload(j->p0, j->k0, j->z, j->packed, &j->st0, &t, &j->err0);
    if (j->s0 == CUZK_OK) j->s0 = cuzk_gpu_g16_prove_h(j->p0, j->k0, j->mode, &j->st0, &t, &j->err0);
    j->h_ready = t - j->t0;
    pthread_mutex_lock(&j->lock);
    j->h_state = j->s0 == CUZK_OK ? 1 : -1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
    cuzk_g1_jac_set_infinity(&j->head);
    if (j->s0 == CUZK_OK) j->s0 = cuzk_gpu_g16_msm_h(&j->head, j->p0, j->k0, 0, j->cut, &j->err0);
    add_time(&j->st0.msm_h, &t);
}

static void other_side(pair_job *j)
{
    double t = cuzk_now();
    j->s1 = cuzk_gpu_g16_prove_upload(j->p1, j->k1, j->z, j->packed, &j->st1, &t, &j->err1);
    if (j->s1 == CUZK_OK) j->s1 = cuzk_gpu_g16_prove_query(&j->sums, j->p1, j->k1, &j->st1, &t, &j->err1);
    j->query_done = cuzk_now() - j->t0;
    cuzk_g1_jac_set_infinity(&j->h_rest);
    if (j->s1 != CUZK_OK) return;
    pthread_mutex_lock(&j->lock);
    while (j->h_state == 0) pthread_cond_wait(&j->cond, &j->lock);
    bool ready = j->h_state > 0;
    pthread_mutex_unlock(&j->lock);
    if (!ready || j->cut >= j->k1->h_len) return;
    t = cuzk_now();
    j->s1 = copy_h_share(j->p1, j->p0, j->cut, j->k1->h_len, &j->err1);
    if (j->s1 == CUZK_OK) j->s1 = cuzk_gpu_g16_msm_h(&j->h_rest, j->p1, j->k1, j->cut, j->k1->h_len, &j->err1);
    j->h_rest_s = cuzk_now() - t;
}

/* the H side on the calling thread, the other on a worker (or after it, on the caller, should none start) */
static void pair_side(void *ctx, unsigned id)
{
    if (id == 0) h_side((pair_job *)ctx);
    else other_side((pair_job *)ctx);
}

/* The H side keeps the share of the H MSM that would have made both sides of this proof finish together: it was
 * ready at a0 and ran x = cut points in m0; the other side was free at q1 and ran the n − x others, copy included,
 * in m1. At those rates, a0 + r0·x′ = max(a0, q1) + r1·(n − x′). */
static void h_share_learn(cuzk_gpu_prover *p0, uint64_t n, uint64_t cut, double a0, double m0, double q1, double m1)
{
    double r0 = cut > 0 ? m0 / (double)cut : 0, r1 = cut < n ? m1 / (double)(n - cut) : 0;
    if (r0 <= 0) r0 = r1;
    if (r1 <= 0) r1 = r0;
    if (r0 <= 0) return;
    double x = ((q1 > a0 ? q1 : a0) - a0 + r1 * (double)n) / (r0 + r1);
    p0->h_share_auto = x <= 0 ? 0 : x >= (double)n ? 1 : x / (double)n;
}

extern "C" cuzk_status cuzk_gpu_prove_msms_pair(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p0,
                                                const cuzk_gpu_key *k0, cuzk_gpu_prover *p1, const cuzk_gpu_key *k1,
                                                const cuzk_fr_t *z, const cuzk_gpu_witness_packing *packed,
                                                const cuzk_groth16_prove_opts *opts, cuzk_gpu_prove_stats *stats,
                                                cuzk_errmsg *err)
{
    double t0 = cuzk_now();
    cuzk_r1cs_c_mode mode;
    CUZK_TRY(cuzk_gpu_g16_prove_args(&mode, sums, p0, k0, z, packed, opts, err));
    CUZK_TRY(cuzk_gpu_g16_prove_args(&mode, sums, p1, k1, z, packed, opts,
                                     err)); /* the same mode: the keys must be copies of one */
    if (p1 == p0) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the two sides need two provers");
    if (!same_key(k0, k1)) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the two keys are not copies of one key");

    pair_job *j = (pair_job *)calloc(1, sizeof *j);
    if (j == NULL) return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "out of host memory");
    j->p0 = p0, j->p1 = p1, j->k0 = k0, j->k1 = k1, j->z = z, j->packed = packed, j->mode = mode, j->t0 = t0;
    uint64_t n = k0->h_len;
    double share = p0->h_share >= 0 ? p0->h_share : p0->h_share_auto;
    j->cut = (uint64_t)(share * (double)n + 0.5);
    if (j->cut > n) j->cut = n;
    if (pthread_mutex_init(&j->lock, NULL) != 0) {
        free(j);
        return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "cannot make the pair's lock");
    }
    if (pthread_cond_init(&j->cond, NULL) != 0) {
        pthread_mutex_destroy(&j->lock);
        free(j);
        return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "cannot make the pair's condition variable");
    }
    cuzk_par_run(2, pair_side, j);
    cuzk_status s = j->s0 != CUZK_OK ? j->s0 : j->s1;
    if (s != CUZK_OK && err != NULL) *err = j->s0 != CUZK_OK ? j->err0 : j->err1;
    if (s == CUZK_OK) {
        cuzk_gpu_prove_stats st = j->st0;
        cuzk_g1_jac_add(&sums->h, &j->head, &j->h_rest);
        sums->l = j->sums.l, sums->a = j->sums.a, sums->b1 = j->sums.b1, sums->b2 = j->sums.b2;
        st.msm_l = j->st1.msm_l, st.msm_a = j->st1.msm_a, st.msm_b1 = j->st1.msm_b1, st.msm_b2 = j->st1.msm_b2;
        st.tail_l = j->st1.tail_l, st.tail_a = j->st1.tail_a, st.tail_b = j->st1.tail_b;
        st.msm_h_other = j->h_rest_s;
        st.h_share = n > 0 ? (double)j->cut / (double)n : 1;
        st.total = cuzk_now() - t0;
        st.vram_bytes = cuzk_gpu_prover_vram_bytes(p0) + cuzk_gpu_prover_vram_bytes(p1);
        h_share_learn(p0, n, j->cut, j->h_ready, st.msm_h, j->query_done, j->h_rest_s);
        if (stats != NULL) *stats = st;
    }
    pthread_cond_destroy(&j->cond);
    pthread_mutex_destroy(&j->lock);
    explicit_bzero(&j->sums, sizeof j->sums);
    explicit_bzero(&j->h_rest, sizeof j->h_rest);
    explicit_bzero(&j->head, sizeof j->head);
    free(j);
    return s;
}
