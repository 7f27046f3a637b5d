/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The engine's counters and histograms (metrics.c): per-stage latency histograms, per-kind counters. */
#ifndef CUZK_ENGINE_METRICS_H
#define CUZK_ENGINE_METRICS_H

#include <stdint.h>

enum {
    STAGE_QUEUE, STAGE_ADMISSION, STAGE_SYNTHESIS, STAGE_UPLOAD, STAGE_SPMV, STAGE_NTT_H, STAGE_MSM, STAGE_FINALIZE,
    STAGE_VERIFY, STAGE_COUNT
};
#define HIST_BUCKETS 14

typedef struct {
    uint64_t count[HIST_BUCKETS + 1]; /* last = +Inf */
    uint64_t n;
    double sum;
} engine_hist;

extern const char *const cuzk_engine_stage_names[STAGE_COUNT];
void cuzk_engine_hist_add(engine_hist *h, double seconds);

/* kinds with their own counters and queue lines: the wire's four, GENERIC_CIRCUIT, SYNTHETIC */
#define ENGINE_NUM_KINDS 6
int cuzk_engine_kind_index(uint32_t kind); /* -1 when unknown */
const char *cuzk_engine_kind_name(uint32_t kind);

#endif
