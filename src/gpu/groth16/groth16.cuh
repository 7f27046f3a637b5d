/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Groth16 on the GPU (groth16/): the internals its files share.
 *
 * A proof's stages, one file each: the witness onto the device (witness.cu; packed on the host by witness_pack.c),
 * the sparse products a, b, c and the witness check (spmv.cu), H by NTTs (h.cu), the 0/1 split of the query sides'
 * scalars (split.cu), the MSMs over resident or streamed bases (msm_drive.cu), the two-GPU pair (pair.cu); prover.cu
 * holds the prover object and runs the stages in order. Keys: planned into VRAM (placement.cu), uploaded from a host
 * key (key.cu), decoded from a .params file (params.cu) or generated on the device (setup.cu). */
#ifndef CUZK_GPU_GROTH16_CUH
#define CUZK_GPU_GROTH16_CUH

#include "ff/ff.cuh"
#include "msm/msm.cuh"
#include "ntt/ntt.cuh"
#include "runtime/runtime.cuh"

/* ---- keys -------------------------------------------------------------------------------------------------------- */
/* One CSR matrix on the device (the layout of cuzk_r1cs_matrix). */
typedef struct {
    uint64_t *row_ptr; /* rows + 1 */
    uint32_t *col, *coef;
    uint64_t nnz;
} gpu_csr;

struct cuzk_gpu_key {
    int device;
    cuzk_groth16_convention conv;
    cuzk_gpu_key_placement placement;
    uint64_t domain_size; /* n */
    uint32_t log2n;
    uint64_t num_inputs, num_aux; /* variables = num_inputs + num_aux; ONE included in the inputs */
    uint64_t rows;                /* rows of the matrices on the device (SNARKJS: input rows included) */

    /* the circuit: A and B always, C when has_c (BELLPERSON circuits with C; a SNARKJS key's matrices have none) */
    gpu_csr m[3];
    bool has_c;
    cuzk_fr_t *values; /* the coefficient table (Montgomery) */
    uint32_t num_values;

    /* SNARKJS keys given their full circuit: its A, B, C, for CUZK_R1CS_C_CHECKED */
    gpu_csr chk[3];
    cuzk_fr_t *chk_values;
    uint64_t chk_rows;
    bool has_chk;

    /* position → variable of the a and b bases (BELLPERSON: the density-selected variables in order);
     * NULL when every variable has a base (SNARKJS: dense) */
    uint32_t *a_vars, *b_vars;
    uint64_t h_len, l_len, a_len, b_len;

    /* the bases, affine Montgomery (the CPU layout); DEVICE pointers when RESIDENT, pinned HOST pointers when
     * STREAMED */
    cuzk_g1_affine_t *h, *l, *a, *b_g1;
    cuzk_g2_affine_t *b_g2;

    uint64_t stream_buffer_bytes; /* STREAMED: bytes of each of a prover's two base buffers */
    bool ntt_whole;               /* its provers' NTT domains have whole tables (cuzk_gpu_g16_plan) */
    cuzk_groth16_vk vk;           /* host copy; vk.storage owns vk.ic */
    uint64_t vram_bytes, pinned_bytes;
    double upload_s;
};

/* The placement for a key of `key_bases_bytes` bases plus `fixed_bytes` of matrices and tables, with `workers`
 * provers of `prover_bytes` each, under opts (see cuzk_gpu_key_opts), and *whole: whether each prover also takes its
 * `whole_bytes` of whole NTT tables (RESIDENT only, when that fits as well). CUZK_ERR_NOMEM with a message when
 * nothing fits. */
extern "C" cuzk_status cuzk_gpu_g16_plan(cuzk_gpu_key_placement *out, bool *whole, uint64_t key_bases_bytes,
                                         uint64_t fixed_bytes, uint64_t prover_bytes, uint64_t whole_bytes,
                                         const cuzk_gpu_key_opts *opts, cuzk_errmsg *err);
/* The whole NTT tables a prover of a key of domain n and convention conv would add (the coset kinds of H). */
extern "C" uint64_t cuzk_gpu_g16_whole_bytes(uint64_t n, cuzk_groth16_convention conv);
/* Bytes of the five base arrays, of a circuit's first `matrices` CSR matrices with its value table and two
 * position tables, and of one of a streaming prover's two base buffers under opts' budget (the free VRAM when 0). */
extern "C" uint64_t cuzk_gpu_g16_bases_bytes(uint64_t h_len, uint64_t l_len, uint64_t a_len, uint64_t b_len);
extern "C" uint64_t cuzk_gpu_g16_circuit_bytes(const cuzk_r1cs_t *c, int matrices);
extern "C" uint64_t cuzk_gpu_g16_stream_buffer_bytes(const cuzk_gpu_key_opts *opts);

/* A zeroed key with its device, its placement and (from opts, which may be NULL) its stream buffer size recorded;
 * every pointer NULL (cuzk_gpu_key_free releases whatever is set). Every way of making a key starts here. */
extern "C" cuzk_status cuzk_gpu_g16_key_new(cuzk_gpu_key **out, cuzk_gpu_key_placement placement,
                                            const cuzk_gpu_key_opts *opts);
/* Copies the circuit's matrices (A, B and, for BELLPERSON, C), the value table and, for BELLPERSON, the a/b position
 * tables from its density bitmaps to the device; fills m, has_c, values, num_inputs, num_aux, rows and, for
 * BELLPERSON, a_vars, b_vars, a_len, b_len (the counts the densities give). */
extern "C" cuzk_status cuzk_gpu_g16_key_circuit(cuzk_gpu_key *k, const cuzk_r1cs_t *circuit, bool bellperson,
                                                cuzk_errmsg *err);
/* Keeps a copy of the verifying key (α, β, γ, δ and ic) in k->vk. */
extern "C" cuzk_status cuzk_gpu_g16_key_vk(cuzk_gpu_key *k, const cuzk_groth16_vk *vk);

/* ---- the prover -------------------------------------------------------------------------------------------------- */
struct cuzk_gpu_prover {
    int device;
    cuzk_gpu_msm_ctx *msm;
    cuzk_gpu_ntt_domain *dom;
    unsigned dom_log2;
    cuzk_fr_roots dom_conv;
    cuzk_gpu_ntt_opts dom_opts; /* the domain's options: the prover's, with whole tables as its key's plan says */
    cuzk_gpu_ntt_opts ntt_opts; /* the prover's NTT options */
    cuzk_fr_t *z;
    uint64_t cap_z; /* elements */
    cuzk_fr_t *abc[3];
    uint64_t cap_n;   /* elements of each of a, b, c */
    uint64_t *bitmap; /* ones of one split, ceil(positions/64) words */
    uint8_t *flags;   /* 1 = scalar other than 0 and 1 */
    uint32_t *idx;    /* positions of those */
    cuzk_fr_t *tail;  /* their scalars */
    uint64_t cap_pos; /* positions the split buffers hold */
    void *cub_tmp;
    size_t cap_cub;
    int *d_count;              /* device: compacted count */
    unsigned long long *d_bad; /* device: lowest unsatisfied row */
    uint64_t *d_bounds;        /* device: tail offsets at stream chunk boundaries */
    size_t cap_bounds;
    void *stage; /* pinned staging of a pageable witness: two halves */
    size_t stage_bytes;
    void *sbuf[2]; /* streamed bases: two device buffers */
    size_t sbuf_bytes;
    cudaStream_t copy_stream;
    cudaEvent_t ev_copied[2], ev_used[2];
    bool events;
    uint64_t vram_bytes;
    double h_share;      /* as the H side of a pair: the share of the H MSM kept here; < 0: h_share_auto */
    double h_share_auto; /* the share that balanced the last pair proof's two sides */
};

/* The H side's share before any pair proof was timed: at 2^27 its SpMV and NTTs take about half of the time the
 * other side's L, A and B MSMs take, and the H MSM about as much as those (docs/performance/prover.md). */
#define H_SHARE_FIRST (2.0 / 3.0)

/* bytes of each of the two pinned halves a pageable witness is staged through */
#define STAGE_HALF ((size_t)32 << 20)

static inline unsigned blocks(uint64_t threads, unsigned per) { return (unsigned)((threads + per - 1) / per); }

static inline cuzk_status stream_sync(void)
{
    CUZK_CUDA(cudaStreamSynchronize(cudaStreamPerThread));
    CUZK_CUDA(cudaGetLastError());
    return CUZK_OK;
}

static inline dfr to_dfr(const cuzk_fr_t *x)
{
    dfr d;
    memcpy(&d, x, sizeof d);
    return d;
}

/* *slot = the seconds since *t; *t = now */
static inline void add_time(double *slot, double *t)
{
    double n = cuzk_now();
    *slot = n - *t;
    *t = n;
}

/* A device buffer of p grown to `need` elements of elem bytes (contents not kept), and cub's temporary storage. */
extern "C" cuzk_status cuzk_gpu_g16_grow(cuzk_gpu_prover *p, void **buf, uint64_t *cap, uint64_t need, size_t elem);
extern "C" cuzk_status cuzk_gpu_g16_cub_scratch(cuzk_gpu_prover *p, size_t need);

/* witness.cu: z onto p's device, whole (from pinned memory, else through the pinned staging halves) or packed; and
 * whether a packing matches the key (its sizes, its chunks covering the aux values, no more others than values). */
extern "C" cuzk_status cuzk_gpu_g16_upload_witness(cuzk_gpu_prover *p, const cuzk_fr_t *z, uint64_t nv);
extern "C" cuzk_status cuzk_gpu_g16_upload_packed(cuzk_gpu_prover *p, const cuzk_fr_t *z,
                                                  const cuzk_gpu_witness_packing *pk);
extern "C" bool cuzk_gpu_g16_packing_fits(const cuzk_gpu_witness_packing *pk, const cuzk_gpu_key *k);

/* spmv.cu: *bad = the lowest row where (A·z)(B·z) ≠ C·z (all ones when none), and a, b, c from z (c = C·z when
 * c_matrix, else a∘b), both waited for. */
extern "C" cuzk_status cuzk_gpu_g16_check_rows(cuzk_gpu_prover *p, const cuzk_gpu_key *k, unsigned long long *bad);
extern "C" cuzk_status cuzk_gpu_g16_spmv(cuzk_gpu_prover *p, const cuzk_gpu_key *k, bool c_matrix);

/* h.cu: the NTT domain of k's size and roots; the coset H is evaluated on (shift g) and its last pass's factor s;
 * H's coefficients (bellperson) or odd-coset values (snarkjs) into p->abc[0], canonical. */
extern "C" cuzk_status cuzk_gpu_g16_domain(cuzk_gpu_prover *p, const cuzk_gpu_key *k);
extern "C" void cuzk_gpu_g16_h_coset(const cuzk_gpu_key *k, cuzk_fr_t *g, cuzk_fr_t *s);
extern "C" cuzk_status cuzk_gpu_g16_h(cuzk_gpu_prover *p, const cuzk_gpu_key *k);

/* split.cu: cub's scratch for selecting among npos positions; one split's classification and compaction (positions
 * p < npos are variable vars[p], or base + p when vars is NULL), *count the scalars other than 0 and 1. */
extern "C" cuzk_status cuzk_gpu_g16_select_scratch(cuzk_gpu_prover *p, uint64_t npos, size_t *need);
extern "C" cuzk_status cuzk_gpu_g16_split(cuzk_gpu_prover *p, const uint32_t *vars, uint64_t base, uint64_t npos,
                                          uint64_t *count);

/* msm_drive.cu: points of one streamed chunk of bases of point_bytes each; r = Σ over npos positions, of dense
 * scalars (is_split false) or of the last split (ones in the bitmap, count others in idx/tail), over resident or
 * streamed bases; the H MSM over positions [lo, hi) with p's copy of H's coefficients. */
extern "C" uint64_t cuzk_gpu_g16_chunk_points(const cuzk_gpu_prover *p, size_t point_bytes);
extern "C" cuzk_status cuzk_gpu_g16_msm_g1(cuzk_g1_jac_t *r, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                           const cuzk_g1_affine_t *bases, uint64_t npos, const cuzk_fr_t *scalars,
                                           bool is_split, uint64_t count);
extern "C" cuzk_status cuzk_gpu_g16_msm_g2(cuzk_g2_jac_t *r, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                           const cuzk_g2_affine_t *bases, uint64_t npos, const cuzk_fr_t *scalars,
                                           bool is_split, uint64_t count);
extern "C" cuzk_status cuzk_gpu_g16_msm_h(cuzk_g1_jac_t *sum, cuzk_gpu_prover *p, const cuzk_gpu_key *k, uint64_t lo,
                                          uint64_t hi, cuzk_errmsg *err);

/* prover.cu: the stages of one proof, for the pair (pair.cu) as for a single prover: the checks every proof starts
 * with (*mode: the c_mode the key allows), the witness upload, H's coefficients, the query side's splits and MSMs. */
extern "C" cuzk_status cuzk_gpu_g16_prove_args(cuzk_r1cs_c_mode *mode, const cuzk_groth16_msm_sums *sums,
                                               const cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z,
                                               const cuzk_gpu_witness_packing *pk, const cuzk_groth16_prove_opts *opts,
                                               cuzk_errmsg *err);
extern "C" cuzk_status cuzk_gpu_g16_prove_upload(cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z,
                                                 const cuzk_gpu_witness_packing *pk, cuzk_gpu_prove_stats *st,
                                                 double *t, cuzk_errmsg *err);
extern "C" cuzk_status cuzk_gpu_g16_prove_h(cuzk_gpu_prover *p, const cuzk_gpu_key *k, cuzk_r1cs_c_mode mode,
                                            cuzk_gpu_prove_stats *st, double *t, cuzk_errmsg *err);
extern "C" cuzk_status cuzk_gpu_g16_prove_query(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                                cuzk_gpu_prove_stats *st, double *t, cuzk_errmsg *err);

#endif
