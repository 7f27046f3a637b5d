/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp6 at double width, shared by fp6.c and fp12.c: products whose six Fp2 coefficients are 768-bit values
 * (fp_wide.h), reduced once per coefficient by fp6w_redc. Inputs are reduced elements. */
#ifndef CUZK_FF_TOWER_H
#define CUZK_FF_TOWER_H

#include "fp_wide.h"

/* r = a·b (Karatsuba over three terms: six Fp2 products). */
void cuzk_fp6w_mul(const fpw_prims *P, fp6w *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b);
/* r = a·(b0 + b1·v): five Fp2 products. */
void cuzk_fp6w_mul_by_01(const fpw_prims *P, fp6w *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b0, const cuzk_fp2_t *b1);
/* r = a·(b1·v): three Fp2 products. */
void cuzk_fp6w_mul_by_1(const fpw_prims *P, fp6w *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b1);

/* Fp6 addition and the product by v, inline for the Fp12 formulas (cuzk_fp6_add and cuzk_fp6_mul_by_nonresidue are
 * the same, out of line). */
static inline void fp6_add_i(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    cuzk_fp2_add(&r->c0, &a->c0, &b->c0);
    cuzk_fp2_add(&r->c1, &a->c1, &b->c1);
    cuzk_fp2_add(&r->c2, &a->c2, &b->c2);
}

/* r = a·v + b = (b0 + ξa2) + (b1 + a0)v + (b2 + a1)v²; r must not alias a. */
static inline void fp6_mul_by_v_add_i(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    cuzk_fp2_t t;
    cuzk_fp2_mul_by_nonresidue(&t, &a->c2);
    cuzk_fp2_add(&r->c0, &b->c0, &t);
    cuzk_fp2_add(&r->c1, &b->c1, &a->c0);
    cuzk_fp2_add(&r->c2, &b->c2, &a->c1);
}

static inline void fp6w_add(fp6w *r, const fp6w *a, const fp6w *b)
{
    fp2w_add(&r->c0, &a->c0, &b->c0);
    fp2w_add(&r->c1, &a->c1, &b->c1);
    fp2w_add(&r->c2, &a->c2, &b->c2);
}

static inline void fp6w_sub(fp6w *r, const fp6w *a, const fp6w *b)
{
    fp2w_sub(&r->c0, &a->c0, &b->c0);
    fp2w_sub(&r->c1, &a->c1, &b->c1);
    fp2w_sub(&r->c2, &a->c2, &b->c2);
}

static inline void fp6w_redc(const fpw_prims *P, cuzk_fp6_t *r, const fp6w *a)
{
    fp2w_redc(P, &r->c0, &a->c0);
    fp2w_redc(P, &r->c1, &a->c1);
    fp2w_redc(P, &r->c2, &a->c2);
}

/* r = a + b·v = (a0 + ξb2) + (a1 + b0)v + (a2 + b1)v²: Fp12's c0 = t0 + v·t1. r must not alias b. */
static inline void fp6w_add_mul_by_v(fp6w *r, const fp6w *a, const fp6w *b)
{
    fp2w t;
    fp2w_mul_by_nonresidue(&t, &b->c2);
    fp2w_add(&r->c0, &a->c0, &t);
    fp2w_add(&r->c1, &a->c1, &b->c0);
    fp2w_add(&r->c2, &a->c2, &b->c1);
}

#endif
