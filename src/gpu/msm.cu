/* GPU multi-scalar multiplication Σ [k_i] P_i over G1 and G2 (Pippenger), and bitmap-selected batch addition.
 *
 * One MSM, all on the default stream, with a single host synchronization at the very end (the window sums come
 * back, nw points, and are combined on the host by Horner's rule: c doublings per window):
 *   1. k_digits: each scalar (Fr, Montgomery) is brought to canonical form (one multiplication by 1) and cut into
 *      signed c-bit digits d_j in [−2^(c−1), 2^(c−1)] (Booth: the window's bits plus the bit below, minus 2^c times
 *      its top bit; windows are independent, no carry chain). For window j of the group being processed it writes
 *      the pair (key = j_local·2^c + |d|, value = point index | sign bit).
 *   2. cub::DeviceRadixSort sorts the pairs by key over c + log2(group windows) bits: points of one bucket become
 *      one contiguous run, the buckets of all windows of the group one after the other.
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

#include "curve.cuh"
#include "gpu_internal.cuh"

#define MSM_SIGN 0x80000000u
#define MSM_IDX_MASK 0x7fffffffu
#define MSM_MAX_C 24
#define MSM_PARTIALS 65536 /* batch addition: partial sums (one per thread) */

typedef daff<dfp> g1a;
typedef dxyzz<dfp> g1x;
typedef daff<dfp2> g2a;
typedef dxyzz<dfp2> g2x;

/* ---- knobs ------------------------------------------------------------------------------------------------------- */
static unsigned g_window;      /* 0: chosen from n */
static size_t g_group_items;   /* 0: default cap on pairs sorted at once */
#define MSM_DEFAULT_GROUP_ITEMS ((size_t)1 << 28)

extern "C" unsigned gpu_msm_set_window(unsigned c)
{
    unsigned old = g_window;
    g_window = c <= MSM_MAX_C ? c : MSM_MAX_C;
    return old;
}
/* gpu_msm_set_variant: bits 0..3 (G1) and 4..7 (G2) = m, the accumulation and batch-addition kernels compiled for m
 * resident blocks of 128 threads per SM (1 = no register cap, 4 = 128 registers); bit 8: G1 with the dedicated Fp
 * squaring (dfp_sq); bits 12..15: r > 0 spreads the bucket reduction over about 2^(12 + r) threads (0: 2^15);
 * 0 = the measured best (MSM_DEFAULT_VARIANT: docs/PERFORMANCE-gpu.md, sessions 4 and 5) */
#define MSM_VARIANT_G1_SQR 0x100u
#define MSM_DEFAULT_VARIANT 0x114u
static unsigned g_variant;
static unsigned variant_bits(void) { return g_variant ? g_variant : MSM_DEFAULT_VARIANT; }
static unsigned reduction_threads_log2(void)
{
    unsigned r = (variant_bits() >> 12) & 15;
    return r != 0 ? 12 + r : 15;
}
extern "C" unsigned gpu_msm_set_variant(unsigned v)
{
    unsigned old = g_variant;
    g_variant = v;
    return old;
}

static int g_profile; /* gpu_msm_set_profile: phase times on stderr */
extern "C" int gpu_msm_set_profile(int on)
{
    int old = g_profile;
    g_profile = on;
    return old;
}

extern "C" size_t gpu_msm_set_group_items(size_t items)
{
    size_t old = g_group_items;
    g_group_items = items;
    return old;
}

/* Window width for n points: least estimated cost, in field multiplications: every window adds n points
 * (10 multiplications each) and reduces 2^(c−1) buckets (two additions of 14). The sort and the gathers are
 * memory work that grows like the additions and does not move the choice much. */
extern "C" unsigned gpu_msm_window_for(size_t n)
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
struct gpu_msm_ctx {
    uint32_t *keys[2], *vals[2];  /* sort input and output: pairs of one group */
    void *heads, *tails;          /* one XYZZ point per accumulating thread */
    void *buckets;                /* (2^(c−1) + 1) XYZZ points per window */
    void *seg[2];                 /* reduction segments (ping-pong), batch-addition partial sums */
    void *cub_tmp;
    size_t cap_keys[2], cap_vals[2], cap_heads, cap_tails, cap_buckets, cap_seg[2], cap_cub; /* bytes */
};

extern "C" cuzk_status gpu_msm_ctx_create(gpu_msm_ctx **ctx)
{
    *ctx = (gpu_msm_ctx *)calloc(1, sizeof(gpu_msm_ctx));
    return *ctx ? CUZK_OK : CUZK_ERR_NOMEM;
}

extern "C" void gpu_msm_ctx_destroy(gpu_msm_ctx *x)
{
    if (x == NULL) return;
    for (int i = 0; i < 2; i++) {
        cudaFree(x->keys[i]), cudaFree(x->vals[i]), cudaFree(x->seg[i]);
    }
    cudaFree(x->heads), cudaFree(x->tails), cudaFree(x->buckets), cudaFree(x->cub_tmp);
    free(x);
}

extern "C" uint64_t g16_gpu_msm_ctx_bytes(const gpu_msm_ctx *x)
{
    if (x == NULL) return 0;
    uint64_t b = x->cap_heads + x->cap_tails + x->cap_buckets + x->cap_cub;
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
} msm_plan_t;

static void plan_make(msm_plan_t *p, size_t n)
{
    p->n = n;
    p->c = g_window ? g_window : gpu_msm_window_for(n);
    if (p->c < 2) p->c = 2;
    p->nw = (256 + p->c - 1) / p->c;
    size_t cap = g_group_items ? g_group_items : MSM_DEFAULT_GROUP_ITEMS;
    size_t gw = cap / n;
    if (gw < 1) gw = 1;
    if (gw > p->nw) gw = p->nw;
    p->gw = (unsigned)gw;
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
    /* segments: about 2^reduction_threads_log2 threads over all windows, at least 1 bucket per segment */
    size_t total = (size_t)p->nw * p->nb;
    unsigned rt = reduction_threads_log2();
    uint32_t sl = 1;
    while (((size_t)sl << rt) < total && sl < p->nb) sl <<= 1;
    p->seg_len = sl;
    p->nseg = p->nb / sl;
}

/* ---- kernels ----------------------------------------------------------------------------------------------------- */
/* canonical 256-bit value of a Montgomery Fr element, as 4 little-endian 64-bit limbs */
static __device__ __forceinline__ void scalar_canonical(uint64_t k[4], const dfr *s)
{
    dfr a = dfr_load(s), one, r;
#pragma unroll
    for (int i = 0; i < 8; i++) one.w[i] = i == 0;
    dfr_mul(&r, &a, &one);
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

/* idx NULL: scalar i goes with base i; else with base idx[i] */
__global__ void k_digits(uint32_t *keys, uint32_t *vals, const dfr *scalars, const uint32_t *idx, size_t n,
                         unsigned c, unsigned j0, unsigned gw)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint64_t k[4];
    scalar_canonical(k, &scalars[i]);
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

template <typename F, int MINB>
__global__ void __launch_bounds__(128, MINB) k_accumulate(dxyzz<F> *buckets, dxyzz<F> *heads, dxyzz<F> *tails,
                                                          const uint32_t *keys, const uint32_t *vals,
                                                          const daff<F> *bases, size_t items, size_t L, unsigned c,
                                                          unsigned j0, uint32_t nb)
{
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
        uint32_t v = vals[p];
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
__global__ void k_heads_tree(dxyzz<F> *heads, const uint32_t *keys, size_t L, size_t slices, unsigned r)
{
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
                        size_t items, size_t L, size_t slices, unsigned c, unsigned j0, uint32_t nb)
{
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

/* partial sums of the bitmap-selected bases: thread t takes bases [tL, tL + L) */
template <typename F, int MINB>
__global__ void __launch_bounds__(128, MINB) k_batch_partial(dxyzz<F> *out, const daff<F> *bases,
                                                             const uint64_t *bitmap, size_t n, size_t L, size_t parts)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= parts) return;
    dxyzz<F> acc;
    xyzz_set_inf(&acc);
    size_t lo = t * L, hi = lo + L < n ? lo + L : n;
    for (size_t i = lo; i < hi; i++) {
        if (!((bitmap[i >> 6] >> (i & 63)) & 1)) continue;
        daff<F> b = ld16(&bases[i]);
        if (aff_is_inf(&b)) continue;
        xyzz_madd(&acc, b.x, b.y);
    }
    st16(&out[t], acc);
}

/* ---- host side --------------------------------------------------------------------------------------------------- */
/* resident blocks per SM the accumulation kernels of F's curve are compiled for (gpu_msm_set_variant) */
template <typename F> static unsigned minb_of()
{
    bool g1 = sizeof(F) == sizeof(dfp);
    unsigned m = (variant_bits() >> (g1 ? 0 : 4)) & 15;
    return m != 0 ? m : g1 ? 4 : 1;
}

/* the coordinate field the variant asks for: F, or its other flavour (curve.cuh); G2 has none measured faster */
template <typename F> struct flavour_of {
    typedef F T;
    static const unsigned bit = 0;
};
template <> struct flavour_of<dfp> {
    typedef dfp_sq T;
    static const unsigned bit = MSM_VARIANT_G1_SQR;
};

template <typename F>
static void launch_accumulate(unsigned grid, dxyzz<F> *buckets, dxyzz<F> *heads, dxyzz<F> *tails, const uint32_t *keys,
                              const uint32_t *vals, const daff<F> *bases, size_t items, size_t L, unsigned c,
                              unsigned j0, uint32_t nb)
{
    if (minb_of<F>() == 4) k_accumulate<F, 4><<<grid, 128>>>(buckets, heads, tails, keys, vals, bases, items, L, c, j0, nb);
    else k_accumulate<F, 1><<<grid, 128>>>(buckets, heads, tails, keys, vals, bases, items, L, c, j0, nb);
}

template <typename F>
static void launch_batch_partial(unsigned grid, dxyzz<F> *out, const daff<F> *bases, const uint64_t *bitmap, size_t n,
                                 size_t L, size_t parts)
{
    if (minb_of<F>() == 4) k_batch_partial<F, 4><<<grid, 128>>>(out, bases, bitmap, n, L, parts);
    else k_batch_partial<F, 1><<<grid, 128>>>(out, bases, bitmap, n, L, parts);
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

/* The bytes of each scratch buffer one plan needs (point_bytes: one XYZZ point). */
typedef struct {
    size_t keys, heads, buckets, seg, cub; /* keys: each of the four pair arrays; heads: heads and tails; seg: each */
} scratch_sizes;

static void scratch_sizes_of(scratch_sizes *z, const msm_plan_t *p, size_t point_bytes)
{
    z->keys = p->items * 4;
    z->heads = p->slices * point_bytes;
    z->buckets = (size_t)p->nw * (p->nb + 1) * point_bytes;
    z->seg = (size_t)p->nw * p->nseg * point_bytes;
    z->cub = 0;
    if (cub::DeviceRadixSort::SortPairs(NULL, z->cub, (uint32_t *)NULL, (uint32_t *)NULL, (uint32_t *)NULL,
                                        (uint32_t *)NULL, (int)p->items, 0, (int)p->key_bits) != cudaSuccess) {
        cudaGetLastError();
        z->cub = p->items * 8; /* generous when the query fails */
    }
}

static void scratch_max(scratch_sizes *a, const scratch_sizes *b)
{
    if (b->keys > a->keys) a->keys = b->keys;
    if (b->heads > a->heads) a->heads = b->heads;
    if (b->buckets > a->buckets) a->buckets = b->buckets;
    if (b->seg > a->seg) a->seg = b->seg;
    if (b->cub > a->cub) a->cub = b->cub;
}

/* Grows the context's buffers to at least z: only when a larger problem (or a wider window) comes along. */
static cuzk_status scratch_grow(gpu_msm_ctx *x, const scratch_sizes *z)
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
    return CUZK_OK;
}

/* What gpu_msm_ctx_reserve(n_g1, n_g2) grows to: each buffer the larger of the two plans' needs, and the
 * batch additions' partial sums. */
static void scratch_for(scratch_sizes *z, size_t n_g1, size_t n_g2)
{
    memset(z, 0, sizeof *z);
    z->seg = (size_t)MSM_PARTIALS * (n_g2 > 0 ? sizeof(g2x) : sizeof(g1x));
    msm_plan_t p;
    scratch_sizes one;
    if (n_g1 > 0) {
        plan_make(&p, n_g1);
        scratch_sizes_of(&one, &p, sizeof(g1x));
        scratch_max(z, &one);
    }
    if (n_g2 > 0) {
        plan_make(&p, n_g2);
        scratch_sizes_of(&one, &p, sizeof(g2x));
        scratch_max(z, &one);
    }
}

extern "C" cuzk_status gpu_msm_ctx_reserve(gpu_msm_ctx *x, size_t n_g1, size_t n_g2)
{
    if (x == NULL) return CUZK_ERR_INVALID_ARG;
    scratch_sizes z;
    scratch_for(&z, n_g1, n_g2);
    return scratch_grow(x, &z);
}

template <typename F>
static cuzk_status msm_run(void *win_host, gpu_msm_ctx *x, const daff<F> *bases, const uint32_t *idx,
                           const dfr *scalars, size_t n, unsigned *c_out, unsigned *nw_out)
{
    typedef dxyzz<F> X;
    msm_plan_t p;
    plan_make(&p, n);
    *c_out = p.c, *nw_out = p.nw;
    scratch_sizes need;
    scratch_sizes_of(&need, &p, sizeof(X));
    CUZK_TRY(scratch_grow(x, &need));

    /* profiling: ev[0] start, per group ev[1 + 2g] after the sort and ev[2 + 2g] after the accumulation, then the
     * end of the reduction and of the copy */
    cudaEvent_t ev[2 * 128 + 4];
    unsigned nev = 0, groups = (p.nw + p.gw - 1) / p.gw;
    if (g_profile) {
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
        k_digits<<<blocks_for(n, 256), 256>>>(x->keys[0], x->vals[0], scalars, idx, n, p.c, j0, gw);
        CUZK_CUDA_LAUNCHED();
        size_t tmp = x->cap_cub;
        CUZK_CUDA(cub::DeviceRadixSort::SortPairs(x->cub_tmp, tmp, x->keys[0], x->keys[1], x->vals[0], x->vals[1],
                                                  (int)items, 0, (int)(p.c + lg)));
        if (g_profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
        size_t slices = (items + p.slice - 1) / p.slice;
        launch_accumulate<F>(blocks_for(slices, 128), buckets, (X *)x->heads, (X *)x->tails, x->keys[1], x->vals[1],
                             bases, items, p.slice, p.c, j0, p.nb);
        CUZK_CUDA_LAUNCHED();
        for (unsigned r = 0; ((size_t)2 << r) < slices; r++) {
            k_heads_tree<F><<<blocks_for(slices >> (r + 1), 128), 128>>>((X *)x->heads, x->keys[1], p.slice, slices, r);
            CUZK_CUDA_LAUNCHED();
        }
        k_fixup<F><<<blocks_for(slices, 128), 128>>>(buckets, (const X *)x->heads, (const X *)x->tails, x->keys[1],
                                                     items, p.slice, slices, p.c, j0, p.nb);
        CUZK_CUDA_LAUNCHED();
        if (g_profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
    }
    X *seg0 = (X *)x->seg[0], *seg1 = (X *)x->seg[1], *res;
    k_bucket_segments<F><<<blocks_for((size_t)p.nw * p.nseg, 64), 64>>>(seg0, buckets, p.nw, p.nb, p.seg_len,
                                                                        p.nseg);
    CUZK_CUDA_LAUNCHED();
    CUZK_TRY(pair_sum_all<F>(&res, seg0, seg1, p.nw, p.nseg, p.nseg));
    if (g_profile) CUZK_CUDA(cudaEventRecord(ev[nev++]));
    CUZK_CUDA(cudaMemcpy2D(win_host, sizeof(X), res, p.nseg * sizeof(X), sizeof(X), p.nw, cudaMemcpyDeviceToHost));
    CUZK_CUDA(cudaGetLastError());
    if (g_profile) {
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
static cuzk_status batch_run(void *sum_host, gpu_msm_ctx *x, const daff<F> *bases, const uint64_t *bitmap, size_t n)
{
    typedef dxyzz<F> X;
    size_t L = (n + MSM_PARTIALS - 1) / MSM_PARTIALS;
    if (L < 16) L = 16;
    size_t parts = (n + L - 1) / L;
    for (int i = 0; i < 2; i++) CUZK_TRY(grow(&x->seg[i], &x->cap_seg[i], parts * sizeof(X)));
    X *res;
    launch_batch_partial<F>(blocks_for(parts, 128), (X *)x->seg[0], bases, bitmap, n, L, parts);
    CUZK_CUDA_LAUNCHED();
    CUZK_TRY(pair_sum_all<F>(&res, (X *)x->seg[0], (X *)x->seg[1], 1, parts, parts));
    CUZK_CUDA(cudaMemcpy(sum_host, res, sizeof(X), cudaMemcpyDeviceToHost));
    return CUZK_OK;
}

template <typename F>
static cuzk_status msm_flavoured(void *win_host, gpu_msm_ctx *x, const void *bases, const uint32_t *idx,
                                 const dfr *scalars, size_t n, unsigned *c_out, unsigned *nw_out)
{
    typedef typename flavour_of<F>::T A;
    if (variant_bits() & flavour_of<F>::bit)
        return msm_run<A>(win_host, x, (const daff<A> *)bases, idx, scalars, n, c_out, nw_out);
    return msm_run<F>(win_host, x, (const daff<F> *)bases, idx, scalars, n, c_out, nw_out);
}

template <typename F>
static cuzk_status batch_flavoured(void *sum_host, gpu_msm_ctx *x, const void *bases, const uint64_t *bitmap, size_t n)
{
    typedef typename flavour_of<F>::T A;
    if (variant_bits() & flavour_of<F>::bit) return batch_run<A>(sum_host, x, (const daff<A> *)bases, bitmap, n);
    return batch_run<F>(sum_host, x, (const daff<F> *)bases, bitmap, n);
}

#define WINDOWS_MAX 128

/* Horner over the window sums (host): Σ_j 2^(jc)·W_j */
#define MSM_ENTRY(G, F, AFF, JAC)                                                                                      \
    static cuzk_status G##_msm_any(JAC *r, const AFF *bases, const uint32_t *idx, const fr_t *scalars, size_t n,     \
                                   gpu_msm_ctx *ctx)                                                                  \
    {                                                                                                                  \
        if (n > MSM_IDX_MASK) return CUZK_ERR_INVALID_ARG;                                                             \
        if (n == 0) {                                                                                                  \
            G##_jac_set_infinity(r);                                                                                   \
            return CUZK_OK;                                                                                            \
        }                                                                                                              \
        G##_xyzz_t win[WINDOWS_MAX], acc;                                                                              \
        unsigned c, nw;                                                                                                \
        CUZK_TRY(msm_flavoured<F>(win, ctx, bases, idx, (const dfr *)scalars, n, &c, &nw));                           \
        acc = win[nw - 1];                                                                                             \
        for (unsigned j = nw - 1; j-- > 0;) {                                                                          \
            for (unsigned i = 0; i < c; i++) G##_xyzz_dbl(&acc, &acc);                                                 \
            G##_xyzz_add(&acc, &acc, &win[j]);                                                                         \
        }                                                                                                              \
        G##_xyzz_to_jac(r, &acc);                                                                                      \
        return CUZK_OK;                                                                                                \
    }                                                                                                                  \
    extern "C" cuzk_status gpu_##G##_msm(JAC *r, const AFF *bases, const fr_t *scalars, size_t n, gpu_msm_ctx *ctx)  \
    {                                                                                                                  \
        return G##_msm_any(r, bases, NULL, scalars, n, ctx);                                                           \
    }                                                                                                                  \
    extern "C" cuzk_status gpu_##G##_msm_idx(JAC *r, const AFF *bases, const uint32_t *idx, const fr_t *scalars,     \
                                             size_t n, gpu_msm_ctx *ctx)                                               \
    {                                                                                                                  \
        return G##_msm_any(r, bases, idx, scalars, n, ctx);                                                            \
    }
MSM_ENTRY(g1, dfp, g1_affine_t, g1_jac_t)
MSM_ENTRY(g2, dfp2, g2_affine_t, g2_jac_t)
#undef MSM_ENTRY

extern "C" cuzk_status gpu_g1_batch_add(g1_jac_t *r, const g1_affine_t *bases, const uint64_t *bitmap, size_t n,
                                        gpu_msm_ctx *ctx)
{
    if (n == 0) {
        g1_jac_set_infinity(r);
        return CUZK_OK;
    }
    g1_xyzz_t s;
    CUZK_TRY(batch_flavoured<dfp>(&s, ctx, bases, bitmap, n));
    g1_xyzz_to_jac(r, &s);
    return CUZK_OK;
}

extern "C" cuzk_status gpu_g2_batch_add(g2_jac_t *r, const g2_affine_t *bases, const uint64_t *bitmap, size_t n,
                                        gpu_msm_ctx *ctx)
{
    if (n == 0) {
        g2_jac_set_infinity(r);
        return CUZK_OK;
    }
    g2_xyzz_t s;
    CUZK_TRY(batch_flavoured<dfp2>(&s, ctx, bases, bitmap, n));
    g2_xyzz_to_jac(r, &s);
    return CUZK_OK;
}

/* Device bytes gpu_msm_ctx_reserve(n_g1, n_g2) grows a new context to (sort pairs, slice heads and tails, buckets,
 * reduction segments, cub's temporary storage; each the larger of the G1 and the G2 plan's). */
extern "C" uint64_t g16_gpu_msm_scratch_bytes(size_t n_g1, size_t n_g2)
{
    scratch_sizes z;
    scratch_for(&z, n_g1, n_g2);
    return 4 * (uint64_t)z.keys + 2 * (uint64_t)z.heads + z.buckets + 2 * (uint64_t)z.seg + z.cub;
}
