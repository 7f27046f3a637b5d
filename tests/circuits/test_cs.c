/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "testutil.h"
#include "circ_test.h"
static void test_placeholder(void **state) { (void)state; }
int test_group_cs(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_placeholder)};
    return cmocka_run_group_tests_name("circuits_cs", tests, NULL, NULL);
}
