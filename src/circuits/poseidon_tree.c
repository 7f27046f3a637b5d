/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Poseidon Merkle trees as Filecoin's tree R and tree C (storage-proofs-core merkle/, merkletree's compound trees):
 * a stack of levels, each hashing `arity` consecutive nodes with the MerkleTree tag of that arity; inclusion paths in
 * the layout of the vanilla proofs. Levels are hashed by threads (cuzk_par_for), each taking a range of parents. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "poseidon_int.h"

#define MAX_TREE_LEAVES (UINT64_C(1) << 40)

/* ---- shapes ------------------------------------------------------------------------------------------------------ */
static bool tree_arity_ok(uint32_t a) { return a == 2 || a == 4 || a == 8 || a == 16; }

cuzk_status cuzk_poseidon_tree_levels(const cuzk_poseidon_tree_shape *sh, uint64_t n, unsigned *levels,
                                      uint32_t arities[CUZK_POSEIDON_TREE_MAX_LEVELS], cuzk_errmsg *err)
{
    *levels = 0;
    if (!tree_arity_ok(sh->base_arity))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree shape: base arity %u not one of 2, 4, 8, 16", sh->base_arity);
    if (sh->sub_arity != 0 && !tree_arity_ok(sh->sub_arity))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree shape: sub arity %u not one of 0, 2, 4, 8, 16",
                         sh->sub_arity);
    if (sh->top_arity != 0 && !tree_arity_ok(sh->top_arity))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree shape: top arity %u not one of 0, 2, 4, 8, 16",
                         sh->top_arity);
    if (sh->top_arity != 0 && sh->sub_arity == 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree shape: top arity %u needs a sub arity", sh->top_arity);
    if (n > MAX_TREE_LEAVES)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree: %llu leaves exceed 2^40", (unsigned long long)n);
    uint64_t groups = (uint64_t)(sh->sub_arity ? sh->sub_arity : 1) * (sh->top_arity ? sh->top_arity : 1);
    uint64_t m = groups && n % groups == 0 ? n / groups : 0;
    unsigned k = 0;
    while (m > 1 && m % sh->base_arity == 0) m /= sh->base_arity, k++;
    if (m != 1 || k == 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "tree: %llu leaves do not fit shape %u-%u-%u (sub·top base trees of base^k leaves, k >= 1)",
                         (unsigned long long)n, sh->base_arity, sh->sub_arity, sh->top_arity);
    unsigned l = 0;
    for (; l < k; l++)
        if (arities) arities[l] = sh->base_arity;
    if (sh->sub_arity && arities) arities[l] = sh->sub_arity;
    l += sh->sub_arity != 0;
    if (sh->top_arity && arities) arities[l] = sh->top_arity;
    l += sh->top_arity != 0;
    *levels = l; /* k <= 40, so at most 42 */
    return CUZK_OK;
}

/* ---- hashing a level --------------------------------------------------------------------------------------------- */
typedef struct {
    const cuzk_poseidon_params *p;
    cuzk_fr_t tag;
    const cuzk_fr_t *in;     /* children as field elements, or */
    const uint8_t *in_bytes; /* as 32-byte reprs (then checked) */
    cuzk_fr_t *out;
    _Atomic uint64_t bad; /* least child index found >= r; UINT64_MAX for none */
} level_job;

static void note_bad(level_job *j, uint64_t i)
{
    uint64_t cur = atomic_load_explicit(&j->bad, memory_order_relaxed);
    while (i < cur &&
           !atomic_compare_exchange_weak_explicit(&j->bad, &cur, i, memory_order_relaxed, memory_order_relaxed)) {
    }
}

static void level_range(void *ctx, size_t lo, size_t hi)
{
    level_job *j = ctx;
    unsigned a = j->p->arity;
    cuzk_fr_t st[CUZK_POSEIDON_TREE_MAX_ARITY + 1];
    for (size_t i = lo; i < hi; i++) {
        st[0] = j->tag;
        bool ok = true;
        if (j->in_bytes) {
            for (unsigned c = 0; c < a; c++) {
                uint64_t ci = (uint64_t)i * a + c;
                if (cuzk_fr_from_bytes_le(&st[1 + c], j->in_bytes + ci * CUZK_FR_BYTES) != CUZK_OK) {
                    note_bad(j, ci);
                    ok = false;
                }
            }
            if (!ok) continue;
        } else {
            memcpy(&st[1], &j->in[(size_t)i * a], a * sizeof *st);
        }
        cuzk_poseidon_permute_digest(j->p, st);
        j->out[i] = st[1];
    }
}

/* out[i] = H(children a·i .. a·i + a − 1) for i < parents; returns the least bad child index or UINT64_MAX. */
static cuzk_status hash_level(cuzk_fr_t *out, const cuzk_fr_t *in, const uint8_t *in_bytes, uint64_t parents,
                              unsigned arity, unsigned threads, uint64_t *bad, cuzk_errmsg *err)
{
    level_job j = {.in = in, .in_bytes = in_bytes, .out = out};
    j.p = cuzk_poseidon_params_get(arity);
    if (j.p == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "tree: no memory for the arity-%u constants", arity);
    cuzk_poseidon_tag(&j.tag, CUZK_POSEIDON_MERKLE_TREE, arity, 0, NULL);
    atomic_init(&j.bad, UINT64_MAX);
    cuzk_par_for(threads ? threads : 1, (size_t)parents, 32, level_range, &j); /* a hash costs ~10-100 us */
    *bad = atomic_load(&j.bad);
    if (*bad != UINT64_MAX)
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "tree: leaf %llu is not below the field modulus",
                         (unsigned long long)*bad);
    return CUZK_OK;
}

/* ---- the root alone ---------------------------------------------------------------------------------------------- */
cuzk_status cuzk_poseidon_tree_root(uint8_t root[CUZK_FR_BYTES], const uint8_t *leaves, uint64_t n,
                                    const cuzk_poseidon_tree_shape *sh, unsigned threads, cuzk_errmsg *err)
{
    unsigned levels;
    uint32_t ar[CUZK_POSEIDON_TREE_MAX_LEVELS];
    cuzk_status s = cuzk_poseidon_tree_levels(sh, n, &levels, ar, err);
    if (s != CUZK_OK) return s;
    uint64_t m1 = n / ar[0], m2 = levels > 1 ? m1 / ar[1] : 1, bad;
    cuzk_fr_t *buf[2] = {malloc((size_t)m1 * sizeof(cuzk_fr_t)), malloc((size_t)m2 * sizeof(cuzk_fr_t))};
    if (buf[0] == NULL || buf[1] == NULL) {
        free(buf[0]);
        free(buf[1]);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "tree: no memory for %llu nodes", (unsigned long long)(m1 + m2));
    }
    s = hash_level(buf[0], NULL, leaves, m1, ar[0], threads, &bad, err);
    uint64_t m = m1;
    for (unsigned l = 1; s == CUZK_OK && l < levels; l++) {
        m /= ar[l];
        s = hash_level(buf[l & 1], buf[(l - 1) & 1], NULL, m, ar[l], threads, &bad, err);
    }
    if (s == CUZK_OK) cuzk_fr_to_bytes_le(root, &buf[(levels - 1) & 1][0]);
    free(buf[0]);
    free(buf[1]);
    return s;
}

/* ---- whole trees ------------------------------------------------------------------------------------------------- */
struct cuzk_poseidon_tree {
    cuzk_poseidon_tree_shape shape;
    unsigned levels;
    uint32_t arity[CUZK_POSEIDON_TREE_MAX_LEVELS];
    uint64_t count[CUZK_POSEIDON_TREE_MAX_LEVELS + 1];
    cuzk_fr_t *node[CUZK_POSEIDON_TREE_MAX_LEVELS + 1]; /* node[0]: the leaves; node[levels]: the root */
    cuzk_fr_t *mem;
};

typedef struct {
    const uint8_t *in;
    cuzk_fr_t *out;
    _Atomic uint64_t bad;
} leaf_job;

static void leaf_range(void *ctx, size_t lo, size_t hi)
{
    leaf_job *j = ctx;
    for (size_t i = lo; i < hi; i++)
        if (cuzk_fr_from_bytes_le(&j->out[i], j->in + (uint64_t)i * CUZK_FR_BYTES) != CUZK_OK) {
            uint64_t cur = atomic_load_explicit(&j->bad, memory_order_relaxed);
            while (i < cur && !atomic_compare_exchange_weak_explicit(&j->bad, &cur, i, memory_order_relaxed,
                                                                     memory_order_relaxed)) {
            }
        }
}

cuzk_status cuzk_poseidon_tree_build(cuzk_poseidon_tree **out, const uint8_t *leaves, uint64_t n,
                                     const cuzk_poseidon_tree_shape *sh, unsigned threads, cuzk_errmsg *err)
{
    *out = NULL;
    cuzk_poseidon_tree *t = calloc(1, sizeof *t);
    if (t == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "tree: no memory");
    cuzk_status s = cuzk_poseidon_tree_levels(sh, n, &t->levels, t->arity, err);
    if (s != CUZK_OK) {
        free(t);
        return s;
    }
    t->shape = *sh;
    uint64_t total = 0;
    t->count[0] = n;
    for (unsigned l = 0; l <= t->levels; l++) {
        if (l > 0) t->count[l] = t->count[l - 1] / t->arity[l - 1];
        total += t->count[l];
    }
    t->mem = malloc((size_t)total * sizeof(cuzk_fr_t));
    if (t->mem == NULL) {
        free(t);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "tree: no memory for %llu nodes", (unsigned long long)total);
    }
    cuzk_fr_t *p = t->mem;
    for (unsigned l = 0; l <= t->levels; l++) t->node[l] = p, p += t->count[l];

    leaf_job lj = {.in = leaves, .out = t->node[0]};
    atomic_init(&lj.bad, UINT64_MAX);
    cuzk_par_for(threads ? threads : 1, (size_t)n, 1u << 14, leaf_range, &lj);
    uint64_t bad = atomic_load(&lj.bad);
    if (bad != UINT64_MAX)
        s = cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "tree: leaf %llu is not below the field modulus",
                      (unsigned long long)bad);
    for (unsigned l = 0; s == CUZK_OK && l < t->levels; l++)
        s = hash_level(t->node[l + 1], t->node[l], NULL, t->count[l + 1], t->arity[l], threads, &bad, err);
    if (s != CUZK_OK) {
        cuzk_poseidon_tree_free(t);
        return s;
    }
    *out = t;
    return CUZK_OK;
}

void cuzk_poseidon_tree_free(cuzk_poseidon_tree *t)
{
    if (t == NULL) return;
    free(t->mem);
    free(t);
}

void cuzk_poseidon_tree_root_of(const cuzk_poseidon_tree *t, uint8_t root[CUZK_FR_BYTES])
{
    cuzk_fr_to_bytes_le(root, &t->node[t->levels][0]);
}

uint64_t cuzk_poseidon_tree_leaves(const cuzk_poseidon_tree *t) { return t->count[0]; }

/* ---- paths ------------------------------------------------------------------------------------------------------- */
cuzk_status cuzk_poseidon_tree_path(const cuzk_poseidon_tree *t, uint64_t leaf_index, uint8_t leaf[CUZK_FR_BYTES],
                                    cuzk_poseidon_path_elem *path, unsigned *len, cuzk_errmsg *err)
{
    *len = 0;
    if (leaf_index >= t->count[0])
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree path: leaf index %llu outside the tree's %llu leaves",
                         (unsigned long long)leaf_index, (unsigned long long)t->count[0]);
    cuzk_fr_to_bytes_le(leaf, &t->node[0][leaf_index]);
    uint64_t idx = leaf_index;
    for (unsigned l = 0; l < t->levels; l++) {
        uint32_t a = t->arity[l];
        uint64_t first = idx / a * a;
        path[l].arity = a;
        path[l].index = (uint32_t)(idx % a);
        for (uint32_t c = 0, k = 0; c < a; c++)
            if (first + c != idx) cuzk_fr_to_bytes_le(path[l].siblings[k++], &t->node[l][first + c]);
        idx /= a;
    }
    *len = t->levels;
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_path_root(uint8_t root[CUZK_FR_BYTES], const uint8_t leaf[CUZK_FR_BYTES],
                                    const cuzk_poseidon_path_elem *path, unsigned len, cuzk_errmsg *err)
{
    cuzk_fr_t st[CUZK_POSEIDON_TREE_MAX_ARITY + 1], cur;
    if (len > CUZK_POSEIDON_TREE_MAX_LEVELS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree path: %u levels exceed %u", len,
                         CUZK_POSEIDON_TREE_MAX_LEVELS);
    if (cuzk_fr_from_bytes_le(&cur, leaf) != CUZK_OK)
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "tree path: the leaf is not below the field modulus");
    for (unsigned l = 0; l < len; l++) {
        uint32_t a = path[l].arity, at = path[l].index;
        if (!tree_arity_ok(a))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree path: level %u has arity %u (2, 4, 8 or 16)", l, a);
        if (at >= a)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree path: level %u index %u not below its arity %u", l, at,
                             a);
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(a);
        if (p == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "tree path: no memory for the arity-%u constants", a);
        cuzk_poseidon_tag(&st[0], CUZK_POSEIDON_MERKLE_TREE, a, 0, NULL);
        for (uint32_t c = 0, k = 0; c < a; c++) {
            if (c == at) {
                st[1 + c] = cur;
                continue;
            }
            if (cuzk_fr_from_bytes_le(&st[1 + c], path[l].siblings[k]) != CUZK_OK)
                return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL,
                                 "tree path: level %u sibling %u is not below the field modulus", l, k);
            k++;
        }
        cuzk_poseidon_permute_digest(p, st);
        cur = st[1];
    }
    cuzk_fr_to_bytes_le(root, &cur);
    return CUZK_OK;
}

uint64_t cuzk_poseidon_path_index(const cuzk_poseidon_path_elem *path, unsigned len)
{
    uint64_t idx = 0;
    for (unsigned l = len; l-- > 0;) idx = idx * path[l].arity + path[l].index;
    return idx;
}

cuzk_status cuzk_poseidon_path_verify(const cuzk_poseidon_tree_shape *sh, uint64_t n, uint64_t leaf_index,
                                      const uint8_t leaf[CUZK_FR_BYTES], const cuzk_poseidon_path_elem *path,
                                      unsigned len, const uint8_t root[CUZK_FR_BYTES], cuzk_errmsg *err)
{
    unsigned levels;
    uint32_t ar[CUZK_POSEIDON_TREE_MAX_LEVELS];
    cuzk_status s = cuzk_poseidon_tree_levels(sh, n, &levels, ar, err);
    if (s != CUZK_OK) return s;
    if (leaf_index >= n)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree path: leaf index %llu outside the tree's %llu leaves",
                         (unsigned long long)leaf_index, (unsigned long long)n);
    if (len != levels)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "tree path: %u levels where the shape has %u", len, levels);
    for (unsigned l = 0; l < len; l++)
        if (path[l].arity != ar[l])
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "tree path: level %u has arity %u where the shape has %u", l,
                             path[l].arity, ar[l]);
    for (unsigned l = 0; l < len; l++)
        if (path[l].index >= path[l].arity)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree path: level %u index %u not below its arity %u", l,
                             path[l].index, path[l].arity);
    uint64_t at = cuzk_poseidon_path_index(path, len);
    if (at != leaf_index)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "tree path: its indices spell leaf %llu, not %llu",
                         (unsigned long long)at, (unsigned long long)leaf_index);
    uint8_t got[CUZK_FR_BYTES];
    s = cuzk_poseidon_path_root(got, leaf, path, len, err);
    if (s != CUZK_OK) return s;
    if (memcmp(got, root, CUZK_FR_BYTES) != 0)
        return cuzk_fail(err, CUZK_ERR_PROOF_INVALID, "tree path: leads to another root than the one given");
    return CUZK_OK;
}
