/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Prints operations with cuzk's results as JSON lines, for tests/oracle/check.mjs to recompute with @noble/curves.
 * Inputs are fresh random values each run (seed on stderr; CUZK_TEST_SEED=<seed> replays a run) plus the edge values
 * that random draws never hit. The line format is described in tests/oracle/PROTOCOL.md.
 *
 * Sizes are kept small on purpose: noble recomputes everything in JavaScript, and the whole test should stay within
 * a minute on two shared cores. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static unsigned long lines_printed;

/* ---- JSON output ------------------------------------------------------------------------------------------------ */
/* One line is built with these: begin_op(), then key/value pairs through the put_* helpers, then end_op(). The
 * helpers print a leading comma themselves when they are not the first item of their object or array. */

static bool need_comma;

static void sep(void)
{
    if (need_comma) putchar(',');
    need_comma = true;
}
static void key(const char *k)
{
    sep();
    printf("\"%s\":", k);
    need_comma = false;
}
static void open_obj(void)
{
    putchar('{');
    need_comma = false;
}
static void close_obj(void)
{
    putchar('}');
    need_comma = true;
}
static void open_arr(void)
{
    putchar('[');
    need_comma = false;
}
static void close_arr(void)
{
    putchar(']');
    need_comma = true;
}

static void begin_op(const char *op)
{
    need_comma = false;
    printf("{\"op\":\"%s\",\"in\":", op);
    open_obj();
}
/* Closes "in" and opens "out". */
static void begin_out(void)
{
    close_obj();
    printf(",\"out\":");
    open_obj();
}
static void end_op(void)
{
    close_obj();
    printf("}\n");
    lines_printed++;
}

static void put_hex_bytes(const uint8_t *b, size_t n)
{
    sep();
    printf("\"0x");
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
    putchar('"');
}
static void put_fp(const cuzk_fp_t *a)
{
    uint8_t b[CUZK_FP_BYTES];
    cuzk_fp_to_bytes_be(b, a);
    put_hex_bytes(b, sizeof b);
}
static void put_fr(const cuzk_fr_t *a)
{
    uint8_t b[CUZK_FR_BYTES];
    cuzk_fr_to_bytes_be(b, a);
    put_hex_bytes(b, sizeof b);
}
static void put_fp2(const cuzk_fp2_t *a)
{
    sep();
    open_arr();
    put_fp(&a->c0);
    put_fp(&a->c1);
    close_arr();
}
static void put_int(long v)
{
    sep();
    printf("%ld", v);
}
static void put_bool(bool v)
{
    sep();
    printf(v ? "true" : "false");
}
static void put_null(void)
{
    sep();
    printf("null");
}
/* A plain integer given as little-endian limbs, printed in big-endian hex (leading zeros kept; the checker does not
 * mind). */
static void put_scalar(const uint64_t *k, size_t limbs)
{
    sep();
    printf("\"0x");
    for (size_t i = limbs; i-- > 0;) printf("%016llx", (unsigned long long)k[i]);
    putchar('"');
}

/* ---- Fp and Fr ---------------------------------------------------------------------------------------------------- */

#define FIELD_ROUNDS 40

/* Random values, with the edges (0, 1, m−1) mixed in now and then. */
static void pick_fp(cuzk_fp_t *r, int i)
{
    switch (i % 16) {
    case 3: cuzk_fp_set_zero(r); break;
    case 7: cuzk_fp_set_one(r); break;
    case 11:
        cuzk_fp_set_one(r);
        cuzk_fp_neg(r, r);
        break;
    default: test_rand_fp(r);
    }
}
static void pick_fr(cuzk_fr_t *r, int i)
{
    switch (i % 16) {
    case 3: cuzk_fr_set_zero(r); break;
    case 7: cuzk_fr_set_one(r); break;
    case 11:
        cuzk_fr_set_one(r);
        cuzk_fr_neg(r, r);
        break;
    default: test_rand_fr(r);
    }
}

/* The same operation list for Fp and Fr, written once. */
#define GEN_FIELD_OPS(F, T)                                                                                            \
    static void gen_##F(void)                                                                                          \
    {                                                                                                                  \
        typedef void (*binop)(T *, const T *, const T *);                                                              \
        typedef void (*unop)(T *, const T *);                                                                          \
        static const struct {                                                                                          \
            const char *name;                                                                                          \
            binop f;                                                                                                   \
        } bins[] = {{#F "_add", cuzk_##F##_add}, {#F "_sub", cuzk_##F##_sub}, {#F "_mul", cuzk_##F##_mul}};            \
        static const struct {                                                                                          \
            const char *name;                                                                                          \
            unop f;                                                                                                    \
        } uns[] = {{#F "_sqr", cuzk_##F##_sqr},                                                                        \
                   {#F "_neg", cuzk_##F##_neg},                                                                        \
                   {#F "_inv", cuzk_##F##_inv},                                                                        \
                   {#F "_inv", cuzk_##F##_inv_vartime}};                                                               \
        for (int i = 0; i < FIELD_ROUNDS; i++) {                                                                       \
            T a, b, r;                                                                                                 \
            pick_##F(&a, i);                                                                                           \
            pick_##F(&b, i / 3 + 5);                                                                                   \
            for (size_t j = 0; j < sizeof bins / sizeof bins[0]; j++) {                                                \
                bins[j].f(&r, &a, &b);                                                                                 \
                begin_op(bins[j].name);                                                                                \
                key("a");                                                                                              \
                put_##F(&a);                                                                                           \
                key("b");                                                                                              \
                put_##F(&b);                                                                                           \
                begin_out();                                                                                           \
                key("r");                                                                                              \
                put_##F(&r);                                                                                           \
                end_op();                                                                                              \
            }                                                                                                          \
            for (size_t j = 0; j < sizeof uns / sizeof uns[0]; j++) {                                                  \
                uns[j].f(&r, &a);                                                                                      \
                begin_op(uns[j].name);                                                                                 \
                key("a");                                                                                              \
                put_##F(&a);                                                                                           \
                begin_out();                                                                                           \
                key("r");                                                                                              \
                put_##F(&r);                                                                                           \
                end_op();                                                                                              \
            }                                                                                                          \
            /* sqrt of a random value (a square about half the time) and of a known square */                          \
            for (int sq = 0; sq < 2; sq++) {                                                                           \
                T x = a;                                                                                               \
                if (sq) cuzk_##F##_sqr(&x, &b);                                                                        \
                bool ok = cuzk_##F##_sqrt(&r, &x);                                                                     \
                begin_op(#F "_sqrt");                                                                                  \
                key("a");                                                                                              \
                put_##F(&x);                                                                                           \
                begin_out();                                                                                           \
                key("r");                                                                                              \
                if (ok) put_##F(&r);                                                                                   \
                else put_null();                                                                                       \
                end_op();                                                                                              \
                begin_op(#F "_legendre");                                                                              \
                key("a");                                                                                              \
                put_##F(&x);                                                                                           \
                begin_out();                                                                                           \
                key("r");                                                                                              \
                put_int(cuzk_##F##_legendre(&x));                                                                      \
                end_op();                                                                                              \
            }                                                                                                          \
        }                                                                                                              \
    }

GEN_FIELD_OPS(fp, cuzk_fp_t)
GEN_FIELD_OPS(fr, cuzk_fr_t)

static void gen_roots_of_unity(void)
{
    static const cuzk_fr_roots convs[] = {CUZK_FR_ROOTS_GEN7, CUZK_FR_ROOTS_GEN5};
    for (size_t c = 0; c < 2; c++) {
        for (unsigned k = 0; k <= CUZK_FR_TWO_ADICITY; k++) {
            cuzk_fr_t w;
            if (cuzk_fr_root_of_unity(&w, k, convs[c]) != CUZK_OK) {
                fprintf(stderr, "fr_root_of_unity(%u, %d) failed\n", k, (int)convs[c]);
                continue; /* the "end" count still matches; the missing line is visible in coverage only */
            }
            begin_op("fr_root_of_unity");
            key("log2n");
            put_int((long)k);
            key("gen");
            put_int((long)convs[c]);
            begin_out();
            key("r");
            put_fr(&w);
            end_op();
        }
    }
}

/* ---- Fp2 ---------------------------------------------------------------------------------------------------------- */

#define FP2_ROUNDS 24

static void pick_fp2(cuzk_fp2_t *r, int i)
{
    switch (i % 12) {
    case 2: cuzk_fp2_set_zero(r); break;
    case 5: cuzk_fp2_set_one(r); break;
    case 8:
        test_rand_fp(&r->c0);
        cuzk_fp_set_zero(&r->c1);
        break; /* in Fp: sqrt may need u */
    case 10:
        cuzk_fp_set_zero(&r->c0);
        test_rand_fp(&r->c1);
        break;
    default: test_rand_fp2(r);
    }
}

static void gen_fp2(void)
{
    for (int i = 0; i < FP2_ROUNDS; i++) {
        cuzk_fp2_t a, b, r;
        pick_fp2(&a, i);
        pick_fp2(&b, i / 2 + 7);
        cuzk_fp2_mul(&r, &a, &b);
        begin_op("fp2_mul");
        key("a");
        put_fp2(&a);
        key("b");
        put_fp2(&b);
        begin_out();
        key("r");
        put_fp2(&r);
        end_op();

        cuzk_fp2_sqr(&r, &a);
        begin_op("fp2_sqr");
        key("a");
        put_fp2(&a);
        begin_out();
        key("r");
        put_fp2(&r);
        end_op();

        cuzk_fp2_inv(&r, &a);
        begin_op("fp2_inv");
        key("a");
        put_fp2(&a);
        begin_out();
        key("r");
        put_fp2(&r);
        end_op();

        for (int sq = 0; sq < 2; sq++) {
            cuzk_fp2_t x = a;
            if (sq) cuzk_fp2_sqr(&x, &b);
            bool ok = cuzk_fp2_sqrt(&r, &x);
            begin_op("fp2_sqrt");
            key("a");
            put_fp2(&x);
            begin_out();
            key("r");
            if (ok) put_fp2(&r);
            else put_null();
            end_op();
        }
    }
}

/* ---- Fp6 and Fp12 (from the pairing layer) ---------------------------------------------------------------------- */

#define TOWER_ROUNDS 8

static void put_fp6(const cuzk_fp6_t *a)
{
    sep();
    open_arr();
    put_fp2(&a->c0);
    put_fp2(&a->c1);
    put_fp2(&a->c2);
    close_arr();
}
static void put_fp12(const cuzk_fp12_t *a)
{
    sep();
    open_arr();
    put_fp6(&a->c0);
    put_fp6(&a->c1);
    close_arr();
}
static void rand_fp6(cuzk_fp6_t *r)
{
    test_rand_fp2(&r->c0);
    test_rand_fp2(&r->c1);
    test_rand_fp2(&r->c2);
}
static void rand_fp12(cuzk_fp12_t *r)
{
    rand_fp6(&r->c0);
    rand_fp6(&r->c1);
}

static void gen_tower(void)
{
    for (int i = 0; i < TOWER_ROUNDS; i++) {
        cuzk_fp6_t a6, b6, r6;
        rand_fp6(&a6);
        rand_fp6(&b6);
        if (i == 1) cuzk_fp6_set_one(&b6);
        if (i == 2) cuzk_fp6_set_zero(&a6); /* inverse of 0 is 0 */
        cuzk_fp6_mul(&r6, &a6, &b6);
        begin_op("fp6_mul");
        key("a");
        put_fp6(&a6);
        key("b");
        put_fp6(&b6);
        begin_out();
        key("r");
        put_fp6(&r6);
        end_op();
        cuzk_fp6_sqr(&r6, &a6);
        begin_op("fp6_sqr");
        key("a");
        put_fp6(&a6);
        begin_out();
        key("r");
        put_fp6(&r6);
        end_op();
        cuzk_fp6_inv(&r6, &a6);
        begin_op("fp6_inv");
        key("a");
        put_fp6(&a6);
        begin_out();
        key("r");
        put_fp6(&r6);
        end_op();
        unsigned power6 = (unsigned)i % 7; /* 6 wraps to the identity */
        cuzk_fp6_frobenius(&r6, &a6, power6);
        begin_op("fp6_frobenius");
        key("a");
        put_fp6(&a6);
        key("power");
        put_int((long)power6);
        begin_out();
        key("r");
        put_fp6(&r6);
        end_op();

        cuzk_fp12_t a, b, r;
        rand_fp12(&a);
        rand_fp12(&b);
        if (i == 1) cuzk_fp12_set_one(&b);
        if (i == 2) cuzk_fp12_set_zero(&a);
        cuzk_fp12_mul(&r, &a, &b);
        begin_op("fp12_mul");
        key("a");
        put_fp12(&a);
        key("b");
        put_fp12(&b);
        begin_out();
        key("r");
        put_fp12(&r);
        end_op();
        cuzk_fp12_sqr(&r, &a);
        begin_op("fp12_sqr");
        key("a");
        put_fp12(&a);
        begin_out();
        key("r");
        put_fp12(&r);
        end_op();
        cuzk_fp12_inv(&r, &a);
        begin_op("fp12_inv");
        key("a");
        put_fp12(&a);
        begin_out();
        key("r");
        put_fp12(&r);
        end_op();
    }
    for (unsigned power = 0; power <= 13; power++) {
        cuzk_fp12_t a, r;
        rand_fp12(&a);
        cuzk_fp12_frobenius(&r, &a, power);
        begin_op("fp12_frobenius");
        key("a");
        put_fp12(&a);
        key("power");
        put_int((long)power);
        begin_out();
        key("r");
        put_fp12(&r);
        end_op();
    }
}

/* ---- G1 and G2 (the ec layer) ------------------------------------------------------------------------------------ */
#include "cuzk/ec.h"
#include "cuzk/groth16.h"

static void put_g1(const cuzk_g1_affine_t *p)
{
    if (cuzk_g1_affine_is_infinity(p)) {
        sep();
        printf("\"inf\"");
        return;
    }
    sep();
    open_arr();
    put_fp(&p->x);
    put_fp(&p->y);
    close_arr();
}
static void put_g2(const cuzk_g2_affine_t *p)
{
    if (cuzk_g2_affine_is_infinity(p)) {
        sep();
        printf("\"inf\"");
        return;
    }
    sep();
    open_arr();
    put_fp2(&p->x);
    put_fp2(&p->y);
    close_arr();
}

/* A random scalar below 2^255 (so sometimes >= r: the mul functions take any integer). */
static void rand_scalar(uint64_t k[4])
{
    for (int i = 0; i < 4; i++) k[i] = test_rand_u64();
    k[3] &= (1ULL << 63) - 1;
}
/* The edge scalars 0, 1, r − 1, r, r + 1, then random ones. */
static void pick_scalar(uint64_t k[4], int i)
{
    memset(k, 0, 4 * sizeof k[0]);
    switch (i) {
    case 0: return;
    case 1: k[0] = 1; return;
    case 2:
    case 3:
    case 4:
        memcpy(k, CUZK_FR_MODULUS, 4 * sizeof k[0]);
        k[0] += (uint64_t)(i - 3); /* r's low limb is odd and far from 0 and 2^64 − 1: no carry */
        return;
    default: rand_scalar(k);
    }
}

/* Both groups have the same API shape, so their generators are written once, for G = g1 / g2. */
#define GEN_GROUP_OPS(G, F, FT, RAND_F)                                                                                \
    static void cuzk_##G##_random(cuzk_##G##_affine_t *r)                                                              \
    {                                                                                                                  \
        cuzk_##G##_affine_t g;                                                                                         \
        cuzk_##G##_jac_t j;                                                                                            \
        uint64_t k[4];                                                                                                 \
        cuzk_##G##_generator(&g);                                                                                      \
        cuzk_##G##_jac_from_affine(&j, &g);                                                                            \
        rand_scalar(k);                                                                                                \
        cuzk_##G##_jac_mul(&j, &j, k, 4);                                                                              \
        cuzk_##G##_jac_to_affine(r, &j);                                                                               \
    }                                                                                                                  \
    /* A curve point built from a random x, almost never in the subgroup (the cofactor is large). */                   \
    static void cuzk_##G##_random_on_curve(cuzk_##G##_affine_t *r)                                                     \
    {                                                                                                                  \
        for (;;) {                                                                                                     \
            FT x, rhs;                                                                                                 \
            RAND_F(&x);                                                                                                \
            cuzk_##F##_sqr(&rhs, &x);                                                                                  \
            cuzk_##F##_mul(&rhs, &rhs, &x);                                                                            \
            cuzk_##F##_add(&rhs, &rhs, &cuzk_##G##_b);                                                                 \
            if (cuzk_##F##_sqrt(&r->y, &rhs)) {                                                                        \
                r->x = x;                                                                                              \
                return;                                                                                                \
            }                                                                                                          \
        }                                                                                                              \
    }                                                                                                                  \
    static void cuzk_##G##_emit_sum(const char *op, const cuzk_##G##_affine_t *p, const cuzk_##G##_affine_t *q,        \
                                    const cuzk_##G##_jac_t *r)                                                         \
    {                                                                                                                  \
        cuzk_##G##_affine_t ra;                                                                                        \
        cuzk_##G##_jac_to_affine(&ra, r);                                                                              \
        begin_op(op);                                                                                                  \
        key("p");                                                                                                      \
        put_##G(p);                                                                                                    \
        if (q) {                                                                                                       \
            key("q");                                                                                                  \
            put_##G(q);                                                                                                \
        }                                                                                                              \
        begin_out();                                                                                                   \
        key("r");                                                                                                      \
        put_##G(&ra);                                                                                                  \
        end_op();                                                                                                      \
    }                                                                                                                  \
    static void gen_##G##_group(void)                                                                                  \
    {                                                                                                                  \
        for (int i = 0; i < GROUP_ROUNDS; i++) {                                                                       \
            cuzk_##G##_affine_t p, q, t;                                                                               \
            cuzk_##G##_jac_t pj, qj, r;                                                                                \
            cuzk_##G##_xyzz_t px, qx, rx;                                                                              \
            cuzk_##G##_random(&p);                                                                                     \
            /* q: random, then the special cases of addition: q = p, q = −p, q = infinity, p = infinity */           \
            switch (i % 6) {                                                                                           \
            case 1: q = p; break;                                                                                      \
            case 2: cuzk_##G##_affine_neg(&q, &p); break;                                                              \
            case 3: cuzk_##G##_affine_set_infinity(&q); break;                                                         \
            case 4:                                                                                                    \
                cuzk_##G##_random(&q);                                                                                 \
                cuzk_##G##_affine_set_infinity(&p);                                                                    \
                break;                                                                                                 \
            default: cuzk_##G##_random(&q);                                                                            \
            }                                                                                                          \
            cuzk_##G##_jac_from_affine(&pj, &p);                                                                       \
            cuzk_##G##_jac_from_affine(&qj, &q);                                                                       \
            cuzk_##G##_jac_add(&r, &pj, &qj);                                                                          \
            cuzk_##G##_emit_sum(#G "_add", &p, &q, &r);                                                                \
            cuzk_##G##_jac_add_affine(&r, &pj, &q);                                                                    \
            cuzk_##G##_emit_sum(#G "_add", &p, &q, &r);                                                                \
            cuzk_##G##_xyzz_from_affine(&px, &p);                                                                      \
            cuzk_##G##_xyzz_from_affine(&qx, &q);                                                                      \
            cuzk_##G##_xyzz_add(&rx, &px, &qx);                                                                        \
            cuzk_##G##_xyzz_to_jac(&r, &rx);                                                                           \
            cuzk_##G##_emit_sum(#G "_add", &p, &q, &r);                                                                \
            cuzk_##G##_xyzz_add_affine(&rx, &px, &q);                                                                  \
            cuzk_##G##_xyzz_to_jac(&r, &rx);                                                                           \
            cuzk_##G##_emit_sum(#G "_add", &p, &q, &r);                                                                \
            cuzk_##G##_jac_dbl(&r, &pj);                                                                               \
            cuzk_##G##_emit_sum(#G "_dbl", &p, NULL, &r);                                                              \
            cuzk_##G##_xyzz_dbl(&rx, &px);                                                                             \
            cuzk_##G##_xyzz_to_jac(&r, &rx);                                                                           \
            cuzk_##G##_emit_sum(#G "_dbl", &p, NULL, &r);                                                              \
            cuzk_##G##_affine_neg(&t, &q);                                                                             \
            begin_op(#G "_neg");                                                                                       \
            key("p");                                                                                                  \
            put_##G(&q);                                                                                               \
            begin_out();                                                                                               \
            key("r");                                                                                                  \
            put_##G(&t);                                                                                               \
            end_op();                                                                                                  \
            cuzk_##G##_jac_neg(&r, &qj);                                                                               \
            cuzk_##G##_emit_sum(#G "_neg", &q, NULL, &r);                                                              \
        }                                                                                                              \
        for (int i = 0; i < MUL_ROUNDS; i++) {                                                                         \
            cuzk_##G##_affine_t p;                                                                                     \
            cuzk_##G##_jac_t pj, r;                                                                                    \
            uint64_t k[4];                                                                                             \
            if (i == 5) cuzk_##G##_generator(&p);                                                                      \
            else cuzk_##G##_random(&p);                                                                                \
            if (i == 6) cuzk_##G##_affine_set_infinity(&p);                                                            \
            pick_scalar(k, i);                                                                                         \
            cuzk_##G##_jac_from_affine(&pj, &p);                                                                       \
            cuzk_##G##_jac_mul(&r, &pj, k, 4);                                                                         \
            cuzk_##G##_affine_t ra;                                                                                    \
            cuzk_##G##_jac_to_affine(&ra, &r);                                                                         \
            begin_op(#G "_mul");                                                                                       \
            key("p");                                                                                                  \
            put_##G(&p);                                                                                               \
            key("k");                                                                                                  \
            put_scalar(k, 4);                                                                                          \
            begin_out();                                                                                               \
            key("r");                                                                                                  \
            put_##G(&ra);                                                                                              \
            end_op();                                                                                                  \
            /* the constant-time path takes an Fr element: the same scalar reduced */                                  \
            cuzk_fr_t kr;                                                                                              \
            cuzk_fr_from_limbs_reduce(&kr, k);                                                                         \
            cuzk_##G##_jac_mul_ct(&r, &pj, &kr);                                                                       \
            cuzk_##G##_jac_to_affine(&ra, &r);                                                                         \
            begin_op(#G "_mul");                                                                                       \
            key("p");                                                                                                  \
            put_##G(&p);                                                                                               \
            key("k");                                                                                                  \
            put_scalar(k, 4);                                                                                          \
            begin_out();                                                                                               \
            key("r");                                                                                                  \
            put_##G(&ra);                                                                                              \
            end_op();                                                                                                  \
        }                                                                                                              \
        /* verdicts: subgroup points, curve points outside it, and pairs off the curve */                              \
        for (int i = 0; i < CHECK_ROUNDS; i++) {                                                                       \
            cuzk_##G##_affine_t p;                                                                                     \
            switch (i % 4) {                                                                                           \
            case 0: cuzk_##G##_random(&p); break;                                                                      \
            case 1:                                                                                                    \
                RAND_F(&p.x);                                                                                          \
                RAND_F(&p.y);                                                                                          \
                break;                                                                                                 \
            default: cuzk_##G##_random_on_curve(&p);                                                                   \
            }                                                                                                          \
            for (int naive = 0; naive < 2; naive++) {                                                                  \
                bool on = cuzk_##G##_affine_on_curve(&p);                                                              \
                begin_op(#G "_check");                                                                                 \
                key("p");                                                                                              \
                put_##G(&p);                                                                                           \
                begin_out();                                                                                           \
                key("on_curve");                                                                                       \
                put_bool(on);                                                                                          \
                if (on) {                                                                                              \
                    key("in_subgroup");                                                                                \
                    put_bool(naive ? cuzk_##G##_affine_in_subgroup_naive(&p) : cuzk_##G##_affine_in_subgroup(&p));     \
                }                                                                                                      \
                end_op();                                                                                              \
            }                                                                                                          \
        }                                                                                                              \
    }

#define GROUP_ROUNDS 12
#define MUL_ROUNDS 10
#define CHECK_ROUNDS 12

static cuzk_fp_t cuzk_g1_b;
static cuzk_fp2_t cuzk_g2_b;
static void init_curve_constants(void)
{
    cuzk_fp_from_u64(&cuzk_g1_b, 4);
    cuzk_g2_b.c0 = cuzk_g1_b;
    cuzk_g2_b.c1 = cuzk_g1_b;
}

GEN_GROUP_OPS(g1, fp, cuzk_fp_t, test_rand_fp)
GEN_GROUP_OPS(g2, fp2, cuzk_fp2_t, test_rand_fp2)

/* ---- encodings (the ec layer's codecs) --------------------------------------------------------------------------- */

#define CODEC_ROUNDS 12

static void put_status(cuzk_status s)
{
    sep();
    /* status messages are plain text; keep the JSON valid whatever they hold */
    putchar('"');
    for (const char *c = cuzk_status_str(s); *c; c++) putchar(*c == '"' || *c == '\\' || *c < 0x20 ? '?' : *c);
    putchar('"');
}

/* Variants of a valid encoding for the decoders: as is, and damaged in the ways a decoder must notice. buf holds
 * the valid encoding of len bytes; zcash says whether it has flag bits (zcash) or not (iden3). */
static void damage(uint8_t *buf, size_t len, int variant, bool zcash)
{
    switch (variant) {
    case 0: break;                    /* valid */
    case 1: buf[len - 1] ^= 1; break; /* a different x (or y): usually off the curve or outside the subgroup */
    case 2:                           /* top coordinate set to p: not canonical */
        if (zcash) {
            /* p itself cannot come out of cuzk_fp_to_bytes_be: write its big-endian bytes by hand, flags kept */
            uint8_t flags = buf[0] & 0xe0;
            for (int i = 0; i < CUZK_FP_BYTES; i++) {
                int le = CUZK_FP_BYTES - 1 - i;
                buf[i] = (uint8_t)(CUZK_FP_MODULUS[le / 8] >> (8 * (le % 8)));
            }
            buf[0] |= flags;
        } else {
            for (int i = 0; i < CUZK_FP_BYTES; i++) buf[i] = (uint8_t)(CUZK_FP_MODULUS[i / 8] >> (8 * (i % 8)));
        }
        break;
    case 3: /* random bytes; for zcash keep the flags as they were so that the payload is what gets judged */
        if (zcash) {
            uint8_t flags = buf[0] & 0xe0;
            test_rand_bytes(buf, len);
            buf[0] = (uint8_t)((buf[0] & 0x1f) | flags);
        } else {
            test_rand_bytes(buf, len);
        }
        break;
    case 4: /* zcash: flip the sort flag (compressed: the negated point; uncompressed: forbidden). iden3: zero x */
        if (zcash) buf[0] ^= 0x20;
        else memset(buf, 0, CUZK_FP_BYTES);
        break;
    case 5: /* zcash: infinity flag on a non-zero payload. iden3: all zero, the point at infinity */
        if (zcash) buf[0] |= 0x40;
        else memset(buf, 0, len);
        break;
    default: break;
    }
}

#define GEN_CODEC_OPS(G, NAME, ENC_BYTES, ENC, DEC, ZCASH)                                                             \
    static void gen_##G##_##NAME(void)                                                                                 \
    {                                                                                                                  \
        for (int i = 0; i < CODEC_ROUNDS; i++) {                                                                       \
            cuzk_##G##_affine_t p, d;                                                                                  \
            uint8_t buf[ENC_BYTES];                                                                                    \
            if (i == 0) cuzk_##G##_affine_set_infinity(&p);                                                            \
            else if (i == 1) cuzk_##G##_generator(&p);                                                                 \
            else cuzk_##G##_random(&p);                                                                                \
            ENC(buf, &p);                                                                                              \
            begin_op(#G "_encode_" #NAME);                                                                             \
            key("p");                                                                                                  \
            put_##G(&p);                                                                                               \
            begin_out();                                                                                               \
            key("bytes");                                                                                              \
            put_hex_bytes(buf, sizeof buf);                                                                            \
            end_op();                                                                                                  \
            damage(buf, sizeof buf, i % 6, ZCASH);                                                                     \
            cuzk_status st = DEC(&d, buf, sizeof buf, CUZK_EC_DECODE_ALLOW_INFINITY);                                  \
            begin_op(#G "_decode_" #NAME);                                                                             \
            key("bytes");                                                                                              \
            put_hex_bytes(buf, sizeof buf);                                                                            \
            begin_out();                                                                                               \
            key("ok");                                                                                                 \
            put_bool(st == CUZK_OK);                                                                                   \
            if (st == CUZK_OK) {                                                                                       \
                key("p");                                                                                              \
                put_##G(&d);                                                                                           \
            } else {                                                                                                   \
                key("err");                                                                                            \
                put_status(st);                                                                                        \
            }                                                                                                          \
            end_op();                                                                                                  \
        }                                                                                                              \
    }

GEN_CODEC_OPS(g1, compressed, CUZK_G1_COMPRESSED_BYTES, cuzk_g1_to_compressed, cuzk_g1_from_compressed, true)
GEN_CODEC_OPS(g1, uncompressed, CUZK_G1_UNCOMPRESSED_BYTES, cuzk_g1_to_uncompressed, cuzk_g1_from_uncompressed, true)
GEN_CODEC_OPS(g2, compressed, CUZK_G2_COMPRESSED_BYTES, cuzk_g2_to_compressed, cuzk_g2_from_compressed, true)
GEN_CODEC_OPS(g2, uncompressed, CUZK_G2_UNCOMPRESSED_BYTES, cuzk_g2_to_uncompressed, cuzk_g2_from_uncompressed, true)
GEN_CODEC_OPS(g1, iden3, CUZK_G1_IDEN3_BYTES, cuzk_g1_to_iden3, cuzk_g1_from_iden3, false)
GEN_CODEC_OPS(g2, iden3, CUZK_G2_IDEN3_BYTES, cuzk_g2_to_iden3, cuzk_g2_from_iden3, false)

static void gen_proofs(void)
{
    for (int i = 0; i < CODEC_ROUNDS / 2; i++) {
        cuzk_groth16_proof_t pr, d;
        uint8_t buf[CUZK_GROTH16_PROOF_BYTES];
        cuzk_g1_random(&pr.a);
        cuzk_g2_random(&pr.b);
        cuzk_g1_random(&pr.c);
        if (i == 1) cuzk_g1_affine_set_infinity(&pr.c);
        cuzk_groth16_proof_to_bytes(buf, &pr);
        begin_op("groth16_proof_encode");
        key("a");
        put_g1(&pr.a);
        key("b");
        put_g2(&pr.b);
        key("c");
        put_g1(&pr.c);
        begin_out();
        key("bytes");
        put_hex_bytes(buf, sizeof buf);
        end_op();
        if (i == 2) buf[100] ^= 4;  /* B damaged */
        if (i == 3) buf[0] &= 0x7f; /* A loses its compression flag */
        cuzk_status st = cuzk_groth16_proof_from_bytes(&d, buf, i == 4 ? sizeof buf - 1 : sizeof buf);
        begin_op("groth16_proof_decode");
        key("bytes");
        put_hex_bytes(buf, i == 4 ? sizeof buf - 1 : sizeof buf);
        begin_out();
        key("ok");
        put_bool(st == CUZK_OK);
        if (st == CUZK_OK) {
            key("a");
            put_g1(&d.a);
            key("b");
            put_g2(&d.b);
            key("c");
            put_g1(&d.c);
        } else {
            key("err");
            put_status(st);
        }
        end_op();
    }
}

/* ---- pairing ----------------------------------------------------------------------------------------------------- */
#include "cuzk/pairing.h"

#define PAIRING_ROUNDS 8
#define MULTI_PAIRING_N 3

static void gen_pairing(void)
{
    for (int i = 0; i < PAIRING_ROUNDS; i++) {
        cuzk_g1_affine_t p;
        cuzk_g2_affine_t q;
        cuzk_fp12_t r;
        if (i == 0) cuzk_g1_generator(&p);
        else cuzk_g1_random(&p);
        if (i == 0) cuzk_g2_generator(&q);
        else cuzk_g2_random(&q);
        if (i == 3) cuzk_g1_affine_set_infinity(&p);
        if (i == 4) cuzk_g2_affine_set_infinity(&q);
        cuzk_pairing(&r, &p, &q);
        begin_op("pairing");
        key("p");
        put_g1(&p);
        key("q");
        put_g2(&q);
        begin_out();
        key("r");
        put_fp12(&r);
        end_op();
    }
    for (int i = 0; i < 2; i++) {
        cuzk_g1_affine_t p[MULTI_PAIRING_N];
        cuzk_g2_affine_t q[MULTI_PAIRING_N];
        cuzk_fp12_t r;
        for (int j = 0; j < MULTI_PAIRING_N; j++) {
            cuzk_g1_random(&p[j]);
            cuzk_g2_random(&q[j]);
        }
        if (i == 1) cuzk_g1_affine_neg(&p[1], &p[0]), q[1] = q[0]; /* a cancelling pair, as a verifier has */
        cuzk_multi_pairing(&r, p, q, MULTI_PAIRING_N);
        begin_op("multi_pairing");
        key("ps");
        sep();
        open_arr();
        for (int j = 0; j < MULTI_PAIRING_N; j++) put_g1(&p[j]);
        close_arr();
        key("qs");
        sep();
        open_arr();
        for (int j = 0; j < MULTI_PAIRING_N; j++) put_g2(&q[j]);
        close_arr();
        begin_out();
        key("r");
        put_fp12(&r);
        end_op();
    }
}

/* ---- MSM --------------------------------------------------------------------------------------------------------- */
#include "cuzk/msm.h"

#define MSM_MAX 64

/* One MSM line: bases and scalars (canonical limbs) in, cuzk's sum out. */
#define GEN_MSM(G)                                                                                                     \
    static void cuzk_##G##_emit_msm(const cuzk_##G##_affine_t *b, const uint64_t(*k)[4], size_t n,                     \
                                    const cuzk_##G##_jac_t *r, cuzk_status st)                                         \
    {                                                                                                                  \
        /* a refused MSM prints its status where the sum belongs, so that the line fails visibly */                    \
        cuzk_##G##_affine_t ra;                                                                                        \
        if (st == CUZK_OK) cuzk_##G##_jac_to_affine(&ra, r);                                                           \
        begin_op(#G "_msm");                                                                                           \
        key("points");                                                                                                 \
        sep();                                                                                                         \
        open_arr();                                                                                                    \
        for (size_t i = 0; i < n; i++) put_##G(&b[i]);                                                                 \
        close_arr();                                                                                                   \
        key("scalars");                                                                                                \
        sep();                                                                                                         \
        open_arr();                                                                                                    \
        for (size_t i = 0; i < n; i++) put_scalar(k[i], 4);                                                            \
        close_arr();                                                                                                   \
        begin_out();                                                                                                   \
        key("r");                                                                                                      \
        if (st == CUZK_OK) put_##G(&ra);                                                                               \
        else put_status(st);                                                                                           \
        end_op();                                                                                                      \
    }                                                                                                                  \
    static void gen_##G##_msm(const size_t *sizes, size_t nsizes)                                                      \
    {                                                                                                                  \
        static cuzk_##G##_affine_t b[MSM_MAX];                                                                         \
        static uint64_t k[MSM_MAX][4];                                                                                 \
        static cuzk_fr_t kf[MSM_MAX];                                                                                  \
        for (size_t s = 0; s < nsizes; s++) {                                                                          \
            size_t n = sizes[s];                                                                                       \
            for (size_t i = 0; i < n; i++) {                                                                           \
                /* a few repeated bases, infinities, zero and one scalars, r − 1 */                                  \
                if (i % 7 == 3) b[i] = b[i - 1];                                                                       \
                else if (i % 11 == 5) cuzk_##G##_affine_set_infinity(&b[i]);                                           \
                else cuzk_##G##_random(&b[i]);                                                                         \
                test_rand_fr(&kf[i]);                                                                                  \
                if (i % 5 == 2) cuzk_fr_set_zero(&kf[i]);                                                              \
                if (i % 9 == 4) cuzk_fr_set_one(&kf[i]);                                                               \
                if (i % 13 == 6) {                                                                                     \
                    cuzk_fr_set_one(&kf[i]);                                                                           \
                    cuzk_fr_neg(&kf[i], &kf[i]);                                                                       \
                }                                                                                                      \
                cuzk_fr_to_limbs(k[i], &kf[i]);                                                                        \
            }                                                                                                          \
            cuzk_##G##_jac_t r;                                                                                        \
            unsigned threads = 1 + (unsigned)(s % 2);                                                                  \
            cuzk_status st = cuzk_##G##_msm(&r, b, kf, n, threads);                                                    \
            cuzk_##G##_emit_msm(b, (const uint64_t(*)[4])k, n, &r, st);                                                \
            st = cuzk_##G##_msm_raw(&r, b, (const uint64_t(*)[4])k, n, threads);                                       \
            cuzk_##G##_emit_msm(b, (const uint64_t(*)[4])k, n, &r, st);                                                \
            /* batch addition is an MSM with 0/1 scalars */                                                            \
            uint64_t bitmap[(MSM_MAX + 63) / 64] = {0};                                                                \
            for (size_t i = 0; i < n; i++) {                                                                           \
                bool on = test_rand_u64() & 1;                                                                         \
                memset(k[i], 0, sizeof k[i]);                                                                          \
                k[i][0] = on;                                                                                          \
                if (on) bitmap[i / 64] |= 1ULL << (i % 64);                                                            \
            }                                                                                                          \
            st = cuzk_##G##_batch_add(&r, b, bitmap, n, threads);                                                      \
            cuzk_##G##_emit_msm(b, (const uint64_t(*)[4])k, n, &r, st);                                                \
        }                                                                                                              \
    }

GEN_MSM(g1)
GEN_MSM(g2)

int main(void)
{
    test_seed_init();
    gen_fp();
    gen_fr();
    gen_roots_of_unity();
    gen_fp2();
    gen_tower();
    init_curve_constants();
    gen_g1_group();
    gen_g2_group();
    gen_g1_compressed();
    gen_g1_uncompressed();
    gen_g2_compressed();
    gen_g2_uncompressed();
    gen_g1_iden3();
    gen_g2_iden3();
    gen_proofs();
    gen_pairing();
    {
        static const size_t cuzk_g1_sizes[] = {1, 2, 7, 33, 64};
        static const size_t cuzk_g2_sizes[] = {1, 5, 16};
        gen_g1_msm(cuzk_g1_sizes, sizeof cuzk_g1_sizes / sizeof cuzk_g1_sizes[0]);
        gen_g2_msm(cuzk_g2_sizes, sizeof cuzk_g2_sizes / sizeof cuzk_g2_sizes[0]);
    }
    /* The count lets the checker notice a generator that died half-way. */
    printf("{\"op\":\"end\",\"count\":%lu}\n", lines_printed);
    return fflush(stdout) == 0 ? 0 : 1;
}
