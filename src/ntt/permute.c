/* Element-wise passes: the bit-reversal permutation and multiplication by a geometric sequence. */
#include "ntt_internal.h"

typedef struct {
    fr_t *x;
    unsigned log2n;
    const fr_t *s, *g;
} pass_ctx;

static size_t bitrev_index(size_t i, unsigned log2n)
{
    uint64_t v = i;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
    v = __builtin_bswap64(v);
    return (size_t)(v >> (64 - log2n));
}

/* Each pair {i, rev(i)} is swapped by the range holding its smaller index, so ranges never touch the same pair. */
static void bitrev_range(void *arg, size_t lo, size_t hi)
{
    const pass_ctx *c = arg;
    for (size_t i = lo; i < hi; i++) {
        size_t r = bitrev_index(i, c->log2n);
        if (i < r) {
            fr_t t = c->x[i];
            c->x[i] = c->x[r];
            c->x[r] = t;
        }
    }
}

void ntt_bitrev(fr_t *x, unsigned log2n, unsigned threads)
{
    if (log2n == 0) return;
    pass_ctx c = {x, log2n, NULL, NULL};
    ntt_par_for(threads, (size_t)1 << log2n, 1 << 14, bitrev_range, &c);
}

static void scale_range(void *arg, size_t lo, size_t hi)
{
    const pass_ctx *c = arg;
    if (c->g == NULL) {
        for (size_t i = lo; i < hi; i++) fr_mul(&c->x[i], &c->x[i], c->s);
        return;
    }
    fr_t p;
    uint64_t e = lo;
    fr_pow(&p, c->g, &e, 1);
    fr_mul(&p, &p, c->s);
    for (size_t i = lo; i < hi; i++) {
        fr_mul(&c->x[i], &c->x[i], &p);
        fr_mul(&p, &p, c->g);
    }
}

void ntt_scale_powers(fr_t *x, size_t n, const fr_t *s, const fr_t *g, unsigned threads)
{
    pass_ctx c = {x, 0, s, g};
    ntt_par_for(threads, n, 1 << 13, scale_range, &c);
}
