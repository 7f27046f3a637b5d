/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Tree C and tree R (Poseidon trees of rust-fil-proofs' sector shapes) and column hashes.
 *
 * A shape base-sub-top splits the leaves into sub·top base trees of arity 8; their roots are hashed by groups of
 * `sub`, and those by one group of `top`. Base trees cover consecutive leaf ranges, so the whole tree is stored as
 * one bottom-up array of levels (leaves, then each level of parents), the arities being log8(base leaves) × 8,
 * then sub, then top; its last node is the root. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sdr_int.h"

#define NB 32
#define MAX_LEVELS 40
#define PAR_MIN_GROUPS 512
#define CHUNK_GROUPS 256

cuzk_status cuzk_fil_sdr_shape_of(uint64_t sector_size, cuzk_fil_sdr_shape *shape, cuzk_errmsg *err)
{
    static const struct {
        uint64_t size;
        cuzk_fil_sdr_shape s;
    } table[] = {
        {2ULL << 10, {8, 0, 0}},  {8ULL << 20, {8, 0, 0}},  {512ULL << 20, {8, 0, 0}}, {4ULL << 10, {8, 2, 0}},
        {16ULL << 20, {8, 2, 0}}, {1ULL << 30, {8, 2, 0}},  {16ULL << 10, {8, 8, 0}},  {32ULL << 30, {8, 8, 0}},
        {32ULL << 10, {8, 8, 2}}, {64ULL << 30, {8, 8, 2}},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].size == sector_size) {
            *shape = table[i].s;
            return CUZK_OK;
        }
    }
    return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree shape: no sector shape for size %llu",
                     (unsigned long long)sector_size);
}

/* the arity of each level above the leaves; 0 when the shape does not fit nodes */
static unsigned shape_levels(cuzk_fil_sdr_shape sh, uint64_t nodes, unsigned ar[MAX_LEVELS])
{
    if (sh.base != 8 || (sh.sub != 0 && sh.sub != 2 && sh.sub != 8) || (sh.top != 0 && sh.top != 2 && sh.top != 8))
        return 0;
    uint64_t groups = (uint64_t)(sh.sub ? sh.sub : 1) * (sh.top ? sh.top : 1);
    if (nodes == 0 || nodes % groups != 0) return 0;
    uint64_t base = nodes / groups;
    unsigned n = 0;
    while (base > 1) {
        if (base % 8 != 0) return 0;
        base /= 8;
        ar[n++] = 8;
    }
    if (sh.sub) ar[n++] = sh.sub;
    if (sh.top) ar[n++] = sh.top;
    return n;
}

uint64_t cuzk_fil_sdr_tree_len(cuzk_fil_sdr_shape shape, uint64_t nodes)
{
    unsigned ar[MAX_LEVELS];
    unsigned n = shape_levels(shape, nodes, ar);
    if (n == 0 && nodes != 1) return 0;
    uint64_t len = nodes, cur = nodes;
    for (unsigned i = 0; i < n; i++) cur /= ar[i], len += cur;
    return len;
}

typedef struct {
    const uint8_t *below;
    uint8_t *above;
    uint64_t groups;
    unsigned arity;
    atomic_uint_fast64_t next;
    atomic_int failed;
    cuzk_status status; /* the first failure's */
    cuzk_errmsg err;
} level_job;

static void level_worker(void *arg, unsigned t)
{
    (void)t;
    level_job *j = arg;
    for (;;) {
        uint64_t s = atomic_fetch_add(&j->next, CHUNK_GROUPS);
        if (s >= j->groups || atomic_load(&j->failed)) return;
        for (uint64_t g = s; g < s + CHUNK_GROUPS && g < j->groups; g++) {
            cuzk_errmsg e;
            cuzk_status s = cuzk_fil_sdr_poseidon(j->arity, (const uint8_t(*)[32])(j->below + g * j->arity * NB),
                                                  j->above + g * NB, &e);
            if (s != CUZK_OK) {
                int expect = 0;
                if (atomic_compare_exchange_strong(&j->failed, &expect, 1)) j->status = s, j->err = e;
                return;
            }
        }
    }
}

cuzk_status cuzk_fil_sdr_tree_build(cuzk_fil_sdr_shape shape, const uint8_t *leaves, uint64_t nodes, uint8_t *tree,
                                    uint8_t root[32], unsigned threads, cuzk_errmsg *err)
{
    unsigned ar[MAX_LEVELS];
    unsigned n = shape_levels(shape, nodes, ar);
    if (n == 0 && nodes != 1)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree: %llu leaves do not fit shape %u-%u-%u",
                         (unsigned long long)nodes, shape.base, shape.sub, shape.top);
    threads = cuzk_fil_sdr_threads(threads);
    if (tree != leaves) memcpy(tree, leaves, nodes * NB);
    uint8_t *below = tree;
    uint64_t cur = nodes;
    for (unsigned i = 0; i < n; i++) {
        level_job j = {.below = below, .above = below + cur * NB, .groups = cur / ar[i], .arity = ar[i]};
        atomic_init(&j.next, 0);
        atomic_init(&j.failed, 0);
        cuzk_par_run(j.groups >= PAR_MIN_GROUPS ? threads : 1, level_worker, &j);
        if (atomic_load(&j.failed)) {
            if (err) *err = j.err;
            return j.status;
        }
        below += cur * NB;
        cur /= ar[i];
    }
    memcpy(root, below, NB);
    return CUZK_OK;
}

cuzk_status cuzk_fil_sdr_tree_path(cuzk_fil_sdr_shape shape, const uint8_t *tree, uint64_t nodes, uint64_t leaf,
                                   uint8_t (*siblings)[32], unsigned *positions, unsigned *levels, cuzk_errmsg *err)
{
    unsigned ar[MAX_LEVELS];
    unsigned n = shape_levels(shape, nodes, ar);
    if ((n == 0 && nodes != 1) || leaf >= nodes)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree path: leaf %llu of %llu (shape %u-%u-%u)",
                         (unsigned long long)leaf, (unsigned long long)nodes, shape.base, shape.sub, shape.top);
    const uint8_t *lvl = tree;
    uint64_t cur = nodes;
    unsigned out = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t first = leaf - leaf % ar[i];
        positions[i] = (unsigned)(leaf % ar[i]);
        for (unsigned k = 0; k < ar[i]; k++)
            if (first + k != leaf) memcpy(siblings[out++], lvl + (first + k) * NB, NB);
        lvl += cur * NB;
        cur /= ar[i];
        leaf /= ar[i];
    }
    *levels = n;
    return CUZK_OK;
}

cuzk_status cuzk_fil_sdr_column_hash(const uint8_t *labels, unsigned layers, uint64_t nodes, uint64_t node,
                                     uint8_t out[32], cuzk_errmsg *err)
{
    if (layers != 2 && layers != 11)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "column hash: %u layers (2 or 11)", layers);
    if (node >= nodes)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "column hash: node %llu of %llu", (unsigned long long)node,
                         (unsigned long long)nodes);
    uint8_t col[11][32];
    for (unsigned l = 0; l < layers; l++) memcpy(col[l], labels + ((uint64_t)l * nodes + node) * NB, NB);
    return cuzk_fil_sdr_poseidon(layers, (const uint8_t(*)[32])col, out, err);
}
