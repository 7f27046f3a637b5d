/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk_gpu_witness_pack (src/gpu/groth16/witness_pack.c) is plain C, so it is checked here on any machine: the inputs
 * stay, each aux value's class is right, each chunk's other values sit at the chunk's start in order, and unpacking
 * the way the device does (k_unpack: the i-th value of class 2 overall is the i-th other, chunk after chunk) gives
 * the witness back, for sizes around the 32-value words and thread counts up to past the 64-chunk limit. */
#include "testutil.h"
#include "gpu_host_test.h"
#include "../../src/gpu/groth16/witness_pack.c"

#include <stdlib.h>

/* a witness whose aux values are 0, 1 or other in about the given per mille, others including 2 and −1 */
static void make_witness(cuzk_fr_t *z, uint64_t ni, uint64_t na, unsigned zero_pm, unsigned one_pm)
{
    cuzk_fr_t one, mone;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&mone, &one);
    for (uint64_t i = 0; i < ni; i++) test_rand_fr(&z[i]);
    if (ni > 0) z[0] = one;
    for (uint64_t i = ni; i < ni + na; i++) {
        unsigned r = (unsigned)(test_rand_u64() % 1000);
        if (r < zero_pm) cuzk_fr_set_zero(&z[i]);
        else if (r < zero_pm + one_pm) z[i] = one;
        else if (r % 7 == 0) cuzk_fr_add(&z[i], &one, &one);
        else if (r % 7 == 1) z[i] = mone;
        else test_rand_fr(&z[i]);
    }
}

static void check_packing(uint64_t ni, uint64_t na, unsigned threads, unsigned zero_pm, unsigned one_pm)
{
    uint64_t nv = ni + na, words = cuzk_gpu_witness_classes_words(na);
    cuzk_fr_t *z = malloc((nv + 1) * sizeof *z), *packed = malloc((nv + 1) * sizeof *packed);
    uint64_t *classes = malloc((words + 1) * sizeof *classes);
    assert_non_null(z), assert_non_null(packed), assert_non_null(classes);
    make_witness(z, ni, na, zero_pm, one_pm);
    memcpy(packed, z, nv * sizeof *z);
    cuzk_gpu_witness_packing pk;
    cuzk_gpu_witness_pack(&pk, packed, ni, na, classes, threads);

    assert_int_equal(pk.num_inputs, ni);
    assert_int_equal(pk.num_aux, na);
    assert_ptr_equal(pk.classes, classes);
    assert_memory_equal(packed, z, ni * sizeof *z); /* the inputs stay */
    if (na == 0) {
        assert_int_equal(pk.chunks, 0);
        goto out;
    }
    unsigned want = threads < 1 ? 1 : threads > CUZK_GPU_WITNESS_CHUNKS_MAX ? CUZK_GPU_WITNESS_CHUNKS_MAX : threads;
    assert_true(pk.chunks >= 1 && pk.chunks <= want);
    assert_int_equal(pk.chunk_values % 32, 0);
    assert_true(pk.chunk_values * pk.chunks >= na && pk.chunk_values * (pk.chunks - 1) < na);

    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    uint64_t total = 0;
    for (unsigned c = 0; c < pk.chunks; c++) {
        uint64_t lo = c * pk.chunk_values, hi = lo + pk.chunk_values < na ? lo + pk.chunk_values : na, k = 0;
        for (uint64_t i = lo; i < hi; i++) {
            unsigned cls = (unsigned)(classes[i / 32] >> (2 * (i % 32))) & 3;
            const cuzk_fr_t *v = &z[ni + i];
            unsigned expect = cuzk_fr_is_zero(v) ? 0 : cuzk_fr_eq(v, &one) ? 1 : 2;
            assert_int_equal(cls, expect);
            if (cls == 2) { /* the chunk's k-th other, in order, at its start */
                assert_memory_equal(&packed[ni + lo + k], v, sizeof *v);
                k++;
            }
        }
        assert_int_equal(pk.others[c], k);
        total += k;
    }
    /* the device's unpacking: others concatenated chunk after chunk, taken in class-2 order */
    cuzk_fr_t *sent = malloc((total + 1) * sizeof *sent);
    assert_non_null(sent);
    for (unsigned c = 0, at = 0; c < pk.chunks; c++) {
        memcpy(&sent[at], &packed[ni + c * pk.chunk_values], pk.others[c] * sizeof *sent);
        at += (unsigned)pk.others[c];
    }
    for (uint64_t i = 0, next = 0; i < na; i++) {
        unsigned cls = (unsigned)(classes[i / 32] >> (2 * (i % 32))) & 3;
        cuzk_fr_t v;
        if (cls == 2) v = sent[next++];
        else if (cls == 1) v = one;
        else cuzk_fr_set_zero(&v);
        assert_memory_equal(&v, &z[ni + i], sizeof v);
    }
    free(sent);
out:
    free(z), free(packed), free(classes);
}

static void test_pack_sizes_and_threads(void **state)
{
    (void)state;
    static const uint64_t aux[] = {0, 1, 31, 32, 33, 64, 65, 1000, 4099, 70001};
    static const unsigned threads[] = {0, 1, 2, 3, 7, 64, 100};
    for (size_t a = 0; a < sizeof aux / sizeof aux[0]; a++)
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
            check_packing(1 + test_rand_u64() % 5, aux[a], threads[t], 450, 410); /* the synthetic partition's mix */
}

static void test_pack_extremes(void **state)
{
    (void)state;
    check_packing(3, 5000, 5, 1000, 0); /* all 0: nothing sent whole */
    check_packing(3, 5000, 5, 0, 1000); /* all 1 */
    check_packing(3, 5000, 5, 0, 0);    /* no 0 or 1: every value sent, each chunk unchanged */
    check_packing(0, 100, 3, 300, 300); /* no inputs */
}

int run_witness_pack_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pack_sizes_and_threads),
        cmocka_unit_test(test_pack_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
