/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "post_tests.h"
const struct CMUnitTest post_fixture_tests[] = {};
const size_t post_fixture_count = 0;
