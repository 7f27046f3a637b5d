/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The sparse products a = A·z, b = B·z, c (a∘b, or C·z) over the key's CSR matrices, one thread per row, and the
 * witness check of CUZK_R1CS_C_CHECKED. */
#include "groth16/groth16.cuh"

/* Σ coef·z over one CSR row; ids 0 and 1 are +1 and −1. Witness values 0 and 1 (most of a Filecoin circuit's) skip
 * the multiplication: ncu found the SpMV bound by it (math pipe), not by memory. */
static __device__ __forceinline__ void row_dot(dfr *r, const gpu_csr m, uint64_t row, const dfr *values, const dfr *z,
                                               const dfr *one)
{
    dfr acc;
#pragma unroll
    for (int i = 0; i < 8; i++) acc.w[i] = 0;
    uint64_t e0 = m.row_ptr[row], e1 = m.row_ptr[row + 1];
    for (uint64_t e = e0; e < e1; e++) {
        uint32_t id = m.coef[e];
        dfr x = dfr_load(&z[m.col[e]]);
        if (id == CUZK_R1CS_COEF_ONE) {
            dfr_add(&acc, &acc, &x);
        } else if (id == CUZK_R1CS_COEF_MINUS_ONE) {
            dfr_sub(&acc, &acc, &x);
        } else if (!dfr_is_zero(&x)) {
            dfr v = dfr_load(&values[id]);
            if (!dfr_eq(&x, one)) dfr_mul(&v, &v, &x);
            dfr_add(&acc, &acc, &v);
        }
    }
    *r = acc;
}

static __global__ void k_spmv(dfr *a, dfr *b, dfr *c, gpu_csr A, gpu_csr B, gpu_csr C, const dfr *values, const dfr *z,
                              uint64_t rows, uint64_t input_rows, uint64_t n, bool c_matrix, dfr one)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dfr va, vb, vc;
#pragma unroll
    for (int w = 0; w < 8; w++) va.w[w] = vb.w[w] = vc.w[w] = 0;
    if (i < rows) {
        row_dot(&va, A, i, values, z, &one);
        row_dot(&vb, B, i, values, z, &one);
        if (c_matrix) row_dot(&vc, C, i, values, z, &one);
        else dfr_mul(&vc, &va, &vb);
    } else if (i < rows + input_rows) {
        va = dfr_load(&z[i - rows]);
    }
    dfr_store(&a[i], &va);
    dfr_store(&b[i], &vb);
    dfr_store(&c[i], &vc);
}

/* the lowest row where (A·z)(B·z) ≠ C·z goes to *bad (initialised to all ones) */
static __global__ void k_check(gpu_csr A, gpu_csr B, gpu_csr C, const dfr *values, const dfr *z, uint64_t rows,
                               unsigned long long *bad, dfr one)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows) return;
    dfr va, vb, vc, ab;
    row_dot(&va, A, i, values, z, &one);
    row_dot(&vb, B, i, values, z, &one);
    row_dot(&vc, C, i, values, z, &one);
    dfr_mul(&ab, &va, &vb);
    if (!dfr_eq(&ab, &vc)) atomicMin(bad, (unsigned long long)i);
}

extern "C" cuzk_status cuzk_gpu_g16_check_rows(cuzk_gpu_prover *p, const cuzk_gpu_key *k, unsigned long long *bad)
{
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    const gpu_csr *m = bell ? k->m : k->chk;
    uint64_t rows = bell ? k->rows : k->chk_rows;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    *bad = ~0ull;
    CUZK_CUDA(cudaMemcpyAsync(p->d_bad, bad, sizeof *bad, cudaMemcpyHostToDevice, cudaStreamPerThread));
    if (rows > 0) {
        k_check<<<blocks(rows, 256), 256>>>(m[0], m[1], m[2], (const dfr *)(bell ? k->values : k->chk_values),
                                            (const dfr *)p->z, rows, p->d_bad, to_dfr(&one));
        CUZK_CUDA_LAUNCHED();
    }
    CUZK_CUDA(cudaMemcpyAsync(bad, p->d_bad, sizeof *bad, cudaMemcpyDeviceToHost, cudaStreamPerThread));
    return stream_sync();
}

extern "C" cuzk_status cuzk_gpu_g16_spmv(cuzk_gpu_prover *p, const cuzk_gpu_key *k, bool c_matrix)
{
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    uint64_t n = k->domain_size;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    k_spmv<<<blocks(n, 256), 256>>>((dfr *)p->abc[0], (dfr *)p->abc[1], (dfr *)p->abc[2], k->m[0], k->m[1], k->m[2],
                                    (const dfr *)k->values, (const dfr *)p->z, k->rows, bell ? k->num_inputs : 0, n,
                                    c_matrix, to_dfr(&one));
    CUZK_CUDA_LAUNCHED();
    return stream_sync();
}
