/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* 64-bit words of Booleans (storage-proofs-core uint64.rs), for challenges exposed as one packed input. */
#include "cuzk/circuits.h"

static uint64_t word_of(const cuzk_bit *bits)
{
    uint64_t v = 0;
    for (int i = 0; i < 64; i++) v |= (uint64_t)bits[i].val << i;
    return v;
}

void cuzk_u64_const(uint64_t v, cuzk_u64 *out)
{
    for (int i = 0; i < 64; i++) out->b[i] = cuzk_bit_const((v >> i) & 1);
    out->val = v;
}

void cuzk_u64_alloc(cuzk_cs *cs, uint64_t v, cuzk_u64 *out)
{
    for (unsigned i = 0; i < 64; i++) {
        cuzk_cs_pushf(cs, "allocated bit %u", i);
        out->b[i] = cuzk_bit_alloc(cs, (v >> i) & 1);
        cuzk_cs_pop(cs);
    }
    out->val = v;
}

void cuzk_u64_pack_into_input(cuzk_cs *cs, const cuzk_u64 *a) { cuzk_multipack_pack_into_inputs(cs, a->b, 64); }

void cuzk_u64_from_bits(const cuzk_bit bits[64], cuzk_u64 *out)
{
    for (int i = 0; i < 64; i++) out->b[i] = bits[i];
    out->val = word_of(out->b);
}

void cuzk_u64_from_bits_be(const cuzk_bit bits[64], cuzk_u64 *out)
{
    cuzk_bit t[64];
    for (int i = 0; i < 64; i++) t[i] = bits[i]; /* bits may lie in out */
    for (int i = 0; i < 64; i++) out->b[i] = t[63 - i];
    out->val = word_of(out->b);
}

void cuzk_u64_to_bits_be(const cuzk_u64 *a, cuzk_bit out[64])
{
    for (int i = 0; i < 64; i++) out[i] = a->b[63 - i];
}
