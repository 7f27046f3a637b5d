/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* GPU multi-scalar multiplication Σ [k_i] P_i over G1 and G2 (Pippenger), and bitmap-selected batch addition: the
 * internals shared by the topic's files (msm/).
 *
 * One MSM, all on the default stream, with a single host synchronization at the very end (the window sums come
 * back, nw points, and are combined on the host by Horner's rule: c doublings per window):
 *   1. k_digits: each scalar (Fr, Montgomery) is brought to canonical form (one multiplication by 1, unless the
 *      context says the scalars are canonical already: cuzk_gpu_msm_ctx_canonical) and cut into
 *      signed c-bit digits d_j in [−2^(c−1), 2^(c−1)] (Booth: the window's bits plus the bit below, minus 2^c times
 *      its top bit; windows are independent, no carry chain). For window j of the group being processed it writes
 *      the pair (key = j_local·2^c + |d|, value = point index | sign bit).
 *   2. cub::DeviceRadixSort sorts the pairs by key over c + log2(group windows) bits: points of one bucket become
 *      one contiguous run, the buckets of all windows of the group one after the other.
 *   2b. (G2, and G1 from 2^22 points; cuzk_gpu_msm_opts) batch-affine rounds shorten the runs: neighbours of one
 *      bucket are added in affine coordinates with one inversion per 256 pairs (batch_affine.cuh); step 3 then sums
 *      the shorter list.
 *   3. k_accumulate: the sorted array is cut into slices of L entries, one thread each (so the work is even
 *      whatever the digit distribution: a bucket holding every point is spread over n/L threads). A thread sums
 *      each run of its slice into an XYZZ point by mixed additions. Runs wholly inside the slice are bucket sums
 *      and are stored; a run cut at the slice's start is a "head" piece, one cut only at its end a "tail" piece.
 *      k_fixup: the thread whose slice holds a bucket's tail adds the heads of the following slices that continue
 *      the same bucket, and stores the bucket sum.
 *   4. k_bucket_segments: each window's buckets b = 1 .. 2^(c−1) are cut into segments of Ls consecutive buckets,
 *      one thread each: running sums from the top give R = Σ S_b and T = Σ (b − base)·S_b; the segment's share of
 *      Σ b·S_b is T + base·R (base·R by double-and-add: base is a multiple of Ls).
 *   5. k_pair_sum: the segment shares of every window are summed by halving in log2(segments) launches.
 *
 * Zero digits are sorted with the rest (key |d| = 0) and skipped by the accumulation; bases at infinity are
 * skipped as they are read.
 *
 * Files: plan.cu (options, window, plan, scratch, contexts), accumulate.cuh (steps 1 and 3), batch_affine.cuh (2b),
 * reduce.cuh (4 and 5), msm.cu (the pipeline and the entry points), batch_add.cu (the bitmap batch addition). */
#ifndef CUZK_GPU_MSM_CUH
#define CUZK_GPU_MSM_CUH

#include "ec/ec.cuh"
#include "runtime/runtime.cuh"

#define MSM_SIGN 0x80000000u
#define MSM_IDX_MASK 0x7fffffffu
#define MSM_MAX_C 24
#define MSM_PARTIALS 65536 /* batch addition: partial sums (one per thread) */

typedef daff<dfp> g1a;
typedef dxyzz<dfp> g1x;
typedef daff<dfp2> g2a;
typedef dxyzz<dfp2> g2x;

#define BA_MAX_ROUNDS 24 /* batch-affine rounds of one group at most */

/* ---- options ----------------------------------------------------------------------------------------------------- */
/* cuzk_gpu_msm_opts.variant: bits 0..3 (G1) and 4..7 (G2) = m, the accumulation and batch-addition kernels compiled
 * for m resident blocks of 128 threads per SM (1 = no register cap, 4 = 128 registers); bit 8: G1 with the dedicated
 * Fp squaring (dfp_sq); bits 9 and 10: batch-affine rounds before the G1 and G2 accumulations (bits 16..19: their
 * slots per thread; bits 20..23 and 24..27: G2's and G1's least average run, G1 taking G2's when its own is 0);
 * bit 11: none for G1 even from MSM_G1_BA_MIN points; bits 12..15: r > 0 spreads the bucket reduction over about
 * 2^(12 + r) threads (0: plan.cu's choice); 0 = the measured best (MSM_DEFAULT_VARIANT: docs/performance/msm.md) */
#define MSM_VARIANT_G1_SQR 0x100u
#define MSM_VARIANT_G1_BA 0x200u /* batch-affine rounds before the G1 accumulation */
#define MSM_VARIANT_G2_BA 0x400u
#define MSM_VARIANT_G1_NO_BA 0x800u /* no batch-affine rounds for G1 at any size (else from MSM_G1_BA_MIN points) */
/* G1 takes the batch-affine rounds from 2^22 points, where they start to pay (docs/performance/msm.md) */
#define MSM_G1_BA_MIN ((size_t)1 << 22)
/* the default: batch-affine rounds while runs average 12 or more for G2, 8 or more for G1 (docs/performance/msm.md) */
#define MSM_DEFAULT_VARIANT 0x8c00514u
#define MSM_DEFAULT_GROUP_ITEMS ((size_t)1 << 28)
/* The variant bits o asks for (its own, or MSM_DEFAULT_VARIANT). */
extern "C" unsigned cuzk_gpu_msm_variant(const cuzk_gpu_msm_opts *o);
/* Resident blocks per SM the accumulation kernels of G1's (g1) or G2's curve are compiled for. */
extern "C" unsigned cuzk_gpu_msm_minb(const cuzk_gpu_msm_opts *o, bool g1);
/* Whether batch-affine rounds run before the accumulation of an MSM of n points, and the slots per thread in them. */
extern "C" bool cuzk_gpu_msm_ba_on(const cuzk_gpu_msm_opts *o, bool g1, size_t n);
extern "C" unsigned cuzk_gpu_msm_ba_slots(const cuzk_gpu_msm_opts *o);

/* ---- what the prover uses besides include/cuzk/gpu.h ------------------------------------------------------------- */
/* Device bytes of a new context after cuzk_gpu_msm_ctx_reserve(n_g1, n_g2), with the default options. */
extern "C" uint64_t cuzk_gpu_msm_scratch_bytes(size_t n_g1, size_t n_g2);
/* The context's MSMs take canonical scalars (their words are their values) instead of Montgomery ones while on:
 * the H MSM's coefficients come out of the last NTT pass that way, saving a conversion per group of windows. */
extern "C" void cuzk_gpu_msm_ctx_canonical(cuzk_gpu_msm_ctx *x, bool on);
/* Device bytes the context holds now. */
extern "C" uint64_t cuzk_gpu_msm_ctx_bytes(const cuzk_gpu_msm_ctx *x);

/* ---- context ----------------------------------------------------------------------------------------------------- */
struct cuzk_gpu_msm_ctx {
    uint32_t *keys[2], *vals[2]; /* sort input and output: pairs of one group */
    void *heads, *tails;         /* one XYZZ point per accumulating thread */
    void *buckets;               /* (2^(c−1) + 1) XYZZ points per window */
    void *seg[2];                /* reduction segments (ping-pong), batch-addition partial sums */
    void *cub_tmp;
    void *ba_pts[2];           /* batch-affine rounds: the lists of even and of odd rounds */
    uint32_t *ba_cnt, *ba_off; /* a round's slot counts and their exclusive sum */
    uint32_t *ba_len;          /* each round's list length, on the device */
    size_t cap_keys[2], cap_vals[2], cap_heads, cap_tails, cap_buckets, cap_seg[2], cap_cub; /* bytes */
    size_t cap_ba_pts[2], cap_ba_cnt, cap_ba_off, cap_ba_len;
    bool canonical; /* the MSMs' scalars are canonical, not Montgomery (cuzk_gpu_msm_ctx_canonical) */
    cuzk_gpu_msm_opts opts;
};

/* Grows *p to at least `need` bytes (frees the old block; contents are not kept). */
extern "C" cuzk_status cuzk_gpu_msm_grow(void **p, size_t *cap, size_t need);

/* ---- the plan of one MSM ----------------------------------------------------------------------------------------- */
typedef struct {
    unsigned c, nw, gw; /* window width, windows, windows per group */
    size_t n, items;    /* points, pairs per full group */
    unsigned key_bits;
    size_t slice;           /* L: sorted entries per accumulating thread */
    size_t slices;          /* of a full group */
    uint32_t nb;            /* buckets per window, 2^(c−1); slots 0 .. nb per window (slot 0 unused) */
    uint32_t seg_len, nseg; /* reduction segments per window */
    bool ba;                /* batch-affine rounds before the accumulation */
    unsigned ba_min_run;    /* their least average run */
} msm_plan_t;

/* The plan for n points under o; ba_point_bytes: the affine point size when batch-affine rounds run (0: none). */
extern "C" void cuzk_gpu_msm_plan(const cuzk_gpu_msm_opts *o, msm_plan_t *p, size_t n, size_t ba_point_bytes, bool g1);

/* The batch-affine rounds of one group of `items` sorted entries with at most `runs` distinct non-zero keys: as many
 * rounds as the bound on the list's length (m/2 + runs after a round of m) keeps an average run of min_run. */
typedef struct {
    unsigned rounds;
    size_t len[BA_MAX_ROUNDS + 1]; /* bound on each round's list: len[0] = items, len[rounds] is what is left */
    size_t slice;                  /* L of the accumulation over what is left */
} ba_plan;

extern "C" void cuzk_gpu_msm_ba_plan(ba_plan *b, size_t items, size_t runs, bool on, unsigned min_run);

typedef struct {
    size_t keys, heads, buckets, seg, cub; /* keys: each of the four pair arrays; heads: heads and tails; seg: each */
    size_t ba_pts[2], ba_slot_bytes;       /* batch-affine lists, and each slot array (bytes) */
} scratch_sizes;

/* The bytes of each scratch buffer one plan needs (point_bytes: one XYZZ point), and the context grown to them. */
extern "C" void cuzk_gpu_msm_scratch_of(scratch_sizes *z, const msm_plan_t *p, size_t point_bytes);
extern "C" cuzk_status cuzk_gpu_msm_scratch_grow(cuzk_gpu_msm_ctx *x, const scratch_sizes *z);

/* ---- shared by the kernels and their launches -------------------------------------------------------------------- */
/* The accumulation and its fix-up work on `items` sorted entries, or on *count of them when count is not NULL (the
 * list the batch-affine rounds leave, whose length only the device knows). */
static __device__ __forceinline__ size_t items_of(const uint32_t *count, size_t items)
{
    return count != NULL ? *count : items;
}

static inline unsigned blocks_for(size_t threads, unsigned per) { return (unsigned)((threads + per - 1) / per); }

/* the coordinate field the variant asks for: F, or its other flavour (ec/ec.cuh); G2 has none measured faster */
template <typename F> struct flavour_of {
    typedef F T;
    static const unsigned bit = 0;
};
template <> struct flavour_of<dfp> {
    typedef dfp_sq T;
    static const unsigned bit = MSM_VARIANT_G1_SQR;
};

#endif
