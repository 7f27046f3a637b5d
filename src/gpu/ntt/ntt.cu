/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* NTT over Fr on the GPU: natural order in and out, the same transforms (and bits) as src/ntt.
 *
 * A size-2^k decimation-in-frequency transform is cut into P passes over global memory (P = 1 up to 2^11, 2 up to
 * 2^20, 3 up to 2^30). A pass owns s consecutive index bits [a−s, a) of the current sub-transforms of size N = 2^a:
 * for each fixed high part and each low offset lo < M = N/2^s it runs the 2^s-point DIF over the elements at
 * stride M inside shared memory (radix-8 register steps, twiddles from a small table of 2^11-th roots), then
 * multiplies the result r by ω_N^(lo·r): the whole inter-pass twiddle in one multiplication. What remains are
 * independent sub-transforms of size M, in place, exactly as the radix-2 DIF would leave them; after the last pass
 * position p holds X[bitrev(p)]. The last pass therefore writes each element straight to its bit-reversed position
 * (into the other buffer), grouping the sub-transforms of a block so that those writes stay contiguous.
 *
 * Twiddles: ω^E = TH[E >> 14]·TL[E mod 2^14] (two tables of ≤ 2^14 elements, L2-resident), forward and inverse
 * tables kept apart. A pass over sub-transforms of size 2^a ≤ 2^20 needs only the 2^a-th roots: those come straight
 * from a table of them (8 MiB for the second pass at 2^27), one multiplication less per element. Coset shifts and
 * 1/n are folded into the first pass's loads and the last pass's stores, and so is the pointwise work of Groth16's H
 * (cuzk_gpu_ntt_to_coset, cuzk_gpu_ntt_coset_inverse_raw): the last pass can multiply by another vector, subtract a
 * third and scale, so that H takes no passes of its own over memory. */
#include <string.h>

#include "ff/ff.cuh"
#include "ntt/ntt.cuh"

#define SMALL_LOG 11 /* the in-block table holds the 2^11-th roots (or the n-th for smaller n) */
#define MAX_PASS_BITS 10
#define DIRECT_MAX_LOG 20 /* direct twiddle tables of up to 2^20 roots (32 MiB a direction) */

/* The coset tables, by kind: g^i and n_inv·g^−i for the public coset transforms; n_inv·g^i for the coset forward
 * after an unscaled inverse (the inverse's 1/n moved into the shift) and g^−i for the unscaled coset inverse. */
enum { COSET_FWD, COSET_INV, COSET_FWD_NINV, COSET_INV_RAW, COSET_KINDS };

struct cuzk_gpu_ntt_domain {
    unsigned k;
    size_t n;
    cuzk_fr_roots conv;
    cuzk_fr_t n_inv;
    dfr *tl[2], *th[2], *sm[2]; /* [0] forward, [1] inverse */
    dfr *dt[2];                 /* the 2^dt_log-th roots (dt_log 0: none) */
    unsigned dt_log;
    cuzk_gpu_ntt_opts opts;
    bool whole; /* whole tables: the coset factor of each i (gl[kind][i], gh unused), and above
                                 * 2^DIRECT_MAX_LOG every n-th root (full) for the passes no direct table serves */
    dfr *full;
    dfr *scratch;
    /* coset tables of each kind for the last shift used with it */
    bool have_g[COSET_KINDS];
    cuzk_fr_t g[COSET_KINDS];
    dfr *gl[COSET_KINDS], *gh[COSET_KINDS];
};

/* The pass kernel: the parity-split multiplication, radix-8 register steps (docs/performance/ntt.md). */
static const cuzk_gpu_ntt_kernels PRODUCT_KERNEL = {k_pass<ntt_mul_eo, 3>, 8};

static const cuzk_gpu_ntt_kernels *kernel_of(const cuzk_gpu_ntt_domain *d)
{
    return d->opts.kernels != NULL ? d->opts.kernels : &PRODUCT_KERNEL;
}

/* out[i] = first·base^i. Thread t of `stride` starts from first·base^t by one exponentiation and steps by base^stride,
 * so that each element costs one multiplication and the threads' stores stay contiguous. */
#define POWERS_THREADS ((size_t)1 << 18)
static __global__ void k_powers(dfr *out, size_t count, size_t stride, dfr base, dfr step, dfr first, dfr one)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= stride) return;
    dfr v;
    dfr_pow_u64(&v, &base, (uint64_t)t, &one);
    dfr_mul(&v, &v, &first);
    for (size_t i = t; i < count; i += stride) {
        dfr_store(&out[i], &v);
        dfr_mul(&v, &v, &step);
    }
}

static dfr to_d(const cuzk_fr_t *x)
{
    dfr r;
    memcpy(&r, x, sizeof r);
    return r;
}

static cuzk_status powers(dfr **out, size_t count, const cuzk_fr_t *base, const cuzk_fr_t *first)
{
    if (count == 0) return CUZK_OK;
    cuzk_fr_t one, step;
    cuzk_fr_set_one(&one);
    size_t stride = count < POWERS_THREADS ? count : POWERS_THREADS;
    uint64_t e = stride;
    cuzk_fr_pow(&step, base, &e, 1);
    if (*out == NULL) CUZK_TRY(cuzk_gpu_malloc((void **)out, count * sizeof(dfr)));
    k_powers<<<(unsigned)((stride + 255) / 256), 256>>>(*out, count, stride, to_d(base), to_d(&step),
                                                        to_d(first ? first : &one), to_d(&one));
    CUZK_CUDA_LAUNCHED();
    return CUZK_OK;
}

static void pow2k(cuzk_fr_t *r, const cuzk_fr_t *a, unsigned k)
{
    *r = *a;
    for (unsigned i = 0; i < k; i++) cuzk_fr_sqr(r, r);
}

/* split tables of b: lo[i] = first·b^i (i < min(n, 2^14)), hi[i] = b^(i·2^14) (i < max(1, n >> 14)) */
static cuzk_status split_tables(dfr **lo, dfr **hi, size_t n, const cuzk_fr_t *b, const cuzk_fr_t *first)
{
    size_t nlo = n < ((size_t)1 << TW_SPLIT) ? n : ((size_t)1 << TW_SPLIT);
    size_t nhi = n >> TW_SPLIT ? n >> TW_SPLIT : 1;
    cuzk_fr_t bh;
    pow2k(&bh, b, TW_SPLIT);
    CUZK_TRY(powers(lo, nlo, b, first));
    CUZK_TRY(powers(hi, nhi, &bh, NULL));
    return CUZK_OK;
}

/* Device bytes the domain holds: its scratch, its twiddle tables and the coset tables made so far. */
extern "C" uint64_t cuzk_gpu_ntt_domain_bytes(const cuzk_gpu_ntt_domain *d)
{
    if (d == NULL) return 0;
    size_t nlo = d->n < ((size_t)1 << TW_SPLIT) ? d->n : ((size_t)1 << TW_SPLIT);
    size_t nhi = d->n >> TW_SPLIT ? d->n >> TW_SPLIT : 1;
    unsigned qlog = d->k < SMALL_LOG ? d->k : SMALL_LOG;
    uint64_t elems = 2 * (nlo + nhi + ((size_t)1 << (qlog - 1)) + (d->dt_log ? (size_t)1 << d->dt_log : 0));
    if (d->full != NULL) elems += d->n;
    for (int i = 0; i < COSET_KINDS; i++) elems += d->gl[i] == NULL ? 0 : d->whole ? d->n : nlo + nhi;
    if (d->scratch != NULL) elems += d->n;
    return elems * sizeof(dfr);
}

extern "C" void cuzk_gpu_ntt_domain_destroy(cuzk_gpu_ntt_domain *d)
{
    if (d == NULL) return;
    for (int i = 0; i < 2; i++) {
        cuzk_gpu_free(d->tl[i]);
        cuzk_gpu_free(d->th[i]);
        cuzk_gpu_free(d->sm[i]);
        cuzk_gpu_free(d->dt[i]);
    }
    cuzk_gpu_free(d->full);
    for (int i = 0; i < COSET_KINDS; i++) {
        cuzk_gpu_free(d->gl[i]);
        cuzk_gpu_free(d->gh[i]);
    }
    cuzk_gpu_free(d->scratch);
    free(d);
}

/* Shared-memory rounds of a pass of s bits: radix-8 register steps, then one of radix 4 or 2 for the rest. */
static unsigned pass_rounds(unsigned s) { return (s + 2) / 3; }

/* Pass sizes: as few passes as the tile allows (at most 10 bits a pass, 11 when one pass does it all; two or three
 * passes up to 2^28), then as few shared-memory rounds as those passes allow. Every split of k costs the same
 * multiplications (k/2 − 1 an element), so the rounds and their shared-memory traffic are what differ: 2^24 as 6 + 9
 * + 9 bits takes 8 rounds where 8 + 8 + 8 takes 9. Among equal rounds the most balanced split; smaller passes first. */
static unsigned plan(unsigned k, unsigned bits[4])
{
    if (k <= MAX_PASS_BITS + 1) {
        bits[0] = k;
        return 1;
    }
    unsigned P = (k + MAX_PASS_BITS - 1) / MAX_PASS_BITS, best = ~0u;
    for (unsigned a = 1; a <= MAX_PASS_BITS; a++)
        for (unsigned b = a; b <= MAX_PASS_BITS && a + b <= k; b++) {
            unsigned s[3] = {a, b, P == 3 ? k - a - b : 0};
            if (P == 2 ? a + b != k : s[2] < b || s[2] > MAX_PASS_BITS) continue;
            unsigned r = pass_rounds(s[0]) + pass_rounds(s[1]) + (P == 3 ? pass_rounds(s[2]) : 0);
            /* a and then b rise through the loops: a later split of as few rounds is the more balanced */
            if (r <= best) {
                best = r;
                memcpy(bits, s, sizeof s);
            }
        }
    return P;
}

/* The largest a ≤ DIRECT_MAX_LOG among the passes that multiply by twiddles (all but the last), 0 when none: the
 * direct table's roots serve every such pass with a ≤ it. */
static unsigned direct_log(unsigned k)
{
    unsigned bits[4], P = plan(k, bits), a = k, best = 0;
    for (unsigned i = 0; i + 1 < P; i++) {
        if (a <= DIRECT_MAX_LOG && a > best) best = a;
        a -= bits[i];
    }
    return best;
}

static cuzk_status domain_fill(cuzk_gpu_ntt_domain *d)
{
    cuzk_fr_t w[2], nn;
    CUZK_TRY(cuzk_fr_root_of_unity(&w[0], d->k, d->conv));
    cuzk_fr_inv_vartime(&w[1], &w[0]);
    cuzk_fr_from_u64(&nn, (uint64_t)d->n);
    cuzk_fr_inv_vartime(&d->n_inv, &nn);
    unsigned qlog = d->k < SMALL_LOG ? d->k : SMALL_LOG;
    for (int i = 0; i < 2; i++) {
        CUZK_TRY(split_tables(&d->tl[i], &d->th[i], d->n, &w[i], NULL));
        cuzk_fr_t wq; /* primitive 2^qlog-th root: w^(n / 2^qlog) */
        pow2k(&wq, &w[i], d->k - qlog);
        CUZK_TRY(powers(&d->sm[i], (size_t)1 << (qlog - 1), &wq, NULL));
    }
    d->dt_log = direct_log(d->k);
    for (int i = 0; i < 2 && d->dt_log != 0; i++) {
        cuzk_fr_t wd; /* primitive 2^dt_log-th root */
        pow2k(&wd, &w[i], d->k - d->dt_log);
        CUZK_TRY(powers(&d->dt[i], (size_t)1 << d->dt_log, &wd, NULL));
    }
    if (d->whole && d->k > DIRECT_MAX_LOG && !d->opts.whole_without_roots)
        CUZK_TRY(powers(&d->full, d->n, &w[0], NULL));
    if (d->k > MAX_PASS_BITS + 1) CUZK_TRY(cuzk_gpu_malloc((void **)&d->scratch, d->n * sizeof(dfr)));
    CUZK_CUDA(cudaFuncSetAttribute(kernel_of(d)->pass, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    return cuzk_gpu_sync();
}

/* The bytes whole tables add to a domain of 2^log2n that uses `coset_kinds` coset tables: a factor per element for
 * each, and above 2^DIRECT_MAX_LOG every root. */
extern "C" uint64_t cuzk_gpu_ntt_whole_bytes(unsigned log2n, unsigned coset_kinds)
{
    uint64_t n = (uint64_t)1 << log2n;
    return ((log2n > DIRECT_MAX_LOG ? n : 0) + coset_kinds * n) * sizeof(dfr);
}

extern "C" cuzk_status cuzk_gpu_ntt_domain_create(cuzk_gpu_ntt_domain **out, unsigned log2n, cuzk_fr_roots conv,
                                                  const cuzk_gpu_ntt_opts *opts)
{
    *out = NULL;
    if (log2n < CUZK_GPU_NTT_MIN_LOG2 || log2n > 28) return CUZK_ERR_BAD_ROOT_ORDER;
    if (conv != CUZK_FR_ROOTS_GEN7 && conv != CUZK_FR_ROOTS_GEN5) return CUZK_ERR_INVALID_ARG;
    if (opts != NULL && opts->tile_log2 != 0 && (opts->tile_log2 < 9 || opts->tile_log2 > 11))
        return CUZK_ERR_INVALID_ARG;
    cuzk_gpu_ntt_domain *d = (cuzk_gpu_ntt_domain *)calloc(1, sizeof *d);
    if (d == NULL) return CUZK_ERR_NOMEM;
    d->k = log2n;
    d->n = (size_t)1 << log2n;
    d->conv = conv;
    if (opts != NULL) d->opts = *opts;
    if (d->opts.tile_log2 == 0) d->opts.tile_log2 = 11;
    d->whole = d->opts.whole_tables;
    cuzk_status st = domain_fill(d);
    if (st != CUZK_OK) {
        cuzk_gpu_ntt_domain_destroy(d);
        return st;
    }
    *out = d;
    return CUZK_OK;
}

extern "C" size_t cuzk_gpu_ntt_size(const cuzk_gpu_ntt_domain *d) { return d->n; }

/* x in, the result in out (x when NULL): the transform, then pre before the first pass, post and fin after the last */
static cuzk_status run(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, int inv, const scale_t *pre, const scale_t *post,
                       const finish_t *fin, cuzk_fr_t *out)
{
    unsigned bits[4], P = plan(d->k, bits), a = d->k;
    dfr *buf = (dfr *)x;
    const cuzk_gpu_ntt_kernels *kernel = kernel_of(d);
    for (unsigned i = 0; i < P; i++) {
        pass_t p;
        memset(&p, 0, sizeof p);
        p.k = d->k;
        p.a = a;
        p.s = bits[i];
        p.last = i == P - 1;
        unsigned avail = p.last ? d->k - p.s : a - p.s;
        unsigned want = d->opts.tile_log2 > p.s ? d->opts.tile_log2 - p.s : 0;
        p.lam = want < avail ? want : avail;
        p.in = i == 0 ? buf : d->scratch;
        p.out = !p.last ? d->scratch : out != NULL ? (dfr *)out : buf;
        p.tl = d->tl[inv];
        p.th = d->th[inv];
        p.sm = d->sm[inv];
        if (!d->opts.split_twiddles && d->dt_log != 0 && a <= d->dt_log) {
            p.dt = d->dt[inv];
            p.dt_shift = d->k - d->dt_log;
        } else if (!d->opts.split_twiddles && d->full != NULL) {
            p.dt = d->full;
            p.dt_neg = inv;
        }
        p.qlog = d->k < SMALL_LOG ? d->k : SMALL_LOG;
        if (i == 0) p.pre = *pre;
        if (p.last) p.post = *post;
        if (p.last && fin != NULL) p.fin = *fin;
        unsigned T = 1u << (p.s + p.lam);
        unsigned blocks = (unsigned)(d->n / T);
        kernel->pass<<<blocks, T / kernel->radix, T * sizeof(dfr)>>>(p);
        CUZK_CUDA_LAUNCHED();
        a -= p.s;
    }
    return CUZK_OK;
}

static const scale_t NO_SCALE = {NULL, NULL, {{0}}, 0};

extern "C" cuzk_status cuzk_gpu_ntt_forward(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d)
{
    return run(x, d, 0, &NO_SCALE, &NO_SCALE, NULL, NULL);
}

extern "C" cuzk_status cuzk_gpu_ntt_inverse(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d)
{
    scale_t post = {NULL, NULL, to_d(&d->n_inv), 1};
    return run(x, d, 1, &NO_SCALE, &post, NULL, NULL);
}

static cuzk_status coset_tables(cuzk_gpu_ntt_domain *d, int kind, const cuzk_fr_t *g)
{
    if (cuzk_fr_is_zero(g)) return CUZK_ERR_INVALID_ARG;
    if (d->have_g[kind] && cuzk_fr_eq(&d->g[kind], g)) return CUZK_OK;
    d->have_g[kind] = false;
    bool inv = kind == COSET_INV || kind == COSET_INV_RAW;
    bool scaled = kind == COSET_INV || kind == COSET_FWD_NINV;
    cuzk_fr_t base = *g;
    if (inv) cuzk_fr_inv_vartime(&base, g);
    if (d->whole) CUZK_TRY(powers(&d->gl[kind], d->n, &base, scaled ? &d->n_inv : NULL));
    else CUZK_TRY(split_tables(&d->gl[kind], &d->gh[kind], d->n, &base, scaled ? &d->n_inv : NULL));
    d->g[kind] = *g;
    d->have_g[kind] = true;
    return CUZK_OK;
}

static scale_t table_scale(const cuzk_gpu_ntt_domain *d, int kind)
{
    scale_t sc = {d->gl[kind], d->gh[kind], {{0}}, d->whole ? 3 : 2};
    return sc;
}

extern "C" cuzk_status cuzk_gpu_ntt_coset_forward(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g)
{
    CUZK_TRY(coset_tables(d, COSET_FWD, g));
    scale_t pre = table_scale(d, COSET_FWD);
    return run(x, d, 0, &pre, &NO_SCALE, NULL, NULL);
}

extern "C" cuzk_status cuzk_gpu_ntt_coset_inverse(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g)
{
    CUZK_TRY(coset_tables(d, COSET_INV, g));
    scale_t post = table_scale(d, COSET_INV);
    return run(x, d, 1, &NO_SCALE, &post, NULL, NULL);
}

static finish_t finish_of(const cuzk_gpu_ntt_finish *f)
{
    finish_t r;
    memset(&r, 0, sizeof r);
    if (f != NULL) {
        r.mul = (const dfr *)f->mul;
        r.minus = (const dfr *)f->minus;
        r.k = to_d(&f->k);
        r.has_k = f->has_k;
    }
    return r;
}

extern "C" cuzk_status cuzk_gpu_ntt_h_prepare(cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g, bool coset_inverse)
{
    CUZK_TRY(coset_tables(d, COSET_FWD_NINV, g));
    return coset_inverse ? coset_tables(d, COSET_INV_RAW, g) : CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_ntt_to_coset(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g,
                                             const cuzk_gpu_ntt_finish *fin, cuzk_fr_t *out)
{
    CUZK_TRY(coset_tables(d, COSET_FWD_NINV, g));
    CUZK_TRY(cuzk_gpu_ntt_inverse_raw(x, d));
    scale_t pre = table_scale(d, COSET_FWD_NINV);
    finish_t f = finish_of(fin);
    return run(x, d, 0, &pre, &NO_SCALE, &f, out);
}

extern "C" cuzk_status cuzk_gpu_ntt_inverse_raw(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d)
{
    return run(x, d, 1, &NO_SCALE, &NO_SCALE, NULL, NULL);
}

extern "C" cuzk_status cuzk_gpu_ntt_coset_inverse_raw(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g,
                                                      const cuzk_gpu_ntt_finish *fin)
{
    CUZK_TRY(coset_tables(d, COSET_INV_RAW, g));
    scale_t post = table_scale(d, COSET_INV_RAW);
    finish_t f = finish_of(fin);
    return run(x, d, 1, &NO_SCALE, &post, &f, NULL);
}

extern "C" cuzk_status cuzk_gpu_ntt_host(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, cuzk_gpu_ntt_kind kind,
                                         const cuzk_fr_t *g)
{
    cuzk_fr_t *dx = NULL;
    size_t bytes = d->n * sizeof(cuzk_fr_t);
    CUZK_TRY(cuzk_gpu_malloc((void **)&dx, bytes));
    cuzk_status st = cuzk_gpu_to_device(dx, x, bytes);
    if (st == CUZK_OK) {
        switch (kind) {
        case CUZK_GPU_NTT_FORWARD: st = cuzk_gpu_ntt_forward(dx, d); break;
        case CUZK_GPU_NTT_INVERSE: st = cuzk_gpu_ntt_inverse(dx, d); break;
        case CUZK_GPU_NTT_COSET_FORWARD: st = g ? cuzk_gpu_ntt_coset_forward(dx, d, g) : CUZK_ERR_INVALID_ARG; break;
        case CUZK_GPU_NTT_COSET_INVERSE: st = g ? cuzk_gpu_ntt_coset_inverse(dx, d, g) : CUZK_ERR_INVALID_ARG; break;
        default: st = CUZK_ERR_INVALID_ARG;
        }
    }
    if (st == CUZK_OK) st = cuzk_gpu_sync();
    if (st == CUZK_OK) st = cuzk_gpu_to_host(x, dx, bytes);
    cuzk_gpu_free(dx);
    return st;
}
