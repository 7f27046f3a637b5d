/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SHA-256 gadget: bellperson sha256.rs's counts (test_full_block 25,840, test_full_hash 44,874, test_blank_hash 0),
 * digests equal to OpenSSL's for the NIST vectors and random messages of every length test_against_vectors uses,
 * filecoin-hashers' hash2 (45,379 rows, 45,331 aux) with its 254-bit truncation, and CHECK mode naming the row a
 * corrupted value breaks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "testutil.h"
#include "circ_test.h"

typedef struct {
    const uint8_t *msg;
    size_t len;          /* bytes */
    bool compression;    /* one compression of exactly 64 bytes from the IV, no padding */
    bool constant_input; /* the message as constants instead of allocated bits */
    uint8_t digest[32];  /* out: the gadget's digest (WITNESS and CHECK runs) */
    int corrupt_bit;     /* >= 0: after allocating, corrupt this message bit's value (CHECK) */
} sha_ctx;

static void sha_circuit(cuzk_cs *cs, void *p)
{
    sha_ctx *c = p;
    size_t nbits = 8 * c->len;
    cuzk_bit *in = malloc((nbits + 1) * sizeof *in);
    assert_non_null(in);
    for (size_t i = 0; i < nbits; i++) {
        bool v = (c->msg[i / 8] >> (7 - i % 8)) & 1;
        if (c->constant_input) {
            in[i] = cuzk_bit_const(v);
        } else {
            cuzk_cs_pushf(cs, "input bit %zu", i);
            in[i] = cuzk_bit_alloc(cs, v);
            cuzk_cs_pop(cs);
        }
    }
    if (c->corrupt_bit >= 0 && cuzk_cs_has_values(cs)) {
        cuzk_fr_t *v = circ_value(cs, in[c->corrupt_bit].var);
        cuzk_fr_add(v, v, &cs->one);
    }
    cuzk_bit out[256];
    cuzk_cs_push(cs, "sha256");
    if (c->compression) {
        cuzk_u32 iv[8], st[8];
        cuzk_sha256_gadget_iv(iv);
        cuzk_sha256_gadget_compression(cs, in, iv, st);
        for (int i = 0; i < 8; i++) cuzk_u32_into_bits_be(&st[i], out + 32 * i);
    } else {
        cuzk_sha256_gadget(cs, in, nbits, out);
    }
    cuzk_cs_pop(cs);
    memset(c->digest, 0, 32);
    for (int i = 0; i < 256; i++) c->digest[i / 8] |= (uint8_t)(out[i].val << (7 - i % 8));
    free(in);
}

/* FIPS 180-4's compression of one block from the initial state, as the reference for the unpadded gadget. */
static void ref_compress(const uint8_t block[64], uint32_t h[8])
{
    static const uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = ((uint32_t)block[4 * i] << 24) | ((uint32_t)block[4 * i + 1] << 16) | ((uint32_t)block[4 * i + 2] << 8) |
               block[4 * i + 3];
    for (int i = 16; i < 64; i++)
        w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
               (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
    for (int i = 0; i < 8; i++) v[i] = h[i];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (ROR(v[4], 6) ^ ROR(v[4], 11) ^ ROR(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[i] +
                      w[i];
        uint32_t t2 = (ROR(v[0], 2) ^ ROR(v[0], 13) ^ ROR(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        for (int j = 7; j > 0; j--) v[j] = v[j - 1];
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) h[i] += v[i];
#undef ROR
}

/* test_full_block: 512 allocated bits and one compression from the IV: 25,840 rows besides the 512 bits'. */
static void test_compression_count(void **state)
{
    (void)state;
    uint8_t msg[64];
    test_rand_bytes(msg, sizeof msg);
    sha_ctx c = {.msg = msg, .len = 64, .compression = true, .corrupt_bit = -1};
    circ_run run;
    circ_run_all(sha_circuit, &c, &run);
    assert_int_equal(run.r->num_constraints - 512, 25840);
    assert_int_equal(run.r->num_inputs, 1);
    /* the compression's digest without padding: compare with OpenSSL's raw transform */
    uint32_t ref[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    ref_compress(msg, ref);
    for (int i = 0; i < 8; i++) {
        uint32_t w = ((uint32_t)c.digest[4 * i] << 24) | ((uint32_t)c.digest[4 * i + 1] << 16) |
                     ((uint32_t)c.digest[4 * i + 2] << 8) | c.digest[4 * i + 3];
        assert_int_equal(w, ref[i]);
    }
    circ_run_free(&run);
}

/* test_full_hash: sha256 of 512 allocated bits (the padding block all constants): 44,874 rows. */
static void test_full_hash_count(void **state)
{
    (void)state;
    uint8_t msg[64], ref[32];
    test_rand_bytes(msg, sizeof msg);
    sha_ctx c = {.msg = msg, .len = 64, .corrupt_bit = -1};
    circ_run run;
    circ_run_all(sha_circuit, &c, &run);
    assert_int_equal(run.r->num_constraints - 512, 44874);
    SHA256(msg, sizeof msg, ref);
    assert_memory_equal(c.digest, ref, 32);
    circ_run_free(&run);
}

/* test_blank_hash: the padding of the empty message as constants folds to the constant digest, no row at all. */
static void test_blank_hash(void **state)
{
    (void)state;
    sha_ctx c = {.msg = (const uint8_t *)"", .len = 0, .corrupt_bit = -1};
    cuzk_cs_counts n;
    circ_count(sha_circuit, &c, &n);
    assert_int_equal(n.rows, 0);
    assert_int_equal(n.aux, 0);
    static const uint8_t empty[32] = {0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4,
                                      0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b,
                                      0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};
    assert_memory_equal(c.digest, empty, 32);
    /* constants everywhere: any message folds completely */
    c.msg = (const uint8_t *)"abc";
    c.len = 3;
    c.constant_input = true;
    circ_count(sha_circuit, &c, &n);
    assert_int_equal(n.rows, 0);
}

/* FIPS 180-2 examples. */
static void test_nist_vectors(void **state)
{
    (void)state;
    static const char *const msgs[] = {
        "abc",
        "",
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
    };
    static const char *const hex[] = {
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    };
    for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++) {
        sha_ctx c = {.msg = (const uint8_t *)msgs[i], .len = strlen(msgs[i]), .corrupt_bit = -1};
        circ_run run;
        circ_run_all(sha_circuit, &c, &run);
        char got[65];
        for (int k = 0; k < 32; k++) sprintf(got + 2 * k, "%02x", c.digest[k]);
        assert_string_equal(got, hex[i]);
        circ_run_free(&run);
    }
}

/* test_against_vectors: random messages of 0..31 bytes and 32..248 bytes in steps of 8, against OpenSSL; the
 * digest of every WITNESS run (all lengths) and the three modes agreeing on a sample of lengths. */
static void test_random_messages(void **state)
{
    (void)state;
    uint8_t msg[256], ref[32];
    for (size_t len = 0; len < 256; len += len < 32 ? 1 : 8) {
        test_rand_bytes(msg, len);
        SHA256(msg, len, ref);
        sha_ctx c = {.msg = msg, .len = len, .corrupt_bit = -1};
        if (len % 24 == 5 || len == 64 || len == 55 || len == 56) {
            circ_run run;
            circ_run_all(sha_circuit, &c, &run);
            circ_run_free(&run);
        } else {
            cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, NULL, 0, 0);
            sha_circuit(cs, &c);
            assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, NULL), CUZK_OK);
        }
        assert_memory_equal(c.digest, ref, 32);
    }
}

/* A message bit whose value is changed after its boolean row: CHECK names the first row that reads it. */
static void test_check_names_corruption(void **state)
{
    (void)state;
    uint8_t msg[32];
    test_rand_bytes(msg, sizeof msg);
    /* bit 0 of word 1 (message bit 63): first read by w extension 16's s0 (w[1] rotr 7 ...) */
    sha_ctx c = {.msg = msg, .len = 32, .corrupt_bit = 63};
    cuzk_errmsg err = {{0}};
    assert_int_equal(circ_check(sha_circuit, &c, &err), CUZK_ERR_R1CS_UNSATISFIED);
    assert_non_null(strstr(err.msg, "sha256/block 0/w extension 16/"));
    assert_non_null(strstr(err.msg, "xor constraint"));
    /* and the WITNESS flow: cuzk_r1cs_check finds the same row, a watched rerun names it */
    c.corrupt_bit = -1;
    circ_run run;
    circ_run_all(sha_circuit, &c, &run);
    uint32_t j = 63; /* the 64th allocated bit is aux 63: 2 is no bit */
    cuzk_fr_from_u64(&run.z[run.r->num_inputs + j], 2);
    uint64_t bad = 0;
    assert_int_equal(cuzk_r1cs_check(run.r, run.z, 1, &bad), CUZK_ERR_R1CS_UNSATISFIED);
    assert_int_equal(bad, 63); /* its own boolean row comes first */
    char *path = circ_row_path(sha_circuit, &c, bad);
    assert_non_null(path);
    assert_string_equal(path, "input bit 63/boolean constraint");
    free(path);
    circ_run_free(&run);
}

typedef struct {
    cuzk_fr_t a, b, out;
} hash2_ctx;

static void hash2_circuit(cuzk_cs *cs, void *p)
{
    hash2_ctx *h = p;
    cuzk_num a = cuzk_num_alloc(cs, &h->a), b = cuzk_num_alloc(cs, &h->b);
    cuzk_cs_push(cs, "hash2");
    h->out = cuzk_sha256_gadget_hash2(cs, a, b).val;
    cuzk_cs_pop(cs);
}

/* Sha256Function::hash2_circuit (tree-D nodes): 45,379 rows, 45,331 aux (the spec's per-use cost), and the value the
 * native tree takes: SHA-256 of the two 32-byte little-endian values, top two bits cleared. */
static void test_hash2(void **state)
{
    (void)state;
    hash2_ctx h;
    uint8_t buf[64], d[32];
    test_rand_bytes(buf, 64);
    buf[31] &= 0x3f;
    buf[63] &= 0x3f;
    assert_int_equal(cuzk_fr_from_bytes_le(&h.a, buf), CUZK_OK);
    assert_int_equal(cuzk_fr_from_bytes_le(&h.b, buf + 32), CUZK_OK);
    circ_run run;
    circ_run_all(hash2_circuit, &h, &run);
    assert_int_equal(run.r->num_constraints, 45379);
    assert_int_equal(run.r->num_aux - 2, 45331);
    SHA256(buf, 64, d);
    d[31] &= 0x3f;
    cuzk_fr_t want;
    assert_int_equal(cuzk_fr_from_bytes_le(&want, d), CUZK_OK);
    assert_true(cuzk_fr_eq(&want, &h.out));
    circ_run_free(&run);
}

typedef struct {
    uint8_t bytes[64];
    int how; /* 0 compression from the IV, 1 block_no_padding; 2 hash2, 3 to_bits + hash_leaf_bits */
    cuzk_fr_t a, b;
    uint8_t digest[32];
} same_ctx;

static void same_circuit(cuzk_cs *cs, void *p)
{
    same_ctx *c = p;
    if (c->how >= 2) {
        cuzk_num a = cuzk_num_alloc(cs, &c->a), b = cuzk_num_alloc(cs, &c->b);
        cuzk_num r;
        if (c->how == 2) {
            r = cuzk_sha256_gadget_hash2(cs, a, b);
        } else {
            cuzk_bit la[CUZK_NUM_BITS], lb[CUZK_NUM_BITS];
            cuzk_cs_push(cs, "left num into bits");
            cuzk_num_to_bits_le(cs, a, la);
            cuzk_cs_pop(cs);
            cuzk_cs_push(cs, "right num into bits");
            cuzk_num_to_bits_le(cs, b, lb);
            cuzk_cs_pop(cs);
            r = cuzk_sha256_gadget_hash_leaf_bits(cs, la, CUZK_NUM_BITS, lb, CUZK_NUM_BITS);
        }
        cuzk_fr_to_bytes_le(c->digest, &r.val);
        return;
    }
    cuzk_bit in[512], out[256];
    cuzk_bit_alloc_bytes_be(cs, c->bytes, 64, in);
    if (c->how == 1) {
        cuzk_sha256_gadget_block_no_padding(cs, in, out);
    } else {
        cuzk_u32 iv[8], st[8];
        cuzk_sha256_gadget_iv(iv);
        cuzk_sha256_gadget_compression(cs, in, iv, st);
        for (int i = 0; i < 8; i++) cuzk_u32_into_bits_be(&st[i], out + 32 * i);
    }
    memset(c->digest, 0, 32);
    for (int i = 0; i < 256; i++) c->digest[i / 8] |= (uint8_t)(out[i].val << (7 - i % 8));
}

/* sha256_block_no_padding is one compression from the IV (same rows); hash_leaf_circuit (to_bits_le of both sides
 * then hash_leaf_bits_circuit) gives hash2_circuit's rows. */
static void test_same_rows(void **state)
{
    (void)state;
    same_ctx c = {.how = 0};
    test_rand_bytes(c.bytes, 64);
    uint8_t buf[32];
    test_rand_bytes(buf, 32);
    buf[31] &= 0x3f;
    assert_int_equal(cuzk_fr_from_bytes_le(&c.a, buf), CUZK_OK);
    test_rand_bytes(buf, 32);
    buf[31] &= 0x3f;
    assert_int_equal(cuzk_fr_from_bytes_le(&c.b, buf), CUZK_OK);
    for (int pair = 0; pair < 2; pair++) {
        circ_run x, y;
        uint8_t dx[32];
        c.how = 2 * pair;
        circ_run_all(same_circuit, &c, &x);
        memcpy(dx, c.digest, 32);
        c.how = 2 * pair + 1;
        circ_run_all(same_circuit, &c, &y);
        assert_memory_equal(x.r->identity, y.r->identity, 32);
        assert_memory_equal(dx, c.digest, 32);
        circ_run_free(&x);
        circ_run_free(&y);
    }
}

int test_group_sha256(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compression_count),
        cmocka_unit_test(test_full_hash_count),
        cmocka_unit_test(test_blank_hash),
        cmocka_unit_test(test_nist_vectors),
        cmocka_unit_test(test_random_messages),
        cmocka_unit_test(test_check_names_corruption),
        cmocka_unit_test(test_hash2),
        cmocka_unit_test(test_same_rows),
    };
    return cmocka_run_group_tests_name("circuits_sha256", tests, NULL, NULL);
}
