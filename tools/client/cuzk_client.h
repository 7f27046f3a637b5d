/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The cuzk.v1 gRPC client (library cuzk_client): unary calls to cuzk-daemon over gRPC's C core API, one pluck
 * completion queue per call, so that calls from many threads share one channel. cuzk-bench's network commands and
 * the service tests use it. The caller runs grpc_init() before cuzk_client_open and grpc_shutdown() after the last
 * cuzk_client_close. */
#ifndef CUZK_CLIENT_H
#define CUZK_CLIENT_H

#include <grpc/grpc.h>
#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/v1/cuzk.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Curio's daemon address, and so the default of cuzk-daemon's [daemon] listen */
#define CUZK_CLIENT_DAEMON_ADDR "unix:///run/curio/cuzk.sock"
/* The address Curio's cuzk-bench talks to when given none (its --addr default), and so cuzk-bench's */
#define CUZK_CLIENT_DEFAULT_ADDR "http://127.0.0.1:9820"

typedef struct {
    grpc_channel *ch;
} cuzk_client;

/* The gRPC target of an address as Curio's tools write them: http://host:port (Curio's cuzk-bench: plaintext),
 * https://host:port (TLS), unix:///path, unix:/path or a bare /path (a unix socket), host:port, or any gRPC target
 * (dns:///host:port, ipv4:...). -1 for an empty one, an http:// one with a path, or one longer than cap. */
int cuzk_client_target(const char *addr, char *target, size_t cap, int *tls);
/* addr: any form of cuzk_client_target; 256 MiB messages both ways (the daemon's default limit). 0, or -1 when the
 * address is malformed or gRPC cannot make the channel. */
int cuzk_client_open(cuzk_client *c, const char *addr);
void cuzk_client_close(cuzk_client *c);
/* Calls /cuzk.v1.ProvingEngine/<method>. On OK, *resp is the decoded reply (free with
 * protobuf_c_message_free_unpacked). timeout_ms 0 = no deadline. detail gets the status message ("" when none). A
 * reply that does not decode is GRPC_STATUS_INTERNAL. */
grpc_status_code cuzk_client_call(cuzk_client *c, const char *method, const ProtobufCMessage *req,
                                  const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                                  uint64_t timeout_ms, char *detail, size_t detail_len);
/* Prove (submit and await in one call): *out is the job's result (free with protobuf_c_message_free_unpacked on
 * *reply). */
grpc_status_code cuzk_client_prove(cuzk_client *c, const Cuzk__V1__SubmitProofRequest *submit, uint64_t timeout_ms,
                                   Cuzk__V1__ProveResponse **reply, char *detail, size_t detail_len);
/* GetStatus */
grpc_status_code cuzk_client_status(cuzk_client *c, uint64_t timeout_ms, Cuzk__V1__GetStatusResponse **reply,
                                    char *detail, size_t detail_len);

#ifdef __cplusplus
}
#endif

#endif
