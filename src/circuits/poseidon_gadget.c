/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Poseidon gadget: neptune's legacy circuit (circuit.rs poseidon_hash), which Filecoin's keys fix.
 *
 * The circuit's rows depend only on the arity and the domain tag; the variables they name are the hash's inputs, ONE
 * and the aux the hash allocates, in order. So each (arity, tag) gets a template, made once by running the circuit
 * symbolically (every state element a dense combination over ONE, the inputs and the aux it can reach), and every
 * hash instantiates it: SHAPE maps the template's references to variables, COUNT adds its counts, WITNESS only runs
 * the permutation and writes the aux values. docs/circuits.md describes the circuit. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cs_int.h"
#include "poseidon_int.h"

/* A reference in a template: ONE, input i, or the hash's k-th aux variable. */
#define REF_ONE 0u
#define REF_IN(i) (1u + (i))
#define REF_AUX 0x80000000u

/* What a row is, for its gadget path. */
enum {
    ROW_ENSURE,       /* ensure_allocated: lc·1 = x */
    ROW_SQUARE_SUM,   /* square_sum: (l + k)·(l + k) = x² */
    ROW_SQUARE2,      /* l.square(): x·x = x² */
    ROW_SQUARE4,      /* l2.square(): x²·x² = x⁴ */
    ROW_MUL_PRE_POST, /* mul_sum with both keys (round 0) */
    ROW_MUL_POST,     /* mul_sum with a post key */
    ROW_MUL,          /* mul_sum with none (last round) */
    ROW_RESULT,       /* the digest allocated */
};

typedef struct {
    uint32_t ref;
    cuzk_fr_t coeff;
} tpl_term;

typedef struct {
    uint8_t kind;
    uint8_t elem;
    uint16_t round;
} tpl_row;

typedef struct {
    unsigned arity, width;
    cuzk_fr_t tag;
    uint32_t naux, nrows;
    uint32_t *off; /* 3·nrows + 1: row r's A, B, C terms at off[3r .. 3r+3] */
    tpl_term *terms;
    tpl_row *rows;
    uint64_t nnz[3];
    uint32_t max_terms; /* the longest linear combination */
} tpl;

/* ---- templates ----------------------------------------------------------------------------------------------------
 * The symbolic state: every element a dense vector over a basis of references. After a full round's S-boxes each
 * element is one new aux (in round 0, element 0 is a constant), so the basis restarts there with ONE and those
 * outputs; a partial round adds its one S-box output. The basis never exceeds 1 + t + RP references. */

#define TPL_BASIS (1u + CUZK_POSEIDON_MAX_WIDTH + 64u)

typedef struct {
    const cuzk_poseidon_params *p;
    tpl *t;
    uint32_t terms_cap, rows_cap, nterms, nclosed, naux;
    bool nomem;
    cuzk_fr_t one;
    uint32_t basis[TPL_BASIS];
    unsigned nb;
    cuzk_fr_t el[CUZK_POSEIDON_MAX_WIDTH][TPL_BASIS];
    cuzk_fr_t mixed[TPL_BASIS];
} tpl_builder;

static bool fr_is_zero(const cuzk_fr_t *a) { return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0; }

static void tb_term(tpl_builder *b, uint32_t ref, const cuzk_fr_t *c)
{
    if (b->nomem || fr_is_zero(c)) return; /* bellpepper keeps a zero term; the stored row drops it */
    if (b->nterms == b->terms_cap) {
        uint32_t cap = b->terms_cap ? 2 * b->terms_cap : 4096;
        tpl_term *t = realloc(b->t->terms, (size_t)cap * sizeof *t);
        if (t == NULL) {
            b->nomem = true;
            return;
        }
        b->t->terms = t;
        b->terms_cap = cap;
    }
    b->t->terms[b->nterms].ref = ref;
    b->t->terms[b->nterms].coeff = *c;
    b->nterms++;
}

/* Ends the current linear combination (A, B, C of a row, in turn). */
static void tb_close(tpl_builder *b)
{
    if (b->nomem) return;
    tpl *t = b->t;
    uint32_t len = b->nterms - t->off[b->nclosed];
    t->nnz[b->nclosed % 3] += len;
    if (len > t->max_terms) t->max_terms = len;
    t->off[++b->nclosed] = b->nterms;
}

static void tb_row(tpl_builder *b, int kind, unsigned round, unsigned elem)
{
    if (b->nomem) return;
    tpl *t = b->t;
    if (t->nrows == b->rows_cap) {
        uint32_t cap = b->rows_cap ? 2 * b->rows_cap : 512;
        tpl_row *r = realloc(t->rows, (size_t)cap * sizeof *r);
        if (r != NULL) t->rows = r;
        uint32_t *o = r != NULL ? realloc(t->off, (3 * (size_t)cap + 1) * sizeof *o) : NULL;
        if (o == NULL) {
            b->nomem = true;
            return;
        }
        if (t->off == NULL) o[0] = 0;
        t->off = o;
        b->rows_cap = cap;
    }
    t->rows[t->nrows++] = (tpl_row){(uint8_t)kind, (uint8_t)elem, (uint16_t)round};
}

/* ref alone; k·ONE + ref; element e's combination. Each closes one linear combination. */
static void tb_ref(tpl_builder *b, uint32_t ref)
{
    tb_term(b, ref, &b->one);
    tb_close(b);
}

static void tb_plus(tpl_builder *b, const cuzk_fr_t *k, uint32_t ref)
{
    tb_term(b, REF_ONE, k);
    tb_term(b, ref, &b->one);
    tb_close(b);
}

static void tb_elem(tpl_builder *b, unsigned e)
{
    for (unsigned k = 0; k < b->nb; k++) tb_term(b, b->basis[k], &b->el[e][k]);
    tb_close(b);
}

/* x², x⁴ and the output of an S-box whose input is l (input e − 1 with the pre key in round 0, else the aux just
 * allocated for it); returns the output. */
static uint32_t tb_sbox(tpl_builder *b, unsigned r, unsigned e, uint32_t l, const cuzk_fr_t *pre, const cuzk_fr_t *post)
{
    uint32_t x2 = REF_AUX | b->naux++;
    if (pre != NULL) { /* square_sum: (l + pre)·(l + pre) = x² */
        tb_row(b, ROW_SQUARE_SUM, r, e);
        tb_plus(b, pre, l);
        tb_plus(b, pre, l);
    } else {
        tb_row(b, ROW_SQUARE2, r, e);
        tb_ref(b, l);
        tb_ref(b, l);
    }
    tb_ref(b, x2);
    uint32_t x4 = REF_AUX | b->naux++;
    tb_row(b, ROW_SQUARE4, r, e);
    tb_ref(b, x2);
    tb_ref(b, x2);
    tb_ref(b, x4);
    /* mul_sum(a = x⁴, b = l, pre, post): (l + pre)·x⁴ = o − post */
    uint32_t o = REF_AUX | b->naux++;
    tb_row(b, pre != NULL ? ROW_MUL_PRE_POST : post != NULL ? ROW_MUL_POST : ROW_MUL, r, e);
    if (pre != NULL) tb_plus(b, pre, l);
    else tb_ref(b, l);
    tb_ref(b, x4);
    if (post != NULL) {
        cuzk_fr_t neg;
        cuzk_fr_neg(&neg, post);
        tb_term(b, REF_ONE, &neg);
    }
    tb_term(b, o, &b->one);
    tb_close(b);
    return o;
}

/* ensure_allocated(e) with its row: lc·1 = x. */
static uint32_t tb_ensure(tpl_builder *b, int kind, unsigned r, unsigned e)
{
    uint32_t x = REF_AUX | b->naux++;
    tb_row(b, kind, r, e);
    tb_elem(b, e);
    tb_ref(b, REF_ONE);
    tb_ref(b, x);
    return x;
}

/* The linear layer after round r on the symbolic state. */
static void tb_mix(tpl_builder *b, unsigned r)
{
    unsigned t = b->p->width, nb = b->nb;
    bool sparse;
    const cuzk_fr_t *m = cuzk_poseidon_round_mix(b->p, r, &sparse);
    cuzk_fr_t x;
    if (!sparse) {
        /* column by column: element j's new vector from every old element, kept until all columns are done */
        cuzk_fr_t(*out)[TPL_BASIS] = malloc(t * sizeof *out);
        if (out == NULL) {
            b->nomem = true;
            return;
        }
        for (unsigned j = 0; j < t; j++)
            for (unsigned k = 0; k < nb; k++) {
                cuzk_fr_set_zero(&out[j][k]);
                for (unsigned i = 0; i < t; i++) {
                    cuzk_fr_mul(&x, &b->el[i][k], &m[i * t + j]);
                    cuzk_fr_add(&out[j][k], &out[j][k], &x);
                }
            }
        for (unsigned j = 0; j < t; j++) memcpy(b->el[j], out[j], nb * sizeof(cuzk_fr_t));
        free(out);
        return;
    }
    /* new[0] = Σ_i w_hat[i]·s[i]; new[j] = s[j] + v_rest[j−1]·s[0] */
    for (unsigned k = 0; k < nb; k++) {
        cuzk_fr_set_zero(&b->mixed[k]);
        for (unsigned i = 0; i < t; i++) {
            cuzk_fr_mul(&x, &b->el[i][k], &m[i]);
            cuzk_fr_add(&b->mixed[k], &b->mixed[k], &x);
        }
    }
    for (unsigned j = 1; j < t; j++)
        for (unsigned k = 0; k < nb; k++) {
            cuzk_fr_mul(&x, &b->el[0][k], &m[t + j - 1]);
            cuzk_fr_add(&b->el[j][k], &b->el[j][k], &x);
        }
    memcpy(b->el[0], b->mixed, nb * sizeof(cuzk_fr_t));
}

/* The basis after a full round: ONE, then the outputs; element e the unit on its output (element 0 of round 0 the
 * constant c instead). */
static void tb_restart(tpl_builder *b, const uint32_t *outs, unsigned first, const cuzk_fr_t *c)
{
    unsigned t = b->p->width;
    b->nb = 1 + t;
    b->basis[0] = REF_ONE;
    for (unsigned e = 0; e < t; e++) {
        b->basis[1 + e] = e >= first ? outs[e] : REF_ONE;
        for (unsigned k = 0; k < b->nb; k++) cuzk_fr_set_zero(&b->el[e][k]);
        if (e >= first) b->el[e][1 + e] = b->one;
    }
    if (first > 0) b->el[0][0] = *c;
}

static void tpl_free(tpl *t)
{
    if (t == NULL) return;
    free(t->off);
    free(t->terms);
    free(t->rows);
    free(t);
}

static tpl *tpl_make(const cuzk_poseidon_params *p, const cuzk_fr_t *tag)
{
    tpl_builder *b = calloc(1, sizeof *b);
    tpl *t = calloc(1, sizeof *t);
    if (b == NULL || t == NULL) goto fail;
    b->p = p;
    b->t = t;
    cuzk_fr_set_one(&b->one);
    t->arity = p->arity;
    t->width = p->width;
    t->tag = *tag;
    unsigned w = p->width, rounds = p->full_rounds + p->partial_rounds;
    uint32_t outs[CUZK_POSEIDON_MAX_WIDTH];

    /* round 0: the tag's S-box is a constant (constant_quintic_s_box_pre_add_tag); each input's S-box is
     * square_sum, square, mul_sum with the pre and post keys */
    const cuzk_fr_t *pre = p->compressed, *post = cuzk_poseidon_post_keys(p, 0);
    cuzk_fr_t c, c4;
    cuzk_fr_add(&c, tag, &pre[0]);
    cuzk_fr_sqr(&c4, &c);
    cuzk_fr_sqr(&c4, &c4);
    cuzk_fr_mul(&c, &c, &c4);
    cuzk_fr_add(&c, &c, &post[0]);
    for (unsigned e = 1; e < w; e++) outs[e] = tb_sbox(b, 0, e, REF_IN(e - 1), &pre[e], &post[e]);
    tb_restart(b, outs, 1, &c);
    tb_mix(b, 0);

    for (unsigned r = 1; r < rounds && !b->nomem; r++) {
        post = cuzk_poseidon_post_keys(p, r);
        if (cuzk_poseidon_round_is_full(p, r)) {
            for (unsigned e = 0; e < w; e++) {
                uint32_t x = tb_ensure(b, ROW_ENSURE, r, e);
                outs[e] = tb_sbox(b, r, e, x, NULL, post != NULL ? &post[e] : NULL);
            }
            tb_restart(b, outs, 0, NULL);
        } else {
            uint32_t x = tb_ensure(b, ROW_ENSURE, r, 0);
            uint32_t o = tb_sbox(b, r, 0, x, NULL, &post[0]);
            unsigned k = b->nb++;
            b->basis[k] = o;
            for (unsigned e = 0; e < w; e++) cuzk_fr_set_zero(&b->el[e][k]);
            for (unsigned j = 0; j < k; j++) cuzk_fr_set_zero(&b->el[0][j]);
            b->el[0][k] = b->one;
        }
        tb_mix(b, r);
    }
    tb_ensure(b, ROW_RESULT, rounds, 1);
    if (b->nomem || t->max_terms > TPL_BASIS) goto fail;
    t->naux = b->naux;
    free(b);
    return t;
fail:
    tpl_free(t);
    free(b);
    return NULL;
}

/* Templates made so far, by (arity, tag). Readers scan without the lock: an entry is complete before the count that
 * publishes it. */
#define TPL_CACHE 32u
static struct {
    unsigned arity;
    cuzk_fr_t tag;
    tpl *t;
} tpl_cache[TPL_CACHE];
static atomic_uint tpl_count;
static pthread_mutex_t tpl_lock = PTHREAD_MUTEX_INITIALIZER;

static const tpl *tpl_find(unsigned arity, const cuzk_fr_t *tag, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (tpl_cache[i].arity == arity && cuzk_fr_eq(&tpl_cache[i].tag, tag)) return tpl_cache[i].t;
    return NULL;
}

static const tpl *tpl_get(cuzk_cs *cs, const cuzk_poseidon_params *p, const cuzk_fr_t *tag)
{
    const tpl *t = tpl_find(p->arity, tag, atomic_load_explicit(&tpl_count, memory_order_acquire));
    if (t != NULL) return t;
    pthread_mutex_lock(&tpl_lock);
    unsigned n = atomic_load_explicit(&tpl_count, memory_order_relaxed);
    t = tpl_find(p->arity, tag, n);
    if (t == NULL && n == TPL_CACHE) {
        cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "poseidon gadget: more than %u (arity, tag) pairs", TPL_CACHE);
    } else if (t == NULL) {
        tpl *made = tpl_make(p, tag);
        if (made == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "poseidon gadget: out of memory for the arity-%u template", p->arity);
        } else {
            tpl_cache[n].arity = p->arity;
            tpl_cache[n].tag = *tag;
            tpl_cache[n].t = made;
            atomic_store_explicit(&tpl_count, n + 1, memory_order_release);
            t = made;
        }
    }
    pthread_mutex_unlock(&tpl_lock);
    return t;
}

/* ---- witness ------------------------------------------------------------------------------------------------------
 * The permutation in the optimised schedule, writing the aux values in allocation order: per S-box of round 0
 * (inputs only) x², x⁴, x⁵ + post; per later S-box x, x², x⁴, x⁵ (+ post); then the digest. */

static void mix(const cuzk_poseidon_params *p, unsigned r, cuzk_fr_t *s)
{
    unsigned t = p->width, h = p->full_rounds / 2;
    bool sparse;
    const cuzk_fr_t *m = cuzk_poseidon_round_mix(p, r, &sparse);
    /* each new element one sum of products over a column (the MDS is symmetric, pre_sparse is stored transposed) */
    const cuzk_fr_t *cols = r + 1 == h ? p->pre_sparse_cols : m;
    cuzk_fr_t out[CUZK_POSEIDON_MAX_WIDTH];
    for (unsigned j = 0; j < t; j++) cuzk_fr_dot(&out[j], s, &cols[j * t], t);
    memcpy(s, out, t * sizeof *s);
}

static cuzk_fr_t *sbox(cuzk_fr_t *o, cuzk_fr_t *x, const cuzk_fr_t *post, bool keep_x, bool keep)
{
    cuzk_fr_t x2, x4;
    cuzk_fr_sqr(&x2, x);
    cuzk_fr_sqr(&x4, &x2);
    if (keep_x) *o++ = *x;
    cuzk_fr_mul(x, x, &x4);
    if (post != NULL) cuzk_fr_add(x, x, post);
    if (keep) {
        *o++ = x2;
        *o++ = x4;
        *o++ = *x;
    }
    return o;
}

static void witness(const cuzk_poseidon_params *p, const cuzk_fr_t *tag, const cuzk_num *in, cuzk_fr_t *o)
{
    unsigned t = p->width, rounds = p->full_rounds + p->partial_rounds;
    cuzk_fr_t s[CUZK_POSEIDON_MAX_WIDTH];
    cuzk_fr_add(&s[0], tag, &p->compressed[0]);
    for (unsigned i = 1; i < t; i++) cuzk_fr_add(&s[i], &in[i - 1].val, &p->compressed[i]);
    for (unsigned r = 0; r < rounds; r++) {
        const cuzk_fr_t *post = cuzk_poseidon_post_keys(p, r);
        if (cuzk_poseidon_round_is_full(p, r)) {
            for (unsigned e = 0; e < t; e++) o = sbox(o, &s[e], post != NULL ? &post[e] : NULL, r > 0, r > 0 || e > 0);
        } else {
            o = cuzk_poseidon_partial(p, s, o, 4);
            r += p->partial_rounds - 1;
            continue;
        }
        if (r + 1 < rounds) mix(p, r, s);
    }
    cuzk_fr_dot(o, s, &p->mds[t], t); /* the last mix: only element 1, the digest, is used (column 1 = row 1) */
}

/* ---- rows -------------------------------------------------------------------------------------------------------- */

static const char *const step_ns[] = {
    [ROW_ENSURE] = "S-box input", [ROW_SQUARE_SUM] = "(l+rk)^2",        [ROW_SQUARE2] = "l^2",
    [ROW_SQUARE4] = "l^4",        [ROW_MUL_PRE_POST] = "l4 * (l + rk)", [ROW_MUL_POST] = "(l4 * l) + rk)",
    [ROW_MUL] = "(l4 * l) + rk)", [ROW_RESULT] = "hash result",
};
static const char *const row_name[] = {
    [ROW_ENSURE] = "enforce num allocation preserves lc",
    [ROW_SQUARE_SUM] = "squared sum constraint",
    [ROW_SQUARE2] = "squaring constraint",
    [ROW_SQUARE4] = "squaring constraint",
    [ROW_MUL_PRE_POST] = "mul sum constraint pre-post-add",
    [ROW_MUL_POST] = "mul sum constraint post-add",
    [ROW_MUL] = "mul sum constraint",
    [ROW_RESULT] = "enforce num allocation preserves lc",
};

/* Pushes the namespaces neptune opens around row r; returns how many. */
static int push_row_path(cuzk_cs *cs, const cuzk_poseidon_params *p, const tpl_row *row)
{
    unsigned h = p->full_rounds / 2, rp = p->partial_rounds, rounds = p->full_rounds + rp, r = row->round;
    if (row->kind == ROW_RESULT) {
        cuzk_cs_push(cs, "hash result");
        return 1;
    }
    if (r == 0) cuzk_cs_push(cs, "first round");
    else if (r < h) cuzk_cs_pushf(cs, "initial full round %u", r);
    else if (r < h + rp) cuzk_cs_pushf(cs, "partial round %u", r - h);
    else if (r + 1 == rounds) cuzk_cs_push(cs, "terminal full round");
    else cuzk_cs_pushf(cs, "final full round %u", r - h - rp);
    if (cuzk_poseidon_round_is_full(p, r)) cuzk_cs_pushf(cs, "quintic s-box %u", row->elem);
    else cuzk_cs_push(cs, "solitary quintic s-box");
    cuzk_cs_push(cs, step_ns[row->kind]);
    return 3;
}

static inline cuzk_var ref_var(uint32_t ref, const cuzk_num *in, cuzk_var aux0)
{
    if (ref & REF_AUX) return aux0 + (ref & ~REF_AUX);
    return ref == REF_ONE ? CUZK_VAR_ONE : in[ref - 1].var;
}

/* Every row with its linear combinations (SHAPE, CHECK, COUNT with inputs that merge) or names alone (a watched
 * WITNESS run). */
static void emit_rows(cuzk_cs *cs, const cuzk_poseidon_params *p, const tpl *t, const cuzk_num *in, cuzk_var aux0)
{
    bool lcs = cuzk_cs_builds_lc(cs), names = (cs->flags & CUZK_CS_F_NAMES) != 0;
    cuzk_term buf[3][TPL_BASIS];
    for (uint32_t r = 0; r < t->nrows && cs->status == CUZK_OK; r++) {
        int depth = names ? push_row_path(cs, p, &t->rows[r]) : 0;
        const char *name = row_name[t->rows[r].kind];
        if (lcs) {
            cuzk_lc lc[3];
            for (int k = 0; k < 3; k++) {
                lc[k] = CUZK_LC_ON(buf[k]);
                uint32_t b = t->off[3 * r + k], e = t->off[3 * r + k + 1];
                for (uint32_t i = b; i < e; i++) {
                    lc[k].t[i - b].var = ref_var(t->terms[i].ref, in, aux0);
                    lc[k].t[i - b].coeff = t->terms[i].coeff;
                }
                lc[k].n = e - b;
            }
            cuzk_cs_enforce(cs, name, &lc[0], &lc[1], &lc[2]);
        } else {
            cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
        }
        while (depth-- > 0) cuzk_cs_pop(cs);
    }
}

/* ---- the gadget -------------------------------------------------------------------------------------------------- */

cuzk_num cuzk_poseidon_gadget_hash(cuzk_cs *cs, unsigned arity, const cuzk_fr_t *tag, const cuzk_num *in)
{
    cuzk_num out = {CUZK_VAR_ONE, {{0}}};
    if (cs->status != CUZK_OK) return out;
    const cuzk_poseidon_params *p = cuzk_poseidon_partial_rounds(arity) ? cuzk_poseidon_params_get(arity) : NULL;
    if (p == NULL) {
        if (cuzk_poseidon_partial_rounds(arity) == 0)
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "poseidon gadget: arity %u not one of 2, 4, 8, 11, 16, 24, 36",
                         arity);
        else cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "poseidon gadget: out of memory for the arity-%u constants", arity);
        return out;
    }
    const tpl *t = tpl_get(cs, p, tag);
    if (t == NULL) return out;
    uint32_t first = cs->next_aux;
    if ((uint64_t)first + t->naux >= CUZK_VAR_AUX) {
        cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "more than 2^31 aux variables");
        return out;
    }
    if (cuzk_cs_has_values(cs)) {
        if ((uint64_t)first + t->naux > cs->aux_lim && cuzk_cs_reserve_values(cs, 0, t->naux) != CUZK_OK) return out;
        witness(p, tag, in, cs->aux_vals + first);
        out.val = cs->aux_vals[first + t->naux - 1];
    }
    cs->next_aux = first + t->naux;
    cuzk_var aux0 = CUZK_VAR_AUX | first;
    out.var = aux0 + (t->naux - 1);

    bool merge = false; /* an input that is ONE shares a column with the keys: the cs must merge those rows */
    for (unsigned i = 0; i < arity; i++) merge |= in[i].var == CUZK_VAR_ONE;
    if (cs->flags & CUZK_CS_F_NAMES || (cs->flags & CUZK_CS_F_ROWS) || (cuzk_cs_builds_lc(cs) && merge)) {
        emit_rows(cs, p, t, in, aux0);
    } else {
        /* WITNESS counts the rows; COUNT their non-zeros too, which the template knows */
        cs->next_row += t->nrows;
        if (cuzk_cs_builds_lc(cs))
            for (int k = 0; k < 3; k++) cs->nnz[k] += t->nnz[k];
    }
    return out;
}

cuzk_num cuzk_poseidon_gadget_por_hash(cuzk_cs *cs, void *ctx, const cuzk_num *children, unsigned arity,
                                       unsigned height)
{
    (void)ctx;
    (void)height;
    cuzk_fr_t tag;
    if (arity < 1 || arity > 63 || cuzk_poseidon_tag(&tag, CUZK_POSEIDON_MERKLE_TREE, arity, 0, NULL) != CUZK_OK) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "poseidon gadget: no MerkleTree tag for arity %u", arity);
        return (cuzk_num){CUZK_VAR_ONE, {{0}}};
    }
    return cuzk_poseidon_gadget_hash(cs, arity, &tag, children);
}
