/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The circuits layer's tests: synthetic systems, the constraint system, gadgets, SHA-256, Merkle inclusion. */
#include "testutil.h"
#include "circ_test.h"

int main(void)
{
    test_seed_init();
    int failed = 0;
    failed += test_group_synthetic();
    failed += test_group_cs();
    failed += test_group_gadgets();
    failed += test_group_sha256();
    failed += test_group_por();
    return failed != 0;
}
