/* Daemon logging (see log.h). */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static cuzk_log_level log_min = CUZK_LOG_INFO;
static bool log_json = false;

static const char *const log_names[] = {"debug", "info", "warn", "error"};

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

/* Writes s as the inside of a JSON string. */
static void log_json_escape(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p, f);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p);
        } else {
            fputc(*p, f);
        }
    }
}

void cuzk_log_msg(cuzk_log_level level, const char *fmt, ...)
{
    if (level < log_min) {
        return;
    }
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[40];
    size_t n = strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(when + n, sizeof when - n, ".%03ldZ", ts.tv_nsec / 1000000);

    /* One locked write per line so that lines of concurrent threads never interleave. */
    flockfile(stderr);
    if (log_json) {
        fprintf(stderr, "{\"ts\":\"%s\",\"level\":\"%s\",\"msg\":\"", when, log_names[level]);
        log_json_escape(stderr, msg);
        fputs("\"}\n", stderr);
    } else {
        fprintf(stderr, "%s %-5s %s\n", when, log_names[level], msg);
    }
    funlockfile(stderr);
}
