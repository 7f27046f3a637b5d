/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Synthetic circuits: satisfiable, deterministic, PoRep-shaped, independent of the thread count, canonical (the
 * builder gives the same identity), and cuzk_r1cs_adopt's rejections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "testutil.h"
#include "circ_test.h"

static void test_satisfied_at_several_sizes(void **state)
{
    (void)state;
    static const unsigned sizes[] = {4, 5, 8, 12, 13, 14, 16};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cuzk_r1cs_t *r;
        cuzk_fr_t *z;
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_circuits_synthetic(sizes[i], 7, 2, &r, &z, &err), CUZK_OK);
        assert_int_equal(r->num_constraints + r->num_inputs, 1ULL << sizes[i]);
        assert_int_equal(r->num_inputs, CUZK_CIRCUITS_SYNTHETIC_INPUTS);
        assert_int_equal(r->num_aux, r->num_constraints - (CUZK_CIRCUITS_SYNTHETIC_INPUTS - 1));
        uint64_t bad = 0;
        assert_int_equal(cuzk_r1cs_check(r, z, 2, &bad), CUZK_OK);
        /* a changed public input breaks the row that binds it */
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&z[2], &z[2], &one);
        assert_int_equal(cuzk_r1cs_check(r, z, 2, &bad), CUZK_ERR_R1CS_UNSATISFIED);
        assert_int_equal(bad, r->num_constraints - (CUZK_CIRCUITS_SYNTHETIC_INPUTS - 1) + 1);
        cuzk_r1cs_free(r);
        free(z);
    }
}

/* Another witness seed: the same system, a different witness that satisfies it, different public inputs; the
 * circuit's own seed reproduces cuzk_circuits_synthetic's witness, whatever the thread count. */
static void test_witness_seed(void **state)
{
    (void)state;
    cuzk_r1cs_t *r;
    cuzk_fr_t *z, *z_same, *z_other, *z_other3;
    assert_int_equal(cuzk_circuits_synthetic(15, 42, 2, &r, &z, NULL), CUZK_OK);
    uint64_t nv = cuzk_r1cs_num_vars(r);
    assert_int_equal(cuzk_circuits_synthetic_witness(15, 42, 42, 1, &z_same, NULL), CUZK_OK);
    assert_memory_equal(z, z_same, nv * sizeof(cuzk_fr_t));
    assert_int_equal(cuzk_circuits_synthetic_witness(15, 42, 43, 1, &z_other, NULL), CUZK_OK);
    assert_int_equal(cuzk_circuits_synthetic_witness(15, 42, 43, 3, &z_other3, NULL), CUZK_OK);
    assert_memory_equal(z_other, z_other3, nv * sizeof(cuzk_fr_t));
    assert_int_equal(cuzk_r1cs_check(r, z_other, 2, NULL), CUZK_OK);
    for (uint32_t i = 1; i < r->num_inputs; i++) assert_memory_not_equal(&z[i], &z_other[i], sizeof(cuzk_fr_t));
    uint64_t differ = 0;
    for (uint64_t i = 0; i < nv; i++) differ += memcmp(&z[i], &z_other[i], sizeof(cuzk_fr_t)) != 0;
    assert_true(differ > nv / 4); /* bits agree half the time, field values almost never */
    /* and a wrong witness is caught, so the check above can fail */
    cuzk_fr_add(&z_other[nv - 1], &z_other[nv - 1], &z_other[0]);
    assert_int_equal(cuzk_r1cs_check(r, z_other, 2, NULL), CUZK_ERR_R1CS_UNSATISFIED);
    cuzk_fr_t *bad = (cuzk_fr_t *)1;
    assert_int_equal(cuzk_circuits_synthetic_witness(CUZK_CIRCUITS_LOG2_MIN - 1, 1, 1, 1, &bad, NULL),
                     CUZK_ERR_INVALID_ARG);
    assert_null(bad);
    cuzk_r1cs_free(r);
    free(z);
    free(z_same);
    free(z_other);
    free(z_other3);
}

static void test_deterministic(void **state)
{
    (void)state;
    cuzk_r1cs_t *r1, *r2, *r3;
    cuzk_fr_t *z1, *z2, *z3;
    /* 2^15 spans four generation blocks: different thread counts must give the same bytes */
    assert_int_equal(cuzk_circuits_synthetic(15, 42, 1, &r1, &z1, NULL), CUZK_OK);
    assert_int_equal(cuzk_circuits_synthetic(15, 42, 3, &r2, &z2, NULL), CUZK_OK);
    assert_int_equal(cuzk_circuits_synthetic(15, 43, 2, &r3, &z3, NULL), CUZK_OK);
    assert_memory_equal(r1->identity, r2->identity, 32);
    assert_memory_equal(z1, z2, cuzk_r1cs_num_vars(r1) * sizeof(cuzk_fr_t));
    assert_memory_not_equal(r1->identity, r3->identity, 32);
    assert_memory_not_equal(z1, z3, cuzk_r1cs_num_vars(r1) * sizeof(cuzk_fr_t));
    /* a known identity prefix guards against accidental changes of the generator, which would silently
     * invalidate cached benchmark keys */
    char hex[17];
    for (int i = 0; i < 8; i++) snprintf(hex + 2 * i, 3, "%02x", r1->identity[i]);
    printf("# 2^15 seed 42 identity %s...\n", hex);
    cuzk_r1cs_free(r1);
    cuzk_r1cs_free(r2);
    cuzk_r1cs_free(r3);
    free(z1);
    free(z2);
    free(z3);
}

/* Rebuilding the same rows through cuzk_r1cs_builder must give the same identity: the generator's CSR and coefficient
 * numbering are canonical. */
static void test_canonical_against_builder(void **state)
{
    (void)state;
    cuzk_r1cs_t *r;
    assert_int_equal(cuzk_circuits_synthetic(12, 5, 2, &r, NULL, NULL), CUZK_OK);
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(r->num_inputs);
    cuzk_r1cs_var first;
    assert_int_equal(cuzk_r1cs_builder_alloc_aux_n(b, r->num_aux, &first), CUZK_OK);
    cuzk_r1cs_term *t[3];
    for (int k = 0; k < 3; k++) t[k] = malloc(300 * sizeof(cuzk_r1cs_term));
    for (uint64_t i = 0; i < r->num_constraints; i++) {
        size_t n[3];
        for (int k = 0; k < 3; k++) {
            const cuzk_r1cs_matrix *m = &r->m[k];
            n[k] = m->row_ptr[i + 1] - m->row_ptr[i];
            assert_true(n[k] <= 300);
            for (size_t e = 0; e < n[k]; e++) {
                uint32_t c = m->col[m->row_ptr[i] + e];
                t[k][e].var = c < r->num_inputs ? CUZK_R1CS_INPUT(c) : CUZK_R1CS_AUX(c - r->num_inputs);
                t[k][e].coeff = r->values[m->coef[m->row_ptr[i] + e]];
            }
        }
        assert_int_equal(cuzk_r1cs_builder_enforce(b, t[0], n[0], t[1], n[1], t[2], n[2]), CUZK_OK);
    }
    cuzk_r1cs_t *r2;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r2), CUZK_OK);
    assert_memory_equal(r->identity, r2->identity, 32);
    for (int k = 0; k < 3; k++) free(t[k]);
    cuzk_r1cs_free(r);
    cuzk_r1cs_free(r2);
}

static void test_statistics(void **state)
{
    (void)state;
    cuzk_r1cs_t *r;
    cuzk_fr_t *z;
    assert_int_equal(cuzk_circuits_synthetic(16, 1, 2, &r, &z, NULL), CUZK_OK);
    cuzk_circuits_stats st;
    cuzk_circuits_stats_compute(r, z, &st);
    printf("# 2^16: per row A %.3f B %.3f C %.3f, aux in A %.2f%% in B %.2f%%, bits %.1f%%, %u coefficients\n",
           st.per_row[0], st.per_row[1], st.per_row[2], 100 * st.a_aux_density, 100 * st.b_aux_density,
           100 * st.bit_fraction, st.num_values);
    /* PoRep: 2.4 / 1.0 / 2.2 non-zeros per row, 99.7 % of aux in A, 25 % in B, mostly bits */
    assert_true(st.per_row[0] > 2.35 && st.per_row[0] < 2.45);
    assert_true(st.per_row[1] > 0.98 && st.per_row[1] < 1.02);
    assert_true(st.per_row[2] > 2.15 && st.per_row[2] < 2.25);
    assert_true(st.a_aux_density > 0.994 && st.a_aux_density < 0.9995);
    assert_true(st.b_aux_density > 0.235 && st.b_aux_density < 0.265);
    assert_true(st.bit_fraction > 0.8);
    cuzk_r1cs_free(r);
    free(z);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    cuzk_r1cs_t *r = (cuzk_r1cs_t *)1;
    cuzk_fr_t *z = (cuzk_fr_t *)1;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_circuits_synthetic(CUZK_CIRCUITS_LOG2_MIN - 1, 1, 1, &r, &z, &err), CUZK_ERR_INVALID_ARG);
    assert_null(r);
    assert_null(z);
    assert_non_null(strstr(err.msg, "2^3"));
    assert_int_equal(cuzk_circuits_synthetic(CUZK_CIRCUITS_LOG2_MAX + 1, 1, 1, &r, &z, NULL), CUZK_ERR_INVALID_ARG);
    /* threads = 0 means 1 */
    assert_int_equal(cuzk_circuits_synthetic(6, 1, 0, &r, NULL, NULL), CUZK_OK);
    cuzk_r1cs_free(r);
}

/* ---- cuzk_r1cs_adopt ------------------------------------------------------------------------------------------------ */

/* x·x = y over ONE, one input and two aux, in parts that the caller owns until adopt. Column 2 is x, 3 is y. */
static void tiny_parts(cuzk_r1cs_parts *p)
{
    memset(p, 0, sizeof *p);
    p->num_inputs = 2;
    p->num_aux = 2;
    p->num_constraints = 1;
    p->num_values = 4;
    p->values = malloc(4 * sizeof(cuzk_fr_t));
    cuzk_fr_set_one(&p->values[0]);
    cuzk_fr_neg(&p->values[1], &p->values[0]);
    cuzk_fr_from_u64(&p->values[2], 3);
    cuzk_fr_set_one(&p->values[3]); /* a duplicate of 1 that adopt must merge */
    for (int k = 0; k < 3; k++) {
        p->row_ptr[k] = malloc(2 * sizeof(uint64_t));
        p->col[k] = malloc(sizeof(uint32_t));
        p->coef[k] = malloc(sizeof(uint32_t));
        p->row_ptr[k][0] = 0;
        p->row_ptr[k][1] = 1;
        p->nnz[k] = 1;
        p->col[k][0] = k < 2 ? 2 : 3;
        p->coef[k][0] = k == 1 ? 3 : 0;
    }
}

static void test_adopt(void **state)
{
    (void)state;
    cuzk_r1cs_parts p;
    cuzk_r1cs_t *r;
    cuzk_r1cs_err err = {{0}};
    tiny_parts(&p);
    assert_int_equal(cuzk_r1cs_adopt(&p, &r, &err), CUZK_OK);
    assert_null(p.values);              /* ownership moved */
    assert_int_equal(r->num_values, 2); /* 3 unused, the second 1 merged */
    assert_int_equal(r->m[1].coef[0], CUZK_R1CS_COEF_ONE);
    cuzk_fr_t z[4];
    cuzk_fr_set_one(&z[0]);
    cuzk_fr_from_u64(&z[1], 9);
    cuzk_fr_from_u64(&z[2], 5);
    cuzk_fr_from_u64(&z[3], 25);
    assert_int_equal(cuzk_r1cs_check(r, z, 1, NULL), CUZK_OK);
    assert_true(cuzk_r1cs_density_get(r->a_aux_density, 0));
    assert_false(cuzk_r1cs_density_get(r->a_aux_density, 1));
    cuzk_r1cs_free(r);

    /* each rejection, with the arrays freed (ASan checks that nothing leaks) */
    struct {
        int what;
        cuzk_status want;
    } bad[] = {
        {0, CUZK_ERR_R1CS_COLUMN}, {1, CUZK_ERR_R1CS_COEFF},  {2, CUZK_ERR_R1CS_ROW_PTR}, {3, CUZK_ERR_R1CS_COEFF},
        {4, CUZK_ERR_BAD_HEADER},  {5, CUZK_ERR_INVALID_ARG}, {6, CUZK_ERR_R1CS_COEFF},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tiny_parts(&p);
        switch (bad[i].what) {
        case 0: p.col[0][0] = 4; break;                /* column past the variables */
        case 1: p.coef[2][0] = 4; break;               /* id past the table */
        case 2: p.row_ptr[1][1] = 0; break;            /* row offsets end before nnz */
        case 3: cuzk_fr_set_zero(&p.values[2]); break; /* stored zero */
        case 4: p.num_inputs = 0; break;               /* no ONE */
        case 5:
            free(p.col[2]);
            p.col[2] = NULL;
            break;                                    /* missing array */
        case 6: cuzk_fr_set_one(&p.values[1]); break; /* table must start 1, -1 */
        }
        err.msg[0] = 0;
        assert_int_equal(cuzk_r1cs_adopt(&p, &r, &err), bad[i].want);
        assert_null(r);
        assert_true(err.msg[0] != 0);
    }
}

int test_group_synthetic(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_satisfied_at_several_sizes),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_witness_seed),
        cmocka_unit_test(test_canonical_against_builder),
        cmocka_unit_test(test_statistics),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_adopt),
    };
    return cmocka_run_group_tests_name("circuits", tests, NULL, NULL);
}
