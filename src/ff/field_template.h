/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The operations Fp and Fr share, written once. The including file defines:
 *   FIELD(name)  prefixes a name (cuzk_fp_##name), ELEM the element type, NLIMBS, NBYTES,
 *   MOD, MINV, ONE_MONT, R2_MONT, R3_MONT (limb arrays / constant), MOD_MINUS_1_HALF (Euler's criterion),
 *   SG_LIMBS and SG_CT_BATCHES (62-bit limbs and constant-time batches of the divsteps inverse, safegcd.h),
 *   and optionally MUL_ASM (Montgomery multiplication in assembly, mont_x86_64.h, taken where the current CPU path
 *   is ADX or above). Addition, subtraction and doubling are defined here only where cuzk/ff_inline.h does not
 *   define them inline. */

/* The portable multiplication, addition and subtraction are always compiled: the portable path runs them, and the
 * tests check the assembly against them. */
static __attribute__((noinline)) void FIELD(mul_c)(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_mul(r, a, b, MOD, MINV, NLIMBS);
}
void FIELD(mul_portable)(ELEM *r, const ELEM *a, const ELEM *b) { FIELD(mul_c)(r->l, a->l, b->l); }

/* The run-time choice: one load and a predictable branch not taken, then a tail call. */
static inline void FIELD(mul_raw)(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
#ifdef MUL_ASM
    if (__builtin_expect(cuzk_cpu_path_current != CUZK_CPU_PORTABLE, 1)) {
        MUL_ASM(r, a, b);
        return;
    }
#endif
    FIELD(mul_c)(r, a, b);
}

void FIELD(set_zero)(ELEM *r) { memset(r, 0, sizeof *r); }
void FIELD(set_one)(ELEM *r) { memcpy(r->l, ONE_MONT, sizeof r->l); }
bool FIELD(is_zero)(const ELEM *a) { return mont_is_zero(a->l, NLIMBS); }
bool FIELD(is_one)(const ELEM *a) { return mont_eq(a->l, ONE_MONT, NLIMBS); }
bool FIELD(eq)(const ELEM *a, const ELEM *b) { return mont_eq(a->l, b->l, NLIMBS); }
void FIELD(add_portable)(ELEM *r, const ELEM *a, const ELEM *b) { mont_add(r->l, a->l, b->l, MOD, NLIMBS); }
void FIELD(sub_portable)(ELEM *r, const ELEM *a, const ELEM *b) { mont_sub(r->l, a->l, b->l, MOD, NLIMBS); }
#ifndef CUZK_FF_INLINE_ADDSUB
void FIELD(add)(ELEM *r, const ELEM *a, const ELEM *b) { mont_add(r->l, a->l, b->l, MOD, NLIMBS); }
void FIELD(sub)(ELEM *r, const ELEM *a, const ELEM *b) { mont_sub(r->l, a->l, b->l, MOD, NLIMBS); }
void FIELD(dbl)(ELEM *r, const ELEM *a) { mont_add(r->l, a->l, a->l, MOD, NLIMBS); }
#endif
void FIELD(neg)(ELEM *r, const ELEM *a) { mont_neg(r->l, a->l, MOD, NLIMBS); }
void FIELD(cmov)(ELEM *r, const ELEM *a, const ELEM *b, bool flag) { mont_cmov(r->l, a->l, b->l, flag, NLIMBS); }

#ifndef FIELD_HAS_OWN_MUL
void FIELD(mul)(ELEM *r, const ELEM *a, const ELEM *b) { FIELD(mul_raw)(r->l, a->l, b->l); }
void FIELD(sqr)(ELEM *r, const ELEM *a) { FIELD(mul_raw)(r->l, a->l, a->l); }
#endif

void FIELD(from_u64)(ELEM *r, uint64_t v)
{
    uint64_t t[NLIMBS] = {v};
    FIELD(mul_raw)(r->l, t, R2_MONT);
}

void FIELD(to_limbs)(uint64_t out[NLIMBS], const ELEM *a)
{
    uint64_t one[NLIMBS] = {1};
    FIELD(mul_raw)(out, a->l, one);
}

cuzk_status FIELD(from_limbs)(ELEM *r, const uint64_t in[NLIMBS])
{
    if (!mont_lt_vartime(in, MOD, NLIMBS)) return CUZK_ERR_NOT_CANONICAL;
    FIELD(mul_raw)(r->l, in, R2_MONT);
    return CUZK_OK;
}

cuzk_status FIELD(from_mont_limbs)(ELEM *r, const uint64_t in[NLIMBS])
{
    if (!mont_lt_vartime(in, MOD, NLIMBS)) return CUZK_ERR_NOT_CANONICAL;
    memcpy(r->l, in, sizeof r->l);
    return CUZK_OK;
}

void FIELD(to_bytes_le)(uint8_t out[NBYTES], const ELEM *a)
{
    uint64_t t[NLIMBS];
    FIELD(to_limbs)(t, a);
    for (size_t i = 0; i < NBYTES; i++) out[i] = (uint8_t)(t[i / 8] >> (8 * (i % 8)));
}

void FIELD(to_bytes_be)(uint8_t out[NBYTES], const ELEM *a)
{
    uint8_t le[NBYTES];
    FIELD(to_bytes_le)(le, a);
    for (size_t i = 0; i < NBYTES; i++) out[i] = le[NBYTES - 1 - i];
}

cuzk_status FIELD(from_bytes_le)(ELEM *r, const uint8_t in[NBYTES])
{
    uint64_t t[NLIMBS] = {0};
    for (size_t i = 0; i < NBYTES; i++) t[i / 8] |= (uint64_t)in[i] << (8 * (i % 8));
    return FIELD(from_limbs)(r, t);
}

cuzk_status FIELD(from_bytes_be)(ELEM *r, const uint8_t in[NBYTES])
{
    uint8_t le[NBYTES];
    for (size_t i = 0; i < NBYTES; i++) le[i] = in[NBYTES - 1 - i];
    return FIELD(from_bytes_le)(r, le);
}

void FIELD(pow)(ELEM *r, const ELEM *a, const uint64_t *e, size_t e_limbs)
{
    ELEM acc, base = *a;
    FIELD(set_one)(&acc);
    for (size_t i = e_limbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            FIELD(sqr)(&acc, &acc);
            if ((e[i] >> bit) & 1) FIELD(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

/* Constant-time inverse by divsteps (safegcd.h) of the Montgomery representation aR as a plain integer: that
 * gives (aR)^-1, and the Montgomery form of a^-1 is a^-1·R = (aR)^-1·R^2, i.e. mont_mul((aR)^-1, R^3). */
void FIELD(inv)(ELEM *r, const ELEM *a)
{
    uint64_t x[NLIMBS];
    sg_inv_ct(x, a->l, MOD, MINV, NLIMBS, SG_LIMBS, SG_CT_BATCHES);
    FIELD(mul_raw)(r->l, x, R3_MONT);
}

/* The same with the variable-time divsteps, for public values. */
void FIELD(inv_vartime)(ELEM *r, const ELEM *a)
{
    uint64_t x[NLIMBS];
    sg_inv_var(x, a->l, MOD, MINV, NLIMBS, SG_LIMBS);
    FIELD(mul_raw)(r->l, x, R3_MONT);
}

void FIELD(batch_inv)(ELEM *out, const ELEM *in, size_t n, ELEM *scratch)
{
    if (n == 0) return;
    ELEM acc;
    FIELD(set_one)(&acc);
    /* scratch[i] = product of the non-zero in[0..i-1]; zeros are skipped so they do not poison the product */
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!FIELD(is_zero)(&in[i])) FIELD(mul)(&acc, &acc, &in[i]);
    }
    FIELD(inv_vartime)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FIELD(is_zero)(&in[i])) {
            FIELD(set_zero)(&out[i]);
            continue;
        }
        ELEM inv_i;
        FIELD(mul)(&inv_i, &acc, &scratch[i]);
        FIELD(mul)(&acc, &acc, &in[i]);
        out[i] = inv_i;
    }
}

int FIELD(legendre)(const ELEM *a)
{
    if (FIELD(is_zero)(a)) return 0;
    ELEM t;
    FIELD(pow)(&t, a, MOD_MINUS_1_HALF, NLIMBS);
    return FIELD(is_one)(&t) ? 1 : -1;
}
