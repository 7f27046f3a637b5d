/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The cuzk.v1.ProvingEngine service (see server.h).
 *
 * Life of a call: grpc_server_request_call hands us a new call (tag NEW); we immediately ask for the next one, post a
 * RECV_CLOSE_ON_SERVER (tag CLOSED, tells us when the client cancels or goes away) and a batch with our initial
 * metadata and RECV_MESSAGE (tag RECV). When the request is in, the method's handler runs, on the polling thread or
 * on a worker thread, and answers with one batch of SEND_MESSAGE + SEND_STATUS_FROM_SERVER (tag SENT). The call's
 * context is freed when both the SENT and the CLOSED tags have come back. */
#include "server.h"

#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/v1/cuzk.pb-c.h"
#include "listen.h"
#include "log.h"
#include "requests.h"

#define SERVER_MAX_THREADS 16
#define SERVER_MAX_WORKERS 4096   /* concurrent waiting calls (AwaitProof, Prove, PreloadSRS) */
#define SERVER_PENDING_REQUESTS 8 /* outstanding grpc_server_request_call, so bursts of new calls are taken at once */
#define SERVER_AWAIT_SLICE_MS 500 /* waits are sliced to notice clients that went away */
#define SERVER_WORKER_STACK (256 * 1024)
#define SERVER_QUOTA_MESSAGES 4              /* messages at the receive limit the transport may hold at once */
#define SERVER_TRANSPORT_BYTES (64ull << 20) /* the transport's buffers besides messages, in the memory quota */

typedef enum { TAG_NEW, TAG_RECV, TAG_SENT, TAG_CLOSED, TAG_SHUTDOWN } server_tag_kind;

struct rpc_call;

typedef struct {
    server_tag_kind kind;
    struct rpc_call *call;
} server_tag;

typedef struct rpc_call rpc_call;

/* A handler answers with rpc_reply (possibly later, from another thread). */
typedef void (*rpc_handler)(rpc_call *c, const uint8_t *req, size_t len);

typedef struct {
    const char *path;
    rpc_handler handler;
    bool blocking; /* runs on a worker thread */
} rpc_method;

struct rpc_call {
    cuzk_server *s;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *request;
    grpc_byte_buffer *response;
    grpc_slice status_details;
    bool has_status_details;
    bool rejected; /* unknown method or not authorized: answered without reading the request */
    int cancelled; /* written by RECV_CLOSE_ON_SERVER */
    atomic_bool client_gone;
    atomic_int refs;
    const rpc_method *method;
    server_tag t_new, t_recv, t_sent, t_closed;
};

struct cuzk_server {
    cuzk_engine *e;
    grpc_server *gs;
    grpc_completion_queue *cq;
    pthread_t threads[SERVER_MAX_THREADS];
    unsigned num_threads;
    char *auth_header;              /* "Bearer <token>" or NULL */
    cuzk_unix_claim unix_claims[8]; /* one per unix listener: its lock and the socket this daemon made */
    size_t num_unix_claims;
    server_tag t_shutdown;
    atomic_bool stopping;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned workers;   /* worker threads alive */
    bool shutdown_done; /* grpc_server_shutdown_and_notify's tag came back: no calls left */
    bool intake_stopped;
};

static void server_request_next(cuzk_server *s);

/* ---- call bookkeeping ---- */

static void rpc_unref(rpc_call *c)
{
    if (atomic_fetch_sub(&c->refs, 1) != 1) {
        return;
    }
    if (c->call != NULL) {
        grpc_call_unref(c->call);
    }
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    if (c->request != NULL) {
        grpc_byte_buffer_destroy(c->request);
    }
    if (c->response != NULL) {
        grpc_byte_buffer_destroy(c->response);
    }
    if (c->has_status_details) {
        grpc_slice_unref(c->status_details);
    }
    free(c);
}

/* Sends the answer: the packed response (may be NULL for an error status) and the status with its message. Takes
 * the call's main reference; the SENT tag releases it. */
static void rpc_reply(rpc_call *c, grpc_status_code code, const char *msg, uint8_t *packed, size_t packed_len)
{
    grpc_op ops[2];
    memset(ops, 0, sizeof ops);
    size_t n = 0;
    if (packed != NULL) {
        grpc_slice sl = grpc_slice_from_copied_buffer((const char *)packed, packed_len);
        c->response = grpc_raw_byte_buffer_create(&sl, 1);
        grpc_slice_unref(sl);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = c->response;
        n++;
    }
    if (msg != NULL && msg[0] != '\0') {
        c->status_details = grpc_slice_from_copied_string(msg);
        c->has_status_details = true;
    }
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = code;
    ops[n].data.send_status_from_server.status_details = c->has_status_details ? &c->status_details : NULL;
    n++;
    if (code != GRPC_STATUS_OK && cuzk_log_enabled(CUZK_LOG_DEBUG)) {
        char num[16];
        snprintf(num, sizeof num, "%d", (int)code);
        cuzk_log_kv(CUZK_LOG_DEBUG, CUZK_LOG_SERVER, "call answered with an error", "method",
                    c->method ? c->method->path : "?", "code", num, "error", msg ? msg : "", NULL);
    }
    if (grpc_call_start_batch(c->call, ops, n, &c->t_sent, NULL) != GRPC_CALL_OK) {
        cuzk_log_msg(CUZK_LOG_ERROR, "grpc_call_start_batch (reply) failed");
        rpc_unref(c);
    }
}

/* Packs any protobuf-c message and sends it with status OK. */
static void rpc_reply_msg(rpc_call *c, const ProtobufCMessage *m)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (buf == NULL) {
        rpc_reply(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL, 0);
        return;
    }
    protobuf_c_message_pack(m, buf);
    rpc_reply(c, GRPC_STATUS_OK, NULL, buf, len);
    free(buf);
}

static grpc_status_code server_code_for(cuzk_status st)
{
    switch (st) {
    case CUZK_ERR_NOMEM:
    case CUZK_ERR_TOO_LARGE:
    case CUZK_ERR_OVER_BUDGET: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CUZK_ERR_IO:
    case CUZK_ERR_NOT_FOUND: return GRPC_STATUS_NOT_FOUND;
    case CUZK_ERR_SHUTTING_DOWN:
        return GRPC_STATUS_UNAVAILABLE; /* another daemon (or this one, restarted) can take the call */
    case CUZK_ERR_BUSY:
    case CUZK_ERR_CHECKSUM: /* a parameter file on disk that is not the manifest's: the operator's to fix */
        return GRPC_STATUS_FAILED_PRECONDITION;
    case CUZK_ERR_UNSUPPORTED: return GRPC_STATUS_UNIMPLEMENTED;
    default: return GRPC_STATUS_INVALID_ARGUMENT;
    }
}

/* ---- SubmitProof, AwaitProof, Prove ---- */

/* One info line per proof request, with Curio's fields: its id, its kind, the bytes it carries. */
static void server_log_request(const char *method, const Cuzk__V1__SubmitProofRequest *m)
{
    if (!cuzk_log_enabled(CUZK_LOG_INFO)) return;
    uint64_t bytes = m->vanilla_proof.len + m->witness.len;
    for (size_t i = 0; i < m->n_vanilla_proofs; i++) bytes += m->vanilla_proofs[i].len;
    char size[24];
    snprintf(size, sizeof size, "%llu", (unsigned long long)bytes);
    cuzk_log_kv(CUZK_LOG_INFO, CUZK_LOG_SERVER, method, "request_id", m->request_id ? m->request_id : "", "proof_kind",
                cuzk_engine_kind_name((uint32_t)m->proof_kind), "input_size", size, NULL);
}

static void rpc_submit(rpc_call *c, const uint8_t *req, size_t len)
{
    Cuzk__V1__SubmitProofRequest *m = cuzk__v1__submit_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "SubmitProofRequest does not decode", NULL, 0);
        return;
    }
    server_log_request("SubmitProof", m);
    cuzk_engine_request r;
    char msg[768];
    if (!cuzk_req_fill(m, &r, msg, sizeof msg)) {
        cuzk__v1__submit_proof_request__free_unpacked(m, NULL);
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    char job_id[CUZK_ENGINE_ID_MAX];
    uint32_t pos = 0;
    bool attached = false;
    cuzk_errmsg err = {{0}};
    cuzk_status st = cuzk_engine_submit(c->s->e, &r, job_id, &pos, &attached, &err);
    cuzk_req_clear(&r);
    cuzk__v1__submit_proof_request__free_unpacked(m, NULL);
    if (st != CUZK_OK) {
        snprintf(msg, sizeof msg, "%s: %s", cuzk_status_str(st), err.msg);
        rpc_reply(c, server_code_for(st), msg, NULL, 0);
        return;
    }
    Cuzk__V1__SubmitProofResponse resp = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
    resp.job_id = job_id;
    resp.queue_position = pos;
    resp.assigned_gpu = "";
    rpc_reply_msg(c, &resp.base);
}

/* Waits for a job in slices, so that a worker whose client cancelled or disconnected stops waiting. timeout_ms 0 =
 * until the job ends. Returns false when the client is gone (nothing left to answer). A timeout is answered with
 * the engine's word for where the job is ("job-7 is still queued after 100 ms"). */
static bool server_await(rpc_call *c, const char *job_id, uint64_t timeout_ms, cuzk_engine_result *res, cuzk_status *st)
{
    uint64_t t0 = cuzk_now_ns();
    for (;;) {
        uint64_t slice = SERVER_AWAIT_SLICE_MS;
        bool last = false;
        if (timeout_ms != 0) {
            uint64_t spent = (cuzk_now_ns() - t0) / 1000000;
            uint64_t left = spent >= timeout_ms ? 1 : timeout_ms - spent;
            if (left <= slice) {
                slice = left;
                last = true;
            }
        }
        memset(res, 0, sizeof *res);
        *st = cuzk_engine_await(c->s->e, job_id, slice, res);
        if (*st != CUZK_OK || res->status != CUZK_ENGINE_JOB_TIMEOUT) {
            return true;
        }
        if (last) {
            const char *where = strstr(res->error_message, "still running") != NULL ? "running" : "queued";
            snprintf(res->error_message, sizeof res->error_message, "job %s is still %s after %llu ms", job_id, where,
                     (unsigned long long)timeout_ms);
            return true;
        }
        cuzk_engine_result_clear(res);
        if (atomic_load(&c->client_gone)) {
            return false;
        }
    }
}

static void server_fill_result(Cuzk__V1__AwaitProofResponse *out, const char *job_id, const cuzk_engine_result *r)
{
    out->job_id = (char *)job_id;
    out->status = (Cuzk__V1__AwaitProofResponse__Status)r->status;
    out->proof.data = r->proof;
    out->proof.len = r->proof ? r->proof_len : 0;
    out->error_message = (char *)r->error_message;
    out->queue_wait_ms = r->queue_wait_ms;
    out->srs_load_ms = r->srs_load_ms;
    out->synthesis_ms = r->synthesis_ms;
    out->gpu_compute_ms = r->gpu_compute_ms;
    out->total_ms = r->total_ms;
}

static void rpc_await(rpc_call *c, const uint8_t *req, size_t len)
{
    Cuzk__V1__AwaitProofRequest *m = cuzk__v1__await_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "AwaitProofRequest does not decode", NULL, 0);
        return;
    }
    char job_id[CUZK_ENGINE_ID_MAX], msg[128];
    if (!cuzk_req_job_id(m->job_id, job_id, msg, sizeof msg)) {
        cuzk__v1__await_proof_request__free_unpacked(m, NULL);
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    uint64_t timeout_ms = m->timeout_ms;
    cuzk__v1__await_proof_request__free_unpacked(m, NULL);
    cuzk_log_kv(CUZK_LOG_INFO, CUZK_LOG_SERVER, "AwaitProof", "job_id", job_id, NULL);
    cuzk_engine_result res;
    cuzk_status st;
    if (!server_await(c, job_id, timeout_ms, &res, &st)) {
        rpc_reply(c, GRPC_STATUS_CANCELLED, "client went away", NULL, 0);
        return;
    }
    if (st != CUZK_OK) {
        char msg[768];
        snprintf(msg, sizeof msg, "no job %s (%s)", job_id, cuzk_status_str(st));
        rpc_reply(c, GRPC_STATUS_NOT_FOUND, msg, NULL, 0);
        return;
    }
    Cuzk__V1__AwaitProofResponse resp = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    server_fill_result(&resp, job_id, &res);
    rpc_reply_msg(c, &resp.base);
    cuzk_engine_result_clear(&res);
}

/* Prove = SubmitProof + AwaitProof. A request the engine refuses (unknown circuit, wrong witness length, ...) comes
 * back OK with status FAILED and the reason: Curio treats gRPC errors as transport trouble and would retry. */
static void rpc_prove(rpc_call *c, const uint8_t *req, size_t len)
{
    Cuzk__V1__ProveRequest *m = cuzk__v1__prove_request__unpack(NULL, len, req);
    if (m == NULL) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "ProveRequest does not decode", NULL, 0);
        return;
    }
    if (m->submit == NULL) {
        cuzk__v1__prove_request__free_unpacked(m, NULL);
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "ProveRequest.submit missing", NULL, 0);
        return;
    }
    server_log_request("Prove", m->submit);
    cuzk_engine_request r;
    char msg[768];
    if (!cuzk_req_fill(m->submit, &r, msg, sizeof msg)) {
        cuzk__v1__prove_request__free_unpacked(m, NULL);
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    char job_id[CUZK_ENGINE_ID_MAX] = "";
    uint32_t pos = 0;
    bool attached = false;
    cuzk_errmsg err = {{0}};
    cuzk_status st = cuzk_engine_submit(c->s->e, &r, job_id, &pos, &attached, &err);
    cuzk_req_clear(&r);
    cuzk__v1__prove_request__free_unpacked(m, NULL);

    cuzk_engine_result res;
    memset(&res, 0, sizeof res);
    if (st == CUZK_ERR_SHUTTING_DOWN) {
        /* Not a proof failure: the caller should retry elsewhere or later. */
        rpc_reply(c, GRPC_STATUS_UNAVAILABLE, "daemon shutting down", NULL, 0);
        return;
    }
    if (st != CUZK_OK) {
        res.status = CUZK_ENGINE_JOB_FAILED;
        snprintf(res.error_message, sizeof res.error_message, "rejected: %s: %s", cuzk_status_str(st), err.msg);
    } else {
        if (!server_await(c, job_id, 0, &res, &st)) {
            rpc_reply(c, GRPC_STATUS_CANCELLED, "client went away", NULL, 0);
            return;
        }
        if (st != CUZK_OK) {
            memset(&res, 0, sizeof res);
            res.status = CUZK_ENGINE_JOB_FAILED;
            snprintf(res.error_message, sizeof res.error_message, "job %s vanished: %s", job_id, cuzk_status_str(st));
        }
    }
    Cuzk__V1__AwaitProofResponse result = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    server_fill_result(&result, job_id, &res);
    Cuzk__V1__ProveResponse resp = CUZK__V1__PROVE_RESPONSE__INIT;
    resp.result = &result;
    rpc_reply_msg(c, &resp.base);
    cuzk_engine_result_clear(&res);
}

static void rpc_cancel(rpc_call *c, const uint8_t *req, size_t len)
{
    Cuzk__V1__CancelProofRequest *m = cuzk__v1__cancel_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "CancelProofRequest does not decode", NULL, 0);
        return;
    }
    char job_id[CUZK_ENGINE_ID_MAX], msg[128];
    bool ok = cuzk_req_job_id(m->job_id, job_id, msg, sizeof msg);
    cuzk__v1__cancel_proof_request__free_unpacked(m, NULL);
    if (!ok) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    cuzk_log_kv(CUZK_LOG_INFO, CUZK_LOG_SERVER, "CancelProof", "job_id", job_id, NULL);
    bool was_running = false;
    cuzk_status st = cuzk_engine_cancel(c->s->e, job_id, &was_running);
    if (st != CUZK_OK) {
        char msg[768];
        snprintf(msg, sizeof msg, "no job %s (%s)", job_id, cuzk_status_str(st));
        rpc_reply(c, GRPC_STATUS_NOT_FOUND, msg, NULL, 0);
        return;
    }
    Cuzk__V1__CancelProofResponse resp = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
    resp.was_running = was_running;
    rpc_reply_msg(c, &resp.base);
}

/* ---- status, metrics, SRS ---- */

/* Empty messages still have to decode: garbage bytes for GetStatus are as malformed as for any other call. */
static void rpc_status(rpc_call *c, const uint8_t *req, size_t len)
{
    char msg[128];
    if (!cuzk_req_empty(&cuzk__v1__get_status_request__descriptor, req, len, msg, sizeof msg)) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    cuzk_engine_status_report rep;
    memset(&rep, 0, sizeof rep);
    cuzk_status st = cuzk_engine_status(c->s->e, &rep);
    if (st != CUZK_OK) {
        rpc_reply(c, GRPC_STATUS_INTERNAL, cuzk_status_str(st), NULL, 0);
        return;
    }
    Cuzk__V1__GetStatusResponse resp = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    /* One allocation per array of messages and one of pointers; the strings point into the report. */
    Cuzk__V1__GPUStatus *gpus = calloc(rep.num_gpus + 1, sizeof *gpus);
    Cuzk__V1__GPUStatus **gpu_ptrs = calloc(rep.num_gpus + 1, sizeof *gpu_ptrs);
    Cuzk__V1__SRSStatus *srs = calloc(rep.num_srs + 1, sizeof *srs);
    Cuzk__V1__SRSStatus **srs_ptrs = calloc(rep.num_srs + 1, sizeof *srs_ptrs);
    Cuzk__V1__QueueStatus *qs = calloc(rep.num_queues + 1, sizeof *qs);
    Cuzk__V1__QueueStatus **q_ptrs = calloc(rep.num_queues + 1, sizeof *q_ptrs);
    if (!gpus || !gpu_ptrs || !srs || !srs_ptrs || !qs || !q_ptrs) {
        rpc_reply(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory", NULL, 0);
        goto done;
    }
    for (size_t i = 0; i < rep.num_gpus; i++) {
        cuzk__v1__gpustatus__init(&gpus[i]);
        gpus[i].ordinal = rep.gpus[i].ordinal;
        gpus[i].name = rep.gpus[i].name;
        gpus[i].vram_total_bytes = rep.gpus[i].vram_total_bytes;
        gpus[i].vram_free_bytes = rep.gpus[i].vram_free_bytes;
        gpus[i].current_job_id = rep.gpus[i].current_job_id;
        gpus[i].current_proof_kind = rep.gpus[i].current_proof_kind;
        gpus[i].vram_budget_bytes = rep.gpus[i].vram_budget_bytes;
        gpus[i].vram_keys_bytes = rep.gpus[i].vram_keys_bytes;
        gpus[i].keys_resident = rep.gpus[i].keys_resident;
        gpus[i].busy = rep.gpus[i].busy;
        gpus[i].busy_ratio = rep.gpus[i].busy_ratio;
        gpus[i].partitions = rep.gpus[i].partitions;
        gpus[i].broken = rep.gpus[i].broken;
        gpus[i].error = rep.gpus[i].error;
        gpu_ptrs[i] = &gpus[i];
    }
    for (size_t i = 0; i < rep.num_srs; i++) {
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = rep.srs[i].circuit_id;
        srs[i].tier = (Cuzk__V1__SRSStatus__Tier)rep.srs[i].tier;
        srs[i].size_bytes = rep.srs[i].size_bytes;
        srs[i].ref_count = rep.srs[i].ref_count;
        srs_ptrs[i] = &srs[i];
    }
    for (size_t i = 0; i < rep.num_queues; i++) {
        cuzk__v1__queue_status__init(&qs[i]);
        qs[i].proof_kind = rep.queues[i].proof_kind;
        qs[i].pending = rep.queues[i].pending;
        qs[i].in_progress = rep.queues[i].in_progress;
        q_ptrs[i] = &qs[i];
    }
    resp.n_gpus = rep.num_gpus;
    resp.gpus = gpu_ptrs;
    resp.n_loaded_srs = rep.num_srs;
    resp.loaded_srs = srs_ptrs;
    resp.n_queues = rep.num_queues;
    resp.queues = q_ptrs;
    resp.total_proofs_completed = rep.total_proofs_completed;
    resp.total_proofs_failed = rep.total_proofs_failed;
    resp.uptime_seconds = rep.uptime_seconds;
    resp.pinned_memory_bytes = rep.pinned_memory_bytes;
    resp.pinned_memory_limit_bytes = rep.pinned_memory_limit_bytes;
    rpc_reply_msg(c, &resp.base);
done:
    free(gpus);
    free(gpu_ptrs);
    free(srs);
    free(srs_ptrs);
    free(qs);
    free(q_ptrs);
    cuzk_engine_status_clear(&rep);
}

static void rpc_metrics(rpc_call *c, const uint8_t *req, size_t len)
{
    char msg[128];
    if (!cuzk_req_empty(&cuzk__v1__get_metrics_request__descriptor, req, len, msg, sizeof msg)) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    char *text = cuzk_engine_metrics_text(c->s->e);
    if (text == NULL) {
        rpc_reply(c, GRPC_STATUS_INTERNAL, "metrics unavailable", NULL, 0);
        return;
    }
    Cuzk__V1__GetMetricsResponse resp = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    resp.prometheus_text = text;
    rpc_reply_msg(c, &resp.base);
    free(text);
}

static void rpc_preload(rpc_call *c, const uint8_t *req, size_t len)
{
    char id[CUZK_ENGINE_ID_MAX], msg[768];
    if (!cuzk_req_circuit_id(&cuzk__v1__preload_srs_request__descriptor, req, len, id, msg, sizeof msg)) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    cuzk_log_kv(CUZK_LOG_INFO, CUZK_LOG_SERVER, "PreloadSRS", "circuit_id", id, NULL);
    bool already = false;
    uint64_t ms = 0;
    cuzk_errmsg err = {{0}};
    cuzk_status st = cuzk_engine_preload(c->s->e, id, &already, &ms, &err);
    if (st != CUZK_OK) {
        snprintf(msg, sizeof msg, "preload %s: %s: %s", id, cuzk_status_str(st), err.msg);
        rpc_reply(c, server_code_for(st), msg, NULL, 0);
        return;
    }
    Cuzk__V1__PreloadSrsResponse resp = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
    resp.already_loaded = already;
    resp.load_time_ms = ms;
    rpc_reply_msg(c, &resp.base);
}

static void rpc_evict(rpc_call *c, const uint8_t *req, size_t len)
{
    char id[CUZK_ENGINE_ID_MAX], msg[768];
    if (!cuzk_req_circuit_id(&cuzk__v1__evict_srs_request__descriptor, req, len, id, msg, sizeof msg)) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, msg, NULL, 0);
        return;
    }
    cuzk_log_kv(CUZK_LOG_INFO, CUZK_LOG_SERVER, "EvictSRS", "circuit_id", id, NULL);
    bool was_loaded = false;
    uint64_t freed = 0;
    cuzk_status st = cuzk_engine_evict(c->s->e, id, &was_loaded, &freed);
    if (st != CUZK_OK) {
        snprintf(msg, sizeof msg, "evict %s: %s", id, cuzk_status_str(st));
        rpc_reply(c, server_code_for(st), msg, NULL, 0);
        return;
    }
    Cuzk__V1__EvictSrsResponse resp = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
    resp.was_loaded = was_loaded;
    resp.freed_bytes = freed;
    rpc_reply_msg(c, &resp.base);
}

static const rpc_method server_methods[] = {
    {"/cuzk.v1.ProvingEngine/SubmitProof", rpc_submit, false},
    {"/cuzk.v1.ProvingEngine/AwaitProof", rpc_await, true},
    {"/cuzk.v1.ProvingEngine/Prove", rpc_prove, true},
    {"/cuzk.v1.ProvingEngine/CancelProof", rpc_cancel, false},
    {"/cuzk.v1.ProvingEngine/GetStatus", rpc_status, false},
    {"/cuzk.v1.ProvingEngine/GetMetrics", rpc_metrics, false},
    {"/cuzk.v1.ProvingEngine/PreloadSRS", rpc_preload, true},
    {"/cuzk.v1.ProvingEngine/EvictSRS", rpc_evict, false},
};

/* ---- dispatch ---- */

static void rpc_run(rpc_call *c)
{
    grpc_byte_buffer_reader rd;
    if (!grpc_byte_buffer_reader_init(&rd, c->request)) {
        rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "request payload unreadable", NULL, 0);
        return;
    }
    grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
    grpc_byte_buffer_reader_destroy(&rd);
    c->method->handler(c, GRPC_SLICE_START_PTR(all), GRPC_SLICE_LENGTH(all));
    grpc_slice_unref(all);
}

static void *rpc_worker(void *arg)
{
    rpc_call *c = arg;
    cuzk_server *s = c->s;
    rpc_run(c);
    pthread_mutex_lock(&s->lock);
    s->workers--;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void rpc_dispatch(rpc_call *c)
{
    cuzk_server *s = c->s;
    if (!c->method->blocking) {
        rpc_run(c);
        return;
    }
    pthread_mutex_lock(&s->lock);
    bool room = s->workers < SERVER_MAX_WORKERS;
    if (room) {
        s->workers++;
    }
    pthread_mutex_unlock(&s->lock);
    if (!room) {
        rpc_reply(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "too many waiting calls", NULL, 0);
        return;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, SERVER_WORKER_STACK);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int rc = pthread_create(&t, &attr, rpc_worker, c);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        pthread_mutex_lock(&s->lock);
        s->workers--;
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->lock);
        rpc_reply(c, GRPC_STATUS_RESOURCE_EXHAUSTED, "cannot start a worker thread", NULL, 0);
    }
}

/* Constant-time comparison so that the token cannot be guessed byte by byte from response times. */
static bool server_token_equal(const char *want, grpc_slice got)
{
    size_t n = strlen(want);
    if (GRPC_SLICE_LENGTH(got) != n) {
        return false;
    }
    const uint8_t *g = GRPC_SLICE_START_PTR(got);
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++) {
        diff |= (unsigned)(g[i] ^ (uint8_t)want[i]);
    }
    return diff == 0;
}

static bool server_authorized(rpc_call *c)
{
    cuzk_server *s = c->s;
    if (s->auth_header == NULL) {
        return true;
    }
    char *peer = grpc_call_get_peer(c->call);
    bool local = peer != NULL && strncmp(peer, "unix:", 5) == 0;
    gpr_free(peer);
    if (local) {
        return true;
    }
    for (size_t i = 0; i < c->md.count; i++) {
        if (grpc_slice_str_cmp(c->md.metadata[i].key, "authorization") == 0 &&
            server_token_equal(s->auth_header, c->md.metadata[i].value)) {
            return true;
        }
    }
    return false;
}

/* A new call arrived: find its method, then receive its request. */
static void server_on_new_call(rpc_call *c)
{
    cuzk_server *s = c->s;
    server_request_next(s);

    atomic_fetch_add(&c->refs, 1); /* for the CLOSED tag */
    grpc_op close_op;
    memset(&close_op, 0, sizeof close_op);
    close_op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    close_op.data.recv_close_on_server.cancelled = &c->cancelled;
    if (grpc_call_start_batch(c->call, &close_op, 1, &c->t_closed, NULL) != GRPC_CALL_OK) {
        rpc_unref(c);
    }

    for (size_t i = 0; i < sizeof server_methods / sizeof server_methods[0]; i++) {
        if (grpc_slice_str_cmp(c->details.method, server_methods[i].path) == 0) {
            c->method = &server_methods[i];
            break;
        }
    }
    grpc_op ops[2];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    size_t n = 1;
    bool ok = c->method != NULL && server_authorized(c);
    c->rejected = !ok;
    if (!ok) {
        /* The reply goes out right away, so SENT and CLOSED can come back before this batch's RECV tag: the
         * batch holds its own reference, released when its tag arrives. */
        atomic_fetch_add(&c->refs, 1);
    }
    if (ok) {
        ops[1].op = GRPC_OP_RECV_MESSAGE;
        ops[1].data.recv_message.recv_message = &c->request;
        n = 2;
    }
    if (grpc_call_start_batch(c->call, ops, n, &c->t_recv, NULL) != GRPC_CALL_OK) {
        cuzk_log_msg(CUZK_LOG_ERROR, "grpc_call_start_batch (receive) failed");
        if (!ok) {
            rpc_unref(c);
        }
        rpc_unref(c);
        return;
    }
    if (!ok) {
        if (c->method == NULL) {
            char *m = grpc_slice_to_c_string(c->details.method);
            char msg[300];
            snprintf(msg, sizeof msg, "unknown method %.200s", m);
            gpr_free(m);
            rpc_reply(c, GRPC_STATUS_UNIMPLEMENTED, msg, NULL, 0);
        } else {
            rpc_reply(c, GRPC_STATUS_UNAUTHENTICATED, "missing or wrong bearer token", NULL, 0);
        }
    }
}

static void server_on_event(cuzk_server *s, grpc_event ev)
{
    server_tag *t = ev.tag;
    rpc_call *c = t->call;
    switch (t->kind) {
    case TAG_NEW:
        if (!ev.success) {
            rpc_unref(c); /* the server is shutting down: this request will never get a call */
            return;
        }
        server_on_new_call(c);
        return;
    case TAG_RECV:
        if (c->rejected) {
            rpc_unref(c); /* answered in server_on_new_call; this drops the batch's own reference */
            return;
        }
        if (!ev.success || c->request == NULL) {
            /* Over the size limit, a stream reset or a client that half-closed without a message. */
            rpc_reply(c, GRPC_STATUS_INVALID_ARGUMENT, "no request message received", NULL, 0);
            return;
        }
        rpc_dispatch(c);
        return;
    case TAG_SENT: rpc_unref(c); return;
    case TAG_CLOSED:
        if (c->cancelled) {
            atomic_store(&c->client_gone, true);
        }
        rpc_unref(c);
        return;
    case TAG_SHUTDOWN:
        pthread_mutex_lock(&s->lock);
        s->shutdown_done = true;
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->lock);
        return;
    }
}

static void server_request_next(cuzk_server *s)
{
    if (atomic_load(&s->stopping)) {
        return;
    }
    rpc_call *c = calloc(1, sizeof *c);
    if (c == NULL) {
        cuzk_log_msg(CUZK_LOG_ERROR, "out of memory accepting a call");
        return;
    }
    c->s = s;
    atomic_init(&c->refs, 1);
    atomic_init(&c->client_gone, false);
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    c->t_new = (server_tag){TAG_NEW, c};
    c->t_recv = (server_tag){TAG_RECV, c};
    c->t_sent = (server_tag){TAG_SENT, c};
    c->t_closed = (server_tag){TAG_CLOSED, c};
    grpc_call_error e = grpc_server_request_call(s->gs, &c->call, &c->details, &c->md, s->cq, s->cq, &c->t_new);
    if (e != GRPC_CALL_OK) {
        cuzk_log_msg(CUZK_LOG_ERROR, "grpc_server_request_call failed (%d)", (int)e);
        rpc_unref(c);
    }
}

static void *server_thread(void *arg)
{
    cuzk_server *s = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN) {
            return NULL;
        }
        if (ev.type == GRPC_OP_COMPLETE) {
            server_on_event(s, ev);
        }
    }
}

/* ---- start and stop ---- */

static const char *server_unix_path(const char *addr)
{
    if (strncmp(addr, "unix://", 7) == 0) {
        return addr + 7;
    }
    if (strncmp(addr, "unix:", 5) == 0) {
        return addr + 5;
    }
    return NULL;
}

cuzk_server *cuzk_server_start(cuzk_engine *e, const cuzk_server_opts *o, char *err, size_t errlen)
{
    cuzk_server *s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->e = e;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    atomic_init(&s->stopping, false);
    s->t_shutdown = (server_tag){TAG_SHUTDOWN, NULL};
    if (o->auth_token != NULL) {
        size_t n = strlen(o->auth_token) + 8;
        s->auth_header = malloc(n);
        if (s->auth_header == NULL) {
            free(s);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        snprintf(s->auth_header, n, "Bearer %s", o->auth_token);
    }

    uint64_t limit = o->max_message_bytes ? o->max_message_bytes : (256ull << 20);
    if (limit > INT32_MAX) {
        limit = INT32_MAX;
    }
    /* gRPC checks a message against the receive limit only once the whole message is in, so a limit of 1 MiB still
     * let a 300 MiB message be buffered, and messages sent at once could hold any amount. A memory quota bounds what
     * the transport holds for every connection together: four messages at the limit and its own buffers. When it
     * runs out gRPC cuts streams (RESOURCE_EXHAUSTED) and closes idle connections rather than grow: the message that
     * outgrew it, and possibly others in flight, whose clients retry. */
    size_t quota = (size_t)(SERVER_QUOTA_MESSAGES * limit + SERVER_TRANSPORT_BYTES);
    grpc_resource_quota *rq = grpc_resource_quota_create("cuzk-daemon");
    grpc_resource_quota_resize(rq, quota);
    grpc_arg args[4];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)limit;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)limit;
    /* Two daemons on one port would split the calls silently; make the second one fail to bind instead. */
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = GRPC_ARG_ALLOW_REUSEPORT;
    args[2].value.integer = 0;
    args[3].type = GRPC_ARG_POINTER;
    args[3].key = (char *)GRPC_ARG_RESOURCE_QUOTA;
    args[3].value.pointer.p = rq;
    args[3].value.pointer.vtable = grpc_resource_quota_arg_vtable();
    grpc_channel_args cargs = {4, args};
    s->gs = grpc_server_create(&cargs, NULL);
    grpc_resource_quota_unref(rq); /* the server holds its own reference */
    cuzk_log_msg(CUZK_LOG_DEBUG, "receive limit %llu bytes a message, %zu bytes for the transport in all",
                 (unsigned long long)limit, quota);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->gs, s->cq, NULL);

    /* Every address is claimed and checked before gRPC binds any: gRPC unlinks whatever socket is at a unix path, a
     * live daemon's included, and a server that has bound something cannot simply be destroyed. */
    bool ok = true, added = false;
    for (size_t i = 0; i < o->num_listen && ok; i++) {
        const char *addr = o->listen[i];
        const char *path = server_unix_path(addr);
        if (path == NULL) {
            ok = cuzk_tcp_port_free(addr, err, errlen);
        } else if (s->num_unix_claims == sizeof s->unix_claims / sizeof s->unix_claims[0]) {
            snprintf(err, errlen, "more than %zu unix listeners", s->num_unix_claims);
            ok = false;
        } else if ((ok = cuzk_unix_claim_take(&s->unix_claims[s->num_unix_claims], path, err, errlen))) {
            s->num_unix_claims++;
        }
    }
    for (size_t i = 0; i < o->num_listen && ok; i++) {
        const char *addr = o->listen[i];
        const char *path = server_unix_path(addr);
        grpc_server_credentials *creds;
        if (path == NULL && o->tls_cert_pem != NULL && o->tls_key_pem != NULL) {
            grpc_ssl_pem_key_cert_pair pair = {o->tls_key_pem, o->tls_cert_pem};
            creds = grpc_ssl_server_credentials_create(o->tls_client_ca_pem, &pair, 1, o->tls_client_ca_pem != NULL,
                                                       NULL);
        } else {
            creds = grpc_insecure_server_credentials_create();
        }
        int port = grpc_server_add_http2_port(s->gs, addr, creds);
        grpc_server_credentials_release(creds);
        if (port == 0) {
            snprintf(err, errlen, "cannot listen on %s", addr);
            ok = false;
            break;
        }
        added = true;
        cuzk_log_msg(CUZK_LOG_INFO, "listening on %s%s%s", addr,
                     path == NULL && o->tls_cert_pem != NULL ? " (TLS)" : "",
                     path == NULL && s->auth_header != NULL ? " (bearer token required)" : "");
        if (path == NULL) {
            /* host:0 picks a free port: say which one */
            cuzk_log_msg(CUZK_LOG_INFO, "tcp port %d", port);
        }
    }
    if (!ok) {
        if (added) {
            /* gRPC destroys a server with listeners only after its shutdown, which needs it started */
            grpc_server_start(s->gs);
            grpc_server_shutdown_and_notify(s->gs, s->cq, &s->t_shutdown);
            while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).tag != &s->t_shutdown) {
            }
        }
        grpc_server_destroy(s->gs);
        grpc_completion_queue_shutdown(s->cq);
        while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type !=
               GRPC_QUEUE_SHUTDOWN) {
        }
        grpc_completion_queue_destroy(s->cq);
        for (size_t i = 0; i < s->num_unix_claims; i++) {
            cuzk_unix_claim_bound(&s->unix_claims[i]); /* a socket gRPC bound before a later address failed */
            cuzk_unix_claim_release(&s->unix_claims[i]);
        }
        free(s->auth_header);
        free(s);
        return NULL;
    }
    grpc_server_start(s->gs);
    for (size_t i = 0; i < s->num_unix_claims; i++) {
        cuzk_unix_claim *c = &s->unix_claims[i];
        cuzk_unix_claim_bound(c);
        /* Group access: the socket's mode is the access control of local callers. */
        if (chmod(c->path, 0660) != 0) {
            cuzk_log_msg(CUZK_LOG_WARN, "chmod 0660 %s: %s", c->path, strerror(errno));
        }
    }
    for (int i = 0; i < SERVER_PENDING_REQUESTS; i++) {
        server_request_next(s);
    }
    s->num_threads = o->threads ? o->threads : 2;
    if (s->num_threads > SERVER_MAX_THREADS) {
        s->num_threads = SERVER_MAX_THREADS;
    }
    for (unsigned i = 0; i < s->num_threads; i++) {
        pthread_create(&s->threads[i], NULL, server_thread, s);
    }
    return s;
}

void cuzk_server_stop_intake(cuzk_server *s)
{
    pthread_mutex_lock(&s->lock);
    bool first = !s->intake_stopped;
    s->intake_stopped = true;
    pthread_mutex_unlock(&s->lock);
    if (first) {
        atomic_store(&s->stopping, true);
        grpc_server_shutdown_and_notify(s->gs, s->cq, &s->t_shutdown);
    }
}

/* Waits on the server's condition until pred holds or the deadline passes. */
static bool server_wait(cuzk_server *s, bool (*pred)(cuzk_server *), uint64_t timeout_ms)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += (time_t)(timeout_ms / 1000);
    dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&s->lock);
    int rc = 0;
    while (!pred(s) && rc != ETIMEDOUT) {
        rc = pthread_cond_timedwait(&s->cond, &s->lock, &dl);
    }
    bool r = pred(s);
    pthread_mutex_unlock(&s->lock);
    return r;
}

static bool server_pred_idle(cuzk_server *s) { return s->shutdown_done && s->workers == 0; }

static bool server_pred_no_workers(cuzk_server *s) { return s->workers == 0; }

bool cuzk_server_wait_idle(cuzk_server *s, uint64_t timeout_ms) { return server_wait(s, server_pred_idle, timeout_ms); }

bool cuzk_server_wait_answered(cuzk_server *s, uint64_t timeout_ms)
{
    return server_wait(s, server_pred_no_workers, timeout_ms);
}

void cuzk_server_destroy(cuzk_server *s)
{
    if (s == NULL) {
        return;
    }
    cuzk_server_stop_intake(s);
    if (!server_wait(s, server_pred_idle, 100)) {
        /* Calls still in progress: cancel them; their workers notice at the next await slice. */
        grpc_server_cancel_all_calls(s->gs);
        if (!server_wait(s, server_pred_idle, 10000)) {
            cuzk_log_msg(CUZK_LOG_WARN, "server: calls still in progress after cancelling them");
        }
    }
    /* Worker threads are detached and touch the server until they end: never free it under them. */
    while (!server_wait(s, server_pred_no_workers, 10000)) {
        cuzk_log_msg(CUZK_LOG_WARN, "server: waiting for %u worker threads", s->workers);
    }
    grpc_completion_queue_shutdown(s->cq);
    for (unsigned i = 0; i < s->num_threads; i++) {
        pthread_join(s->threads[i], NULL);
    }
    grpc_server_destroy(s->gs);
    grpc_completion_queue_destroy(s->cq);
    for (size_t i = 0; i < s->num_unix_claims; i++) {
        cuzk_unix_claim_release(&s->unix_claims[i]); /* the socket only if it is still the one this daemon made */
    }
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s->auth_header);
    free(s);
}
