/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "g16_circuits.h"

#include <stdlib.h>
#include <string.h>

/* Two independent splitmix64 streams: one decides the shape, one the values. */
typedef struct {
    uint64_t shape, value;
} gen_rng;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t x = (*s += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void value_fr(gen_rng *g, cuzk_fr_t *r)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        for (int i = 0; i < CUZK_FR_LIMBS; i++) l[i] = splitmix(&g->value);
        l[CUZK_FR_LIMBS - 1] &= (1ULL << 63) - 1;
    } while (cuzk_fr_from_limbs(r, l) != CUZK_OK);
}

static void shape_fr(gen_rng *g, cuzk_fr_t *r)
{
    uint64_t l[CUZK_FR_LIMBS];
    do {
        for (int i = 0; i < CUZK_FR_LIMBS; i++) l[i] = splitmix(&g->shape);
        l[CUZK_FR_LIMBS - 1] &= (1ULL << 63) - 1;
    } while (cuzk_fr_from_limbs(r, l) != CUZK_OK);
}

static cuzk_r1cs_var col_var(uint32_t ni, uint64_t col)
{
    return col < ni ? CUZK_R1CS_INPUT(col) : CUZK_R1CS_AUX(col - ni);
}

/* A random earlier variable (any input, or any aux already given a value). */
static uint64_t pick(gen_rng *g, uint64_t used) { return splitmix(&g->shape) % used; }

static void lc_value(cuzk_fr_t *out, const cuzk_r1cs_term *t, size_t n, const cuzk_fr_t *z, uint32_t ni)
{
    cuzk_fr_set_zero(out);
    for (size_t i = 0; i < n; i++) {
        uint64_t col = (t[i].var >> 32) ? ni + (uint32_t)t[i].var : (uint32_t)t[i].var;
        cuzk_fr_t x;
        cuzk_fr_mul(&x, &t[i].coeff, &z[col]);
        cuzk_fr_add(out, out, &x);
    }
}

void g16_circuit_make(g16_circuit *c, uint64_t rows, uint32_t num_public, uint64_t shape_seed, uint64_t value_seed)
{
    gen_rng g = {shape_seed, value_seed};
    uint32_t ni = num_public + 1;
    /* each constraint allocates at most one aux */
    uint64_t cap = ni + rows + 1;
    cuzk_fr_t *z = calloc(cap, sizeof *z);
    assert_non_null(z);
    cuzk_fr_set_one(&z[0]);
    for (uint32_t i = 1; i < ni; i++) {
        if (splitmix(&g.value) % 3 == 0) cuzk_fr_from_u64(&z[i], splitmix(&g.value) & 1);
        else value_fr(&g, &z[i]);
    }
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(ni);
    assert_non_null(b);
    uint64_t used = ni; /* variables with a value: inputs, then aux 0 .. used − ni − 1 */
    cuzk_fr_t one, minus_one;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&minus_one, &one);
    uint64_t last_bits[8];
    unsigned nbits = 0;

    for (uint64_t row = 0; row < rows; row++) {
        cuzk_r1cs_term a[8], bt[8], ct[10];
        size_t na = 0, nb = 0, nc = 0;
        cuzk_r1cs_var out;
        assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, &out), CUZK_OK);
        uint64_t oc = used;
        unsigned kind = (unsigned)(splitmix(&g.shape) % 8);
        if (kind == 7 && nbits >= 4) {
            /* packing: out = Σ 2^i·bit_i, as (Σ 2^i bit_i)·1 = out */
            for (unsigned i = 0; i < nbits; i++) {
                a[na].var = col_var(ni, last_bits[i]);
                cuzk_fr_from_u64(&a[na].coeff, 1ULL << i);
                na++;
            }
            bt[nb++] = (cuzk_r1cs_term){CUZK_R1CS_ONE, one};
            lc_value(&z[oc], a, na, z, ni);
            ct[nc++] = (cuzk_r1cs_term){out, one};
            nbits = 0;
        } else if (kind >= 4) {
            /* a new bit: out·(1 − out) = 0 */
            cuzk_fr_from_u64(&z[oc], splitmix(&g.value) & 1);
            a[na++] = (cuzk_r1cs_term){out, one};
            bt[nb++] = (cuzk_r1cs_term){CUZK_R1CS_ONE, one};
            bt[nb++] = (cuzk_r1cs_term){out, minus_one};
            if (nbits < 8) last_bits[nbits++] = oc;
        } else if (kind >= 1) {
            /* multiplication of two small combinations of earlier variables: (x + k·y)·(p) = out − q */
            size_t la = 1 + splitmix(&g.shape) % 3, lb = 1 + splitmix(&g.shape) % 2;
            for (size_t i = 0; i < la; i++) {
                a[na].var = col_var(ni, pick(&g, used));
                if (splitmix(&g.shape) % 2) a[na].coeff = one;
                else shape_fr(&g, &a[na].coeff);
                na++;
            }
            for (size_t i = 0; i < lb; i++) {
                bt[nb].var = col_var(ni, pick(&g, used));
                if (splitmix(&g.shape) % 2) bt[nb].coeff = minus_one;
                else cuzk_fr_from_u64(&bt[nb].coeff, 3);
                nb++;
            }
            cuzk_fr_t va, vb, vq;
            lc_value(&va, a, na, z, ni);
            lc_value(&vb, bt, nb, z, ni);
            cuzk_fr_mul(&z[oc], &va, &vb);
            if (splitmix(&g.shape) % 2) {
                /* a second term in C: out = a·b − q, i.e. C = out + q */
                ct[nc].var = col_var(ni, pick(&g, used));
                shape_fr(&g, &ct[nc].coeff);
                lc_value(&vq, &ct[nc], 1, z, ni);
                nc++;
                cuzk_fr_sub(&z[oc], &z[oc], &vq);
            }
            ct[nc++] = (cuzk_r1cs_term){out, one};
        } else {
            /* linear: (x + 5·y)·ONE = out */
            a[na++] = (cuzk_r1cs_term){col_var(ni, pick(&g, used)), one};
            a[na].var = col_var(ni, pick(&g, used));
            cuzk_fr_from_u64(&a[na].coeff, 5);
            na++;
            bt[nb++] = (cuzk_r1cs_term){CUZK_R1CS_ONE, one};
            lc_value(&z[oc], a, na, z, ni);
            ct[nc++] = (cuzk_r1cs_term){out, one};
        }
        assert_int_equal(cuzk_r1cs_builder_enforce(b, a, na, bt, nb, ct, nc), CUZK_OK);
        used++;
    }
    assert_int_equal(cuzk_r1cs_builder_finish(b, &c->r), CUZK_OK);
    assert_int_equal(cuzk_r1cs_num_vars(c->r), used);
    c->z = z;
    uint64_t bad = 0;
    assert_int_equal(cuzk_r1cs_check(c->r, c->z, 1, &bad), CUZK_OK);
}

void g16_circuit_free(g16_circuit *c)
{
    cuzk_r1cs_free(c->r);
    free(c->z);
    memset(c, 0, sizeof *c);
}
