/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Merkle inclusion proofs of storage-proofs-core in bincode, tree shapes, and the small machinery every Filecoin
 * decoder shares: the field path of error messages, the bounds-checked reader, the writer, the arena. */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/circuits.h"
#include "fil_internal.h"

/* ---- shapes ------------------------------------------------------------------------------------------------------ */

unsigned cuzk_fil_shape_levels(const cuzk_fil_shape *s) { return s->base_levels + (s->sub != 0) + (s->top != 0); }

unsigned cuzk_fil_shape_arity(const cuzk_fil_shape *s, unsigned level)
{
    if (level < s->base_levels) return s->base;
    if (level == s->base_levels && s->sub != 0) return s->sub;
    if (level == s->base_levels + 1u && s->sub != 0 && s->top != 0) return s->top;
    return 0;
}

unsigned cuzk_fil_shape_siblings(const cuzk_fil_shape *s)
{
    unsigned n = 0;
    for (unsigned l = 0; l < cuzk_fil_shape_levels(s); l++) n += cuzk_fil_shape_arity(s, l) - 1;
    return n;
}

cuzk_fil_merkle_kind cuzk_fil_shape_kind(const cuzk_fil_shape *s)
{
    return s->top != 0 ? CUZK_FIL_MERKLE_TOP : s->sub != 0 ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE;
}

const char *cuzk_fil_merkle_kind_name(unsigned kind)
{
    static const char *const names[] = {"Single", "Sub", "Top"};
    return kind < 3 ? names[kind] : "?";
}

cuzk_status cuzk_fil_merkle_finish(cuzk_fil_merkle_proof *m, const cuzk_fil_shape *s, uint64_t nodes, const fil_path *p,
                                   cuzk_errmsg *err)
{
    uint64_t leaf = 0, scale = 1;
    for (unsigned l = 0; l < m->levels; l++) {
        unsigned a = cuzk_fil_shape_arity(s, l);
        leaf += m->index[l] * scale;
        scale *= a;
    }
    m->leaf_index = leaf;
    if (leaf >= nodes)
        return cuzk_fil_path_fail(err, p, CUZK_ERR_TOO_LARGE, "opens leaf %llu of a tree of %llu leaves",
                                  (unsigned long long)leaf, (unsigned long long)nodes);
    return CUZK_OK;
}

/* ---- roots ------------------------------------------------------------------------------------------------------ */

cuzk_status cuzk_fil_merkle_root(const cuzk_fil_merkle_proof *m, const cuzk_fil_shape *s, cuzk_fil_hasher h,
                                 uint8_t root[32], cuzk_errmsg *err)
{
    if (m->levels != cuzk_fil_shape_levels(s) || (h == CUZK_FIL_HASH_SHA256 && (s->base != 2 || s->sub != 0)))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a path of %u levels does not fit the tree (%u-%u-%u, %s)",
                         m->levels, s->base, s->sub, s->top, h == CUZK_FIL_HASH_SHA256 ? "SHA-256" : "Poseidon");
    uint8_t cur[32], in[16 * 32];
    memcpy(cur, m->leaf, 32);
    const cuzk_fil_node *sib = m->siblings;
    for (unsigned l = 0; l < m->levels; l++) {
        unsigned a = cuzk_fil_shape_arity(s, l), idx = m->index[l];
        if (a > 16 || idx >= a)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "level %u: index %u of arity %u", l, idx, a);
        /* the running hash goes in at its index among the siblings */
        for (unsigned j = 0, k = 0; j < a; j++) memcpy(in + 32 * j, j == idx ? cur : sib[k++], 32);
        sib += a - 1;
        if (h == CUZK_FIL_HASH_SHA256) {
            cuzk_fil_sha256(in, 64, cur);
            cur[31] &= 0x3f;
        } else {
            cuzk_status st = cuzk_poseidon_merkle_hash_bytes(cur, a, in, err);
            if (st != CUZK_OK) return st;
        }
    }
    memcpy(root, cur, 32);
    return CUZK_OK;
}

cuzk_status cuzk_fil_merkle_verify(const cuzk_fil_merkle_proof *m, const cuzk_fil_shape *s, cuzk_fil_hasher h,
                                   cuzk_errmsg *err)
{
    uint8_t root[32];
    cuzk_status st = cuzk_fil_merkle_root(m, s, h, root, err);
    if (st != CUZK_OK) return st;
    if (memcmp(root, m->root, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_PROOF_INVALID, "the path of leaf %llu hashes to another root",
                         (unsigned long long)m->leaf_index);
    return CUZK_OK;
}

/* ---- error paths ------------------------------------------------------------------------------------------------- */

void cuzk_fil_path_render(const fil_path *p, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    int depth = p->depth < FIL_PATH_DEPTH ? p->depth : FIL_PATH_DEPTH;
    for (int i = 0; i < depth && n < cap; i++) {
        const fil_frame *f = &p->f[i];
        int w = 0;
        if (f->name != NULL) w = snprintf(out + n, cap - n, "%s%s", n > 0 ? "." : "", f->name);
        if (w > 0) n += (size_t)w;
        if (n < cap && f->index >= 0) {
            w = snprintf(out + n, cap - n, "[%lld]", (long long)f->index);
            if (w > 0) n += (size_t)w;
        }
    }
    if (p->depth > FIL_PATH_DEPTH && n < cap) snprintf(out + n, cap - n, "...");
}

cuzk_status cuzk_fil_path_fail(cuzk_errmsg *err, const fil_path *p, cuzk_status s, const char *fmt, ...)
{
    if (err == NULL) return s;
    char where[160], what[200];
    cuzk_fil_path_render(p, where, sizeof where);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (where[0] != '\0') return cuzk_fail(err, s, "%s: %s", where, what);
    return cuzk_fail(err, s, "%s", what);
}

const uint8_t cuzk_fil_empty[1] = {0};

/* ---- bincode reader ---------------------------------------------------------------------------------------------- */

cuzk_status cuzk_fil_bin_truncated(fil_bin *b, size_t need)
{
    return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_TRUNCATED, "truncated: needs %zu bytes at byte %zu, %zu left",
                              need, (size_t)(b->p - b->start), (size_t)(b->end - b->p));
}

cuzk_status cuzk_fil_bin_node(fil_bin *b, uint8_t out[32], bool canonical)
{
    if ((size_t)(b->end - b->p) < 32) return cuzk_fil_bin_truncated(b, 32);
    if (canonical && !fil_canonical(b->p))
        return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_NOT_CANONICAL,
                                  "field element at byte %zu is not below r (top byte 0x%02x)",
                                  (size_t)(b->p - b->start), b->p[31]);
    memcpy(out, b->p, 32);
    b->p += 32;
    return CUZK_OK;
}

cuzk_status cuzk_fil_bin_len(fil_bin *b, uint64_t expected)
{
    uint64_t n = 0;
    cuzk_status s = fil_bin_u64(b, &n);
    if (s != CUZK_OK) return s;
    if (n != expected)
        return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_BAD_LENGTH, "expected %llu found %llu",
                                  (unsigned long long)expected, (unsigned long long)n);
    return CUZK_OK;
}

cuzk_status cuzk_fil_bin_end(fil_bin *b)
{
    if (b->p != b->end)
        return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_BAD_LENGTH,
                                  "%zu trailing bytes after the proof (at byte %zu)", (size_t)(b->end - b->p),
                                  (size_t)(b->p - b->start));
    return CUZK_OK;
}

/* One InclusionPath: u64 element count, then per element u64 hash count, the hashes, u64 index. Levels first..
 * first+count-1 of m. */
static cuzk_status bin_path(fil_bin *b, const cuzk_fil_shape *s, cuzk_fil_merkle_proof *m, const char *name,
                            unsigned first, unsigned count, unsigned *sib)
{
    cuzk_status st;
    fil_push(&b->path, name, -1);
    fil_push(&b->path, "path", -1);
    if ((st = cuzk_fil_bin_len(b, count)) != CUZK_OK) return st;
    for (unsigned i = 0; i < count; i++) {
        unsigned level = first + i, arity = cuzk_fil_shape_arity(s, level);
        fil_index(&b->path, i);
        fil_push(&b->path, "hashes", -1);
        if ((st = cuzk_fil_bin_len(b, arity - 1)) != CUZK_OK) return st;
        for (unsigned h = 0; h + 1 < arity; h++) {
            fil_index(&b->path, h);
            if ((st = cuzk_fil_bin_node(b, (uint8_t *)m->siblings[*sib + h], true)) != CUZK_OK) return st;
        }
        *sib += arity - 1;
        fil_pop(&b->path);
        fil_push(&b->path, "index", -1);
        uint64_t idx = 0;
        if ((st = fil_bin_u64(b, &idx)) != CUZK_OK) return st;
        if (idx >= arity)
            return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_TOO_LARGE, "%llu is not below the arity %u",
                                      (unsigned long long)idx, arity);
        m->index[level] = (uint8_t)idx;
        fil_pop(&b->path);
    }
    fil_pop(&b->path);
    fil_pop(&b->path);
    return CUZK_OK;
}

static cuzk_status bin_root_leaf(fil_bin *b, cuzk_fil_merkle_proof *m)
{
    cuzk_status st;
    fil_push(&b->path, "root", -1);
    if ((st = cuzk_fil_bin_node(b, m->root, true)) != CUZK_OK) return st;
    fil_pop(&b->path);
    fil_push(&b->path, "leaf", -1);
    if ((st = cuzk_fil_bin_node(b, m->leaf, true)) != CUZK_OK) return st;
    fil_pop(&b->path);
    return CUZK_OK;
}

cuzk_status cuzk_fil_bin_merkle(fil_bin *b, const cuzk_fil_shape *s, uint64_t nodes, cuzk_fil_merkle_proof *m)
{
    cuzk_status st;
    uint32_t tag = 0;
    if ((st = fil_bin_u32(b, &tag)) != CUZK_OK) return st;
    cuzk_fil_merkle_kind want = cuzk_fil_shape_kind(s);
    if (tag > CUZK_FIL_MERKLE_TOP)
        return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_BAD_HEADER,
                                  "unknown MerkleProof variant tag %u (Single 0, Sub 1, Top 2)", tag);
    if (tag != want)
        return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_MISMATCH, "variant %s, the tree (%u-%u-%u) needs %s",
                                  cuzk_fil_merkle_kind_name(tag), s->base, s->sub, s->top,
                                  cuzk_fil_merkle_kind_name(want));
    m->kind = (uint8_t)tag;
    m->levels = (uint8_t)cuzk_fil_shape_levels(s);
    unsigned sib = 0;
    if (tag == CUZK_FIL_MERKLE_SINGLE) {
        if ((st = bin_root_leaf(b, m)) != CUZK_OK) return st;
        if ((st = bin_path(b, s, m, NULL, 0, s->base_levels, &sib)) != CUZK_OK) return st;
    } else {
        if ((st = bin_path(b, s, m, "base_proof", 0, s->base_levels, &sib)) != CUZK_OK) return st;
        if ((st = bin_path(b, s, m, "sub_proof", s->base_levels, 1, &sib)) != CUZK_OK) return st;
        if (tag == CUZK_FIL_MERKLE_TOP &&
            (st = bin_path(b, s, m, "top_proof", s->base_levels + 1u, 1, &sib)) != CUZK_OK)
            return st;
        if ((st = bin_root_leaf(b, m)) != CUZK_OK) return st;
    }
    return cuzk_fil_merkle_finish(m, s, nodes, &b->path, b->err);
}

/* ---- bincode writer ---------------------------------------------------------------------------------------------- */

static void put_path(fil_bout *o, const cuzk_fil_shape *s, const cuzk_fil_merkle_proof *m, unsigned first,
                     unsigned count, unsigned *sib)
{
    fil_put_u64(o, count);
    for (unsigned i = 0; i < count; i++) {
        unsigned arity = cuzk_fil_shape_arity(s, first + i);
        fil_put_u64(o, arity - 1);
        fil_put(o, m->siblings[*sib], 32 * (size_t)(arity - 1));
        *sib += arity - 1;
        fil_put_u64(o, m->index[first + i]);
    }
}

void cuzk_fil_put_merkle(fil_bout *o, const cuzk_fil_shape *s, const cuzk_fil_merkle_proof *m)
{
    cuzk_fil_merkle_kind kind = cuzk_fil_shape_kind(s);
    unsigned sib = 0;
    fil_put_u32(o, (uint32_t)kind);
    if (kind == CUZK_FIL_MERKLE_SINGLE) {
        fil_put(o, m->root, 32);
        fil_put(o, m->leaf, 32);
        put_path(o, s, m, 0, s->base_levels, &sib);
        return;
    }
    put_path(o, s, m, 0, s->base_levels, &sib);
    put_path(o, s, m, s->base_levels, 1, &sib);
    if (kind == CUZK_FIL_MERKLE_TOP) put_path(o, s, m, s->base_levels + 1u, 1, &sib);
    fil_put(o, m->root, 32);
    fil_put(o, m->leaf, 32);
}

size_t cuzk_fil_merkle_bytes(const cuzk_fil_shape *s)
{
    unsigned levels = cuzk_fil_shape_levels(s), paths = 1 + (s->sub != 0) + (s->top != 0);
    return 4 + 64 + 8 * (size_t)paths + 16 * (size_t)levels + 32 * (size_t)cuzk_fil_shape_siblings(s);
}

cuzk_status cuzk_fil_bout_done(const fil_bout *o, size_t *len, cuzk_errmsg *err)
{
    if (len != NULL) *len = o->len;
    if (o->p == NULL) return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "output needs %zu bytes", o->len);
    return CUZK_OK;
}

/* ---- arena ------------------------------------------------------------------------------------------------------- */

/* blocks grow with what the arena holds (64 KiB .. 4 MiB), so a short input costs little */
#define FIL_BLOCK_MIN (64u << 10)
#define FIL_BLOCK_MAX (4u << 20)

void *cuzk_fil_arena_alloc(fil_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    fil_block *b = a->head;
    if (b == NULL || b->cap - b->used < n) {
        size_t cap = a->bytes < FIL_BLOCK_MIN ? FIL_BLOCK_MIN : a->bytes > FIL_BLOCK_MAX ? FIL_BLOCK_MAX : a->bytes;
        if (cap < n) cap = n;
        b = calloc(1, sizeof *b + cap);
        if (b == NULL) return NULL;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
        a->bytes += sizeof *b + cap;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

void cuzk_fil_arena_free(fil_arena *a)
{
    fil_block *b = a->head;
    while (b != NULL) {
        fil_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->bytes = 0;
}
