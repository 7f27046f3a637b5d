/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench internals: every benchmark prints one JSON object per line,
 *   {"name": "...", "size": n, "threads": t, "value": x, "unit": "ns"|"us"|"ms", ...}
 * so results can be collected by machines and compared side by side.
 *
 * main.c holds the table of benchmarks; each benchmark file exposes one entry point (a bench_entry, declared below)
 * and takes its timing, selection and output from the helpers here (timing.c). No benchmark calls into main.c. */
#ifndef CUZK_BENCH_H
#define CUZK_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"

typedef struct {
    const char *filter; /* substring a benchmark name must contain; NULL = all */
    int threads;        /* 0 = the default set of thread counts of each benchmark */
    int max_log2;       /* --max-log2: largest circuit size 2^max_log2 to run; 0: each command's default */
    int min_log2;       /* --gpu proofs: smallest size (0 = all) */

    bool gpu;                      /* --gpu: the CUDA backend's benchmarks instead (lines carry "device": "gpu") */
    long msm_variant, ntt_variant; /* --gpu: the MSM / NTT kernel variant of every benchmark; −1 = the default */
    bool msm_profile;              /* --gpu: every MSM prints its phases (cuzk_gpu_msm_opts.profile) */
    uint64_t sector_size;          /* porep: --sector-size (0 = 32 GiB) */
    uint32_t sizes; /* --gpu --sizes: bit k set = size 2^k runs (NTT, MSM, batch addition, proofs); 0 = all */
} bench_opts;

/* A benchmark file's entry point: runs the benchmarks of its file that o selects. */
typedef void (*bench_entry)(const bench_opts *o);

/* ---- the timing helper (timing.c) ------------------------------------------------------------------------------- */
/* Repetitions of one measurement: each is timed (wall clock, ns) between bench_run_start and bench_run_stop, or
 * added as measured elsewhere (a device timer's ms, a prover's phase time) with bench_run_add. The figure is then
 * the best or the median of the runs, and the spread says how far apart they were. */
#define BENCH_MAX_RUNS 64
typedef struct {
    double v[BENCH_MAX_RUNS];
    unsigned n;
    uint64_t t0;
    bool cpu; /* set before the first run: time by the calling thread's CPU clock (the work runs on that thread;
               * time spent waiting for a core on a busy machine is not counted), else by the wall clock */
} bench_runs;

typedef struct {
    double best, median, worst;
    double spread; /* (worst − best) / median: 0 when the runs agree */
    unsigned runs;
    bool cpu; /* timed by the thread's CPU clock: the line says "clock": "cpu" */
} bench_stat;

void bench_run_start(bench_runs *r);
void bench_run_stop(bench_runs *r);
void bench_run_add(bench_runs *r, double value); /* beyond BENCH_MAX_RUNS values are dropped */
bench_stat bench_stat_of(const bench_runs *r);   /* all zero without runs */

/* ---- selection and output (timing.c) ---------------------------------------------------------------------------- */
bool bench_selected(const bench_opts *o, const char *name);
/* --gpu: whether size 2^log2 runs (--sizes, else every size). */
bool bench_size_selected(const bench_opts *o, unsigned log2);
/* --max-log2 when given, else the command's own default */
static inline int bench_max_log2(const bench_opts *o, int dflt) { return o->max_log2 > 0 ? o->max_log2 : dflt; }
/* Thread counts to run a multi-threaded benchmark at: o->threads alone, or 1 and 2. Returns the count. */
int bench_thread_set(const bench_opts *o, int out[2]);
/* One line with a single figure. */
void bench_report(const char *name, uint64_t size, int threads, double value, const char *unit);
/* One line from repeated runs: value = the best run × scale (the machine is shared: the best run is the one least
 * disturbed), then "median" (× scale), "spread", "runs" and extra (", \"key\": value..." or NULL). */
void bench_report_runs(const char *name, uint64_t size, int threads, const bench_stat *s, double scale,
                       const char *unit, const char *extra);
/* ", \"path\": \"adx\"": the extra of a CPU line, naming the instruction-set path its kernel took, the current CPU
 * path (base.h) capped at kernel_max, the highest the kernel has (CUZK_CPU_ADX for scalar field arithmetic,
 * CUZK_CPU_IFMA for the G1 MSM's 8-lane rounds). */
const char *bench_path_extra(cuzk_cpu_path kernel_max);
/* One --gpu line: the common fields, "device": "gpu", then extra (", \"key\": value..." or NULL). */
void bench_gpu_line(const char *name, uint64_t size, double value, const char *unit, const char *extra);
/* One --gpu line from repeated runs: value = the median × scale (device timers are steady; the median ignores a
 * cold run), then "best", "spread", "runs" and extra. */
void bench_gpu_runs(const char *name, uint64_t size, const bench_stat *s, double scale, const char *unit,
                    const char *extra);

/* One proof (best of two) reported as `name`, then its per-phase lines prove_<phase>, for any circuit, key and
 * witness (size: the number to report, e.g. the constraint count), at the thread counts of bench_thread_set. For a
 * SNARKJS key the circuit may be NULL. Shared by the Groth16, prove and zkey benchmarks. */
void bench_groth16_prove(const bench_opts *o, const char *name, const cuzk_r1cs_t *r, const cuzk_groth16_pk *pk,
                         const cuzk_fr_t *z, uint64_t size);
/* The benchmarks' key cache, $XDG_CACHE_HOME/cuzk-bench or ~/.cache/cuzk-bench, created when missing. */
bool bench_cache_dir(char *out, size_t len);

/* Keeps a value alive so the compiler cannot drop the work that produced it. */
#define BENCH_KEEP(x) __asm__ volatile("" : : "g"(&(x)) : "memory")

/* ---- entry points, one per benchmark file (main.c's table) ------------------------------------------------------ */
void bench_micro_ff(const bench_opts *o);
void bench_micro_ec(const bench_opts *o);
void bench_micro_pairing(const bench_opts *o);
void bench_micro_msm(const bench_opts *o);
void bench_micro_ntt(const bench_opts *o);
void bench_micro_r1cs(const bench_opts *o);
void bench_micro_circuits(const bench_opts *o);
void bench_micro_poseidon(const bench_opts *o);
void bench_micro_groth16(const bench_opts *o);
void bench_micro_filecoin(const bench_opts *o);
void bench_micro_sdr(const bench_opts *o);
/* SnapDeals circuit: 2 KiB always; the 32 GiB lines only when the filter selects them (micro_snap.c) */
void bench_micro_snap(const bench_opts *o);
/* `cuzk-bench prove`: cuzk_groth16_prove on synthetic PoRep-shaped circuits (circuits.h) of 2^16, 2^18, ... up to
 * o->max_log2, keys cached under ~/.cache/cuzk-bench/; lines "prove", "prove_<phase>" and "prove_peak_rss" (MB). */
void bench_prove_gen(const bench_opts *o);
/* `cuzk-bench zkey`: snarkjs-convention zkey + wtns fixtures (mulchain 2^16, bits 2^15) in the cache, made once;
 * prints their paths, for timing `cuzk prove --zkey` as a whole command (zkey_fixtures.c). */
void bench_zkey_fixtures(const bench_opts *o);
/* `cuzk-bench porep`: the PoRep C2 circuit at o->sector_size (porep.c). */
void bench_porep(const bench_opts *o);
#ifdef CUZK_BENCH_CLIENT
/* The commands against a running daemon (net.c, through the cuzk_client library): single, batch, stress, status,
 * preload, evict, metrics. bench_net_main takes argv from the command's name on, and the address given before the
 * command (-a; NULL: the default). */
bool bench_net_is_command(const char *name);
int bench_net_main(int argc, char **argv, const char *addr);
#endif
/* `cuzk-bench gen-vanilla porep`: Curio's test inputs made without a sealed sector (gen_vanilla.c); argv from
 * "gen-vanilla" on. */
int bench_gen_vanilla(int argc, char **argv);
/* `cuzk-bench post shape|witness ...` (post.c): argv after "post"; returns the exit status. */
int bench_post_main(int argc, char **argv);

#ifdef CUZK_HAVE_CUDA
#include "cuzk/gpu.h"

/* --gpu: field throughput, NTT, MSM and batch-addition lines (micro_gpu.c) */
void bench_micro_gpu(const bench_opts *o);
/* The MSM options and the prover options that --msm-variant, --ntt-variant and --msm-profile ask for, and the NTT
 * options of an --ntt-variant word (micro_gpu.c). */
void bench_gpu_msm_opts(const bench_opts *o, cuzk_gpu_msm_opts *m);
void bench_gpu_prover_opts(const bench_opts *o, cuzk_gpu_prover_opts *p);
void bench_gpu_ntt_variant(unsigned v, cuzk_gpu_ntt_opts *n);
/* --gpu: the whole-proof lines (prove_gpu.c) */
void bench_prove_gpu(const bench_opts *o);
/* --gpu: the gpu_floor lines (floor_gpu.c) */
void bench_floor_gpu(const bench_opts *o);
#endif

#endif
