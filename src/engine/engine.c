/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The engine: job intake, the per-partition pipeline and its scheduling, cancellation, results, shutdown, status.
 *
 * Pipeline, per partition (the scheduling unit):
 *   dispatch   a synthesis worker takes the next partition of the highest-priority job (FIFO within a priority)
 *              whose key is HOT, after admitting its working memory. Admission is head-of-line: when that
 *              partition does not fit, nothing behind it is admitted either, so a large or urgent job is never
 *              starved by smaller ones; jobs whose key is still loading are skipped, never waited for.
 *   synthesis  witness (GENERIC_CIRCUIT: parsed from .wtns; SYNTHETIC: generated, witness seed = seed + partition,
 *              so every partition proves other public inputs with the one key; Filecoin kinds: the kind's witness of
 *              the circuit from the vanilla proofs decoded at submission, fil.c) -> a, b, c
 *   GPU queue  bounded (gpu_queue_depth), ordered by priority, then job, then partition
 *   prover     backend prove_start/prove_finish; the partition's working memory is released right after
 *   finalizer  verifies the proof with the key's prepared vk (a Filecoin proof against the public inputs its kind
 *              derives from the request, as a verifier on chain does) and stores it; the prover meanwhile takes the
 *              next one
 * A CRITICAL job arriving behind many NORMAL partitions is dispatched by the next free synthesis worker and goes
 * to the head of the GPU queue, so it waits at most for the partitions already being synthesized or proved.
 *
 * Memory: admission reserves, per partition, cuzk_engine_partition_need() (the backend's peak bound for the key's shape:
 * its densities once it has been loaded on the host, every variable selected before; plus the partition's witness); a
 * .wtns payload is reserved at submission and becomes part of its partition's reservation at admission; a Filecoin
 * job's decoded input is reserved from submission until the job is done and none of its partitions is in flight.
 * mem_used never exceeds mem_budget. Keys have their own budget (the key manager, keys.c).
 *
 * Locking: one mutex guards all shared state; work runs unlocked on items that only one thread holds. A job ends
 * (job_finish) exactly once, at the first of: last partition verified, failure, cancel, shutdown; partitions
 * still in flight then notice the job is done at their next stage boundary and drop themselves. A job's key stays
 * referenced until its last in-flight partition is gone. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "cuzk/filecoin.h"
#include "engine_internal.h"

#define ENGINE_MAX_PARTITIONS 1024u
#define ENGINE_DEFAULT_TTL_MS 600000u

static void deadline_in(struct timespec *ts, uint64_t ms)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += (time_t)(ms / 1000);
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

void cuzk_engine_result_clear(cuzk_engine_result *r)
{
    if (r == NULL) return;
    free(r->proof);
    memset(r, 0, sizeof *r);
}

/* ---- memory ------------------------------------------------------------------------------------------------------ */
static void mem_take(cuzk_engine *e, uint64_t b)
{
    e->mem_used += b;
    if (e->mem_used > e->mem_peak) e->mem_peak = e->mem_used;
}

static void mem_give(cuzk_engine *e, uint64_t b)
{
    e->mem_used -= b;
    pthread_cond_broadcast(&e->work_cv); /* the head-of-line partition may fit now */
}

/* ---- jobs -------------------------------------------------------------------------------------------------------- */
/* Lock held. Drops a reference to k; the last one lets its device copies be tried again where they failed. */
static void key_release(cuzk_engine *e, engine_key *k)
{
    if (cuzk_engine_key_unref(e, k)) cuzk_engine_devkey_unreferenced(e, k);
}

/* Lock held. A job that is done and has no partition in flight lets go of its key and of its Filecoin input. */
static void job_release_key_if_idle(cuzk_engine *e, engine_job *j)
{
    if (j->state != JOB_DONE || j->inflight != 0) return;
    if (j->key != NULL) {
        key_release(e, j->key);
        j->key = NULL;
    }
    if (j->fil != NULL) {
        cuzk_engine_fil_free(j->fil);
        j->fil = NULL;
    }
    if (j->fil_bytes != 0) mem_give(e, j->fil_bytes);
    j->fil_bytes = 0;
}

/* Lock held. Tells the owner (cuzk_engine_config.on_event). */
static void job_event(cuzk_engine *e, const engine_job *j, cuzk_engine_event_kind kind, bool retry)
{
    if (e->cfg.on_event == NULL) return;
    cuzk_engine_result r;
    cuzk_engine_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.job_id = j->id;
    ev.proof_kind = j->kind;
    ev.priority = j->prio;
    ev.partitions = j->partitions;
    ev.retry = retry;
    if (kind == CUZK_ENGINE_EVENT_ENDED) {
        r = j->result;
        r.proof = NULL;
        ev.result = &r;
    }
    e->cfg.on_event(e->cfg.on_event_ctx, &ev);
}

/* Lock held. Ends a job (no-op when already done). */
static void job_finish(cuzk_engine *e, engine_job *j, cuzk_engine_job_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void job_finish(cuzk_engine *e, engine_job *j, cuzk_engine_job_status st, const char *fmt, ...)
{
    if (j->state == JOB_DONE) return;
    j->t_done = cuzk_now();
    if (st == CUZK_ENGINE_JOB_COMPLETED) {
        j->result.proof = malloc((size_t)j->partitions * CUZK_GROTH16_PROOF_BYTES);
        if (j->result.proof == NULL) {
            st = CUZK_ENGINE_JOB_FAILED;
            fmt = "out of memory for the proof bytes";
        } else {
            for (uint32_t p = 0; p < j->partitions; p++)
                cuzk_groth16_proof_to_bytes(j->result.proof + (size_t)p * CUZK_GROTH16_PROOF_BYTES, &j->proofs[p]);
            j->result.proof_len = (size_t)j->partitions * CUZK_GROTH16_PROOF_BYTES;
        }
    }
    j->state = JOB_DONE;
    j->result.status = st;
    if (fmt != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(j->result.error_message, sizeof j->result.error_message, fmt, ap);
        va_end(ap);
    } else if (j->unverified != 0) {
        snprintf(j->result.error_message, sizeof j->result.error_message,
                 "benchmark inputs: %u of %u partition proofs do not verify (generated vanilla proofs)", j->unverified,
                 j->partitions);
    }
    j->result.unverified_partitions = j->unverified;
    double start = j->t_dispatch > 0 ? j->t_dispatch : j->t_done;
    j->result.queue_wait_ms = (uint64_t)((start - j->t_submit) * 1000);
    j->result.srs_load_ms = (uint64_t)(j->key_wait_s * 1000);
    j->result.synthesis_ms = (uint64_t)(j->synth_s * 1000);
    j->result.gpu_compute_ms = (uint64_t)(j->prove_s * 1000);
    j->result.total_ms = (uint64_t)((j->t_done - j->t_submit) * 1000);

    int k = cuzk_engine_kind_index(j->kind);
    int o = st == CUZK_ENGINE_JOB_COMPLETED ? 0 : st == CUZK_ENGINE_JOB_FAILED ? 1 : 2;
    if (k >= 0) e->done_count[k][o]++;
    if (k >= 0 && o == 0) e->done_seconds[k] += j->t_done - j->t_submit;
    /* partitions the failure caught on the way show as failed in status */
    for (uint32_t p = 0; st == CUZK_ENGINE_JOB_FAILED && j->parts != NULL && p < j->partitions; p++)
        if (j->parts[p].phase != PART_PENDING && j->parts[p].phase != PART_DONE) j->parts[p].phase = PART_FAILED;
    job_event(e, j, CUZK_ENGINE_EVENT_ENDED, false);

    if (j->payload_bytes != 0) mem_give(e, j->payload_bytes);
    j->payload_bytes = 0;
    free(j->wtns);
    free(j->wtns_path);
    free(j->proofs);
    j->wtns = NULL;
    j->wtns_path = NULL;
    j->proofs = NULL;
    job_release_key_if_idle(e, j);
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->space_cv);
}

/* Lock held. Ends every job on the list (what the key managers found must fail) with its reason. */
static void jobs_fail(cuzk_engine *e, engine_failures *f)
{
    engine_job *j = f->head;
    while (j != NULL) {
        engine_job *next = j->fail_next;
        j->fail_listed = false;
        j->fail_next = NULL;
        job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "%s", j->fail_reason);
        j = next;
    }
    f->head = f->tail = NULL;
}

static void job_free(engine_job *j)
{
    cuzk_engine_fil_free(j->fil);
    free(j->parts);
    free(j->result.proof);
    free(j->wtns);
    free(j->wtns_path);
    free(j->proofs);
    free(j);
}

static engine_job *job_find(cuzk_engine *e, const char *id)
{
    for (engine_job *j = e->jobs; j != NULL; j = j->next)
        if (!j->superseded && strncmp(j->id, id, CUZK_ENGINE_ID_MAX) == 0) return j;
    return NULL;
}

/* Drops finished jobs older than the result TTL, and replaced ones at once, that nobody is waiting on or still
 * working for. */
static void jobs_purge(cuzk_engine *e)
{
    double now = cuzk_now(), ttl = (double)e->cfg.result_ttl_ms / 1000;
    engine_job **pp = &e->jobs, *prev = NULL;
    while (*pp != NULL) {
        engine_job *j = *pp;
        if (j->state == JOB_DONE && j->inflight == 0 && j->waiters == 0 && (j->superseded || now - j->t_done > ttl)) {
            *pp = j->next;
            job_free(j);
        } else {
            prev = j;
            pp = &j->next;
        }
    }
    e->jobs_tail = prev;
}

/* Jobs not yet done that run before j: higher priority, or equal and submitted earlier. */
static uint32_t job_queue_position(const cuzk_engine *e, const engine_job *j)
{
    if (j->state == JOB_DONE) return 0;
    uint32_t n = 0;
    for (const engine_job *x = e->jobs; x != NULL; x = x->next)
        if (x != j && x->state != JOB_DONE && (x->prio > j->prio || (x->prio == j->prio && x->seq < j->seq))) n++;
    return n;
}

/* ---- partitions -------------------------------------------------------------------------------------------------- */
static bool work_before(const engine_work *a, const engine_work *b)
{
    if (a->job->prio != b->job->prio) return a->job->prio > b->job->prio;
    if (a->job->seq != b->job->seq) return a->job->seq < b->job->seq;
    return a->index < b->index;
}

static void queue_insert(engine_work **q, engine_work *w)
{
    while (*q != NULL && !work_before(w, *q)) q = &(*q)->next;
    w->next = *q;
    *q = w;
}

/* Lock held. Releases what the partition holds; the job may end its key reference with it. */
static void work_free_z(cuzk_engine *e, engine_work *w)
{
    if (w->z_backend) e->be.ops->witness_free(e->be.ctx, w->owned_z, w->z_bytes);
    else free(w->owned_z);
    w->owned_z = NULL;
    w->z = NULL;
    w->z_backend = false;
    w->z_form = NULL;
}

static void work_drop(cuzk_engine *e, engine_work *w)
{
    engine_job *j = w->job;
    cuzk_groth16_synthesis_free(&w->syn);
    work_free_z(e, w);
    if (w->mem_bytes != 0) mem_give(e, w->mem_bytes);
    j->inflight--;
    job_release_key_if_idle(e, j);
    free(w);
}

/* Lock held. The next partition to synthesize, with its memory admitted, or NULL (nothing ready, or the head of
 * the line waits for memory). Jobs that can never fit fail here. */
static engine_work *pick_partition(cuzk_engine *e)
{
    for (int p = CUZK_ENGINE_PRIO_CRITICAL; p >= CUZK_ENGINE_PRIO_LOW; p--) {
        for (engine_job *j = e->jobs; j != NULL; j = j->next) {
            if ((int)j->prio != p || j->state == JOB_DONE || j->next_part >= j->partitions) continue;
            if (e->devices_ok == 0) {
                job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "no usable GPU is left: %s", cuzk_engine_devices_error(e));
                continue;
            }
            engine_key *k = j->key;
            if (k->state != KEY_HOT) continue; /* loading: later; others proceed */
            uint64_t need = cuzk_engine_partition_need(e, k);
            if (need > e->mem_budget) {
                job_finish(e, j, CUZK_ENGINE_JOB_FAILED,
                           "job needs %llu bytes of working memory per partition, budget %llu",
                           (unsigned long long)need, (unsigned long long)e->mem_budget);
                continue;
            }
            double now = cuzk_now();
            /* the job's .wtns reservation becomes part of this partition's: the payload is parsed into the
             * witness, then freed, before synthesis allocates anything, so `need` covers both */
            uint64_t held = j->payload_bytes;
            if (e->mem_used - held + need > e->mem_budget) {
                if (j->t_admit_wait == 0) j->t_admit_wait = now;
                return NULL;
            }
            engine_work *w = calloc(1, sizeof *w);
            if (w == NULL) {
                job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "out of memory");
                continue;
            }
            j->payload_bytes = 0;
            e->mem_used -= held;
            mem_take(e, need);
            w->job = j;
            w->key = k;
            w->index = j->next_part++;
            j->parts[w->index].phase = PART_SYNTHESIZING;
            j->parts[w->index].t_synth0 = now;
            w->mem_bytes = need;
            w->z_mem = k->num_vars * sizeof(cuzk_fr_t);
            j->inflight++;
            k->last_use = ++e->lru_clock;
            k->t_last_use = now;
            cuzk_engine_hist_add(&e->hist[STAGE_ADMISSION], j->t_admit_wait > 0 ? now - j->t_admit_wait : 0);
            j->t_admit_wait = 0;
            if (j->state == JOB_QUEUED) {
                j->state = JOB_RUNNING;
                j->t_dispatch = now;
                j->key_wait_s = k->t_hot > j->t_submit ? k->t_hot - j->t_submit : 0;
                cuzk_engine_hist_add(&e->hist[STAGE_QUEUE], now - j->t_submit);
                job_event(e, j, CUZK_ENGINE_EVENT_STARTED, false);
            }
            return w;
        }
    }
    return NULL;
}

/* Unlocked. Memory for the partition's witness of n values: the backend's (pinned, for a device) or malloc's. */
static cuzk_status work_alloc_z(cuzk_engine *e, engine_work *w, uint64_t n, cuzk_errmsg *err)
{
    w->z_bytes = n * sizeof(cuzk_fr_t);
    if (e->be.ops->witness_alloc != NULL) {
        cuzk_status s = e->be.ops->witness_alloc(e->be.ctx, w->z_bytes, &w->owned_z);
        if (s != CUZK_OK)
            return cuzk_fail(err, s, "no memory for the witness (%llu bytes)", (unsigned long long)w->z_bytes);
        w->z_backend = true;
    } else {
        w->owned_z = malloc(w->z_bytes ? w->z_bytes : 1);
        if (w->owned_z == NULL)
            return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for the witness (%llu bytes)",
                             (unsigned long long)w->z_bytes);
    }
    w->z = w->owned_z;
    return CUZK_OK;
}

/* Unlocked. SYNTHETIC: the partition's own witness of the key's circuit. */
static cuzk_status work_make_witness(cuzk_engine *e, engine_work *w, unsigned threads, cuzk_errmsg *err)
{
    const engine_key *k = w->key;
    cuzk_errmsg sub = {{0}};
    uint64_t n = cuzk_r1cs_num_vars(k->cs);
    cuzk_status s = work_alloc_z(e, w, n, err);
    if (s != CUZK_OK) return s;
    s = cuzk_circuits_synthetic_witness_into(k->log2, k->seed, k->seed + w->index, threads, w->owned_z, n, &sub);
    if (s != CUZK_OK) return cuzk_fail(err, s, "witness: %s (%s)", cuzk_status_str(s), sub.msg);
    return CUZK_OK;
}

/* Unlocked. GENERIC_CIRCUIT: the witness from the payload or file, checked against the circuit. */
static cuzk_status work_parse_witness(cuzk_engine *e, engine_work *w, const uint8_t *buf, size_t len, const char *path,
                                      cuzk_errmsg *err)
{
    cuzk_errmsg sub = {{0}};
    const cuzk_r1cs_t *cs = w->key->cs;
    cuzk_status s = work_alloc_z(e, w, cuzk_r1cs_num_vars(cs), err);
    if (s != CUZK_OK) return s;
    s = buf != NULL ? cuzk_r1cs_wtns_parse_into(buf, len, cs, w->owned_z, &sub)
                    : cuzk_r1cs_wtns_load_into(path, cs, w->owned_z, &sub);
    if (s != CUZK_OK)
        return cuzk_fail(err, s, "witness: %s (%s); circuit %s has %llu variables", cuzk_status_str(s), sub.msg,
                         w->key->id, (unsigned long long)cuzk_r1cs_num_vars(cs));
    return CUZK_OK;
}

/* Unlocked. A Filecoin job's partition: its kind's witness of the key's circuit from the decoded request. */
static cuzk_status work_fil_witness(cuzk_engine *e, engine_work *w, const engine_fil_input *in, unsigned threads,
                                    cuzk_errmsg *err)
{
    uint64_t n = cuzk_r1cs_num_vars(w->key->cs);
    cuzk_status s = work_alloc_z(e, w, n, err);
    if (s != CUZK_OK) return s;
    cuzk_errmsg sub = {{0}};
    s = in->kind->witness(in, w->index, threads, w->owned_z, n, &sub);
    if (s != CUZK_OK) return cuzk_fail(err, s, "%s", sub.msg);
    return CUZK_OK;
}

/* Unlocked. A Filecoin partition's proof against the public inputs its kind derives from the request alone (not the
 * witness's), with the key's verifying key: what a verifier on chain does. */
static cuzk_status work_fil_verify(const engine_work *w, const engine_fil_input *in, cuzk_errmsg *err)
{
    const engine_key *k = w->key;
    size_t n = k->num_inputs > 0 ? k->num_inputs - 1 : 0;
    cuzk_fr_t *x = malloc((n ? n : 1) * sizeof *x);
    if (x == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu public inputs", n);
    cuzk_errmsg sub = {{0}};
    cuzk_status s = in->kind->public_inputs(in, w->index, x, n, &sub);
    if (s != CUZK_OK) {
        cuzk_fail(err, s, "its public inputs: %s", sub.msg);
    } else if ((s = cuzk_groth16_verify(&k->pvk, &w->proof, x, n)) != CUZK_OK) {
        cuzk_fail(err, s, "the proof does not verify against its public inputs (%s)", cuzk_status_str(s));
    }
    free(x);
    return s;
}

static uint64_t mix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* TESTS ONLY (cuzk_engine_config.deterministic_rs): r and s from the key id and the partition. */
static void work_deterministic_rs(engine_work *w)
{
    uint64_t x = 0xcbf29ce484222325ULL;
    for (const char *c = w->key->id; *c; c++) x = (x ^ (uint8_t)*c) * 0x100000001b3ULL;
    x ^= (uint64_t)w->index << 32;
    cuzk_fr_t *f[2] = {&w->r, &w->s};
    for (int i = 0; i < 2; i++) {
        uint64_t l[4] = {mix64(&x), mix64(&x), mix64(&x), mix64(&x) >> 2};
        cuzk_fr_from_limbs_reduce(f[i], l);
    }
    w->given_rs = true;
}

static void *synth_main(void *arg)
{
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->lock);
    for (;;) {
        if (e->stop) break;
        engine_work *w = pick_partition(e);
        if (w == NULL) {
            pthread_cond_wait(&e->work_cv, &e->lock);
            continue;
        }
        engine_job *j = w->job;
        while (e->held && !e->stop && j->state != JOB_DONE) pthread_cond_wait(&e->work_cv, &e->lock);
        if (e->stop || j->state == JOB_DONE) {
            work_drop(e, w);
            continue;
        }
        /* the input moves to the work item: a cancel may end the job (and free what it owns) meanwhile */
        uint8_t *wtns = j->wtns;
        size_t wtns_len = j->wtns_len;
        char *wtns_path = j->wtns_path;
        j->wtns = NULL;
        j->wtns_path = NULL;
        bool generic = j->kind == CUZK_ENGINE_KIND_GENERIC_CIRCUIT;
        const engine_fil_input *fil = j->fil; /* stays while this partition is in flight */
        pthread_mutex_unlock(&e->lock);

        double t = cuzk_now();
        cuzk_errmsg err = {{0}};
        cuzk_status s = CUZK_OK;
        /* a caller's witness is checked row by row; the generator's is satisfying by construction, and so is a
         * Filecoin circuit's (every hash of its vanilla proofs checked at submission, or as the synthesis goes) */
        w->c_mode = generic ? CUZK_R1CS_C_CHECKED : CUZK_R1CS_C_PRODUCT;
        if (e->cfg.deterministic_rs) work_deterministic_rs(w);
        if (generic) s = work_parse_witness(e, w, wtns, wtns_len, wtns_path, &err);
        else if (fil != NULL) s = work_fil_witness(e, w, fil, e->cfg.synthesis_threads, &err);
        else s = work_make_witness(e, w, e->cfg.synthesis_threads, &err);
        free(wtns);
        free(wtns_path);
        if (s == CUZK_OK && !e->be.ops->synthesizes) {
            /* a, b, c on the CPU; a backend that synthesizes evaluates them itself (only the witness moves) */
            cuzk_groth16_prove_opts o;
            memset(&o, 0, sizeof o);
            o.threads = e->cfg.synthesis_threads;
            o.c_mode = w->c_mode;
            s = cuzk_groth16_synthesize(&w->syn, &w->key->pk, w->key->cs, w->z, &o, &w->stats, &err);
        }
        if (s == CUZK_OK && e->be.ops->witness_made != NULL)
            s = e->be.ops->witness_made(e->be.ctx, w, e->cfg.synthesis_threads, &err);
        double dt = cuzk_now() - t;

        pthread_mutex_lock(&e->lock);
        cuzk_engine_hist_add(&e->hist[STAGE_SYNTHESIS], dt);
        j->synth_s += dt;
        if (s == CUZK_OK && j->state != JOB_DONE) {
            j->parts[w->index].phase = PART_SYNTH_DONE;
            j->parts[w->index].t_synth1 = cuzk_now();
        }
        if (s != CUZK_OK) {
            job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "partition %u: %s", w->index, err.msg);
            work_drop(e, w);
            continue;
        }
        while (!e->stop && j->state != JOB_DONE && e->gpu_q_len >= e->cfg.gpu_queue_depth)
            pthread_cond_wait(&e->space_cv, &e->lock);
        if (e->stop || j->state == JOB_DONE) {
            work_drop(e, w);
            continue;
        }
        queue_insert(&e->gpu_q, w);
        e->gpu_q_len++;
        pthread_cond_signal(&e->prover_cv);
        if (e->dev_keys) pthread_cond_broadcast(&e->devload_cv); /* its key may be missing on a device */
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* a prover worker's or a device loader's start argument */
typedef struct {
    cuzk_engine *e;
    unsigned id; /* prover worker or device */
} prover_arg;

/* Lock held. The first queued partition this worker's device can prove now: with device keys, one whose key is
 * READY there (others wait for their device's loader); else the head of the queue. */
static engine_work *take_partition(cuzk_engine *e, unsigned device)
{
    engine_work **pp = &e->gpu_q;
    if (e->dev_keys)
        while (*pp != NULL && (*pp)->key->dev[device].state != DK_READY && (*pp)->job->state != JOB_DONE)
            pp = &(*pp)->next;
    engine_work *w = *pp;
    if (w == NULL) return NULL;
    *pp = w->next;
    e->gpu_q_len--;
    pthread_cond_signal(&e->space_cv);
    pthread_cond_broadcast(&e->devload_cv);
    return w;
}

static void busy_begin(cuzk_engine *e, unsigned device, double now)
{
    engine_dev *d = &e->devs[device];
    if (e->t_first_prove == 0) e->t_first_prove = now;
    if (d->busy++ == 0) d->busy_since = now;
}

static void busy_end(cuzk_engine *e, unsigned device, double now)
{
    engine_dev *d = &e->devs[device];
    if (--d->busy == 0) d->busy_total += now - d->busy_since;
}

static void *prover_main(void *arg)
{
    cuzk_engine *e = ((prover_arg *)arg)->e;
    unsigned id = ((prover_arg *)arg)->id;
    unsigned device = id / (e->num_provers / e->num_devices);
    free(arg);
    pthread_mutex_lock(&e->lock);
    for (;;) {
        if (e->stop || e->devs[device].broken) break;
        engine_work *w = take_partition(e, device);
        if (w == NULL) {
            pthread_cond_wait(&e->prover_cv, &e->lock);
            continue;
        }
        engine_job *j = w->job;
        if (j->state == JOB_DONE) {
            work_drop(e, w);
            continue;
        }
        engine_devkey *dk = NULL;
        if (e->dev_keys) {
            dk = &w->key->dev[device];
            dk->active++;
            dk->last_use = ++e->lru_clock;
            w->dev_key = dk->handle;
        }
        w->worker = id;
        snprintf(e->prover_job[id], CUZK_ENGINE_ID_MAX, "%s", j->id);
        e->prover_kind[id] = j->kind;
        double t = cuzk_now();
        e->prover_part[id] = w->index;
        e->prover_since[id] = t;
        j->parts[w->index].phase = PART_GPU;
        j->parts[w->index].t_gpu0 = t;
        busy_begin(e, device, t);
        pthread_mutex_unlock(&e->lock);

        cuzk_errmsg err = {{0}};
        cuzk_status s = e->be.ops->prove_start(e->be.ctx, device, w, &err);
        double t1 = cuzk_now(), dt = t1 - t;
        cuzk_groth16_synthesis_free(&w->syn); /* a failing backend may leave them */

        pthread_mutex_lock(&e->lock);
        busy_end(e, device, t1);
        j->parts[w->index].t_gpu1 = t1;
        if (dk != NULL && --dk->active == 0) pthread_cond_broadcast(&e->devload_cv); /* evictable now */
        w->dev_key = NULL;
        e->prover_job[id][0] = 0;
        /* the prover's working memory goes now; the witness stays until the proof is verified */
        mem_give(e, w->mem_bytes - w->z_mem);
        w->mem_bytes = w->z_mem;
        j->prove_s += dt;
        if (s != CUZK_OK) {
            if (s == CUZK_ERR_DEVICE) {
                cuzk_engine_gpu_status gs;
                e->be.ops->device_info(e->be.ctx, device, &gs);
                engine_failures fail = {0};
                cuzk_engine_device_broken(e, device, &fail, "partition %u of %s: %s", w->index, j->id, err.msg);
                jobs_fail(e, &fail);
                job_finish(e, j, CUZK_ENGINE_JOB_FAILED,
                           "partition %u: device %u (%s) failed: %s; the device is taken out of service", w->index,
                           device, gs.name, err.msg);
            } else {
                job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "partition %u: the %s prover failed: %s (%s)", w->index,
                           e->be.ops->name, cuzk_status_str(s), err.msg);
            }
            work_drop(e, w);
            continue;
        }
        e->devs[device].partitions++;
        cuzk_engine_hist_add(&e->hist[STAGE_UPLOAD], w->upload_s);
        cuzk_engine_hist_add(&e->hist[STAGE_SPMV], w->stats.spmv);
        cuzk_engine_hist_add(&e->hist[STAGE_NTT_H], w->stats.ntt_h);
        cuzk_engine_hist_add(&e->hist[STAGE_MSM],
                             w->stats.msm_h + w->stats.msm_l + w->stats.msm_a + w->stats.msm_b1 + w->stats.msm_b2);
        if (w->stats.domain_log2 < 64) e->work_ntt_size += (uint64_t)1 << w->stats.domain_log2;
        e->work_points[0] += w->stats.points_h;
        e->work_points[1] += w->stats.points_l;
        e->work_points[2] += w->stats.points_a;
        e->work_points[3] += w->stats.points_b;
        if (j->state == JOB_DONE) {
            work_drop(e, w);
            continue;
        }
        queue_insert(&e->final_q, w);
        e->final_q_len++;
        pthread_cond_signal(&e->final_cv);
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

static void *final_main(void *arg)
{
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->lock);
    for (;;) {
        if (e->stop) break;
        engine_work *w = e->final_q;
        if (w == NULL) {
            pthread_cond_wait(&e->final_cv, &e->lock);
            continue;
        }
        e->final_q = w->next;
        e->final_q_len--;
        engine_job *j = w->job;
        if (j->state == JOB_DONE) {
            work_drop(e, w);
            continue;
        }
        pthread_mutex_unlock(&e->lock);

        /* the backend's host part (a GPU's: the assembly), while its device proves the next partition */
        unsigned device = w->worker / (e->num_provers / e->num_devices);
        cuzk_errmsg err = {{0}};
        double t = cuzk_now();
        cuzk_status fs = e->be.ops->prove_finish(e->be.ctx, device, w, &err);
        double tf = cuzk_now() - t;
        /* every proof is checked before it leaves: a wrong proof would cost the caller a failed on-chain message.
         * A Filecoin proof against the inputs derived from the request, others against the witness's. */
        const engine_key *k = w->key;
        const engine_fil_input *fil = j->fil; /* stays while this partition is in flight */
        cuzk_errmsg verr = {{0}};
        t = cuzk_now();
        cuzk_status s = fs != CUZK_OK ? fs
                        : fil != NULL ? work_fil_verify(w, fil, &verr)
                                      : cuzk_groth16_verify(&k->pvk, &w->proof, w->z + 1, k->num_inputs - 1);
        double tv = cuzk_now() - t;

        /* generated benchmark inputs cannot verify: their failures are counted, not fatal (engine.h) */
        bool counted = fs == CUZK_OK && s != CUZK_OK && fil != NULL && e->cfg.fil_benchmark_inputs;

        pthread_mutex_lock(&e->lock);
        j->prove_s += tf;
        if (fs == CUZK_OK) cuzk_engine_hist_add(&e->hist[STAGE_VERIFY], tv);
        if (fs != CUZK_OK) {
            job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "partition %u: the %s prover failed: %s (%s)", w->index,
                       e->be.ops->name, cuzk_status_str(fs), err.msg);
        } else if (s != CUZK_OK && fil != NULL && !counted) {
            job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "partition %u: %s", w->index, verr.msg);
        } else if (s != CUZK_OK && !counted) {
            job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "partition %u: the proof does not verify (%s)", w->index,
                       cuzk_status_str(s));
        } else if (j->state != JOB_DONE) {
            t = cuzk_now();
            if (counted) j->unverified++;
            j->proofs[w->index] = w->proof;
            j->parts[w->index].phase = PART_DONE;
            j->parts_done++;
            e->partitions_proved++;
            if (j->parts_done == j->partitions) job_finish(e, j, CUZK_ENGINE_JOB_COMPLETED, NULL);
            cuzk_engine_hist_add(&e->hist[STAGE_FINALIZE], cuzk_now() - t);
        }
        work_drop(e, w);
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* ---- key loaders ------------------------------------------------------------------------------------------------- */
/* The key loader: keys.c picks and loads; the jobs its failures end are ended here. */
static void *loader_main(void *arg)
{
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->lock);
    while (!e->stop) {
        engine_failures fail = {0};
        engine_key *k = cuzk_engine_keys_next_load(e, &fail);
        jobs_fail(e, &fail);
        if (k == NULL) {
            /* nothing queued, or nothing that fits before a job releases a key */
            pthread_cond_wait(&e->loader_cv, &e->lock);
            continue;
        }
        cuzk_engine_key_load(e, k, &fail);
        jobs_fail(e, &fail);
        pthread_cond_broadcast(&e->work_cv);
        pthread_cond_broadcast(&e->done_cv);
        pthread_cond_broadcast(&e->devload_cv); /* the devices may make their copies ahead of the first partition */
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* One per device in service, with device keys: devkeys.c makes the keys that queued partitions, preloads and
 * running jobs want on the device. */
static void *devloader_main(void *arg)
{
    cuzk_engine *e = ((prover_arg *)arg)->e;
    unsigned d = ((prover_arg *)arg)->id;
    free(arg);
    pthread_mutex_lock(&e->lock);
    while (!e->stop && !e->devs[d].broken) {
        engine_failures fail = {0};
        bool wait = cuzk_engine_devkey_load_next(e, d, &fail);
        jobs_fail(e, &fail);
        if (wait && !e->stop) pthread_cond_wait(&e->devload_cv, &e->lock);
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* ---- life cycle -------------------------------------------------------------------------------------------------- */
uint64_t cuzk_engine_memory_budget(const cuzk_engine_config *cfg)
{
    if (cfg->working_memory_budget) return cfg->working_memory_budget;
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    uint64_t physical = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : (uint64_t)8 << 30;
    return physical / 4 * 3;
}

cuzk_status cuzk_engine_create_with_backend(cuzk_engine **out, const cuzk_engine_config *cfg, const engine_backend *be,
                                            cuzk_errmsg *err)
{
    if (out == NULL || cfg == NULL || be == NULL || be->ops == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    *out = NULL;
    if (cfg->param_dir != NULL && cfg->param_dir[0] != 0) {
        struct stat st;
        if (stat(cfg->param_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (be->ops->destroy != NULL) be->ops->destroy(be->ctx);
            return cuzk_fail(err, CUZK_ERR_IO, "param_dir %s is not a directory", cfg->param_dir);
        }
    }
    cuzk_engine *e = calloc(1, sizeof *e);
    if (e == NULL) {
        if (be->ops->destroy != NULL) be->ops->destroy(be->ctx);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    }
    e->be = *be;
    e->cfg = *cfg;
    e->cfg.gpu_devices = NULL; /* not kept: the caller owns it */
    e->cfg.param_dir = NULL;
    e->cfg.pce_dir = NULL;
    e->cfg.param_manifest = NULL;
    if (cfg->param_dir != NULL && cfg->param_dir[0] != 0) e->param_dir = strdup(cfg->param_dir);
    if (cfg->pce_dir != NULL && cfg->pce_dir[0] != 0) {
        e->pce_dir = strdup(cfg->pce_dir);
    } else if (e->param_dir != NULL) {
        size_t n = strlen(e->param_dir) + sizeof "/cuzk-pce";
        if ((e->pce_dir = malloc(n)) != NULL) snprintf(e->pce_dir, n, "%s/cuzk-pce", e->param_dir);
    }
    if (e->cfg.synthesis_workers == 0) e->cfg.synthesis_workers = 1;
    if (e->cfg.synthesis_threads == 0) e->cfg.synthesis_threads = 1;
    if (e->cfg.prover_threads == 0) e->cfg.prover_threads = 1;
    if (e->cfg.gpu_workers_per_device == 0)
        e->cfg.gpu_workers_per_device = be->ops->default_workers ? be->ops->default_workers : 1;
    if (e->cfg.gpu_queue_depth == 0) e->cfg.gpu_queue_depth = 1;
    if (e->cfg.result_ttl_ms == 0) e->cfg.result_ttl_ms = ENGINE_DEFAULT_TTL_MS;
    e->mem_budget = cuzk_engine_memory_budget(cfg);
    e->key_budget = cfg->pinned_budget;
    e->num_devices = be->ops->num_devices(be->ctx);
    if (e->num_devices == 0) e->num_devices = 1;
    e->num_provers = e->num_devices * e->cfg.gpu_workers_per_device;
    e->dev_keys = be->ops->dev_key_load != NULL;
    e->num_finalizers = e->dev_keys ? e->num_devices : 1;
    e->devices_ok = e->num_devices;
    e->t_start = cuzk_now();
    e->prover_job = calloc(e->num_provers, sizeof *e->prover_job);
    e->prover_kind = calloc(e->num_provers, sizeof *e->prover_kind);
    e->prover_part = calloc(e->num_provers, sizeof *e->prover_part);
    e->prover_since = calloc(e->num_provers, sizeof *e->prover_since);
    e->devs = calloc(e->num_devices, sizeof *e->devs);
    e->num_threads = 1 + e->num_finalizers + e->cfg.synthesis_workers + e->num_provers +
                     (e->dev_keys ? e->num_devices : 0);
    e->threads = calloc(e->num_threads, sizeof *e->threads);
    cuzk_status ms = CUZK_OK;
    cuzk_errmsg merr = {{0}};
    if (cfg->param_manifest != NULL && cfg->param_manifest[0] != 0)
        ms = cuzk_engine_fil_manifest_load(cfg->param_manifest, &e->manifest, &e->manifest_len, &merr);
    bool circuits_ok = cuzk_engine_fil_circuits_new(&e->fil_circuits) == CUZK_OK;
    if ((cfg->param_dir != NULL && cfg->param_dir[0] != 0 && e->param_dir == NULL) ||
        (e->param_dir != NULL && e->pce_dir == NULL) || e->prover_job == NULL || e->prover_kind == NULL ||
        e->prover_part == NULL || e->prover_since == NULL || e->devs == NULL || e->threads == NULL || ms != CUZK_OK ||
        !circuits_ok) {
        cuzk_engine_fil_circuits_free(e->fil_circuits);
        free(e->param_dir);
        free(e->pce_dir);
        cuzk_engine_fil_manifest_free(e->manifest, e->manifest_len);
        free(e->prover_job);
        free(e->prover_kind);
        free(e->prover_part);
        free(e->prover_since);
        free(e->devs);
        free(e->threads);
        if (be->ops->destroy != NULL) be->ops->destroy(be->ctx);
        free(e);
        if (ms != CUZK_OK) return cuzk_fail(err, ms, "%s", merr.msg);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    }

    pthread_mutex_init(&e->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_t *cvs[] = {&e->work_cv, &e->prover_cv, &e->space_cv,  &e->final_cv,
                             &e->done_cv, &e->loader_cv, &e->devload_cv};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++) pthread_cond_init(cvs[i], &ca);
    pthread_condattr_destroy(&ca);

    unsigned started = 0;
    bool ok = pthread_create(&e->threads[started], NULL, loader_main, e) == 0;
    if (ok) started++;
    for (unsigned i = 0; ok && i < e->num_finalizers; i++) {
        ok = pthread_create(&e->threads[started], NULL, final_main, e) == 0;
        if (ok) started++;
    }
    for (unsigned i = 0; ok && i < e->cfg.synthesis_workers; i++) {
        ok = pthread_create(&e->threads[started], NULL, synth_main, e) == 0;
        if (ok) started++;
    }
    for (unsigned i = 0; ok && i < e->num_provers; i++) {
        prover_arg *pa = malloc(sizeof *pa);
        ok = pa != NULL;
        if (ok) {
            pa->e = e;
            pa->id = i;
            ok = pthread_create(&e->threads[started], NULL, prover_main, pa) == 0;
            if (!ok) free(pa);
        }
        if (ok) started++;
    }
    for (unsigned i = 0; ok && e->dev_keys && i < e->num_devices; i++) {
        prover_arg *pa = malloc(sizeof *pa);
        ok = pa != NULL;
        if (ok) {
            pa->e = e;
            pa->id = i;
            ok = pthread_create(&e->threads[started], NULL, devloader_main, pa) == 0;
            if (!ok) free(pa);
        }
        if (ok) started++;
    }
    e->num_threads = started;
    if (!ok) {
        cuzk_engine_destroy(e);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "cannot start the engine's threads");
    }
    *out = e;
    return CUZK_OK;
}

cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg, cuzk_errmsg *err)
{
    if (out == NULL || cfg == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    *out = NULL;
    engine_backend be;
    cuzk_status s;
    /* GPUs listed, or latency mode asked for, are a request for the GPU backend: no silent fallback to the CPU */
    bool want_gpu = cfg->backend == CUZK_ENGINE_BACKEND_GPU || (cfg->gpu_devices != NULL && cfg->num_gpu_devices > 0) ||
                    cfg->gpu_latency_pairs;
    if (cfg->gpu_latency_pairs && cfg->backend == CUZK_ENGINE_BACKEND_CPU)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "latency mode pairs GPUs: it needs the GPU backend, not the CPU");
    if (cfg->backend != CUZK_ENGINE_BACKEND_CPU) {
#ifdef CUZK_HAVE_CUDA
        cuzk_errmsg sub = {{0}};
        s = cuzk_engine_backend_gpu(&be, cfg, &sub);
        if (s == CUZK_OK) return cuzk_engine_create_with_backend(out, cfg, &be, err);
        if (want_gpu || s != CUZK_ERR_NOT_FOUND) return cuzk_fail(err, s, "GPU backend: %s", sub.msg);
#else
        if (want_gpu)
            return cuzk_fail(
                err, CUZK_ERR_INVALID_ARG,
                "the GPU backend was requested (backend = gpu, devices or latency_mode) but this build has "
                "none");
#endif
    }
    s = cuzk_engine_backend_cpu(&be, cfg->prover_threads);
    if (s != CUZK_OK) return cuzk_fail(err, s, "cannot create the CPU backend");
    return cuzk_engine_create_with_backend(out, cfg, &be, err);
}

void cuzk_engine_shutdown(cuzk_engine *e, uint64_t deadline_ms)
{
    if (e == NULL) return;
    pthread_mutex_lock(&e->lock);
    if (e->stop) {
        pthread_mutex_unlock(&e->lock);
        return;
    }
    e->shutting_down = true;
    struct timespec dl;
    deadline_in(&dl, deadline_ms);
    for (;;) {
        bool busy = false;
        for (engine_job *j = e->jobs; j != NULL && !busy; j = j->next) busy = j->state != JOB_DONE;
        if (!busy || pthread_cond_timedwait(&e->done_cv, &e->lock, &dl) == ETIMEDOUT) break;
    }
    for (engine_job *j = e->jobs; j != NULL; j = j->next)
        job_finish(e, j, CUZK_ENGINE_JOB_CANCELLED, "the engine shut down before the job finished");
    e->stop = true;
    pthread_cond_t *cvs[] = {&e->work_cv, &e->prover_cv, &e->space_cv,  &e->final_cv,
                             &e->done_cv, &e->loader_cv, &e->devload_cv};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++) pthread_cond_broadcast(cvs[i]);
    pthread_mutex_unlock(&e->lock);

    for (unsigned i = 0; i < e->num_threads; i++) pthread_join(e->threads[i], NULL);
    e->num_threads = 0;

    /* partitions the stopped workers left in the queues belong to jobs that are done */
    pthread_mutex_lock(&e->lock);
    engine_work **qs[2] = {&e->gpu_q, &e->final_q};
    for (int q = 0; q < 2; q++) {
        while (*qs[q] != NULL) {
            engine_work *w = *qs[q];
            *qs[q] = w->next;
            work_drop(e, w);
        }
    }
    e->gpu_q_len = e->final_q_len = 0;
    pthread_mutex_unlock(&e->lock);
}

void cuzk_engine_destroy(cuzk_engine *e)
{
    if (e == NULL) return;
    cuzk_engine_shutdown(e, 0);
    while (e->jobs != NULL) {
        engine_job *j = e->jobs;
        e->jobs = j->next;
        job_free(j);
    }
    cuzk_engine_devkeys_destroy(e); /* the device copies first: they are the backend's */
    cuzk_engine_keys_destroy(e);
    if (e->be.ops->destroy != NULL) e->be.ops->destroy(e->be.ctx);
    pthread_cond_t *cvs[] = {&e->work_cv, &e->prover_cv, &e->space_cv,  &e->final_cv,
                             &e->done_cv, &e->loader_cv, &e->devload_cv};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++) pthread_cond_destroy(cvs[i]);
    pthread_mutex_destroy(&e->lock);
    free(e->param_dir);
    free(e->pce_dir);
    cuzk_engine_fil_manifest_free(e->manifest, e->manifest_len);
    cuzk_engine_fil_circuits_free(e->fil_circuits);
    free(e->prover_job);
    free(e->prover_kind);
    free(e->prover_part);
    free(e->prover_since);
    free(e->devs);
    free(e->threads);
    free(e);
}

/* ---- intake ------------------------------------------------------------------------------------------------------ */
static cuzk_engine_priority default_priority(uint32_t kind)
{
    if (kind == CUZK_ENGINE_KIND_WINNING_POST) return CUZK_ENGINE_PRIO_CRITICAL;
    if (kind == CUZK_ENGINE_KIND_WINDOW_POST_PARTITION) return CUZK_ENGINE_PRIO_HIGH;
    return CUZK_ENGINE_PRIO_NORMAL;
}

/* Lock held. Kind-specific checks; on success the job has its key (referenced) and input. */
static cuzk_status submit_prepare(cuzk_engine *e, const cuzk_engine_request *req, engine_job *j, cuzk_errmsg *err)
{
    char id[CUZK_ENGINE_ID_MAX];
    engine_key *k;
    if (j->kind == CUZK_ENGINE_KIND_SYNTHETIC) {
        unsigned max = CUZK_CIRCUITS_LOG2_MAX < CUZK_NTT_MAX_LOG2 ? CUZK_CIRCUITS_LOG2_MAX : CUZK_NTT_MAX_LOG2;
        if (req->synthetic_log2 < CUZK_CIRCUITS_LOG2_MIN || req->synthetic_log2 > max)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "synthetic_log2 %u is outside [%u, %u]", req->synthetic_log2,
                             CUZK_CIRCUITS_LOG2_MIN, max);
        snprintf(id, sizeof id, "synthetic-%u-%llu", req->synthetic_log2, (unsigned long long)req->seed);
        k = cuzk_engine_key_get(e, id, true, req->synthetic_log2, req->seed);
    } else {
        if (e->param_dir == NULL)
            return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "no param_dir is configured, so no circuit is registered");
        if (!cuzk_engine_circuit_id_valid(req->circuit_id))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                             "invalid circuit id (letters, digits, '-', '_', '.'; not empty)");
        if (cuzk_fil_proof_by_srs_id(req->circuit_id) != NULL)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                             "%s is an SRS id (Filecoin parameters for PreloadSRS), not a registered circuit",
                             req->circuit_id);
        char path[4400];
        const char *ext[2] = {"pce", "params"};
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s.%s", e->param_dir, req->circuit_id, ext[i]);
            if (access(path, R_OK) != 0)
                return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "unknown circuit %s: %s.%s is not in %s", req->circuit_id,
                                 req->circuit_id, ext[i], e->param_dir);
        }
        if (req->partitions > 1)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a generic circuit job has one partition, not %u",
                             req->partitions);
        bool has_bytes = req->witness != NULL && req->witness_len > 0;
        size_t plen = strnlen(req->witness_path, sizeof req->witness_path);
        if (plen == sizeof req->witness_path)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "witness_path is not terminated");
        if (has_bytes == (plen > 0))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "give the witness either as bytes or as a path (exactly one)");
        if (has_bytes && e->cfg.max_request_bytes != 0 && req->witness_len > e->cfg.max_request_bytes)
            return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "witness of %zu bytes exceeds max_request_bytes %llu",
                             req->witness_len, (unsigned long long)e->cfg.max_request_bytes);
        if (!has_bytes && access(req->witness_path, R_OK) != 0)
            return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "witness file %s cannot be read: %s", req->witness_path,
                             strerror(errno));
        k = cuzk_engine_key_get(e, req->circuit_id, false, 0, 0);
    }
    if (k == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");

    j->partitions = req->partitions ? req->partitions : 1;
    if (j->partitions > ENGINE_MAX_PARTITIONS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%u partitions exceed the limit of %u", j->partitions,
                         ENGINE_MAX_PARTITIONS);
    /* the size check needs the circuit's dimensions: known for synthetic circuits and for circuits loaded before,
     * read from the PCE header for the others (a header that cannot be read is reported by the load) */
    if (cuzk_engine_key_read_dims(e, k)) {
        uint64_t need = cuzk_engine_partition_need(e, k);
        if (need > e->mem_budget)
            return cuzk_fail(err, CUZK_ERR_OVER_BUDGET,
                             "job needs %llu bytes of working memory per partition, budget %llu",
                             (unsigned long long)need, (unsigned long long)e->mem_budget);
    }
    j->proofs = calloc(j->partitions, sizeof *j->proofs);
    if (j->proofs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    if (j->kind == CUZK_ENGINE_KIND_GENERIC_CIRCUIT) {
        if (req->witness != NULL && req->witness_len > 0) {
            if (e->mem_used + req->witness_len > e->mem_budget)
                return cuzk_fail(err, CUZK_ERR_OVER_BUDGET,
                                 "the witness payload of %zu bytes does not fit the working memory (%llu of %llu bytes "
                                 "in use)",
                                 req->witness_len, (unsigned long long)e->mem_used, (unsigned long long)e->mem_budget);
            j->wtns = malloc(req->witness_len);
            if (j->wtns == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for the witness");
            memcpy(j->wtns, req->witness, req->witness_len);
            j->wtns_len = req->witness_len;
            j->payload_bytes = req->witness_len;
            mem_take(e, j->payload_bytes);
        } else {
            j->wtns_path = strdup(req->witness_path);
            if (j->wtns_path == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
        }
    }
    j->key = k;
    k->refs++;
    k->last_use = ++e->lru_clock;
    k->t_last_use = cuzk_now();
    cuzk_engine_key_request(e, k);
    return CUZK_OK;
}

/* Lock held. A Filecoin job's key (its circuit's, by SRS id) and input; on success the job owns `in`. */
static cuzk_status submit_prepare_fil(cuzk_engine *e, engine_job *j, engine_fil_input *in, cuzk_errmsg *err)
{
    if (e->param_dir == NULL)
        return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "no param_dir is configured, so no Filecoin parameters are found");
    engine_key *k = cuzk_engine_key_get_srs(e, in->proof, err);
    if (k == NULL) return CUZK_ERR_NOMEM;
    j->partitions = in->partitions;
    /* the decode's counts spare counting the circuit again here, under the lock */
    if (!k->dims_known && in->counts_known) cuzk_engine_key_set_dims(k, in->num_inputs, in->num_aux, in->num_rows);
    if (cuzk_engine_key_read_dims(e, k)) {
        uint64_t need = cuzk_engine_partition_need(e, k);
        if (need > e->mem_budget)
            return cuzk_fail(err, CUZK_ERR_OVER_BUDGET,
                             "%s needs %llu bytes of working memory per partition, budget %llu", in->proof->name,
                             (unsigned long long)need, (unsigned long long)e->mem_budget);
    }
    /* the decoded input lives as long as the job: counted in the working memory from now on */
    if (e->mem_used + in->bytes > e->mem_budget)
        return cuzk_fail(err, CUZK_ERR_OVER_BUDGET,
                         "the decoded vanilla proofs take %llu bytes, the working memory has %llu of %llu in use",
                         (unsigned long long)in->bytes, (unsigned long long)e->mem_used,
                         (unsigned long long)e->mem_budget);
    j->proofs = calloc(j->partitions, sizeof *j->proofs);
    if (j->proofs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    j->fil = in;
    j->fil_bytes = in->bytes;
    mem_take(e, j->fil_bytes);
    j->key = k;
    k->refs++;
    k->last_use = ++e->lru_clock;
    k->t_last_use = cuzk_now();
    cuzk_engine_key_request(e, k);
    return CUZK_OK;
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_engine_request *req, char job_id[CUZK_ENGINE_ID_MAX],
                               uint32_t *queue_position, bool *attached, cuzk_errmsg *err)
{
    if (e == NULL || req == NULL || job_id == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    job_id[0] = 0;
    if (queue_position != NULL) *queue_position = 0;
    if (attached != NULL) *attached = false;
    if (strnlen(req->request_id, CUZK_ENGINE_ID_MAX) == CUZK_ENGINE_ID_MAX ||
        strnlen(req->circuit_id, CUZK_ENGINE_ID_MAX) == CUZK_ENGINE_ID_MAX)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "request_id or circuit_id is longer than %d bytes",
                         CUZK_ENGINE_ID_MAX - 1);
    bool filecoin = req->proof_kind >= CUZK_ENGINE_KIND_POREP_SEAL_COMMIT &&
                    req->proof_kind <= CUZK_ENGINE_KIND_WINNING_POST;
    if (!filecoin && req->proof_kind != CUZK_ENGINE_KIND_GENERIC_CIRCUIT &&
        req->proof_kind != CUZK_ENGINE_KIND_SYNTHETIC)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "unknown proof kind %u", req->proof_kind);
    if ((unsigned)req->priority >= CUZK_ENGINE_NUM_PRIORITIES)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "unknown priority %u", (unsigned)req->priority);
    /* A Filecoin request is taken apart before the lock (thousands of vanilla proofs take a while to decode). One
     * that does not fit its registered proof is still accepted, then FAILED with the reason: Curio reads a transport
     * error as a reason to retry, a FAILED proof as an answer. */
    engine_fil_input *fil = NULL;
    cuzk_errmsg ferr = {{0}};
    engine_fil_env env = {e->fil_circuits, e->cfg.synthesis_threads, e->cfg.fil_benchmark_inputs};
    cuzk_status fs = filecoin ? cuzk_engine_fil_decode(&env, req, &fil, &ferr) : CUZK_OK;

    pthread_mutex_lock(&e->lock);
    jobs_purge(e);
    cuzk_status s = CUZK_OK;
    if (e->shutting_down) {
        s = cuzk_fail(err, CUZK_ERR_SHUTTING_DOWN, "the engine is shutting down and accepts no new jobs");
        goto out;
    }
    /* the caller's id names the job: a duplicate attaches to it unless it failed or was cancelled, which a new job
     * under the same id replaces (Curio retries with the same porep-<miner>-<sector>) */
    engine_job *prev = req->request_id[0] != 0 ? job_find(e, req->request_id) : NULL;
    if (prev != NULL && (prev->state != JOB_DONE || prev->result.status == CUZK_ENGINE_JOB_COMPLETED)) {
        snprintf(job_id, CUZK_ENGINE_ID_MAX, "%s", prev->id);
        if (queue_position != NULL) *queue_position = job_queue_position(e, prev);
        if (attached != NULL) *attached = true;
        goto out;
    }
    engine_job *j = calloc(1, sizeof *j);
    if (j == NULL) {
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
        goto out;
    }
    snprintf(j->request_id, sizeof j->request_id, "%s", req->request_id);
    if (req->request_id[0] != 0) {
        snprintf(j->id, sizeof j->id, "%s", req->request_id);
    } else {
        /* a caller may have taken job-N as its own id: the next free number */
        do snprintf(j->id, sizeof j->id, "job-%llu", (unsigned long long)++e->next_job_no);
        while (job_find(e, j->id) != NULL);
    }
    j->kind = req->proof_kind;
    j->prio = req->priority == CUZK_ENGINE_PRIO_UNSPECIFIED ? default_priority(req->proof_kind) : req->priority;
    j->seq = ++e->next_seq;
    j->t_submit = cuzk_now();
    if (!filecoin) {
        s = submit_prepare(e, req, j, err);
        if (s != CUZK_OK) {
            if (j->payload_bytes != 0) mem_give(e, j->payload_bytes);
            job_free(j);
            goto out;
        }
    }
    if (filecoin && fs == CUZK_OK) {
        fs = submit_prepare_fil(e, j, fil, &ferr);
        if (fs == CUZK_OK) fil = NULL; /* the job's now */
    }
    if (filecoin && fs != CUZK_OK) j->partitions = 1;
    if (j->parts == NULL) j->parts = calloc(j->partitions ? j->partitions : 1, sizeof *j->parts);
    if (j->parts == NULL) {
        if (j->payload_bytes != 0) mem_give(e, j->payload_bytes);
        if (j->fil_bytes != 0) mem_give(e, j->fil_bytes);
        if (j->key != NULL) key_release(e, j->key);
        job_free(j);
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (prev != NULL) prev->superseded = true; /* purged once nobody waits on it */
    if (e->jobs_tail != NULL) e->jobs_tail->next = j;
    else e->jobs = j;
    e->jobs_tail = j;
    snprintf(job_id, CUZK_ENGINE_ID_MAX, "%s", j->id);
    job_event(e, j, CUZK_ENGINE_EVENT_ACCEPTED, prev != NULL);
    if (filecoin && fs != CUZK_OK) job_finish(e, j, CUZK_ENGINE_JOB_FAILED, "%s", ferr.msg);
    if (queue_position != NULL) *queue_position = job_queue_position(e, j);
    pthread_cond_broadcast(&e->work_cv);
out:
    pthread_mutex_unlock(&e->lock);
    cuzk_engine_fil_free(fil); /* a duplicate's, or one refused on the way */
    return s;
}

cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms, cuzk_engine_result *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (e == NULL || job_id == NULL || out == NULL) return CUZK_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->lock);
    jobs_purge(e);
    engine_job *j = job_find(e, job_id);
    if (j == NULL) {
        pthread_mutex_unlock(&e->lock);
        out->status = CUZK_ENGINE_JOB_UNKNOWN;
        snprintf(out->error_message, sizeof out->error_message, "no job %.128s (unknown, or its result expired)",
                 job_id);
        return CUZK_ERR_NOT_FOUND;
    }
    j->waiters++;
    struct timespec dl;
    if (timeout_ms != 0) deadline_in(&dl, timeout_ms);
    while (j->state != JOB_DONE) {
        if (timeout_ms == 0) pthread_cond_wait(&e->done_cv, &e->lock);
        else if (pthread_cond_timedwait(&e->done_cv, &e->lock, &dl) == ETIMEDOUT) break;
    }
    cuzk_status s = CUZK_OK;
    if (j->state == JOB_DONE) {
        *out = j->result;
        out->proof = NULL;
        if (j->result.proof_len != 0) {
            out->proof = malloc(j->result.proof_len);
            if (out->proof == NULL) {
                out->proof_len = 0;
                s = CUZK_ERR_NOMEM;
            } else {
                memcpy(out->proof, j->result.proof, j->result.proof_len);
            }
        }
    } else {
        out->status = CUZK_ENGINE_JOB_TIMEOUT;
        snprintf(out->error_message, sizeof out->error_message, "job %s is still %s after %llu ms", j->id,
                 j->state == JOB_QUEUED ? "queued" : "running", (unsigned long long)timeout_ms);
    }
    j->waiters--;
    pthread_mutex_unlock(&e->lock);
    return s;
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running)
{
    if (was_running != NULL) *was_running = false;
    if (e == NULL || job_id == NULL) return CUZK_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->lock);
    engine_job *j = job_find(e, job_id);
    if (j == NULL) {
        pthread_mutex_unlock(&e->lock);
        return CUZK_ERR_NOT_FOUND;
    }
    if (was_running != NULL) *was_running = j->state == JOB_RUNNING;
    /* the result is final at once; partitions in flight drop out at their next stage boundary */
    job_finish(e, j, CUZK_ENGINE_JOB_CANCELLED, "cancelled by request");
    pthread_cond_broadcast(&e->work_cv); /* a held worker drops the job's partition */
    pthread_mutex_unlock(&e->lock);
    return CUZK_OK;
}

void cuzk_engine_hold(cuzk_engine *e, bool on)
{
    if (e == NULL) return;
    pthread_mutex_lock(&e->lock);
    e->held = on;
    pthread_cond_broadcast(&e->work_cv);
    pthread_mutex_unlock(&e->lock);
}

/* ---- status and keys --------------------------------------------------------------------------------------------- */
cuzk_status cuzk_engine_status(cuzk_engine *e, cuzk_engine_status_report *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (e == NULL || out == NULL) return CUZK_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->lock);
    size_t nkeys = 0;
    for (engine_key *k = e->keys; k != NULL; k = k->next) nkeys++;
    out->gpus = calloc(e->num_devices, sizeof *out->gpus);
    out->srs = calloc(nkeys ? nkeys : 1, sizeof *out->srs);
    out->queues = calloc(ENGINE_NUM_KINDS, sizeof *out->queues);
    if (out->gpus == NULL || out->srs == NULL || out->queues == NULL) {
        pthread_mutex_unlock(&e->lock);
        cuzk_engine_status_clear(out);
        return CUZK_ERR_NOMEM;
    }
    out->num_gpus = e->num_devices;
    unsigned per = e->num_provers / e->num_devices;
    double now = cuzk_now();
    for (unsigned d = 0; d < e->num_devices; d++) {
        e->be.ops->device_info(e->be.ctx, d, &out->gpus[d]);
        cuzk_engine_device_status(e, d, now, &out->gpus[d]);
        for (unsigned w = d * per; w < (d + 1) * per; w++) {
            if (e->prover_job[w][0] != 0) {
                snprintf(out->gpus[d].current_job_id, CUZK_ENGINE_ID_MAX, "%s", e->prover_job[w]);
                snprintf(out->gpus[d].current_proof_kind, sizeof out->gpus[d].current_proof_kind, "%s",
                         cuzk_engine_kind_name(e->prover_kind[w]));
                break;
            }
        }
    }
    for (engine_key *k = e->keys; k != NULL; k = k->next) {
        cuzk_engine_srs_status *s = &out->srs[out->num_srs++];
        snprintf(s->circuit_id, sizeof s->circuit_id, "%s", k->id);
        bool warm = k->state == KEY_WARM || (k->state == KEY_LOADING && k->loading_from_warm);
        s->tier = k->state == KEY_HOT ? CUZK_ENGINE_TIER_HOT : warm ? CUZK_ENGINE_TIER_WARM : CUZK_ENGINE_TIER_COLD;
        s->size_bytes = k->size_bytes;
        s->ref_count = k->refs;
    }
    out->num_queues = ENGINE_NUM_KINDS;
    static const uint32_t kinds[ENGINE_NUM_KINDS] = {
        CUZK_ENGINE_KIND_POREP_SEAL_COMMIT, CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE, CUZK_ENGINE_KIND_WINDOW_POST_PARTITION,
        CUZK_ENGINE_KIND_WINNING_POST,      CUZK_ENGINE_KIND_GENERIC_CIRCUIT,   CUZK_ENGINE_KIND_SYNTHETIC};
    for (int i = 0; i < ENGINE_NUM_KINDS; i++) {
        snprintf(out->queues[i].proof_kind, sizeof out->queues[i].proof_kind, "%s", cuzk_engine_kind_name(kinds[i]));
        for (engine_job *j = e->jobs; j != NULL; j = j->next) {
            if (j->kind != kinds[i]) continue;
            if (j->state == JOB_QUEUED) out->queues[i].pending++;
            if (j->state == JOB_RUNNING) out->queues[i].in_progress++;
        }
        out->total_proofs_completed += e->done_count[i][0];
        out->total_proofs_failed += e->done_count[i][1];
    }
    out->uptime_seconds = (uint64_t)(cuzk_now() - e->t_start);
    out->pinned_memory_bytes = e->keys_hot_bytes;
    out->pinned_memory_limit_bytes = e->key_budget;
    pthread_mutex_unlock(&e->lock);
    return CUZK_OK;
}

void cuzk_engine_status_clear(cuzk_engine_status_report *r)
{
    if (r == NULL) return;
    free(r->gpus);
    free(r->srs);
    free(r->queues);
    memset(r, 0, sizeof *r);
}

/* "synthetic-<log2>-<seed>" names a synthetic circuit; anything else a registered one. */
static bool parse_synthetic_id(const char *id, unsigned *log2, uint64_t *seed)
{
    unsigned l;
    unsigned long long s;
    int n = 0;
    if (sscanf(id, "synthetic-%u-%llu%n", &l, &s, &n) != 2 || id[n] != 0) return false;
    *log2 = l;
    *seed = s;
    return true;
}

cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *circuit_id, bool *already_loaded, uint64_t *load_time_ms,
                                cuzk_errmsg *err)
{
    if (already_loaded != NULL) *already_loaded = false;
    if (load_time_ms != NULL) *load_time_ms = 0;
    if (e == NULL || circuit_id == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    unsigned log2 = 0;
    uint64_t seed = 0;
    bool synthetic = parse_synthetic_id(circuit_id, &log2, &seed);
    /* Curio's SRS ids name Filecoin parameter files (the filecoin layer's registry): porep-32g is
     * v28-stacked-proof-of-replication-...-82a3....params */
    const cuzk_fil_proof *fil = synthetic ? NULL : cuzk_fil_proof_by_srs_id(circuit_id);
    if (fil != NULL) {
        char params_name[256];
        cuzk_errmsg sub = {{0}};
        if (cuzk_fil_proof_param_name(fil, false, params_name, sizeof params_name, &sub) != CUZK_OK)
            return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "SRS id %s: no parameter file name (%s)", circuit_id, sub.msg);
        if (e->param_dir == NULL) return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "no param_dir is configured");
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", e->param_dir, params_name);
        bool generated = e->cfg.fil_generated_keys && cuzk_fil_circuit_supported(fil);
        if (!generated && access(path, R_OK) != 0)
            return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "SRS id %s: %s is not in %s (%s)", circuit_id, params_name,
                             e->param_dir, strerror(errno));
    } else if (synthetic) {
        unsigned max = CUZK_CIRCUITS_LOG2_MAX < CUZK_NTT_MAX_LOG2 ? CUZK_CIRCUITS_LOG2_MAX : CUZK_NTT_MAX_LOG2;
        if (log2 < CUZK_CIRCUITS_LOG2_MIN || log2 > max)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "synthetic log2 %u is outside [%u, %u]", log2,
                             CUZK_CIRCUITS_LOG2_MIN, max);
    } else {
        if (!cuzk_engine_circuit_id_valid(circuit_id))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "invalid circuit id");
        char path[4400];
        if (e->param_dir == NULL) return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "no param_dir is configured");
        snprintf(path, sizeof path, "%s/%s.params", e->param_dir, circuit_id);
        if (access(path, R_OK) != 0) return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "unknown circuit %s", circuit_id);
    }
    pthread_mutex_lock(&e->lock);
    cuzk_status s = CUZK_OK;
    if (e->shutting_down) {
        s = cuzk_fail(err, CUZK_ERR_SHUTTING_DOWN, "the engine is shutting down");
        goto out;
    }
    engine_key *k = fil != NULL ? cuzk_engine_key_get_srs(e, fil, err)
                                : cuzk_engine_key_get(e, circuit_id, synthetic, log2, seed);
    if (k == NULL) {
        s = fil != NULL ? CUZK_ERR_NOMEM : cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* an SRS id whose circuit is not here yet has its key alone, which stays on the host (a device copy needs the
     * circuit) */
    bool host_only = (k->srs && !k->fil_circuit) || !e->dev_keys;
    if (k->state == KEY_HOT && (host_only || cuzk_engine_devkey_all_ready(e, k))) {
        if (already_loaded != NULL) *already_loaded = true;
        k->last_use = ++e->lru_clock;
        k->t_last_use = cuzk_now();
        goto out;
    }
    double t0 = cuzk_now();
    k->refs++; /* not evicted to make room while we wait */
    cuzk_engine_key_request(e, k);
    while (!e->stop && (k->load_queued || k->state == KEY_LOADING)) pthread_cond_wait(&e->done_cv, &e->lock);
    if (k->state == KEY_HOT && !host_only && !e->stop) {
        /* and on every device in service (each device's loader makes its copy) */
        k->dev_preload++;
        pthread_cond_broadcast(&e->devload_cv);
        while (!e->stop && !cuzk_engine_devkey_all_settled(e, k)) pthread_cond_wait(&e->done_cv, &e->lock);
        k->dev_preload--;
        if (!e->stop && !cuzk_engine_devkey_all_ready(e, k)) {
            s = cuzk_fail(err, CUZK_ERR_DEVICE, "cannot load circuit %s on the GPUs: %s", circuit_id,
                          cuzk_engine_devkey_error(e, k));
            key_release(e, k);
            goto out;
        }
    }
    key_release(e, k);
    if (k->state == KEY_HOT) {
        if (load_time_ms != NULL) *load_time_ms = !host_only ? (uint64_t)((cuzk_now() - t0) * 1000) : k->load_ms;
    } else if (e->stop) {
        s = cuzk_fail(err, CUZK_ERR_SHUTTING_DOWN, "the engine shut down during the load");
    } else {
        s = cuzk_fail(err, k->last_status != CUZK_OK ? k->last_status : CUZK_ERR_IO, "cannot load circuit %s: %s",
                      circuit_id, k->last_error);
    }
out:
    pthread_mutex_unlock(&e->lock);
    return s;
}

cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *circuit_id, bool *was_loaded, uint64_t *freed_bytes)
{
    if (was_loaded != NULL) *was_loaded = false;
    if (freed_bytes != NULL) *freed_bytes = 0;
    if (e == NULL || circuit_id == NULL) return CUZK_ERR_INVALID_ARG;
    pthread_mutex_lock(&e->lock);
    cuzk_status s = CUZK_OK;
    engine_key *k = e->keys;
    while (k != NULL && strncmp(k->id, circuit_id, CUZK_ENGINE_ID_MAX) != 0) k = k->next;
    if (k == NULL) {
        s = CUZK_ERR_NOT_FOUND;
    } else if (k->state == KEY_HOT && k->refs > 0) {
        s = CUZK_ERR_BUSY; /* jobs need it: evicting now would only make them load it again */
    } else if (k->state == KEY_HOT) {
        if (was_loaded != NULL) *was_loaded = true;
        if (freed_bytes != NULL) *freed_bytes = k->size_bytes;
        cuzk_engine_key_free_contents(e, k);
    } else if (k->state == KEY_WARM) {
        cuzk_engine_key_free_contents(e, k); /* the mappings go: an explicit evict leaves nothing behind */
    }
    /* and its copies on the devices, unless a job needs them */
    engine_devkey_list gone = {0};
    if (s == CUZK_OK && e->dev_keys && k->refs == 0) {
        uint64_t vram = cuzk_engine_devkeys_detach(e, k, &gone);
        if (vram != 0 && was_loaded != NULL) *was_loaded = true;
        if (freed_bytes != NULL) *freed_bytes += vram;
    }
    pthread_mutex_unlock(&e->lock);
    cuzk_engine_devkeys_release(e, &gone);
    return s;
}
