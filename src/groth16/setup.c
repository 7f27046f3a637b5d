/* A Groth16 key from toxic waste the caller knows or that is drawn here: for tests and benchmarks, not a ceremony.
 *
 * Both conventions evaluate the QAP polynomials of every variable at τ through the Lagrange basis of the domain:
 *   L_i(τ) = (τ^n − 1)/n · ω^i/(τ − ω^i)                    (one batch inversion for all i < n)
 *   u_j(τ) = Σ_row A[row][j]·L_row(τ) + [j input]·L_{m+j}(τ), v_j from B, w_j from C
 * (one pass over the CSR entries, scattering into the columns), then scale the generators by fixed-base
 * multiplication: per group one table of window multiples of the generator, all points of that group in one
 * multi-threaded call, normalized to affine in batches (fixed_base.c). */
#include <stdlib.h>
#include <string.h>

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
            return g16_fail(err, CUZK_ERR_INVALID_ARG, "given gamma or delta is zero");
        if (!g16_tau_outside_domain(&t->tau, order))
            return g16_fail(err, CUZK_ERR_INVALID_ARG, "given tau lies in the evaluation domain");
        return CUZK_OK;
    }
    fr_t *all[5] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta};
    for (int i = 0; i < 5; i++) {
        do {
            if (g16_random_fr(all[i]) != CUZK_OK) return g16_fail(err, CUZK_ERR_IO, "OS random source failed");
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

/* u, v, w (num_vars each, zeroed by the caller) at τ from the matrices and the input rows m .. m + inputs − 1. */
static void setup_qap(fr_t *u, fr_t *v, fr_t *w, const r1cs_t *c, const fr_t *lag)
{
    fr_t *out[3] = {u, v, w};
    for (int k = 0; k < 3; k++) {
        const r1cs_matrix *m = &c->m[k];
        for (uint64_t row = 0; row < c->num_constraints; row++) {
            const fr_t *l = &lag[row];
            for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
                fr_t *dst = &out[k][m->col[e]];
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
    for (uint64_t i = 0; i < c->num_inputs; i++) fr_add(&u[i], &u[i], &lag[c->num_constraints + i]);
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
    if (pk == NULL || circuit == NULL || opts == NULL) return g16_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    memset(pk, 0, sizeof *pk);
    groth16_convention conv = opts->conv == 0 ? GROTH16_BELLPERSON : opts->conv;
    if (conv != GROTH16_BELLPERSON && conv != GROTH16_SNARKJS)
        return g16_fail(err, CUZK_ERR_INVALID_ARG, "unknown convention %d", (int)opts->conv);
    bool snark = conv == GROTH16_SNARKJS;
    unsigned threads = opts->threads ? opts->threads : 1;

    uint64_t ni = circuit->num_inputs, na = circuit->num_aux, nv = ni + na, m = circuit->num_constraints;
    unsigned log2n = g16_log2_ceil(m + ni);
    if (log2n > NTT_MAX_LOG2)
        return g16_fail(err, CUZK_ERR_TOO_LARGE, "%llu rows + %llu inputs exceed the largest domain 2^%d",
                        (unsigned long long)m, (unsigned long long)ni, NTT_MAX_LOG2);
    uint64_t n = (uint64_t)1 << log2n;

    setup_toxic tx;
    cuzk_status s = setup_draw_toxic(&tx, opts, snark, snark ? 2 * n : n, err);
    if (s != CUZK_OK) return s;

    uint64_t a_len = nv, b_len = nv, h_len = snark ? n : n - 1;
    if (!snark) {
        a_len = ni + g16_popcount(circuit->a_aux_density, na);
        b_len = g16_popcount(circuit->b_input_density, ni) + g16_popcount(circuit->b_aux_density, na);
    }
    /* scalars of every point, in the order of the storage block:
     * G1: α, β, δ, ic[ni], h[h_len], l[na], a[a_len], b_g1[b_len];  G2: β, γ, δ, b_g2[b_len] */
    uint64_t o_ic = 3, o_h = o_ic + ni, o_l = o_h + h_len, o_a = o_l + na, o_b = o_a + a_len, n1 = o_b + b_len;
    uint64_t n2 = 3 + b_len;
    fr_t *lag = malloc(n * sizeof *lag), *scratch = malloc(n * sizeof *scratch);
    fr_t *uvw = calloc(3 * nv, sizeof *uvw);
    fr_t *k1 = malloc(n1 * sizeof *k1), *k2 = malloc(n2 * sizeof *k2);
    uint8_t *block = malloc(n1 * sizeof(g1_affine_t) + n2 * sizeof(g2_affine_t));
    g16_fb1_table t1 = {0};
    g16_fb2_table t2 = {0};
    r1cs_t *own = NULL;
    if (lag == NULL || scratch == NULL || uvw == NULL || k1 == NULL || k2 == NULL || block == NULL) {
        s = g16_fail(err, CUZK_ERR_NOMEM, "cannot allocate the setup of %llu variables", (unsigned long long)nv);
        goto done;
    }
    fr_t *u = uvw, *v = uvw + nv, *w = uvw + 2 * nv;

    fr_t omega, one, c, gamma_inv, delta_inv;
    fr_set_one(&one);
    fr_root_of_unity(&omega, log2n, snark ? FR_ROOTS_GEN5 : FR_ROOTS_GEN7);
    g16_vanishing_over(&c, &tx.tau, n);
    g16_lagrange(lag, scratch, n, &one, &omega, &tx.tau, &c);
    setup_qap(u, v, w, circuit, lag);
    fr_inv_vartime(&gamma_inv, &tx.gamma);
    fr_inv_vartime(&delta_inv, &tx.delta);

    k1[0] = tx.alpha;
    k1[1] = tx.beta;
    k1[2] = tx.delta;
    k2[0] = tx.beta;
    k2[1] = tx.gamma;
    k2[2] = tx.delta;
    /* ic and l: (β·u + α·v + w) over γ and over δ */
    for (uint64_t j = 0; j < nv; j++) {
        fr_t t, x;
        fr_mul(&t, &tx.beta, &u[j]);
        fr_mul(&x, &tx.alpha, &v[j]);
        fr_add(&t, &t, &x);
        fr_add(&t, &t, &w[j]);
        if (j < ni)
            fr_mul(&k1[o_ic + j], &t, &gamma_inv);
        else
            fr_mul(&k1[o_l + j - ni], &t, &delta_inv);
    }
    if (!snark) {
        /* h_i = τ^i·Z(τ)/δ, Z(τ) = τ^n − 1 */
        fr_t z;
        fr_pow(&z, &tx.tau, &n, 1);
        fr_sub(&z, &z, &one);
        fr_mul(&z, &z, &delta_inv);
        for (uint64_t i = 0; i < h_len; i++) {
            k1[o_h + i] = z;
            fr_mul(&z, &z, &tx.tau);
        }
    } else {
        /* h_j = L^{2n}_{2j+1}(τ)/δ: the odd points ω_2n^(2j+1) = ω_2n·ω_n^j of the 2n domain */
        fr_t w2n;
        fr_root_of_unity(&w2n, log2n + 1, FR_ROOTS_GEN5);
        g16_vanishing_over(&c, &tx.tau, 2 * n);
        fr_mul(&c, &c, &delta_inv);
        g16_lagrange(&k1[o_h], scratch, n, &w2n, &omega, &tx.tau, &c);
    }
    uint64_t pa = 0, pb = 0;
    for (uint64_t j = 0; j < nv; j++) {
        bool in_a = snark || j < ni || r1cs_density_get(circuit->a_aux_density, j - ni);
        bool in_b = snark || (j < ni ? r1cs_density_get(circuit->b_input_density, j)
                                     : r1cs_density_get(circuit->b_aux_density, j - ni));
        if (in_a) k1[o_a + pa++] = u[j];
        if (in_b) {
            k1[o_b + pb] = v[j];
            k2[3 + pb++] = v[j];
        }
    }

    s = g16_fb1_table_build(&t1, n1);
    if (s == CUZK_OK) s = g16_fb2_table_build(&t2, n2);
    if (s == CUZK_OK && snark) s = setup_snarkjs_matrices(circuit, &own);
    if (s != CUZK_OK) {
        g16_fail(err, s, "cannot build the setup tables or matrices");
        goto done;
    }
    g1_affine_t *p1 = (g1_affine_t *)block;
    g2_affine_t *p2 = (g2_affine_t *)(block + n1 * sizeof(g1_affine_t));
    g16_fb1_mul_many(p1, &t1, k1, n1, threads);
    g16_fb2_mul_many(p2, &t2, k2, n2, threads);

    pk->conv = conv;
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
    pk->h_len = h_len;
    pk->l = p1 + o_l;
    pk->l_len = na;
    pk->a = p1 + o_a;
    pk->a_len = a_len;
    pk->b_g1 = p1 + o_b;
    pk->b_len = b_len;
    pk->b_g2 = p2 + 3;
    pk->circuit = own;
    pk->storage = block;
    block = NULL;

done:
    explicit_bzero(&tx, sizeof tx);
    g16_fb1_table_free(&t1);
    g16_fb2_table_free(&t2);
    free(lag);
    free(scratch);
    free(uvw);
    free(k1);
    free(k2);
    free(block);
    return s;
}
