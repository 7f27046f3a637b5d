/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared by the ff test files. */
#ifndef CUZK_TEST_FF_H
#define CUZK_TEST_FF_H

#include "testutil.h"

extern const struct CMUnitTest path_tests[];
extern const size_t path_tests_count;

#endif
