/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Boolean, AllocatedNum, UInt32/MultiEq, multipack, UInt64 and insertion gadgets, each against the Rust unit test
 * that fixes its behaviour (named in each test's comment): values, kinds, row counts, and the row a corrupted value
 * breaks, named by its gadget path. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "circ_test.h"

static void fr_bit(cuzk_fr_t *r, bool b)
{
    if (b) cuzk_fr_set_one(r);
    else cuzk_fr_set_zero(r);
}

/* Runs fn in every mode; returns its row count. */
static uint64_t rows_of(circ_fn fn, void *ctx)
{
    circ_run run;
    circ_run_all(fn, ctx, &run);
    uint64_t n = run.r->num_constraints;
    circ_run_free(&run);
    return n;
}

/* Sets aux `j` of fn's witness to v, and returns the path of the first row cuzk_r1cs_check finds broken (malloc'd;
 * NULL when the witness still satisfies the system). */
static char *corrupt_aux(circ_fn fn, void *ctx, uint32_t j, const cuzk_fr_t *v)
{
    circ_run run;
    circ_run_all(fn, ctx, &run);
    assert_true(j < run.r->num_aux);
    run.z[run.r->num_inputs + j] = *v;
    uint64_t bad = 0;
    cuzk_status s = cuzk_r1cs_check(run.r, run.z, 1, &bad);
    circ_run_free(&run);
    if (s == CUZK_OK) return NULL;
    assert_int_equal(s, CUZK_ERR_R1CS_UNSATISFIED);
    return circ_row_path(fn, ctx, bad);
}

static void expect_corrupt(circ_fn fn, void *ctx, uint32_t j, uint64_t v, const char *path)
{
    cuzk_fr_t x;
    cuzk_fr_from_u64(&x, v);
    char *p = corrupt_aux(fn, ctx, j, &x);
    if (p == NULL || strcmp(p, path) != 0)
        fail_msg("corrupting aux %u: got row '%s', want '%s'", j, p ? p : "(none)", path);
    free(p);
}

/* ---- Boolean ----------------------------------------------------------------------------------------------------- */

/* The six operand kinds of boolean.rs's tests. */
enum { OP_TRUE, OP_FALSE, OP_ALLOC_TRUE, OP_ALLOC_FALSE, OP_NEG_TRUE, OP_NEG_FALSE, OP_KINDS };
static bool op_val(int op) { return op == OP_TRUE || op == OP_ALLOC_TRUE || op == OP_NEG_FALSE; }
static bool op_const(int op) { return op <= OP_FALSE; }

static cuzk_bit make_op(cuzk_cs *cs, int op, const char *name)
{
    cuzk_cs_push(cs, name);
    cuzk_bit b;
    switch (op) {
    case OP_TRUE: b = cuzk_bit_const(true); break;
    case OP_FALSE: b = cuzk_bit_const(false); break;
    case OP_ALLOC_TRUE: b = cuzk_bit_alloc(cs, true); break;
    case OP_ALLOC_FALSE: b = cuzk_bit_alloc(cs, false); break;
    case OP_NEG_TRUE: b = cuzk_bit_not(cuzk_bit_alloc(cs, true)); break;
    default: b = cuzk_bit_not(cuzk_bit_alloc(cs, false)); break;
    }
    cuzk_cs_pop(cs);
    return b;
}

typedef struct {
    int op[3];
    int what; /* 0 xor, 1 and, 2 or, 3 ch, 4 maj, 5 enforce_equal, 6..9 abit xor/and/and_not/nor */
    cuzk_bit out;
} bool_ctx;

static void bool_circuit(cuzk_cs *cs, void *p)
{
    bool_ctx *c = p;
    cuzk_bit a = make_op(cs, c->op[0], "a"), b = make_op(cs, c->op[1], "b");
    cuzk_bit x = c->what >= 3 && c->what <= 4 ? make_op(cs, c->op[2], "c") : cuzk_bit_const(false);
    switch (c->what) {
    case 0: c->out = cuzk_bit_xor(cs, a, b); break;
    case 1: c->out = cuzk_bit_and(cs, a, b); break;
    case 2: c->out = cuzk_bit_or(cs, a, b); break;
    case 3: c->out = cuzk_bit_sha256_ch(cs, a, b, x); break;
    case 4: c->out = cuzk_bit_sha256_maj(cs, a, b, x); break;
    case 5: cuzk_bit_enforce_equal(cs, a, b); break;
    case 6: c->out = cuzk_abit_xor(cs, a, b); break;
    case 7: c->out = cuzk_abit_and(cs, a, b); break;
    case 8: c->out = cuzk_abit_and_not(cs, a, b); break;
    default: c->out = cuzk_abit_nor(cs, a, b); break;
    }
}

static unsigned allocated_ops(const int *op, int n)
{
    unsigned k = 0;
    for (int i = 0; i < n; i++) k += !op_const(op[i]);
    return k;
}

/* test_allocated_bit: one row; 0 instead of 1 still satisfies it, 2 breaks "boolean constraint". */
static void test_allocated_bit(void **state)
{
    (void)state;
    bool_ctx c = {.op = {OP_ALLOC_TRUE, OP_FALSE}, .what = 0};
    assert_int_equal(rows_of(bool_circuit, &c), 1);
    cuzk_fr_t zero;
    cuzk_fr_set_zero(&zero);
    assert_null(corrupt_aux(bool_circuit, &c, 0, &zero));
    expect_corrupt(bool_circuit, &c, 0, 2, "a/boolean constraint");
}

/* test_xor, test_and, test_and_not, test_nor: every pair of allocated values; the result flipped is caught. */
static void test_allocated_bit_ops(void **state)
{
    (void)state;
    static const char *const names[4] = {"xor constraint", "and constraint", "and not constraint", "nor constraint"};
    for (int what = 6; what <= 9; what++)
        for (int av = 0; av < 2; av++)
            for (int bv = 0; bv < 2; bv++) {
                int a = av ? OP_ALLOC_TRUE : OP_ALLOC_FALSE, b = bv ? OP_ALLOC_TRUE : OP_ALLOC_FALSE;
                bool_ctx c = {.op = {a, b}, .what = what};
                assert_int_equal(rows_of(bool_circuit, &c), 3);
                bool want = what == 6 ? av ^ bv : what == 7 ? av & bv : what == 8 ? av & !bv : !av & !bv;
                assert_int_equal(c.out.val, want);
                assert_int_equal(c.out.kind, CUZK_BIT_IS);
                expect_corrupt(bool_circuit, &c, 2, !want, names[what - 6]);
            }
}

/* test_boolean_xor, test_boolean_and, test_boolean_or: all 36 operand pairs; constants fold without a row, the
 * result's kind is the one bellpepper's match tables give, the value is right. */
static void test_boolean_xor_and_or(void **state)
{
    (void)state;
    for (int what = 0; what <= 2; what++)
        for (int a = 0; a < OP_KINDS; a++)
            for (int b = 0; b < OP_KINDS; b++) {
                bool_ctx c = {.op = {a, b}, .what = what};
                uint64_t rows = rows_of(bool_circuit, &c), allocs = allocated_ops(c.op, 2);
                bool va = op_val(a), vb = op_val(b);
                bool want = what == 0 ? va ^ vb : what == 1 ? va & vb : va | vb;
                assert_int_equal(c.out.val, want);
                bool folded = op_const(a) || op_const(b);
                assert_int_equal(rows, allocs + !folded);
                if (folded) continue;
                bool nega = a >= OP_NEG_TRUE, negb = b >= OP_NEG_TRUE;
                int kind = what == 0   ? (nega != negb ? CUZK_BIT_NOT : CUZK_BIT_IS)
                           : what == 1 ? CUZK_BIT_IS
                                       : CUZK_BIT_NOT;
                assert_int_equal(c.out.kind, kind);
            }
}

/* test_enforce_equal: satisfied exactly when the values agree; two unequal constants fail the cs. */
static void test_enforce_equal(void **state)
{
    (void)state;
    for (int a = 0; a < OP_KINDS; a++)
        for (int b = 0; b < OP_KINDS; b++) {
            bool_ctx c = {.op = {a, b}, .what = 5};
            cuzk_errmsg err = {{0}};
            cuzk_status s = circ_check(bool_circuit, &c, &err);
            assert_int_equal(s, op_val(a) == op_val(b) ? CUZK_OK : CUZK_ERR_R1CS_UNSATISFIED);
            if (s != CUZK_OK && !(op_const(a) && op_const(b))) assert_non_null(strstr(err.msg, "enforce equal"));
        }
}

/* test_boolean_sha256_ch, test_boolean_sha256_maj: all 216 operand triples; no row when all are constant; with none
 * constant, "ch" / "maj" is allocated first and a wrong value breaks "ch computation" / "maj computation". */
static void test_sha256_ch_maj(void **state)
{
    (void)state;
    for (int what = 3; what <= 4; what++)
        for (int a = 0; a < OP_KINDS; a++)
            for (int b = 0; b < OP_KINDS; b++)
                for (int x = 0; x < OP_KINDS; x++) {
                    bool_ctx c = {.op = {a, b, x}, .what = what};
                    uint64_t rows = rows_of(bool_circuit, &c), allocs = allocated_ops(c.op, 3);
                    bool va = op_val(a), vb = op_val(b), vc = op_val(x);
                    bool want = what == 3 ? (va & vb) ^ (!va & vc) : (va & vb) ^ (va & vc) ^ (vb & vc);
                    assert_int_equal(c.out.val, want);
                    if (allocs == 0) assert_int_equal(rows, 0);
                    if (allocs == 3) {
                        /* ch: the ch row; maj: maj, then b AND c (one row), then the maj row */
                        assert_int_equal(rows, 3 + (what == 3 ? 1 : 2));
                        expect_corrupt(bool_circuit, &c, 3, !want, what == 3 ? "ch computation" : "maj computation");
                    }
                }
}

typedef struct {
    bool value, mbf;
} cond_ctx;

static void cond_circuit(cuzk_cs *cs, void *p)
{
    cond_ctx *c = p;
    cuzk_bit m = cuzk_bit_alloc(cs, c->mbf);
    cuzk_cs_push(cs, "alloc_conditionally");
    cuzk_bit_alloc_conditionally(cs, c->value, m);
    cuzk_cs_pop(cs);
}

/* test_alloc_conditionally: true is allowed only when must_be_false is false. */
static void test_alloc_conditionally(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++)
        for (int m = 0; m < 2; m++) {
            cond_ctx c = {.value = v, .mbf = m};
            cuzk_errmsg err = {{0}};
            cuzk_status s = circ_check(cond_circuit, &c, &err);
            assert_int_equal(s, v && m ? CUZK_ERR_R1CS_UNSATISFIED : CUZK_OK);
            if (s != CUZK_OK) assert_string_equal(err.msg, "row 1 unsatisfied: alloc_conditionally/boolean constraint");
        }
}

/* ---- AllocatedNum ------------------------------------------------------------------------------------------------ */

typedef struct {
    cuzk_fr_t a, b;
    int what;
    bool strict, cond;
    cuzk_bit bits[CUZK_NUM_BITS];
    cuzk_num out, out2;
} num_ctx;

static void num_circuit(cuzk_cs *cs, void *p)
{
    num_ctx *c = p;
    cuzk_cs_push(cs, "a");
    cuzk_num a = cuzk_num_alloc(cs, &c->a);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "b");
    cuzk_num b = cuzk_num_alloc(cs, &c->b);
    cuzk_cs_pop(cs);
    switch (c->what) {
    case 0: c->out = cuzk_num_add(cs, a, b); break;
    case 1: c->out = cuzk_num_mul(cs, a, b); break;
    case 2: c->out = cuzk_num_square(cs, a); break;
    case 3: cuzk_num_assert_nonzero(cs, a); break;
    case 4: cuzk_num_conditionally_reverse(cs, a, b, cuzk_bit_const(c->cond), &c->out, &c->out2); break;
    case 5:
        if (c->strict) cuzk_num_to_bits_le_strict(cs, a, c->bits);
        else cuzk_num_to_bits_le(cs, a, c->bits);
        break;
    case 6: c->out = cuzk_num_sub(cs, a, b); break;
    case 7: cuzk_num_equal(cs, "equal", a, b); break;
    default: cuzk_num_inputize(cs, a); break;
    }
}

/* test_num_addition, test_num_squaring, test_num_multiplication, test_num_nonzero, test_num_conditional_reversal,
 * constraint.rs's sub / equal and inputize: values, one row each (two for the reversal), wrong results caught. */
static void test_num_ops(void **state)
{
    (void)state;
    num_ctx c = {.what = 0};
    test_rand_fr(&c.a);
    test_rand_fr(&c.b);
    cuzk_fr_t t;
    assert_int_equal(rows_of(num_circuit, &c), 1);
    cuzk_fr_add(&t, &c.a, &c.b);
    assert_true(cuzk_fr_eq(&t, &c.out.val));
    expect_corrupt(num_circuit, &c, 2, 5, "addition constraint");
    c.what = 1;
    assert_int_equal(rows_of(num_circuit, &c), 1);
    cuzk_fr_mul(&t, &c.a, &c.b);
    assert_true(cuzk_fr_eq(&t, &c.out.val));
    expect_corrupt(num_circuit, &c, 2, 121, "multiplication constraint");
    c.what = 2;
    assert_int_equal(rows_of(num_circuit, &c), 1);
    cuzk_fr_sqr(&t, &c.a);
    assert_true(cuzk_fr_eq(&t, &c.out.val));
    expect_corrupt(num_circuit, &c, 2, 10, "squaring constraint");
    c.what = 3;
    assert_int_equal(rows_of(num_circuit, &c), 1);
    expect_corrupt(num_circuit, &c, 2, 3, "nonzero assertion constraint");
    cuzk_fr_set_zero(&c.a);
    cuzk_errmsg err = {{0}};
    assert_int_equal(circ_check(num_circuit, &c, &err), CUZK_ERR_R1CS_UNSATISFIED);
    assert_string_equal(err.msg, "row 0 unsatisfied: nonzero assertion constraint");
    test_rand_fr(&c.a);
    c.what = 4;
    for (int cond = 0; cond < 2; cond++) {
        c.cond = cond;
        assert_int_equal(rows_of(num_circuit, &c), 2);
        assert_true(cuzk_fr_eq(&c.out.val, cond ? &c.b : &c.a));
        assert_true(cuzk_fr_eq(&c.out2.val, cond ? &c.a : &c.b));
    }
    expect_corrupt(num_circuit, &c, 3, 7, "second conditional reversal");
    c.what = 6;
    assert_int_equal(rows_of(num_circuit, &c), 1);
    cuzk_fr_sub(&t, &c.a, &c.b);
    assert_true(cuzk_fr_eq(&t, &c.out.val));
    expect_corrupt(num_circuit, &c, 2, 7, "subtraction constraint");
    c.what = 7;
    assert_int_equal(circ_check(num_circuit, &c, &err), CUZK_ERR_R1CS_UNSATISFIED);
    assert_string_equal(err.msg, "row 0 unsatisfied: equal");
    c.b = c.a;
    assert_int_equal(rows_of(num_circuit, &c), 1);
    c.what = 8;
    circ_run run;
    circ_run_all(num_circuit, &c, &run);
    assert_int_equal(run.r->num_inputs, 2);
    assert_true(cuzk_fr_eq(&run.z[1], &c.a));
    circ_run_free(&run);
}

/* test_into_bits: to_bits_le (255 bits, 256 rows) and to_bits_le_strict on random values; the bits are the value's;
 * test_into_bits_strict: −1 passes, and its lowest bit ("bit 254", counted from the top) set breaks "bit
 * 254/boolean constraint". */
static void test_num_to_bits(void **state)
{
    (void)state;
    for (int i = 0; i < 6; i++) {
        num_ctx c = {.what = 5, .strict = i & 1};
        test_rand_fr(&c.a);
        circ_run run;
        circ_run_all(num_circuit, &c, &run);
        if (!c.strict) {
            assert_int_equal(run.r->num_constraints, 256);
            assert_int_equal(run.r->num_aux, 2 + 255);
        }
        uint64_t l[4];
        cuzk_fr_to_limbs(l, &c.a);
        for (unsigned k = 0; k < CUZK_NUM_BITS; k++) {
            assert_int_equal(c.bits[k].kind, CUZK_BIT_IS);
            assert_int_equal(c.bits[k].val, (l[k / 64] >> (k % 64)) & 1);
        }
        circ_run_free(&run);
        expect_corrupt(num_circuit, &c, 0, 5, "unpacking constraint");
    }
    num_ctx c = {.what = 5, .strict = true};
    cuzk_fr_neg(&c.a, cuzk_cs_pow2(0));
    circ_run run;
    circ_run_all(num_circuit, &c, &run);
    circ_run_free(&run);
    /* the least significant bit, bit 254 from the top, is the last allocated */
    cuzk_cs_counts n;
    circ_count(num_circuit, &c, &n);
    uint32_t lsb = (uint32_t)(c.bits[0].var & ~CUZK_VAR_AUX);
    expect_corrupt(num_circuit, &c, lsb, 1, "bit 254/boolean constraint");
    /* r − 1 as the strict gadget's constant matches the field's modulus */
    uint64_t l[4];
    cuzk_fr_to_limbs(l, &c.a);
    assert_int_equal(l[0] + 1, CUZK_FR_MODULUS[0]);
    for (int k = 1; k < 4; k++) assert_int_equal(l[k], CUZK_FR_MODULUS[k]);
}

typedef struct {
    cuzk_fr_t x, y, k;
    bool bit;
    cuzk_num out;
} lcnum_ctx;

static void lcnum_circuit(cuzk_cs *cs, void *p)
{
    lcnum_ctx *c = p;
    cuzk_num x = cuzk_num_alloc(cs, &c->x), y = cuzk_num_alloc(cs, &c->y);
    cuzk_bit b = cuzk_bit_alloc(cs, c->bit);
    cuzk_lcnum n, m;
    cuzk_lcnum_init(&n);
    cuzk_lcnum_init(&m);
    cuzk_lcnum_add_num(cs, &n, x, &c->k);                         /* k·x */
    cuzk_lcnum_add_bit(cs, &n, cuzk_bit_not(b), cuzk_cs_pow2(3)); /* + 8·(1 − b) */
    cuzk_lcnum_add_const(cs, &n, &c->k);                          /* + k */
    cuzk_lcnum_add_num(cs, &m, y, NULL);
    cuzk_lcnum_add_num(cs, &m, x, NULL);
    cuzk_lcnum_add(cs, &n, &m, cuzk_cs_minus_one()); /* − (x + y) */
    cuzk_lcnum_scale(cs, &n, &c->k);                 /* all times k */
    c->out = cuzk_lcnum_alloc(cs, &n, true);
    cuzk_lcnum_free(&n);
    cuzk_lcnum_free(&m);
}

/* bellpepper's Num (neptune's Elt::Num): sums and scalings without rows, one row to allocate the result. */
static void test_lcnum(void **state)
{
    (void)state;
    lcnum_ctx c;
    test_rand_fr(&c.x);
    test_rand_fr(&c.y);
    test_rand_fr(&c.k);
    c.bit = false;
    assert_int_equal(rows_of(lcnum_circuit, &c), 2);
    cuzk_fr_t want, t;
    cuzk_fr_mul(&want, &c.k, &c.x);
    cuzk_fr_from_u64(&t, 8);
    cuzk_fr_add(&want, &want, &t);
    cuzk_fr_add(&want, &want, &c.k);
    cuzk_fr_sub(&want, &want, &c.x);
    cuzk_fr_sub(&want, &want, &c.y);
    cuzk_fr_mul(&want, &want, &c.k);
    assert_true(cuzk_fr_eq(&want, &c.out.val));
    expect_corrupt(lcnum_circuit, &c, 3, 9, "enforce num allocation preserves lc");
}

/* ---- UInt32 and MultiEq ------------------------------------------------------------------------------------------ */

typedef struct {
    uint32_t a, b, c, d;
    int what;
    cuzk_u32 r;
    unsigned n_add; /* what 5: additions of two allocated words */
} u32_ctx;

static void u32_circuit(cuzk_cs *cs, void *p)
{
    u32_ctx *c = p;
    cuzk_u32 a, b, x, d, t;
    if (c->what == 5) {
        cuzk_multieq me;
        cuzk_multieq_init(&me, cs);
        for (unsigned i = 0; i < c->n_add; i++) {
            cuzk_u32 ops[2];
            cuzk_cs_pushf(cs, "add %u", i);
            cuzk_u32_alloc(cs, c->a + i, &ops[0]);
            cuzk_u32_alloc(cs, c->b - i, &ops[1]);
            cuzk_u32_addmany(cs, &me, ops, 2, &c->r);
            cuzk_cs_pop(cs);
        }
        cuzk_multieq_finish(&me);
        return;
    }
    cuzk_cs_push(cs, "a_bit");
    cuzk_u32_alloc(cs, c->a, &a);
    cuzk_cs_pop(cs);
    cuzk_u32_const(c->b, &b);
    if (c->what == 3) cuzk_u32_const(c->c, &x);
    else {
        cuzk_cs_push(cs, "c_bit");
        cuzk_u32_alloc(cs, c->c, &x);
        cuzk_cs_pop(cs);
    }
    switch (c->what) {
    case 0: /* test_uint32_xor */
        cuzk_cs_push(cs, "first xor");
        cuzk_u32_xor(cs, &a, &b, &t);
        cuzk_cs_pop(cs);
        cuzk_cs_push(cs, "second xor");
        cuzk_u32_xor(cs, &t, &x, &c->r);
        cuzk_cs_pop(cs);
        break;
    case 1: cuzk_u32_sha256_maj(cs, &a, &b, &x, &c->r); break;
    case 2: cuzk_u32_sha256_ch(cs, &a, &b, &x, &c->r); break;
    default: { /* test_uint32_addmany: (a ^ b) + c + d, b and c constants */
        cuzk_cs_push(cs, "d_bit");
        cuzk_u32_alloc(cs, c->d, &d);
        cuzk_cs_pop(cs);
        cuzk_cs_push(cs, "xor");
        cuzk_u32_xor(cs, &a, &b, &t);
        cuzk_cs_pop(cs);
        cuzk_u32 ops[3] = {t, x, d};
        cuzk_multieq me;
        cuzk_multieq_init(&me, cs);
        cuzk_cs_push(cs, "addition");
        cuzk_u32_addmany(cs, &me, ops, 3, &c->r);
        cuzk_cs_pop(cs);
        cuzk_multieq_finish(&me);
    }
    }
}

static void test_uint32_ops(void **state)
{
    (void)state;
    for (int rep = 0; rep < 8; rep++) {
        u32_ctx c = {.a = (uint32_t)test_rand_u64(),
                     .b = (uint32_t)test_rand_u64(),
                     .c = (uint32_t)test_rand_u64(),
                     .d = (uint32_t)test_rand_u64()};
        /* test_uint32_xor: xor with a constant is free, the second costs 32 */
        c.what = 0;
        assert_int_equal(rows_of(u32_circuit, &c), 64 + 32);
        assert_int_equal(c.r.val, c.a ^ c.b ^ c.c);
        for (int i = 0; i < 32; i++) assert_int_equal(c.r.b[i].val, (c.r.val >> i) & 1);
        /* test_uint32_sha256_maj / _ch with a constant middle operand: one row a bit */
        c.what = 1;
        assert_int_equal(rows_of(u32_circuit, &c), 64 + 32);
        assert_int_equal(c.r.val, (c.a & c.b) ^ (c.a & c.c) ^ (c.b & c.c));
        c.what = 2;
        assert_int_equal(rows_of(u32_circuit, &c), 64 + 32);
        assert_int_equal(c.r.val, (c.a & c.b) ^ (~c.a & c.c));
        /* test_uint32_addmany: 34 result bits (3 operands), one MultiEq row; result bit 0 flipped is caught there */
        c.what = 4;
        assert_int_equal(rows_of(u32_circuit, &c), 96 + 34 + 1);
        assert_int_equal(c.r.val, (c.a ^ c.b) + c.c + c.d);
        for (int i = 0; i < 32; i++) assert_int_equal(c.r.b[i].kind, CUZK_BIT_IS);
        uint32_t bit0 = c.r.b[0].var & ~CUZK_VAR_AUX;
        expect_corrupt(u32_circuit, &c, bit0, !(c.r.val & 1), "multieq 0");
    }
}

typedef struct {
    uint32_t v[3];
    cuzk_u32 r;
} const_ctx;

static void const_add_circuit(cuzk_cs *cs, void *p)
{
    const_ctx *c = p;
    cuzk_u32 ops[3];
    for (int i = 0; i < 3; i++) cuzk_u32_const(c->v[i], &ops[i]);
    cuzk_multieq me;
    cuzk_multieq_init(&me, cs);
    cuzk_u32_addmany(cs, &me, ops, 3, &c->r);
    cuzk_multieq_finish(&me);
}

/* test_uint32_addmany_constants, test_uint32_rotr, test_uint32_shr, from_bits(_be): constants stay constants. */
static void test_uint32_constants(void **state)
{
    (void)state;
    for (int rep = 0; rep < 16; rep++) {
        const_ctx c = {.v = {(uint32_t)test_rand_u64(), (uint32_t)test_rand_u64(), (uint32_t)test_rand_u64()}};
        cuzk_cs_counts n;
        circ_count(const_add_circuit, &c, &n);
        assert_int_equal(n.rows, 0);
        assert_int_equal(c.r.val, c.v[0] + c.v[1] + c.v[2]);
        for (int i = 0; i < 32; i++) {
            assert_int_equal(c.r.b[i].kind, CUZK_BIT_CONST);
            assert_int_equal(c.r.b[i].val, (c.r.val >> i) & 1);
        }
        cuzk_u32 a, r, back;
        cuzk_u32_const(c.v[0], &a);
        for (unsigned by = 0; by < 40; by++) {
            uint32_t s = by % 32;
            cuzk_u32_rotr(&a, by, &r);
            assert_int_equal(r.val, s ? (c.v[0] >> s) | (c.v[0] << (32 - s)) : c.v[0]);
            for (int i = 0; i < 32; i++) assert_int_equal(r.b[i].val, (r.val >> i) & 1);
            cuzk_u32_shr(&a, by, &r);
            assert_int_equal(r.val, c.v[0] >> s);
            for (int i = 0; i < 32; i++) assert_int_equal(r.b[i].val, (r.val >> i) & 1);
        }
        cuzk_bit be[32];
        cuzk_u32_into_bits_be(&a, be);
        cuzk_u32_from_bits_be(be, &back);
        assert_int_equal(back.val, c.v[0]);
        cuzk_u32_from_bits(a.b, &back);
        assert_int_equal(back.val, c.v[0]);
    }
}

/* MultiEq's flush rule: 33-bit equalities, 7 fit in 231 bits; the 8th would reach 264 >= 254, so a row is emitted
 * first, after the 8th addition's result bits; the rest at cuzk_multieq_finish. */
static void test_multieq_flush(void **state)
{
    (void)state;
    u32_ctx c = {.a = 0x89abcdef, .b = 0xfedcba98, .what = 5, .n_add = 15};
    /* per addition: 64 bit rows, 33 result bits; rows after 7 full additions: 7·97 = 679, then the 8th's 97 */
    uint64_t per = 64 + 33;
    assert_int_equal(rows_of(u32_circuit, &c), 15 * per + 3);
    char *p = circ_row_path(u32_circuit, &c, 8 * per);
    assert_string_equal(p, "add 7/multieq 0");
    free(p);
    p = circ_row_path(u32_circuit, &c, 15 * per + 1);
    assert_string_equal(p, "add 14/multieq 1");
    free(p);
    p = circ_row_path(u32_circuit, &c, 15 * per + 2);
    assert_string_equal(p, "multieq 2");
    free(p);
    /* a 254-bit equality is refused */
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    cuzk_multieq me;
    cuzk_multieq_init(&me, cs);
    cuzk_lc e = CUZK_LC_EMPTY;
    cuzk_multieq_enforce_equal(&me, 254, &e, &e);
    cuzk_multieq_finish(&me);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, NULL), CUZK_ERR_INVALID_ARG);
}

/* ---- multipack and UInt64 ---------------------------------------------------------------------------------------- */

typedef struct {
    bool bits[1500];
    size_t n;
    bool pack_bits;
    cuzk_num out;
} pack_ctx;

static void pack_circuit(cuzk_cs *cs, void *p)
{
    pack_ctx *c = p;
    cuzk_bit b[1500];
    for (size_t i = 0; i < c->n; i++) {
        cuzk_cs_pushf(cs, "bit %zu", i);
        b[i] = cuzk_bit_alloc(cs, c->bits[i]);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_push(cs, "pack");
    if (c->pack_bits) c->out = cuzk_multipack_pack_bits(cs, b, c->n);
    else cuzk_multipack_pack_into_inputs(cs, b, c->n);
    cuzk_cs_pop(cs);
}

/* test_multipacking: pack_into_inputs exposes compute_multipacking's values, one input and row a 254 bits. */
static void test_multipacking(void **state)
{
    (void)state;
    static pack_ctx c;
    for (size_t n = 0; n < 1500; n += n < 300 ? 1 : 37) {
        c.n = n;
        c.pack_bits = false;
        for (size_t i = 0; i < n; i++) c.bits[i] = test_rand_u64() & 1;
        cuzk_fr_t want[8];
        size_t k = cuzk_multipack_compute(c.bits, n, want);
        assert_int_equal(k, (n + 253) / 254);
        if (n % 61 != 7) {
            cuzk_errmsg err = {{0}};
            assert_int_equal(circ_check(pack_circuit, &c, &err), CUZK_OK);
            continue;
        }
        circ_run run;
        circ_run_all(pack_circuit, &c, &run);
        assert_int_equal(run.r->num_inputs, 1 + k);
        assert_int_equal(run.r->num_constraints, n + k);
        for (size_t i = 0; i < k; i++) assert_true(cuzk_fr_eq(&run.z[1 + i], &want[i]));
        circ_run_free(&run);
    }
    /* pack_bits: the first 254 bits only, one aux and one row */
    c.n = 300;
    c.pack_bits = true;
    circ_run run;
    circ_run_all(pack_circuit, &c, &run);
    assert_int_equal(run.r->num_constraints, 301);
    assert_int_equal(run.r->num_aux, 301);
    cuzk_fr_t want[2];
    cuzk_multipack_compute(c.bits, 254, want);
    assert_true(cuzk_fr_eq(&c.out.val, &want[0]));
    circ_run_free(&run);
    /* bytes_to_bits (most significant first) and bytes_to_bits_le */
    uint8_t bytes[2] = {0x81, 0x02};
    bool bb[16];
    cuzk_multipack_bytes_to_bits(bytes, 2, bb);
    assert_true(bb[0] && bb[7] && !bb[1] && bb[14] && !bb[15]);
    cuzk_multipack_bytes_to_bits_le(bytes, 2, bb);
    assert_true(bb[0] && bb[7] && !bb[1] && bb[9] && !bb[8]);
}

typedef struct {
    uint64_t v;
} u64_ctx;

static void u64_circuit(cuzk_cs *cs, void *p)
{
    u64_ctx *c = p;
    cuzk_u64 a;
    cuzk_u64_alloc(cs, c->v, &a);
    cuzk_u64_pack_into_input(cs, &a);
}

/* UInt64::alloc then pack_into_input (PoRep's challenge input): 64 aux, 65 rows, one input equal to the value. */
static void test_uint64(void **state)
{
    (void)state;
    u64_ctx c = {.v = test_rand_u64()};
    circ_run run;
    circ_run_all(u64_circuit, &c, &run);
    assert_int_equal(run.r->num_aux, 64);
    assert_int_equal(run.r->num_constraints, 65);
    assert_int_equal(run.r->num_inputs, 2);
    uint64_t l[4];
    cuzk_fr_to_limbs(l, &run.z[1]);
    assert_int_equal(l[0], c.v);
    assert_int_equal(l[1] | l[2] | l[3], 0);
    circ_run_free(&run);
    cuzk_u64 a, b;
    cuzk_bit be[64];
    cuzk_u64_const(c.v, &a);
    cuzk_u64_to_bits_be(&a, be);
    cuzk_u64_from_bits_be(be, &b);
    assert_int_equal(b.val, c.v);
    cuzk_u64_from_bits(a.b, &b);
    assert_int_equal(b.val, c.v);
}

/* ---- insertion --------------------------------------------------------------------------------------------------- */

typedef struct {
    unsigned log_size, index;
    bool select, negate;
    cuzk_fr_t vals[16];
    cuzk_num out[16];
    uint64_t base_rows;
} ins_ctx;

static void ins_circuit(cuzk_cs *cs, void *p)
{
    ins_ctx *c = p;
    unsigned size = 1u << c->log_size, n = c->select ? size : size - 1;
    cuzk_num e[16], x;
    for (unsigned i = 0; i < n; i++) {
        cuzk_cs_pushf(cs, "element %u", i);
        e[i] = cuzk_num_alloc(cs, &c->vals[i]);
        cuzk_cs_pop(cs);
    }
    if (!c->select) {
        cuzk_cs_push(cs, "insert");
        x = cuzk_num_alloc(cs, &c->vals[15]);
        cuzk_cs_pop(cs);
    }
    cuzk_bit bits[4];
    for (unsigned i = 0; i < c->log_size; i++) {
        cuzk_cs_pushf(cs, "index bit %u", i);
        bits[i] = cuzk_bit_alloc(cs, (c->index >> i) & 1);
        if (c->negate) bits[i] = cuzk_bit_not(cuzk_bit_not(bits[i]));
        cuzk_cs_pop(cs);
    }
    c->base_rows = cs->next_row;
    if (c->select) c->out[0] = cuzk_insert_select(cs, e, bits, c->log_size);
    else cuzk_insert(cs, x, bits, c->log_size, e, c->out);
}

/* test_insert: for 2, 4, 8, 16 elements and every index, the element lands at the index and the others keep their
 * order; 2 / 8 / 22 / 240 rows. test_select: size − 1 rows and the indexed element. */
static void test_insert_select(void **state)
{
    (void)state;
    for (unsigned log = 1; log <= 4; log++) {
        unsigned size = 1u << log;
        for (unsigned index = 0; index < size; index++) {
            ins_ctx c = {.log_size = log, .index = index};
            for (int i = 0; i < 16; i++) test_rand_fr(&c.vals[i]);
            uint64_t rows = rows_of(ins_circuit, &c) - c.base_rows;
            assert_int_equal(rows, size == 2 ? 2 : size == 4 ? 8 : size == 8 ? 22 : size * (size - 1));
            for (unsigned pos = 0; pos < size; pos++) {
                const cuzk_fr_t *want = pos < index ? &c.vals[pos] : pos == index ? &c.vals[15] : &c.vals[pos - 1];
                assert_true(cuzk_fr_eq(&c.out[pos].val, want));
            }
            c.select = true;
            rows = rows_of(ins_circuit, &c) - c.base_rows;
            assert_int_equal(rows, size - 1);
            assert_true(cuzk_fr_eq(&c.out[0].val, &c.vals[index]));
        }
    }
    /* insert_8 needs allocated, unnegated bits: the cs fails otherwise */
    ins_ctx c = {.log_size = 3, .index = 5};
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    ins_circuit(cs, &c);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, NULL), CUZK_OK);
    c.negate = true; /* not(not(x)) is IS again: still fine */
    cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    ins_circuit(cs, &c);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, NULL), CUZK_OK);
    cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    cuzk_num e[7] = {{0}}, out[8];
    cuzk_bit bits[3] = {cuzk_bit_const(true), cuzk_bit_const(false), cuzk_bit_const(true)};
    cuzk_insert(cs, e[0], bits, 3, e, out);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, NULL), CUZK_ERR_INVALID_ARG);
}

/* reverse_bit_numbering: padded with constant false to whole bytes, bits reversed within each byte. */
static void test_reverse_bit_numbering(void **state)
{
    (void)state;
    cuzk_bit in[11], out[16];
    for (int i = 0; i < 11; i++) in[i] = cuzk_bit_const(i % 3 == 0);
    assert_int_equal(cuzk_bit_reverse_bit_numbering(in, 11, out), 16);
    for (int i = 0; i < 16; i++) {
        int from = i / 8 * 8 + 7 - i % 8;
        assert_int_equal(out[i].val, from < 11 && from % 3 == 0);
    }
    /* in place */
    cuzk_bit_reverse_bit_numbering(out, 16, out);
    for (int i = 0; i < 11; i++) assert_int_equal(out[i].val, in[i].val);
}

typedef struct {
    uint8_t bytes[3];
    uint64_t v;
    cuzk_bit le[24], be[24], u[64];
} alloc_ctx;

static void alloc_circuit(cuzk_cs *cs, void *p)
{
    alloc_ctx *c = p;
    cuzk_bit_alloc_bytes_le(cs, c->bytes, 3, c->le);
    cuzk_bit_alloc_bytes_be(cs, c->bytes, 3, c->be);
    cuzk_bit_alloc_u64_le(cs, c->v, c->u);
}

/* bytes_into_boolean_vec (least significant bit of each byte first), _be, and u64_into_boolean_vec_le: one
 * allocated bit and row each. */
static void test_bit_vectors(void **state)
{
    (void)state;
    alloc_ctx c = {.bytes = {0x01, 0x80, 0x5a}, .v = test_rand_u64()};
    assert_int_equal(rows_of(alloc_circuit, &c), 24 + 24 + 64);
    for (int i = 0; i < 24; i++) {
        assert_int_equal(c.le[i].val, (c.bytes[i / 8] >> (i % 8)) & 1);
        assert_int_equal(c.be[i].val, (c.bytes[i / 8] >> (7 - i % 8)) & 1);
    }
    for (int i = 0; i < 64; i++) assert_int_equal(c.u[i].val, (c.v >> i) & 1);
}

int test_group_gadgets(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocated_bit),
        cmocka_unit_test(test_allocated_bit_ops),
        cmocka_unit_test(test_boolean_xor_and_or),
        cmocka_unit_test(test_enforce_equal),
        cmocka_unit_test(test_sha256_ch_maj),
        cmocka_unit_test(test_alloc_conditionally),
        cmocka_unit_test(test_num_ops),
        cmocka_unit_test(test_num_to_bits),
        cmocka_unit_test(test_lcnum),
        cmocka_unit_test(test_uint32_ops),
        cmocka_unit_test(test_uint32_constants),
        cmocka_unit_test(test_multieq_flush),
        cmocka_unit_test(test_multipacking),
        cmocka_unit_test(test_uint64),
        cmocka_unit_test(test_insert_select),
        cmocka_unit_test(test_reverse_bit_numbering),
        cmocka_unit_test(test_bit_vectors),
    };
    return cmocka_run_group_tests_name("circuits_gadgets", tests, NULL, NULL);
}
