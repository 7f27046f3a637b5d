/* Internals shared by the prover, verifier, setup and key sources of the groth16 layer. */
#ifndef CUZK_G16_INTERNAL_H
#define CUZK_G16_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"

/* Returns s after writing the printf-style detail into err (when err is not NULL). */
cuzk_status g16_fail(cuzk_errmsg *err, cuzk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A uniformly random element of Fr from the OS random source (rejection sampling, so no modular bias).
 * CUZK_ERR_IO when the OS refuses to provide randomness. */
cuzk_status g16_random_fr(fr_t *r);
/* n random bytes from the OS (getrandom, retried on short reads and EINTR). */
cuzk_status g16_random_bytes(void *out, size_t n);

/* Smallest power of two >= x (x >= 1), and its log2. */
unsigned g16_log2_ceil(uint64_t x);

/* Number of set bits among the first n bits of a density bitmap. */
uint64_t g16_popcount(const uint64_t *bits, uint64_t n);

/* bytes of memory (free() releases it) for point arrays the MSMs read at random: from 2 MiB on, 2 MiB-aligned and
 * marked MADV_HUGEPAGE, so that the gathers of a large MSM do not miss the TLB on nearly every base (about a tenth
 * of a 2^20 MSM); smaller sizes are plain malloc. NULL when out of memory. */
void *g16_alloc_huge(size_t bytes);

/* Monotonic wall-clock seconds. */
double g16_now(void);

#endif
