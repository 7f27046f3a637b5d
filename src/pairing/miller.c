/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Miller loop of the optimal ate pairing on BLS12-381.
 *
 * The twist E': y² = x³ + b', b' = 4ξ, maps to E by (x, y) ↦ (x/w², y/w³) (M-type: w⁶ = ξ). A line through twist
 * points with slope num/den, evaluated at P = (xP, yP) ∈ E(Fp) and scaled by den·w³, is
 *     (num·x − den·y) − (num·xP)·v + (den·yP)·v·w,
 * sparse in Fp12 (coefficients 0, 1, 4). Every scaling dropped on the way lies in a proper subfield of Fp12
 * and is erased by the final exponentiation. T is kept in homogeneous coordinates (x = X/Z, y = Y/Z), so no
 * inversion is needed: the formulas are those of Costello–Lange–Naehrig (doubling) and Aranha et al. 2011
 * (mixed addition), scaled to avoid halvings. */
#include "cuzk/pairing.h"

/* |x| = 0xd201000000010000; the loop runs over the bits below the top one. */
#define X_ABS 0xd201000000010000ULL
#define X_TOP_BIT 63

typedef struct {
    cuzk_fp2_t x, y, z;
} cuzk_g2_proj_t;

/* r = 3b'·a = 12ξ·a */
static void mul_by_3b(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp2_t t4;
    cuzk_fp2_mul_by_nonresidue(r, a);
    cuzk_fp2_dbl(r, r);
    cuzk_fp2_dbl(&t4, r);    /* 4ξa */
    cuzk_fp2_dbl(r, &t4);    /* 8ξa */
    cuzk_fp2_add(r, r, &t4); /* 12ξa */
}

/* T = 2T and the tangent line at T, the line as (l0, X², l4) with l1 = −3X² left to the caller. With B = Y², C = Z²,
 * E = 3b'C, F = 3E, H = 2YZ = (Y + Z)² − B − C, 2XY = (X + Y)² − X² − B (a squaring instead of a product):
 *   X' = 2XY(B − F), Y' = (B + F)² − 3(2E)², Z' = 2B·2H   (4× the usual formulas, avoiding halving)
 *   line: num = 3X², den = H: l0 = B − E, l1 = −3X², l4 = H (num·x − den·y scaled by Z² is Y² − 3b'Z²).
 * The sums that go straight into a squaring stay unreduced, and Y' takes one reduction for its two squares. */
static void dbl_step(cuzk_fp2_t *l0, cuzk_fp2_t *xx, cuzk_fp2_t *l4, cuzk_g2_proj_t *t)
{
    cuzk_fp2_t b, c, e, f, h, xy, s;
    cuzk_fp2_sqr(&b, &t->y);
    cuzk_fp2_sqr(&c, &t->z);
    mul_by_3b(&e, &c);
    cuzk_fp2_add(&f, &e, &e);
    cuzk_fp2_add(&f, &f, &e);
    cuzk_fp2_add_lazy(&h, &t->y, &t->z);
    cuzk_fp2_sqr(&h, &h);
    cuzk_fp2_sub(&h, &h, &b);
    cuzk_fp2_sub(&h, &h, &c);
    cuzk_fp2_sqr(xx, &t->x);
    cuzk_fp2_add_lazy(&xy, &t->x, &t->y);
    cuzk_fp2_sqr(&xy, &xy);
    cuzk_fp2_sub(&xy, &xy, xx);
    cuzk_fp2_sub(&xy, &xy, &b); /* 2XY */

    cuzk_fp2_sub(l0, &b, &e);
    *l4 = h;

    cuzk_fp2_sub(&s, &b, &f);
    cuzk_fp2_mul(&t->x, &xy, &s);
    cuzk_fp2_add_lazy(&s, &b, &f);
    cuzk_fp2_add_lazy(&e, &e, &e);
    cuzk_fp2_sqr_sub3(&t->y, &s, &e); /* (B + F)² − 3(2E)² */
    cuzk_fp2_add_lazy(&b, &b, &b);    /* 2B and 2H below 2p: Z' = 2B·2H takes them unreduced */
    cuzk_fp2_add_lazy(&h, &h, &h);
    cuzk_fp2_mul(&t->z, &b, &h);
}

static void line_dbl(cuzk_pairing_line_t *l, cuzk_g2_proj_t *t)
{
    cuzk_fp2_t xx;
    dbl_step(&l->l0, &xx, &l->l4, t);
    cuzk_fp2_add(&l->l1, &xx, &xx);
    cuzk_fp2_add(&l->l1, &l->l1, &xx);
    cuzk_fp2_neg(&l->l1, &l->l1);
}

/* T = T + Q (Q affine) and the line through them. With θ = Y − yQ·Z, λ = X − xQ·Z (slope θ/λ):
 *   C = θ², D = λ², E = λD, F = ZC, G = XD, H = E + F − 2G, X' = λH, Y' = θ(G − H) − YE, Z' = ZE
 *   line: l0 = θ·xQ − λ·yQ, l1 = −θ, l4 = λ; add_step leaves θ in l1. */
static void add_step(cuzk_pairing_line_t *l, cuzk_g2_proj_t *t, const cuzk_g2_affine_t *q)
{
    cuzk_fp2_t theta, lambda, c, d, e, f, g, h, s;
    cuzk_fp2_mul(&theta, &q->y, &t->z);
    cuzk_fp2_sub(&theta, &t->y, &theta);
    cuzk_fp2_mul(&lambda, &q->x, &t->z);
    cuzk_fp2_sub(&lambda, &t->x, &lambda);

    cuzk_fp2_mul(&l->l0, &theta, &q->x);
    cuzk_fp2_mul(&s, &lambda, &q->y);
    cuzk_fp2_sub(&l->l0, &l->l0, &s);
    l->l1 = theta; /* l1 = −θ: the caller negates, or evaluates with −xP */
    l->l4 = lambda;

    cuzk_fp2_sqr(&c, &theta);
    cuzk_fp2_sqr(&d, &lambda);
    cuzk_fp2_mul(&e, &lambda, &d);
    cuzk_fp2_mul(&f, &t->z, &c);
    cuzk_fp2_mul(&g, &t->x, &d);
    cuzk_fp2_add(&h, &e, &f);
    cuzk_fp2_sub(&h, &h, &g);
    cuzk_fp2_sub(&h, &h, &g);
    cuzk_fp2_mul(&t->x, &lambda, &h);
    cuzk_fp2_sub(&s, &g, &h);
    cuzk_fp2_mul(&s, &theta, &s);
    cuzk_fp2_mul(&t->y, &t->y, &e);
    cuzk_fp2_sub(&t->y, &s, &t->y);
    cuzk_fp2_mul(&t->z, &t->z, &e);
}

static void line_add(cuzk_pairing_line_t *l, cuzk_g2_proj_t *t, const cuzk_g2_affine_t *q)
{
    add_step(l, t, q);
    cuzk_fp2_neg(&l->l1, &l->l1);
}

/* A line evaluated at P: {l0, l1·xP, l4·yP}, the coefficients 0, 1, 4 of Fp12. */
typedef cuzk_fp2_t line_at_p[3];

static void line_eval(line_at_p e, const cuzk_pairing_line_t *l, const cuzk_g1_affine_t *p)
{
    e[0] = l->l0;
    cuzk_fp2_mul_fp(&e[1], &l->l1, &p->x);
    cuzk_fp2_mul_fp(&e[2], &l->l4, &p->y);
}

/* P with the factors that the steps leave to the evaluation: l1 = −3X² after a doubling, −θ after an addition. */
typedef struct {
    cuzk_fp_t x3n, xn, y;
} g1_eval_t;

static void g1_eval_init(g1_eval_t *e, const cuzk_g1_affine_t *p)
{
    cuzk_fp_neg(&e->xn, &p->x);
    cuzk_fp_add(&e->x3n, &e->xn, &e->xn);
    cuzk_fp_add(&e->x3n, &e->x3n, &e->xn);
    e->y = p->y;
}

static void line_dbl_eval(line_at_p e, cuzk_g2_proj_t *t, const g1_eval_t *p)
{
    cuzk_fp2_t xx, l4;
    dbl_step(&e[0], &xx, &l4, t);
    cuzk_fp2_mul_fp(&e[1], &xx, &p->x3n);
    cuzk_fp2_mul_fp(&e[2], &l4, &p->y);
}

static void line_add_eval(line_at_p e, cuzk_g2_proj_t *t, const cuzk_g2_affine_t *q, const g1_eval_t *p)
{
    cuzk_pairing_line_t l;
    add_step(&l, t, q);
    e[0] = l.l0;
    cuzk_fp2_mul_fp(&e[1], &l.l1, &p->xn);
    cuzk_fp2_mul_fp(&e[2], &l.l4, &p->y);
}

/* f = f·e_0·…·e_(k−1), two lines at a time (their product first: 23 Fp2 products instead of 26); f = 1 (*one) takes
 * the first line as it is. */
static void mul_lines(cuzk_fp12_t *f, bool *one, line_at_p *e, size_t k)
{
    size_t i = 0;
    if (*one && k > 0) {
        cuzk_fp12_set_zero(f);
        f->c0.c0 = e[0][0];
        f->c0.c1 = e[0][1];
        f->c1.c1 = e[0][2];
        *one = false;
        i = 1;
    }
    for (; i + 1 < k; i += 2) cuzk_fp12_mul_by_014_014(f, f, e[i], e[i + 1]);
    if (i < k) cuzk_fp12_mul_by_014(f, f, &e[i][0], &e[i][1], &e[i][2]);
}

static void proj_from_affine(cuzk_g2_proj_t *t, const cuzk_g2_affine_t *q)
{
    t->x = q->x;
    t->y = q->y;
    cuzk_fp2_set_one(&t->z);
}

void cuzk_g2_prepare(cuzk_g2_prepared_t *r, const cuzk_g2_affine_t *q)
{
    r->normalized = false;
    r->infinity = cuzk_g2_affine_is_infinity(q);
    if (r->infinity) {
        for (size_t i = 0; i < CUZK_PAIRING_LINES; i++) {
            cuzk_fp2_set_one(&r->lines[i].l0);
            cuzk_fp2_set_zero(&r->lines[i].l1);
            cuzk_fp2_set_zero(&r->lines[i].l4);
        }
        return;
    }
    cuzk_g2_proj_t t;
    proj_from_affine(&t, q);
    size_t k = 0;
    for (int bit = X_TOP_BIT - 1; bit >= 0; bit--) {
        line_dbl(&r->lines[k++], &t);
        if ((X_ABS >> bit) & 1) line_add(&r->lines[k++], &t, q);
    }
}

/* Pairs are processed in chunks whose running points fit on the stack; within a chunk they share squarings. */
#define MILLER_CHUNK 8

static void miller_chunk(cuzk_fp12_t *f, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n)
{
    cuzk_g2_proj_t t[MILLER_CHUNK];
    g1_eval_t pp[MILLER_CHUNK];
    const cuzk_g2_affine_t *qq[MILLER_CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (cuzk_g1_affine_is_infinity(&p[i]) || cuzk_g2_affine_is_infinity(&q[i])) continue;
        g1_eval_init(&pp[m], &p[i]);
        qq[m] = &q[i];
        proj_from_affine(&t[m], &q[i]);
        m++;
    }
    cuzk_fp12_set_one(f);
    if (m == 0) return;
    line_at_p e[2 * MILLER_CHUNK];
    bool one = true;
    for (int bit = X_TOP_BIT - 1; bit >= 0; bit--) {
        if (!one) cuzk_fp12_sqr(f, f);
        size_t k = 0;
        for (size_t j = 0; j < m; j++) line_dbl_eval(e[k++], &t[j], &pp[j]);
        if ((X_ABS >> bit) & 1) {
            for (size_t j = 0; j < m; j++) line_add_eval(e[k++], &t[j], qq[j], &pp[j]);
        }
        mul_lines(f, &one, e, k);
    }
}

void cuzk_miller_loop(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n)
{
    cuzk_fp12_t acc, f;
    cuzk_fp12_set_one(&acc);
    for (size_t i = 0; i < n; i += MILLER_CHUNK) {
        size_t c = n - i < MILLER_CHUNK ? n - i : MILLER_CHUNK;
        miller_chunk(&f, p + i, q + i, c);
        if (i == 0) acc = f; /* the first chunk's f is the product so far: no multiplication by 1 */
        else cuzk_fp12_mul(&acc, &acc, &f);
    }
    cuzk_fp12_conj(r, &acc); /* x < 0: f_{x,Q} = 1/f_{|x|,Q} up to factors the final exponentiation removes */
}

/* Lines with l4 = 1 (cuzk_g2_prepare_fixed) evaluated at P and scaled by 1/yP, an Fp factor the final exponentiation
 * removes: {l0/yP, l1·xP/yP} and 1 at v·w. The first NORM_PAIRS such pairs of a call take this form (1/yP computed
 * once per call); the others, and P with y = 0, take the generic evaluation, which l4 = 1 leaves valid. */
#define NORM_PAIRS 8
typedef cuzk_fp2_t line01_at_p[2];

static void mul_lines01(cuzk_fp12_t *f, bool *one, line01_at_p *e, size_t k)
{
    size_t i = 0;
    if (*one && k > 0) {
        cuzk_fp12_set_zero(f);
        f->c0.c0 = e[0][0];
        f->c0.c1 = e[0][1];
        cuzk_fp2_set_one(&f->c1.c1);
        *one = false;
        i = 1;
    }
    for (; i + 1 < k; i += 2) cuzk_fp12_mul_by_01v_01v(f, f, e[i], e[i + 1]);
    if (i < k) cuzk_fp12_mul_by_01v(f, f, &e[i][0], &e[i][1]);
}

void cuzk_miller_loop_prepared(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_prepared_t *q, size_t n)
{
    cuzk_fp12_t f;
    cuzk_fp12_set_one(&f);
    bool one = true; /* f = 1 still: the first line is set, not multiplied */
    size_t k = 0, nn = 0;
    cuzk_fp_t yinv[NORM_PAIRS], xy[NORM_PAIRS];
    size_t slot[NORM_PAIRS];
    for (size_t j = 0; j < n && nn < NORM_PAIRS; j++) {
        if (!q[j].normalized || q[j].infinity || cuzk_g1_affine_is_infinity(&p[j]) || cuzk_fp_is_zero(&p[j].y))
            continue;
        cuzk_fp_inv_vartime(&yinv[nn], &p[j].y);
        cuzk_fp_mul(&xy[nn], &p[j].x, &yinv[nn]);
        slot[nn++] = j;
    }
    line_at_p e[2 * MILLER_CHUNK];
    line01_at_p e01[NORM_PAIRS];
    for (int bit = X_TOP_BIT - 1; bit >= 0; bit--) {
        if (!one) cuzk_fp12_sqr(&f, &f);
        size_t steps = ((X_ABS >> bit) & 1) ? 2 : 1, ne = 0;
        for (size_t s = 0; s < steps; s++, k++) {
            size_t t = 0, ne01 = 0;
            for (size_t j = 0; j < n; j++) {
                if (t < nn && slot[t] == j) {
                    cuzk_fp2_mul_fp(&e01[ne01][0], &q[j].lines[k].l0, &yinv[t]);
                    cuzk_fp2_mul_fp(&e01[ne01][1], &q[j].lines[k].l1, &xy[t]);
                    ne01++, t++;
                    continue;
                }
                if (q[j].infinity || cuzk_g1_affine_is_infinity(&p[j])) continue;
                line_eval(e[ne++], &q[j].lines[k], &p[j]);
                if (ne == 2 * MILLER_CHUNK) {
                    mul_lines(&f, &one, e, ne);
                    ne = 0;
                }
            }
            mul_lines01(&f, &one, e01, ne01);
        }
        mul_lines(&f, &one, e, ne);
    }
    cuzk_fp12_conj(r, &f);
}

/* The lines of cuzk_g2_prepare divided by l4 (one batched inversion): l0/l4, l1/l4, 1. */
void cuzk_g2_prepare_fixed(cuzk_g2_prepared_t *r, const cuzk_g2_affine_t *q)
{
    cuzk_g2_prepare(r, q);
    if (r->infinity) return;
    cuzk_fp2_t den[CUZK_PAIRING_LINES], inv[CUZK_PAIRING_LINES], scratch[CUZK_PAIRING_LINES];
    for (size_t i = 0; i < CUZK_PAIRING_LINES; i++) {
        den[i] = r->lines[i].l4;
        if (cuzk_fp2_is_zero(&den[i])) return; /* not a point of G2 (T = ±Q or 2-torsion on the way): keep l4 */
    }
    cuzk_fp2_batch_inv(inv, den, CUZK_PAIRING_LINES, scratch);
    for (size_t i = 0; i < CUZK_PAIRING_LINES; i++) {
        cuzk_fp2_mul(&r->lines[i].l0, &r->lines[i].l0, &inv[i]);
        cuzk_fp2_mul(&r->lines[i].l1, &r->lines[i].l1, &inv[i]);
        cuzk_fp2_set_one(&r->lines[i].l4);
    }
    r->normalized = true;
}
