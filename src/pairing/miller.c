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

typedef struct { fp2_t x, y, z; } g2_proj_t;

/* r = 3b'·a = 12ξ·a */
static void mul_by_3b(fp2_t *r, const fp2_t *a)
{
    fp2_t t4;
    fp2_mul_by_nonresidue(r, a);
    fp2_dbl(r, r);
    fp2_dbl(&t4, r);     /* 4ξa */
    fp2_dbl(r, &t4);     /* 8ξa */
    fp2_add(r, r, &t4); /* 12ξa */
}

/* T = 2T and the tangent line at T. With B = Y², E = 3b'Z², F = 3E, H = 2YZ:
 *   X' = 2XY(B − F), Y' = (B + F)² − 12E², Z' = 4BH   (4× the usual formulas, avoiding halving)
 *   line: num = 3X², den = H: l0 = B − E, l1 = −3X², l4 = H (num·x − den·y scaled by Z² is Y² − 3b'Z²). */
static void line_dbl(pairing_line_t *l, g2_proj_t *t)
{
    fp2_t b, e, f, h, xx, xy, s;
    fp2_sqr(&b, &t->y);
    fp2_sqr(&e, &t->z);
    mul_by_3b(&e, &e);
    fp2_add(&f, &e, &e);
    fp2_add(&f, &f, &e);
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sqr(&s, &t->z);
    fp2_sub(&h, &h, &s);
    fp2_sqr(&xx, &t->x);
    fp2_mul(&xy, &t->x, &t->y);

    fp2_sub(&l->l0, &b, &e);
    fp2_add(&l->l1, &xx, &xx);
    fp2_add(&l->l1, &l->l1, &xx);
    fp2_neg(&l->l1, &l->l1);
    l->l4 = h;

    fp2_sub(&s, &b, &f);
    fp2_mul(&t->x, &xy, &s);
    fp2_dbl(&t->x, &t->x);
    fp2_add(&s, &b, &f);
    fp2_sqr(&s, &s);
    fp2_sqr(&e, &e);
    fp2_dbl(&e, &e);
    fp2_dbl(&e, &e);
    fp2_sub(&s, &s, &e);
    fp2_dbl(&e, &e);
    fp2_sub(&t->y, &s, &e); /* (B + F)² − 4E² − 8E² */
    fp2_mul(&t->z, &b, &h);
    fp2_dbl(&t->z, &t->z);
    fp2_dbl(&t->z, &t->z);
}

/* T = T + Q (Q affine) and the line through them. With θ = Y − yQ·Z, λ = X − xQ·Z (slope θ/λ):
 *   C = θ², D = λ², E = λD, F = ZC, G = XD, H = E + F − 2G, X' = λH, Y' = θ(G − H) − YE, Z' = ZE
 *   line: l0 = θ·xQ − λ·yQ, l1 = −θ, l4 = λ. */
static void line_add(pairing_line_t *l, g2_proj_t *t, const g2_affine_t *q)
{
    fp2_t theta, lambda, c, d, e, f, g, h, s;
    fp2_mul(&theta, &q->y, &t->z);
    fp2_sub(&theta, &t->y, &theta);
    fp2_mul(&lambda, &q->x, &t->z);
    fp2_sub(&lambda, &t->x, &lambda);

    fp2_mul(&l->l0, &theta, &q->x);
    fp2_mul(&s, &lambda, &q->y);
    fp2_sub(&l->l0, &l->l0, &s);
    fp2_neg(&l->l1, &theta);
    l->l4 = lambda;

    fp2_sqr(&c, &theta);
    fp2_sqr(&d, &lambda);
    fp2_mul(&e, &lambda, &d);
    fp2_mul(&f, &t->z, &c);
    fp2_mul(&g, &t->x, &d);
    fp2_add(&h, &e, &f);
    fp2_sub(&h, &h, &g);
    fp2_sub(&h, &h, &g);
    fp2_mul(&t->x, &lambda, &h);
    fp2_sub(&s, &g, &h);
    fp2_mul(&s, &theta, &s);
    fp2_mul(&t->y, &t->y, &e);
    fp2_sub(&t->y, &s, &t->y);
    fp2_mul(&t->z, &t->z, &e);
}

/* f = f·l(P) */
static void line_eval(fp12_t *f, const pairing_line_t *l, const g1_affine_t *p)
{
    fp2_t l1, l4;
    fp2_mul_fp(&l1, &l->l1, &p->x);
    fp2_mul_fp(&l4, &l->l4, &p->y);
    fp12_mul_by_014(f, f, &l->l0, &l1, &l4);
}

static void proj_from_affine(g2_proj_t *t, const g2_affine_t *q)
{
    t->x = q->x;
    t->y = q->y;
    fp2_set_one(&t->z);
}

void g2_prepare(g2_prepared_t *r, const g2_affine_t *q)
{
    r->infinity = g2_affine_is_infinity(q);
    if (r->infinity) {
        for (size_t i = 0; i < PAIRING_LINES; i++) {
            fp2_set_one(&r->lines[i].l0);
            fp2_set_zero(&r->lines[i].l1);
            fp2_set_zero(&r->lines[i].l4);
        }
        return;
    }
    g2_proj_t t;
    proj_from_affine(&t, q);
    size_t k = 0;
    for (int bit = X_TOP_BIT - 1; bit >= 0; bit--) {
        line_dbl(&r->lines[k++], &t);
        if ((X_ABS >> bit) & 1) line_add(&r->lines[k++], &t, q);
    }
}

/* Pairs are processed in chunks whose running points fit on the stack; within a chunk they share squarings. */
#define MILLER_CHUNK 8

static void miller_chunk(fp12_t *f, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    g2_proj_t t[MILLER_CHUNK];
    const g1_affine_t *pp[MILLER_CHUNK];
    const g2_affine_t *qq[MILLER_CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (g1_affine_is_infinity(&p[i]) || g2_affine_is_infinity(&q[i])) continue;
        pp[m] = &p[i];
        qq[m] = &q[i];
        proj_from_affine(&t[m], &q[i]);
        m++;
    }
    fp12_set_one(f);
    if (m == 0) return;
    pairing_line_t l;
    for (int bit = X_TOP_BIT - 1; bit >= 0; bit--) {
        if (bit != X_TOP_BIT - 1) fp12_sqr(f, f); /* f = 1 before the first step */
        for (size_t j = 0; j < m; j++) {
            line_dbl(&l, &t[j]);
            line_eval(f, &l, pp[j]);
        }
        if ((X_ABS >> bit) & 1) {
            for (size_t j = 0; j < m; j++) {
                line_add(&l, &t[j], qq[j]);
                line_eval(f, &l, pp[j]);
            }
        }
    }
}

void miller_loop(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    fp12_t acc, f;
    fp12_set_one(&acc);
    for (size_t i = 0; i < n; i += MILLER_CHUNK) {
        size_t c = n - i < MILLER_CHUNK ? n - i : MILLER_CHUNK;
        miller_chunk(&f, p + i, q + i, c);
        fp12_mul(&acc, &acc, &f);
    }
    fp12_conj(r, &acc); /* x < 0: f_{x,Q} = 1/f_{|x|,Q} up to factors the final exponentiation removes */
}

void miller_loop_prepared(fp12_t *r, const g1_affine_t *p, const g2_prepared_t *q, size_t n)
{
    fp12_t f;
    fp12_set_one(&f);
    size_t k = 0;
    for (int bit = X_TOP_BIT - 1; bit >= 0; bit--) {
        if (bit != X_TOP_BIT - 1) fp12_sqr(&f, &f);
        size_t steps = ((X_ABS >> bit) & 1) ? 2 : 1;
        for (size_t s = 0; s < steps; s++, k++) {
            for (size_t j = 0; j < n; j++) {
                if (q[j].infinity || g1_affine_is_infinity(&p[j])) continue;
                line_eval(&f, &q[j].lines[k], &p[j]);
            }
        }
    }
    fp12_conj(r, &f);
}
