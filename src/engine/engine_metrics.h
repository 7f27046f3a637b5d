/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The engine's counters and histograms (metrics.c): per-stage latency histograms, per-kind counters. */
#ifndef CUZK_ENGINE_METRICS_H
#define CUZK_ENGINE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    STAGE_QUEUE,
    STAGE_ADMISSION,
    STAGE_SYNTHESIS,
    STAGE_UPLOAD,
    STAGE_SPMV,
    STAGE_NTT_H,
    STAGE_MSM,
    STAGE_FINALIZE,
    STAGE_VERIFY,
    STAGE_COUNT
};
#define HIST_BUCKETS 14

typedef struct {
    uint64_t count[HIST_BUCKETS + 1]; /* last = +Inf */
    uint64_t n;
    double sum;
} engine_hist;

extern const char *const cuzk_engine_stage_names[STAGE_COUNT];

/* A growing string for the text documents (metrics.c, status.c); once an allocation fails it stays failed. */
typedef struct {
    char *p;
    size_t len, cap;
    bool failed;
} engine_sbuf;
void cuzk_engine_sb_printf(engine_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as the inside of a JSON string */
void cuzk_engine_sb_json_str(engine_sbuf *b, const char *s);
void cuzk_engine_hist_add(engine_hist *h, double seconds);

/* kinds with their own counters and queue lines: the wire's four, GENERIC_CIRCUIT, SYNTHETIC */
#define ENGINE_NUM_KINDS 6
int cuzk_engine_kind_index(uint32_t kind); /* -1 when unknown */
/* cuzk_engine_kind_name and the others in engine.h */

#endif
