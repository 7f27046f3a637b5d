/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* GPU micro-benchmarks (`cuzk-bench micro --gpu`): field throughput and NTTs on device-resident data, timed with
 * CUDA events after a warm-up, median of several runs (bench_gpu_runs: with the best run and the spread). Same JSON
 * lines as the CPU benchmarks plus "device": "gpu"; "threads" is 0 (the whole device). Built only when CUDA is
 * enabled; main.c selects the device and the kernel variants first. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/ec.h"
#include "cuzk/gpu.h"
#include "gpu_lab.h"

static void report(const char *name, uint64_t size, double value, const char *unit)
{
    bench_gpu_line(name, size, value, unit, NULL);
}

static int fail(const char *what, cuzk_status st)
{
    fprintf(stderr, "cuzk-bench: %s: %s: %s\n", what, cuzk_status_str(st), cuzk_gpu_last_error());
    return 0;
}

void bench_gpu_msm_opts(const bench_opts *o, cuzk_gpu_msm_opts *m)
{
    memset(m, 0, sizeof *m);
    if (o->msm_variant >= 0) m->variant = (unsigned)o->msm_variant;
    m->profile = o->msm_profile;
}

void bench_gpu_ntt_variant(unsigned v, cuzk_gpu_ntt_opts *n)
{
    if (cuzk_gpu_lab_ntt_opts(n, v) != CUZK_OK) memset(n, 0, sizeof *n);
}

void bench_gpu_prover_opts(const bench_opts *o, cuzk_gpu_prover_opts *p)
{
    memset(p, 0, sizeof *p);
    bench_gpu_msm_opts(o, &p->msm);
    bench_gpu_ntt_variant(o->ntt_variant >= 0 ? (unsigned)o->ntt_variant : 32, &p->ntt);
}

static void bench_ff(const bench_opts *o)
{
    static const struct {
        cuzk_gpu_lab_ff_op op;
        const char *name;
    } ops[] = {
        {CUZK_GPU_LAB_FR_MUL, "gpu_fr_mul"},
        {CUZK_GPU_LAB_FR_MUL64, "gpu_fr_mul64"},
        {CUZK_GPU_LAB_FR_ADD, "gpu_fr_add"},
        {CUZK_GPU_LAB_FR_MUL_SPECIAL, "gpu_fr_mul_special"},
        {CUZK_GPU_LAB_FP_MUL, "gpu_fp_mul"},
        {CUZK_GPU_LAB_FP_MUL64, "gpu_fp_mul64"},
        {CUZK_GPU_LAB_FP2_MUL, "gpu_fp2_mul"},
        {CUZK_GPU_LAB_FR_MUL28, "gpu_fr_mul28"},
        {CUZK_GPU_LAB_FP_MUL28, "gpu_fp_mul28"},
        {CUZK_GPU_LAB_FP_SQR, "gpu_fp_sqr"},
        {CUZK_GPU_LAB_FP_MUL_SOS64, "gpu_fp_mul_sos64"},
        {CUZK_GPU_LAB_FP_SQR_SOS64, "gpu_fp_sqr_sos64"},
        {CUZK_GPU_LAB_FP_MUL_SOS32, "gpu_fp_mul_sos32"},
        {CUZK_GPU_LAB_FP_SQR_SOS32, "gpu_fp_sqr_sos32"},
        {CUZK_GPU_LAB_FP2_MUL_LAZY, "gpu_fp2_mul_lazy"},
        {CUZK_GPU_LAB_FR_MUL_SOS64, "gpu_fr_mul_sos64"},
        {CUZK_GPU_LAB_FP_INV, "gpu_fp_inv"},
        {CUZK_GPU_LAB_FP2_INV, "gpu_fp2_inv"},
        {CUZK_GPU_LAB_FP_MUL_KA, "gpu_fp_mul_ka"},
        {CUZK_GPU_LAB_FP_MUL_W, "gpu_fp_mul_w"},
        {CUZK_GPU_LAB_FR_MUL_W, "gpu_fr_mul_w"},
        {CUZK_GPU_LAB_FP_MUL_EO, "gpu_fp_mul_eo"},
        {CUZK_GPU_LAB_FR_MUL_EO, "gpu_fr_mul_eo"},
        {CUZK_GPU_LAB_FP_SQR_EO, "gpu_fp_sqr_eo"},
        {CUZK_GPU_LAB_FP2_MUL_EO, "gpu_fp2_mul_eo"},
        {CUZK_GPU_LAB_FR_MUL_F64, "gpu_fr_mul_f64"},
        {CUZK_GPU_LAB_FR_MUL_MIX, "gpu_fr_mul_mix"},
        {CUZK_GPU_LAB_FP_MUL_F64, "gpu_fp_mul_f64"},
        {CUZK_GPU_LAB_FP_MUL_MIX, "gpu_fp_mul_mix"},
        {CUZK_GPU_LAB_FP_MUL_ADD, "gpu_fp_mul_add"},
        {CUZK_GPU_LAB_FP_INV_BGCD, "gpu_fp_inv_bgcd"},
    };
    /* 132 SMs × 2048 threads × 4: enough to fill the device; the value is device time per operation */
    const size_t threads = (size_t)1 << 20;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (!bench_selected(o, ops[i].name)) continue;
        double ns;
        /* an inversion costs tens to hundreds of multiplications: fewer iterations */
        int inv = ops[i].op == CUZK_GPU_LAB_FP_INV || ops[i].op == CUZK_GPU_LAB_FP2_INV ||
                  ops[i].op == CUZK_GPU_LAB_FP_INV_BGCD;
        cuzk_status st = cuzk_gpu_lab_ff_throughput(ops[i].op, threads, inv ? 4 : 256, &ns);
        if (st != CUZK_OK) {
            fail(ops[i].name, st);
            continue;
        }
        report(ops[i].name, threads, ns * 1e3, "ps");
    }
}

/* 9 timed runs (after one warm-up) of one transform kind on device data, in ms. */
static cuzk_status time_ntt(cuzk_gpu_timer *t, cuzk_fr_t *dx, cuzk_gpu_ntt_domain *d, int kind, const cuzk_fr_t *g,
                            bench_stat *out)
{
    const int reps = 9;
    bench_runs runs = {0};
    cuzk_status st = CUZK_OK;
    for (int r = -1; st == CUZK_OK && r < reps; r++) {
        st = cuzk_gpu_timer_start(t);
        if (st == CUZK_OK) {
            if (kind == 1) st = cuzk_gpu_ntt_inverse(dx, d);
            else if (kind == 2) st = cuzk_gpu_ntt_coset_forward(dx, d, g);
            else st = cuzk_gpu_ntt_forward(dx, d);
        }
        double v = 0;
        if (st == CUZK_OK) st = cuzk_gpu_timer_stop(t, &v);
        if (r >= 0) bench_run_add(&runs, v);
    }
    *out = bench_stat_of(&runs);
    return st;
}

/* A domain of 2^k for the NTT variant v (the bits of --ntt-variant), its tables as the variant `tables` says and its
 * tile tile_log2 (0: the default) */
static cuzk_status ntt_domain(cuzk_gpu_ntt_domain **d, unsigned k, unsigned v, unsigned tables, unsigned tile_log2)
{
    cuzk_gpu_ntt_opts no;
    bench_gpu_ntt_variant(v, &no);
    no.whole_tables = (tables & 128) != 0;
    no.whole_without_roots = (tables & 256) != 0;
    no.tile_log2 = tile_log2;
    return cuzk_gpu_ntt_domain_create(d, k, CUZK_FR_ROOTS_GEN7, &no);
}

/* Forward NTT on 2^k elements resident on the device, 2^20 .. 2^27 (inverse and coset at 2^24, other tile sizes at
 * 2^24 and 2^27), and the time to make each domain (its twiddle tables; cuzk_gpu_ntt_domain). At 2^24 first every
 * kernel variant (gpu_ntt_v<variant>); the fastest is then used for the larger sizes. */
static void bench_ntt(const bench_opts *o)
{
    static const unsigned ks[] = {20, 21, 22, 23, 24, 25, 26, 27};
    const size_t chunk = (size_t)1 << 16;
    cuzk_fr_t *h = malloc(chunk * sizeof *h), g;
    if (h == NULL) return;
    for (size_t i = 0; i < chunk; i++) {
        uint64_t s = i * 0x9e3779b97f4a7c15ULL + 12345,
                 l[CUZK_FR_LIMBS] = {s | 1, s ^ 0xabcdef, s >> 7, s & 0x0fffffffffffffffULL};
        cuzk_fr_from_limbs(&h[i], l);
    }
    cuzk_fr_from_u64(&g, 7);
    cuzk_gpu_timer t;
    if (cuzk_gpu_timer_init(&t) != CUZK_OK) {
        free(h);
        return;
    }
    const unsigned tables = o->ntt_variant >= 0 ? (unsigned)o->ntt_variant : 0;
    unsigned variant = o->ntt_variant >= 0 ? (unsigned)o->ntt_variant : 32;
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        unsigned k = ks[ki];
        if (!bench_size_selected(o, k)) continue;
        size_t n = (size_t)1 << k;
        cuzk_fr_t *dx = NULL;
        cuzk_gpu_ntt_domain *d = NULL;
        bench_runs made = {0}; /* one run: each domain is made once */
        bench_run_start(&made);
        cuzk_status st = ntt_domain(&d, k, variant, tables, 0);
        bench_run_stop(&made);
        bench_stat ms_made = bench_stat_of(&made);
        if (st == CUZK_OK && bench_selected(o, "gpu_ntt_domain"))
            bench_gpu_runs("gpu_ntt_domain", n, &ms_made, 1e-6, "ms", NULL);
        if (st == CUZK_OK) st = cuzk_gpu_malloc((void **)&dx, n * sizeof(cuzk_fr_t));
        for (size_t off = 0; st == CUZK_OK && off < n; off += chunk)
            st = cuzk_gpu_to_device(dx + off, h, chunk * sizeof(cuzk_fr_t));
        if (st == CUZK_OK && k == 24) {
            double best = 1e30;
            unsigned bestv = 0;
            /* bit 6 overrides bits 0, 1, 3, 5; bit 5 overrides bits 0, 1, 3; bit 3 overrides bits 0, 1; bit 1
             * overrides bit 0; 24 and 48 are 8 and 32 without the direct twiddle tables */
            static const unsigned vs[] = {0, 1, 2, 4, 5, 6, 8, 12, 24, 32, 36, 48, 64, 68};
            for (size_t vi = 0; st == CUZK_OK && vi < sizeof vs / sizeof vs[0]; vi++) {
                unsigned v = vs[vi];
                char nm[32];
                snprintf(nm, sizeof nm, "gpu_ntt_v%u", v);
                cuzk_gpu_ntt_domain *dv = NULL;
                bench_stat ms;
                st = ntt_domain(&dv, k, v, tables, 0);
                if (st == CUZK_OK) st = time_ntt(&t, dx, dv, 0, &g, &ms);
                cuzk_gpu_ntt_domain_destroy(dv);
                if (st == CUZK_OK) bench_gpu_runs(nm, n, &ms, 1, "ms", NULL);
                if (st == CUZK_OK && ms.median < best) best = ms.median, bestv = v;
            }
            variant = bestv;
            cuzk_gpu_ntt_domain_destroy(d);
            d = NULL;
            if (st == CUZK_OK) st = ntt_domain(&d, k, variant, tables, 0);
            fprintf(stderr, "cuzk-bench: NTT variant %u from here on\n", bestv);
        }
        static const char *names[] = {"gpu_ntt", "gpu_ntt_inverse", "gpu_ntt_coset", "gpu_ntt_tile9", "gpu_ntt_tile10"};
        for (int kind = 0; st == CUZK_OK && kind < 5; kind++) {
            if (kind > 0 && k != 24 && !(k == 27 && kind >= 3)) continue; /* tiles at 2^27 too */
            if (!bench_selected(o, names[kind])) continue;
            cuzk_gpu_ntt_domain *dt = NULL; /* the other tiles' */
            bench_stat ms;
            if (kind >= 3) st = ntt_domain(&dt, k, variant, tables, kind == 3 ? 9 : 10);
            if (st == CUZK_OK) st = time_ntt(&t, dx, kind >= 3 ? dt : d, kind < 3 ? kind : 0, &g, &ms);
            cuzk_gpu_ntt_domain_destroy(dt);
            if (st == CUZK_OK) bench_gpu_runs(names[kind], n, &ms, 1, "ms", NULL);
        }
        if (st != CUZK_OK) fail("gpu_ntt", st);
        cuzk_gpu_free(dx);
        cuzk_gpu_ntt_domain_destroy(d);
    }
    cuzk_gpu_timer_free(&t);
    free(h);
}

/* ---- MSM --------------------------------------------------------------------------------------------------------- */
/* MSM_TILE distinct random points (96 / 192 MiB, above the 60 MiB L2), made on 16 threads: each a chain of mixed
 * additions from its own start point, then one batch normalization; uploaded repeatedly to fill n. Scalars: a tile of
 * MSM_TILE + 17 random Fr elements (so no (point, scalar) pair repeats within 2^26), uploaded likewise. */
#define MSM_TILE ((size_t)1 << 20)
#define GEN_THREADS 16

typedef struct {
    int g2;
    void *out;
    size_t lo, hi;
} gen_arg;

static void *gen_points(void *p)
{
    gen_arg *a = p;
    size_t m = a->hi - a->lo;
    uint64_t k0[4] = {0x1234567 + a->lo * 7919, 0xabcdef01ULL * (a->lo + 3), a->lo ^ 0x5555, 0x0123456789abcdULL};
    uint64_t k1[4] = {0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL, 0x0fedcba987654321ULL};
    if (!a->g2) {
        cuzk_g1_affine_t g, qa;
        cuzk_g1_jac_t G, q, *j = malloc(m * sizeof *j);
        cuzk_g1_generator(&g);
        cuzk_g1_jac_from_affine(&G, &g);
        cuzk_g1_jac_mul(&q, &G, k1, 4);
        cuzk_g1_jac_to_affine(&qa, &q);
        cuzk_g1_jac_mul(&j[0], &G, k0, 4);
        for (size_t i = 1; i < m; i++) cuzk_g1_jac_add_affine(&j[i], &j[i - 1], &qa);
        cuzk_g1_jac_batch_to_affine((cuzk_g1_affine_t *)a->out + a->lo, j, m);
        free(j);
    } else {
        cuzk_g2_affine_t g, qa;
        cuzk_g2_jac_t G, q, *j = malloc(m * sizeof *j);
        cuzk_g2_generator(&g);
        cuzk_g2_jac_from_affine(&G, &g);
        cuzk_g2_jac_mul(&q, &G, k1, 4);
        cuzk_g2_jac_to_affine(&qa, &q);
        cuzk_g2_jac_mul(&j[0], &G, k0, 4);
        for (size_t i = 1; i < m; i++) cuzk_g2_jac_add_affine(&j[i], &j[i - 1], &qa);
        cuzk_g2_jac_batch_to_affine((cuzk_g2_affine_t *)a->out + a->lo, j, m);
        free(j);
    }
    return NULL;
}

static void *make_tile(int g2)
{
    size_t psz = g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
    void *out = malloc(MSM_TILE * psz);
    if (out == NULL) return NULL;
    pthread_t tid[GEN_THREADS];
    gen_arg args[GEN_THREADS];
    for (int t = 0; t < GEN_THREADS; t++) {
        args[t] = (gen_arg){g2, out, MSM_TILE * t / GEN_THREADS, MSM_TILE * (t + 1) / GEN_THREADS};
        if (pthread_create(&tid[t], NULL, gen_points, &args[t]) != 0) gen_points(&args[t]), tid[t] = 0;
    }
    for (int t = 0; t < GEN_THREADS; t++)
        if (tid[t]) pthread_join(tid[t], NULL);
    return out;
}

/* fills n elements of esz bytes at dev from a host tile of m elements, cyclically */
static cuzk_status fill_cyclic(void *dev, const void *tile, size_t m, size_t n, size_t esz)
{
    for (size_t off = 0; off < n; off += m) {
        size_t len = n - off < m ? n - off : m;
        cuzk_status st = cuzk_gpu_to_device((char *)dev + off * esz, tile, len * esz);
        if (st != CUZK_OK) return st;
    }
    return CUZK_OK;
}

/* n random Fr scalars (xorshift from seed, reduced) */
static void random_scalars(cuzk_fr_t *ks, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t l[CUZK_FR_LIMBS];
        for (int w = 0; w < CUZK_FR_LIMBS; w++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            l[w] = s;
        }
        cuzk_fr_from_limbs_reduce(&ks[i], l);
    }
}

/* reps timed calls after a warm-up, in ms */
static cuzk_status time_msm(int g2, cuzk_gpu_msm_ctx *ctx, const void *db, const cuzk_fr_t *dk, size_t n, int reps,
                            bench_stat *out)
{
    bench_runs runs = {0};
    cuzk_gpu_timer t;
    cuzk_status st = cuzk_gpu_timer_init(&t);
    for (int r = -1; st == CUZK_OK && r < reps; r++) {
        cuzk_g1_jac_t r1;
        cuzk_g2_jac_t r2;
        st = cuzk_gpu_timer_start(&t);
        if (st == CUZK_OK) st = g2 ? cuzk_gpu_g2_msm(&r2, db, dk, n, ctx) : cuzk_gpu_g1_msm(&r1, db, dk, n, ctx);
        double v = 0;
        if (st == CUZK_OK) st = cuzk_gpu_timer_stop(&t, &v);
        if (r >= 0) bench_run_add(&runs, v);
    }
    cuzk_gpu_timer_free(&t);
    *out = bench_stat_of(&runs);
    return st;
}

/* cuzk_g1_msm / cuzk_g2_msm ("device": "gpu"), 2^20 .. 2^27 points: points and scalars resident, median of timed calls after a
 * warm-up (each call ends with the copy of the window sums to the host). At 2^24 (G1) first every window width
 * c = 14..22 (gpu_g1_msm_c<c>). */
static void bench_msm(const bench_opts *o)
{
    static const unsigned log2s[] = {20, 21, 22, 23, 24, 25, 26, 27};
    size_t ntile = MSM_TILE + 17;
    cuzk_fr_t *ks = malloc(ntile * sizeof *ks);
    if (ks == NULL) return;
    random_scalars(ks, ntile, 0x853c49e6748fea9bULL);
    cuzk_gpu_msm_opts mo;
    bench_gpu_msm_opts(o, &mo);
    cuzk_gpu_msm_ctx *ctx = NULL;
    if (cuzk_gpu_msm_ctx_create(&ctx, &mo) != CUZK_OK) {
        free(ks);
        return;
    }
    for (int g2 = 0; g2 < 2; g2++) {
        const char *name = g2 ? "g2_msm" : "g1_msm";
        if (!bench_selected(o, name)) continue;
        void *tile = make_tile(g2);
        if (tile == NULL) break;
        size_t psz = g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
        for (size_t ki = 0; ki < sizeof log2s / sizeof log2s[0]; ki++) {
            unsigned log2 = log2s[ki];
            if (!bench_size_selected(o, log2)) continue;
            size_t n = (size_t)1 << log2;
            void *db = NULL;
            cuzk_fr_t *dk = NULL;
            cuzk_status st = cuzk_gpu_malloc(&db, n * psz);
            if (st == CUZK_OK) st = cuzk_gpu_malloc((void **)&dk, n * sizeof(cuzk_fr_t));
            if (st == CUZK_OK) st = fill_cyclic(db, tile, MSM_TILE, n, psz);
            if (st == CUZK_OK) st = fill_cyclic(dk, ks, ntile, n, sizeof(cuzk_fr_t));
            bench_stat ms;
            if (st == CUZK_OK && !g2 && log2 == 24) {
                for (unsigned c = 14; st == CUZK_OK && c <= 22; c++) {
                    char nm[32];
                    snprintf(nm, sizeof nm, "gpu_g1_msm_c%u", c);
                    cuzk_gpu_msm_opts wo = mo;
                    wo.window = c;
                    cuzk_gpu_msm_ctx_set_opts(ctx, &wo);
                    st = time_msm(g2, ctx, db, dk, n, 3, &ms);
                    cuzk_gpu_msm_ctx_set_opts(ctx, &mo);
                    if (st == CUZK_OK) bench_gpu_runs(nm, n, &ms, 1, "ms", NULL);
                }
            }
            if (st == CUZK_OK) st = time_msm(g2, ctx, db, dk, n, log2 >= 24 ? 3 : 5, &ms);
            if (st == CUZK_OK) {
                char extra[32];
                snprintf(extra, sizeof extra, ", \"c\": %u", cuzk_gpu_msm_window_for(n));
                bench_gpu_runs(name, n, &ms, 1, "ms", extra);
            }
            if (st == CUZK_OK) {
                cuzk_g1_jac_t r1;
                cuzk_g2_jac_t r2;
                cuzk_gpu_msm_opts po = mo;
                po.profile = true;
                cuzk_gpu_msm_ctx_set_opts(ctx, &po);
                st = g2 ? cuzk_gpu_g2_msm(&r2, db, dk, n, ctx) : cuzk_gpu_g1_msm(&r1, db, dk, n, ctx);
                cuzk_gpu_msm_ctx_set_opts(ctx, &mo);
            }
            if (st != CUZK_OK) fail(name, st);
            cuzk_gpu_free(db), cuzk_gpu_free(dk);
            /* the scratch of the largest size stays: drop it before the next group's sizes */
            if (st != CUZK_OK) break;
        }
        free(tile);
        cuzk_gpu_msm_ctx_destroy(ctx);
        ctx = NULL;
        if (cuzk_gpu_msm_ctx_create(&ctx, &mo) != CUZK_OK) break;
    }
    cuzk_gpu_msm_ctx_destroy(ctx);
    free(ks);
}

/* cuzk_gpu_g1_batch_add / cuzk_gpu_g2_batch_add: the bitmap batch addition (the scalar-1 bases of L, A, B1 and B2) over n
 * resident bases with 41 % of the positions selected at random, the share of a synthetic 2^27 partition's L
 * (its profile: 55 M of 134 M); median of 3 timed calls after a warm-up. */
static void bench_batch_add(const bench_opts *o)
{
    static const struct {
        int g2;
        unsigned log2;
    } cfg[] = {{0, 24}, {0, 26}, {1, 24}};
    cuzk_gpu_msm_opts mo;
    bench_gpu_msm_opts(o, &mo);
    cuzk_gpu_msm_ctx *ctx = NULL;
    cuzk_gpu_timer t;
    if (cuzk_gpu_msm_ctx_create(&ctx, &mo) != CUZK_OK) return;
    if (cuzk_gpu_timer_init(&t) != CUZK_OK) {
        cuzk_gpu_msm_ctx_destroy(ctx);
        return;
    }
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        int g2 = cfg[i].g2;
        const char *name = g2 ? "gpu_g2_batch_add" : "gpu_g1_batch_add";
        if (!bench_selected(o, name)) continue;
        if (!bench_size_selected(o, cfg[i].log2)) continue;
        size_t n = (size_t)1 << cfg[i].log2, words = (n + 63) / 64;
        size_t psz = g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
        uint64_t *bm = calloc(words, sizeof *bm), s = 0x9e3779b97f4a7c15ULL;
        void *tile = make_tile(g2), *db = NULL;
        uint64_t *dbm = NULL;
        cuzk_status st = bm != NULL && tile != NULL ? CUZK_OK : CUZK_ERR_NOMEM;
        for (size_t k = 0; st == CUZK_OK && k < n; k++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            if ((s >> 56) < 105) bm[k >> 6] |= (uint64_t)1 << (k & 63); /* 105 / 256 = 41 % */
        }
        if (st == CUZK_OK) st = cuzk_gpu_malloc(&db, n * psz);
        if (st == CUZK_OK) st = cuzk_gpu_malloc((void **)&dbm, words * sizeof *dbm);
        if (st == CUZK_OK) st = fill_cyclic(db, tile, MSM_TILE, n, psz);
        if (st == CUZK_OK) st = cuzk_gpu_to_device(dbm, bm, words * sizeof *dbm);
        bench_runs runs = {0};
        for (int r = -1; st == CUZK_OK && r < 3; r++) {
            cuzk_g1_jac_t r1;
            cuzk_g2_jac_t r2;
            double v = 0;
            st = cuzk_gpu_timer_start(&t);
            if (st == CUZK_OK)
                st = g2 ? cuzk_gpu_g2_batch_add(&r2, db, dbm, n, ctx) : cuzk_gpu_g1_batch_add(&r1, db, dbm, n, ctx);
            if (st == CUZK_OK) st = cuzk_gpu_timer_stop(&t, &v);
            if (r >= 0) bench_run_add(&runs, v);
        }
        if (st == CUZK_OK) {
            bench_stat ms = bench_stat_of(&runs);
            bench_gpu_runs(name, n, &ms, 1, "ms", NULL);
        } else {
            fail(name, st);
        }
        cuzk_gpu_free(db), cuzk_gpu_free(dbm);
        free(bm), free(tile);
    }
    cuzk_gpu_timer_free(&t);
    cuzk_gpu_msm_ctx_destroy(ctx);
}

/* gpu_msm_var: MSM kernel variants side by side in one run (cuzk_gpu_msm_opts): G1 at 2^22, 2^24 and 2^26 and G2
 * at 2^22 and 2^24, the default against G1 without the rounds at 2^22, 2^23 and 2^24, the rounds' least
 * average run (G1: 6, 10, 12; G2: 10) and slots per thread (128), and G1 2^26 at a window of 21 bits (names
 * gpu_g1_msm_var<v>[_c<c>], gpu_g2_msm_var<v>, v the variant in hex, 0 the default). With the filter gpu_msm_once
 * every configuration up to 2^22 runs once, untimed: the launches a profiler (ncu --kernel-name regex:k_accumulate)
 * attaches to. */
static void bench_msm_var(const bench_opts *o)
{
    int once = bench_selected(o, "gpu_msm_once") && o->filter != NULL;
    static const struct {
        int g2;
        unsigned log2, v, c;
    } cfg[] = {{0, 22, 0, 0},  {0, 22, 0x8c00d14, 0}, {0, 23, 0, 0},         {0, 23, 0x8c00d14, 0},
               {0, 24, 0, 0},  {0, 24, 0x8c00d14, 0}, {0, 24, 0xc00514, 0},  {0, 24, 0x8c30514, 0},
               {0, 26, 0, 0},  {0, 26, 0xc00514, 0},  {0, 26, 0x6c00514, 0}, {0, 26, 0xac00514, 0},
               {0, 26, 0, 21}, {1, 22, 0, 0},         {1, 22, 0x8a00514, 0}, {1, 24, 0, 0}};
    size_t nmax = (size_t)1 << (once ? 22 : 26), g2max = (size_t)1 << (once ? 22 : 24), ntile = MSM_TILE + 17;
    cuzk_fr_t *ks = malloc(ntile * sizeof *ks);
    cuzk_gpu_msm_ctx *ctx = NULL;
    if (ks == NULL || cuzk_gpu_msm_ctx_create(&ctx, NULL) != CUZK_OK) {
        free(ks);
        return;
    }
    random_scalars(ks, ntile, 0x2545f4914f6cdd1dULL);
    void *db[2] = {NULL, NULL};
    cuzk_fr_t *dk = NULL;
    cuzk_status st = cuzk_gpu_malloc((void **)&dk, nmax * sizeof(cuzk_fr_t));
    if (st == CUZK_OK) st = fill_cyclic(dk, ks, ntile, nmax, sizeof(cuzk_fr_t));
    for (int g2 = 0; st == CUZK_OK && g2 < 2; g2++) {
        size_t psz = g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t), np = g2 ? g2max : nmax;
        void *tile = make_tile(g2);
        if (tile == NULL) st = CUZK_ERR_NOMEM;
        if (st == CUZK_OK) st = cuzk_gpu_malloc(&db[g2], np * psz);
        if (st == CUZK_OK) st = fill_cyclic(db[g2], tile, MSM_TILE, np, psz);
        free(tile);
    }
    for (size_t i = 0; st == CUZK_OK && i < sizeof cfg / sizeof cfg[0]; i++) {
        if (!bench_size_selected(o, cfg[i].log2)) continue;
        size_t n = (size_t)1 << cfg[i].log2;
        if (n > (cfg[i].g2 ? g2max : nmax)) continue;
        int g2 = cfg[i].g2;
        cuzk_gpu_msm_opts vo = {cfg[i].v, cfg[i].c, 0, o->msm_profile};
        cuzk_gpu_msm_ctx_set_opts(ctx, &vo);
        bench_stat ms;
        memset(&ms, 0, sizeof ms);
        if (once) {
            cuzk_g1_jac_t r1;
            cuzk_g2_jac_t r2;
            st = g2 ? cuzk_gpu_g2_msm(&r2, db[1], dk, n, ctx) : cuzk_gpu_g1_msm(&r1, db[0], dk, n, ctx);
            if (st == CUZK_OK) st = cuzk_gpu_sync();
        } else {
            st = time_msm(g2, ctx, db[g2], dk, n, 3, &ms);
        }
        char nm[48];
        if (cfg[i].c != 0) snprintf(nm, sizeof nm, "gpu_%s_msm_var%x_c%u", g2 ? "g2" : "g1", cfg[i].v, cfg[i].c);
        else snprintf(nm, sizeof nm, "gpu_%s_msm_var%x", g2 ? "g2" : "g1", cfg[i].v);
        if (st == CUZK_OK && !once) bench_gpu_runs(nm, n, &ms, 1, "ms", NULL);
        if (st != CUZK_OK) fail(nm, st);
    }
    cuzk_gpu_free(db[0]), cuzk_gpu_free(db[1]), cuzk_gpu_free(dk);
    cuzk_gpu_msm_ctx_destroy(ctx);
    free(ks);
}

void bench_micro_gpu(const bench_opts *o)
{
    bench_ff(o);
    if (bench_selected(o, "gpu_ntt")) bench_ntt(o);
    if (bench_selected(o, "g1_msm") || bench_selected(o, "g2_msm")) bench_msm(o);
    if (o->filter != NULL && (bench_selected(o, "gpu_msm_var") || bench_selected(o, "gpu_msm_once"))) bench_msm_var(o);
    if (bench_selected(o, "gpu_g1_batch_add") || bench_selected(o, "gpu_g2_batch_add")) bench_batch_add(o);
}
