/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PoRep commit-phase-1 output: the in-memory form every reader fills (one node pool per challenge in an arena, laid
 * out from the sector size's geometry), the checks that span the document, and the two bincode forms (supraseal's
 * filecoin-proofs SealCommitPhase1Output and rust-filecoin-proofs-api's, which adds the enum tags). */
#include <stdlib.h>

#include "fil_internal.h"

typedef struct {
    fil_arena arena;
    cuzk_fil_porep_challenge *c;
} c1_mem;

#define NCOLUMNS (1 + CUZK_FIL_DRG_PARENTS + CUZK_FIL_EXP_PARENTS)

static cuzk_fil_column_proof *column(cuzk_fil_porep_challenge *c, unsigned i)
{
    return i == 0 ? &c->c_x : i <= CUZK_FIL_DRG_PARENTS ? &c->drg[i - 1] : &c->exp[i - 1 - CUZK_FIL_DRG_PARENTS];
}

static const cuzk_fil_column_proof *ccolumn(const cuzk_fil_porep_challenge *c, unsigned i)
{
    return column((cuzk_fil_porep_challenge *)c, i);
}

uint32_t cuzk_fil_c1_max_partitions(const cuzk_fil_proof *geom)
{
    uint32_t m = 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls == CUZK_FIL_CLASS_SEAL && p->sector_size == geom->sector_size && p->partitions > m)
            m = p->partitions;
    }
    return m;
}

/* nodes of one challenge's pool */
static size_t pool_nodes(const cuzk_fil_proof *g)
{
    size_t sd = cuzk_fil_shape_siblings(&g->tree_d), sr = cuzk_fil_shape_siblings(&g->tree_r);
    return sd + sr + NCOLUMNS * (g->layers + sr) + (size_t)(g->layers + 1) * CUZK_FIL_LABEL_PARENTS;
}

cuzk_fil_porep_challenge *cuzk_fil_c1b_add(fil_c1b *b)
{
    const cuzk_fil_proof *g = b->geom;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 32;
        cuzk_fil_porep_challenge *c = realloc(b->c, cap * sizeof *c);
        if (c == NULL) return NULL;
        b->c = c;
        b->cap = cap;
    }
    cuzk_fil_node *pool = cuzk_fil_arena_alloc(&b->arena, pool_nodes(g) * sizeof *pool);
    if (pool == NULL) return NULL;
    cuzk_fil_porep_challenge *c = &b->c[b->n++];
    memset(c, 0, sizeof *c);
    size_t sd = cuzk_fil_shape_siblings(&g->tree_d), sr = cuzk_fil_shape_siblings(&g->tree_r);
    c->comm_d.siblings = pool;
    pool += sd;
    c->comm_r_last.siblings = pool;
    pool += sr;
    for (unsigned i = 0; i < NCOLUMNS; i++) {
        column(c, i)->rows = pool;
        pool += g->layers;
        column(c, i)->proof.siblings = pool;
        pool += sr;
    }
    c->labeling = pool;
    pool += (size_t)g->layers * CUZK_FIL_LABEL_PARENTS;
    c->encoding = pool;
    return c;
}

void cuzk_fil_c1b_free(fil_c1b *b)
{
    cuzk_fil_arena_free(&b->arena);
    free(b->c);
    b->c = NULL;
    b->n = b->cap = 0;
}

cuzk_status cuzk_fil_c1_check_challenge(const cuzk_fil_proof *geom, cuzk_fil_porep_challenge *c, const fil_path *p,
                                        cuzk_errmsg *err)
{
    uint64_t node = c->comm_d.leaf_index;
    if (node == 0) return cuzk_fil_path_fail(err, p, CUZK_ERR_MISMATCH, "challenges node 0, which is never challenged");
    if (c->comm_r_last.leaf_index != node)
        return cuzk_fil_path_fail(err, p, CUZK_ERR_MISMATCH,
                                  "comm_r_last_proof opens node %llu, comm_d_proofs node %llu",
                                  (unsigned long long)c->comm_r_last.leaf_index, (unsigned long long)node);
    if (c->c_x.index != node)
        return cuzk_fil_path_fail(err, p, CUZK_ERR_MISMATCH,
                                  "replica_column_proofs.c_x is column %u, the challenge is node %llu", c->c_x.index,
                                  (unsigned long long)node);
    (void)geom; /* leaf_index < nodes was checked with each path */
    c->node = node;
    return CUZK_OK;
}

static cuzk_status root_fail(cuzk_errmsg *err, size_t i, uint32_t ch, const char *what, const char *want)
{
    fil_path at = {{{"vanilla_proofs", (int64_t)(i / ch)}, {NULL, (int64_t)(i % ch)}, {what, -1}, {"root", -1}}, 4};
    return cuzk_fil_path_fail(err, &at, CUZK_ERR_MISMATCH, "differs from %s", want);
}

cuzk_status cuzk_fil_c1b_finish(fil_c1b *b, cuzk_fil_c1 *out, cuzk_errmsg *err)
{
    const cuzk_fil_proof *p = out->proof;
    cuzk_status st = CUZK_OK;
    if (b->partitions != p->partitions || b->n != (size_t)p->partitions * p->challenges) {
        fil_path at = {{{"vanilla_proofs", -1}}, 1};
        st = cuzk_fil_path_fail(err, &at, CUZK_ERR_BAD_LENGTH, "%u partitions of %zu challenges, %s needs %u of %u",
                                b->partitions, b->partitions ? b->n / b->partitions : 0, p->name, p->partitions,
                                p->challenges);
    }
    for (size_t i = 0; st == CUZK_OK && i < b->n; i++) {
        const cuzk_fil_porep_challenge *c = &b->c[i];
        if (memcmp(c->comm_d.root, out->comm_d, 32) != 0)
            st = root_fail(err, i, p->challenges, "comm_d_proofs", "comm_d");
        else if (memcmp(c->comm_r_last.root, b->c[0].comm_r_last.root, 32) != 0)
            st = root_fail(err, i, p->challenges, "comm_r_last_proof", "the first challenge's (comm_r_last)");
        for (unsigned k = 0; st == CUZK_OK && k < NCOLUMNS; k++)
            if (memcmp(ccolumn(c, k)->proof.root, b->c[0].c_x.proof.root, 32) != 0)
                st = root_fail(err, i, p->challenges, "replica_column_proofs", "the first column's (comm_c)");
    }
    if (st != CUZK_OK) {
        cuzk_fil_c1b_free(b);
        return st;
    }
    c1_mem *m = malloc(sizeof *m);
    if (m == NULL) {
        cuzk_fil_c1b_free(b);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    }
    m->arena = b->arena;
    m->c = b->c;
    out->mem = m;
    out->c = b->c;
    out->partitions = p->partitions;
    out->challenges = p->challenges;
    out->mem_bytes = b->arena.bytes + b->cap * sizeof *b->c + sizeof *m;
    b->c = NULL;
    b->arena.head = NULL;
    return CUZK_OK;
}

void cuzk_fil_c1_free(cuzk_fil_c1 *c)
{
    if (c == NULL) return;
    c1_mem *m = c->mem;
    if (m != NULL) {
        cuzk_fil_arena_free(&m->arena);
        free(m->c);
        free(m);
    }
    memset(c, 0, sizeof *c);
}

/* ---- bincode ----------------------------------------------------------------------------------------------------- */

static cuzk_status bin_merkle(fil_bin *b, const char *name, const cuzk_fil_shape *s, uint64_t nodes,
                              cuzk_fil_merkle_proof *m)
{
    fil_push(&b->path, name, -1);
    cuzk_status st = cuzk_fil_bin_merkle(b, s, nodes, m);
    fil_pop(&b->path);
    return st;
}

static cuzk_status bin_nodes(fil_bin *b, const char *name, const cuzk_fil_node *dst, uint64_t n)
{
    cuzk_status st;
    fil_push(&b->path, name, -1);
    if ((st = cuzk_fil_bin_len(b, n)) != CUZK_OK) return st;
    for (uint64_t i = 0; i < n; i++) {
        fil_index(&b->path, (int64_t)i);
        if ((st = cuzk_fil_bin_node(b, (uint8_t *)dst[i], true)) != CUZK_OK) return st;
    }
    fil_pop(&b->path);
    return CUZK_OK;
}

static cuzk_status bin_column(fil_bin *b, const cuzk_fil_proof *g, cuzk_fil_column_proof *col)
{
    cuzk_status st;
    fil_push(&b->path, "column", -1);
    fil_push(&b->path, "index", -1);
    if ((st = fil_bin_u32(b, &col->index)) != CUZK_OK) return st;
    fil_pop(&b->path);
    if ((st = bin_nodes(b, "rows", col->rows, g->layers)) != CUZK_OK) return st;
    fil_pop(&b->path);
    if ((st = bin_merkle(b, "inclusion_proof", &g->tree_r, g->nodes, &col->proof)) != CUZK_OK) return st;
    if (col->proof.leaf_index != col->index)
        return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_MISMATCH, "column %u, its inclusion proof opens leaf %llu",
                                  col->index, (unsigned long long)col->proof.leaf_index);
    return CUZK_OK;
}

/* a LabelingProof or the EncodingProof: 37 parents, the layer (1-based) and the challenged node */
static cuzk_status bin_label(fil_bin *b, const cuzk_fil_node *parents, uint32_t layer, uint64_t node)
{
    cuzk_status st;
    if ((st = bin_nodes(b, "parents", parents, CUZK_FIL_LABEL_PARENTS)) != CUZK_OK) return st;
    uint32_t li = 0;
    uint64_t n = 0;
    fil_push(&b->path, "layer_index", -1);
    if ((st = fil_bin_u32(b, &li)) != CUZK_OK) return st;
    if (li != layer) return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_MISMATCH, "expected %u found %u", layer, li);
    fil_pop(&b->path);
    fil_push(&b->path, "node", -1);
    if ((st = fil_bin_u64(b, &n)) != CUZK_OK) return st;
    if (n != node)
        return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_MISMATCH, "expected %llu (the challenge) found %llu",
                                  (unsigned long long)node, (unsigned long long)n);
    fil_pop(&b->path);
    return CUZK_OK;
}

static cuzk_status bin_challenge(fil_bin *b, const cuzk_fil_proof *g, cuzk_fil_porep_challenge *c)
{
    cuzk_status st;
    if ((st = bin_merkle(b, "comm_d_proofs", &g->tree_d, g->nodes, &c->comm_d)) != CUZK_OK) return st;
    if ((st = bin_merkle(b, "comm_r_last_proof", &g->tree_r, g->nodes, &c->comm_r_last)) != CUZK_OK) return st;
    fil_push(&b->path, "replica_column_proofs", -1);
    fil_push(&b->path, "c_x", -1);
    if ((st = bin_column(b, g, &c->c_x)) != CUZK_OK) return st;
    fil_pop(&b->path);
    static const char *const groups[2] = {"drg_parents", "exp_parents"};
    for (int k = 0; k < 2; k++) {
        unsigned n = k == 0 ? CUZK_FIL_DRG_PARENTS : CUZK_FIL_EXP_PARENTS;
        fil_push(&b->path, groups[k], -1);
        if ((st = cuzk_fil_bin_len(b, n)) != CUZK_OK) return st;
        for (unsigned i = 0; i < n; i++) {
            fil_index(&b->path, i);
            if ((st = bin_column(b, g, k == 0 ? &c->drg[i] : &c->exp[i])) != CUZK_OK) return st;
        }
        fil_pop(&b->path);
    }
    fil_pop(&b->path);
    fil_path here = b->path;
    if ((st = cuzk_fil_c1_check_challenge(g, c, &here, b->err)) != CUZK_OK) return st;
    fil_push(&b->path, "labeling_proofs", -1);
    if ((st = cuzk_fil_bin_len(b, g->layers)) != CUZK_OK) return st;
    for (uint32_t l = 0; l < g->layers; l++) {
        fil_index(&b->path, l);
        if ((st = bin_label(b, c->labeling + (size_t)l * CUZK_FIL_LABEL_PARENTS, l + 1, c->node)) != CUZK_OK) return st;
    }
    fil_pop(&b->path);
    fil_push(&b->path, "encoding_proof", -1);
    if ((st = bin_label(b, c->encoding, g->layers, c->node)) != CUZK_OK) return st;
    fil_pop(&b->path);
    return CUZK_OK;
}

/* VanillaSealProof's variants, by tag: the sector sizes */
static const uint64_t variant_size[5] = {2ULL << 10, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};

static cuzk_status bin_c1(fil_bin *b, cuzk_fil_c1_bin_form form, const cuzk_fil_proof *p, fil_c1b *cb, cuzk_fil_c1 *out)
{
    cuzk_status st;
    if (form == CUZK_FIL_C1_BIN_API) {
        uint32_t tag = 0;
        fil_push(&b->path, "registered_proof", -1);
        if ((st = fil_bin_u32(b, &tag)) != CUZK_OK) return st;
        const cuzk_fil_proof *q = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, tag);
        if (q == NULL)
            return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_BAD_HEADER, "unknown RegisteredSealProof tag %u", tag);
        if (p != NULL && q != p)
            return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_MISMATCH, "%s, expected %s", q->name, p->name);
        p = q;
        fil_pop(&b->path);
        fil_push(&b->path, "vanilla_proofs", -1);
        if ((st = fil_bin_u32(b, &tag)) != CUZK_OK) return st;
        if (tag >= 5)
            return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_BAD_HEADER, "unknown VanillaSealProof tag %u", tag);
        if (variant_size[tag] != p->sector_size)
            return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_MISMATCH,
                                      "variant %u is for another sector size than %s", tag, p->name);
        fil_pop(&b->path);
    }
    out->proof = cb->geom = p;
    fil_push(&b->path, "vanilla_proofs", -1);
    if ((st = cuzk_fil_bin_len(b, p->partitions)) != CUZK_OK) return st;
    for (uint32_t k = 0; k < p->partitions; k++) {
        fil_index(&b->path, k);
        fil_push(&b->path, NULL, -1);
        if ((st = cuzk_fil_bin_len(b, p->challenges)) != CUZK_OK) return st;
        for (uint32_t i = 0; i < p->challenges; i++) {
            fil_index(&b->path, i);
            cuzk_fil_porep_challenge *c = cuzk_fil_c1b_add(cb);
            if (c == NULL) return cuzk_fail(b->err, CUZK_ERR_NOMEM, "out of memory");
            if ((st = bin_challenge(b, p, c)) != CUZK_OK) return st;
        }
        fil_pop(&b->path);
        cb->partitions++;
    }
    fil_pop(&b->path);
    static const char *const names[5] = {"comm_r", "comm_d", "replica_id", "seed", "ticket"};
    uint8_t *dst[5] = {out->comm_r, out->comm_d, out->replica_id, out->seed, out->ticket};
    for (int i = 0; i < 5; i++) {
        fil_push(&b->path, names[i], -1);
        if ((st = cuzk_fil_bin_node(b, dst[i], i < 3)) != CUZK_OK) return st;
        fil_pop(&b->path);
    }
    return cuzk_fil_bin_end(b);
}

cuzk_status cuzk_fil_c1_decode_bincode(const uint8_t *buf, size_t len, cuzk_fil_c1_bin_form form,
                                       const cuzk_fil_proof *p, cuzk_fil_c1 *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    if ((form != CUZK_FIL_C1_BIN_SUPRASEAL && form != CUZK_FIL_C1_BIN_API) || (buf == NULL && len > 0))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "unknown bincode form or no buffer");
    if (p != NULL ? p->cls != CUZK_FIL_CLASS_SEAL : form == CUZK_FIL_C1_BIN_SUPRASEAL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s: a SEAL registered proof is needed",
                         p != NULL ? p->name : "no registered proof");
    if (buf == NULL) buf = cuzk_fil_empty;
    fil_c1b cb = {p, {NULL, 0}, NULL, 0, 0, 0};
    fil_bin b = {buf, buf, buf + len, {.depth = 0}, err};
    cuzk_status st = bin_c1(&b, form, p, &cb, out);
    if (st != CUZK_OK) {
        cuzk_fil_c1b_free(&cb);
        memset(out, 0, sizeof *out);
        return st;
    }
    st = cuzk_fil_c1b_finish(&cb, out, err);
    if (st != CUZK_OK) memset(out, 0, sizeof *out);
    return st;
}

static void put_label(fil_bout *o, const cuzk_fil_node *parents, uint32_t layer, uint64_t node)
{
    fil_put_u64(o, CUZK_FIL_LABEL_PARENTS);
    fil_put(o, parents, 32 * CUZK_FIL_LABEL_PARENTS);
    fil_put_u32(o, layer);
    fil_put_u64(o, node);
}

static void put_c1(fil_bout *o, const cuzk_fil_c1 *c, cuzk_fil_c1_bin_form form)
{
    const cuzk_fil_proof *p = c->proof;
    if (form == CUZK_FIL_C1_BIN_API) {
        fil_put_u32(o, p->id);
        uint32_t tag = 0;
        while (tag < 4 && variant_size[tag] != p->sector_size) tag++;
        fil_put_u32(o, tag);
    }
    fil_put_u64(o, c->partitions);
    for (uint32_t k = 0; k < c->partitions; k++) {
        fil_put_u64(o, c->challenges);
        for (uint32_t i = 0; i < c->challenges; i++) {
            const cuzk_fil_porep_challenge *ch = &c->c[(size_t)k * c->challenges + i];
            cuzk_fil_put_merkle(o, &p->tree_d, &ch->comm_d);
            cuzk_fil_put_merkle(o, &p->tree_r, &ch->comm_r_last);
            for (unsigned j = 0; j < NCOLUMNS; j++) {
                if (j == 1) fil_put_u64(o, CUZK_FIL_DRG_PARENTS);
                if (j == 1 + CUZK_FIL_DRG_PARENTS) fil_put_u64(o, CUZK_FIL_EXP_PARENTS);
                const cuzk_fil_column_proof *col = ccolumn(ch, j);
                fil_put_u32(o, col->index);
                fil_put_u64(o, p->layers);
                fil_put(o, col->rows, 32 * (size_t)p->layers);
                cuzk_fil_put_merkle(o, &p->tree_r, &col->proof);
            }
            fil_put_u64(o, p->layers);
            for (uint32_t l = 0; l < p->layers; l++)
                put_label(o, ch->labeling + (size_t)l * CUZK_FIL_LABEL_PARENTS, l + 1, ch->node);
            put_label(o, ch->encoding, p->layers, ch->node);
        }
    }
    fil_put(o, c->comm_r, 32);
    fil_put(o, c->comm_d, 32);
    fil_put(o, c->replica_id, 32);
    fil_put(o, c->seed, 32);
    fil_put(o, c->ticket, 32);
}

size_t cuzk_fil_c1_bincode_bytes(const cuzk_fil_c1 *c, cuzk_fil_c1_bin_form form)
{
    fil_bout o = {NULL, NULL, 0};
    put_c1(&o, c, form);
    return o.len;
}

cuzk_status cuzk_fil_c1_encode_bincode(const cuzk_fil_c1 *c, cuzk_fil_c1_bin_form form, uint8_t *out, size_t cap,
                                       size_t *len, cuzk_errmsg *err)
{
    if (c == NULL || c->proof == NULL || (form != CUZK_FIL_C1_BIN_SUPRASEAL && form != CUZK_FIL_C1_BIN_API))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no C1 or unknown bincode form");
    fil_bout o = {out, out + cap, 0};
    put_c1(&o, c, form);
    return cuzk_fil_bout_done(&o, len, err);
}
