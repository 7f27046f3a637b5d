/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What every benchmark uses (bench.h): repeated runs and their figure and spread, selection by name, the JSON
 * lines, the timing of one Groth16 proof phase by phase, and the key cache of the proof benchmarks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"

static uint64_t run_clock(const bench_runs *r)
{
    if (!r->cpu) return cuzk_now_ns();
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void bench_run_start(bench_runs *r) { r->t0 = run_clock(r); }

void bench_run_stop(bench_runs *r) { bench_run_add(r, (double)(run_clock(r) - r->t0)); }

void bench_run_add(bench_runs *r, double value)
{
    if (r->n < BENCH_MAX_RUNS) r->v[r->n++] = value;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

bench_stat bench_stat_of(const bench_runs *r)
{
    bench_stat s;
    memset(&s, 0, sizeof s);
    if (r->n == 0) return s;
    double v[BENCH_MAX_RUNS];
    memcpy(v, r->v, r->n * sizeof v[0]);
    qsort(v, r->n, sizeof v[0], cmp_double);
    s.runs = r->n;
    s.best = v[0];
    s.worst = v[r->n - 1];
    /* an even count: the mean of the two middle runs */
    s.median = r->n % 2 ? v[r->n / 2] : (v[r->n / 2 - 1] + v[r->n / 2]) / 2;
    s.spread = s.median > 0 ? (s.worst - s.best) / s.median : 0;
    s.cpu = r->cpu;
    return s;
}

bool bench_selected(const bench_opts *o, const char *name)
{
    return o->filter == NULL || strstr(name, o->filter) != NULL;
}

bool bench_size_selected(const bench_opts *o, unsigned log2)
{
    return o->sizes == 0 || (log2 < 32 && (o->sizes >> log2 & 1) != 0);
}

int bench_thread_set(const bench_opts *o, int out[2])
{
    if (o->threads > 0) {
        out[0] = o->threads;
        return 1;
    }
    out[0] = 1;
    out[1] = 2;
    return 2;
}

void bench_report(const char *name, uint64_t size, int threads, double value, const char *unit)
{
    printf("{\"name\": \"%s\", \"size\": %llu, \"threads\": %d, \"value\": %.3f, \"unit\": \"%s\"}\n", name,
           (unsigned long long)size, threads, value, unit);
    fflush(stdout);
}

void bench_report_runs(const char *name, uint64_t size, int threads, const bench_stat *s, double scale,
                       const char *unit, const char *extra)
{
    printf("{\"name\": \"%s\", \"size\": %llu, \"threads\": %d, \"value\": %.3f, \"unit\": \"%s\", \"median\": %.3f, "
           "\"spread\": %.3f, \"runs\": %u%s%s}\n",
           name, (unsigned long long)size, threads, s->best * scale, unit, s->median * scale, s->spread, s->runs,
           s->cpu ? ", \"clock\": \"cpu\"" : "", extra ? extra : "");
    fflush(stdout);
}

const char *bench_path_extra(cuzk_cpu_path kernel_max)
{
    static const char *const extra[CUZK_CPU_PATH_COUNT] = {", \"path\": \"portable\"", ", \"path\": \"adx\"",
                                                           ", \"path\": \"ifma\""};
    cuzk_cpu_path p = cuzk_cpu_path_get();
    return extra[p > kernel_max ? kernel_max : p];
}

void bench_gpu_line(const char *name, uint64_t size, double value, const char *unit, const char *extra)
{
    printf("{\"name\": \"%s\", \"size\": %llu, \"threads\": 0, \"value\": %.4f, \"unit\": \"%s\", "
           "\"device\": \"gpu\"%s}\n",
           name, (unsigned long long)size, value, unit, extra ? extra : "");
    fflush(stdout);
}

void bench_gpu_runs(const char *name, uint64_t size, const bench_stat *s, double scale, const char *unit,
                    const char *extra)
{
    char more[512];
    snprintf(more, sizeof more, ", \"best\": %.4f, \"spread\": %.3f, \"runs\": %u%s", s->best * scale, s->spread,
             s->runs, extra ? extra : "");
    bench_gpu_line(name, size, s->median * scale, unit, more);
}

void bench_groth16_prove(const bench_opts *o, const char *name, const cuzk_r1cs_t *r, const cuzk_groth16_pk *pk,
                         const cuzk_fr_t *z, uint64_t size)
{
    enum { REPS = 2 };
    int ts[2];
    int nts = bench_thread_set(o, ts);
    for (int ti = 0; ti < nts; ti++) {
        cuzk_groth16_prove_opts po;
        memset(&po, 0, sizeof po);
        po.threads = (unsigned)ts[ti];
        po.c_mode = CUZK_R1CS_C_PRODUCT;
        cuzk_groth16_prove_stats best, st;
        cuzk_groth16_proof_t proof;
        cuzk_errmsg err = {{0}};
        bench_runs runs = {0};
        memset(&best, 0, sizeof best);
        best.total = -1;
        for (int rep = 0; rep < REPS; rep++) {
            cuzk_status s = cuzk_groth16_prove(&proof, pk, pk->conv == CUZK_GROTH16_SNARKJS ? NULL : r, z, &po, &st,
                                               &err);
            if (s != CUZK_OK) {
                fprintf(stderr, "groth16_prove: %s (%s)\n", cuzk_status_str(s), err.msg);
                return;
            }
            bench_run_add(&runs, st.total);
            if (best.total < 0 || st.total < best.total) best = st; /* the phases of the best proof */
        }
        bench_stat total = bench_stat_of(&runs);
        bench_report_runs(name, size, ts[ti], &total, 1e3, "ms", NULL);
        const char *names[8] = {"prove_spmv",  "prove_ntt_h",  "prove_msm_h",  "prove_msm_l",
                                "prove_msm_a", "prove_msm_b1", "prove_msm_b2", "prove_assembly"};
        double v[8] = {best.spmv,  best.ntt_h,  best.msm_h,  best.msm_l,
                       best.msm_a, best.msm_b1, best.msm_b2, best.assembly};
        for (int i = 0; i < 8; i++) bench_report(names[i], size, ts[ti], v[i] * 1e3, "ms");
    }
}

bool bench_cache_dir(char *out, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg != NULL && xdg[0] != '\0') snprintf(out, len, "%s/cuzk-bench", xdg);
    else if (home != NULL && home[0] != '\0') snprintf(out, len, "%s/.cache/cuzk-bench", home);
    else return false;
    /* the parent of a missing XDG dir may be missing too: create both levels */
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", out);
    char *slash = strrchr(parent, '/');
    if (slash != NULL) {
        *slash = '\0';
        mkdir(parent, 0755);
    }
    return mkdir(out, 0755) == 0 || errno == EEXIST;
}
