/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-daemon configuration (see config.h): the key table, the value types, loading a TOML file through toml.h,
 * the flags, the resolution of what the daemon runs with, and --check-config's listing. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toml.h"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)
#define TIB ((uint64_t)1 << 40)

/* ---- value types ------------------------------------------------------------------------------------------------- */
typedef enum {
    T_STRING,   /* char *, a TOML string (empty allowed) */
    T_PATH,     /* char *, a file or directory (a TOML string; empty: unset) */
    T_SIZE,     /* uint64_t bytes: "64GiB" or a whole number of bytes */
    T_DURATION, /* uint64_t ms: "5m", "30s", "500ms" or a whole number of seconds */
    T_COUNT,    /* unsigned, an integer in [min, max] */
    T_BOOL,     /* bool */
    T_CHOICE,   /* unsigned, one of the key's choices (a string) */
    T_LISTEN,   /* listen[]: a string (comma-separated addresses) or an array of strings */
    T_DEVICES,  /* devices[]: an array of GPU ordinals */
    T_NA,       /* a key of Curio's that does not apply to cuzk: any value, accepted with a warning */
} config_type;

typedef struct {
    const char *name;
    unsigned value;
} config_choice;

typedef struct config_key config_key;
/* A setter for a key whose value needs more than its type: false with *why. */
typedef bool (*config_setter)(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n);
/* What --check-config adds after a key's value: how it resolves ("" when it needs no word). */
typedef void (*config_note)(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);

struct config_key {
    const char *section, *key;
    config_type type;
    size_t offset;                /* of the field in cuzk_daemon_config (T_LISTEN, T_DEVICES, T_NA: unused) */
    uint64_t min, max;            /* T_COUNT and T_SIZE bounds (max 0: none) */
    const config_choice *choices; /* T_CHOICE, ended by a NULL name */
    config_setter set;            /* instead of the type's own storing */
    config_note note;
    const char *def;  /* the default as TOML text */
    const char *help; /* what it does; for T_NA why it does not apply */
};

static const config_choice backend_choices[] = {{"auto", 0}, {"cpu", 1}, {"gpu", 2}, {NULL, 0}};
static const config_choice format_choices[] = {{"text", 0}, {"json", 1}, {NULL, 0}};

static void warn(cuzk_daemon_config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool set_total_budget(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n);
static bool set_whole_ntt_tables(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n);
static bool set_log_level(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n);
static bool set_log_format(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n);
static bool set_token_file(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n);
static void note_total(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);
static void note_working(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);
static void note_workers(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);
static void note_threads(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);
static void note_depth(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);
static void note_params(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);
static void note_pce_dir(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n);

#define OFF(f) offsetof(cuzk_daemon_config, f)

/* Every key, section by section in the order --check-config prints them. Curio's keys keep Curio's names and
 * defaults; a T_NA row's help says why it does not apply. */
static const config_key config_keys[] = {
    /* [daemon] */
    {"daemon", "listen", T_LISTEN, 0, 0, 0, NULL, NULL, NULL, "\"" CUZK_CONFIG_DEFAULT_LISTEN "\"",
     "gRPC addresses: unix:///path, unix:/path or host:port; a string (comma-separated) or an array, at most 8"},
    {"daemon", "status_listen", T_STRING, OFF(status_listen), 0, 0, NULL, NULL, NULL, "\"\"",
     "host:port of Curio's status page: GET /status (JSON) and GET /metrics over HTTP; empty: off"},
    {"daemon", "max_message_size", T_SIZE, OFF(max_message_bytes), KIB, 2 * GIB - 1, NULL, NULL, NULL, "\"256MiB\"",
     "gRPC receive and send limit, also the largest witness accepted as bytes"},
    {"daemon", "shutdown_timeout", T_DURATION, OFF(shutdown_timeout_ms), 0, 0, NULL, NULL, NULL, "\"60s\"",
     "SIGTERM: how long queued and running proofs may go on before the rest is cancelled"},
    {"daemon", "interrupt_timeout", T_DURATION, OFF(interrupt_timeout_ms), 0, 0, NULL, NULL, NULL, "\"5s\"",
     "SIGINT: the same, shorter"},
    {"daemon", "server_threads", T_COUNT, OFF(server_threads), 1, 64, NULL, NULL, NULL, "2",
     "threads polling the gRPC completion queue"},
    /* [memory] */
    {"memory", "total_budget", T_SIZE, OFF(total_budget), 0, 0, NULL, set_total_budget, note_total, "\"auto\"",
     "host memory for partitions (and keys, with pinned_budget): \"auto\" = physical memory less safety_margin"},
    {"memory", "safety_margin", T_SIZE, OFF(safety_margin), 0, 0, NULL, NULL, NULL, "\"5GiB\"",
     "what \"auto\" leaves to the system"},
    {"memory", "eviction_min_idle", T_NA, 0, 0, 0, NULL, NULL, NULL, "\"5m\"",
     "cuzk demotes the least recently used idle key as soon as a load needs room, with no minimum idle time"},
    {"memory", "working_memory_budget", T_SIZE, OFF(working_memory_budget), 0, 0, NULL, NULL, note_working, "0",
     "host memory partitions are admitted against; 0: total_budget less pinned_budget"},
    {"memory", "pinned_budget", T_SIZE, OFF(pinned_budget), 0, 0, NULL, NULL, NULL, "0",
     "host memory for decoded keys (the HOT tier); 0: no limit"},
    {"memory", "vram_budget", T_SIZE, OFF(vram_budget), 0, 0, NULL, NULL, NULL, "0",
     "per GPU: memory for resident keys and the provers' buffers; 0: the free memory at start less 1 GiB"},
    /* [gpus] */
    {"gpus", "devices", T_DEVICES, 0, 0, 0, NULL, NULL, NULL, "[]", "GPU ordinals to use; [] = every visible GPU"},
    {"gpus", "gpu_threads", T_NA, 0, 0, 0, NULL, NULL, NULL, "0",
     "cuzk's GPU provers run every MSM on the device; the host threads are [synthesis] threads and prover_threads"},
    {"gpus", "gpu_workers_per_device", T_COUNT, OFF(gpu_workers_per_device), 0, 64, NULL, NULL, NULL, "0",
     "provers per GPU (per pair in latency mode); 0: the backend's default, 1"},
    {"gpus", "backend", T_CHOICE, OFF(backend), 0, 0, backend_choices, NULL, NULL, "\"auto\"",
     "auto: the GPUs when the build has CUDA and a device is visible; gpu: the GPUs or no start; cpu: never the GPUs"},
    {"gpus", "latency_mode", T_BOOL, OFF(latency_mode), 0, 0, NULL, NULL, NULL, "false",
     "the GPUs work in pairs, each partition split over its pair"},
    {"gpus", "whole_ntt_tables", T_BOOL, 0, 0, 0, NULL, set_whole_ntt_tables, NULL, "true",
     "a resident key's provers keep whole NTT tables when its VRAM plan has room"},
    /* [scheduler] */
    {"scheduler", "max_batch_size", T_NA, 0, 0, 0, NULL, NULL, NULL, "1",
     "cuzk proves each job by itself, partition by partition (Curio's 1)"},
    {"scheduler", "max_batch_wait_ms", T_NA, 0, 0, 0, NULL, NULL, NULL, "10000", "cuzk does not batch jobs"},
    {"scheduler", "sort_by_type", T_NA, 0, 0, 0, NULL, NULL, NULL, "true",
     "cuzk orders work by priority, then by arrival; a key stays loaded while jobs need it"},
    {"scheduler", "gpu_queue_depth", T_COUNT, OFF(gpu_queue_depth), 1, 4096, NULL, NULL, note_depth, "4",
     "synthesized partitions that may wait for the provers"},
    {"scheduler", "result_ttl", T_DURATION, OFF(result_ttl_ms), 0, 0, NULL, NULL, NULL, "\"10m\"",
     "how long a finished job's result answers late AwaitProof calls and repeated request ids"},
    /* [synthesis] */
    {"synthesis", "threads", T_COUNT, OFF(synthesis_threads), 0, 4096, NULL, NULL, note_threads, "0",
     "threads of each synthesis; 0: the online processors shared by the workers"},
    {"synthesis", "workers", T_COUNT, OFF(synthesis_workers), 0, 1024, NULL, NULL, note_workers, "0",
     "partitions synthesized in parallel; 0: [pipeline] max_parallel_synthesis, else 1"},
    {"synthesis", "prover_threads", T_COUNT, OFF(prover_threads), 0, 4096, NULL, NULL, NULL, "0",
     "CPU backend: threads of each partition's H and MSMs; 0: 1"},
    {"synthesis", "partition_workers", T_NA, 0, 0, 0, NULL, NULL, NULL, "0",
     "deprecated in Curio; cuzk's partitions synthesized in parallel are [synthesis] workers"},
    /* [pipeline] */
    {"pipeline", "enabled", T_NA, 0, 0, 0, NULL, NULL, NULL, "true",
     "cuzk always pipelines synthesis and proving, partition by partition"},
    {"pipeline", "synthesis_lookahead", T_NA, 0, 0, 0, NULL, NULL, NULL, "1",
     "cuzk bounds the synthesized partitions waiting for the provers: [scheduler] gpu_queue_depth"},
    {"pipeline", "synthesis_concurrency", T_NA, 0, 0, 0, NULL, NULL, NULL, "1",
     "cuzk synthesizes partitions of several jobs together, up to [synthesis] workers and the memory budget"},
    {"pipeline", "max_parallel_synthesis", T_COUNT, OFF(max_parallel_synthesis), 0, 1024, NULL, NULL, NULL, "0",
     "Curio's name for [synthesis] workers: > 0 sets it unless workers is given; 0: cuzk's default"},
    {"pipeline", "slot_size", T_NA, 0, 0, 0, NULL, NULL, NULL, "0",
     "cuzk always proves partition by partition; admission follows the memory budget"},
    {"pipeline", "max_gpu_queue_depth", T_COUNT, OFF(max_gpu_queue_depth), 0, 4096, NULL, NULL, NULL, "0",
     "Curio's name for [scheduler] gpu_queue_depth: > 0 sets it unless gpu_queue_depth is given; 0: cuzk's default"},
    /* [srs] */
    {"srs", "param_cache", T_PATH, OFF(param_cache), 0, 0, NULL, NULL, note_params, "\"$FIL_PROOFS_PARAMETER_CACHE\"",
     "the parameter directory: Filecoin's v28 .params, registered circuits' .pce and .params, the synthetic keys' "
     "cache; made when missing"},
    {"srs", "pce_dir", T_PATH, OFF(pce_dir), 0, 0, NULL, NULL, note_pce_dir, "\"<param_cache>/cuzk-pce\"",
     "the Filecoin circuits' shape cache: one PCE file per circuit, built on first use; made when missing"},
    {"srs", "verify_digest", T_BOOL, OFF(verify_digest), 0, 0, NULL, NULL, NULL, "true",
     "check a Filecoin .params file's BLAKE2b digest against the parameter manifest before its first use"},
    {"srs", "manifest", T_PATH, OFF(param_manifest), 0, 0, NULL, NULL, NULL, "\"\"",
     "a parameters.json whose digests come before the built-in v28 manifest's (test keys); empty: none"},
    {"srs", "preload", T_NA, 0, 0, 0, NULL, NULL, NULL, "[]",
     "deprecated in Curio; cuzk loads keys on demand, and PreloadSRS loads one ahead"},
    /* [logging] */
    {"logging", "level", T_CHOICE, OFF(log_level), 0, 0, NULL, set_log_level, NULL, "\"info\"",
     "least severe level written: trace (= debug), debug, info, warn, error"},
    {"logging", "format", T_CHOICE, 0, 0, 0, format_choices, set_log_format, NULL, "\"text\"",
     "line format on stderr: text or json"},
    /* cuzk's own sections */
    {"metrics", "http_listen", T_STRING, OFF(metrics_listen), 0, 0, NULL, NULL, NULL, "\"\"",
     "host:port where GET /metrics answers in the Prometheus format (and GET /status); empty: off"},
    {"tls", "cert", T_PATH, OFF(tls_cert), 0, 0, NULL, NULL, NULL, "\"\"",
     "PEM certificate: with key, TCP listeners use TLS, which Curio's client (plaintext) cannot reach"},
    {"tls", "key", T_PATH, OFF(tls_key), 0, 0, NULL, NULL, NULL, "\"\"", "PEM private key of cert"},
    {"tls", "client_ca", T_PATH, OFF(tls_client_ca), 0, 0, NULL, NULL, NULL, "\"\"",
     "PEM bundle: clients must present a certificate it signed"},
    {"auth", "token", T_STRING, OFF(auth_token), 0, 0, NULL, NULL, NULL, "\"\"",
     "bearer token every TCP call must carry (Curio's client sends none: it is refused over TCP); empty: none"},
    {"auth", "token_file", T_PATH, OFF(auth_token_file), 0, 0, NULL, set_token_file, NULL, "\"\"",
     "a file holding the token (first line), read at start"},
};
#define NUM_KEYS (sizeof config_keys / sizeof config_keys[0])
_Static_assert(sizeof config_keys / sizeof config_keys[0] <= CUZK_CONFIG_MAX_KEYS, "raise CUZK_CONFIG_MAX_KEYS");

/* ---- plain values ------------------------------------------------------------------------------------------------ */
void cuzk_config_defaults(cuzk_daemon_config *c)
{
    memset(c, 0, sizeof *c);
    c->max_message_bytes = 256 * MIB; /* what Curio's client allows both ways */
    c->shutdown_timeout_ms = 60000;
    c->interrupt_timeout_ms = 5000;
    c->server_threads = 2;
    c->total_budget_auto = true;
    c->safety_margin = 5 * GIB;
    c->gpu_queue_depth = 4;
    c->result_ttl_ms = 600000;
    c->log_level = CUZK_LOG_INFO;
    c->verify_digest = true;
}

static void free_str(char **s)
{
    free(*s);
    *s = NULL;
}

void cuzk_config_clear_listen(cuzk_daemon_config *c)
{
    for (size_t i = 0; i < c->num_listen; i++) free_str(&c->listen[i]);
    c->num_listen = 0;
}

void cuzk_config_free(cuzk_daemon_config *c)
{
    cuzk_config_clear_listen(c);
    char **strs[] = {&c->param_cache, &c->metrics_listen, &c->status_listen, &c->tls_cert,
                     &c->tls_key,     &c->tls_client_ca,  &c->auth_token,    &c->auth_token_file,
                     &c->path,        &c->pce_dir,        &c->param_manifest};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) free_str(strs[i]);
    for (size_t i = 0; i < CUZK_CONFIG_MAX_KEYS; i++) free_str(&c->origin[i].text);
    for (size_t i = 0; i < c->num_warnings; i++) free(c->warnings[i]);
    free(c->warnings);
    c->warnings = NULL;
    c->num_warnings = 0;
}

bool cuzk_config_parse_size(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s)) return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0) return false;
    if (*end == ' ') end++;
    static const struct {
        const char *suffix;
        uint64_t mult;
    } units[] = {
        {"", 1},     {"B", 1},           {"K", KIB},  {"KiB", KIB},    {"Ki", KIB}, {"KB", 1000},
        {"M", MIB},  {"MiB", MIB},       {"Mi", MIB}, {"MB", 1000000}, {"G", GIB},  {"GiB", GIB},
        {"Gi", GIB}, {"GB", 1000000000}, {"T", TIB},  {"TiB", TIB},    {"Ti", TIB}, {"TB", 1000000000000ULL},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        /* the letter in either case, as the INI configuration took it ("8g") */
        const char *u = units[i].suffix;
        size_t n = strlen(u);
        if (strlen(end) != n) continue;
        bool same = n == 0 || (toupper((unsigned char)end[0]) == u[0] && strcmp(end + 1, u + 1) == 0);
        if (!same) continue;
        if (v > UINT64_MAX / units[i].mult) return false;
        *out = (uint64_t)v * units[i].mult;
        return true;
    }
    return false;
}

bool cuzk_config_parse_duration_ms(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s)) return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0) return false;
    uint64_t mult;
    if (strcmp(end, "ms") == 0) mult = 1;
    else if (*end == '\0' || strcmp(end, "s") == 0) mult = 1000;
    else if (strcmp(end, "m") == 0) mult = 60000;
    else if (strcmp(end, "h") == 0) mult = 3600000;
    else return false;
    if (v > UINT64_MAX / mult) return false;
    *out = v * mult;
    return true;
}

/* Copies s[0 .. n) without leading and trailing blanks. */
static char *strdup_trim(const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)*s)) s++, n--;
    while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
    char *r = malloc(n + 1);
    if (r != NULL) {
        memcpy(r, s, n);
        r[n] = '\0';
    }
    return r;
}

bool cuzk_config_add_listen(cuzk_daemon_config *c, const char *value, char *err, size_t errlen)
{
    const char *p = value;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char *addr = strdup_trim(p, n);
        if (addr == NULL) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        if (addr[0] == '\0') {
            free(addr);
            snprintf(err, errlen, "empty listen address in '%s'", value);
            return false;
        }
        if (cuzk_config_unix_path(addr) == NULL && strrchr(addr, ':') == NULL) {
            snprintf(err, errlen, "listen address '%s' is neither unix:///path nor host:port", addr);
            free(addr);
            return false;
        }
        if (c->num_listen == CUZK_CONFIG_MAX_LISTEN) {
            free(addr);
            snprintf(err, errlen, "more than %d listen addresses", CUZK_CONFIG_MAX_LISTEN);
            return false;
        }
        c->listen[c->num_listen++] = addr;
        if (comma == NULL) return true;
        p = comma + 1;
    }
}

const char *cuzk_config_unix_path(const char *addr)
{
    if (strncmp(addr, "unix://", 7) == 0) return addr + 7;
    if (strncmp(addr, "unix:", 5) == 0) return addr + 5;
    return NULL;
}

/* ---- storing a TOML value ---------------------------------------------------------------------------------------- */
static bool set_string(char **dst, const char *value)
{
    char *s = strdup(value);
    if (s == NULL) return false;
    free(*dst);
    *dst = s;
    return true;
}

static bool want(const cuzk_toml_node *v, cuzk_toml_type t, const char *what, char *why, size_t n)
{
    if (v->type == t) return true;
    snprintf(why, n, "expected %s, got %s", what, cuzk_toml_type_name(v->type));
    return false;
}

/* A size from "64GiB" or a whole number of bytes. */
static bool node_size(const cuzk_toml_node *v, uint64_t *out, char *why, size_t n)
{
    if (v->type == CUZK_TOML_INTEGER) {
        if (v->integer < 0) {
            snprintf(why, n, "a size cannot be negative (got %lld)", (long long)v->integer);
            return false;
        }
        *out = (uint64_t)v->integer;
        return true;
    }
    if (!want(v, CUZK_TOML_STRING, "a size such as \"64GiB\" or a number of bytes", why, n)) return false;
    if (v->str[0] == '-') {
        snprintf(why, n, "a size cannot be negative (got \"%.40s\")", v->str);
        return false;
    }
    if (!cuzk_config_parse_size(v->str, out)) {
        snprintf(why, n, "\"%.40s\" is not a size such as \"64GiB\", \"512M\" or \"8GB\"", v->str);
        return false;
    }
    return true;
}

static bool node_duration(const cuzk_toml_node *v, uint64_t *out, char *why, size_t n)
{
    if (v->type == CUZK_TOML_INTEGER) {
        if (v->integer < 0 || (uint64_t)v->integer > UINT64_MAX / 1000) {
            snprintf(why, n, "a duration cannot be negative (got %lld)", (long long)v->integer);
            return false;
        }
        *out = (uint64_t)v->integer * 1000;
        return true;
    }
    if (!want(v, CUZK_TOML_STRING, "a duration such as \"5m\" or a number of seconds", why, n)) return false;
    if (v->str[0] == '-') {
        snprintf(why, n, "a duration cannot be negative (got \"%.40s\")", v->str);
        return false;
    }
    if (!cuzk_config_parse_duration_ms(v->str, out)) {
        snprintf(why, n, "\"%.40s\" is not a duration such as \"500ms\", \"30s\", \"5m\" or \"1h\"", v->str);
        return false;
    }
    return true;
}

static bool node_count(const config_key *k, const cuzk_toml_node *v, unsigned *out, char *why, size_t n)
{
    if (!want(v, CUZK_TOML_INTEGER, "an integer", why, n)) return false;
    if (v->integer < (int64_t)k->min || (uint64_t)v->integer > k->max) {
        snprintf(why, n, "%lld is outside %llu .. %llu", (long long)v->integer, (unsigned long long)k->min,
                 (unsigned long long)k->max);
        return false;
    }
    *out = (unsigned)v->integer;
    return true;
}

static bool node_choice(const config_choice *ch, const cuzk_toml_node *v, unsigned *out, char *why, size_t n)
{
    char names[128] = "";
    size_t len = 0;
    for (const config_choice *c = ch; c->name != NULL; c++)
        len += (size_t)snprintf(names + len, len < sizeof names ? sizeof names - len : 0, "%s%s", c == ch ? "" : ", ",
                                c->name);
    if (v->type == CUZK_TOML_STRING) {
        for (const config_choice *c = ch; c->name != NULL; c++) {
            if (strcmp(v->str, c->name) == 0) {
                *out = c->value;
                return true;
            }
        }
        snprintf(why, n, "\"%.40s\" is not one of %s", v->str, names);
        return false;
    }
    snprintf(why, n, "expected one of %s (a string), got %s", names, cuzk_toml_type_name(v->type));
    return false;
}

static bool set_total_budget(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n)
{
    if (v->type == CUZK_TOML_STRING && strcmp(v->str, "auto") == 0) {
        c->total_budget_auto = true;
        c->total_budget = 0;
        return true;
    }
    uint64_t b;
    if (!node_size(v, &b, why, n)) {
        if (v->type == CUZK_TOML_STRING && v->str[0] != '-')
            snprintf(why, n, "expected \"auto\" or a size such as \"256GiB\"");
        return false;
    }
    c->total_budget_auto = false;
    c->total_budget = b;
    return true;
}

static bool set_whole_ntt_tables(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n)
{
    if (!want(v, CUZK_TOML_BOOLEAN, "true or false", why, n)) return false;
    c->split_ntt_tables = !v->boolean;
    return true;
}

static bool parse_level(const char *s, cuzk_log_level *out)
{
    if (strcasecmp(s, "trace") == 0) {
        *out = CUZK_LOG_DEBUG; /* Curio's most verbose level */
        return true;
    }
    return cuzk_log_parse_level(s, out);
}

/* A level, or Curio's filter directives ("info,cuzk_core=debug"): their plain level is used (info when none) and
 * the per-target ones, which name Curio's Rust modules, are dropped with a warning. */
static bool set_log_level(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n)
{
    if (!want(v, CUZK_TOML_STRING, "a level name (a string)", why, n)) return false;
    if (parse_level(v->str, &c->log_level)) return true;
    if (strchr(v->str, ',') == NULL && strchr(v->str, '=') == NULL) {
        snprintf(why, n, "\"%.40s\" is not one of trace, debug, info, warn, error", v->str);
        return false;
    }
    cuzk_log_level level = CUZK_LOG_INFO;
    bool targets = false;
    char item[64];
    for (const char *p = v->str; *p;) {
        size_t len = strcspn(p, ",");
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        char *t = item;
        while (isspace((unsigned char)*t)) t++;
        for (char *e = t + strlen(t); e > t && isspace((unsigned char)e[-1]);) *--e = '\0';
        if (strchr(t, '=') != NULL) {
            targets = true;
        } else if (t[0] != '\0' && !parse_level(t, &level)) {
            snprintf(why, n, "\"%.40s\" in \"%.60s\" is not one of trace, debug, info, warn, error", t, v->str);
            return false;
        }
        p += len;
        if (*p == ',') p++;
    }
    c->log_level = level;
    if (targets)
        warn(c, "[logging] level = \"%.200s\": per-target levels do not apply to cuzk; the plain level is used",
             v->str);
    return true;
}

static bool set_log_format(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n)
{
    unsigned f;
    if (!node_choice(format_choices, v, &f, why, n)) return false;
    c->log_json = f == 1;
    return true;
}

/* Keeps the secret out of the config file itself. */
static bool set_token_file(cuzk_daemon_config *c, const cuzk_toml_node *v, char *why, size_t n)
{
    if (!want(v, CUZK_TOML_STRING, "a file path", why, n)) return false;
    if (v->str[0] == '\0') return true; /* unset */
    FILE *f = fopen(v->str, "r");
    if (f == NULL) {
        snprintf(why, n, "cannot read the token file %.200s: %s", v->str, strerror(errno));
        return false;
    }
    char buf[512];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    char *t = strdup_trim(buf, len);
    if (t == NULL || t[0] == '\0') {
        free(t);
        snprintf(why, n, "the token file %.200s is empty", v->str);
        return false;
    }
    free(c->auth_token);
    c->auth_token = t;
    if (!set_string(&c->auth_token_file, v->str)) {
        snprintf(why, n, "out of memory");
        return false;
    }
    return true;
}

/* A value as TOML text (a not-applicable key's, kept for --check-config). */
static void render(const cuzk_toml_node *v, char *buf, size_t n)
{
    size_t len = 0;
    switch (v->type) {
    case CUZK_TOML_STRING: snprintf(buf, n, "\"%s\"", v->str); return;
    case CUZK_TOML_DATETIME: snprintf(buf, n, "%s", v->str); return;
    case CUZK_TOML_INTEGER: snprintf(buf, n, "%lld", (long long)v->integer); return;
    case CUZK_TOML_FLOAT: snprintf(buf, n, "%g", v->number); return;
    case CUZK_TOML_BOOLEAN: snprintf(buf, n, "%s", v->boolean ? "true" : "false"); return;
    case CUZK_TOML_ARRAY:
    case CUZK_TOML_TABLE:
        len = (size_t)snprintf(buf, n, "%s", v->type == CUZK_TOML_ARRAY ? "[" : "{");
        for (size_t i = 0; i < v->num_items && len < n; i++) {
            char item[256];
            render(&v->items[i], item, sizeof item);
            if (v->type == CUZK_TOML_TABLE)
                len += (size_t)snprintf(buf + len, n - len, "%s%s = %s", i ? ", " : "", v->items[i].key, item);
            else len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", item);
        }
        if (len < n) snprintf(buf + len, n - len, "%s", v->type == CUZK_TOML_ARRAY ? "]" : "}");
        return;
    }
}

static bool store(cuzk_daemon_config *c, const config_key *k, const cuzk_toml_node *v, char *why, size_t n)
{
    char *base = (char *)c;
    if (k->set != NULL) return k->set(c, v, why, n);
    switch (k->type) {
    case T_STRING:
    case T_PATH:
        if (!want(v, CUZK_TOML_STRING, k->type == T_PATH ? "a path (a string)" : "a string", why, n)) return false;
        if (v->str[0] == '\0') { /* empty: off, or the default */
            free_str((char **)(base + k->offset));
            return true;
        }
        if (!set_string((char **)(base + k->offset), v->str)) {
            snprintf(why, n, "out of memory");
            return false;
        }
        return true;
    case T_SIZE: {
        uint64_t b;
        if (!node_size(v, &b, why, n)) return false;
        if ((k->min != 0 && b < k->min) || (k->max != 0 && b > k->max)) {
            snprintf(why, n, "%llu bytes is outside %llu .. %llu", (unsigned long long)b, (unsigned long long)k->min,
                     (unsigned long long)k->max);
            return false;
        }
        *(uint64_t *)(base + k->offset) = b;
        return true;
    }
    case T_DURATION: return node_duration(v, (uint64_t *)(base + k->offset), why, n);
    case T_COUNT: return node_count(k, v, (unsigned *)(base + k->offset), why, n);
    case T_BOOL:
        if (!want(v, CUZK_TOML_BOOLEAN, "true or false", why, n)) return false;
        *(bool *)(base + k->offset) = v->boolean;
        return true;
    case T_CHOICE: return node_choice(k->choices, v, (unsigned *)(base + k->offset), why, n);
    case T_LISTEN: {
        const cuzk_toml_node *items = v->type == CUZK_TOML_ARRAY ? v->items : v;
        size_t count = v->type == CUZK_TOML_ARRAY ? v->num_items : 1;
        if (v->type != CUZK_TOML_ARRAY && !want(v, CUZK_TOML_STRING, "an address or an array of them", why, n))
            return false;
        if (count == 0) {
            snprintf(why, n, "no address: give at least one");
            return false;
        }
        cuzk_config_clear_listen(c);
        for (size_t i = 0; i < count; i++) {
            if (!want(&items[i], CUZK_TOML_STRING, "addresses (strings)", why, n)) return false;
            if (!cuzk_config_add_listen(c, items[i].str, why, n)) return false;
        }
        return true;
    }
    case T_DEVICES:
        if (!want(v, CUZK_TOML_ARRAY, "an array of GPU ordinals such as [0, 1]", why, n)) return false;
        if (v->num_items > CUZK_CONFIG_MAX_GPUS) {
            snprintf(why, n, "more than %d GPUs", CUZK_CONFIG_MAX_GPUS);
            return false;
        }
        for (size_t i = 0; i < v->num_items; i++) {
            const cuzk_toml_node *d = &v->items[i];
            if (d->type != CUZK_TOML_INTEGER || d->integer < 0 || d->integer > 1023) {
                snprintf(why, n, "element %zu is not a GPU ordinal 0 .. 1023", i);
                return false;
            }
            c->devices[i] = (int)d->integer;
        }
        c->num_devices = v->num_items;
        return true;
    case T_NA: return true;
    }
    return false;
}

/* ---- loading ----------------------------------------------------------------------------------------------------- */
static void warn(cuzk_daemon_config *c, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char **w = realloc(c->warnings, (c->num_warnings + 1) * sizeof *w);
    if (w == NULL) return;
    c->warnings = w;
    if ((w[c->num_warnings] = strdup(line)) != NULL) c->num_warnings++;
}

static const config_key *find_key(const char *section, const char *key, size_t *index)
{
    for (size_t i = 0; i < NUM_KEYS; i++) {
        if (strcmp(config_keys[i].section, section) == 0 && (key == NULL || strcmp(config_keys[i].key, key) == 0)) {
            if (index != NULL) *index = i;
            return &config_keys[i];
        }
    }
    return NULL;
}

/* The row of a key the code names (it exists: the table is this file's). */
static size_t key_index(const char *section, const char *key)
{
    size_t i = 0;
    find_key(section, key, &i);
    return i;
}

static void section_names(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NUM_KEYS && len < n; i++)
        if (i == 0 || strcmp(config_keys[i].section, config_keys[i - 1].section) != 0)
            len += (size_t)snprintf(buf + len, n - len, "%s[%s]", i ? ", " : "", config_keys[i].section);
}

static bool load_section(cuzk_daemon_config *c, const cuzk_toml_node *sec, const char *path, char *err, size_t errlen)
{
    for (size_t j = 0; j < sec->num_items; j++) {
        const cuzk_toml_node *v = &sec->items[j];
        size_t idx = 0;
        const config_key *k = find_key(sec->key, v->key, &idx);
        if (k == NULL) {
            snprintf(err, errlen, "%s: line %u: unknown key '%s' in [%s]", path, v->line, v->key, sec->key);
            return false;
        }
        char why[300] = "";
        if (!store(c, k, v, why, sizeof why)) {
            snprintf(err, errlen, "%s: line %u: [%s] %s: %s", path, v->line, k->section, k->key, why);
            return false;
        }
        c->origin[idx].source = CUZK_CONFIG_FILE;
        c->origin[idx].line = v->line;
        if (k->type == T_NA) {
            char text[256];
            render(v, text, sizeof text);
            free(c->origin[idx].text);
            c->origin[idx].text = strdup(text);
            warn(c, "%s: line %u: [%s] %s = %s does not apply to cuzk and is ignored: %s", path, v->line, k->section,
                 k->key, text, k->help);
        }
    }
    return true;
}

static bool load_tree(cuzk_daemon_config *c, cuzk_toml_node *root, const char *path, char *err, size_t errlen);

bool cuzk_config_load_file(cuzk_daemon_config *c, const char *path, char *err, size_t errlen)
{
    err[0] = '\0';
    free(c->path);
    c->path = strdup(path);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        c->path_missing = true; /* Curio's daemon starts on its defaults too */
        return true;
    }
    cuzk_toml_node *root = NULL;
    char why[400];
    if (!cuzk_toml_parse_file(path, &root, why, sizeof why)) {
        size_t n = strlen(path);
        bool ini = n > 4 && strcmp(path + n - 4, ".ini") == 0;
        snprintf(err, errlen, "%s: %s%s", path, why,
                 ini ? " (the configuration is TOML: INI files were retired, see docs/daemon.md \"From INI\")" : "");
        return false;
    }
    return load_tree(c, root, path, err, errlen);
}

bool cuzk_config_load_string(cuzk_daemon_config *c, const char *text, const char *name, char *err, size_t errlen)
{
    err[0] = '\0';
    free(c->path);
    c->path = strdup(name);
    cuzk_toml_node *root = NULL;
    char why[400];
    if (!cuzk_toml_parse_string(text, &root, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", name, why);
        return false;
    }
    return load_tree(c, root, name, err, errlen);
}

/* The sections of a parsed file over the defaults; frees root. */
static bool load_tree(cuzk_daemon_config *c, cuzk_toml_node *root, const char *path, char *err, size_t errlen)
{
    bool ok = true;
    for (size_t i = 0; ok && i < root->num_items; i++) {
        const cuzk_toml_node *sec = &root->items[i];
        if (sec->type != CUZK_TOML_TABLE) {
            snprintf(err, errlen,
                     "%s: line %u: '%s' is outside any section (keys belong under a [section] such as "
                     "[daemon])",
                     path, sec->line, sec->key);
            ok = false;
        } else if (find_key(sec->key, NULL, NULL) == NULL) {
            char names[300];
            section_names(names, sizeof names);
            snprintf(err, errlen, "%s: line %u: unknown section [%s] (the sections are %s)", path, sec->line, sec->key,
                     names);
            ok = false;
        } else {
            /* a table inside a section ([daemon.x]) names no key */
            for (size_t j = 0; ok && j < sec->num_items; j++) {
                const cuzk_toml_node *v = &sec->items[j];
                if (v->type == CUZK_TOML_TABLE && find_key(sec->key, v->key, NULL) == NULL) {
                    snprintf(err, errlen, "%s: line %u: unknown section [%s.%s]", path, v->line, sec->key, v->key);
                    ok = false;
                }
            }
            ok = ok && load_section(c, sec, path, err, errlen);
        }
    }
    cuzk_toml_free(root);
    if (!ok) return false;
    /* Curio's names for cuzk's keys: cuzk's own key wins when both are given */
    size_t a = key_index("pipeline", "max_parallel_synthesis"), b = key_index("synthesis", "workers");
    if (c->max_parallel_synthesis > 0 && c->origin[b].source == CUZK_CONFIG_FILE)
        warn(c,
             "%s: line %u: [pipeline] max_parallel_synthesis = %u is overridden by [synthesis] workers = %u "
             "(line %u)",
             path, c->origin[a].line, c->max_parallel_synthesis, c->synthesis_workers, c->origin[b].line);
    a = key_index("pipeline", "max_gpu_queue_depth");
    b = key_index("scheduler", "gpu_queue_depth");
    if (c->max_gpu_queue_depth > 0 && c->origin[b].source == CUZK_CONFIG_FILE)
        warn(c,
             "%s: line %u: [pipeline] max_gpu_queue_depth = %u is overridden by [scheduler] gpu_queue_depth = %u "
             "(line %u)",
             path, c->origin[a].line, c->max_gpu_queue_depth, c->gpu_queue_depth, c->origin[b].line);
    return true;
}

bool cuzk_config_flag_listen(cuzk_daemon_config *c, const char *const *values, size_t n, char *err, size_t errlen)
{
    cuzk_config_clear_listen(c);
    for (size_t i = 0; i < n; i++)
        if (!cuzk_config_add_listen(c, values[i], err, errlen)) return false;
    c->origin[key_index("daemon", "listen")].source = CUZK_CONFIG_FLAG;
    return true;
}

bool cuzk_config_flag_log_level(cuzk_daemon_config *c, const char *value, char *err, size_t errlen)
{
    cuzk_toml_node v;
    memset(&v, 0, sizeof v);
    v.type = CUZK_TOML_STRING;
    v.str = (char *)value;
    char why[200];
    if (!set_log_level(c, &v, why, sizeof why)) {
        snprintf(err, errlen, "--log-level: %s", why);
        return false;
    }
    c->origin[key_index("logging", "level")].source = CUZK_CONFIG_FLAG;
    return true;
}

bool cuzk_config_flag_set(cuzk_daemon_config *c, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = eq != NULL ? memchr(assignment, '.', (size_t)(eq - assignment)) : NULL;
    if (eq == NULL || dot == NULL) {
        snprintf(err, errlen, "--set '%.200s': expected SECTION.KEY=VALUE", assignment);
        return false;
    }
    char section[64], key[64];
    snprintf(section, sizeof section, "%.*s", (int)(dot - assignment), assignment);
    snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
    size_t idx = 0;
    const config_key *k = find_key(section, key, &idx);
    if (k == NULL) {
        snprintf(err, errlen, "--set: unknown key %s.%s", section, key);
        return false;
    }
    /* the value as TOML (v = ...), else as a string: --set srs.param_cache=/tmp/p needs no quotes */
    const char *value = eq + 1;
    size_t n = strlen(value);
    char *doc = malloc(2 * n + 8);
    if (doc == NULL) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    cuzk_toml_node *root = NULL;
    char why[300];
    snprintf(doc, 2 * n + 8, "v = %s\n", value);
    if (!cuzk_toml_parse_string(doc, &root, why, sizeof why)) {
        size_t len = (size_t)snprintf(doc, 2 * n + 8, "v = \"");
        for (const char *p = value; *p; p++) {
            if (*p == '"' || *p == '\\') doc[len++] = '\\';
            doc[len++] = *p;
        }
        snprintf(doc + len, 3, "\"\n");
        if (!cuzk_toml_parse_string(doc, &root, why, sizeof why)) {
            free(doc);
            snprintf(err, errlen, "--set %s.%s: %s", section, key, why);
            return false;
        }
    }
    free(doc);
    snprintf(why, sizeof why, "expected one value");
    bool ok = root->num_items == 1 && store(c, k, &root->items[0], why, sizeof why);
    if (!ok) snprintf(err, errlen, "--set %s.%s: %s", section, key, why);
    if (ok && k->type == T_NA) {
        char text[256];
        render(&root->items[0], text, sizeof text);
        free(c->origin[idx].text);
        c->origin[idx].text = strdup(text);
        warn(c, "--set: [%s] %s = %s does not apply to cuzk and is ignored: %s", section, key, text, k->help);
    }
    cuzk_toml_free(root);
    if (!ok) return false;
    c->origin[idx].source = CUZK_CONFIG_FLAG;
    c->origin[idx].line = 0;
    return true;
}

bool cuzk_config_check(const cuzk_daemon_config *c, char *err, size_t errlen)
{
    if ((c->tls_cert == NULL) != (c->tls_key == NULL)) {
        snprintf(err, errlen, "[tls] needs both cert and key");
        return false;
    }
    return true;
}

/* ---- what the daemon runs with ----------------------------------------------------------------------------------- */
void cuzk_config_resolve(const cuzk_daemon_config *c, cuzk_config_effective *e)
{
    memset(e, 0, sizeof *e);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    e->physical_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 8 * GIB;
    if (c->total_budget_auto) {
        /* a machine smaller than twice the margin keeps half its memory instead */
        e->total_budget = e->physical_bytes > 2 * c->safety_margin ? e->physical_bytes - c->safety_margin
                                                                   : e->physical_bytes / 2;
    } else {
        e->total_budget = c->total_budget;
    }
    if (c->working_memory_budget != 0) e->working_memory_budget = c->working_memory_budget;
    else if (c->pinned_budget != 0 && c->pinned_budget < e->total_budget)
        e->working_memory_budget = e->total_budget - c->pinned_budget;
    else e->working_memory_budget = e->total_budget;

    size_t w = key_index("synthesis", "workers");
    e->synthesis_workers = c->synthesis_workers;
    if (c->origin[w].source == CUZK_CONFIG_DEFAULT && c->max_parallel_synthesis > 0)
        e->synthesis_workers = c->max_parallel_synthesis;
    if (e->synthesis_workers == 0) e->synthesis_workers = 1;
    e->synthesis_threads = c->synthesis_threads;
    if (e->synthesis_threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        e->synthesis_threads = cpus > 0 ? (unsigned)cpus / e->synthesis_workers : 1;
        if (e->synthesis_threads == 0) e->synthesis_threads = 1;
    }
    size_t q = key_index("scheduler", "gpu_queue_depth");
    e->gpu_queue_depth = c->gpu_queue_depth;
    if (c->origin[q].source == CUZK_CONFIG_DEFAULT && c->max_gpu_queue_depth > 0)
        e->gpu_queue_depth = c->max_gpu_queue_depth;

    const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (c->param_cache != NULL) {
        snprintf(e->param_cache, sizeof e->param_cache, "%s", c->param_cache);
        e->param_cache_from = "[srs] param_cache";
    } else if (env != NULL && env[0] != '\0') {
        snprintf(e->param_cache, sizeof e->param_cache, "%s", env);
        e->param_cache_from = "$FIL_PROOFS_PARAMETER_CACHE";
    } else {
        snprintf(e->param_cache, sizeof e->param_cache, "%s", CUZK_CONFIG_DEFAULT_PARAMS);
        e->param_cache_from = "the default";
    }
    if (c->pce_dir != NULL) snprintf(e->pce_dir, sizeof e->pce_dir, "%s", c->pce_dir);
    else snprintf(e->pce_dir, sizeof e->pce_dir, "%s/cuzk-pce", e->param_cache);
}

/* ---- --check-config ---------------------------------------------------------------------------------------------- */
/* A size as TOML: the largest binary unit that divides it, else bytes. */
static void fmt_size(uint64_t b, char *buf, size_t n)
{
    static const struct {
        uint64_t unit;
        const char *name;
    } units[] = {{TIB, "TiB"}, {GIB, "GiB"}, {MIB, "MiB"}, {KIB, "KiB"}};
    for (size_t i = 0; b != 0 && i < sizeof units / sizeof units[0]; i++) {
        if (b % units[i].unit == 0) {
            snprintf(buf, n, "\"%llu%s\"", (unsigned long long)(b / units[i].unit), units[i].name);
            return;
        }
    }
    snprintf(buf, n, "%llu", (unsigned long long)b);
}

static void fmt_duration(uint64_t ms, char *buf, size_t n)
{
    if (ms != 0 && ms % 3600000 == 0) snprintf(buf, n, "\"%lluh\"", (unsigned long long)(ms / 3600000));
    else if (ms != 0 && ms % 60000 == 0) snprintf(buf, n, "\"%llum\"", (unsigned long long)(ms / 60000));
    else if (ms % 1000 == 0) snprintf(buf, n, "\"%llus\"", (unsigned long long)(ms / 1000));
    else snprintf(buf, n, "\"%llums\"", (unsigned long long)ms);
}

/* a TOML basic string */
static void fmt_string(const char *s, char *buf, size_t n)
{
    size_t len = 0;
    if (n < 3) return;
    buf[len++] = '"';
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && len + 8 < n; p++) {
        if (*p == '"' || *p == '\\') len += (size_t)snprintf(buf + len, n - len, "\\%c", *p);
        else if (*p < 0x20) len += (size_t)snprintf(buf + len, n - len, "\\u%04x", *p);
        else buf[len++] = (char)*p;
    }
    buf[len++] = '"';
    buf[len] = '\0';
}

static void fmt_value(const cuzk_daemon_config *c, const cuzk_config_effective *e, const config_key *k, size_t idx,
                      char *buf, size_t n)
{
    const char *base = (const char *)c;
    size_t len = 0;
    if (strcmp(k->key, "total_budget") == 0 && c->total_budget_auto) {
        snprintf(buf, n, "\"auto\"");
        return;
    }
    if (strcmp(k->key, "whole_ntt_tables") == 0) {
        snprintf(buf, n, "%s", c->split_ntt_tables ? "false" : "true");
        return;
    }
    if (strcmp(k->section, "logging") == 0) {
        static const char *const levels[] = {"debug", "info", "warn", "error"};
        if (strcmp(k->key, "level") == 0) snprintf(buf, n, "\"%s\"", levels[c->log_level]);
        else snprintf(buf, n, "\"%s\"", c->log_json ? "json" : "text");
        return;
    }
    if (strcmp(k->key, "param_cache") == 0 && c->param_cache == NULL) {
        fmt_string(e->param_cache, buf, n); /* what the daemon uses */
        return;
    }
    if (strcmp(k->key, "token") == 0 && c->auth_token != NULL) {
        snprintf(buf, n, "\"(%zu bytes, not shown)\"", strlen(c->auth_token));
        return;
    }
    switch (k->type) {
    case T_STRING:
    case T_PATH: fmt_string(*(char *const *)(base + k->offset), buf, n); return;
    case T_SIZE: fmt_size(*(const uint64_t *)(base + k->offset), buf, n); return;
    case T_DURATION: fmt_duration(*(const uint64_t *)(base + k->offset), buf, n); return;
    case T_COUNT: snprintf(buf, n, "%u", *(const unsigned *)(base + k->offset)); return;
    case T_BOOL: snprintf(buf, n, "%s", *(const bool *)(base + k->offset) ? "true" : "false"); return;
    case T_CHOICE: {
        unsigned v = *(const unsigned *)(base + k->offset);
        for (const config_choice *ch = k->choices; ch->name != NULL; ch++)
            if (ch->value == v) snprintf(buf, n, "\"%s\"", ch->name);
        return;
    }
    case T_LISTEN:
        len = (size_t)snprintf(buf, n, "[");
        for (size_t i = 0; i < c->num_listen && len < n; i++) {
            char s[600];
            fmt_string(c->listen[i], s, sizeof s);
            len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", s);
        }
        if (len < n) snprintf(buf + len, n - len, "]");
        return;
    case T_DEVICES:
        len = (size_t)snprintf(buf, n, "[");
        for (size_t i = 0; i < c->num_devices && len < n; i++)
            len += (size_t)snprintf(buf + len, n - len, "%s%d", i ? ", " : "", c->devices[i]);
        if (len < n) snprintf(buf + len, n - len, "]");
        return;
    case T_NA: snprintf(buf, n, "%s", c->origin[idx].text != NULL ? c->origin[idx].text : k->def); return;
    }
}

static void fmt_bytes(uint64_t b, char *buf, size_t n) { snprintf(buf, n, "%.1f GiB", (double)b / (double)GIB); }

static void note_total(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n)
{
    char t[32], p[32];
    fmt_bytes(e->total_budget, t, sizeof t);
    fmt_bytes(e->physical_bytes, p, sizeof p);
    if (c->total_budget_auto) snprintf(buf, n, "%s: %s of memory less safety_margin", t, p);
}

static void note_working(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n)
{
    char t[32];
    fmt_bytes(e->working_memory_budget, t, sizeof t);
    if (c->working_memory_budget == 0)
        snprintf(buf, n, "%s: total_budget%s", t, c->pinned_budget != 0 ? " less pinned_budget" : "");
}

static void note_workers(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n)
{
    if (e->synthesis_workers != c->synthesis_workers)
        snprintf(buf, n, "%u%s", e->synthesis_workers,
                 c->max_parallel_synthesis > 0 && c->synthesis_workers == 0 ? ": [pipeline] max_parallel_synthesis"
                                                                            : "");
}

static void note_threads(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n)
{
    if (c->synthesis_threads == 0) snprintf(buf, n, "%u: the online processors over the workers", e->synthesis_threads);
}

static void note_depth(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n)
{
    if (e->gpu_queue_depth != c->gpu_queue_depth)
        snprintf(buf, n, "%u: [pipeline] max_gpu_queue_depth", e->gpu_queue_depth);
}

static void note_params(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n)
{
    if (c->param_cache == NULL && e->param_cache_from[0] == '$') snprintf(buf, n, "from %s", e->param_cache_from);
}

static void note_pce_dir(const cuzk_daemon_config *c, const cuzk_config_effective *e, char *buf, size_t n)
{
    if (c->pce_dir == NULL) snprintf(buf, n, "%s", e->pce_dir);
}

void cuzk_config_print(const cuzk_daemon_config *c, FILE *f)
{
    cuzk_config_effective e;
    cuzk_config_resolve(c, &e);
    fprintf(f, "# cuzk-daemon configuration: %s\n",
            c->path == NULL   ? "no file, defaults and flags"
            : c->path_missing ? "the file does not exist, defaults and flags"
                              : "file, defaults and flags");
    if (c->path != NULL) fprintf(f, "# file: %s%s\n", c->path, c->path_missing ? " (missing)" : "");
    for (size_t i = 0; i < NUM_KEYS; i++) {
        const config_key *k = &config_keys[i];
        if (i == 0 || strcmp(k->section, config_keys[i - 1].section) != 0)
            fprintf(f, "%s[%s]\n", i ? "\n" : "", k->section);
        char value[1200], from[64], note[300] = "";
        fmt_value(c, &e, k, i, value, sizeof value);
        if (c->origin[i].source == CUZK_CONFIG_FILE) snprintf(from, sizeof from, "file, line %u", c->origin[i].line);
        else snprintf(from, sizeof from, "%s", c->origin[i].source == CUZK_CONFIG_FLAG ? "flag" : "default");
        if (k->note != NULL) k->note(c, &e, note, sizeof note);
        if (k->type == T_NA) fprintf(f, "%s = %s  # %s; does not apply: %s\n", k->key, value, from, k->help);
        else if (note[0] != '\0') fprintf(f, "%s = %s  # %s (%s)\n", k->key, value, from, note);
        else fprintf(f, "%s = %s  # %s\n", k->key, value, from);
    }
}
