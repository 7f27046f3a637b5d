/* GPU micro-benchmarks (`cuzk-bench micro --gpu`): field throughput and NTTs on device-resident data, timed with
 * CUDA events after a warm-up, median of several runs. Same JSON lines as the CPU benchmarks plus "device": "gpu";
 * "threads" is 0 (the whole device). Built only when CUDA is enabled. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cuzk/gpu.h"

static void report(const char *name, uint64_t size, double value, const char *unit)
{
    printf("{\"name\": \"%s\", \"size\": %llu, \"threads\": 0, \"value\": %.4f, \"unit\": \"%s\", \"device\": \"gpu\"}\n",
           name, (unsigned long long)size, value, unit);
    fflush(stdout);
}

static int fail(const char *what, cuzk_status st)
{
    fprintf(stderr, "cuzk-bench: %s: %s: %s\n", what, cuzk_status_str(st), gpu_last_error());
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void bench_ff(const bench_opts *o)
{
    static const struct { gpu_ff_op op; const char *name; } ops[] = {
        {GPU_FR_MUL, "gpu_fr_mul"}, {GPU_FR_MUL64, "gpu_fr_mul64"}, {GPU_FR_ADD, "gpu_fr_add"},
        {GPU_FR_MUL_SPECIAL, "gpu_fr_mul_special"}, {GPU_FP_MUL, "gpu_fp_mul"}, {GPU_FP_MUL64, "gpu_fp_mul64"}, {GPU_FP2_MUL, "gpu_fp2_mul"},
    };
    /* 132 SMs × 2048 threads × 4: enough to fill the device; the value is device time per operation */
    const size_t threads = (size_t)1 << 20;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (!bench_selected(o, ops[i].name)) continue;
        double ns;
        cuzk_status st = gpu_ff_throughput(ops[i].op, threads, 256, &ns);
        if (st != CUZK_OK) {
            fail(ops[i].name, st);
            continue;
        }
        report(ops[i].name, threads, ns * 1e3, "ps");
    }
}

/* Median of 9 timed runs (after one warm-up) of one transform kind on device data. */
static cuzk_status time_ntt(gpu_timer *t, fr_t *dx, gpu_ntt_domain *d, int kind, const fr_t *g, double *med)
{
    double ms[9];
    const int reps = 9;
    cuzk_status st = CUZK_OK;
    for (int r = -1; st == CUZK_OK && r < reps; r++) {
        st = gpu_timer_start(t);
        if (st == CUZK_OK) {
            if (kind == 1) st = gpu_ntt_inverse(dx, d);
            else if (kind == 2) st = gpu_ntt_coset_forward(dx, d, g);
            else st = gpu_ntt_forward(dx, d);
        }
        double v = 0;
        if (st == CUZK_OK) st = gpu_timer_stop(t, &v);
        if (r >= 0) ms[r] = v;
    }
    if (st != CUZK_OK) return st;
    qsort(ms, (size_t)reps, sizeof ms[0], cmp_double);
    *med = ms[reps / 2];
    return CUZK_OK;
}

/* Forward NTT (and inverse / coset at 2^24) on 2^k elements resident on the device. At 2^24 first every kernel
 * variant (gpu_ntt_v<variant>); the fastest is then used for all sizes. */
static void bench_ntt(const bench_opts *o)
{
    static const unsigned ks[] = {20, 22, 24, 26, 27};
    const size_t chunk = (size_t)1 << 16;
    fr_t *h = malloc(chunk * sizeof *h), g;
    if (h == NULL) return;
    for (size_t i = 0; i < chunk; i++) {
        uint64_t s = i * 0x9e3779b97f4a7c15ULL + 12345, l[FR_LIMBS] = {s | 1, s ^ 0xabcdef, s >> 7, s & 0x0fffffffffffffffULL};
        fr_from_limbs(&h[i], l);
    }
    fr_from_u64(&g, 7);
    gpu_timer t;
    if (gpu_timer_init(&t) != CUZK_OK) {
        free(h);
        return;
    }
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        unsigned k = ks[ki];
        size_t n = (size_t)1 << k;
        fr_t *dx = NULL;
        gpu_ntt_domain *d = NULL;
        cuzk_status st = gpu_ntt_domain_create(&d, k, FR_ROOTS_GEN7);
        if (st == CUZK_OK) st = gpu_malloc((void **)&dx, n * sizeof(fr_t));
        for (size_t off = 0; st == CUZK_OK && off < n; off += chunk)
            st = gpu_to_device(dx + off, h, chunk * sizeof(fr_t));
        if (st == CUZK_OK && k == 24 && ki == 2) {
            double best = 1e30;
            unsigned bestv = 0;
            for (unsigned v = 0; st == CUZK_OK && v < 8; v++) {
                if (v == 3 || v == 7) continue; /* bit 1 overrides bit 0 */
                char nm[32];
                snprintf(nm, sizeof nm, "gpu_ntt_v%u", v);
                gpu_ntt_set_variant(v);
                double ms;
                st = time_ntt(&t, dx, d, 0, &g, &ms);
                if (st == CUZK_OK) report(nm, n, ms, "ms");
                if (st == CUZK_OK && ms < best) best = ms, bestv = v;
            }
            gpu_ntt_set_variant(bestv);
            fprintf(stderr, "cuzk-bench: NTT variant %u from here on\n", bestv);
        }
        static const char *names[] = {"gpu_ntt", "gpu_ntt_inverse", "gpu_ntt_coset", "gpu_ntt_tile9", "gpu_ntt_tile10"};
        for (int kind = 0; st == CUZK_OK && kind < 5; kind++) {
            if (kind > 0 && k != 24) break;
            if (!bench_selected(o, names[kind])) continue;
            unsigned old_tile = gpu_ntt_set_tile_log2(kind == 3 ? 9 : kind == 4 ? 10 : 11);
            double ms;
            st = time_ntt(&t, dx, d, kind < 3 ? kind : 0, &g, &ms);
            gpu_ntt_set_tile_log2(old_tile);
            if (st == CUZK_OK) report(names[kind], n, ms, "ms");
        }
        if (st != CUZK_OK) fail("gpu_ntt", st);
        gpu_free(dx);
        gpu_ntt_domain_destroy(d);
    }
    gpu_timer_free(&t);
    free(h);
}

void bench_micro_gpu(const bench_opts *o)
{
    if (gpu_device_count() <= 0) {
        fprintf(stderr, "cuzk-bench: --gpu: no CUDA device\n");
        return;
    }
    char name[256];
    if (gpu_device_name(name, sizeof name) == CUZK_OK) fprintf(stderr, "cuzk-bench: device %s\n", name);
    bench_ff(o);
    if (bench_selected(o, "gpu_ntt")) bench_ntt(o);
}
