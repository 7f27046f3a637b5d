/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Poseidon gadget (neptune circuit.rs poseidon_hash): neptune's test_poseidon_hash counts (arity 2 / 4 / 8 / 16 /
 * 24 / 36 = 311 / 377 / 505 / 761 / 1,009 / 1,385; 11 = 598 by its formula), the digest equal to the native hash for
 * random inputs, the shape equal row for row to a literal transcription of the Rust circuit (Elt, ensure_allocated,
 * the S-box gadgets, product_mds with its own constants offset and round counter) built on the generic Num, a corrupted
 * S-box value named by its gadget path, and storage-proofs-core tests/por_circuit.rs over Poseidon trees built natively
 * (test_por_circuit_poseidon_base_2 1,887, _base_4 1,164, _base_8 1,063, _sub_8_2 1,377, _top_8_4_2 1,764, _sub_8_8
 * 1,593, _top_8_8_2 1,907, _top_8_2_4 1,764; _private_root 1,886 / 1,163 / 1,062). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "circ_test.h"

static const unsigned arities[] = {2, 4, 8, 11, 16, 24, 36};
static const uint64_t hash_rows[] = {311, 377, 505, 598, 761, 1009, 1385};

/* ---- the literal transcription ----------------------------------------------------------------------------------- */

typedef struct {
    bool allocated;
    cuzk_num a;   /* Elt::Allocated */
    cuzk_lcnum n; /* Elt::Num */
} elt;

static void elt_num(cuzk_cs *cs, elt *e, const cuzk_fr_t *c) /* Elt::num_from_fr */
{
    e->allocated = false;
    cuzk_lcnum_init(&e->n);
    cuzk_lcnum_add_const(cs, &e->n, c);
}

static cuzk_num ensure_allocated(cuzk_cs *cs, elt *e, bool enforce)
{
    if (e->allocated) return e->a;
    return cuzk_lcnum_alloc(cs, &e->n, enforce);
}

/* acc += elt·scalar (Elt::scale then Elt::add; an Allocated is first made a Num) */
static void add_scaled(cuzk_cs *cs, cuzk_lcnum *acc, const elt *e, const cuzk_fr_t *k)
{
    if (e->allocated) {
        cuzk_lcnum tmp;
        cuzk_lcnum_init(&tmp);
        cuzk_lcnum_add_num(cs, &tmp, e->a, NULL);
        cuzk_lcnum_scale(cs, &tmp, k);
        cuzk_lcnum_add(cs, acc, &tmp, NULL);
        cuzk_lcnum_free(&tmp);
    } else {
        cuzk_lcnum tmp = e->n;
        tmp.lc = CUZK_LC_EMPTY;
        cuzk_lc_add_lc(cs, &tmp.lc, &e->n.lc, NULL);
        cuzk_lcnum_scale(cs, &tmp, k);
        cuzk_lcnum_add(cs, acc, &tmp, NULL);
        cuzk_lcnum_free(&tmp);
    }
}

static void elt_free(elt *e)
{
    if (!e->allocated) cuzk_lcnum_free(&e->n);
}

static cuzk_num alloc_val(cuzk_cs *cs, const char *ns, const cuzk_fr_t *v)
{
    cuzk_cs_push(cs, ns);
    cuzk_num r = {cuzk_cs_alloc(cs, v), *v};
    cuzk_cs_pop(cs);
    return r;
}

/* square_sum: (num + k)² */
static cuzk_num square_sum(cuzk_cs *cs, const cuzk_fr_t *k, cuzk_num num)
{
    cuzk_fr_t v;
    cuzk_fr_add(&v, &num.val, k);
    cuzk_fr_sqr(&v, &v);
    cuzk_num r = alloc_val(cs, "squared sum", &v);
    cuzk_term ta[2], tb[2], tc[1];
    cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
    if (cuzk_cs_builds_lc(cs)) {
        cuzk_lc_add(cs, &a, num.var, NULL);
        cuzk_lc_add(cs, &a, CUZK_VAR_ONE, k);
        cuzk_lc_add(cs, &b, num.var, NULL);
        cuzk_lc_add(cs, &b, CUZK_VAR_ONE, k);
        cuzk_lc_add(cs, &c, r.var, NULL);
    }
    cuzk_cs_enforce(cs, "squared sum constraint", &a, &b, &c);
    return r;
}

/* mul_sum: a·(b + pre) + post */
static cuzk_num mul_sum(cuzk_cs *cs, cuzk_num a, cuzk_num b, const cuzk_fr_t *pre, const cuzk_fr_t *post)
{
    cuzk_fr_t v = b.val;
    if (pre != NULL) cuzk_fr_add(&v, &v, pre);
    cuzk_fr_mul(&v, &v, &a.val);
    if (post != NULL) cuzk_fr_add(&v, &v, post);
    cuzk_num r = alloc_val(cs, "mul_sum", &v);
    cuzk_term ta[2], tb[1], tc[2];
    cuzk_lc la = CUZK_LC_ON(ta), lb = CUZK_LC_ON(tb), lc = CUZK_LC_ON(tc);
    if (cuzk_cs_builds_lc(cs)) {
        cuzk_lc_add(cs, &la, b.var, NULL);
        if (pre != NULL) cuzk_lc_add(cs, &la, CUZK_VAR_ONE, pre);
        cuzk_lc_add(cs, &lb, a.var, NULL);
        cuzk_lc_add(cs, &lc, r.var, NULL);
        if (post != NULL) {
            cuzk_fr_t neg;
            cuzk_fr_neg(&neg, post);
            cuzk_lc_add(cs, &lc, CUZK_VAR_ONE, &neg);
        }
    }
    const char *name = post != NULL ? (pre != NULL ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                                    : (pre != NULL ? "mul sum constraint pre-add" : "mul sum constraint");
    cuzk_cs_enforce(cs, name, &la, &lb, &lc);
    return r;
}

static void quintic_s_box(cuzk_cs *cs, elt *e, const cuzk_fr_t *post)
{
    cuzk_cs_push(cs, "S-box input");
    cuzk_num l = ensure_allocated(cs, e, true);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l^2");
    cuzk_num l2 = cuzk_num_square(cs, l);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l^4");
    cuzk_num l4 = cuzk_num_square(cs, l2);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "(l4 * l) + rk)");
    cuzk_num l5 = mul_sum(cs, l4, l, NULL, post);
    cuzk_cs_pop(cs);
    elt_free(e);
    e->allocated = true;
    e->a = l5;
}

static void quintic_s_box_pre_add(cuzk_cs *cs, elt *e, const cuzk_fr_t *pre, const cuzk_fr_t *post)
{
    cuzk_cs_push(cs, "S-box input");
    cuzk_num l = ensure_allocated(cs, e, true);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "(l+rk)^2");
    cuzk_num l2 = square_sum(cs, pre, l);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l^4");
    cuzk_num l4 = cuzk_num_square(cs, l2);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "l4 * (l + rk)");
    cuzk_num l5 = mul_sum(cs, l4, l, pre, post);
    cuzk_cs_pop(cs);
    elt_free(e);
    e->allocated = true;
    e->a = l5;
}

typedef struct {
    const cuzk_poseidon_params *p;
    unsigned width, constants_offset, current_round;
    elt el[CUZK_POSEIDON_MAX_WIDTH];
} literal;

/* product_mds: the pre-sparse matrix after round h − 1, sparse matrix k after round h + k, M otherwise. */
static void product_mds(cuzk_cs *cs, literal *L)
{
    const cuzk_poseidon_params *p = L->p;
    unsigned t = L->width, half = p->full_rounds / 2, sparse_offset = half - 1;
    elt res[CUZK_POSEIDON_MAX_WIDTH];
    if (L->current_round > sparse_offset && L->current_round < half + p->partial_rounds) {
        const cuzk_fr_t *sp = &p->sparse[(size_t)(L->current_round - sparse_offset - 1) * (2 * t - 1)];
        res[0].allocated = false;
        cuzk_lcnum_init(&res[0].n);
        for (unsigned i = 0; i < t; i++) add_scaled(cs, &res[0].n, &L->el[i], &sp[i]);
        for (unsigned j = 1; j < t; j++) {
            res[j].allocated = false;
            cuzk_lcnum_init(&res[j].n);
            cuzk_fr_t one;
            cuzk_fr_set_one(&one);
            add_scaled(cs, &res[j].n, &L->el[j], &one); /* elements[j] is a Num here: adding it as is */
            add_scaled(cs, &res[j].n, &L->el[0], &sp[t + j - 1]);
        }
    } else {
        const cuzk_fr_t *m = L->current_round == sparse_offset ? p->pre_sparse : p->mds;
        for (unsigned j = 0; j < t; j++) {
            res[j].allocated = false;
            cuzk_lcnum_init(&res[j].n);
            for (unsigned i = 0; i < t; i++) add_scaled(cs, &res[j].n, &L->el[i], &m[i * t + j]);
        }
    }
    for (unsigned i = 0; i < t; i++) {
        elt_free(&L->el[i]);
        L->el[i] = res[i];
    }
    L->current_round++;
}

static void full_round(cuzk_cs *cs, literal *L, bool first, bool last)
{
    const cuzk_fr_t *k = L->p->compressed;
    unsigned t = L->width, off = L->constants_offset;
    const cuzk_fr_t *pre = first ? &k[off] : NULL;
    if (first) off += t;
    const cuzk_fr_t *post = first || !last ? &k[off] : NULL;
    if (post != NULL) off += t;
    for (unsigned i = 0; i < t; i++) {
        if (first && i == 0) {
            /* the tag's S-box is computed as a constant */
            cuzk_fr_t v = L->el[0].n.val, v4;
            cuzk_fr_add(&v, &v, &pre[0]);
            cuzk_fr_sqr(&v4, &v);
            cuzk_fr_sqr(&v4, &v4);
            cuzk_fr_mul(&v, &v, &v4);
            cuzk_fr_add(&v, &v, &post[0]);
            elt_free(&L->el[0]);
            elt_num(cs, &L->el[0], &v);
            continue;
        }
        cuzk_cs_pushf(cs, "quintic s-box %u", i);
        if (first) quintic_s_box_pre_add(cs, &L->el[i], &pre[i], &post[i]);
        else quintic_s_box(cs, &L->el[i], post != NULL ? &post[i] : NULL);
        cuzk_cs_pop(cs);
    }
    L->constants_offset = off;
    product_mds(cs, L);
}

static void partial_round(cuzk_cs *cs, literal *L)
{
    const cuzk_fr_t *rk = &L->p->compressed[L->constants_offset++];
    cuzk_cs_push(cs, "solitary quintic s-box");
    quintic_s_box(cs, &L->el[0], rk);
    cuzk_cs_pop(cs);
    product_mds(cs, L);
}

static cuzk_num literal_hash(cuzk_cs *cs, unsigned arity, const cuzk_fr_t *tag, const cuzk_num *in)
{
    literal L = {.p = cuzk_poseidon_params_get(arity), .width = arity + 1};
    assert_non_null(L.p);
    elt_num(cs, &L.el[0], tag);
    for (unsigned i = 0; i < arity; i++) L.el[1 + i] = (elt){.allocated = true, .a = in[i]};
    unsigned half = L.p->full_rounds / 2;
    cuzk_cs_push(cs, "first round");
    full_round(cs, &L, true, false);
    cuzk_cs_pop(cs);
    for (unsigned i = 1; i < half; i++) {
        cuzk_cs_pushf(cs, "initial full round %u", i);
        full_round(cs, &L, false, false);
        cuzk_cs_pop(cs);
    }
    for (unsigned i = 0; i < L.p->partial_rounds; i++) {
        cuzk_cs_pushf(cs, "partial round %u", i);
        partial_round(cs, &L);
        cuzk_cs_pop(cs);
    }
    for (unsigned i = 0; i + 1 < half; i++) {
        cuzk_cs_pushf(cs, "final full round %u", i);
        full_round(cs, &L, false, false);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_push(cs, "terminal full round");
    full_round(cs, &L, false, true);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "hash result");
    cuzk_num r = ensure_allocated(cs, &L.el[1], true);
    cuzk_cs_pop(cs);
    for (unsigned i = 0; i <= arity; i++) elt_free(&L.el[i]);
    return r;
}

/* ---- circuits under test -------------------------------------------------------------------------------------- */

typedef struct {
    unsigned arity;
    cuzk_fr_t tag, in[CUZK_POSEIDON_MAX_ARITY];
    bool literal;
    bool input_vars; /* the preimage as public inputs instead of aux */
    cuzk_fr_t digest;
} hash_ctx;

static void hash_circuit(cuzk_cs *cs, void *ctx)
{
    hash_ctx *h = ctx;
    cuzk_num in[CUZK_POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < h->arity; i++)
        in[i] = h->input_vars ? cuzk_num_alloc_input(cs, &h->in[i]) : cuzk_num_alloc(cs, &h->in[i]);
    cuzk_cs_push(cs, "hash");
    cuzk_num d = h->literal ? literal_hash(cs, h->arity, &h->tag, in)
                            : cuzk_poseidon_gadget_hash(cs, h->arity, &h->tag, in);
    cuzk_cs_pop(cs);
    if (cuzk_cs_has_values(cs)) h->digest = d.val;
}

static void random_ctx(hash_ctx *h, unsigned arity)
{
    memset(h, 0, sizeof *h);
    h->arity = arity;
    assert_int_equal(cuzk_poseidon_tag(&h->tag, CUZK_POSEIDON_MERKLE_TREE, arity, 0, NULL), CUZK_OK);
    for (unsigned i = 0; i < arity; i++) test_rand_fr(&h->in[i]);
}

/* neptune circuit.rs test_poseidon_hash: the counts, and the digest is the native hash; rows = aux. */
static void test_poseidon_hash_counts(void **state)
{
    (void)state;
    for (size_t a = 0; a < sizeof arities / sizeof arities[0]; a++) {
        hash_ctx h;
        random_ctx(&h, arities[a]);
        circ_run run;
        circ_run_all(hash_circuit, &h, &run);
        assert_int_equal(run.r->num_constraints, hash_rows[a]);
        assert_int_equal(run.r->num_aux, hash_rows[a] + arities[a]);
        assert_int_equal(run.r->num_inputs, 1);
        cuzk_fr_t want;
        assert_int_equal(cuzk_poseidon_hash(&want, arities[a], &h.tag, h.in, arities[a], NULL), CUZK_OK);
        assert_true(cuzk_fr_eq(&h.digest, &want));
        /* the digest is the last aux */
        assert_true(cuzk_fr_eq(&run.z[cuzk_r1cs_num_vars(run.r) - 1], &want));
        circ_run_free(&run);
    }
}

/* The gadget's rows, columns, coefficients and values are those of the literal transcription, for every arity, with
 * the MerkleTree tag, another tag, and inputs that are public inputs. */
static void test_poseidon_gadget_equals_literal(void **state)
{
    (void)state;
    for (size_t a = 0; a < sizeof arities / sizeof arities[0]; a++) {
        for (int variant = 0; variant < 3; variant++) {
            hash_ctx h;
            random_ctx(&h, arities[a]);
            if (variant == 1)
                assert_int_equal(
                    cuzk_poseidon_tag(&h.tag, CUZK_POSEIDON_CUSTOM, 0, CUZK_POSEIDON_GEN_RANDOMNESS_ID, NULL), CUZK_OK);
            h.input_vars = variant == 2;
            circ_run g, l;
            circ_run_all(hash_circuit, &h, &g);
            h.literal = true;
            circ_run_all(hash_circuit, &h, &l);
            assert_int_equal(g.r->num_constraints, l.r->num_constraints);
            for (int k = 0; k < 3; k++) assert_int_equal(g.r->m[k].nnz, l.r->m[k].nnz);
            assert_memory_equal(g.r->identity, l.r->identity, 32);
            assert_memory_equal(g.z, l.z, cuzk_r1cs_num_vars(g.r) * sizeof(cuzk_fr_t));
            circ_run_free(&g);
            circ_run_free(&l);
        }
    }
}

/* A corrupted S-box value: the row that first reads it is named by its path in neptune's namespaces, and the literal
 * transcription names the same row. */
static void test_poseidon_corrupt_sbox(void **state)
{
    (void)state;
    hash_ctx h;
    random_ctx(&h, 8);
    circ_run run;
    circ_run_all(hash_circuit, &h, &run);
    /* aux: 8 inputs, then round 0 (8 × 3), rounds 1-3 (3 × 9 × 4), then partial round k's x, x², x⁴, out */
    uint64_t ni = run.r->num_inputs, partial0 = 8 + 24 + 3 * 36;
    struct {
        uint64_t aux;
        const char *path;
    } cases[] = {
        {partial0 + 4 * 3 + 2, "hash/partial round 3/solitary quintic s-box/l^4/squaring constraint"},
        {partial0 + 4 * 3 + 0, "hash/partial round 3/solitary quintic s-box/S-box input/"
                               "enforce num allocation preserves lc"},
        {8 + 3 * 2 + 1, "hash/first round/quintic s-box 3/l^4/squaring constraint"},
        {8 + 3 * 2 + 0, "hash/first round/quintic s-box 3/(l+rk)^2/squared sum constraint"},
        {8 + 24 + 4 * 5 + 3, "hash/initial full round 1/quintic s-box 5/(l4 * l) + rk)/mul sum constraint post-add"},
        {run.r->num_aux - 2, "hash/terminal full round/quintic s-box 8/(l4 * l) + rk)/mul sum constraint"},
        {run.r->num_aux - 1, "hash/hash result/enforce num allocation preserves lc"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cuzk_fr_t *v = &run.z[ni + cases[c].aux], keep = *v, one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(v, v, &one);
        uint64_t bad = UINT64_MAX;
        assert_int_equal(cuzk_r1cs_check(run.r, run.z, 1, &bad), CUZK_ERR_R1CS_UNSATISFIED);
        *v = keep;
        for (int lit = 0; lit < 2; lit++) {
            h.literal = lit;
            char *path = circ_row_path(hash_circuit, &h, bad);
            assert_non_null(path);
            assert_string_equal(path, cases[c].path);
            free(path);
        }
        h.literal = false;
    }
    assert_int_equal(cuzk_r1cs_check(run.r, run.z, 1, NULL), CUZK_OK);
    circ_run_free(&run);
}

static void bad_arity_circuit(cuzk_cs *cs, void *ctx)
{
    unsigned arity = *(unsigned *)ctx;
    cuzk_num in[CUZK_POSEIDON_MAX_ARITY];
    cuzk_fr_t zero = {{0}};
    for (unsigned i = 0; i < arity && i < CUZK_POSEIDON_MAX_ARITY; i++) in[i] = cuzk_num_alloc(cs, &zero);
    cuzk_poseidon_gadget_hash(cs, arity, &zero, in);
}

static void bad_por_arity_circuit(cuzk_cs *cs, void *ctx)
{
    (void)ctx;
    cuzk_num in[3];
    cuzk_fr_t zero = {{0}};
    for (unsigned i = 0; i < 3; i++) in[i] = cuzk_num_alloc(cs, &zero);
    cuzk_poseidon_gadget_por_hash(cs, NULL, in, 3, 0);
}

static void test_poseidon_gadget_bad_arity(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    unsigned arity = 3;
    assert_int_equal(circ_check(bad_arity_circuit, &arity, &err), CUZK_ERR_INVALID_ARG);
    assert_string_equal(err.msg, "poseidon gadget: arity 3 not one of 2, 4, 8, 11, 16, 24, 36");
    arity = 0;
    assert_int_equal(circ_check(bad_arity_circuit, &arity, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(circ_check(bad_por_arity_circuit, NULL, &err), CUZK_ERR_INVALID_ARG);
}

/* ---- Merkle inclusion over Poseidon trees -------------------------------------------------------------------- */

typedef struct {
    cuzk_por_tree t;
    const cuzk_fr_t *leaf, *siblings, *root;
    uint64_t challenge;
    bool private_root;
} por_ctx;

static void por_circuit(cuzk_cs *cs, void *ctx)
{
    por_ctx *c = ctx;
    cuzk_por_root value = {{0, *c->leaf}, false}, root = {{0, *c->root}, false};
    cuzk_por_circuit(cs, &c->t, value, c->challenge, c->siblings, root, c->private_root);
}

/* storage-proofs-core tests/por_circuit.rs test_por_circuit_poseidon_*: 64 leaves per base tree, every kind of shape;
 * the public inputs are PoRCompound::generate_public_inputs' (the challenge packed, then the root unless private). */
static void por_case(unsigned base, unsigned sub, unsigned top, uint64_t want_rows, uint64_t want_private_rows)
{
    cuzk_poseidon_tree_shape shape = {base, sub, top};
    uint64_t n = 64 * (sub ? sub : 1) * (top ? top : 1);
    uint8_t *leaves = malloc(n * 32);
    assert_non_null(leaves);
    for (uint64_t i = 0; i < n; i++) {
        cuzk_fr_t f;
        test_rand_fr(&f);
        cuzk_fr_to_bytes_le(leaves + 32 * i, &f);
    }
    cuzk_poseidon_tree *tree;
    assert_int_equal(cuzk_poseidon_tree_build(&tree, leaves, n, &shape, 1, NULL), CUZK_OK);
    uint8_t rootb[32];
    cuzk_poseidon_tree_root_of(tree, rootb);
    cuzk_fr_t root;
    assert_int_equal(cuzk_fr_from_bytes_le(&root, rootb), CUZK_OK);
    unsigned base_levels = 0;
    while ((UINT64_C(1) << (base_levels * (base == 2 ? 1 : base == 4 ? 2 : 3))) < 64) base_levels++;
    por_ctx c = {.t = {base, sub, top, base_levels, cuzk_poseidon_gadget_por_hash, NULL}, .root = &root};
    uint64_t picks[4] = {0, n - 1, test_rand_u64() % n, test_rand_u64() % n};
    for (int k = 0; k < 4; k++) {
        uint64_t idx = picks[k];
        uint8_t leafb[32];
        cuzk_poseidon_path_elem path[CUZK_POSEIDON_TREE_MAX_LEVELS];
        unsigned len;
        assert_int_equal(cuzk_poseidon_tree_path(tree, idx, leafb, path, &len, NULL), CUZK_OK);
        assert_int_equal(len, cuzk_por_levels(&c.t));
        cuzk_fr_t leaf, sib[64];
        assert_int_equal(cuzk_fr_from_bytes_le(&leaf, leafb), CUZK_OK);
        unsigned ns = 0;
        for (unsigned l = 0; l < len; l++)
            for (unsigned s = 0; s + 1 < path[l].arity; s++)
                assert_int_equal(cuzk_fr_from_bytes_le(&sib[ns++], path[l].siblings[s]), CUZK_OK);
        assert_int_equal(ns, cuzk_por_siblings(&c.t));
        c.leaf = &leaf;
        c.siblings = sib;
        c.challenge = idx;
        for (int priv = 0; priv < 2; priv++) {
            if (priv && want_private_rows == 0) continue;
            c.private_root = priv;
            circ_run run;
            circ_run_all(por_circuit, &c, &run);
            assert_int_equal(run.r->num_constraints, priv ? want_private_rows : want_rows);
            assert_int_equal(run.r->num_inputs, priv ? 2 : 3);
            cuzk_fr_t ch;
            cuzk_fr_from_u64(&ch, idx);
            assert_true(cuzk_fr_eq(&run.z[1], &ch));
            if (!priv) assert_true(cuzk_fr_eq(&run.z[2], &root));
            circ_run_free(&run);
        }
        /* a wrong sibling: the root equality fails */
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&sib[ns - 1], &sib[ns - 1], &one);
        c.private_root = false;
        cuzk_errmsg err = {{0}};
        assert_int_equal(circ_check(por_circuit, &c, &err), CUZK_ERR_R1CS_UNSATISFIED);
        assert_true(strstr(err.msg, "enforce root is correct") != NULL);
    }
    cuzk_poseidon_tree_free(tree);
    free(leaves);
}

static void test_por_circuit_poseidon_base(void **state)
{
    (void)state;
    por_case(2, 0, 0, 1887, 1886);
    por_case(4, 0, 0, 1164, 1163);
    por_case(8, 0, 0, 1063, 1062);
}

static void test_por_circuit_poseidon_sub_top(void **state)
{
    (void)state;
    por_case(8, 2, 0, 1377, 0);
    por_case(8, 4, 2, 1764, 0);
    por_case(8, 8, 0, 1593, 0);
    por_case(8, 8, 2, 1907, 0);
    por_case(8, 2, 4, 1764, 0);
}

int test_group_poseidon_gadget(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poseidon_hash_counts),      cmocka_unit_test(test_poseidon_gadget_equals_literal),
        cmocka_unit_test(test_poseidon_corrupt_sbox),     cmocka_unit_test(test_poseidon_gadget_bad_arity),
        cmocka_unit_test(test_por_circuit_poseidon_base), cmocka_unit_test(test_por_circuit_poseidon_sub_top),
    };
    return cmocka_run_group_tests_name("circuits_poseidon_gadget", tests, NULL, NULL);
}
