/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Replica id and PoRep challenges: rust-fil-proofs' synthetic-challenge known answers (challenges.rs,
 * test_synth_challenges_against_hardcoded), interactive and NI challenges and replica ids recomputed by an
 * independent implementation (Python hashlib, values below), and the challenge counts of each sector size. */
#include <string.h>

#include "sdr_tests.h"

static void test_synthetic_kat(void **state)
{
    (void)state;
    /* sector_nodes = 2^10, replica_id = Fr(55), comm_r = Fr(101), 21 synthetic challenges, rand = [1; 32] */
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t rid[32] = {55}, comm_r[32] = {101}, rand[32];
    memset(rand, 1, 32);
    for (uint64_t i = 0; i < 21; i++) assert_int_equal(cuzk_fil_sdr_synth_challenge(1024, rid, comm_r, i), synth[i]);
    for (uint64_t j = 0; j < 10; j++) {
        uint64_t idx = cuzk_fil_sdr_synth_index(21, rid, rand, j);
        assert_true(idx < 21);
        assert_int_equal(synth[idx], porep[j]);
    }
    assert_int_equal(cuzk_fil_sdr_synth_count(1024), 1024);
    assert_int_equal(cuzk_fil_sdr_synth_count(1ULL << 30), 1ULL << 18);
    /* the partition API with the default count draws from the same streams */
    uint64_t out[4];
    assert_int_equal(
        cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_SYNTHETIC, 1024, rid, rand, comm_r, 1, 4, out, NULL), CUZK_OK);
    for (unsigned i = 0; i < 4; i++) {
        uint64_t idx = cuzk_fil_sdr_synth_index(1024, rid, rand, 4 + i);
        assert_int_equal(out[i], cuzk_fil_sdr_synth_challenge(1024, rid, comm_r, idx));
    }
}

static void test_interactive(void **state)
{
    (void)state;
    /* replica_id = bytes 0..31 (byte 31 & 0x3f), seed = bytes 100..131, 2^30 nodes, 10 partitions x 18 */
    uint8_t rid[32], seed[32], comm_r[32];
    for (int i = 0; i < 32; i++) rid[i] = (uint8_t)i, seed[i] = (uint8_t)(100 + i), comm_r[i] = (uint8_t)(50 + i);
    rid[31] &= 0x3f;
    uint64_t c[18];
    assert_int_equal(
        cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_INTERACTIVE, 1ULL << 30, rid, seed, NULL, 0, 18, c, NULL),
        CUZK_OK);
    static const uint64_t first[5] = {297432596, 91252850, 304166558, 994907436, 593266742};
    for (int i = 0; i < 5; i++) assert_int_equal(c[i], first[i]);
    assert_int_equal(
        cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_INTERACTIVE, 1ULL << 30, rid, seed, NULL, 9, 18, c, NULL),
        CUZK_OK);
    assert_int_equal(c[17], 587240110); /* j = 179 */
    /* NI: j = 0, 1 of partition 0 and j = 2267 = 125·18 + 17 */
    assert_int_equal(cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_NI, 1ULL << 30, rid, NULL, comm_r, 0, 2, c, NULL),
                     CUZK_OK);
    assert_int_equal(c[0], 740492519);
    assert_int_equal(c[1], 615861609);
    assert_int_equal(
        cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_NI, 1ULL << 30, rid, NULL, comm_r, 125, 18, c, NULL), CUZK_OK);
    assert_int_equal(c[17], 260471946);
    /* challenges are never node 0 */
    for (unsigned k = 0; k < 50; k++) {
        assert_int_equal(
            cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_INTERACTIVE, 2, rid, seed, NULL, k, 18, c, NULL), CUZK_OK);
        for (int i = 0; i < 18; i++) assert_int_equal(c[i], 1);
    }
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_INTERACTIVE, 1, rid, seed, NULL, 0, 1, c, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_challenges((cuzk_fil_sdr_challenge_kind)9, 64, rid, seed, NULL, 0, 1, c, &e),
                     CUZK_ERR_INVALID_ARG);
}

static void test_counts(void **state)
{
    (void)state;
    static const struct {
        uint64_t size;
        cuzk_fil_sdr_challenge_kind kind;
        unsigned parts, per;
    } t[] = {
        {2048, CUZK_FIL_SDR_CHALLENGES_INTERACTIVE, 1, 2},
        {512ULL << 20, CUZK_FIL_SDR_CHALLENGES_SYNTHETIC, 1, 2},
        {2048, CUZK_FIL_SDR_CHALLENGES_NI, 13, 2},
        {32ULL << 30, CUZK_FIL_SDR_CHALLENGES_INTERACTIVE, 10, 18},
        {64ULL << 30, CUZK_FIL_SDR_CHALLENGES_SYNTHETIC, 10, 18},
        {32ULL << 30, CUZK_FIL_SDR_CHALLENGES_NI, 126, 18},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        unsigned parts, per;
        assert_int_equal(cuzk_fil_sdr_challenge_count(t[i].size, t[i].kind, &parts, &per, NULL), CUZK_OK);
        assert_int_equal(parts, t[i].parts);
        assert_int_equal(per, t[i].per);
    }
    unsigned parts, per;
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_challenge_count(1 << 20, CUZK_FIL_SDR_CHALLENGES_NI, &parts, &per, &e),
                     CUZK_ERR_INVALID_ARG);
}

static void test_replica_id(void **state)
{
    (void)state;
    /* the polka-storage 2 KiB seal: prover [0; 32], sector 77, ticket [12; 32], porep_id [0; 32] */
    uint8_t prover[32] = {0}, ticket[32], comm_d[32], porep[32] = {0}, rid[32];
    memset(ticket, 12, 32);
    sdr_hex("129c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421", comm_d, 32);
    cuzk_fil_sdr_replica_id(prover, 77, ticket, comm_d, porep, rid);
    sdr_assert_hex32(rid, "b9a46849a25004df1345838204c76a324d7adb7bbb100cdf323d7996a5ac9b34");
    /* its two challenges for seed [13; 32] (64 nodes) */
    uint8_t seed[32];
    memset(seed, 13, 32);
    uint64_t c[2];
    assert_int_equal(cuzk_fil_sdr_challenges(CUZK_FIL_SDR_CHALLENGES_INTERACTIVE, 64, rid, seed, NULL, 0, 2, c, NULL),
                     CUZK_OK);
    assert_int_equal(c[0], 37);
    assert_int_equal(c[1], 29);
}

const struct CMUnitTest sdr_challenge_tests[] = {
    cmocka_unit_test(test_synthetic_kat),
    cmocka_unit_test(test_interactive),
    cmocka_unit_test(test_counts),
    cmocka_unit_test(test_replica_id),
};
const size_t sdr_challenge_count = sizeof sdr_challenge_tests / sizeof sdr_challenge_tests[0];
