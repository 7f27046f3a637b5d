/* test_pairing: the Fp6/Fp12 tower. */
#include "test_pairing.h"

int main(void)
{
    test_seed_init();
    return _cmocka_run_group_tests("tower", tower_tests, tower_tests_count, NULL, NULL);
}
