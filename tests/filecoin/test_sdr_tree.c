/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Sector data and tree D: comm_d of all-zero data for every size 32 B .. 2 TiB (lotus zerocomm, rust-fil-proofs
 * pieces.rs), comm_d of a sector whose only non-zero byte is data[0] = 1 (curio treed_build_test.go, 2 KiB and
 * 8 MiB), fr32 padding, paths and the shapes of tree R / tree C. */
#include <stdlib.h>
#include <string.h>

#include "../../src/filecoin/sdr_int.h"
#include "sdr_tests.h"

/* comm_d of zero data, by log2 of the padded size (5 = 32 B ... 41 = 2 TiB) */
static const char *ZERO_COMM_D[] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b",
    "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
    "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",
    "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",
    "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",
    "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",
    "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624",
    "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f",
    "f9226160c8f927bfdcc418cdf203493146008eaefb7d02194d5e548189005108",
    "2c1a964bb90b59ebfe0f6da29ad65ae3e417724a8f7c11745a40cac1e5e74011",
    "fee378cef16404b199ede0b13e11b624ff9d784fbbed878d83297e795e024f02",
    "8e9e2403fa884cf6237f60df25f83ee40dca9ed879eb6f6352d15084f5ad0d3f",
    "752d9693fa167524395476e317a98580f00947afb7a30540d625a9291cc12a07",
    "7022f60f7ef6adfa17117a52619e30cea82c68075adf1c667786ec506eef2d19",
    "d99887b973573a96e11393645236c17b1f4c7034d723c7a99f709bb4da61162b",
    "d0b530dbb0b4f25c5d2f2a28dfee808b53412a02931f18c499f5a254086b1326",
    "84c0421ba0685a01bf795a2344064fe424bd52a9d24377b394ff4c4b4568e811",
    "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c",
    "a2247508285850965b7e334b3127b0c042b1d046dc54402137627cd8799ce13a",
    "dafdab6da9364453c26d33726b9fefe343be8f81649ec009aad3faff50617508",
    "d941d5e0d6314a995c33ffbd4fbe69118d73d4e5fd2cd31f0f7c86ebdd14e706",
    "514c435c3d04d349a5365fbd59ffc713629111785991c1a3c53af22079741a2f",
    "ad06853969d37d34ff08e09f56930a4ad19a89def60cbfee7e1d3381c1e71c37",
    "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06",
    "ccc3c012f5b05e811a2bbfdd0f6833b84275b47bf229c0052a82484f3c1a5b3d",
    "7df29b69773199e8f2b40b77919d048509eed768e2c7297b1f1437034fc3c62c",
    "66ce05a3667552cf45c02bcc4e8392919bdeac35de2ff56271848e9f7b675107",
    "d8610218425ab5e95b1ca6239d29a2e420d706a96f373e2f9c9a91d759d19b01",
    "6d364b1ef846441a5a4a68862314acc0a46f016717e53443e839eedf83c2853c",
    "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e",
    "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02",
    "259d3d6b1f4d876d1185e1123af6f5501af0f67cf15b5216255b7b178d12051d",
    "3f9a4d411da4ef1b36f35ff0a195ae392ab23fee7967b7c41b03d1613fc29239",
    "fe4ef328c61aa39cfdb2484eaa32a151b1fe3dfd1f96dd8c9711fd86d6c58113",
    "f55d68900e2d8381eccb8164cb9976f24b2de0dd61a31b97ce6eb23850d5e819",
    "aaaa8c4cb40aacee1e02dc65424b2a6c8e99f803b72f7929c4101d7fae6bff32",
};

static void test_zero_comm_d(void **state)
{
    (void)state;
    for (unsigned k = 5; k <= 41; k++) {
        uint8_t d[32];
        assert_int_equal(cuzk_fil_sdr_zero_comm_d(1ULL << k, d, NULL), CUZK_OK);
        sdr_assert_hex32(d, ZERO_COMM_D[k - 5]);
    }
    /* and the tree over real zero leaves agrees, whole and root-only */
    uint8_t *zero = calloc(1 << 15, 32), *tree = malloc(((2u << 15) - 1) * 32), root[32];
    assert_non_null(zero), assert_non_null(tree);
    assert_int_equal(cuzk_fil_sdr_tree_d(zero, 1 << 15, tree, root, 2, NULL), CUZK_OK);
    sdr_assert_hex32(root, ZERO_COMM_D[20 - 5]);
    assert_int_equal(cuzk_fil_sdr_tree_d(zero, 1 << 15, NULL, root, 2, NULL), CUZK_OK);
    sdr_assert_hex32(root, ZERO_COMM_D[20 - 5]);
    free(zero), free(tree);
    cuzk_errmsg e;
    uint8_t d[32];
    assert_int_equal(cuzk_fil_sdr_zero_comm_d(16, d, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_zero_comm_d(96, d, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_zero_comm_d(1ULL << 62, d, &e), CUZK_ERR_INVALID_ARG);
}

/* The multihash digest inside a piece CID ("baga6ea4seaq..."): base32 (RFC 4648 lower case, no padding) after the
 * multibase prefix 'b'; the last 32 bytes are the commitment. */
static void cid_commitment(const char *cid, uint8_t out[32])
{
    assert_int_equal(cid[0], 'b');
    uint8_t bytes[64];
    size_t n = 0;
    unsigned acc = 0, bits = 0;
    for (const char *c = cid + 1; *c; c++) {
        unsigned v = *c >= 'a' && *c <= 'z' ? (unsigned)(*c - 'a') : (unsigned)(*c - '2' + 26);
        acc = acc << 5 | v, bits += 5;
        if (bits >= 8) bytes[n++] = (uint8_t)(acc >> (bits - 8)), bits -= 8;
    }
    assert_true(n >= 32);
    memcpy(out, bytes + n - 32, 32);
}

static void test_tree_d_kats(void **state)
{
    (void)state;
    static const struct {
        uint64_t size;
        const char *cid;
    } kat[] = {
        {2048, "baga6ea4seaqovgk4kr4eoifujh6jfmdqvw3m6zrvyjqzu6s6abkketui6jjoydi"},
        {8ULL << 20, "baga6ea4seaqcgqckrcapts6hea44xbqugwocqneekvyp5fizbo6u3e2biluckla"},
    };
    for (size_t i = 0; i < 2; i++) {
        uint8_t *data = calloc(kat[i].size, 1), root[32], want[32];
        assert_non_null(data);
        data[0] = 1;
        cid_commitment(kat[i].cid, want);
        assert_int_equal(cuzk_fil_sdr_tree_d(data, kat[i].size / 32, NULL, root, 2, NULL), CUZK_OK);
        assert_memory_equal(root, want, 32);
        free(data);
    }
    uint8_t want[32];
    cid_commitment("baga6ea4seaqcgqckrcapts6hea44xbqugwocqneekvyp5fizbo6u3e2biluckla", want);
    sdr_assert_hex32(want, "23404a8880f9cbc72039cb8614359c2834845570fe95190bbd4d934142e8252c");
}

/* the stored tree: levels bottom-up, each node SHA-256 of its two children truncated; paths lead to the root */
static void test_tree_d_layout_and_paths(void **state)
{
    (void)state;
    uint64_t n = 256;
    uint8_t *leaves = malloc(n * 32), *tree = malloc((2 * n - 1) * 32), root[32], root2[32];
    assert_non_null(leaves), assert_non_null(tree);
    test_rand_bytes(leaves, n * 32);
    for (uint64_t v = 0; v < n; v++) leaves[v * 32 + 31] &= 0x3f;
    assert_int_equal(cuzk_fil_sdr_tree_d(leaves, n, tree, root, 1, NULL), CUZK_OK);
    assert_int_equal(cuzk_fil_sdr_tree_d(leaves, n, NULL, root2, 3, NULL), CUZK_OK);
    assert_memory_equal(root, root2, 32);
    assert_memory_equal(tree + (2 * n - 2) * 32, root, 32);
    uint8_t h[32];
    cuzk_fil_sdr_sha256(tree, 64, h);
    h[31] &= 0x3f;
    assert_memory_equal(tree + n * 32, h, 32);
    for (uint64_t leaf = 0; leaf < n; leaf += 17) {
        uint8_t sib[8][32], cur[32], pair[64];
        assert_int_equal(cuzk_fil_sdr_tree_d_path(tree, n, leaf, sib, NULL), CUZK_OK);
        memcpy(cur, leaves + leaf * 32, 32);
        for (unsigned k = 0, idx = (unsigned)leaf; k < 8; k++, idx /= 2) {
            memcpy(pair + (idx & 1 ? 32 : 0), cur, 32);
            memcpy(pair + (idx & 1 ? 0 : 32), sib[k], 32);
            cuzk_fil_sdr_sha256(pair, 64, cur);
            cur[31] &= 0x3f;
        }
        assert_memory_equal(cur, root, 32);
    }
    cuzk_errmsg e;
    uint8_t sib[8][32];
    assert_int_equal(cuzk_fil_sdr_tree_d_path(tree, n, n, sib, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_tree_d(leaves, 96, NULL, root, 1, &e), CUZK_ERR_INVALID_ARG);
    free(leaves), free(tree);
}

static void test_fr32(void **state)
{
    (void)state;
    /* all-ones input: every node holds 254 ones and two zero bits */
    uint8_t in[254], out[256], back[254];
    memset(in, 0xff, sizeof in);
    cuzk_fil_sdr_fr32_pad(in, sizeof in, out);
    for (int v = 0; v < 8; v++) {
        for (int i = 0; i < 31; i++) assert_int_equal(out[32 * v + i], 0xff);
        assert_int_equal(out[32 * v + 31], 0x3f);
    }
    /* a single bit lands where the 254-bit packing puts it: input bit 254 is bit 0 of node 1 */
    memset(in, 0, sizeof in);
    in[31] = 0x40;
    cuzk_fil_sdr_fr32_pad(in, 127, out);
    for (int i = 0; i < 128; i++) assert_int_equal(out[i], i == 32 ? 1 : 0);
    for (int r = 0; r < 20; r++) {
        test_rand_bytes(in, sizeof in);
        cuzk_fil_sdr_fr32_pad(in, sizeof in, out);
        assert_true(cuzk_fil_sdr_fr32_unpad(out, sizeof out, back));
        assert_memory_equal(in, back, sizeof in);
    }
    out[63] |= 0x40;
    assert_false(cuzk_fil_sdr_fr32_unpad(out, sizeof out, back));
}

static void test_fr_add(void **state)
{
    (void)state;
    /* r − 1 + 2 = 1; a value ≥ r is refused */
    uint8_t rm1[32], two[32] = {2}, out[32], one[32] = {1};
    sdr_hex("00000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73", rm1, 32);
    assert_true(cuzk_fil_sdr_fr_add_le(out, rm1, two));
    assert_memory_equal(out, one, 32);
    uint8_t r[32];
    memcpy(r, rm1, 32);
    r[0] = 1;
    assert_false(cuzk_fil_sdr_fr_add_le(out, r, two));
    assert_true(cuzk_fil_sdr_fr_is_canonical_le(rm1));
    assert_false(cuzk_fil_sdr_fr_is_canonical_le(r));
}

/* tree R / tree C shapes as rust-fil-proofs lays them out (filecoin-proofs constants.rs SectorShape*) */
static void test_shapes(void **state)
{
    (void)state;
    cuzk_fil_sdr_shape s;
    assert_int_equal(cuzk_fil_sdr_shape_of(2048, &s, NULL), CUZK_OK);
    assert_true(s.base == 8 && s.sub == 0 && s.top == 0);
    assert_int_equal(cuzk_fil_sdr_tree_len(s, 64), 64 + 8 + 1);
    assert_int_equal(cuzk_fil_sdr_shape_of(32ULL << 30, &s, NULL), CUZK_OK);
    assert_true(s.base == 8 && s.sub == 8 && s.top == 0);
    /* 2^30 leaves: 8 base trees of 8^9 leaves, their roots hashed by 8 */
    uint64_t len = 0, cur = 1ULL << 30;
    for (int i = 0; i <= 10; i++, cur /= 8) len += cur;
    assert_int_equal(cuzk_fil_sdr_tree_len(s, 1ULL << 30), len);
    assert_int_equal(cuzk_fil_sdr_shape_of(64ULL << 30, &s, NULL), CUZK_OK);
    assert_true(s.base == 8 && s.sub == 8 && s.top == 2);
    assert_int_equal(cuzk_fil_sdr_shape_of(4096, &s, NULL), CUZK_OK);
    assert_true(s.base == 8 && s.sub == 2 && s.top == 0);
    assert_int_equal(cuzk_fil_sdr_tree_len(s, 128), 128 + 16 + 2 + 1);
    assert_int_equal(cuzk_fil_sdr_tree_len(s, 96), 0);
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_shape_of(3000, &s, &e), CUZK_ERR_INVALID_ARG);
}

const struct CMUnitTest sdr_tree_tests[] = {
    cmocka_unit_test(test_zero_comm_d),
    cmocka_unit_test(test_tree_d_kats),
    cmocka_unit_test(test_tree_d_layout_and_paths),
    cmocka_unit_test(test_fr32),
    cmocka_unit_test(test_fr_add),
    cmocka_unit_test(test_shapes),
};
const size_t sdr_tree_count = sizeof sdr_tree_tests / sizeof sdr_tree_tests[0];
