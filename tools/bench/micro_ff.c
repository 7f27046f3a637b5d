/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Field micro-benchmarks: a dependent chain of operations, so latency (not throughput) is measured; each line is the
 * best of REPS chains with their median and spread, by the thread's CPU clock, in ns per operation, and names the CPU
 * path the kernel took. A first line, cpu_path, names the path in force and the best the processor has. */
#include <stdio.h>

#include "bench.h"
#include "cuzk/ff.h"

#define CHAIN 100000
#define REPS 21

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

static void fp_mul(int n)
{
    cuzk_fp_t a, b;
    seed_fp(&a, 1);
    seed_fp(&b, 2);
    for (int i = 0; i < n; i++) cuzk_fp_mul(&a, &a, &b);
    BENCH_KEEP(a);
}

static void fp_sqr(int n)
{
    cuzk_fp_t a;
    seed_fp(&a, 3);
    for (int i = 0; i < n; i++) cuzk_fp_sqr(&a, &a);
    BENCH_KEEP(a);
}

static void fr_mul(int n)
{
    cuzk_fr_t a, b;
    seed_fr(&a, 4);
    seed_fr(&b, 5);
    for (int i = 0; i < n; i++) cuzk_fr_mul(&a, &a, &b);
    BENCH_KEEP(a);
}

static void fr_sqr(int n)
{
    cuzk_fr_t a;
    seed_fr(&a, 6);
    for (int i = 0; i < n; i++) cuzk_fr_sqr(&a, &a);
    BENCH_KEEP(a);
}

/* a sum of nine products reduced once (a row of Poseidon's arity-8 matrix), each sum feeding the next */
static void fr_dot9(int n)
{
    cuzk_fr_t a[9], b[9];
    for (int i = 0; i < 9; i++) {
        seed_fr(&a[i], 20 + (uint64_t)i);
        seed_fr(&b[i], 40 + (uint64_t)i);
    }
    for (int i = 0; i < n; i++) cuzk_fr_dot(&a[i % 9], a, b, 9);
    BENCH_KEEP(a[0]);
}

static void fp_add(int n)
{
    cuzk_fp_t a, b;
    seed_fp(&a, 7);
    seed_fp(&b, 8);
    for (int i = 0; i < n; i++) cuzk_fp_add(&a, &a, &b);
    BENCH_KEEP(a);
}

static void fp2_mul(int n)
{
    cuzk_fp2_t a, b;
    seed_fp(&a.c0, 9);
    seed_fp(&a.c1, 10);
    seed_fp(&b.c0, 11);
    seed_fp(&b.c1, 12);
    for (int i = 0; i < n; i++) cuzk_fp2_mul(&a, &a, &b);
    BENCH_KEEP(a);
}

static void fp2_sqr(int n)
{
    cuzk_fp2_t a;
    seed_fp(&a.c0, 13);
    seed_fp(&a.c1, 14);
    for (int i = 0; i < n; i++) cuzk_fp2_sqr(&a, &a);
    BENCH_KEEP(a);
}

static void seed_fp12(cuzk_fp12_t *a, uint64_t s)
{
    cuzk_fp_t *c = (cuzk_fp_t *)a;
    for (int i = 0; i < 12; i++) seed_fp(&c[i], s + (uint64_t)i);
}

static void fp12_mul(int n)
{
    cuzk_fp12_t a, b;
    seed_fp12(&a, 20);
    seed_fp12(&b, 40);
    for (int i = 0; i < n; i++) cuzk_fp12_mul(&a, &a, &b);
    BENCH_KEEP(a);
}

static void fp12_sqr(int n)
{
    cuzk_fp12_t a;
    seed_fp12(&a, 60);
    for (int i = 0; i < n; i++) cuzk_fp12_sqr(&a, &a);
    BENCH_KEEP(a);
}

/* in the cyclotomic subgroup: m = a^((p^6 − 1)(p^2 + 1)) */
static void fp12_cyclotomic_sqr(int n)
{
    cuzk_fp12_t a, m, t;
    seed_fp12(&a, 80);
    cuzk_fp12_inv(&t, &a);
    cuzk_fp12_conj(&m, &a);
    cuzk_fp12_mul(&m, &m, &t);
    cuzk_fp12_frobenius(&t, &m, 2);
    cuzk_fp12_mul(&m, &m, &t);
    for (int i = 0; i < n; i++) cuzk_fp12_cyclotomic_sqr(&m, &m);
    BENCH_KEEP(m);
}

static void fr_inv(int n)
{
    cuzk_fr_t a;
    seed_fr(&a, 15);
    for (int i = 0; i < n; i++) cuzk_fr_inv_vartime(&a, &a);
    BENCH_KEEP(a);
}

static void fr_inv_ct(int n)
{
    cuzk_fr_t a;
    seed_fr(&a, 15);
    for (int i = 0; i < n; i++) cuzk_fr_inv(&a, &a);
    BENCH_KEEP(a);
}

static void fp_inv(int n)
{
    cuzk_fp_t a;
    seed_fp(&a, 6);
    for (int i = 0; i < n; i++) cuzk_fp_inv_vartime(&a, &a);
    BENCH_KEEP(a);
}

static void fp_inv_ct(int n)
{
    cuzk_fp_t a;
    seed_fp(&a, 6);
    for (int i = 0; i < n; i++) cuzk_fp_inv(&a, &a);
    BENCH_KEEP(a);
}

/* name, the chain, its length; the constant-time inversions are selected with their variable-time names */
static const struct {
    const char *name, *select;
    void (*chain)(int n);
    int n;
} cases[] = {
    {"fp_mul", "fp_mul", fp_mul, CHAIN},
    {"fp_sqr", "fp_sqr", fp_sqr, CHAIN},
    {"fr_mul", "fr_mul", fr_mul, CHAIN},
    {"fr_sqr", "fr_sqr", fr_sqr, CHAIN},
    {"fr_dot9", "fr_dot9", fr_dot9, CHAIN / 10},
    {"fp_add", "fp_add", fp_add, CHAIN},
    {"fp2_mul", "fp2_mul", fp2_mul, CHAIN / 4},
    {"fp2_sqr", "fp2_sqr", fp2_sqr, CHAIN / 4},
    {"fp12_mul", "fp12_mul", fp12_mul, CHAIN / 100},
    {"fp12_sqr", "fp12_sqr", fp12_sqr, CHAIN / 100},
    {"fp12_cyclotomic_sqr", "fp12_cyclotomic_sqr", fp12_cyclotomic_sqr, CHAIN / 50},
    {"fr_inv", "fr_inv", fr_inv, 2000},
    {"fr_inv_consttime", "fr_inv", fr_inv_ct, 2000},
    {"fp_inv", "fp_inv", fp_inv, 2000},
    {"fp_inv_consttime", "fp_inv", fp_inv_ct, 2000},
};

void bench_micro_ff(const bench_opts *o)
{
    printf("{\"name\": \"cpu_path\", \"size\": 0, \"threads\": 1, \"value\": %d, \"unit\": \"path\", \"path\": \"%s\", "
           "\"best\": \"%s\"}\n",
           (int)cuzk_cpu_path_get(), cuzk_cpu_path_name(cuzk_cpu_path_get()), cuzk_cpu_path_name(cuzk_cpu_path_best()));
    fflush(stdout);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!bench_selected(o, cases[i].select)) continue;
        bench_runs runs = {.cpu = true};
        for (int rep = 0; rep < REPS; rep++) {
            bench_run_start(&runs);
            cases[i].chain(cases[i].n);
            bench_run_stop(&runs);
        }
        bench_stat s = bench_stat_of(&runs);
        bench_report_runs(cases[i].name, 1, 1, &s, 1.0 / cases[i].n, "ns", bench_path_extra(CUZK_CPU_ADX));
    }
}
