/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The manifest digest (first 128 bits of BLAKE2b-512) and the directory check, on small files made here whose
 * digests the test computes itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "fil_tests.h"

static void write_file(const char *dir, const char *name, const uint8_t *data, size_t n)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    if (n > 0) assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* the expected digest, in one call over the bytes in memory */
static void digest_of(const uint8_t *data, size_t n, char hex[33])
{
    uint8_t md[64];
    unsigned len = 0;
    assert_true(EVP_Digest(data, n, md, &len, EVP_blake2b512(), NULL));
    assert_int_equal(len, 64);
    for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

/* RFC 7693 appendix A (BLAKE2b-512 of "abc") and the empty message */
static void test_digest_known(void **state)
{
    (void)state;
    char dir[256], path[512], hex[33];
    fil_test_tmpdir(dir, sizeof dir);
    uint64_t bytes = 99;
    write_file(dir, "abc", (const uint8_t *)"abc", 3);
    snprintf(path, sizeof path, "%s/abc", dir);
    assert_int_equal(cuzk_fil_file_digest(path, hex, &bytes, NULL), CUZK_OK);
    assert_string_equal(hex, "ba80a53f981c4d0d6a2797b69f12f6e9");
    assert_int_equal(bytes, 3);
    write_file(dir, "empty", NULL, 0);
    snprintf(path, sizeof path, "%s/empty", dir);
    assert_int_equal(cuzk_fil_file_digest(path, hex, &bytes, NULL), CUZK_OK);
    assert_string_equal(hex, "786a02f742015903c6c6fd852552d272");
    assert_int_equal(bytes, 0);
    cuzk_errmsg err = {{0}};
    snprintf(path, sizeof path, "%s/none", dir);
    assert_int_equal(cuzk_fil_file_digest(path, hex, &bytes, &err), CUZK_ERR_IO);
    assert_true(fil_test_has(err.msg, "No such file"));
    assert_int_equal(cuzk_fil_file_digest(dir, hex, &bytes, &err), CUZK_ERR_IO);
    assert_true(fil_test_has(err.msg, "not a readable regular file"));
    fil_test_rmtree(dir);
}

/* A file of more than one hashing step (16 MiB), its size no multiple of a page or a block. */
static void test_digest_streamed(void **state)
{
    (void)state;
    size_t n = (16u << 20) + 12345;
    uint8_t *data = malloc(n);
    assert_non_null(data);
    test_rand_bytes(data, n);
    char dir[256], path[512], hex[33], want[33];
    fil_test_tmpdir(dir, sizeof dir);
    write_file(dir, "big", data, n);
    snprintf(path, sizeof path, "%s/big", dir);
    uint64_t bytes = 0;
    assert_int_equal(cuzk_fil_file_digest(path, hex, &bytes, NULL), CUZK_OK);
    digest_of(data, n, want);
    assert_string_equal(hex, want);
    assert_int_equal(bytes, n);
    free(data);
    fil_test_rmtree(dir);
}

/* A caller's manifest over fake files: OK, wrong digest, missing, not a file. */
static void test_check_list(void **state)
{
    (void)state;
    char dir[256];
    fil_test_tmpdir(dir, sizeof dir);
    uint8_t a[1000], b[77];
    test_rand_bytes(a, sizeof a);
    test_rand_bytes(b, sizeof b);
    char da[33], db[33];
    digest_of(a, sizeof a, da);
    digest_of(b, sizeof b, db);
    write_file(dir, "a.params", a, sizeof a);
    write_file(dir, "b.vk", b, sizeof b);
    b[0] ^= 1;
    write_file(dir, "c.vk", b, sizeof b); /* c's manifest digest is b's: one byte differs */
    char sub[512];
    snprintf(sub, sizeof sub, "%s/d.params", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    const cuzk_fil_param list[] = {
        {"a.params", "cidA", da, 2048, CUZK_FIL_KIND_POREP, false},
        {"b.vk", "cidB", db, 2048, CUZK_FIL_KIND_POREP, true},
        {"c.vk", "cidC", db, 2048, CUZK_FIL_KIND_SNAP, true},
        {"missing.vk", "cidM", db, 2048, CUZK_FIL_KIND_SNAP, true},
        {"d.params", "cidD", da, 2048, CUZK_FIL_KIND_SNAP, false},
    };
    static const cuzk_fil_param_state want[] = {CUZK_FIL_PARAM_OK, CUZK_FIL_PARAM_OK, CUZK_FIL_PARAM_WRONG,
                                                CUZK_FIL_PARAM_MISSING, CUZK_FIL_PARAM_ERROR};
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        cuzk_fil_params_check_opts o = {0, NULL, 0, false, threads};
        cuzk_fil_param_result r[5];
        assert_int_equal(cuzk_fil_params_check_list(dir, list, 5, &o, r, NULL), CUZK_OK);
        for (int i = 0; i < 5; i++) {
            assert_ptr_equal(r[i].param, &list[i]);
            assert_int_equal(r[i].state, want[i]);
        }
        assert_string_equal(r[0].digest, da);
        assert_int_equal(r[0].bytes, sizeof a);
        assert_string_not_equal(r[2].digest, db);
        assert_true(fil_test_has(r[4].detail, "not a readable regular file"));
    }
    fil_test_rmtree(dir);
}

/* The manifest with filters, over an empty directory: everything selected is missing. */
static void test_check_manifest_filters(void **state)
{
    (void)state;
    char dir[256];
    fil_test_tmpdir(dir, sizeof dir);
    size_t total = cuzk_fil_params_count(), n = 0;
    cuzk_fil_param_result *r = calloc(total, sizeof *r);
    assert_non_null(r);
    assert_int_equal(cuzk_fil_params_check(dir, NULL, r, &n, NULL), CUZK_OK);
    assert_int_equal(n, total);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(r[i].param, cuzk_fil_params_at(i));
        assert_int_equal(r[i].state, CUZK_FIL_PARAM_MISSING);
    }
    cuzk_fil_params_check_opts o = {0, NULL, 0, true, 2};
    assert_int_equal(cuzk_fil_params_check(dir, &o, r, &n, NULL), CUZK_OK);
    assert_int_equal(n, 22);
    uint64_t sizes[] = {32ULL << 30};
    o = (cuzk_fil_params_check_opts){1u << CUZK_FIL_KIND_POREP | 1u << CUZK_FIL_KIND_WINDOW_POST, sizes, 1, false, 1};
    assert_int_equal(cuzk_fil_params_check(dir, &o, r, &n, NULL), CUZK_OK);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(r[i].param->sector_size, sizes[0]);
        assert_true(r[i].param->kind == CUZK_FIL_KIND_POREP || r[i].param->kind == CUZK_FIL_KIND_WINDOW_POST);
    }
    o = (cuzk_fil_params_check_opts){1u << CUZK_FIL_KIND_SNAP_POSEIDON, NULL, 0, false, 1};
    assert_int_equal(cuzk_fil_params_check(dir, &o, r, &n, NULL), CUZK_OK);
    assert_int_equal(n, 4);
    free(r);
    fil_test_rmtree(dir);
}

static void test_default_dir(void **state)
{
    (void)state;
    const char *old = getenv("FIL_PROOFS_PARAMETER_CACHE");
    char *saved = old != NULL ? strdup(old) : NULL;
    setenv("FIL_PROOFS_PARAMETER_CACHE", "/srv/params", 1);
    assert_string_equal(cuzk_fil_params_default_dir(), "/srv/params");
    setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1);
    assert_string_equal(cuzk_fil_params_default_dir(), "/var/tmp/filecoin-proof-parameters");
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    assert_string_equal(cuzk_fil_params_default_dir(), "/var/tmp/filecoin-proof-parameters");
    if (saved != NULL) setenv("FIL_PROOFS_PARAMETER_CACHE", saved, 1);
    free(saved);
}

const struct CMUnitTest fil_params_tests[] = {
    cmocka_unit_test(test_digest_known), cmocka_unit_test(test_digest_streamed),
    cmocka_unit_test(test_check_list),   cmocka_unit_test(test_check_manifest_filters),
    cmocka_unit_test(test_default_dir),
};
const size_t fil_params_count = sizeof fil_params_tests / sizeof fil_params_tests[0];
