#include "r1cs_tests.h"
static void test_iden3_stub(void **state) { (void)state; }
const struct CMUnitTest test_iden3_tests[] = {cmocka_unit_test(test_iden3_stub)};
const size_t test_iden3_count = 0;
