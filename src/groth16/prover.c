/* The Groth16 prover: synthesis by sparse evaluation, the H polynomial, five MSMs and the proof assembly.
 *
 * With the key's points (implicitly multiplied by the toxic waste) and the witness z:
 *   A_msm  = Σ z_j·a_j       (u_j(τ)·G1)          B1_msm = Σ z_j·b_g1_j   (v_j(τ)·G1)
 *   B2_msm = Σ z_j·b_g2_j    (v_j(τ)·G2)          L_msm  = Σ_aux z_j·l_j  ((β·u_j + α·v_j + w_j)/δ·G1)
 *   H_msm  = Σ h_i·h_pts_i   (H(τ)·Z(τ)/δ·G1)
 * and random r, s, the proof is
 *   A = α1 + A_msm + r·δ1
 *   B = β2 + B2_msm + s·δ2
 *   C = L_msm + H_msm + s·(α1 + A_msm) + r·(β1 + B1_msm) + r·s·δ1
 * The last line is the paper's C = L + H + s·A + r·B1 − r·s·δ1 with A and B1 = β1 + B1_msm + s·δ1 expanded:
 * s·A + r·B1 − r·s·δ1 = s·α1 + s·A_msm + r·s·δ1 + r·β1 + r·B1_msm + r·s·δ1 − r·s·δ1. Written this way it needs
 * three constant-time multiplications in G1 besides r·δ1, and none of them touches a point derived from r or s.
 *
 * The MSMs over the witness (A, B1, B2, L) see mostly 0 and 1 in Filecoin circuits (bits): zeros are skipped,
 * ones go to a bitmap batch addition, and only the remaining (base, scalar) pairs enter Pippenger. */
#include <stdlib.h>
#include <string.h>

#include "../msm/msm_internal.h"
#include "../ntt/ntt_internal.h"
#include "g16_internal.h"

/* The scalars of one MSM, split by value. Positions count the selected variables only, in order, which is how
 * the key's bases are laid out. */
typedef struct {
    uint64_t n;      /* selected positions = key bases */
    uint64_t *ones;  /* bit p set: scalar at position p is 1 */
    uint64_t *idx;   /* positions of the scalars other than 0 and 1 */
    fr_t *tail;      /* those scalars */
    uint64_t n_tail;
} prove_split;

static void split_free(prove_split *sp)
{
    free(sp->ones);
    free(sp->idx);
    free(sp->tail);
    memset(sp, 0, sizeof *sp);
}

/* The split is built in parallel over fixed chunks of variables, in two passes: count (selected positions and
 * other scalars per chunk), then, at offsets from the prefix sums, fill. Chunks may share a bitmap word at their
 * edges, so each chunk gathers a word's bits locally and ORs it in atomically once per word. */
#define SPLIT_CHUNK 1024

typedef struct {
    prove_split *sp;
    const fr_t *z;
    uint64_t ni, na;
    const uint64_t *in_bits, *aux_bits;
    uint64_t *pos, *tail; /* per chunk: counts after pass 1, start offsets for pass 2 */
    bool fill;
} split_job;

static bool split_selected(const split_job *j, uint64_t v)
{
    const uint64_t *bits = v < j->ni ? j->in_bits : j->aux_bits;
    return bits == NULL || r1cs_density_get(bits, v < j->ni ? v : v - j->ni);
}

static void split_chunks(void *arg, size_t lo, size_t hi)
{
    split_job *j = arg;
    prove_split *sp = j->sp;
    uint64_t nv = j->ni + j->na;
    for (size_t ch = lo; ch < hi; ch++) {
        uint64_t v0 = (uint64_t)ch * SPLIT_CHUNK, v1 = v0 + SPLIT_CHUNK < nv ? v0 + SPLIT_CHUNK : nv;
        uint64_t p = j->fill ? j->pos[ch] : 0, t = j->fill ? j->tail[ch] : 0;
        uint64_t word = UINT64_MAX, bits = 0;
        for (uint64_t v = v0; v < v1; v++) {
            if (!split_selected(j, v)) continue;
            const fr_t *x = &j->z[v];
            if (fr_is_zero(x)) {
            } else if (fr_is_one(x)) {
                if (j->fill) {
                    if (p >> 6 != word) {
                        if (bits) __atomic_fetch_or(&sp->ones[word], bits, __ATOMIC_RELAXED);
                        word = p >> 6;
                        bits = 0;
                    }
                    bits |= 1ULL << (p & 63);
                }
            } else {
                if (j->fill) {
                    sp->idx[t] = p;
                    sp->tail[t] = *x;
                }
                t++;
            }
            p++;
        }
        if (j->fill) {
            if (bits) __atomic_fetch_or(&sp->ones[word], bits, __ATOMIC_RELAXED);
        } else {
            j->pos[ch] = p;
            j->tail[ch] = t;
        }
    }
}

/* Visits the variables z[0..ni) then z[ni..ni+na), keeping input i when in_bits is NULL or has bit i, aux j when
 * aux_bits is NULL or has bit j. Memory is sized to what the count pass finds. */
static cuzk_status split_build(prove_split *sp, const fr_t *z, uint64_t ni, const uint64_t *in_bits, uint64_t na,
                               const uint64_t *aux_bits, unsigned threads)
{
    memset(sp, 0, sizeof *sp);
    size_t chunks = (size_t)((ni + na + SPLIT_CHUNK - 1) / SPLIT_CHUNK);
    split_job j = {sp, z, ni, na, in_bits, aux_bits, calloc(chunks + 1, sizeof(uint64_t)),
                   calloc(chunks + 1, sizeof(uint64_t)), false};
    if (j.pos == NULL || j.tail == NULL) goto nomem;
    ntt_par_for(threads, chunks, 1, split_chunks, &j);
    uint64_t n = 0, others = 0;
    for (size_t ch = 0; ch < chunks; ch++) {
        uint64_t cp = j.pos[ch], ct = j.tail[ch];
        j.pos[ch] = n;
        j.tail[ch] = others;
        n += cp;
        others += ct;
    }
    sp->ones = calloc(n / 64 + 1, sizeof *sp->ones);
    sp->idx = malloc((others ? others : 1) * sizeof *sp->idx);
    sp->tail = malloc((others ? others : 1) * sizeof *sp->tail);
    if (sp->ones == NULL || sp->idx == NULL || sp->tail == NULL) goto nomem;
    j.fill = true;
    ntt_par_for(threads, chunks, 1, split_chunks, &j);
    sp->n = n;
    sp->n_tail = others;
    free(j.pos);
    free(j.tail);
    return CUZK_OK;
nomem:
    free(j.pos);
    free(j.tail);
    split_free(sp);
    return CUZK_ERR_NOMEM;
}

/* r = Σ scalar_p·bases[p] over a split: batch addition of the ones plus an MSM over the gathered tail. Bases at
 * infinity are left out of the gather (snarkjs keys hold infinity in B for every signal absent from B: most of them
 * in a circuit like a multiplication chain), so their scalars cost nothing. */
#define SPLIT_MSM(G, AFF, JAC)                                                                                       \
    static cuzk_status split_msm_##G(JAC *r, const prove_split *sp, const AFF *bases, unsigned threads)          \
    {                                                                                                            \
        JAC ones, rest;                                                                                          \
        cuzk_status s = G##_batch_add(&ones, bases, sp->ones, sp->n, threads);                                   \
        if (s != CUZK_OK) return s;                                                                              \
        uint64_t cap = sp->n_tail ? sp->n_tail : 1, m = 0;                                                       \
        AFF *tb = malloc(cap * sizeof *tb);                                                                      \
        fr_t *ts = malloc(cap * sizeof *ts);                                                                     \
        if (tb == NULL || ts == NULL) {                                                                          \
            free(tb);                                                                                            \
            free(ts);                                                                                            \
            return CUZK_ERR_NOMEM;                                                                               \
        }                                                                                                        \
        for (uint64_t t = 0; t < sp->n_tail; t++) {                                                              \
            const AFF *p = &bases[sp->idx[t]];                                                                   \
            if (G##_affine_is_infinity(p)) continue;                                                             \
            tb[m] = *p;                                                                                          \
            ts[m++] = sp->tail[t];                                                                               \
        }                                                                                                        \
        s = G##_msm(&rest, tb, ts, m, threads);                                                                  \
        free(tb);                                                                                                \
        free(ts);                                                                                                \
        if (s != CUZK_OK) return s;                                                                              \
        G##_jac_add(r, &ones, &rest);                                                                            \
        return CUZK_OK;                                                                                          \
    }
SPLIT_MSM(g1, g1_affine_t, g1_jac_t)
SPLIT_MSM(g2, g2_affine_t, g2_jac_t)
#undef SPLIT_MSM

/* The evaluations a, b, c of the witness combinations on the domain (n elements each, zero past the rows). */
static cuzk_status prove_synthesize(const groth16_pk *pk, const r1cs_t *circuit, const fr_t *z, r1cs_c_mode mode,
                                    unsigned threads, fr_t *a, fr_t *b, fr_t *c, cuzk_errmsg *err)
{
    uint64_t bad = 0;
    cuzk_status s;
    if (pk->conv == GROTH16_BELLPERSON) {
        s = r1cs_spmv(circuit, z, a, b, c, mode, threads, &bad);
        if (s == CUZK_ERR_R1CS_UNSATISFIED)
            return g16_fail(err, s, "witness does not satisfy constraint row %llu", (unsigned long long)bad);
        if (s != CUZK_OK) return g16_fail(err, s, "sparse evaluation failed");
        /* the input rows: A = z_i, B = C = 0, so that the key's a/ic points for inputs are linearly independent */
        uint64_t m = circuit->num_constraints;
        for (uint64_t i = 0; i < circuit->num_inputs; i++) a[m + i] = z[i];
        return CUZK_OK;
    }
    /* snarkjs keys hold A and B only (input rows included); C is taken as a∘b, as snarkjs does. The witness can be
     * checked only against a circuit that still has its C matrix. */
    if (mode == R1CS_C_CHECKED) {
        if (circuit == NULL || circuit == pk->circuit)
            return g16_fail(err, CUZK_ERR_INVALID_ARG,
                            "checking the witness needs the circuit with its C matrix (the snarkjs key has none)");
        s = r1cs_check(circuit, z, threads, &bad);
        if (s == CUZK_ERR_R1CS_UNSATISFIED)
            return g16_fail(err, s, "witness does not satisfy constraint row %llu", (unsigned long long)bad);
        if (s != CUZK_OK) return g16_fail(err, s, "witness check failed");
    }
    s = r1cs_spmv(pk->circuit, z, a, b, c, R1CS_C_PRODUCT, threads, NULL);
    if (s != CUZK_OK) return g16_fail(err, s, "sparse evaluation failed");
    return CUZK_OK;
}

typedef struct {
    g1_jac_t h, l, a, b1;
    g2_jac_t b2;
} prove_msms;

/* The four witness MSMs over the key's density layout. */
static cuzk_status prove_witness_msms(prove_msms *out, const groth16_pk *pk, const r1cs_t *circuit, const fr_t *z,
                                      unsigned threads, groth16_prove_stats *st)
{
    uint64_t ni = pk->vk.num_inputs, na = pk->num_aux;
    bool bell = pk->conv == GROTH16_BELLPERSON;
    prove_split sp;
    double t = g16_now();

    cuzk_status s = split_build(&sp, z + ni, 0, NULL, na, NULL, threads);
    if (s == CUZK_OK) s = split_msm_g1(&out->l, &sp, pk->l, threads);
    split_free(&sp);
    st->msm_l = g16_now() - t;
    if (s != CUZK_OK) return s;

    t = g16_now();
    s = split_build(&sp, z, ni, NULL, na, bell ? circuit->a_aux_density : NULL, threads);
    if (s == CUZK_OK) s = split_msm_g1(&out->a, &sp, pk->a, threads);
    split_free(&sp);
    st->msm_a = g16_now() - t;
    if (s != CUZK_OK) return s;

    /* B1 and B2 share their scalars, so they share the split */
    t = g16_now();
    s = split_build(&sp, z, ni, bell ? circuit->b_input_density : NULL, na, bell ? circuit->b_aux_density : NULL,
                    threads);
    if (s == CUZK_OK) s = split_msm_g1(&out->b1, &sp, pk->b_g1, threads);
    double t2 = g16_now();
    st->msm_b1 = t2 - t;
    if (s == CUZK_OK) s = split_msm_g2(&out->b2, &sp, pk->b_g2, threads);
    split_free(&sp);
    st->msm_b2 = g16_now() - t2;
    return s;
}

/* A, B, C from the MSM results and the secret r, s (constant-time multiplications for every term that holds them). */
static void prove_assemble(groth16_proof_t *proof, const groth16_vk *vk, const prove_msms *m, const fr_t *r,
                           const fr_t *s)
{
    g1_jac_t delta1, t, aa, bb, c;
    g2_jac_t delta2, b;
    fr_t rs;
    fr_mul(&rs, r, s);
    g1_jac_from_affine(&delta1, &vk->delta_g1);
    g2_jac_from_affine(&delta2, &vk->delta_g2);

    /* aa = α1 + A_msm, bb = β1 + B1_msm: public-looking sums the secret terms are built on */
    g1_jac_add_affine(&aa, &m->a, &vk->alpha_g1);
    g1_jac_add_affine(&bb, &m->b1, &vk->beta_g1);

    g1_jac_t a;
    g1_jac_mul_ct(&t, &delta1, r);
    g1_jac_add(&a, &aa, &t);

    g2_jac_mul_ct(&b, &delta2, s);
    g2_jac_add(&b, &b, &m->b2);
    g2_jac_add_affine(&b, &b, &vk->beta_g2);

    g1_jac_add(&c, &m->l, &m->h);
    g1_jac_mul_ct(&t, &aa, s);
    g1_jac_add(&c, &c, &t);
    g1_jac_mul_ct(&t, &bb, r);
    g1_jac_add(&c, &c, &t);
    g1_jac_mul_ct(&t, &delta1, &rs);
    g1_jac_add(&c, &c, &t);

    g1_jac_to_affine(&proof->a, &a);
    g2_jac_to_affine(&proof->b, &b);
    g1_jac_to_affine(&proof->c, &c);
    explicit_bzero(&rs, sizeof rs);
}

/* Arguments both steps check: the key fits the circuit, z[0] = 1, a known c_mode. */
static cuzk_status prove_check_args(const groth16_pk *pk, const r1cs_t *circuit, const fr_t *z,
                                    const groth16_prove_opts *o, cuzk_errmsg *err)
{
    if (pk == NULL || z == NULL) return g16_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (o->c_mode != R1CS_C_MATRIX && o->c_mode != R1CS_C_PRODUCT && o->c_mode != R1CS_C_CHECKED)
        return g16_fail(err, CUZK_ERR_INVALID_ARG, "unknown c_mode %d", (int)o->c_mode);
    cuzk_status s;
    if (pk->conv == GROTH16_BELLPERSON) {
        if (circuit == NULL) return g16_fail(err, CUZK_ERR_INVALID_ARG, "a bellperson key needs its circuit");
        s = groth16_pk_check_circuit(pk, circuit, err);
    } else {
        s = groth16_pk_check_circuit(pk, circuit != NULL ? circuit : pk->circuit, err);
    }
    if (s != CUZK_OK) return s;
    if (!fr_is_one(&z[0])) return g16_fail(err, CUZK_ERR_INVALID_ARG, "witness z[0] is not 1");
    return CUZK_OK;
}

static groth16_prove_opts prove_opts_or_default(const groth16_prove_opts *opts)
{
    groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    if (opts != NULL) o = *opts;
    if (o.threads == 0) o.threads = 1;
    return o;
}

void groth16_synthesis_free(groth16_synthesis *syn)
{
    if (syn == NULL) return;
    free(syn->a);
    free(syn->b);
    free(syn->c);
    memset(syn, 0, sizeof *syn);
}

cuzk_status groth16_synthesize(groth16_synthesis *syn, const groth16_pk *pk, const r1cs_t *circuit, const fr_t *z,
                               const groth16_prove_opts *opts, groth16_prove_stats *stats, cuzk_errmsg *err)
{
    double t = g16_now();
    if (syn == NULL) return g16_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    memset(syn, 0, sizeof *syn);
    groth16_prove_opts o = prove_opts_or_default(opts);
    cuzk_status s = prove_check_args(pk, circuit, z, &o, err);
    if (s != CUZK_OK) return s;

    uint64_t n = pk->domain_size;
    syn->n = n;
    syn->a = calloc(n, sizeof *syn->a);
    syn->b = calloc(n, sizeof *syn->b);
    syn->c = calloc(n, sizeof *syn->c);
    if (syn->a == NULL || syn->b == NULL || syn->c == NULL) {
        groth16_synthesis_free(syn);
        return g16_fail(err, CUZK_ERR_NOMEM, "cannot allocate 3 x %llu evaluations", (unsigned long long)n);
    }
    s = prove_synthesize(pk, circuit, z, o.c_mode, o.threads, syn->a, syn->b, syn->c, err);
    if (s != CUZK_OK) groth16_synthesis_free(syn);
    if (stats != NULL) {
        stats->spmv = g16_now() - t;
        stats->total = stats->spmv;
    }
    return s;
}

cuzk_status groth16_prove_from_synthesis(groth16_proof_t *proof, const groth16_pk *pk, const r1cs_t *circuit,
                                         const fr_t *z, groth16_synthesis *syn, const groth16_prove_opts *opts,
                                         groth16_prove_stats *stats, cuzk_errmsg *err)
{
    double t_start = g16_now();
    groth16_prove_stats st;
    memset(&st, 0, sizeof st);
    if (stats != NULL) st.spmv = stats->spmv; /* kept from groth16_synthesize when the caller passes the same one */
    groth16_prove_opts o = prove_opts_or_default(opts);
    unsigned threads = o.threads;
    cuzk_status s;
    if (proof == NULL || syn == NULL) {
        s = g16_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
        goto out;
    }
    s = prove_check_args(pk, circuit, z, &o, err);
    if (s != CUZK_OK) goto out;
    if (syn->a == NULL || syn->b == NULL || syn->c == NULL || syn->n != pk->domain_size) {
        s = g16_fail(err, CUZK_ERR_MISMATCH, "synthesis of %llu evaluations does not fit a key of domain %llu",
                     (unsigned long long)syn->n, (unsigned long long)pk->domain_size);
        goto out;
    }

    fr_t r, sv;
    if (o.given_rs) {
        r = o.r;
        sv = o.s;
    } else if (g16_random_fr(&r) != CUZK_OK || g16_random_fr(&sv) != CUZK_OK) {
        s = g16_fail(err, CUZK_ERR_IO, "OS random source failed");
        goto out;
    }

    uint64_t n = pk->domain_size;
    ntt_domain dom;
    memset(&dom, 0, sizeof dom);
    prove_msms m;

    double t = g16_now();
    s = ntt_domain_init(&dom, g16_log2_ceil(n), pk->conv == GROTH16_BELLPERSON ? FR_ROOTS_GEN7 : FR_ROOTS_GEN5);
    if (s != CUZK_OK) {
        g16_fail(err, s, "cannot build the evaluation domain of %llu", (unsigned long long)n);
        goto done;
    }
    if (pk->conv == GROTH16_BELLPERSON)
        ntt_h_bellperson(syn->a, syn->a, syn->b, syn->c, &dom, threads);
    else
        ntt_h_snarkjs(syn->a, syn->a, syn->b, syn->c, &dom, threads);
    st.ntt_h = g16_now() - t;
    /* b and c are scratch now; release them before the MSMs need their memory */
    free(syn->b);
    free(syn->c);
    syn->b = syn->c = NULL;

    t = g16_now();
    s = g1_msm(&m.h, pk->h, syn->a, pk->h_len, threads);
    st.msm_h = g16_now() - t;
    if (s != CUZK_OK) {
        g16_fail(err, s, "H multi-scalar multiplication failed");
        goto done;
    }
    free(syn->a);
    syn->a = NULL;

    s = prove_witness_msms(&m, pk, circuit, z, threads, &st);
    if (s != CUZK_OK) {
        g16_fail(err, s, "witness multi-scalar multiplication failed");
        goto done;
    }

    t = g16_now();
    prove_assemble(proof, &pk->vk, &m, &r, &sv);
    st.assembly = g16_now() - t;

done:
    explicit_bzero(&r, sizeof r);
    explicit_bzero(&sv, sizeof sv);
    ntt_domain_free(&dom);
out:
    groth16_synthesis_free(syn);
    st.total = st.spmv + (g16_now() - t_start);
    if (stats != NULL) *stats = st;
    return s;
}

cuzk_status groth16_prove(groth16_proof_t *proof, const groth16_pk *pk, const r1cs_t *circuit, const fr_t *z,
                          const groth16_prove_opts *opts, groth16_prove_stats *stats, cuzk_errmsg *err)
{
    groth16_prove_stats st;
    memset(&st, 0, sizeof st);
    groth16_synthesis syn;
    cuzk_status s = proof == NULL ? g16_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument")
                                  : groth16_synthesize(&syn, pk, circuit, z, opts, &st, err);
    if (s == CUZK_OK) s = groth16_prove_from_synthesis(proof, pk, circuit, z, &syn, opts, &st, err);
    if (stats != NULL) *stats = st;
    return s;
}

/* The peak of the allocations above, term by term (sizes in bytes, n = domain, v = variables, T = threads):
 *   synthesis     3·n·32                    a, b, c; b and c are freed after H, a after the H MSM
 *   domain        max(n/2, 1)·32            twiddles, alive through the MSMs
 *   MSM           (m+1)·32 + T·S(m) + K     the scalar copy and the per-worker scratch of the largest MSM, m =
 *                                           max(n, v) points; S(m) is bounded with the widest window the planner
 *                                           may choose, K = 128·T task sums (G2 XYZZ)
 *   0/1 split     v/8 + 8 + v·(8 + 32)      bitmap, positions and values of the non-0/1 scalars (at most v)
 *   gathered      v·(192 + 32)              the bases of the non-0/1 scalars (G2 in the B2 MSM) and their scalars
 * The terms never all coexist (the split lives after a, b, c are gone), so their sum bounds the peak from above
 * by at most about 2·n·32: close enough to admit work exactly, never below what is allocated. */
uint64_t groth16_prove_peak_bytes(uint64_t domain_size, uint64_t num_vars, unsigned threads)
{
    if (threads == 0) threads = 1;
    uint64_t n = domain_size, v = num_vars, m = n > v ? n : v;
    uint64_t fr = sizeof(fr_t);
    /* MSM_CHUNK is 4096 G1 or 2048 G2 points (msm/g1_msm.c, g2_msm.c): the G1 layout is the larger */
    uint64_t chunk = 4096;
    uint64_t scratch = chunk * sizeof(g1_affine_t) + chunk * sizeof(fp_t) + 5 * chunk * 4 + chunk +
                       (((uint64_t)1 << (MSM_MAX_WINDOW - 1)) + 1 + m) * 4 + 16 + 64;
    uint64_t tasks = (uint64_t)(MSM_SCALAR_BITS / 2) * threads; /* windows (c >= 2) times parts (<= threads) */
    uint64_t msm = (m + 1) * 32 + threads * scratch + tasks * sizeof(g2_xyzz_t);
    uint64_t split = v / 8 + 8 + v * (8 + fr);
    uint64_t gathered = v * (sizeof(g2_affine_t) + fr);
    uint64_t tw = (n / 2 ? n / 2 : 1) * fr;
    return 3 * n * fr + tw + msm + split + gathered;
}
