/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk and sppark side by side on one GPU, in one process (scripts/bench-vs-sppark.sh; built only when CMake is
 * given CUZK_SPPARK_DIR): the NTT over Fr (forward, inverse, coset forward) and the G1 / G2 MSM, both sides reading
 * the same device-resident data. cuzk is reached through include/cuzk/gpu.h only; sppark through its own headers,
 * read from the sppark tree the build names (nothing of sppark is kept in this repository).
 *
 * What both sides share, so that results compare element by element: Fr and Fp in Montgomery form (R = 2^256 and
 * 2^384, little-endian words); the NTT domain of generator 7 (sppark's BLS12-381 tables start from the 2^32-th root
 * 7^((r-1)/2^32), cuzk's CUZK_FR_ROOTS_GEN7 too) and the coset shift 7 (sppark's group generator); the inverse
 * includes 1/n on both sides; affine points as (x, y), infinity all zero; MSM scalars in Montgomery form.
 *
 * NTT: cuzk takes natural order in and out. sppark is timed under the same contract (its order NN, which
 * bit-reverses the input first: sppark_ms, the ratio's denominator) and without that permutation (sppark_nr_ms: NR,
 * natural in and bit-reversed out, for the forward transforms; sppark_rn_ms: RN, the input bit-reversed beforehand,
 * for the inverse), each checked against cuzk's output through the permutation. Every repetition restores the input
 * (not timed) and times cuzk then sppark back to back by CUDA events; the median after one checked warm-up.
 * MSM: wall time of whole calls (each ends with the window sums combined on the host, on both sides), the median
 * after one warm-up whose results are compared in affine form.
 *
 *   cuzk-vs-sppark [--only ntt|msm] [--reps N] [--msm-reps N] [--ntt-log2 L,..] [--g1-log2 L,..] [--g2-log2 L,..]
 *
 * One JSON line per kernel and size ({"kernel":"ntt_fwd","log_n":24,"cuzk_ms":..,"sppark_ms":..,"ratio":..,...},
 * ratio = cuzk / sppark). Exit status 0 when every pair of results agreed, 1 when one did not, 2 on an error. */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/gpu.h"

/* sppark's headers from the tree the build names; its device list (util/all_gpus.cpp) is compiled in here, as its own
 * builds compile it beside their code; messages in its errors */
#define TAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE
#include <ff/bls12-381-fp2.hpp>
#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>
#include <ntt/ntt.cuh>
#define SPPARK_DONT_INSTANTIATE_TEMPLATES
#include <msm/pippenger.cuh>
#include <util/all_gpus.cpp>

#ifndef CUZK_REF_SPPARK
#define CUZK_REF_SPPARK ""
#endif

typedef jacobian_t<fp_t> sp_g1_point;
typedef xyzz_t<fp_t> sp_g1_bucket;
typedef sp_g1_bucket::affine_t sp_g1_affine;
typedef jacobian_t<fp2_t> sp_g2_point;
typedef xyzz_t<fp2_t> sp_g2_bucket;
typedef sp_g2_bucket::affine_t sp_g2_affine;

static_assert(sizeof(fr_t) == sizeof(cuzk_fr_t), "Fr elements differ in size");
static_assert(sizeof(sp_g1_affine::mem_t) == sizeof(cuzk_g1_affine_t), "G1 affine points differ in size");
static_assert(sizeof(sp_g2_affine::mem_t) == sizeof(cuzk_g2_affine_t), "G2 affine points differ in size");
#ifndef __CUDA_ARCH__
static_assert(sizeof(sp_g1_affine) == sizeof(cuzk_g1_affine_t), "host G1 affine points differ in size");
static_assert(sizeof(sp_g2_affine) == sizeof(cuzk_g2_affine_t), "host G2 affine points differ in size");
#endif

#define MAX_REPS 101
#define MAX_SIZES 16

/* ---- errors ------------------------------------------------------------------------------------------------------ */
static void die(const char *what, const char *detail)
{
    fprintf(stderr, "cuzk-vs-sppark: %s: %s\n", what, detail);
    exit(2);
}

static void ck(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) die(what, cudaGetErrorString(e));
}

static void ckz(cuzk_status st, const char *what)
{
    if (st != CUZK_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s (%s)", cuzk_status_str(st), cuzk_gpu_last_error());
        die(what, msg);
    }
}

static void ckr(const RustError &e, const char *what)
{
    if (e.code != 0) die(what, e.message ? e.message : "sppark error");
}

/* ---- device helpers ---------------------------------------------------------------------------------------------- */
__constant__ uint64_t fr_modulus[CUZK_FR_LIMBS];

__device__ static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

__device__ static size_t brev(size_t i, unsigned lg) { return (size_t)(__brevll((unsigned long long)i) >> (64 - lg)); }

/* v mod r, for v < 2^256 (< 3r): sides may keep values in [r, 2^256) */
__device__ static void fr_canonical(uint64_t v[CUZK_FR_LIMBS])
{
    for (int t = 0; t < 2; t++) {
        bool ge = true;
        for (int w = CUZK_FR_LIMBS - 1; w >= 0; w--) {
            if (v[w] != fr_modulus[w]) {
                ge = v[w] > fr_modulus[w];
                break;
            }
        }
        if (!ge) return;
        uint64_t borrow = 0;
        for (int w = 0; w < CUZK_FR_LIMBS; w++) {
            uint64_t m = fr_modulus[w], d = v[w] - m - borrow;
            borrow = (v[w] < m) || (v[w] == m && borrow);
            v[w] = d;
        }
    }
}

/* n elements below r (Montgomery form: every such word string is one), close to uniform, none zero */
__global__ static void k_random_fr(cuzk_fr_t *x, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t v[CUZK_FR_LIMBS];
        for (int w = 0; w < CUZK_FR_LIMBS; w++) v[w] = mix64(seed + CUZK_FR_LIMBS * i + w);
        v[CUZK_FR_LIMBS - 1] >>= 1;
        fr_canonical(v);
        if ((v[0] | v[1] | v[2] | v[3]) == 0) v[0] = 1;
        for (int w = 0; w < CUZK_FR_LIMBS; w++) x[i].l[w] = v[w];
    }
}

__global__ static void k_bitrev_copy(cuzk_fr_t *dst, const cuzk_fr_t *src, unsigned lg)
{
    size_t n = (size_t)1 << lg;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[brev(i, lg)];
}

/* bad[0] += elements where a[i] != b[i] (b[bitrev(i)] when rev), bad[1] = the lowest such i (both mod r) */
__global__ static void k_compare(const cuzk_fr_t *a, const cuzk_fr_t *b, unsigned lg, bool rev, unsigned long long *bad)
{
    size_t n = (size_t)1 << lg;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t u[CUZK_FR_LIMBS], v[CUZK_FR_LIMBS];
        const cuzk_fr_t *bp = &b[rev ? brev(i, lg) : i];
        for (int w = 0; w < CUZK_FR_LIMBS; w++) u[w] = a[i].l[w], v[w] = bp->l[w];
        fr_canonical(u);
        fr_canonical(v);
        if (u[0] != v[0] || u[1] != v[1] || u[2] != v[2] || u[3] != v[3]) {
            atomicAdd(&bad[0], 1ULL);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

static const unsigned GRID = 132 * 8, BLOCK = 256;

/* ---- timing ------------------------------------------------------------------------------------------------------ */
typedef struct {
    double v[MAX_REPS];
    int n;
} runs;

static double median(runs *r)
{
    std::sort(r->v, r->v + r->n);
    return r->n == 0 ? 0 : r->n % 2 ? r->v[r->n / 2] : (r->v[r->n / 2 - 1] + r->v[r->n / 2]) / 2;
}

static double wall_ms(void)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* ---- options ----------------------------------------------------------------------------------------------------- */
typedef struct {
    unsigned v[MAX_SIZES];
    int n;
} sizes;

static struct {
    int ntt, msm;
    int reps, msm_reps;
    sizes ntt_log2, g1_log2, g2_log2;
} opt = {1, 1, 9, 3, {{20, 22, 24, 26, 27}, 5}, {{20, 24, 26, 27}, 4}, {{20, 24, 26}, 3}};

static void parse_sizes(sizes *s, const char *arg, unsigned lo, unsigned hi, const char *name)
{
    s->n = 0;
    for (const char *p = arg; *p != '\0';) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v < lo || v > hi || s->n == MAX_SIZES || (*end != ',' && *end != '\0')) {
            char msg[128];
            snprintf(msg, sizeof msg, "\"%s\": expected up to %d comma-separated log2 sizes in %u..%u", arg, MAX_SIZES,
                     lo, hi);
            die(name, msg);
        }
        s->v[s->n++] = (unsigned)v;
        p = *end == ',' ? end + 1 : end;
    }
}

static int parse_reps(const char *arg, const char *name)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || v < 1 || v > MAX_REPS) die(name, "expected a repetition count in 1..101");
    return (int)v;
}

static void parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: cuzk-vs-sppark [--only ntt|msm] [--reps N] [--msm-reps N] [--ntt-log2 L,..] "
                   "[--g1-log2 L,..] [--g2-log2 L,..]\n"
                   "  defaults: --reps 9 --msm-reps 3 --ntt-log2 20,22,24,26,27 --g1-log2 20,24,26,27 "
                   "--g2-log2 20,24,26\n");
            exit(0);
        }
        if (v == NULL) die(a, "unknown option or missing value (--help)");
        if (strcmp(a, "--only") == 0) {
            if (strcmp(v, "ntt") != 0 && strcmp(v, "msm") != 0) die(a, "expected ntt or msm");
            opt.ntt = strcmp(v, "ntt") == 0, opt.msm = !opt.ntt;
        } else if (strcmp(a, "--reps") == 0) {
            opt.reps = parse_reps(v, a);
        } else if (strcmp(a, "--msm-reps") == 0) {
            opt.msm_reps = parse_reps(v, a);
        } else if (strcmp(a, "--ntt-log2") == 0) {
            parse_sizes(&opt.ntt_log2, v, 10, 28, a);
        } else if (strcmp(a, "--g1-log2") == 0) {
            parse_sizes(&opt.g1_log2, v, 16, 28, a);
        } else if (strcmp(a, "--g2-log2") == 0) {
            parse_sizes(&opt.g2_log2, v, 16, 27, a);
        } else {
            die(a, "unknown option (--help)");
        }
        i++;
    }
}

/* ---- NTT --------------------------------------------------------------------------------------------------------- */
typedef enum { NTT_FWD, NTT_INV, NTT_COSET } ntt_kind;
static const struct {
    const char *name, *alt_key;
    NTT::Direction dir;
    NTT::Type type;
    NTT::InputOutputOrder alt;
} ntt_kinds[] = {
    {"ntt_fwd", "nr", NTT::Direction::forward, NTT::Type::standard, NTT::InputOutputOrder::NR},
    {"ntt_inv", "rn", NTT::Direction::inverse, NTT::Type::standard, NTT::InputOutputOrder::RN},
    {"ntt_coset_fwd", "nr", NTT::Direction::forward, NTT::Type::coset, NTT::InputOutputOrder::NR},
};

typedef struct {
    cuzk_fr_t *in, *cz, *sp; /* the input (kept), cuzk's array, sppark's array */
    unsigned long long *bad;
    cuzk_gpu_ntt_domain *dom;
    cuzk_fr_t g;
    cuzk_gpu_timer timer;
    cudaEvent_t e0, e1;
} ntt_state;

/* restores an array from the input (bit-reversed when rev), not timed */
static void restore(cuzk_fr_t *dst, const cuzk_fr_t *src, unsigned lg, bool rev)
{
    if (rev) k_bitrev_copy<<<GRID, BLOCK>>>(dst, src, lg), ck(cudaGetLastError(), "restore");
    else ck(cudaMemcpy(dst, src, sizeof(cuzk_fr_t) << lg, cudaMemcpyDeviceToDevice), "restore");
    ck(cudaDeviceSynchronize(), "restore");
}

static double time_cuzk_ntt(ntt_state *s, ntt_kind k)
{
    double ms = 0;
    ckz(cuzk_gpu_timer_start(&s->timer), "cuzk timer");
    if (k == NTT_FWD) ckz(cuzk_gpu_ntt_forward(s->cz, s->dom), "cuzk_gpu_ntt_forward");
    else if (k == NTT_INV) ckz(cuzk_gpu_ntt_inverse(s->cz, s->dom), "cuzk_gpu_ntt_inverse");
    else ckz(cuzk_gpu_ntt_coset_forward(s->cz, s->dom, &s->g), "cuzk_gpu_ntt_coset_forward");
    ckz(cuzk_gpu_timer_stop(&s->timer, &ms), "cuzk timer");
    ckz(cuzk_gpu_sync(), "cuzk NTT");
    return ms;
}

static double time_sppark_ntt(ntt_state *s, ntt_kind k, unsigned lg, NTT::InputOutputOrder order)
{
    stream_t &st = select_gpu(0);
    float ms = 0;
    ck(cudaEventRecord(s->e0, st), "sppark event");
    NTT::Base_dev_ptr(st, reinterpret_cast<fr_t *>(s->sp), lg, order, ntt_kinds[k].dir, ntt_kinds[k].type);
    ck(cudaEventRecord(s->e1, st), "sppark event");
    ck(cudaEventSynchronize(s->e1), "sppark NTT");
    ck(cudaEventElapsedTime(&ms, s->e0, s->e1), "sppark event");
    return ms;
}

/* elements where a differs from b (read through the bit reversal when rev); *first the lowest */
static unsigned long long mismatches(ntt_state *s, const cuzk_fr_t *a, const cuzk_fr_t *b, unsigned lg, bool rev,
                                     unsigned long long *first)
{
    unsigned long long h[2] = {0, ~0ULL};
    ck(cudaMemcpy(s->bad, h, sizeof h, cudaMemcpyHostToDevice), "compare");
    k_compare<<<GRID, BLOCK>>>(a, b, lg, rev, s->bad);
    ck(cudaGetLastError(), "compare");
    ck(cudaMemcpy(h, s->bad, sizeof h, cudaMemcpyDeviceToHost), "compare");
    *first = h[1];
    return h[0];
}

static bool bench_ntt_kind(ntt_state *s, ntt_kind k, unsigned lg)
{
    bool alt_rev_in = ntt_kinds[k].alt == NTT::InputOutputOrder::RN, alt_rev_out = !alt_rev_in;
    runs cz = {{0}, 0}, sp = {{0}, 0}, alt = {{0}, 0};
    unsigned long long bad = 0, bad_alt = 0, first = 0, first_alt = 0;
    size_t n = (size_t)1 << lg;
    bool moved = true;
    for (int r = -1; r < opt.reps; r++) {
        restore(s->cz, s->in, lg, false);
        double a = time_cuzk_ntt(s, k);
        /* a transform of random data leaves (almost) no element in place: two sides that did nothing would agree */
        if (r < 0) moved = mismatches(s, s->cz, s->in, lg, false, &first) > n - n / 64;
        restore(s->sp, s->in, lg, false);
        double b = time_sppark_ntt(s, k, lg, NTT::InputOutputOrder::NN);
        if (r < 0) bad = mismatches(s, s->cz, s->sp, lg, false, &first);
        restore(s->sp, s->in, lg, alt_rev_in);
        double c = time_sppark_ntt(s, k, lg, ntt_kinds[k].alt);
        if (r < 0) bad_alt = mismatches(s, s->cz, s->sp, lg, alt_rev_out, &first_alt);
        if (r >= 0) cz.v[cz.n++] = a, sp.v[sp.n++] = b, alt.v[alt.n++] = c;
    }
    double mc = median(&cz), ms = median(&sp), ma = median(&alt);
    const char *alt_key = ntt_kinds[k].alt_key;
    printf("{\"kernel\": \"%s\", \"log_n\": %u, \"cuzk_ms\": %.4f, \"sppark_ms\": %.4f, \"ratio\": %.3f, "
           "\"sppark_%s_ms\": %.4f, \"ratio_%s\": %.3f, \"cuzk_min_ms\": %.4f, \"sppark_min_ms\": %.4f, "
           "\"reps\": %d, \"agree\": %s, \"agree_%s\": %s}\n",
           ntt_kinds[k].name, lg, mc, ms, mc / ms, alt_key, ma, alt_key, mc / ma, cz.v[0], sp.v[0], opt.reps,
           moved && bad == 0 ? "true" : "false", alt_key, bad_alt == 0 ? "true" : "false");
    fflush(stdout);
    if (!moved)
        fprintf(stderr, "cuzk-vs-sppark: %s 2^%u: cuzk's output keeps most of its input in place\n", ntt_kinds[k].name,
                lg);
    if (bad != 0)
        fprintf(stderr, "cuzk-vs-sppark: %s 2^%u: %llu elements differ from sppark's (NN), the first at %llu\n",
                ntt_kinds[k].name, lg, bad, first);
    if (bad_alt != 0)
        fprintf(stderr,
                "cuzk-vs-sppark: %s 2^%u: %llu elements differ from sppark's (%s, compared %s), the first at "
                "%llu\n",
                ntt_kinds[k].name, lg, bad_alt, alt_key,
                alt_rev_out ? "through the bit reversal" : "after bit-reversing the input", first_alt);
    return moved && bad == 0 && bad_alt == 0;
}

static bool bench_ntt(void)
{
    unsigned max_lg = *std::max_element(opt.ntt_log2.v, opt.ntt_log2.v + opt.ntt_log2.n);
    size_t bytes = sizeof(cuzk_fr_t) << max_lg;
    ntt_state s;
    memset(&s, 0, sizeof s);
    ck(cudaMalloc(&s.in, bytes), "cudaMalloc input");
    ck(cudaMalloc(&s.cz, bytes), "cudaMalloc cuzk array");
    ck(cudaMalloc(&s.sp, bytes), "cudaMalloc sppark array");
    ck(cudaMalloc(&s.bad, 2 * sizeof(unsigned long long)), "cudaMalloc");
    ck(cudaEventCreate(&s.e0), "cudaEventCreate");
    ck(cudaEventCreate(&s.e1), "cudaEventCreate");
    ckz(cuzk_gpu_timer_init(&s.timer), "cuzk_gpu_timer_init");
    cuzk_fr_from_u64(&s.g, 7);
    bool ok = true;
    for (int i = 0; i < opt.ntt_log2.n; i++) {
        unsigned lg = opt.ntt_log2.v[i];
        k_random_fr<<<GRID, BLOCK>>>(s.in, (size_t)1 << lg, 0x6e74740000000000ULL + lg);
        ck(cudaGetLastError(), "random input");
        ck(cudaDeviceSynchronize(), "random input");
        ckz(cuzk_gpu_ntt_domain_create(&s.dom, lg, CUZK_FR_ROOTS_GEN7, NULL), "cuzk_gpu_ntt_domain_create");
        for (int k = NTT_FWD; k <= NTT_COSET; k++) ok &= bench_ntt_kind(&s, (ntt_kind)k, lg);
        cuzk_gpu_ntt_domain_destroy(s.dom);
        s.dom = NULL;
    }
    cuzk_gpu_timer_free(&s.timer);
    cudaEventDestroy(s.e0), cudaEventDestroy(s.e1);
    cudaFree(s.in), cudaFree(s.cz), cudaFree(s.sp), cudaFree(s.bad);
    return ok;
}

/* ---- MSM --------------------------------------------------------------------------------------------------------- */
/* TILE distinct points (96 / 192 MiB, above the L2), repeated to fill n; scalars all distinct, made on the device */
#define TILE ((size_t)1 << 20)

/* points lo..hi of the tile: a chain of mixed additions from a start point of its own, then one normalization */
static void gen_points(int g2, void *out, size_t lo, size_t hi)
{
    size_t m = hi - lo;
    uint64_t k0[4] = {0x1234567 + lo * 7919, 0xabcdef01ULL * (lo + 3), lo ^ 0x5555, 0x0123456789abcdULL};
    uint64_t k1[4] = {0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL, 0x0fedcba987654321ULL};
    if (!g2) {
        cuzk_g1_affine_t g, qa;
        cuzk_g1_jac_t G, q;
        std::vector<cuzk_g1_jac_t> j(m);
        cuzk_g1_generator(&g);
        cuzk_g1_jac_from_affine(&G, &g);
        cuzk_g1_jac_mul(&q, &G, k1, 4);
        cuzk_g1_jac_to_affine(&qa, &q);
        cuzk_g1_jac_mul(&j[0], &G, k0, 4);
        for (size_t i = 1; i < m; i++) cuzk_g1_jac_add_affine(&j[i], &j[i - 1], &qa);
        cuzk_g1_jac_batch_to_affine((cuzk_g1_affine_t *)out + lo, j.data(), m);
    } else {
        cuzk_g2_affine_t g, qa;
        cuzk_g2_jac_t G, q;
        std::vector<cuzk_g2_jac_t> j(m);
        cuzk_g2_generator(&g);
        cuzk_g2_jac_from_affine(&G, &g);
        cuzk_g2_jac_mul(&q, &G, k1, 4);
        cuzk_g2_jac_to_affine(&qa, &q);
        cuzk_g2_jac_mul(&j[0], &G, k0, 4);
        for (size_t i = 1; i < m; i++) cuzk_g2_jac_add_affine(&j[i], &j[i - 1], &qa);
        cuzk_g2_jac_batch_to_affine((cuzk_g2_affine_t *)out + lo, j.data(), m);
    }
}

/* n points at dev: the tile made on the host's threads, uploaded once and copied on the device to fill n */
static void make_points(int g2, void *dev, size_t n)
{
    size_t psz = g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t), m = std::min(n, TILE);
    std::vector<uint8_t> tile(m * psz);
    unsigned threads = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; t++)
        pool.emplace_back(gen_points, g2, tile.data(), m * t / threads, m * (t + 1) / threads);
    for (auto &t : pool) t.join();
    ck(cudaMemcpy(dev, tile.data(), m * psz, cudaMemcpyHostToDevice), "upload points");
    for (size_t have = m; have < n;) {
        size_t len = std::min(have, n - have);
        ck(cudaMemcpy((uint8_t *)dev + have * psz, dev, len * psz, cudaMemcpyDeviceToDevice), "fill points");
        have += len;
    }
    ck(cudaDeviceSynchronize(), "points");
}

/* what differs between G1 and G2 */
template <int G2> struct msm_side;
template <> struct msm_side<0> {
    typedef cuzk_g1_affine_t affine;
    typedef sp_g1_point sp_point;
    typedef sp_g1_affine sp_affine;
    typedef msm_t<sp_g1_bucket, sp_g1_point, sp_g1_affine, fr_t> sp_msm;
    static const char *name() { return "g1_msm"; }
    static void cuzk(affine *r, const void *b, const cuzk_fr_t *k, size_t n, cuzk_gpu_msm_ctx *ctx)
    {
        cuzk_g1_jac_t j;
        ckz(cuzk_gpu_g1_msm(&j, (const affine *)b, k, n, ctx), "cuzk_gpu_g1_msm");
        cuzk_g1_jac_to_affine(r, &j);
    }
    /* equal and not infinity: random scalars over random points never sum to it */
    static bool eq(const affine *a, const affine *b)
    {
        return cuzk_g1_affine_eq(a, b) && !cuzk_g1_affine_is_infinity(a);
    }
};
template <> struct msm_side<1> {
    typedef cuzk_g2_affine_t affine;
    typedef sp_g2_point sp_point;
    typedef sp_g2_affine sp_affine;
    typedef msm_t<sp_g2_bucket, sp_g2_point, sp_g2_affine, fr_t> sp_msm;
    static const char *name() { return "g2_msm"; }
    static void cuzk(affine *r, const void *b, const cuzk_fr_t *k, size_t n, cuzk_gpu_msm_ctx *ctx)
    {
        cuzk_g2_jac_t j;
        ckz(cuzk_gpu_g2_msm(&j, (const affine *)b, k, n, ctx), "cuzk_gpu_g2_msm");
        cuzk_g2_jac_to_affine(r, &j);
    }
    static bool eq(const affine *a, const affine *b)
    {
        return cuzk_g2_affine_eq(a, b) && !cuzk_g2_affine_is_infinity(a);
    }
};

/* sppark's MSM over the resident points and scalars (Montgomery form, converted by its digit kernel), the result
 * taken to affine form by sppark's host code and read as cuzk's affine point (same layout) */
template <int G2>
static void sppark_msm(typename msm_side<G2>::affine *r, typename msm_side<G2>::sp_msm &msm, void *bases,
                       cuzk_fr_t *scalars, size_t n)
{
    typedef typename msm_side<G2>::sp_affine sp_affine;
    typename msm_side<G2>::sp_point p;
    dev_ptr_t<sp_affine> dp{(sp_affine *)bases, n};
    dev_ptr_t<fr_t> dk{(fr_t *)scalars, n};
    ckr(msm.invoke(p, dp, n, dk, true), msm_side<G2>::name());
    sp_affine a = p;
    memcpy((void *)r, (const void *)&a, sizeof *r);
}

template <int G2> static bool bench_msm_group(const sizes *logs)
{
    typedef msm_side<G2> side;
    unsigned max_lg = *std::max_element(logs->v, logs->v + logs->n);
    size_t nmax = (size_t)1 << max_lg;
    void *bases = NULL;
    cuzk_fr_t *scalars = NULL;
    ck(cudaMalloc(&bases, nmax * sizeof(typename side::affine)), "cudaMalloc points");
    ck(cudaMalloc(&scalars, nmax * sizeof(cuzk_fr_t)), "cudaMalloc scalars");
    make_points(G2, bases, nmax);
    k_random_fr<<<GRID, BLOCK>>>(scalars, nmax, 0x6d736d0000000000ULL + G2);
    ck(cudaGetLastError(), "random scalars");
    ck(cudaDeviceSynchronize(), "random scalars");
    cuzk_gpu_msm_ctx *ctx = NULL;
    ckz(cuzk_gpu_msm_ctx_create(&ctx, NULL), "cuzk_gpu_msm_ctx_create");
    bool ok = true;
    for (int i = 0; i < logs->n; i++) {
        unsigned lg = logs->v[i];
        size_t n = (size_t)1 << lg;
        typename side::sp_msm msm{nullptr, n};
        typename side::affine rc, rs;
        runs cz = {{0}, 0}, sp = {{0}, 0};
        bool agree = true;
        for (int r = -1; r < opt.msm_reps; r++) {
            ck(cudaDeviceSynchronize(), side::name());
            double t0 = wall_ms();
            side::cuzk(&rc, bases, scalars, n, ctx);
            double t1 = wall_ms();
            ck(cudaDeviceSynchronize(), side::name());
            double t2 = wall_ms();
            sppark_msm<G2>(&rs, msm, bases, scalars, n);
            double t3 = wall_ms();
            agree &= side::eq(&rc, &rs);
            if (r >= 0) cz.v[cz.n++] = t1 - t0, sp.v[sp.n++] = t3 - t2;
        }
        double mc = median(&cz), ms = median(&sp);
        printf("{\"kernel\": \"%s\", \"log_n\": %u, \"cuzk_ms\": %.3f, \"sppark_ms\": %.3f, \"ratio\": %.3f, "
               "\"cuzk_min_ms\": %.3f, \"sppark_min_ms\": %.3f, \"reps\": %d, \"agree\": %s}\n",
               side::name(), lg, mc, ms, mc / ms, cz.v[0], sp.v[0], opt.msm_reps, agree ? "true" : "false");
        fflush(stdout);
        if (!agree)
            fprintf(stderr, "cuzk-vs-sppark: %s 2^%u: the results differ (or are infinity)\n", side::name(), lg);
        ok &= agree;
    }
    cuzk_gpu_msm_ctx_destroy(ctx);
    cudaFree(bases), cudaFree(scalars);
    return ok;
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    if (cuzk_gpu_device_count() == 0) die("cuda", "no CUDA device");
    char dev[256] = "";
    ckz(cuzk_gpu_set_device(0), "cuzk_gpu_set_device");
    ckz(cuzk_gpu_device_name(dev, sizeof dev), "cuzk_gpu_device_name");
    ck(cudaMemcpyToSymbol(fr_modulus, CUZK_FR_MODULUS, sizeof fr_modulus), "cudaMemcpyToSymbol");
    bool ok = true;
    try {
        select_gpu(0);
        printf("{\"kernel\": \"setup\", \"device\": \"%s\", \"sppark\": \"%s\", \"reps\": %d, \"msm_reps\": %d}\n", dev,
               CUZK_REF_SPPARK, opt.reps, opt.msm_reps);
        fflush(stdout);
        if (opt.ntt) ok &= bench_ntt();
        if (opt.msm && opt.g1_log2.n > 0) ok &= bench_msm_group<0>(&opt.g1_log2);
        if (opt.msm && opt.g2_log2.n > 0) ok &= bench_msm_group<1>(&opt.g2_log2);
    } catch (const cuda_error &e) {
        die("sppark", e.what());
    }
    if (!ok) fprintf(stderr, "cuzk-vs-sppark: cuzk and sppark disagree (above): the times compare nothing\n");
    return ok ? 0 : 1;
}
