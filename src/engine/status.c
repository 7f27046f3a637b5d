/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* GET /status: the JSON document Curio's daemon serves on its status_listen address, field for field (docs/daemon.md,
 * "Status page"), filled from the engine's state:
 *   pipelines     jobs dispatched and not ended, and those that ended less than 30 s ago, each partition with its
 *                 state (pending, synthesizing, synth_done, gpu, done, failed) and times
 *   gpu_workers   one per prover worker
 *   allocations   srs: HOT keys; pce: keys whose circuit is held (HOT or WARM)
 *   buffers       partitions in synthesis, at a prover, waiting for a prover, waiting for the finalizer
 * Times are seconds as doubles, optional values null, as serde writes Curio's Option fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define STATUS_KEEP_DONE_S 30.0 /* ended jobs stay listed this long (Curio's) */

static const char *const part_states[] = {"pending", "synthesizing", "synth_done", "gpu", "done", "failed"};

/* milliseconds between two stamps, null when the first is not set; an open interval runs to now */
static void ms_or_null(engine_sbuf *b, const char *name, double t0, double t1, double now)
{
    if (t0 == 0) cuzk_engine_sb_printf(b, "\"%s\":null", name);
    else cuzk_engine_sb_printf(b, "\"%s\":%llu", name, (unsigned long long)(((t1 != 0 ? t1 : now) - t0) * 1000));
}

static void status_pipeline(engine_sbuf *b, const engine_job *j, double now)
{
    cuzk_engine_sb_printf(b, "{\"job_id\":\"");
    cuzk_engine_sb_json_str(b, j->id);
    cuzk_engine_sb_printf(b,
                          "\",\"proof_kind\":\"%s\",\"started_secs_ago\":%.3f,\"total_partitions\":%u,"
                          "\"partitions_done\":%u,\"partitions\":[",
                          cuzk_engine_kind_name(j->kind), now - j->t_dispatch, j->partitions, j->parts_done);
    for (uint32_t p = 0; p < j->partitions; p++) {
        const engine_part *pt = &j->parts[p];
        cuzk_engine_sb_printf(b, "%s{\"index\":%u,\"state\":\"%s\",", p ? "," : "", p, part_states[pt->phase]);
        ms_or_null(b, "synth_ms", pt->t_synth0, pt->t_synth1, now);
        cuzk_engine_sb_printf(b, ",");
        ms_or_null(b, "gpu_ms", pt->t_gpu0, pt->t_gpu1, now);
        cuzk_engine_sb_printf(b, "}");
    }
    cuzk_engine_sb_printf(b, "]}");
}

/* a kind -> count object of the kinds with a count (Curio's maps hold only kinds seen) */
static void status_by_kind(engine_sbuf *b, const cuzk_engine *e, int outcome)
{
    static const uint32_t kinds[ENGINE_NUM_KINDS] = {
        CUZK_ENGINE_KIND_POREP_SEAL_COMMIT, CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE, CUZK_ENGINE_KIND_WINDOW_POST_PARTITION,
        CUZK_ENGINE_KIND_WINNING_POST,      CUZK_ENGINE_KIND_GENERIC_CIRCUIT,   CUZK_ENGINE_KIND_SYNTHETIC};
    bool first = true;
    cuzk_engine_sb_printf(b, "{");
    for (int k = 0; k < ENGINE_NUM_KINDS; k++) {
        uint64_t n = e->done_count[cuzk_engine_kind_index(kinds[k])][outcome];
        if (n == 0) continue;
        cuzk_engine_sb_printf(b, "%s\"%s\":%llu", first ? "" : ",", cuzk_engine_kind_name(kinds[k]),
                              (unsigned long long)n);
        first = false;
    }
    cuzk_engine_sb_printf(b, "}");
}

/* what a key's circuit holds in memory: its mapping, or the heap arrays' size */
static uint64_t circuit_bytes(const cuzk_r1cs_t *cs)
{
    if (cs->map != NULL) return cs->map_len;
    uint64_t b = 0;
    for (int m = 0; m < 3; m++) b += (cs->num_constraints + 1) * 8 + cs->m[m].nnz * 8;
    return b + (uint64_t)cs->num_values * sizeof(cuzk_fr_t);
}

char *cuzk_engine_status_json(cuzk_engine *e)
{
    engine_sbuf b = {malloc(4096), 0, 4096, false};
    if (b.p == NULL) return NULL;
    b.p[0] = 0;
    pthread_mutex_lock(&e->lock);
    double now = cuzk_now();

    unsigned synthesizing = 0, queued = 0;
    uint64_t completed = 0, failed = 0;
    for (const engine_job *j = e->jobs; j != NULL; j = j->next) {
        if (j->state == JOB_QUEUED) queued++;
        for (uint32_t p = 0; j->state == JOB_RUNNING && p < j->partitions; p++)
            synthesizing += j->parts[p].phase == PART_SYNTHESIZING;
    }
    for (int k = 0; k < ENGINE_NUM_KINDS; k++) {
        completed += e->done_count[k][0];
        failed += e->done_count[k][1];
    }
    uint64_t avail = e->mem_used < e->mem_budget ? e->mem_budget - e->mem_used : 0;
    cuzk_engine_sb_printf(&b,
                          "{\"uptime_secs\":%.3f,\"memory\":{\"total_bytes\":%llu,\"used_bytes\":%llu,"
                          "\"available_bytes\":%llu},\"synthesis\":{\"max_concurrent\":%u,\"active\":%u},",
                          now - e->t_start, (unsigned long long)e->mem_budget, (unsigned long long)e->mem_used,
                          (unsigned long long)avail, e->cfg.synthesis_workers, synthesizing);

    cuzk_engine_sb_printf(&b, "\"pipelines\":[");
    bool first = true;
    for (const engine_job *j = e->jobs; j != NULL; j = j->next) {
        bool shown = j->t_dispatch > 0 && !j->superseded &&
                     (j->state != JOB_DONE || now - j->t_done < STATUS_KEEP_DONE_S);
        if (!shown || j->parts == NULL) continue;
        if (!first) cuzk_engine_sb_printf(&b, ",");
        status_pipeline(&b, j, now);
        first = false;
    }

    cuzk_engine_sb_printf(&b, "],\"gpu_workers\":[");
    unsigned per = e->num_provers / e->num_devices, busy = 0;
    for (unsigned w = 0; w < e->num_provers; w++) {
        cuzk_engine_gpu_status gs;
        memset(&gs, 0, sizeof gs);
        e->be.ops->device_info(e->be.ctx, w / per, &gs);
        bool proving = e->prover_job[w][0] != 0;
        busy += proving;
        cuzk_engine_sb_printf(&b, "%s{\"worker_id\":%u,\"gpu_ordinal\":%u,\"state\":\"%s\",", w ? "," : "", w,
                              gs.ordinal, proving ? "proving" : "idle");
        if (proving) {
            cuzk_engine_sb_printf(&b, "\"current_job\":\"");
            cuzk_engine_sb_json_str(&b, e->prover_job[w]);
            cuzk_engine_sb_printf(&b, "\",\"current_partition\":%u,\"busy_secs\":%.3f}", e->prover_part[w],
                                  now - e->prover_since[w]);
        } else {
            cuzk_engine_sb_printf(&b, "\"current_job\":null,\"current_partition\":null,\"busy_secs\":null}");
        }
    }

    cuzk_engine_sb_printf(&b, "],\"allocations\":{\"srs\":[");
    first = true;
    for (const engine_key *k = e->keys; k != NULL; k = k->next) {
        if (k->state != KEY_HOT) continue;
        cuzk_engine_sb_printf(&b, "%s{\"circuit_id\":\"", first ? "" : ",");
        cuzk_engine_sb_json_str(&b, k->id);
        cuzk_engine_sb_printf(&b, "\",\"bytes\":%llu,\"last_used_secs_ago\":%.3f,\"evictable\":%s}",
                              (unsigned long long)k->size_bytes, k->t_last_use > 0 ? now - k->t_last_use : 0.0,
                              k->refs == 0 ? "true" : "false");
        first = false;
    }
    cuzk_engine_sb_printf(&b, "],\"pce\":[");
    first = true;
    for (const engine_key *k = e->keys; k != NULL; k = k->next) {
        if ((k->state != KEY_HOT && k->state != KEY_WARM) || k->cs == NULL) continue;
        cuzk_engine_sb_printf(&b, "%s{\"circuit_id\":\"", first ? "" : ",");
        cuzk_engine_sb_json_str(&b, k->id);
        cuzk_engine_sb_printf(&b, "\",\"bytes\":%llu,\"last_used_secs_ago\":%.3f,\"evictable\":%s}",
                              (unsigned long long)circuit_bytes(k->cs), k->t_last_use > 0 ? now - k->t_last_use : 0.0,
                              k->refs == 0 ? "true" : "false");
        first = false;
    }

    cuzk_engine_sb_printf(&b, "]},\"counters\":{\"total_completed\":%llu,\"total_failed\":%llu,\"completed_by_kind\":",
                          (unsigned long long)completed, (unsigned long long)failed);
    status_by_kind(&b, e, 0);
    cuzk_engine_sb_printf(&b, ",\"failed_by_kind\":");
    status_by_kind(&b, e, 1);
    cuzk_engine_sb_printf(&b, ",\"queue_depth\":%u},", queued);
    cuzk_engine_sb_printf(&b,
                          "\"buffers\":{\"synth_in_flight\":%u,\"provers_in_flight\":%u,\"aux_in_flight\":%u,"
                          "\"shells_in_flight\":0,\"pending_handles\":%u}}",
                          synthesizing, busy, e->gpu_q_len, e->final_q_len);
    pthread_mutex_unlock(&e->lock);
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
