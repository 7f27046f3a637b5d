/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The witness onto the prover's device: whole (from pinned memory, or through pinned staging), or packed
 * (cuzk_gpu_witness_pack) and unpacked there. */
#include <string.h>

#include <cub/cub.cuh>

#include "groth16/groth16.cuh"

/* z to the device: straight from pinned memory, else through the pinned staging halves */
extern "C" cuzk_status cuzk_gpu_g16_upload_witness(cuzk_gpu_prover *p, const cuzk_fr_t *z, uint64_t nv)
{
    size_t bytes = nv * sizeof(cuzk_fr_t);
    cudaPointerAttributes at;
    bool pinned = cudaPointerGetAttributes(&at, z) == cudaSuccess && at.type == cudaMemoryTypeHost;
    cudaGetLastError(); /* a pageable pointer may leave an error behind on older runtimes */
    if (pinned) {
        CUZK_CUDA(cudaMemcpyAsync(p->z, z, bytes, cudaMemcpyHostToDevice, cudaStreamPerThread));
        return CUZK_OK;
    }
    for (size_t off = 0, i = 0; off < bytes; off += STAGE_HALF, i++) {
        size_t len = bytes - off < STAGE_HALF ? bytes - off : STAGE_HALF;
        char *half = (char *)p->stage + (i & 1) * STAGE_HALF;
        CUZK_CUDA(cudaEventSynchronize(p->ev_copied[i & 1])); /* the copy that last read this half is done */
        memcpy(half, (const char *)z + off, len);
        CUZK_CUDA(cudaMemcpyAsync((char *)p->z + off, half, len, cudaMemcpyHostToDevice, cudaStreamPerThread));
        CUZK_CUDA(cudaEventRecord(p->ev_copied[i & 1], cudaStreamPerThread));
    }
    return CUZK_OK;
}

/* A packed witness (cuzk_gpu_witness_pack): per classes word, how many of its values are neither 0 nor 1 (class 2: the
 * high bit of the pair) */
#define CLASS_HIGH_BITS 0xaaaaaaaaaaaaaaaaull
static __global__ void k_word_others(uint64_t *cnt, const uint64_t *classes, uint64_t words)
{
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w < words) cnt[w] = (uint64_t)__popcll(classes[w] & CLASS_HIGH_BITS);
}

/* aux value i from its class: 0, 1, or the next of the others (off[w]: the others before word w) */
static __global__ void k_unpack(dfr *aux, const uint64_t *classes, const uint64_t *off, const dfr *others,
                                uint64_t num_aux, dfr one)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_aux) return;
    uint64_t x = classes[i / 32];
    unsigned b = (unsigned)(i % 32), cls = (unsigned)(x >> (2 * b)) & 3;
    dfr v;
    if (cls >= 2) {
        uint64_t below = b == 0 ? 0 : x & (((uint64_t)1 << (2 * b)) - 1);
        v = dfr_load(&others[off[i / 32] + (uint64_t)__popcll(below & CLASS_HIGH_BITS)]);
    } else {
#pragma unroll
        for (int j = 0; j < 8; j++) v.w[j] = cls == 1 ? one.w[j] : 0;
    }
    dfr_store(&aux[i], &v);
}

/* The packed form onto the device and unpacked into p->z: the inputs, the classes (into the idx buffer), each
 * chunk's others one after another (into the tail buffer), the others' offsets per word (into the flags buffer),
 * then one thread per aux value. Every buffer borrowed here is rewritten by the splits before they read it. */
extern "C" cuzk_status cuzk_gpu_g16_upload_packed(cuzk_gpu_prover *p, const cuzk_fr_t *z,
                                                  const cuzk_gpu_witness_packing *pk)
{
    uint64_t ni = pk->num_inputs, na = pk->num_aux, words = cuzk_gpu_witness_classes_words(na);
    cudaStream_t st = cudaStreamPerThread;
    CUZK_CUDA(cudaMemcpyAsync(p->z, z, ni * sizeof(cuzk_fr_t), cudaMemcpyHostToDevice, st));
    if (na == 0) return CUZK_OK;
    uint64_t *classes = (uint64_t *)p->idx, *cnt = (uint64_t *)p->flags, *off = cnt + words;
    CUZK_CUDA(cudaMemcpyAsync(classes, pk->classes, words * sizeof(uint64_t), cudaMemcpyHostToDevice, st));
    uint64_t at = 0;
    for (unsigned c = 0; c < pk->chunks; c++) {
        if (pk->others[c] != 0)
            CUZK_CUDA(cudaMemcpyAsync(p->tail + at, z + ni + c * pk->chunk_values, pk->others[c] * sizeof(cuzk_fr_t),
                                      cudaMemcpyHostToDevice, st));
        at += pk->others[c];
    }
    k_word_others<<<blocks(words, 256), 256>>>(cnt, classes, words);
    CUZK_CUDA_LAUNCHED();
    size_t need = 0;
    CUZK_CUDA(cub::DeviceScan::ExclusiveSum(NULL, need, cnt, off, (int)words, st));
    CUZK_TRY(cuzk_gpu_g16_cub_scratch(p, need));
    CUZK_CUDA(cub::DeviceScan::ExclusiveSum(p->cub_tmp, need, cnt, off, (int)words, st));
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    k_unpack<<<blocks(na, 256), 256>>>((dfr *)(p->z + ni), classes, off, (const dfr *)p->tail, na, to_dfr(&one));
    CUZK_CUDA_LAUNCHED();
    return CUZK_OK;
}

/* A packing that matches the key: its sizes, its chunks covering the aux values, no more others than values. */
extern "C" bool cuzk_gpu_g16_packing_fits(const cuzk_gpu_witness_packing *pk, const cuzk_gpu_key *k)
{
    if (pk->num_inputs != k->num_inputs || pk->num_aux != k->num_aux) return false;
    if (pk->num_aux == 0) return true;
    if (pk->classes == NULL || pk->chunks == 0 || pk->chunks > CUZK_GPU_WITNESS_CHUNKS_MAX ||
        pk->chunk_values % 32 != 0 || pk->chunk_values * pk->chunks < pk->num_aux ||
        pk->chunk_values * (pk->chunks - 1) >= pk->num_aux)
        return false;
    for (unsigned c = 0; c < pk->chunks; c++) {
        uint64_t len = c + 1 < pk->chunks ? pk->chunk_values : pk->num_aux - c * pk->chunk_values;
        if (pk->others[c] > len) return false;
    }
    return true;
}
