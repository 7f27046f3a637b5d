/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SnapDeals partition proofs: generated ones of each size written and read back, sizes from the layout, every kind
 * of broken input, the partition check and the public inputs (k_and_h_select). No real SnapDeals vanilla proof is
 * public; the layout is rust-fil-proofs' PartitionProof in bincode. */
#include <stdlib.h>
#include <string.h>

#include "fil_tests.h"

static const cuzk_fil_proof *upd(uint64_t id)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_UPDATE, id);
    assert_non_null(p);
    return p;
}

static unsigned log2u(uint64_t v)
{
    unsigned l = 0;
    while (v > 1) v >>= 1, l++;
    return l;
}

static void rnd_node(uint8_t *b)
{
    test_rand_bytes(b, 32);
    b[31] &= 0x3f;
}

static void rnd_path(const cuzk_fil_shape *s, uint64_t leaf, const uint8_t root[32], cuzk_fil_merkle_proof *m)
{
    m->leaf_index = leaf;
    m->levels = (uint8_t)cuzk_fil_shape_levels(s);
    m->kind = (uint8_t)(s->top ? 2 : s->sub ? 1 : 0);
    for (unsigned l = 0; l < m->levels; l++) {
        unsigned a = cuzk_fil_shape_arity(s, l);
        m->index[l] = (uint8_t)(leaf % a);
        leaf /= a;
    }
    for (unsigned i = 0; i < cuzk_fil_shape_siblings(s); i++) rnd_node((uint8_t *)m->siblings[i]);
    memcpy(m->root, root, 32);
    rnd_node(m->leaf);
}

/* a random partition proof of partition k (its challenges inside partition k's share) */
static void make_partition(const cuzk_fil_proof *p, uint32_t k, const uint8_t comm_d_new[32],
                           cuzk_fil_snap_partition *s)
{
    size_t sr = cuzk_fil_shape_siblings(&p->tree_r), sd = cuzk_fil_shape_siblings(&p->tree_d);
    memset(s, 0, sizeof *s);
    s->mem = calloc(1, p->challenges * sizeof(cuzk_fil_snap_challenge) +
                           32 * (p->apex_leaves + p->challenges * (2 * sr + sd)));
    assert_non_null(s->mem);
    s->c = s->mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(s->c + p->challenges);
    s->apex_count = p->apex_leaves;
    s->apex_leafs = pool;
    for (uint32_t i = 0; i < p->apex_leaves; i++) rnd_node((uint8_t *)pool[i]);
    pool += p->apex_leaves;
    s->challenges = p->challenges;
    rnd_node(s->comm_c);
    uint8_t r_old[32], r_new[32];
    rnd_node(r_old);
    rnd_node(r_new);
    unsigned bits = log2u(p->nodes) - log2u(p->partitions);
    for (uint32_t i = 0; i < p->challenges; i++) {
        uint64_t leaf = (uint64_t)k << bits | (test_rand_u64() & ((1ULL << bits) - 1));
        cuzk_fil_snap_challenge *c = &s->c[i];
        c->r_old.siblings = pool;
        c->d_new.siblings = pool + sr;
        c->r_new.siblings = pool + sr + sd;
        pool += 2 * sr + sd;
        rnd_path(&p->tree_r, leaf, r_old, &c->r_old);
        rnd_path(&p->tree_d, leaf, comm_d_new, &c->d_new);
        rnd_path(&p->tree_r, leaf, r_new, &c->r_new);
    }
}

static void assert_merkle_equal(const cuzk_fil_shape *s, const cuzk_fil_merkle_proof *x, const cuzk_fil_merkle_proof *y)
{
    assert_int_equal(x->leaf_index, y->leaf_index);
    assert_int_equal(x->levels, y->levels);
    assert_int_equal(x->kind, y->kind);
    assert_memory_equal(x->index, y->index, x->levels);
    assert_memory_equal(x->root, y->root, 32);
    assert_memory_equal(x->leaf, y->leaf, 32);
    assert_memory_equal(x->siblings, y->siblings, 32 * (size_t)cuzk_fil_shape_siblings(s));
}

static uint8_t *encode(const cuzk_fil_proof *p, const cuzk_fil_snap_partition *s, size_t *n)
{
    *n = cuzk_fil_snap_partition_bytes(p);
    uint8_t *buf = malloc(*n);
    size_t wl = 0;
    assert_int_equal(cuzk_fil_snap_partition_encode(p, s, buf, *n, &wl, NULL), CUZK_OK);
    assert_int_equal(wl, *n);
    return buf;
}

static void test_round_trip(void **state)
{
    (void)state;
    assert_int_equal(cuzk_fil_snap_partition_bytes(upd(3)), 561768);
    assert_int_equal(cuzk_fil_snap_partition_bytes(upd(0)), 15064);
    assert_int_equal(cuzk_fil_snap_partition_bytes(cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 3)), 0);
    for (uint64_t id = 0; id < 5; id++) {
        const cuzk_fil_proof *p = upd(id);
        uint32_t k = p->partitions - 1;
        uint8_t comm_d[32];
        rnd_node(comm_d);
        cuzk_fil_snap_partition s, d;
        make_partition(p, k, comm_d, &s);
        size_t n;
        uint8_t *buf = encode(p, &s, &n);
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_OK);
        assert_memory_equal(d.comm_c, s.comm_c, 32);
        assert_int_equal(d.apex_count, p->apex_leaves);
        assert_memory_equal(d.apex_leafs, s.apex_leafs, 32 * (size_t)p->apex_leaves);
        assert_int_equal(d.challenges, p->challenges);
        for (uint32_t i = 0; i < p->challenges; i++) {
            assert_merkle_equal(&p->tree_r, &d.c[i].r_old, &s.c[i].r_old);
            assert_merkle_equal(&p->tree_d, &d.c[i].d_new, &s.c[i].d_new);
            assert_merkle_equal(&p->tree_r, &d.c[i].r_new, &s.c[i].r_new);
        }
        assert_int_equal(cuzk_fil_snap_partition_check(p, &d, k, comm_d, &err), CUZK_OK);
        assert_int_equal(cuzk_fil_snap_partition_check(p, &d, k, NULL, &err), CUZK_OK);
        if (p->partitions > 1) {
            assert_int_equal(cuzk_fil_snap_partition_check(p, &d, 0, comm_d, &err), CUZK_ERR_MISMATCH);
            assert_true(fil_test_has(err.msg, "outside partition 0"));
        }
        assert_int_equal(cuzk_fil_snap_partition_check(p, &d, p->partitions, NULL, &err), CUZK_ERR_INVALID_ARG);
        comm_d[0] ^= 1;
        assert_int_equal(cuzk_fil_snap_partition_check(p, &d, k, comm_d, &err), CUZK_ERR_MISMATCH);
        assert_true(fil_test_has(err.msg, "differs from comm_d_new"));
        /* written again, the same bytes */
        size_t n2;
        uint8_t *again = encode(p, &d, &n2);
        assert_memory_equal(again, buf, n);
        free(again);
        cuzk_fil_snap_partition_free(&d);
        free(buf);
        free(s.mem);
    }
}

static void test_truncations_and_trailing(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = upd(0);
    uint8_t comm_d[32];
    rnd_node(comm_d);
    cuzk_fil_snap_partition s, d;
    make_partition(p, 0, comm_d, &s);
    size_t n;
    uint8_t *buf = encode(p, &s, &n);
    cuzk_errmsg err = {{0}};
    for (size_t t = 0; t < n; t++) {
        assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, t, &d, &err), CUZK_ERR_TRUNCATED);
        assert_null(d.mem);
        if (t == 10) assert_string_equal(err.msg, "comm_c: truncated: needs 32 bytes at byte 0, 10 left");
        if (t == 41) assert_string_equal(err.msg, "apex_leafs[0]: truncated: needs 32 bytes at byte 40, 1 left");
    }
    assert_int_equal(cuzk_fil_snap_partition_decode(p, NULL, 0, &d, &err), CUZK_ERR_TRUNCATED);
    uint8_t *more = malloc(n + 3);
    memcpy(more, buf, n);
    memset(more + n, 0, 3);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, more, n + 3, &d, &err), CUZK_ERR_BAD_LENGTH);
    assert_true(fil_test_has(err.msg, "3 trailing bytes"));
    free(more);
    /* the 32 GiB one, sampled */
    free(buf);
    free(s.mem);
    p = upd(3);
    make_partition(p, 5, comm_d, &s);
    buf = encode(p, &s, &n);
    for (size_t t = 0; t < n; t += 997)
        assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, t, &d, NULL), CUZK_ERR_TRUNCATED);
    free(buf);
    free(s.mem);
}

static void test_fields_broken(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = upd(3);
    uint8_t comm_d[32];
    rnd_node(comm_d);
    cuzk_fil_snap_partition s, d;
    make_partition(p, 2, comm_d, &s);
    size_t n;
    uint8_t *buf = encode(p, &s, &n);
    cuzk_errmsg err = {{0}};
    uint64_t v;
    /* apex_leafs count */
    v = 127;
    memcpy(buf + 32, &v, 8);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "apex_leafs: expected 128 found 127");
    v = 128;
    memcpy(buf + 32, &v, 8);
    /* challenge_proofs count */
    size_t at = 32 + 8 + 128 * 32;
    v = UINT64_MAX;
    memcpy(buf + at, &v, 8);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "challenge_proofs: expected 86 found 18446744073709551615");
    v = 86;
    memcpy(buf + at, &v, 8);
    /* challenge 0: proof_r_old's variant, then proof_d_new's (a Single over the binary tree D) */
    at += 8;
    uint32_t tag = 0;
    memcpy(buf + at, &tag, 4);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_MISMATCH);
    assert_string_equal(err.msg, "challenge_proofs[0].proof_r_old: variant Single, the tree (8-8-0) needs Sub");
    tag = 1;
    memcpy(buf + at, &tag, 4);
    size_t dnew = at + 2484;
    tag = 9;
    memcpy(buf + dnew, &tag, 4);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_BAD_HEADER);
    assert_string_equal(err.msg,
                        "challenge_proofs[0].proof_d_new: unknown MerkleProof variant tag 9 (Single 0, Sub 1, Top 2)");
    tag = 0;
    memcpy(buf + dnew, &tag, 4);
    /* proof_d_new's path: 30 levels of 1 sibling; level 3's hash count, then its index */
    size_t lvl3 = dnew + 4 + 64 + 8 + 3 * 48;
    v = 2;
    memcpy(buf + lvl3, &v, 8);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "challenge_proofs[0].proof_d_new.path[3].hashes: expected 1 found 2");
    v = 1;
    memcpy(buf + lvl3, &v, 8);
    uint64_t idx;
    memcpy(&idx, buf + lvl3 + 40, 8);
    v = 2;
    memcpy(buf + lvl3 + 40, &v, 8);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_TOO_LARGE);
    assert_string_equal(err.msg, "challenge_proofs[0].proof_d_new.path[3].index: 2 is not below the arity 2");
    /* the other index value opens another leaf than proof_r_old */
    v = idx ^ 1;
    memcpy(buf + lvl3 + 40, &v, 8);
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_MISMATCH);
    assert_true(fil_test_has(err.msg, "challenge_proofs[0]: proofs open different leaves"));
    memcpy(buf + lvl3 + 40, &idx, 8);
    /* a non-canonical apex leaf */
    buf[40 + 5 * 32 + 31] = 0xee;
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_ERR_NOT_CANONICAL);
    assert_true(fil_test_has(err.msg, "apex_leafs[5]: field element"));
    buf[40 + 5 * 32 + 31] = 0;
    assert_int_equal(cuzk_fil_snap_partition_decode(p, buf, n, &d, &err), CUZK_OK);
    cuzk_fil_snap_partition_free(&d);
    /* the wrong registered proof class or size */
    assert_int_equal(cuzk_fil_snap_partition_decode(cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, 3), buf, n, &d, &err),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_snap_partition_decode(upd(4), buf, n, &d, &err), CUZK_ERR_MISMATCH);
    /* random byte flips: refused or accepted, nothing half-made */
    for (int i = 0; i < 300; i++) {
        size_t o = test_rand_u64() % n;
        uint8_t f = (uint8_t)(1u << (test_rand_u64() & 7));
        buf[o] ^= f;
        if (cuzk_fil_snap_partition_decode(p, buf, n, &d, NULL) == CUZK_OK) cuzk_fil_snap_partition_free(&d);
        else assert_null(d.mem);
        buf[o] ^= f;
    }
    free(buf);
    free(s.mem);
}

static void test_public_inputs(void **state)
{
    (void)state;
    uint64_t kh = 0;
    cuzk_errmsg err = {{0}};
    /* 32 GiB: 16 partitions (4 bits), h 10 = hs[3] -> h_select 8 */
    assert_int_equal(cuzk_fil_snap_k_and_h_select(upd(3), 3, 0, &kh, NULL), CUZK_OK);
    assert_int_equal(kh, 3 | 8 << 4);
    assert_int_equal(cuzk_fil_snap_k_and_h_select(upd(3), 15, 7, &kh, NULL), CUZK_OK);
    assert_int_equal(kh, 15 | 1 << 4);
    /* 8 MiB: 4 partitions (2 bits), h 12 = hs[5] */
    assert_int_equal(cuzk_fil_snap_k_and_h_select(upd(1), 2, 12, &kh, NULL), CUZK_OK);
    assert_int_equal(kh, 2 | 32 << 2);
    /* 2 KiB: 1 partition, every h is 1, the first position is taken */
    assert_int_equal(cuzk_fil_snap_k_and_h_select(upd(0), 0, 0, &kh, NULL), CUZK_OK);
    assert_int_equal(kh, 1);
    uint32_t hs[6];
    cuzk_fil_snap_hs(upd(0), hs);
    for (int i = 0; i < 6; i++) assert_int_equal(hs[i], 1);
    cuzk_fil_snap_hs(upd(2), hs);
    for (int i = 0; i < 6; i++) assert_int_equal(hs[i], 7 + i);
    assert_int_equal(cuzk_fil_snap_k_and_h_select(upd(0), 0, 7, &kh, &err), CUZK_ERR_INVALID_ARG);
    assert_true(fil_test_has(err.msg, "h 7 is not one of"));
    assert_int_equal(cuzk_fil_snap_k_and_h_select(upd(3), 16, 0, &kh, &err), CUZK_ERR_INVALID_ARG);
    uint8_t a[32], b[32], c[32];
    rnd_node(a);
    rnd_node(b);
    rnd_node(c);
    cuzk_fr_t in[4], want;
    assert_int_equal(cuzk_fil_snap_public_inputs(upd(3), 9, 0, a, b, c, in, NULL), CUZK_OK);
    uint64_t limbs[4] = {9 | 8 << 4};
    cuzk_fr_from_limbs(&want, limbs);
    assert_true(cuzk_fr_eq(&in[0], &want));
    cuzk_fr_from_bytes_le(&want, a);
    assert_true(cuzk_fr_eq(&in[1], &want));
    cuzk_fr_from_bytes_le(&want, b);
    assert_true(cuzk_fr_eq(&in[2], &want));
    cuzk_fr_from_bytes_le(&want, c);
    assert_true(cuzk_fr_eq(&in[3], &want));
    b[31] = 0xff;
    assert_int_equal(cuzk_fil_snap_public_inputs(upd(3), 9, 0, a, b, c, in, &err), CUZK_ERR_NOT_CANONICAL);
    assert_true(fil_test_has(err.msg, "comm_d_new is not below r"));
}

const struct CMUnitTest fil_snap_tests[] = {
    cmocka_unit_test(test_round_trip),
    cmocka_unit_test(test_truncations_and_trailing),
    cmocka_unit_test(test_fields_broken),
    cmocka_unit_test(test_public_inputs),
};
const size_t fil_snap_count = sizeof fil_snap_tests / sizeof fil_snap_tests[0];
