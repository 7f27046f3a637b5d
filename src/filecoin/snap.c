/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SnapDeals (EmptySectorUpdate) vanilla proofs, one bincode PartitionProof per partition (storage-proofs-update
 * vanilla.rs), and the circuit's public inputs (circuit.rs PublicInputs, constants.rs hs / h_select). */
#include <stdlib.h>

#include "cuzk/circuits.h"
#include "fil_internal.h"

static cuzk_status need_update(const cuzk_fil_proof *p, cuzk_errmsg *err)
{
    if (p == NULL || p->cls != CUZK_FIL_CLASS_UPDATE)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s is not a SnapDeals registered proof",
                         p != NULL ? p->name : "NULL");
    return CUZK_OK;
}

size_t cuzk_fil_snap_partition_bytes(const cuzk_fil_proof *p)
{
    if (p == NULL || p->cls != CUZK_FIL_CLASS_UPDATE) return 0;
    size_t per = 2 * cuzk_fil_merkle_bytes(&p->tree_r) + cuzk_fil_merkle_bytes(&p->tree_d);
    return 32 + 8 + 32 * (size_t)p->apex_leaves + 8 + (size_t)p->challenges * per;
}

void cuzk_fil_snap_partition_free(cuzk_fil_snap_partition *s)
{
    if (s == NULL) return;
    free(s->mem);
    memset(s, 0, sizeof *s);
}

static cuzk_status decode(const cuzk_fil_proof *p, fil_bin *b, cuzk_fil_snap_partition *out)
{
    cuzk_status st;
    fil_push(&b->path, "comm_c", -1);
    if ((st = cuzk_fil_bin_node(b, out->comm_c, true)) != CUZK_OK) return st;
    fil_pop(&b->path);
    fil_push(&b->path, "apex_leafs", -1);
    if ((st = cuzk_fil_bin_len(b, p->apex_leaves)) != CUZK_OK) return st;
    for (uint32_t i = 0; i < p->apex_leaves; i++) {
        fil_index(&b->path, i);
        if ((st = cuzk_fil_bin_node(b, (uint8_t *)out->apex_leafs[i], true)) != CUZK_OK) return st;
    }
    fil_pop(&b->path);
    fil_push(&b->path, "challenge_proofs", -1);
    if ((st = cuzk_fil_bin_len(b, p->challenges)) != CUZK_OK) return st;
    for (uint32_t i = 0; i < p->challenges; i++) {
        cuzk_fil_snap_challenge *c = &out->c[i];
        fil_index(&b->path, i);
        fil_push(&b->path, "proof_r_old", -1);
        if ((st = cuzk_fil_bin_merkle(b, &p->tree_r, p->nodes, &c->r_old)) != CUZK_OK) return st;
        fil_pop(&b->path);
        fil_push(&b->path, "proof_d_new", -1);
        if ((st = cuzk_fil_bin_merkle(b, &p->tree_d, p->nodes, &c->d_new)) != CUZK_OK) return st;
        fil_pop(&b->path);
        fil_push(&b->path, "proof_r_new", -1);
        if ((st = cuzk_fil_bin_merkle(b, &p->tree_r, p->nodes, &c->r_new)) != CUZK_OK) return st;
        fil_pop(&b->path);
        if (c->d_new.leaf_index != c->r_old.leaf_index || c->r_new.leaf_index != c->r_old.leaf_index)
            return cuzk_fil_path_fail(b->err, &b->path, CUZK_ERR_MISMATCH,
                                      "proofs open different leaves: r_old %llu, d_new %llu, r_new %llu",
                                      (unsigned long long)c->r_old.leaf_index, (unsigned long long)c->d_new.leaf_index,
                                      (unsigned long long)c->r_new.leaf_index);
    }
    fil_pop(&b->path);
    return cuzk_fil_bin_end(b);
}

cuzk_status cuzk_fil_snap_partition_decode(const cuzk_fil_proof *p, const uint8_t *buf, size_t len,
                                           cuzk_fil_snap_partition *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = need_update(p, err);
    if (st != CUZK_OK) return st;
    if (buf == NULL && len > 0) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no buffer");
    if (buf == NULL) buf = cuzk_fil_empty;
    size_t sr = cuzk_fil_shape_siblings(&p->tree_r), sd = cuzk_fil_shape_siblings(&p->tree_d);
    size_t per = 2 * sr + sd;
    size_t bytes = (size_t)p->challenges * sizeof(cuzk_fil_snap_challenge) +
                   32 * ((size_t)p->apex_leaves + (size_t)p->challenges * per);
    uint8_t *mem = calloc(1, bytes);
    if (mem == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu bytes", bytes);
    out->mem = mem;
    out->c = (cuzk_fil_snap_challenge *)mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(mem + (size_t)p->challenges * sizeof(cuzk_fil_snap_challenge));
    out->apex_count = p->apex_leaves;
    out->apex_leafs = pool;
    out->challenges = p->challenges;
    pool += p->apex_leaves;
    for (uint32_t i = 0; i < p->challenges; i++, pool += per) {
        out->c[i].r_old.siblings = pool;
        out->c[i].d_new.siblings = pool + sr;
        out->c[i].r_new.siblings = pool + sr + sd;
    }
    fil_bin b = {buf, buf, buf + len, {.depth = 0}, err};
    st = decode(p, &b, out);
    if (st != CUZK_OK) cuzk_fil_snap_partition_free(out);
    return st;
}

cuzk_status cuzk_fil_snap_partition_encode(const cuzk_fil_proof *p, const cuzk_fil_snap_partition *s, uint8_t *out,
                                           size_t cap, size_t *len, cuzk_errmsg *err)
{
    cuzk_status st = need_update(p, err);
    if (st != CUZK_OK) return st;
    if (s->apex_count != p->apex_leaves || s->challenges != p->challenges)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%u apex leaves and %u challenges, %s needs %u and %u", s->apex_count,
                         s->challenges, p->name, p->apex_leaves, p->challenges);
    fil_bout o = {out, out + cap, 0};
    fil_put(&o, s->comm_c, 32);
    fil_put_u64(&o, s->apex_count);
    fil_put(&o, s->apex_leafs, 32 * (size_t)s->apex_count);
    fil_put_u64(&o, s->challenges);
    for (uint32_t i = 0; i < s->challenges; i++) {
        cuzk_fil_put_merkle(&o, &p->tree_r, &s->c[i].r_old);
        cuzk_fil_put_merkle(&o, &p->tree_d, &s->c[i].d_new);
        cuzk_fil_put_merkle(&o, &p->tree_r, &s->c[i].r_new);
    }
    return cuzk_fil_bout_done(&o, len, err);
}

cuzk_status cuzk_fil_snap_partition_check(const cuzk_fil_proof *p, const cuzk_fil_snap_partition *s, uint32_t k,
                                          const uint8_t comm_d_new[32], cuzk_errmsg *err)
{
    cuzk_status st = need_update(p, err);
    if (st != CUZK_OK) return st;
    if (k >= p->partitions)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "partition %u of %s, which has %u", k, p->name, p->partitions);
    if (s->challenges != p->challenges || s->challenges == 0)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%u challenges, %s needs %u", s->challenges, p->name, p->challenges);
    /* challenges of partition k carry k in their high bits (storage-proofs-update challenges.rs); nodes and partitions
     * are powers of two */
    unsigned random_bits = cuzk_log2_ceil(p->nodes) - cuzk_log2_ceil(p->partitions);
    for (uint32_t i = 0; i < s->challenges; i++) {
        const cuzk_fil_snap_challenge *c = &s->c[i];
        if (c->r_old.leaf_index >> random_bits != k)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "challenge_proofs[%u] opens leaf %llu, outside partition %u", i,
                             (unsigned long long)c->r_old.leaf_index, k);
        if (memcmp(c->r_old.root, s->c[0].r_old.root, 32) != 0 || memcmp(c->r_new.root, s->c[0].r_new.root, 32) != 0 ||
            memcmp(c->d_new.root, s->c[0].d_new.root, 32) != 0)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "challenge_proofs[%u]: a root differs from challenge_proofs[0]'s",
                             i);
    }
    if (comm_d_new != NULL && memcmp(s->c[0].d_new.root, comm_d_new, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "challenge_proofs[0].proof_d_new.root differs from comm_d_new");
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_partition_verify(const cuzk_fil_proof *p, const cuzk_fil_snap_partition *s,
                                           const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                           const uint8_t comm_r_new[32], cuzk_errmsg *err)
{
    cuzk_status st = need_update(p, err);
    if (st != CUZK_OK) return st;
    static const char *const names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
    for (uint32_t i = 0; i < s->challenges; i++) {
        const cuzk_fil_merkle_proof *m[3] = {&s->c[i].r_old, &s->c[i].d_new, &s->c[i].r_new};
        for (int k = 0; k < 3; k++) {
            uint8_t root[32];
            const cuzk_fil_shape *sh = k == 1 ? &p->tree_d : &p->tree_r;
            st = cuzk_fil_merkle_root(m[k], sh, k == 1 ? CUZK_FIL_HASH_SHA256 : CUZK_FIL_HASH_POSEIDON, root, err);
            if (st != CUZK_OK) return st;
            if (memcmp(root, m[k]->root, 32) != 0)
                return cuzk_fail(err, CUZK_ERR_PROOF_INVALID, "challenge_proofs[%u].%s does not hash to its root", i,
                                 names[k]);
        }
    }
    if (s->challenges == 0) return CUZK_OK;
    const uint8_t *want[3] = {comm_r_old, comm_d_new, comm_r_new};
    static const char *const comm[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    for (int k = 0; k < 3; k++) {
        if (want[k] == NULL) continue;
        uint8_t got[32];
        const cuzk_fil_merkle_proof *m = k == 0 ? &s->c[0].r_old : k == 1 ? &s->c[0].d_new : &s->c[0].r_new;
        if (k == 1) memcpy(got, m->root, 32);
        else if ((st = cuzk_poseidon_comm_r(got, s->comm_c, m->root, err)) != CUZK_OK) return st;
        if (memcmp(got, want[k], 32) != 0)
            return cuzk_fail(err, CUZK_ERR_PROOF_INVALID, "%s does not match the partition's proofs", comm[k]);
    }
    return CUZK_OK;
}

void cuzk_fil_snap_hs(const cuzk_fil_proof *p, uint32_t hs[6])
{
    bool small = p->nodes <= (1u << 10); /* up to 32 KiB sectors */
    for (uint32_t i = 0; i < 6; i++) hs[i] = small ? 1 : 7 + i;
}

cuzk_status cuzk_fil_snap_k_and_h_select(const cuzk_fil_proof *p, uint32_t k, uint32_t h, uint64_t *out,
                                         cuzk_errmsg *err)
{
    cuzk_status st = need_update(p, err);
    if (st != CUZK_OK) return st;
    if (k >= p->partitions)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "partition %u of %s, which has %u", k, p->name, p->partitions);
    if (h == 0) h = p->snap_h;
    uint32_t hs[6];
    cuzk_fil_snap_hs(p, hs);
    int pos = -1;
    for (int i = 0; i < 6 && pos < 0; i++)
        if (hs[i] == h) pos = i;
    if (pos < 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "h %u is not one of %s's {%u, %u, %u, %u, %u, %u}", h, p->name,
                         hs[0], hs[1], hs[2], hs[3], hs[4], hs[5]);
    *out = (uint64_t)k | (1ULL << pos) << cuzk_log2_ceil(p->partitions);
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_public_inputs(const cuzk_fil_proof *p, uint32_t k, uint32_t h, const uint8_t comm_r_old[32],
                                        const uint8_t comm_d_new[32], const uint8_t comm_r_new[32], cuzk_fr_t out[4],
                                        cuzk_errmsg *err)
{
    uint64_t kh = 0;
    cuzk_status st = cuzk_fil_snap_k_and_h_select(p, k, h, &kh, err);
    if (st != CUZK_OK) return st;
    uint64_t limbs[CUZK_FR_LIMBS] = {kh};
    cuzk_fr_from_limbs(&out[0], limbs);
    static const char *const names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    const uint8_t *v[3] = {comm_r_old, comm_d_new, comm_r_new};
    for (int i = 0; i < 3; i++)
        if (cuzk_fr_from_bytes_le(&out[1 + i], v[i]) != CUZK_OK)
            return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "%s is not below r (top byte 0x%02x)", names[i], v[i][31]);
    return CUZK_OK;
}
