/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Helpers shared by the tests: a seeded random source (fresh seed each run, printed so a failure can be replayed
 * with CUZK_TEST_SEED=<seed>) and random field elements. */
#ifndef CUZK_TESTUTIL_H
#define CUZK_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cuzk/ff.h"

/* Seeds from CUZK_TEST_SEED or the OS; prints the seed on stderr. Call once from main. */
uint64_t test_seed_init(void);
uint64_t test_rand_u64(void);
void test_rand_bytes(uint8_t *out, size_t n);
void test_rand_fp(cuzk_fp_t *r);
void test_rand_fr(cuzk_fr_t *r);
void test_rand_fp2(cuzk_fp2_t *r);

/* A growing byte buffer for tests that write file images (iden3 containers, keys) by hand; little-endian host. */
typedef struct {
    uint8_t *p;
    size_t len, cap;
} tbuf;
void tb_put(tbuf *b, const void *src, size_t n);
void tb_u32(tbuf *b, uint32_t v);
void tb_u64(tbuf *b, uint64_t v);

#endif
