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

#include "../ntt/ntt_internal.h"
#include "g16_internal.h"

typedef struct {
    fr_t tau, alpha, beta, gamma, delta;
} setup_toxic;

bool g16_tau_outside_domain(const fr_t *tau, uint64_t order)
{
    fr_t t;
    fr_pow(&t, tau, &order, 1);
    return !fr_is_one(&t);
}

static cuzk_status setup_draw_toxic(setup_toxic *t, const groth16_setup_opts *o, bool snarkjs, uint64_t order,
                                    cuzk_errmsg *err)
{
    if (o->given_toxic) {
        t->tau = o->tau;
        t->alpha = o->alpha;
        t->beta = o->beta;
        t->gamma = o->gamma;
        t->delta = o->delta;
        if (snarkjs) fr_set_one(&t->gamma);
        if (fr_is_zero(&t->gamma) || fr_is_zero(&t->delta))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "given gamma or delta is zero");
        if (!g16_tau_outside_domain(&t->tau, order))
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "given tau lies in the evaluation domain");
        return CUZK_OK;
    }
    fr_t *all[5] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta};
    for (int i = 0; i < 5; i++) {
        do {
            if (g16_random_fr(all[i]) != CUZK_OK) return cuzk_fail(err, CUZK_ERR_IO, "OS random source failed");
        } while (fr_is_zero(all[i]) || (i == 0 && !g16_tau_outside_domain(all[i], order)));
    }
    if (snarkjs) fr_set_one(&t->gamma);
    return CUZK_OK;
}

void g16_lagrange(fr_t *out, fr_t *scratch, size_t n, const fr_t *g, const fr_t *omega, const fr_t *tau,
                  const fr_t *c)
{
    fr_t x = *g;
    for (size_t j = 0; j < n; j++) {
        fr_sub(&out[j], tau, &x);
        fr_mul(&x, &x, omega);
    }
    fr_batch_inv(out, out, n, scratch);
    x = *g;
    for (size_t j = 0; j < n; j++) {
        fr_t t;
        fr_mul(&t, c, &x);
        fr_mul(&out[j], &out[j], &t);
        fr_mul(&x, &x, omega);
    }
}

typedef struct {
    fr_t *out, *scratch;
    const fr_t *g, *omega, *tau, *c;
} lagrange_job;

static void lagrange_range(void *ctx, size_t lo, size_t hi)
{
    const lagrange_job *j = ctx;
    fr_t x;
    uint64_t e = lo;
    fr_pow(&x, j->omega, &e, 1);
    fr_mul(&x, &x, j->g);
    g16_lagrange(j->out + lo, j->scratch + lo, hi - lo, &x, j->omega, j->tau, j->c);
}

void g16_lagrange_par(fr_t *out, fr_t *scratch, size_t n, const fr_t *g, const fr_t *omega, const fr_t *tau,
                      const fr_t *c, unsigned threads)
{
    lagrange_job j = {out, scratch, g, omega, tau, c};
    ntt_par_for(threads ? threads : 1, n, 1u << 12, lagrange_range, &j);
}

void g16_vanishing_over(fr_t *r, const fr_t *tau, uint64_t e)
{
    fr_t one, inv;
    fr_set_one(&one);
    fr_pow(r, tau, &e, 1);
    fr_sub(r, r, &one);
    fr_from_u64(&inv, e);
    fr_inv_vartime(&inv, &inv);
    fr_mul(r, r, &inv);
}

/* ---- the scalars ------------------------------------------------------------------------------------------------- */

/* u, v, w (num_vars each, zeroed by the caller) at τ from the matrices and the input rows m .. m + inputs − 1.
 * A column is written by entries of any row, so the work is split by columns: each task scans every entry and
 * keeps those of its column range (the scan is cheap next to the multiplications, and no two tasks write the same
 * element). */
typedef struct {
    fr_t *out[3];
    const r1cs_t *c;
    const fr_t *lag;
    uint64_t nv, tasks;
} qap_job;

static void qap_range(void *ctx, size_t t0, size_t t1)
{
    const qap_job *j = ctx;
    const r1cs_t *c = j->c;
    uint64_t lo = j->nv * t0 / j->tasks, hi = j->nv * t1 / j->tasks;
    uint32_t width = (uint32_t)(hi - lo);
    if (width == 0) return;
    for (int k = 0; k < 3; k++) {
        const r1cs_matrix *m = &c->m[k];
        fr_t *out = j->out[k];
        for (uint64_t row = 0; row < c->num_constraints; row++) {
            const fr_t *l = &j->lag[row];
            for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
                uint32_t col = m->col[e];
                if ((uint32_t)(col - (uint32_t)lo) >= width) continue;
                fr_t *dst = &out[col];
                uint32_t id = m->coef[e];
                if (id == R1CS_COEF_ONE) {
                    fr_add(dst, dst, l);
                } else if (id == R1CS_COEF_MINUS_ONE) {
                    fr_sub(dst, dst, l);
                } else {
                    fr_t t;
                    fr_mul(&t, &c->values[id], l);
                    fr_add(dst, dst, &t);
                }
            }
        }
    }
}

static void setup_qap(fr_t *u, fr_t *v, fr_t *w, const r1cs_t *c, const fr_t *lag, unsigned threads)
{
    qap_job j = {{u, v, w}, c, lag, r1cs_num_vars(c), threads};
    ntt_par_for(threads, threads, 1, qap_range, &j);
    for (uint64_t i = 0; i < c->num_inputs; i++) fr_add(&u[i], &u[i], &lag[c->num_constraints + i]);
}

/* icl[j] = (β·u_j + α·v_j + w_j)/γ for the inputs, /δ for the aux variables (in place over w) */
typedef struct {
    fr_t *icl;
    const fr_t *u, *v, *alpha, *beta, *gamma_inv, *delta_inv;
    uint64_t ni;
} icl_job;

static void icl_range(void *ctx, size_t lo, size_t hi)
{
    const icl_job *j = ctx;
    for (size_t i = lo; i < hi; i++) {
        fr_t t, x;
        fr_mul(&t, j->beta, &j->u[i]);
        fr_mul(&x, j->alpha, &j->v[i]);
        fr_add(&t, &t, &x);
        fr_add(&t, &t, &j->icl[i]);
        fr_mul(&j->icl[i], &t, i < j->ni ? j->gamma_inv : j->delta_inv);
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

cuzk_status g16_positions(uint32_t **out, uint64_t *count, const uint64_t *in_bits, uint64_t ni,
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
    for (uint64_t i = 0; i < ni; i++) inputs += in_bits == NULL || r1cs_density_get(in_bits, i);
    /* count pass: each chunk's positions, then their offsets; the table is sized from them */
    pos_job j = {NULL, aux_bits, ni, na, words, (words + chunks - 1) / chunks, base, false};
    uint64_t p = inputs;
    if (words > 0) {
        ntt_par_for(threads, chunks, 1, pos_range, &j);
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
        if (in_bits == NULL || r1cs_density_get(in_bits, i)) j.out[q++] = (uint32_t)i;
    if (words > 0) {
        j.write = true;
        ntt_par_for(threads, chunks, 1, pos_range, &j);
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
    cuzk_status st = g16_positions(out, &count, in_bits, ni, aux_bits, na, threads);
    if (st == CUZK_OK && count != len) {
        free(*out);
        *out = NULL;
        st = CUZK_ERR_R1CS_DENSITY;
    }
    return st;
}

void g16_setup_scalars_free(g16_setup_scalars *s)
{
    free(s->u);
    free(s->h);
    free(s->a_vars);
    free(s->b_vars);
    explicit_bzero(s, sizeof *s);
}

cuzk_status g16_setup_scalars_make(g16_setup_scalars *s, const r1cs_t *circuit, const groth16_setup_opts *opts,
                                   unsigned threads, cuzk_errmsg *err)
{
    memset(s, 0, sizeof *s);
    groth16_convention conv = opts->conv == 0 ? GROTH16_BELLPERSON : opts->conv;
    if (conv != GROTH16_BELLPERSON && conv != GROTH16_SNARKJS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "unknown convention %d", (int)opts->conv);
    bool snark = conv == GROTH16_SNARKJS;
    threads = threads ? threads : 1;

    uint64_t ni = circuit->num_inputs, na = circuit->num_aux, nv = ni + na, m = circuit->num_constraints;
    unsigned log2n = g16_log2_ceil(m + ni);
    if (log2n > NTT_MAX_LOG2)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "%llu rows + %llu inputs exceed the largest domain 2^%d",
                         (unsigned long long)m, (unsigned long long)ni, NTT_MAX_LOG2);
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
    s->len[G16_SEC_IC] = ni;
    s->len[G16_SEC_H] = snark ? n : n - 1;
    s->len[G16_SEC_L] = na;
    s->len[G16_SEC_A] = snark ? nv : ni + g16_popcount(circuit->a_aux_density, na);
    s->len[G16_SEC_B] = snark ? nv : g16_popcount(circuit->b_input_density, ni) +
                                         g16_popcount(circuit->b_aux_density, na);

    fr_t *lag = malloc(n * sizeof *lag), *scratch = malloc(n * sizeof *scratch);
    s->u = calloc(3 * nv, sizeof *s->u);
    if (snark) s->h = malloc(n * sizeof *s->h);
    if (lag == NULL || scratch == NULL || s->u == NULL || (snark && s->h == NULL)) {
        free(lag);
        free(scratch);
        g16_setup_scalars_free(s);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "cannot allocate the setup of %llu variables", (unsigned long long)nv);
    }
    s->v = s->u + nv;
    s->icl = s->u + 2 * nv;

    fr_t omega, one, c, gamma_inv, delta_inv;
    fr_set_one(&one);
    fr_root_of_unity(&omega, log2n, snark ? FR_ROOTS_GEN5 : FR_ROOTS_GEN7);
    g16_vanishing_over(&c, &s->tau, n);
    g16_lagrange_par(lag, scratch, n, &one, &omega, &s->tau, &c, threads);
    setup_qap(s->u, s->v, s->icl, circuit, lag, threads);
    free(lag);
    fr_inv_vartime(&gamma_inv, &s->gamma);
    fr_inv_vartime(&delta_inv, &s->delta);
    icl_job ij = {s->icl, s->u, s->v, &s->alpha, &s->beta, &gamma_inv, &delta_inv, ni};
    ntt_par_for(threads, nv, 1u << 12, icl_range, &ij);

    if (!snark) {
        /* h_i = τ^i·Z(τ)/δ, Z(τ) = τ^n − 1 */
        fr_pow(&s->h0, &s->tau, &n, 1);
        fr_sub(&s->h0, &s->h0, &one);
        fr_mul(&s->h0, &s->h0, &delta_inv);
    } else {
        /* h_j = L^{2n}_{2j+1}(τ)/δ: the odd points ω_2n^(2j+1) = ω_2n·ω_n^j of the 2n domain */
        fr_t w2n;
        fr_root_of_unity(&w2n, log2n + 1, FR_ROOTS_GEN5);
        g16_vanishing_over(&c, &s->tau, 2 * n);
        fr_mul(&c, &c, &delta_inv);
        g16_lagrange_par(s->h, scratch, n, &w2n, &omega, &s->tau, &c, threads);
    }
    free(scratch);
    explicit_bzero(&gamma_inv, sizeof gamma_inv);
    explicit_bzero(&delta_inv, sizeof delta_inv);
    if (!snark) {
        st = setup_positions(&s->a_vars, s->len[G16_SEC_A], NULL, ni, circuit->a_aux_density, na, threads);
        if (st == CUZK_OK)
            st = setup_positions(&s->b_vars, s->len[G16_SEC_B], circuit->b_input_density, ni,
                                 circuit->b_aux_density, na, threads);
        if (st != CUZK_OK) {
            g16_setup_scalars_free(s);
            return cuzk_fail(err, st, st == CUZK_ERR_NOMEM ? "cannot allocate the setup's position tables"
                                                           : "density bitmaps disagree with their counts");
        }
    }
    return CUZK_OK;
}

typedef struct {
    const g16_setup_scalars *s;
    int sec;
    uint64_t lo;
    fr_t *out;
} fill_job;

static void fill_range(void *ctx, size_t a, size_t b)
{
    const fill_job *j = ctx;
    const g16_setup_scalars *s = j->s;
    uint64_t lo = j->lo;
    fr_t *out = j->out;
    switch (j->sec) {
    case G16_SEC_IC: memcpy(out + a, s->icl + lo + a, (b - a) * sizeof *out); break;
    case G16_SEC_L: memcpy(out + a, s->icl + s->ni + lo + a, (b - a) * sizeof *out); break;
    case G16_SEC_H:
        if (s->h != NULL) {
            memcpy(out + a, s->h + lo + a, (b - a) * sizeof *out);
        } else {
            fr_t x;
            uint64_t e = lo + a;
            fr_pow(&x, &s->tau, &e, 1);
            fr_mul(&x, &x, &s->h0);
            for (size_t i = a; i < b; i++) {
                out[i] = x;
                fr_mul(&x, &x, &s->tau);
            }
        }
        break;
    case G16_SEC_A:
    case G16_SEC_B: {
        const fr_t *src = j->sec == G16_SEC_A ? s->u : s->v;
        const uint32_t *pos = j->sec == G16_SEC_A ? s->a_vars : s->b_vars;
        for (size_t i = a; i < b; i++) out[i] = src[pos != NULL ? pos[lo + i] : lo + i];
        break;
    }
    }
}

void g16_setup_scalars_fill(const g16_setup_scalars *s, int sec, uint64_t lo, uint64_t hi, fr_t *out)
{
    fill_job j = {s, sec, lo, out};
    if (hi > lo) ntt_par_for(s->threads ? s->threads : 1, hi - lo, 1u << 14, fill_range, &j);
}

/* A zkey's matrices: the circuit's A and B rows, then row m + i with A = z_i for every input, and no C. */
static cuzk_status setup_snarkjs_matrices(const r1cs_t *c, r1cs_t **out)
{
    *out = NULL;
    r1cs_builder *b = r1cs_builder_new(c->num_inputs);
    if (b == NULL) return CUZK_ERR_NOMEM;
    cuzk_status s = CUZK_OK;
    r1cs_var first;
    if (c->num_aux > 0) s = r1cs_builder_alloc_aux_n(b, c->num_aux, &first);
    uint64_t longest = 1;
    for (int k = 0; k < 2; k++)
        for (uint64_t row = 0; row < c->num_constraints; row++) {
            uint64_t len = c->m[k].row_ptr[row + 1] - c->m[k].row_ptr[row];
            if (len > longest) longest = len;
        }
    r1cs_term *t[2] = {malloc(longest * sizeof(r1cs_term)), malloc(longest * sizeof(r1cs_term))};
    if (t[0] == NULL || t[1] == NULL) s = CUZK_ERR_NOMEM;
    for (uint64_t row = 0; s == CUZK_OK && row < c->num_constraints; row++) {
        size_t len[2] = {0, 0};
        for (int k = 0; k < 2; k++) {
            const r1cs_matrix *m = &c->m[k];
            for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
                uint32_t col = m->col[e];
                r1cs_term *term = &t[k][len[k]++];
                term->var = col < c->num_inputs ? R1CS_INPUT(col) : R1CS_AUX(col - c->num_inputs);
                term->coeff = c->values[m->coef[e]];
            }
        }
        s = r1cs_builder_enforce(b, t[0], len[0], t[1], len[1], NULL, 0);
    }
    for (uint32_t i = 0; s == CUZK_OK && i < c->num_inputs; i++) {
        r1cs_term one = {R1CS_INPUT(i), {{0}}};
        fr_set_one(&one.coeff);
        s = r1cs_builder_enforce(b, &one, 1, NULL, 0, NULL, 0);
    }
    free(t[0]);
    free(t[1]);
    if (s != CUZK_OK) {
        r1cs_builder_free(b);
        return s;
    }
    return r1cs_builder_finish(b, out);
}

cuzk_status groth16_setup(groth16_pk *pk, const r1cs_t *circuit, const groth16_setup_opts *opts, cuzk_errmsg *err)
{
    if (pk == NULL || circuit == NULL || opts == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    memset(pk, 0, sizeof *pk);
    unsigned threads = opts->threads ? opts->threads : 1;
    g16_setup_scalars sc;
    cuzk_status s = g16_setup_scalars_make(&sc, circuit, opts, threads, err);
    if (s != CUZK_OK) return s;
    bool snark = sc.conv == GROTH16_SNARKJS;
    uint64_t len[G16_SEC_COUNT], n = sc.n;
    memcpy(len, sc.len, sizeof len);
    uint64_t ni = sc.ni, na = sc.na, nv = sc.nv;

    /* scalars of every point, in the order of the storage block:
     * G1: α, β, δ, ic[ni], h[h_len], l[na], a[a_len], b_g1[b_len];  G2: β, γ, δ, b_g2[b_len] */
    uint64_t o_ic = 3, o_h = o_ic + len[G16_SEC_IC], o_l = o_h + len[G16_SEC_H], o_a = o_l + len[G16_SEC_L];
    uint64_t o_b = o_a + len[G16_SEC_A], n1 = o_b + len[G16_SEC_B];
    uint64_t n2 = 3 + len[G16_SEC_B];
    fr_t *k1 = malloc(n1 * sizeof *k1), *k2 = malloc(n2 * sizeof *k2);
    uint8_t *block = malloc(n1 * sizeof(g1_affine_t) + n2 * sizeof(g2_affine_t));
    g16_fb1_table t1 = {0};
    g16_fb2_table t2 = {0};
    r1cs_t *own = NULL;
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
    const uint64_t off[G16_SEC_COUNT] = {o_ic, o_h, o_l, o_a, o_b};
    for (int sec = 0; sec < G16_SEC_COUNT; sec++) g16_setup_scalars_fill(&sc, sec, 0, len[sec], k1 + off[sec]);
    memcpy(k2 + 3, k1 + o_b, len[G16_SEC_B] * sizeof *k2);
    g16_setup_scalars_free(&sc);

    s = g16_fb1_table_build(&t1, n1);
    if (s == CUZK_OK) s = g16_fb2_table_build(&t2, n2);
    if (s == CUZK_OK && snark) s = setup_snarkjs_matrices(circuit, &own);
    if (s != CUZK_OK) {
        cuzk_fail(err, s, "cannot build the setup tables or matrices");
        goto done;
    }
    g1_affine_t *p1 = (g1_affine_t *)block;
    g2_affine_t *p2 = (g2_affine_t *)(block + n1 * sizeof(g1_affine_t));
    g16_fb1_mul_many(p1, &t1, k1, n1, threads);
    g16_fb2_mul_many(p2, &t2, k2, n2, threads);

    pk->conv = snark ? GROTH16_SNARKJS : GROTH16_BELLPERSON;
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
    pk->h_len = len[G16_SEC_H];
    pk->l = p1 + o_l;
    pk->l_len = na;
    pk->a = p1 + o_a;
    pk->a_len = len[G16_SEC_A];
    pk->b_g1 = p1 + o_b;
    pk->b_len = len[G16_SEC_B];
    pk->b_g2 = p2 + 3;
    pk->circuit = own;
    pk->storage = block;
    block = NULL;

done:
    g16_setup_scalars_free(&sc);
    g16_fb1_table_free(&t1);
    g16_fb2_table_free(&t2);
    if (k1 != NULL) explicit_bzero(k1, 3 * sizeof *k1);
    if (k2 != NULL) explicit_bzero(k2, 3 * sizeof *k2);
    free(k1);
    free(k2);
    free(block);
    return s;
}
