/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* test_pairing: the Fp6/Fp12 tower, then the pairing, then both on every CPU path. */
#include "test_pairing.h"

int main(void)
{
    test_seed_init();
    int failed = _cmocka_run_group_tests("tower", tower_tests, tower_tests_count, NULL, NULL);
    failed += _cmocka_run_group_tests("pairing", pairing_tests, pairing_tests_count, NULL, NULL);
    failed += _cmocka_run_group_tests("cpu paths", path_tests, path_tests_count, NULL, NULL);
    return failed;
}
