/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Internals shared by the Filecoin format files: the path of the field being read (rendered only when something is
 * wrong), a bounds-checked bincode reader and writer, the canonical check, Merkle proofs in bincode, an arena. */
#ifndef CUZK_FIL_INTERNAL_H
#define CUZK_FIL_INTERNAL_H

#include <stdarg.h>
#include <string.h>

#include "cuzk/filecoin.h"

/* ---- the path of the field being read ---------------------------------------------------------------------------
 * A stack of (name, index) frames: "vanilla_proofs" 3, NULL 7, "labeling_proofs" 2, "parents" 36 renders as
 * vanilla_proofs[3][7].labeling_proofs[2].parents[36]. Frames past FIL_PATH_DEPTH are counted but not rendered. */
#define FIL_PATH_DEPTH 24

typedef struct {
    const char *name;
    int64_t index; /* < 0: no index */
} fil_frame;

typedef struct {
    fil_frame f[FIL_PATH_DEPTH];
    int depth;
} fil_path;

static inline void fil_push(fil_path *p, const char *name, int64_t index)
{
    if (p->depth < FIL_PATH_DEPTH) {
        p->f[p->depth].name = name;
        p->f[p->depth].index = index;
    }
    p->depth++;
}

static inline void fil_pop(fil_path *p) { p->depth--; }

static inline void fil_index(fil_path *p, int64_t index)
{
    if (p->depth > 0 && p->depth <= FIL_PATH_DEPTH) p->f[p->depth - 1].index = index;
}

void cuzk_fil_path_render(const fil_path *p, char *out, size_t cap);
/* "<path>: <message>" into err; returns s. */
cuzk_status cuzk_fil_path_fail(cuzk_errmsg *err, const fil_path *p, cuzk_status s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- field elements ---------------------------------------------------------------------------------------------- */

/* true when the 32 little-endian bytes are below r */
static inline bool fil_canonical(const uint8_t b[32])
{
    for (int i = CUZK_FR_LIMBS - 1; i >= 0; i--) {
        uint64_t v = cuzk_load_le64(b + 8 * i);
        if (v != CUZK_FR_MODULUS[i]) return v < CUZK_FR_MODULUS[i];
    }
    return false;
}

/* what an empty input points at when the caller passed NULL (merkle.c) */
extern const uint8_t cuzk_fil_empty[1];

/* ---- bincode reader ----------------------------------------------------------------------------------------------
 * Every read checks the bytes left first; on failure the error names the path and the byte offset. */
typedef struct {
    const uint8_t *start, *p, *end;
    fil_path path;
    cuzk_errmsg *err;
} fil_bin;

cuzk_status cuzk_fil_bin_truncated(fil_bin *b, size_t need);

static inline cuzk_status fil_bin_u64(fil_bin *b, uint64_t *v)
{
    if ((size_t)(b->end - b->p) < 8) return cuzk_fil_bin_truncated(b, 8);
    *v = cuzk_load_le64(b->p);
    b->p += 8;
    return CUZK_OK;
}

static inline cuzk_status fil_bin_u32(fil_bin *b, uint32_t *v)
{
    if ((size_t)(b->end - b->p) < 4) return cuzk_fil_bin_truncated(b, 4);
    *v = cuzk_load_le32(b->p);
    b->p += 4;
    return CUZK_OK;
}

/* A 32-byte node; canonical: refuse values not below r. */
cuzk_status cuzk_fil_bin_node(fil_bin *b, uint8_t out[32], bool canonical);
/* A Vec length that must equal expected ("expected 7 found 6", CUZK_ERR_BAD_LENGTH). The frame is the caller's. */
cuzk_status cuzk_fil_bin_len(fil_bin *b, uint64_t expected);
/* After the last field: bytes left are an error (CUZK_ERR_BAD_LENGTH). */
cuzk_status cuzk_fil_bin_end(fil_bin *b);

/* A MerkleProof (u32 variant tag, then the variant's fields) of a tree of shape s over `nodes` leaves, under the
 * path frame the caller pushed. The variant must be the one the shape gives, every path the shape's length, every
 * hash count arity − 1, every index below its arity, every node canonical; m->siblings must already point at room
 * for cuzk_fil_shape_siblings(s) nodes. Fills leaf_index and checks it is below nodes. */
cuzk_status cuzk_fil_bin_merkle(fil_bin *b, const cuzk_fil_shape *s, uint64_t nodes, cuzk_fil_merkle_proof *m);

/* The variant a shape's proofs take, and its name. */
cuzk_fil_merkle_kind cuzk_fil_shape_kind(const cuzk_fil_shape *s);
const char *cuzk_fil_merkle_kind_name(unsigned kind);
/* Sets m->leaf_index from m->index and checks it is below nodes (message under path p). */
cuzk_status cuzk_fil_merkle_finish(cuzk_fil_merkle_proof *m, const cuzk_fil_shape *s, uint64_t nodes, const fil_path *p,
                                   cuzk_errmsg *err);

/* ---- bincode writer: counts what it could not write, so a first pass with cap 0 measures ------------------------- */
typedef struct {
    uint8_t *p, *end;
    size_t len;
} fil_bout;

static inline void fil_put(fil_bout *o, const void *src, size_t n)
{
    if (o->p != NULL && (size_t)(o->end - o->p) >= n) {
        memcpy(o->p, src, n);
        o->p += n;
    } else {
        o->p = NULL;
    }
    o->len += n;
}

static inline void fil_put_u64(fil_bout *o, uint64_t v)
{
    uint8_t b[8];
    cuzk_store_le64(b, v);
    fil_put(o, b, 8);
}

static inline void fil_put_u32(fil_bout *o, uint32_t v)
{
    uint8_t b[4];
    cuzk_store_le32(b, v);
    fil_put(o, b, 4);
}

void cuzk_fil_put_merkle(fil_bout *o, const cuzk_fil_shape *s, const cuzk_fil_merkle_proof *m);
/* Bytes of a MerkleProof of shape s in bincode. */
size_t cuzk_fil_merkle_bytes(const cuzk_fil_shape *s);
/* CUZK_OK when everything fitted, else CUZK_ERR_TOO_LARGE naming the size needed. */
cuzk_status cuzk_fil_bout_done(const fil_bout *o, size_t *len, cuzk_errmsg *err);

/* ---- registry.c ------------------------------------------------------------------------------------------------- */
/* cuzk_fil_param_identifier of a geometry entry itself: also those with no registered proof (SnapDeals' test sizes),
 * whose identifier has the same form over their own counts. */
cuzk_status cuzk_fil_geometry_identifier(const cuzk_fil_proof *g, char *out, size_t cap, cuzk_errmsg *err);

/* ---- the parameter manifest (params_table.c) --------------------------------------------------------------------- */
extern const cuzk_fil_param cuzk_fil_manifest[];
extern const size_t cuzk_fil_manifest_count;

/* ---- SHA-256 (sha256.c) ------------------------------------------------------------------------------------------ */
void cuzk_fil_sha256(const void *msg, size_t len, uint8_t out[32]);

/* ---- an arena: blocks freed together ----------------------------------------------------------------------------- */
typedef struct fil_block {
    struct fil_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} fil_block;

typedef struct {
    fil_block *head;
    uint64_t bytes; /* allocated from the system, headers included */
} fil_arena;

/* Zeroed, 16-byte aligned; NULL when out of memory. */
void *cuzk_fil_arena_alloc(fil_arena *a, size_t n);
void cuzk_fil_arena_free(fil_arena *a);

/* ---- PoRep C1: the builder the JSON parser, the bincode decoder and the generator share (c1.c) ------------------- */
typedef struct {
    const cuzk_fil_proof *geom; /* a SEAL entry of the sector size: shapes, layers, challenges per partition */
    fil_arena arena;
    cuzk_fil_porep_challenge *c; /* grown as challenges are added */
    size_t n, cap;
    uint32_t partitions; /* partitions closed so far */
} fil_c1b;

/* The largest partition count any registered proof of geom's size has (NI-PoRep's). */
uint32_t cuzk_fil_c1_max_partitions(const cuzk_fil_proof *geom);
/* A new challenge with its node pool laid out (rows, siblings, parents); NULL when out of memory. */
cuzk_fil_porep_challenge *cuzk_fil_c1b_add(fil_c1b *b);
/* Checks a challenge's proofs open one node (comm_d, comm_r_last, c_x) and that node is in 1..nodes−1; sets
 * c->node. Message under path p. */
cuzk_status cuzk_fil_c1_check_challenge(const cuzk_fil_proof *geom, cuzk_fil_porep_challenge *c, const fil_path *p,
                                        cuzk_errmsg *err);
/* Hands the challenges to out after the document-wide checks: partitions and challenges as the registered proof
 * wants, every comm_d proof rooted at comm_d, every tree R proof at one comm_r_last, every tree C proof at one
 * comm_c. out->proof and the commitments must be set. On error the builder is freed. */
cuzk_status cuzk_fil_c1b_finish(fil_c1b *b, cuzk_fil_c1 *out, cuzk_errmsg *err);
void cuzk_fil_c1b_free(fil_c1b *b);

#endif
