/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM options, windows and plans, the scratch they need, and the contexts that hold it. */
#include <string.h>

#include <cub/cub.cuh>

#include "msm/msm.cuh"

static unsigned variant_bits(const cuzk_gpu_msm_opts *o) { return o->variant ? o->variant : MSM_DEFAULT_VARIANT; }
/* buckets per reduction segment for `total` buckets over all windows: about 2^rt threads, at least one bucket each */
static uint32_t segment_for_threads(size_t total, unsigned rt, uint32_t nb)
{
    uint32_t sl = 1;
    while (((size_t)sl << rt) < total && sl < nb) sl <<= 1;
    return sl;
}
/* About 2^15 threads; G1 takes 2^16 where segments stay at least 128 buckets long: shorter ones were slower, for G2
 * too (docs/performance/msm.md) */
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

extern "C" unsigned cuzk_gpu_msm_variant(const cuzk_gpu_msm_opts *o) { return variant_bits(o); }

extern "C" unsigned cuzk_gpu_msm_minb(const cuzk_gpu_msm_opts *o, bool g1)
{
    unsigned m = (variant_bits(o) >> (g1 ? 0 : 4)) & 15;
    return m != 0 ? m : g1 ? 4 : 1;
}

extern "C" bool cuzk_gpu_msm_ba_on(const cuzk_gpu_msm_opts *o, bool g1, size_t n)
{
    unsigned v = variant_bits(o);
    if (!g1) return (v & MSM_VARIANT_G2_BA) != 0;
    return (v & MSM_VARIANT_G1_BA) != 0 || (n >= MSM_G1_BA_MIN && !(v & MSM_VARIANT_G1_NO_BA));
}

extern "C" unsigned cuzk_gpu_msm_ba_slots(const cuzk_gpu_msm_opts *o) { return ba_slots(o); }

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

extern "C" void cuzk_gpu_msm_ctx_canonical(cuzk_gpu_msm_ctx *x, bool on) { x->canonical = on; }

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

extern "C" uint64_t cuzk_gpu_msm_ctx_bytes(const cuzk_gpu_msm_ctx *x)
{
    if (x == NULL) return 0;
    uint64_t b = x->cap_heads + x->cap_tails + x->cap_buckets + x->cap_cub + x->cap_ba_pts[0] + x->cap_ba_pts[1] +
                 x->cap_ba_cnt + x->cap_ba_off + x->cap_ba_len;
    for (int i = 0; i < 2; i++) b += x->cap_keys[i] + x->cap_vals[i] + x->cap_seg[i];
    return b;
}

extern "C" cuzk_status cuzk_gpu_msm_grow(void **p, size_t *cap, size_t need)
{
    if (need <= *cap) return CUZK_OK;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    CUZK_CUDA(cudaMalloc(p, need));
    *cap = need;
    return CUZK_OK;
}

/* ba_point_bytes: the affine point size when batch-affine rounds run (0: none). Their lists take up to ~0.8 points
 * per sorted pair (of 8 bytes), so their groups are cut to MSM_BA_GROUP_BYTES / ba_point_bytes pairs: ~20 GB of
 * lists for G1 and for G2 (smaller groups measured slower: docs/performance/msm.md).
 * The windows are spread evenly over the groups: a last group of one window leaves the rounds too few threads. */
#define MSM_BA_GROUP_BYTES ((size_t)192 << 27)
/* the most (point, window) pairs sorted at once */
static size_t group_cap(const cuzk_gpu_msm_opts *o, size_t ba_point_bytes)
{
    return o->group_items   ? o->group_items
           : ba_point_bytes ? MSM_BA_GROUP_BYTES / ba_point_bytes
                            : MSM_DEFAULT_GROUP_ITEMS;
}

extern "C" void cuzk_gpu_msm_plan(const cuzk_gpu_msm_opts *o, msm_plan_t *p, size_t n, size_t ba_point_bytes, bool g1)
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

extern "C" void cuzk_gpu_msm_ba_plan(ba_plan *b, size_t items, size_t runs, bool on, unsigned min_run)
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

extern "C" void cuzk_gpu_msm_scratch_of(scratch_sizes *z, const msm_plan_t *p, size_t point_bytes)
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
    cuzk_gpu_msm_ba_plan(&bp, p->items, (size_t)p->gw * p->nb, p->ba, p->ba_min_run);
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

/* Only when a larger problem (or a wider window) comes along. */
extern "C" cuzk_status cuzk_gpu_msm_scratch_grow(cuzk_gpu_msm_ctx *x, const scratch_sizes *z)
{
    for (int i = 0; i < 2; i++) {
        CUZK_TRY(cuzk_gpu_msm_grow((void **)&x->keys[i], &x->cap_keys[i], z->keys));
        CUZK_TRY(cuzk_gpu_msm_grow((void **)&x->vals[i], &x->cap_vals[i], z->keys));
        CUZK_TRY(cuzk_gpu_msm_grow(&x->seg[i], &x->cap_seg[i], z->seg));
    }
    CUZK_TRY(cuzk_gpu_msm_grow(&x->heads, &x->cap_heads, z->heads));
    CUZK_TRY(cuzk_gpu_msm_grow(&x->tails, &x->cap_tails, z->heads));
    CUZK_TRY(cuzk_gpu_msm_grow(&x->buckets, &x->cap_buckets, z->buckets));
    CUZK_TRY(cuzk_gpu_msm_grow(&x->cub_tmp, &x->cap_cub, z->cub));
    if (z->ba_slot_bytes == 0) return CUZK_OK;
    for (int i = 0; i < 2; i++) CUZK_TRY(cuzk_gpu_msm_grow(&x->ba_pts[i], &x->cap_ba_pts[i], z->ba_pts[i]));
    CUZK_TRY(cuzk_gpu_msm_grow((void **)&x->ba_cnt, &x->cap_ba_cnt, z->ba_slot_bytes));
    CUZK_TRY(cuzk_gpu_msm_grow((void **)&x->ba_off, &x->cap_ba_off, z->ba_slot_bytes));
    CUZK_TRY(cuzk_gpu_msm_grow((void **)&x->ba_len, &x->cap_ba_len, (BA_MAX_ROUNDS + 1) * sizeof(uint32_t)));
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
        cuzk_gpu_msm_plan(o, &p, cand[i], ba_point_bytes, point_bytes == sizeof(g1x));
        cuzk_gpu_msm_scratch_of(&one, &p, point_bytes);
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
    if (n_g1 > 0) scratch_cover(o, z, n_g1, sizeof(g1x), cuzk_gpu_msm_ba_on(o, true, n_g1) ? sizeof(g1a) : 0);
    if (n_g2 > 0) scratch_cover(o, z, n_g2, sizeof(g2x), cuzk_gpu_msm_ba_on(o, false, n_g2) ? sizeof(g2a) : 0);
}

extern "C" cuzk_status cuzk_gpu_msm_ctx_reserve(cuzk_gpu_msm_ctx *x, size_t n_g1, size_t n_g2)
{
    if (x == NULL) return CUZK_ERR_INVALID_ARG;
    scratch_sizes z;
    scratch_for(&x->opts, &z, n_g1, n_g2);
    return cuzk_gpu_msm_scratch_grow(x, &z);
}

/* Device bytes cuzk_gpu_msm_ctx_reserve(n_g1, n_g2) grows a new context to (sort pairs, slice heads and tails, buckets,
 * reduction segments, cub's temporary storage; each the larger of the G1 and the G2 plan's). */
extern "C" uint64_t cuzk_gpu_msm_scratch_bytes(size_t n_g1, size_t n_g2)
{
    scratch_sizes z;
    scratch_for(&DEFAULT_OPTS, &z, n_g1, n_g2);
    return 4 * (uint64_t)z.keys + 2 * (uint64_t)z.heads + z.buckets + 2 * (uint64_t)z.seg + z.cub + z.ba_pts[0] +
           z.ba_pts[1] +
           (z.ba_slot_bytes != 0 ? 2 * (uint64_t)z.ba_slot_bytes + (BA_MAX_ROUNDS + 1) * sizeof(uint32_t) : 0);
}
