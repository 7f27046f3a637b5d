/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Merkle proofs hashed: paths out of the circuits layer's Poseidon trees and out of a SHA-256 tree D built here with
 * OpenSSL lead to those trees' roots; the real WindowPoSt proof hashes to its comm_r_last and comm_r; a SnapDeals
 * partition made from real trees verifies against its commitments, and each kind of tampering is caught. */
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "cuzk/circuits.h"
#include "fil_tests.h"

static void rnd_node(uint8_t *b)
{
    test_rand_bytes(b, 32);
    b[31] &= 0x3f;
}

/* A Poseidon tree of shape s over random leaves (the circuits layer's tree code). */
static cuzk_poseidon_tree *poseidon_tree(const cuzk_fil_shape *s, uint64_t n)
{
    uint8_t *leaves = malloc(32 * n);
    for (uint64_t i = 0; i < n; i++) rnd_node(leaves + 32 * i);
    cuzk_poseidon_tree_shape ps = {s->base, s->sub, s->top};
    cuzk_poseidon_tree *t;
    cuzk_errmsg err = {{0}};
    if (cuzk_poseidon_tree_build(&t, leaves, n, &ps, 1, &err) != CUZK_OK) fail_msg("%s", err.msg);
    free(leaves);
    return t;
}

/* Leaf i's path of that tree as a cuzk_fil_merkle_proof (siblings into pool) */
static void poseidon_proof(const cuzk_poseidon_tree *t, const cuzk_fil_shape *s, uint64_t i, cuzk_fil_node *pool,
                           cuzk_fil_merkle_proof *m)
{
    cuzk_poseidon_path_elem path[CUZK_POSEIDON_TREE_MAX_LEVELS];
    unsigned len = 0;
    memset(m, 0, sizeof *m);
    assert_int_equal(cuzk_poseidon_tree_path(t, i, m->leaf, path, &len, NULL), CUZK_OK);
    assert_int_equal(len, cuzk_fil_shape_levels(s));
    m->levels = (uint8_t)len;
    m->kind = (uint8_t)(s->top ? CUZK_FIL_MERKLE_TOP : s->sub ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE);
    m->leaf_index = i;
    m->siblings = pool;
    for (unsigned l = 0, k = 0; l < len; l++) {
        assert_int_equal(path[l].arity, cuzk_fil_shape_arity(s, l));
        m->index[l] = (uint8_t)path[l].index;
        for (unsigned j = 0; j + 1 < path[l].arity; j++) memcpy((uint8_t *)pool[k++], path[l].siblings[j], 32);
    }
    cuzk_poseidon_tree_root_of(t, m->root);
}

/* A binary SHA-256 tree (filecoin-hashers' Sha256 node: digest with the top two bits cleared), levels[0] the leaves */
typedef struct {
    unsigned height;
    uint8_t *level[32];
} sha_tree;

static void sha_tree_make(sha_tree *t, unsigned height)
{
    t->height = height;
    for (unsigned l = 0; l <= height; l++) t->level[l] = malloc(32ULL << (height - l));
    for (uint64_t i = 0; i < (1ULL << height); i++) rnd_node(t->level[0] + 32 * i);
    for (unsigned l = 1; l <= height; l++)
        for (uint64_t i = 0; i < (1ULL << (height - l)); i++) {
            uint8_t *out = t->level[l] + 32 * i;
            SHA256(t->level[l - 1] + 64 * i, 64, out);
            out[31] &= 0x3f;
        }
}

static void sha_tree_free(sha_tree *t)
{
    for (unsigned l = 0; l <= t->height; l++) free(t->level[l]);
}

static void sha_proof(const sha_tree *t, uint64_t i, cuzk_fil_node *pool, cuzk_fil_merkle_proof *m)
{
    memset(m, 0, sizeof *m);
    m->levels = (uint8_t)t->height;
    m->kind = CUZK_FIL_MERKLE_SINGLE;
    m->leaf_index = i;
    m->siblings = pool;
    memcpy(m->leaf, t->level[0] + 32 * i, 32);
    memcpy(m->root, t->level[t->height], 32);
    for (unsigned l = 0; l < t->height; l++, i >>= 1) {
        m->index[l] = (uint8_t)(i & 1);
        memcpy((uint8_t *)pool[l], t->level[l] + 32 * (i ^ 1), 32);
    }
}

static void test_roots_of_real_trees(void **state)
{
    (void)state;
    static const cuzk_fil_shape shapes[] = {{8, 0, 0, 2}, {8, 8, 0, 1}, {8, 8, 2, 1}, {8, 2, 0, 2}};
    cuzk_errmsg err = {{0}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const cuzk_fil_shape *s = &shapes[k];
        uint64_t n = 1;
        for (unsigned l = 0; l < cuzk_fil_shape_levels(s); l++) n *= cuzk_fil_shape_arity(s, l);
        cuzk_poseidon_tree *t = poseidon_tree(s, n);
        cuzk_fil_node pool[80];
        for (int r = 0; r < 4; r++) {
            cuzk_fil_merkle_proof m;
            poseidon_proof(t, s, test_rand_u64() % n, pool, &m);
            uint8_t root[32];
            assert_int_equal(cuzk_fil_merkle_root(&m, s, CUZK_FIL_HASH_POSEIDON, root, NULL), CUZK_OK);
            assert_memory_equal(root, m.root, 32);
            assert_int_equal(cuzk_fil_merkle_verify(&m, s, CUZK_FIL_HASH_POSEIDON, &err), CUZK_OK);
            /* any sibling, the leaf or an index changed: another root */
            ((uint8_t *)pool[test_rand_u64() % cuzk_fil_shape_siblings(s)])[0] ^= 1;
            assert_int_equal(cuzk_fil_merkle_verify(&m, s, CUZK_FIL_HASH_POSEIDON, &err), CUZK_ERR_PROOF_INVALID);
            assert_true(fil_test_has(err.msg, "hashes to another root"));
            m.index[0] = (uint8_t)((m.index[0] + 1) % s->base);
            assert_int_equal(cuzk_fil_merkle_verify(&m, s, CUZK_FIL_HASH_SHA256, &err), CUZK_ERR_INVALID_ARG);
        }
        cuzk_poseidon_tree_free(t);
    }
    sha_tree d;
    sha_tree_make(&d, 6);
    const cuzk_fil_shape td = {2, 0, 0, 6};
    for (uint64_t i = 0; i < 64; i += 9) {
        cuzk_fil_node pool[6];
        cuzk_fil_merkle_proof m;
        sha_proof(&d, i, pool, &m);
        assert_int_equal(cuzk_fil_merkle_verify(&m, &td, CUZK_FIL_HASH_SHA256, &err), CUZK_OK);
        m.leaf[5] ^= 4;
        assert_int_equal(cuzk_fil_merkle_verify(&m, &td, CUZK_FIL_HASH_SHA256, &err), CUZK_ERR_PROOF_INVALID);
        m.leaf[5] ^= 4;
        m.levels = 5;
        assert_int_equal(cuzk_fil_merkle_verify(&m, &td, CUZK_FIL_HASH_SHA256, &err), CUZK_ERR_INVALID_ARG);
    }
    sha_tree_free(&d);
}

/* The real 32 GiB WindowPoSt proof: ten Poseidon-8 paths to comm_r_last, and comm_r = Poseidon(comm_c, comm_r_last). */
static void test_post_fixture_hashes(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = fil_test_read(CUZK_FIL_FIXTURES "/window-post-32g-sector.vproof", &len);
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 8);
    cuzk_fil_post_sector s;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_OK);
    if (cuzk_fil_post_sector_verify(p, &s, &err) != CUZK_OK) fail_msg("%s", err.msg);
    cuzk_fil_post_sector_free(&s);
    /* a sibling of inclusion proof 4, base level 3 (still below r) */
    size_t off = 56 + 4 * 2484 + 4 + 8 + 3 * 240 + 8 + 32 * 2;
    buf[off] ^= 1;
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_post_sector_verify(p, &s, &err), CUZK_ERR_PROOF_INVALID);
    assert_string_equal(err.msg, "sector 1: inclusion_proofs[4] (leaf 1061661429) does not hash to comm_r_last");
    cuzk_fil_post_sector_free(&s);
    buf[off] ^= 1;
    /* comm_c */
    buf[len - 64] ^= 1;
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_post_sector_verify(p, &s, &err), CUZK_ERR_PROOF_INVALID);
    assert_string_equal(err.msg, "sector 1: comm_r is not Poseidon(comm_c, comm_r_last)");
    cuzk_fil_post_sector_free(&s);
    free(buf);
}

/* A 2 KiB SnapDeals partition made from real trees R (old, new) and D. */
static void test_snap_verify(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_UPDATE, 0);
    cuzk_poseidon_tree *r_old = poseidon_tree(&p->tree_r, p->nodes), *r_new = poseidon_tree(&p->tree_r, p->nodes);
    sha_tree d;
    sha_tree_make(&d, 6);
    size_t sr = cuzk_fil_shape_siblings(&p->tree_r), sd = cuzk_fil_shape_siblings(&p->tree_d);
    cuzk_fil_snap_partition s = {0};
    s.mem = calloc(1, p->challenges * sizeof(cuzk_fil_snap_challenge) +
                          32 * (p->apex_leaves + p->challenges * (2 * sr + sd)));
    s.c = s.mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(s.c + p->challenges);
    s.apex_count = p->apex_leaves;
    s.apex_leafs = pool;
    pool += p->apex_leaves;
    s.challenges = p->challenges;
    rnd_node(s.comm_c);
    for (uint32_t i = 0; i < p->challenges; i++, pool += 2 * sr + sd) {
        uint64_t leaf = test_rand_u64() % p->nodes;
        poseidon_proof(r_old, &p->tree_r, leaf, pool, &s.c[i].r_old);
        sha_proof(&d, leaf, pool + sr, &s.c[i].d_new);
        poseidon_proof(r_new, &p->tree_r, leaf, pool + sr + sd, &s.c[i].r_new);
    }
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    assert_int_equal(cuzk_poseidon_comm_r(comm_r_old, s.comm_c, s.c[0].r_old.root, NULL), CUZK_OK);
    assert_int_equal(cuzk_poseidon_comm_r(comm_r_new, s.comm_c, s.c[0].r_new.root, NULL), CUZK_OK);
    memcpy(comm_d_new, d.level[6], 32);
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_snap_partition_verify(p, &s, comm_r_old, comm_d_new, comm_r_new, &err) != CUZK_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(cuzk_fil_snap_partition_verify(p, &s, NULL, NULL, NULL, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_snap_partition_check(p, &s, 0, comm_d_new, &err), CUZK_OK);
    /* through bincode and back, still verifying */
    size_t n = cuzk_fil_snap_partition_bytes(p), wl;
    uint8_t *buf = malloc(n);
    assert_int_equal(cuzk_fil_snap_partition_encode(p, &s, buf, n, &wl, NULL), CUZK_OK);
    cuzk_fil_snap_partition back;
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &back, NULL), CUZK_OK);
    assert_int_equal(cuzk_fil_snap_partition_verify(p, &back, comm_r_old, comm_d_new, comm_r_new, &err), CUZK_OK);
    cuzk_fil_snap_partition_free(&back);
    free(buf);
    /* commitments that are not the trees' */
    comm_r_new[0] ^= 1;
    assert_int_equal(cuzk_fil_snap_partition_verify(p, &s, comm_r_old, comm_d_new, comm_r_new, &err),
                     CUZK_ERR_PROOF_INVALID);
    assert_string_equal(err.msg, "comm_r_new does not match the partition's proofs");
    comm_d_new[3] ^= 1;
    assert_int_equal(cuzk_fil_snap_partition_verify(p, &s, NULL, comm_d_new, NULL, &err), CUZK_ERR_PROOF_INVALID);
    assert_string_equal(err.msg, "comm_d_new does not match the partition's proofs");
    /* a tree D sibling of challenge 7 */
    ((uint8_t *)s.c[7].d_new.siblings[2])[0] ^= 1;
    assert_int_equal(cuzk_fil_snap_partition_verify(p, &s, NULL, NULL, NULL, &err), CUZK_ERR_PROOF_INVALID);
    assert_string_equal(err.msg, "challenge_proofs[7].proof_d_new does not hash to its root");
    free(s.mem);
    sha_tree_free(&d);
    cuzk_poseidon_tree_free(r_old);
    cuzk_poseidon_tree_free(r_new);
}

const struct CMUnitTest fil_merkle_tests[] = {
    cmocka_unit_test(test_roots_of_real_trees),
    cmocka_unit_test(test_post_fixture_hashes),
    cmocka_unit_test(test_snap_verify),
};
const size_t fil_merkle_count = sizeof fil_merkle_tests / sizeof fil_merkle_tests[0];
