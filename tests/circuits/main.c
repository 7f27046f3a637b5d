/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The circuits layer's tests: synthetic systems, the constraint system, gadgets, SHA-256, Merkle inclusion, the
 * Poseidon gadget. */
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
    failed += test_group_poseidon_gadget();
    return failed != 0;
}
