/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Pippenger MSM and bitmap batch addition, written once for G1 and G2. The including file defines:
 *   G(name)        the group prefix (cuzk_g1_##name), with AFF, JAC, XYZZ its point types;
 *   FE, F(name)    the coordinate field (cuzk_fp_t, cuzk_fp_##name) and F_INV_VARTIME its variable-time inverse;
 *   MSM_CHUNK      how many points one batch of affine additions holds (one field inversion per round);
 *   MSM_BUCKET_COST the cost of reducing one bucket, in bucket additions (see cuzk_msm_plan_choose);
 *   MSM_GLV_PHI(r, p) optionally: an endomorphism ψ with ψ(P) = [z²]P (G1: (βx, −y); G2: (β²x, −y)), which enables
 *                  the GLV path for n <= MSM_GLV_MAX_N.
 *
 * GLV: k ≡ k1 + k2·z² (mod r) with |k1|, |k2| < 2^127 (balanced halves, cuzk_msm_glv_split), so Σ [k_i] P_i =
 * Σ [k1_i] P_i + [k2_i] ψ(P_i): an MSM of 2n points with 128-bit signed scalars (8 windows at c = 16 instead of 16),
 * so the same bucket additions, half the bucket reductions and doublings. A negative half negates its digits. The
 * ψ(P_i) are computed once per call (one multiplication each) into the scalar block; points are then numbered
 * 0 .. 2n − 1, the second half being the ψ(P_i). The limits per group are measured (g1_msm.c, g2_msm.c).
 *
 * Outline of one window of c bits (windows and point ranges are tasks spread over the workers):
 *   1. each scalar's signed digit d (Booth recoding, msm_digit) selects bucket |d| − 1, with the base negated when
 *      d < 0; a counting sort lists the points of every bucket together (offsets only, no points are copied);
 *   2. buckets are summed in chunks of consecutive buckets: the chunk's points are gathered into a work array,
 *      one run per bucket, and every run is halved in rounds of independent affine additions P + Q, all slopes
 *      of a round sharing one inversion (Montgomery's trick). Each addition costs 6 multiplications plus its share
 *      of the inversion, against 10–11 for a mixed XYZZ addition. With MSM_X8 (G1, where the compiler can build AVX-512
 *      IFMA code) large rounds run their inversion and additions 8 lanes at a time (G(x8_round), ff_x8.h) when the
 *      current CPU path is CUZK_CPU_IFMA. Any bucket distribution is handled: a bucket
 *      holding every point just takes log2(n) rounds, and P + P and P + (−P) are recognized;
 *   3. the window sum Σ_b (b + 1)·S_b is formed by running sums from the top bucket down, many segments of
 *      buckets at a time so that these additions too are batched affine ones (bucket_reduce).
 * The windows are then combined by doubling (Horner's rule). */

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "msm_internal.h"

enum { PAIR_ADD, PAIR_DBL, PAIR_A, PAIR_B, PAIR_INF };

#define MSM_SIGN_BIT 0x80000000u
#define MSM_AFFINE_REDUCE_MIN 256 /* buckets from which bucket_reduce batches its running sums */
#define MSM_PREFETCH 64           /* gathers ahead: bases are read in bucket order, i.e. at random */

/* One worker's scratch, carved out of the allocation made at the MSM entry. */
typedef struct {
    AFF *wk;          /* MSM_CHUNK points being summed */
    FE *inv;          /* MSM_CHUNK / 2: prefix products of the slope denominators, then their inverses */
    FE *den;          /* MSM_CHUNK / 2: the denominators */
    uint32_t *op_src; /* MSM_CHUNK: a round's operations: wk[src] (+ wk[src + 1]) -> wk[dst] */
    uint32_t *op_dst;
    uint8_t *op_kind;
    uint32_t *run_start; /* MSM_CHUNK: runs of the chunk, one per bucket */
    uint32_t *run_len;
    uint32_t *run_bucket;
    AFF *bsum;       /* 2^(c−1) bucket sums of the window */
    uint32_t *count; /* 2^(c−1) + 1 bucket counters, then bucket ends */
    uint32_t *order; /* point offsets sorted by bucket, MSM_SIGN_BIT set for a negated point */
#ifdef MSM_X8
    cuzk_fpx8 *pre; /* MSM_CHUNK / 16 (64-byte aligned): per block of 8 slopes, prefix products, then inverses */
    uint32_t *vop;  /* MSM_CHUNK / 2: the operation of each slope */
#endif
} G(msm_scratch);

#ifdef MSM_X8
/* The vector rounds' extra scratch: the blocks, the slope-to-operation map, alignment slack. */
#define MSM_X8_BYTES (MSM_CHUNK / 16 * sizeof(cuzk_fpx8) + MSM_CHUNK / 2 * sizeof(uint32_t) + 64)
/* A round with fewer slopes runs on the scalar path (the vector path adds a batch inverse of 8 lane products). */
#define MSM_X8_MIN 32
#else
#define MSM_X8_BYTES 0
#endif

/* One worker's scratch for 2^(c−1) buckets and part_len points (buckets = part_len = 0: batch addition). */
static size_t G(msm_worker_bytes)(size_t buckets, size_t part_len)
{
    return (MSM_CHUNK + buckets) * sizeof(AFF) + MSM_CHUNK * sizeof(FE) + 5 * MSM_CHUNK * sizeof(uint32_t) + MSM_CHUNK +
           (buckets + 1 + part_len) * sizeof(uint32_t) + 16 + MSM_X8_BYTES;
}

static void G(msm_scratch_carve)(G(msm_scratch) * s, void *mem, size_t buckets, size_t part_len)
{
    char *p = mem;
    s->wk = (AFF *)p;
    p += MSM_CHUNK * sizeof(AFF);
    s->bsum = (AFF *)p;
    p += buckets * sizeof(AFF);
    s->inv = (FE *)p;
    p += MSM_CHUNK / 2 * sizeof(FE);
    s->den = (FE *)p;
    p += MSM_CHUNK / 2 * sizeof(FE);
    uint32_t *u = (uint32_t *)p;
    s->op_src = u;
    s->op_dst = u + MSM_CHUNK;
    s->run_start = u + 2 * MSM_CHUNK;
    s->run_len = u + 3 * MSM_CHUNK;
    s->run_bucket = u + 4 * MSM_CHUNK;
    s->count = u + 5 * MSM_CHUNK;
    s->order = s->count + buckets + 1;
    /* the kind bytes sit last so the word arrays keep their alignment */
    s->op_kind = (uint8_t *)(s->order + part_len);
#ifdef MSM_X8
    uintptr_t a = ((uintptr_t)(s->op_kind + MSM_CHUNK) + 63) & ~(uintptr_t)63;
    s->pre = (cuzk_fpx8 *)a;
    s->vop = (uint32_t *)(s->pre + MSM_CHUNK / 16);
#endif
}

/* Asks for every cache line of a point: a G1 point spans two lines, a G2 point three or four. */
static inline void G(msm_prefetch)(const AFF *p)
{
    const char *c = (const char *)p;
    for (size_t off = 0; off < sizeof *p; off += 64) __builtin_prefetch(c + off);
    __builtin_prefetch(c + sizeof *p - 1);
}

/* Classifies p + q and writes the slope's denominator when the sum needs one. Infinity is looked for only when
 * may_inf says one can be present: gathered bases never are, so most rounds skip the test. */
static inline uint8_t G(pair_kind)(FE *den, const AFF *p, const AFF *q, bool may_inf)
{
    if (may_inf) {
        if (G(affine_is_infinity)(q)) return PAIR_A;
        if (G(affine_is_infinity)(p)) return PAIR_B;
    }
    if (!F(eq)(&p->x, &q->x)) {
        F(sub)(den, &q->x, &p->x);
        return PAIR_ADD;
    }
    /* same x: q = p (tangent slope; y = 0 would be a 2-torsion point, whose double is infinity) or q = −p */
    if (F(eq)(&p->y, &q->y) && !F(is_zero)(&p->y)) {
        F(dbl)(den, &p->y);
        return PAIR_DBL;
    }
    return PAIR_INF;
}

#ifdef MSM_X8
/* The additions and doublings of a round, 8 at a time (ff_x8.h): slope i (i < ninv) belongs to operation vop[i],
 * with den[i] its denominator and inv[i] its numerator (y2 − y1, or 3x² for a doubling); the sum replaces them
 * (x in den[i], y in inv[i]), canonical as cuzk_fp_eq needs, and the caller writes it to wk[op_dst] in order of
 * operation, as the scalar round does: a later operation's sum may land on an earlier one's source, so writing
 * into wk here would clobber the sources of the copies (PAIR_A, PAIR_B) that run afterwards. Lane l of block b holds
 * slope 8b + l; the batch inversion keeps 8 running products, one per lane, and inverts the 8 with one field
 * inversion. */
CUZK_FPX8_TARGET static void G(x8_round)(G(msm_scratch) * s, size_t ninv)
{
    const size_t nb = (ninv + 7) / 8;
    FE one;
    F(set_one)(&one);
    for (size_t i = ninv; i < 8 * nb; i++) {
        s->den[i] = one;
        memset(&s->inv[i], 0, sizeof s->inv[i]);
        s->vop[i] = s->vop[0];
    }
    const __m512i lane = _mm512_set_epi64(7 * 48, 6 * 48, 5 * 48, 4 * 48, 3 * 48, 2 * 48, 48, 0);
    cuzk_fpx8 acc, d, t;
    cuzk_fpx8_broadcast(&acc, &one);
    for (size_t b = 0; b < nb; b++) {
        s->pre[b] = acc;
        cuzk_fpx8_gather(&d, &s->den[8 * b], lane);
        cuzk_fpx8_mul(&acc, &acc, &d);
    }
    /* the 8 lane products, inverted by Montgomery's trick around one inversion */
    FE lp[8], q[8], li[8], u;
    cuzk_fpx8_canon(&acc, &acc);
    cuzk_fpx8_scatter(lp, 0xff, lane, &acc);
    q[0] = lp[0];
    for (int l = 1; l < 8; l++) F(mul)(&q[l], &q[l - 1], &lp[l]);
    F_INV_VARTIME(&u, &q[7]);
    for (int l = 7; l > 0; l--) {
        F(mul)(&li[l], &u, &q[l - 1]);
        F(mul)(&u, &u, &lp[l]);
    }
    li[0] = u;
    cuzk_fpx8_gather(&acc, li, lane);
    for (size_t b = nb; b-- > 0;) {
        cuzk_fpx8_gather(&d, &s->den[8 * b], lane);
        cuzk_fpx8_mul(&t, &acc, &s->pre[b]);
        cuzk_fpx8_mul(&acc, &acc, &d);
        s->pre[b] = t;
    }
    AFF *wk = s->wk;
    for (size_t b = 0; b < nb; b++) {
        int64_t src[8];
        for (int l = 0; l < 8; l++) src[l] = (int64_t)s->op_src[s->vop[8 * b + l]] * (int64_t)sizeof(AFF);
        const __m512i so = _mm512_loadu_si512(src);
        const __m512i fe = _mm512_set1_epi64((long long)sizeof(FE));
        cuzk_fpx8 lam, x1, y1, x2, x3, y3;
        cuzk_fpx8_gather(&d, &s->inv[8 * b], lane);
        cuzk_fpx8_mul(&lam, &d, &s->pre[b]);
        cuzk_fpx8_gather(&x1, wk, so);
        cuzk_fpx8_gather(&y1, wk, _mm512_add_epi64(so, fe));
        cuzk_fpx8_gather(&x2, wk, _mm512_add_epi64(so, _mm512_set1_epi64((long long)sizeof(AFF))));
        /* x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1 */
        cuzk_fpx8_mul(&x3, &lam, &lam);
        cuzk_fpx8_sub(&x3, &x3, &x1);
        cuzk_fpx8_sub(&x3, &x3, &x2);
        cuzk_fpx8_sub(&t, &x1, &x3);
        cuzk_fpx8_mul(&t, &t, &lam);
        cuzk_fpx8_sub(&y3, &t, &y1);
        cuzk_fpx8_canon(&x3, &x3);
        cuzk_fpx8_canon(&y3, &y3);
        cuzk_fpx8_scatter(&s->den[8 * b], 0xff, lane, &x3);
        cuzk_fpx8_scatter(&s->inv[8 * b], 0xff, lane, &y3);
    }
}
#endif

/* Halves every run of s->wk in rounds until each is at most target_len long (target_len >= 1); a run of length 1
 * then holds its sum at run_start. Runs are disjoint and in increasing order of start, and each round writes pair
 * t of a run to start + t, never past an unread source, so everything stays in place. may_inf: some point of the
 * runs may be infinity (otherwise only sums that vanish in a round bring one in). Returns whether one may be now. */
static bool G(tree_reduce)(G(msm_scratch) * s, size_t nruns, uint32_t target_len, bool may_inf)
{
    AFF *wk = s->wk;
    for (;;) {
        size_t nops = 0, ninv = 0;
        FE acc;
        F(set_one)(&acc);
#ifdef MSM_X8
        size_t pairs = 0;
        for (size_t r = 0; r < nruns; r++)
            if (s->run_len[r] > target_len) pairs += s->run_len[r] / 2;
        const bool vec = pairs >= MSM_X8_MIN && cuzk_cpu_path_current >= CUZK_CPU_IFMA;
#endif
        for (size_t r = 0; r < nruns; r++) {
            uint32_t len = s->run_len[r], st = s->run_start[r];
            if (len <= target_len) continue;
            uint32_t t = 0;
            for (; t + 1 < len; t += 2, nops++) {
                uint8_t k = G(pair_kind)(&s->den[ninv], &wk[st + t], &wk[st + t + 1], may_inf);
                s->op_src[nops] = st + t;
                s->op_dst[nops] = st + t / 2;
                s->op_kind[nops] = k;
                if (k <= PAIR_DBL) {
#ifdef MSM_X8
                    if (vec) {
                        /* the numerator goes where the scalar path keeps its prefix products */
                        const AFF *p = &wk[st + t];
                        if (k == PAIR_ADD) {
                            F(sub)(&s->inv[ninv], &p[1].y, &p[0].y);
                        } else {
                            FE x2;
                            F(sqr)(&x2, &p[0].x);
                            F(dbl)(&s->inv[ninv], &x2);
                            F(add)(&s->inv[ninv], &s->inv[ninv], &x2);
                        }
                        s->vop[ninv++] = (uint32_t)nops;
                        continue;
                    }
#endif
                    s->inv[ninv] = acc;
                    F(mul)(&acc, &acc, &s->den[ninv]);
                    ninv++;
                }
            }
            if (t < len) {
                s->op_src[nops] = st + t;
                s->op_dst[nops] = st + t / 2;
                s->op_kind[nops++] = PAIR_A;
            }
            s->run_len[r] = (len + 1) / 2;
        }
        if (nops == 0) return may_inf;
#ifdef MSM_X8
        if (vec) {
            G(x8_round)(s, ninv);
            /* the writes, in order of operation as in the scalar round (an earlier operation's source may be a
             * later one's destination); the sums wait in den (x) and inv (y) */
            for (size_t o = 0, i = 0; o < nops; o++) {
                const AFF *p = &wk[s->op_src[o]];
                uint8_t k = s->op_kind[o];
                if (k <= PAIR_DBL) {
                    wk[s->op_dst[o]].x = s->den[i];
                    wk[s->op_dst[o]].y = s->inv[i++];
                } else if (k == PAIR_A) {
                    wk[s->op_dst[o]] = p[0];
                } else if (k == PAIR_B) {
                    wk[s->op_dst[o]] = p[1];
                } else if (k == PAIR_INF) {
                    G(affine_set_infinity)(&wk[s->op_dst[o]]);
                    may_inf = true;
                }
            }
            continue;
        }
#endif
        /* acc = 1 / Π den; walking back, inv[i] (the product of the earlier ones) times acc is 1 / den_i */
        F_INV_VARTIME(&acc, &acc);
        for (size_t i = ninv; i-- > 0;) {
            FE t;
            F(mul)(&t, &acc, &s->inv[i]);
            F(mul)(&acc, &acc, &s->den[i]);
            s->inv[i] = t;
        }
        ninv = 0;
        for (size_t o = 0; o < nops; o++) {
            const AFF *p = &wk[s->op_src[o]];
            AFF *out = &wk[s->op_dst[o]];
            uint8_t k = s->op_kind[o];
            if (k == PAIR_A) {
                *out = p[0];
                continue;
            }
            if (k == PAIR_B) {
                *out = p[1];
                continue;
            }
            if (k == PAIR_INF) {
                G(affine_set_infinity)(out);
                may_inf = true;
                continue;
            }
            FE lam, x3, t;
            if (k == PAIR_ADD) {
                F(sub)(&t, &p[1].y, &p[0].y);
            } else {
                F(sqr)(&lam, &p[0].x);
                F(dbl)(&t, &lam);
                F(add)(&t, &t, &lam);
            }
            F(mul)(&lam, &t, &s->inv[ninv++]);
            /* x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1 */
            F(sqr)(&x3, &lam);
            F(sub)(&x3, &x3, &p[0].x);
            F(sub)(&x3, &x3, &p[1].x);
            F(sub)(&t, &p[0].x, &x3);
            F(mul)(&t, &t, &lam);
            F(sub)(&out->y, &t, &p[0].y);
            out->x = x3;
        }
    }
}

/* ---- MSM --------------------------------------------------------------------------------------------------------- */

typedef struct {
    const AFF *bases;
    const AFF *phi;    /* GLV: ψ(bases[i]), n_bases of them; NULL otherwise */
    const uint64_t *k; /* n scalars of klimbs limbs */
    unsigned klimbs;
    size_t n, n_bases; /* points (2·n_bases with GLV) and bases */
    msm_plan plan;
    unsigned workers;
    char *scratch_mem; /* workers × scratch_stride bytes */
    size_t scratch_stride, part_len;
    XYZZ *task_sum; /* one per task: Σ_b (b + 1)·S_b over the task's points */
    atomic_uint next_task;
} G(msm_ctx);

/* Σ_b (b + 1)·S_b over the bucket sums S_b = s->bsum[b], b < m (infinity allowed).
 *
 * Few buckets: running sums from the top, R += S_b and T += R, in XYZZ (about 24 multiplications a bucket).
 * Many buckets: the same running sums inside L segments of consecutive buckets at once, so each step is a batch
 * of independent affine additions sharing one inversion (about 12 multiplications a bucket); segment k gives
 * R_k = Σ S_b and T_k = Σ (b − kL + 1)·S_b, and the whole is Σ_k T_k + L·Σ_k k·R_k, the last sum by running
 * sums over the segments. */
static void G(bucket_reduce)(G(msm_scratch) * s, uint32_t m, XYZZ *out)
{
    XYZZ run, tot;
    G(xyzz_set_infinity)(&run);
    G(xyzz_set_infinity)(&tot);
    if (m < MSM_AFFINE_REDUCE_MIN) {
        for (uint32_t b = m; b-- > 0;) {
            if (!G(affine_is_infinity)(&s->bsum[b])) G(xyzz_add_affine)(&run, &run, &s->bsum[b]);
            if (!G(xyzz_is_infinity)(&run)) G(xyzz_add)(&tot, &tot, &run);
        }
        *out = tot;
        return;
    }
    /* segment length: a power of two near sqrt(m / 11), balancing its 2L inversions against the XYZZ work on
     * m / L segments, and at least 4m / MSM_CHUNK so the segments' 4 points each fit the work array */
    unsigned lg = 1;
    while (((uint64_t)1 << (2 * lg)) * 11 < m) lg++;
    while (((uint64_t)m << 2) > ((uint64_t)MSM_CHUNK << lg)) lg++;
    const uint32_t len = (uint32_t)1 << lg, nseg = (m + len - 1) / len;
    /* wk[2k], wk[2k + 1]: R_k and the bucket to add; wk[2 nseg + 2k], wk[2 nseg + 2k + 1]: T_k and R_k */
    AFF *wk = s->wk;
    memset(wk, 0, 4 * (size_t)nseg * sizeof *wk);
    for (uint32_t i = len; i-- > 0;) {
        for (uint32_t k = 0; k < nseg; k++) {
            uint32_t b = k * len + i;
            if (b < m) {
                wk[2 * k + 1] = s->bsum[b];
            } else {
                G(affine_set_infinity)(&wk[2 * k + 1]);
            }
            s->run_start[k] = 2 * k;
            s->run_len[k] = 2;
        }
        G(tree_reduce)(s, nseg, 1, true);
        for (uint32_t k = 0; k < nseg; k++) {
            wk[2 * nseg + 2 * k + 1] = wk[2 * k];
            s->run_start[k] = 2 * nseg + 2 * k;
            s->run_len[k] = 2;
        }
        G(tree_reduce)(s, nseg, 1, true);
    }
    for (uint32_t k = nseg; k-- > 1;) {
        if (!G(affine_is_infinity)(&wk[2 * k])) G(xyzz_add_affine)(&run, &run, &wk[2 * k]);
        if (!G(xyzz_is_infinity)(&run)) G(xyzz_add)(&tot, &tot, &run);
    }
    for (unsigned j = 0; j < lg && !G(xyzz_is_infinity)(&tot); j++) G(xyzz_dbl)(&tot, &tot);
    for (uint32_t k = 0; k < nseg; k++) {
        if (!G(affine_is_infinity)(&wk[2 * nseg + 2 * k])) G(xyzz_add_affine)(&tot, &tot, &wk[2 * nseg + 2 * k]);
    }
    *out = tot;
}

/* Digit j of point i's scalar: a GLV half is a magnitude with its sign in CUZK_MSM_GLV_NEG, so its digits are those
 * of the magnitude, negated when the half is negative. */
static inline int32_t G(msm_digit_at)(const G(msm_ctx) * x, size_t i, unsigned j, unsigned c)
{
    if (x->klimbs == 4) return msm_digit(x->k + 4 * i, 4, j, c);
    const uint64_t *k = x->k + 2 * i;
    const uint64_t m[2] = {k[0], k[1] & ~CUZK_MSM_GLV_NEG};
    int32_t d = msm_digit(m, 2, j, c);
    return k[1] & CUZK_MSM_GLV_NEG ? -d : d;
}

/* One window, one range of points: counting sort by bucket, batch-affine bucket sums, running-sum reduction. */
static void G(msm_task)(G(msm_ctx) * x, G(msm_scratch) * s, unsigned task)
{
    const unsigned c = x->plan.c, parts = x->plan.parts, j = task / parts, part = task % parts;
    const size_t lo = x->n * part / parts, hi = x->n * (part + 1) / parts;
    const uint32_t nb = (uint32_t)1 << (c - 1);
    uint32_t *count = s->count, *order = s->order;

    /* counting sort: count[b + 1] counts bucket b, then count[b] becomes bucket b's start, then (after the
     * scatter moved it along) its end; bucket b spans [b ? count[b − 1] : 0, count[b]) */
    memset(count, 0, (nb + 1) * sizeof *count);
    for (size_t i = lo; i < hi; i++) {
        int32_t d = G(msm_digit_at)(x, i, j, c);
        count[d < 0 ? -d : d]++;
    }
    uint32_t sum = 0;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t t = count[b + 1];
        count[b] = sum;
        sum += t;
    }
    for (size_t i = lo; i < hi; i++) {
        int32_t d = G(msm_digit_at)(x, i, j, c);
        if (d == 0) continue;
        uint32_t b = (uint32_t)(d < 0 ? -d : d) - 1;
        order[count[b]++] = (uint32_t)(i - lo) | (d < 0 ? MSM_SIGN_BIT : 0);
    }

    /* point v (offset v − lo in order) is bases[v] below n_bases, else phi[v − n_bases] */
    const AFF *bases = x->bases, *phi = x->phi;
    const size_t n_bases = x->n_bases;
    AFF carry;
    bool has_carry = false;
    int64_t b = (int64_t)nb - 1;
    while (b >= 0 && count[b] == (b ? count[b - 1] : 0)) b--; /* the top window uses few buckets */
    const int64_t top = b;
    memset(s->bsum, 0, (size_t)(top + 1) * sizeof *s->bsum); /* all zero is infinity: the empty buckets */
    uint32_t pos = b >= 0 ? count[b] : 0; /* order[0, pos) is still to gather; bucket b's part of it ends there */
    while (b >= 0) {
        /* gather a chunk of consecutive buckets, top down, one run each; order is read backwards, so the next
         * entries to prefetch are just below, whichever bucket they belong to */
        size_t used = 0, nruns = 0;
        bool partial = false, may_inf = false;
        while (b >= 0 && !partial) {
            uint32_t bs = b ? count[b - 1] : 0;
            size_t need = (pos - bs) + has_carry;
            if (need > MSM_CHUNK - used && used > 0) break;
            uint32_t st = (uint32_t)used;
            if (has_carry) {
                s->wk[used++] = carry;
                may_inf = G(affine_is_infinity)(&carry);
            }
            while (pos > bs && used < MSM_CHUNK) {
                pos--;
                if (pos >= MSM_PREFETCH) {
                    size_t v = lo + (order[pos - MSM_PREFETCH] & ~MSM_SIGN_BIT);
                    G(msm_prefetch)(v < n_bases ? &bases[v] : &phi[v - n_bases]);
                }
                uint32_t e = order[pos];
                size_t v = lo + (e & ~MSM_SIGN_BIT);
                const AFF *p = v < n_bases ? &bases[v] : &phi[v - n_bases];
                s->wk[used] = *p;
                if (e & MSM_SIGN_BIT) F(neg)(&s->wk[used].y, &p->y);
                used++;
            }
            partial = pos > bs;
            if (used > st) {
                s->run_start[nruns] = st;
                s->run_len[nruns] = (uint32_t)used - st;
                s->run_bucket[nruns] = (uint32_t)b;
                nruns++;
            }
            if (!partial) {
                has_carry = false;
                b--;
            }
        }
        G(tree_reduce)(s, nruns, 1, may_inf);
        for (size_t r = 0; r < nruns; r++) {
            const AFF *sb = &s->wk[s->run_start[r]];
            if (partial && r + 1 == nruns) {
                carry = *sb;
                has_carry = true;
                break;
            }
            s->bsum[s->run_bucket[r]] = *sb;
        }
    }
    XYZZ total;
    G(bucket_reduce)(s, (uint32_t)(top + 1), &total);
    x->task_sum[task] = total;
}

static void G(msm_worker)(void *arg, unsigned id)
{
    G(msm_ctx) *x = arg;
    G(msm_scratch) s;
    G(msm_scratch_carve)
    (&s, x->scratch_mem + (size_t)id * x->scratch_stride, (size_t)1 << (x->plan.c - 1), x->part_len);
    const unsigned ntasks = x->plan.nw * x->plan.parts;
    for (;;) {
        unsigned t = atomic_fetch_add(&x->next_task, 1);
        if (t >= ntasks) break;
        G(msm_task)(x, &s, t);
    }
}

/* Copies the scalars as canonical limbs, zeroing those of bases at infinity (so no later pass has to look at a
 * base to skip it), and checks raw scalars against r. Each worker takes an equal slice. */
typedef struct {
    uint64_t (*k)[4];
    uint64_t (*glv)[2]; /* GLV: k1 of scalar i at glv[i], k2 at glv[n + i] (k is then NULL) */
    AFF *phi;           /* GLV: ψ(bases[i]) */
    const AFF *bases;
    const cuzk_fr_t *mont;
    const uint64_t (*raw)[4];
    size_t n;
    unsigned threads;
    atomic_bool out_of_range;
} G(msm_prep_ctx);

static void G(msm_prep_worker)(void *arg, unsigned id)
{
    G(msm_prep_ctx) *x = arg;
    size_t lo = x->n * id / x->threads, hi = x->n * (id + 1) / x->threads;
    for (size_t i = lo; i < hi; i++) {
        uint64_t tmp[4], *k = x->glv ? tmp : x->k[i];
        if (x->mont) {
            cuzk_fr_to_limbs(k, &x->mont[i]);
        } else {
            if (!cuzk_msm_scalar_in_range(x->raw[i])) atomic_store(&x->out_of_range, true);
            memcpy(k, x->raw[i], sizeof tmp);
        }
        if (G(affine_is_infinity)(&x->bases[i])) memset(k, 0, sizeof tmp);
#ifdef MSM_GLV_PHI
        if (x->glv) {
            /* a raw scalar >= r fails the call; its split is never used */
            cuzk_msm_glv_split(x->glv[i], x->glv[x->n + i], k);
            MSM_GLV_PHI(&x->phi[i], &x->bases[i]);
        }
#endif
    }
}

/* What one MSM of n points (1 <= n <= MSM_MAX_N) on `threads` workers (1 .. MSM_MAX_THREADS) allocates: the plan
 * and the three blocks msm_run requests, in order (workers' scratch, task sums, scalar limbs — with GLV the 2n
 * halves, same size, followed by the n points ψ(P_i)). msm_run sizes its allocations with this and
 * G(msm_scratch_bytes) reports it, so the memory model cannot drift from the code. */
typedef struct {
    bool glv;
    size_t points; /* n, or 2n with GLV */
    msm_plan plan;
    unsigned workers;
    size_t part_len, stride;
    size_t bytes[CUZK_MSM_SCRATCH_ALLOCS];
} G(msm_layout);

static void G(msm_layout_of)(G(msm_layout) * l, size_t n, unsigned threads)
{
    l->glv = false;
#ifdef MSM_GLV_PHI
    l->glv = n <= MSM_GLV_MAX_N;
#endif
    l->points = l->glv ? 2 * n : n;
    cuzk_msm_plan_choose(&l->plan, l->points, threads, MSM_BUCKET_COST, l->glv ? MSM_GLV_BITS : MSM_SCALAR_BITS);
    const unsigned ntasks = l->plan.nw * l->plan.parts;
    l->workers = threads < ntasks ? threads : ntasks;
    l->part_len = (l->points + l->plan.parts - 1) / l->plan.parts;
    l->stride = (G(msm_worker_bytes)((size_t)1 << (l->plan.c - 1), l->part_len) + 63) & ~(size_t)63;
    l->bytes[0] = l->stride * l->workers;
    l->bytes[1] = ntasks * sizeof(XYZZ);
    l->bytes[2] = (n + 1) * sizeof(uint64_t[4]) + (l->glv ? n * sizeof(AFF) : 0);
}

size_t G(msm_scratch_bytes)(size_t n, unsigned threads)
{
    if (n == 0 || n > MSM_MAX_N) return 0; /* nothing is allocated */
    if (threads == 0) threads = 1;
    if (threads > MSM_MAX_THREADS) threads = MSM_MAX_THREADS;
    G(msm_layout) l;
    G(msm_layout_of)(&l, n, threads);
    size_t sum = 0;
    for (int i = 0; i < CUZK_MSM_SCRATCH_ALLOCS; i++) sum += l.bytes[i];
    return sum;
}

/* G(msm_scratch_bytes) less the vector rounds' scratch of its workers (the part a smaller count may have more of) */
static size_t G(msm_scratch_bytes_scalar)(size_t n, unsigned threads)
{
    size_t b = G(msm_scratch_bytes)(n, threads);
    if (b > 0) {
        G(msm_layout) l;
        G(msm_layout_of)(&l, n, threads);
        b -= (size_t)l.workers * MSM_X8_BYTES;
    }
    return b;
}

size_t G(msm_scratch_bytes_upto)(size_t n, unsigned threads)
{
    if (n > MSM_MAX_N) n = MSM_MAX_N;
    if (threads == 0) threads = 1;
    if (threads > MSM_MAX_THREADS) threads = MSM_MAX_THREADS;
    /* fewer points may choose a narrower window and so more task sums: at most 128 windows (c = 2) times one part
     * per worker (see msm.h) */
    size_t b = G(msm_scratch_bytes_scalar)(n, threads);
#ifdef MSM_GLV_PHI
    /* GLV (n <= MSM_GLV_MAX_N) needs more than the plain path just above its limit */
    if (n > MSM_GLV_MAX_N) {
        size_t g = G(msm_scratch_bytes_scalar)(MSM_GLV_MAX_N, threads);
        if (g > b) b = g;
    }
#endif
    /* and any count has at most `threads` workers, each with the vector rounds' scratch */
    return b + (size_t)(MSM_SCALAR_BITS / 2) * threads * sizeof(XYZZ) + (size_t)threads * MSM_X8_BYTES;
}

/* The MSM proper; scalars come either as Fr elements (mont) or as canonical limbs (raw). */
static cuzk_status G(msm_run)(JAC *r, const AFF *bases, const cuzk_fr_t *mont, const uint64_t (*raw)[4], size_t n,
                              unsigned threads)
{
    if (n > MSM_MAX_N) return CUZK_ERR_INVALID_ARG;
    if (threads == 0) threads = 1;
    if (threads > MSM_MAX_THREADS) threads = MSM_MAX_THREADS;
    G(msm_ctx) x;
    x.bases = bases;
    G(msm_layout) lay;
    G(msm_layout_of)(&lay, n, threads);
    x.n = lay.points;
    x.n_bases = n;
    x.plan = lay.plan;
    x.workers = lay.workers;
    x.part_len = lay.part_len;
    x.scratch_stride = lay.stride;
    x.scratch_mem = malloc(lay.bytes[0]);
    x.task_sum = malloc(lay.bytes[1]);
    uint64_t(*k)[4] = malloc(lay.bytes[2]);
    if (x.scratch_mem == NULL || x.task_sum == NULL || k == NULL) {
        free(x.scratch_mem);
        free(x.task_sum);
        free(k);
        return CUZK_ERR_NOMEM;
    }
    /* the copy is a small part of the work: a thread per 16 K points at most */
    size_t prep_threads = 1 + n / 16384 < threads ? 1 + n / 16384 : threads;
    G(msm_prep_ctx) prep = {.k = k, .bases = bases, .mont = mont, .raw = raw, .n = n};
    x.phi = NULL;
    x.k = &k[0][0];
    x.klimbs = 4;
    if (lay.glv) {
        /* the 2n halves take the n + 1 scalars' first 2n · 16 bytes, ψ(P_i) follow the whole n + 1 */
        prep.k = NULL;
        prep.glv = (uint64_t(*)[2])k;
        prep.phi = (AFF *)(k + n + 1);
        x.phi = prep.phi;
        x.klimbs = 2;
    }
    prep.threads = (unsigned)prep_threads;
    atomic_init(&prep.out_of_range, false);
    cuzk_par_run(prep.threads, G(msm_prep_worker), &prep);
    cuzk_status st = CUZK_ERR_SCALAR_RANGE;
    if (!atomic_load(&prep.out_of_range)) {
        atomic_init(&x.next_task, 0);
        cuzk_par_run(x.workers, G(msm_worker), &x);

        /* Horner over the windows, top down: acc = 2^c·acc + W_j */
        JAC acc, t;
        G(jac_set_infinity)(&acc);
        for (unsigned j = x.plan.nw; j-- > 0;) {
            for (unsigned i = 0; i < x.plan.c && !G(jac_is_infinity)(&acc); i++) G(jac_dbl)(&acc, &acc);
            for (unsigned p = 0; p < x.plan.parts; p++) {
                G(xyzz_to_jac)(&t, &x.task_sum[j * x.plan.parts + p]);
                G(jac_add)(&acc, &acc, &t);
            }
        }
        *r = acc;
        st = CUZK_OK;
    }
    free(x.scratch_mem);
    free(x.task_sum);
    free(k);
    return st;
}

cuzk_status G(msm_raw)(JAC *r, const AFF *bases, const uint64_t (*scalars)[4], size_t n, unsigned threads)
{
    if (n == 0) {
        G(jac_set_infinity)(r);
        return CUZK_OK;
    }
    return G(msm_run)(r, bases, NULL, scalars, n, threads);
}

cuzk_status G(msm)(JAC *r, const AFF *bases, const cuzk_fr_t *scalars, size_t n, unsigned threads)
{
    if (n == 0) {
        G(jac_set_infinity)(r);
        return CUZK_OK;
    }
    return G(msm_run)(r, bases, scalars, NULL, n, threads);
}

/* ---- Batch addition ---------------------------------------------------------------------------------------------- */

typedef struct {
    const AFF *bases;
    const uint64_t *bitmap;
    size_t n;
    unsigned parts;
    char *scratch_mem;
    size_t scratch_stride;
    JAC *part_sum;
    atomic_uint next_part;
} G(badd_ctx);

/* Sums the selected points of one range: the work array is filled, halved a few rounds down to an eighth, and
 * filled again behind what is left, so every round still shares its inversion among many additions. */
static void G(badd_part)(G(badd_ctx) * x, G(msm_scratch) * s, unsigned part)
{
    const size_t lo = x->n * part / x->parts, hi = x->n * (part + 1) / x->parts;
    const uint32_t keep = MSM_CHUNK / 8;
    uint32_t used = 0;
    bool may_inf = false;
    for (size_t i = lo; i < hi; i++) {
        if (((x->bitmap[i / 64] >> (i % 64)) & 1) == 0) continue;
        if (G(affine_is_infinity)(&x->bases[i])) continue;
        s->wk[used++] = x->bases[i];
        if (used == MSM_CHUNK) {
            s->run_start[0] = 0;
            s->run_len[0] = used;
            may_inf = G(tree_reduce)(s, 1, keep, may_inf);
            used = s->run_len[0];
        }
    }
    JAC sum;
    G(jac_set_infinity)(&sum);
    if (used > 0) {
        s->run_start[0] = 0;
        s->run_len[0] = used;
        G(tree_reduce)(s, 1, 1, may_inf);
        G(jac_from_affine)(&sum, &s->wk[0]);
    }
    x->part_sum[part] = sum;
}

static void G(badd_worker)(void *arg, unsigned id)
{
    G(badd_ctx) *x = arg;
    G(msm_scratch) s;
    G(msm_scratch_carve)(&s, x->scratch_mem + (size_t)id * x->scratch_stride, 0, 0);
    for (;;) {
        unsigned p = atomic_fetch_add(&x->next_part, 1);
        if (p >= x->parts) break;
        G(badd_part)(x, &s, p);
    }
}

/* The parts of a batch addition of n points on `threads` workers (1 .. MSM_MAX_THREADS), the workers' scratch
 * stride and the two blocks G(batch_add) requests (workers' scratch, part sums): the one sizing of both the
 * allocation and G(batch_add_scratch_bytes). */
static size_t G(badd_layout)(size_t n, unsigned threads, size_t *stride, size_t bytes[CUZK_BATCH_ADD_SCRATCH_ALLOCS])
{
    /* a few parts per worker balance the load; each part ends in a short tail of small rounds */
    size_t parts = threads == 1 ? 1 : (size_t)threads * 4;
    if (parts > n / MSM_CHUNK + 1) parts = n / MSM_CHUNK + 1;
    size_t workers = threads < parts ? threads : parts;
    *stride = (G(msm_worker_bytes)(0, 0) + 63) & ~(size_t)63;
    bytes[0] = *stride * workers;
    bytes[1] = parts * sizeof(JAC);
    return parts;
}

size_t G(batch_add_scratch_bytes)(size_t n, unsigned threads)
{
    if (n > MSM_MAX_N) return 0;
    if (threads == 0) threads = 1;
    if (threads > MSM_MAX_THREADS) threads = MSM_MAX_THREADS;
    size_t stride, bytes[CUZK_BATCH_ADD_SCRATCH_ALLOCS];
    G(badd_layout)(n, threads, &stride, bytes);
    return bytes[0] + bytes[1];
}

cuzk_status G(batch_add)(JAC *r, const AFF *bases, const uint64_t *bitmap, size_t n, unsigned threads)
{
    if (n > MSM_MAX_N) return CUZK_ERR_INVALID_ARG;
    if (threads == 0) threads = 1;
    if (threads > MSM_MAX_THREADS) threads = MSM_MAX_THREADS;
    G(badd_ctx) x;
    x.bases = bases;
    x.bitmap = bitmap;
    x.n = n;
    size_t bytes[CUZK_BATCH_ADD_SCRATCH_ALLOCS];
    size_t parts = G(badd_layout)(n, threads, &x.scratch_stride, bytes);
    x.parts = (unsigned)parts;
    unsigned workers = threads < x.parts ? threads : x.parts;
    x.scratch_mem = malloc(bytes[0]);
    x.part_sum = malloc(bytes[1]);
    if (x.scratch_mem == NULL || x.part_sum == NULL) {
        free(x.scratch_mem);
        free(x.part_sum);
        return CUZK_ERR_NOMEM;
    }
    atomic_init(&x.next_part, 0);
    cuzk_par_run(workers, G(badd_worker), &x);
    JAC acc;
    G(jac_set_infinity)(&acc);
    for (size_t p = 0; p < parts; p++) G(jac_add)(&acc, &acc, &x.part_sum[p]);
    *r = acc;
    free(x.scratch_mem);
    free(x.part_sum);
    return CUZK_OK;
}
