/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Daemon logging: one line per event on stderr in the form Curio's daemon writes (tracing's):
 *     2025-01-31T12:00:00.123456Z  INFO cuzk_engine: proof completed job_id=porep-1000-7 proof_kind=porep-c2
 * (time in UTC, level right-aligned in five columns, the target, the message, then key=value fields; a value with
 * blanks, quotes or '=' is quoted), or, with [logging] format = "json", one JSON object per line as tracing's JSON
 * writer makes it:
 *     {"timestamp":"...","level":"INFO","fields":{"message":"proof completed","job_id":"porep-1000-7"},
 *      "target":"cuzk_engine"}
 * (a field whose value is a plain number or true/false is written as one). Safe to call from any thread. */
#ifndef CUZK_SERVER_LOG_H
#define CUZK_SERVER_LOG_H

#include <stdbool.h>

typedef enum { CUZK_LOG_DEBUG = 0, CUZK_LOG_INFO = 1, CUZK_LOG_WARN = 2, CUZK_LOG_ERROR = 3 } cuzk_log_level;

/* Targets: the daemon's own lines, the gRPC service, the engine's job events. */
#define CUZK_LOG_DAEMON "cuzk_daemon"
#define CUZK_LOG_SERVER "cuzk_server"
#define CUZK_LOG_ENGINE "cuzk_engine"

/* Returns false for a name other than debug, info, warn(ing), error. */
bool cuzk_log_parse_level(const char *name, cuzk_log_level *out);
void cuzk_log_setup(cuzk_log_level min_level, bool json);
bool cuzk_log_enabled(cuzk_log_level level);
/* A line of target cuzk_daemon with a printf message and no fields. */
void cuzk_log_msg(cuzk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line with fields: after msg, key and value strings in pairs, ended by NULL. */
void cuzk_log_kv(cuzk_log_level level, const char *target, const char *msg, ...) __attribute__((sentinel));

#endif
