/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The real 32 GiB WindowPoSt sector (tests/fixtures/filecoin, sector 1, randomness 0): its paths hash to comm_r_last,
 * comm_r = Poseidon-2(comm_c, comm_r_last) is the sealed CID's digest, its leaves are the derived challenges, and its
 * witness satisfies one sector slot of the 32 GiB circuit (53,333 rows) in every mode with the public inputs a
 * verifier derives; flipped bytes across the proof (a seeded stride) are each refused. The whole 2,349-slot partition
 * is checked by cuzk-bench post-window-check (125 M rows: a benchmark host's job). */
#include <stdlib.h>
#include <string.h>

#include "post_tests.h"

#define VPROOF CUZK_FIL_FIXTURES "/window-post-32g-sector.vproof"

static const uint8_t rand0[32];

static const cuzk_fil_proof *window32(void)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 8);
    assert_non_null(p);
    return p;
}

/* One slot of the 32 GiB WindowPoSt circuit. */
static cuzk_fil_post_geom one_slot(void)
{
    cuzk_fil_post_geom g;
    assert_int_equal(cuzk_fil_post_geom_of(window32(), &g, NULL), CUZK_OK);
    g.sectors = 1;
    return g;
}

static void test_fixture_hashes(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = post_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = window32();
    cuzk_fil_post_sector s;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_OK);
    /* every path to comm_r_last, comm_r from comm_c and comm_r_last */
    assert_int_equal(cuzk_fil_post_sector_verify(p, &s, &err), CUZK_OK);
    uint8_t comm_r[32];
    assert_int_equal(cuzk_poseidon_comm_r(comm_r, s.comm_c, s.comm_r_last, NULL), CUZK_OK);
    assert_memory_equal(comm_r, s.comm_r, 32);
    /* the leaves are the challenges of sector 1 at index 0 (API 1.0) and under API 1.2 */
    assert_int_equal(cuzk_fil_post_sector_check(p, &s, rand0, 0, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_post_sector_check(cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 13), &s, rand0, 0, &err),
                     CUZK_OK);
    cuzk_fil_post_sector_free(&s);
    free(buf);
}

static cuzk_r1cs_t *slot_shape(void)
{
    cuzk_fil_post_geom g = one_slot();
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    cuzk_fil_post_synthesize(cs, &g, NULL, 2);
    cuzk_r1cs_t *r;
    assert_int_equal(cuzk_cs_finish(cs, &r, NULL, NULL), CUZK_OK);
    return r;
}

/* The fixture in one slot: SHAPE, WITNESS (checked against the shape), CHECK; the inputs are the first slot's of
 * cuzk_fil_post_public_inputs. */
static void test_fixture_satisfies_slot(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = post_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = window32();
    cuzk_fil_post_sector s;
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, NULL), CUZK_OK);
    cuzk_fil_post_geom g = one_slot();
    cuzk_fil_post_slot slot = {s.sector_id, s.comm_r, s.comm_c, s.comm_r_last, s.inclusion};
    cuzk_r1cs_t *r = slot_shape();
    assert_int_equal(r->num_constraints, 53333);
    assert_int_equal(r->num_aux, 54024);
    assert_int_equal(r->num_inputs, 12);
    uint64_t nv = cuzk_r1cs_num_vars(r);
    cuzk_fr_t *z = malloc(nv * sizeof *z);
    cuzk_errmsg err = {{0}};
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, r->num_inputs, r->num_aux);
    cuzk_fil_post_synthesize(cs, &g, &slot, 1);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_OK);
    uint64_t bad = UINT64_MAX;
    assert_int_equal(cuzk_r1cs_check(r, z, 2, &bad), CUZK_OK);
    cuzk_fil_post_pub_sector pub = {s.sector_id, {0}};
    memcpy(pub.comm_r, s.comm_r, 32);
    cuzk_fr_t *in = malloc(cuzk_fil_post_public_input_count(p) * sizeof *in);
    assert_int_equal(cuzk_fil_post_public_inputs(p, rand0, &pub, 1, 0, in, NULL), CUZK_OK);
    assert_memory_equal(z + 1, in, 11 * sizeof *in);
    cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
    cuzk_fil_post_synthesize(cs, &g, &slot, 1);
    cuzk_r1cs_t *rc;
    cuzk_fr_t *zc;
    assert_int_equal(cuzk_cs_finish(cs, &rc, &zc, &err), CUZK_OK);
    assert_memory_equal(rc->identity, r->identity, 32);
    assert_memory_equal(zc, z, nv * sizeof *z);
    /* a corrupted S-box value deep in a path: the row is found and named */
    uint64_t j = r->num_inputs + 20000;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_fr_add(&z[j], &z[j], &one);
    assert_int_equal(cuzk_r1cs_check(r, z, 2, &bad), CUZK_ERR_R1CS_UNSATISFIED);
    cs = cuzk_cs_new(CUZK_CS_WITNESS, NULL, 0, 0);
    assert_int_equal(cuzk_cs_watch_row(cs, bad), CUZK_OK);
    cuzk_fil_post_synthesize(cs, &g, &slot, 1);
    assert_non_null(cuzk_cs_watched(cs));
    assert_true(strstr(cuzk_cs_watched(cs), "sector_0/challenge_inclusion_3/") == cuzk_cs_watched(cs));
    cuzk_cs_free(cs);
    cuzk_r1cs_free(rc);
    free(zc);
    free(in);
    free(z);
    cuzk_r1cs_free(r);
    cuzk_fil_post_sector_free(&s);
    free(buf);
}

/* Flipped bytes at a seeded stride over the whole proof: each is refused by the decoder, by the challenge check or by
 * the slot's witness (hashes), with a message. */
static void test_fixture_byte_flips(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = post_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = window32();
    cuzk_fil_post_geom g = one_slot();
    cuzk_r1cs_t *r = slot_shape();
    cuzk_fr_t *z = malloc(cuzk_r1cs_num_vars(r) * sizeof *z);
    unsigned stride = 13, tried = 0, by[3] = {0, 0, 0};
    for (size_t i = test_rand_u64() % stride; i < len; i += stride) {
        uint8_t bit = (uint8_t)(1u << (test_rand_u64() & 7));
        buf[i] ^= bit;
        cuzk_fil_post_sector s;
        cuzk_errmsg err = {{0}};
        int stage = 0;
        cuzk_status st = cuzk_fil_post_sector_decode(p, buf, len, &s, &err);
        if (st == CUZK_OK) {
            stage = 1;
            st = cuzk_fil_post_sector_check(p, &s, rand0, 0, &err);
            if (st == CUZK_OK) {
                stage = 2;
                cuzk_fil_post_slot slot = {s.sector_id, s.comm_r, s.comm_c, s.comm_r_last, s.inclusion};
                cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, r->num_inputs, r->num_aux);
                cuzk_fil_post_synthesize(cs, &g, &slot, 1);
                st = cuzk_cs_finish(cs, NULL, NULL, &err);
            }
            cuzk_fil_post_sector_free(&s);
        }
        if (st == CUZK_OK) fail_msg("byte %zu ^ 0x%02x accepted", i, bit);
        assert_true(err.msg[0] != '\0');
        by[stage]++;
        tried++;
        buf[i] ^= bit;
    }
    assert_true(tried >= len / stride);
    assert_true(by[2] > 0); /* most flips land in siblings and are caught by the hashes */
    free(z);
    cuzk_r1cs_free(r);
    free(buf);
}

const struct CMUnitTest post_fixture_tests[] = {
    cmocka_unit_test(test_fixture_hashes),
    cmocka_unit_test(test_fixture_satisfies_slot),
    cmocka_unit_test(test_fixture_byte_flips),
};
const size_t post_fixture_count = sizeof post_fixture_tests / sizeof post_fixture_tests[0];
