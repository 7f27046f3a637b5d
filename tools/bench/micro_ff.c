/* Field micro-benchmarks: a dependent chain of operations, so latency (not throughput) is measured. */
#include "bench.h"
#include "cuzk/ff.h"

#define CHAIN 2000000

static void seed_fp(fp_t *a, uint64_t s)
{
    uint64_t l[FP_LIMBS] = {s * 0x9e3779b97f4a7c15ULL, s ^ 0x1234, 7, 11, 13, 17};
    fp_from_limbs(a, l);
}

static void seed_fr(fr_t *a, uint64_t s)
{
    uint64_t l[FR_LIMBS] = {s * 0x9e3779b97f4a7c15ULL, s ^ 0x1234, 7, 11};
    fr_from_limbs(a, l);
}

void bench_micro_ff(const bench_opts *o)
{
    if (bench_selected(o, "fp_mul")) {
        fp_t a, b;
        seed_fp(&a, 1);
        seed_fp(&b, 2);
        double t0 = bench_now_ns();
        for (int i = 0; i < CHAIN; i++) fp_mul(&a, &a, &b);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_mul", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fp_sqr")) {
        fp_t a;
        seed_fp(&a, 3);
        double t0 = bench_now_ns();
        for (int i = 0; i < CHAIN; i++) fp_sqr(&a, &a);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_sqr", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fr_mul")) {
        fr_t a, b;
        seed_fr(&a, 4);
        seed_fr(&b, 5);
        double t0 = bench_now_ns();
        for (int i = 0; i < CHAIN; i++) fr_mul(&a, &a, &b);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fr_mul", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fp_add")) {
        fp_t a, b;
        seed_fp(&a, 7);
        seed_fp(&b, 8);
        double t0 = bench_now_ns();
        for (int i = 0; i < CHAIN; i++) fp_add(&a, &a, &b);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_add", 1, 1, dt / CHAIN, "ns");
    }
    if (bench_selected(o, "fp2_mul")) {
        fp2_t a, b;
        seed_fp(&a.c0, 9);
        seed_fp(&a.c1, 10);
        seed_fp(&b.c0, 11);
        seed_fp(&b.c1, 12);
        double t0 = bench_now_ns();
        for (int i = 0; i < CHAIN / 4; i++) fp2_mul(&a, &a, &b);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp2_mul", 1, 1, dt / (CHAIN / 4), "ns");
    }
    if (bench_selected(o, "fp2_sqr")) {
        fp2_t a;
        seed_fp(&a.c0, 13);
        seed_fp(&a.c1, 14);
        double t0 = bench_now_ns();
        for (int i = 0; i < CHAIN / 4; i++) fp2_sqr(&a, &a);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp2_sqr", 1, 1, dt / (CHAIN / 4), "ns");
    }
    if (bench_selected(o, "fr_inv")) {
        enum { N = 20000 };
        fr_t a;
        seed_fr(&a, 15);
        double t0 = bench_now_ns();
        for (int i = 0; i < N; i++) fr_inv_vartime(&a, &a);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fr_inv", 1, 1, dt / N, "ns");
        t0 = bench_now_ns();
        for (int i = 0; i < N; i++) fr_inv(&a, &a);
        dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fr_inv_consttime", 1, 1, dt / N, "ns");
    }
    if (bench_selected(o, "fp_inv")) {
        enum { N = 20000 };
        fp_t a;
        seed_fp(&a, 6);
        double t0 = bench_now_ns();
        for (int i = 0; i < N; i++) fp_inv_vartime(&a, &a);
        double dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_inv", 1, 1, dt / N, "ns");
        t0 = bench_now_ns();
        for (int i = 0; i < N; i++) fp_inv(&a, &a);
        dt = bench_now_ns() - t0;
        BENCH_KEEP(a);
        bench_report("fp_inv_consttime", 1, 1, dt / N, "ns");
    }
}
