/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static uint64_t rng_state[4];

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** seeded through splitmix64 */
uint64_t test_rand_u64(void)
{
    uint64_t *s = rng_state;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t test_seed_init(void)
{
    uint64_t seed;
    const char *env = getenv("CUZK_TEST_SEED");
    if (env) {
        seed = strtoull(env, NULL, 0);
    } else if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) {
        seed = 0x5eed;
    }
    fprintf(stderr, "test seed: CUZK_TEST_SEED=0x%016llx\n", (unsigned long long)seed);
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) {
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        rng_state[i] = x ^ (x >> 31);
    }
    return seed;
}

void test_rand_bytes(uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)test_rand_u64();
}

void test_rand_fp(cuzk_fp_t *r)
{
    uint64_t l[CUZK_FP_LIMBS];
    do {
        for (int i = 0; i < CUZK_FP_LIMBS; i++) l[i] = test_rand_u64();
        l[CUZK_FP_LIMBS - 1] &= (1ULL << 61) - 1;
    } while (cuzk_fp_from_limbs(r, l) != CUZK_OK);
}

void test_rand_fr(cuzk_fr_t *r)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        for (int i = 0; i < CUZK_FR_LIMBS; i++) l[i] = test_rand_u64();
        l[CUZK_FR_LIMBS - 1] &= (1ULL << 63) - 1;
    } while (cuzk_fr_from_limbs(r, l) != CUZK_OK);
}

void test_rand_fp2(cuzk_fp2_t *r)
{
    test_rand_fp(&r->c0);
    test_rand_fp(&r->c1);
}

void tb_put(tbuf *b, const void *src, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (b->p == NULL) abort();
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

void tb_u32(tbuf *b, uint32_t v) { tb_put(b, &v, 4); }
void tb_u64(tbuf *b, uint64_t v) { tb_put(b, &v, 8); }
