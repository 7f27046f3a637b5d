/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The request messages of cuzk.v1, decoded with protobuf-c and checked before anything reaches the engine: what
 * every handler of src/server/server.c does first, on its own so that tests and fuzzing reach it without a gRPC
 * server. A request that fails is answered INVALID_ARGUMENT with the message these functions write. */
#ifndef CUZK_SERVER_REQUESTS_H
#define CUZK_SERVER_REQUESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/v1/cuzk.pb-c.h"

/* Copies a protobuf string (NULL = "") into a fixed field; false when it does not fit. */
bool cuzk_req_copy_str(char *dst, size_t cap, const char *src);
/* A SubmitProofRequest as the engine's request: ids that fit, a known proof kind and priority. The witness and
 * vanilla proof bytes stay owned by the message; the list of vanilla proofs is malloc'd (cuzk_req_clear, which is
 * also safe after a failure). */
bool cuzk_req_fill(const Cuzk__V1__SubmitProofRequest *m, cuzk_engine_request *r, char *err, size_t errlen);
void cuzk_req_clear(cuzk_engine_request *r);
/* The job_id of an AwaitProofRequest / CancelProofRequest: present and short enough. */
bool cuzk_req_job_id(const char *id, char out[CUZK_ENGINE_ID_MAX], char *err, size_t errlen);
/* The circuit_id of a PreloadSrsRequest / EvictSrsRequest (d says which), decoded from the wire bytes. */
bool cuzk_req_circuit_id(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len,
                         char out[CUZK_ENGINE_ID_MAX], char *err, size_t errlen);
/* A message without fields (GetStatusRequest, GetMetricsRequest) must still decode. */
bool cuzk_req_empty(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len, char *err, size_t errlen);

/* The methods by their names ("SubmitProof", ..., as in proto/cuzk/v1/cuzk.proto), i < cuzk_req_method_count(). */
size_t cuzk_req_method_count(void);
const char *cuzk_req_method_name(size_t i);
/* Every check method i's handler makes on the len request bytes before the engine: true when the request would go
 * on to the engine, else false with the answer's message. */
bool cuzk_req_check(size_t i, const uint8_t *req, size_t len, char *err, size_t errlen);

#endif
