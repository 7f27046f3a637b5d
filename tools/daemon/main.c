/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-daemon: the proving service. Reads the config, creates the engine, serves cuzk.v1 over gRPC (unix socket and
 * optionally TCP) and /metrics and /status over HTTP, tells systemd when it is ready (sd_notify, where built with
 * libsystemd), logs every job's end, and shuts down on a signal:
 *   SIGTERM: stop taking calls, let queued and running proofs finish within [daemon] shutdown_timeout, then cancel
 *            what is left; every waiting caller gets its answer before the process exits.
 *   SIGINT:  the same with [daemon] interrupt_timeout (short).
 *   SIGUSR1: hold: calls are still taken and answered, but no partition starts (cuzk_engine_hold); SIGUSR2 ends it. */
#include <grpc/grpc.h>
#include <grpc/support/log.h>
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef CUZK_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "config.h"
#include "cuzk/engine.h"
#include "log.h"
#include "metrics_http.h"
#include "server.h"

/* gRPC's own messages go through the daemon's log, so that a JSON log stays JSON. */
static void daemon_grpc_log(gpr_log_func_args *a)
{
    cuzk_log_level level = a->severity == GPR_LOG_SEVERITY_ERROR  ? CUZK_LOG_ERROR
                           : a->severity == GPR_LOG_SEVERITY_INFO ? CUZK_LOG_INFO
                                                                  : CUZK_LOG_DEBUG;
    const char *file = strrchr(a->file, '/');
    cuzk_log_msg(level, "grpc: %s (%s:%d)", a->message, file != NULL ? file + 1 : a->file, a->line);
}

static void daemon_usage(FILE *f)
{
    fprintf(f, "usage: cuzk-daemon [-c FILE] [-l ADDR]... [--log-level LEVEL] [-s SECTION.KEY=VALUE]...\n"
               "                   [--check-config] [--version] [--help]\n"
               "\n"
               "The cuzk proving service: Curio's cuzk.v1 gRPC interface (SubmitProof, AwaitProof, Prove,\n"
               "CancelProof, GetStatus, GetMetrics, PreloadSRS, EvictSRS) on a unix socket and optionally TCP,\n"
               "GET /metrics and GET /status over HTTP. Curio's [Cuzk] Address points at one of the listen\n"
               "addresses (docs/curio.md).\n"
               "\n"
               "  -c, --config FILE    TOML configuration (default " CUZK_CONFIG_DEFAULT_PATH ", Curio's; a\n"
               "                       missing file means the defaults; Curio's cuzk.toml is read as it is; see\n"
               "                       docs/daemon.md)\n"
               "  -l, --listen ADDR    unix:///path, unix:/path or host:port, or a comma-separated list; repeatable,\n"
               "                       replaces [daemon] listen (default " CUZK_CONFIG_DEFAULT_LISTEN ")\n"
               "      --log-level L    trace, debug, info, warn or error; replaces [logging] level\n"
               "  -s, --set K=V        any key, e.g. --set srs.param_cache=/data/params or --set gpus.devices=[0,1]\n"
               "                       (V a TOML value; a bare word is a string); repeatable, applied last\n"
               "      --check-config   read the configuration, print every key with its value and where it came\n"
               "                       from (default, file, flag), and exit\n"
               "      --version        print the version and exit\n"
               "  -h, --help           this text\n"
               "\n"
               "Signals: SIGTERM stops taking calls and lets proofs finish within [daemon] shutdown_timeout, SIGINT\n"
               "within interrupt_timeout; then what is left is cancelled and every caller answered. Exit status: 0\n"
               "after a signal, 2 for a bad command line or configuration, 1 when the service cannot start.\n"
               "[tls] and [auth] protect TCP listeners, but Curio's client connects without TLS and sends no token:\n"
               "with either, Curio can reach the daemon only over a unix socket.\n");
}

/* Engine events as log lines (cuzk_engine_config.on_event): called under the engine's lock, so only formatting. */
static void daemon_job_event(void *ctx, const cuzk_engine_event *ev)
{
    (void)ctx;
    static const char *const prio[] = {"unspecified", "low", "normal", "high", "critical"};
    const char *kind = cuzk_engine_kind_name(ev->proof_kind);
    char parts[16];
    snprintf(parts, sizeof parts, "%u", ev->partitions);
    if (ev->kind == CUZK_ENGINE_EVENT_ACCEPTED) {
        cuzk_log_kv(CUZK_LOG_DEBUG, CUZK_LOG_ENGINE, "job accepted", "job_id", ev->job_id, "proof_kind", kind,
                    "priority", prio[ev->priority], "partitions", parts, "retry", ev->retry ? "true" : "false", NULL);
        return;
    }
    if (ev->kind == CUZK_ENGINE_EVENT_STARTED) {
        cuzk_log_kv(CUZK_LOG_DEBUG, CUZK_LOG_ENGINE, "job started", "job_id", ev->job_id, "proof_kind", kind, NULL);
        return;
    }
    const cuzk_engine_result *r = ev->result;
    char total[24], queue[24], synth[24], gpu[24];
    snprintf(total, sizeof total, "%llu", (unsigned long long)r->total_ms);
    snprintf(queue, sizeof queue, "%llu", (unsigned long long)r->queue_wait_ms);
    snprintf(synth, sizeof synth, "%llu", (unsigned long long)r->synthesis_ms);
    snprintf(gpu, sizeof gpu, "%llu", (unsigned long long)r->gpu_compute_ms);
    if (r->status == CUZK_ENGINE_JOB_COMPLETED)
        cuzk_log_kv(CUZK_LOG_INFO, CUZK_LOG_ENGINE, "proof completed", "job_id", ev->job_id, "proof_kind", kind,
                    "partitions", parts, "total_ms", total, "queue_wait_ms", queue, "synthesis_ms", synth,
                    "gpu_compute_ms", gpu, NULL);
    else if (r->status == CUZK_ENGINE_JOB_FAILED)
        cuzk_log_kv(CUZK_LOG_WARN, CUZK_LOG_ENGINE, "proof failed", "job_id", ev->job_id, "proof_kind", kind,
                    "total_ms", total, "error", r->error_message, NULL);
    else
        cuzk_log_kv(CUZK_LOG_INFO, CUZK_LOG_ENGINE, "proof cancelled", "job_id", ev->job_id, "proof_kind", kind,
                    "total_ms", total, "reason", r->error_message, NULL);
}

/* Tells systemd (Type=notify) how the daemon stands; a no-op without libsystemd or outside a notify unit. */
static void daemon_notify(const char *state)
{
#ifdef CUZK_HAVE_SYSTEMD
    sd_notify(0, state);
#else
    (void)state;
#endif
}

/* The parameter directory, made with its parents when missing (as mkdir -p). */
static bool daemon_make_dirs(const char *path, char *err, size_t errlen)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0') continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create %.900s: %s", p, strerror(errno));
            return false;
        }
        *s = c;
        if (c == '\0') break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%.900s is not a directory", path);
        return false;
    }
    return true;
}

/* Reads a whole (small, PEM) file into a string. */
static char *daemon_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            if (cap > (16u << 20)) {
                break;
            }
            char *nb = realloc(buf, cap);
            if (nb == NULL) {
                break;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, 4096, f);
        len += n;
        if (n < 4096) {
            fclose(f);
            buf[len] = '\0';
            return buf;
        }
    }
    fclose(f);
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    cuzk_daemon_config cfg;
    cuzk_config_defaults(&cfg);
    const char *config_path = NULL, *log_level = NULL;
    const char *listen_args[CUZK_CONFIG_MAX_LISTEN], *set_args[64];
    size_t num_listen_args = 0, num_set_args = 0;
    bool check_only = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if ((strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0) && has_next) {
            config_path = argv[++i];
        } else if ((strcmp(a, "-l") == 0 || strcmp(a, "--listen") == 0) && has_next) {
            if (num_listen_args == CUZK_CONFIG_MAX_LISTEN) {
                fprintf(stderr, "cuzk-daemon: more than %d --listen\n", CUZK_CONFIG_MAX_LISTEN);
                return 2;
            }
            listen_args[num_listen_args++] = argv[++i];
        } else if ((strcmp(a, "-s") == 0 || strcmp(a, "--set") == 0) && has_next) {
            if (num_set_args == sizeof set_args / sizeof set_args[0]) {
                fprintf(stderr, "cuzk-daemon: more than 64 --set\n");
                return 2;
            }
            set_args[num_set_args++] = argv[++i];
        } else if (strcmp(a, "--log-level") == 0 && has_next) {
            log_level = argv[++i];
        } else if (strcmp(a, "--check-config") == 0) {
            check_only = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            daemon_usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("cuzk-daemon %s\n", cuzk_version());
            return 0;
        } else {
            fprintf(stderr, "cuzk-daemon: unknown or incomplete option '%s'\n", a);
            daemon_usage(stderr);
            return 2;
        }
    }
    char err[1024];
    bool ok = cuzk_config_load_file(&cfg, config_path != NULL ? config_path : CUZK_CONFIG_DEFAULT_PATH, err,
                                    sizeof err);
    if (ok && cfg.num_listen == 0) ok = cuzk_config_add_listen(&cfg, CUZK_CONFIG_DEFAULT_LISTEN, err, sizeof err);
    if (ok && num_listen_args > 0) ok = cuzk_config_flag_listen(&cfg, listen_args, num_listen_args, err, sizeof err);
    if (ok && log_level != NULL) ok = cuzk_config_flag_log_level(&cfg, log_level, err, sizeof err);
    for (size_t i = 0; ok && i < num_set_args; i++) ok = cuzk_config_flag_set(&cfg, set_args[i], err, sizeof err);
    if (ok) ok = cuzk_config_check(&cfg, err, sizeof err);
    if (!ok) {
        fprintf(stderr, "cuzk-daemon: %s\n", err);
        cuzk_config_free(&cfg);
        return 2;
    }
    cuzk_log_setup(cfg.log_level, cfg.log_json);
    gpr_set_log_function(daemon_grpc_log);
    /* an explicit file that is missing is worth a word; the default path missing is the usual case */
    if (cfg.path_missing && config_path != NULL)
        cuzk_log_msg(CUZK_LOG_WARN, "configuration file %s does not exist: every key has its default", cfg.path);
    for (size_t i = 0; i < cfg.num_warnings; i++) cuzk_log_msg(CUZK_LOG_WARN, "%s", cfg.warnings[i]);
    if (check_only) {
        cuzk_config_print(&cfg, stdout);
        cuzk_config_free(&cfg);
        return 0;
    }
    cuzk_config_effective eff;
    cuzk_config_resolve(&cfg, &eff);
    if (!cfg.path_missing) cuzk_log_msg(CUZK_LOG_INFO, "configuration from %s", cfg.path);

    /* Signals are taken by sigwait in this thread only: block them before any other thread exists. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGUSR1);
    sigaddset(&sigs, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    char *tls_cert = NULL, *tls_key = NULL, *tls_ca = NULL;
    if (cfg.tls_cert != NULL) {
        tls_cert = daemon_read_file(cfg.tls_cert);
        tls_key = daemon_read_file(cfg.tls_key);
        tls_ca = cfg.tls_client_ca ? daemon_read_file(cfg.tls_client_ca) : NULL;
        if (tls_cert == NULL || tls_key == NULL || (cfg.tls_client_ca != NULL && tls_ca == NULL)) {
            cuzk_log_msg(CUZK_LOG_ERROR, "cannot read the [tls] files");
            return 2;
        }
    }

    /* the parameter directory is made when missing: Curio's defaults, and a fresh machine, start with none */
    if (!daemon_make_dirs(eff.param_cache, err, sizeof err)) {
        cuzk_log_msg(CUZK_LOG_ERROR, "parameter directory (%s): %s", eff.param_cache_from, err);
        cuzk_config_free(&cfg);
        return 1;
    }

    if (!daemon_make_dirs(eff.pce_dir, err, sizeof err)) {
        cuzk_log_msg(CUZK_LOG_ERROR, "shape cache ([srs] pce_dir): %s", err);
        cuzk_config_free(&cfg);
        return 1;
    }
    cuzk_log_msg(CUZK_LOG_INFO, "Filecoin parameters in %s (%s), circuit shapes in %s", eff.param_cache,
                 eff.param_cache_from, eff.pce_dir);
    if (!cfg.verify_digest)
        cuzk_log_msg(CUZK_LOG_WARN, "[srs] verify_digest = false: .params files are used without their digest check");

    cuzk_engine_config ec;
    memset(&ec, 0, sizeof ec);
    ec.param_dir = eff.param_cache;
    ec.pce_dir = eff.pce_dir;
    ec.skip_param_digest = !cfg.verify_digest;
    ec.param_manifest = cfg.param_manifest;
    ec.synthesis_workers = eff.synthesis_workers;
    ec.synthesis_threads = eff.synthesis_threads;
    ec.prover_threads = cfg.prover_threads;
    ec.gpu_workers_per_device = cfg.gpu_workers_per_device;
    ec.gpu_latency_pairs = cfg.latency_mode;
    ec.gpu_split_ntt_tables = cfg.split_ntt_tables;
    ec.gpu_devices = cfg.num_devices ? cfg.devices : NULL;
    ec.num_gpu_devices = cfg.num_devices;
    ec.gpu_queue_depth = eff.gpu_queue_depth;
    ec.working_memory_budget = eff.working_memory_budget;
    ec.pinned_budget = cfg.pinned_budget;
    ec.vram_budget = cfg.vram_budget;
    ec.backend = (cuzk_engine_backend_kind)cfg.backend;
    ec.result_ttl_ms = cfg.result_ttl_ms;
    ec.max_request_bytes = cfg.max_message_bytes;
    ec.on_event = daemon_job_event;
    cuzk_engine *e = NULL;
    cuzk_errmsg eerr = {{0}};
    cuzk_status st = cuzk_engine_create(&e, &ec, &eerr);
    if (st != CUZK_OK) {
        cuzk_log_msg(CUZK_LOG_ERROR, "engine: %s: %s", cuzk_status_str(st), eerr.msg);
        cuzk_config_free(&cfg);
        return 1;
    }

    grpc_init();
    cuzk_server_opts so;
    memset(&so, 0, sizeof so);
    so.listen = (const char *const *)cfg.listen;
    so.num_listen = cfg.num_listen;
    so.max_message_bytes = cfg.max_message_bytes;
    so.threads = cfg.server_threads;
    so.tls_cert_pem = tls_cert;
    so.tls_key_pem = tls_key;
    so.tls_client_ca_pem = tls_ca;
    so.auth_token = cfg.auth_token;
    /* Curio's client speaks plaintext gRPC without metadata: say so where a TCP address would refuse it */
    for (size_t i = 0; i < cfg.num_listen; i++) {
        if (cuzk_config_unix_path(cfg.listen[i]) != NULL || (tls_cert == NULL && cfg.auth_token == NULL)) continue;
        cuzk_log_kv(CUZK_LOG_WARN, CUZK_LOG_DAEMON,
                    "Curio's client cannot use this address: it connects without TLS and sends no bearer token", "addr",
                    cfg.listen[i], "tls", tls_cert != NULL ? "true" : "false", "token",
                    cfg.auth_token != NULL ? "true" : "false", NULL);
    }
    cuzk_server *srv = cuzk_server_start(e, &so, err, sizeof err);
    int rc = 0;
    cuzk_metrics_http *mh = NULL, *sh = NULL;
    if (srv == NULL) {
        cuzk_log_msg(CUZK_LOG_ERROR, "%s", err);
        rc = 1;
    } else if (cfg.metrics_listen != NULL &&
               (mh = cuzk_metrics_http_start(cfg.metrics_listen, e, err, sizeof err)) == NULL) {
        cuzk_log_msg(CUZK_LOG_ERROR, "[metrics] http_listen: %s", err);
        rc = 1;
    } else if (cfg.status_listen != NULL &&
               (cfg.metrics_listen == NULL || strcmp(cfg.status_listen, cfg.metrics_listen) != 0) &&
               (sh = cuzk_metrics_http_start(cfg.status_listen, e, err, sizeof err)) == NULL) {
        cuzk_log_msg(CUZK_LOG_ERROR, "[daemon] status_listen: %s", err);
        rc = 1;
    }
    if (rc == 0) {
        cuzk_log_msg(CUZK_LOG_INFO, "cuzk-daemon ready (pid %ld)", (long)getpid());
        daemon_notify("READY=1\nSTATUS=serving");
        int sig = 0;
        for (;;) {
            sigwait(&sigs, &sig);
            if (sig != SIGUSR1 && sig != SIGUSR2) break;
            cuzk_engine_hold(e, sig == SIGUSR1);
            cuzk_log_msg(CUZK_LOG_INFO,
                         sig == SIGUSR1 ? "SIGUSR1: holding: no partition starts until SIGUSR2" : "SIGUSR2: going on");
        }
        uint64_t deadline = sig == SIGINT ? cfg.interrupt_timeout_ms : cfg.shutdown_timeout_ms;
        daemon_notify("STOPPING=1\nSTATUS=draining");
        cuzk_log_msg(CUZK_LOG_INFO, "%s: no new jobs; draining for up to %llu ms", sig == SIGINT ? "SIGINT" : "SIGTERM",
                     (unsigned long long)deadline);
        /* The engine refuses new jobs (UNAVAILABLE) from here; the server still takes calls, so that AwaitProof
         * and GetStatus for jobs already in go on. */
        cuzk_engine_shutdown(e, deadline);
        /* Every job has ended: the waiting calls send their answers on connections still open. Only then GOAWAY:
         * gRPC closes a connection as its last call ends after one, which could cost a client its answer. */
        if (!cuzk_server_wait_answered(srv, 5000)) {
            cuzk_log_msg(CUZK_LOG_WARN,
                         "calls still waiting 5 s after the engine stopped; closing the listeners anyway");
        }
        cuzk_server_stop_intake(srv);
        if (!cuzk_server_wait_idle(srv, 5000)) {
            cuzk_log_msg(CUZK_LOG_WARN, "calls still open 5 s after the listeners closed; cancelling them");
        }
    }
    cuzk_server_destroy(srv);
    cuzk_metrics_http_stop(mh);
    cuzk_metrics_http_stop(sh);
    cuzk_engine_destroy(e);
    grpc_shutdown();
    free(tls_cert);
    free(tls_key);
    free(tls_ca);
    cuzk_config_free(&cfg);
    cuzk_log_msg(CUZK_LOG_INFO, "cuzk-daemon stopped");
    return rc;
}
