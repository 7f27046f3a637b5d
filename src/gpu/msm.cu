/* GPU multi-scalar multiplication Σ [k_i] P_i over G1 and G2 (Pippenger), and bitmap-selected batch addition.
 *
 * One MSM, all on the default stream, with a single host synchronization at the very end (the window sums come
 * back, nw points, and are combined on the host by Horner's rule: c doublings per window):
 *   1. k_digits: each scalar (Fr, Montgomery) is brought to canonical form (one multiplication by 1, unless the
 *      context says the scalars are canonical already: cuzk_g16_gpu_msm_canonical_scalars) and cut into
 *      signed c-bit digits d_j in [−2^(c−1), 2^(c−1)] (Booth: the window's bits plus the bit below, minus 2^c times
 *      its top bit; windows are independent, no carry chain). For window j of the group being processed it writes
 *      the pair (key = j_local·2^c + |d|, value = point index | sign bit).
 *   2. cub::DeviceRadixSort sorts the pairs by key over c + log2(group windows) bits: points of one bucket become
 *      one contiguous run, the buckets of all windows of the group one after the other.
 *   2b. (G2, and G1 from 2^22 points; cuzk_gpu_msm_opts) batch-affine rounds shorten the runs: neighbours of one
 *      bucket are added in affine coordinates with one inversion per 256 pairs ("batch-affine rounds" below); step 3
 *      then sums the shorter list.
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
 * skipped as they are read. */
#include <stdio.h>
#include <string.h>

#include <cub/cub.cuh>

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

/* ---- options ----------------------------------------------------------------------------------------------------- */
/* cuzk_gpu_msm_opts.variant: bits 0..3 (G1) and 4..7 (G2) = m, the accumulation and batch-addition kernels compiled
 * for m resident blocks of 128 threads per SM (1 = no register cap, 4 = 128 registers); bit 8: G1 with the dedicated
 * Fp squaring (dfp_sq); bits 9 and 10: batch-affine rounds before the G1 and G2 accumulations (bits 16..19: their
 * slots per thread, ba_slots; bits 20..23 and 24..27: G2's and G1's least average run, ba_min_run, G1 taking G2's
 * when its own is 0); bit 11: none for G1 even from MSM_G1_BA_MIN points; bits 12..15: r > 0 spreads the bucket
 * reduction over about 2^(12 + r) threads (0: reduction_segment); 0 = the measured best (MSM_DEFAULT_VARIANT:
 * docs/performance/msm.md) */
#define MSM_VARIANT_G1_SQR 0x100u
#define MSM_VARIANT_G1_BA 0x200u /* batch-affine rounds before the G1 accumulation */
#define MSM_VARIANT_G2_BA 0x400u
#define MSM_VARIANT_G1_NO_BA 0x800u /* no batch-affine rounds for G1 at any size (else from MSM_G1_BA_MIN points) */
/* G1 takes the batch-affine rounds from 2^22 points: 33.4 ms against 33.9 without at 2^22, 103.8 against 111.8 at
 * 2^24 (docs/performance/msm.md) */
#define MSM_G1_BA_MIN ((size_t)1 << 22)
/* batch-affine rounds while runs average 12 or more for G2 (2^22: 93.0 ms against 97.9 with 8 and 100.5 with 4), 8 or
 * more for G1 (2^26: 365.9 against 369.4 with 12 and 367.3 with 4; docs/performance/msm.md) */
#define MSM_DEFAULT_VARIANT 0x8c00514u
#define MSM_DEFAULT_GROUP_ITEMS ((size_t)1 << 28)
static unsigned variant_bits(const cuzk_gpu_msm_opts *o) { return o->variant ? o->variant : MSM_DEFAULT_VARIANT; }
/* buckets per reduction segment for `total` buckets over all windows: about 2^rt threads, at least one bucket each */
static uint32_t segment_for_threads(size_t total, unsigned rt, uint32_t nb)
{
    uint32_t sl = 1;
    while (((size_t)sl << rt) < total && sl < nb) sl <<= 1;
    return sl;
}
/* About 2^15 threads; G1 takes 2^16 where segments stay at least 128 buckets long (measured: 2^27 H MSM 58.3 -> 48.1
 * ms, 2^24 148.7 -> 146.7; shorter segments were slower, G1 2^22 43.8 -> 44.4, and so was G2: 2^22 129.2 -> 131.2) */
static uint32_t reduction_segment(const cuzk_gpu_msm_opts *o, size_t total, uint32_t nb, bool g1)
{
    unsigned r = (variant_bits(o) >> 12) & 15;
    if (r != 0) return segment_for_threads(total, 12 + r, nb);
    uint32_t sl = segment_for_threads(total, 15, nb);
    return g1 && sl > 128 ? segment_for_threads(total, 16, nb) : sl;
}
/* the batch-affine rounds (below): slots per thread 2^(4 + v) and the least average run for another round (variant
 * bits 16..19, and 20..23 or 24..27, when not zero) */
static unsigned ba_slots(const cuzk_gpu_msm_opts *o)
{
    unsigned v = (variant_bits(o) >> 16) & 15;
    return 1u << (v != 0 ? 4 + v : 8);
}
static unsigned ba_min_run(const cuzk_gpu_msm_opts *o, bool g1)
{
    unsigned v2 = (variant_bits(o) >> 20) & 15, v1 = (variant_bits(o) >> 24) & 15;
    unsigned v = g1 && v1 != 0 ? v1 : v2;
    return v != 0 ? v : 4;
}
/* the defaults, for what is planned without a context (cuzk_gpu_msm_scratch_bytes) */
static const cuzk_gpu_msm_opts DEFAULT_OPTS = {0, 0, 0, false};

/* Window width for n points: least estimated cost, in field multiplications: every window adds n points
 * (10 multiplications each) and reduces 2^(c−1) buckets (two additions of 14). The sort and the gathers are
 * memory work that grows like the additions and does not move the choice much. */
extern "C" unsigned cuzk_gpu_msm_window_for(size_t n)
{
    unsigned best = 4;
    double bc = -1;
    for (unsigned c = 4; c <= 22; c++) {
        unsigned nw = (256 + c - 1) / c;
        double cost = (double)nw * ((double)n * 10 + (double)((size_t)1 << (c - 1)) * 28);
        if (bc < 0 || cost < bc) bc = cost, best = c;
    }
    return best;
}

/* ---- context ----------------------------------------------------------------------------------------------------- */
struct cuzk_gpu_msm_ctx {
    uint32_t *keys[2], *vals[2];  /* sort input and output: pairs of one group */
    void *heads, *tails;          /* one XYZZ point per accumulating thread */
    void *buckets;                /* (2^(c−1) + 1) XYZZ points per window */
    void *seg[2];                 /* reduction segments (ping-pong), batch-addition partial sums */
    void *cub_tmp;
    void *ba_pts[2];              /* batch-affine rounds: the lists of even and of odd rounds */
    uint32_t *ba_cnt, *ba_off;    /* a round's slot counts and their exclusive sum */
    uint32_t *ba_len;             /* each round's list length, on the device */
    size_t cap_keys[2], cap_vals[2], cap_heads, cap_tails, cap_buckets, cap_seg[2], cap_cub; /* bytes */
    size_t cap_ba_pts[2], cap_ba_cnt, cap_ba_off, cap_ba_len;
    bool canonical;               /* the MSMs' scalars are canonical, not Montgomery (cuzk_g16_gpu_msm_canonical_scalars) */
    cuzk_gpu_msm_opts opts;
};

extern "C" void cuzk_g16_gpu_msm_canonical_scalars(cuzk_gpu_msm_ctx *x, bool on) { x->canonical = on; }

extern "C" void cuzk_gpu_msm_ctx_set_opts(cuzk_gpu_msm_ctx *x, const cuzk_gpu_msm_opts *opts)
{
    if (x == NULL) return;
    x->opts = opts != NULL ? *opts : DEFAULT_OPTS;
    if (x->opts.window > MSM_MAX_C) x->opts.window = MSM_MAX_C;
}

extern "C" cuzk_status cuzk_gpu_msm_ctx_create(cuzk_gpu_msm_ctx **ctx, const cuzk_gpu_msm_opts *opts)
{
    *ctx = (cuzk_gpu_msm_ctx *)calloc(1, sizeof(cuzk_gpu_msm_ctx));
    if (*ctx == NULL) return CUZK_ERR_NOMEM;
    cuzk_gpu_msm_ctx_set_opts(*ctx, opts);
    return CUZK_OK;
}

extern "C" void cuzk_gpu_msm_ctx_destroy(cuzk_gpu_msm_ctx *x)
{
    if (x == NULL) return;
    for (int i = 0; i < 2; i++) {
        cudaFree(x->keys[i]), cudaFree(x->vals[i]), cudaFree(x->seg[i]);
    }
    cudaFree(x->heads), cudaFree(x->tails), cudaFree(x->buckets), cudaFree(x->cub_tmp);
    cudaFree(x->ba_pts[0]), cudaFree(x->ba_pts[1]), cudaFree(x->ba_cnt), cudaFree(x->ba_off), cudaFree(x->ba_len);
    free(x);
}

extern "C" uint64_t cuzk_g16_gpu_msm_ctx_bytes(const cuzk_gpu_msm_ctx *x)
{
    if (x == NULL) return 0;
    uint64_t b = x->cap_heads + x->cap_tails + x->cap_buckets + x->cap_cub + x->cap_ba_pts[0] + x->cap_ba_pts[1] +
                 x->cap_ba_cnt + x->cap_ba_off + x->cap_ba_len;
    for (int i = 0; i < 2; i++) b += x->cap_keys[i] + x->cap_vals[i] + x->cap_seg[i];
    return b;
}

/* Grows *p to at least `need` bytes (frees the old block; contents are not kept). */
static cuzk_status grow(void **p, size_t *cap, size_t need)
{
    if (need <= *cap) return CUZK_OK;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    CUZK_CUDA(cudaMalloc(p, need));
    *cap = need;
    return CUZK_OK;
}

/* ---- the plan of one MSM ----------------------------------------------------------------------------------------- */
typedef struct {
    unsigned c, nw, gw;   /* window width, windows, windows per group */
    size_t n, items;      /* points, pairs per full group */
    unsigned key_bits;
    size_t slice;         /* L: sorted entries per accumulating thread */
    size_t slices;        /* of a full group */
    uint32_t nb;          /* buckets per window, 2^(c−1); slots 0 .. nb per window (slot 0 unused) */
    uint32_t seg_len, nseg; /* reduction segments per window */
    bool ba;              /* batch-affine rounds before the accumulation */
    unsigned ba_min_run;  /* their least average run */
} msm_plan_t;

/* ba_point_bytes: the affine point size when batch-affine rounds run (0: none). Their lists take up to ~0.8 points
 * per sorted pair (of 8 bytes), so their groups are cut to MSM_BA_GROUP_BYTES / ba_point_bytes pairs: ~20 GB of
 * lists for G1 and for G2 (smaller groups measured slower: G2 2^24 in groups of 4 windows 479 ms, of 8 437 ms).
 * The windows are spread evenly over the groups: a last group of one window leaves the rounds too few threads. */
#define MSM_BA_GROUP_BYTES ((size_t)192 << 27)
/* the most (point, window) pairs sorted at once */
static size_t group_cap(const cuzk_gpu_msm_opts *o, size_t ba_point_bytes)
{
    return o->group_items ? o->group_items : ba_point_bytes ? MSM_BA_GROUP_BYTES / ba_point_bytes
                                                            : MSM_DEFAULT_GROUP_ITEMS;
}

static void plan_make(const cuzk_gpu_msm_opts *o, msm_plan_t *p, size_t n, size_t ba_point_bytes, bool g1)
{
    p->n = n;
    p->ba = ba_point_bytes != 0;
    p->ba_min_run = ba_min_run(o, g1);
    p->c = o->window ? o->window : cuzk_gpu_msm_window_for(n);
    if (p->c < 2) p->c = 2;
    p->nw = (256 + p->c - 1) / p->c;
    size_t cap = group_cap(o, ba_point_bytes);
    size_t gw = cap / n;
    if (gw < 1) gw = 1;
    if (gw > p->nw) gw = p->nw;
    size_t groups = (p->nw + gw - 1) / gw;
    p->gw = (unsigned)((p->nw + groups - 1) / groups);
    p->items = (size_t)p->gw * n;
    unsigned lg = 0;
    while ((1u << lg) < p->gw) lg++;
    p->key_bits = p->c + lg;
    /* about 2^18 threads: several waves of resident threads, even work */
    size_t L = p->items >> 18;
    if (L < 8) L = 8;
    p->slice = L;
    p->slices = (p->items + L - 1) / L;
    p->nb = (uint32_t)1 << (p->c - 1);
    p->seg_len = reduction_segment(o, (size_t)p->nw * p->nb, p->nb, g1);
    p->nseg = p->nb / p->seg_len;
}

/* ---- kernels ----------------------------------------------------------------------------------------------------- */
/* canonical 256-bit value of an Fr element, as 4 little-endian 64-bit limbs: a Montgomery one times 1, a canonical
 * one as it is */
static __device__ __forceinline__ void scalar_limbs(uint64_t k[4], const dfr *s, bool canonical)
{
    dfr r = dfr_load(s);
    if (!canonical) {
        dfr one;
#pragma unroll
        for (int i = 0; i < 8; i++) one.w[i] = i == 0;
        dfr_mul(&r, &r, &one);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) k[i] = ((uint64_t)r.w[2 * i + 1] << 32) | r.w[2 * i];
}

/* signed digit of window j, width c (k < 2^255, so bit 256·… above the top is zero) */
static __device__ __forceinline__ int32_t scalar_digit(const uint64_t k[4], unsigned j, unsigned c)
{
    unsigned pos = j * c;
    uint64_t w;
    if (pos == 0) {
        w = k[0] << 1;
    } else {
        unsigned s = pos - 1, limb = s >> 6, sh = s & 63;
        w = limb < 4 ? k[limb] >> sh : 0;
        if (sh != 0 && limb + 1 < 4) w |= k[limb + 1] << (64 - sh);
    }
    w &= ((uint64_t)1 << (c + 1)) - 1;
    int32_t d = (int32_t)((w >> 1) + (w & 1));
    return d - (int32_t)((w >> c) << c);
}

/* idx NULL: scalar i goes with base i; else with base idx[i]. canonical: the scalars' words are their values. */
__global__ void k_digits(uint32_t *keys, uint32_t *vals, const dfr *scalars, const uint32_t *idx, size_t n,
                         unsigned c, unsigned j0, unsigned gw, bool canonical)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t k[4];
    scalar_limbs(k, &scalars[i], canonical);
    uint32_t base = idx != NULL ? idx[i] : (uint32_t)i;
    for (unsigned jj = 0; jj < gw; jj++) {
        int32_t d = scalar_digit(k, j0 + jj, c);
        uint32_t a = (uint32_t)(d < 0 ? -d : d);
        keys[(size_t)jj * n + i] = (jj << c) | a;
        vals[(size_t)jj * n + i] = base | (d < 0 ? MSM_SIGN : 0u);
    }
}

/* bucket slot of a sorted key: window j0 + (key >> c), digit magnitude key & (2^c − 1) */
static __device__ __forceinline__ size_t slot_of(uint32_t key, unsigned c, unsigned j0, uint32_t nb)
{
    return (size_t)(j0 + (key >> c)) * (nb + 1) + (key & ((1u << c) - 1));
}

/* The accumulation and its fix-up work on `items` sorted entries, or on *count of them when count is not NULL (the
 * list the batch-affine rounds leave, whose length only the device knows). */
static __device__ __forceinline__ size_t items_of(const uint32_t *count, size_t items)
{
    return count != NULL ? *count : items;
}

/* vals NULL: entry p is point p of `bases`, unsigned (the batch-affine rounds' list) */
template <typename F, int MINB>
__global__ void __launch_bounds__(128, MINB) k_accumulate(dxyzz<F> *buckets, dxyzz<F> *heads, dxyzz<F> *tails,
                                                          const uint32_t *keys, const uint32_t *vals,
                                                          const daff<F> *bases, size_t items, const uint32_t *count,
                                                          size_t L, unsigned c, unsigned j0, uint32_t nb)
{
    items = items_of(count, items);
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t start = t * L;
    if (start >= items) return;
    size_t end = start + L < items ? start + L : items;
    uint32_t cur = keys[start];
    bool from_prev = start > 0 && keys[start - 1] == cur;
    bool first_run = true;
    dxyzz<F> acc;
    xyzz_set_inf(&acc);
    for (size_t p = start;; p++) {
        uint32_t k = p < end ? keys[p] : 0;
        if (p == end || k != cur) {
            bool head = first_run && from_prev;
            bool tail = p == end && end < items && keys[end] == cur;
            if (head) st16(&heads[t], acc);
            else if (tail) st16(&tails[t], acc);
            else if ((cur & ((1u << c) - 1)) != 0) st16(&buckets[slot_of(cur, c, j0, nb)], acc);
            if (p == end) break;
            first_run = false;
            cur = k;
            xyzz_set_inf(&acc);
        }
        if ((k & ((1u << c) - 1)) == 0) continue; /* zero digit */
        uint32_t v = vals != NULL ? vals[p] : (uint32_t)p;
        daff<F> b = ld16(&bases[v & MSM_IDX_MASK]);
        if (aff_is_inf(&b)) continue;
        if (v & MSM_SIGN) f_neg(&b.y, &b.y);
        xyzz_madd(&acc, b.x, b.y);
    }
}

/* Heads of consecutive slices that continue one bucket are summed by a tree over aligned blocks: after round r,
 * heads[s] holds the sum of the block [s, s + 2^(r+1)) when s is a multiple of 2^(r+1) and the whole block continues
 * one bucket (its first slice starts inside the bucket and its last slice starts with the same key, so every slice
 * between does too); otherwise heads[s] keeps the sum of the largest such block found before. */
template <typename F>
__global__ void k_heads_tree(dxyzz<F> *heads, const uint32_t *keys, const uint32_t *count, size_t L, size_t slices,
                             unsigned r)
{
    if (count != NULL) slices = (*count + L - 1) / L;
    size_t half = (size_t)1 << r, s = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) << (r + 1);
    if (s == 0 || s + 2 * half - 1 >= slices) return;
    uint32_t k = keys[s * L];
    if (keys[s * L - 1] != k || keys[(s + 2 * half - 1) * L] != k) return;
    dxyzz<F> a = ld16(&heads[s]), b = ld16(&heads[s + half]);
    xyzz_add(&a, &a, &b);
    st16(&heads[s], a);
}

/* The thread whose slice holds a bucket's tail adds the bucket's head blocks (largest aligned block first). */
template <typename F>
__global__ void k_fixup(dxyzz<F> *buckets, const dxyzz<F> *heads, const dxyzz<F> *tails, const uint32_t *keys,
                        size_t items, const uint32_t *count, size_t L, unsigned c, unsigned j0, uint32_t nb)
{
    items = items_of(count, items);
    size_t slices = (items + L - 1) / L;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= slices) return;
    size_t start = t * L, end = start + L < items ? start + L : items;
    uint32_t last = keys[end - 1];
    if (end >= items || keys[end] != last) return;                  /* the slice's last run ends inside it */
    if (keys[start] == last && start > 0 && keys[start - 1] == last) return; /* it is a head: not ours */
    if ((last & ((1u << c) - 1)) == 0) return;
    dxyzz<F> sum = ld16(&tails[t]);
    for (size_t s = t + 1; s < slices && keys[s * L] == last;) {
        size_t blk = 1;
        while ((s & (2 * blk - 1)) == 0 && s + 2 * blk - 1 < slices && keys[(s + 2 * blk - 1) * L] == last) blk *= 2;
        dxyzz<F> h = ld16(&heads[s]);
        xyzz_add(&sum, &sum, &h);
        s += blk;
    }
    st16(&buckets[slot_of(last, c, j0, nb)], sum);
}

/* ---- batch-affine rounds ----------------------------------------------------------------------------------------
 * Before the XYZZ accumulation, rounds of affine additions shrink each group's sorted list. Round r looks at slots
 * s of two entries, positions 2s − q and 2s − q + 1 of the current list (q = r mod 2): when both carry the same
 * key their sum goes to the next list, otherwise each (non-zero-digit) entry goes there unchanged, at the place an
 * exclusive sum of the slots' output counts gives. Runs are contiguous, so each round about halves every run; the
 * parity alternates so that a run of two that starts at an odd position is paired in the next round. A run of r
 * entries leaves at most r/2 + 1, so a list of m entries and at most R runs leaves at most m/2 + R: the buffers are
 * sized by that bound, and the host launches every round on the bound without waiting for the device's counts.
 *
 * An affine sum needs 1/(x_b − x_a). Each thread takes ba_slots slots (grid-stride, so that a warp's loads are
 * coalesced) and inverts the product of their denominators once (Montgomery's trick): the prefix products are
 * parked in the x of each pair's output slot on the way forward and read back on the way back. Per addition this
 * costs 5M + 1S and a ba_slots-th of an inversion, against 8M + 2S for a mixed XYZZ addition. Doubling (a = b) takes
 * 2y as its denominator; a = −b and infinity on either side need none (denominator 1). */
#define BA_MAX_ROUNDS 24

enum { BA_ADD, BA_DBL, BA_LEFT, BA_RIGHT, BA_INF };

/* Slot s of a round over m entries holds positions b − 1 and b, b = 2s + 1 − q: which of them are entries with a
 * non-zero digit, and whether the two pair up (same key). */
typedef struct {
    size_t b;
    bool left, right, paired;
} ba_slot_t;
static __device__ __forceinline__ ba_slot_t ba_slot(const uint32_t *keys, size_t m, size_t s, unsigned q,
                                                     uint32_t digit_mask)
{
    ba_slot_t x;
    x.b = 2 * s + 1 - q;
    x.left = x.b >= 1 && x.b - 1 < m && (keys[x.b - 1] & digit_mask) != 0;
    x.right = x.b < m && (keys[x.b] & digit_mask) != 0;
    x.paired = x.left && x.right && keys[x.b - 1] == keys[x.b];
    return x;
}

/* output count of each slot; slots past the list's end give 0 */
__global__ void k_ba_count(uint32_t *cnt, const uint32_t *keys, const uint32_t *m_dev, size_t m_host,
                           size_t slots, unsigned q, uint32_t digit_mask)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= slots) return;
    ba_slot_t x = ba_slot(keys, items_of(m_dev, m_host), s, q, digit_mask);
    cnt[s] = x.paired ? 1u : (uint32_t)x.left + (uint32_t)x.right;
}

/* the next list's length: the exclusive sum's last entry plus the last count */
__global__ void k_ba_total(uint32_t *m_next, const uint32_t *off, const uint32_t *cnt, size_t slots)
{
    *m_next = off[slots - 1] + cnt[slots - 1];
}

/* entry e of the round's list: the first round reads the bases by index, with the sign of the digit */
template <typename F, bool FIRST>
static __device__ __forceinline__ daff<F> ba_point(const daff<F> *pts, const uint32_t *vals, size_t e)
{
    if (!FIRST) return ld16(&pts[e]);
    uint32_t v = vals[e];
    daff<F> p = ld16(&pts[v & MSM_IDX_MASK]);
    if (v & MSM_SIGN) f_neg(&p.y, &p.y); /* −0 = 0: infinity stays (0, 0) */
    return p;
}
template <typename F, bool FIRST>
static __device__ __forceinline__ F ba_x(const daff<F> *pts, const uint32_t *vals, size_t e)
{
    return ld16(&pts[FIRST ? vals[e] & MSM_IDX_MASK : e].x);
}

/* the kind of a + b and its denominator */
template <typename F> static __device__ __forceinline__ int ba_kind(F *d, const daff<F> &a, const daff<F> &b)
{
    if (aff_is_inf(&b)) {
        f_set_one(d);
        return BA_LEFT;
    }
    if (aff_is_inf(&a)) {
        f_set_one(d);
        return BA_RIGHT;
    }
    f_sub(d, &b.x, &a.x);
    if (!f_is_zero(d)) return BA_ADD;
    F t;
    f_sub(&t, &b.y, &a.y);
    if (f_is_zero(&t) && !f_is_zero(&a.y)) {
        f_add(d, &a.y, &a.y);
        return BA_DBL;
    }
    f_set_one(d);
    return BA_INF;
}

/* the denominator from the x's alone when they settle it (neither x zero, x's apart: an ordinary addition) */
template <typename F, bool FIRST>
static __device__ __forceinline__ void ba_denominator(F *d, const daff<F> *pts, const uint32_t *vals, size_t a)
{
    F xa = ba_x<F, FIRST>(pts, vals, a), xb = ba_x<F, FIRST>(pts, vals, a + 1);
    f_sub(d, &xb, &xa);
    if (!f_is_zero(d) && !f_is_zero(&xa) && !f_is_zero(&xb)) return;
    daff<F> pa = ba_point<F, FIRST>(pts, vals, a), pb = ba_point<F, FIRST>(pts, vals, a + 1);
    ba_kind(d, pa, pb);
}

template <typename F, bool FIRST, int MINB>
__global__ void __launch_bounds__(128, MINB) k_ba_pair(daff<F> *out, uint32_t *keys_out, const daff<F> *pts,
                                                 const uint32_t *vals, const uint32_t *keys, const uint32_t *off,
                                                 const uint32_t *m_dev, size_t m_host, unsigned q, uint32_t digit_mask)
{
    size_t m = items_of(m_dev, m_host), slots = (m + q + 1) / 2;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, T = (size_t)gridDim.x * blockDim.x;
    if (t >= slots) return;
    /* forward: prefix products of the pairs' denominators, each parked in its output's x */
    F run;
    f_set_one(&run);
    bool any = false;
    for (size_t s = t; s < slots; s += T) {
        ba_slot_t x = ba_slot(keys, m, s, q, digit_mask);
        if (!x.paired) continue;
        F d;
        ba_denominator<F, FIRST>(&d, pts, vals, x.b - 1);
        st16(&out[off[s]].x, run);
        f_mul(&run, &run, &d);
        any = true;
    }
    F inv;
    if (any) f_inv(&inv, &run);
    /* backward: each pair's inverse from the running inverse and its parked prefix; unpaired entries copied */
    size_t last = t + (slots - 1 - t) / T * T;
    for (size_t s = last;; s -= T) {
        ba_slot_t x = ba_slot(keys, m, s, q, digit_mask);
        size_t b = x.b, o = off[s];
        if (x.paired) {
            daff<F> pa = ba_point<F, FIRST>(pts, vals, b - 1), pb = ba_point<F, FIRST>(pts, vals, b), r;
            F d, inv_d, pre = ld16(&out[o].x);
            int kind = ba_kind(&d, pa, pb);
            f_mul(&inv_d, &inv, &pre);
            f_mul(&inv, &inv, &d);
            if (kind == BA_ADD || kind == BA_DBL) {
                F num, lam, t2;
                if (kind == BA_ADD) {
                    f_sub(&num, &pb.y, &pa.y);
                } else {
                    f_sqr(&t2, &pa.x);
                    f_add(&num, &t2, &t2);
                    f_add(&num, &num, &t2); /* 3x² */
                }
                f_mul(&lam, &num, &inv_d);
                f_sqr(&t2, &lam);
                f_sub(&t2, &t2, &pa.x);
                f_sub(&r.x, &t2, &pb.x);  /* x3 = λ² − xa − xb */
                f_sub(&t2, &pa.x, &r.x);
                f_mul(&t2, &lam, &t2);
                f_sub(&r.y, &t2, &pa.y);  /* y3 = λ(xa − x3) − ya */
            } else if (kind == BA_LEFT) {
                r = pa;
            } else if (kind == BA_RIGHT) {
                r = pb;
            } else {
                f_set_zero(&r.x), f_set_zero(&r.y);
            }
            st16(&out[o], r);
            keys_out[o] = keys[b];
        } else {
            if (x.left) {
                st16(&out[o], ba_point<F, FIRST>(pts, vals, b - 1));
                keys_out[o++] = keys[b - 1];
            }
            if (x.right) {
                st16(&out[o], ba_point<F, FIRST>(pts, vals, b));
                keys_out[o] = keys[b];
            }
        }
        if (s < T) break;
    }
}

/* segment (w, k) of window w: buckets b = k·Ls + 1 .. (k + 1)·Ls; out[w·nseg + k] = Σ b·S_b over them */
template <typename F>
__global__ void k_bucket_segments(dxyzz<F> *out, const dxyzz<F> *buckets, unsigned nw, uint32_t nb, uint32_t Ls,
                                  uint32_t nseg)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)nw * nseg) return;
    uint32_t w = (uint32_t)(t / nseg), k = (uint32_t)(t % nseg);
    const dxyzz<F> *bk = buckets + (size_t)w * (nb + 1);
    dxyzz<F> run, tot, s;
    xyzz_set_inf(&run);
    xyzz_set_inf(&tot);
    uint32_t base = k * Ls;
    for (uint32_t b = base + Ls; b > base; b--) {
        s = ld16(&bk[b]);
        xyzz_add(&run, &run, &s);
        xyzz_add(&tot, &tot, &run); /* tot = Σ (b − base)·S_b */
    }
    /* + base·run, double-and-add from the top bit */
    dxyzz<F> m;
    xyzz_set_inf(&m);
    for (int bit = 31; bit >= 0; bit--) {
        if (!xyzz_is_inf(&m)) xyzz_dbl(&m, &m);
        if ((base >> bit) & 1) xyzz_add(&m, &m, &run);
    }
    xyzz_add(&tot, &tot, &m);
    st16(&out[t], tot);
}

/* rows of `stride` points, the first m of each row live: out[r·stride + i] = in[r·stride + 2i] + in[... + 2i + 1] */
template <typename F>
__global__ void k_pair_sum(dxyzz<F> *out, const dxyzz<F> *in, unsigned rows, size_t stride, size_t m)
{
    size_t half = (m + 1) / 2;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)rows * half) return;
    size_t r = t / half, i = t % half;
    dxyzz<F> a = ld16(&in[r * stride + 2 * i]);
    if (2 * i + 1 < m) {
        dxyzz<F> b = ld16(&in[r * stride + 2 * i + 1]);
        xyzz_add(&a, &a, &b);
    }
    st16(&out[r * stride + i], a);
}

/* word w of the bitmap with only the bits of positions [lo, hi) kept */
static __device__ __forceinline__ uint64_t bits_in_range(const uint64_t *bitmap, size_t w, size_t lo, size_t hi)
{
    uint64_t b = bitmap[w];
    if (w == lo >> 6) b &= ~(uint64_t)0 << (lo & 63);
    if (w == (hi - 1) >> 6 && (hi & 63) != 0) b &= ((uint64_t)1 << (hi & 63)) - 1;
    return b;
}

/* partial sums of the bitmap-selected bases: thread t takes bases [tL, tL + L). Each iteration adds the next selected
 * base, found by a short scan of its own: the lanes of a warp meet again at every addition. (A test per position made
 * each lane wait through every addition any other lane needed: with 41 % of the positions selected, 41 % of the lanes
 * were busy and L's batch addition took 85 ms at 2^27.) */
template <typename F, int MINB>
__global__ void __launch_bounds__(128, MINB) k_batch_partial(dxyzz<F> *out, const daff<F> *bases,
                                                             const uint64_t *bitmap, size_t n, size_t L, size_t parts)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= parts) return;
    dxyzz<F> acc;
    xyzz_set_inf(&acc);
    size_t lo = t * L, hi = lo + L < n ? lo + L : n;
    size_t w = lo >> 6, wend = (hi - 1) >> 6;
    uint64_t bits = bits_in_range(bitmap, w, lo, hi);
    for (;;) {
        while (bits == 0 && w < wend) bits = bits_in_range(bitmap, ++w, lo, hi);
        if (bits == 0) break;
        size_t i = (w << 6) + (unsigned)(__ffsll((long long)bits) - 1);
        bits &= bits - 1;
        daff<F> b = ld16(&bases[i]);
        if (aff_is_inf(&b)) continue;
        xyzz_madd(&acc, b.x, b.y);
    }
    st16(&out[t], acc);
}

/* ---- host side --------------------------------------------------------------------------------------------------- */
/* resident blocks per SM the accumulation kernels of F's curve are compiled for (cuzk_gpu_msm_opts.variant) */
template <typename F> static unsigned minb_of(const cuzk_gpu_msm_opts *o)
{
    bool g1 = sizeof(F) == sizeof(dfp);
    unsigned m = (variant_bits(o) >> (g1 ? 0 : 4)) & 15;
    return m != 0 ? m : g1 ? 4 : 1;
}

/* the coordinate field the variant asks for: F, or its other flavour (ec/ec.cuh); G2 has none measured faster */
template <typename F> struct flavour_of {
    typedef F T;
    static const unsigned bit = 0;
};
template <> struct flavour_of<dfp> {
    typedef dfp_sq T;
    static const unsigned bit = MSM_VARIANT_G1_SQR;
};

template <typename F>
static void launch_accumulate(const cuzk_gpu_msm_opts *o, unsigned grid, dxyzz<F> *buckets, dxyzz<F> *heads, dxyzz<F> *tails, const uint32_t *keys,
                              const uint32_t *vals, const daff<F> *bases, size_t items, const uint32_t *count, size_t L,
                              unsigned c, unsigned j0, uint32_t nb)
{
    if (minb_of<F>(o) == 4)
        k_accumulate<F, 4><<<grid, 128>>>(buckets, heads, tails, keys, vals, bases, items, count, L, c, j0, nb);
    else k_accumulate<F, 1><<<grid, 128>>>(buckets, heads, tails, keys, vals, bases, items, count, L, c, j0, nb);
}

template <typename F>
static void launch_batch_partial(const cuzk_gpu_msm_opts *o, unsigned grid, dxyzz<F> *out, const daff<F> *bases, const uint64_t *bitmap, size_t n,
                                 size_t L, size_t parts)
{
    if (minb_of<F>(o) == 4) k_batch_partial<F, 4><<<grid, 128>>>(out, bases, bitmap, n, L, parts);
    else k_batch_partial<F, 1><<<grid, 128>>>(out, bases, bitmap, n, L, parts);
}

template <typename F>
static void launch_ba_pair(const cuzk_gpu_msm_opts *o, bool first, unsigned grid, daff<F> *out, uint32_t *keys_out, const daff<F> *pts,
                           const uint32_t *vals, const uint32_t *keys, const uint32_t *off, const uint32_t *len,
                           size_t m, unsigned q, uint32_t digit_mask)
{
#define BA_PAIR(FIRST, MINB) \
    k_ba_pair<F, FIRST, MINB><<<grid, 128>>>(out, keys_out, pts, vals, keys, off, len, m, q, digit_mask)
    bool capped = minb_of<F>(o) == 4;
    if (first) capped ? BA_PAIR(true, 4) : BA_PAIR(true, 1);
    else capped ? BA_PAIR(false, 4) : BA_PAIR(false, 1);
#undef BA_PAIR
}

static unsigned blocks_for(size_t threads, unsigned per) { return (unsigned)((threads + per - 1) / per); }

/* Halves rows × m points at a (stride apart) until one per row is left; returns the buffer holding the result. */
template <typename F>
static cuzk_status pair_sum_all(dxyzz<F> **res, dxyzz<F> *a, dxyzz<F> *b, unsigned rows, size_t stride, size_t m)
{
    while (m > 1) {
        size_t half = (m + 1) / 2;
        k_pair_sum<F><<<blocks_for((size_t)rows * half, 128), 128>>>(b, a, rows, stride, m);
        CUZK_CUDA_LAUNCHED();
        dxyzz<F> *t = a;
        a = b, b = t;
        m = half;
    }
    *res = a;
    return CUZK_OK;
}

/* The batch-affine rounds of one group of `items` sorted entries with at most `runs` distinct non-zero keys: as many
 * rounds as the bound on the list's length (m/2 + runs after a round of m) keeps an average run of min_run. */
typedef struct {
    unsigned rounds;
    size_t len[BA_MAX_ROUNDS + 1]; /* bound on each round's list: len[0] = items, len[rounds] is what is left */
    size_t slice;                  /* L of the accumulation over what is left */
} ba_plan;

static void ba_plan_make(ba_plan *b, size_t items, size_t runs, bool on, unsigned min_run)
{
    b->rounds = 0;
    b->len[0] = items;
    size_t m = items;
    while (on && b->rounds < BA_MAX_ROUNDS && m >= (size_t)min_run * runs && m > 1) {
        size_t next = m / 2 + runs;
        m = next < m ? next : m;
        b->len[++b->rounds] = m;
    }
    size_t L = (m + ((size_t)1 << 18) - 1) >> 18; /* at most 2^18 slices: no more than the sorted list's */
    b->slice = L < 8 ? 8 : L;
}

/* batch-affine rounds for an MSM of n points */
template <typename F> static bool ba_on(const cuzk_gpu_msm_opts *o, size_t n)
{
    unsigned v = variant_bits(o);
    if (sizeof(F) != sizeof(dfp)) return (v & MSM_VARIANT_G2_BA) != 0;
    return (v & MSM_VARIANT_G1_BA) != 0 || (n >= MSM_G1_BA_MIN && !(v & MSM_VARIANT_G1_NO_BA));
}

typedef struct {
    size_t keys, heads, buckets, seg, cub; /* keys: each of the four pair arrays; heads: heads and tails; seg: each */
    size_t ba_pts[2], ba_slot_bytes;       /* batch-affine lists, and each slot array (bytes) */
} scratch_sizes;

/* The bytes of each scratch buffer one plan needs (point_bytes: one XYZZ point). */
static void scratch_sizes_of(scratch_sizes *z, const msm_plan_t *p, size_t point_bytes)
{
    memset(z, 0, sizeof *z);
    z->keys = p->items * 4;
    z->heads = p->slices * point_bytes;
    z->buckets = (size_t)p->nw * (p->nb + 1) * point_bytes;
    z->seg = (size_t)p->nw * p->nseg * point_bytes;
    if (cub::DeviceRadixSort::SortPairs(NULL, z->cub, (uint32_t *)NULL, (uint32_t *)NULL, (uint32_t *)NULL,
                                        (uint32_t *)NULL, (int)p->items, 0, (int)p->key_bits) != cudaSuccess) {
        cudaGetLastError();
        z->cub = p->items * 8; /* generous when the query fails */
    }
    ba_plan bp;
    ba_plan_make(&bp, p->items, (size_t)p->gw * p->nb, p->ba, p->ba_min_run);
    if (bp.rounds == 0) return;
    size_t aff = point_bytes / 2, slots = (p->items + 2) / 2, scan = 0;
    z->ba_pts[0] = bp.len[1] * aff;
    z->ba_pts[1] = bp.rounds > 1 ? bp.len[2] * aff : 0;
    z->ba_slot_bytes = slots * 4;
    if (cub::DeviceScan::ExclusiveSum(NULL, scan, (uint32_t *)NULL, (uint32_t *)NULL, (int)slots) != cudaSuccess) {
        cudaGetLastError();
        scan = slots * 8;
    }
    if (scan > z->cub) z->cub = scan;
}

static void scratch_max(scratch_sizes *a, const scratch_sizes *b)
{
    if (b->keys > a->keys) a->keys = b->keys;
    if (b->heads > a->heads) a->heads = b->heads;
    if (b->buckets > a->buckets) a->buckets = b->buckets;
    if (b->seg > a->seg) a->seg = b->seg;
    if (b->cub > a->cub) a->cub = b->cub;
    for (int i = 0; i < 2; i++)
        if (b->ba_pts[i] > a->ba_pts[i]) a->ba_pts[i] = b->ba_pts[i];
    if (b->ba_slot_bytes > a->ba_slot_bytes) a->ba_slot_bytes = b->ba_slot_bytes;
}

/* Grows the context's buffers to at least z: only when a larger problem (or a wider window) comes along. */
static cuzk_status scratch_grow(cuzk_gpu_msm_ctx *x, const scratch_sizes *z)
{
    for (int i = 0; i < 2; i++) {
        CUZK_TRY(grow((void **)&x->keys[i], &x->cap_keys[i], z->keys));
        CUZK_TRY(grow((void **)&x->vals[i], &x->cap_vals[i], z->keys));
        CUZK_TRY(grow(&x->seg[i], &x->cap_seg[i], z->seg));
    }
    CUZK_TRY(grow(&x->heads, &x->cap_heads, z->heads));
    CUZK_TRY(grow(&x->tails, &x->cap_tails, z->heads));
    CUZK_TRY(grow(&x->buckets, &x->cap_buckets, z->buckets));
    CUZK_TRY(grow(&x->cub_tmp, &x->cap_cub, z->cub));
    if (z->ba_slot_bytes == 0) return CUZK_OK;
    for (int i = 0; i < 2; i++) CUZK_TRY(grow(&x->ba_pts[i], &x->cap_ba_pts[i], z->ba_pts[i]));
    CUZK_TRY(grow((void **)&x->ba_cnt, &x->cap_ba_cnt, z->ba_slot_bytes));
    CUZK_TRY(grow((void **)&x->ba_off, &x->cap_ba_off, z->ba_slot_bytes));
    CUZK_TRY(grow((void **)&x->ba_len, &x->cap_ba_len, (BA_MAX_ROUNDS + 1) * sizeof(uint32_t)));
    return CUZK_OK;
}

/* z grown to what any MSM of at most n points needs. The scratch follows the pairs sorted at once, gw·n, which does
 * not fall with n: a smaller n may take a narrower window (so more windows) or more windows per group, and a
 * proof's tail MSMs have sizes only its witness decides. The largest n' ≤ n of each narrower window and of each
 * windows-per-group count are the places where it peaks, so the plans for those and for n are taken. */
static void scratch_cover(const cuzk_gpu_msm_opts *o, scratch_sizes *z, size_t n, size_t point_bytes,
                          size_t ba_point_bytes)
{
    size_t cand[2 + 22 + 64];
    unsigned nc = 0;
    cand[nc++] = n;
    for (unsigned w = 4; !o->window && w < cuzk_gpu_msm_window_for(n); w++) {
        size_t lo = 0, hi = n; /* the largest n' ≤ n whose window is at most w (the window grows with n) */
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            if (cuzk_gpu_msm_window_for(mid) <= w) lo = mid;
            else hi = mid - 1;
        }
        if (lo > 0) cand[nc++] = lo;
    }
    size_t cap = group_cap(o, ba_point_bytes);
    for (size_t k = 1; k <= 64; k++)
        if (cap / k >= 1 && cap / k < n) cand[nc++] = cap / k;
    msm_plan_t p;
    scratch_sizes one;
    for (unsigned i = 0; i < nc; i++) {
        plan_make(o, &p, cand[i], ba_point_bytes, point_bytes == sizeof(g1x));
        scratch_sizes_of(&one, &p, point_bytes);
        scratch_max(z, &one);
    }
}

/* What cuzk_gpu_msm_ctx_reserve(n_g1, n_g2) grows to: each buffer the largest need of any G1 MSM of at most n_g1 points
 * and any G2 MSM of at most n_g2, and the batch additions' partial sums. */
static void scratch_for(const cuzk_gpu_msm_opts *o, scratch_sizes *z, size_t n_g1, size_t n_g2)
{
    memset(z, 0, sizeof *z);
    z->seg = (size_t)MSM_PARTIALS * (n_g2 > 0 ? sizeof(g2x) : sizeof(g1x));
    /* the rounds' lists for every size when the largest takes them: plans differ only in those (same group cap) */
    if (n_g1 > 0) scratch_cover(o, z, n_g1, sizeof(g1x), ba_on<dfp>(o, n_g1) ? sizeof(g1a) : 0);
    if (n_g2 > 0) scratch_cover(o, z, n_g2, sizeof(g2x), ba_on<dfp2>(o, n_g2) ? sizeof(g2a) : 0);
}

extern "C" cuzk_status cuzk_gpu_msm_ctx_reserve(cuzk_gpu_msm_ctx *x, size_t n_g1, size_t n_g2)
{
    if (x == NULL) return CUZK_ERR_INVALID_ARG;
    scratch_sizes z;
    scratch_for(&x->opts, &z, n_g1, n_g2);
    return scratch_grow(x, &z);
}

/* The batch-affine rounds of one group (sorted pairs in keys[1], vals[1]); the list they leave: keys, points and
 * the device's count of them. */
template <typename F>
static cuzk_status ba_rounds(cuzk_gpu_msm_ctx *x, const ba_plan *bp, const daff<F> *bases, unsigned c,
                             const uint32_t **keys_left, const daff<F> **pts_left, const uint32_t **count_left)
{
    const uint32_t *keys = x->keys[1], *vals = x->vals[1];
    const daff<F> *pts = bases;
    uint32_t digit_mask = (1u << c) - 1;
    for (unsigned r = 0; r < bp->rounds; r++) {
        size_t m = bp->len[r], slots = (m + 2) / 2, per = ba_slots(&x->opts), threads = (slots + per - 1) / per;
        unsigned q = r & 1;
        const uint32_t *len = r == 0 ? NULL : &x->ba_len[r];
        uint32_t *keys_out = r % 2 == 0 ? x->keys[0] : x->vals[0]; /* the sort's inputs, free now */
        daff<F> *out = (daff<F> *)x->ba_pts[r % 2];
        k_ba_count<<<blocks_for(slots, 256), 256>>>(x->ba_cnt, keys, len, m, slots, q, digit_mask);
        CUZK_CUDA_LAUNCHED();
        size_t tmp = x->cap_cub;
        CUZK_CUDA(cub::DeviceScan::ExclusiveSum(x->cub_tmp, tmp, x->ba_cnt, x->ba_off, (int)slots));
        k_ba_total<<<1, 1>>>(&x->ba_len[r + 1], x->ba_off, x->ba_cnt, slots);
        CUZK_CUDA_LAUNCHED();
        launch_ba_pair<F>(&x->opts, r == 0, blocks_for(threads, 128), out, keys_out, pts, vals, keys, x->ba_off, len, m, q,
                          digit_mask);
        CUZK_CUDA_LAUNCHED();
        keys = keys_out;
        pts = out;
    }
    *keys_left = keys;
    *pts_left = pts;
    *count_left = &x->ba_len[bp->rounds];
    return CUZK_OK;
}

template <typename F>
static cuzk_status msm_run(void *win_host, cuzk_gpu_msm_ctx *x, const daff<F> *bases, const uint32_t *idx,
                           const dfr *scalars, size_t n, unsigned *c_out, unsigned *nw_out)
{
    typedef dxyzz<F> X;
    msm_plan_t p;
    const cuzk_gpu_msm_opts *o = &x->opts;
    plan_make(o, &p, n, ba_on<F>(o, n) ? sizeof(daff<F>) : 0, sizeof(F) == sizeof(dfp));
    *c_out = p.c, *nw_out = p.nw;
    scratch_sizes need;
    scratch_sizes_of(&need, &p, sizeof(X));
    CUZK_TRY(scratch_grow(x, &need));

    /* profiling: ev[0] start, per group ev[1 + 2g] after the sort and ev[2 + 2g] after the accumulation, then the
     * end of the reduction and of the copy */
    cudaEvent_t ev[2 * 128 + 4];
    unsigned nev = 0, groups = (p.nw + p.gw - 1) / p.gw;
    if (o->profile) {
        for (unsigned i = 0; i < 2 * groups + 3; i++) CUZK_CUDA(cudaEventCreate(&ev[i]));
        CUZK_CUDA(cudaEventRecord(ev[nev++]));
    }
    X *buckets = (X *)x->buckets;
    CUZK_CUDA(cudaMemsetAsync(buckets, 0, need.buckets)); /* empty buckets: infinity */
    for (unsigned j0 = 0; j0 < p.nw; j0 += p.gw) {
        unsigned gw = p.nw - j0 < p.gw ? p.nw - j0 : p.gw;
        size_t items = (size_t)gw * n;
        unsigned lg = 0;
        while ((1u << lg) < gw) lg++;
        k_digits<<<blocks_for(n, 256), 256>>>(x->keys[0], x->vals[0], scalars, idx, n, p.c, j0, gw, x->canonical);
        CUZK_CUDA_LAUNCHED();
        size_t tmp = x->cap_cub;
        CUZK_CUDA(cub::DeviceRadixSort::SortPairs(x->cub_tmp, tmp, x->keys[0], x->keys[1], x->vals[0], x->vals[1],
                                                  (int)items, 0, (int)(p.c + lg)));
        if (o->profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
        /* the sorted list, or the shorter one the batch-affine rounds leave (its length on the device) */
        const uint32_t *keys = x->keys[1], *vals = x->vals[1], *count = NULL;
        const daff<F> *pts = bases;
        size_t L = p.slice;
        ba_plan bp;
        ba_plan_make(&bp, items, (size_t)gw * p.nb, p.ba, p.ba_min_run);
        if (bp.rounds > 0) {
            CUZK_TRY(ba_rounds<F>(x, &bp, bases, p.c, &keys, &pts, &count));
            vals = NULL;
            items = bp.len[bp.rounds];
            L = bp.slice;
        }
        size_t slices = (items + L - 1) / L;
        launch_accumulate<F>(o, blocks_for(slices, 128), buckets, (X *)x->heads, (X *)x->tails, keys, vals, pts, items,
                             count, L, p.c, j0, p.nb);
        CUZK_CUDA_LAUNCHED();
        for (unsigned r = 0; ((size_t)2 << r) < slices; r++) {
            k_heads_tree<F><<<blocks_for(slices >> (r + 1), 128), 128>>>((X *)x->heads, keys, count, L, slices, r);
            CUZK_CUDA_LAUNCHED();
        }
        k_fixup<F><<<blocks_for(slices, 128), 128>>>(buckets, (const X *)x->heads, (const X *)x->tails, keys, items,
                                                     count, L, p.c, j0, p.nb);
        CUZK_CUDA_LAUNCHED();
        if (o->profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
    }
    X *seg0 = (X *)x->seg[0], *seg1 = (X *)x->seg[1], *res;
    k_bucket_segments<F><<<blocks_for((size_t)p.nw * p.nseg, 64), 64>>>(seg0, buckets, p.nw, p.nb, p.seg_len,
                                                                        p.nseg);
    CUZK_CUDA_LAUNCHED();
    CUZK_TRY(pair_sum_all<F>(&res, seg0, seg1, p.nw, p.nseg, p.nseg));
    if (o->profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
    CUZK_CUDA(cudaMemcpy2D(win_host, sizeof(X), res, p.nseg * sizeof(X), sizeof(X), p.nw, cudaMemcpyDeviceToHost));
    CUZK_CUDA(cudaGetLastError());
    if (o->profile) {
        CUZK_CUDA(cudaEventRecord(ev[nev++]));
        CUZK_CUDA(cudaEventSynchronize(ev[nev - 1]));
        float sort = 0, acc = 0, red = 0, copy = 0, t;
        for (unsigned g = 0; g < groups; g++) {
            CUZK_CUDA(cudaEventElapsedTime(&t, ev[2 * g], ev[2 * g + 1]));
            sort += t;
            CUZK_CUDA(cudaEventElapsedTime(&t, ev[2 * g + 1], ev[2 * g + 2]));
            acc += t;
        }
        CUZK_CUDA(cudaEventElapsedTime(&red, ev[2 * groups], ev[2 * groups + 1]));
        CUZK_CUDA(cudaEventElapsedTime(&copy, ev[2 * groups + 1], ev[2 * groups + 2]));
        fprintf(stderr,
                "msm profile: %s n=%zu c=%u windows=%u groups=%u slice=%zu segment=%u: memset+digits+sort %.3f ms, "
                "accumulate+fixup %.3f ms, bucket reduction %.3f ms, copy %.3f ms\n",
                sizeof(F) == sizeof(dfp) ? "G1" : "G2", n, p.c, p.nw, groups, p.slice, p.seg_len, sort, acc, red,
                copy);
        for (unsigned i = 0; i < nev; i++) cudaEventDestroy(ev[i]);
    }
    return CUZK_OK;
}

template <typename F>
static cuzk_status batch_run(void *sum_host, cuzk_gpu_msm_ctx *x, const daff<F> *bases, const uint64_t *bitmap, size_t n)
{
    typedef dxyzz<F> X;
    const cuzk_gpu_msm_opts *o = &x->opts;
    size_t L = (n + MSM_PARTIALS - 1) / MSM_PARTIALS;
    if (L < 16) L = 16;
    size_t parts = (n + L - 1) / L;
    for (int i = 0; i < 2; i++) CUZK_TRY(grow(&x->seg[i], &x->cap_seg[i], parts * sizeof(X)));
    X *res;
    cudaEvent_t ev[2];
    if (o->profile) {
        for (int i = 0; i < 2; i++) CUZK_CUDA(cudaEventCreate(&ev[i]));
        CUZK_CUDA(cudaEventRecord(ev[0]));
    }
    launch_batch_partial<F>(o, blocks_for(parts, 128), (X *)x->seg[0], bases, bitmap, n, L, parts);
    CUZK_CUDA_LAUNCHED();
    CUZK_TRY(pair_sum_all<F>(&res, (X *)x->seg[0], (X *)x->seg[1], 1, parts, parts));
    if (o->profile) CUZK_CUDA(cudaEventRecord(ev[1]));
    CUZK_CUDA(cudaMemcpy(sum_host, res, sizeof(X), cudaMemcpyDeviceToHost));
    if (o->profile) {
        float ms;
        CUZK_CUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
        fprintf(stderr, "batch-add profile: %s n=%zu slice=%zu: %.3f ms\n", sizeof(F) == sizeof(dfp) ? "G1" : "G2", n,
                L, ms);
        for (int i = 0; i < 2; i++) cudaEventDestroy(ev[i]);
    }
    return CUZK_OK;
}

template <typename F>
static cuzk_status msm_flavoured(void *win_host, cuzk_gpu_msm_ctx *x, const void *bases, const uint32_t *idx,
                                 const dfr *scalars, size_t n, unsigned *c_out, unsigned *nw_out)
{
    typedef typename flavour_of<F>::T A;
    if (variant_bits(&x->opts) & flavour_of<F>::bit)
        return msm_run<A>(win_host, x, (const daff<A> *)bases, idx, scalars, n, c_out, nw_out);
    return msm_run<F>(win_host, x, (const daff<F> *)bases, idx, scalars, n, c_out, nw_out);
}

template <typename F>
static cuzk_status batch_flavoured(void *sum_host, cuzk_gpu_msm_ctx *x, const void *bases, const uint64_t *bitmap, size_t n)
{
    typedef typename flavour_of<F>::T A;
    if (variant_bits(&x->opts) & flavour_of<F>::bit) return batch_run<A>(sum_host, x, (const daff<A> *)bases, bitmap, n);
    return batch_run<F>(sum_host, x, (const daff<F> *)bases, bitmap, n);
}

#define WINDOWS_MAX 128

/* Horner over the window sums (host): Σ_j 2^(jc)·W_j */
#define MSM_ENTRY(G, F, AFF, JAC)                                                                                      \
    static cuzk_status cuzk_##G##_msm_any(JAC *r, const AFF *bases, const uint32_t *idx, const cuzk_fr_t *scalars, size_t n,     \
                                   cuzk_gpu_msm_ctx *ctx)                                                                  \
    {                                                                                                                  \
        if (n > MSM_IDX_MASK) return CUZK_ERR_INVALID_ARG;                                                             \
        if (n == 0) {                                                                                                  \
            cuzk_##G##_jac_set_infinity(r);                                                                                   \
            return CUZK_OK;                                                                                            \
        }                                                                                                              \
        cuzk_##G##_xyzz_t win[WINDOWS_MAX], acc;                                                                              \
        unsigned c, nw;                                                                                                \
        CUZK_TRY(msm_flavoured<F>(win, ctx, bases, idx, (const dfr *)scalars, n, &c, &nw));                           \
        acc = win[nw - 1];                                                                                             \
        for (unsigned j = nw - 1; j-- > 0;) {                                                                          \
            for (unsigned i = 0; i < c; i++) cuzk_##G##_xyzz_dbl(&acc, &acc);                                                 \
            cuzk_##G##_xyzz_add(&acc, &acc, &win[j]);                                                                         \
        }                                                                                                              \
        cuzk_##G##_xyzz_to_jac(r, &acc);                                                                                      \
        return CUZK_OK;                                                                                                \
    }                                                                                                                  \
    extern "C" cuzk_status cuzk_gpu_##G##_msm(JAC *r, const AFF *bases, const cuzk_fr_t *scalars, size_t n, cuzk_gpu_msm_ctx *ctx)  \
    {                                                                                                                  \
        return cuzk_##G##_msm_any(r, bases, NULL, scalars, n, ctx);                                                           \
    }                                                                                                                  \
    extern "C" cuzk_status cuzk_gpu_##G##_msm_idx(JAC *r, const AFF *bases, const uint32_t *idx, const cuzk_fr_t *scalars,     \
                                             size_t n, cuzk_gpu_msm_ctx *ctx)                                               \
    {                                                                                                                  \
        return cuzk_##G##_msm_any(r, bases, idx, scalars, n, ctx);                                                            \
    }
MSM_ENTRY(g1, dfp, cuzk_g1_affine_t, cuzk_g1_jac_t)
MSM_ENTRY(g2, dfp2, cuzk_g2_affine_t, cuzk_g2_jac_t)
#undef MSM_ENTRY

extern "C" cuzk_status cuzk_gpu_g1_batch_add(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const uint64_t *bitmap, size_t n,
                                        cuzk_gpu_msm_ctx *ctx)
{
    if (n == 0) {
        cuzk_g1_jac_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g1_xyzz_t s;
    CUZK_TRY(batch_flavoured<dfp>(&s, ctx, bases, bitmap, n));
    cuzk_g1_xyzz_to_jac(r, &s);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_g2_batch_add(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const uint64_t *bitmap, size_t n,
                                        cuzk_gpu_msm_ctx *ctx)
{
    if (n == 0) {
        cuzk_g2_jac_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g2_xyzz_t s;
    CUZK_TRY(batch_flavoured<dfp2>(&s, ctx, bases, bitmap, n));
    cuzk_g2_xyzz_to_jac(r, &s);
    return CUZK_OK;
}

/* Device bytes cuzk_gpu_msm_ctx_reserve(n_g1, n_g2) grows a new context to (sort pairs, slice heads and tails, buckets,
 * reduction segments, cub's temporary storage; each the larger of the G1 and the G2 plan's). */
extern "C" uint64_t cuzk_g16_gpu_msm_scratch_bytes(size_t n_g1, size_t n_g2)
{
    scratch_sizes z;
    scratch_for(&DEFAULT_OPTS, &z, n_g1, n_g2);
    return 4 * (uint64_t)z.keys + 2 * (uint64_t)z.heads + z.buckets + 2 * (uint64_t)z.seg + z.cub + z.ba_pts[0] +
           z.ba_pts[1] + (z.ba_slot_bytes != 0 ? 2 * (uint64_t)z.ba_slot_bytes + (BA_MAX_ROUNDS + 1) * sizeof(uint32_t) : 0);
}
