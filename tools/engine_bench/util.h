/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-engine-bench's measuring helpers, shared by its Filecoin modes (post.c, seal.c). */
#ifndef CUZK_ENGINE_BENCH_UTIL_H
#define CUZK_ENGINE_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"

/* VmHWM of this process in bytes (0 when unknown). */
uint64_t eb_peak_rss(void);
/* A /proc/self/status field ("RssAnon:", "RssFile:") in bytes (0 when unknown). */
uint64_t eb_status_bytes(const char *key);
/* user + system CPU seconds of the process: on a shared machine, the work done rather than the wait */
double eb_cpu_s(void);
/* A whole file (malloc'd), NULL when it cannot be read. */
uint8_t *eb_read_file(const char *path, size_t *len);
/* A stage's seconds summed over the run: the _sum of its histogram in the engine's metrics text. */
double eb_stage_sum(const char *metrics, const char *stage);
/* qsort's comparison of doubles. */
int eb_cmp_double(const void *a, const void *b);
/* The 1-minute load average (−1 when unknown). */
double eb_loadavg(void);

/* --floor 1: the arithmetic floor of the run's proofs (tools/common/floor.h), from the engine's work counters (the
 * cuzk_prover_*_points_total lines of its metrics) and this machine's multiplication rates: a GPU engine's at the
 * device's rates over its devices, a CPU engine's at one core's over every core online. JSON members ("floor": {…},
 * followed by ", ") for `requests` requests whose median took median_s. */
void eb_floor_print(const char *metrics, const cuzk_engine_status_report *st, unsigned requests, double median_s);

/* The circuit's shape into the shape cache (cfg's pce_dir, else <param_dir>/cuzk-pce) before the engine starts, or
 * mapped when it is there, timed with the peak memory of the build: the engine then maps the file. */
typedef struct {
    double s;
    bool built;
    uint64_t peak_bytes; /* above the process's resident memory before it (0: unknown) */
    uint64_t rows, file_bytes;
} eb_shape;
cuzk_status eb_shape_first(const cuzk_engine_config *cfg, const cuzk_fil_proof *p, unsigned threads, eb_shape *f,
                           cuzk_errmsg *err);
/* Its JSON members, each followed by ", ". */
void eb_shape_print(const eb_shape *f);

#endif
