/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared pieces of the Filecoin format tests (main is in fil_main.c): fixture paths, file and text helpers, and the
 * test lists of each file. */
#ifndef CUZK_FIL_TESTS_H
#define CUZK_FIL_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin.h"
#include "testutil.h"

/* CUZK_FIL_FIXTURES (tests/fixtures/filecoin) and CUZK_FIL_MANIFEST (src/filecoin/parameters.json) come from CMake. */

/* Whole file (malloc'd, NUL-terminated); fails the test when unreadable. */
uint8_t *fil_test_read(const char *path, size_t *len);
/* A fresh temporary directory (caller removes it with fil_test_rmtree). */
void fil_test_tmpdir(char *out, size_t cap);
void fil_test_rmtree(const char *dir);
/* malloc'd copy of s with the n-th (0-based) occurrence of `from` replaced by `to`; fails the test when absent. */
char *fil_test_replace(const char *s, const char *from, const char *to, int n);
/* Offset of the n-th occurrence of pat in s at or after start; fails the test when absent. */
size_t fil_test_find(const char *s, const char *pat, size_t start, int n);
/* true when haystack contains needle (prints both when not, for the failure) */
bool fil_test_has(const char *haystack, const char *needle);

extern const struct CMUnitTest fil_registry_tests[];
extern const size_t fil_registry_count;
extern const struct CMUnitTest fil_params_tests[];
extern const size_t fil_params_count;
extern const struct CMUnitTest fil_post_tests[];
extern const size_t fil_post_count;
extern const struct CMUnitTest fil_snap_tests[];
extern const size_t fil_snap_count;
extern const struct CMUnitTest fil_merkle_tests[];
extern const size_t fil_merkle_count;
extern const struct CMUnitTest fil_c1_tests[];
extern const size_t fil_c1_count;

#endif
