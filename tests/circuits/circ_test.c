/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "circ_test.h"

void circ_run_all(circ_fn fn, void *ctx, circ_run *out)
{
    cuzk_errmsg err = {{0}};
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    assert_non_null(cs);
    fn(cs, ctx);
    cuzk_r1cs_t *r = NULL;
    cuzk_status s = cuzk_cs_finish(cs, &r, NULL, &err);
    if (s != CUZK_OK) fail_msg("SHAPE: %s: %s", cuzk_status_str(s), err.msg);

    uint64_t nv = cuzk_r1cs_num_vars(r);
    cuzk_fr_t *z = malloc((nv ? nv : 1) * sizeof *z);
    assert_non_null(z);
    cs = cuzk_cs_new(CUZK_CS_WITNESS, z, r->num_inputs, r->num_aux);
    assert_non_null(cs);
    fn(cs, ctx);
    assert_int_equal(cs->next_row, r->num_constraints);
    s = cuzk_cs_finish(cs, NULL, NULL, &err);
    if (s != CUZK_OK) fail_msg("WITNESS: %s: %s", cuzk_status_str(s), err.msg);
    uint64_t bad = UINT64_MAX;
    s = cuzk_r1cs_check(r, z, 1, &bad);
    if (s != CUZK_OK) {
        char *path = circ_row_path(fn, ctx, bad);
        fail_msg("witness does not satisfy the shape: row %llu (%s)", (unsigned long long)bad, path ? path : "?");
    }

    cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
    assert_non_null(cs);
    fn(cs, ctx);
    cuzk_r1cs_t *r2 = NULL;
    cuzk_fr_t *z2 = NULL;
    s = cuzk_cs_finish(cs, &r2, &z2, &err);
    if (s != CUZK_OK) fail_msg("CHECK: %s: %s", cuzk_status_str(s), err.msg);
    assert_memory_equal(r->identity, r2->identity, 32);
    assert_memory_equal(z, z2, nv * sizeof *z);
    cuzk_r1cs_free(r2);
    free(z2);

    cuzk_cs_counts c;
    circ_count(fn, ctx, &c);
    assert_int_equal(c.inputs, r->num_inputs);
    assert_int_equal(c.aux, r->num_aux);
    assert_int_equal(c.rows, r->num_constraints);
    for (int k = 0; k < 3; k++) assert_int_equal(c.nnz[k], r->m[k].nnz);
    out->r = r;
    out->z = z;
}

void circ_run_free(circ_run *run)
{
    cuzk_r1cs_free(run->r);
    free(run->z);
    run->r = NULL;
    run->z = NULL;
}

cuzk_status circ_check(circ_fn fn, void *ctx, cuzk_errmsg *err)
{
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
    assert_non_null(cs);
    fn(cs, ctx);
    return cuzk_cs_finish(cs, NULL, NULL, err);
}

void circ_count(circ_fn fn, void *ctx, cuzk_cs_counts *out)
{
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
    assert_non_null(cs);
    fn(cs, ctx);
    cuzk_cs_get_counts(cs, out);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, NULL), CUZK_OK);
}

char *circ_row_path(circ_fn fn, void *ctx, uint64_t row)
{
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, NULL, 0, 0);
    assert_non_null(cs);
    assert_int_equal(cuzk_cs_watch_row(cs, row), CUZK_OK);
    fn(cs, ctx);
    const char *p = cuzk_cs_watched(cs);
    char *copy = p != NULL ? strdup(p) : NULL;
    cuzk_cs_free(cs);
    return copy;
}

cuzk_fr_t *circ_value(cuzk_cs *cs, cuzk_var v) { return (cuzk_fr_t *)cuzk_cs_value(cs, v); }
