/* cuzk-daemon configuration: an INI file read with libinih, then command-line overrides. Every key the daemon knows
 * is listed in config.c; an unknown section or key is an error that names it, so that a typo never silently falls
 * back to a default. */
#ifndef CUZK_SERVER_CONFIG_H
#define CUZK_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"

#define CUZK_CONFIG_MAX_LISTEN 8
#define CUZK_CONFIG_MAX_GPUS 64

typedef struct {
    /* [daemon] */
    char *listen[CUZK_CONFIG_MAX_LISTEN]; /* unix:///path, unix:/path or host:port */
    size_t num_listen;
    uint64_t max_message_bytes;     /* gRPC receive and send limit */
    uint64_t shutdown_timeout_ms;   /* SIGTERM: how long running work may finish before it is cancelled */
    uint64_t interrupt_timeout_ms;  /* SIGINT: the same, shorter */
    unsigned server_threads;        /* threads polling the completion queue */
    /* [memory] */
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
    /* [srs] */
    char *param_cache;
    /* [logging] */
    cuzk_log_level cuzk_log_level;
    bool log_json;
    /* [metrics] */
    char *metrics_listen; /* host:port; NULL = no HTTP endpoint */
    /* [tls]: TCP listeners use TLS when cert and key are both set */
    char *tls_cert, *tls_key, *tls_client_ca;
    /* [auth]: bearer token every TCP call must carry in its authorization metadata; NULL = none */
    char *auth_token;
} cuzk_daemon_config;

void cuzk_config_defaults(cuzk_daemon_config *c);
void cuzk_config_free(cuzk_daemon_config *c);
/* Reads an INI file over the current values. Returns false with a message naming the line, section and key. */
bool cuzk_config_load_file(cuzk_daemon_config *c, const char *path, char *err, size_t errlen);
/* Adds one listen value or a comma-separated list of them. */
bool cuzk_config_add_listen(cuzk_daemon_config *c, const char *value, char *err, size_t errlen);
void cuzk_config_clear_listen(cuzk_daemon_config *c);

/* "256M" -> 268435456; suffixes K, M, G, T (powers of 1024, optional trailing B or iB). */
bool cuzk_config_parse_size(const char *s, uint64_t *out);
/* "30s", "500ms", "10m", "1h"; a bare number is seconds. */
bool cuzk_config_parse_duration_ms(const char *s, uint64_t *out);

/* The filesystem path of a unix: listen address, or NULL when the address is TCP. Points into addr. */
const char *cuzk_config_unix_path(const char *addr);

#endif
