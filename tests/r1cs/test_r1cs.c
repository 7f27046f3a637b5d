/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Builder, densities, SpMV and the satisfiability check against a naive evaluation of the terms as entered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r1cs_tests.h"

static void rand_coeff(cuzk_fr_t *c)
{
    /* mostly ±1 and small values, as in Filecoin circuits, some arbitrary */
    switch (test_rand_u64() % 6) {
    case 0:
    case 1: cuzk_fr_set_one(c); break;
    case 2:
        cuzk_fr_set_one(c);
        cuzk_fr_neg(c, c);
        break;
    case 3: cuzk_fr_from_u64(c, 1 + test_rand_u64() % 8); break;
    case 4: cuzk_fr_from_u64(c, 1ULL << (test_rand_u64() % 64)); break;
    default: test_rand_fr(c); break;
    }
}

static cuzk_r1cs_var col_var(uint32_t ni, uint32_t col)
{
    return col < ni ? CUZK_R1CS_INPUT(col) : CUZK_R1CS_AUX(col - ni);
}

void test_circuit_eval(const test_circuit *t, int k, const cuzk_fr_t *z, cuzk_fr_t *out)
{
    for (uint64_t i = 0; i < t->rows; i++) cuzk_fr_set_zero(&out[i]);
    for (size_t e = 0; e < t->nent; e++) {
        if (t->ent[e].k != k) continue;
        cuzk_fr_t x;
        cuzk_fr_mul(&x, &t->ent[e].coeff, &z[t->ent[e].col]);
        cuzk_fr_add(&out[t->ent[e].row], &out[t->ent[e].row], &x);
    }
}

void test_circuit_make(test_circuit *t, uint32_t ni, uint32_t na_free, uint64_t rows)
{
    memset(t, 0, sizeof *t);
    t->ni = ni;
    t->na = na_free + (uint32_t)rows;
    t->rows = rows;
    uint64_t nv = (uint64_t)ni + t->na;
    t->ent = malloc(rows * 17 * sizeof *t->ent);
    t->z = calloc(nv, sizeof(cuzk_fr_t));
    cuzk_fr_set_one(&t->z[0]);
    /* free variables: mostly bits, like Filecoin witnesses; out variables are set below */
    for (uint64_t j = 1; j < ni + (uint64_t)na_free; j++) {
        if (test_rand_u64() % 4) cuzk_fr_from_u64(&t->z[j], test_rand_u64() & 1);
        else test_rand_fr(&t->z[j]);
    }
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(ni);
    assert_non_null(b);
    for (uint32_t j = 0; j < t->na; j++) {
        cuzk_r1cs_var v;
        assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, &v), CUZK_OK);
        assert_true(v == CUZK_R1CS_AUX(j));
    }
    uint32_t nfree = ni + na_free;
    for (uint64_t i = 0; i < rows; i++) {
        cuzk_r1cs_term lc[3][8];
        size_t n[3];
        cuzk_fr_t sum[3];
        for (int k = 0; k < 3; k++) {
            cuzk_fr_set_zero(&sum[k]);
            n[k] = test_rand_u64() % (k == 1 ? 3 : 5) + (k == 2 ? 0 : 1);
            for (size_t e = 0; e < n[k]; e++) {
                /* small column range so repeated variables (which the builder must sum) occur */
                uint32_t col = (uint32_t)(test_rand_u64() % nfree);
                lc[k][e].var = col_var(ni, col);
                rand_coeff(&lc[k][e].coeff);
                t->ent[t->nent++] = (struct test_entry){i, col, (uint8_t)k, lc[k][e].coeff};
                cuzk_fr_t x;
                cuzk_fr_mul(&x, &lc[k][e].coeff, &t->z[col]);
                cuzk_fr_add(&sum[k], &sum[k], &x);
            }
        }
        /* the out variable of row i closes the constraint: coeff·out = a·b − (rest of C) */
        uint32_t out = nfree + (uint32_t)i;
        cuzk_fr_t co, ab, inv;
        rand_coeff(&co);
        lc[2][n[2]].var = col_var(ni, out);
        lc[2][n[2]].coeff = co;
        n[2]++;
        t->ent[t->nent++] = (struct test_entry){i, out, 2, co};
        cuzk_fr_mul(&ab, &sum[0], &sum[1]);
        cuzk_fr_sub(&ab, &ab, &sum[2]);
        cuzk_fr_inv(&inv, &co);
        cuzk_fr_mul(&t->z[out], &ab, &inv);
        assert_int_equal(cuzk_r1cs_builder_enforce(b, lc[0], n[0], lc[1], n[1], lc[2], n[2]), CUZK_OK);
    }
    assert_int_equal(cuzk_r1cs_builder_finish(b, &t->r), CUZK_OK);
}

void test_circuit_free(test_circuit *t)
{
    free(t->ent);
    free(t->z);
    cuzk_r1cs_free(t->r);
}

uint64_t test_circuit_first_bad(const test_circuit *t, const cuzk_fr_t *z)
{
    cuzk_fr_t *v[3];
    uint64_t bad = UINT64_MAX;
    for (int k = 0; k < 3; k++) {
        v[k] = malloc(t->rows * sizeof(cuzk_fr_t));
        test_circuit_eval(t, k, z, v[k]);
    }
    for (uint64_t i = 0; i < t->rows && bad == UINT64_MAX; i++) {
        cuzk_fr_mul(&v[0][i], &v[0][i], &v[1][i]);
        if (!cuzk_fr_eq(&v[0][i], &v[2][i])) bad = i;
    }
    for (int k = 0; k < 3; k++) free(v[k]);
    return bad;
}

bool test_r1cs_equal(const cuzk_r1cs_t *x, const cuzk_r1cs_t *y)
{
    if (x->num_inputs != y->num_inputs || x->num_aux != y->num_aux || x->num_constraints != y->num_constraints ||
        x->num_values != y->num_values || memcmp(x->identity, y->identity, 32) != 0)
        return false;
    for (int k = 0; k < 3; k++) {
        const cuzk_r1cs_matrix *a = &x->m[k], *b = &y->m[k];
        if (a->nnz != b->nnz || memcmp(a->row_ptr, b->row_ptr, (x->num_constraints + 1) * 8) != 0 ||
            memcmp(a->col, b->col, a->nnz * 4) != 0 || memcmp(a->coef, b->coef, a->nnz * 4) != 0)
            return false;
    }
    uint64_t wa = (x->num_aux + 63) / 64, wi = (x->num_inputs + 63) / 64;
    return memcmp(x->values, y->values, x->num_values * sizeof(cuzk_fr_t)) == 0 &&
           memcmp(x->a_aux_density, y->a_aux_density, wa * 8) == 0 &&
           memcmp(x->b_input_density, y->b_input_density, wi * 8) == 0 &&
           memcmp(x->b_aux_density, y->b_aux_density, wa * 8) == 0;
}

void test_tmp_path(char *out, size_t len, const char *suffix)
{
    static unsigned counter;
    snprintf(out, len, "/tmp/cuzk_r1cs_test_%d_%u_%llx%s", (int)getpid(), counter++,
             (unsigned long long)test_rand_u64(), suffix);
}

/* ---- tests ------------------------------------------------------------------------------------------------------- */

/* The CSR matrices expand to exactly the dense matrices, rows are sorted, densities match the dense columns. */
static void test_builder_matches_dense(void **state)
{
    (void)state;
    test_circuit t;
    test_circuit_make(&t, 5, 30, 60);
    const cuzk_r1cs_t *r = t.r;
    uint64_t nv = cuzk_r1cs_num_vars(r);
    assert_int_equal(r->num_inputs, 5);
    assert_int_equal(r->num_aux, 90);
    assert_int_equal(r->num_constraints, 60);
    assert_true(cuzk_fr_is_one(&r->values[CUZK_R1CS_COEF_ONE]));
    cuzk_fr_t m1;
    cuzk_fr_set_one(&m1);
    cuzk_fr_neg(&m1, &m1);
    assert_true(cuzk_fr_eq(&r->values[CUZK_R1CS_COEF_MINUS_ONE], &m1));
    bool used_a[200] = {0}, used_b[200] = {0};
    cuzk_fr_t *dense = calloc(r->num_constraints * nv, sizeof(cuzk_fr_t));
    for (int k = 0; k < 3; k++) {
        memset(dense, 0, r->num_constraints * nv * sizeof(cuzk_fr_t));
        for (size_t e = 0; e < t.nent; e++) {
            if (t.ent[e].k != k) continue;
            cuzk_fr_t *d = &dense[t.ent[e].row * nv + t.ent[e].col];
            cuzk_fr_add(d, d, &t.ent[e].coeff);
        }
        const cuzk_r1cs_matrix *m = &r->m[k];
        assert_int_equal(m->row_ptr[0], 0);
        assert_int_equal(m->row_ptr[r->num_constraints], m->nnz);
        for (uint64_t i = 0; i < r->num_constraints; i++) {
            cuzk_fr_t *row = calloc(nv, sizeof(cuzk_fr_t));
            for (uint64_t e = m->row_ptr[i]; e < m->row_ptr[i + 1]; e++) {
                if (e > m->row_ptr[i]) assert_true(m->col[e] > m->col[e - 1]);
                assert_true(m->coef[e] < r->num_values);
                assert_false(cuzk_fr_is_zero(&r->values[m->coef[e]]));
                row[m->col[e]] = r->values[m->coef[e]];
                if (k == 0) used_a[m->col[e]] = true;
                if (k == 1) used_b[m->col[e]] = true;
            }
            for (uint64_t j = 0; j < nv; j++) assert_true(cuzk_fr_eq(&row[j], &dense[i * nv + j]));
            free(row);
        }
    }
    free(dense);
    for (uint64_t j = 0; j < nv; j++) {
        if (j >= r->num_inputs) {
            assert_int_equal(cuzk_r1cs_density_get(r->a_aux_density, j - r->num_inputs), used_a[j]);
            assert_int_equal(cuzk_r1cs_density_get(r->b_aux_density, j - r->num_inputs), used_b[j]);
        } else {
            assert_int_equal(cuzk_r1cs_density_get(r->b_input_density, j), used_b[j]);
        }
    }
    uint8_t id[32];
    cuzk_r1cs_identity(r, id);
    assert_memory_equal(id, r->identity, 32);
    test_circuit_free(&t);
}

/* Same matrices entered in another term order and with split coefficients: same identity. A different matrix:
 * a different identity. Inputs allocated after aux still come first. */
static void test_builder_canonical(void **state)
{
    (void)state;
    cuzk_fr_t one, two, three, five;
    cuzk_fr_set_one(&one);
    cuzk_fr_from_u64(&two, 2);
    cuzk_fr_from_u64(&three, 3);
    cuzk_fr_from_u64(&five, 5);
    cuzk_r1cs_t *r[3];
    for (int v = 0; v < 3; v++) {
        cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(1);
        cuzk_r1cs_var x, y, in;
        assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, &x), CUZK_OK);
        assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, &y), CUZK_OK);
        assert_int_equal(cuzk_r1cs_builder_alloc_input(b, &in), CUZK_OK);
        assert_true(in == CUZK_R1CS_INPUT(1));
        cuzk_r1cs_term a1[] = {{x, five}, {in, three}}, a2[] = {{in, one}, {x, three}, {in, two}, {x, two}};
        cuzk_r1cs_term bb[] = {{y, one}}, c[] = {{CUZK_R1CS_ONE, v == 2 ? two : three}};
        if (v == 1) assert_int_equal(cuzk_r1cs_builder_enforce(b, a2, 4, bb, 1, c, 1), CUZK_OK);
        else assert_int_equal(cuzk_r1cs_builder_enforce(b, a1, 2, bb, 1, c, 1), CUZK_OK);
        /* a variable that does not exist yet is refused and leaves no trace */
        cuzk_r1cs_term bad[] = {{CUZK_R1CS_AUX(7), one}};
        assert_int_equal(cuzk_r1cs_builder_enforce(b, a1, 2, bad, 1, c, 1), CUZK_ERR_R1CS_COLUMN);
        assert_int_equal(cuzk_r1cs_builder_finish(b, &r[v]), CUZK_OK);
    }
    assert_int_equal(r[0]->num_inputs, 2);
    assert_int_equal(r[0]->num_constraints, 1);
    /* A row: input 1 (col 1) with 3, x (col 2) with 5 */
    assert_int_equal(r[0]->m[0].nnz, 2);
    assert_int_equal(r[0]->m[0].col[0], 1);
    assert_int_equal(r[0]->m[0].col[1], 2);
    assert_true(cuzk_fr_eq(&r[0]->values[r[0]->m[0].coef[0]], &three));
    assert_true(test_r1cs_equal(r[0], r[1]));
    assert_memory_not_equal(r[0]->identity, r[2]->identity, 32);
    for (int v = 0; v < 3; v++) cuzk_r1cs_free(r[v]);
}

/* SpMV (all modes, 1..3 threads) agrees with the naive evaluation. */
static void test_spmv_matches_dense(void **state)
{
    (void)state;
    test_circuit t;
    test_circuit_make(&t, 3, 40, 5000); /* more rows than one chunk, so threads share the work */
    uint64_t nv = (uint64_t)t.ni + t.na, n = t.rows;
    cuzk_fr_t *a = malloc(n * sizeof(cuzk_fr_t)), *b = malloc(n * sizeof(cuzk_fr_t)),
              *c = malloc(n * sizeof(cuzk_fr_t));
    cuzk_fr_t *want = malloc(n * sizeof(cuzk_fr_t));
    cuzk_fr_t *outs[3] = {a, b, c};
    for (unsigned threads = 1; threads <= 3; threads++) {
        for (int mode = CUZK_R1CS_C_MATRIX; mode <= CUZK_R1CS_C_CHECKED; mode++) {
            memset(a, 0xff, n * sizeof(cuzk_fr_t));
            memset(c, 0xff, n * sizeof(cuzk_fr_t));
            assert_int_equal(cuzk_r1cs_spmv(t.r, t.z, a, b, c, (cuzk_r1cs_c_mode)mode, threads, NULL), CUZK_OK);
            for (int k = 0; k < 3; k++) {
                test_circuit_eval(&t, k, t.z, want);
                assert_memory_equal(want, outs[k], n * sizeof(cuzk_fr_t));
            }
        }
    }
    /* with a random (unsatisfying) z, C_MATRIX gives C·z and PRODUCT gives a∘b, which differ */
    cuzk_fr_t *z = malloc(nv * sizeof(cuzk_fr_t));
    for (uint64_t j = 0; j < nv; j++) test_rand_fr(&z[j]);
    assert_int_equal(cuzk_r1cs_spmv(t.r, z, a, b, c, CUZK_R1CS_C_MATRIX, 2, NULL), CUZK_OK);
    test_circuit_eval(&t, 2, z, want);
    assert_memory_equal(want, c, n * sizeof(cuzk_fr_t));
    assert_int_equal(cuzk_r1cs_spmv(t.r, z, a, b, c, CUZK_R1CS_C_PRODUCT, 2, NULL), CUZK_OK);
    cuzk_fr_t ab;
    cuzk_fr_mul(&ab, &a[17], &b[17]);
    assert_true(cuzk_fr_eq(&ab, &c[17]));
    assert_false(cuzk_fr_eq(&ab, &want[17]));
    assert_int_equal(cuzk_r1cs_spmv(t.r, z, a, b, c, (cuzk_r1cs_c_mode)7, 1, NULL), CUZK_ERR_INVALID_ARG);
    free(want);
    free(z);
    free(a);
    free(b);
    free(c);
    test_circuit_free(&t);
}

/* A satisfying witness passes; changing one value makes the check name the first row that uses it. */
static void test_check_reports_first_bad_row(void **state)
{
    (void)state;
    test_circuit t;
    test_circuit_make(&t, 4, 20, 3000);
    uint64_t bad = 12345;
    assert_int_equal(cuzk_r1cs_check(t.r, t.z, 2, &bad), CUZK_OK);
    assert_int_equal(bad, 12345);
    for (int trial = 0; trial < 6; trial++) {
        /* out variables pin one row each; free variables the first row that uses them */
        uint64_t j = trial < 3 ? t.ni + 20 + test_rand_u64() % t.rows : 1 + test_rand_u64() % (t.ni + 19);
        cuzk_fr_t saved = t.z[j], one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&t.z[j], &t.z[j], &one);
        uint64_t want = test_circuit_first_bad(&t, t.z);
        assert_true(want != UINT64_MAX);
        if (trial < 3) assert_int_equal(want, j - t.ni - 20);
        for (unsigned threads = 1; threads <= 3; threads++) {
            bad = 0;
            assert_int_equal(cuzk_r1cs_check(t.r, t.z, threads, &bad), CUZK_ERR_R1CS_UNSATISFIED);
            assert_int_equal(bad, want);
            cuzk_fr_t *c = malloc(t.rows * sizeof(cuzk_fr_t));
            bad = 0;
            assert_int_equal(cuzk_r1cs_spmv(t.r, t.z, NULL, NULL, c, CUZK_R1CS_C_CHECKED, threads, &bad),
                             CUZK_ERR_R1CS_UNSATISFIED);
            assert_int_equal(bad, want);
            free(c);
        }
        t.z[j] = saved;
    }
    /* z[0] must be ONE */
    cuzk_fr_set_zero(&t.z[0]);
    assert_int_equal(cuzk_r1cs_check(t.r, t.z, 1, &bad), CUZK_ERR_INVALID_ARG);
    test_circuit_free(&t);
}

static void test_builder_limits(void **state)
{
    (void)state;
    assert_null(cuzk_r1cs_builder_new(0));
    assert_null(cuzk_r1cs_builder_new(0x80000000u));
    /* an empty system is valid */
    cuzk_r1cs_t *r;
    assert_int_equal(cuzk_r1cs_builder_finish(cuzk_r1cs_builder_new(1), &r), CUZK_OK);
    assert_int_equal(r->num_constraints, 0);
    cuzk_fr_t z;
    cuzk_fr_set_one(&z);
    assert_int_equal(cuzk_r1cs_check(r, &z, 2, NULL), CUZK_OK);
    cuzk_r1cs_free(r);
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builder_matches_dense), cmocka_unit_test(test_builder_canonical),
        cmocka_unit_test(test_spmv_matches_dense),    cmocka_unit_test(test_check_reports_first_bad_row),
        cmocka_unit_test(test_builder_limits),
    };
    int fails = cmocka_run_group_tests_name("r1cs", tests, NULL, NULL);
    if (test_pce_count) fails += _cmocka_run_group_tests("pce", test_pce_tests, test_pce_count, NULL, NULL);
    if (test_iden3_count) fails += _cmocka_run_group_tests("iden3", test_iden3_tests, test_iden3_count, NULL, NULL);
    return fails;
}
