/* A stand-in for include/cuzk/engine.h, used by cuzk-daemon only while src/engine does not exist, so that the gRPC
 * service, the bench client and their tests run end to end. It keeps the contract the server relies on: priority
 * order (FIFO within a priority), cancel of queued and running jobs, request-id deduplication with a result TTL,
 * await with a timeout, status counters, preload/evict, Prometheus text, and a drain-then-cancel shutdown.
 *
 * What it does not do is prove: a SYNTHETIC job sleeps for a time proportional to its size and answers valid point
 * encodings (the generators) in the proof layout, 192 bytes per partition. GENERIC_CIRCUIT jobs are checked for
 * real: the circuit must be <param_dir>/<id>.pce, the witness must parse with the circuit's variable count and must
 * satisfy it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuzk/ec.h"
#include "cuzk/engine.h"
#include "cuzk/r1cs.h"

enum { FJ_QUEUED, FJ_RUNNING, FJ_DONE };

typedef struct fake_job {
    struct fake_job *next;
    char id[ENGINE_ID_MAX], request_id[ENGINE_ID_MAX];
    uint32_t kind, partitions, log2;
    engine_priority prio;
    uint64_t seq, t_submit, t_start, t_done;
    int state;
    bool cancel;
    char circuit_id[ENGINE_ID_MAX];
    uint8_t *witness;
    size_t witness_len;
    engine_result res;
} fake_job;

typedef struct fake_srs {
    struct fake_srs *next;
    char id[ENGINE_ID_MAX];
    uint64_t size;
} fake_srs;

struct engine {
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    fake_job *jobs;
    fake_srs *srs;
    pthread_t *workers;
    unsigned num_workers;
    bool stopping, quit;
    uint64_t next_seq, t_start, ttl_ms, completed, failed, cancelled;
    char param_dir[4096];
    uint8_t proof[192];
};

static uint64_t fe_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void engine_result_clear(engine_result *r)
{
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

static const char *fe_kind_name(uint32_t k)
{
    switch (k) {
    case ENGINE_KIND_POREP_SEAL_COMMIT: return "porep";
    case ENGINE_KIND_SNAP_DEALS_UPDATE: return "snap";
    case ENGINE_KIND_WINDOW_POST_PARTITION: return "wpost";
    case ENGINE_KIND_WINNING_POST: return "winning";
    case ENGINE_KIND_GENERIC_CIRCUIT: return "generic";
    case ENGINE_KIND_SYNTHETIC: return "synthetic";
    default: return "unknown";
    }
}

static void fe_finish(engine *e, fake_job *j, engine_job_status st, const char *msg)
{
    j->state = FJ_DONE;
    j->t_done = fe_now_ms();
    j->res.status = st;
    snprintf(j->res.error_message, sizeof j->res.error_message, "%s", msg ? msg : "");
    j->res.queue_wait_ms = (j->t_start ? j->t_start : j->t_done) - j->t_submit;
    j->res.total_ms = j->t_done - j->t_submit;
    if (st == ENGINE_JOB_COMPLETED) {
        e->completed++;
    } else if (st == ENGINE_JOB_FAILED) {
        e->failed++;
    } else {
        e->cancelled++;
    }
    free(j->witness);
    j->witness = NULL;
    pthread_cond_broadcast(&e->done);
}

/* Runs one job without the lock; returns the outcome. */
static engine_job_status fe_run(engine *e, fake_job *j, char *msg, size_t msglen)
{
    if (j->kind == ENGINE_KIND_GENERIC_CIRCUIT) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s.pce", e->param_dir, j->circuit_id);
        r1cs_t *r = NULL;
        cuzk_errmsg err = {{0}};
        fr_t *z = NULL;
        uint64_t n = 0, bad = 0;
        cuzk_status st = r1cs_pce_load(path, R1CS_PCE_TRUSTED, NULL, &r, &err);
        if (st == CUZK_OK) {
            st = r1cs_wtns_parse(j->witness, j->witness_len, r, &z, &n, &err);
        }
        if (st == CUZK_OK) {
            st = r1cs_check(r, z, 1, &bad);
            if (st == CUZK_ERR_R1CS_UNSATISFIED) {
                snprintf(err.msg, sizeof err.msg, "constraint %llu is not satisfied", (unsigned long long)bad);
            }
        }
        free(z);
        r1cs_free(r);
        if (st != CUZK_OK) {
            snprintf(msg, msglen, "%s: %s", cuzk_status_str(st), err.msg);
            return ENGINE_JOB_FAILED;
        }
    } else if (j->kind != ENGINE_KIND_SYNTHETIC) {
        snprintf(msg, msglen, "proof kind %s not supported yet", fe_kind_name(j->kind));
        return ENGINE_JOB_FAILED;
    }
    /* "Proving": 20 us per constraint and partition, in 2 ms steps so that a cancel lands quickly. */
    uint64_t us = (uint64_t)20 << (j->kind == ENGINE_KIND_SYNTHETIC ? j->log2 : 8);
    us *= j->partitions;
    for (uint64_t t = 0; t < us; t += 2000) {
        pthread_mutex_lock(&e->lock);
        bool stop = j->cancel;
        pthread_mutex_unlock(&e->lock);
        if (stop) {
            snprintf(msg, msglen, "cancelled while running");
            return ENGINE_JOB_CANCELLED;
        }
        struct timespec ts = {0, (long)((us - t < 2000 ? us - t : 2000) * 1000)};
        nanosleep(&ts, NULL);
    }
    return ENGINE_JOB_COMPLETED;
}

static fake_job *fe_pick(engine *e)
{
    fake_job *best = NULL;
    for (fake_job *j = e->jobs; j; j = j->next) {
        if (j->state == FJ_QUEUED && (best == NULL || j->prio > best->prio || (j->prio == best->prio && j->seq < best->seq))) {
            best = j;
        }
    }
    return best;
}

static void *fe_worker(void *arg)
{
    engine *e = arg;
    pthread_mutex_lock(&e->lock);
    for (;;) {
        fake_job *j;
        while (!e->quit && (j = fe_pick(e)) == NULL) {
            pthread_cond_wait(&e->work, &e->lock);
        }
        if (e->quit) {
            break;
        }
        j->state = FJ_RUNNING;
        j->t_start = fe_now_ms();
        pthread_mutex_unlock(&e->lock);
        char msg[400] = "";
        engine_job_status st = fe_run(e, j, msg, sizeof msg);
        pthread_mutex_lock(&e->lock);
        if (st == ENGINE_JOB_COMPLETED) {
            j->res.proof = malloc(192u * j->partitions);
            if (j->res.proof == NULL) {
                st = ENGINE_JOB_FAILED;
                snprintf(msg, sizeof msg, "out of memory");
            } else {
                for (uint32_t p = 0; p < j->partitions; p++) {
                    memcpy(j->res.proof + 192u * p, e->proof, 192);
                }
                j->res.proof_len = 192u * j->partitions;
                j->res.gpu_compute_ms = fe_now_ms() - j->t_start;
            }
        }
        fe_finish(e, j, st, msg);
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

cuzk_status engine_create(engine **out, const engine_config *cfg, cuzk_errmsg *err)
{
    engine *e = calloc(1, sizeof *e);
    if (e == NULL) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return CUZK_ERR_NOMEM;
    }
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->work, NULL);
    pthread_cond_init(&e->done, NULL);
    snprintf(e->param_dir, sizeof e->param_dir, "%s", cfg->param_dir ? cfg->param_dir : ".");
    e->ttl_ms = cfg->result_ttl_ms ? cfg->result_ttl_ms : 600000;
    e->t_start = fe_now_ms();
    g1_affine_t g1;
    g2_affine_t g2;
    g1_generator(&g1);
    g2_generator(&g2);
    g1_to_compressed(e->proof, &g1);
    g2_to_compressed(e->proof + 48, &g2);
    g1_to_compressed(e->proof + 144, &g1);
    e->num_workers = cfg->synthesis_workers ? cfg->synthesis_workers : 1;
    e->workers = calloc(e->num_workers, sizeof *e->workers);
    for (unsigned i = 0; i < e->num_workers; i++) {
        pthread_create(&e->workers[i], NULL, fe_worker, e);
    }
    *out = e;
    return CUZK_OK;
}

static void fe_free_job(fake_job *j)
{
    free(j->witness);
    engine_result_clear(&j->res);
    free(j);
}

void engine_shutdown(engine *e, uint64_t deadline_ms)
{
    uint64_t end = fe_now_ms() + deadline_ms;
    pthread_mutex_lock(&e->lock);
    e->stopping = true;
    for (;;) {
        bool busy = false;
        for (fake_job *j = e->jobs; j; j = j->next) {
            busy |= j->state != FJ_DONE;
        }
        if (!busy || fe_now_ms() >= end) {
            break;
        }
        pthread_mutex_unlock(&e->lock);
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&e->lock);
    }
    for (fake_job *j = e->jobs; j; j = j->next) {
        if (j->state == FJ_QUEUED) {
            fe_finish(e, j, ENGINE_JOB_CANCELLED, "cancelled: daemon shutting down");
        } else if (j->state == FJ_RUNNING) {
            j->cancel = true;
        }
    }
    e->quit = true;
    pthread_cond_broadcast(&e->work);
    pthread_mutex_unlock(&e->lock);
    for (unsigned i = 0; i < e->num_workers; i++) {
        pthread_join(e->workers[i], NULL);
    }
    e->num_workers = 0;
}

void engine_destroy(engine *e)
{
    if (e == NULL) {
        return;
    }
    if (!e->quit) {
        engine_shutdown(e, 0);
    }
    while (e->jobs) {
        fake_job *j = e->jobs;
        e->jobs = j->next;
        fe_free_job(j);
    }
    while (e->srs) {
        fake_srs *s = e->srs;
        e->srs = s->next;
        free(s);
    }
    free(e->workers);
    free(e);
}

/* Drops finished jobs older than the TTL. Called with the lock held. */
static void fe_expire(engine *e)
{
    uint64_t now = fe_now_ms();
    for (fake_job **pp = &e->jobs; *pp;) {
        fake_job *j = *pp;
        if (j->state == FJ_DONE && now - j->t_done > e->ttl_ms) {
            *pp = j->next;
            fe_free_job(j);
        } else {
            pp = &j->next;
        }
    }
}

cuzk_status engine_submit(engine *e, const engine_request *req, char job_id[ENGINE_ID_MAX], uint32_t *queue_position,
                          bool *attached, cuzk_errmsg *err)
{
    *attached = false;
    *queue_position = 0;
    uint32_t parts = req->partitions ? req->partitions : 1;
    if (parts > 64) {
        snprintf(err->msg, sizeof err->msg, "partitions %u > 64", parts);
        return CUZK_ERR_TOO_LARGE;
    }
    if (req->proof_kind == ENGINE_KIND_SYNTHETIC && (req->synthetic_log2 < 1 || req->synthetic_log2 > 20)) {
        snprintf(err->msg, sizeof err->msg, "synthetic_log2 %u outside 1..20", req->synthetic_log2);
        return req->synthetic_log2 > 20 ? CUZK_ERR_TOO_LARGE : CUZK_ERR_INVALID_ARG;
    }
    uint8_t *wit = NULL;
    size_t wit_len = 0;
    if (req->proof_kind == ENGINE_KIND_GENERIC_CIRCUIT) {
        /* Reject what can be known at once: an unknown circuit, a witness that does not parse or has the wrong
         * number of values. Satisfiability is the job's business (it fails with a message). */
        char path[4400];
        snprintf(path, sizeof path, "%s/%s.pce", e->param_dir, req->circuit_id);
        if (req->circuit_id[0] == '\0' || strchr(req->circuit_id, '/') != NULL) {
            snprintf(err->msg, sizeof err->msg, "bad circuit_id '%s'", req->circuit_id);
            return CUZK_ERR_INVALID_ARG;
        }
        r1cs_t *r = NULL;
        cuzk_status st = r1cs_pce_load(path, R1CS_PCE_TRUSTED, NULL, &r, err);
        if (st != CUZK_OK) {
            snprintf(err->msg, sizeof err->msg, "unknown circuit '%s'", req->circuit_id);
            return CUZK_ERR_IO;
        }
        if (req->witness_len > 0) {
            wit_len = req->witness_len;
            wit = malloc(wit_len);
            if (wit != NULL) {
                memcpy(wit, req->witness, wit_len);
            }
        } else if (req->witness_path[0] != '\0') {
            FILE *f = fopen(req->witness_path, "rb");
            if (f != NULL) {
                fseek(f, 0, SEEK_END);
                long n = ftell(f);
                fseek(f, 0, SEEK_SET);
                wit = n > 0 ? malloc((size_t)n) : NULL;
                if (wit != NULL && fread(wit, 1, (size_t)n, f) == (size_t)n) {
                    wit_len = (size_t)n;
                }
                fclose(f);
            }
        }
        fr_t *z = NULL;
        uint64_t cnt = 0;
        st = wit_len ? r1cs_wtns_parse(wit, wit_len, r, &z, &cnt, err) : CUZK_ERR_INVALID_ARG;
        if (wit_len == 0) {
            snprintf(err->msg, sizeof err->msg, "no witness (witness or witness_path)");
        }
        free(z);
        r1cs_free(r);
        if (st != CUZK_OK) {
            free(wit);
            return st;
        }
    }

    pthread_mutex_lock(&e->lock);
    if (e->stopping) {
        pthread_mutex_unlock(&e->lock);
        free(wit);
        snprintf(err->msg, sizeof err->msg, "shutting down");
        return CUZK_ERR_INVALID_ARG;
    }
    fe_expire(e);
    if (req->request_id[0] != '\0') {
        for (fake_job *j = e->jobs; j; j = j->next) {
            if (strcmp(j->request_id, req->request_id) == 0) {
                snprintf(job_id, ENGINE_ID_MAX, "%s", j->id);
                *attached = j->state != FJ_DONE;
                pthread_mutex_unlock(&e->lock);
                free(wit);
                return CUZK_OK;
            }
        }
    }
    fake_job *j = calloc(1, sizeof *j);
    if (j == NULL) {
        pthread_mutex_unlock(&e->lock);
        free(wit);
        return CUZK_ERR_NOMEM;
    }
    j->seq = ++e->next_seq;
    snprintf(j->id, sizeof j->id, "job-%llu", (unsigned long long)j->seq);
    snprintf(j->request_id, sizeof j->request_id, "%s", req->request_id);
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", req->circuit_id);
    j->kind = req->proof_kind;
    j->partitions = parts;
    j->log2 = req->synthetic_log2;
    j->witness = wit;
    j->witness_len = wit_len;
    j->prio = req->priority;
    if (j->prio == ENGINE_PRIO_UNSPECIFIED) {
        j->prio = j->kind == ENGINE_KIND_WINNING_POST         ? ENGINE_PRIO_CRITICAL
                  : j->kind == ENGINE_KIND_WINDOW_POST_PARTITION ? ENGINE_PRIO_HIGH
                                                                 : ENGINE_PRIO_NORMAL;
    }
    j->t_submit = fe_now_ms();
    uint32_t pos = 0;
    for (fake_job *o = e->jobs; o; o = o->next) {
        pos += o->state == FJ_QUEUED && o->prio >= j->prio;
    }
    j->next = e->jobs;
    e->jobs = j;
    *queue_position = pos;
    snprintf(job_id, ENGINE_ID_MAX, "%s", j->id);
    pthread_cond_signal(&e->work);
    pthread_mutex_unlock(&e->lock);
    return CUZK_OK;
}

static fake_job *fe_find(engine *e, const char *id)
{
    for (fake_job *j = e->jobs; j; j = j->next) {
        if (strcmp(j->id, id) == 0) {
            return j;
        }
    }
    return NULL;
}

cuzk_status engine_await(engine *e, const char *job_id, uint64_t timeout_ms, engine_result *out)
{
    memset(out, 0, sizeof *out);
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += (time_t)(timeout_ms / 1000);
    dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&e->lock);
    fake_job *j = fe_find(e, job_id);
    if (j == NULL) {
        pthread_mutex_unlock(&e->lock);
        return CUZK_ERR_INVALID_ARG;
    }
    while (j->state != FJ_DONE) {
        if (timeout_ms == 0) {
            pthread_cond_wait(&e->done, &e->lock);
        } else if (pthread_cond_timedwait(&e->done, &e->lock, &dl) != 0) {
            break;
        }
    }
    if (j->state != FJ_DONE) {
        out->status = ENGINE_JOB_TIMEOUT;
    } else {
        *out = j->res;
        out->proof = NULL;
        if (j->res.proof != NULL) {
            out->proof = malloc(j->res.proof_len);
            if (out->proof != NULL) {
                memcpy(out->proof, j->res.proof, j->res.proof_len);
            }
        }
    }
    pthread_mutex_unlock(&e->lock);
    return CUZK_OK;
}

cuzk_status engine_cancel(engine *e, const char *job_id, bool *was_running)
{
    *was_running = false;
    pthread_mutex_lock(&e->lock);
    fake_job *j = fe_find(e, job_id);
    if (j == NULL) {
        pthread_mutex_unlock(&e->lock);
        return CUZK_ERR_INVALID_ARG;
    }
    if (j->state == FJ_QUEUED) {
        fe_finish(e, j, ENGINE_JOB_CANCELLED, "cancelled while queued");
    } else if (j->state == FJ_RUNNING) {
        j->cancel = true;
        *was_running = true;
    }
    pthread_mutex_unlock(&e->lock);
    return CUZK_OK;
}

cuzk_status engine_status(engine *e, engine_status_report *out)
{
    memset(out, 0, sizeof *out);
    static const uint32_t kinds[] = {ENGINE_KIND_POREP_SEAL_COMMIT, ENGINE_KIND_SNAP_DEALS_UPDATE,
                                     ENGINE_KIND_WINDOW_POST_PARTITION, ENGINE_KIND_WINNING_POST,
                                     ENGINE_KIND_GENERIC_CIRCUIT, ENGINE_KIND_SYNTHETIC};
    pthread_mutex_lock(&e->lock);
    size_t nsrs = 0;
    for (fake_srs *s = e->srs; s; s = s->next) {
        nsrs++;
    }
    out->queues = calloc(6, sizeof *out->queues);
    out->srs = calloc(nsrs + 1, sizeof *out->srs);
    if (out->queues == NULL || out->srs == NULL) {
        pthread_mutex_unlock(&e->lock);
        engine_status_clear(out);
        return CUZK_ERR_NOMEM;
    }
    out->num_queues = 6;
    for (size_t k = 0; k < 6; k++) {
        snprintf(out->queues[k].proof_kind, sizeof out->queues[k].proof_kind, "%s", fe_kind_name(kinds[k]));
        for (fake_job *j = e->jobs; j; j = j->next) {
            if (j->kind == kinds[k]) {
                out->queues[k].pending += j->state == FJ_QUEUED;
                out->queues[k].in_progress += j->state == FJ_RUNNING;
            }
        }
    }
    size_t i = 0;
    for (fake_srs *s = e->srs; s; s = s->next, i++) {
        snprintf(out->srs[i].circuit_id, sizeof out->srs[i].circuit_id, "%s", s->id);
        out->srs[i].tier = ENGINE_TIER_HOT;
        out->srs[i].size_bytes = s->size;
    }
    out->num_srs = nsrs;
    out->total_proofs_completed = e->completed;
    out->total_proofs_failed = e->failed;
    out->uptime_seconds = (fe_now_ms() - e->t_start) / 1000;
    pthread_mutex_unlock(&e->lock);
    return CUZK_OK;
}

void engine_status_clear(engine_status_report *r)
{
    free(r->gpus);
    free(r->srs);
    free(r->queues);
    memset(r, 0, sizeof *r);
}

cuzk_status engine_preload(engine *e, const char *circuit_id, bool *already_loaded, uint64_t *load_time_ms,
                           cuzk_errmsg *err)
{
    uint64_t t0 = fe_now_ms();
    *already_loaded = false;
    *load_time_ms = 0;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.pce", e->param_dir, circuit_id);
    struct stat st;
    if (strchr(circuit_id, '/') != NULL || stat(path, &st) != 0) {
        snprintf(err->msg, sizeof err->msg, "unknown circuit '%s'", circuit_id);
        return CUZK_ERR_IO;
    }
    pthread_mutex_lock(&e->lock);
    for (fake_srs *s = e->srs; s; s = s->next) {
        if (strcmp(s->id, circuit_id) == 0) {
            *already_loaded = true;
            pthread_mutex_unlock(&e->lock);
            return CUZK_OK;
        }
    }
    fake_srs *s = calloc(1, sizeof *s);
    if (s == NULL) {
        pthread_mutex_unlock(&e->lock);
        return CUZK_ERR_NOMEM;
    }
    snprintf(s->id, sizeof s->id, "%s", circuit_id);
    s->size = (uint64_t)st.st_size;
    s->next = e->srs;
    e->srs = s;
    pthread_mutex_unlock(&e->lock);
    *load_time_ms = fe_now_ms() - t0;
    return CUZK_OK;
}

cuzk_status engine_evict(engine *e, const char *circuit_id, bool *was_loaded, uint64_t *freed_bytes)
{
    *was_loaded = false;
    *freed_bytes = 0;
    pthread_mutex_lock(&e->lock);
    for (fake_srs **pp = &e->srs; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->id, circuit_id) == 0) {
            fake_srs *s = *pp;
            *pp = s->next;
            *was_loaded = true;
            *freed_bytes = s->size;
            free(s);
            break;
        }
    }
    pthread_mutex_unlock(&e->lock);
    return CUZK_OK;
}

char *engine_metrics_text(engine *e)
{
    pthread_mutex_lock(&e->lock);
    uint32_t queued = 0, running = 0;
    for (fake_job *j = e->jobs; j; j = j->next) {
        queued += j->state == FJ_QUEUED;
        running += j->state == FJ_RUNNING;
    }
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    if (f != NULL) {
        fprintf(f, "# HELP cuzk_proofs_total Finished proofs by outcome.\n# TYPE cuzk_proofs_total counter\n");
        fprintf(f, "cuzk_proofs_total{status=\"completed\"} %llu\n", (unsigned long long)e->completed);
        fprintf(f, "cuzk_proofs_total{status=\"failed\"} %llu\n", (unsigned long long)e->failed);
        fprintf(f, "cuzk_proofs_total{status=\"cancelled\"} %llu\n", (unsigned long long)e->cancelled);
        fprintf(f, "# HELP cuzk_jobs Jobs by state.\n# TYPE cuzk_jobs gauge\n");
        fprintf(f, "cuzk_jobs{state=\"queued\"} %u\ncuzk_jobs{state=\"running\"} %u\n", queued, running);
        fclose(f);
    }
    pthread_mutex_unlock(&e->lock);
    return s;
}
