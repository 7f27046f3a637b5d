/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Boolean gadgets with bellpepper's semantics (boolean.rs): which operations fold constants, which allocate, in what
 * order, and the exact linear combinations of each row. */
#include "cuzk/circuits.h"

/* The value of the variable under a Boolean (for NOT, the negation of the Boolean's value). */
static inline bool inner(cuzk_bit b) { return b.kind == CUZK_BIT_NOT ? !b.val : b.val; }
static inline cuzk_bit is_bit(cuzk_var v, bool val) { return (cuzk_bit){v, CUZK_BIT_IS, (uint8_t)val}; }

#define LCS(n)                                                                                                         \
    cuzk_term ta_[n], tb_[n], tc_[n];                                                                                  \
    cuzk_lc a = CUZK_LC_ON(ta_), b = CUZK_LC_ON(tb_), c = CUZK_LC_ON(tc_)
#define LCS_FREE()                                                                                                     \
    do {                                                                                                               \
        cuzk_lc_free(&a);                                                                                              \
        cuzk_lc_free(&b);                                                                                              \
        cuzk_lc_free(&c);                                                                                              \
    } while (0)

cuzk_bit cuzk_bit_alloc(cuzk_cs *cs, bool value)
{
    cuzk_var v = cuzk_cs_alloc_bool(cs, value);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(2);
        cuzk_lc_add(cs, &a, CUZK_VAR_ONE, NULL);
        cuzk_lc_sub(cs, &a, v);
        cuzk_lc_add(cs, &b, v, NULL);
        cuzk_cs_enforce(cs, "boolean constraint", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "boolean constraint", NULL, NULL, NULL);
    }
    return is_bit(v, value);
}

cuzk_bit cuzk_bit_alloc_conditionally(cuzk_cs *cs, bool value, cuzk_bit must_be_false)
{
    cuzk_var v = cuzk_cs_alloc_bool(cs, value);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(3);
        cuzk_lc_add(cs, &a, CUZK_VAR_ONE, NULL);
        cuzk_lc_sub(cs, &a, must_be_false.var);
        cuzk_lc_sub(cs, &a, v);
        cuzk_lc_add(cs, &b, v, NULL);
        cuzk_cs_enforce(cs, "boolean constraint", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "boolean constraint", NULL, NULL, NULL);
    }
    return is_bit(v, value);
}

cuzk_bit cuzk_abit_xor(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    bool r = inner(x) ^ inner(y);
    cuzk_var v = cuzk_cs_alloc_bool(cs, r);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(3);
        cuzk_lc_add(cs, &a, x.var, cuzk_cs_pow2(1));
        cuzk_lc_add(cs, &b, y.var, NULL);
        cuzk_lc_add(cs, &c, x.var, NULL);
        cuzk_lc_add(cs, &c, y.var, NULL);
        cuzk_lc_sub(cs, &c, v);
        cuzk_cs_enforce(cs, "xor constraint", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "xor constraint", NULL, NULL, NULL);
    }
    return is_bit(v, r);
}

cuzk_bit cuzk_abit_and(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    bool r = inner(x) & inner(y);
    cuzk_var v = cuzk_cs_alloc_bool(cs, r);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(1);
        cuzk_lc_add(cs, &a, x.var, NULL);
        cuzk_lc_add(cs, &b, y.var, NULL);
        cuzk_lc_add(cs, &c, v, NULL);
        cuzk_cs_enforce(cs, "and constraint", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "and constraint", NULL, NULL, NULL);
    }
    return is_bit(v, r);
}

cuzk_bit cuzk_abit_and_not(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    bool r = inner(x) && !inner(y);
    cuzk_var v = cuzk_cs_alloc_bool(cs, r);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(2);
        cuzk_lc_add(cs, &a, x.var, NULL);
        cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
        cuzk_lc_sub(cs, &b, y.var);
        cuzk_lc_add(cs, &c, v, NULL);
        cuzk_cs_enforce(cs, "and not constraint", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "and not constraint", NULL, NULL, NULL);
    }
    return is_bit(v, r);
}

cuzk_bit cuzk_abit_nor(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    bool r = !inner(x) && !inner(y);
    cuzk_var v = cuzk_cs_alloc_bool(cs, r);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(2);
        cuzk_lc_add(cs, &a, CUZK_VAR_ONE, NULL);
        cuzk_lc_sub(cs, &a, x.var);
        cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
        cuzk_lc_sub(cs, &b, y.var);
        cuzk_lc_add(cs, &c, v, NULL);
        cuzk_cs_enforce(cs, "nor constraint", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "nor constraint", NULL, NULL, NULL);
    }
    return is_bit(v, r);
}

void cuzk_lc_add_bit(cuzk_cs *cs, cuzk_lc *lc, cuzk_bit b, const cuzk_fr_t *coeff)
{
    switch (b.kind) {
    case CUZK_BIT_CONST:
        if (b.val) cuzk_lc_add(cs, lc, CUZK_VAR_ONE, coeff);
        break;
    case CUZK_BIT_IS: cuzk_lc_add(cs, lc, b.var, coeff); break;
    default: {
        cuzk_fr_t neg;
        cuzk_fr_neg(&neg, coeff != NULL ? coeff : &cs->one);
        cuzk_lc_add(cs, lc, CUZK_VAR_ONE, coeff);
        cuzk_lc_add(cs, lc, b.var, &neg);
    }
    }
}

cuzk_bit cuzk_bit_xor(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    if (x.kind == CUZK_BIT_CONST && !x.val) return y;
    if (y.kind == CUZK_BIT_CONST && !y.val) return x;
    if (x.kind == CUZK_BIT_CONST) return cuzk_bit_not(y);
    if (y.kind == CUZK_BIT_CONST) return cuzk_bit_not(x);
    /* Is ^ Not = not(Is ^ Is), the Is operand first */
    if (x.kind != y.kind)
        return cuzk_bit_not(x.kind == CUZK_BIT_IS ? cuzk_abit_xor(cs, x, y) : cuzk_abit_xor(cs, y, x));
    return cuzk_abit_xor(cs, x, y);
}

cuzk_bit cuzk_bit_and(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    if ((x.kind == CUZK_BIT_CONST && !x.val) || (y.kind == CUZK_BIT_CONST && !y.val)) return cuzk_bit_const(false);
    if (x.kind == CUZK_BIT_CONST) return y;
    if (y.kind == CUZK_BIT_CONST) return x;
    if (x.kind == CUZK_BIT_IS && y.kind == CUZK_BIT_NOT) return cuzk_abit_and_not(cs, x, y);
    if (x.kind == CUZK_BIT_NOT && y.kind == CUZK_BIT_IS) return cuzk_abit_and_not(cs, y, x);
    if (x.kind == CUZK_BIT_NOT) return cuzk_abit_nor(cs, x, y);
    return cuzk_abit_and(cs, x, y);
}

cuzk_bit cuzk_bit_or(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    cuzk_cs_push(cs, "not and (not a) (not b)");
    cuzk_bit r = cuzk_bit_not(cuzk_bit_and(cs, cuzk_bit_not(x), cuzk_bit_not(y)));
    cuzk_cs_pop(cs);
    return r;
}

cuzk_bit cuzk_bit_sha256_ch(cuzk_cs *cs, cuzk_bit x, cuzk_bit y, cuzk_bit z)
{
    bool value = (x.val & y.val) ^ ((x.val ^ 1) & z.val);
    bool cx = x.kind == CUZK_BIT_CONST, cy = y.kind == CUZK_BIT_CONST, cz = z.kind == CUZK_BIT_CONST;
    if (cx && cy && cz) return cuzk_bit_const(value);
    if (cx && !x.val) return z;
    if (cy && !y.val) return cuzk_bit_and(cs, cuzk_bit_not(x), z);
    if (cz && !z.val) return cuzk_bit_and(cs, x, y);
    if (cz) return cuzk_bit_not(cuzk_bit_and(cs, x, cuzk_bit_not(y)));
    if (cy) return cuzk_bit_not(cuzk_bit_and(cs, cuzk_bit_not(x), cuzk_bit_not(z)));
    /* x constant true, or nothing constant */
    cuzk_var ch = cuzk_cs_alloc_bool(cs, value);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(4);
        cuzk_lc_add_bit(cs, &a, y, NULL);
        cuzk_lc_add_bit(cs, &a, z, cuzk_cs_minus_one());
        cuzk_lc_add_bit(cs, &b, x, NULL);
        cuzk_lc_add(cs, &c, ch, NULL);
        cuzk_lc_add_bit(cs, &c, z, cuzk_cs_minus_one());
        cuzk_cs_enforce(cs, "ch computation", &a, &b, &c);
        LCS_FREE();
    } else {
        cuzk_cs_enforce(cs, "ch computation", NULL, NULL, NULL);
    }
    return is_bit(ch, value);
}

cuzk_bit cuzk_bit_sha256_maj(cuzk_cs *cs, cuzk_bit x, cuzk_bit y, cuzk_bit z)
{
    bool value = (x.val & y.val) ^ (x.val & z.val) ^ (y.val & z.val);
    bool cx = x.kind == CUZK_BIT_CONST, cy = y.kind == CUZK_BIT_CONST, cz = z.kind == CUZK_BIT_CONST;
    if (cx && cy && cz) return cuzk_bit_const(value);
    if (cx && !x.val) return cuzk_bit_and(cs, y, z);
    if (cy && !y.val) return cuzk_bit_and(cs, x, z);
    if (cz && !z.val) return cuzk_bit_and(cs, x, y);
    if (cz) return cuzk_bit_not(cuzk_bit_and(cs, cuzk_bit_not(x), cuzk_bit_not(y)));
    if (cy) return cuzk_bit_not(cuzk_bit_and(cs, cuzk_bit_not(x), cuzk_bit_not(z)));
    if (cx) return cuzk_bit_not(cuzk_bit_and(cs, cuzk_bit_not(y), cuzk_bit_not(z)));
    /* maj is allocated before b AND c */
    cuzk_var maj = cuzk_cs_alloc_bool(cs, value);
    cuzk_cs_push(cs, "b and c");
    cuzk_bit bc = cuzk_bit_and(cs, y, z);
    cuzk_cs_pop(cs);
    if (cuzk_cs_builds_lc(cs)) {
        LCS(6);
        cuzk_lc_add_bit(cs, &a, bc, cuzk_cs_pow2(1));
        cuzk_lc_add_bit(cs, &a, y, cuzk_cs_minus_one());
        cuzk_lc_add_bit(cs, &a, z, cuzk_cs_minus_one());
        cuzk_lc_add_bit(cs, &b, x, NULL);
        cuzk_lc_add_bit(cs, &c, bc, NULL);
        cuzk_lc_sub(cs, &c, maj);
        cuzk_cs_enforce(cs, "maj computation", &a, &b, &c);
        LCS_FREE();
    } else {
        cuzk_cs_enforce(cs, "maj computation", NULL, NULL, NULL);
    }
    return is_bit(maj, value);
}

void cuzk_bit_enforce_equal(cuzk_cs *cs, cuzk_bit x, cuzk_bit y)
{
    if (x.kind == CUZK_BIT_CONST && y.kind == CUZK_BIT_CONST) {
        if (x.val != y.val)
            cuzk_cs_fail(cs, CUZK_ERR_R1CS_UNSATISFIED, "%s: enforce_equal of unequal constants", cuzk_cs_path(cs));
        return;
    }
    const char *name;
    if ((x.kind == CUZK_BIT_CONST && x.val) || (y.kind == CUZK_BIT_CONST && y.val)) name = "enforce equal to one";
    else if (x.kind == CUZK_BIT_CONST || y.kind == CUZK_BIT_CONST) name = "enforce equal to zero";
    else name = "enforce equal";
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    LCS(4);
    if (x.kind == CUZK_BIT_CONST && x.val) {
        cuzk_lc_add(cs, &c, CUZK_VAR_ONE, NULL);
        cuzk_lc_add_bit(cs, &c, y, cuzk_cs_minus_one());
    } else if (y.kind == CUZK_BIT_CONST && y.val) {
        cuzk_lc_add(cs, &c, CUZK_VAR_ONE, NULL);
        cuzk_lc_add_bit(cs, &c, x, cuzk_cs_minus_one());
    } else if (x.kind == CUZK_BIT_CONST) {
        cuzk_lc_add_bit(cs, &c, y, NULL);
    } else if (y.kind == CUZK_BIT_CONST) {
        cuzk_lc_add_bit(cs, &c, x, NULL);
    } else {
        cuzk_lc_add_bit(cs, &c, x, NULL);
        cuzk_lc_add_bit(cs, &c, y, cuzk_cs_minus_one());
    }
    cuzk_cs_enforce(cs, name, &a, &b, &c);
    LCS_FREE();
}

void cuzk_bit_alloc_u64_le(cuzk_cs *cs, uint64_t value, cuzk_bit out[64])
{
    for (unsigned i = 0; i < 64; i++) {
        cuzk_cs_pushf(cs, "bit %u", i);
        out[i] = cuzk_bit_alloc(cs, (value >> i) & 1);
        cuzk_cs_pop(cs);
    }
}

void cuzk_bit_alloc_bytes_le(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bit *out)
{
    for (size_t i = 0; i < 8 * n; i++) {
        cuzk_cs_pushf(cs, "bit %zu", i);
        out[i] = cuzk_bit_alloc(cs, bytes != NULL && ((bytes[i / 8] >> (i % 8)) & 1));
        cuzk_cs_pop(cs);
    }
}

void cuzk_bit_alloc_bytes_be(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bit *out)
{
    for (size_t i = 0; i < 8 * n; i++) {
        cuzk_cs_pushf(cs, "bit %zu", i);
        out[i] = cuzk_bit_alloc(cs, bytes != NULL && ((bytes[i / 8] >> (7 - i % 8)) & 1));
        cuzk_cs_pop(cs);
    }
}

size_t cuzk_bit_reverse_bit_numbering(const cuzk_bit *bits, size_t n, cuzk_bit *out)
{
    size_t padded = (n + 7) / 8 * 8;
    for (size_t byte = 0; byte < padded; byte += 8) {
        cuzk_bit tmp[8];
        for (size_t i = 0; i < 8; i++) tmp[i] = byte + i < n ? bits[byte + i] : cuzk_bit_const(false);
        for (size_t i = 0; i < 8; i++) out[byte + i] = tmp[7 - i];
    }
    return padded;
}
