/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The cuzk.v1 gRPC client (cuzk_client.h). */
#include "cuzk_client.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cuzk_client_target(const char *addr, char *target, size_t cap, int *tls)
{
    *tls = 0;
    const char *rest = addr;
    if (strncmp(addr, "http://", 7) == 0) {
        rest = addr + 7;
    } else if (strncmp(addr, "https://", 8) == 0) {
        rest = addr + 8;
        *tls = 1;
    } else if (addr[0] == '/') {
        /* a socket path as it is */
        return snprintf(target, cap, "unix://%s", addr) < (int)cap ? 0 : -1;
    }
    size_t n = strlen(rest);
    if (rest != addr) {
        /* Curio's http://host:port[/]: the authority only */
        while (n > 0 && rest[n - 1] == '/') n--;
        if (n == 0 || memchr(rest, '/', n) != NULL) return -1;
    }
    if (n == 0 || n >= cap) return -1;
    memcpy(target, rest, n);
    target[n] = '\0';
    return 0;
}

int cuzk_client_open(cuzk_client *c, const char *addr)
{
    char target[1024];
    int tls = 0;
    c->ch = NULL;
    if (cuzk_client_target(addr, target, sizeof target, &tls) != 0) return -1;
    grpc_arg args[2];
    memset(args, 0, sizeof args);
    /* The daemon's default limit: let large proofs and witnesses through both ways. */
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = 256 << 20;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = 256 << 20;
    grpc_channel_args cargs = {2, args};
    /* https: TLS with the system's roots ($GRPC_DEFAULT_SSL_ROOTS_FILE_PATH names others) */
    grpc_channel_credentials *creds = tls ? grpc_ssl_credentials_create(NULL, NULL, NULL, NULL)
                                          : grpc_insecure_credentials_create();
    c->ch = grpc_channel_create(target, creds, &cargs);
    grpc_channel_credentials_release(creds);
    return c->ch != NULL ? 0 : -1;
}

void cuzk_client_close(cuzk_client *c)
{
    if (c->ch != NULL) {
        grpc_channel_destroy(c->ch);
        c->ch = NULL;
    }
}

grpc_status_code cuzk_client_call(cuzk_client *c, const char *method, const ProtobufCMessage *req,
                                  const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                                  uint64_t timeout_ms, char *detail, size_t detail_len)
{
    *resp = NULL;
    detail[0] = '\0';
    size_t len = protobuf_c_message_get_packed_size(req);
    uint8_t *buf = malloc(len ? len : 1);
    if (buf == NULL) {
        snprintf(detail, detail_len, "out of memory for a %zu-byte request", len);
        return GRPC_STATUS_RESOURCE_EXHAUSTED;
    }
    protobuf_c_message_pack(req, buf);
    char path[128];
    snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    gpr_timespec deadline = timeout_ms == 0 ? gpr_inf_future(GPR_CLOCK_REALTIME)
                                            : gpr_time_add(gpr_now(GPR_CLOCK_REALTIME),
                                                           gpr_time_from_millis((int64_t)timeout_ms, GPR_TIMESPAN));
    grpc_slice method_slice = grpc_slice_from_copied_string(path);
    grpc_call *call = grpc_channel_create_call(c->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, method_slice, NULL, deadline,
                                               NULL);
    grpc_slice_unref(method_slice);

    grpc_slice payload = grpc_slice_from_copied_buffer((const char *)buf, len);
    free(buf);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&payload, 1);
    grpc_slice_unref(payload);

    grpc_metadata_array initial, trailing;
    grpc_metadata_array_init(&initial);
    grpc_metadata_array_init(&trailing);
    grpc_byte_buffer *recv = NULL;
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &initial;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trailing;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;
    int tag = 0;
    if (grpc_call_start_batch(call, ops, 6, &tag, NULL) == GRPC_CALL_OK) {
        grpc_completion_queue_pluck(cq, &tag, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    } else {
        status = GRPC_STATUS_INTERNAL;
        snprintf(detail, detail_len, "grpc_call_start_batch failed");
    }
    if (GRPC_SLICE_LENGTH(details) > 0) {
        snprintf(detail, detail_len, "%.*s", (int)GRPC_SLICE_LENGTH(details),
                 (const char *)GRPC_SLICE_START_PTR(details));
    }
    if (status == GRPC_STATUS_OK) {
        grpc_byte_buffer_reader rd;
        if (recv != NULL && grpc_byte_buffer_reader_init(&rd, recv)) {
            grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
            *resp = protobuf_c_message_unpack(resp_desc, NULL, GRPC_SLICE_LENGTH(all), GRPC_SLICE_START_PTR(all));
            grpc_slice_unref(all);
        }
        if (*resp == NULL) {
            status = GRPC_STATUS_INTERNAL;
            snprintf(detail, detail_len, "reply does not decode");
        }
    }
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&initial);
    grpc_metadata_array_destroy(&trailing);
    if (recv != NULL) {
        grpc_byte_buffer_destroy(recv);
    }
    grpc_byte_buffer_destroy(send);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_pluck(cq, &tag, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {
    }
    grpc_completion_queue_destroy(cq);
    return status;
}

grpc_status_code cuzk_client_prove(cuzk_client *c, const Cuzk__V1__SubmitProofRequest *submit, uint64_t timeout_ms,
                                   Cuzk__V1__ProveResponse **reply, char *detail, size_t detail_len)
{
    Cuzk__V1__ProveRequest req = CUZK__V1__PROVE_REQUEST__INIT;
    req.submit = (Cuzk__V1__SubmitProofRequest *)submit;
    ProtobufCMessage *resp = NULL;
    grpc_status_code st = cuzk_client_call(c, "Prove", &req.base, &cuzk__v1__prove_response__descriptor, &resp,
                                           timeout_ms, detail, detail_len);
    *reply = (Cuzk__V1__ProveResponse *)resp;
    return st;
}

grpc_status_code cuzk_client_status(cuzk_client *c, uint64_t timeout_ms, Cuzk__V1__GetStatusResponse **reply,
                                    char *detail, size_t detail_len)
{
    Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
    ProtobufCMessage *resp = NULL;
    grpc_status_code st = cuzk_client_call(c, "GetStatus", &req.base, &cuzk__v1__get_status_response__descriptor, &resp,
                                           timeout_ms, detail, detail_len);
    *reply = (Cuzk__V1__GetStatusResponse *)resp;
    return st;
}
