/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The group law of a short Weierstrass curve y² = x³ + b (a = 0), written once for G1 and G2. The including file
 * defines:
 *   FE             the coordinate field element type (cuzk_fp_t or cuzk_fp2_t)
 *   FE_(name)      a field operation (cuzk_fp_##name or cuzk_fp2_##name)
 *   FE_INV_VARTIME the variable-time inversion used for batch normalization of public points
 *   G_(name)       a group operation name (cuzk_g1_##name or cuzk_g2_##name)
 *   AFF, JAC, XYZZ the three point types
 *   CURVE_B        pointer to b in Montgomery form
 *
 * Formulas are those of the Explicit-Formulas Database for a = 0: dbl-2009-l, add-2007-bl, madd-2007-bl in
 * Jacobian coordinates; dbl-2008-s-1, add-2008-s, madd-2008-s in XYZZ coordinates. Each addition checks for the
 * exceptional cases (an operand at infinity, equal or opposite operands) so that all of them are complete. Those
 * checks branch, which is harmless for public points; for secret scalars mul_ct arranges that they are reached
 * only with negligible probability. */

/* ---- affine ------------------------------------------------------------------------------------------------------ */
void G_(affine_set_infinity)(AFF *r) { memset(r, 0, sizeof *r); }
bool G_(affine_is_infinity)(const AFF *p) { return FE_(is_zero)(&p->x) & FE_(is_zero)(&p->y); }
bool G_(affine_eq)(const AFF *a, const AFF *b) { return FE_(eq)(&a->x, &b->x) & FE_(eq)(&a->y, &b->y); }

void G_(affine_neg)(AFF *r, const AFF *p)
{
    r->x = p->x;
    FE_(neg)(&r->y, &p->y); /* −0 = 0, so infinity stays infinity */
}

/* x³ + b */
void G_(curve_rhs)(FE *r, const FE *x)
{
    FE t;
    FE_(sqr)(&t, x);
    FE_(mul)(&t, &t, x);
    FE_(add)(r, &t, CURVE_B);
}

bool G_(affine_on_curve)(const AFF *p)
{
    if (G_(affine_is_infinity)(p)) return true;
    FE lhs, rhs;
    FE_(sqr)(&lhs, &p->y);
    G_(curve_rhs)(&rhs, &p->x);
    return FE_(eq)(&lhs, &rhs);
}

/* ---- Jacobian ---------------------------------------------------------------------------------------------------- */
void G_(jac_set_infinity)(JAC *r)
{
    FE_(set_one)(&r->x);
    FE_(set_one)(&r->y);
    FE_(set_zero)(&r->z);
}

bool G_(jac_is_infinity)(const JAC *p) { return FE_(is_zero)(&p->z); }

void G_(jac_from_affine)(JAC *r, const AFF *p)
{
    if (G_(affine_is_infinity)(p)) {
        G_(jac_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    FE_(set_one)(&r->z);
}

/* X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³ */
bool G_(jac_eq)(const JAC *a, const JAC *b)
{
    bool ia = G_(jac_is_infinity)(a), ib = G_(jac_is_infinity)(b);
    if (ia | ib) return ia & ib;
    FE za2, zb2, t0, t1;
    FE_(sqr)(&za2, &a->z);
    FE_(sqr)(&zb2, &b->z);
    FE_(mul)(&t0, &a->x, &zb2);
    FE_(mul)(&t1, &b->x, &za2);
    if (!FE_(eq)(&t0, &t1)) return false;
    FE_(mul)(&za2, &za2, &a->z);
    FE_(mul)(&zb2, &zb2, &b->z);
    FE_(mul)(&t0, &a->y, &zb2);
    FE_(mul)(&t1, &b->y, &za2);
    return FE_(eq)(&t0, &t1);
}

static void G_(jac_to_affine_with_zinv)(AFF *r, const JAC *p, const FE *zinv)
{
    FE z2, z3;
    FE_(sqr)(&z2, zinv);
    FE_(mul)(&z3, &z2, zinv);
    FE_(mul)(&r->x, &p->x, &z2);
    FE_(mul)(&r->y, &p->y, &z3);
}

/* Single conversions use the constant-time inversion: the point may come from a secret scalar multiplication. */
void G_(jac_to_affine)(AFF *r, const JAC *p)
{
    if (G_(jac_is_infinity)(p)) {
        G_(affine_set_infinity)(r);
        return;
    }
    FE zinv;
    FE_(inv)(&zinv, &p->z);
    G_(jac_to_affine_with_zinv)(r, p, &zinv);
}

/* Montgomery's trick without scratch memory: the running products of the Z's are kept in out[i].x until the
 * backward pass replaces them with the point. Points at infinity are skipped and come out as (0, 0). out must not
 * overlap in (the types differ in size). */
void G_(jac_batch_to_affine)(AFF *out, const JAC *in, size_t n)
{
    if (n == 0) return;
    FE acc;
    FE_(set_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        out[i].x = acc;
        if (!G_(jac_is_infinity)(&in[i])) FE_(mul)(&acc, &acc, &in[i].z);
    }
    FE_INV_VARTIME(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (G_(jac_is_infinity)(&in[i])) {
            G_(affine_set_infinity)(&out[i]);
            continue;
        }
        FE zinv;
        FE_(mul)(&zinv, &acc, &out[i].x);
        FE_(mul)(&acc, &acc, &in[i].z);
        G_(jac_to_affine_with_zinv)(&out[i], &in[i], &zinv);
    }
}

void G_(jac_neg)(JAC *r, const JAC *p)
{
    r->x = p->x;
    FE_(neg)(&r->y, &p->y);
    r->z = p->z;
}

/* dbl-2009-l: 2M + 5S. Infinity (Z = 0) gives Z3 = 0 by itself; no point of order 2 lies in either group. */
void G_(jac_dbl)(JAC *r, const JAC *p)
{
    FE a, b, c, d, e, f, t;
    FE_(sqr)(&a, &p->x);
    FE_(sqr)(&b, &p->y);
    FE_(sqr)(&c, &b);
    FE_(add)(&d, &p->x, &b);
    FE_(sqr)(&d, &d);
    FE_(sub)(&d, &d, &a);
    FE_(sub)(&d, &d, &c);
    FE_(dbl)(&d, &d);
    FE_(dbl)(&e, &a);
    FE_(add)(&e, &e, &a);
    FE_(sqr)(&f, &e);
    FE_(mul)(&r->z, &p->y, &p->z); /* Y1, Z1 are read before r->y is written */
    FE_(dbl)(&r->z, &r->z);
    FE_(dbl)(&t, &d);
    FE_(sub)(&r->x, &f, &t);
    FE_(sub)(&t, &d, &r->x);
    FE_(mul)(&t, &e, &t);
    FE_(dbl)(&c, &c);
    FE_(dbl)(&c, &c);
    FE_(dbl)(&c, &c);
    FE_(sub)(&r->y, &t, &c);
}

/* add-2007-bl: 11M + 5S */
void G_(jac_add)(JAC *r, const JAC *a, const JAC *b)
{
    if (G_(jac_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (G_(jac_is_infinity)(b)) {
        *r = *a;
        return;
    }
    FE z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    FE_(sqr)(&z1z1, &a->z);
    FE_(sqr)(&z2z2, &b->z);
    FE_(mul)(&u1, &a->x, &z2z2);
    FE_(mul)(&u2, &b->x, &z1z1);
    FE_(mul)(&s1, &a->y, &b->z);
    FE_(mul)(&s1, &s1, &z2z2);
    FE_(mul)(&s2, &b->y, &a->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &u1);
    FE_(sub)(&rr, &s2, &s1);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&rr)) G_(jac_dbl)(r, a);
        else G_(jac_set_infinity)(r);
        return;
    }
    FE_(dbl)(&rr, &rr);
    FE_(dbl)(&i, &h);
    FE_(sqr)(&i, &i);
    FE_(mul)(&j, &h, &i);
    FE_(mul)(&v, &u1, &i);
    /* Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H, computed before r->z may overwrite a->z or b->z */
    FE_(add)(&t, &a->z, &b->z);
    FE_(sqr)(&t, &t);
    FE_(sub)(&t, &t, &z1z1);
    FE_(sub)(&t, &t, &z2z2);
    FE_(mul)(&r->z, &t, &h);
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &j);
    FE_(sub)(&t, &t, &v);
    FE_(sub)(&r->x, &t, &v);
    FE_(sub)(&t, &v, &r->x);
    FE_(mul)(&t, &rr, &t);
    FE_(mul)(&s1, &s1, &j);
    FE_(dbl)(&s1, &s1);
    FE_(sub)(&r->y, &t, &s1);
}

/* madd-2007-bl: 7M + 4S */
void G_(jac_add_affine)(JAC *r, const JAC *a, const AFF *b)
{
    if (G_(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (G_(jac_is_infinity)(a)) {
        G_(jac_from_affine)(r, b);
        return;
    }
    FE z1z1, u2, s2, h, hh, i, j, rr, v, t;
    FE_(sqr)(&z1z1, &a->z);
    FE_(mul)(&u2, &b->x, &z1z1);
    FE_(mul)(&s2, &b->y, &a->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FE_(sub)(&h, &u2, &a->x);
    FE_(sub)(&rr, &s2, &a->y);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&rr)) G_(jac_dbl)(r, a);
        else G_(jac_set_infinity)(r);
        return;
    }
    FE_(dbl)(&rr, &rr);
    FE_(sqr)(&hh, &h);
    FE_(dbl)(&i, &hh);
    FE_(dbl)(&i, &i);
    FE_(mul)(&j, &h, &i);
    FE_(mul)(&v, &a->x, &i);
    /* Y1·J is needed after r->y may have overwritten a->y */
    FE_(mul)(&s2, &a->y, &j);
    FE_(add)(&t, &a->z, &h);
    FE_(sqr)(&t, &t);
    FE_(sub)(&t, &t, &z1z1);
    FE_(sub)(&r->z, &t, &hh);
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &j);
    FE_(sub)(&t, &t, &v);
    FE_(sub)(&r->x, &t, &v);
    FE_(sub)(&t, &v, &r->x);
    FE_(mul)(&t, &rr, &t);
    FE_(dbl)(&s2, &s2);
    FE_(sub)(&r->y, &t, &s2);
}

/* ---- scalar multiplication --------------------------------------------------------------------------------------- */
static unsigned G_(scalar_bit)(const uint64_t *k, size_t i) { return (unsigned)(k[i / 64] >> (i % 64)) & 1; }

/* Left-to-right sliding window over odd multiples P, 3P, ..., (2^w − 1)P. Variable time: k is public. */
void G_(jac_mul)(JAC *r, const JAC *p, const uint64_t *k, size_t k_limbs)
{
    size_t top = k_limbs * 64;
    while (top > 0 && !G_(scalar_bit)(k, top - 1)) top--;
    if (top == 0 || G_(jac_is_infinity)(p)) {
        G_(jac_set_infinity)(r);
        return;
    }
    /* window width by scalar length: the table costs 2^(w−1) additions, each window saves about w doublings' worth
     * of additions */
    unsigned w = top >= 128 ? 5 : top >= 48 ? 4 : top >= 12 ? 3 : 1;
    JAC table[16], p2, acc;
    table[0] = *p;
    if (w > 1) {
        G_(jac_dbl)(&p2, p);
        for (size_t i = 1; i < ((size_t)1 << (w - 1)); i++) G_(jac_add)(&table[i], &table[i - 1], &p2);
    }
    G_(jac_set_infinity)(&acc);
    size_t i = top;
    while (i > 0) {
        if (!G_(scalar_bit)(k, i - 1)) {
            G_(jac_dbl)(&acc, &acc);
            i--;
            continue;
        }
        /* the longest window of at most w bits starting at bit i−1 and ending in a set bit */
        size_t lo = i > w ? i - w : 0;
        while (!G_(scalar_bit)(k, lo)) lo++;
        unsigned digit = 0;
        for (size_t b = i; b-- > lo;) {
            digit = (digit << 1) | G_(scalar_bit)(k, b);
            if (!G_(jac_is_infinity)(&acc)) G_(jac_dbl)(&acc, &acc);
        }
        G_(jac_add)(&acc, &acc, &table[digit >> 1]);
        i = lo;
    }
    *r = acc;
}

/* r = table[idx − 1] for idx in 1..16, touching every entry. */
static void G_(table_lookup_ct)(JAC *r, const JAC table[16], uint64_t idx)
{
    *r = table[0];
    for (uint64_t j = 2; j <= 16; j++) {
        uint64_t d = j ^ idx;
        bool hit = (bool)(((d | (0 - d)) >> 63) ^ 1);
        FE_(cmov)(&r->x, &r->x, &table[j - 1].x, hit);
        FE_(cmov)(&r->y, &r->y, &table[j - 1].y, hit);
        FE_(cmov)(&r->z, &r->z, &table[j - 1].z, hit);
    }
}

/* The 6 bits 5j−1 .. 5j+4 of a 4-limb scalar (bit −1 reads as 0). j is public. */
static uint64_t G_(booth_window)(const uint64_t k[CUZK_FR_LIMBS], unsigned j)
{
    if (j == 0) return (k[0] << 1) & 0x3f;
    unsigned start = 5 * j - 1, limb = start / 64, sh = start % 64;
    uint64_t w = k[limb] >> sh;
    if (sh > 58 && limb + 1 < CUZK_FR_LIMBS) w |= k[limb + 1] << (64 - sh);
    return w & 0x3f;
}

/* Fixed-window signed (Booth) recoding with 5-bit windows: digit_j = b(5j−1) + b(5j) + 2b(5j+1) + 4b(5j+2)
 * + 8b(5j+3) − 16b(5j+4), in [−16, 16], so the table is P..16P and the sequence is a fixed 255 doublings and 51
 * additions. The scalar k < r is first replaced by k + r or k + 2r, whichever has bit 255 set (both give the same
 * multiple of a point in the subgroup), so the top digit is 1 or 2 and the accumulator never starts at infinity.
 * Zero digits still perform an addition, discarded by a conditional move. */
void G_(jac_mul_ct)(JAC *r, const JAC *p, const cuzk_fr_t *k)
{
    uint64_t k0[CUZK_FR_LIMBS], k1[CUZK_FR_LIMBS], k2[CUZK_FR_LIMBS], c1 = 0, c2 = 0;
    cuzk_fr_to_limbs(k0, k);
    for (size_t i = 0; i < CUZK_FR_LIMBS; i++) {
        u128 s = (u128)k0[i] + CUZK_FR_MODULUS[i] + c1;
        k1[i] = (uint64_t)s;
        c1 = (uint64_t)(s >> 64);
    }
    for (size_t i = 0; i < CUZK_FR_LIMBS; i++) {
        u128 s = (u128)k1[i] + CUZK_FR_MODULUS[i] + c2; /* only kept when k1 < 2^255, so k2 < 2^256 */
        k2[i] = (uint64_t)s;
        c2 = (uint64_t)(s >> 64);
    }
    uint64_t use_k1 = 0 - (k1[CUZK_FR_LIMBS - 1] >> 63);
    for (size_t i = 0; i < CUZK_FR_LIMBS; i++) k0[i] = (k1[i] & use_k1) | (k2[i] & ~use_k1);

    JAC table[16], acc, t;
    table[0] = *p;
    for (size_t i = 1; i < 16; i++) {
        if (i & 1) G_(jac_dbl)(&table[i], &table[i >> 1]); /* (i+1)P = 2·((i+1)/2)P */
        else G_(jac_add)(&table[i], &table[i - 1], p);
    }
    enum { WINDOWS = 52 }; /* window 51 holds bits 254 and 255 only */
    G_(table_lookup_ct)(&acc, table, (G_(booth_window)(k0, WINDOWS - 1) + 1) >> 1);
    for (int j = WINDOWS - 2; j >= 0; j--) {
        for (int d = 0; d < 5; d++) G_(jac_dbl)(&acc, &acc);
        uint64_t win = G_(booth_window)(k0, (unsigned)j);
        uint64_t neg = win >> 5, mask = 0 - neg;
        uint64_t abs = (((win + 1) >> 1) - (neg << 5)) ^ mask;
        abs -= mask; /* |digit| */
        FE ny;
        G_(table_lookup_ct)(&t, table, abs);
        FE_(neg)(&ny, &t.y);
        FE_(cmov)(&t.y, &t.y, &ny, (bool)neg);
        G_(jac_add)(&t, &acc, &t);
        bool nonzero = (bool)((abs | (0 - abs)) >> 63);
        FE_(cmov)(&acc.x, &acc.x, &t.x, nonzero);
        FE_(cmov)(&acc.y, &acc.y, &t.y, nonzero);
        FE_(cmov)(&acc.z, &acc.z, &t.z, nonzero);
    }
    *r = acc;
}

/* [|x|]P for the BLS parameter |x| = 0xd201000000010000 (bits 63, 62, 60, 57, 48, 16): 63 doublings, 5 additions. */
void G_(jac_mul_by_x_abs)(JAC *r, const JAC *p)
{
    const uint64_t x = 0xd201000000010000ULL;
    JAC acc = *p;
    for (int b = 62; b >= 0; b--) {
        G_(jac_dbl)(&acc, &acc);
        if ((x >> b) & 1) G_(jac_add)(&acc, &acc, p);
    }
    *r = acc;
}

/* The same from an affine point, with mixed additions. */
void G_(affine_mul_by_x_abs)(JAC *r, const AFF *p)
{
    const uint64_t x = 0xd201000000010000ULL;
    JAC acc;
    G_(jac_from_affine)(&acc, p);
    for (int b = 62; b >= 0; b--) {
        G_(jac_dbl)(&acc, &acc);
        if ((x >> b) & 1) G_(jac_add_affine)(&acc, &acc, p);
    }
    *r = acc;
}

bool G_(affine_in_subgroup_naive)(const AFF *p)
{
    JAC j;
    uint64_t rr[CUZK_FR_LIMBS];
    memcpy(rr, CUZK_FR_MODULUS, sizeof rr);
    G_(jac_from_affine)(&j, p);
    G_(jac_mul)(&j, &j, rr, CUZK_FR_LIMBS);
    return G_(jac_is_infinity)(&j);
}

/* ---- XYZZ -------------------------------------------------------------------------------------------------------- */
void G_(xyzz_set_infinity)(XYZZ *r) { memset(r, 0, sizeof *r); }
bool G_(xyzz_is_infinity)(const XYZZ *p) { return FE_(is_zero)(&p->zz); }

void G_(xyzz_from_affine)(XYZZ *r, const AFF *p)
{
    if (G_(affine_is_infinity)(p)) {
        G_(xyzz_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    FE_(set_one)(&r->zz);
    FE_(set_one)(&r->zzz);
}

/* With Z = ZZ: X' = x·Z² = X·ZZ and Y' = y·Z³ = Y·ZZZ²/ZZZ = Y·ZZZ (using ZZ³ = ZZZ²). 2M, no inversion. */
void G_(xyzz_to_jac)(JAC *r, const XYZZ *p)
{
    if (G_(xyzz_is_infinity)(p)) {
        G_(jac_set_infinity)(r);
        return;
    }
    FE zz = p->zz;
    FE_(mul)(&r->x, &p->x, &p->zz);
    FE_(mul)(&r->y, &p->y, &p->zzz);
    r->z = zz;
}

/* dbl-2008-s-1 with a = 0: 6M + 3S */
void G_(xyzz_dbl)(XYZZ *r, const XYZZ *p)
{
    FE u, v, w, s, m, t;
    FE_(dbl)(&u, &p->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &p->x, &v);
    FE_(sqr)(&m, &p->x);
    FE_(dbl)(&t, &m);
    FE_(add)(&m, &m, &t);
    FE_(mul)(&u, &w, &p->y); /* W·Y1, before r->y may overwrite Y1 */
    FE_(mul)(&r->zz, &v, &p->zz);
    FE_(mul)(&r->zzz, &w, &p->zzz);
    FE_(sqr)(&t, &m);
    FE_(sub)(&t, &t, &s);
    FE_(sub)(&r->x, &t, &s);
    FE_(sub)(&t, &s, &r->x);
    FE_(mul)(&t, &m, &t);
    FE_(sub)(&r->y, &t, &u);
}

/* add-2008-s: 12M + 2S */
void G_(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b)
{
    if (G_(xyzz_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (G_(xyzz_is_infinity)(b)) {
        *r = *a;
        return;
    }
    FE u1, u2, s1, s2, pp, ppp, q, rr, t;
    FE_(mul)(&u1, &a->x, &b->zz);
    FE_(mul)(&u2, &b->x, &a->zz);
    FE_(mul)(&s1, &a->y, &b->zzz);
    FE_(mul)(&s2, &b->y, &a->zzz);
    FE_(sub)(&u2, &u2, &u1); /* P */
    FE_(sub)(&rr, &s2, &s1); /* R */
    if (FE_(is_zero)(&u2)) {
        if (FE_(is_zero)(&rr)) G_(xyzz_dbl)(r, a);
        else G_(xyzz_set_infinity)(r);
        return;
    }
    FE_(sqr)(&pp, &u2);
    FE_(mul)(&ppp, &u2, &pp);
    FE_(mul)(&q, &u1, &pp);
    FE_(mul)(&r->zz, &a->zz, &b->zz);
    FE_(mul)(&r->zz, &r->zz, &pp);
    FE_(mul)(&r->zzz, &a->zzz, &b->zzz);
    FE_(mul)(&r->zzz, &r->zzz, &ppp);
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &q);
    FE_(sub)(&r->x, &t, &q);
    FE_(sub)(&t, &q, &r->x);
    FE_(mul)(&t, &rr, &t);
    FE_(mul)(&s1, &s1, &ppp);
    FE_(sub)(&r->y, &t, &s1);
}

/* madd-2008-s: 8M + 2S */
void G_(xyzz_add_affine)(XYZZ *r, const XYZZ *a, const AFF *b)
{
    if (G_(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (G_(xyzz_is_infinity)(a)) {
        G_(xyzz_from_affine)(r, b);
        return;
    }
    FE u2, s2, pp, ppp, q, rr, t;
    FE_(mul)(&u2, &b->x, &a->zz);
    FE_(mul)(&s2, &b->y, &a->zzz);
    FE_(sub)(&u2, &u2, &a->x); /* P */
    FE_(sub)(&rr, &s2, &a->y); /* R */
    if (FE_(is_zero)(&u2)) {
        if (FE_(is_zero)(&rr)) G_(xyzz_dbl)(r, a);
        else G_(xyzz_set_infinity)(r);
        return;
    }
    FE_(sqr)(&pp, &u2);
    FE_(mul)(&ppp, &u2, &pp);
    FE_(mul)(&q, &a->x, &pp);
    FE_(mul)(&s2, &a->y, &ppp); /* Y1·PPP, before r->y may overwrite Y1 */
    FE_(mul)(&r->zz, &a->zz, &pp);
    FE_(mul)(&r->zzz, &a->zzz, &ppp);
    FE_(sqr)(&t, &rr);
    FE_(sub)(&t, &t, &ppp);
    FE_(sub)(&t, &t, &q);
    FE_(sub)(&r->x, &t, &q);
    FE_(sub)(&t, &q, &r->x);
    FE_(mul)(&t, &rr, &t);
    FE_(sub)(&r->y, &t, &s2);
}
