/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared by the GPU layer's host tests (test_mont28.c, test_witness_pack.c: one executable). */
#ifndef CUZK_TESTS_GPU_HOST_TEST_H
#define CUZK_TESTS_GPU_HOST_TEST_H

/* The witness packing tests (test_witness_pack.c); returns the failures. */
int run_witness_pack_tests(void);

#endif
