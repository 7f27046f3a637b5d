/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The constraint system itself: bellperson's numbering (ONE, inputs before aux whenever allocated), linear
 * combinations merged as bellpepper's Indexer leaves them, the caller's z, sticky errors, and parallel blocks giving
 * exactly the sequential system, witness and first unsatisfied row for every thread count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "testutil.h"
#include "circ_test.h"

/* aux a, input x, aux b, input y; rows over them with repeats and cancellations */
static void numbering_circuit(cuzk_cs *cs, void *p)
{
    (void)p;
    cuzk_fr_t v[4];
    for (int i = 0; i < 4; i++) cuzk_fr_from_u64(&v[i], 3 + (uint64_t)i);
    cuzk_var a = cuzk_cs_alloc(cs, &v[0]);
    cuzk_var x = cuzk_cs_alloc_input(cs, &v[1]);
    cuzk_var b = cuzk_cs_alloc(cs, &v[2]);
    cuzk_var y = cuzk_cs_alloc_input(cs, &v[3]);
    cuzk_term ta[8], tb[8], tc[8];
    cuzk_lc la = CUZK_LC_ON(ta), lb = CUZK_LC_ON(tb), lc = CUZK_LC_ON(tc);
    if (cuzk_cs_builds_lc(cs)) {
        /* (b + a + x − a)·(2y + 3y) = (3·4 + ...) : A = x + b, B = 5y, C = c·ONE */
        cuzk_lc_add(cs, &la, b, NULL);
        cuzk_lc_add(cs, &la, a, NULL);
        cuzk_lc_add(cs, &la, x, NULL);
        cuzk_lc_sub(cs, &la, a);
        cuzk_lc_add(cs, &lb, y, cuzk_cs_pow2(1));
        cuzk_fr_t three;
        cuzk_fr_from_u64(&three, 3);
        cuzk_lc_add(cs, &lb, y, &three);
        cuzk_fr_t c;
        cuzk_fr_from_u64(&c, (4 + 5) * 5 * 6);
        cuzk_lc_add(cs, &lc, CUZK_VAR_ONE, &c);
    }
    cuzk_cs_enforce(cs, "row", &la, &lb, &lc);
    cuzk_lc_free(&la);
    cuzk_lc_free(&lb);
    cuzk_lc_free(&lc);
}

/* Inputs take columns 1.. in allocation order, aux follow all inputs; repeated terms are summed and cancelled ones
 * dropped, giving the rows cuzk_r1cs_builder gives (same identity). */
static void test_numbering_and_merging(void **state)
{
    (void)state;
    circ_run run;
    circ_run_all(numbering_circuit, NULL, &run);
    const cuzk_r1cs_t *r = run.r;
    assert_int_equal(r->num_inputs, 3);
    assert_int_equal(r->num_aux, 2);
    assert_int_equal(r->num_constraints, 1);
    /* A = x + b: columns 1 and 4 */
    assert_int_equal(r->m[0].nnz, 2);
    assert_int_equal(r->m[0].col[0], 1);
    assert_int_equal(r->m[0].col[1], 4);
    /* B = 5y: column 2, one entry */
    assert_int_equal(r->m[1].nnz, 1);
    assert_int_equal(r->m[1].col[0], 2);
    /* z = [1, x, y, a, b] */
    uint64_t want[5] = {1, 4, 6, 3, 5};
    for (int i = 0; i < 5; i++) {
        cuzk_fr_t w;
        cuzk_fr_from_u64(&w, want[i]);
        assert_true(cuzk_fr_eq(&run.z[i], &w));
    }
    /* the builder, given the merged rows, agrees byte for byte */
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(3);
    cuzk_r1cs_var first;
    assert_int_equal(cuzk_r1cs_builder_alloc_aux_n(b, 2, &first), CUZK_OK);
    cuzk_r1cs_term ta[2] = {{CUZK_R1CS_AUX(1), *cuzk_cs_pow2(0)}, {CUZK_R1CS_INPUT(1), *cuzk_cs_pow2(0)}}, tb[1], tc[1];
    tb[0].var = CUZK_R1CS_INPUT(2);
    cuzk_fr_from_u64(&tb[0].coeff, 5);
    tc[0].var = CUZK_R1CS_ONE;
    cuzk_fr_from_u64(&tc[0].coeff, 270);
    assert_int_equal(cuzk_r1cs_builder_enforce(b, ta, 2, tb, 1, tc, 1), CUZK_OK);
    cuzk_r1cs_t *rb;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &rb), CUZK_OK);
    assert_memory_equal(rb->identity, r->identity, 32);
    cuzk_r1cs_free(rb);
    circ_run_free(&run);
}

/* A caller's z must be sized exactly; a row over a variable not yet allocated is refused; errors stick. */
static void test_errors(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    cuzk_fr_t z[6];
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, 3, 1);
    numbering_circuit(cs, NULL);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_MISMATCH);
    assert_non_null(strstr(err.msg, "more than z holds"));
    cs = cuzk_cs_new(CUZK_CS_WITNESS, z, 3, 3);
    numbering_circuit(cs, NULL);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_MISMATCH);
    assert_non_null(strstr(err.msg, "z was sized for 3 and 3"));
    cs = cuzk_cs_new(CUZK_CS_WITNESS, z, 3, 2);
    numbering_circuit(cs, NULL);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_OK);
    assert_true(cuzk_fr_is_one(&z[0]));
    assert_null(cuzk_cs_new((cuzk_cs_mode)7, NULL, 0, 0));
    assert_null(cuzk_cs_new(CUZK_CS_WITNESS, z, 0, 2));

    cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    cuzk_term t[1];
    cuzk_lc a = CUZK_LC_ON(t);
    cuzk_lc_add(cs, &a, CUZK_VAR_AUX | 5, NULL);
    cuzk_cs_enforce(cs, "bad", &a, &a, &a);
    cuzk_bit_alloc(cs, true); /* after the error: harmless */
    assert_int_equal(cuzk_cs_status(cs), CUZK_ERR_R1CS_COLUMN);
    cuzk_r1cs_t *r = (cuzk_r1cs_t *)1;
    assert_int_equal(cuzk_cs_finish(cs, &r, NULL, &err), CUZK_ERR_R1CS_COLUMN);
    assert_null(r);
    assert_non_null(strstr(err.msg, "not allocated"));

    cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
    cuzk_cs_pop(cs);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_cs_finish(NULL, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);
}

/* ---- blocks ------------------------------------------------------------------------------------------------------ */

/* A prologue (an input, a number, a word), blocks that read them and make inputs, bits, additions with their own
 * MultiEq and a packing, an epilogue. Block b does 1 + b % 3 additions unless uniform. */
typedef struct {
    uint64_t nblocks;
    bool uniform;
    int corrupt_block; /* >= 0: that block's witness is made wrong (a sum bit flipped) */
    unsigned threads;
    int how; /* 0 sequential, 1 blocks with a counting pass, 2 blocks with the counts given, 3 nested */
    cuzk_cs_counts *counts;
    /* the prologue's handles, read by the blocks */
    cuzk_num n;
    cuzk_u32 w;
    cuzk_num out[64]; /* each block's packed result */
} blk_ctx;

static void block_fn(cuzk_cs *cs, void *p, uint64_t b)
{
    blk_ctx *c = p;
    cuzk_cs_pushf(cs, "block %llu", (unsigned long long)b);
    cuzk_fr_t v;
    cuzk_fr_from_u64(&v, 1000 + b);
    cuzk_num_inputize(cs, cuzk_num_add(cs, c->n, cuzk_num_alloc(cs, &v)));
    cuzk_multieq me;
    cuzk_multieq_init(&me, cs);
    cuzk_u32 acc = c->w;
    unsigned adds = c->uniform ? 2 : 1 + (unsigned)(b % 3);
    for (unsigned i = 0; i < adds; i++) {
        cuzk_u32 ops[3];
        ops[0] = acc;
        cuzk_u32_alloc(cs, (uint32_t)(b * 77 + i), &ops[1]);
        cuzk_u32_const(0x12345678u + i, &ops[2]);
        cuzk_cs_pushf(cs, "add %u", i);
        cuzk_u32_addmany(cs, &me, ops, 3, &acc);
        cuzk_cs_pop(cs);
        if (c->corrupt_block == (int)b && i == 0 && cuzk_cs_has_values(cs)) {
            cuzk_fr_t *x = circ_value(cs, acc.b[3].var);
            if (cuzk_fr_is_zero(x)) cuzk_fr_set_one(x);
            else cuzk_fr_set_zero(x);
        }
    }
    cuzk_multieq_finish(&me);
    c->out[b] = cuzk_multipack_pack_bits(cs, acc.b, 32);
    cuzk_cs_pop(cs);
}

/* Blocks 2k and 2k+1 as one block of two nested blocks. */
static void pair_fn(cuzk_cs *cs, void *p, uint64_t b);
typedef struct {
    blk_ctx *c;
    uint64_t first;
} pair_ctx;
static void pair_inner(cuzk_cs *cs, void *p, uint64_t b)
{
    pair_ctx *pc = p;
    block_fn(cs, pc->c, pc->first + b);
}
static void pair_fn(cuzk_cs *cs, void *p, uint64_t b)
{
    pair_ctx pc = {p, 2 * b};
    cuzk_cs_blocks(cs, 2, pair_inner, &pc, NULL, 0, 2);
}

static void blocks_circuit(cuzk_cs *cs, void *p)
{
    blk_ctx *c = p;
    cuzk_fr_t v;
    cuzk_fr_from_u64(&v, 42);
    cuzk_cs_push(cs, "prologue");
    c->n = cuzk_num_alloc(cs, &v);
    cuzk_num_inputize(cs, c->n);
    cuzk_u32_alloc(cs, 0xdeadbeef, &c->w);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "sectors");
    if (c->how == 0) {
        for (uint64_t b = 0; b < c->nblocks; b++) block_fn(cs, c, b);
    } else if (c->how == 3) {
        cuzk_cs_blocks(cs, c->nblocks / 2, pair_fn, c, NULL, 0, c->threads);
    } else {
        cuzk_cs_blocks(cs, c->nblocks, block_fn, c, c->how == 2 ? c->counts : NULL,
                       c->uniform ? CUZK_CS_BLOCKS_UNIFORM : 0, c->threads);
    }
    cuzk_cs_pop(cs);
    /* the epilogue uses every block's result */
    cuzk_num acc = c->out[0];
    for (uint64_t b = 1; b < c->nblocks; b++) acc = cuzk_num_add(cs, acc, c->out[b]);
    cuzk_num_inputize(cs, acc);
}

/* Each block's counts, from sequential synthesis of one block at a time. */
static void block_counts(blk_ctx *c, cuzk_cs_counts *out)
{
    for (uint64_t b = 0; b < c->nblocks; b++) {
        cuzk_cs *cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
        cuzk_fr_t v;
        cuzk_fr_set_zero(&v);
        c->n = cuzk_num_alloc(cs, &v);
        cuzk_u32_alloc(cs, 0, &c->w);
        cuzk_cs_counts before, after;
        cuzk_cs_get_counts(cs, &before);
        block_fn(cs, c, b);
        cuzk_cs_get_counts(cs, &after);
        out[b] = (cuzk_cs_counts){after.inputs - before.inputs, after.aux - before.aux, after.rows - before.rows, {0}};
        for (int k = 0; k < 3; k++) out[b].nnz[k] = after.nnz[k] - before.nnz[k];
        cuzk_cs_free(cs);
        if (c->uniform) break;
    }
}

/* Sequential synthesis against cuzk_cs_blocks on 1, 2 and 5 threads, with and without given counts, uniform or not,
 * and nested: the same identity and witness (circ_run_all checks CHECK and COUNT modes agree too). */
static void test_blocks_equal_sequential(void **state)
{
    (void)state;
    for (int uniform = 0; uniform < 2; uniform++) {
        blk_ctx c = {.nblocks = 12, .uniform = uniform, .corrupt_block = -1};
        cuzk_cs_counts counts[12];
        block_counts(&c, counts);
        c.counts = counts;
        circ_run seq;
        circ_run_all(blocks_circuit, &c, &seq);
        assert_int_equal(seq.r->num_inputs, 1 + 1 + 12 + 1);
        static const unsigned threads[] = {1, 2, 5};
        for (int how = 1; how <= 3; how++)
            for (size_t t = 0; t < 3; t++) {
                c.how = how;
                c.threads = threads[t];
                circ_run par;
                circ_run_all(blocks_circuit, &c, &par);
                assert_memory_equal(par.r->identity, seq.r->identity, 32);
                assert_memory_equal(par.z, seq.z, cuzk_r1cs_num_vars(seq.r) * sizeof(cuzk_fr_t));
                circ_run_free(&par);
            }
        circ_run_free(&seq);
    }
}

/* A wrong witness in blocks 7 and 3: CHECK names block 3's row, the lowest, as sequential CHECK does; a watched row
 * inside a block is named through the blocks. */
static void test_blocks_check(void **state)
{
    (void)state;
    blk_ctx c = {.nblocks = 12, .corrupt_block = 3};
    cuzk_errmsg seq_err = {{0}}, par_err = {{0}};
    assert_int_equal(circ_check(blocks_circuit, &c, &seq_err), CUZK_ERR_R1CS_UNSATISFIED);
    assert_non_null(strstr(seq_err.msg, "sectors/block 3/"));
    assert_non_null(strstr(seq_err.msg, "multieq 0"));
    c.how = 1;
    c.threads = 4;
    assert_int_equal(circ_check(blocks_circuit, &c, &par_err), CUZK_ERR_R1CS_UNSATISFIED);
    assert_string_equal(par_err.msg, seq_err.msg);

    c.corrupt_block = -1;
    c.how = 0;
    circ_run run;
    circ_run_all(blocks_circuit, &c, &run);
    uint64_t row = run.r->num_constraints / 2;
    circ_run_free(&run);
    char *seq_path = circ_row_path(blocks_circuit, &c, row);
    c.how = 1;
    char *par_path = circ_row_path(blocks_circuit, &c, row);
    assert_non_null(seq_path);
    assert_non_null(par_path);
    assert_string_equal(seq_path, par_path);
    assert_non_null(strstr(seq_path, "sectors/block "));
    free(seq_path);
    free(par_path);
}

/* Counts that do not match what a block makes are refused with CUZK_ERR_MISMATCH; COUNT mode with uniform blocks
 * multiplies block 0's counts. */
static void test_blocks_counts(void **state)
{
    (void)state;
    blk_ctx c = {.nblocks = 6, .corrupt_block = -1, .how = 2, .threads = 2};
    cuzk_cs_counts counts[6];
    block_counts(&c, counts);
    counts[4].aux++;
    c.counts = counts;
    for (int mode = CUZK_CS_SHAPE; mode <= CUZK_CS_CHECK; mode++) {
        cuzk_cs *cs = cuzk_cs_new((cuzk_cs_mode)mode, NULL, 0, 0);
        blocks_circuit(cs, &c);
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_MISMATCH);
        assert_non_null(strstr(err.msg, "block 4"));
    }
    /* cuzk_cs_count_block after the prologue gives what the blocks were counted at */
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    cuzk_fr_t v;
    cuzk_fr_set_zero(&v);
    c.n = cuzk_num_alloc(cs, &v);
    cuzk_u32_alloc(cs, 0, &c.w);
    counts[4].aux--;
    for (uint64_t b = 0; b < 6; b++) {
        cuzk_cs_counts one;
        assert_int_equal(cuzk_cs_count_block(cs, block_fn, &c, b, &one), CUZK_OK);
        assert_memory_equal(&one, &counts[b], sizeof one);
    }
    assert_int_equal(cs->next_row, 32);
    cuzk_cs_free(cs);
    c.uniform = true;
    c.how = 1;
    cuzk_cs_counts seq, par;
    circ_count(blocks_circuit, &c, &par);
    c.how = 0;
    circ_count(blocks_circuit, &c, &seq);
    assert_memory_equal(&seq, &par, sizeof seq);
}

/* The shape's way to disk and back: a PCE file loaded with the identity expected gives the same system, which the
 * WITNESS mode's z satisfies (blocks of SHA-256-style additions). */
static void test_shape_pce_round_trip(void **state)
{
    (void)state;
    blk_ctx c = {.nblocks = 5, .corrupt_block = -1, .how = 1, .threads = 2};
    circ_run run;
    circ_run_all(blocks_circuit, &c, &run);
    char path[128];
    snprintf(path, sizeof path, "/tmp/cuzk_circuits_test_%d_%llx.pce", (int)getpid(),
             (unsigned long long)test_rand_u64());
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_r1cs_pce_write(run.r, path, &err), CUZK_OK);
    cuzk_r1cs_t *back = NULL;
    assert_int_equal(cuzk_r1cs_pce_load(path, 0, run.r->identity, &back, &err), CUZK_OK);
    assert_int_equal(back->num_constraints, run.r->num_constraints);
    assert_int_equal(cuzk_r1cs_check(back, run.z, 2, NULL), CUZK_OK);
    cuzk_r1cs_free(back);
    unlink(path);
    circ_run_free(&run);
}

typedef struct {
    uint64_t challenge;
    cuzk_fr_t e[4];
} small_ctx;

/* Gadgets of every family, a few hundred rows, three public inputs. */
static void small_circuit(cuzk_cs *cs, void *p)
{
    small_ctx *c = p;
    cuzk_u64 ch;
    cuzk_u64_alloc(cs, c->challenge, &ch);
    cuzk_u64_pack_into_input(cs, &ch);
    cuzk_num e[4];
    for (int i = 0; i < 4; i++) e[i] = cuzk_num_alloc(cs, &c->e[i]);
    cuzk_num out[4];
    cuzk_insert(cs, e[3], ch.b, 2, e, out);
    cuzk_u32 w, x, sum;
    cuzk_u32_from_bits(ch.b, &w);
    cuzk_u32_alloc(cs, 0x01020304, &x);
    cuzk_u32_xor(cs, &w, &x, &x);
    cuzk_multieq me;
    cuzk_multieq_init(&me, cs);
    cuzk_u32 ops[2] = {w, x};
    cuzk_u32_addmany(cs, &me, ops, 2, &sum);
    cuzk_multieq_finish(&me);
    cuzk_num_inputize(cs, cuzk_num_mul(cs, out[1], cuzk_multipack_pack_bits(cs, sum.b, 32)));
    cuzk_num_inputize(cs, out[0]);
}

/* A system and witness from the gadgets prove and verify with the Groth16 prover (bellperson convention: the prover
 * adds the input rows); a changed public input does not verify. */
static void test_prove_verify(void **state)
{
    (void)state;
    small_ctx c = {.challenge = test_rand_u64()};
    for (int i = 0; i < 4; i++) test_rand_fr(&c.e[i]);
    circ_run run;
    circ_run_all(small_circuit, &c, &run);
    assert_int_equal(run.r->num_inputs, 4);
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.conv = CUZK_GROTH16_BELLPERSON;
    so.threads = 2;
    cuzk_groth16_pk pk;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_setup(&pk, run.r, &so, &err), CUZK_OK);
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.threads = 2;
    po.c_mode = CUZK_R1CS_C_CHECKED;
    cuzk_groth16_proof_t proof;
    assert_int_equal(cuzk_groth16_prove(&proof, &pk, run.r, run.z, &po, NULL, &err), CUZK_OK);
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk.vk);
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof, &run.z[1], 3), CUZK_OK);
    cuzk_fr_t bad[3] = {run.z[1], run.z[2], run.z[3]};
    cuzk_fr_add(&bad[2], &bad[2], &run.z[0]);
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof, bad, 3), CUZK_ERR_PROOF_INVALID);
    cuzk_groth16_pk_free(&pk);
    circ_run_free(&run);
}

int test_group_cs(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering_and_merging),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_blocks_equal_sequential),
        cmocka_unit_test(test_blocks_check),
        cmocka_unit_test(test_blocks_counts),
        cmocka_unit_test(test_shape_pce_round_trip),
        cmocka_unit_test(test_prove_verify),
    };
    return cmocka_run_group_tests_name("circuits_cs", tests, NULL, NULL);
}
