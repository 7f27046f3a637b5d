/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The NTT topic (ntt/): its pass kernel, and what it offers the rest of the GPU layer besides include/cuzk/gpu.h (its
 * memory, whole tables, and the transforms of Groth16's H with their pointwise work folded into the last pass). The
 * design is described in ntt.cu. */
#ifndef CUZK_GPU_NTT_CUH
#define CUZK_GPU_NTT_CUH

#include "ff/ff.cuh"
#include "runtime/runtime.cuh"

/* ---- the pass kernel, for the domain's transforms (ntt.cu) and the lab's measured multipliers ------------------- */
#define TW_SPLIT 14

typedef struct {
    const dfr *lo, *hi; /* factor(i) = hi[i >> 14]·lo[i mod 2^14] when lo != NULL */
    dfr c;              /* otherwise a constant factor c when mode = 1 */
    int mode;           /* 0: none, 1: constant, 2: split tables, 3: factor(i) = lo[i] */
} scale_t;

/* out = (v·mul[i] − minus[i])·k after the last pass's scaling, each part where set (cuzk_gpu_ntt_finish) */
typedef struct {
    const dfr *mul, *minus;
    dfr k;
    int has_k;
} finish_t;

typedef struct {
    const dfr *in;
    dfr *out;
    unsigned k, a, s, lam;
    int last;
    const dfr *tl, *th, *sm;
    const dfr *dt; /* the 2^(k − dt_shift)-th roots in order, when this pass's a allows; else NULL */
    unsigned dt_shift;
    int dt_neg; /* dt holds the forward roots and this transform is the inverse: ω^−e = dt[size − e] */
    unsigned qlog;
    scale_t pre, post;
    finish_t fin;
} pass_t;

static __device__ __forceinline__ unsigned brev(unsigned x, unsigned bits)
{
    return bits == 0 ? 0 : __brev(x) >> (32 - bits);
}

/* The Fr multiplication a pass kernel is compiled for: M::mul (ntt_mul_eo here; the lab's measured alternatives). */
template <typename M> static __device__ __forceinline__ void vmul(dfr *r, const dfr *a, const dfr *b)
{
    M::mul(r, a, b);
}
struct ntt_mul_eo {
    static __device__ __forceinline__ void mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul_eo(r, a, b); }
};

/* ω^E from the split tables of pure powers (lo[0] = hi[0] = 1) */
template <typename MV> static __device__ __forceinline__ dfr pow_split(const dfr *lo, const dfr *hi, size_t e)
{
    size_t el = e & ((1u << TW_SPLIT) - 1), eh = e >> TW_SPLIT;
    dfr w = dfr_load(&lo[el]);
    if (eh != 0) {
        dfr h = dfr_load(&hi[eh]);
        if (el != 0) vmul<MV>(&w, &w, &h);
        else w = h;
    }
    return w;
}

template <typename MV> static __device__ __forceinline__ void apply_scale(dfr *v, const scale_t *sc, size_t i)
{
    if (sc->mode == 1) {
        vmul<MV>(v, v, &sc->c);
    } else if (sc->mode == 2) {
        /* lo may carry a constant factor (1/n), so lo[0] is not 1 here: always multiply both */
        size_t el = i & ((1u << TW_SPLIT) - 1), eh = i >> TW_SPLIT;
        dfr f = dfr_load(&sc->lo[el]);
        if (eh != 0) {
            dfr h = dfr_load(&sc->hi[eh]);
            vmul<MV>(&f, &f, &h);
        }
        vmul<MV>(v, v, &f);
    } else if (sc->mode == 3) {
        dfr f = dfr_load(&sc->lo[i]);
        vmul<MV>(v, v, &f);
    }
}

/* One register step: Q stages (bits cbit+Q−1 .. cbit of m) over 2^Q elements per (base, l) combination. */
template <typename MV, int Q>
static __device__ __forceinline__ void dif_round(dfr *sh, unsigned s, unsigned lam, unsigned cbit, const dfr *sm,
                                                 unsigned qlog)
{
    const unsigned combos = 1u << (s + lam - Q);
    for (unsigned c = threadIdx.x; c < combos; c += blockDim.x) {
        unsigned l = c & ((1u << lam) - 1), rest = c >> lam;
        unsigned base = (rest & ((1u << cbit) - 1)) | ((rest >> cbit) << (cbit + Q));
        dfr v[1 << Q];
#pragma unroll
        for (int i = 0; i < (1 << Q); i++) v[i] = dfr_load(&sh[((base | ((unsigned)i << cbit)) << lam) + l]);
#pragma unroll
        for (int bb = Q - 1; bb >= 0; bb--) {
            unsigned b = cbit + bb;
#pragma unroll
            for (int i = 0; i < (1 << Q); i++) {
                if (i & (1 << bb)) continue;
                const int i2 = i | (1 << bb);
                unsigned j = (base | ((unsigned)i << cbit)) & ((1u << b) - 1);
                dfr t;
                dfr_sub(&t, &v[i], &v[i2]);
                dfr_add(&v[i], &v[i], &v[i2]);
                if (j != 0) {
                    dfr w = dfr_load(&sm[j << (qlog - b - 1)]);
                    vmul<MV>(&v[i2], &t, &w);
                } else {
                    v[i2] = t;
                }
            }
        }
#pragma unroll
        for (int i = 0; i < (1 << Q); i++) dfr_store(&sh[((base | ((unsigned)i << cbit)) << lam) + l], &v[i]);
    }
}

template <typename MV, int QMAX> static __global__ void __launch_bounds__(512) k_pass(pass_t p)
{
    extern __shared__ uint4 sh_raw[];
    dfr *sh = (dfr *)sh_raw;
    const unsigned s = p.s, lam = p.lam, L = 1u << lam, R = 1u << s, T = 1u << (s + lam);
    const size_t bid = blockIdx.x;

    /* load, tile layout sh[m·L + l] */
    if (!p.last) {
        const unsigned ab = p.a - s - lam; /* log2 of the lo-blocks per high part */
        size_t lo0 = (bid & (((size_t)1 << ab) - 1)) << lam, hi = bid >> ab;
        size_t base = (hi << p.a) + lo0, M = (size_t)1 << (p.a - s);
        for (unsigned idx = threadIdx.x; idx < T; idx += blockDim.x) {
            unsigned l = idx & (L - 1), m = idx >> lam;
            size_t g = base + m * M + l;
            dfr v = dfr_load(&p.in[g]);
            apply_scale<MV>(&v, &p.pre, g);
            dfr_store(&sh[idx], &v);
        }
    } else {
        const unsigned qb = p.k - s - lam;
        for (unsigned idx = threadIdx.x; idx < T; idx += blockDim.x) {
            unsigned m = idx & (R - 1), l = idx >> s;
            size_t g = ((bid + ((size_t)l << qb)) << s) + m;
            dfr v = dfr_load(&p.in[g]);
            apply_scale<MV>(&v, &p.pre, g);
            dfr_store(&sh[(m << lam) + l], &v);
        }
    }

    /* the 2^s-point DIFs, top bits first */
    unsigned rem = s;
    while (rem > 0) {
        __syncthreads();
        if (QMAX == 3 && rem >= 3) {
            dif_round<MV, (QMAX == 3 ? 3 : 2)>(sh, s, lam, rem - 3, p.sm, p.qlog);
            rem -= 3;
        } else if (rem >= 2) {
            dif_round<MV, 2>(sh, s, lam, rem - 2, p.sm, p.qlog);
            rem -= 2;
        } else {
            dif_round<MV, 1>(sh, s, lam, 0, p.sm, p.qlog);
            rem = 0;
        }
    }
    __syncthreads();

    if (!p.last) {
        const unsigned ab = p.a - s - lam;
        size_t lo0 = (bid & (((size_t)1 << ab) - 1)) << lam, hi = bid >> ab;
        size_t base = (hi << p.a) + lo0, M = (size_t)1 << (p.a - s);
        const unsigned tws = p.k - p.a;
        for (unsigned idx = threadIdx.x; idx < T; idx += blockDim.x) {
            unsigned l = idx & (L - 1), m = idx >> lam;
            dfr v = dfr_load(&sh[idx]);
            size_t e = ((lo0 + l) * (size_t)brev(m, s)) << tws;
            if (e != 0) {
                dfr w;
                if (p.dt != NULL) {
                    size_t de = e >> p.dt_shift;
                    w = dfr_load(&p.dt[p.dt_neg ? ((size_t)1 << (p.k - p.dt_shift)) - de : de]);
                } else {
                    w = pow_split<MV>(p.tl, p.th, e);
                }
                vmul<MV>(&v, &v, &w);
            }
            dfr_store(&p.out[base + m * M + l], &v);
        }
    } else {
        /* dest = rev_s(m)·2^(k−s) + rev_(k−s−lam)(bid)·2^lam + rev_lam(l); iterate with the destination contiguous */
        const unsigned qb = p.k - s - lam;
        size_t dbase = (size_t)brev((unsigned)bid, qb) << lam;
        for (unsigned idx = threadIdx.x; idx < T; idx += blockDim.x) {
            unsigned lr = idx & (L - 1), mr = idx >> lam;
            unsigned m = brev(mr, s), l = brev(lr, lam);
            dfr v = dfr_load(&sh[(m << lam) + l]);
            size_t dst = ((size_t)mr << (p.k - s)) + dbase + lr;
            apply_scale<MV>(&v, &p.post, dst);
            if (p.fin.mul != NULL) {
                dfr u = dfr_load(&p.fin.mul[dst]); /* may be out itself: this thread alone reads and writes dst */
                vmul<MV>(&v, &v, &u);
            }
            if (p.fin.minus != NULL) {
                dfr u = dfr_load(&p.fin.minus[dst]);
                dfr_sub(&v, &v, &u);
            }
            if (p.fin.has_k) vmul<MV>(&v, &v, &p.fin.k);
            dfr_store(&p.out[dst], &v);
        }
    }
}

/* A domain's pass kernel: one instantiation of k_pass and the threads' share of a tile (its register radix). */
struct cuzk_gpu_ntt_kernels {
    void (*pass)(pass_t);
    unsigned radix;
};

/* ---- what the prover uses besides include/cuzk/gpu.h ------------------------------------------------------------- */

/* Device bytes an NTT domain holds now. */
extern "C" uint64_t cuzk_gpu_ntt_domain_bytes(const cuzk_gpu_ntt_domain *d);
/* What whole tables (cuzk_gpu_ntt_opts.whole_tables) add to a domain of 2^log2n that uses `coset_kinds` coset
 * tables. */
extern "C" uint64_t cuzk_gpu_ntt_whole_bytes(unsigned log2n, unsigned coset_kinds);

/* H's transforms, each ending with an optional finish: out = (v·mul[i] − minus[i])·k, each part where set (mul may be
 * the output itself).
 *   to_coset: values on the domain → values on the coset g·H (an unscaled inverse NTT, then the coset forward with
 *             the 1/n moved into its shift table), written to out (x when NULL);
 *   inverse_raw, coset_inverse_raw: n times the coefficients (no 1/n anywhere), in place.
 * h_prepare makes the coset tables they use for shift g now (coset_inverse: coset_inverse_raw's too). */
typedef struct {
    const cuzk_fr_t *mul, *minus;
    cuzk_fr_t k;
    bool has_k;
} cuzk_gpu_ntt_finish;
extern "C" cuzk_status cuzk_gpu_ntt_h_prepare(cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g, bool coset_inverse);
extern "C" cuzk_status cuzk_gpu_ntt_to_coset(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g,
                                             const cuzk_gpu_ntt_finish *fin, cuzk_fr_t *out);
extern "C" cuzk_status cuzk_gpu_ntt_inverse_raw(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d);
extern "C" cuzk_status cuzk_gpu_ntt_coset_inverse_raw(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g,
                                                      const cuzk_gpu_ntt_finish *fin);

#endif
