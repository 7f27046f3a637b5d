/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "post_tests.h"
const struct CMUnitTest post_witness_tests[] = {};
const size_t post_witness_count = 0;
