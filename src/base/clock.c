/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The one monotonic clock. */
#include <time.h>

#include "cuzk/base.h"

uint64_t cuzk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double cuzk_now(void) { return 1e-9 * (double)cuzk_now_ns(); }
