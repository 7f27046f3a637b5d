/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Bitmaps and memory hints. */
#include <sys/mman.h>

#include "cuzk/base.h"

uint64_t cuzk_popcount(const uint64_t *bits, uint64_t n)
{
    uint64_t c = 0, words = n / 64;
    for (uint64_t i = 0; i < words; i++) c += (uint64_t)__builtin_popcountll(bits[i]);
    if (n % 64) c += (uint64_t)__builtin_popcountll(bits[words] & ((1ULL << (n % 64)) - 1));
    return c;
}

void cuzk_advise_huge(void *p, size_t bytes)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    /* only a hint: where THP is off or madvise fails the memory stays in plain pages */
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
