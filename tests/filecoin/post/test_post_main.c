/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The FallbackPoSt circuit tests: counts against the Rust tests and the parameter tables, witnesses from generated and
 * real vanilla proofs, proofs with test keys, shapes cached as PCE files. */
#include <stdio.h>
#include <stdlib.h>

#include "post_tests.h"

uint8_t *post_test_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

int main(void)
{
    test_seed_init();
    /* POST_TEST_FILTER=test_name (a cmocka pattern) runs only the matching tests */
    const char *filter = getenv("POST_TEST_FILTER");
    if (filter != NULL && filter[0] != '\0') cmocka_set_test_filter(filter);
    int fails = 0;
    fails += _cmocka_run_group_tests("post_counts", post_count_tests, post_count_count, NULL, NULL);
    fails += _cmocka_run_group_tests("post_witness", post_witness_tests, post_witness_count, NULL, NULL);
    fails += _cmocka_run_group_tests("post_fixture", post_fixture_tests, post_fixture_count, NULL, NULL);
    fails += _cmocka_run_group_tests("post_shapes", post_shape_tests, post_shape_count, NULL, NULL);
    return fails;
}
