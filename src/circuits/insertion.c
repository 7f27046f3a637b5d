/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Insertion of a number into a list at a position given by bits (storage-proofs-core insertion.rs): the hand-made
 * networks for 2, 4 and 8 elements, the general selection otherwise, and pick / select under them. */
#include <stdlib.h>

#include "cuzk/circuits.h"

cuzk_num cuzk_insert_pick(cuzk_cs *cs, cuzk_bit cond, cuzk_num a, cuzk_num b)
{
    cuzk_num r;
    r.val = cond.val ? a.val : b.val;
    cuzk_cs_push(cs, "pick result");
    r.var = cuzk_cs_alloc(cs, &r.val);
    cuzk_cs_pop(cs);
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, "pick", NULL, NULL, NULL);
        return r;
    }
    cuzk_term ta[2], tb[2], tc[2];
    cuzk_lc la = CUZK_LC_ON(ta), lb = CUZK_LC_ON(tb), lc = CUZK_LC_ON(tc);
    cuzk_lc_add(cs, &la, b.var, NULL);
    cuzk_lc_sub(cs, &la, a.var);
    cuzk_lc_add_bit(cs, &lb, cond, NULL);
    cuzk_lc_add(cs, &lc, b.var, NULL);
    cuzk_lc_sub(cs, &lc, r.var);
    cuzk_cs_enforce(cs, "pick", &la, &lb, &lc);
    return r;
}

static cuzk_num pick_ns(cuzk_cs *cs, const char *ns, cuzk_bit cond, cuzk_num a, cuzk_num b)
{
    cuzk_cs_push(cs, ns);
    cuzk_num r = cuzk_insert_pick(cs, cond, a, b);
    cuzk_cs_pop(cs);
    return r;
}

cuzk_num cuzk_insert_select(cuzk_cs *cs, const cuzk_num *from, const cuzk_bit *bits, unsigned nbits)
{
    if (nbits > 20) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "select over 2^%u candidates", nbits);
        return (cuzk_num){0};
    }
    size_t half = ((size_t)1 << nbits) / 2;
    cuzk_num *state = malloc((half ? 2 * half : 1) * sizeof *state);
    if (state == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for select");
        return (cuzk_num){0};
    }
    for (size_t j = 0; j < (half ? 2 * half : 1); j++) state[j] = from[j];
    /* most significant bit first */
    for (unsigned i = 0; i < nbits; i++, half /= 2) {
        cuzk_bit bit = bits[nbits - 1 - i];
        for (size_t j = 0; j < half; j++) {
            cuzk_cs_pushf(cs, "pick %u, %zu", i, j);
            state[j] = cuzk_insert_pick(cs, bit, state[half + j], state[j]);
            cuzk_cs_pop(cs);
        }
    }
    cuzk_num r = state[0];
    free(state);
    return r;
}

static void insert_2(cuzk_cs *cs, cuzk_num x, const cuzk_bit *bits, const cuzk_num *e, cuzk_num *out)
{
    cuzk_num r0 = pick_ns(cs, "binary insert 0", bits[0], e[0], x);
    cuzk_num r1 = pick_ns(cs, "binary insert 1", bits[0], x, e[0]);
    out[0] = r0;
    out[1] = r1;
}

static void insert_4(cuzk_cs *cs, cuzk_num a, const cuzk_bit *bits, const cuzk_num *e, cuzk_num *out)
{
    cuzk_bit b0 = bits[0], b1 = bits[1];
    cuzk_num b = e[0], c = e[1], d = e[2], p[4];
    cuzk_num p0_x0 = pick_ns(cs, "p0_x0", b0, b, a);
    p[0] = pick_ns(cs, "p0", b1, b, p0_x0);
    cuzk_num p1_x0 = pick_ns(cs, "p1_x0", b0, a, b);
    p[1] = pick_ns(cs, "p1", b1, c, p1_x0);
    cuzk_num p2_x1 = pick_ns(cs, "p2_x1", b0, d, a);
    p[2] = pick_ns(cs, "p2", b1, p2_x1, c);
    cuzk_num p3_x1 = pick_ns(cs, "p3_x1", b0, a, d);
    p[3] = pick_ns(cs, "p3", b1, p3_x1, d);
    for (int i = 0; i < 4; i++) out[i] = p[i];
}

static void insert_8(cuzk_cs *cs, cuzk_num a, const cuzk_bit *bits, const cuzk_num *e, cuzk_num *out)
{
    cuzk_bit b0 = bits[0], b1 = bits[1], b2 = bits[2];
    if (b0.kind != CUZK_BIT_IS || b1.kind != CUZK_BIT_IS) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "insert_8: bits must be allocated and unnegated");
        for (int i = 0; i < 8; i++) out[i] = (cuzk_num){0};
        return;
    }
    cuzk_num b = e[0], c = e[1], d = e[2], ee = e[3], f = e[4], g = e[5], h = e[6], p[8];
    cuzk_cs_push(cs, "b0 nor b1");
    cuzk_bit b01_nor = cuzk_abit_nor(cs, b0, b1);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "b0 and b1");
    cuzk_bit b01_and = cuzk_abit_and(cs, b0, b1);
    cuzk_cs_pop(cs);

    cuzk_num p0_xx0 = pick_ns(cs, "p0_xx0", b01_nor, a, b);
    p[0] = pick_ns(cs, "p0", b2, b, p0_xx0);

    cuzk_num p1_x00 = pick_ns(cs, "p1_x00", b0, a, b);
    cuzk_num p1_xx0 = pick_ns(cs, "p1_xx0", b1, c, p1_x00);
    p[1] = pick_ns(cs, "p1", b2, c, p1_xx0);

    cuzk_num p2_x10 = pick_ns(cs, "p2_x10", b0, d, a);
    cuzk_num p2_xx0 = pick_ns(cs, "p2_xx0", b1, p2_x10, c);
    p[2] = pick_ns(cs, "p2", b2, d, p2_xx0);

    cuzk_num p3_xx0 = pick_ns(cs, "p3_xx0", b01_and, a, d);
    p[3] = pick_ns(cs, "p3", b2, ee, p3_xx0);

    cuzk_num p4_xx1 = pick_ns(cs, "p4_xx1", b01_nor, a, f);
    p[4] = pick_ns(cs, "p4", b2, p4_xx1, ee);

    cuzk_num p5_x01 = pick_ns(cs, "p5_x01", b0, a, f);
    cuzk_num p5_xx1 = pick_ns(cs, "p5_xx1", b1, g, p5_x01);
    p[5] = pick_ns(cs, "p5", b2, p5_xx1, f);

    cuzk_num p6_x11 = pick_ns(cs, "p6_x11", b0, h, a);
    cuzk_num p6_xx1 = pick_ns(cs, "p6_xx1", b1, p6_x11, g);
    p[6] = pick_ns(cs, "p6", b2, p6_xx1, g);

    cuzk_num p7_xx1 = pick_ns(cs, "p7_xx1", b01_and, a, h);
    p[7] = pick_ns(cs, "p7", b2, p7_xx1, h);
    for (int i = 0; i < 8; i++) out[i] = p[i];
}

void cuzk_insert(cuzk_cs *cs, cuzk_num element, const cuzk_bit *bits, unsigned nbits, const cuzk_num *elements,
                 cuzk_num *out)
{
    if (nbits > 16) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "insert into 2^%u positions", nbits);
        return;
    }
    size_t size = (size_t)1 << nbits;
    if (size == 2) {
        insert_2(cs, element, bits, elements, out);
        return;
    }
    if (size == 4) {
        insert_4(cs, element, bits, elements, out);
        return;
    }
    if (size == 8) {
        insert_8(cs, element, bits, elements, out);
        return;
    }
    /* the general network: for each position, select among what each index would put there */
    cuzk_num *choices = malloc(size * sizeof *choices), *res = malloc(size * sizeof *res);
    if (choices == NULL || res == NULL) {
        free(choices);
        free(res);
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for insert");
        return;
    }
    for (size_t pos = 0; pos < size; pos++) {
        for (size_t index = 0; index < size; index++)
            choices[index] = pos < index ? elements[pos] : pos == index ? element : elements[pos - 1];
        cuzk_cs_pushf(cs, "choice at %zu", pos);
        res[pos] = cuzk_insert_select(cs, choices, bits, nbits);
        cuzk_cs_pop(cs);
    }
    for (size_t pos = 0; pos < size; pos++) out[pos] = res[pos];
    free(choices);
    free(res);
}
