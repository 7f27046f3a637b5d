/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Merkle inclusion (storage-proofs-core por.rs) over any tree shape (base arity, optional sub and top levels) and any
 * hash, given as a hook: the binary SHA-256 tree's is cuzk_sha256_gadget_por_hash, Poseidon's comes from its own
 * gadget. */
#include "cuzk/circuits.h"

#define POR_MAX_ARITY 16u

static unsigned log2_arity(unsigned arity)
{
    unsigned k = 0;
    while ((1u << k) < arity) k++;
    return k;
}

static bool shape_ok(cuzk_cs *cs, const cuzk_por_tree *t)
{
    bool pow2 = t->base_arity >= 2 && (t->base_arity & (t->base_arity - 1)) == 0 && t->base_arity <= POR_MAX_ARITY;
    pow2 &= (t->sub_arity & (t->sub_arity - 1)) == 0 && t->sub_arity <= POR_MAX_ARITY && t->sub_arity != 1;
    pow2 &= (t->top_arity & (t->top_arity - 1)) == 0 && t->top_arity <= POR_MAX_ARITY && t->top_arity != 1;
    pow2 &= t->top_arity == 0 || t->sub_arity > 0;
    pow2 &= cuzk_por_challenge_bits(t) <= 64 && t->hash != NULL;
    if (!pow2)
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "tree shape %u-%u-%u with %u base levels is not supported",
                     t->base_arity, t->sub_arity, t->top_arity, t->base_levels);
    return pow2;
}

unsigned cuzk_por_levels(const cuzk_por_tree *t) { return t->base_levels + (t->sub_arity > 0) + (t->top_arity > 0); }

unsigned cuzk_por_challenge_bits(const cuzk_por_tree *t)
{
    return t->base_levels * log2_arity(t->base_arity) + (t->sub_arity ? log2_arity(t->sub_arity) : 0) +
           (t->top_arity ? log2_arity(t->top_arity) : 0);
}

unsigned cuzk_por_siblings(const cuzk_por_tree *t)
{
    return t->base_levels * (t->base_arity - 1) + (t->sub_arity ? t->sub_arity - 1 : 0) +
           (t->top_arity ? t->top_arity - 1 : 0);
}

/* The arity of level `level` (0 = just above the leaves). */
static unsigned level_arity(const cuzk_por_tree *t, unsigned level)
{
    if (level < t->base_levels) return t->base_arity;
    if (level == t->base_levels && t->sub_arity) return t->sub_arity;
    return t->top_arity;
}

static cuzk_num root_allocated(cuzk_cs *cs, const char *ns, cuzk_por_root r)
{
    if (r.is_var) return r.num;
    cuzk_cs_push(cs, ns);
    cuzk_num n = cuzk_num_alloc(cs, &r.num.val);
    cuzk_cs_pop(cs);
    return n;
}

void cuzk_por_circuit(cuzk_cs *cs, const cuzk_por_tree *t, cuzk_por_root value, uint64_t challenge,
                      const cuzk_fr_t *siblings, cuzk_por_root root, bool private_root)
{
    if (!shape_ok(cs, t)) return;
    cuzk_num cur = root_allocated(cs, "value", value);
    cuzk_bit bits[64];
    unsigned nbits = 0, level = 0, nsib = 0;
    static const char *const part_names[3] = {"base", "sub", "top"};
    unsigned part_levels[3] = {t->base_levels, t->sub_arity > 0, t->top_arity > 0};
    for (int part = 0; part < 3; part++) {
        cuzk_cs_push(cs, part_names[part]);
        for (unsigned i = 0; i < part_levels[part]; i++, level++) {
            unsigned arity = level_arity(t, level), k = log2_arity(arity);
            cuzk_cs_pushf(cs, "merkle tree hash %u", i);
            cuzk_bit *index_bits = bits + nbits;
            for (unsigned b = 0; b < k; b++) {
                cuzk_cs_pushf(cs, "index bit %u", b);
                bits[nbits] = cuzk_bit_alloc(cs, (challenge >> nbits) & 1);
                nbits++;
                cuzk_cs_pop(cs);
            }
            cuzk_num path[POR_MAX_ARITY], inserted[POR_MAX_ARITY];
            for (unsigned s = 0; s + 1 < arity; s++) {
                cuzk_cs_pushf(cs, "path element %u", s);
                path[s] = cuzk_num_alloc(cs, siblings != NULL ? &siblings[nsib] : NULL);
                nsib++;
                cuzk_cs_pop(cs);
            }
            cuzk_insert(cs, cur, index_bits, k, path, inserted);
            cuzk_cs_push(cs, "computation of commitment hash");
            cur = t->hash(cs, t->hash_ctx, inserted, arity, i);
            cuzk_cs_pop(cs);
            cuzk_cs_pop(cs);
        }
        cuzk_cs_pop(cs);
    }
    cuzk_cs_push(cs, "path");
    cuzk_multipack_pack_into_inputs(cs, bits, nbits);
    cuzk_cs_pop(cs);
    cuzk_num rt = root_allocated(cs, "root_value", root);
    cuzk_num_equal(cs, "enforce root is correct", cur, rt);
    if (!private_root) {
        cuzk_cs_push(cs, "root");
        cuzk_num_inputize(cs, rt);
        cuzk_cs_pop(cs);
    }
}

void cuzk_por_no_challenge_input(cuzk_cs *cs, const cuzk_por_tree *t, const cuzk_bit *challenge_bits, cuzk_num leaf,
                                 const cuzk_num *siblings, cuzk_num root)
{
    if (!shape_ok(cs, t)) return;
    cuzk_num cur = leaf;
    unsigned nbits = 0, nsib = 0, levels = cuzk_por_levels(t);
    for (unsigned h = 0; h < levels; h++) {
        unsigned arity = level_arity(t, h), k = log2_arity(arity);
        cuzk_num inserted[POR_MAX_ARITY];
        cuzk_cs_pushf(cs, "merkle proof insert (height=%u)", h);
        cuzk_insert(cs, cur, challenge_bits + nbits, k, siblings + nsib, inserted);
        cuzk_cs_pop(cs);
        nbits += k;
        nsib += arity - 1;
        cuzk_cs_pushf(cs, "merkle proof hash (height=%u)", h);
        cur = t->hash(cs, t->hash_ctx, inserted, arity, h);
        cuzk_cs_pop(cs);
    }
    cuzk_num_equal(cs, "calculated root == provided root", cur, root);
}
