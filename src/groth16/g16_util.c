/* Small helpers of the groth16 layer: error details, OS randomness, sizes, time. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>

#include "g16_internal.h"

cuzk_status cuzk_g16_random_bytes(void *out, size_t n)
{
    uint8_t *p = out;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return CUZK_ERR_IO;
        }
        p += got;
        n -= (size_t)got;
    }
    return CUZK_OK;
}

cuzk_status cuzk_g16_random_fr(cuzk_fr_t *r)
{
    /* r is a 255-bit prime a little under 2^255: draws of 255 bits are accepted with probability ~0.45, and an
     * accepted draw is uniform in [0, r). */
    for (;;) {
        uint64_t l[CUZK_FR_LIMBS];
        cuzk_status s = cuzk_g16_random_bytes(l, sizeof l);
        if (s != CUZK_OK) return s;
        l[CUZK_FR_LIMBS - 1] &= UINT64_MAX >> 1;
        if (cuzk_fr_from_limbs(r, l) == CUZK_OK) return CUZK_OK;
    }
}

unsigned cuzk_g16_log2_ceil(uint64_t x)
{
    unsigned k = 0;
    while (k < 64 && ((uint64_t)1 << k) < x) k++;
    return k;
}

uint64_t cuzk_g16_popcount(const uint64_t *bits, uint64_t n)
{
    uint64_t c = 0, words = n / 64;
    for (uint64_t i = 0; i < words; i++) c += (uint64_t)__builtin_popcountll(bits[i]);
    if (n % 64) c += (uint64_t)__builtin_popcountll(bits[words] & ((1ULL << (n % 64)) - 1));
    return c;
}

double cuzk_g16_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cuzk_g16_advise_huge(void *p, size_t bytes)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    /* only a hint: where THP is off or madvise fails the memory stays in plain pages */
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
