/* Entry points of the ff layer that are not public API: the portable implementations behind the fast paths, kept
 * callable so that tests can check one against the other on the same inputs. */
#ifndef CUZK_FF_INTERNAL_H
#define CUZK_FF_INTERNAL_H

#include "cuzk/ff.h"

/* Plain C (mont.h), whatever the build selected for fp_mul, fp_add, ... */
void fp_mul_portable(fp_t *r, const fp_t *a, const fp_t *b);
void fr_mul_portable(fr_t *r, const fr_t *a, const fr_t *b);
void fp_add_portable(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sub_portable(fp_t *r, const fp_t *a, const fp_t *b);
void fr_add_portable(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sub_portable(fr_t *r, const fr_t *a, const fr_t *b);

#endif
