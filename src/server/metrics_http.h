/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The daemon's HTTP endpoint over plain HTTP (libmicrohttpd, its own polling thread): GET /metrics answers
 * cuzk_engine_metrics_text (Prometheus), GET /status cuzk_engine_status_json (Curio's status page). The daemon starts
 * one for [metrics] http_listen and one for [daemon] status_listen (one when both name the same address). */
#ifndef CUZK_SERVER_METRICS_HTTP_H
#define CUZK_SERVER_METRICS_HTTP_H

#include <stddef.h>

#include "cuzk/engine.h"

typedef struct cuzk_metrics_http cuzk_metrics_http;

/* host_port: "127.0.0.1:9090", "[::1]:9090", "localhost:9090" or ":9090" (every address). */
cuzk_metrics_http *cuzk_metrics_http_start(const char *host_port, cuzk_engine *e, char *err, size_t errlen);
void cuzk_metrics_http_stop(cuzk_metrics_http *m);

#endif
