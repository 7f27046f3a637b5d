/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Entry points of the ff layer that are not public API: the portable implementations behind the fast paths, kept
 * callable so that tests can check one against the other on the same inputs. */
#ifndef CUZK_FF_INTERNAL_H
#define CUZK_FF_INTERNAL_H

#include "cuzk/ff.h"

/* Plain C (mont.h), whatever the build selected for cuzk_fp_mul, cuzk_fp_add, ... */
void cuzk_fp_mul_portable(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fr_mul_portable(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_dot_portable(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n);
void cuzk_fp_add_portable(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_sub_portable(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fr_add_portable(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_sub_portable(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b);

#endif
