/* Daemon logging: one line per event on stderr, as text ("2024-05-01T12:00:00.123Z INFO message") or as JSON
 * objects ({"ts": ..., "level": ..., "msg": ...}) for log collectors. Safe to call from any thread. */
#ifndef CUZK_SERVER_LOG_H
#define CUZK_SERVER_LOG_H

#include <stdbool.h>

typedef enum { CUZK_LOG_DEBUG = 0, CUZK_LOG_INFO = 1, CUZK_LOG_WARN = 2, CUZK_LOG_ERROR = 3 } cuzk_log_level;

/* Returns false for a name other than debug, info, warn(ing), error. */
bool cuzk_log_parse_level(const char *name, cuzk_log_level *out);
void cuzk_log_setup(cuzk_log_level min_level, bool json);
void cuzk_log_msg(cuzk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
