/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The daemon's HTTP endpoint (see metrics_http.h): /metrics and /status. */
#include "metrics_http.h"

#include <microhttpd.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "listen.h"
#include "log.h"

struct cuzk_metrics_http {
    struct MHD_Daemon *daemon;
    cuzk_engine *e;
};

static enum MHD_Result metrics_http_send(struct MHD_Connection *conn, unsigned code, char *body, const char *type)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    if (resp == NULL) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    enum MHD_Result r = MHD_queue_response(conn, code, resp);
    MHD_destroy_response(resp);
    return r;
}

static enum MHD_Result metrics_http_handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                            const char *version, const char *upload_data, size_t *upload_data_size,
                                            void **req_cls)
{
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    (void)req_cls;
    cuzk_metrics_http *m = cls;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        return metrics_http_send(conn, MHD_HTTP_METHOD_NOT_ALLOWED, strdup("only GET\n"), "text/plain");
    }
    if (strcmp(url, "/status") == 0) {
        /* Curio's status page: its JSON, readable from a browser page of another origin (Curio's UI polls it) */
        char *json = cuzk_engine_status_json(m->e);
        if (json == NULL) {
            return metrics_http_send(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, strdup("{\"error\":\"out of memory\"}"),
                                     "application/json");
        }
        struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(json), json, MHD_RESPMEM_MUST_FREE);
        if (resp == NULL) {
            free(json);
            return MHD_NO;
        }
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        enum MHD_Result r = MHD_queue_response(conn, MHD_HTTP_OK, resp);
        MHD_destroy_response(resp);
        return r;
    }
    if (strcmp(url, "/metrics") != 0) {
        return metrics_http_send(conn, MHD_HTTP_NOT_FOUND, strdup("not found; try /metrics or /status\n"),
                                 "text/plain");
    }
    char *text = cuzk_engine_metrics_text(m->e);
    if (text == NULL) {
        return metrics_http_send(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, strdup("metrics unavailable\n"), "text/plain");
    }
    return metrics_http_send(conn, MHD_HTTP_OK, text, "text/plain; version=0.0.4; charset=utf-8");
}

/* libmicrohttpd's own messages go through the daemon's log, so that a JSON log stays JSON. */
static void metrics_http_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r')) msg[--n] = '\0';
    cuzk_log_msg(CUZK_LOG_WARN, "metrics http: %s", msg);
}

cuzk_metrics_http *cuzk_metrics_http_start(const char *host_port, cuzk_engine *e, char *err, size_t errlen)
{
    /* Split host and port at the last colon; an IPv6 host comes in brackets. */
    const char *colon = strrchr(host_port, ':');
    if (colon == NULL) {
        snprintf(err, errlen, "metrics address '%s' is not host:port", host_port);
        return NULL;
    }
    char host[256];
    size_t hl = (size_t)(colon - host_port);
    if (hl >= sizeof host) {
        snprintf(err, errlen, "metrics host too long");
        return NULL;
    }
    memcpy(host, host_port, hl);
    host[hl] = '\0';
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    struct addrinfo hints = {0}, *ai = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int gr = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &ai);
    if (gr != 0) {
        snprintf(err, errlen, "metrics address '%s': %s", host_port, gai_strerror(gr));
        return NULL;
    }
    char why[300];
    if (!cuzk_tcp_port_free(host_port, why, sizeof why)) {
        freeaddrinfo(ai);
        snprintf(err, errlen, "cannot listen for /metrics: %s", why);
        return NULL;
    }
    cuzk_metrics_http *m = calloc(1, sizeof *m);
    if (m == NULL) {
        freeaddrinfo(ai);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->e = e;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (ai->ai_family == AF_INET6) {
        flags |= MHD_USE_IPv6;
    }
    /* the logger first: libmicrohttpd prints the messages of the options before it itself */
    m->daemon = MHD_start_daemon(flags, 0, NULL, NULL, metrics_http_handler, m, MHD_OPTION_EXTERNAL_LOGGER,
                                 metrics_http_log, NULL, MHD_OPTION_SOCK_ADDR, ai->ai_addr, MHD_OPTION_CONNECTION_LIMIT,
                                 (unsigned)64, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_END);
    freeaddrinfo(ai);
    if (m->daemon == NULL) {
        snprintf(err, errlen, "cannot listen for /metrics on %s", host_port);
        free(m);
        return NULL;
    }
    cuzk_log_msg(CUZK_LOG_INFO, "HTTP status server: http://%s/status and http://%s/metrics", host_port, host_port);
    return m;
}

void cuzk_metrics_http_stop(cuzk_metrics_http *m)
{
    if (m != NULL) {
        MHD_stop_daemon(m->daemon);
        free(m);
    }
}
