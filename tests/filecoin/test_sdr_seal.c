/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The test sealer against two whole 2 KiB seals made by polka-storage with filecoin-proofs 18.1 (porep_id [0; 32],
 * API V1_2), both over the piece tests/fixtures/filecoin/polka-storage-test-data-big.car (2,032 bytes = a full
 * 2 KiB sector before fr32 padding):
 *   1. prover [0; 32], sector 77, ticket [12; 32] → comm_d 129c7562…, comm_r 4afb35f8… (pallets/proofs tests)
 *   2. prover and ticket of the //Charlie account, sector 1 → the sealed CID bagboea4b5abca… (maat real_world.rs)
 * comm_d, replica id, the replica and comm_r are checked. */
#include <stdlib.h>
#include <string.h>

#include "../../src/filecoin/sdr_int.h"
#include "cuzk/circuits.h"
#include "sdr_tests.h"

static const char COMM_D[] = "129c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421";

static void seal_params(cuzk_fil_sdr_seal_params *p)
{
    memset(p, 0, sizeof *p);
    p->sector_size = 2048;
    p->api = CUZK_FIL_SDR_API_V1_2;
    p->threads = 2;
}

static void check_replica(const cuzk_fil_sdr_replica *r, const char *comm_r)
{
    sdr_assert_hex32(r->comm_d, COMM_D);
    assert_int_equal(r->nodes, 64);
    assert_int_equal(r->layers, 2);
    /* the replica is data + last label, node by node */
    for (uint64_t v = 0; v < 64; v++) {
        uint8_t sum[32];
        assert_true(cuzk_fil_sdr_fr_add_le(sum, r->data + v * 32, cuzk_fil_sdr_replica_label(r, 2, v)));
        assert_memory_equal(sum, r->replica + v * 32, 32);
    }
    sdr_assert_hex32(r->comm_r, comm_r);
}

static void test_polka_seal_1(void **state)
{
    (void)state;
    size_t len;
    uint8_t *car = sdr_fixture("polka-storage-test-data-big.car", &len);
    assert_int_equal(len, 2032);
    cuzk_fil_sdr_seal_params p;
    seal_params(&p);
    p.sector_id = 77;
    memset(p.ticket, 12, 32);
    cuzk_fil_sdr_replica r;
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_seal(&p, car, len, &r, &e), CUZK_OK);
    sdr_assert_hex32(r.replica_id, "b9a46849a25004df1345838204c76a324d7adb7bbb100cdf323d7996a5ac9b34");
    check_replica(&r, "4afb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950");
    cuzk_fil_sdr_replica_free(&r);
    free(car);
}

static void test_polka_seal_2(void **state)
{
    (void)state;
    size_t len;
    uint8_t *car = sdr_fixture("polka-storage-test-data-big.car", &len);
    /* polka-storage (at the commit that made the sealed CID, dbeb65ae): prover id = BLAKE2b-256(account) with byte
     * 31 &= 0x3f, ticket = BLAKE2b-256(tag 1 as i64 BE ‖ 32 zero bytes ‖ block 20 as u64 BE ‖ account), unmasked;
     * the account is //Charlie's sr25519 public key */
    uint8_t account[32], msg[80];
    sdr_hex("90b5ab205c6974c9ea841be688864633dc9ca8a357843eeacf2314649965fe22", account, 32);
    cuzk_fil_sdr_seal_params p;
    seal_params(&p);
    p.sector_id = 1;
    assert_true(cuzk_fil_sdr_blake2b(p.prover_id, 32, NULL, 0, account, 32));
    p.prover_id[31] &= 0x3f;
    memset(msg, 0, sizeof msg);
    msg[7] = 1;
    msg[47] = 20;
    memcpy(msg + 48, account, 32);
    assert_true(cuzk_fil_sdr_blake2b(p.ticket, 32, NULL, 0, msg, sizeof msg));
    sdr_assert_hex32(p.prover_id, "77d14a2289dda9bbb32dd9313db096ef628101ac5bbb3b19301ede2c61915b09");
    sdr_assert_hex32(p.ticket, "71145bb466d9f965f739d2421de5635c994a6817b8f059ed0c14ae4471de4588");
    cuzk_fil_sdr_replica r;
    assert_int_equal(cuzk_fil_sdr_seal(&p, car, len, &r, NULL), CUZK_OK);
    sdr_assert_hex32(r.replica_id, "523e6dda9bc03585565337477f67fe11ceb9193f19cc14a2d4d6ba743e136d3f");
    /* comm_r from the sealed CID bagboea4b5abcaqolcsygu5o756srf7l4pzzagml5r3wa3o6ahoo5vixummsev6rf */
    check_replica(&r, "41cb14b06a75dfefa512fd7c7e7203317d8eec0dbbc03b9ddaa2f463244afa25");
    cuzk_fil_sdr_replica_free(&r);
    free(car);
}

/* what the sealer keeps is consistent: tree D's root is comm_d, labels are those of label_layer, data is the
 * fr32-padded input zero-filled */
static void test_seal_parts(void **state)
{
    (void)state;
    uint8_t in[300];
    test_rand_bytes(in, sizeof in);
    cuzk_fil_sdr_seal_params p;
    seal_params(&p);
    p.sector_size = 4096;
    p.api = CUZK_FIL_SDR_API_V1_0;
    test_rand_bytes(p.porep_id, 32);
    test_rand_bytes(p.prover_id, 32);
    test_rand_bytes(p.ticket, 32);
    p.sector_id = test_rand_u64();
    cuzk_fil_sdr_replica r;
    assert_int_equal(cuzk_fil_sdr_seal(&p, in, sizeof in, &r, NULL), CUZK_OK);
    assert_memory_equal(r.tree_d + (2 * 128 - 2) * 32, r.comm_d, 32);
    uint8_t padded[128 * 3] = {0}, group[127 * 3] = {0};
    memcpy(group, in, sizeof in);
    cuzk_fil_sdr_fr32_pad(group, sizeof group, padded);
    assert_memory_equal(r.data, padded, sizeof padded);
    for (size_t i = sizeof padded; i < 4096; i++) assert_int_equal(r.data[i], 0);
    uint8_t rid[32];
    cuzk_fil_sdr_replica_id(p.prover_id, p.sector_id, p.ticket, r.comm_d, p.porep_id, rid);
    assert_memory_equal(rid, r.replica_id, 32);
    uint8_t *l1 = malloc(4096);
    assert_int_equal(cuzk_fil_sdr_label_layer(&r.cache, rid, 1, NULL, l1, 1, NULL), CUZK_OK);
    assert_memory_equal(l1, cuzk_fil_sdr_replica_label(&r, 1, 0), 4096);
    assert_null(cuzk_fil_sdr_replica_label(&r, 3, 0));
    assert_null(cuzk_fil_sdr_replica_label(&r, 1, 128));
    free(l1);
    cuzk_fil_sdr_replica_free(&r);

    /* an empty sector: comm_d is the zero comm_d */
    p.sector_size = 2048;
    assert_int_equal(cuzk_fil_sdr_seal(&p, NULL, 0, &r, NULL), CUZK_OK);
    uint8_t z[32];
    assert_int_equal(cuzk_fil_sdr_zero_comm_d(2048, z, NULL), CUZK_OK);
    assert_memory_equal(r.comm_d, z, 32);
    cuzk_fil_sdr_replica_free(&r);
}

/* tree C's leaves are the column hashes, every path of tree C and tree R leads to its root, and the roots are the
 * circuits layer's Poseidon tree roots */
static void test_seal_trees(void **state)
{
    (void)state;
    cuzk_fil_sdr_seal_params p;
    seal_params(&p);
    p.sector_size = 4096; /* shape 8-2-0: two base trees of 64 leaves */
    test_rand_bytes(p.porep_id, 32);
    p.api = CUZK_FIL_SDR_API_V1_1;
    cuzk_fil_sdr_replica r;
    assert_int_equal(cuzk_fil_sdr_seal(&p, NULL, 0, &r, NULL), CUZK_OK);
    cuzk_poseidon_tree_shape sh = {8, 2, 0};
    uint8_t root[32];
    assert_int_equal(cuzk_poseidon_tree_root(root, r.replica, 128, &sh, 1, NULL), CUZK_OK);
    assert_memory_equal(root, r.comm_r_last, 32);
    assert_int_equal(cuzk_poseidon_tree_root(root, r.tree_c, 128, &sh, 1, NULL), CUZK_OK);
    assert_memory_equal(root, r.comm_c, 32);
    uint8_t rows[2][32], h[32];
    for (uint64_t leaf = 0; leaf < 128; leaf += 13) {
        assert_true(cuzk_fil_sdr_replica_column(&r, leaf, rows));
        assert_int_equal(cuzk_fil_sdr_poseidon(2, (const uint8_t(*)[32])rows, h, NULL), CUZK_OK);
        assert_memory_equal(h, r.tree_c + leaf * 32, 32);
        for (int t = 0; t < 2; t++) {
            const uint8_t *tree = t ? r.tree_r : r.tree_c, *root = t ? r.comm_r_last : r.comm_c;
            uint8_t sib[8 * 7][32], group[8][32], cur[32];
            unsigned pos[8], levels;
            assert_int_equal(cuzk_fil_sdr_tree_path(r.shape, tree, 128, leaf, sib, pos, &levels, NULL), CUZK_OK);
            assert_int_equal(levels, 3);
            memcpy(cur, tree + leaf * 32, 32);
            unsigned at = 0;
            for (unsigned l = 0; l < levels; l++) {
                unsigned arity = l < 2 ? 8 : 2;
                for (unsigned k = 0, s = 0; k < arity; k++) memcpy(group[k], k == pos[l] ? cur : sib[at + s++], 32);
                at += arity - 1;
                assert_int_equal(cuzk_fil_sdr_poseidon(arity, (const uint8_t(*)[32])group, cur, NULL), CUZK_OK);
            }
            assert_memory_equal(cur, root, 32);
        }
    }
    assert_false(cuzk_fil_sdr_replica_column(&r, 128, rows));
    cuzk_fil_sdr_replica_free(&r);
}

static void test_seal_rejects(void **state)
{
    (void)state;
    cuzk_fil_sdr_seal_params p;
    seal_params(&p);
    cuzk_fil_sdr_replica r;
    cuzk_errmsg e;
    uint8_t big[2033] = {0};
    assert_int_equal(cuzk_fil_sdr_seal(&p, big, sizeof big, &r, &e), CUZK_ERR_TOO_LARGE);
    assert_non_null(strstr(e.msg, "holds 2032"));
    assert_null(r.data);
    p.sector_size = 3072;
    assert_int_equal(cuzk_fil_sdr_seal(&p, NULL, 0, &r, &e), CUZK_ERR_INVALID_ARG);
    p.sector_size = 32ULL << 30;
    assert_int_equal(cuzk_fil_sdr_seal(&p, NULL, 0, &r, &e), CUZK_ERR_INVALID_ARG);
    p.sector_size = 1024;
    assert_int_equal(cuzk_fil_sdr_seal(&p, NULL, 0, &r, &e), CUZK_ERR_INVALID_ARG);
    p.sector_size = 2048;
    p.api = (cuzk_fil_sdr_api)5;
    assert_int_equal(cuzk_fil_sdr_seal(&p, NULL, 0, &r, &e), CUZK_ERR_INVALID_ARG);
    p.api = CUZK_FIL_SDR_API_V1_1;
    assert_int_equal(cuzk_fil_sdr_seal(&p, NULL, 5, &r, &e), CUZK_ERR_INVALID_ARG);
}

const struct CMUnitTest sdr_seal_tests[] = {
    cmocka_unit_test(test_polka_seal_1), cmocka_unit_test(test_polka_seal_2), cmocka_unit_test(test_seal_parts),
    cmocka_unit_test(test_seal_trees),   cmocka_unit_test(test_seal_rejects),
};
const size_t sdr_seal_count = sizeof sdr_seal_tests / sizeof sdr_seal_tests[0];
