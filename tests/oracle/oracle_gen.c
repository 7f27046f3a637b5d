/* Prints operations with cuzk's results as JSON lines for tests/oracle/check.mjs to recompute with noble. */
#include <stdio.h>

#include "testutil.h"

int main(void)
{
    test_seed_init();
    return 0;
}
