/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include <stdlib.h>
#include <string.h>

#include "post_gen.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void post_gen_fr_bytes(uint64_t *state, uint8_t out[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t v = splitmix(state);
        for (int j = 0; j < 8; j++) out[8 * i + j] = (uint8_t)(v >> (8 * j));
    }
    out[31] &= 0x3f; /* below 2^254 < r */
}

int post_gen_sector_make(post_gen_sector *s, const cuzk_fil_shape *shape, uint64_t nodes, uint64_t seed, uint64_t id)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->shape = *shape;
    s->nodes = nodes;
    uint8_t *leaves = malloc(nodes * 32);
    if (leaves == NULL) return -1;
    uint64_t st = seed;
    for (uint64_t i = 0; i < nodes; i++) post_gen_fr_bytes(&st, leaves + 32 * i);
    cuzk_poseidon_tree_shape ts = {shape->base, shape->sub, shape->top};
    int rc = cuzk_poseidon_tree_build(&s->tree, leaves, nodes, &ts, 1, NULL) == CUZK_OK ? 0 : -1;
    free(leaves);
    if (rc != 0) return rc;
    cuzk_poseidon_tree_root_of(s->tree, s->comm_r_last);
    post_gen_fr_bytes(&st, s->comm_c);
    return cuzk_poseidon_comm_r(s->comm_r, s->comm_c, s->comm_r_last, NULL) == CUZK_OK ? 0 : -1;
}

void post_gen_sector_free(post_gen_sector *s)
{
    cuzk_poseidon_tree_free(s->tree);
    s->tree = NULL;
}

int post_gen_inclusion(const post_gen_sector *s, uint64_t idx, cuzk_fil_merkle_proof *m, cuzk_fil_node *sib)
{
    cuzk_poseidon_path_elem path[CUZK_POSEIDON_TREE_MAX_LEVELS];
    unsigned len;
    memset(m, 0, sizeof *m);
    if (cuzk_poseidon_tree_path(s->tree, idx, m->leaf, path, &len, NULL) != CUZK_OK) return -1;
    if (len != cuzk_fil_shape_levels(&s->shape)) return -1;
    size_t n = 0;
    for (unsigned l = 0; l < len; l++) {
        for (unsigned k = 0; k + 1 < path[l].arity; k++) memcpy(sib[n++], path[l].siblings[k], 32);
        m->index[l] = (uint8_t)path[l].index;
    }
    memcpy(m->root, s->comm_r_last, 32);
    m->siblings = sib;
    m->levels = (uint8_t)len;
    m->kind = s->shape.top ? CUZK_FIL_MERKLE_TOP : s->shape.sub ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE;
    m->leaf_index = idx;
    return 0;
}

int post_gen_vanilla(const cuzk_fil_proof *p, const post_gen_sector *s, const uint8_t randomness[32],
                     uint64_t sector_index, cuzk_fil_post_sector *out)
{
    memset(out, 0, sizeof *out);
    size_t sib = cuzk_fil_shape_siblings(&p->tree_r);
    uint8_t *mem = calloc(1, (size_t)p->challenges * (sizeof(cuzk_fil_merkle_proof) + sib * 32));
    uint64_t *leaves = malloc(p->challenges * sizeof *leaves);
    if (mem == NULL || leaves == NULL ||
        cuzk_fil_post_sector_challenges(p, randomness, s->id, sector_index, leaves, NULL) != CUZK_OK) {
        free(mem);
        free(leaves);
        return -1;
    }
    out->mem = mem;
    out->inclusion = (cuzk_fil_merkle_proof *)mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(mem + (size_t)p->challenges * sizeof(cuzk_fil_merkle_proof));
    out->sector_id = s->id;
    out->challenges = p->challenges;
    memcpy(out->comm_r, s->comm_r, 32);
    memcpy(out->comm_c, s->comm_c, 32);
    memcpy(out->comm_r_last, s->comm_r_last, 32);
    int rc = 0;
    for (uint32_t c = 0; c < p->challenges && rc == 0; c++)
        rc = post_gen_inclusion(s, leaves[c], &out->inclusion[c], pool + c * sib);
    free(leaves);
    if (rc != 0) cuzk_fil_post_sector_free(out);
    return rc;
}

int post_gen_vanilla_bytes(const cuzk_fil_proof *p, const post_gen_sector *s, const uint8_t randomness[32],
                           uint64_t sector_index, uint8_t **buf, size_t *len)
{
    cuzk_fil_post_sector v;
    if (post_gen_vanilla(p, s, randomness, sector_index, &v) != 0) return -1;
    size_t cap = cuzk_fil_post_sector_bytes(p);
    *buf = malloc(cap);
    int rc = *buf != NULL && cuzk_fil_post_sector_encode(p, &v, *buf, cap, len, NULL) == CUZK_OK ? 0 : -1;
    cuzk_fil_post_sector_free(&v);
    if (rc != 0) {
        free(*buf);
        *buf = NULL;
    }
    return rc;
}
