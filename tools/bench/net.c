/* cuzk-bench's network commands against a running cuzk-daemon:
 *   single   one Prove, printed with its timings
 *   batch    -c COUNT proofs from -j CONCURRENCY client threads (closed loop)
 *   stress   --rate R proofs/s for --duration S seconds (open loop), mixed sizes and priorities
 *   status, preload ID, evict ID, metrics
 * batch and stress end with a summary: s/proof, proofs/min, latency p50/p95 per priority, per-stage means and the
 * daemon's peak RSS, and exit with status 1 when any proof did not complete (saying how many). The calls go through
 * the cuzk_client library (tools/client). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/base.h"
#include "cuzk_client.h"

typedef struct {
    const char *addr;
    uint32_t kind, log2, partitions, priority; /* priority 0 = mixed in batch/stress */
    const char *circuit, *witness_path;
    uint64_t timeout_ms;
    long count, concurrency;
    double rate, duration;
    const char *sizes; /* stress: comma-separated log2 sizes to mix */
    long pid;          /* daemon pid for RSS; 0 = ask the unix socket's peer */
    uint64_t seed;     /* synthetic circuits: each seed is its own circuit and key, so one seed measures proving */
} cmd_opts;

static const char *const prio_names[] = {"unspecified", "low", "normal", "high", "critical"};

/* ---- one Prove ---- */

typedef struct {
    int grpc_status;
    int status; /* AwaitProofResponse.Status */
    uint32_t priority;
    double latency_s;
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
    size_t proof_len;
    char error[160];
} cmd_result;

static void cmd_prove(cuzk_client *c, const cmd_opts *o, uint32_t log2, uint32_t prio, cmd_result *r)
{
    memset(r, 0, sizeof *r);
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.proof_kind = (Cuzk__V1__ProofKind)o->kind;
    sub.priority = (Cuzk__V1__Priority)prio;
    sub.synthetic_log2 = log2;
    sub.seed = o->seed;
    sub.partitions = o->partitions;
    sub.circuit_id = (char *)(o->circuit ? o->circuit : "");
    sub.witness_path = (char *)(o->witness_path ? o->witness_path : "");
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
        snprintf(r->error, sizeof r->error, "%s", a->error_message ? a->error_message : "");
    }
    protobuf_c_message_free_unpacked(&resp->base, NULL);
}

/* ---- peak RSS of the daemon ---- */

/* The pid of the process listening on a unix socket, from the kernel's peer credentials. */
static long cmd_peer_pid(const char *addr)
{
    const char *path = strncmp(addr, "unix://", 7) == 0 ? addr + 7 : strncmp(addr, "unix:", 5) == 0 ? addr + 5 : NULL;
    if (path == NULL) {
        return 0;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) {
        return 0;
    }
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    long pid = 0;
    struct ucred cred;
    socklen_t cl = sizeof cred;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0 && getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) == 0) {
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
        if (res[i].grpc_status != GRPC_STATUS_OK || res[i].status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
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
    cuzk_client *c;
    cmd_result *res;
    atomic_long next, done;
    double t0;
    bool tty;
    pthread_mutex_t print_lock;
} cmd_batch;

static uint32_t cmd_mixed_prio(const cmd_opts *o, uint64_t i)
{
    return o->priority ? o->priority : (uint32_t)(1 + i % 4);
}

static void *cmd_batch_thread(void *arg)
{
    cmd_batch *b = arg;
    for (;;) {
        long i = atomic_fetch_add(&b->next, 1);
        if (i >= b->o->count) {
            return NULL;
        }
        cmd_prove(b->c, b->o, b->o->log2, cmd_mixed_prio(b->o, (uint64_t)i), &b->res[i]);
        long d = atomic_fetch_add(&b->done, 1) + 1;
        if (b->tty) {
            pthread_mutex_lock(&b->print_lock);
            cmd_progress(d, b->o->count, b->t0);
            pthread_mutex_unlock(&b->print_lock);
        }
    }
}

static int cmd_batch_run(cuzk_client *c, const cmd_opts *o)
{
    cmd_batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
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
    cmd_prove(b->c, b->o, s->log2, cmd_mixed_prio(b->o, (uint64_t)s->index), &b->res[s->index]);
    atomic_fetch_add(&b->done, 1);
    free(s);
    return NULL;
}

static int cmd_stress_run(cuzk_client *c, const cmd_opts *o)
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

/* ---- small commands ---- */

static int cmd_simple(cuzk_client *c, const cmd_opts *o, const char *cmd, const char *arg)
{
    char detail[256];
    ProtobufCMessage *resp = NULL;
    grpc_status_code st;
    if (strcmp(cmd, "status") == 0) {
        Cuzk__V1__GetStatusResponse *r = NULL;
        st = cuzk_client_status(c, o->timeout_ms, &r, detail, sizeof detail);
        resp = r != NULL ? &r->base : NULL;
        if (st == GRPC_STATUS_OK) {
            printf("completed %llu, failed %llu, uptime %llu s, pinned %llu / %llu bytes\n",
                   (unsigned long long)r->total_proofs_completed, (unsigned long long)r->total_proofs_failed,
                   (unsigned long long)r->uptime_seconds, (unsigned long long)r->pinned_memory_bytes,
                   (unsigned long long)r->pinned_memory_limit_bytes);
            for (size_t i = 0; i < r->n_gpus; i++) {
                printf("gpu %u %s: vram %llu free of %llu, job '%s' (%s)\n", r->gpus[i]->ordinal, r->gpus[i]->name,
                       (unsigned long long)r->gpus[i]->vram_free_bytes,
                       (unsigned long long)r->gpus[i]->vram_total_bytes, r->gpus[i]->current_job_id,
                       r->gpus[i]->current_proof_kind);
            }
            for (size_t i = 0; i < r->n_queues; i++) {
                printf("queue %-10s pending %u, in progress %u\n", r->queues[i]->proof_kind, r->queues[i]->pending,
                       r->queues[i]->in_progress);
            }
            for (size_t i = 0; i < r->n_loaded_srs; i++) {
                printf("srs %s: tier %d, %llu bytes, %u refs\n", r->loaded_srs[i]->circuit_id,
                       (int)r->loaded_srs[i]->tier, (unsigned long long)r->loaded_srs[i]->size_bytes,
                       r->loaded_srs[i]->ref_count);
            }
        }
    } else if (strcmp(cmd, "metrics") == 0) {
        Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
        st = cuzk_client_call(c, "GetMetrics", &req.base, &cuzk__v1__get_metrics_response__descriptor, &resp,
                         o->timeout_ms, detail, sizeof detail);
        if (st == GRPC_STATUS_OK) {
            fputs(((Cuzk__V1__GetMetricsResponse *)resp)->prometheus_text, stdout);
        }
    } else if (strcmp(cmd, "preload") == 0) {
        Cuzk__V1__PreloadSrsRequest req = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        req.circuit_id = (char *)arg;
        st = cuzk_client_call(c, "PreloadSRS", &req.base, &cuzk__v1__preload_srs_response__descriptor, &resp,
                         o->timeout_ms, detail, sizeof detail);
        if (st == GRPC_STATUS_OK) {
            Cuzk__V1__PreloadSrsResponse *r = (Cuzk__V1__PreloadSrsResponse *)resp;
            printf("%s: %s, %llu ms\n", arg, r->already_loaded ? "already loaded" : "loaded",
                   (unsigned long long)r->load_time_ms);
        }
    } else {
        Cuzk__V1__EvictSrsRequest req = CUZK__V1__EVICT_SRS_REQUEST__INIT;
        req.circuit_id = (char *)arg;
        st = cuzk_client_call(c, "EvictSRS", &req.base, &cuzk__v1__evict_srs_response__descriptor, &resp, o->timeout_ms,
                         detail, sizeof detail);
        if (st == GRPC_STATUS_OK) {
            Cuzk__V1__EvictSrsResponse *r = (Cuzk__V1__EvictSrsResponse *)resp;
            printf("%s: %s, %llu bytes freed\n", arg, r->was_loaded ? "evicted" : "was not loaded",
                   (unsigned long long)r->freed_bytes);
        }
    }
    if (resp != NULL) {
        protobuf_c_message_free_unpacked(resp, NULL);
    }
    if (st != GRPC_STATUS_OK) {
        fprintf(stderr, "cuzk-bench %s: gRPC status %d: %s\n", cmd, (int)st, detail);
        return 1;
    }
    return 0;
}

static int cmd_single(cuzk_client *c, const cmd_opts *o)
{
    cmd_result r;
    cmd_prove(c, o, o->log2, o->priority, &r);
    if (r.grpc_status != GRPC_STATUS_OK) {
        fprintf(stderr, "cuzk-bench single: %s\n", r.error);
        return 1;
    }
    static const char *const names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    printf("{\"status\": \"%s\", \"proof_bytes\": %zu, \"latency_ms\": %.1f, \"queue_wait_ms\": %llu, "
           "\"srs_load_ms\": %llu, \"synthesis_ms\": %llu, \"gpu_compute_ms\": %llu, \"total_ms\": %llu, "
           "\"error\": \"%s\"}\n",
           r.status >= 0 && r.status <= 4 ? names[r.status] : "?", r.proof_len, r.latency_s * 1000.0,
           (unsigned long long)r.queue_wait_ms, (unsigned long long)r.srs_load_ms, (unsigned long long)r.synthesis_ms,
           (unsigned long long)r.gpu_compute_ms, (unsigned long long)r.total_ms, r.error);
    return r.status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED ? 0 : 1;
}

static void cmd_usage(FILE *f)
{
    fprintf(f,
            "network commands (against cuzk-daemon):\n"
            "  cuzk-bench single  [--addr A] [--log2 K] [--partitions P] [--priority P] [--kind K]\n"
            "                     [--circuit ID --witness FILE]\n"
            "  cuzk-bench batch   -c COUNT -j CONCURRENCY [--log2 K] [--priority P] ...\n"
            "  cuzk-bench stress  --rate PROOFS_PER_S --duration S [--sizes 8,10] [--priority P] ...\n"
            "  cuzk-bench status | metrics | preload ID | evict ID   [--addr A]\n"
            "  --addr      unix:///path or host:port (default " CUZK_CLIENT_DEFAULT_ADDR ")\n"
            "  --kind      synthetic (default), generic, porep, snap, wpost, winning\n"
            "  --priority  low, normal, high, critical; batch and stress mix all four when not given\n"
            "  --timeout   per-call deadline in ms (default none)\n"
            "  --seed      synthetic circuit seed (default 1; each seed is another circuit and key)\n"
            "  --pid       daemon pid for the peak RSS line (default: the unix socket's peer)\n");
}

static int cmd_parse_prio(const char *s, uint32_t *out)
{
    for (uint32_t i = 1; i <= 4; i++) {
        if (strcmp(s, prio_names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    return -1;
}

static int cmd_parse_kind(const char *s, uint32_t *out)
{
    static const struct { const char *n; uint32_t v; } kinds[] = {
        {"synthetic", 101}, {"generic", 100}, {"porep", 1}, {"snap", 2}, {"wpost", 3}, {"winning", 4}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(s, kinds[i].n) == 0) {
            *out = kinds[i].v;
            return 0;
        }
    }
    return -1;
}

bool bench_net_is_command(const char *name)
{
    static const char *const commands[] = {"single", "batch", "stress", "status", "preload", "evict", "metrics"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i]) == 0) return true;
    return false;
}

int bench_net_main(int argc, char **argv)
{
    const char *cmd = argv[0];
    cmd_opts o = {CUZK_CLIENT_DEFAULT_ADDR, 101, 8, 1, 0, NULL, NULL, 0, 1, 1, 0, 0, "8", 0, 1};
    const char *arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool used = true;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            cmd_usage(stdout);
            return 0;
        } else if (v == NULL && a[0] == '-') {
            fprintf(stderr, "cuzk-bench %s: %s needs a value\n", cmd, a);
            return 2;
        } else if (strcmp(a, "--addr") == 0) {
            o.addr = v;
        } else if (strcmp(a, "--log2") == 0) {
            o.log2 = (uint32_t)strtoul(v, NULL, 10);
        } else if (strcmp(a, "--partitions") == 0) {
            o.partitions = (uint32_t)strtoul(v, NULL, 10);
        } else if (strcmp(a, "--priority") == 0) {
            if (cmd_parse_prio(v, &o.priority) != 0) {
                fprintf(stderr, "cuzk-bench: --priority low|normal|high|critical\n");
                return 2;
            }
        } else if (strcmp(a, "--kind") == 0) {
            if (cmd_parse_kind(v, &o.kind) != 0) {
                fprintf(stderr, "cuzk-bench: unknown --kind '%s'\n", v);
                return 2;
            }
        } else if (strcmp(a, "--circuit") == 0) {
            o.circuit = v;
        } else if (strcmp(a, "--witness") == 0) {
            o.witness_path = v;
        } else if (strcmp(a, "--timeout") == 0) {
            o.timeout_ms = strtoull(v, NULL, 10);
        } else if (strcmp(a, "-c") == 0 || strcmp(a, "--count") == 0) {
            o.count = strtol(v, NULL, 10);
        } else if (strcmp(a, "-j") == 0 || strcmp(a, "--concurrency") == 0) {
            o.concurrency = strtol(v, NULL, 10);
        } else if (strcmp(a, "--rate") == 0) {
            o.rate = strtod(v, NULL);
        } else if (strcmp(a, "--duration") == 0) {
            o.duration = strtod(v, NULL);
        } else if (strcmp(a, "--sizes") == 0) {
            o.sizes = v;
        } else if (strcmp(a, "--seed") == 0) {
            o.seed = strtoull(v, NULL, 10);
        } else if (strcmp(a, "--pid") == 0) {
            o.pid = strtol(v, NULL, 10);
        } else if (a[0] != '-' && arg == NULL) {
            arg = a;
            used = false;
        } else {
            fprintf(stderr, "cuzk-bench %s: unknown option '%s'\n", cmd, a);
            return 2;
        }
        i += used;
    }
    if (o.count < 1 || o.count > 1000000 || o.concurrency < 1 || o.concurrency > 1024) {
        fprintf(stderr, "cuzk-bench: -c 1..1000000, -j 1..1024\n");
        return 2;
    }
    if (strcmp(cmd, "stress") == 0 && (o.rate <= 0 || o.duration <= 0 || o.duration > 86400)) {
        fprintf(stderr, "cuzk-bench stress: --rate > 0 and --duration 0..86400 s are required\n");
        return 2;
    }
    if ((strcmp(cmd, "preload") == 0 || strcmp(cmd, "evict") == 0) && arg == NULL) {
        fprintf(stderr, "cuzk-bench %s: needs a circuit id\n", cmd);
        return 2;
    }
    grpc_init();
    cuzk_client c;
    int rc;
    if (cuzk_client_open(&c, o.addr) != 0) {
        fprintf(stderr, "cuzk-bench: cannot create a channel to %s\n", o.addr);
        rc = 1;
    } else {
        if (strcmp(cmd, "single") == 0) {
            rc = cmd_single(&c, &o);
        } else if (strcmp(cmd, "batch") == 0) {
            rc = cmd_batch_run(&c, &o);
        } else if (strcmp(cmd, "stress") == 0) {
            rc = cmd_stress_run(&c, &o);
        } else {
            rc = cmd_simple(&c, &o, cmd, arg);
        }
        cuzk_client_close(&c);
    }
    grpc_shutdown();
    return rc;
}
