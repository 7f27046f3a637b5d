/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* AllocatedNum gadgets (bellpepper num.rs) and storage-proofs-core's constraint.rs helpers: allocation order and rows
 * as Rust emits them. */
#include "cuzk/circuits.h"

static const cuzk_fr_t *val_or_zero(const cuzk_fr_t *v)
{
    static const cuzk_fr_t zero;
    return v != NULL ? v : &zero;
}

cuzk_num cuzk_num_alloc(cuzk_cs *cs, const cuzk_fr_t *value)
{
    cuzk_num n;
    n.val = *val_or_zero(value);
    n.var = cuzk_cs_alloc(cs, &n.val);
    return n;
}

cuzk_num cuzk_num_alloc_input(cuzk_cs *cs, const cuzk_fr_t *value)
{
    cuzk_num n;
    n.val = *val_or_zero(value);
    n.var = cuzk_cs_alloc_input(cs, &n.val);
    return n;
}

/* One row x·y = z over single variables with coefficient 1 (y may be ONE). */
static void enforce_xyz(cuzk_cs *cs, const char *name, cuzk_var x, cuzk_var y, cuzk_var z)
{
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    cuzk_term ta[1], tb[1], tc[1];
    cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
    cuzk_lc_add(cs, &a, x, NULL);
    cuzk_lc_add(cs, &b, y, NULL);
    cuzk_lc_add(cs, &c, z, NULL);
    cuzk_cs_enforce(cs, name, &a, &b, &c);
}

/* (x + y)·1 = z */
static void enforce_sum(cuzk_cs *cs, const char *name, cuzk_var x, cuzk_var y, cuzk_var z)
{
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    cuzk_term ta[2], tb[1], tc[1];
    cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
    cuzk_lc_add(cs, &a, x, NULL);
    cuzk_lc_add(cs, &a, y, NULL);
    cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(cs, &c, z, NULL);
    cuzk_cs_enforce(cs, name, &a, &b, &c);
}

void cuzk_num_inputize(cuzk_cs *cs, cuzk_num n)
{
    cuzk_cs_push(cs, "input variable");
    cuzk_var x = cuzk_cs_alloc_input(cs, &n.val);
    cuzk_cs_pop(cs);
    enforce_xyz(cs, "enforce input is correct", x, CUZK_VAR_ONE, n.var);
}

cuzk_num cuzk_num_add(cuzk_cs *cs, cuzk_num a, cuzk_num b)
{
    cuzk_num r;
    cuzk_fr_add(&r.val, &a.val, &b.val);
    r.var = cuzk_cs_alloc(cs, &r.val);
    enforce_sum(cs, "addition constraint", a.var, b.var, r.var);
    return r;
}

cuzk_num cuzk_num_mul(cuzk_cs *cs, cuzk_num a, cuzk_num b)
{
    cuzk_num r;
    cuzk_fr_mul(&r.val, &a.val, &b.val);
    r.var = cuzk_cs_alloc(cs, &r.val);
    enforce_xyz(cs, "multiplication constraint", a.var, b.var, r.var);
    return r;
}

cuzk_num cuzk_num_square(cuzk_cs *cs, cuzk_num a)
{
    cuzk_num r;
    cuzk_fr_sqr(&r.val, &a.val);
    r.var = cuzk_cs_alloc(cs, &r.val);
    enforce_xyz(cs, "squaring constraint", a.var, a.var, r.var);
    return r;
}

void cuzk_num_assert_nonzero(cuzk_cs *cs, cuzk_num a)
{
    cuzk_fr_t inv;
    cuzk_fr_inv_vartime(&inv, &a.val);
    cuzk_var v = cuzk_cs_alloc(cs, &inv);
    enforce_xyz(cs, "nonzero assertion constraint", a.var, v, CUZK_VAR_ONE);
}

/* (x − y)·cond = x − z */
static void enforce_reversal(cuzk_cs *cs, const char *name, cuzk_var x, cuzk_var y, cuzk_bit cond, cuzk_var z)
{
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    cuzk_term ta[2], tb[2], tc[2];
    cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
    cuzk_lc_add(cs, &a, x, NULL);
    cuzk_lc_sub(cs, &a, y);
    cuzk_lc_add_bit(cs, &b, cond, NULL);
    cuzk_lc_add(cs, &c, x, NULL);
    cuzk_lc_sub(cs, &c, z);
    cuzk_cs_enforce(cs, name, &a, &b, &c);
}

void cuzk_num_conditionally_reverse(cuzk_cs *cs, cuzk_num a, cuzk_num b, cuzk_bit cond, cuzk_num *c, cuzk_num *d)
{
    cuzk_cs_push(cs, "conditional reversal result 1");
    cuzk_num r1 = cuzk_num_alloc(cs, cond.val ? &b.val : &a.val);
    cuzk_cs_pop(cs);
    enforce_reversal(cs, "first conditional reversal", a.var, b.var, cond, r1.var);
    cuzk_cs_push(cs, "conditional reversal result 2");
    cuzk_num r2 = cuzk_num_alloc(cs, cond.val ? &a.val : &b.val);
    cuzk_cs_pop(cs);
    enforce_reversal(cs, "second conditional reversal", b.var, a.var, cond, r2.var);
    *c = r1;
    *d = r2;
}

/* The row 0·0 = Σ 2^i bits[i] − n over allocated bits (least significant first). */
static void enforce_unpacking(cuzk_cs *cs, const cuzk_bit *bits, unsigned nbits, cuzk_num n)
{
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, "unpacking constraint", NULL, NULL, NULL);
        return;
    }
    cuzk_term tc[CUZK_NUM_BITS + 1];
    cuzk_lc c = CUZK_LC_ON(tc);
    for (unsigned i = 0; i < nbits; i++) cuzk_lc_add(cs, &c, bits[i].var, cuzk_cs_pow2(i));
    cuzk_lc_sub(cs, &c, n.var);
    cuzk_cs_enforce(cs, "unpacking constraint", NULL, NULL, &c);
}

void cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_num n, cuzk_bit out[CUZK_NUM_BITS])
{
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_fr_to_limbs(l, &n.val);
    for (unsigned i = 0; i < CUZK_NUM_BITS; i++) {
        cuzk_cs_pushf(cs, "bit %u", i);
        out[i] = cuzk_bit_alloc(cs, (l[i / 64] >> (i % 64)) & 1);
        cuzk_cs_pop(cs);
    }
    enforce_unpacking(cs, out, CUZK_NUM_BITS, n);
}

/* r − 1 as limbs, most significant bit 254 */
static const uint64_t R_MINUS_ONE[4] = {0xffffffff00000000ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                        0x73eda753299d7d48ULL};

static cuzk_bit kary_and(cuzk_cs *cs, const cuzk_bit *v, unsigned n)
{
    cuzk_bit cur = v[0];
    for (unsigned i = 1; i < n; i++) {
        cuzk_cs_pushf(cs, "and %u", i);
        cur = cuzk_abit_and(cs, cur, v[i]);
        cuzk_cs_pop(cs);
    }
    return cur;
}

void cuzk_num_to_bits_le_strict(cuzk_cs *cs, cuzk_num n, cuzk_bit out[CUZK_NUM_BITS])
{
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_fr_to_limbs(l, &n.val);
    /* bits from the top (254) down; runs of ones of r − 1 are and-ed so that a prefix equal to r − 1's forces the
     * next zero of r − 1 to a zero of n */
    cuzk_bit run[CUZK_NUM_BITS + 1], last_run = {0, CUZK_BIT_CONST, 0};
    unsigned nrun = 0, i = 0;
    bool have_last = false;
    for (int pos = CUZK_NUM_BITS - 1; pos >= 0; pos--, i++) {
        bool a_bit = (l[pos / 64] >> (pos % 64)) & 1;
        bool r_bit = (R_MINUS_ONE[pos / 64] >> (pos % 64)) & 1;
        cuzk_bit b;
        if (r_bit) {
            cuzk_cs_pushf(cs, "bit %u", i);
            b = cuzk_bit_alloc(cs, a_bit);
            cuzk_cs_pop(cs);
            run[nrun++] = b;
        } else {
            if (nrun > 0) {
                if (have_last) run[nrun++] = last_run;
                cuzk_cs_pushf(cs, "run ending at %u", i);
                last_run = kary_and(cs, run, nrun);
                cuzk_cs_pop(cs);
                have_last = true;
                nrun = 0;
            }
            cuzk_cs_pushf(cs, "bit %u", i);
            b = cuzk_bit_alloc_conditionally(cs, a_bit, last_run);
            cuzk_cs_pop(cs);
        }
        out[pos] = b;
    }
    enforce_unpacking(cs, out, CUZK_NUM_BITS, n);
}

void cuzk_num_equal(cuzk_cs *cs, const char *name, cuzk_num a, cuzk_num b)
{
    enforce_xyz(cs, name, a.var, CUZK_VAR_ONE, b.var);
}

void cuzk_num_sum(cuzk_cs *cs, const char *name, cuzk_num a, cuzk_num b, cuzk_num sum)
{
    enforce_sum(cs, name, a.var, b.var, sum.var);
}

void cuzk_num_difference(cuzk_cs *cs, const char *name, cuzk_num a, cuzk_num b, cuzk_num diff)
{
    enforce_sum(cs, name, diff.var, b.var, a.var);
}

cuzk_num cuzk_num_sub(cuzk_cs *cs, cuzk_num a, cuzk_num b)
{
    cuzk_num r;
    cuzk_fr_sub(&r.val, &a.val, &b.val);
    cuzk_cs_push(cs, "sub_num");
    r.var = cuzk_cs_alloc(cs, &r.val);
    cuzk_cs_pop(cs);
    cuzk_num_difference(cs, "subtraction constraint", a, b, r);
    return r;
}

/* ---- Num: a value and its linear combination --------------------------------------------------------------------- */

void cuzk_lcnum_init(cuzk_lcnum *n)
{
    cuzk_fr_set_zero(&n->val);
    n->lc = CUZK_LC_EMPTY;
}

void cuzk_lcnum_free(cuzk_lcnum *n) { cuzk_lc_free(&n->lc); }

static void scaled_add(cuzk_fr_t *acc, const cuzk_fr_t *x, const cuzk_fr_t *k)
{
    cuzk_fr_t t;
    if (k == NULL) {
        cuzk_fr_add(acc, acc, x);
        return;
    }
    cuzk_fr_mul(&t, x, k);
    cuzk_fr_add(acc, acc, &t);
}

void cuzk_lcnum_add_num(cuzk_cs *cs, cuzk_lcnum *n, cuzk_num x, const cuzk_fr_t *k)
{
    scaled_add(&n->val, &x.val, k);
    if (cuzk_cs_builds_lc(cs)) cuzk_lc_add(cs, &n->lc, x.var, k);
}

void cuzk_lcnum_add_const(cuzk_cs *cs, cuzk_lcnum *n, const cuzk_fr_t *k)
{
    scaled_add(&n->val, &cs->one, k);
    if (cuzk_cs_builds_lc(cs)) cuzk_lc_add(cs, &n->lc, CUZK_VAR_ONE, k);
}

void cuzk_lcnum_add_bit(cuzk_cs *cs, cuzk_lcnum *n, cuzk_bit b, const cuzk_fr_t *k)
{
    if (b.val) scaled_add(&n->val, &cs->one, k);
    if (cuzk_cs_builds_lc(cs)) cuzk_lc_add_bit(cs, &n->lc, b, k);
}

void cuzk_lcnum_add(cuzk_cs *cs, cuzk_lcnum *n, const cuzk_lcnum *other, const cuzk_fr_t *k)
{
    scaled_add(&n->val, &other->val, k);
    if (cuzk_cs_builds_lc(cs)) cuzk_lc_add_lc(cs, &n->lc, &other->lc, k);
}

void cuzk_lcnum_scale(cuzk_cs *cs, cuzk_lcnum *n, const cuzk_fr_t *k)
{
    cuzk_fr_mul(&n->val, &n->val, k);
    if (cuzk_cs_builds_lc(cs))
        for (uint32_t i = 0; i < n->lc.n; i++) cuzk_fr_mul(&n->lc.t[i].coeff, &n->lc.t[i].coeff, k);
}

cuzk_num cuzk_lcnum_alloc(cuzk_cs *cs, const cuzk_lcnum *n, bool enforce)
{
    cuzk_num r;
    r.val = n->val;
    cuzk_cs_push(cs, "allocate for Elt::Num");
    r.var = cuzk_cs_alloc(cs, &r.val);
    cuzk_cs_pop(cs);
    if (!enforce) return r;
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, "enforce num allocation preserves lc", NULL, NULL, NULL);
        return r;
    }
    cuzk_term tb[1], tc[1];
    cuzk_lc b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
    cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(cs, &c, r.var, NULL);
    cuzk_cs_enforce(cs, "enforce num allocation preserves lc", &n->lc, &b, &c);
    return r;
}
