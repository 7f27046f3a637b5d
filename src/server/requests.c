/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Request decoding and checks (see requests.h). */
#include "requests.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cuzk_req_copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) return false;
    memcpy(dst, src ? src : "", n);
    dst[n] = '\0';
    return true;
}

static cuzk_engine_bytes req_bytes(ProtobufCBinaryData b) { return (cuzk_engine_bytes){b.data, b.len}; }

bool cuzk_req_fill(const Cuzk__V1__SubmitProofRequest *m, cuzk_engine_request *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (!cuzk_req_copy_str(r->request_id, sizeof r->request_id, m->request_id)) {
        snprintf(err, errlen, "request_id longer than %d bytes", CUZK_ENGINE_ID_MAX - 1);
        return false;
    }
    switch ((int)m->proof_kind) {
    case CUZK_ENGINE_KIND_POREP_SEAL_COMMIT:
    case CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE:
    case CUZK_ENGINE_KIND_WINDOW_POST_PARTITION:
    case CUZK_ENGINE_KIND_WINNING_POST:
    case CUZK_ENGINE_KIND_GENERIC_CIRCUIT:
    case CUZK_ENGINE_KIND_SYNTHETIC: break;
    default: snprintf(err, errlen, "proof_kind %d is not a known ProofKind", (int)m->proof_kind); return false;
    }
    if ((int)m->priority < 0 || (int)m->priority > CUZK_ENGINE_PRIO_CRITICAL) {
        snprintf(err, errlen, "priority %d is not a known Priority", (int)m->priority);
        return false;
    }
    r->proof_kind = (uint32_t)m->proof_kind;
    r->priority = (cuzk_engine_priority)m->priority;
    if (!cuzk_req_copy_str(r->circuit_id, sizeof r->circuit_id, m->circuit_id)) {
        snprintf(err, errlen, "circuit_id longer than %d bytes", CUZK_ENGINE_ID_MAX - 1);
        return false;
    }
    if (!cuzk_req_copy_str(r->witness_path, sizeof r->witness_path, m->witness_path)) {
        snprintf(err, errlen, "witness_path too long");
        return false;
    }
    r->witness = m->witness.data;
    r->witness_len = m->witness.len;
    r->synthetic_log2 = m->synthetic_log2;
    r->seed = m->seed;
    r->partitions = m->partitions;
    /* Curio's Filecoin fields, as they are: the engine checks them against the registered proof */
    r->sector_size = m->sector_size;
    r->registered_proof = m->registered_proof;
    r->sector_number = m->sector_number;
    r->miner_id = m->miner_id;
    r->partition_index = m->partition_index;
    r->vanilla_proof = req_bytes(m->vanilla_proof);
    r->randomness = req_bytes(m->randomness);
    r->comm_r_old = req_bytes(m->comm_r_old);
    r->comm_r_new = req_bytes(m->comm_r_new);
    r->comm_d_new = req_bytes(m->comm_d_new);
    if (m->n_vanilla_proofs > 0) {
        cuzk_engine_bytes *v = malloc(m->n_vanilla_proofs * sizeof *v);
        if (v == NULL) {
            snprintf(err, errlen, "out of memory for %zu vanilla proofs", m->n_vanilla_proofs);
            return false;
        }
        for (size_t i = 0; i < m->n_vanilla_proofs; i++) v[i] = req_bytes(m->vanilla_proofs[i]);
        r->vanilla_proofs = v;
        r->num_vanilla_proofs = m->n_vanilla_proofs;
    }
    return true;
}

void cuzk_req_clear(cuzk_engine_request *r)
{
    free((void *)r->vanilla_proofs);
    r->vanilla_proofs = NULL;
    r->num_vanilla_proofs = 0;
}

bool cuzk_req_job_id(const char *id, char out[CUZK_ENGINE_ID_MAX], char *err, size_t errlen)
{
    if (cuzk_req_copy_str(out, CUZK_ENGINE_ID_MAX, id) && out[0] != '\0') return true;
    snprintf(err, errlen, "job_id missing or too long");
    return false;
}

bool cuzk_req_circuit_id(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len,
                         char out[CUZK_ENGINE_ID_MAX], char *err, size_t errlen)
{
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, req);
    if (m == NULL) {
        snprintf(err, errlen, "%s does not decode", d->short_name);
        return false;
    }
    const char *id = d == &cuzk__v1__preload_srs_request__descriptor ? ((Cuzk__V1__PreloadSrsRequest *)m)->circuit_id
                                                                     : ((Cuzk__V1__EvictSrsRequest *)m)->circuit_id;
    bool ok = cuzk_req_copy_str(out, CUZK_ENGINE_ID_MAX, id) && out[0] != '\0';
    protobuf_c_message_free_unpacked(m, NULL);
    if (!ok) snprintf(err, errlen, "circuit_id missing or too long");
    return ok;
}

bool cuzk_req_empty(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len, char *err, size_t errlen)
{
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, req);
    if (m == NULL) {
        snprintf(err, errlen, "%s does not decode", d->short_name);
        return false;
    }
    protobuf_c_message_free_unpacked(m, NULL);
    return true;
}

/* ---- the checks of each method, as a table ---- */

static bool check_submit(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    Cuzk__V1__SubmitProofRequest *m = cuzk__v1__submit_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        snprintf(err, errlen, "SubmitProofRequest does not decode");
        return false;
    }
    cuzk_engine_request r;
    bool ok = cuzk_req_fill(m, &r, err, errlen);
    cuzk_req_clear(&r);
    cuzk__v1__submit_proof_request__free_unpacked(m, NULL);
    return ok;
}

static bool check_prove(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    Cuzk__V1__ProveRequest *m = cuzk__v1__prove_request__unpack(NULL, len, req);
    if (m == NULL) {
        snprintf(err, errlen, "ProveRequest does not decode");
        return false;
    }
    cuzk_engine_request r;
    bool ok = m->submit != NULL;
    if (!ok) snprintf(err, errlen, "ProveRequest.submit missing");
    else ok = cuzk_req_fill(m->submit, &r, err, errlen);
    if (m->submit != NULL) cuzk_req_clear(&r);
    cuzk__v1__prove_request__free_unpacked(m, NULL);
    return ok;
}

static bool check_await(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    Cuzk__V1__AwaitProofRequest *m = cuzk__v1__await_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        snprintf(err, errlen, "AwaitProofRequest does not decode");
        return false;
    }
    char id[CUZK_ENGINE_ID_MAX];
    bool ok = cuzk_req_job_id(m->job_id, id, err, errlen);
    cuzk__v1__await_proof_request__free_unpacked(m, NULL);
    return ok;
}

static bool check_cancel(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    Cuzk__V1__CancelProofRequest *m = cuzk__v1__cancel_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        snprintf(err, errlen, "CancelProofRequest does not decode");
        return false;
    }
    char id[CUZK_ENGINE_ID_MAX];
    bool ok = cuzk_req_job_id(m->job_id, id, err, errlen);
    cuzk__v1__cancel_proof_request__free_unpacked(m, NULL);
    return ok;
}

static bool check_status(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    return cuzk_req_empty(&cuzk__v1__get_status_request__descriptor, req, len, err, errlen);
}

static bool check_metrics(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    return cuzk_req_empty(&cuzk__v1__get_metrics_request__descriptor, req, len, err, errlen);
}

static bool check_preload(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    char id[CUZK_ENGINE_ID_MAX];
    return cuzk_req_circuit_id(&cuzk__v1__preload_srs_request__descriptor, req, len, id, err, errlen);
}

static bool check_evict(const uint8_t *req, size_t len, char *err, size_t errlen)
{
    char id[CUZK_ENGINE_ID_MAX];
    return cuzk_req_circuit_id(&cuzk__v1__evict_srs_request__descriptor, req, len, id, err, errlen);
}

static const struct {
    const char *name;
    bool (*check)(const uint8_t *req, size_t len, char *err, size_t errlen);
} req_methods[] = {
    {"SubmitProof", check_submit}, {"AwaitProof", check_await}, {"Prove", check_prove},
    {"CancelProof", check_cancel}, {"GetStatus", check_status}, {"GetMetrics", check_metrics},
    {"PreloadSRS", check_preload}, {"EvictSRS", check_evict},
};

size_t cuzk_req_method_count(void) { return sizeof req_methods / sizeof req_methods[0]; }

const char *cuzk_req_method_name(size_t i) { return i < cuzk_req_method_count() ? req_methods[i].name : NULL; }

bool cuzk_req_check(size_t i, const uint8_t *req, size_t len, char *err, size_t errlen)
{
    if (i >= cuzk_req_method_count()) {
        snprintf(err, errlen, "no method %zu", i);
        return false;
    }
    return req_methods[i].check(req, len, err, errlen);
}
