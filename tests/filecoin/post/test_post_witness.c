/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Witnesses of the FallbackPoSt circuit from generated sectors: storage-proofs-post tests/fallback_circuit.rs (trees
 * 8 / 8-4 / 8-4-2 of 64 leaves per base tree, 3 sectors × 5 challenges; 5 sectors in partitions of 3, the second
 * padded with its last sector) satisfied in every mode and thread count with inputs equal to
 * FallbackPoStCompound::generate_public_inputs'; the registered 2 KiB WindowPoSt and WinningPoSt circuits built from
 * vanilla proofs through cuzk_fil_post_witness, proved with a test key and verified against the public inputs a
 * verifier derives; every bad request named; every byte of a vanilla proof flipped, each caught. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "post_tests.h"

/* ---- the Rust test shapes, through cuzk_fil_post_synthesize ------------------------------------------------------ */

typedef struct {
    cuzk_fil_post_geom g;
    post_gen_sector sec[5];
    size_t nsec;
    uint8_t rand[32];
    cuzk_fil_merkle_proof *m; /* [nsec × challenges] */
    cuzk_fil_node *sib;
} rust_case;

/* fallback/vanilla.rs under API 1.1: challenge n of the sector at index i takes challenge index i·count + n */
static void rust_case_make(rust_case *c, cuzk_fil_shape tree, uint64_t nodes, size_t nsec, uint32_t per_partition)
{
    memset(c, 0, sizeof *c);
    c->g = (cuzk_fil_post_geom){tree, nodes, per_partition, 5};
    c->nsec = nsec;
    uint64_t st = test_rand_u64();
    post_gen_fr_bytes(&st, c->rand);
    size_t sib = cuzk_fil_shape_siblings(&tree);
    c->m = calloc(nsec * 5, sizeof *c->m);
    c->sib = calloc(nsec * 5 * sib, sizeof *c->sib);
    assert_non_null(c->m);
    assert_non_null(c->sib);
    for (size_t i = 0; i < nsec; i++) {
        assert_int_equal(post_gen_sector_make(&c->sec[i], &tree, nodes, test_rand_u64(), i), 0);
        for (uint32_t n = 0; n < 5; n++) {
            uint64_t idx = cuzk_fil_post_challenge_index(CUZK_FIL_API_1_1, i, 5, n);
            uint64_t leaf = cuzk_fil_post_challenge(c->rand, i, idx, nodes);
            size_t k = i * 5 + n;
            assert_int_equal(post_gen_inclusion(&c->sec[i], leaf, &c->m[k], c->sib + k * sib), 0);
        }
    }
}

static void rust_case_free(rust_case *c)
{
    for (size_t i = 0; i < c->nsec; i++) post_gen_sector_free(&c->sec[i]);
    free(c->m);
    free(c->sib);
}

/* Partition k's slots: its sectors, then the last one repeated (compound.rs circuit()). */
static void slots_of(const rust_case *c, uint32_t k, cuzk_fil_post_slot *slots)
{
    size_t first = (size_t)k * c->g.sectors, last = c->nsec - 1;
    for (uint32_t i = 0; i < c->g.sectors; i++) {
        size_t s = first + i <= last ? first + i : last;
        slots[i] = (cuzk_fil_post_slot){s, c->sec[s].comm_r, c->sec[s].comm_c, c->sec[s].comm_r_last, &c->m[s * 5]};
    }
}

/* generate_public_inputs: per sector comm_r and its 5 leaves, the last sector's repeated as they are */
static void expected_inputs(const rust_case *c, uint32_t k, cuzk_fr_t *out)
{
    size_t first = (size_t)k * c->g.sectors, last = c->nsec - 1;
    for (uint32_t i = 0; i < c->g.sectors; i++) {
        size_t s = first + i <= last ? first + i : last;
        cuzk_fr_t *o = out + i * 6;
        assert_int_equal(cuzk_fr_from_bytes_le(&o[0], c->sec[s].comm_r), CUZK_OK);
        for (int n = 0; n < 5; n++) cuzk_fr_from_u64(&o[1 + n], c->m[s * 5 + n].leaf_index);
    }
}

static cuzk_r1cs_t *shape_of(const cuzk_fil_post_geom *g, unsigned threads)
{
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    assert_int_equal(cuzk_fil_post_synthesize(cs, g, NULL, threads), CUZK_OK);
    cuzk_r1cs_t *r;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_cs_finish(cs, &r, NULL, &err), CUZK_OK);
    return r;
}

static cuzk_fr_t *witness_of(const cuzk_r1cs_t *r, const cuzk_fil_post_geom *g, const cuzk_fil_post_slot *slots,
                             unsigned threads)
{
    cuzk_fr_t *z = malloc(cuzk_r1cs_num_vars(r) * sizeof *z);
    assert_non_null(z);
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, r->num_inputs, r->num_aux);
    cuzk_fil_post_synthesize(cs, g, slots, threads);
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_cs_finish(cs, NULL, NULL, &err);
    if (s != CUZK_OK) fail_msg("witness: %s", err.msg);
    return z;
}

static void run_rust_case(cuzk_fil_shape tree, uint64_t nodes, size_t nsec, uint32_t per, uint64_t want_rows)
{
    rust_case c;
    rust_case_make(&c, tree, nodes, nsec, per);
    cuzk_r1cs_t *r = shape_of(&c.g, 1), *r2 = shape_of(&c.g, 3);
    assert_int_equal(r->num_constraints, want_rows);
    assert_memory_equal(r->identity, r2->identity, 32);
    cuzk_r1cs_free(r2);
    uint32_t parts = (uint32_t)((nsec + per - 1) / per);
    cuzk_fil_post_slot slots[5];
    cuzk_fr_t want[5 * 6];
    for (uint32_t k = 0; k < parts; k++) {
        slots_of(&c, k, slots);
        cuzk_fr_t *z = witness_of(r, &c.g, slots, 1), *z2 = witness_of(r, &c.g, slots, 2);
        uint64_t nv = cuzk_r1cs_num_vars(r), bad = UINT64_MAX;
        assert_memory_equal(z, z2, nv * sizeof *z);
        assert_int_equal(cuzk_r1cs_check(r, z, 1, &bad), CUZK_OK);
        expected_inputs(&c, k, want);
        assert_int_equal(r->num_inputs, 1 + per * 6);
        assert_memory_equal(z + 1, want, per * 6 * sizeof *want);
        /* CHECK mode: the same system and values, no unsatisfied row */
        cuzk_cs *cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
        cuzk_fil_post_synthesize(cs, &c.g, slots, 2);
        cuzk_r1cs_t *rc;
        cuzk_fr_t *zc;
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_cs_finish(cs, &rc, &zc, &err), CUZK_OK);
        assert_memory_equal(rc->identity, r->identity, 32);
        assert_memory_equal(zc, z, nv * sizeof *z);
        cuzk_r1cs_free(rc);
        free(zc);
        free(z);
        free(z2);
    }
    cuzk_r1cs_free(r);
    rust_case_free(&c);
}

static void test_fallback_post_circuit_single_partition(void **state)
{
    (void)state;
    run_rust_case((cuzk_fil_shape){8, 0, 0, 2}, 64, 3, 3, 16869);
    run_rust_case((cuzk_fil_shape){8, 4, 0, 2}, 256, 3, 3, 22674);
    run_rust_case((cuzk_fil_shape){8, 4, 2, 2}, 512, 3, 3, 27384);
    run_rust_case((cuzk_fil_shape){8, 0, 0, 2}, 64, 2, 3, 16869); /* _smaller_base_8: one slot padded */
}

static void test_fallback_post_circuit_two_partitions(void **state)
{
    (void)state;
    run_rust_case((cuzk_fil_shape){8, 0, 0, 2}, 64, 4, 2, 11246);
    run_rust_case((cuzk_fil_shape){8, 0, 0, 2}, 64, 5, 3, 16869); /* _two_partitions_smaller: partition 1 padded */
}

/* A wrong comm_r, a path that leads elsewhere, a path of another tree: named before any key is used. */
static void test_slot_errors(void **state)
{
    (void)state;
    rust_case c;
    rust_case_make(&c, (cuzk_fil_shape){8, 0, 0, 2}, 64, 3, 3);
    cuzk_r1cs_t *r = shape_of(&c.g, 1);
    cuzk_fil_post_slot slots[3];
    slots_of(&c, 0, slots);
    cuzk_errmsg err = {{0}};
    uint8_t other[32];
    memcpy(other, c.sec[0].comm_r, 32);
    other[0] ^= 1;
    slots[1].comm_r = other;
    cuzk_fr_t *z = malloc(cuzk_r1cs_num_vars(r) * sizeof *z);
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, r->num_inputs, r->num_aux);
    assert_int_equal(cuzk_fil_post_synthesize(cs, &c.g, slots, 2), CUZK_ERR_PROOF_INVALID);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_PROOF_INVALID);
    assert_string_equal(err.msg, "block 1: sector slot 1 (sector 1): comm_r is not Poseidon(comm_c, comm_r_last)");
    slots_of(&c, 0, slots);
    ((cuzk_fil_node *)c.m[2 * 5 + 3].siblings)[5][0] ^= 1;
    cs = cuzk_cs_new(CUZK_CS_WITNESS, z, r->num_inputs, r->num_aux);
    cuzk_fil_post_synthesize(cs, &c.g, slots, 1);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_PROOF_INVALID);
    char want[160];
    snprintf(want, sizeof want,
             "block 2: sector slot 2 (sector 2): challenge 3 (leaf %llu): the path does not hash to comm_r_last",
             (unsigned long long)c.m[2 * 5 + 3].leaf_index);
    assert_string_equal(err.msg, want);
    /* CHECK mode names the row too (the value check comes first) */
    cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
    cuzk_fil_post_synthesize(cs, &c.g, slots, 1);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_PROOF_INVALID);
    ((cuzk_fil_node *)c.m[2 * 5 + 3].siblings)[5][0] ^= 1;
    c.m[4].levels = 3;
    cs = cuzk_cs_new(CUZK_CS_WITNESS, z, r->num_inputs, r->num_aux);
    assert_int_equal(cuzk_fil_post_synthesize(cs, &c.g, slots, 1), CUZK_ERR_MISMATCH);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_MISMATCH);
    snprintf(want, sizeof want,
             "sector slot 0: challenge 4: a path of 3 levels to leaf %llu, the tree (8-0-0, 64 leaves) has 2 levels",
             (unsigned long long)c.m[4].leaf_index);
    assert_string_equal(err.msg, want);
    free(z);
    cuzk_r1cs_free(r);
    rust_case_free(&c);
}

/* ---- registered 2 KiB circuits from vanilla proofs --------------------------------------------------------------- */

typedef struct {
    const cuzk_fil_proof *p;
    post_gen_sector sec[3];
    cuzk_fil_post_sector van[3];
    size_t n;
    uint8_t rand[32], prover[32];
    uint32_t partition;
} req_case;

static void req_make(req_case *q, uint32_t id, size_t n, uint32_t partition)
{
    memset(q, 0, sizeof *q);
    q->p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, id);
    assert_non_null(q->p);
    q->n = n;
    q->partition = partition;
    uint64_t st = test_rand_u64();
    post_gen_fr_bytes(&st, q->rand);
    post_gen_fr_bytes(&st, q->prover);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(post_gen_sector_make(&q->sec[i], &q->p->tree_r, q->p->nodes, test_rand_u64(), 100 + 7 * i), 0);
        uint64_t index = (uint64_t)partition * q->p->post_sectors + i;
        if (q->p->kind == CUZK_FIL_KIND_WINNING_POST) index = 0;
        assert_int_equal(post_gen_vanilla(q->p, &q->sec[i], q->rand, index, &q->van[i]), 0);
    }
}

static void req_free(req_case *q)
{
    for (size_t i = 0; i < q->n; i++) {
        post_gen_sector_free(&q->sec[i]);
        cuzk_fil_post_sector_free(&q->van[i]);
    }
}

static cuzk_fil_post_request req_of(const req_case *q)
{
    return (cuzk_fil_post_request){q->p, q->van, q->n, NULL, q->n, q->rand, q->prover, q->partition};
}

static cuzk_fr_t *req_witness(const req_case *q, const cuzk_fil_post_request *rq, uint64_t *nv, cuzk_status want,
                              cuzk_errmsg *err)
{
    cuzk_cs_counts c;
    assert_int_equal(cuzk_fil_circuit_counts(q->p, &c, NULL), CUZK_OK);
    *nv = c.inputs + c.aux;
    cuzk_fr_t *z = malloc(*nv * sizeof *z);
    assert_non_null(z);
    cuzk_status s = cuzk_fil_post_witness(rq, z, *nv, 2, err);
    if (s != want) fail_msg("witness: %s (%s), expected %s", cuzk_status_str(s), err->msg, cuzk_status_str(want));
    return z;
}

/* The public inputs a verifier derives from (sector id, comm_r) pairs, randomness and partition. */
static cuzk_fr_t *verifier_inputs(const req_case *q, size_t *count)
{
    cuzk_fil_post_pub_sector pub[3];
    for (size_t i = 0; i < q->n; i++) {
        pub[i].sector_id = q->sec[i].id;
        memcpy(pub[i].comm_r, q->sec[i].comm_r, 32);
    }
    *count = cuzk_fil_post_public_input_count(q->p);
    cuzk_fr_t *in = malloc(*count * sizeof *in);
    assert_int_equal(cuzk_fil_post_public_inputs(q->p, q->rand, pub, q->n, q->partition, in, NULL), CUZK_OK);
    return in;
}

/* Prove with a test key for the registered circuit's shape (made once per circuit); verify with the verifier's
 * inputs; another randomness's inputs must not verify. */
static void prove_and_verify(uint32_t id, size_t n, uint32_t partition, cuzk_groth16_pk *pk, bool *have_key)
{
    req_case q;
    req_make(&q, id, n, partition);
    cuzk_fil_post_request rq = req_of(&q);
    cuzk_errmsg err = {{0}};
    uint64_t nv;
    cuzk_fr_t *z = req_witness(&q, &rq, &nv, CUZK_OK, &err);
    cuzk_r1cs_t *r;
    assert_int_equal(cuzk_fil_circuit_shape(q.p, 2, &r, &err), CUZK_OK);
    assert_int_equal(cuzk_r1cs_num_vars(r), nv);
    assert_int_equal(cuzk_r1cs_check(r, z, 2, NULL), CUZK_OK);
    size_t ni;
    cuzk_fr_t *in = verifier_inputs(&q, &ni);
    assert_int_equal(ni + 1, r->num_inputs);
    assert_memory_equal(z + 1, in, ni * sizeof *in);

    if (!*have_key) {
        cuzk_groth16_setup_opts so;
        memset(&so, 0, sizeof so);
        so.conv = CUZK_GROTH16_BELLPERSON;
        so.threads = 2;
        assert_int_equal(cuzk_groth16_setup(pk, r, &so, &err), CUZK_OK);
        *have_key = true;
    }
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.threads = 2;
    po.c_mode = CUZK_R1CS_C_CHECKED;
    cuzk_groth16_proof_t proof;
    assert_int_equal(cuzk_groth16_prove(&proof, pk, r, z, &po, NULL, &err), CUZK_OK);
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk->vk);
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof, in, ni), CUZK_OK);
    uint8_t keep = q.rand[0];
    q.rand[0] ^= 1;
    cuzk_fr_t *other = verifier_inputs(&q, &ni);
    q.rand[0] = keep;
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof, other, ni), CUZK_ERR_PROOF_INVALID);
    free(other);
    free(in);
    cuzk_r1cs_free(r);
    free(z);
    req_free(&q);
}

static void test_window_2k_prove_verify(void **state)
{
    (void)state;
    cuzk_groth16_pk pk;
    bool have = false;
    prove_and_verify(5, 2, 0, &pk, &have);  /* StackedDrgWindow2KiBV1, a full partition */
    prove_and_verify(10, 1, 0, &pk, &have); /* StackedDrgWindow2KiBV1_2 (same circuit), one sector padded */
    prove_and_verify(5, 1, 3, &pk, &have);  /* partition 3: API 1.0 challenge indices move with it */
    cuzk_groth16_pk_free(&pk);
}

static void test_winning_2k_prove_verify(void **state)
{
    (void)state;
    cuzk_groth16_pk pk;
    bool have = false;
    prove_and_verify(0, 1, 0, &pk, &have); /* StackedDrgWinning2KiBV1: 66 challenges of 64 leaves */
    cuzk_groth16_pk_free(&pk);
}

static void test_request_errors(void **state)
{
    (void)state;
    req_case q;
    req_make(&q, 5, 2, 0);
    cuzk_errmsg err = {{0}};
    uint64_t nv;
    cuzk_fil_post_request rq = req_of(&q);
    uint64_t ids[2] = {107, 100};
    /* the sectors in another order: found by id, then the leaves follow that order's indices (API 1.0) */
    rq.sector_ids = ids;
    free(req_witness(&q, &rq, &nv, CUZK_ERR_MISMATCH, &err));
    assert_true(strstr(err.msg, "sector 107: inclusion_proofs[") == err.msg);
    assert_true(strstr(err.msg, ", not the challenged leaf") != NULL);
    ids[0] = 5;
    free(req_witness(&q, &rq, &nv, CUZK_ERR_NOT_FOUND, &err));
    assert_string_equal(err.msg, "sector 5: no vanilla proof for it");
    rq = req_of(&q);
    rq.nsectors = 3;
    free(req_witness(&q, &rq, &nv, CUZK_ERR_INVALID_ARG, &err));
    assert_string_equal(err.msg, "StackedDrgWindow2KiBV1 proves 1 or more sectors, up to the circuit's per partition, "
                                 "got 3 (partition 0)");
    rq = req_of(&q);
    rq.nvanilla = 1;
    free(req_witness(&q, &rq, &nv, CUZK_ERR_MISMATCH, &err));
    assert_string_equal(err.msg, "1 vanilla proofs for 2 sectors");
    uint8_t big[32];
    memset(big, 0xff, 32);
    rq = req_of(&q);
    rq.randomness = big;
    free(req_witness(&q, &rq, &nv, CUZK_ERR_NOT_CANONICAL, &err));
    assert_string_equal(err.msg, "randomness is not below r");
    rq = req_of(&q);
    rq.prover_id = big;
    free(req_witness(&q, &rq, &nv, CUZK_ERR_NOT_CANONICAL, &err));
    rq = req_of(&q);
    rq.partition_index = 1; /* API 1.0: other challenge indices */
    free(req_witness(&q, &rq, &nv, CUZK_ERR_MISMATCH, &err));
    rq = req_of(&q);
    cuzk_fr_t z1[4];
    assert_int_equal(cuzk_fil_post_witness(&rq, z1, 4, 1, &err), CUZK_ERR_INVALID_ARG);
    assert_true(strstr(err.msg, "z holds 4 values, the circuit has ") == err.msg);
    rq.proof = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, 5);
    assert_int_equal(cuzk_fil_post_witness(&rq, z1, 4, 1, &err), CUZK_ERR_INVALID_ARG);
    /* WinningPoSt takes one sector */
    rq = req_of(&q);
    rq.proof = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 0);
    assert_int_equal(cuzk_fil_post_witness(&rq, z1, 4, 1, &err), CUZK_ERR_INVALID_ARG);
    assert_string_equal(err.msg, "StackedDrgWinning2KiBV1 proves 1 sector per partition, got 2 (partition 0)");
    req_free(&q);
}

/* Every other byte of a 2 KiB WindowPoSt vanilla proof (a seeded phase) flipped by a random bit: the decoder or the
 * witness rejects each with a named error; none yields a witness. */
static void test_vanilla_byte_flips(void **state)
{
    (void)state;
    req_case q;
    req_make(&q, 5, 2, 0);
    uint8_t *buf;
    size_t len;
    assert_int_equal(post_gen_vanilla_bytes(q.p, &q.sec[1], q.rand, 1, &buf, &len), 0);
    assert_int_equal(len, cuzk_fil_post_sector_bytes(q.p));
    cuzk_cs_counts c;
    assert_int_equal(cuzk_fil_circuit_counts(q.p, &c, NULL), CUZK_OK);
    uint64_t nv = c.inputs + c.aux;
    cuzk_fr_t *z = malloc(nv * sizeof *z);
    cuzk_fil_post_sector van[2] = {q.van[0]};
    unsigned decode_fail = 0, witness_fail = 0;
    size_t tried = 0;
    for (size_t i = test_rand_u64() & 1; i < len; i += 2, tried++) {
        uint8_t bit = (uint8_t)(1u << (test_rand_u64() & 7));
        buf[i] ^= bit;
        cuzk_errmsg err = {{0}};
        cuzk_status s = cuzk_fil_post_sector_decode(q.p, buf, len, &van[1], &err);
        if (s != CUZK_OK) {
            decode_fail++;
        } else {
            cuzk_fil_post_request rq = {q.p, van, 2, NULL, 2, q.rand, q.prover, 0};
            s = cuzk_fil_post_witness(&rq, z, nv, 2, &err);
            cuzk_fil_post_sector_free(&van[1]);
            if (s == CUZK_OK) fail_msg("byte %zu ^ 0x%02x accepted", i, bit);
            witness_fail++;
        }
        assert_true(err.msg[0] != '\0');
        buf[i] ^= bit;
    }
    assert_int_equal(decode_fail + witness_fail, tried);
    assert_true(witness_fail > 0 && decode_fail > 0);
    free(z);
    free(buf);
    req_free(&q);
}

const struct CMUnitTest post_witness_tests[] = {
    cmocka_unit_test(test_fallback_post_circuit_single_partition),
    cmocka_unit_test(test_fallback_post_circuit_two_partitions),
    cmocka_unit_test(test_slot_errors),
    cmocka_unit_test(test_window_2k_prove_verify),
    cmocka_unit_test(test_winning_2k_prove_verify),
    cmocka_unit_test(test_request_errors),
    cmocka_unit_test(test_vanilla_byte_flips),
};
const size_t post_witness_count = sizeof post_witness_tests / sizeof post_witness_tests[0];
