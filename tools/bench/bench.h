/* cuzk-bench internals: every benchmark prints one JSON object per line,
 *   {"name": "...", "size": n, "threads": t, "value": x, "unit": "ns"|"us"|"ms"}
 * so results can be collected by machines and compared side by side. */
#ifndef CUZK_BENCH_H
#define CUZK_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/groth16.h"

typedef struct {
    const char *filter; /* substring a benchmark name must contain; NULL = all */
    int threads;        /* 0 = the default set of thread counts of each benchmark */
    int max_log2;       /* prove: largest circuit size 2^max_log2 to run */
    int min_log2;       /* --gpu proofs: smallest size (0 = all) */

    bool gpu;           /* --gpu: the CUDA backend's benchmarks instead (lines carry "device": "gpu") */
    long msm_variant, ntt_variant; /* --gpu: cuzk_gpu_msm_set_variant / cuzk_gpu_ntt_set_variant first; −1 = the default */
    bool msm_profile;   /* --gpu: cuzk_gpu_msm_set_profile(1) */
} bench_opts;

bool bench_selected(const bench_opts *o, const char *name);
void bench_report(const char *name, uint64_t size, int threads, double value, const char *unit);
/* Thread counts to run a multi-threaded benchmark at: o->threads alone, or 1 and 2. Returns the count. */
int bench_thread_set(const bench_opts *o, int out[2]);

/* One entry point per layer. */
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

/* One proof (best of two) reported as `name`, then its per-phase lines prove_<phase>, for any circuit, key and
 * witness (size: the number to report, e.g. the constraint count), at the thread counts of bench_thread_set. For a
 * SNARKJS key the circuit may be NULL. */
void bench_groth16_prove(const bench_opts *o, const char *name, const cuzk_r1cs_t *r, const cuzk_groth16_pk *pk, const cuzk_fr_t *z,
                         uint64_t size);

/* `cuzk-bench prove`: cuzk_groth16_prove on synthetic PoRep-shaped circuits (circuits.h) of 2^16, 2^18, ... up to
 * o->max_log2, keys cached under ~/.cache/cuzk-bench/; lines "prove", "prove_<phase>" and "prove_peak_rss" (MB). */
void bench_prove_gen(const bench_opts *o);
/* The benchmarks' key cache, $XDG_CACHE_HOME/cuzk-bench or ~/.cache/cuzk-bench, created when missing. */
bool bench_cache_dir(char *out, size_t len);
/* `cuzk-bench zkey`: snarkjs-convention zkey + wtns fixtures (mulchain 2^16, bits 2^15) in the cache, made once;
 * prints their paths, for timing `cuzk prove --zkey` as a whole command (zkey_fixtures.c). */
void bench_zkey_fixtures(const bench_opts *o);

#ifdef CUZK_HAVE_CUDA
void bench_micro_gpu(const bench_opts *o);
/* the --gpu whole-proof lines (prove_gpu.c) */
void bench_prove_gpu(const bench_opts *o);
/* one --gpu JSON line: the common fields, "device": "gpu", then extra (", \"key\": value..." or NULL) */
void bench_gpu_line(const char *name, uint64_t size, double value, const char *unit, const char *extra);
/* the gpu_floor lines (floor_gpu.c) */
void bench_floor_gpu(const bench_opts *o);
#endif

/* Keeps a value alive so the compiler cannot drop the work that produced it. */
#define BENCH_KEEP(x) __asm__ volatile("" : : "g"(&(x)) : "memory")

#endif
