/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Montgomery arithmetic over an n-limb odd modulus, shared by Fp (n = 6) and Fr (n = 4).
 *
 * The functions are static inline and take n as an argument: every call site passes a constant, so the compiler
 * unrolls each loop completely for that width. Nothing here branches on values except where marked vartime. */
#ifndef CUZK_FF_MONT_H
#define CUZK_FF_MONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#define MONT_MAX_LIMBS 6

typedef struct {
    size_t n;            /* limbs */
    const uint64_t *mod; /* modulus m */
    uint64_t inv;        /* -m^-1 mod 2^64 */
    const uint64_t *one; /* R mod m */
    const uint64_t *r2;  /* R^2 mod m */
} mont_field;

static inline uint64_t mont_addc(uint64_t a, uint64_t b, uint64_t *carry)
{
    u128 t = (u128)a + b + *carry;
    *carry = (uint64_t)(t >> 64);
    return (uint64_t)t;
}

static inline uint64_t mont_subb(uint64_t a, uint64_t b, uint64_t *borrow)
{
    u128 t = (u128)a - b - *borrow;
    *borrow = (uint64_t)(t >> 64) & 1;
    return (uint64_t)t;
}

/* r = (t >= m) ? t - m : t, where t has an extra top carry bit; constant time. */
static inline void mont_final_sub(uint64_t *r, const uint64_t *t, uint64_t top, const uint64_t *m, size_t n)
{
    uint64_t d[MONT_MAX_LIMBS], borrow = 0;
    for (size_t i = 0; i < n; i++) d[i] = mont_subb(t[i], m[i], &borrow);
    /* keep t when the subtraction underflowed and there was no top carry */
    uint64_t keep = (uint64_t)0 - (borrow & ~top & 1);
    for (size_t i = 0; i < n; i++) r[i] = (t[i] & keep) | (d[i] & ~keep);
}

static inline void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t n)
{
    uint64_t t[MONT_MAX_LIMBS], carry = 0;
    for (size_t i = 0; i < n; i++) t[i] = mont_addc(a[i], b[i], &carry);
    mont_final_sub(r, t, carry, m, n);
}

static inline void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t n)
{
    uint64_t t[MONT_MAX_LIMBS], borrow = 0, carry = 0;
    for (size_t i = 0; i < n; i++) t[i] = mont_subb(a[i], b[i], &borrow);
    uint64_t mask = (uint64_t)0 - borrow;
    for (size_t i = 0; i < n; i++) r[i] = mont_addc(t[i], m[i] & mask, &carry);
}

static inline void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
    uint64_t nz = 0, borrow = 0;
    for (size_t i = 0; i < n; i++) nz |= a[i];
    uint64_t mask = (uint64_t)0 - (uint64_t)(nz != 0);
    for (size_t i = 0; i < n; i++) r[i] = mont_subb(m[i], a[i], &borrow) & mask;
}

/* CIOS Montgomery multiplication: r = a·b·R^-1 mod m. Requires m < 2^(64n-1) (true for both BLS12-381 fields), so
 * the running sum never needs more than one extra word. */
static inline void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv,
                            size_t n)
{
    uint64_t t[MONT_MAX_LIMBS + 2] = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t carry = 0;
        for (size_t j = 0; j < n; j++) {
            u128 s = (u128)a[j] * b[i] + t[j] + carry;
            t[j] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
        u128 s = (u128)t[n] + carry;
        t[n] = (uint64_t)s;
        t[n + 1] = (uint64_t)(s >> 64);

        uint64_t q = t[0] * inv;
        s = (u128)q * m[0] + t[0];
        carry = (uint64_t)(s >> 64);
        for (size_t j = 1; j < n; j++) {
            s = (u128)q * m[j] + t[j] + carry;
            t[j - 1] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
        s = (u128)t[n] + carry;
        t[n - 1] = (uint64_t)s;
        t[n] = t[n + 1] + (uint64_t)(s >> 64);
    }
    mont_final_sub(r, t, t[n], m, n);
}

static inline bool mont_is_zero(const uint64_t *a, size_t n)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= a[i];
    return acc == 0;
}

static inline bool mont_eq(const uint64_t *a, const uint64_t *b, size_t n)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= a[i] ^ b[i];
    return acc == 0;
}

/* a < m as plain integers (variable time: used on public inputs during decoding). */
static inline bool mont_lt_vartime(const uint64_t *a, const uint64_t *m, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (a[i] != m[i]) return a[i] < m[i];
    }
    return false;
}

static inline void mont_cmov(uint64_t *r, const uint64_t *a, const uint64_t *b, bool flag, size_t n)
{
    uint64_t mask = (uint64_t)0 - (uint64_t)flag;
    for (size_t i = 0; i < n; i++) r[i] = (a[i] & ~mask) | (b[i] & mask);
}

#endif
