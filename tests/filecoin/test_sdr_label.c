/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SDR labels: rust-fil-proofs' last-label known answers (storage-proofs-porep tests/stacked_vanilla.rs,
 * test_stacked_porep_generate_labels: 11 layers, replica id [9; 32]), the threaded labeller against the
 * single-threaded one, single labels recomputed from their gathered parents, and damaged caches. */
#include <stdlib.h>
#include <string.h>

#include "sdr_tests.h"

/* Labels `layers` layers; returns the last layer (caller frees). */
static uint8_t *label_all(const cuzk_fil_sdr_graph *g, const uint8_t rid[32], unsigned layers, unsigned threads,
                          uint8_t **all)
{
    cuzk_fil_sdr_parent_cache c;
    assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&c, g, threads, NULL), CUZK_OK);
    uint64_t n = g->nodes;
    uint8_t *labels = malloc(layers * n * 32);
    assert_non_null(labels);
    for (unsigned l = 1; l <= layers; l++) {
        uint8_t *out = labels + (l - 1) * n * 32;
        assert_int_equal(cuzk_fil_sdr_label_layer(&c, rid, l, l > 1 ? out - n * 32 : NULL, out, threads, NULL),
                         CUZK_OK);
    }
    cuzk_fil_sdr_parent_cache_free(&c);
    uint8_t *last = malloc(n * 32);
    assert_non_null(last);
    memcpy(last, labels + (layers - 1) * n * 32, n * 32);
    if (all) *all = labels;
    else free(labels);
    return last;
}

static void test_last_label_kats(void **state)
{
    (void)state;
    static const struct {
        uint64_t size;
        uint8_t porep_id;
        cuzk_fil_sdr_api api;
        const char *label;
    } kat[] = {
        {2048, 0, CUZK_FIL_SDR_API_V1_0, "04ba0f9a6ba9fad35e4806d183a281eab3c25afa9a1bd5e3378da6f1f4f46204"},
        {4096, 0, CUZK_FIL_SDR_API_V1_0, "86daa8c4521e197e48c1fae6c9a1e85ab894a8883b9f23cebe531ddcd1004c23"},
        {2048, 123, CUZK_FIL_SDR_API_V1_1, "cfef0db78bf3b3ab9f1169774d2e7a77bc9054499d954834b51ca7c788110206"},
        {4096, 123, CUZK_FIL_SDR_API_V1_1, "6d67c468cf81ab2289c1c9c72fa8777a232de4c1323dc0c6bd552ccc187c770f"},
        {2048, 123, CUZK_FIL_SDR_API_V1_2, "cfef0db78bf3b3ab9f1169774d2e7a77bc9054499d954834b51ca7c788110206"},
        {4096, 123, CUZK_FIL_SDR_API_V1_2, "6d67c468cf81ab2289c1c9c72fa8777a232de4c1323dc0c6bd552ccc187c770f"},
    };
    uint8_t rid[32];
    memset(rid, 9, 32);
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint8_t id[32];
        memset(id, kat[i].porep_id, 32);
        cuzk_fil_sdr_graph g;
        assert_int_equal(cuzk_fil_sdr_graph_init(&g, kat[i].size / 32, id, kat[i].api, NULL), CUZK_OK);
        for (unsigned threads = 1; threads <= 2; threads++) {
            uint8_t *last = label_all(&g, rid, 11, threads, NULL);
            sdr_assert_hex32(last + (g.nodes - 1) * 32, kat[i].label);
            free(last);
        }
    }
}

/* producers ahead of the hashing thread give the same labels as one thread */
static void test_threads_agree(void **state)
{
    (void)state;
    uint8_t id[32], rid[32];
    test_rand_bytes(id, 32);
    test_rand_bytes(rid, 32);
    rid[31] &= 0x3f;
    cuzk_fil_sdr_graph g;
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 20000, id, CUZK_FIL_SDR_API_V1_1, NULL), CUZK_OK);
    uint8_t *a = label_all(&g, rid, 3, 1, NULL);
    uint8_t *b = label_all(&g, rid, 3, 2, NULL);
    uint8_t *c = label_all(&g, rid, 3, 4, NULL);
    assert_memory_equal(a, b, g.nodes * 32);
    assert_memory_equal(a, c, g.nodes * 32);
    free(a), free(b), free(c);
}

/* a label is SHA-256 over the replica id, layer, node and its 37 gathered parents, as a labeling proof checks it */
static void test_label_from_parents(void **state)
{
    (void)state;
    uint8_t id[32], rid[32];
    test_rand_bytes(id, 32);
    test_rand_bytes(rid, 32);
    cuzk_fil_sdr_graph g;
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 512, id, CUZK_FIL_SDR_API_V1_0, NULL), CUZK_OK);
    uint8_t *all;
    free(label_all(&g, rid, 2, 1, &all));
    cuzk_fil_sdr_parent_cache c;
    assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&c, &g, 1, NULL), CUZK_OK);
    uint8_t parents[37][32], label[32];
    for (unsigned layer = 1; layer <= 2; layer++) {
        const uint8_t *cur = all + (layer - 1) * 512 * 32, *prev = layer > 1 ? all : NULL;
        for (uint64_t v = 0; v < 512; v += 37) {
            if (v == 0) {
                assert_int_equal(cuzk_fil_sdr_label_from_parents(rid, layer, 0, NULL, 0, label, NULL), CUZK_OK);
            } else {
                assert_int_equal(cuzk_fil_sdr_label_parents(&c, layer, v, cur, prev, parents, NULL), CUZK_OK);
                assert_int_equal(
                    cuzk_fil_sdr_label_from_parents(rid, layer, v, (const uint8_t(*)[32])parents, 37, label, NULL),
                    CUZK_OK);
            }
            assert_memory_equal(label, cur + v * 32, 32);
        }
    }
    cuzk_errmsg e;
    assert_int_equal(cuzk_fil_sdr_label_from_parents(rid, 1, 5, (const uint8_t(*)[32])parents, 14, label, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_label_parents(&c, 2, 512, all, all, parents, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_sdr_label_parents(&c, 2, 5, all, NULL, parents, &e), CUZK_ERR_INVALID_ARG);
    cuzk_fil_sdr_parent_cache_free(&c);
    free(all);
}

/* a cache whose DRG parent does not precede its node, or whose expander parent is past the graph, is refused with
 * the node and parent named, by one thread and by several */
static void test_damaged_cache(void **state)
{
    (void)state;
    uint8_t id[32] = {0}, rid[32] = {0};
    cuzk_fil_sdr_graph g;
    assert_int_equal(cuzk_fil_sdr_graph_init(&g, 4096, id, CUZK_FIL_SDR_API_V1_1, NULL), CUZK_OK);
    uint8_t *l1 = malloc(4096 * 32), *l2 = malloc(4096 * 32);
    assert_non_null(l1), assert_non_null(l2);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        cuzk_fil_sdr_parent_cache c;
        assert_int_equal(cuzk_fil_sdr_parent_cache_generate(&c, &g, 1, NULL), CUZK_OK);
        uint32_t *p = (uint32_t *)c.parents;
        cuzk_errmsg e;
        p[3000 * 14 + 2] = 3000;
        assert_int_equal(cuzk_fil_sdr_label_layer(&c, rid, 1, NULL, l1, threads, &e), CUZK_ERR_BAD_SECTION);
        assert_non_null(strstr(e.msg, "node 3000 parent 2 = 3000"));
        p[3000 * 14 + 2] = 0;
        assert_int_equal(cuzk_fil_sdr_label_layer(&c, rid, 1, NULL, l1, threads, &e), CUZK_OK);
        p[1234 * 14 + 9] = 4096;
        assert_int_equal(cuzk_fil_sdr_label_layer(&c, rid, 2, l1, l2, threads, &e), CUZK_ERR_BAD_SECTION);
        assert_non_null(strstr(e.msg, "node 1234 parent 9 = 4096"));
        assert_int_equal(cuzk_fil_sdr_label_layer(&c, rid, 2, NULL, l2, threads, &e), CUZK_ERR_INVALID_ARG);
        assert_int_equal(cuzk_fil_sdr_label_layer(&c, rid, 0, NULL, l2, threads, &e), CUZK_ERR_INVALID_ARG);
        cuzk_fil_sdr_parent_cache_free(&c);
    }
    free(l1), free(l2);
}

const struct CMUnitTest sdr_label_tests[] = {
    cmocka_unit_test(test_last_label_kats),
    cmocka_unit_test(test_threads_agree),
    cmocka_unit_test(test_label_from_parents),
    cmocka_unit_test(test_damaged_cache),
};
const size_t sdr_label_count = sizeof sdr_label_tests / sizeof sdr_label_tests[0];
