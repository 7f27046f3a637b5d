/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The SDR graph and its parent cache: the SHA-256 of the whole cache equals rust-fil-proofs' parent_cache.json for
 * the 2 KiB graphs (8 MiB in the slow group), the cache file names equal the manifest's for all 10 production
 * graphs, and the properties rust-fil-proofs tests of DRG and expander parents hold; damaged or foreign cache files
 * are rejected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdr_tests.h"

static const struct {
    uint64_t registered_id, sector_size;
    const char *name, *digest;
} PRODUCTION[] = {
    {0, 2ULL << 10, "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899.cache",
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {5, 2ULL << 10, "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache",
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {1, 8ULL << 20, "v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc.cache",
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {6, 8ULL << 20, "v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5.cache",
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {2, 512ULL << 20, "v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42.cache",
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {7, 512ULL << 20, "v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34.cache",
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {3, 32ULL << 30, "v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13.cache",
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
    {8, 32ULL << 30, "v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117.cache",
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {4, 64ULL << 30, "v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6.cache",
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {9, 64ULL << 30, "v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b.cache",
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
};

static void test_porep_id(void **state)
{
    (void)state;
    uint8_t id[32];
    cuzk_fil_sdr_porep_id(0x0807060504030201ULL, 0x100f0e0d0c0b0a09ULL, id);
    for (int i = 0; i < 16; i++) assert_int_equal(id[i], i + 1);
    for (int i = 16; i < 32; i++) assert_int_equal(id[i], 0);
    assert_int_equal(cuzk_fil_sdr_layers(2048), 2);
    assert_int_equal(cuzk_fil_sdr_layers(512ULL << 20), 2);
    assert_int_equal(cuzk_fil_sdr_layers(32ULL << 30), 11);
    assert_int_equal(cuzk_fil_sdr_layers(64ULL << 30), 11);
    assert_int_equal(cuzk_fil_sdr_layers(4096 * 3), 0);
}

static void test_graph_rejects(void **state)
{
    (void)state;
    cuzk_fil_sdr_graph g;
    uint8_t id[32] = {0};
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 1, id, CUZK_FIL_SDR_API_V1_1, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 1ULL << 32, id, CUZK_FIL_SDR_API_V1_1, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 64, id, (cuzk_fil_sdr_api)7, &e), CUZK_ERR_INVALID_ARG);
}

/* every production graph's cache file is named as rust-fil-proofs names it, and its digest is in the manifest */
static void test_cache_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PRODUCTION / sizeof PRODUCTION[0]; i++) {
        cuzk_fil_sdr_graph g;
        sdr_graph_of(&g, PRODUCTION[i].sector_size, PRODUCTION[i].registered_id);
        char name[96];
        cuzk_fil_sdr_parent_cache_name(&g, name);
        assert_string_equal(name, PRODUCTION[i].name);
        uint8_t d[32];
        assert_true(cuzk_fil_sdr_parent_cache_expected(&g, d));
        sdr_assert_hex32(d, PRODUCTION[i].digest);
    }
    cuzk_fil_sdr_graph g;
    sdr_graph_of(&g, 4096, 5);
    uint8_t d[32];
    assert_false(cuzk_fil_sdr_parent_cache_expected(&g, d));
}

static void check_cache_digest(uint64_t sector_size, uint64_t registered_id, const char *digest, unsigned threads)
{
    cuzk_fil_sdr_graph g;
    sdr_graph_of(&g, sector_size, registered_id);
    cuzk_fil_sdr_parent_cache c;
    assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&c, &g, threads, NULL), CUZK_OK);
    uint8_t d[32];
    cuzk_fil_sdr_parent_cache_digest(&c, d);
    sdr_assert_hex32(d, digest);
    cuzk_fil_sdr_parent_cache_free(&c);
}

static void test_cache_digest_2kib(void **state)
{
    (void)state;
    check_cache_digest(2048, 0, PRODUCTION[0].digest, 1);
    check_cache_digest(2048, 5, PRODUCTION[1].digest, 3);
    cuzk_fil_sdr_graph g;
    sdr_graph_of(&g, 2048, 5);
    uint8_t d[32];
    assert_int_equal(cuzk_fil_sdr_parent_cache_digest_graph(&g, 2, d, NULL), CUZK_OK);
    sdr_assert_hex32(d, PRODUCTION[1].digest);
}

/* the streamed digest over several 2^20-node windows, the last one short, equals the stored cache's */
static void test_cache_digest_streamed(void **state)
{
    (void)state;
    uint8_t id[32], a[32], b[32];
    test_rand_bytes(id, 32);
    cuzk_fil_sdr_graph g;
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, (1u << 21) + 12345, id, CUZK_FIL_SDR_API_V1_0, NULL), CUZK_OK);
    cuzk_fil_sdr_parent_cache c;
    assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&c, &g, 0, NULL), CUZK_OK);
    cuzk_fil_sdr_parent_cache_digest(&c, a);
    cuzk_fil_sdr_parent_cache_free(&c);
    assert_int_equal(cuzk_fil_sdr_parent_cache_digest_graph(&g, 0, b, NULL), CUZK_OK);
    assert_memory_equal(a, b, 32);
}

static void test_cache_digest_8mib(void **state)
{
    (void)state;
    check_cache_digest(8ULL << 20, 1, PRODUCTION[2].digest, 0);
    check_cache_digest(8ULL << 20, 6, PRODUCTION[3].digest, 0);
}

/* a byte flipped in a node the 64-node sample skips: only the digest of a production graph catches it */
static void test_cache_file_8mib(void **state)
{
    (void)state;
    cuzk_fil_sdr_graph g;
    sdr_graph_of(&g, 8ULL << 20, 6);
    char path[256];
    sdr_tmp_path(path, sizeof path, ".cache");
    uint8_t d[32];
    assert_int_equal(cuzk_fil_sdr_parent_cache_write(&g, path, 0, d, NULL), CUZK_OK);
    sdr_assert_hex32(d, PRODUCTION[3].digest);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 3 * 56 + 5 * 4, SEEK_SET);
    fputc(0x7f, f);
    fclose(f);
    cuzk_fil_sdr_parent_cache c;
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &g, path, false, &e), CUZK_OK);
    cuzk_fil_sdr_parent_cache_free(&c);
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &g, path, true, &e), CUZK_ERR_CHECKSUM);
    assert_non_null(strstr(e.msg, "manifest"));
    unlink(path);
}

/* drgraph.rs graph_bucket: nodes 0 and 1 have only node 0; otherwise the predecessor sits last (V1_0) or first
 * (V1_1+), every parent precedes the node, and parents are deterministic */
static void test_drg_parents(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        cuzk_fil_sdr_api api = v ? CUZK_FIL_SDR_API_V1_2 : CUZK_FIL_SDR_API_V1_0;
        uint8_t id[32] = {0};
        id[0] = v ? 5 : 0;
        static const uint64_t sizes[] = {4, 16, 256, 2048};
        for (size_t s = 0; s < 4; s++) {
            cuzk_fil_sdr_graph g;
            assert_int_equal(cuzk_fil_sdr_graph_init(&g, sizes[s], id, api, NULL), CUZK_OK);
            uint32_t p[6], q[6];
            for (uint32_t n = 0; n < sizes[s]; n++) {
                cuzk_fil_sdr_drg_parents(&g, n, p);
                cuzk_fil_sdr_drg_parents(&g, n, q);
                assert_memory_equal(p, q, sizeof p);
                if (n < 2) {
                    for (int k = 0; k < 6; k++) assert_int_equal(p[k], 0);
                    continue;
                }
                assert_int_equal(p[v ? 0 : 5], n - 1);
                for (int k = 0; k < 6; k++) assert_true(p[k] < n);
            }
        }
    }
}

/* graph.rs test_shuffle: the Feistel network with keys 1, 2, 3, 4 permutes [0, 8·1024); invert undoes it */
static void test_feistel_permutation(void **state)
{
    (void)state;
    cuzk_fil_sdr_graph g;
    uint8_t id[32] = {0};
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 1024, id, CUZK_FIL_SDR_API_V1_1, NULL), CUZK_OK);
    for (int k = 0; k < 4; k++) g.feistel_keys[k] = (uint64_t)k + 1;
    uint64_t n = 8 * 1024;
    uint8_t *seen = calloc(n, 1);
    assert_non_null(seen);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t p = cuzk_fil_sdr_feistel_permute(&g, i);
        assert_true(p < n);
        assert_false(seen[p]);
        seen[p] = 1;
        assert_int_equal(cuzk_fil_sdr_feistel_invert(&g, p), i);
    }
    free(seen);
}

/* graph.rs test_graph_distribution_pathology: V1_0's 32-bit truncation keeps every expander parent of the first
 * 1000 nodes of a 32/64 GiB graph in the sector's first half; V1_1 reaches the second half */
static void test_expander_pathology(void **state)
{
    (void)state;
    static const struct {
        uint8_t id;
        uint64_t nodes;
        cuzk_fil_sdr_api api;
        bool pathological;
    } cases[] = {
        {3, 1ULL << 30, CUZK_FIL_SDR_API_V1_0, true},  {4, 1ULL << 31, CUZK_FIL_SDR_API_V1_0, true},
        {8, 1ULL << 30, CUZK_FIL_SDR_API_V1_1, false}, {9, 1ULL << 31, CUZK_FIL_SDR_API_V1_1, false},
        {8, 1ULL << 30, CUZK_FIL_SDR_API_V1_2, false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint8_t id[32] = {0};
        id[0] = cases[c].id;
        cuzk_fil_sdr_graph g;
        assert_int_equal(cuzk_fil_sdr_graph_init(&g, cases[c].nodes, id, cases[c].api, NULL), CUZK_OK);
        bool large = false;
        for (uint32_t v = 0; v < 1000 && !large; v++) {
            uint32_t p[8];
            cuzk_fil_sdr_exp_parents(&g, v, p);
            for (int k = 0; k < 8; k++) large |= p[k] >= cases[c].nodes / 2;
        }
        assert_int_equal(large, !cases[c].pathological);
    }
}

/* graph.rs test_high_parent_bits: a 64 GiB V1_2 graph (registered id 5) has an expander parent ≥ 2^29 among its first
 * 3 nodes (a 32-bit truncation would make that impossible) */
static void test_expander_high_bits(void **state)
{
    (void)state;
    uint8_t id[32];
    cuzk_fil_sdr_porep_id(5, 0, id);
    cuzk_fil_sdr_graph g;
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 1ULL << 31, id, CUZK_FIL_SDR_API_V1_2, NULL), CUZK_OK);
    bool high = false;
    for (uint32_t v = 0; v < 3; v++) {
        uint32_t p[8];
        cuzk_fil_sdr_exp_parents(&g, v, p);
        for (int k = 0; k < 8; k++) high |= p[k] >= (1u << 29);
    }
    assert_true(high);
}

static void test_cache_file(void **state)
{
    (void)state;
    cuzk_fil_sdr_graph g, other;
    sdr_graph_of(&g, 2048, 0);
    sdr_graph_of(&other, 2048, 5);
    char path[256];
    sdr_tmp_path(path, sizeof path, ".cache");
    uint8_t d[32];
    assert_int_equal(cuzk_fil_sdr_parent_cache_write(&g, path, 2, d, NULL), CUZK_OK);
    sdr_assert_hex32(d, PRODUCTION[0].digest);

    cuzk_fil_sdr_parent_cache c, mem;
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &g, path, true, &e), CUZK_OK);
    assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&mem, &g, 1, NULL), CUZK_OK);
    assert_memory_equal(c.parents, mem.parents, 64 * 56);
    cuzk_fil_sdr_parent_cache_free(&c);
    cuzk_fil_sdr_parent_cache_free(&mem);

    /* another graph's cache: the sampled parents differ */
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &other, path, false, &e), CUZK_ERR_MISMATCH);
    assert_non_null(strstr(e.msg, "not this graph's"));

    /* a graph of 64 nodes is sampled whole: one flipped byte is found without the digest */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 3 * 56 + 5 * 4, SEEK_SET);
    fputc(0x7f, f);
    fclose(f);
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &g, path, false, &e), CUZK_ERR_MISMATCH);
    assert_non_null(strstr(e.msg, "node 3's"));

    /* wrong sizes */
    assert_int_equal(truncate(path, 64 * 56 - 4), 0);
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &g, path, false, &e), CUZK_ERR_TRUNCATED);
    assert_int_equal(truncate(path, 64 * 56 + 56), 0);
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &g, path, false, &e), CUZK_ERR_BAD_LENGTH);
    unlink(path);
    assert_int_equal(cuzk_fil_sdr_parent_cache_open(&c, &g, path, false, &e), CUZK_ERR_IO);
    assert_int_equal(cuzk_fil_sdr_parent_cache_write(&g, "/nonexistent-dir/x.cache", 1, NULL, &e), CUZK_ERR_IO);
}

/* generation by any number of threads gives the same bytes (a graph that is not a power of two) */
static void test_cache_threads(void **state)
{
    (void)state;
    uint8_t id[32];
    test_rand_bytes(id, 32);
    cuzk_fil_sdr_graph g;
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 10000, id, CUZK_FIL_SDR_API_V1_1, NULL), CUZK_OK);
    cuzk_fil_sdr_parent_cache a, b;
    assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&a, &g, 1, NULL), CUZK_OK);
    assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&b, &g, 3, NULL), CUZK_OK);
    assert_memory_equal(a.parents, b.parents, 10000 * 56);
    for (uint32_t v = 0; v < 10000; v += 997) {
        uint32_t p[14];
        cuzk_fil_sdr_parents(&g, v, p);
        assert_memory_equal(p, a.parents + v * 14, sizeof p);
        for (int k = 6; k < 14; k++) assert_true(p[k] < 10000);
    }
    cuzk_fil_sdr_parent_cache_free(&a);
    cuzk_fil_sdr_parent_cache_free(&b);
}

const struct CMUnitTest sdr_graph_tests[] = {
    cmocka_unit_test(test_porep_id),           cmocka_unit_test(test_graph_rejects),
    cmocka_unit_test(test_cache_names),        cmocka_unit_test(test_cache_digest_2kib),
    cmocka_unit_test(test_drg_parents),        cmocka_unit_test(test_feistel_permutation),
    cmocka_unit_test(test_expander_pathology), cmocka_unit_test(test_expander_high_bits),
    cmocka_unit_test(test_cache_file),         cmocka_unit_test(test_cache_threads),
};
const size_t sdr_graph_count = sizeof sdr_graph_tests / sizeof sdr_graph_tests[0];

const struct CMUnitTest sdr_slow_tests[] = {
    cmocka_unit_test(test_cache_digest_8mib),
    cmocka_unit_test(test_cache_file_8mib),
    cmocka_unit_test(test_cache_digest_streamed),
};
const size_t sdr_slow_count = sizeof sdr_slow_tests / sizeof sdr_slow_tests[0];
