/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Groth16 prover on the device: the prover object, and one proof's stages in order. Only the witness crosses
 * PCIe:
 *   upload z → SpMV a, b, c (c = a∘b, or C·z, or a∘b checked against C·z) → H by NTTs (bellperson: coset 7 and
 *   division by Z; snarkjs: the odd coset of the 2n domain) → H MSM → for L, A and B: classify the scalars at the
 *   key's positions (0 skipped, 1 into a bitmap, others compacted with their positions) → batch addition of the
 *   ones and a Pippenger MSM over the rest, reading the key's bases by position → the five sums come back to the
 *   host, where cuzk_groth16_assemble adds the r and s terms.
 * Results equal the CPU prover's bit for bit: both compute the same group elements and the affine encoding of a
 * point is unique. */
#include <string.h>

#include "groth16/groth16.cuh"

extern "C" uint64_t cuzk_gpu_prove_vram_bytes(uint64_t n, uint64_t nv)
{
    uint64_t F = sizeof(cuzk_fr_t);
    /* G1 MSMs: h (n − 1 points) and l, a, b (at most nv); G2: b */
    uint64_t msm = cuzk_gpu_msm_scratch_bytes(n > nv ? n : nv, nv);
    uint64_t select = nv / 4 + ((uint64_t)1 << 20); /* cub's select scratch: a small fraction, bounded generously */
    uint64_t direct = n < ((uint64_t)1 << 20) ? n : ((uint64_t)1 << 20); /* the direct twiddle tables, at most */
    uint64_t tables = 4 * (((uint64_t)1 << 14) + n / ((uint64_t)1 << 14) + 1) + ((uint64_t)1 << 11) + 2 * direct;
    return nv * F                                     /* z */
           + 3 * n * F                                /* a, b, c */
           + (nv / 64 + 1) * 8 + nv + nv * 4 + nv * F /* bitmap, flags, idx, tail */
           + msm + select + n * F + tables * F        /* the NTT domain's scratch, twiddle and coset tables */
           + ((uint64_t)1 << 20);                     /* chunk bounds of a streamed key */
}

extern "C" cuzk_status cuzk_gpu_g16_grow(cuzk_gpu_prover *p, void **buf, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap && *buf != NULL) return CUZK_OK;
    if (*buf != NULL) {
        cudaFree(*buf);
        p->vram_bytes -= *cap * elem;
    }
    *buf = NULL;
    *cap = 0;
    CUZK_CUDA(cudaMalloc(buf, need * elem));
    *cap = need;
    p->vram_bytes += need * elem;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_g16_cub_scratch(cuzk_gpu_prover *p, size_t need)
{
    uint64_t cap = p->cap_cub;
    cuzk_status s = cuzk_gpu_g16_grow(p, &p->cub_tmp, &cap, need, 1);
    p->cap_cub = cap;
    return s;
}

extern "C" void cuzk_gpu_prover_set_opts(cuzk_gpu_prover *p, const cuzk_gpu_prover_opts *opts)
{
    if (p == NULL) return;
    cuzk_gpu_msm_ctx_set_opts(p->msm, opts != NULL ? &opts->msm : NULL);
    memset(&p->ntt_opts, 0, sizeof p->ntt_opts);
    if (opts != NULL) p->ntt_opts = opts->ntt; /* the domain follows at the next proof (cuzk_gpu_g16_domain) */
    double share = opts != NULL && opts->fixed_h_share ? opts->h_share : -1;
    p->h_share = !(share >= 0) ? -1 : share > 1 ? 1 : share; /* NaN: adaptive */
}

extern "C" cuzk_status cuzk_gpu_prover_create(cuzk_gpu_prover **out, const cuzk_gpu_prover_opts *opts, cuzk_errmsg *err)
{
    *out = NULL;
    cuzk_gpu_prover *p = (cuzk_gpu_prover *)calloc(1, sizeof(cuzk_gpu_prover));
    if (p == NULL) return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_status s = CUZK_OK;
    if (cudaGetDevice(&p->device) != cudaSuccess || cudaMalloc(&p->d_count, sizeof(int)) != cudaSuccess ||
        cudaMalloc(&p->d_bad, sizeof(unsigned long long)) != cudaSuccess ||
        cudaStreamCreateWithFlags(&p->copy_stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaHostAlloc(&p->stage, 2 * STAGE_HALF, cudaHostAllocDefault) != cudaSuccess) {
        cuzk_gpu_set_error("gpu_prover_create", cudaGetLastError(), __FILE__, __LINE__);
        s = CUZK_ERR_DEVICE;
    }
    p->stage_bytes = 2 * STAGE_HALF;
    p->h_share = -1;
    p->h_share_auto = H_SHARE_FIRST;
    for (int i = 0; i < 2 && s == CUZK_OK; i++) {
        if (cudaEventCreateWithFlags(&p->ev_copied[i], cudaEventDisableTiming) != cudaSuccess ||
            cudaEventCreateWithFlags(&p->ev_used[i], cudaEventDisableTiming) != cudaSuccess) {
            cuzk_gpu_set_error("cudaEventCreate", cudaGetLastError(), __FILE__, __LINE__);
            s = CUZK_ERR_DEVICE;
        }
    }
    p->events = s == CUZK_OK;
    if (s == CUZK_OK) s = cuzk_gpu_msm_ctx_create(&p->msm, NULL);
    if (s != CUZK_OK) {
        cuzk_gpu_prover_destroy(p);
        return cuzk_gpu_fail(err, s, "cannot create a GPU prover");
    }
    cuzk_gpu_prover_set_opts(p, opts);
    *out = p;
    return CUZK_OK;
}

extern "C" void cuzk_gpu_prover_destroy(cuzk_gpu_prover *p)
{
    if (p == NULL) return;
    int prev = -1;
    cudaGetDevice(&prev);
    cudaSetDevice(p->device);
    cudaStreamSynchronize(cudaStreamPerThread);
    cuzk_gpu_msm_ctx_destroy(p->msm);
    cuzk_gpu_ntt_domain_destroy(p->dom);
    cudaFree(p->z);
    for (int i = 0; i < 3; i++) cudaFree(p->abc[i]);
    cudaFree(p->bitmap), cudaFree(p->flags), cudaFree(p->idx), cudaFree(p->tail), cudaFree(p->cub_tmp);
    cudaFree(p->d_count), cudaFree(p->d_bad), cudaFree(p->d_bounds);
    cudaFree(p->sbuf[0]), cudaFree(p->sbuf[1]);
    if (p->stage) cudaFreeHost(p->stage);
    if (p->copy_stream) cudaStreamDestroy(p->copy_stream);
    for (int i = 0; p->events && i < 2; i++) cudaEventDestroy(p->ev_copied[i]), cudaEventDestroy(p->ev_used[i]);
    if (prev >= 0) cudaSetDevice(prev);
    free(p);
}

/* Buffers for a key (grown, never shrunk). */
static cuzk_status prepare(cuzk_gpu_prover *p, const cuzk_gpu_key *k)
{
    uint64_t nv = k->num_inputs + k->num_aux, n = k->domain_size;
    CUZK_TRY(cuzk_gpu_g16_grow(p, (void **)&p->z, &p->cap_z, nv, sizeof(cuzk_fr_t)));
    for (int i = 0; i < 3; i++) {
        uint64_t cap = p->cap_n;
        CUZK_TRY(cuzk_gpu_g16_grow(p, (void **)&p->abc[i], &cap, n, sizeof(cuzk_fr_t)));
        if (i == 2) p->cap_n = cap;
    }
    uint64_t pos = nv + 64;
    if (pos > p->cap_pos || p->bitmap == NULL) {
        uint64_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
        cudaFree(p->bitmap), cudaFree(p->flags), cudaFree(p->idx), cudaFree(p->tail);
        p->bitmap = NULL, p->flags = NULL, p->idx = NULL, p->tail = NULL;
        if (p->cap_pos)
            p->vram_bytes -= p->cap_pos / 64 * 8 + p->cap_pos + p->cap_pos * 4 + p->cap_pos * sizeof(cuzk_fr_t);
        p->cap_pos = 0;
        CUZK_TRY(cuzk_gpu_g16_grow(p, (void **)&p->bitmap, &c1, pos / 64, 8));
        CUZK_TRY(cuzk_gpu_g16_grow(p, (void **)&p->flags, &c2, pos, 1));
        CUZK_TRY(cuzk_gpu_g16_grow(p, (void **)&p->idx, &c3, pos, 4));
        CUZK_TRY(cuzk_gpu_g16_grow(p, (void **)&p->tail, &c4, pos, sizeof(cuzk_fr_t)));
        p->cap_pos = pos;
    }
    if (k->placement == CUZK_GPU_KEY_STREAMED && p->sbuf_bytes != k->stream_buffer_bytes) {
        for (int i = 0; i < 2; i++) {
            uint64_t cap = p->sbuf_bytes;
            CUZK_TRY(cuzk_gpu_g16_grow(p, &p->sbuf[i], &cap, k->stream_buffer_bytes, 1));
        }
        p->sbuf_bytes = k->stream_buffer_bytes;
    }
    return CUZK_OK;
}

extern "C" uint64_t cuzk_gpu_prover_vram_bytes(const cuzk_gpu_prover *p)
{
    return p != NULL ? p->vram_bytes + cuzk_gpu_msm_ctx_bytes(p->msm) + cuzk_gpu_ntt_domain_bytes(p->dom) : 0;
}

extern "C" cuzk_status cuzk_gpu_prover_reserve(cuzk_gpu_prover *p, const cuzk_gpu_key *k, cuzk_errmsg *err)
{
    if (p == NULL || k == NULL) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (k->device != p->device)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the key lives on device %d, the prover on device %d",
                             k->device, p->device);
    CUZK_CUDA(cudaSetDevice(p->device));
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    cuzk_status s = prepare(p, k);
    if (s == CUZK_OK) s = cuzk_gpu_g16_domain(p, k);
    if (s == CUZK_OK) {
        cuzk_fr_t g, scale;
        cuzk_gpu_g16_h_coset(k, &g, &scale);
        s = cuzk_gpu_ntt_h_prepare(p->dom, &g, bell);
    }
    uint64_t nv = k->num_inputs + k->num_aux;
    size_t need;
    if (s == CUZK_OK && nv > 0) s = cuzk_gpu_g16_select_scratch(p, nv, &need); /* for the longest split */
    if (s == CUZK_OK) {
        uint64_t g1 = k->h_len, g2 = k->b_len;
        if (k->l_len > g1) g1 = k->l_len;
        if (k->a_len > g1) g1 = k->a_len;
        if (k->b_len > g1) g1 = k->b_len;
        if (k->placement == CUZK_GPU_KEY_STREAMED) { /* MSMs run over one streamed chunk at a time */
            uint64_t c1 = cuzk_gpu_g16_chunk_points(p, sizeof(cuzk_g1_affine_t)),
                     c2 = cuzk_gpu_g16_chunk_points(p, sizeof(cuzk_g2_affine_t));
            uint64_t chunks1 = c1 ? (g1 + c1 - 1) / c1 : 0, chunks2 = c2 ? (g2 + c2 - 1) / c2 : 0;
            uint64_t cap = p->cap_bounds;
            s = cuzk_gpu_g16_grow(p, (void **)&p->d_bounds, &cap, (chunks1 > chunks2 ? chunks1 : chunks2) + 1,
                                  sizeof(uint64_t));
            p->cap_bounds = cap;
            if (g1 > c1) g1 = c1;
            if (g2 > c2) g2 = c2;
        }
        if (s == CUZK_OK) s = cuzk_gpu_msm_ctx_reserve(p->msm, g1, g2);
    }
    if (s == CUZK_OK) s = stream_sync();
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "cannot reserve the prover's device buffers");
    return CUZK_OK;
}

/* The checks every proof starts with; *mode: the c_mode the key allows. */
extern "C" cuzk_status cuzk_gpu_g16_prove_args(cuzk_r1cs_c_mode *mode, const cuzk_groth16_msm_sums *sums,
                                               const cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z,
                                               const cuzk_gpu_witness_packing *pk, const cuzk_groth16_prove_opts *opts,
                                               cuzk_errmsg *err)
{
    *mode = opts != NULL ? opts->c_mode : CUZK_R1CS_C_PRODUCT;
    if (sums == NULL || p == NULL || k == NULL || z == NULL)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (*mode != CUZK_R1CS_C_MATRIX && *mode != CUZK_R1CS_C_PRODUCT && *mode != CUZK_R1CS_C_CHECKED)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "unknown c_mode %d", (int)*mode);
    if (!cuzk_fr_is_one(&z[0])) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "witness z[0] is not 1");
    if (pk != NULL && !cuzk_gpu_g16_packing_fits(pk, k))
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG,
                             "the packed witness does not fit the key (%llu inputs and %llu aux values, the key %llu "
                             "and %llu, or its chunks are inconsistent)",
                             (unsigned long long)pk->num_inputs, (unsigned long long)pk->num_aux,
                             (unsigned long long)k->num_inputs, (unsigned long long)k->num_aux);
    if (k->device != p->device)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the key lives on device %d, the prover on device %d",
                             k->device, p->device);
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    if (*mode == CUZK_R1CS_C_CHECKED && !bell && !k->has_chk)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG,
                             "checking the witness needs the circuit with its C matrix (the snarkjs key has none)");
    if (*mode == CUZK_R1CS_C_MATRIX && !bell)
        *mode = CUZK_R1CS_C_PRODUCT; /* a snarkjs key has no C: c is a∘b, as on the CPU */
    return CUZK_OK;
}

/* The witness (whole, or packed as pk says) onto the prover's device (its buffers grown first, if a reserve did
 * not). */
extern "C" cuzk_status cuzk_gpu_g16_prove_upload(cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z,
                                                 const cuzk_gpu_witness_packing *pk, cuzk_gpu_prove_stats *st,
                                                 double *t, cuzk_errmsg *err)
{
    CUZK_CUDA(cudaSetDevice(p->device));
    cuzk_status s = prepare(p, k);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "cannot allocate the prover's device buffers");
    add_time(&st->prepare, t);
    s = pk != NULL ? cuzk_gpu_g16_upload_packed(p, z, pk)
                   : cuzk_gpu_g16_upload_witness(p, z, k->num_inputs + k->num_aux);
    if (s == CUZK_OK) s = stream_sync();
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "witness upload failed");
    add_time(&st->upload, t);
    return CUZK_OK;
}

/* H's coefficients into p->abc[0], from the uploaded witness: the witness check (CUZK_R1CS_C_CHECKED), SpMV, the NTTs.
 */
extern "C" cuzk_status cuzk_gpu_g16_prove_h(cuzk_gpu_prover *p, const cuzk_gpu_key *k, cuzk_r1cs_c_mode mode,
                                            cuzk_gpu_prove_stats *st, double *t, cuzk_errmsg *err)
{
    st->h_points = k->h_len;
    st->domain_log2 = k->log2n;
    cuzk_status s;
    if (mode == CUZK_R1CS_C_CHECKED) {
        unsigned long long bad;
        s = cuzk_gpu_g16_check_rows(p, k, &bad);
        if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "witness check failed");
        if (bad != ~0ull)
            return cuzk_gpu_fail(err, CUZK_ERR_R1CS_UNSATISFIED, "witness does not satisfy constraint row %llu", bad);
    }
    s = cuzk_gpu_g16_spmv(p, k, mode == CUZK_R1CS_C_MATRIX);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "sparse evaluation failed");
    add_time(&st->spmv, t);

    s = cuzk_gpu_g16_h(p, k);
    if (s == CUZK_OK) s = stream_sync();
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "the H polynomial failed");
    add_time(&st->ntt_h, t);
    return CUZK_OK;
}

/* The query side, on the uploaded witness: the 0/1 splits and the L, A, B1 and B2 MSMs. */
extern "C" cuzk_status cuzk_gpu_g16_prove_query(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                                cuzk_gpu_prove_stats *st, double *t, cuzk_errmsg *err)
{
    uint64_t count = 0;
    cuzk_status s = cuzk_gpu_g16_split(p, NULL, k->num_inputs, k->num_aux, &count);
    if (s == CUZK_OK) s = cuzk_gpu_g16_msm_g1(&sums->l, p, k, k->l, k->l_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "L multi-scalar multiplication failed");
    st->tail_l = count;
    add_time(&st->msm_l, t);

    s = cuzk_gpu_g16_split(p, k->a_vars, 0, k->a_len, &count);
    if (s == CUZK_OK) s = cuzk_gpu_g16_msm_g1(&sums->a, p, k, k->a, k->a_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "A multi-scalar multiplication failed");
    st->tail_a = count;
    add_time(&st->msm_a, t);

    s = cuzk_gpu_g16_split(p, k->b_vars, 0, k->b_len, &count);
    if (s == CUZK_OK) s = cuzk_gpu_g16_msm_g1(&sums->b1, p, k, k->b_g1, k->b_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "B1 multi-scalar multiplication failed");
    st->tail_b = count;
    add_time(&st->msm_b1, t);
    s = cuzk_gpu_g16_msm_g2(&sums->b2, p, k, k->b_g2, k->b_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "B2 multi-scalar multiplication failed");
    add_time(&st->msm_b2, t);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prove_msms(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                           const cuzk_fr_t *z, const cuzk_gpu_witness_packing *packed,
                                           const cuzk_groth16_prove_opts *opts, cuzk_gpu_prove_stats *stats,
                                           cuzk_errmsg *err)
{
    cuzk_gpu_prove_stats st;
    memset(&st, 0, sizeof st);
    double t0 = cuzk_now(), t = t0;
    cuzk_r1cs_c_mode mode;
    CUZK_TRY(cuzk_gpu_g16_prove_args(&mode, sums, p, k, z, packed, opts, err));
    CUZK_TRY(cuzk_gpu_g16_prove_upload(p, k, z, packed, &st, &t, err));
    CUZK_TRY(cuzk_gpu_g16_prove_h(p, k, mode, &st, &t, err));
    CUZK_TRY(cuzk_gpu_g16_msm_h(&sums->h, p, k, 0, k->h_len, err));
    add_time(&st.msm_h, &t);
    CUZK_TRY(cuzk_gpu_g16_prove_query(sums, p, k, &st, &t, err));
    st.total = cuzk_now() - t0;
    st.vram_bytes = cuzk_gpu_prover_vram_bytes(p);
    if (stats != NULL) *stats = st;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prove(cuzk_groth16_proof_t *proof, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                      const cuzk_fr_t *z, const cuzk_groth16_prove_opts *opts,
                                      cuzk_gpu_prove_stats *stats, cuzk_errmsg *err)
{
    if (proof == NULL) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    cuzk_groth16_msm_sums sums;
    cuzk_gpu_prove_stats st;
    memset(&st, 0, sizeof st);
    cuzk_status s = cuzk_gpu_prove_msms(&sums, p, k, z, NULL, opts, &st, err);
    if (s == CUZK_OK) {
        double t = cuzk_now();
        s = cuzk_groth16_assemble(proof, &k->vk, &sums, opts);
        if (s != CUZK_OK) cuzk_gpu_fail(err, s, "OS random source failed");
        st.assembly = cuzk_now() - t;
        st.total += st.assembly;
    }
    explicit_bzero(&sums, sizeof sums);
    if (stats != NULL) *stats = st;
    return s;
}
