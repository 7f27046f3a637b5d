/* The daemon's Prometheus endpoint: GET /metrics answers engine_metrics_text over plain HTTP (libmicrohttpd, its
 * own polling thread). */
#ifndef CUZK_SERVER_METRICS_HTTP_H
#define CUZK_SERVER_METRICS_HTTP_H

#include <stddef.h>

#include "cuzk/engine.h"

typedef struct metrics_http metrics_http;

/* host_port: "127.0.0.1:9090", "[::1]:9090", "localhost:9090" or ":9090" (every address). */
metrics_http *metrics_http_start(const char *host_port, engine *e, char *err, size_t errlen);
void metrics_http_stop(metrics_http *m);

#endif
