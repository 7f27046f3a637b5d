#include "r1cs_tests.h"
static void test_pce_stub(void **state) { (void)state; }
const struct CMUnitTest test_pce_tests[] = {cmocka_unit_test(test_pce_stub)};
const size_t test_pce_count = 0;
const struct CMUnitTest test_iden3_tests[] = {cmocka_unit_test(test_pce_stub)};
const size_t test_iden3_count = 0;
