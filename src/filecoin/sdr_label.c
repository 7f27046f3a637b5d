/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SDR labelling. A label is SHA-256 over 1,248 bytes: the replica id, the layer and node, then 37 parent labels,
 * which are the node's 6 (layer 1) or 14 parents repeated in order. Because 6 and 14 are even, every 64-byte block
 * after the first is two consecutive parents of the node's parent list, so the hash runs straight over the list:
 *   layer 1:  first block, 6 × (parents 0-5 = 3 blocks), then parent 0 ‖ padding  = 20 blocks
 *   layer ≥2: first block, 2 × (parents 0-13 = 7 blocks), parents 0-7 (4 blocks), then parent 8 ‖ padding = 20
 * Node 0 hashes the first block alone.
 *
 * A layer is sequential (each node has its predecessor as a parent). With more than one thread, producer threads
 * run ahead of the hashing thread over a ring of slots: for each node they hash the first block (it needs no parent)
 * and copy the expander parents (previous layer) and the DRG parents already labelled; the hashing thread copies
 * the DRG parents that were not ready (always the predecessor) and hashes the rest. rust-fil-proofs' multicore SDR
 * does the same. */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sdr_int.h"

#define NB CUZK_FIL_SDR_NODE_BYTES
#define DEG CUZK_FIL_SDR_DEGREE
#define DRG CUZK_FIL_SDR_DRG_DEGREE
#define STRIDE 64       /* nodes a producer claims at a time */
#define RING_NODES 4096 /* slots in the ring (a multiple of STRIDE) */
#define MSG_BITS ((uint64_t)(64 + CUZK_FIL_SDR_LABEL_PARENTS * NB) * 8)

typedef struct {
    uint32_t h[8];    /* state after the first block */
    uint32_t missing; /* DRG parents the hashing thread must copy (bit k = parent k) */
    uint32_t pad_[7];
    uint8_t p[DEG][NB]; /* the node's parent labels in cache order */
} slot;

typedef struct {
    const uint32_t *parents;
    uint64_t nodes;
    const uint8_t *rid;
    uint32_t layer;
    const uint8_t *prev;
    uint8_t *out;
    slot *ring;
    atomic_uint_fast64_t consumed; /* nodes labelled so far (labels below it are final) */
    atomic_uint_fast64_t next_chunk;
    atomic_uint_fast64_t ready[RING_NODES / STRIDE]; /* chunk c's entry holds c + 1 once filled */
    atomic_int failed;                               /* set by anyone that finds a bad parent; everyone stops */
    atomic_uint_fast64_t bad_node;
    atomic_uint bad_parent;
} lctx;

static void first_block(const uint8_t rid[32], uint32_t layer, uint64_t node, uint32_t h[8])
{
    uint8_t b[64] = {0};
    memcpy(b, rid, 32);
    cuzk_store_be32(b + 32, layer);
    cuzk_store_be64(b + 36, node);
    memcpy(h, CUZK_FIL_SDR_SHA256_IV, 32);
    cuzk_fil_sdr_sha256_blocks(h, b, 1);
}

/* the last block: one parent label, then 0x80 and the message length in bits */
static void final_block(uint32_t h[8], const uint8_t last[NB], uint64_t bits, uint8_t out[32])
{
    uint8_t b[64] = {0};
    if (last != NULL) {
        memcpy(b, last, NB);
        b[NB] = 0x80;
    } else {
        b[0] = 0x80;
    }
    cuzk_store_be64(b + 56, bits);
    cuzk_fil_sdr_sha256_blocks(h, b, 1);
    cuzk_fil_sdr_sha256_state_bytes(h, out);
    out[31] &= 0x3f;
}

/* the 18 middle blocks and the last one, over a slot's complete parent list */
static void hash_rest(uint32_t h[8], const uint8_t (*p)[NB], bool exp, uint8_t out[32])
{
    if (!exp) {
        for (int r = 0; r < 6; r++) cuzk_fil_sdr_sha256_blocks(h, p[0], 3);
        final_block(h, p[0], MSG_BITS, out);
    } else {
        cuzk_fil_sdr_sha256_blocks(h, p[0], 7);
        cuzk_fil_sdr_sha256_blocks(h, p[0], 7);
        cuzk_fil_sdr_sha256_blocks(h, p[0], 4);
        final_block(h, p[8], MSG_BITS, out);
    }
}

static void fail(lctx *c, uint64_t node, unsigned k)
{
    int expect = 0;
    if (atomic_compare_exchange_strong(&c->failed, &expect, 1)) {
        atomic_store(&c->bad_node, node);
        atomic_store(&c->bad_parent, k);
    }
}

/* Fills node's slot with what is known with labels below `avail` final; false on a parent out of range. */
static bool fill(lctx *c, uint64_t node, uint64_t avail, slot *s)
{
    const uint32_t *p = c->parents + node * DEG;
    first_block(c->rid, c->layer, node, s->h);
    uint32_t missing = 0;
    for (unsigned k = 0; k < DRG; k++) {
        if (p[k] >= node) {
            fail(c, node, k);
            return false;
        }
        if (p[k] < avail) memcpy(s->p[k], c->out + (uint64_t)p[k] * NB, NB);
        else missing |= 1u << k;
    }
    s->missing = missing;
    if (c->layer > 1) {
        for (unsigned k = DRG; k < DEG; k++) {
            if (p[k] >= c->nodes) {
                fail(c, node, k);
                return false;
            }
            memcpy(s->p[k], c->prev + (uint64_t)p[k] * NB, NB);
        }
    }
    return true;
}

static void finish(lctx *c, uint64_t node, slot *s)
{
    const uint32_t *p = c->parents + node * DEG;
    for (uint32_t m = s->missing; m; m &= m - 1) {
        unsigned k = (unsigned)__builtin_ctz(m);
        memcpy(s->p[k], c->out + (uint64_t)p[k] * NB, NB);
    }
    hash_rest(s->h, (const uint8_t(*)[NB])s->p, c->layer > 1, c->out + node * NB);
}

static void label_node0(lctx *c)
{
    uint32_t h[8];
    first_block(c->rid, c->layer, 0, h);
    final_block(h, NULL, 512, c->out);
}

static inline void relax(unsigned *spins)
{
    if (++*spins > 64) sched_yield();
}

static void producer(lctx *c)
{
    uint64_t chunks = (c->nodes + STRIDE - 1) / STRIDE;
    for (;;) {
        uint64_t ch = atomic_fetch_add(&c->next_chunk, 1);
        if (ch >= chunks) return;
        uint64_t start = ch * STRIDE, end = start + STRIDE < c->nodes ? start + STRIDE : c->nodes;
        /* the chunk's slots are free once the hashing thread is past the nodes that used them */
        unsigned spins = 0;
        while (end > atomic_load_explicit(&c->consumed, memory_order_acquire) + RING_NODES) {
            if (atomic_load_explicit(&c->failed, memory_order_relaxed)) return;
            relax(&spins);
        }
        for (uint64_t v = start; v < end; v++) {
            if (v == 0) continue;
            uint64_t avail = atomic_load_explicit(&c->consumed, memory_order_acquire);
            if (!fill(c, v, avail, &c->ring[v % RING_NODES])) return;
        }
        atomic_store_explicit(&c->ready[ch % (RING_NODES / STRIDE)], ch + 1, memory_order_release);
    }
}

static void consumer(lctx *c)
{
    label_node0(c);
    atomic_store_explicit(&c->consumed, 1, memory_order_release);
    for (uint64_t v = 1; v < c->nodes; v++) {
        if (v % STRIDE == 0 || v == 1) {
            uint64_t ch = v / STRIDE;
            unsigned spins = 0;
            while (atomic_load_explicit(&c->ready[ch % (RING_NODES / STRIDE)], memory_order_acquire) != ch + 1) {
                if (atomic_load_explicit(&c->failed, memory_order_relaxed)) return;
                relax(&spins);
            }
        }
        finish(c, v, &c->ring[v % RING_NODES]);
        atomic_store_explicit(&c->consumed, v + 1, memory_order_release);
    }
}

/* thread 0 (the caller) hashes, the others produce */
static void run_thread(void *arg, unsigned t)
{
    if (t == 0) consumer(arg);
    else producer(arg);
}

static cuzk_status check_args(const cuzk_fil_sdr_parent_cache *pc, uint32_t layer, const uint8_t *prev,
                              cuzk_errmsg *err)
{
    if (pc == NULL || pc->parents == NULL || pc->nodes < 2)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "labels: no parent cache");
    if (layer == 0) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "labels: layers count from 1");
    if (layer > 1 && prev == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "labels: layer %u needs the previous layer's labels", layer);
    return CUZK_OK;
}

cuzk_status cuzk_fil_sdr_label_layer(const cuzk_fil_sdr_parent_cache *pc, const uint8_t replica_id[32], uint32_t layer,
                                     const uint8_t *prev, uint8_t *out, unsigned threads, cuzk_errmsg *err)
{
    cuzk_status s = check_args(pc, layer, prev, err);
    if (s != CUZK_OK) return s;
    lctx *c = calloc(1, sizeof *c);
    if (c == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "labels: context");
    c->parents = pc->parents, c->nodes = pc->nodes, c->rid = replica_id, c->layer = layer, c->prev = prev, c->out = out;
    threads = cuzk_fil_sdr_threads(threads);
    if (threads <= 1 || pc->nodes <= STRIDE) {
        slot one;
        label_node0(c);
        for (uint64_t v = 1; v < c->nodes; v++) {
            if (!fill(c, v, v, &one)) break;
            finish(c, v, &one);
        }
    } else {
        c->ring = aligned_alloc(64, RING_NODES * sizeof(slot));
        if (c->ring == NULL) {
            free(c);
            return cuzk_fail(err, CUZK_ERR_NOMEM, "labels: ring of %d slots", RING_NODES);
        }
        cuzk_par_run(threads, run_thread, c);
        free(c->ring);
    }
    if (atomic_load(&c->failed)) {
        uint64_t node = atomic_load(&c->bad_node);
        unsigned k = atomic_load(&c->bad_parent);
        uint32_t v = pc->parents[node * DEG + k];
        free(c);
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "labels: parent cache node %llu parent %u = %u out of range (%s)",
                         (unsigned long long)node, k, v, k < DRG ? "DRG parents precede the node" : "beyond the graph");
    }
    free(c);
    return CUZK_OK;
}

cuzk_status cuzk_fil_sdr_label_from_parents(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                                            const uint8_t (*parents)[32], size_t n_parents, uint8_t out[32],
                                            cuzk_errmsg *err)
{
    if (n_parents != 0 && n_parents != CUZK_FIL_SDR_LABEL_PARENTS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "label: %zu parents, expected 0 or %d", n_parents,
                         CUZK_FIL_SDR_LABEL_PARENTS);
    uint8_t b[32] = {0};
    cuzk_store_be32(b, layer);
    cuzk_store_be64(b + 4, node);
    cuzk_fil_sdr_sha256_ctx c;
    cuzk_fil_sdr_sha256_init(&c);
    cuzk_fil_sdr_sha256_update(&c, replica_id, 32);
    cuzk_fil_sdr_sha256_update(&c, b, 32);
    if (n_parents) cuzk_fil_sdr_sha256_update(&c, parents, n_parents * 32);
    cuzk_fil_sdr_sha256_final(&c, out);
    out[31] &= 0x3f;
    return CUZK_OK;
}

cuzk_status cuzk_fil_sdr_label_parents(const cuzk_fil_sdr_parent_cache *pc, uint32_t layer, uint64_t node,
                                       const uint8_t *layer_labels, const uint8_t *prev_labels,
                                       uint8_t out[CUZK_FIL_SDR_LABEL_PARENTS][32], cuzk_errmsg *err)
{
    cuzk_status s = check_args(pc, layer, prev_labels, err);
    if (s != CUZK_OK) return s;
    if (node >= pc->nodes)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "label parents: node %llu of %llu", (unsigned long long)node,
                         (unsigned long long)pc->nodes);
    const uint32_t *p = pc->parents + node * DEG;
    unsigned deg = layer > 1 ? DEG : DRG;
    for (unsigned k = 0; k < deg; k++) {
        bool drg = k < DRG;
        if (drg ? (node > 0 && p[k] >= node) : p[k] >= pc->nodes)
            return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "label parents: node %llu parent %u = %u out of range",
                             (unsigned long long)node, k, p[k]);
    }
    for (unsigned i = 0; i < CUZK_FIL_SDR_LABEL_PARENTS; i++) {
        unsigned k = i % deg;
        const uint8_t *src = k < DRG ? layer_labels : prev_labels;
        memcpy(out[i], src + (uint64_t)p[k] * NB, NB);
    }
    return CUZK_OK;
}
