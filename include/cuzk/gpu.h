/* cuzk gpu: the CUDA backend, callable from C. Built into the library cuzk_gpu only where nvcc exists.
 *
 * Data lives on the device between calls (the GPU-resident design): the transforms take DEVICE pointers and are
 * enqueued on the default stream, returning once launched (launch errors are reported at once; faults inside a
 * kernel surface at the next gpu_sync). Host-pointer conveniences copy in, run, copy out and synchronize.
 * Elements keep the CPU layout (fr_t, fp_t, fp2_t in Montgomery form), so arrays copy unchanged; device arrays
 * must be 16-byte aligned (cudaMalloc'd arrays and every element inside them are).
 *
 * Every CUDA failure returns CUZK_ERR_DEVICE; gpu_last_error() then gives the CUDA message and the call site. */
#ifndef CUZK_GPU_H
#define CUZK_GPU_H

#include <stddef.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 when there is none or the driver cannot be reached (never fails). */
int gpu_device_count(void);
/* One-line description of the device in use ("NVIDIA H200, 132 SMs, cc 9.0"). */
cuzk_status gpu_device_name(char *out, size_t len);
/* Detail of the last CUZK_ERR_DEVICE returned on this thread ("" when none). */
const char *gpu_last_error(void);

/* ---- memory ------------------------------------------------------------------------------------------------------ */
cuzk_status gpu_malloc(void **dev, size_t bytes);
void gpu_free(void *dev);
cuzk_status gpu_to_device(void *dev, const void *host, size_t bytes);
cuzk_status gpu_to_host(void *host, const void *dev, size_t bytes);
/* Fills bytes with a repeating byte (poisoning outputs in tests). */
cuzk_status gpu_memset(void *dev, int byte, size_t bytes);
/* Waits for all enqueued work; returns the first error a kernel raised. */
cuzk_status gpu_sync(void);

/* Event timer on the default stream: start, enqueue work, stop (waits) gives the elapsed device milliseconds. */
typedef struct { void *start, *stop; } gpu_timer;
cuzk_status gpu_timer_init(gpu_timer *t);
void gpu_timer_free(gpu_timer *t);
cuzk_status gpu_timer_start(gpu_timer *t);
cuzk_status gpu_timer_stop(gpu_timer *t, double *ms);

/* ---- field arithmetic (element-wise, for tests and throughput measurements) -------------------------------------- */
typedef enum {
    GPU_FR_ADD, GPU_FR_SUB, GPU_FR_MUL, GPU_FR_SQR, GPU_FR_MUL64, /* MUL64: the 64-bit-word carry chains */
    GPU_FP_ADD, GPU_FP_SUB, GPU_FP_MUL, GPU_FP_SQR, GPU_FP_MUL64,
    GPU_FP2_ADD, GPU_FP2_SUB, GPU_FP2_MUL, GPU_FP2_SQR,
    GPU_FR_MUL_SPECIAL, /* Fr multiplication using the modulus' special low words */
    GPU_FF_OP_COUNT
} gpu_ff_op;
/* r[i] = op(a[i], b[i]) for i < n, HOST pointers to arrays of the op's element type (b unused by SQR). */
cuzk_status gpu_ff_batch(gpu_ff_op op, void *r, const void *a, const void *b, size_t n);
/* Throughput: `threads` threads each apply op `iters` times in a dependent chain on random-looking data
 * (nothing zero). *ns_per_op = device time / (threads·iters), in nanoseconds. */
cuzk_status gpu_ff_throughput(gpu_ff_op op, size_t threads, unsigned iters, double *ns_per_op);

/* ---- NTT over Fr ------------------------------------------------------------------------------------------------- */
/* Same transforms as ntt.h (natural order in and out, same ω as fr_root_of_unity, results bit-identical to
 * ntt_forward & co.), for 2^GPU_NTT_MIN_LOG2 .. 2^NTT_MAX_LOG2 elements. The domain owns its twiddle tables and a
 * scratch array of n elements on the device. */
#define GPU_NTT_MIN_LOG2 6
typedef struct gpu_ntt_domain gpu_ntt_domain;
cuzk_status gpu_ntt_domain_create(gpu_ntt_domain **d, unsigned log2n, fr_roots conv);
void gpu_ntt_domain_destroy(gpu_ntt_domain *d);
size_t gpu_ntt_size(const gpu_ntt_domain *d);

/* In place on n elements at DEVICE address x. g: the coset shift, non-zero (host pointer to one fr_t). */
cuzk_status gpu_ntt_forward(fr_t *x, gpu_ntt_domain *d);
cuzk_status gpu_ntt_inverse(fr_t *x, gpu_ntt_domain *d);
cuzk_status gpu_ntt_coset_forward(fr_t *x, gpu_ntt_domain *d, const fr_t *g);
cuzk_status gpu_ntt_coset_inverse(fr_t *x, gpu_ntt_domain *d, const fr_t *g);

typedef enum { GPU_NTT_FORWARD, GPU_NTT_INVERSE, GPU_NTT_COSET_FORWARD, GPU_NTT_COSET_INVERSE } gpu_ntt_kind;
/* Convenience on a HOST array of n elements: copy in, transform, copy out, synchronize. g only for cosets. */
cuzk_status gpu_ntt_host(fr_t *x, gpu_ntt_domain *d, gpu_ntt_kind kind, const fr_t *g);

/* Multiplier and register radix of the NTT kernels (measurements): bit 0 = 64-bit words, bit 1 = the Fr-special
 * reduction (32-bit; overrides bit 0), bit 2 = radix-4 register steps (else radix-8). Default 1 (fastest measured on
 * the H200). Returns the previous value. */
unsigned gpu_ntt_set_variant(unsigned v);

/* Tuning knob for measurements: log2 of the elements one thread block holds in shared memory (9..11, default 11).
 * Returns the previous value. */
unsigned gpu_ntt_set_tile_log2(unsigned tlog);

/* ---- MSM over G1 and G2 (Pippenger) and bitmap batch addition --------------------------------------------------- */
/* Same results as msm.h's g1_msm / g2_msm / g1_batch_add / g2_batch_add (compare in affine form), with DEVICE
 * pointers for bases (affine, infinity = all zero, allowed), scalars (Fr, Montgomery form) and the bitmap (bit i =
 * bit i % 64 of word i / 64). r is a HOST pointer. n < 2^31. The call synchronizes once, at the end, to bring
 * the window sums back (they are combined on the host).
 *
 * The context holds the device scratch (sort buffers, buckets, partial sums): it grows on the first call of a
 * given size and window and is reused after, so repeated calls allocate nothing. One context per thread. */
typedef struct gpu_msm_ctx gpu_msm_ctx;
cuzk_status gpu_msm_ctx_create(gpu_msm_ctx **ctx);
void gpu_msm_ctx_destroy(gpu_msm_ctx *ctx);
cuzk_status gpu_g1_msm(g1_jac_t *r, const g1_affine_t *bases, const fr_t *scalars, size_t n, gpu_msm_ctx *ctx);
cuzk_status gpu_g2_msm(g2_jac_t *r, const g2_affine_t *bases, const fr_t *scalars, size_t n, gpu_msm_ctx *ctx);
cuzk_status gpu_g1_batch_add(g1_jac_t *r, const g1_affine_t *bases, const uint64_t *bitmap, size_t n,
                             gpu_msm_ctx *ctx);
cuzk_status gpu_g2_batch_add(g2_jac_t *r, const g2_affine_t *bases, const uint64_t *bitmap, size_t n,
                             gpu_msm_ctx *ctx);
/* Tuning knobs for measurements and tests (process-wide): the window width c (2..24; 0 = chosen from n, see
 * gpu_msm_window_for) and the most (point, window) pairs sorted at once (0 = 2^28; windows are processed in groups
 * that fit). Each returns the previous value. */
unsigned gpu_msm_set_window(unsigned c);
size_t gpu_msm_set_group_items(size_t items);
unsigned gpu_msm_window_for(size_t n);
/* Non-zero: each MSM prints its phase times (CUDA events) on stderr. Returns the previous value. */
int gpu_msm_set_profile(int on);
/* Kernel variant (measurements): bit 0 = the G1 bucket accumulation uses the 32-bit-word Fp multiplication
 * (else 64-bit words); bit 1 = it loads the next base ahead of each addition (64-bit words; overrides bit 0).
 * Default 0: neither measured faster on the H200 (docs/PERFORMANCE-gpu.md). Returns the previous value. */
unsigned gpu_msm_set_variant(unsigned v);

#ifdef __cplusplus
}
#endif

#endif
