/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shapes of registered circuits: the same bytes whatever the thread count, equal to their pinned identities, cached as
 * PCE files under their key (built once, mapped after, a damaged file rebuilt, an unusable directory named). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "post_tests.h"

static const cuzk_fil_proof *post(uint32_t id)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, id);
    assert_non_null(p);
    return p;
}

static void tmpdir(char *out, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(out, cap, "%s/cuzk-shapes-XXXXXX", t != NULL && t[0] != '\0' ? t : "/tmp");
    assert_non_null(mkdtemp(out));
}

static void rm_dir(const char *dir, const char *file)
{
    if (file != NULL) unlink(file);
    rmdir(dir);
}

/* The keys name the circuit: one per parameter file, the same for every API of a size, and stable. */
static void test_circuit_keys(void **state)
{
    (void)state;
    char k8[64], k13[64], k3[64];
    assert_int_equal(cuzk_fil_circuit_key(post(8), k8, sizeof k8, NULL), CUZK_OK);
    assert_int_equal(cuzk_fil_circuit_key(post(13), k13, sizeof k13, NULL), CUZK_OK);
    assert_int_equal(cuzk_fil_circuit_key(post(3), k3, sizeof k3, NULL), CUZK_OK);
    assert_string_equal(k8, k13);
    assert_string_equal(k8, "wpost-32g-9be1c283a4dd1f77");
    assert_string_equal(k3, "winning-32g-527d6199ac76cc0c");
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_circuit_key(post(8), k8, 12, &err), CUZK_ERR_TOO_LARGE);
    assert_int_equal(cuzk_fil_circuit_key(NULL, k8, sizeof k8, &err), CUZK_ERR_INVALID_ARG);
}

/* Every circuit small enough here: its shape is the same with 1 and 3 threads and equals its pinned identity. */
static void test_shapes_pinned(void **state)
{
    (void)state;
    static const uint32_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const cuzk_fil_proof *p = post(ids[i]);
        cuzk_r1cs_t *r1, *r3;
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_fil_circuit_shape(p, 1, &r1, &err), CUZK_OK);
        assert_int_equal(cuzk_fil_circuit_shape(p, 3, &r3, &err), CUZK_OK);
        assert_memory_equal(r1->identity, r3->identity, 32);
        cuzk_cs_counts c;
        assert_int_equal(cuzk_fil_circuit_counts(p, &c, NULL), CUZK_OK);
        assert_int_equal(c.rows, r1->num_constraints);
        assert_int_equal(c.inputs, r1->num_inputs);
        assert_int_equal(c.aux, r1->num_aux);
        for (int k = 0; k < 3; k++) assert_int_equal(c.nnz[k], r1->m[k].nnz);
        uint8_t pin[32];
        if (!cuzk_fil_circuit_pinned_identity(p, pin)) fail_msg("%s has no pinned identity", p->name);
        assert_memory_equal(pin, r1->identity, 32);
        cuzk_r1cs_free(r1);
        cuzk_r1cs_free(r3);
    }
}

static void test_shape_cache(void **state)
{
    (void)state;
    char dir[256], sub[300], path[512];
    tmpdir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/shapes", dir); /* made by the first call */
    const cuzk_fil_proof *p = post(10);
    assert_int_equal(cuzk_fil_shape_path(sub, p, path, sizeof path, NULL), CUZK_OK);
    assert_true(strstr(path, "/shapes/wpost-2k-") != NULL);
    cuzk_r1cs_t *r, *ref;
    bool built = false;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_circuit_shape(p, 1, &ref, NULL), CUZK_OK);
    assert_int_equal(cuzk_fil_shape_load_or_build(sub, p, 2, 0, &r, &built, &err), CUZK_OK);
    assert_true(built);
    assert_memory_equal(r->identity, ref->identity, 32);
    assert_non_null(r->map); /* mapped, as every later load */
    cuzk_r1cs_free(r);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    /* the V1_0 proof of the same size shares the file */
    assert_int_equal(cuzk_fil_shape_load_or_build(sub, post(5), 2, 0, &r, &built, &err), CUZK_OK);
    assert_false(built);
    assert_memory_equal(r->identity, ref->identity, 32);
    cuzk_r1cs_free(r);
    /* a damaged file is rebuilt */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, st.st_size / 2, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, st.st_size / 2, SEEK_SET);
    fputc(ch ^ 0x10, f);
    fclose(f);
    assert_int_equal(cuzk_fil_shape_load_or_build(sub, p, 1, 0, &r, &built, &err), CUZK_OK);
    assert_true(built);
    assert_memory_equal(r->identity, ref->identity, 32);
    cuzk_r1cs_free(r);
    cuzk_r1cs_free(ref);
    rm_dir(sub, path);
    /* a path that is a file, and no directory */
    snprintf(sub, sizeof sub, "%s/file", dir);
    f = fopen(sub, "w");
    fclose(f);
    assert_int_equal(cuzk_fil_shape_load_or_build(sub, p, 1, 0, &r, &built, &err), CUZK_ERR_IO);
    assert_true(strstr(err.msg, "cannot create the directory: Not a directory") != NULL);
    assert_null(r);
    unlink(sub);
    assert_int_equal(cuzk_fil_shape_load_or_build(NULL, p, 1, 0, &r, &built, &err), CUZK_ERR_INVALID_ARG);
    rm_dir(dir, NULL);
}

const struct CMUnitTest post_shape_tests[] = {
    cmocka_unit_test(test_circuit_keys),
    cmocka_unit_test(test_shapes_pinned),
    cmocka_unit_test(test_shape_cache),
};
const size_t post_shape_count = sizeof post_shape_tests / sizeof post_shape_tests[0];
