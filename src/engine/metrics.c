/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Counters, gauges and per-stage latency histograms, and their Prometheus text exposition. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

const char *const cuzk_engine_stage_names[STAGE_COUNT] = {
    "queue", "admission", "synthesis", "upload", "spmv", "ntt_h", "msm", "finalize", "verify",
};

/* upper bounds in seconds: a 2^10 partition's stages take milliseconds, a 32 GiB PoRep partition's tens of seconds */
static const double hist_le[HIST_BUCKETS] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                             0.25,  0.5,    1,     2.5,  5,     10,   30};

void cuzk_engine_hist_add(engine_hist *h, double seconds)
{
    int i = 0;
    while (i < HIST_BUCKETS && seconds > hist_le[i]) i++;
    h->count[i]++;
    h->n++;
    h->sum += seconds;
}

/* Each kind's names: Curio's (its daemon's ProofKind display, in status and logs), the Prometheus label Curio
 * uses, the wire enum's. */
static const struct {
    uint32_t kind;
    const char *name, *label, *wire;
} kinds[ENGINE_NUM_KINDS] = {
    {CUZK_ENGINE_KIND_POREP_SEAL_COMMIT, "porep-c2", "porep_c2", "POREP_SEAL_COMMIT"},
    {CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE, "snap-update", "snap_update", "SNAP_DEALS_UPDATE"},
    {CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, "window-post", "window_post", "WINDOW_POST_PARTITION"},
    {CUZK_ENGINE_KIND_WINNING_POST, "winning-post", "winning_post", "WINNING_POST"},
    {CUZK_ENGINE_KIND_GENERIC_CIRCUIT, "generic", "generic", "GENERIC_CIRCUIT"},
    {CUZK_ENGINE_KIND_SYNTHETIC, "synthetic", "synthetic", "SYNTHETIC"},
};

int cuzk_engine_kind_index(uint32_t kind)
{
    for (int i = 0; i < ENGINE_NUM_KINDS; i++)
        if (kinds[i].kind == kind) return i;
    return -1;
}

const char *cuzk_engine_kind_name(uint32_t kind)
{
    int i = cuzk_engine_kind_index(kind);
    return i < 0 ? "unknown" : kinds[i].name;
}

const char *cuzk_engine_kind_label(uint32_t kind)
{
    int i = cuzk_engine_kind_index(kind);
    return i < 0 ? "unknown" : kinds[i].label;
}

const char *cuzk_engine_kind_wire_name(uint32_t kind)
{
    int i = cuzk_engine_kind_index(kind);
    return i < 0 ? "UNKNOWN" : kinds[i].wire;
}

typedef engine_sbuf sbuf;
#define sb_printf cuzk_engine_sb_printf

void cuzk_engine_sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = true;
            return;
        }
        if (b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)n + 1;
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

void cuzk_engine_sb_json_str(sbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') sb_printf(b, "\\%c", *p);
        else if (*p < 0x20) sb_printf(b, "\\u%04x", *p);
        else sb_printf(b, "%c", *p);
    }
}

static void sb_head(sbuf *b, const char *name, const char *type, const char *help)
{
    sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static const char *prio_names[CUZK_ENGINE_NUM_PRIORITIES] = {"unspecified", "low", "normal", "high", "critical"};

char *cuzk_engine_metrics_text(cuzk_engine *e)
{
    sbuf b = {malloc(4096), 0, 4096, false};
    if (b.p == NULL) return NULL;
    b.p[0] = 0;
    pthread_mutex_lock(&e->lock);

    double now = cuzk_now();
    uint64_t pending[CUZK_ENGINE_NUM_PRIORITIES] = {0}, running[CUZK_ENGINE_NUM_PRIORITIES] = {0};
    uint64_t queued_all = 0, running_all = 0;
    for (engine_job *j = e->jobs; j != NULL; j = j->next) {
        if (j->state == JOB_QUEUED) pending[j->prio]++, queued_all++;
        if (j->state == JOB_RUNNING) running[j->prio]++, running_all++;
    }

    /* Curio's daemon's metrics, by its names, types and labels */
    uint64_t completed = 0, failed = 0;
    for (int k = 0; k < ENGINE_NUM_KINDS; k++) {
        completed += e->done_count[k][0];
        failed += e->done_count[k][1];
    }
    sb_head(&b, "cuzk_proofs_completed_total", "counter", "Proofs completed (every kind).");
    sb_printf(&b, "cuzk_proofs_completed_total %llu\n", (unsigned long long)completed);
    sb_head(&b, "cuzk_proofs_failed_total", "counter", "Proofs failed (every kind; cancelled ones not counted).");
    sb_printf(&b, "cuzk_proofs_failed_total %llu\n", (unsigned long long)failed);
    sb_head(&b, "cuzk_uptime_seconds", "gauge", "Seconds since the engine started.");
    sb_printf(&b, "cuzk_uptime_seconds %.0f\n", now - e->t_start);
    sb_head(&b, "cuzk_queue_depth", "gauge", "Jobs accepted and not started.");
    sb_printf(&b, "cuzk_queue_depth %llu\n", (unsigned long long)queued_all);
    sb_head(&b, "cuzk_proofs_completed", "counter", "Proofs completed, by proof kind.");
    for (int k = 0; k < ENGINE_NUM_KINDS; k++)
        sb_printf(&b, "cuzk_proofs_completed{proof_kind=\"%s\"} %llu\n", kinds[k].label,
                  (unsigned long long)e->done_count[k][0]);
    sb_head(&b, "cuzk_proofs_failed", "counter", "Proofs failed, by proof kind.");
    for (int k = 0; k < ENGINE_NUM_KINDS; k++)
        sb_printf(&b, "cuzk_proofs_failed{proof_kind=\"%s\"} %llu\n", kinds[k].label,
                  (unsigned long long)e->done_count[k][1]);
    sb_head(&b, "cuzk_proof_duration_seconds", "summary", "Completed proofs' time from submission to the end.");
    for (int k = 0; k < ENGINE_NUM_KINDS; k++) {
        sb_printf(&b, "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %llu\n", kinds[k].label,
                  (unsigned long long)e->done_count[k][0]);
        sb_printf(&b, "cuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.3f\n", kinds[k].label, e->done_seconds[k]);
    }
    sb_head(&b, "cuzk_running_jobs", "gauge", "Jobs with partitions in the pipeline.");
    sb_printf(&b, "cuzk_running_jobs %llu\n", (unsigned long long)running_all);
    sb_head(&b, "cuzk_gpu_workers", "gauge", "Prover workers (per GPU times gpu_workers_per_device; 1 on the CPU).");
    sb_printf(&b, "cuzk_gpu_workers %u\n", e->num_provers);

    /* cuzk's own */
    static const char *outcomes[3] = {"completed", "failed", "cancelled"};
    sb_head(&b, "cuzk_jobs_total", "counter", "Jobs finished, by proof kind and outcome.");
    for (int k = 0; k < ENGINE_NUM_KINDS; k++)
        for (int o = 0; o < 3; o++)
            sb_printf(&b, "cuzk_jobs_total{kind=\"%s\",outcome=\"%s\"} %llu\n", kinds[k].label, outcomes[o],
                      (unsigned long long)e->done_count[k][o]);
    sb_head(&b, "cuzk_partitions_proved_total", "counter", "Partitions proved and verified.");
    sb_printf(&b, "cuzk_partitions_proved_total %llu\n", (unsigned long long)e->partitions_proved);

    sb_head(&b, "cuzk_prover_ntt_points_total", "counter",
            "Size of the proved partitions' transform domains, summed (one domain a partition).");
    sb_printf(&b, "cuzk_prover_ntt_points_total %llu\n", (unsigned long long)e->work_ntt_size);
    sb_head(&b, "cuzk_prover_msm_points_total", "counter",
            "Points the proved partitions' MSMs summed with a scalar other than 0 and 1, by MSM.");
    static const char *const msms[4] = {"h", "l", "a", "b"};
    for (int m = 0; m < 4; m++)
        sb_printf(&b, "cuzk_prover_msm_points_total{msm=\"%s\"} %llu\n", msms[m],
                  (unsigned long long)e->work_points[m]);

    sb_head(&b, "cuzk_jobs_queued", "gauge", "Jobs accepted and not started, by priority.");
    for (int p = CUZK_ENGINE_PRIO_LOW; p < CUZK_ENGINE_NUM_PRIORITIES; p++)
        sb_printf(&b, "cuzk_jobs_queued{priority=\"%s\"} %llu\n", prio_names[p], (unsigned long long)pending[p]);
    sb_head(&b, "cuzk_jobs_running", "gauge", "Jobs with partitions in the pipeline, by priority.");
    for (int p = CUZK_ENGINE_PRIO_LOW; p < CUZK_ENGINE_NUM_PRIORITIES; p++)
        sb_printf(&b, "cuzk_jobs_running{priority=\"%s\"} %llu\n", prio_names[p], (unsigned long long)running[p]);
    sb_head(&b, "cuzk_partitions_waiting", "gauge", "Synthesized partitions waiting for a stage.");
    sb_printf(&b, "cuzk_partitions_waiting{stage=\"prover\"} %u\n", e->gpu_q_len);
    sb_printf(&b, "cuzk_partitions_waiting{stage=\"finalize\"} %u\n", e->final_q_len);

    sb_head(&b, "cuzk_memory_in_use_bytes", "gauge", "Working memory admitted to jobs.");
    sb_printf(&b, "cuzk_memory_in_use_bytes %llu\n", (unsigned long long)e->mem_used);
    sb_head(&b, "cuzk_memory_budget_bytes", "gauge", "Working memory budget.");
    sb_printf(&b, "cuzk_memory_budget_bytes %llu\n", (unsigned long long)e->mem_budget);
    sb_head(&b, "cuzk_memory_peak_bytes", "gauge", "Most working memory admitted at once since start.");
    sb_printf(&b, "cuzk_memory_peak_bytes %llu\n", (unsigned long long)e->mem_peak);
    sb_head(&b, "cuzk_keys_hot_bytes", "gauge", "Bytes of keys and circuits loaded in memory.");
    sb_printf(&b, "cuzk_keys_hot_bytes %llu\n", (unsigned long long)e->keys_hot_bytes);
    sb_head(&b, "cuzk_keys_budget_bytes", "gauge", "Budget for loaded keys (0: none).");
    sb_printf(&b, "cuzk_keys_budget_bytes %llu\n", (unsigned long long)e->key_budget);

    /* per device (the CPU backend's one pseudo-device included) */
    cuzk_engine_gpu_status *gs = calloc(e->num_devices, sizeof *gs);
    if (gs == NULL) b.failed = true;
    for (unsigned d = 0; gs != NULL && d < e->num_devices; d++) {
        e->be.ops->device_info(e->be.ctx, d, &gs[d]);
        cuzk_engine_device_status(e, d, now, &gs[d]);
    }
    static const struct {
        const char *name, *type, *help;
    } gm[] = {
        {"cuzk_gpu_busy_seconds_total", "counter", "Seconds with at least one prover working on the device."},
        {"cuzk_gpu_busy_ratio", "gauge", "Busy seconds over the wall time since the first partition."},
        {"cuzk_gpu_partitions_total", "counter", "Partitions proved on the device."},
        {"cuzk_gpu_keys_resident", "gauge", "Keys held on the device."},
        {"cuzk_gpu_key_bytes", "gauge", "Device memory held by the resident keys."},
        {"cuzk_gpu_vram_budget_bytes", "gauge", "Device memory budget for keys and provers."},
        {"cuzk_gpu_vram_total_bytes", "gauge", "Device memory, as the driver reports it."},
        {"cuzk_gpu_vram_free_bytes", "gauge", "Free device memory, as the driver last reported it."},
        {"cuzk_gpu_broken", "gauge", "1 when a device error took the device out of service."},
    };
    for (size_t m = 0; gs != NULL && m < sizeof gm / sizeof gm[0]; m++) {
        sb_head(&b, gm[m].name, gm[m].type, gm[m].help);
        for (unsigned d = 0; d < e->num_devices; d++) {
            const cuzk_engine_gpu_status *g = &gs[d];
            double v = m == 0   ? g->busy_seconds
                       : m == 1 ? g->busy_ratio
                       : m == 2 ? (double)g->partitions
                       : m == 3 ? (double)g->keys_resident
                       : m == 4 ? (double)g->vram_keys_bytes
                       : m == 5 ? (double)g->vram_budget_bytes
                       : m == 6 ? (double)g->vram_total_bytes
                       : m == 7 ? (double)g->vram_free_bytes
                                : (double)g->broken;
            sb_printf(&b, "%s{gpu=\"%u\"} %.12g\n", gm[m].name, d, v);
        }
    }
    free(gs);

    sb_head(&b, "cuzk_stage_seconds", "histogram",
            "Latency of each pipeline stage (queue and admission per job "
            "and partition, the others per partition).");
    for (int s = 0; s < STAGE_COUNT; s++) {
        const engine_hist *h = &e->hist[s];
        uint64_t cum = 0;
        for (int i = 0; i < HIST_BUCKETS; i++) {
            cum += h->count[i];
            sb_printf(&b, "cuzk_stage_seconds_bucket{stage=\"%s\",le=\"%g\"} %llu\n", cuzk_engine_stage_names[s],
                      hist_le[i], (unsigned long long)cum);
        }
        cum += h->count[HIST_BUCKETS];
        sb_printf(&b, "cuzk_stage_seconds_bucket{stage=\"%s\",le=\"+Inf\"} %llu\n", cuzk_engine_stage_names[s],
                  (unsigned long long)cum);
        sb_printf(&b, "cuzk_stage_seconds_sum{stage=\"%s\"} %.6f\n", cuzk_engine_stage_names[s], h->sum);
        sb_printf(&b, "cuzk_stage_seconds_count{stage=\"%s\"} %llu\n", cuzk_engine_stage_names[s],
                  (unsigned long long)h->n);
    }
    pthread_mutex_unlock(&e->lock);
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
