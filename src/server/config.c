/* cuzk-daemon configuration (see config.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_DEFAULT_LISTEN "unix:///run/cuzk/cuzk.sock"

void cuzk_config_defaults(cuzk_daemon_config *c)
{
    memset(c, 0, sizeof *c);
    c->max_message_bytes = 256ull << 20; /* what Curio's client allows both ways */
    c->shutdown_timeout_ms = 60000;
    c->interrupt_timeout_ms = 5000;
    c->server_threads = 2;
    c->gpu_workers_per_device = 0; /* the backend's default: 1 per GPU and on the CPU */
    c->gpu_queue_depth = 4;
    c->result_ttl_ms = 600000;
    c->cuzk_log_level = CUZK_LOG_INFO;
}

static void config_free_str(char **s)
{
    free(*s);
    *s = NULL;
}

void cuzk_config_clear_listen(cuzk_daemon_config *c)
{
    for (size_t i = 0; i < c->num_listen; i++) {
        config_free_str(&c->listen[i]);
    }
    c->num_listen = 0;
}

void cuzk_config_free(cuzk_daemon_config *c)
{
    cuzk_config_clear_listen(c);
    config_free_str(&c->param_cache);
    config_free_str(&c->metrics_listen);
    config_free_str(&c->tls_cert);
    config_free_str(&c->tls_key);
    config_free_str(&c->tls_client_ca);
    config_free_str(&c->auth_token);
}

bool cuzk_config_parse_size(const char *s, uint64_t *out)
{
    errno = 0;
    char *end;
    if (!isdigit((unsigned char)*s)) {
        return false;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0) {
        return false;
    }
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift != 0 && *end == 'i') {
        end++;
    }
    if (toupper((unsigned char)*end) == 'B') {
        end++;
    }
    if (*end != '\0' || (shift != 0 && v > (UINT64_MAX >> shift))) {
        return false;
    }
    *out = (uint64_t)v << shift;
    return true;
}

bool cuzk_config_parse_duration_ms(const char *s, uint64_t *out)
{
    errno = 0;
    char *end;
    if (!isdigit((unsigned char)*s)) {
        return false;
    }
    unsigned long long v = strtoull(s, &end, 10);
    uint64_t mult;
    if (errno != 0) {
        return false;
    }
    if (strcmp(end, "ms") == 0) {
        mult = 1;
    } else if (*end == '\0' || strcmp(end, "s") == 0) {
        mult = 1000;
    } else if (strcmp(end, "m") == 0) {
        mult = 60000;
    } else if (strcmp(end, "h") == 0) {
        mult = 3600000;
    } else {
        return false;
    }
    if (v > UINT64_MAX / mult) {
        return false;
    }
    *out = v * mult;
    return true;
}

static bool config_parse_bool(const char *s, bool *out)
{
    if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0 || strcmp(s, "on") == 0 || strcmp(s, "1") == 0) {
        *out = true;
        return true;
    }
    if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0 || strcmp(s, "off") == 0 || strcmp(s, "0") == 0) {
        *out = false;
        return true;
    }
    return false;
}

static bool config_parse_uint(const char *s, unsigned max, unsigned *out)
{
    errno = 0;
    char *end;
    if (!isdigit((unsigned char)*s)) {
        return false;
    }
    unsigned long v = strtoul(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > max) {
        return false;
    }
    *out = (unsigned)v;
    return true;
}

/* Copies s without leading and trailing blanks. */
static char *config_strdup_trim(const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1])) {
        n--;
    }
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
        char *addr = config_strdup_trim(p, n);
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
        if (comma == NULL) {
            return true;
        }
        p = comma + 1;
    }
}

const char *cuzk_config_unix_path(const char *addr)
{
    if (strncmp(addr, "unix://", 7) == 0) {
        return addr + 7;
    }
    if (strncmp(addr, "unix:", 5) == 0) {
        return addr + 5;
    }
    return NULL;
}

static bool config_parse_devices(cuzk_daemon_config *c, const char *value)
{
    c->num_devices = 0;
    const char *p = value;
    while (*p) {
        while (*p == ' ' || *p == ',') {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        errno = 0;
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p || errno != 0 || d < 0 || d > 1023 || c->num_devices == CUZK_CONFIG_MAX_GPUS) {
            return false;
        }
        c->devices[c->num_devices++] = (int)d;
        p = end;
        if (*p != '\0' && *p != ',' && *p != ' ') {
            return false;
        }
    }
    return true;
}

typedef struct {
    cuzk_daemon_config *c;
    char *err;
    size_t errlen;
    bool listen_seen; /* the file's first listen key replaces the defaults, later ones add */
} config_parse_ctx;

static bool config_set_str(char **dst, const char *value)
{
    char *s = strdup(value);
    if (s == NULL) {
        return false;
    }
    free(*dst);
    *dst = s;
    return true;
}

/* Applies one key; returns 1 when understood, 0 with *why set when the value is bad, -1 for an unknown key. */
static int config_apply(config_parse_ctx *x, const char *section, const char *key, const char *value, const char **why)
{
    cuzk_daemon_config *c = x->c;
#define KEY(s, k) (strcmp(section, s) == 0 && strcmp(key, k) == 0)
    *why = "bad value";
    if (KEY("daemon", "listen")) {
        if (!x->listen_seen) {
            cuzk_config_clear_listen(c);
            x->listen_seen = true;
        }
        static char listen_err[256];
        if (!cuzk_config_add_listen(c, value, listen_err, sizeof listen_err)) {
            *why = listen_err;
            return 0;
        }
        return 1;
    }
    if (KEY("daemon", "max_message_size")) {
        *why = "expected a size such as 256M (at most 2G)";
        return cuzk_config_parse_size(value, &c->max_message_bytes) && c->max_message_bytes >= 1024 &&
               c->max_message_bytes <= (2ull << 30) - 1;
    }
    if (KEY("daemon", "shutdown_timeout")) {
        *why = "expected a duration such as 60s";
        return cuzk_config_parse_duration_ms(value, &c->shutdown_timeout_ms);
    }
    if (KEY("daemon", "interrupt_timeout")) {
        *why = "expected a duration such as 5s";
        return cuzk_config_parse_duration_ms(value, &c->interrupt_timeout_ms);
    }
    if (KEY("daemon", "server_threads")) {
        *why = "expected a count from 1 to 64";
        return config_parse_uint(value, 64, &c->server_threads) && c->server_threads >= 1;
    }
    if (KEY("memory", "pinned_budget")) {
        *why = "expected a size such as 8G";
        return cuzk_config_parse_size(value, &c->pinned_budget);
    }
    if (KEY("memory", "working_memory_budget")) {
        *why = "expected a size such as 64G";
        return cuzk_config_parse_size(value, &c->working_memory_budget);
    }
    if (KEY("memory", "vram_budget")) {
        *why = "expected a size such as 20G";
        return cuzk_config_parse_size(value, &c->vram_budget);
    }
    if (KEY("gpus", "devices")) {
        *why = "expected a comma-separated list of device ordinals";
        return config_parse_devices(c, value);
    }
    if (KEY("gpus", "backend")) {
        *why = "expected auto, gpu or cpu";
        if (strcmp(value, "auto") == 0) c->backend = 0;
        else if (strcmp(value, "cpu") == 0) c->backend = 1;
        else if (strcmp(value, "gpu") == 0) c->backend = 2;
        else return false;
        return true;
    }
    if (KEY("gpus", "gpu_workers_per_device")) {
        *why = "expected a count from 1 to 64";
        return config_parse_uint(value, 64, &c->gpu_workers_per_device) && c->gpu_workers_per_device >= 1;
    }
    if (KEY("gpus", "latency_mode")) {
        *why = "expected true or false";
        return config_parse_bool(value, &c->latency_mode);
    }
    if (KEY("gpus", "whole_ntt_tables")) {
        bool whole;
        *why = "expected true or false";
        if (!config_parse_bool(value, &whole)) return false;
        c->split_ntt_tables = !whole;
        return true;
    }
    if (KEY("scheduler", "gpu_queue_depth")) {
        *why = "expected a count from 1 to 4096";
        return config_parse_uint(value, 4096, &c->gpu_queue_depth) && c->gpu_queue_depth >= 1;
    }
    if (KEY("scheduler", "result_ttl")) {
        *why = "expected a duration such as 10m";
        return cuzk_config_parse_duration_ms(value, &c->result_ttl_ms);
    }
    if (KEY("synthesis", "threads")) {
        *why = "expected a count from 0 (automatic) to 4096";
        return config_parse_uint(value, 4096, &c->synthesis_threads);
    }
    if (KEY("synthesis", "workers")) {
        *why = "expected a count from 0 (automatic) to 1024";
        return config_parse_uint(value, 1024, &c->synthesis_workers);
    }
    if (KEY("synthesis", "prover_threads")) {
        *why = "expected a count from 0 (automatic) to 4096";
        return config_parse_uint(value, 4096, &c->prover_threads);
    }
    if (KEY("srs", "param_cache")) {
        return config_set_str(&c->param_cache, value);
    }
    if (KEY("logging", "level")) {
        *why = "expected debug, info, warn or error";
        return cuzk_log_parse_level(value, &c->cuzk_log_level);
    }
    if (KEY("logging", "format")) {
        *why = "expected text or json";
        if (strcmp(value, "text") == 0 || strcmp(value, "json") == 0) {
            c->log_json = value[0] == 'j';
            return 1;
        }
        return 0;
    }
    if (KEY("metrics", "http_listen")) {
        *why = "expected host:port";
        return strrchr(value, ':') != NULL && config_set_str(&c->metrics_listen, value);
    }
    if (KEY("tls", "cert")) {
        return config_set_str(&c->tls_cert, value);
    }
    if (KEY("tls", "key")) {
        return config_set_str(&c->tls_key, value);
    }
    if (KEY("tls", "client_ca")) {
        return config_set_str(&c->tls_client_ca, value);
    }
    if (KEY("auth", "token")) {
        *why = "expected a non-empty token";
        return value[0] != '\0' && config_set_str(&c->auth_token, value);
    }
    if (KEY("auth", "token_file")) {
        /* Keeps the secret out of the config file itself. */
        FILE *f = fopen(value, "r");
        *why = "cannot read the token file";
        if (f == NULL) {
            return 0;
        }
        char buf[512];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        char *t = config_strdup_trim(buf, n);
        if (t == NULL || t[0] == '\0') {
            free(t);
            *why = "the token file is empty";
            return 0;
        }
        free(c->auth_token);
        c->auth_token = t;
        return 1;
    }
#undef KEY
    return -1;
}

/* inih reports the first failing line through ini_parse's return value; the message says what failed there. */
static int config_ini_handler(void *user, const char *section, const char *key, const char *value)
{
    config_parse_ctx *x = user;
    const char *why = "";
    int r = config_apply(x, section, key, value, &why);
    if (r == 1) {
        return 1;
    }
    if (x->err[0] == '\0') {
        if (r < 0) {
            snprintf(x->err, x->errlen, "unknown key '%s' in section [%s]", key, section);
        } else {
            snprintf(x->err, x->errlen, "[%s] %s = '%s': %s", section, key, value, why);
        }
    }
    return 0;
}

bool cuzk_config_load_file(cuzk_daemon_config *c, const char *path, char *err, size_t errlen)
{
    err[0] = '\0';
    config_parse_ctx x = {c, err, errlen, false};
    int r = ini_parse(path, config_ini_handler, &x);
    if (r == 0) {
        return true;
    }
    if (err[0] == '\0') {
        if (r == -1) {
            snprintf(err, errlen, "%s: cannot open", path);
        } else if (r == -2) {
            snprintf(err, errlen, "%s: out of memory", path);
        } else {
            snprintf(err, errlen, "%s: line %d: syntax error", path, r);
        }
    } else {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s: line %d: %s", path, r, err);
        snprintf(err, errlen, "%s", tmp);
    }
    return false;
}
