/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Merkle inclusion (por.rs) against trees built natively here: storage-proofs-core tests/por_circuit.rs's counts for
 * SHA-256 trees of 64 leaves (test_por_circuit_sha256_base_2 272,295, _base_4 216,258, _base_8 250,987, three
 * inputs each), the public inputs PoRCompound::generate_public_inputs gives (challenge, root), a wrong leaf or sibling
 * caught by CHECK at the root equality, the all-zero 2 KiB sector's published comm_d, sub/top tree shapes through the
 * hash hook, and por_no_challenge_input. */
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "testutil.h"
#include "circ_test.h"

#define MAX_NODES 256

/* A tree of 32-byte nodes: level 0 the leaves, each node the SHA-256 of its children's bytes with the top two bits
 * cleared (Sha256Domain::trim_to_fr32), or the toy hash below. */
typedef struct {
    unsigned arity[8]; /* per level above the leaves */
    unsigned levels;
    unsigned width[9];
    cuzk_fr_t node[9][MAX_NODES];
    bool toy;
} tree;

/* The toy hash: Σ (i + 2)·child_i, one row. Checks the hook's plumbing at any arity without SHA-256's cost. */
static void toy_native(const cuzk_fr_t *c, unsigned n, cuzk_fr_t *out)
{
    cuzk_fr_set_zero(out);
    for (unsigned i = 0; i < n; i++) {
        cuzk_fr_t k, t;
        cuzk_fr_from_u64(&k, i + 2);
        cuzk_fr_mul(&t, &k, &c[i]);
        cuzk_fr_add(out, out, &t);
    }
}

static cuzk_num toy_hash(cuzk_cs *cs, void *ctx, const cuzk_num *children, unsigned arity, unsigned height)
{
    (void)ctx;
    (void)height;
    cuzk_fr_t vals[16];
    for (unsigned i = 0; i < arity; i++) vals[i] = children[i].val;
    cuzk_num r;
    toy_native(vals, arity, &r.val);
    r.var = cuzk_cs_alloc(cs, &r.val);
    if (cuzk_cs_builds_lc(cs)) {
        cuzk_term ta[16], tb[1], tc[1];
        cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
        for (unsigned i = 0; i < arity; i++) {
            cuzk_fr_t k;
            cuzk_fr_from_u64(&k, i + 2);
            cuzk_lc_add(cs, &a, children[i].var, &k);
        }
        cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
        cuzk_lc_add(cs, &c, r.var, NULL);
        cuzk_cs_enforce(cs, "toy hash", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "toy hash", NULL, NULL, NULL);
    }
    return r;
}

static void sha_native(const cuzk_fr_t *c, unsigned n, cuzk_fr_t *out)
{
    uint8_t buf[16 * 32], d[32];
    for (unsigned i = 0; i < n; i++) cuzk_fr_to_bytes_le(buf + 32 * i, &c[i]);
    SHA256(buf, 32 * n, d);
    d[31] &= 0x3f;
    assert_int_equal(cuzk_fr_from_bytes_le(out, d), CUZK_OK);
}

static void tree_build(tree *t, const cuzk_por_tree *shape, bool toy)
{
    t->toy = toy;
    t->levels = cuzk_por_levels(shape);
    unsigned leaves = 1;
    for (unsigned l = 0; l < t->levels; l++) {
        t->arity[l] = l < shape->base_levels                        ? shape->base_arity
                      : l == shape->base_levels && shape->sub_arity ? shape->sub_arity
                                                                    : shape->top_arity;
        leaves *= t->arity[l];
    }
    assert_true(leaves <= MAX_NODES);
    t->width[0] = leaves;
    for (unsigned i = 0; i < leaves; i++) {
        uint8_t b[32];
        test_rand_bytes(b, 32);
        b[31] &= 0x3f;
        assert_int_equal(cuzk_fr_from_bytes_le(&t->node[0][i], b), CUZK_OK);
    }
    for (unsigned l = 0; l < t->levels; l++) {
        t->width[l + 1] = t->width[l] / t->arity[l];
        for (unsigned i = 0; i < t->width[l + 1]; i++) {
            const cuzk_fr_t *c = &t->node[l][i * t->arity[l]];
            if (toy) toy_native(c, t->arity[l], &t->node[l + 1][i]);
            else sha_native(c, t->arity[l], &t->node[l + 1][i]);
        }
    }
}

/* The siblings of leaf `leaf`, level by level in order, as the vanilla proof lists them. */
static unsigned tree_path(const tree *t, unsigned leaf, cuzk_fr_t *sib)
{
    unsigned n = 0, idx = leaf;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = t->arity[l], first = idx / a * a;
        for (unsigned k = 0; k < a; k++)
            if (first + k != idx) sib[n++] = t->node[l][first + k];
        idx /= a;
    }
    return n;
}

typedef struct {
    const cuzk_por_tree *shape;
    cuzk_fr_t leaf, root, sib[64];
    uint64_t challenge;
    bool private_root, no_challenge_input;
} por_ctx;

static void por_circuit(cuzk_cs *cs, void *p)
{
    por_ctx *c = p;
    cuzk_cs_push(cs, "por");
    if (!c->no_challenge_input) {
        cuzk_por_root value = {.num = {.val = c->leaf}}, root = {.num = {.val = c->root}};
        cuzk_por_circuit(cs, c->shape, value, c->challenge, c->sib, root, c->private_root);
    } else {
        unsigned nb = cuzk_por_challenge_bits(c->shape), ns = cuzk_por_siblings(c->shape);
        cuzk_bit bits[64];
        cuzk_num sib[64];
        for (unsigned i = 0; i < nb; i++) bits[i] = cuzk_bit_alloc(cs, (c->challenge >> i) & 1);
        cuzk_num leaf = cuzk_num_alloc(cs, &c->leaf);
        for (unsigned i = 0; i < ns; i++) sib[i] = cuzk_num_alloc(cs, &c->sib[i]);
        cuzk_num root = cuzk_num_alloc(cs, &c->root);
        cuzk_por_no_challenge_input(cs, c->shape, bits, leaf, sib, root);
    }
    cuzk_cs_pop(cs);
}

static void check_por(const cuzk_por_tree *shape, bool toy, uint64_t want_rows, unsigned challenges)
{
    tree *t = malloc(sizeof *t);
    assert_non_null(t);
    tree_build(t, shape, toy);
    for (unsigned k = 0; k < challenges; k++) {
        por_ctx c = {.shape = shape};
        c.challenge = k == 0 ? 0 : k == 1 ? t->width[0] - 1 : test_rand_u64() % t->width[0];
        c.leaf = t->node[0][c.challenge];
        c.root = t->node[t->levels][0];
        assert_int_equal(tree_path(t, (unsigned)c.challenge, c.sib), cuzk_por_siblings(shape));
        circ_run run;
        circ_run_all(por_circuit, &c, &run);
        if (want_rows) assert_int_equal(run.r->num_constraints, want_rows);
        /* PoRCompound::generate_public_inputs: the challenge, then the root */
        assert_int_equal(run.r->num_inputs, 3);
        cuzk_fr_t ch;
        cuzk_fr_from_u64(&ch, c.challenge);
        assert_true(cuzk_fr_eq(&run.z[1], &ch));
        assert_true(cuzk_fr_eq(&run.z[2], &c.root));
        circ_run_free(&run);

        /* a wrong leaf, a wrong sibling, a wrong challenge: the computed root differs (first challenge only) */
        if (k > 0) continue;
        cuzk_errmsg err = {{0}};
        por_ctx bad = c;
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&bad.leaf, &bad.leaf, &one);
        assert_int_equal(circ_check(por_circuit, &bad, &err), CUZK_ERR_R1CS_UNSATISFIED);
        assert_non_null(strstr(err.msg, "por/enforce root is correct"));
        bad = c;
        bad.sib[cuzk_por_siblings(shape) - 1] = c.leaf;
        assert_int_equal(circ_check(por_circuit, &bad, &err), CUZK_ERR_R1CS_UNSATISFIED);
        assert_non_null(strstr(err.msg, "por/enforce root is correct"));
        bad = c;
        bad.challenge ^= 1;
        assert_int_equal(circ_check(por_circuit, &bad, &err), CUZK_ERR_R1CS_UNSATISFIED);
        assert_non_null(strstr(err.msg, "por/enforce root is correct"));
    }
    free(t);
}

static void test_por_sha256_base_2(void **state)
{
    (void)state;
    cuzk_por_tree shape = {2, 0, 0, 6, cuzk_sha256_gadget_por_hash, NULL};
    check_por(&shape, false, 272295, 2);
}

static void test_por_sha256_base_4(void **state)
{
    (void)state;
    cuzk_por_tree shape = {4, 0, 0, 3, cuzk_sha256_gadget_por_hash, NULL};
    check_por(&shape, false, 216258, 1);
}

static void test_por_sha256_base_8(void **state)
{
    (void)state;
    cuzk_por_tree shape = {8, 0, 0, 2, cuzk_sha256_gadget_por_hash, NULL};
    check_por(&shape, false, 250987, 1);
}

/* A real Filecoin tree: the comm_d of an all-zero 2 KiB sector (64 zero leaves), fc7e9282...f833 as published in
 * lotus zerocomm.go's PieceComms and asserted by rust-fil-proofs filecoin-proofs/tests/pieces.rs. The native tree and
 * the circuit (which must be satisfied with it as the public root) agree with it. */
static void test_por_zero_comm_d(void **state)
{
    (void)state;
    static const uint8_t comm_d[32] = {0xfc, 0x7e, 0x92, 0x82, 0x96, 0xe5, 0x16, 0xfa, 0xad, 0xe9, 0x86,
                                       0xb2, 0x8f, 0x92, 0xd4, 0x4a, 0x4f, 0x24, 0xb9, 0x35, 0x48, 0x52,
                                       0x23, 0x37, 0x6a, 0x79, 0x90, 0x27, 0xbc, 0x18, 0xf8, 0x33};
    cuzk_por_tree shape = {2, 0, 0, 6, cuzk_sha256_gadget_por_hash, NULL};
    tree *t = malloc(sizeof *t);
    assert_non_null(t);
    tree_build(t, &shape, false);
    for (unsigned i = 0; i < 64; i++) cuzk_fr_set_zero(&t->node[0][i]);
    for (unsigned l = 0; l < t->levels; l++)
        for (unsigned i = 0; i < t->width[l + 1]; i++) sha_native(&t->node[l][2 * i], 2, &t->node[l + 1][i]);
    uint8_t root[32];
    cuzk_fr_to_bytes_le(root, &t->node[6][0]);
    assert_memory_equal(root, comm_d, 32);
    por_ctx c = {.shape = &shape, .challenge = test_rand_u64() % 64};
    c.leaf = t->node[0][c.challenge];
    c.root = t->node[6][0];
    tree_path(t, (unsigned)c.challenge, c.sib);
    circ_run run;
    circ_run_all(por_circuit, &c, &run);
    cuzk_fr_to_bytes_le(root, &run.z[2]);
    assert_memory_equal(root, comm_d, 32);
    circ_run_free(&run);
    free(t);
}

/* Sub and top trees (8-8-0 is 32 GiB's tree R shape, 8-8-2 64 GiB's) and the general insertion (16), through a toy
 * one-row hash: per level, index bits + insert (2, 8, 22 or 240 rows) + 1, then packing, equality and the input. */
static void test_por_shapes(void **state)
{
    (void)state;
    static const struct {
        cuzk_por_tree shape;
        uint64_t rows;
    } cases[] = {
        {{8, 8, 0, 1, toy_hash, NULL}, 2 * (3 + 22 + 1) + 3},
        {{8, 8, 2, 1, toy_hash, NULL}, 2 * (3 + 22 + 1) + (1 + 2 + 1) + 3},
        {{8, 4, 2, 1, toy_hash, NULL}, (3 + 22 + 1) + (2 + 8 + 1) + (1 + 2 + 1) + 3},
        {{4, 0, 0, 3, toy_hash, NULL}, 3 * (2 + 8 + 1) + 3},
        {{16, 0, 0, 2, toy_hash, NULL}, 2 * (4 + 240 + 1) + 3},
        {{2, 0, 0, 7, toy_hash, NULL}, 7 * (1 + 2 + 1) + 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_por(&cases[i].shape, true, cases[i].rows, 3);
}

/* por_no_challenge_input: the caller's bits and numbers, per level insert and hash, one equality; private root. */
static void test_por_no_challenge_input(void **state)
{
    (void)state;
    cuzk_por_tree shape = {8, 8, 2, 1, toy_hash, NULL};
    tree *t = malloc(sizeof *t);
    assert_non_null(t);
    tree_build(t, &shape, true);
    por_ctx c = {.shape = &shape, .no_challenge_input = true, .challenge = 77};
    c.leaf = t->node[0][77];
    c.root = t->node[t->levels][0];
    tree_path(t, 77, c.sib);
    circ_run run;
    circ_run_all(por_circuit, &c, &run);
    assert_int_equal(run.r->num_inputs, 1);
    assert_int_equal(run.r->num_constraints, 7 + (22 + 1) * 2 + (2 + 1) + 1);
    circ_run_free(&run);
    c.challenge = 78;
    cuzk_errmsg err = {{0}};
    assert_int_equal(circ_check(por_circuit, &c, &err), CUZK_ERR_R1CS_UNSATISFIED);
    assert_non_null(strstr(err.msg, "por/calculated root == provided root"));
    free(t);
}

/* Unsupported shapes fail the cs with a message instead of synthesizing nonsense. */
static void test_por_bad_shapes(void **state)
{
    (void)state;
    static const cuzk_por_tree bad[] = {
        {3, 0, 0, 2, toy_hash, NULL},  {2, 0, 4, 2, toy_hash, NULL}, {32, 0, 0, 1, toy_hash, NULL},
        {2, 0, 0, 70, toy_hash, NULL}, {2, 0, 0, 2, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
        cuzk_por_root v = {.num = {.var = 0}}, r = v;
        cuzk_por_circuit(cs, &bad[i], v, 0, NULL, r, false);
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);
        assert_non_null(strstr(err.msg, "tree shape"));
    }
}

int test_group_por(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_por_sha256_base_2), cmocka_unit_test(test_por_sha256_base_4),
        cmocka_unit_test(test_por_sha256_base_8), cmocka_unit_test(test_por_zero_comm_d),
        cmocka_unit_test(test_por_shapes),        cmocka_unit_test(test_por_no_challenge_input),
        cmocka_unit_test(test_por_bad_shapes),
    };
    return cmocka_run_group_tests_name("circuits_por", tests, NULL, NULL);
}
