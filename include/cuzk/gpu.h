/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk gpu: the CUDA backend, callable from C. Built into the library cuzk_gpu only where nvcc exists, from a folder
 * per topic under src/gpu (runtime, ff, ec, ntt, msm, groth16); the measured alternatives that lost are the bench-only
 * lab's (src/gpu/lab, library cuzk_gpu_lab). Tuning for measurements is an option of the object it tunes (an MSM
 * context, an NTT domain, a prover), never process-wide.
 *
 * Data lives on the device between calls (the GPU-resident design): the transforms take DEVICE pointers and are
 * enqueued on the default stream, returning once launched (launch errors are reported at once; faults inside a kernel
 * surface at the next cuzk_gpu_sync). Host-pointer conveniences copy in, run, copy out and synchronize. Elements keep
 * the CPU layout (cuzk_fr_t, cuzk_fp_t, cuzk_fp2_t in Montgomery form), so arrays copy unchanged; device arrays must be
 * 16-byte aligned (cudaMalloc'd arrays and every element inside them are).
 *
 * Every CUDA failure returns CUZK_ERR_DEVICE, except an allocation the device (or pinned host memory) cannot satisfy,
 * which returns CUZK_ERR_NOMEM (the device stays usable); cuzk_gpu_last_error() then gives the CUDA message and the
 * call site. */
#ifndef CUZK_GPU_H
#define CUZK_GPU_H

#include <stddef.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 when there is none or the driver cannot be reached (never fails). */
int cuzk_gpu_device_count(void);
/* One-line description of the device in use ("NVIDIA H200, 132 SMs, cc 9.0"). */
cuzk_status cuzk_gpu_device_name(char *out, size_t len);
/* Detail of the last CUZK_ERR_DEVICE returned on this thread ("" when none). */
const char *cuzk_gpu_last_error(void);

/* The device the calling thread works on (every later call of this thread, and the objects it creates, use it).
 * CUZK_ERR_INVALID_ARG for a number outside 0 .. cuzk_gpu_device_count() − 1. */
cuzk_status cuzk_gpu_set_device(int device);
/* Free and total VRAM of the current device, as the driver reports them. */
cuzk_status cuzk_gpu_mem_info(size_t *free_bytes, size_t *total_bytes);

/* ---- memory ------------------------------------------------------------------------------------------------------ */
cuzk_status cuzk_gpu_malloc(void **dev, size_t bytes);
void cuzk_gpu_free(void *dev);
cuzk_status cuzk_gpu_to_device(void *dev, const void *host, size_t bytes);
cuzk_status cuzk_gpu_to_host(void *host, const void *dev, size_t bytes);
/* Fills bytes with a repeating byte (poisoning outputs in tests). */
cuzk_status cuzk_gpu_memset(void *dev, int byte, size_t bytes);
/* Page-locked host memory (what feeds asynchronous copies at full PCIe speed). cuzk_gpu_host_free(NULL) is harmless. */
cuzk_status cuzk_gpu_host_alloc(void **host, size_t bytes);
void cuzk_gpu_host_free(void *host);
/* Waits for all enqueued work; returns the first error a kernel raised. */
cuzk_status cuzk_gpu_sync(void);

/* Event timer on the default stream: start, enqueue work, stop (waits) gives the elapsed device milliseconds. */
typedef struct {
    void *start, *stop;
} cuzk_gpu_timer;
cuzk_status cuzk_gpu_timer_init(cuzk_gpu_timer *t);
void cuzk_gpu_timer_free(cuzk_gpu_timer *t);
cuzk_status cuzk_gpu_timer_start(cuzk_gpu_timer *t);
cuzk_status cuzk_gpu_timer_stop(cuzk_gpu_timer *t, double *ms);

/* ---- NTT over Fr ------------------------------------------------------------------------------------------------- */
/* Same transforms as ntt.h (natural order in and out, same ω as cuzk_fr_root_of_unity, results bit-identical to
 * cuzk_ntt_forward & co.), for 2^CUZK_GPU_NTT_MIN_LOG2 .. 2^28 elements. The domain owns its twiddle tables and a
 * scratch array of n elements on the device. */
#define CUZK_GPU_NTT_MIN_LOG2 6
typedef struct cuzk_gpu_ntt_domain cuzk_gpu_ntt_domain;
typedef struct cuzk_gpu_ntt_kernels cuzk_gpu_ntt_kernels;
/* Options of a domain, for measurements; all zero (or a NULL pointer) is the default.
 *   tile_log2            log2 of the elements one thread block holds in shared memory (9..11; 0 = 11);
 *   split_twiddles       every pass takes its twiddles from the two split tables (else a pass over sub-transforms of
 *                        at most 2^20 points takes them from a direct table of roots);
 *   whole_tables         every n-th root (n > 2^20: 2^k·32 bytes) for the passes over larger sub-transforms, the
 *                        inverse's by negated exponent, and a coset factor per element (as many bytes again for each
 *                        coset kind used); a prover's domain has them when its key's plan says so
 *                        (cuzk_gpu_key_opts), whatever its options say;
 *   whole_without_roots  whole tables of coset factors only;
 *   kernels              the pass kernel compiled for a measured alternative of its Fr multiplication or register
 *                        radix (the bench-only lab library's cuzk_gpu_lab_ntt_opts); NULL: the parity-split
 *                        multiplication, radix 8. */
typedef struct {
    unsigned tile_log2;
    bool split_twiddles;
    bool whole_tables;
    bool whole_without_roots;
    const cuzk_gpu_ntt_kernels *kernels;
} cuzk_gpu_ntt_opts;
/* CUZK_ERR_BAD_ROOT_ORDER for a size outside the range, CUZK_ERR_INVALID_ARG for another convention or tile_log2. */
cuzk_status cuzk_gpu_ntt_domain_create(cuzk_gpu_ntt_domain **d, unsigned log2n, cuzk_fr_roots conv,
                                       const cuzk_gpu_ntt_opts *opts);
void cuzk_gpu_ntt_domain_destroy(cuzk_gpu_ntt_domain *d);
size_t cuzk_gpu_ntt_size(const cuzk_gpu_ntt_domain *d);

/* In place on n elements at DEVICE address x. g: the coset shift, non-zero (host pointer to one cuzk_fr_t). */
cuzk_status cuzk_gpu_ntt_forward(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d);
cuzk_status cuzk_gpu_ntt_inverse(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d);
cuzk_status cuzk_gpu_ntt_coset_forward(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g);
cuzk_status cuzk_gpu_ntt_coset_inverse(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g);

typedef enum {
    CUZK_GPU_NTT_FORWARD,
    CUZK_GPU_NTT_INVERSE,
    CUZK_GPU_NTT_COSET_FORWARD,
    CUZK_GPU_NTT_COSET_INVERSE
} cuzk_gpu_ntt_kind;
/* Convenience on a HOST array of n elements: copy in, transform, copy out, synchronize. g only for cosets. */
cuzk_status cuzk_gpu_ntt_host(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, cuzk_gpu_ntt_kind kind, const cuzk_fr_t *g);

/* ---- MSM over G1 and G2 (Pippenger) and bitmap batch addition --------------------------------------------------- */
/* Same results as msm.h's cuzk_g1_msm / cuzk_g2_msm / cuzk_g1_batch_add / cuzk_g2_batch_add (compare in affine form),
 * with DEVICE pointers for bases (affine, infinity = all zero, allowed), scalars (Fr, Montgomery form) and the bitmap
 * (bit i = bit i % 64 of word i / 64). r is a HOST pointer. n < 2^31. The call synchronizes once, at the end, to bring
 * the window sums back (they are combined on the host).
 *
 * The context holds the device scratch (sort buffers, buckets, partial sums): it grows on the first call of a
 * given size and window and is reused after, so repeated calls allocate nothing. One context per thread. */
typedef struct cuzk_gpu_msm_ctx cuzk_gpu_msm_ctx;
/* Options of a context's MSMs, for measurements and tests; all zero (or a NULL pointer) is the default.
 *   variant      kernel variant: bits 0..3 (G1) and 4..7 (G2) = m, the MSM kernels compiled for m resident blocks of
 *                128 threads per SM: 1 = no register cap, 4 = 128 registers; bit 8: G1 with the dedicated Fp
 *                squaring; bits 9 and 10: batch-affine rounds before the G1 and the G2 bucket accumulation (G1
 *                takes them from 2^22 points without bit 9, unless bit 11 is set), bits 16..19 = v > 0: 2^(4 + v)
 *                slots per thread in them (0: 256), bits 20..23 = v > 0: another round while runs average v entries
 *                (0: 4), bits 24..27 the same for G1 alone (0: as bits 20..23); bits 12..15: r > 0 spreads the bucket
 *                reduction over about 2^(12 + r) threads (0: 2^15); 0 = the default (the fastest measured on the
 *                H200: docs/performance/msm.md);
 *   window       the window width c (2..24, larger is taken as 24); 0 = chosen from n (cuzk_gpu_msm_window_for);
 *   group_items  the most (point, window) pairs sorted at once (windows are processed in groups that fit); 0 = 2^28,
 *                or for batch-affine rounds what keeps their lists near 20 GB;
 *   profile      each MSM and batch addition prints its phase times (CUDA events) on stderr. */
typedef struct {
    unsigned variant;
    unsigned window;
    size_t group_items;
    bool profile;
} cuzk_gpu_msm_opts;
cuzk_status cuzk_gpu_msm_ctx_create(cuzk_gpu_msm_ctx **ctx, const cuzk_gpu_msm_opts *opts);
void cuzk_gpu_msm_ctx_destroy(cuzk_gpu_msm_ctx *ctx);
/* Replaces the context's options (NULL: the defaults); its scratch stays and grows as the next MSMs need. */
void cuzk_gpu_msm_ctx_set_opts(cuzk_gpu_msm_ctx *ctx, const cuzk_gpu_msm_opts *opts);
/* Grows the context's scratch now for G1 MSMs of up to n_g1 points and G2 MSMs of up to n_g2 (0: none), so that
 * the first MSMs of those sizes allocate nothing (a proving service does this when it loads a key). */
cuzk_status cuzk_gpu_msm_ctx_reserve(cuzk_gpu_msm_ctx *ctx, size_t n_g1, size_t n_g2);
cuzk_status cuzk_gpu_g1_msm(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const cuzk_fr_t *scalars, size_t n,
                            cuzk_gpu_msm_ctx *ctx);
cuzk_status cuzk_gpu_g2_msm(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const cuzk_fr_t *scalars, size_t n,
                            cuzk_gpu_msm_ctx *ctx);
cuzk_status cuzk_gpu_g1_batch_add(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const uint64_t *bitmap, size_t n,
                                  cuzk_gpu_msm_ctx *ctx);
cuzk_status cuzk_gpu_g2_batch_add(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const uint64_t *bitmap, size_t n,
                                  cuzk_gpu_msm_ctx *ctx);
/* The same with the bases taken by index: scalar i goes with bases[idx[i]] (idx a DEVICE array of n indices below
 * 2^31, repeats allowed), so the tail of a split MSM reads a resident key without gathering its points. */
cuzk_status cuzk_gpu_g1_msm_idx(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const uint32_t *idx,
                                const cuzk_fr_t *scalars, size_t n, cuzk_gpu_msm_ctx *ctx);
cuzk_status cuzk_gpu_g2_msm_idx(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const uint32_t *idx,
                                const cuzk_fr_t *scalars, size_t n, cuzk_gpu_msm_ctx *ctx);
/* The window width the default plan takes for n points. */
unsigned cuzk_gpu_msm_window_for(size_t n);

/* ---- Groth16 on the GPU (src/gpu/groth16) ----------------------------------------------------------------------
 * A cuzk_gpu_key is a proving key and its circuit on one device: the bases (h, l, a, b_g1, b_g2), the CSR matrices and
 * value table (A, B and, when the circuit has one, C), and the position → variable tables of the a and b bases.
 * Only the witness crosses PCIe when proving. The placement is planned from the device's free VRAM:
 *   RESIDENT  every base in VRAM (the fast path);
 *   STREAMED  the bases stay in pinned host memory and each MSM streams them through two device buffers (copies on
 *             their own stream, ordered by events, overlapping the kernels); matrices and working buffers in VRAM;
 * AUTO takes RESIDENT when the key plus `workers` provers' working memory fit the budget, else STREAMED, else fails
 * with CUZK_ERR_NOMEM and a message giving the bytes needed and available. A RESIDENT key's provers also take whole
 * NTT tables when those fit too (about 3·n·32 bytes a prover for a bellperson key of domain n > 2^20, 2·n·32 at or
 * below; a partition of 2^27 gains about 24 ms), unless split_ntt_tables says not to. */
typedef enum { CUZK_GPU_KEY_AUTO = 0, CUZK_GPU_KEY_RESIDENT = 1, CUZK_GPU_KEY_STREAMED = 2 } cuzk_gpu_key_placement;
typedef struct {
    cuzk_gpu_key_placement placement;
    uint64_t vram_budget;  /* bytes this key and its provers may use; 0 = the device's free VRAM less 1 GiB */
    unsigned workers;      /* provers that will share this key (their working memory is planned in); 0 = 1 */
    uint64_t stream_chunk; /* STREAMED: bases per copied chunk (rounded down to a multiple of 64, at least 64);
                            * 0 = planned from the budget. Tests set small ones to exercise many chunks */
    bool split_ntt_tables; /* the provers keep the small split NTT tables even when whole ones would fit */
    uint64_t setup_chunk;  /* cuzk_gpu_setup: scalars made into points per step; 0 = 2^21. Tests set small ones */
} cuzk_gpu_key_opts;

typedef struct {
    int device;
    cuzk_gpu_key_placement placement; /* RESIDENT or STREAMED */
    uint64_t vram_bytes;              /* held on the device by the key */
    uint64_t pinned_bytes;            /* held in pinned host memory (STREAMED bases) */
    uint64_t prover_vram_bytes; /* what one prover's working buffers take for this key (cuzk_gpu_prove_vram_bytes, and
                                  * the whole NTT tables when it has them) */
    bool whole_ntt_tables;      /* its provers' NTT domains have whole tables (cuzk_gpu_key_opts) */
    double upload_s;            /* wall time of the upload */
} cuzk_gpu_key_info;

typedef struct cuzk_gpu_key cuzk_gpu_key;
/* Copies a loaded key (either convention) and its circuit to the current device. BELLPERSON keys need the circuit
 * (checked with cuzk_groth16_pk_check_circuit); SNARKJS keys carry theirs (circuit may be NULL; when given it must have
 * C, and is used only for CUZK_R1CS_C_CHECKED). The host key may be freed afterwards: the cuzk_gpu_key keeps a copy of
 * the verifying key. */
cuzk_status cuzk_gpu_key_upload(cuzk_gpu_key **out, const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit,
                                const cuzk_gpu_key_opts *opts, cuzk_errmsg *err);
void cuzk_gpu_key_free(cuzk_gpu_key *k);
void cuzk_gpu_key_get_info(const cuzk_gpu_key *k, cuzk_gpu_key_info *info);
const cuzk_groth16_vk *cuzk_gpu_key_vk(const cuzk_gpu_key *k);

/* A .params file decoded on the device: the bytes are read into pinned memory, copied up, and each point is
 * range-checked, converted to Montgomery form and checked on the curve by kernels (subgroup too with
 * CUZK_GROTH16_LOAD_SUBGROUP); the same statuses and messages as cuzk_groth16_params_load, for the lowest bad point.
 * The key is RESIDENT. *bytes_per_s receives the file size over the wall time (may be NULL). */
cuzk_status cuzk_gpu_key_load_params(cuzk_gpu_key **out, const char *path, const cuzk_r1cs_t *circuit, unsigned flags,
                                     double *bytes_per_s, cuzk_errmsg *err);

/* A key generated on the device for a circuit (benchmarks, not a ceremony): the same key cuzk_groth16_setup makes
 * (BELLPERSON convention) for the same toxic waste, without the host ever holding its bases: powers of τ, the
 * Lagrange values at τ in closed form with batch inversion, Aᵀ/Bᵀ/Cᵀ times them, then fixed-base scalar
 * multiplication and normalisation on the device. opts as cuzk_groth16_setup's (conv must be BELLPERSON or 0). */
cuzk_status cuzk_gpu_setup(cuzk_gpu_key **out, const cuzk_r1cs_t *circuit, const cuzk_groth16_setup_opts *opts,
                           const cuzk_gpu_key_opts *kopts, cuzk_errmsg *err);

/* Device bytes one prover's working buffers take for a key of this domain and variable count (witness, a, b, c,
 * the splits, the MSM scratch): what cuzk_gpu_key_upload plans per worker. */
uint64_t cuzk_gpu_prove_vram_bytes(uint64_t domain_size, uint64_t num_vars);

/* A witness packed for its trip to the device. Most values of a Filecoin-shaped witness are 0 or 1 (87 % in the
 * synthetic PoRep partition), so the host sends 2 bits per aux value and only the others: about a fifth of the
 * bytes over PCIe. cuzk_gpu_witness_pack packs z in place, in `chunks` chunks of `chunk_values` aux values (a
 * multiple of 32; the last chunk shorter) so that host threads pack them side by side:
 *   z[0 .. num_inputs)                          unchanged (the public inputs, ONE first);
 *   z + num_inputs + c·chunk_values             the values of chunk c other than 0 and 1, in order (others[c]);
 *   classes[i / 32] >> 2·(i mod 32) & 3         aux value i: 0 zero, 1 one, 2 another value.
 * The rest of z is left as it was. The provers take the packed form in place of the whole z. */
#define CUZK_GPU_WITNESS_CHUNKS_MAX 64
typedef struct {
    uint64_t num_inputs, num_aux;
    uint64_t chunk_values;
    unsigned chunks;
    uint64_t others[CUZK_GPU_WITNESS_CHUNKS_MAX];
    const uint64_t *classes;
} cuzk_gpu_witness_packing;
/* Words of the classes of num_aux values: ceil(num_aux / 32). */
uint64_t cuzk_gpu_witness_classes_words(uint64_t num_aux);
/* Packs z (num_inputs + num_aux values, Montgomery form) in place on up to `threads` host threads, classes having
 * cuzk_gpu_witness_classes_words(num_aux) words; fills *out (out->classes = classes). */
void cuzk_gpu_witness_pack(cuzk_gpu_witness_packing *out, cuzk_fr_t *z, uint64_t num_inputs, uint64_t num_aux,
                           uint64_t *classes, unsigned threads);

typedef struct {
    double prepare; /* seconds growing the prover's buffers for this key: 0 in steady state, or after a reserve */
    double upload, spmv, ntt_h, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly, total; /* seconds, wall */
    uint64_t vram_bytes; /* the prover's working buffers on the device after this proof */
    /* latency mode (cuzk_gpu_prove_msms_pair): msm_h is the H side's share of the H MSM, h_share that share of the
     * points, msm_h_other the rest on the second prover with the copy of its coefficients; otherwise 0 and 0 */
    double h_share, msm_h_other;
    /* the proof's work: the points of the H MSM and of each 0/1 split's tail MSM (its scalars other than 0 and 1;
     * B's tail is the same positions in G1 and G2), and the NTTs' size 2^domain_log2 */
    uint64_t h_points, tail_l, tail_a, tail_b;
    unsigned domain_log2;
} cuzk_gpu_prove_stats;

/* One prover's working state on the current device: its stream, its buffers (grown to the largest key seen and
 * kept: no allocation in steady state), the MSM context, the NTT domain. One per thread; several may share a
 * device and a key. */
typedef struct cuzk_gpu_prover cuzk_gpu_prover;
/* A prover's options; all zero (or a NULL pointer) is the default.
 *   msm, ntt       its MSMs' and its NTT domain's options (measurements);
 *   fixed_h_share  as a pair's H side (p0 of cuzk_gpu_prove_msms_pair) it keeps h_share (0 … 1) of the H MSM's
 *                  points; otherwise each pair proof chooses the share from the previous one's timings, so that both
 *                  sides finish together (two thirds before the first). */
typedef struct {
    cuzk_gpu_msm_opts msm;
    cuzk_gpu_ntt_opts ntt;
    bool fixed_h_share;
    double h_share;
} cuzk_gpu_prover_opts;
cuzk_status cuzk_gpu_prover_create(cuzk_gpu_prover **out, const cuzk_gpu_prover_opts *opts, cuzk_errmsg *err);
void cuzk_gpu_prover_destroy(cuzk_gpu_prover *p);
/* Replaces the prover's options (NULL: the defaults). Not concurrently with a proof on the same prover. */
void cuzk_gpu_prover_set_opts(cuzk_gpu_prover *p, const cuzk_gpu_prover_opts *opts);
/* Grows the prover's device buffers, NTT domain and MSM scratch now to what proofs with key k need (they grow
 * by themselves at the first proof otherwise: for a 2^27 key, tens of GB and seconds of the first partition).
 * Not concurrently with a proof on the same prover. */
cuzk_status cuzk_gpu_prover_reserve(cuzk_gpu_prover *p, const cuzk_gpu_key *k, cuzk_errmsg *err);
/* Device bytes the prover's working buffers take now. */
uint64_t cuzk_gpu_prover_vram_bytes(const cuzk_gpu_prover *p);

/* One proof, equal bit for bit to cuzk_groth16_prove's with the same key, circuit, witness, r and s (opts as there;
 * threads unused). z: cuzk_r1cs_num_vars values with z[0] = 1, best in pinned memory (cuzk_gpu_host_alloc). The witness
 * is copied up once; SpMV, H, the 0/1 classification and every MSM run on the device; the proof is assembled on the
 * host by cuzk_groth16_assemble (constant-time terms for r and s). CUZK_R1CS_C_CHECKED reports the lowest unsatisfied
 * row (CUZK_ERR_R1CS_UNSATISFIED) like the CPU prover. A device fault gives CUZK_ERR_DEVICE with the CUDA message.
 * cuzk_gpu_prove = cuzk_gpu_prove_msms (the device part) + cuzk_groth16_assemble: pipelines call the two separately, so
 * that the device takes the next partition while the host assembles and verifies. packed: NULL, or z is packed as it
 * says (cuzk_gpu_witness_pack; its num_inputs and num_aux must be the key's, else CUZK_ERR_INVALID_ARG). */
cuzk_status cuzk_gpu_prove_msms(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                                const cuzk_fr_t *z, const cuzk_gpu_witness_packing *packed,
                                const cuzk_groth16_prove_opts *opts, cuzk_gpu_prove_stats *stats, cuzk_errmsg *err);
cuzk_status cuzk_gpu_prove(cuzk_groth16_proof_t *proof, cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z,
                           const cuzk_groth16_prove_opts *opts, cuzk_gpu_prove_stats *stats, cuzk_errmsg *err);
/* Latency mode: one proof's device work on two provers at once, normally on two devices that each hold a copy of
 * the same key: p0 with k0 uploads the witness and computes SpMV, H and its share of the H MSM; p1 with k1 (on a
 * thread of its own) uploads it and computes the 0/1 splits and the L, A, B1 and B2 MSMs, then takes the rest of
 * H's coefficients from p0's device and computes the rest of the H MSM. The sums equal cuzk_gpu_prove_msms's. Keys
 * that are not copies of one key (shape, verifying key) give CUZK_ERR_INVALID_ARG. stats: each phase's own time
 * (upload, prepare: p0's), total the wall time, vram_bytes both provers'. */
cuzk_status cuzk_gpu_prove_msms_pair(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p0, const cuzk_gpu_key *k0,
                                     cuzk_gpu_prover *p1, const cuzk_gpu_key *k1, const cuzk_fr_t *z,
                                     const cuzk_gpu_witness_packing *packed, const cuzk_groth16_prove_opts *opts,
                                     cuzk_gpu_prove_stats *stats, cuzk_errmsg *err);

#ifdef __cplusplus
}
#endif

#endif
