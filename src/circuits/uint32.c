/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* 32-bit words of Booleans (bellperson uint32.rs) and the MultiEq accumulator (multieq.rs) that their additions
 * share. */
#include <stdio.h>

#include "cuzk/circuits.h"

/* ---- MultiEq ----------------------------------------------------------------------------------------------------- */

void cuzk_multieq_init(cuzk_multieq *me, cuzk_cs *cs)
{
    me->cs = cs;
    me->bits_used = 0;
    me->ops = 0;
    me->lhs = CUZK_LC_EMPTY;
    me->rhs = CUZK_LC_EMPTY;
}

static void multieq_accumulate(cuzk_multieq *me)
{
    cuzk_cs *cs = me->cs;
    char name[40] = "multieq";
    if (cs->flags & CUZK_CS_F_NAMES) snprintf(name, sizeof name, "multieq %llu", (unsigned long long)me->ops);
    if (cuzk_cs_builds_lc(cs)) {
        cuzk_term tb[1];
        cuzk_lc b = CUZK_LC_ON(tb);
        cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
        cuzk_cs_enforce(cs, name, &me->lhs, &b, &me->rhs);
        cuzk_lc_clear(&me->lhs);
        cuzk_lc_clear(&me->rhs);
    } else {
        cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
    }
    me->bits_used = 0;
    me->ops++;
}

void cuzk_multieq_enforce_equal(cuzk_multieq *me, unsigned num_bits, const cuzk_lc *lhs, const cuzk_lc *rhs)
{
    if (me->bits_used + num_bits >= CUZK_NUM_CAPACITY) multieq_accumulate(me);
    if (num_bits >= CUZK_NUM_CAPACITY) {
        cuzk_cs_fail(me->cs, CUZK_ERR_INVALID_ARG, "MultiEq: an equality of %u bits (at most 253)", num_bits);
        return;
    }
    if (cuzk_cs_builds_lc(me->cs)) {
        const cuzk_fr_t *coeff = me->bits_used ? cuzk_cs_pow2(me->bits_used) : NULL;
        cuzk_lc_add_lc(me->cs, &me->lhs, lhs, coeff);
        cuzk_lc_add_lc(me->cs, &me->rhs, rhs, coeff);
    }
    me->bits_used += num_bits;
}

void cuzk_multieq_finish(cuzk_multieq *me)
{
    if (me->bits_used > 0) multieq_accumulate(me);
    cuzk_lc_free(&me->lhs);
    cuzk_lc_free(&me->rhs);
}

/* ---- UInt32 ------------------------------------------------------------------------------------------------------ */

static uint32_t word_of(const cuzk_bit *bits)
{
    uint32_t v = 0;
    for (int i = 0; i < 32; i++) v |= (uint32_t)bits[i].val << i;
    return v;
}

void cuzk_u32_const(uint32_t v, cuzk_u32 *out)
{
    for (int i = 0; i < 32; i++) out->b[i] = cuzk_bit_const((v >> i) & 1);
    out->val = v;
}

void cuzk_u32_alloc(cuzk_cs *cs, uint32_t v, cuzk_u32 *out)
{
    for (unsigned i = 0; i < 32; i++) {
        cuzk_cs_pushf(cs, "allocated bit %u", i);
        out->b[i] = cuzk_bit_alloc(cs, (v >> i) & 1);
        cuzk_cs_pop(cs);
    }
    out->val = v;
}

void cuzk_u32_from_bits(const cuzk_bit bits[32], cuzk_u32 *out)
{
    for (int i = 0; i < 32; i++) out->b[i] = bits[i];
    out->val = word_of(out->b);
}

void cuzk_u32_from_bits_be(const cuzk_bit bits[32], cuzk_u32 *out)
{
    cuzk_bit t[32];
    for (int i = 0; i < 32; i++) t[i] = bits[i]; /* bits may lie in out */
    for (int i = 0; i < 32; i++) out->b[i] = t[31 - i];
    out->val = word_of(out->b);
}

void cuzk_u32_into_bits_be(const cuzk_u32 *a, cuzk_bit out[32])
{
    for (int i = 0; i < 32; i++) out[i] = a->b[31 - i];
}

void cuzk_u32_rotr(const cuzk_u32 *a, unsigned by, cuzk_u32 *out)
{
    cuzk_u32 t = *a; /* out may be a */
    by %= 32;
    for (unsigned i = 0; i < 32; i++) out->b[i] = t.b[(i + by) % 32];
    out->val = by ? (t.val >> by) | (t.val << (32 - by)) : t.val;
}

void cuzk_u32_shr(const cuzk_u32 *a, unsigned by, cuzk_u32 *out)
{
    cuzk_u32 t = *a;
    by %= 32;
    for (unsigned i = 0; i < 32; i++) out->b[i] = i + by < 32 ? t.b[i + by] : cuzk_bit_const(false);
    out->val = t.val >> by;
}

void cuzk_u32_xor(cuzk_cs *cs, const cuzk_u32 *a, const cuzk_u32 *b, cuzk_u32 *out)
{
    uint32_t v = a->val ^ b->val;
    for (unsigned i = 0; i < 32; i++) {
        cuzk_cs_pushf(cs, "xor of bit %u", i);
        out->b[i] = cuzk_bit_xor(cs, a->b[i], b->b[i]);
        cuzk_cs_pop(cs);
    }
    out->val = v;
}

void cuzk_u32_sha256_maj(cuzk_cs *cs, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c, cuzk_u32 *out)
{
    uint32_t v = (a->val & b->val) ^ (a->val & c->val) ^ (b->val & c->val);
    for (unsigned i = 0; i < 32; i++) {
        cuzk_cs_pushf(cs, "maj %u", i);
        out->b[i] = cuzk_bit_sha256_maj(cs, a->b[i], b->b[i], c->b[i]);
        cuzk_cs_pop(cs);
    }
    out->val = v;
}

void cuzk_u32_sha256_ch(cuzk_cs *cs, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c, cuzk_u32 *out)
{
    uint32_t v = (a->val & b->val) ^ (~a->val & c->val);
    for (unsigned i = 0; i < 32; i++) {
        cuzk_cs_pushf(cs, "ch %u", i);
        out->b[i] = cuzk_bit_sha256_ch(cs, a->b[i], b->b[i], c->b[i]);
        cuzk_cs_pop(cs);
    }
    out->val = v;
}

void cuzk_u32_addmany(cuzk_cs *cs, cuzk_multieq *me, const cuzk_u32 *ops, size_t n, cuzk_u32 *out)
{
    if (n < 2 || n > 10) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "UInt32::addmany of %zu operands (2 to 10)", n);
        cuzk_u32_const(0, out);
        return;
    }
    uint64_t max_value = (uint64_t)n * UINT32_MAX, sum = 0;
    bool all_constants = true;
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].val;
        for (int i = 0; i < 32; i++) all_constants &= ops[k].b[i].kind == CUZK_BIT_CONST;
    }
    if (all_constants) {
        cuzk_u32_const((uint32_t)sum, out);
        return;
    }
    bool lc = cuzk_cs_builds_lc(cs);
    cuzk_term tl[10 * 64 + 1], tr[36];
    cuzk_lc lhs = CUZK_LC_ON(tl), rhs = CUZK_LC_ON(tr);
    if (lc)
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++) cuzk_lc_add_bit(cs, &lhs, ops[k].b[i], cuzk_cs_pow2(i));
    cuzk_bit res[64];
    unsigned nbits = 0;
    for (; max_value != 0; max_value >>= 1, nbits++) {
        cuzk_cs_pushf(cs, "result bit %u", nbits);
        res[nbits] = cuzk_bit_alloc(cs, (sum >> nbits) & 1);
        cuzk_cs_pop(cs);
        if (lc) cuzk_lc_add(cs, &rhs, res[nbits].var, cuzk_cs_pow2(nbits));
    }
    cuzk_multieq_enforce_equal(me, nbits, &lhs, &rhs);
    cuzk_lc_free(&lhs);
    cuzk_lc_free(&rhs);
    for (int i = 0; i < 32; i++) out->b[i] = res[i];
    out->val = (uint32_t)sum;
}
