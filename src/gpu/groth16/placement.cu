/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Planning a key's VRAM: resident, resident with whole NTT tables, or streamed, against a budget with room for its
 * provers. */
#include <string.h>

#include "groth16/groth16.cuh"

#define GIB ((uint64_t)1 << 30)

/* Two device buffers per prover hold the bases of a streamed MSM: the chunk is sized so that they take 1/16 of the
 * budget, between 2^16 and 2^24 G2 points. */
static uint64_t stream_buffer_bytes(uint64_t budget)
{
    uint64_t b = budget / 32, lo = ((uint64_t)1 << 16) * sizeof(cuzk_g2_affine_t),
             hi = ((uint64_t)1 << 24) * sizeof(cuzk_g2_affine_t);
    return b < lo ? lo : b > hi ? hi : b;
}

extern "C" uint64_t cuzk_gpu_g16_whole_bytes(uint64_t n, cuzk_groth16_convention conv)
{
    /* H's coset tables: the coset forward's (both conventions) and bellperson's coset inverse */
    return cuzk_gpu_ntt_whole_bytes(cuzk_log2_ceil(n), conv == CUZK_GROTH16_BELLPERSON ? 2 : 1);
}

extern "C" cuzk_status cuzk_gpu_g16_plan(cuzk_gpu_key_placement *out, bool *whole, uint64_t key_bases_bytes,
                                         uint64_t fixed_bytes, uint64_t prover_bytes, uint64_t whole_bytes,
                                         const cuzk_gpu_key_opts *opts, cuzk_errmsg *err)
{
    *whole = false;
    cuzk_gpu_key_opts o;
    memset(&o, 0, sizeof o);
    if (opts != NULL) o = *opts;
    uint64_t workers = o.workers ? o.workers : 1;
    uint64_t budget = o.vram_budget;
    if (budget == 0) {
        size_t free_b = 0, total_b = 0;
        if (cuzk_gpu_mem_info(&free_b, &total_b) != CUZK_OK)
            return cuzk_gpu_fail(err, CUZK_ERR_DEVICE, "cannot read the device's free memory");
        budget = free_b > GIB ? free_b - GIB : 0;
    }
    uint64_t resident = key_bases_bytes + fixed_bytes + workers * prover_bytes;
    uint64_t sb = cuzk_gpu_g16_stream_buffer_bytes(&o);
    uint64_t streamed = fixed_bytes + workers * (prover_bytes + 2 * sb);
    if (o.placement != CUZK_GPU_KEY_STREAMED && resident <= budget) {
        *out = CUZK_GPU_KEY_RESIDENT;
        *whole = !o.split_ntt_tables && resident + workers * whole_bytes <= budget;
        return CUZK_OK;
    }
    if (o.placement == CUZK_GPU_KEY_RESIDENT)
        return cuzk_gpu_fail(err, CUZK_ERR_NOMEM,
                             "the key needs %.2f GiB of VRAM resident (%.2f GiB bases, %.2f GiB matrices, %llu x %.2f "
                             "GiB provers) and the budget is %.2f GiB",
                             (double)resident / GIB, (double)key_bases_bytes / GIB, (double)fixed_bytes / GIB,
                             (unsigned long long)workers, (double)prover_bytes / GIB, (double)budget / GIB);
    if (streamed <= budget) {
        *out = CUZK_GPU_KEY_STREAMED;
        return CUZK_OK;
    }
    return cuzk_gpu_fail(err, CUZK_ERR_NOMEM,
                         "the key does not fit the device even streamed: %.2f GiB needed (matrices %.2f GiB, %llu x "
                         "%.2f GiB provers and stream buffers; resident would need %.2f GiB), budget %.2f GiB",
                         (double)streamed / GIB, (double)fixed_bytes / GIB, (unsigned long long)workers,
                         (double)(prover_bytes + 2 * sb) / GIB, (double)resident / GIB, (double)budget / GIB);
}

extern "C" uint64_t cuzk_gpu_g16_stream_buffer_bytes(const cuzk_gpu_key_opts *opts)
{
    if (opts != NULL && opts->stream_chunk != 0) {
        uint64_t pts = opts->stream_chunk / 64 * 64;
        return (pts < 64 ? 64 : pts) * sizeof(cuzk_g2_affine_t);
    }
    uint64_t budget = opts != NULL ? opts->vram_budget : 0;
    if (budget == 0) {
        size_t free_b = 0, total_b = 0;
        if (cuzk_gpu_mem_info(&free_b, &total_b) == CUZK_OK) budget = free_b;
    }
    return stream_buffer_bytes(budget);
}

extern "C" uint64_t cuzk_gpu_g16_bases_bytes(uint64_t h_len, uint64_t l_len, uint64_t a_len, uint64_t b_len)
{
    return (h_len + l_len + a_len + b_len) * sizeof(cuzk_g1_affine_t) + b_len * sizeof(cuzk_g2_affine_t);
}

extern "C" uint64_t cuzk_gpu_g16_circuit_bytes(const cuzk_r1cs_t *c, int matrices)
{
    uint64_t b = (uint64_t)c->num_values * sizeof(cuzk_fr_t) + 2 * cuzk_r1cs_num_vars(c) * sizeof(uint32_t);
    for (int i = 0; i < matrices; i++) b += (c->num_constraints + 1) * 8 + c->m[i].nnz * 8;
    return b;
}
