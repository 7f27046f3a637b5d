/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Groth16 keys on the device: a host key and its circuit uploaded, the verifying key copy, the key's lifetime. */
#include <string.h>

#include "groth16/groth16.cuh"
#include "groth16/key_bases.h"

static const char *placement_name(cuzk_gpu_key_placement p)
{
    return p == CUZK_GPU_KEY_RESIDENT ? "resident" : p == CUZK_GPU_KEY_STREAMED ? "streamed" : "auto";
}

extern "C" cuzk_status cuzk_gpu_g16_key_new(cuzk_gpu_key **out, cuzk_gpu_key_placement placement,
                                            const cuzk_gpu_key_opts *opts)
{
    *out = (cuzk_gpu_key *)calloc(1, sizeof(cuzk_gpu_key));
    if (*out == NULL) return CUZK_ERR_NOMEM;
    (*out)->placement = placement;
    (*out)->stream_buffer_bytes = cuzk_gpu_g16_stream_buffer_bytes(opts);
    CUZK_CUDA(cudaGetDevice(&(*out)->device));
    return CUZK_OK;
}

static void free_bases(cuzk_gpu_key *k)
{
    void *p[5] = {k->h, k->l, k->a, k->b_g1, k->b_g2};
    for (int i = 0; i < 5; i++) {
        if (p[i] == NULL) continue;
        if (k->placement == CUZK_GPU_KEY_STREAMED) cudaFreeHost(p[i]);
        else cudaFree(p[i]);
    }
    k->h = k->l = k->a = k->b_g1 = NULL;
    k->b_g2 = NULL;
}

extern "C" void cuzk_gpu_key_free(cuzk_gpu_key *k)
{
    if (k == NULL) return;
    int prev = -1;
    cudaGetDevice(&prev);
    cudaSetDevice(k->device);
    free_bases(k);
    for (int i = 0; i < 3; i++) {
        cudaFree(k->m[i].row_ptr), cudaFree(k->m[i].col), cudaFree(k->m[i].coef);
        cudaFree(k->chk[i].row_ptr), cudaFree(k->chk[i].col), cudaFree(k->chk[i].coef);
    }
    cudaFree(k->values), cudaFree(k->chk_values);
    cudaFree(k->a_vars), cudaFree(k->b_vars);
    cuzk_groth16_vk_free(&k->vk);
    if (prev >= 0) cudaSetDevice(prev);
    free(k);
}

extern "C" void cuzk_gpu_key_get_info(const cuzk_gpu_key *k, cuzk_gpu_key_info *info)
{
    memset(info, 0, sizeof *info);
    info->device = k->device;
    info->placement = k->placement;
    info->vram_bytes = k->vram_bytes;
    info->pinned_bytes = k->pinned_bytes;
    info->prover_vram_bytes = cuzk_gpu_prove_vram_bytes(k->domain_size, k->num_inputs + k->num_aux) +
                              (k->ntt_whole ? cuzk_gpu_g16_whole_bytes(k->domain_size, k->conv) : 0);
    info->whole_ntt_tables = k->ntt_whole;
    info->upload_s = k->upload_s;
}

extern "C" const cuzk_groth16_vk *cuzk_gpu_key_vk(const cuzk_gpu_key *k) { return &k->vk; }

/* cudaMalloc + copy, counted in the key's VRAM; bytes 0 leaves *dev NULL */
static cuzk_status up(cuzk_gpu_key *k, void **dev, const void *host, uint64_t bytes)
{
    *dev = NULL;
    if (bytes == 0) return CUZK_OK;
    CUZK_CUDA(cudaMalloc(dev, bytes));
    k->vram_bytes += bytes;
    if (host != NULL) CUZK_CUDA(cudaMemcpy(*dev, host, bytes, cudaMemcpyHostToDevice));
    return CUZK_OK;
}

static cuzk_status up_csr(cuzk_gpu_key *k, gpu_csr *d, const cuzk_r1cs_matrix *m, uint64_t rows)
{
    d->nnz = m->nnz;
    CUZK_TRY(up(k, (void **)&d->row_ptr, m->row_ptr, (rows + 1) * sizeof(uint64_t)));
    CUZK_TRY(up(k, (void **)&d->col, m->col, m->nnz * sizeof(uint32_t)));
    CUZK_TRY(up(k, (void **)&d->coef, m->coef, m->nnz * sizeof(uint32_t)));
    return CUZK_OK;
}

/* The position -> variable table of one density-selected array (cuzk_g16_positions), copied up. */
static cuzk_status up_positions(cuzk_gpu_key *k, uint32_t **dev, uint64_t *count, uint64_t ni, const uint64_t *in_bits,
                                uint64_t na, const uint64_t *aux_bits)
{
    uint32_t *v;
    cuzk_status s = cuzk_g16_positions(&v, count, in_bits, ni, aux_bits, na, cuzk_cpu_count());
    if (s != CUZK_OK) return s;
    s = up(k, (void **)dev, v, *count * sizeof(uint32_t));
    free(v);
    return s;
}

extern "C" cuzk_status cuzk_gpu_g16_key_circuit(cuzk_gpu_key *k, const cuzk_r1cs_t *c, bool bellperson,
                                                cuzk_errmsg *err)
{
    k->num_inputs = c->num_inputs;
    k->num_aux = c->num_aux;
    k->rows = c->num_constraints;
    k->num_values = c->num_values;
    k->has_c = bellperson;
    cuzk_status s = up(k, (void **)&k->values, c->values, (uint64_t)c->num_values * sizeof(cuzk_fr_t));
    for (int i = 0; i < (bellperson ? 3 : 2) && s == CUZK_OK; i++)
        s = up_csr(k, &k->m[i], &c->m[i], c->num_constraints);
    if (s == CUZK_OK && bellperson) {
        uint64_t na = 0, nb = 0;
        s = up_positions(k, &k->a_vars, &na, c->num_inputs, NULL, c->num_aux, c->a_aux_density);
        if (s == CUZK_OK)
            s = up_positions(k, &k->b_vars, &nb, c->num_inputs, c->b_input_density, c->num_aux, c->b_aux_density);
        k->a_len = na, k->b_len = nb;
    }
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "cannot copy the circuit to the device");
    return CUZK_OK;
}

/* The full circuit (with C) a SNARKJS key's witness is checked against in CUZK_R1CS_C_CHECKED mode. */
static cuzk_status key_check_circuit(cuzk_gpu_key *k, const cuzk_r1cs_t *c, cuzk_errmsg *err)
{
    k->chk_rows = c->num_constraints;
    cuzk_status s = up(k, (void **)&k->chk_values, c->values, (uint64_t)c->num_values * sizeof(cuzk_fr_t));
    for (int i = 0; i < 3 && s == CUZK_OK; i++) s = up_csr(k, &k->chk[i], &c->m[i], c->num_constraints);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "cannot copy the checking circuit to the device");
    k->has_chk = true;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_g16_key_vk(cuzk_gpu_key *k, const cuzk_groth16_vk *vk)
{
    k->vk = *vk;
    k->vk.ic = (cuzk_g1_affine_t *)malloc(vk->num_inputs * sizeof(cuzk_g1_affine_t));
    k->vk.storage = k->vk.ic;
    if (k->vk.ic == NULL) return CUZK_ERR_NOMEM;
    memcpy(k->vk.ic, vk->ic, vk->num_inputs * sizeof(cuzk_g1_affine_t));
    return CUZK_OK;
}

/* The bases of the key: five arrays, each to VRAM or to pinned host memory. */
static cuzk_status key_bases(cuzk_gpu_key *k, const cuzk_groth16_pk *pk)
{
    struct {
        void **dst;
        const void *src;
        uint64_t bytes;
    } arr[5] = {
        {(void **)&k->h, pk->h, pk->h_len * sizeof(cuzk_g1_affine_t)},
        {(void **)&k->l, pk->l, pk->l_len * sizeof(cuzk_g1_affine_t)},
        {(void **)&k->a, pk->a, pk->a_len * sizeof(cuzk_g1_affine_t)},
        {(void **)&k->b_g1, pk->b_g1, pk->b_len * sizeof(cuzk_g1_affine_t)},
        {(void **)&k->b_g2, pk->b_g2, pk->b_len * sizeof(cuzk_g2_affine_t)},
    };
    for (int i = 0; i < 5; i++) {
        uint64_t bytes = arr[i].bytes ? arr[i].bytes : 16; /* an empty array still gets a valid pointer */
        if (k->placement == CUZK_GPU_KEY_STREAMED) {
            CUZK_CUDA(cudaHostAlloc(arr[i].dst, bytes, cudaHostAllocDefault));
            k->pinned_bytes += bytes;
            if (arr[i].bytes) memcpy(*arr[i].dst, arr[i].src, arr[i].bytes);
        } else {
            CUZK_TRY(up(k, arr[i].dst, arr[i].bytes ? arr[i].src : NULL, bytes));
        }
    }
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_key_upload(cuzk_gpu_key **out, const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit,
                                           const cuzk_gpu_key_opts *opts, cuzk_errmsg *err)
{
    double t0 = cuzk_now();
    *out = NULL;
    if (pk == NULL) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "NULL key");
    bool bell = pk->conv == CUZK_GROTH16_BELLPERSON;
    const cuzk_r1cs_t *main_c = bell ? circuit : pk->circuit;
    if (main_c == NULL) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "a bellperson key needs its circuit");
    cuzk_status s = cuzk_groth16_pk_check_circuit(pk, bell ? circuit : (circuit != NULL ? circuit : pk->circuit), err);
    if (s != CUZK_OK) return s;
    if (cuzk_r1cs_num_vars(main_c) > 0x7fffffffu || pk->domain_size > ((uint64_t)1 << 31))
        return cuzk_gpu_fail(err, CUZK_ERR_TOO_LARGE, "the GPU prover takes fewer than 2^31 variables and rows");

    uint64_t bases = cuzk_gpu_g16_bases_bytes(pk->h_len, pk->l_len, pk->a_len, pk->b_len);
    uint64_t fixed = cuzk_gpu_g16_circuit_bytes(main_c, bell ? 3 : 2);
    bool chk = !bell && circuit != NULL && circuit != pk->circuit;
    if (chk) fixed += cuzk_gpu_g16_circuit_bytes(circuit, 3);
    uint64_t prover = cuzk_gpu_prove_vram_bytes(pk->domain_size, cuzk_r1cs_num_vars(main_c));
    cuzk_gpu_key_placement place;
    bool whole;
    s = cuzk_gpu_g16_plan(&place, &whole, bases, fixed, prover, cuzk_gpu_g16_whole_bytes(pk->domain_size, pk->conv),
                          opts, err);
    if (s != CUZK_OK) return s;

    cuzk_gpu_key *k;
    s = cuzk_gpu_g16_key_new(&k, place, opts);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "cannot create the device key");
    k->ntt_whole = whole;
    k->conv = pk->conv;
    k->domain_size = pk->domain_size;
    k->log2n = 0;
    while (((uint64_t)1 << k->log2n) < pk->domain_size) k->log2n++;
    k->h_len = pk->h_len, k->l_len = pk->l_len, k->a_len = pk->a_len, k->b_len = pk->b_len;
    s = cuzk_gpu_g16_key_circuit(k, main_c, bell, err);
    if (s == CUZK_OK && (k->a_len != pk->a_len || k->b_len != pk->b_len))
        s = cuzk_gpu_fail(err, CUZK_ERR_MISMATCH, "the key's a/b lengths disagree with the circuit's densities");
    if (s == CUZK_OK && chk) s = key_check_circuit(k, circuit, err);
    if (s == CUZK_OK) {
        s = key_bases(k, pk);
        if (s != CUZK_OK) cuzk_gpu_fail(err, s, "cannot place the key's bases (%s)", placement_name(place));
    }
    if (s == CUZK_OK && cuzk_gpu_g16_key_vk(k, &pk->vk) != CUZK_OK)
        s = cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "out of memory copying the verifying key");
    if (s != CUZK_OK) {
        cuzk_gpu_key_free(k);
        return s;
    }
    k->upload_s = cuzk_now() - t0;
    *out = k;
    return CUZK_OK;
}

extern "C" void cuzk_gpu_key_get_bases(const cuzk_gpu_key *k, cuzk_gpu_key_bases *o)
{
    o->placement = k->placement;
    o->h = k->h;
    o->l = k->l;
    o->a = k->a;
    o->b_g1 = k->b_g1;
    o->b_g2 = k->b_g2;
    o->h_len = k->h_len;
    o->l_len = k->l_len;
    o->a_len = k->a_len;
    o->b_len = k->b_len;
}
