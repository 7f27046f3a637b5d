/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared by the pairing test files. */
#ifndef CUZK_TEST_PAIRING_H
#define CUZK_TEST_PAIRING_H

#include "testutil.h"
#include "cuzk/pairing.h"

void rand_fp6(cuzk_fp6_t *r);
void rand_fp12(cuzk_fp12_t *r);

extern const struct CMUnitTest tower_tests[];
extern const size_t tower_tests_count;
extern const struct CMUnitTest pairing_tests[];
extern const size_t pairing_tests_count;
extern const struct CMUnitTest path_tests[];
extern const size_t path_tests_count;

#endif
