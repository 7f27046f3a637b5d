/* Field micro-benchmarks: a dependent chain of operations, so latency (not throughput) is measured. */
#include "bench.h"
#include "cuzk/ff.h"

#define CHAIN 2000000

static void seed_fp(cuzk_fp_t *a, uint64_t s)
{
    uint64_t l[CUZK_FP_LIMBS] = {s * 0x9e3779b97f4a7c15ULL, s ^ 0x1234, 7, 11, 13, 17};
    cuzk_fp_from_limbs(a, l);
}

static void seed_fr(cuzk_fr_t *a, uint64_t s)
{
    uint64_t l[CUZK_FR_LIMBS] = {s * 0x9e3779b97f4a7c15ULL, s ^ 0x1234, 7, 11};
    cuzk_fr_from_limbs(a, l);
}

void bench_micro_ff(const bench_opts *o)
{
    if (bench_selected(o, "fp_mul")) {
        cuzk_fp_t a, b;
        seed_fp(&a, 1);
        seed_fp(&b, 2);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < CHAIN; i++) cuzk_fp_mul(&a, &a, &b);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_mul", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fp_sqr")) {
        cuzk_fp_t a;
        seed_fp(&a, 3);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < CHAIN; i++) cuzk_fp_sqr(&a, &a);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_sqr", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fr_mul")) {
        cuzk_fr_t a, b;
        seed_fr(&a, 4);
        seed_fr(&b, 5);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < CHAIN; i++) cuzk_fr_mul(&a, &a, &b);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fr_mul", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fp_add")) {
        cuzk_fp_t a, b;
        seed_fp(&a, 7);
        seed_fp(&b, 8);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < CHAIN; i++) cuzk_fp_add(&a, &a, &b);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_add", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fp2_mul")) {
        cuzk_fp2_t a, b;
        seed_fp(&a.c0, 9);
        seed_fp(&a.c1, 10);
        seed_fp(&b.c0, 11);
        seed_fp(&b.c1, 12);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < CHAIN / 4; i++) cuzk_fp2_mul(&a, &a, &b);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp2_mul", 1, 1, dt / (CHAIN / 4), "ns");
    }
    if (bench_selected(o, "fp2_sqr")) {
        cuzk_fp2_t a;
        seed_fp(&a.c0, 13);
        seed_fp(&a.c1, 14);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < CHAIN / 4; i++) cuzk_fp2_sqr(&a, &a);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp2_sqr", 1, 1, dt / (CHAIN / 4), "ns");
    }
    if (bench_selected(o, "fr_inv")) {
        enum { N = 20000 };
        cuzk_fr_t a;
        seed_fr(&a, 15);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < N; i++) cuzk_fr_inv_vartime(&a, &a);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fr_inv", 1, 1, dt / N, "ns");
        t0 = (double)cuzk_now_ns();
        for (int i = 0; i < N; i++) cuzk_fr_inv(&a, &a);
        dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fr_inv_consttime", 1, 1, dt / N, "ns");
    }
    if (bench_selected(o, "fp_inv")) {
        enum { N = 20000 };
        cuzk_fp_t a;
        seed_fp(&a, 6);
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < N; i++) cuzk_fp_inv_vartime(&a, &a);
        double dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_inv", 1, 1, dt / N, "ns");
        t0 = (double)cuzk_now_ns();
        for (int i = 0; i < N; i++) cuzk_fp_inv(&a, &a);
        dt = (double)cuzk_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_inv_consttime", 1, 1, dt / N, "ns");
    }
}
