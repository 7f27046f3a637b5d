/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-daemon configuration: a TOML file, then command-line flags. Curio's cuzk.toml is read as it is: every key
 * of Curio's daemon is either honoured or accepted with one warning saying it does not apply to cuzk; cuzk's own
 * keys sit beside them. Every key is a row of config.c's key table (section, key, type, storage, default, help);
 * an unknown section or key, a value of the wrong type or out of range, and a TOML syntax error are errors that
 * name the line and the key, so that a typo never silently falls back to a default. */
#ifndef CUZK_SERVER_CONFIG_H
#define CUZK_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"

/* Curio's: its daemon's configuration file and listen address */
#define CUZK_CONFIG_DEFAULT_PATH "/data/zk/cuzk.toml"
#define CUZK_CONFIG_DEFAULT_LISTEN "unix:///run/curio/cuzk.sock"
/* where Filecoin's proof parameters live when $FIL_PROOFS_PARAMETER_CACHE is not set */
#define CUZK_CONFIG_DEFAULT_PARAMS "/var/tmp/filecoin-proof-parameters"

#define CUZK_CONFIG_MAX_LISTEN 8
#define CUZK_CONFIG_MAX_GPUS 64
#define CUZK_CONFIG_MAX_KEYS 64 /* rows of the key table (config.c checks) */

typedef enum { CUZK_CONFIG_DEFAULT = 0, CUZK_CONFIG_FILE, CUZK_CONFIG_FLAG } cuzk_config_source;

typedef struct {
    /* [daemon] */
    char *listen[CUZK_CONFIG_MAX_LISTEN]; /* unix:///path, unix:/path or host:port */
    size_t num_listen;
    uint64_t max_message_bytes;    /* gRPC receive and send limit */
    uint64_t shutdown_timeout_ms;  /* SIGTERM: how long running work may finish before it is cancelled */
    uint64_t interrupt_timeout_ms; /* SIGINT: the same, shorter */
    unsigned server_threads;       /* threads polling the completion queue */
    char *status_listen;           /* host:port of Curio's status page (/status, /metrics); NULL = none */
    /* [memory] */
    bool total_budget_auto; /* "auto": physical memory less safety_margin */
    uint64_t total_budget, safety_margin;
    uint64_t pinned_budget, working_memory_budget, vram_budget;
    /* [gpus] */
    int devices[CUZK_CONFIG_MAX_GPUS];
    size_t num_devices;
    unsigned gpu_workers_per_device; /* 0 = the backend's default */
    unsigned backend;                /* cuzk_engine_backend_kind: 0 auto, 1 cpu, 2 gpu */
    bool latency_mode;               /* GPUs in pairs, each partition split over its pair */
    bool split_ntt_tables;           /* whole_ntt_tables = false: the provers keep the small split NTT tables */
    /* [scheduler] */
    unsigned gpu_queue_depth;
    uint64_t result_ttl_ms;
    /* [synthesis] */
    unsigned synthesis_threads, synthesis_workers, prover_threads;
    /* [pipeline]: Curio's names for the last two: > 0 sets them unless cuzk's own key is given */
    unsigned max_parallel_synthesis, max_gpu_queue_depth;
    /* [srs] */
    char *param_cache;    /* NULL: $FIL_PROOFS_PARAMETER_CACHE, else CUZK_CONFIG_DEFAULT_PARAMS */
    char *pce_dir;        /* the Filecoin circuits' shape cache; NULL: <param_cache>/cuzk-pce */
    bool verify_digest;   /* a .params file's manifest digest is checked before its first use */
    char *param_manifest; /* a parameters.json whose digests come before the built-in manifest's; NULL: none */
    /* [logging] */
    cuzk_log_level log_level;
    bool log_json;
    /* [metrics] */
    char *metrics_listen; /* host:port; NULL = no HTTP endpoint */
    /* [tls]: TCP listeners use TLS when cert and key are both set */
    char *tls_cert, *tls_key, *tls_client_ca;
    /* [auth]: bearer token every TCP call must carry in its authorization metadata; NULL = none */
    char *auth_token, *auth_token_file;

    /* Per row of the key table: where its value came from, its line in the file, and for keys that do not apply
     * the value as written (for --check-config). */
    struct {
        cuzk_config_source source;
        unsigned line;
        char *text;
    } origin[CUZK_CONFIG_MAX_KEYS];
    char *path;        /* the file read (NULL: none) */
    bool path_missing; /* it did not exist: every key has its default */
    char **warnings;   /* one line per key that does not apply, or that another key overrides */
    size_t num_warnings;
} cuzk_daemon_config;

/* What the daemon runs with, resolved from the keys (the engine's and the logging's values). */
typedef struct {
    uint64_t physical_bytes;        /* the machine's memory */
    uint64_t total_budget;          /* [memory] total_budget, "auto" resolved */
    uint64_t working_memory_budget; /* [memory] working_memory_budget, else total_budget less pinned_budget */
    unsigned synthesis_workers;     /* [synthesis] workers, else [pipeline] max_parallel_synthesis, else 1 */
    unsigned synthesis_threads;     /* [synthesis] threads, 0: the online processors shared by the workers */
    unsigned gpu_queue_depth;       /* [scheduler] gpu_queue_depth, else [pipeline] max_gpu_queue_depth */
    char param_cache[4096];
    const char *param_cache_from; /* "[srs] param_cache", "$FIL_PROOFS_PARAMETER_CACHE" or "the default" */
    char pce_dir[4200];           /* [srs] pce_dir, else <param_cache>/cuzk-pce */
} cuzk_config_effective;

void cuzk_config_defaults(cuzk_daemon_config *c);
void cuzk_config_free(cuzk_daemon_config *c);
/* Reads a TOML file over the defaults. A file that does not exist leaves the defaults (path_missing). False with a
 * message naming the file, the line and the key. Keys that do not apply add warnings. */
bool cuzk_config_load_file(cuzk_daemon_config *c, const char *path, char *err, size_t errlen);
/* The same from a NUL-terminated document in memory; name stands for the file in messages. */
bool cuzk_config_load_string(cuzk_daemon_config *c, const char *text, const char *name, char *err, size_t errlen);
/* Command-line flags, applied after the file: -l/--listen (each value one address or a comma-separated list; they
 * replace [daemon] listen), --log-level (replaces [logging] level) and --set. */
bool cuzk_config_flag_listen(cuzk_daemon_config *c, const char *const *values, size_t n, char *err, size_t errlen);
bool cuzk_config_flag_log_level(cuzk_daemon_config *c, const char *value, char *err, size_t errlen);
/* --set SECTION.KEY=VALUE: any key, VALUE as a TOML value (a bare word is taken as a string). */
bool cuzk_config_flag_set(cuzk_daemon_config *c, const char *assignment, char *err, size_t errlen);
/* Checks between keys ([tls] cert and key together). */
bool cuzk_config_check(const cuzk_daemon_config *c, char *err, size_t errlen);
void cuzk_config_resolve(const cuzk_daemon_config *c, cuzk_config_effective *out);
/* --check-config: every key with its value and where it came from, as TOML (sections in the table's order; keys
 * that do not apply, with their reason, in comments). */
void cuzk_config_print(const cuzk_daemon_config *c, FILE *f);

/* Adds one listen value or a comma-separated list of them. */
bool cuzk_config_add_listen(cuzk_daemon_config *c, const char *value, char *err, size_t errlen);
void cuzk_config_clear_listen(cuzk_daemon_config *c);

/* "256M", "64GiB", "1.5" not accepted: a whole number, optionally a space, then K, M, G, T (powers of 1024, with an
 * optional i and/or B) or KB, MB, GB, TB (powers of 1000, as Curio reads them); a bare number is bytes. */
bool cuzk_config_parse_size(const char *s, uint64_t *out);
/* "30s", "500ms", "10m", "1h"; a bare number is seconds. */
bool cuzk_config_parse_duration_ms(const char *s, uint64_t *out);

/* The filesystem path of a unix: listen address, or NULL when the address is TCP. Points into addr. */
const char *cuzk_config_unix_path(const char *addr);

#endif
