/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Counts of the FallbackPoSt circuit, by COUNT mode: storage-proofs-post tests/fallback_circuit.rs
 * (test_fallback_post_circuit_poseidon_single_partition_base_8 16,869, _sub_8_4 22,674, _top_8_4_2 27,384 with 19
 * inputs; _two_partitions_base_8 11,246 with 13; _base_8_bench_cs 266,665), filecoin-proofs constants.rs (WindowPoSt
 * 32 GiB 125,279,217, 64 GiB 129,887,900) and the table of constraints, inputs and aux per circuit
 * (WinningPoSt 32 GiB 370,590 and 133 inputs, WindowPoSt 32 GiB 25,840 inputs, ...); the density of the WindowPoSt
 * 32 GiB circuit against the size of its published parameter file. */
#include <stdlib.h>
#include <string.h>

#include "post_tests.h"

static void counts(const cuzk_fil_post_geom *g, cuzk_cs_counts *c)
{
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_post_counts(g, c, &err);
    if (s != CUZK_OK) fail_msg("%s", err.msg);
}

/* fallback_circuit.rs: 64 leaves per base tree, 5 challenges, API 1.1 */
static void test_fallback_post_circuit_poseidon(void **state)
{
    (void)state;
    static const struct {
        cuzk_fil_shape tree;
        uint64_t nodes;
        uint32_t sectors;
        uint64_t rows, inputs;
    } cases[] = {
        {{8, 0, 0, 2}, 64, 3, 16869, 19},  /* single_partition_base_8 (and _smaller_, two_partitions_smaller_) */
        {{8, 4, 0, 2}, 256, 3, 22674, 19}, /* single_partition_sub_8_4 */
        {{8, 4, 2, 2}, 512, 3, 27384, 19}, /* single_partition_top_8_4_2 */
        {{8, 0, 0, 2}, 64, 2, 11246, 13},  /* two_partitions_base_8 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cuzk_fil_post_geom g = {cases[i].tree, cases[i].nodes, cases[i].sectors, 5};
        cuzk_cs_counts c;
        counts(&g, &c);
        assert_int_equal(c.rows, cases[i].rows);
        assert_int_equal(c.inputs, cases[i].inputs);
    }
    /* test_fallback_post_circuit_poseidon_base_8_bench_cs: 32 GiB, tree 8-0-0, 5 sectors × 10 challenges */
    cuzk_fil_post_geom g = {{8, 0, 0, 10}, UINT64_C(1) << 30, 5, 10};
    cuzk_cs_counts c;
    counts(&g, &c);
    assert_int_equal(c.rows, 266665);
}

/* Every registered PoSt proof: rows, inputs (with ONE) and aux of its circuit. */
static void test_production_counts(void **state)
{
    (void)state;
    static const struct {
        uint32_t id;
        uint64_t rows, inputs, aux; /* 0: not in the table */
    } cases[] = {
        {0, 90750, 133, 91674},            /* WinningPoSt 2 KiB */
        {1, 0, 133, 0},                    /* 8 MiB */
        {2, 0, 133, 0},                    /* 512 MiB */
        {3, 370590, 133, 375210},          /* WinningPoSt 32 GiB */
        {4, 0, 133, 0},                    /* 64 GiB */
        {5, 21866, 23, 22128},             /* WindowPoSt 2 KiB */
        {6, 0, 23, 0},                     /* 8 MiB */
        {7, 0, 23, 0},                     /* 512 MiB */
        {8, 125279217, 25840, 126902376},  /* WindowPoSt 32 GiB (constants.rs) */
        {9, 129887900, 25301, 131500200},  /* WindowPoSt 64 GiB (constants.rs) */
        {13, 125279217, 25840, 126902376}, /* the V1_2 proofs: the same circuits */
        {14, 129887900, 25301, 131500200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, cases[i].id);
        assert_non_null(p);
        cuzk_cs_counts c;
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_fil_circuit_counts(p, &c, &err), CUZK_OK);
        if (cases[i].rows) assert_int_equal(c.rows, cases[i].rows);
        if (cases[i].aux) assert_int_equal(c.aux, cases[i].aux);
        assert_int_equal(c.inputs, cases[i].inputs);
        assert_int_equal(c.inputs, 1 + cuzk_fil_post_public_input_count(p));
        /* per slot: 313 rows for comm_r, then per challenge per level 530 (arity 8: 3 index bits, insert_8 22,
         * Poseidon-8 505) or 314 (arity 2: 1 + 2 + 311), and 2 (path input, root equality) */
        uint64_t path = 2;
        for (unsigned l = 0; l < cuzk_fil_shape_levels(&p->tree_r); l++)
            path += cuzk_fil_shape_arity(&p->tree_r, l) == 8 ? 530 : 314;
        assert_int_equal(c.rows, (uint64_t)p->post_sectors * (313 + p->post_sector_challenges * path));
    }
}

/* The published WindowPoSt 32 GiB parameter file has 60,780,374,232 bytes: with |h| = 2^27 − 1 and one l point per aux
 * that fixes |a| + 3|b| = 371,982,946, a and b being the inputs and aux with a non-zero A / B column. One slot's shape
 * gives the per-slot densities. */
static void test_window_32g_density(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 8);
    cuzk_fil_post_geom g;
    assert_int_equal(cuzk_fil_post_geom_of(p, &g, NULL), CUZK_OK);
    g.sectors = 1;
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    assert_int_equal(cuzk_fil_post_synthesize(cs, &g, NULL, 1), CUZK_OK);
    cuzk_r1cs_t *r;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_cs_finish(cs, &r, NULL, &err), CUZK_OK);
    uint64_t a_aux = 0, b_aux = 0, b_in = 0;
    for (uint32_t j = 0; j < r->num_aux; j++) {
        a_aux += cuzk_r1cs_density_get(r->a_aux_density, j);
        b_aux += cuzk_r1cs_density_get(r->b_aux_density, j);
    }
    for (uint32_t i = 0; i < r->num_inputs; i++) b_in += cuzk_r1cs_density_get(r->b_input_density, i);
    uint64_t slots = p->post_sectors, inputs = 1 + slots * (r->num_inputs - 1);
    uint64_t a = inputs + slots * a_aux, b = 1 + slots * (b_in - 1) + slots * b_aux;
    assert_true(cuzk_r1cs_density_get(r->b_input_density, 0));
    assert_int_equal(a + 3 * b, 371982946);
    uint64_t h = (UINT64_C(1) << 27) - 1, l = slots * r->num_aux, ic = inputs;
    assert_int_equal(868 + 96 * ic + 20 + 96 * (h + l + a + b) + 192 * b, UINT64_C(60780374232));
    cuzk_r1cs_free(r);
}

static void test_counts_bad_geometry(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    cuzk_cs_counts c;
    cuzk_fil_post_geom g = {{8, 0, 0, 2}, 65, 1, 1};
    assert_int_equal(cuzk_fil_post_counts(&g, &c, &err), CUZK_ERR_INVALID_ARG);
    assert_string_equal(err.msg, "fallback post: tree 8-0-0 with 2 base levels does not hold 65 leaves");
    g = (cuzk_fil_post_geom){{3, 0, 0, 2}, 9, 1, 1};
    assert_int_equal(cuzk_fil_post_counts(&g, &c, &err), CUZK_ERR_INVALID_ARG);
    g = (cuzk_fil_post_geom){{8, 0, 2, 2}, 128, 1, 1};
    assert_int_equal(cuzk_fil_post_counts(&g, &c, &err), CUZK_ERR_INVALID_ARG);
    g = (cuzk_fil_post_geom){{8, 0, 0, 2}, 64, 0, 1};
    assert_int_equal(cuzk_fil_post_counts(&g, &c, &err), CUZK_ERR_INVALID_ARG);
    assert_string_equal(err.msg, "fallback post: 0 sectors of 1 challenges: out of range");
    assert_int_equal(cuzk_fil_circuit_counts(NULL, &c, &err), CUZK_ERR_INVALID_ARG);
}

const struct CMUnitTest post_count_tests[] = {
    cmocka_unit_test(test_fallback_post_circuit_poseidon),
    cmocka_unit_test(test_production_counts),
    cmocka_unit_test(test_window_32g_density),
    cmocka_unit_test(test_counts_bad_geometry),
};
const size_t post_count_count = sizeof post_count_tests / sizeof post_count_tests[0];
