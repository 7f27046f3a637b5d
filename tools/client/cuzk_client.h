/* cuzk-bench's gRPC client: unary cuzk.v1 calls over gRPC's C core API (one pluck completion queue per call), and
 * the network commands built on them. */
#ifndef CUZK_BENCH_CLIENT_H
#define CUZK_BENCH_CLIENT_H

#include <grpc/grpc.h>
#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    grpc_channel *ch;
} bench_client;

/* addr: unix:///path or host:port. */
int client_open(bench_client *c, const char *addr);
void client_close(bench_client *c);
/* Calls /cuzk.v1.ProvingEngine/<method>. On OK, *resp is the decoded reply (free with
 * protobuf_c_message_free_unpacked). timeout_ms 0 = no deadline. detail gets the status message. */
grpc_status_code client_call(bench_client *c, const char *method, const ProtobufCMessage *req,
                             const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp, uint64_t timeout_ms,
                             char *detail, size_t detail_len);

/* Entry point of every network command (argv[0] is the command name). */
int client_main(int argc, char **argv);

#endif
