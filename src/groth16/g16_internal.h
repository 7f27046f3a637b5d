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

/* Asks for 2 MiB pages for the whole 2 MiB pages inside [p, p + bytes), before they are first written: for a point
 * array a large MSM reads at random (the H bases), so that its gathers do not miss the TLB on nearly every base
 * (G1 2^20: 3634 -> 3344 ms). Only that array: faulting in huge pages costs more CPU than plain ones here (direct
 * compaction, THP defrag = madvise), about 1 ms per MB, more than the other, sequentially read arrays gain. */
void g16_advise_huge(void *p, size_t bytes);

/* Monotonic wall-clock seconds. */
double g16_now(void);

#endif
