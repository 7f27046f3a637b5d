/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The FallbackPoSt circuit tests (main in test_post_main.c): test lists of each file and shared helpers. */
#ifndef CUZK_POST_TESTS_H
#define CUZK_POST_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin.h"
#include "testutil.h"
#include "post_gen.h"

/* CUZK_FIL_FIXTURES (tests/fixtures/filecoin) comes from CMake. */
uint8_t *post_test_read(const char *path, size_t *len);

extern const struct CMUnitTest post_count_tests[];
extern const size_t post_count_count;
extern const struct CMUnitTest post_witness_tests[];
extern const size_t post_witness_count;
extern const struct CMUnitTest post_fixture_tests[];
extern const size_t post_fixture_count;
extern const struct CMUnitTest post_shape_tests[];
extern const size_t post_shape_count;

#endif
