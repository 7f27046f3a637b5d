/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Element-wise passes: the bit-reversal permutation and multiplication by a geometric sequence. */
#include "ntt_internal.h"

typedef struct {
    cuzk_fr_t *x;
    unsigned log2n;
} bitrev_ctx;

typedef struct {
    cuzk_fr_t *const *x;
    size_t count;
    const cuzk_fr_t *s, *g;
} scale_ctx;

static size_t bitrev_index(size_t i, unsigned log2n)
{
    if (log2n == 0) return 0;
    uint64_t v = i;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
    v = __builtin_bswap64(v);
    return (size_t)(v >> (64 - log2n));
}

/* Swapping x[i] with x[rev(i)] one pair at a time touches a new cache line on the far side for every element once
 * n outgrows the caches. Instead, split an index into (high, middle, low) fields with T = 2^NTT_BITREV_TILE_LOG2
 * values in the high and low fields: rev(high, mid, low) = (rev(low), rev(mid), rev(high)). For one middle value the
 * T×T elements form a tile of T runs of T contiguous elements, and it maps onto the tile of rev(mid) transposed, so
 * tiles are swapped through a local buffer with every cache line fully used. Each pair of tiles is handled by the
 * range holding the smaller middle value, so ranges never touch the same tile. */
#define NTT_BITREV_TILE_LOG2 4
#define NTT_BITREV_TILE ((size_t)1 << NTT_BITREV_TILE_LOG2)

static void tile_load(cuzk_fr_t *t, const cuzk_fr_t *x, size_t base, unsigned high_shift)
{
    for (size_t h = 0; h < NTT_BITREV_TILE; h++)
        for (size_t l = 0; l < NTT_BITREV_TILE; l++) t[h * NTT_BITREV_TILE + l] = x[base | h << high_shift | l];
}

/* Writes a tile loaded from the middle value mirrored to `base` to its bit-reversed places in tile `base`. */
static void tile_store_reversed(cuzk_fr_t *x, const cuzk_fr_t *t, size_t base, unsigned high_shift)
{
    for (size_t h = 0; h < NTT_BITREV_TILE; h++)
        for (size_t l = 0; l < NTT_BITREV_TILE; l++) {
            size_t rh = bitrev_index(l, NTT_BITREV_TILE_LOG2), rl = bitrev_index(h, NTT_BITREV_TILE_LOG2);
            x[base | rh << high_shift | rl] = t[h * NTT_BITREV_TILE + l];
        }
}

static void bitrev_tiles(void *arg, size_t lo, size_t hi)
{
    const bitrev_ctx *c = arg;
    unsigned mid_bits = c->log2n - 2 * NTT_BITREV_TILE_LOG2, high_shift = c->log2n - NTT_BITREV_TILE_LOG2;
    cuzk_fr_t ta[NTT_BITREV_TILE * NTT_BITREV_TILE], tb[NTT_BITREV_TILE * NTT_BITREV_TILE];
    for (size_t mid = lo; mid < hi; mid++) {
        size_t rmid = bitrev_index(mid, mid_bits);
        if (rmid < mid) continue;
        size_t a = mid << NTT_BITREV_TILE_LOG2, b = rmid << NTT_BITREV_TILE_LOG2;
        tile_load(ta, c->x, a, high_shift);
        if (rmid != mid) {
            tile_load(tb, c->x, b, high_shift);
            tile_store_reversed(c->x, tb, a, high_shift);
        }
        tile_store_reversed(c->x, ta, b, high_shift);
    }
}

/* Small sizes: plain pair swaps, each pair {i, rev(i)} done by the range holding its smaller index. */
static void bitrev_range(void *arg, size_t lo, size_t hi)
{
    const bitrev_ctx *c = arg;
    for (size_t i = lo; i < hi; i++) {
        size_t r = bitrev_index(i, c->log2n);
        if (i < r) {
            cuzk_fr_t t = c->x[i];
            c->x[i] = c->x[r];
            c->x[r] = t;
        }
    }
}

void cuzk_ntt_bitrev(cuzk_fr_t *x, unsigned log2n, unsigned threads)
{
    bitrev_ctx c = {x, log2n};
    if (log2n < 2 * NTT_BITREV_TILE_LOG2 + 6) cuzk_par_for(threads, (size_t)1 << log2n, 1 << 14, bitrev_range, &c);
    else cuzk_par_for(threads, (size_t)1 << (log2n - 2 * NTT_BITREV_TILE_LOG2), 16, bitrev_tiles, &c);
}

static void scale_range(void *arg, size_t lo, size_t hi)
{
    const scale_ctx *c = arg;
    if (c->g == NULL) {
        for (size_t v = 0; v < c->count; v++)
            for (size_t i = lo; i < hi; i++) cuzk_fr_mul(&c->x[v][i], &c->x[v][i], c->s);
        return;
    }
    cuzk_fr_t p;
    uint64_t e = lo;
    cuzk_fr_pow(&p, c->g, &e, 1);
    cuzk_fr_mul(&p, &p, c->s);
    for (size_t i = lo; i < hi; i++) {
        for (size_t v = 0; v < c->count; v++) cuzk_fr_mul(&c->x[v][i], &c->x[v][i], &p);
        cuzk_fr_mul(&p, &p, c->g);
    }
}

void cuzk_ntt_scale_powers(cuzk_fr_t *const *x, size_t count, size_t n, const cuzk_fr_t *s, const cuzk_fr_t *g,
                           unsigned threads)
{
    scale_ctx c = {x, count, s, g};
    cuzk_par_for(threads, n, 1 << 13, scale_range, &c);
}
