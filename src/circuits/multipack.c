/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Bit packing (bellperson multipack.rs): bits into field values, least significant first, 254 (Fr::CAPACITY) a
 * value. */
#include <stdio.h>
#include <string.h>

#include "cuzk/circuits.h"

/* Σ 2^i bits[i] as a field value (n <= 254) and, when rows are built, as a linear combination. */
static void pack_value(const cuzk_bit *bits, size_t n, cuzk_fr_t *v)
{
    uint64_t l[CUZK_FR_LIMBS] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) l[i / 64] |= (uint64_t)bits[i].val << (i % 64);
    cuzk_fr_from_limbs(v, l); /* below 2^254 < r */
}

static void pack_lc(cuzk_cs *cs, const cuzk_bit *bits, size_t n, cuzk_lc *lc)
{
    for (size_t i = 0; i < n; i++) cuzk_lc_add_bit(cs, lc, bits[i], cuzk_cs_pow2((unsigned)i));
}

cuzk_num cuzk_multipack_pack_bits(cuzk_cs *cs, const cuzk_bit *bits, size_t n)
{
    if (n > CUZK_NUM_CAPACITY) n = CUZK_NUM_CAPACITY;
    cuzk_num r;
    pack_value(bits, n, &r.val);
    cuzk_cs_push(cs, "input");
    r.var = cuzk_cs_alloc(cs, &r.val);
    cuzk_cs_pop(cs);
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, "packing constraint", NULL, NULL, NULL);
        return r;
    }
    cuzk_term ta[2 * CUZK_NUM_CAPACITY], tb[1], tc[1];
    cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
    pack_lc(cs, bits, n, &a);
    cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(cs, &c, r.var, NULL);
    cuzk_cs_enforce(cs, "packing constraint", &a, &b, &c);
    return r;
}

void cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bit *bits, size_t n)
{
    for (size_t i = 0, off = 0; off < n; i++, off += CUZK_NUM_CAPACITY) {
        size_t m = n - off < CUZK_NUM_CAPACITY ? n - off : CUZK_NUM_CAPACITY;
        cuzk_fr_t v;
        pack_value(bits + off, m, &v);
        cuzk_cs_pushf(cs, "input %zu", i);
        cuzk_var x = cuzk_cs_alloc_input(cs, &v);
        cuzk_cs_pop(cs);
        char name[40] = "packing constraint";
        if (cs->flags & CUZK_CS_F_NAMES) snprintf(name, sizeof name, "packing constraint %zu", i);
        if (!cuzk_cs_builds_lc(cs)) {
            cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
            continue;
        }
        cuzk_term ta[2 * CUZK_NUM_CAPACITY], tb[1], tc[1];
        cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
        pack_lc(cs, bits + off, m, &a);
        cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
        cuzk_lc_add(cs, &c, x, NULL);
        cuzk_cs_enforce(cs, name, &a, &b, &c);
    }
}

size_t cuzk_multipack_compute(const bool *bits, size_t n, cuzk_fr_t *out)
{
    size_t k = 0;
    for (size_t off = 0; off < n; off += CUZK_NUM_CAPACITY, k++) {
        uint64_t l[CUZK_FR_LIMBS] = {0, 0, 0, 0};
        for (size_t i = 0; i < CUZK_NUM_CAPACITY && off + i < n; i++) l[i / 64] |= (uint64_t)bits[off + i] << (i % 64);
        cuzk_fr_from_limbs(&out[k], l);
    }
    return k;
}

void cuzk_multipack_bytes_to_bits(const uint8_t *bytes, size_t n, bool *bits)
{
    for (size_t i = 0; i < 8 * n; i++) bits[i] = (bytes[i / 8] >> (7 - i % 8)) & 1;
}

void cuzk_multipack_bytes_to_bits_le(const uint8_t *bytes, size_t n, bool *bits)
{
    for (size_t i = 0; i < 8 * n; i++) bits[i] = (bytes[i / 8] >> (i % 8)) & 1;
}
