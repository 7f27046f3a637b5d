/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Daemon logging (see log.h). */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define LOG_MAX_FIELDS 16

static cuzk_log_level log_min = CUZK_LOG_INFO;
static bool log_json = false;

static const char *const log_names[] = {"debug", "info", "warn", "error"};
/* tracing's level names, right-aligned to five columns in text */
static const char *const log_upper[] = {"DEBUG", "INFO", "WARN", "ERROR"};

bool cuzk_log_parse_level(const char *name, cuzk_log_level *out)
{
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(name, log_names[i]) == 0) {
            *out = (cuzk_log_level)i;
            return true;
        }
    }
    if (strcasecmp(name, "warning") == 0) {
        *out = CUZK_LOG_WARN;
        return true;
    }
    return false;
}

void cuzk_log_setup(cuzk_log_level min_level, bool json)
{
    log_min = min_level;
    log_json = json;
}

bool cuzk_log_enabled(cuzk_log_level level) { return level >= log_min; }

/* Writes s as the inside of a JSON string (also the inside of a quoted text value: the same escapes). */
static void log_escape(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p, f);
        } else if (*p == '\n') {
            fputs("\\n", f);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p);
        } else {
            fputc(*p, f);
        }
    }
}

/* A value that JSON takes as it is: a plain unsigned integer, true or false. */
static bool log_bare_json(const char *v)
{
    if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0) return true;
    if (*v == '\0' || (v[0] == '0' && v[1] != '\0') || strlen(v) > 19) return false;
    for (const char *p = v; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return true;
}

/* A text value is quoted when it would not read back as one word. */
static bool log_needs_quotes(const char *v)
{
    if (*v == '\0') return true;
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        if (*p <= ' ' || *p == '"' || *p == '=' || *p == '\\') return true;
    return false;
}

static void log_line(cuzk_log_level level, const char *target, const char *msg, const char *const *kv, size_t nkv)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[48];
    size_t n = strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(when + n, sizeof when - n, ".%06ldZ", ts.tv_nsec / 1000);

    /* One locked write per line so that lines of concurrent threads never interleave. */
    flockfile(stderr);
    if (log_json) {
        fprintf(stderr, "{\"timestamp\":\"%s\",\"level\":\"%s\",\"fields\":{\"message\":\"", when, log_upper[level]);
        log_escape(stderr, msg);
        fputc('"', stderr);
        for (size_t i = 0; i + 1 < nkv; i += 2) {
            fputs(",\"", stderr);
            log_escape(stderr, kv[i]);
            fputs("\":", stderr);
            if (log_bare_json(kv[i + 1])) {
                fputs(kv[i + 1], stderr);
            } else {
                fputc('"', stderr);
                log_escape(stderr, kv[i + 1]);
                fputc('"', stderr);
            }
        }
        fputs("},\"target\":\"", stderr);
        log_escape(stderr, target);
        fputs("\"}\n", stderr);
    } else {
        fprintf(stderr, "%s %5s %s: %s", when, log_upper[level], target, msg);
        for (size_t i = 0; i + 1 < nkv; i += 2) {
            fprintf(stderr, " %s=", kv[i]);
            if (log_needs_quotes(kv[i + 1])) {
                fputc('"', stderr);
                log_escape(stderr, kv[i + 1]);
                fputc('"', stderr);
            } else {
                fputs(kv[i + 1], stderr);
            }
        }
        fputc('\n', stderr);
    }
    funlockfile(stderr);
}

void cuzk_log_msg(cuzk_log_level level, const char *fmt, ...)
{
    if (level < log_min) return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    log_line(level, CUZK_LOG_DAEMON, msg, NULL, 0);
}

void cuzk_log_kv(cuzk_log_level level, const char *target, const char *msg, ...)
{
    if (level < log_min) return;
    const char *kv[2 * LOG_MAX_FIELDS];
    size_t n = 0;
    va_list ap;
    va_start(ap, msg);
    for (const char *k; (k = va_arg(ap, const char *)) != NULL;) {
        const char *v = va_arg(ap, const char *);
        if (n < 2 * LOG_MAX_FIELDS) {
            kv[n++] = k;
            kv[n++] = v != NULL ? v : "";
        }
    }
    va_end(ap);
    log_line(level, target, msg, kv, n);
}
