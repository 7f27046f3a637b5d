/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The commit-phase-1 JSON written as serde_json writes it (compact, the Rust structs' field order), optionally in
 * Curio's envelope with the base64 made on the fly, and a generator of structurally valid C1s of any registered
 * proof from a seed: the fixtures of the C1 tests and benchmarks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fil_internal.h"

/* ---- a buffered writer with an optional base64 stage ------------------------------------------------------------- */

#define JW_BUF (64u << 10)

typedef struct {
    FILE *f;
    bool b64;        /* bytes written go through base64 first */
    uint8_t pend[3]; /* bytes waiting for a whole base64 group */
    int npend;
    size_t n;
    bool failed;
    char buf[JW_BUF];
} jw;

static void jw_flush(jw *w)
{
    if (w->n > 0 && fwrite(w->buf, 1, w->n, w->f) != w->n) w->failed = true;
    w->n = 0;
}

static void jw_raw(jw *w, const char *s, size_t n)
{
    while (n > 0) {
        if (w->n == JW_BUF) jw_flush(w);
        size_t k = JW_BUF - w->n < n ? JW_BUF - w->n : n;
        memcpy(w->buf + w->n, s, k);
        w->n += k, s += k, n -= k;
    }
}

static const char b64chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_group(jw *w, const uint8_t g[3], int n)
{
    char out[4];
    uint32_t q = (uint32_t)g[0] << 16 | (uint32_t)(n > 1 ? g[1] : 0) << 8 | (n > 2 ? g[2] : 0);
    out[0] = b64chars[q >> 18 & 63];
    out[1] = b64chars[q >> 12 & 63];
    out[2] = n > 1 ? b64chars[q >> 6 & 63] : '=';
    out[3] = n > 2 ? b64chars[q & 63] : '=';
    jw_raw(w, out, 4);
}

static void jw_put(jw *w, const char *s, size_t n)
{
    if (!w->b64) {
        jw_raw(w, s, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        w->pend[w->npend++] = (uint8_t)s[i];
        if (w->npend == 3) {
            b64_group(w, w->pend, 3);
            w->npend = 0;
        }
    }
}

static void jw_b64_end(jw *w)
{
    if (w->npend > 0) b64_group(w, w->pend, w->npend);
    w->npend = 0;
    w->b64 = false;
}

static void jw_str(jw *w, const char *s) { jw_put(w, s, strlen(s)); }

static void jw_u64(jw *w, uint64_t v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRIu64, v);
    jw_put(w, t, (size_t)n);
}

static void jw_node(jw *w, const uint8_t b[32])
{
    char t[32 * 4 + 2];
    size_t n = 0;
    t[n++] = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = b[i];
        if (i > 0) t[n++] = ',';
        if (v >= 100) t[n++] = (char)('0' + v / 100);
        if (v >= 10) t[n++] = (char)('0' + v / 10 % 10);
        t[n++] = (char)('0' + v % 10);
    }
    t[n++] = ']';
    jw_put(w, t, n);
}

static void jw_nodes(jw *w, const cuzk_fil_node *v, size_t count)
{
    jw_str(w, "[");
    for (size_t i = 0; i < count; i++) {
        if (i > 0) jw_str(w, ",");
        jw_node(w, v[i]);
    }
    jw_str(w, "]");
}

/* InclusionPath {"path":[{"hashes":[...],"index":i},...]} over levels first .. first + count − 1 */
static void jw_incl(jw *w, const cuzk_fil_shape *s, const cuzk_fil_merkle_proof *m, unsigned first, unsigned count)
{
    jw_str(w, "{\"path\":[");
    for (unsigned i = 0; i < count; i++) {
        unsigned l = first + i;
        if (i > 0) jw_str(w, ",");
        jw_str(w, "{\"hashes\":");
        jw_nodes(w, cuzk_fil_merkle_level(m, s, l), cuzk_fil_shape_arity(s, l) - 1);
        jw_str(w, ",\"index\":");
        jw_u64(w, m->index[l]);
        jw_str(w, "}");
    }
    jw_str(w, "]}");
}

static void jw_merkle(jw *w, const cuzk_fil_shape *s, const cuzk_fil_merkle_proof *m)
{
    cuzk_fil_merkle_kind k = cuzk_fil_shape_kind(s);
    jw_str(w, k == CUZK_FIL_MERKLE_SINGLE ? "{\"data\":{\"Single\":{"
              : k == CUZK_FIL_MERKLE_SUB  ? "{\"data\":{\"Sub\":{"
                                          : "{\"data\":{\"Top\":{");
    if (k == CUZK_FIL_MERKLE_SINGLE) {
        jw_str(w, "\"root\":");
        jw_node(w, m->root);
        jw_str(w, ",\"leaf\":");
        jw_node(w, m->leaf);
        jw_str(w, ",\"path\":");
        jw_incl(w, s, m, 0, s->base_levels);
    } else {
        jw_str(w, "\"base_proof\":");
        jw_incl(w, s, m, 0, s->base_levels);
        jw_str(w, ",\"sub_proof\":");
        jw_incl(w, s, m, s->base_levels, 1);
        if (k == CUZK_FIL_MERKLE_TOP) {
            jw_str(w, ",\"top_proof\":");
            jw_incl(w, s, m, s->base_levels + 1u, 1);
        }
        jw_str(w, ",\"root\":");
        jw_node(w, m->root);
        jw_str(w, ",\"leaf\":");
        jw_node(w, m->leaf);
    }
    jw_str(w, "}}}");
}

static void jw_column(jw *w, const cuzk_fil_proof *p, const cuzk_fil_column_proof *col)
{
    jw_str(w, "{\"column\":{\"index\":");
    jw_u64(w, col->index);
    jw_str(w, ",\"rows\":");
    jw_nodes(w, col->rows, p->layers);
    jw_str(w, ",\"_h\":null},\"inclusion_proof\":");
    jw_merkle(w, &p->tree_r, &col->proof);
    jw_str(w, "}");
}

static void jw_label(jw *w, const cuzk_fil_node *parents, uint32_t layer, uint64_t node)
{
    jw_str(w, "{\"parents\":");
    jw_nodes(w, parents, CUZK_FIL_LABEL_PARENTS);
    jw_str(w, ",\"layer_index\":");
    jw_u64(w, layer);
    jw_str(w, ",\"node\":");
    jw_u64(w, node);
    jw_str(w, "}");
}

static void jw_challenge(jw *w, const cuzk_fil_proof *p, const cuzk_fil_porep_challenge *c)
{
    jw_str(w, "{\"comm_d_proofs\":");
    jw_merkle(w, &p->tree_d, &c->comm_d);
    jw_str(w, ",\"comm_r_last_proof\":");
    jw_merkle(w, &p->tree_r, &c->comm_r_last);
    jw_str(w, ",\"replica_column_proofs\":{\"c_x\":");
    jw_column(w, p, &c->c_x);
    jw_str(w, ",\"drg_parents\":[");
    for (int i = 0; i < CUZK_FIL_DRG_PARENTS; i++) {
        if (i > 0) jw_str(w, ",");
        jw_column(w, p, &c->drg[i]);
    }
    jw_str(w, "],\"exp_parents\":[");
    for (int i = 0; i < CUZK_FIL_EXP_PARENTS; i++) {
        if (i > 0) jw_str(w, ",");
        jw_column(w, p, &c->exp[i]);
    }
    jw_str(w, "]},\"labeling_proofs\":[");
    for (uint32_t l = 0; l < p->layers; l++) {
        if (l > 0) jw_str(w, ",");
        jw_label(w, c->labeling + (size_t)l * CUZK_FIL_LABEL_PARENTS, l + 1, c->node);
    }
    jw_str(w, "],\"encoding_proof\":");
    jw_label(w, c->encoding, p->layers, c->node);
    jw_str(w, "}");
}

static void jw_c1(jw *w, const cuzk_fil_c1 *c)
{
    const cuzk_fil_proof *p = c->proof;
    static const char *const variant[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                                           "StackedDrg32GiBV1", "StackedDrg64GiBV1"};
    const cuzk_fil_proof *v1 = NULL;
    for (uint64_t id = 0; id < 5 && v1 == NULL; id++) {
        const cuzk_fil_proof *q = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, id);
        if (q->sector_size == p->sector_size) v1 = q;
    }
    jw_str(w, "{\"registered_proof\":\"");
    jw_str(w, p->name);
    jw_str(w, "\",\"vanilla_proofs\":{\"");
    jw_str(w, variant[v1->id]);
    jw_str(w, "\":[");
    for (uint32_t k = 0; k < c->partitions; k++) {
        jw_str(w, k > 0 ? ",[" : "[");
        for (uint32_t i = 0; i < c->challenges; i++) {
            if (i > 0) jw_str(w, ",");
            jw_challenge(w, p, &c->c[(size_t)k * c->challenges + i]);
        }
        jw_str(w, "]");
    }
    jw_str(w, "]},\"comm_r\":");
    jw_node(w, c->comm_r);
    jw_str(w, ",\"comm_d\":");
    jw_node(w, c->comm_d);
    jw_str(w, ",\"replica_id\":");
    jw_node(w, c->replica_id);
    jw_str(w, ",\"seed\":");
    jw_node(w, c->seed);
    jw_str(w, ",\"ticket\":");
    jw_node(w, c->ticket);
    jw_str(w, "}");
}

cuzk_status cuzk_fil_c1_write_json(const cuzk_fil_c1 *c, bool wrapped, FILE *f, cuzk_errmsg *err)
{
    if (c == NULL || c->proof == NULL || f == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no C1 or no file");
    jw *w = calloc(1, sizeof *w);
    if (w == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    w->f = f;
    if (wrapped) {
        /* Go's json.Marshal of curio's c1OutputWrapper: SectorNum, Phase1Out ([]byte as base64), SectorSize */
        jw_str(w, "{\"SectorNum\":");
        jw_u64(w, c->sector_num);
        jw_str(w, ",\"Phase1Out\":\"");
        w->b64 = true;
    }
    jw_c1(w, c);
    if (wrapped) {
        jw_b64_end(w);
        jw_str(w, "\",\"SectorSize\":");
        jw_u64(w, c->sector_size != 0 ? c->sector_size : c->proof->sector_size);
        jw_str(w, "}");
    }
    jw_flush(w);
    bool failed = w->failed || fflush(f) != 0;
    free(w);
    return failed ? cuzk_fail(err, CUZK_ERR_IO, "write failed") : CUZK_OK;
}

/* ---- the generator ----------------------------------------------------------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* a random node below 2^254 (so below r) */
static void rnd_node(uint64_t *s, uint8_t out[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t v = rnd(s);
        memcpy(out + 8 * i, &v, 8);
    }
    out[31] &= 0x3f;
}

/* a path of shape sh opening leaf, with random siblings and leaf value, rooted at root */
static void rnd_path(uint64_t *s, const cuzk_fil_shape *sh, uint64_t leaf, const uint8_t root[32],
                     cuzk_fil_merkle_proof *m)
{
    m->kind = (uint8_t)cuzk_fil_shape_kind(sh);
    m->levels = (uint8_t)cuzk_fil_shape_levels(sh);
    m->leaf_index = leaf;
    for (unsigned l = 0; l < m->levels; l++) {
        unsigned a = cuzk_fil_shape_arity(sh, l);
        m->index[l] = (uint8_t)(leaf % a);
        leaf /= a;
    }
    for (unsigned i = 0; i < cuzk_fil_shape_siblings(sh); i++) rnd_node(s, (uint8_t *)m->siblings[i]);
    memcpy(m->root, root, 32);
    rnd_node(s, m->leaf);
}

static void rnd_column(uint64_t *s, const cuzk_fil_proof *p, uint64_t index, const uint8_t comm_c[32],
                       cuzk_fil_column_proof *col)
{
    col->index = (uint32_t)index;
    for (uint32_t l = 0; l < p->layers; l++) rnd_node(s, (uint8_t *)col->rows[l]);
    rnd_path(s, &p->tree_r, index, comm_c, &col->proof);
}

cuzk_status cuzk_fil_c1_random(const cuzk_fil_proof *p, uint64_t seed, cuzk_fil_c1 *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    if (p == NULL || p->cls != CUZK_FIL_CLASS_SEAL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s is not a PoRep registered proof", p != NULL ? p->name : "NULL");
    uint64_t s = seed;
    uint8_t comm_r_last[32], comm_c[32];
    rnd_node(&s, out->comm_r);
    rnd_node(&s, out->comm_d);
    rnd_node(&s, out->replica_id);
    rnd_node(&s, out->seed);
    rnd_node(&s, out->ticket);
    out->seed[31] |= 0xc0; /* seed and ticket are plain bytes: any value */
    rnd_node(&s, comm_r_last);
    rnd_node(&s, comm_c);
    fil_c1b cb = {p, {NULL, 0}, NULL, 0, 0, 0};
    for (uint32_t k = 0; k < p->partitions; k++, cb.partitions++) {
        for (uint32_t i = 0; i < p->challenges; i++) {
            cuzk_fil_porep_challenge *c = cuzk_fil_c1b_add(&cb);
            if (c == NULL) {
                cuzk_fil_c1b_free(&cb);
                return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
            }
            uint64_t node = 1 + rnd(&s) % (p->nodes - 1);
            c->node = node;
            rnd_path(&s, &p->tree_d, node, out->comm_d, &c->comm_d);
            rnd_path(&s, &p->tree_r, node, comm_r_last, &c->comm_r_last);
            rnd_column(&s, p, node, comm_c, &c->c_x);
            for (int j = 0; j < CUZK_FIL_DRG_PARENTS; j++) rnd_column(&s, p, rnd(&s) % node, comm_c, &c->drg[j]);
            for (int j = 0; j < CUZK_FIL_EXP_PARENTS; j++) rnd_column(&s, p, rnd(&s) % p->nodes, comm_c, &c->exp[j]);
            for (size_t j = 0; j < (size_t)(p->layers + 1) * CUZK_FIL_LABEL_PARENTS; j++)
                rnd_node(&s, (uint8_t *)c->labeling[j]); /* the encoding parents follow the labeling ones */
        }
    }
    out->proof = p;
    out->sector_num = seed & 0xffffff;
    out->sector_size = p->sector_size;
    cuzk_status st = cuzk_fil_c1b_finish(&cb, out, err);
    if (st != CUZK_OK) memset(out, 0, sizeof *out);
    return st;
}
