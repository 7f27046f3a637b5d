/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The cuzk.v1.ProvingEngine gRPC service on gRPC's C core API. A few threads poll one completion queue; quick RPCs
 * (SubmitProof, CancelProof, GetStatus, GetMetrics, EvictSRS) run on those threads, the ones that may wait for a long
 * time (AwaitProof, Prove, PreloadSRS) each get a worker thread so that the queue keeps moving. Every call is answered
 * with a gRPC status: malformed requests get INVALID_ARGUMENT, proof failures come back OK with status FAILED and a
 * message (what Curio expects). */
#ifndef CUZK_SERVER_SERVER_H
#define CUZK_SERVER_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

typedef struct {
    const char *const *listen; /* unix:///path (made mode 0660) or host:port */
    size_t num_listen;
    uint64_t max_message_bytes; /* receive and send limit; 0 = 256 MiB */
    unsigned threads;           /* completion-queue threads; 0 = 2 */
    /* TLS for TCP listeners when both are set (PEM text, not paths); client_ca_pem makes client certs required */
    const char *tls_cert_pem, *tls_key_pem, *tls_client_ca_pem;
    /* when set, calls over TCP must carry "authorization: Bearer <token>"; unix-socket calls are trusted (the
     * socket's file mode is their access control) */
    const char *auth_token;
} cuzk_server_opts;

typedef struct cuzk_server cuzk_server;

/* grpc_init must have been called. Binds every address or fails with a message naming the one that did not bind. */
cuzk_server *cuzk_server_start(cuzk_engine *e, const cuzk_server_opts *o, char *err, size_t errlen);
/* Waits up to timeout_ms until no call waits on a job (AwaitProof, Prove, PreloadSRS): once the engine has
 * stopped, until every such call has sent its answer. */
bool cuzk_server_wait_answered(cuzk_server *s, uint64_t timeout_ms);
/* Stops accepting calls and connections (GOAWAY, listeners closed); calls in progress continue and are answered.
 * gRPC closes a connection as soon as its last call ends after a GOAWAY, and a client still writing to it (a ping)
 * can then fail it before it reads that answer: answer what can be answered first (cuzk_server_wait_answered). */
void cuzk_server_stop_intake(cuzk_server *s);
/* After cuzk_server_stop_intake: waits up to timeout_ms for every call in progress to finish. */
bool cuzk_server_wait_idle(cuzk_server *s, uint64_t timeout_ms);
/* Cancels whatever is still in progress, stops the threads and frees the server (removing its unix sockets). */
void cuzk_server_destroy(cuzk_server *s);

#endif
