/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench's network commands against a running cuzk-daemon, with Curio's cuzk-bench command lines:
 *   single   one Prove, printed with its timings
 *   batch    -c COUNT proofs from -j CONCURRENCY client threads (closed loop), a line per proof
 *   stress   --rate R proofs/s for --duration S seconds (open loop), mixed sizes and priorities
 *   status, metrics, preload -c ID (or preload ID), evict ID
 * A proof is Curio's (-t porep --c1 FILE, -t snap|wpost|winning --vanilla FILE, with --registered-proof,
 * --randomness, --comm-* ...) or cuzk's (-t synthetic --log2 K, -t generic --circuit ID --witness FILE). batch and
 * stress end with a summary: s/proof, proofs/min, latency p50/p95 per priority, per-stage means and the daemon's
 * peak RSS; every command exits with status 1 when a proof did not complete (saying how many), 2 for a bad command
 * line. The calls go through the cuzk_client library (tools/client). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/base.h"
#include "cuzk/filecoin.h"
#include "cuzk_client.h"

#define KIND_GENERIC 100u
#define KIND_SYNTHETIC 101u

typedef struct {
    const char *addr;
    uint32_t kind, log2, partitions, priority; /* priority 0 = by kind (Filecoin) or mixed (batch/stress) */
    const char *circuit, *witness_path;
    uint64_t timeout_ms;
    long count, concurrency;
    double rate, duration;
    const char *sizes; /* stress: comma-separated log2 sizes to mix */
    long pid;          /* daemon pid for RSS; 0 = ask the unix socket's peer */
    uint64_t seed;     /* synthetic circuits: each seed is its own circuit and key, so one seed measures proving */
    /* Curio's proof fields */
    const char *c1, *vanilla, *request_id, *circuit_id;
    uint64_t registered_proof, sector_num, miner_id, sector_size;
    uint32_t partition;
    const char *randomness, *comm_r_old, *comm_r_new, *comm_d_new; /* hex */
} cmd_opts;

/* What every Prove of the run carries besides its kind and size: read and decoded once. */
typedef struct {
    ProtobufCBinaryData vanilla_proof;
    ProtobufCBinaryData *vanilla_proofs;
    size_t n_vanilla_proofs;
    ProtobufCBinaryData randomness, comm_r_old, comm_r_new, comm_d_new;
    uint64_t sector_size;
} cmd_payload;

static const char *const prio_names[] = {"unspecified", "low", "normal", "high", "critical"};

/* ---- one Prove ---- */

typedef struct {
    int grpc_status;
    int status; /* AwaitProofResponse.Status */
    uint32_t priority;
    double latency_s;
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
    size_t proof_len;
    char job_id[128];
    char error[160];
} cmd_result;

static void cmd_prove(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl, uint32_t log2, uint32_t prio,
                      cmd_result *r)
{
    memset(r, 0, sizeof *r);
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.request_id = (char *)(o->request_id ? o->request_id : "");
    sub.proof_kind = (Cuzk__V1__ProofKind)o->kind;
    sub.priority = (Cuzk__V1__Priority)prio;
    sub.sector_size = pl->sector_size;
    sub.registered_proof = o->registered_proof;
    sub.vanilla_proof = pl->vanilla_proof;
    sub.n_vanilla_proofs = pl->n_vanilla_proofs;
    sub.vanilla_proofs = pl->vanilla_proofs;
    sub.sector_number = o->sector_num;
    sub.miner_id = o->miner_id;
    sub.randomness = pl->randomness;
    sub.partition_index = o->partition;
    sub.comm_r_old = pl->comm_r_old;
    sub.comm_r_new = pl->comm_r_new;
    sub.comm_d_new = pl->comm_d_new;
    /* cuzk's fields only where they mean something: Curio's requests go out as Curio sends them */
    if (o->kind == KIND_SYNTHETIC) {
        sub.synthetic_log2 = log2;
        sub.seed = o->seed;
        sub.partitions = o->partitions;
    }
    if (o->kind == KIND_GENERIC) {
        sub.circuit_id = (char *)(o->circuit ? o->circuit : "");
        sub.witness_path = (char *)(o->witness_path ? o->witness_path : "");
    }
    Cuzk__V1__ProveResponse *resp = NULL;
    char detail[256];
    double t0 = cuzk_now();
    r->priority = prio;
    r->grpc_status = cuzk_client_prove(c, &sub, o->timeout_ms, &resp, detail, sizeof detail);
    r->latency_s = cuzk_now() - t0;
    if (r->grpc_status != GRPC_STATUS_OK) {
        snprintf(r->error, sizeof r->error, "gRPC %d: %.140s", r->grpc_status, detail);
        return;
    }
    Cuzk__V1__AwaitProofResponse *a = resp->result;
    if (a != NULL) {
        r->status = a->status;
        r->queue_wait_ms = a->queue_wait_ms;
        r->srs_load_ms = a->srs_load_ms;
        r->synthesis_ms = a->synthesis_ms;
        r->gpu_compute_ms = a->gpu_compute_ms;
        r->total_ms = a->total_ms;
        r->proof_len = a->proof.len;
        snprintf(r->job_id, sizeof r->job_id, "%s", a->job_id ? a->job_id : "");
        snprintf(r->error, sizeof r->error, "%s", a->error_message ? a->error_message : "");
    }
    protobuf_c_message_free_unpacked(&resp->base, NULL);
}

static const char *cmd_status_name(int status)
{
    static const char *const names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return status >= 0 && status <= 4 ? names[status] : "UNKNOWN";
}

/* ---- the payload: Curio's files and hex fields ---- */

static bool cmd_read_file(const char *path, uint8_t **out, size_t *len)
{
    const uint8_t *map = NULL;
    size_t n = 0;
    cuzk_errmsg err = {{0}};
    if (cuzk_map_file(path, &map, &n, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: %s: %s\n", path, err.msg);
        return false;
    }
    *out = malloc(n ? n : 1);
    if (*out != NULL && n > 0) memcpy(*out, map, n);
    cuzk_unmap_file(map, n);
    if (*out == NULL) {
        fprintf(stderr, "cuzk-bench: %s: out of memory (%zu bytes)\n", path, n);
        return false;
    }
    *len = n;
    return true;
}

static int cmd_b64_value(int ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Standard base64 with padding (Go's json.Marshal of []byte): false when malformed. */
static bool cmd_b64_decode(const char *s, ProtobufCBinaryData *out)
{
    size_t n = strlen(s);
    if (n % 4 != 0) return false;
    out->data = malloc(n / 4 * 3 + 1);
    if (out->data == NULL) return false;
    size_t len = 0;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        for (int k = 0; k < 4; k++) {
            v[k] = s[i + k] == '=' && i + 4 == n && k >= 2 ? 0 : cmd_b64_value((unsigned char)s[i + k]);
            if (v[k] < 0) return false;
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        int keep = s[i + 2] == '=' ? 1 : s[i + 3] == '=' ? 2 : 3;
        if (s[i + 2] == '=' && s[i + 3] != '=') return false;
        for (int k = 0; k < keep; k++) out->data[len++] = (uint8_t)(w >> (16 - 8 * k));
    }
    out->len = len;
    return true;
}

/* --vanilla: a JSON array of base64 strings (what Curio stores and its gen-vanilla writes), else the whole file as
 * one proof. */
static bool cmd_load_vanilla(const char *path, cmd_payload *pl)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    if (!cmd_read_file(path, &buf, &len)) return false;
    json_t *doc = json_loadb((const char *)buf, len, 0, NULL);
    if (doc == NULL || !json_is_array(doc)) {
        json_decref(doc);
        pl->vanilla_proofs = calloc(1, sizeof *pl->vanilla_proofs);
        if (pl->vanilla_proofs == NULL) return free(buf), false;
        pl->vanilla_proofs[0].data = buf;
        pl->vanilla_proofs[0].len = len;
        pl->n_vanilla_proofs = 1;
        return true;
    }
    free(buf);
    size_t n = json_array_size(doc);
    pl->vanilla_proofs = calloc(n ? n : 1, sizeof *pl->vanilla_proofs);
    bool ok = pl->vanilla_proofs != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        const char *s = json_string_value(json_array_get(doc, i));
        ok = s != NULL && cmd_b64_decode(s, &pl->vanilla_proofs[i]);
        pl->n_vanilla_proofs = i + 1;
        if (!ok) fprintf(stderr, "cuzk-bench: %s: entry %zu is not a base64 string\n", path, i);
    }
    json_decref(doc);
    return ok;
}

/* A hex field (--randomness, --comm-*): any even number of digits, "0x" allowed. */
static bool cmd_hex(const char *flag, const char *s, ProtobufCBinaryData *out)
{
    if (strncmp(s, "0x", 2) == 0) s += 2;
    size_t n = strlen(s);
    out->data = malloc(n / 2 + 1);
    if (out->data == NULL) return false;
    out->len = n / 2;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0 || n % 2 != 0) {
            fprintf(stderr, "cuzk-bench: %s wants hex digits in pairs, got '%s'\n", flag, s);
            return false;
        }
        if (i % 2 == 0) out->data[i / 2] = (uint8_t)(d << 4);
        else out->data[i / 2] |= (uint8_t)d;
    }
    return true;
}

static void cmd_payload_free(cmd_payload *pl)
{
    free(pl->vanilla_proof.data);
    for (size_t i = 0; i < pl->n_vanilla_proofs; i++) free(pl->vanilla_proofs[i].data);
    free(pl->vanilla_proofs);
    free(pl->randomness.data);
    free(pl->comm_r_old.data);
    free(pl->comm_r_new.data);
    free(pl->comm_d_new.data);
    memset(pl, 0, sizeof *pl);
}

/* Reads and checks what the proof kind needs; false (a message said) on a bad or missing input. */
static bool cmd_payload_load(const cmd_opts *o, cmd_payload *pl)
{
    memset(pl, 0, sizeof *pl);
    bool filecoin = o->kind >= 1 && o->kind <= 4;
    if (o->kind == 1) {
        if (o->c1 == NULL) {
            fprintf(stderr, "cuzk-bench: -t porep needs --c1 FILE (commit-phase-1 output JSON)\n");
            return false;
        }
        uint8_t *buf;
        size_t len;
        if (!cmd_read_file(o->c1, &buf, &len)) return false;
        pl->vanilla_proof.data = buf;
        pl->vanilla_proof.len = len;
    } else if (filecoin) {
        if (o->vanilla == NULL) {
            fprintf(stderr, "cuzk-bench: -t %s needs --vanilla FILE (a JSON array of base64 vanilla proofs)\n",
                    o->kind == 2   ? "snap"
                    : o->kind == 3 ? "wpost"
                                   : "winning");
            return false;
        }
        if (!cmd_load_vanilla(o->vanilla, pl)) return false;
    }
    if (filecoin) {
        /* zero randomness by default, as Curio's cuzk-bench sends */
        if (o->randomness != NULL) {
            if (!cmd_hex("--randomness", o->randomness, &pl->randomness)) return false;
        } else {
            pl->randomness.data = calloc(1, 32);
            if (pl->randomness.data == NULL) return false;
            pl->randomness.len = 32;
        }
        if (o->comm_r_old != NULL && !cmd_hex("--comm-r-old", o->comm_r_old, &pl->comm_r_old)) return false;
        if (o->comm_r_new != NULL && !cmd_hex("--comm-r-new", o->comm_r_new, &pl->comm_r_new)) return false;
        if (o->comm_d_new != NULL && !cmd_hex("--comm-d-new", o->comm_d_new, &pl->comm_d_new)) return false;
        /* the registered proof's sector size (Curio's cuzk-bench always says 32 GiB); 0 when unknown here */
        pl->sector_size = o->sector_size;
        if (pl->sector_size == 0) {
            cuzk_fil_class cls = o->kind == 1   ? CUZK_FIL_CLASS_SEAL
                                 : o->kind == 2 ? CUZK_FIL_CLASS_UPDATE
                                                : CUZK_FIL_CLASS_POST;
            const cuzk_fil_proof *p = cuzk_fil_proof_find(cls, o->registered_proof);
            if (p != NULL) pl->sector_size = p->sector_size;
        }
    }
    return true;
}

/* ---- peak RSS of the daemon ---- */

/* The pid of the process listening on a unix socket, from the kernel's peer credentials. */
static long cmd_peer_pid(const char *addr)
{
    char target[1024];
    int tls;
    if (cuzk_client_target(addr, target, sizeof target, &tls) != 0) return 0;
    const char *path = strncmp(target, "unix://", 7) == 0 ? target + 7
                       : strncmp(target, "unix:", 5) == 0 ? target + 5
                                                          : NULL;
    if (path == NULL || strlen(path) >= sizeof((struct sockaddr_un *)0)->sun_path) {
        return 0;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) {
        return 0;
    }
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, strlen(path));
    long pid = 0;
    struct ucred cred;
    socklen_t cl = sizeof cred;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) == 0) {
        pid = cred.pid;
    }
    close(fd);
    return pid;
}

/* VmHWM (peak resident set) of a local process in KiB; 0 when unreadable. */
static unsigned long cmd_peak_rss_kib(long pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    unsigned long kib = 0;
    if (f == NULL) {
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kib = strtoul(line + 6, NULL, 10);
        }
    }
    fclose(f);
    return kib;
}

/* ---- progress and summary ---- */

static void cmd_progress(long done, long total, double t0)
{
    static const int width = 30;
    int fill = total > 0 ? (int)(width * done / total) : 0;
    char bar[64];
    for (int i = 0; i < width; i++) {
        bar[i] = i < fill ? '#' : '.';
    }
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %ld/%ld  %.1fs", bar, done, total, cuzk_now() - t0);
    fflush(stderr);
}

static int cmd_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cmd_percentile(double *v, size_t n, double p)
{
    if (n == 0) {
        return 0;
    }
    size_t i = (size_t)ceil(p * (double)n);
    return v[i == 0 ? 0 : i - 1];
}

static void cmd_summary(const cmd_opts *o, cmd_result *res, size_t n, double wall)
{
    size_t ok = 0, failed = 0, cancelled = 0, errors = 0;
    double stage[5] = {0};
    for (size_t i = 0; i < n; i++) {
        if (res[i].grpc_status != GRPC_STATUS_OK) {
            errors++;
        } else if (res[i].status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
            ok++;
            stage[0] += (double)res[i].queue_wait_ms;
            stage[1] += (double)res[i].srs_load_ms;
            stage[2] += (double)res[i].synthesis_ms;
            stage[3] += (double)res[i].gpu_compute_ms;
            stage[4] += (double)res[i].total_ms;
        } else if (res[i].status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED) {
            cancelled++;
        } else {
            failed++;
        }
    }
    printf("proofs: %zu sent, %zu completed, %zu failed, %zu cancelled, %zu gRPC errors in %.2f s\n", n, ok, failed,
           cancelled, errors, wall);
    for (size_t i = 0, shown = 0; i < n && shown < 3; i++) {
        if (res[i].grpc_status != GRPC_STATUS_OK ||
            res[i].status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
            printf("  e.g. %s\n", res[i].error);
            shown++;
        }
    }
    if (ok > 0) {
        printf("throughput: %.4f s/proof, %.1f proofs/min\n", wall / (double)ok, 60.0 * (double)ok / wall);
        printf("stage means (ms): queue_wait %.1f, srs_load %.1f, synthesis %.1f, gpu_compute %.1f, total %.1f\n",
               stage[0] / (double)ok, stage[1] / (double)ok, stage[2] / (double)ok, stage[3] / (double)ok,
               stage[4] / (double)ok);
    }
    double *lat = malloc((n + 1) * sizeof *lat);
    for (uint32_t p = 0; p <= 4 && lat != NULL; p++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (res[i].priority == p && res[i].grpc_status == GRPC_STATUS_OK &&
                res[i].status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
                lat[m++] = res[i].latency_s * 1000.0;
            }
        }
        if (m > 0) {
            qsort(lat, m, sizeof *lat, cmd_cmp_double);
            printf("latency %-11s n=%-5zu p50 %.1f ms  p95 %.1f ms\n", prio_names[p], m, cmd_percentile(lat, m, 0.5),
                   cmd_percentile(lat, m, 0.95));
        }
    }
    free(lat);
    long pid = o->pid ? o->pid : cmd_peer_pid(o->addr);
    unsigned long kib = pid ? cmd_peak_rss_kib(pid) : 0;
    if (kib > 0) {
        printf("daemon peak RSS: %.1f MiB (VmHWM of pid %ld from /proc, %s)\n", (double)kib / 1024.0, pid,
               o->pid ? "--pid" : "found through the unix socket's peer credentials");
    } else {
        printf("daemon peak RSS: unknown (GetStatus carries no RSS; use a local unix socket or --pid)\n");
    }
}

/* The proofs that did not complete (a gRPC error, or FAILED, CANCELLED or TIMEOUT), said on stderr when any. */
static size_t cmd_failures(const char *cmd, const cmd_result *res, size_t n)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += res[i].grpc_status != GRPC_STATUS_OK ||
                  res[i].status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    if (failed > 0) fprintf(stderr, "cuzk-bench %s: %zu of %zu proofs failed\n", cmd, failed, n);
    return failed;
}

/* ---- batch: closed loop ---- */

typedef struct {
    const cmd_opts *o;
    const cmd_payload *pl;
    cuzk_client *c;
    cmd_result *res;
    atomic_long next, done;
    double t0;
    bool tty;
    pthread_mutex_t print_lock;
} cmd_batch;

/* Filecoin proofs keep their kind's priority unless one is given; cuzk's mix the four */
static uint32_t cmd_mixed_prio(const cmd_opts *o, uint64_t i)
{
    if (o->priority != 0 || (o->kind >= 1 && o->kind <= 4)) return o->priority;
    return (uint32_t)(1 + i % 4);
}

static void *cmd_batch_thread(void *arg)
{
    cmd_batch *b = arg;
    for (;;) {
        long i = atomic_fetch_add(&b->next, 1);
        if (i >= b->o->count) {
            return NULL;
        }
        cmd_result *r = &b->res[i];
        cmd_prove(b->c, b->o, b->pl, b->o->log2, cmd_mixed_prio(b->o, (uint64_t)i), r);
        long d = atomic_fetch_add(&b->done, 1) + 1;
        pthread_mutex_lock(&b->print_lock);
        /* a line per proof, as Curio's cuzk-bench prints them; the bar below it on a terminal */
        if (b->tty) fputs("\r\033[K", stderr);
        printf("  [%ld/%ld] %s - %.1fs (prove=%llu ms, queue=%llu ms)%s%s\n", d, b->o->count,
               r->grpc_status == GRPC_STATUS_OK ? cmd_status_name(r->status) : "ERROR", r->latency_s,
               (unsigned long long)r->gpu_compute_ms, (unsigned long long)r->queue_wait_ms, r->error[0] ? ": " : "",
               r->error);
        fflush(stdout);
        if (b->tty) cmd_progress(d, b->o->count, b->t0);
        pthread_mutex_unlock(&b->print_lock);
    }
}

static int cmd_batch_run(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl)
{
    cmd_batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.pl = pl;
    b.c = c;
    b.res = calloc((size_t)o->count, sizeof *b.res);
    b.tty = isatty(STDERR_FILENO);
    pthread_mutex_init(&b.print_lock, NULL);
    pthread_t *th = calloc((size_t)o->concurrency, sizeof *th);
    if (b.res == NULL || th == NULL) {
        fprintf(stderr, "cuzk-bench: out of memory\n");
        return 1;
    }
    b.t0 = cuzk_now();
    for (long i = 0; i < o->concurrency; i++) {
        pthread_create(&th[i], NULL, cmd_batch_thread, &b);
    }
    for (long i = 0; i < o->concurrency; i++) {
        pthread_join(th[i], NULL);
    }
    double wall = cuzk_now() - b.t0;
    if (b.tty) {
        fputc('\n', stderr);
    }
    cmd_summary(o, b.res, (size_t)o->count, wall);
    size_t failed = cmd_failures("batch", b.res, (size_t)o->count);
    free(th);
    free(b.res);
    return failed == 0 ? 0 : 1;
}

/* ---- stress: open loop at a fixed rate ---- */

typedef struct {
    cmd_batch *b;
    long index;
    uint32_t log2;
} cmd_shot;

static void *cmd_shot_thread(void *arg)
{
    cmd_shot *s = arg;
    cmd_batch *b = s->b;
    cmd_prove(b->c, b->o, b->pl, s->log2, cmd_mixed_prio(b->o, (uint64_t)s->index), &b->res[s->index]);
    atomic_fetch_add(&b->done, 1);
    free(s);
    return NULL;
}

static int cmd_stress_run(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl)
{
    uint32_t sizes[16];
    size_t nsizes = 0;
    for (const char *p = o->sizes; *p && nsizes < 16;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v < 1 || v > 30) {
            fprintf(stderr, "cuzk-bench: --sizes wants log2 sizes like 8,10\n");
            return 2;
        }
        sizes[nsizes++] = (uint32_t)v;
        p = *end == ',' ? end + 1 : end;
    }
    long total = (long)(o->rate * o->duration);
    if (total < 1 || total > 1000000 || nsizes == 0) {
        fprintf(stderr, "cuzk-bench: --rate x --duration must give 1 to 1000000 proofs\n");
        return 2;
    }
    cmd_batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.pl = pl;
    b.c = c;
    b.res = calloc((size_t)total, sizeof *b.res);
    pthread_t *th = calloc((size_t)total, sizeof *th);
    if (b.res == NULL || th == NULL) {
        fprintf(stderr, "cuzk-bench: out of memory\n");
        return 1;
    }
    b.tty = isatty(STDERR_FILENO);
    b.t0 = cuzk_now();
    long started = 0;
    for (long i = 0; i < total; i++) {
        /* Send proof i at t0 + i / rate, whatever the daemon's speed: that is the load being offered. */
        double due = b.t0 + (double)i / o->rate, now = cuzk_now();
        if (due > now) {
            struct timespec ts = {(time_t)(due - now), (long)(fmod(due - now, 1.0) * 1e9)};
            nanosleep(&ts, NULL);
        }
        cmd_shot *s = malloc(sizeof *s);
        if (s == NULL) {
            break;
        }
        s->b = &b;
        s->index = i;
        /* sizes change every 4 proofs and priorities every proof, so every size meets every priority */
        s->log2 = sizes[(size_t)(i / 4) % nsizes];
        if (pthread_create(&th[i], NULL, cmd_shot_thread, s) != 0) {
            free(s);
            break;
        }
        started++;
        if (b.tty) {
            cmd_progress(atomic_load(&b.done), total, b.t0);
        }
    }
    for (long i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        if (b.tty) {
            cmd_progress(atomic_load(&b.done), total, b.t0);
        }
    }
    double wall = cuzk_now() - b.t0;
    if (b.tty) {
        fputc('\n', stderr);
    }
    printf("offered: %.2f proofs/s for %.1f s, sizes 2^{%s}\n", o->rate, o->duration, o->sizes);
    cmd_summary(o, b.res, (size_t)started, wall);
    size_t failed = cmd_failures("stress", b.res, (size_t)started);
    if (started < total)
        fprintf(stderr, "cuzk-bench stress: %ld of %ld proofs could not be sent\n", total - started, total);
    free(th);
    free(b.res);
    return started == total && failed == 0 ? 0 : 1;
}

/* ---- single, with a ticker on a terminal while it waits ---- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    bool done;
    double t0;
} cmd_ticker;

static void *cmd_ticker_main(void *arg)
{
    cmd_ticker *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->done) {
        struct timespec dl;
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_sec += 1;
        pthread_cond_timedwait(&t->cv, &t->lock, &dl);
        if (!t->done) fprintf(stderr, "\rwaiting for the proof: %.0f s", cuzk_now() - t->t0);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static int cmd_single(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl)
{
    cmd_ticker t = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, cuzk_now()};
    pthread_t th;
    bool tick = isatty(STDERR_FILENO) && pthread_create(&th, NULL, cmd_ticker_main, &t) == 0;
    cmd_result r;
    cmd_prove(c, o, pl, o->log2, o->priority, &r);
    if (tick) {
        pthread_mutex_lock(&t.lock);
        t.done = true;
        pthread_cond_signal(&t.cv);
        pthread_mutex_unlock(&t.lock);
        pthread_join(th, NULL);
        fputs("\r\033[K", stderr);
    }
    if (r.grpc_status != GRPC_STATUS_OK) {
        fprintf(stderr, "cuzk-bench single: %s\n", r.error);
        return 1;
    }
    printf("{\"status\": \"%s\", \"job_id\": \"", cmd_status_name(r.status));
    for (const char *p = r.job_id; *p; p++) printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
    printf("\", \"proof_bytes\": %zu, \"latency_ms\": %.1f, \"queue_wait_ms\": %llu, \"srs_load_ms\": %llu, "
           "\"synthesis_ms\": %llu, \"gpu_compute_ms\": %llu, \"total_ms\": %llu, \"error\": \"",
           r.proof_len, r.latency_s * 1000.0, (unsigned long long)r.queue_wait_ms, (unsigned long long)r.srs_load_ms,
           (unsigned long long)r.synthesis_ms, (unsigned long long)r.gpu_compute_ms, (unsigned long long)r.total_ms);
    for (const char *p = r.error; *p; p++) printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
    printf("\"}\n");
    if (r.status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
        fprintf(stderr, "cuzk-bench single: the proof did not complete: %s%s%s\n", cmd_status_name(r.status),
                r.error[0] ? ": " : "", r.error);
    return r.status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED ? 0 : 1;
}

/* ---- status, metrics, preload, evict ---- */

static int cmd_rpc_failed(const char *cmd, grpc_status_code st, const char *detail)
{
    fprintf(stderr, "cuzk-bench %s: gRPC status %d: %s\n", cmd, (int)st, detail);
    return 1;
}

static int cmd_status(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl)
{
    (void)pl;
    char detail[256];
    Cuzk__V1__GetStatusResponse *r = NULL;
    grpc_status_code st = cuzk_client_status(c, o->timeout_ms, &r, detail, sizeof detail);
    if (st != GRPC_STATUS_OK) return cmd_rpc_failed("status", st, detail);
    /* Curio's cuzk-bench layout */
    printf("=== cuzk daemon status ===\n");
    printf("uptime:           %llus\n", (unsigned long long)r->uptime_seconds);
    printf("proofs completed: %llu\n", (unsigned long long)r->total_proofs_completed);
    printf("proofs failed:    %llu\n", (unsigned long long)r->total_proofs_failed);
    printf("pinned memory:    %llu / %llu bytes\n", (unsigned long long)r->pinned_memory_bytes,
           (unsigned long long)r->pinned_memory_limit_bytes);
    if (r->n_gpus > 0) printf("\nGPUs:\n");
    for (size_t i = 0; i < r->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *g = r->gpus[i];
        printf("  [%u] %s - %llu MiB / %llu MiB VRAM - ", g->ordinal, g->name,
               (unsigned long long)(g->vram_free_bytes >> 20), (unsigned long long)(g->vram_total_bytes >> 20));
        if (g->current_job_id[0] == '\0') printf("idle\n");
        else printf("proving %s (%.8s)\n", g->current_proof_kind, g->current_job_id);
    }
    if (r->n_loaded_srs > 0) printf("\nLoaded SRS:\n");
    for (size_t i = 0; i < r->n_loaded_srs; i++)
        printf("  %s (tier=%d, size=%llu bytes, refs=%u)\n", r->loaded_srs[i]->circuit_id, (int)r->loaded_srs[i]->tier,
               (unsigned long long)r->loaded_srs[i]->size_bytes, r->loaded_srs[i]->ref_count);
    if (r->n_queues > 0) printf("\nQueues:\n");
    for (size_t i = 0; i < r->n_queues; i++)
        printf("  %s: pending=%u, in_progress=%u\n", r->queues[i]->proof_kind, r->queues[i]->pending,
               r->queues[i]->in_progress);
    protobuf_c_message_free_unpacked(&r->base, NULL);
    return 0;
}

static int cmd_metrics(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl)
{
    (void)pl;
    char detail[256];
    ProtobufCMessage *resp = NULL;
    Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
    grpc_status_code st = cuzk_client_call(c, "GetMetrics", &req.base, &cuzk__v1__get_metrics_response__descriptor,
                                           &resp, o->timeout_ms, detail, sizeof detail);
    if (st != GRPC_STATUS_OK) return cmd_rpc_failed("metrics", st, detail);
    fputs(((Cuzk__V1__GetMetricsResponse *)resp)->prometheus_text, stdout);
    protobuf_c_message_free_unpacked(resp, NULL);
    return 0;
}

static int cmd_preload(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl)
{
    (void)pl;
    char detail[256];
    ProtobufCMessage *resp = NULL;
    Cuzk__V1__PreloadSrsRequest req = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    req.circuit_id = (char *)o->circuit_id;
    grpc_status_code st = cuzk_client_call(c, "PreloadSRS", &req.base, &cuzk__v1__preload_srs_response__descriptor,
                                           &resp, o->timeout_ms, detail, sizeof detail);
    if (st != GRPC_STATUS_OK) return cmd_rpc_failed("preload", st, detail);
    Cuzk__V1__PreloadSrsResponse *r = (Cuzk__V1__PreloadSrsResponse *)resp;
    if (r->already_loaded) printf("%s already loaded\n", o->circuit_id);
    else printf("%s loaded in %llu ms\n", o->circuit_id, (unsigned long long)r->load_time_ms);
    protobuf_c_message_free_unpacked(resp, NULL);
    return 0;
}

static int cmd_evict(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl)
{
    (void)pl;
    char detail[256];
    ProtobufCMessage *resp = NULL;
    Cuzk__V1__EvictSrsRequest req = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    req.circuit_id = (char *)o->circuit_id;
    grpc_status_code st = cuzk_client_call(c, "EvictSRS", &req.base, &cuzk__v1__evict_srs_response__descriptor, &resp,
                                           o->timeout_ms, detail, sizeof detail);
    if (st != GRPC_STATUS_OK) return cmd_rpc_failed("evict", st, detail);
    Cuzk__V1__EvictSrsResponse *r = (Cuzk__V1__EvictSrsResponse *)resp;
    printf("%s: %s, %llu bytes freed\n", o->circuit_id, r->was_loaded ? "evicted" : "was not loaded",
           (unsigned long long)r->freed_bytes);
    protobuf_c_message_free_unpacked(resp, NULL);
    return 0;
}

/* ---- command line ---- */

typedef int (*cmd_fn)(cuzk_client *c, const cmd_opts *o, const cmd_payload *pl);

static const struct {
    const char *name;
    cmd_fn run;
    bool proofs; /* takes the proof options */
    bool id;     /* needs a circuit id (-c ID or the first word) */
} cmd_table[] = {
    {"single", cmd_single, true, false},     {"batch", cmd_batch_run, true, false},
    {"stress", cmd_stress_run, true, false}, {"status", cmd_status, false, false},
    {"metrics", cmd_metrics, false, false},  {"preload", cmd_preload, false, true},
    {"evict", cmd_evict, false, true},
};

static void cmd_usage(FILE *f)
{
    fprintf(f,
            "network commands (against cuzk-daemon), in Curio's cuzk-bench forms:\n"
            "  cuzk-bench [-a ADDR] single -t porep --c1 FILE [--registered-proof N] [--sector-num N] [--miner-id N]\n"
            "  cuzk-bench [-a ADDR] single -t snap|wpost|winning --vanilla FILE [--registered-proof N]\n"
            "                              [--randomness HEX] [--partition N]\n"
            "                              [--comm-r-old HEX --comm-r-new HEX --comm-d-new HEX]\n"
            "  cuzk-bench [-a ADDR] batch  -t TYPE ... [-c COUNT] [-j CONCURRENCY]\n"
            "  cuzk-bench [-a ADDR] single|batch [-t synthetic] [--log2 K] [--partitions P] [--seed S]\n"
            "  cuzk-bench [-a ADDR] single|batch -t generic --circuit ID --witness FILE\n"
            "  cuzk-bench [-a ADDR] stress --rate PROOFS_PER_S --duration S [--sizes 8,10] [--priority P] ...\n"
            "  cuzk-bench [-a ADDR] status | metrics | preload -c ID | evict ID\n"
            "  -a, --addr ADDR        the daemon, before or after the command: http://host:port (default\n"
            "                         " CUZK_CLIENT_DEFAULT_ADDR ", Curio's), host:port, unix:///path (the daemon's\n"
            "                         default " CUZK_CLIENT_DAEMON_ADDR ") or https://host:port\n"
            "  -t, --type, --kind T   porep (porep-c2, seal-commit), snap (snap-deals, update), wpost (window-post),\n"
            "                         winning (winning-post), synthetic (default) or generic\n"
            "  --c1 FILE              PoRep: the commit-phase-1 output (Curio's JSON envelope or the bare one)\n"
            "  --vanilla FILE         PoSt, SnapDeals: a JSON array of base64 vanilla proofs (else the file is one)\n"
            "  --registered-proof N   the abi registered proof number (default 0)\n"
            "  --sector-num N, --miner-id N, --partition N\n"
            "                         the request's sector_number (default 1), miner_id (default 1000) and\n"
            "                         partition_index\n"
            "  --randomness HEX       PoSt randomness (default 32 zero bytes)\n"
            "  --comm-r-old HEX, --comm-r-new HEX, --comm-d-new HEX\n"
            "                         SnapDeals commitments\n"
            "  --sector-size BYTES    default: the registered proof's (Curio's cuzk-bench always says 32 GiB)\n"
            "  --request-id ID        the job's id (a second request with it attaches, or retries a failed one)\n"
            "  -c, --count N          batch: proofs (default 3); -j, --concurrency N: at once (default 1)\n"
            "  -c, --circuit-id ID    preload: the SRS id (porep-32g, wpost-32g, winning-32g, snap-32g, ...), a\n"
            "                         registered circuit or synthetic-<log2>-<seed>\n"
            "  --priority P           low, normal, high, critical; by kind for Filecoin proofs, else batch and\n"
            "                         stress mix all four\n"
            "  --timeout MS           per-call deadline (default none)\n"
            "  --seed S               synthetic circuit seed (default 1; each seed is another circuit and key)\n"
            "  --pid PID              daemon pid for the peak RSS line (default: the unix socket's peer)\n"
            "Exit status: 0 when every proof completed, 1 when one did not or a call failed, 2 for a bad command\n"
            "line.\n");
}

static bool cmd_parse_prio(const char *s, uint32_t *out)
{
    for (uint32_t i = 1; i <= 4; i++) {
        if (strcasecmp(s, prio_names[i]) == 0) {
            *out = i;
            return true;
        }
    }
    return false;
}

/* Curio's names of its proof types (it lowercases them), and cuzk's two */
static bool cmd_parse_kind(const char *s, uint32_t *out)
{
    static const struct {
        const char *n;
        uint32_t v;
    } kinds[] = {
        {"porep", 1},
        {"porep-c2", 1},
        {"seal-commit", 1},
        {"snap", 2},
        {"snap-deals", 2},
        {"update", 2},
        {"snap-update", 2},
        {"wpost", 3},
        {"window-post", 3},
        {"windowpost", 3},
        {"winning", 4},
        {"winning-post", 4},
        {"winningpost", 4},
        {"generic", KIND_GENERIC},
        {"synthetic", KIND_SYNTHETIC},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcasecmp(s, kinds[i].n) == 0) {
            *out = kinds[i].v;
            return true;
        }
    }
    return false;
}

static bool cmd_u64(const char *flag, const char *v, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || x > max) {
        fprintf(stderr, "cuzk-bench: %s needs a whole number up to %llu, got '%s'\n", flag, (unsigned long long)max, v);
        return false;
    }
    *out = x;
    return true;
}

static bool cmd_double(const char *flag, const char *v, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end != '\0' || !(x >= 0)) {
        fprintf(stderr, "cuzk-bench: %s needs a number, got '%s'\n", flag, v);
        return false;
    }
    *out = x;
    return true;
}

/* The options of the network commands: a value into cmd_opts at `off`, as `type`. */
typedef enum { OPT_STR, OPT_U64, OPT_U32, OPT_LONG, OPT_DOUBLE, OPT_KIND, OPT_PRIO } cmd_opt_type;

static const struct {
    const char *name, *alias;
    cmd_opt_type type;
    size_t off;
    uint64_t max;
} opt_table[] = {
    {"--addr", "-a", OPT_STR, offsetof(cmd_opts, addr), 0},
    {"--type", "-t", OPT_KIND, offsetof(cmd_opts, kind), 0},
    {"--kind", NULL, OPT_KIND, offsetof(cmd_opts, kind), 0},
    {"--c1", NULL, OPT_STR, offsetof(cmd_opts, c1), 0},
    {"--vanilla", NULL, OPT_STR, offsetof(cmd_opts, vanilla), 0},
    {"--registered-proof", NULL, OPT_U64, offsetof(cmd_opts, registered_proof), UINT64_MAX},
    {"--sector-num", "--sector-number", OPT_U64, offsetof(cmd_opts, sector_num), UINT64_MAX},
    {"--miner-id", NULL, OPT_U64, offsetof(cmd_opts, miner_id), UINT64_MAX},
    {"--partition", NULL, OPT_U32, offsetof(cmd_opts, partition), UINT32_MAX},
    {"--randomness", NULL, OPT_STR, offsetof(cmd_opts, randomness), 0},
    {"--comm-r-old", NULL, OPT_STR, offsetof(cmd_opts, comm_r_old), 0},
    {"--comm-r-new", NULL, OPT_STR, offsetof(cmd_opts, comm_r_new), 0},
    {"--comm-d-new", NULL, OPT_STR, offsetof(cmd_opts, comm_d_new), 0},
    {"--sector-size", NULL, OPT_U64, offsetof(cmd_opts, sector_size), UINT64_MAX},
    {"--request-id", NULL, OPT_STR, offsetof(cmd_opts, request_id), 0},
    {"--circuit-id", NULL, OPT_STR, offsetof(cmd_opts, circuit_id), 0},
    {"--log2", NULL, OPT_U32, offsetof(cmd_opts, log2), 64},
    {"--partitions", NULL, OPT_U32, offsetof(cmd_opts, partitions), 1u << 20},
    {"--priority", NULL, OPT_PRIO, offsetof(cmd_opts, priority), 0},
    {"--circuit", NULL, OPT_STR, offsetof(cmd_opts, circuit), 0},
    {"--witness", NULL, OPT_STR, offsetof(cmd_opts, witness_path), 0},
    {"--timeout", NULL, OPT_U64, offsetof(cmd_opts, timeout_ms), UINT64_MAX},
    {"--count", NULL, OPT_LONG, offsetof(cmd_opts, count), 1000000},
    {"--concurrency", "-j", OPT_LONG, offsetof(cmd_opts, concurrency), 1024},
    {"--rate", NULL, OPT_DOUBLE, offsetof(cmd_opts, rate), 0},
    {"--duration", NULL, OPT_DOUBLE, offsetof(cmd_opts, duration), 0},
    {"--sizes", NULL, OPT_STR, offsetof(cmd_opts, sizes), 0},
    {"--seed", NULL, OPT_U64, offsetof(cmd_opts, seed), UINT64_MAX},
    {"--pid", NULL, OPT_LONG, offsetof(cmd_opts, pid), 1u << 30},
};

/* One option and its value into o; false (a message said) when the value is bad. */
static bool cmd_set(cmd_opts *o, size_t k, const char *flag, const char *v)
{
    char *base = (char *)o;
    uint64_t x;
    switch (opt_table[k].type) {
    case OPT_STR: *(const char **)(base + opt_table[k].off) = v; return true;
    case OPT_U64:
        if (!cmd_u64(flag, v, opt_table[k].max, &x)) return false;
        *(uint64_t *)(base + opt_table[k].off) = x;
        return true;
    case OPT_U32:
        if (!cmd_u64(flag, v, opt_table[k].max, &x)) return false;
        *(uint32_t *)(base + opt_table[k].off) = (uint32_t)x;
        return true;
    case OPT_LONG:
        if (!cmd_u64(flag, v, opt_table[k].max, &x)) return false;
        *(long *)(base + opt_table[k].off) = (long)x;
        return true;
    case OPT_DOUBLE: return cmd_double(flag, v, (double *)(base + opt_table[k].off));
    case OPT_KIND:
        if (cmd_parse_kind(v, (uint32_t *)(base + opt_table[k].off))) return true;
        fprintf(stderr, "cuzk-bench: unknown proof type '%s' (porep, snap, wpost, winning, synthetic, generic)\n", v);
        return false;
    case OPT_PRIO:
        if (cmd_parse_prio(v, (uint32_t *)(base + opt_table[k].off))) return true;
        fprintf(stderr, "cuzk-bench: --priority low|normal|high|critical, got '%s'\n", v);
        return false;
    }
    return false;
}

bool bench_net_is_command(const char *name)
{
    for (size_t i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++)
        if (strcmp(name, cmd_table[i].name) == 0) return true;
    return false;
}

int bench_net_main(int argc, char **argv, const char *addr)
{
    const char *cmd = argv[0];
    size_t ci = 0;
    while (strcmp(cmd_table[ci].name, cmd) != 0) ci++;
    cmd_opts o;
    memset(&o, 0, sizeof o);
    o.addr = addr != NULL ? addr : CUZK_CLIENT_DEFAULT_ADDR;
    o.kind = KIND_SYNTHETIC;
    o.log2 = 8;
    o.partitions = 1;
    o.count = strcmp(cmd, "batch") == 0 ? 3 : 1; /* Curio's default count */
    o.concurrency = 1;
    o.sizes = "8";
    o.seed = 1;
    o.sector_num = 1;
    o.miner_id = 1000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            cmd_usage(stdout);
            return 0;
        }
        /* -c is the count of batch and stress, the circuit id of preload and evict (Curio's) */
        const char *name = strcmp(a, "-c") == 0 ? (cmd_table[ci].id ? "--circuit-id" : "--count") : a;
        size_t k = 0;
        while (k < sizeof opt_table / sizeof opt_table[0] && strcmp(opt_table[k].name, name) != 0 &&
               (opt_table[k].alias == NULL || strcmp(opt_table[k].alias, name) != 0))
            k++;
        if (k == sizeof opt_table / sizeof opt_table[0]) {
            if (a[0] != '-' && cmd_table[ci].id && o.circuit_id == NULL) {
                o.circuit_id = a;
                continue;
            }
            fprintf(stderr, "cuzk-bench %s: unknown option '%s'\n", cmd, a);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk-bench %s: %s needs a value\n", cmd, a);
            return 2;
        }
        if (!cmd_set(&o, k, a, argv[++i])) return 2;
    }
    if (o.count < 1 || o.concurrency < 1) {
        fprintf(stderr, "cuzk-bench: -c 1..1000000, -j 1..1024\n");
        return 2;
    }
    if (strcmp(cmd, "stress") == 0 && (o.rate <= 0 || o.duration <= 0 || o.duration > 86400)) {
        fprintf(stderr, "cuzk-bench stress: --rate > 0 and --duration 0..86400 s are required\n");
        return 2;
    }
    if (cmd_table[ci].id && o.circuit_id == NULL) {
        fprintf(stderr, "cuzk-bench %s: needs a circuit id (-c ID)\n", cmd);
        return 2;
    }
    char target[1024];
    int tls;
    if (cuzk_client_target(o.addr, target, sizeof target, &tls) != 0) {
        fprintf(stderr, "cuzk-bench: '%s' is not an address (http://host:port, host:port or unix:///path)\n", o.addr);
        return 2;
    }
    cmd_payload pl;
    memset(&pl, 0, sizeof pl);
    if (cmd_table[ci].proofs && !cmd_payload_load(&o, &pl)) {
        cmd_payload_free(&pl);
        return 2;
    }
    grpc_init();
    cuzk_client c;
    int rc;
    if (cuzk_client_open(&c, o.addr) != 0) {
        fprintf(stderr, "cuzk-bench: cannot create a channel to %s\n", o.addr);
        rc = 1;
    } else {
        rc = cmd_table[ci].run(&c, &o, &pl);
        cuzk_client_close(&c);
    }
    grpc_shutdown();
    cmd_payload_free(&pl);
    return rc;
}
