/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A Groth16 key from toxic waste the caller knows or that is drawn here: for tests and benchmarks, not a ceremony.
 *
 * Both conventions evaluate the QAP polynomials of every variable at τ through the Lagrange basis of the domain:
 *   L_i(τ) = (τ^n − 1)/n · ω^i/(τ − ω^i)                    (batch inversions, one per thread)    
 *   u_j(τ) = Σ_row A[row][j]·L_row(τ) + [j input]·L_{m+j}(τ), v_j from B, w_j from C
 * (each thread scans the CSR entries for its range of columns), then scale the generators by fixed-base
 * multiplication: per group one table of window multiples of the generator, all points of that group in one
 * multi-threaded call, normalized to affine in batches (fixed_base.c). */
#include <stdlib.h>
#include <string.h>

#include "g16_internal.h"

typedef struct {
    cuzk_fr_t tau, alpha, beta, gamma, delta;
} setup_toxic;

bool cuzk_g16_tau_outside_domain(const cuzk_fr_t *tau, uint64_t order)
{
    cuzk_fr_t t;
    cuzk_fr_pow(&t, tau, &order, 1);
    return !cuzk_fr_is_one(&t);
}

static cuzk_status setup_draw_toxic(setup_toxic *t, const cuzk_groth16_setup_opts *o, bool snarkjs, uint64_t order,
                                    cuzk_errmsg *err)
{
    if (o->given_toxic) {
        t->tau = o->tau;
        t->alpha = o->alpha;
        t->beta = o->beta;
        t->gamma = o->gamma;
        t->delta = o->delta;
        if (snarkjs) cuzk_fr_set_one(&t->gamma);
        if (cuzk_fr_is_zero(&t->gamma) || cuzk_fr_is_zero(&t->delta))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "given gamma or delta is zero");
        if (!cuzk_g16_tau_outside_domain(&t->tau, order))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "given tau lies in the evaluation domain");
        return CUZK_OK;
    }
    cuzk_fr_t *all[5] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta};
    for (int i = 0; i < 5; i++) {
        do {
            if (cuzk_fr_random(all[i]) != CUZK_OK) return cuzk_fail(err, CUZK_ERR_IO, "OS random source failed");
        } while (cuzk_fr_is_zero(all[i]) || (i == 0 && !cuzk_g16_tau_outside_domain(all[i], order)));
    }
    if (snarkjs) cuzk_fr_set_one(&t->gamma);
    return CUZK_OK;
}

void cuzk_g16_lagrange(cuzk_fr_t *out, cuzk_fr_t *scratch, size_t n, const cuzk_fr_t *g, const cuzk_fr_t *omega,
                       const cuzk_fr_t *tau, const cuzk_fr_t *c)
{
    cuzk_fr_t x = *g;
    for (size_t j = 0; j < n; j++) {
        cuzk_fr_sub(&out[j], tau, &x);
        cuzk_fr_mul(&x, &x, omega);
    }
    cuzk_fr_batch_inv(out, out, n, scratch);
    x = *g;
    for (size_t j = 0; j < n; j++) {
        cuzk_fr_t t;
        cuzk_fr_mul(&t, c, &x);
        cuzk_fr_mul(&out[j], &out[j], &t);
        cuzk_fr_mul(&x, &x, omega);
    }
}

typedef struct {
    cuzk_fr_t *out, *scratch;
    const cuzk_fr_t *g, *omega, *tau, *c;
} lagrange_job;

static void lagrange_range(void *ctx, size_t lo, size_t hi)
{
    const lagrange_job *j = ctx;
    cuzk_fr_t x;
    uint64_t e = lo;
    cuzk_fr_pow(&x, j->omega, &e, 1);
    cuzk_fr_mul(&x, &x, j->g);
    cuzk_g16_lagrange(j->out + lo, j->scratch + lo, hi - lo, &x, j->omega, j->tau, j->c);
}

void cuzk_g16_lagrange_par(cuzk_fr_t *out, cuzk_fr_t *scratch, size_t n, const cuzk_fr_t *g, const cuzk_fr_t *omega,
                           const cuzk_fr_t *tau, const cuzk_fr_t *c, unsigned threads)
{
    lagrange_job j = {out, scratch, g, omega, tau, c};
    cuzk_par_for(threads ? threads : 1, n, 1u << 12, lagrange_range, &j);
}

void cuzk_g16_vanishing_over(cuzk_fr_t *r, const cuzk_fr_t *tau, uint64_t e)
{
    cuzk_fr_t one, inv;
    cuzk_fr_set_one(&one);
    cuzk_fr_pow(r, tau, &e, 1);
    cuzk_fr_sub(r, r, &one);
    cuzk_fr_from_u64(&inv, e);
    cuzk_fr_inv_vartime(&inv, &inv);
    cuzk_fr_mul(r, r, &inv);
}

/* ---- the scalars ------------------------------------------------------------------------------------------------- */

/* u, v, w (num_vars each, zeroed by the caller) at τ from the matrices and the input rows m .. m + inputs − 1.
 * A column is written by entries of any row, so the work is split by columns: each task scans every entry and
 * keeps those of its column range (the scan is cheap next to the multiplications, and no two tasks write the same
 * element). */
typedef struct {
    cuzk_fr_t *out[3];
    const cuzk_r1cs_t *c;
    const cuzk_fr_t *lag;
    uint64_t nv, tasks;
} qap_job;

static void qap_range(void *ctx, size_t t0, size_t t1)
{
    const qap_job *j = ctx;
    const cuzk_r1cs_t *c = j->c;
    uint64_t lo = j->nv * t0 / j->tasks, hi = j->nv * t1 / j->tasks;
    uint32_t width = (uint32_t)(hi - lo);
    if (width == 0) return;
    for (int k = 0; k < 3; k++) {
        const cuzk_r1cs_matrix *m = &c->m[k];
        cuzk_fr_t *out = j->out[k];
        for (uint64_t row = 0; row < c->num_constraints; row++) {
            const cuzk_fr_t *l = &j->lag[row];
            for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
                uint32_t col = m->col[e];
                if ((uint32_t)(col - (uint32_t)lo) >= width) continue;
                cuzk_fr_t *dst = &out[col];
                uint32_t id = m->coef[e];
                if (id == CUZK_R1CS_COEF_ONE) {
                    cuzk_fr_add(dst, dst, l);
                } else if (id == CUZK_R1CS_COEF_MINUS_ONE) {
                    cuzk_fr_sub(dst, dst, l);
                } else {
                    cuzk_fr_t t;
                    cuzk_fr_mul(&t, &c->values[id], l);
                    cuzk_fr_add(dst, dst, &t);
                }
            }
        }
    }
}

static void setup_qap(cuzk_fr_t *u, cuzk_fr_t *v, cuzk_fr_t *w, const cuzk_r1cs_t *c, const cuzk_fr_t *lag,
                      unsigned threads)
{
    qap_job j = {{u, v, w}, c, lag, cuzk_r1cs_num_vars(c), threads};
    cuzk_par_for(threads, threads, 1, qap_range, &j);
    for (uint64_t i = 0; i < c->num_inputs; i++) cuzk_fr_add(&u[i], &u[i], &lag[c->num_constraints + i]);
}

/* icl[j] = (β·u_j + α·v_j + w_j)/γ for the inputs, /δ for the aux variables (in place over w) */
typedef struct {
    cuzk_fr_t *icl;
    const cuzk_fr_t *u, *v, *alpha, *beta, *gamma_inv, *delta_inv;
    uint64_t ni;
} icl_job;

static void icl_range(void *ctx, size_t lo, size_t hi)
{
    const icl_job *j = ctx;
    for (size_t i = lo; i < hi; i++) {
        cuzk_fr_t t, x;
        cuzk_fr_mul(&t, j->beta, &j->u[i]);
        cuzk_fr_mul(&x, j->alpha, &j->v[i]);
        cuzk_fr_add(&t, &t, &x);
        cuzk_fr_add(&t, &t, &j->icl[i]);
        cuzk_fr_mul(&j->icl[i], &t, i < j->ni ? j->gamma_inv : j->delta_inv);
    }
}

/* The position -> variable table of a density-selected array: the inputs (all, or those set in in_bits), then
 * the aux variables set in aux_bits. The aux words are cut into chunks counted, then written, in parallel. */
#define POS_CHUNKS_PER_THREAD 4
typedef struct {
    uint32_t *out;
    const uint64_t *bits;
    uint64_t ni, na, words, chunk_words;
    uint64_t *base; /* per chunk: its first position (after the count pass) */
    bool write;
} pos_job;

static uint64_t pos_word(const pos_job *j, uint64_t w)
{
    uint64_t x = j->bits[w];
    uint64_t rest = j->na - w * 64;
    if (rest < 64) x &= ((uint64_t)1 << rest) - 1;
    return x;
}

static void pos_range(void *ctx, size_t c0, size_t c1)
{
    pos_job *j = ctx;
    for (size_t c = c0; c < c1; c++) {
        uint64_t w0 = c * j->chunk_words, w1 = w0 + j->chunk_words;
        if (w1 > j->words) w1 = j->words;
        if (!j->write) {
            uint64_t cnt = 0;
            for (uint64_t w = w0; w < w1; w++) cnt += (uint64_t)__builtin_popcountll(pos_word(j, w));
            j->base[c] = cnt;
            continue;
        }
        uint64_t p = j->base[c];
        for (uint64_t w = w0; w < w1; w++)
            for (uint64_t x = pos_word(j, w); x != 0; x &= x - 1)
                j->out[p++] = (uint32_t)(j->ni + w * 64 + (uint64_t)__builtin_ctzll(x));
    }
}

cuzk_status cuzk_g16_positions(uint32_t **out, uint64_t *count, const uint64_t *in_bits, uint64_t ni,
                               const uint64_t *aux_bits, uint64_t na, unsigned threads)
{
    if (threads == 0) threads = 1;
    *out = NULL;
    *count = 0;
    uint64_t words = (na + 63) / 64, chunks = (uint64_t)threads * POS_CHUNKS_PER_THREAD;
    if (chunks > words) chunks = words ? words : 1;
    uint64_t *base = malloc(chunks * sizeof *base);
    if (base == NULL) return CUZK_ERR_NOMEM;
    uint64_t inputs = 0;
    for (uint64_t i = 0; i < ni; i++) inputs += in_bits == NULL || cuzk_r1cs_density_get(in_bits, i);
    /* count pass: each chunk's positions, then their offsets; the table is sized from them */
    pos_job j = {NULL, aux_bits, ni, na, words, (words + chunks - 1) / chunks, base, false};
    uint64_t p = inputs;
    if (words > 0) {
        cuzk_par_for(threads, chunks, 1, pos_range, &j);
        for (uint64_t c = 0; c < chunks; c++) {
            uint64_t cnt = base[c];
            base[c] = p;
            p += cnt;
        }
    }
    j.out = malloc((p ? p : 1) * sizeof *j.out);
    if (j.out == NULL) {
        free(base);
        return CUZK_ERR_NOMEM;
    }
    uint64_t q = 0;
    for (uint64_t i = 0; i < ni; i++)
        if (in_bits == NULL || cuzk_r1cs_density_get(in_bits, i)) j.out[q++] = (uint32_t)i;
    if (words > 0) {
        j.write = true;
        cuzk_par_for(threads, chunks, 1, pos_range, &j);
    }
    free(base);
    *out = j.out;
    *count = p;
    return CUZK_OK;
}

/* The position tables of a setup: their lengths must be the ones the counts gave. */
static cuzk_status setup_positions(uint32_t **out, uint64_t len, const uint64_t *in_bits, uint64_t ni,
                                   const uint64_t *aux_bits, uint64_t na, unsigned threads)
{
    uint64_t count;
    cuzk_status st = cuzk_g16_positions(out, &count, in_bits, ni, aux_bits, na, threads);
    if (st == CUZK_OK && count != len) {
        free(*out);
        *out = NULL;
        st = CUZK_ERR_R1CS_DENSITY;
    }
    return st;
}

void cuzk_g16_setup_scalars_free(cuzk_g16_setup_scalars *s)
{
    free(s->u);
    free(s->h);
    free(s->a_vars);
    free(s->b_vars);
    explicit_bzero(s, sizeof *s);
}

cuzk_status cuzk_g16_setup_scalars_make(cuzk_g16_setup_scalars *s, const cuzk_r1cs_t *circuit,
                                        const cuzk_groth16_setup_opts *opts, unsigned threads, cuzk_errmsg *err)
{
    memset(s, 0, sizeof *s);
    cuzk_groth16_convention conv = opts->conv == 0 ? CUZK_GROTH16_BELLPERSON : opts->conv;
    if (conv != CUZK_GROTH16_BELLPERSON && conv != CUZK_GROTH16_SNARKJS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "unknown convention %d", (int)opts->conv);
    bool snark = conv == CUZK_GROTH16_SNARKJS;
    threads = threads ? threads : 1;

    uint64_t ni = circuit->num_inputs, na = circuit->num_aux, nv = ni + na, m = circuit->num_constraints;
    unsigned log2n = cuzk_log2_ceil(m + ni);
    if (log2n > CUZK_NTT_MAX_LOG2)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "%llu rows + %llu inputs exceed the largest domain 2^%d",
                         (unsigned long long)m, (unsigned long long)ni, CUZK_NTT_MAX_LOG2);
    uint64_t n = (uint64_t)1 << log2n;

    setup_toxic tx;
    cuzk_status st = setup_draw_toxic(&tx, opts, snark, snark ? 2 * n : n, err);
    if (st != CUZK_OK) return st;
    s->conv = conv;
    s->threads = threads;
    s->tau = tx.tau;
    s->alpha = tx.alpha;
    s->beta = tx.beta;
    s->gamma = tx.gamma;
    s->delta = tx.delta;
    explicit_bzero(&tx, sizeof tx);
    s->log2n = log2n;
    s->n = n;
    s->ni = ni;
    s->na = na;
    s->nv = nv;
    s->len[CUZK_G16_SEC_IC] = ni;
    s->len[CUZK_G16_SEC_H] = snark ? n : n - 1;
    s->len[CUZK_G16_SEC_L] = na;
    s->len[CUZK_G16_SEC_A] = snark ? nv : ni + cuzk_popcount(circuit->a_aux_density, na);
    s->len[CUZK_G16_SEC_B] = snark ? nv
                                   : cuzk_popcount(circuit->b_input_density, ni) +
                                         cuzk_popcount(circuit->b_aux_density, na);

    cuzk_fr_t *lag = malloc(n * sizeof *lag), *scratch = malloc(n * sizeof *scratch);
    s->u = calloc(3 * nv, sizeof *s->u);
    if (snark) s->h = malloc(n * sizeof *s->h);
    if (lag == NULL || scratch == NULL || s->u == NULL || (snark && s->h == NULL)) {
        free(lag);
        free(scratch);
        cuzk_g16_setup_scalars_free(s);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "cannot allocate the setup of %llu variables", (unsigned long long)nv);
    }
    s->v = s->u + nv;
    s->icl = s->u + 2 * nv;

    cuzk_fr_t omega, one, c, gamma_inv, delta_inv;
    cuzk_fr_set_one(&one);
    cuzk_fr_root_of_unity(&omega, log2n, snark ? CUZK_FR_ROOTS_GEN5 : CUZK_FR_ROOTS_GEN7);
    cuzk_g16_vanishing_over(&c, &s->tau, n);
    cuzk_g16_lagrange_par(lag, scratch, n, &one, &omega, &s->tau, &c, threads);
    setup_qap(s->u, s->v, s->icl, circuit, lag, threads);
    free(lag);
    cuzk_fr_inv_vartime(&gamma_inv, &s->gamma);
    cuzk_fr_inv_vartime(&delta_inv, &s->delta);
    icl_job ij = {s->icl, s->u, s->v, &s->alpha, &s->beta, &gamma_inv, &delta_inv, ni};
    cuzk_par_for(threads, nv, 1u << 12, icl_range, &ij);

    if (!snark) {
        /* h_i = τ^i·Z(τ)/δ, Z(τ) = τ^n − 1 */
        cuzk_fr_pow(&s->h0, &s->tau, &n, 1);
        cuzk_fr_sub(&s->h0, &s->h0, &one);
        cuzk_fr_mul(&s->h0, &s->h0, &delta_inv);
    } else {
        /* h_j = L^{2n}_{2j+1}(τ)/δ: the odd points ω_2n^(2j+1) = ω_2n·ω_n^j of the 2n domain */
        cuzk_fr_t w2n;
        cuzk_fr_root_of_unity(&w2n, log2n + 1, CUZK_FR_ROOTS_GEN5);
        cuzk_g16_vanishing_over(&c, &s->tau, 2 * n);
        cuzk_fr_mul(&c, &c, &delta_inv);
        cuzk_g16_lagrange_par(s->h, scratch, n, &w2n, &omega, &s->tau, &c, threads);
    }
    free(scratch);
    explicit_bzero(&gamma_inv, sizeof gamma_inv);
    explicit_bzero(&delta_inv, sizeof delta_inv);
    if (!snark) {
        st = setup_positions(&s->a_vars, s->len[CUZK_G16_SEC_A], NULL, ni, circuit->a_aux_density, na, threads);
        if (st == CUZK_OK)
            st = setup_positions(&s->b_vars, s->len[CUZK_G16_SEC_B], circuit->b_input_density, ni,
                                 circuit->b_aux_density, na, threads);
        if (st != CUZK_OK) {
            cuzk_g16_setup_scalars_free(s);
            return cuzk_fail(err, st,
                             st == CUZK_ERR_NOMEM ? "cannot allocate the setup's position tables"
                                                  : "density bitmaps disagree with their counts");
        }
    }
    return CUZK_OK;
}

typedef struct {
    const cuzk_g16_setup_scalars *s;
    int sec;
    uint64_t lo;
    cuzk_fr_t *out;
} fill_job;

static void fill_range(void *ctx, size_t a, size_t b)
{
    const fill_job *j = ctx;
    const cuzk_g16_setup_scalars *s = j->s;
    uint64_t lo = j->lo;
    cuzk_fr_t *out = j->out;
    switch (j->sec) {
    case CUZK_G16_SEC_IC: memcpy(out + a, s->icl + lo + a, (b - a) * sizeof *out); break;
    case CUZK_G16_SEC_L: memcpy(out + a, s->icl + s->ni + lo + a, (b - a) * sizeof *out); break;
    case CUZK_G16_SEC_H:
        if (s->h != NULL) {
            memcpy(out + a, s->h + lo + a, (b - a) * sizeof *out);
        } else {
            cuzk_fr_t x;
            uint64_t e = lo + a;
            cuzk_fr_pow(&x, &s->tau, &e, 1);
            cuzk_fr_mul(&x, &x, &s->h0);
            for (size_t i = a; i < b; i++) {
                out[i] = x;
                cuzk_fr_mul(&x, &x, &s->tau);
            }
        }
        break;
    case CUZK_G16_SEC_A:
    case CUZK_G16_SEC_B: {
        const cuzk_fr_t *src = j->sec == CUZK_G16_SEC_A ? s->u : s->v;
        const uint32_t *pos = j->sec == CUZK_G16_SEC_A ? s->a_vars : s->b_vars;
        for (size_t i = a; i < b; i++) out[i] = src[pos != NULL ? pos[lo + i] : lo + i];
        break;
    }
    }
}

void cuzk_g16_setup_scalars_fill(const cuzk_g16_setup_scalars *s, int sec, uint64_t lo, uint64_t hi, cuzk_fr_t *out)
{
    fill_job j = {s, sec, lo, out};
    if (hi > lo) cuzk_par_for(s->threads ? s->threads : 1, hi - lo, 1u << 14, fill_range, &j);
}

/* A zkey's matrices: the circuit's A and B rows, then row m + i with A = z_i for every input, and no C. */
static cuzk_status setup_snarkjs_matrices(const cuzk_r1cs_t *c, cuzk_r1cs_t **out)
{
    *out = NULL;
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(c->num_inputs);
    if (b == NULL) return CUZK_ERR_NOMEM;
    cuzk_status s = CUZK_OK;
    cuzk_r1cs_var first;
    if (c->num_aux > 0) s = cuzk_r1cs_builder_alloc_aux_n(b, c->num_aux, &first);
    uint64_t longest = 1;
    for (int k = 0; k < 2; k++)
        for (uint64_t row = 0; row < c->num_constraints; row++) {
            uint64_t len = c->m[k].row_ptr[row + 1] - c->m[k].row_ptr[row];
            if (len > longest) longest = len;
        }
    cuzk_r1cs_term *t[2] = {malloc(longest * sizeof(cuzk_r1cs_term)), malloc(longest * sizeof(cuzk_r1cs_term))};
    if (t[0] == NULL || t[1] == NULL) s = CUZK_ERR_NOMEM;
    for (uint64_t row = 0; s == CUZK_OK && row < c->num_constraints; row++) {
        size_t len[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            const cuzk_r1cs_matrix *m = &c->m[k];
            for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
                uint32_t col = m->col[e];
                cuzk_r1cs_term *term = &t[k][len[k]++];
                term->var = col < c->num_inputs ? CUZK_R1CS_INPUT(col) : CUZK_R1CS_AUX(col - c->num_inputs);
                term->coeff = c->values[m->coef[e]];
            }
        }
        s = cuzk_r1cs_builder_enforce(b, t[0], len[0], t[1], len[1], NULL, 0);
    }
    for (uint32_t i = 0; s == CUZK_OK && i < c->num_inputs; i++) {
        cuzk_r1cs_term one = {CUZK_R1CS_INPUT(i), {{0}}};
        cuzk_fr_set_one(&one.coeff);
        s = cuzk_r1cs_builder_enforce(b, &one, 1, NULL, 0, NULL, 0);
    }
    free(t[0]);
    free(t[1]);
    if (s != CUZK_OK) {
        cuzk_r1cs_builder_free(b);
        return s;
    }
    return cuzk_r1cs_builder_finish(b, out);
}

cuzk_status cuzk_groth16_setup(cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit, const cuzk_groth16_setup_opts *opts,
                               cuzk_errmsg *err)
{
    if (pk == NULL || circuit == NULL || opts == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    memset(pk, 0, sizeof *pk);
    unsigned threads = opts->threads ? opts->threads : 1;
    cuzk_g16_setup_scalars sc;
    cuzk_status s = cuzk_g16_setup_scalars_make(&sc, circuit, opts, threads, err);
    if (s != CUZK_OK) return s;
    bool snark = sc.conv == CUZK_GROTH16_SNARKJS;
    uint64_t len[CUZK_G16_SEC_COUNT], n = sc.n;
    memcpy(len, sc.len, sizeof len);
    uint64_t ni = sc.ni, na = sc.na, nv = sc.nv;

    /* scalars of every point, in the order of the storage block:
     * G1: α, β, δ, ic[ni], h[h_len], l[na], a[a_len], b_g1[b_len];  G2: β, γ, δ, b_g2[b_len] */
    uint64_t o_ic = 3, o_h = o_ic + len[CUZK_G16_SEC_IC], o_l = o_h + len[CUZK_G16_SEC_H],
             o_a = o_l + len[CUZK_G16_SEC_L];
    uint64_t o_b = o_a + len[CUZK_G16_SEC_A], n1 = o_b + len[CUZK_G16_SEC_B];
    uint64_t n2 = 3 + len[CUZK_G16_SEC_B];
    cuzk_fr_t *k1 = malloc(n1 * sizeof *k1), *k2 = malloc(n2 * sizeof *k2);
    uint8_t *block = malloc(n1 * sizeof(cuzk_g1_affine_t) + n2 * sizeof(cuzk_g2_affine_t));
    cuzk_g16_fb1_table t1 = {0};
    cuzk_g16_fb2_table t2 = {0};
    cuzk_r1cs_t *own = NULL;
    if (k1 == NULL || k2 == NULL || block == NULL) {
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "cannot allocate the setup of %llu variables", (unsigned long long)nv);
        goto done;
    }
    k1[0] = sc.alpha;
    k1[1] = sc.beta;
    k1[2] = sc.delta;
    k2[0] = sc.beta;
    k2[1] = sc.gamma;
    k2[2] = sc.delta;
    const uint64_t off[CUZK_G16_SEC_COUNT] = {o_ic, o_h, o_l, o_a, o_b};
    for (int sec = 0; sec < CUZK_G16_SEC_COUNT; sec++)
        cuzk_g16_setup_scalars_fill(&sc, sec, 0, len[sec], k1 + off[sec]);
    memcpy(k2 + 3, k1 + o_b, len[CUZK_G16_SEC_B] * sizeof *k2);
    cuzk_g16_setup_scalars_free(&sc);

    s = cuzk_g16_fb1_table_build(&t1, n1);
    if (s == CUZK_OK) s = cuzk_g16_fb2_table_build(&t2, n2);
    if (s == CUZK_OK && snark) s = setup_snarkjs_matrices(circuit, &own);
    if (s != CUZK_OK) {
        cuzk_fail(err, s, "cannot build the setup tables or matrices");
        goto done;
    }
    cuzk_g1_affine_t *p1 = (cuzk_g1_affine_t *)block;
    cuzk_g2_affine_t *p2 = (cuzk_g2_affine_t *)(block + n1 * sizeof(cuzk_g1_affine_t));
    /* the G1 queries in 2 MiB pages, as a loaded .params key has them (params.c): the MSMs read them at random */
    cuzk_advise_huge(p1 + o_h, (n1 - o_h) * sizeof(cuzk_g1_affine_t));
    cuzk_g16_fb1_mul_many(p1, &t1, k1, n1, threads);
    cuzk_g16_fb2_mul_many(p2, &t2, k2, n2, threads);

    pk->conv = snark ? CUZK_GROTH16_SNARKJS : CUZK_GROTH16_BELLPERSON;
    pk->vk.alpha_g1 = p1[0];
    pk->vk.beta_g1 = p1[1];
    pk->vk.delta_g1 = p1[2];
    pk->vk.beta_g2 = p2[0];
    pk->vk.gamma_g2 = p2[1];
    pk->vk.delta_g2 = p2[2];
    pk->vk.ic = p1 + o_ic;
    pk->vk.num_inputs = ni;
    pk->num_aux = na;
    pk->domain_size = n;
    pk->h = p1 + o_h;
    pk->h_len = len[CUZK_G16_SEC_H];
    pk->l = p1 + o_l;
    pk->l_len = na;
    pk->a = p1 + o_a;
    pk->a_len = len[CUZK_G16_SEC_A];
    pk->b_g1 = p1 + o_b;
    pk->b_len = len[CUZK_G16_SEC_B];
    pk->b_g2 = p2 + 3;
    pk->circuit = own;
    pk->storage = block;
    block = NULL;

done:
    cuzk_g16_setup_scalars_free(&sc);
    cuzk_g16_fb1_table_free(&t1);
    cuzk_g16_fb2_table_free(&t2);
    if (k1 != NULL) explicit_bzero(k1, 3 * sizeof *k1);
    if (k2 != NULL) explicit_bzero(k2, 3 * sizeof *k2);
    free(k1);
    free(k2);
    free(block);
    return s;
}
