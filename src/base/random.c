/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Randomness from the operating system. */
#include <errno.h>
#include <sys/random.h>

#include "cuzk/base.h"

cuzk_status cuzk_random_bytes(void *out, size_t n)
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
