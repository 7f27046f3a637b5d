/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The test sealer: rust-fil-proofs' pre-commit (phase 1: labels; phase 2: trees and commitments) for small sectors,
 * all in memory:
 *   data     the unpadded bytes, zero-filled to the sector's 127/128, fr32-padded
 *   comm_d   root of tree D over the data
 *   labels   replica_id from (prover, sector, ticket, comm_d, porep_id); every layer over the parent cache
 *   replica  data node + last-layer label (mod r), node by node
 *   comm_c   root of tree C over the column hashes; comm_r_last root of tree R over the replica;
 *   comm_r   Poseidon2(comm_c, comm_r_last) */
#include <stdlib.h>
#include <string.h>

#include "sdr_int.h"

#define NB 32
#define MAX_SEAL_SIZE (1ULL << 30)

void cuzk_fil_sdr_replica_free(cuzk_fil_sdr_replica *r)
{
    cuzk_fil_sdr_parent_cache_free(&r->cache);
    free(r->data);
    free(r->tree_d);
    free(r->labels);
    free(r->replica);
    free(r->tree_c);
    free(r->tree_r);
    memset(r, 0, sizeof *r);
}

const uint8_t *cuzk_fil_sdr_replica_label(const cuzk_fil_sdr_replica *r, unsigned layer, uint64_t node)
{
    if (layer < 1 || layer > r->layers || node >= r->nodes) return NULL;
    return r->labels + ((uint64_t)(layer - 1) * r->nodes + node) * NB;
}

bool cuzk_fil_sdr_replica_column(const cuzk_fil_sdr_replica *r, uint64_t node, uint8_t (*rows)[32])
{
    if (node >= r->nodes || r->labels == NULL) return false;
    for (unsigned l = 1; l <= r->layers; l++) memcpy(rows[l - 1], cuzk_fil_sdr_replica_label(r, l, node), NB);
    return true;
}

typedef struct {
    cuzk_fil_sdr_replica *r;
    cuzk_status status; /* one failure is kept (labels are truncated, so none is expected) */
    cuzk_errmsg err;
} columns_job;

static void columns_range(void *ctx, size_t lo, size_t hi)
{
    columns_job *j = ctx;
    for (size_t v = lo; v < hi; v++) {
        cuzk_errmsg e;
        cuzk_status s = cuzk_fil_sdr_column_hash(j->r->labels, j->r->layers, j->r->nodes, v, j->r->tree_c + v * NB, &e);
        if (s != CUZK_OK) {
            j->status = s, j->err = e;
            return;
        }
    }
}

static cuzk_status seal_trees(cuzk_fil_sdr_replica *r, unsigned threads, cuzk_errmsg *err)
{
    uint64_t len = cuzk_fil_sdr_tree_len(r->shape, r->nodes);
    r->tree_c = malloc(len * NB);
    r->tree_r = malloc(len * NB);
    if (r->tree_c == NULL || r->tree_r == NULL)
        return cuzk_fail(err, CUZK_ERR_NOMEM, "seal: trees C and R of %llu nodes", (unsigned long long)len);
    /* column hashes into tree C's leaf level, by threads over node ranges */
    columns_job j = {.r = r, .status = CUZK_OK};
    cuzk_par_for(threads, r->nodes, 1024, columns_range, &j);
    if (j.status != CUZK_OK) {
        if (err) *err = j.err;
        return j.status;
    }
    cuzk_status s = cuzk_fil_sdr_tree_build(r->shape, r->tree_c, r->nodes, r->tree_c, r->comm_c, threads, err);
    if (s != CUZK_OK) return s;
    s = cuzk_fil_sdr_tree_build(r->shape, r->replica, r->nodes, r->tree_r, r->comm_r_last, threads, err);
    if (s != CUZK_OK) return s;
    uint8_t in[2][32];
    memcpy(in[0], r->comm_c, NB);
    memcpy(in[1], r->comm_r_last, NB);
    s = cuzk_fil_sdr_poseidon(2, (const uint8_t(*)[32])in, r->comm_r, err);
    if (s != CUZK_OK) return s;
    return CUZK_OK;
}

static cuzk_status seal(const cuzk_fil_sdr_seal_params *p, const uint8_t *unpadded, size_t len, cuzk_fil_sdr_replica *r,
                        cuzk_errmsg *err)
{
    uint64_t size = p->sector_size;
    if (size < 2048 || size > MAX_SEAL_SIZE || (size & (size - 1)) != 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "seal: sector size %llu (a power of two, 2 KiB .. 1 GiB)",
                         (unsigned long long)size);
    r->layers = cuzk_fil_sdr_layers(size);
    cuzk_status s = cuzk_fil_sdr_shape_of(size, &r->shape, err);
    if (r->layers == 0 || s != CUZK_OK)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "seal: no PoRep for sector size %llu", (unsigned long long)size);
    size_t cap = (size_t)(size / 128 * 127);
    if (len > 0 && unpadded == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "seal: %zu bytes of data at NULL", len);
    if (len > cap)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "seal: %zu bytes of data, a %llu-byte sector holds %zu", len,
                         (unsigned long long)size, cap);
    unsigned threads = cuzk_fil_sdr_threads(p->threads);
    uint64_t n = r->nodes = size / NB;
    r->data = calloc(n, NB);
    r->tree_d = malloc((2 * n - 1) * NB);
    r->labels = malloc((uint64_t)r->layers * n * NB);
    r->replica = malloc(n * NB);
    if (r->data == NULL || r->tree_d == NULL || r->labels == NULL || r->replica == NULL)
        return cuzk_fail(err, CUZK_ERR_NOMEM, "seal: %llu-byte sector buffers", (unsigned long long)size);

    /* whole 127-byte groups straight from the input, then the zero-filled tail group; the rest stays zero */
    size_t whole = len / 127;
    cuzk_fil_sdr_fr32_pad(unpadded, whole * 127, r->data);
    if (len % 127) {
        uint8_t tail[127] = {0};
        memcpy(tail, unpadded + whole * 127, len % 127);
        cuzk_fil_sdr_fr32_pad(tail, 127, r->data + whole * 128);
    }
    if ((s = cuzk_fil_sdr_tree_d(r->data, n, r->tree_d, r->comm_d, threads, err)) != CUZK_OK) return s;
    cuzk_fil_sdr_replica_id(p->prover_id, p->sector_id, p->ticket, r->comm_d, p->porep_id, r->replica_id);

    if ((s = cuzk_fil_sdr_graph_init(&r->graph, n, p->porep_id, p->api, err)) != CUZK_OK) return s;
    if ((s = cuzk_fil_sdr_parent_cache_generate(&r->cache, &r->graph, threads, err)) != CUZK_OK) return s;
    for (unsigned l = 1; l <= r->layers; l++) {
        uint8_t *out = r->labels + (uint64_t)(l - 1) * n * NB;
        s = cuzk_fil_sdr_label_layer(&r->cache, r->replica_id, l, l > 1 ? out - n * NB : NULL, out, threads, err);
        if (s != CUZK_OK) return s;
    }
    const uint8_t *last = r->labels + (uint64_t)(r->layers - 1) * n * NB;
    for (uint64_t v = 0; v < n; v++)
        if (!cuzk_fil_sdr_fr_add_le(r->replica + v * NB, r->data + v * NB, last + v * NB))
            return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "seal: node %llu is not a field element",
                             (unsigned long long)v);
    return seal_trees(r, threads, err);
}

cuzk_status cuzk_fil_sdr_seal(const cuzk_fil_sdr_seal_params *p, const uint8_t *unpadded, size_t len,
                              cuzk_fil_sdr_replica *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status s = seal(p, unpadded, len, out, err);
    if (s != CUZK_OK) cuzk_fil_sdr_replica_free(out);
    return s;
}
