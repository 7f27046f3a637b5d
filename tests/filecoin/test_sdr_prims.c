/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SDR primitives: SHA-256 (both block functions against OpenSSL), BLAKE2b (RFC 7693, OpenSSL, the Feistel fast
 * path), ChaCha (8-round vectors of draft-strombergson-chacha-test-vectors, RFC 8439 against OpenSSL) and the
 * rand_chacha generator (its own documented outputs, and u32/u64 draws across buffer refills). */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <string.h>

#include "../../src/filecoin/sdr_int.h"
#include "sdr_tests.h"

static void openssl_digest(const char *name, const uint8_t *p, size_t n, uint8_t *out)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    assert_int_equal(EVP_DigestInit_ex(c, EVP_get_digestbyname(name), NULL), 1);
    EVP_DigestUpdate(c, p, n);
    unsigned len;
    EVP_DigestFinal_ex(c, out, &len);
    EVP_MD_CTX_free(c);
}

static void test_sha256_known(void **state)
{
    (void)state;
    uint8_t d[32];
    cuzk_fil_sdr_sha256("abc", 3, d);
    sdr_assert_hex32(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    cuzk_fil_sdr_sha256("", 0, d);
    sdr_assert_hex32(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_sha256_against_openssl(void **state)
{
    (void)state;
    uint8_t buf[600], a[32], b[32];
    for (size_t n = 0; n <= sizeof buf; n += 1 + n / 16) {
        test_rand_bytes(buf, n);
        cuzk_fil_sdr_sha256(buf, n, a);
        openssl_digest("SHA256", buf, n, b);
        assert_memory_equal(a, b, 32);
        /* streaming in uneven pieces */
        cuzk_fil_sdr_sha256_ctx c;
        cuzk_fil_sdr_sha256_init(&c);
        for (size_t at = 0; at < n;) {
            size_t take = 1 + test_rand_u64() % 70;
            if (take > n - at) take = n - at;
            cuzk_fil_sdr_sha256_update(&c, buf + at, take);
            at += take;
        }
        cuzk_fil_sdr_sha256_final(&c, a);
        assert_memory_equal(a, b, 32);
    }
}

static void test_sha256_block_paths_agree(void **state)
{
    (void)state;
    if (!cuzk_fil_sdr_sha256_have_ni()) skip();
    uint8_t blocks[64 * 21];
    for (int r = 0; r < 50; r++) {
        test_rand_bytes(blocks, sizeof blocks);
        uint32_t h1[8], h2[8];
        for (int i = 0; i < 8; i++) h1[i] = h2[i] = (uint32_t)test_rand_u64();
        size_t n = 1 + test_rand_u64() % 21;
        cuzk_fil_sdr_sha256_blocks(h1, blocks, n);
        cuzk_fil_sdr_sha256_blocks_portable(h2, blocks, n);
        assert_memory_equal(h1, h2, sizeof h1);
    }
}

static void test_blake2b_rfc7693(void **state)
{
    (void)state;
    /* RFC 7693 appendix A: BLAKE2b-512("abc") */
    uint8_t d[64], want[64];
    sdr_hex("ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923",
            want, 64);
    assert_true(cuzk_fil_sdr_blake2b(d, 64, NULL, 0, "abc", 3));
    assert_memory_equal(d, want, 64);
    assert_false(cuzk_fil_sdr_blake2b(d, 0, NULL, 0, "abc", 3));
    assert_false(cuzk_fil_sdr_blake2b(d, 65, NULL, 0, "abc", 3));
    assert_false(cuzk_fil_sdr_blake2b(d, 32, want, 65, "abc", 3));
}

static void test_blake2b_against_openssl(void **state)
{
    (void)state;
    uint8_t buf[400], key[64], a[64], b[64];
    for (size_t n = 0; n <= sizeof buf; n += 1 + n / 8) {
        test_rand_bytes(buf, n);
        assert_true(cuzk_fil_sdr_blake2b(a, 64, NULL, 0, buf, n));
        openssl_digest("BLAKE2B-512", buf, n, b);
        assert_memory_equal(a, b, 64);
        /* keyed, 32-byte output, as the synthetic challenges use it (OpenSSL's BLAKE2BMAC) */
        size_t kl = 1 + test_rand_u64() % 64;
        test_rand_bytes(key, kl);
        assert_true(cuzk_fil_sdr_blake2b(a, 32, key, kl, buf, n));
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
        assert_non_null(mac);
        EVP_MAC_CTX *mc = EVP_MAC_CTX_new(mac);
        size_t outlen = 32;
        OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &outlen), OSSL_PARAM_construct_end()};
        assert_int_equal(EVP_MAC_init(mc, key, kl, params), 1);
        EVP_MAC_update(mc, buf, n);
        size_t got;
        assert_int_equal(EVP_MAC_final(mc, b, &got, sizeof b), 1);
        assert_int_equal(got, 32);
        EVP_MAC_CTX_free(mc);
        EVP_MAC_free(mac);
        assert_memory_equal(a, b, 32);
    }
}

static void test_blake2b_feistel_fast_path(void **state)
{
    (void)state;
    for (int r = 0; r < 200; r++) {
        uint64_t right = test_rand_u64() >> (test_rand_u64() % 64), key = test_rand_u64();
        uint8_t msg[16], d[64];
        cuzk_store_be64(msg, right);
        cuzk_store_be64(msg + 8, key);
        cuzk_fil_sdr_blake2b(d, 64, NULL, 0, msg, 16);
        uint64_t want = 0;
        for (int i = 0; i < 8; i++) want = want << 8 | d[i];
        assert_int_equal(cuzk_fil_sdr_blake2b_feistel(right, key), want);
    }
}

static void keystream(const uint8_t key[32], const uint8_t iv[8], unsigned rounds, uint8_t *out, size_t len)
{
    uint32_t k[8], blk[16];
    for (int i = 0; i < 8; i++)
        k[i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 | (uint32_t)key[4 * i + 2] << 16 |
               (uint32_t)key[4 * i + 3] << 24;
    uint32_t n0 = (uint32_t)iv[0] | (uint32_t)iv[1] << 8 | (uint32_t)iv[2] << 16 | (uint32_t)iv[3] << 24;
    uint32_t n1 = (uint32_t)iv[4] | (uint32_t)iv[5] << 8 | (uint32_t)iv[6] << 16 | (uint32_t)iv[7] << 24;
    for (size_t b = 0; b * 64 < len; b++) {
        cuzk_fil_sdr_chacha_block(k, (uint32_t)b, 0, n0, n1, rounds, blk);
        for (size_t i = 0; i < 64 && b * 64 + i < len; i++) out[b * 64 + i] = (uint8_t)(blk[i / 4] >> (8 * (i % 4)));
    }
}

/* draft-strombergson-chacha-test-vectors, 256-bit keys, 8 rounds (64-bit counter and IV, the rand_chacha layout) */
static void test_chacha8_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *key, *iv, *stream;
    } tc[] = {
        {"0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
         "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f445367456d5619"
         "314a42a3da86b001387bfdb80e0cfe42d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
         "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa"},
        {"0100000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
         "cf5ee9a0494aa9613e05d5ed725b804b12f4a465ee635acc3a311de8740489ea289d04f43c7518db56eb4433e498a123"
         "8cd8464d3763ddbb9222ee3bd8fae3c8b4355a7d93dd8867089ee643558b95754efa2bd1a8a1e2d75bcdb32015542638"
         "291941feb49965587c4fdfe219cf0ec132a6cd4dc067392e67982fe53278c0b4"},
        {"c46ec1b18ce8a878725a37e780dfb7351f68ed2e194c79fbc6aebee1a667975d", "1ada31d5cf688221",
         "838751b42d8ddd8a3d77f48825a2ba752cf4047cb308a5978ef274973be374c96ad848065871417b08f034e681fe46a9"
         "3f7d5c61d1306614d4aaf257a7cff08b16f2fda170cc18a4b58a2667ed962774af792a6e7f3c77992540711a7a136d7e"
         "8a2f8d3f93816709d45a3fa5f8ce72fde15be7b841acba3a2abd557228d9fe4f"},
    };
    for (size_t i = 0; i < sizeof tc / sizeof tc[0]; i++) {
        uint8_t key[32], iv[8], want[128], got[128];
        sdr_hex(tc[i].key, key, 32);
        sdr_hex(tc[i].iv, iv, 8);
        sdr_hex(tc[i].stream, want, 128);
        keystream(key, iv, 8, got, 128);
        assert_memory_equal(got, want, 128);
    }
}

static void test_chacha20_ietf_against_openssl(void **state)
{
    (void)state;
    for (int r = 0; r < 20; r++) {
        uint8_t key[32], nonce[12], iv[16] = {0}, zero[300] = {0}, a[300], b[300];
        test_rand_bytes(key, 32);
        test_rand_bytes(nonce, 12);
        memcpy(iv + 4, nonce, 12); /* OpenSSL: 32-bit LE counter (0) then the nonce */
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
        assert_int_equal(EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv), 1);
        int n;
        EVP_EncryptUpdate(c, b, &n, zero, sizeof zero);
        EVP_CIPHER_CTX_free(c);
        size_t off = test_rand_u64() % 200, len = test_rand_u64() % (sizeof zero - off);
        cuzk_fil_sdr_chacha20_ietf_stream(key, nonce, off, a, len);
        assert_memory_equal(a, b + off, len);
    }
}

/* rand_chacha 0.3's ChaCha20Rng tests (chacha.rs): next_u32 over fresh generators */
static void test_chacharng_documented(void **state)
{
    (void)state;
    cuzk_fil_sdr_chacharng r;
    uint8_t seed[32] = {0};
    static const uint32_t a1[16] = {0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653, 0xb819d2bd, 0x1aed8da0,
                                    0xccef36a8, 0xc70d778b, 0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8,
                                    0xf4b8436a, 0x1ca11815, 0x69b687c3, 0x8665eeb2};
    static const uint32_t a2[16] = {0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73, 0xa0290fcb, 0x6965e348,
                                    0x3e53c612, 0xed7aee32, 0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874,
                                    0x281fed31, 0x45fb0a51, 0x1f0ae1ac, 0x6f4d794b};
    cuzk_fil_sdr_chacharng_seed(&r, seed, 20);
    for (int i = 0; i < 16; i++) assert_int_equal(cuzk_fil_sdr_chacharng_next_u32(&r), a1[i]);
    for (int i = 0; i < 16; i++) assert_int_equal(cuzk_fil_sdr_chacharng_next_u32(&r), a2[i]);

    static const uint32_t b[16] = {0x2452eb3a, 0x9249f8ec, 0x8d829d9b, 0xddd4ceb1, 0xe8252083, 0x60818b01,
                                   0xf38422b8, 0x5aaa49c9, 0xbb00ca8e, 0xda3ba7b4, 0xc4b592d1, 0xfdf2732f,
                                   0x4436274e, 0x2561b3c8, 0xebdd4aa6, 0xa0136c00};
    seed[31] = 1;
    cuzk_fil_sdr_chacharng_seed(&r, seed, 20);
    for (int i = 0; i < 16; i++) cuzk_fil_sdr_chacharng_next_u32(&r);
    for (int i = 0; i < 16; i++) assert_int_equal(cuzk_fil_sdr_chacharng_next_u32(&r), b[i]);

    static const uint32_t c[16] = {0xfb4dd572, 0x4bc42ef1, 0xdf922636, 0x327f1394, 0xa78dea8f, 0x5e269039,
                                   0xa1bebbc1, 0xcaf09aae, 0xa25ab213, 0x48a6b46c, 0x1b9d9bcb, 0x092c5be6,
                                   0x546ca624, 0x1bec45d5, 0x87f47473, 0x96f0992e};
    memset(seed, 0, 32);
    seed[1] = 0xff;
    cuzk_fil_sdr_chacharng_seed(&r, seed, 20);
    for (int i = 0; i < 32; i++) cuzk_fil_sdr_chacharng_next_u32(&r);
    for (int i = 0; i < 16; i++) assert_int_equal(cuzk_fil_sdr_chacharng_next_u32(&r), c[i]);

    /* the i-th word of the i-th block, across four buffer refills */
    static const uint32_t m[16] = {0xf225c81a, 0x6ab1be57, 0x04d42951, 0x70858036, 0x49884684, 0x64efec72,
                                   0x4be2d186, 0x3615b384, 0x11cfa18e, 0xd3c50049, 0x75c775f6, 0x434c6530,
                                   0x2c5bad8f, 0x898881dc, 0x5f1c86d9, 0xc1f8e7f4};
    for (int i = 0; i < 32; i++) seed[i] = i % 4 == 0 ? (uint8_t)(i / 4) : 0;
    cuzk_fil_sdr_chacharng_seed(&r, seed, 20);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(cuzk_fil_sdr_chacharng_next_u32(&r), m[i]);
        for (int k = 0; k < 16; k++) cuzk_fil_sdr_chacharng_next_u32(&r);
    }

    uint8_t s2[32] = {0};
    s2[8] = 1, s2[16] = 2, s2[24] = 3;
    cuzk_fil_sdr_chacharng_seed(&r, s2, 20);
    assert_int_equal(cuzk_fil_sdr_chacharng_next_u32(&r), 137206642);
}

/* next_u64 is the next 8 keystream bytes read little-endian, also when it straddles a refill */
static void test_chacharng_u64_straddle(void **state)
{
    (void)state;
    uint8_t seed[32];
    test_rand_bytes(seed, 32);
    cuzk_fil_sdr_chacharng a, b;
    cuzk_fil_sdr_chacharng_seed(&a, seed, 8);
    cuzk_fil_sdr_chacharng_seed(&b, seed, 8);
    uint32_t words[400];
    for (int i = 0; i < 400; i++) words[i] = cuzk_fil_sdr_chacharng_next_u32(&b);
    int at = 0;
    while (at < 390) {
        if (test_rand_u64() % 3 == 0) {
            assert_int_equal(cuzk_fil_sdr_chacharng_next_u32(&a), words[at]);
            at += 1;
        } else {
            uint64_t want = (uint64_t)words[at + 1] << 32 | words[at];
            assert_int_equal(cuzk_fil_sdr_chacharng_next_u64(&a), want);
            at += 2;
        }
    }
}

const struct CMUnitTest sdr_prims_tests[] = {
    cmocka_unit_test(test_sha256_known),
    cmocka_unit_test(test_sha256_against_openssl),
    cmocka_unit_test(test_sha256_block_paths_agree),
    cmocka_unit_test(test_blake2b_rfc7693),
    cmocka_unit_test(test_blake2b_against_openssl),
    cmocka_unit_test(test_blake2b_feistel_fast_path),
    cmocka_unit_test(test_chacha8_vectors),
    cmocka_unit_test(test_chacha20_ietf_against_openssl),
    cmocka_unit_test(test_chacharng_documented),
    cmocka_unit_test(test_chacharng_u64_straddle),
};
const size_t sdr_prims_count = sizeof sdr_prims_tests / sizeof sdr_prims_tests[0];
