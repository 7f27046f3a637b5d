/* SPDX-License-Identifier: Apache-2.0 OR MIT */
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
 * ones go to a bitmap batch addition, and only the remaining (base, scalar) pairs enter Pippenger, where positions
 * holding an equal scalar are merged first (dups_build). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16_internal.h"

/* The scalars of one MSM, split by value. Positions count the selected variables only, in order, which is how
 * the key's bases are laid out. */
typedef struct {
    uint64_t n;      /* selected positions = key bases */
    uint64_t *ones;  /* bit p set: scalar at position p is 1 */
    uint64_t *idx;   /* positions of the scalars other than 0 and 1 (NULL when dense) */
    cuzk_fr_t *tail; /* those scalars; dense: n scalars by position, 0 where the scalar is 0 or 1 */
    uint64_t n_tail;
    bool dense;
    /* equal scalars (dups_build): group g is member[start[g] .. start[g + 1]), tail indices, its head first; the
     * others' scalars are zeroed in the tail */
    uint32_t *member, *start;
    uint64_t groups, moved; /* moved: members that left the tail (all but the heads) */
} prove_split;

/* A tail of at least half the positions is kept by position (split_dense): its MSM then reads the key's bases where
 * they are, in order and in the key's 2 MiB pages, instead of a gathered copy in small pages (Poseidon circuits: 99 %
 * of the witness is whole field elements). The memory model applies the same rule. */
static bool split_dense(uint64_t n, uint64_t others) { return n > 0 && 2 * others >= n; }

static void split_free(prove_split *sp)
{
    free(sp->ones);
    free(sp->idx);
    free(sp->tail);
    free(sp->member);
    free(sp->start);
    memset(sp, 0, sizeof *sp);
}

/* The split is built in parallel over fixed chunks of variables, in two passes: count (selected positions and
 * other scalars per chunk), then, at offsets from the prefix sums, fill. Chunks may share a bitmap word at their
 * edges, so each chunk gathers a word's bits locally and ORs it in atomically once per word. */
#define SPLIT_CHUNK 1024

typedef struct {
    prove_split *sp;
    const cuzk_fr_t *z;
    uint64_t ni, na;
    const uint64_t *in_bits, *aux_bits;
    uint64_t *pos, *tail; /* per chunk: counts after pass 1, start offsets for pass 2 */
    bool fill;
} split_job;

static bool split_selected(const split_job *j, uint64_t v)
{
    const uint64_t *bits = v < j->ni ? j->in_bits : j->aux_bits;
    return bits == NULL || cuzk_r1cs_density_get(bits, v < j->ni ? v : v - j->ni);
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
            const cuzk_fr_t *x = &j->z[v];
            if (cuzk_fr_is_zero(x)) {
            } else if (cuzk_fr_is_one(x)) {
                if (j->fill) {
                    if (p >> 6 != word) {
                        if (bits) __atomic_fetch_or(&sp->ones[word], bits, __ATOMIC_RELAXED);
                        word = p >> 6;
                        bits = 0;
                    }
                    bits |= 1ULL << (p & 63);
                }
            } else {
                if (j->fill && sp->dense) {
                    sp->tail[p] = *x;
                } else if (j->fill) {
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
static cuzk_status split_build(prove_split *sp, const cuzk_fr_t *z, uint64_t ni, const uint64_t *in_bits, uint64_t na,
                               const uint64_t *aux_bits, unsigned threads)
{
    memset(sp, 0, sizeof *sp);
    size_t chunks = (size_t)((ni + na + SPLIT_CHUNK - 1) / SPLIT_CHUNK);
    split_job j = {
        sp,   z, ni, na, in_bits, aux_bits, calloc(chunks + 1, sizeof(uint64_t)), calloc(chunks + 1, sizeof(uint64_t)),
        false};
    if (j.pos == NULL || j.tail == NULL) goto nomem;
    cuzk_par_for(threads, chunks, 1, split_chunks, &j);
    uint64_t n = 0, others = 0;
    for (size_t ch = 0; ch < chunks; ch++) {
        uint64_t cp = j.pos[ch], ct = j.tail[ch];
        j.pos[ch] = n;
        j.tail[ch] = others;
        n += cp;
        others += ct;
    }
    sp->dense = split_dense(n, others);
    sp->ones = calloc(n / 64 + 1, sizeof *sp->ones);
    if (sp->dense) {
        sp->tail = calloc(n, sizeof *sp->tail); /* all zero: 0 and 1 add nothing to the MSM */
    } else {
        sp->idx = malloc((others ? others : 1) * sizeof *sp->idx);
        sp->tail = malloc((others ? others : 1) * sizeof *sp->tail);
    }
    if (sp->ones == NULL || (!sp->dense && sp->idx == NULL) || sp->tail == NULL) goto nomem;
    j.fill = true;
    cuzk_par_for(threads, chunks, 1, split_chunks, &j);
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

/* ---- equal scalars ---------------------------------------------------------------------------------------------
 * Poseidon circuits repeat witness values: the Merkle paths of one tree share their top nodes, so each path hashes the
 * same children there and every round of those hashes repeats (WinningPoSt 32 GiB: 29 % of L's other scalars, 30 %
 * of A's and 27 % of B's equal one seen before). Σ s·P_i over positions holding the same s is s·Σ P_i: a group's
 * first position (its head) stays in the tail, the others leave it (their scalar zeroed, which the MSM skips) and the
 * sum of their bases enters a second MSM with the head's scalar, so each costs one mixed addition instead of a bucket
 * addition in every window. Groups are found with a hash table over the scalars (open addressing, linear probing). */
#define DUP_NONE UINT32_MAX
#define DUP_BATCH 65536 /* groups summed and multiplied at a time: bounds the second MSM's memory */
#define DUP_RUN 64      /* group sums made affine with one inversion */
#define DUP_PROBES 64 /* a scalar whose probe runs longer stays in the tail unmerged: crafted collisions cost little */

static uint64_t dups_hash(const cuzk_fr_t *x)
{
    uint64_t h = x->l[0] ^ x->l[1] * 0x9e3779b97f4a7c15ULL ^ x->l[2] * 0xbf58476d1ce4e5b9ULL ^
                 x->l[3] * 0x94d049bb133111ebULL;
    return h ^ h >> 31;
}

/* The hash table's slots for a tail of t other scalars: a power of two at least 2t. */
static uint64_t dups_slots(uint64_t t)
{
    uint64_t cap = 16;
    while (cap < 2 * t) cap <<= 1;
    return cap;
}

/* The tail's length: positions when dense, other scalars otherwise. */
static uint64_t split_len(const prove_split *sp) { return sp->dense ? sp->n : sp->n_tail; }

/* Finds the groups of equal scalars in sp's tail and zeroes all but each head's scalar. Tails of fewer than two
 * scalars, or too long for 32-bit indices, are left as they are. */
static cuzk_status dups_build(prove_split *sp)
{
    const uint64_t len = split_len(sp);
    if (sp->n_tail < 2 || len >= DUP_NONE) return CUZK_OK;
    const uint64_t cap = dups_slots(sp->n_tail);
    uint32_t *slot = malloc(cap * sizeof *slot), *next = malloc(len * sizeof *next);
    if (slot == NULL || next == NULL) {
        free(slot);
        free(next);
        return CUZK_ERR_NOMEM;
    }
    memset(slot, 0xff, cap * sizeof *slot);
    /* each member is linked in behind its group's head, which the table holds */
    uint64_t groups = 0, members = 0;
    for (uint64_t t = 0; t < len; t++) {
        const cuzk_fr_t *x = &sp->tail[t];
        next[t] = DUP_NONE;
        if (cuzk_fr_is_zero(x)) continue; /* a dense tail's 0 and 1 */
        uint64_t h = dups_hash(x) & (cap - 1);
        for (unsigned probe = 0; probe < DUP_PROBES; probe++, h = (h + 1) & (cap - 1)) {
            uint32_t u = slot[h];
            if (u == DUP_NONE) {
                slot[h] = (uint32_t)t;
                break;
            }
            if (memcmp(&sp->tail[u], x, sizeof *x) == 0) {
                if (next[u] == DUP_NONE) groups++, members++;
                members++;
                next[t] = next[u];
                next[u] = (uint32_t)t;
                break;
            }
        }
    }
    cuzk_status st = CUZK_OK;
    if (groups > 0) {
        sp->member = malloc(members * sizeof *sp->member);
        sp->start = malloc((groups + 1) * sizeof *sp->start);
        if (sp->member == NULL || sp->start == NULL) {
            st = CUZK_ERR_NOMEM;
        } else {
            uint64_t g = 0, k = 0;
            for (uint64_t h = 0; h < cap; h++) {
                uint32_t u = slot[h];
                if (u == DUP_NONE || next[u] == DUP_NONE) continue;
                sp->start[g++] = (uint32_t)k;
                sp->member[k++] = u;
                for (uint32_t v = next[u]; v != DUP_NONE; v = next[v]) {
                    sp->member[k++] = v;
                    cuzk_fr_set_zero(&sp->tail[v]);
                }
            }
            sp->start[g] = (uint32_t)k;
            sp->groups = groups;
            sp->moved = members - groups;
        }
    }
    free(slot);
    free(next);
    return st;
}

/* r = Σ scalar_p·bases[p] over a split: batch addition of the ones, an MSM over the gathered tail and one over the
 * groups of equal scalars. Bases at infinity are left out of the gather (snarkjs keys hold infinity in B for every
 * signal absent from B: most of them in a circuit like a multiplication chain), so their scalars cost nothing, and so
 * are the members that left the tail for their group (scalar zeroed).
 *
 * The groups go DUP_BATCH at a time: each group's moved members summed by mixed additions (in parallel over groups),
 * the sums made affine DUP_RUN at a time with one inversion (on the stack: G2's are 18 KiB), then an MSM of the sums
 * by the heads' scalars. */
#define SPLIT_MSM(G, AFF, JAC)                                                                                         \
    typedef struct {                                                                                                   \
        const prove_split *sp;                                                                                         \
        const AFF *bases;                                                                                              \
        AFF *aff;                                                                                                      \
        cuzk_fr_t *sc;                                                                                                 \
        uint64_t g0;                                                                                                   \
    } dups_job_##G;                                                                                                    \
                                                                                                                       \
    static void dups_sums_##G(void *arg, size_t lo, size_t hi)                                                         \
    {                                                                                                                  \
        dups_job_##G *j = arg;                                                                                         \
        const prove_split *sp = j->sp;                                                                                 \
        JAC sum[DUP_RUN];                                                                                              \
        for (size_t i0 = lo; i0 < hi; i0 += DUP_RUN) {                                                                 \
            size_t i1 = hi - i0 < DUP_RUN ? hi : i0 + DUP_RUN;                                                         \
            for (size_t i = i0; i < i1; i++) {                                                                         \
                uint64_t g = j->g0 + i;                                                                                \
                JAC *acc = &sum[i - i0];                                                                               \
                cuzk_##G##_jac_set_infinity(acc);                                                                      \
                for (uint32_t k = sp->start[g] + 1; k < sp->start[g + 1]; k++) {                                       \
                    uint32_t v = sp->member[k];                                                                        \
                    cuzk_##G##_jac_add_affine(acc, acc, &j->bases[sp->dense ? v : sp->idx[v]]);                        \
                }                                                                                                      \
                j->sc[i] = sp->tail[sp->member[sp->start[g]]];                                                         \
            }                                                                                                          \
            cuzk_##G##_jac_batch_to_affine(j->aff + i0, sum, i1 - i0);                                                 \
        }                                                                                                              \
    }                                                                                                                  \
                                                                                                                       \
    static cuzk_status dups_msm_##G(JAC *r, const prove_split *sp, const AFF *bases, unsigned threads)                 \
    {                                                                                                                  \
        cuzk_##G##_jac_set_infinity(r);                                                                                \
        if (sp->groups == 0) return CUZK_OK;                                                                           \
        uint64_t b = sp->groups < DUP_BATCH ? sp->groups : DUP_BATCH;                                                  \
        dups_job_##G j = {sp, bases, malloc(b * sizeof(AFF)), malloc(b * sizeof(cuzk_fr_t)), 0};                       \
        cuzk_status s = j.aff && j.sc ? CUZK_OK : CUZK_ERR_NOMEM;                                                      \
        for (; s == CUZK_OK && j.g0 < sp->groups; j.g0 += b) {                                                         \
            uint64_t m = sp->groups - j.g0 < b ? sp->groups - j.g0 : b;                                                \
            cuzk_par_for(threads, m, 1024, dups_sums_##G, &j);                                                         \
            JAC part;                                                                                                  \
            s = cuzk_##G##_msm(&part, j.aff, j.sc, m, threads);                                                        \
            if (s == CUZK_OK) cuzk_##G##_jac_add(r, r, &part);                                                         \
        }                                                                                                              \
        free(j.aff);                                                                                                   \
        free(j.sc);                                                                                                    \
        return s;                                                                                                      \
    }                                                                                                                  \
                                                                                                                       \
    static cuzk_status split_msm_##G(JAC *r, const prove_split *sp, const AFF *bases, unsigned threads)                \
    {                                                                                                                  \
        JAC ones, rest, dups;                                                                                          \
        cuzk_status s = cuzk_##G##_batch_add(&ones, bases, sp->ones, sp->n, threads);                                  \
        if (s != CUZK_OK) return s;                                                                                    \
        if (sp->dense) {                                                                                               \
            s = cuzk_##G##_msm(&rest, bases, sp->tail, sp->n, threads);                                                \
        } else {                                                                                                       \
            uint64_t cap = sp->n_tail ? sp->n_tail : 1, m = 0;                                                         \
            AFF *tb = malloc(cap * sizeof *tb);                                                                        \
            cuzk_fr_t *ts = malloc(cap * sizeof *ts);                                                                  \
            if (tb == NULL || ts == NULL) {                                                                            \
                free(tb);                                                                                              \
                free(ts);                                                                                              \
                return CUZK_ERR_NOMEM;                                                                                 \
            }                                                                                                          \
            for (uint64_t t = 0; t < sp->n_tail; t++) {                                                                \
                const AFF *p = &bases[sp->idx[t]];                                                                     \
                if (cuzk_##G##_affine_is_infinity(p) || cuzk_fr_is_zero(&sp->tail[t])) continue;                       \
                tb[m] = *p;                                                                                            \
                ts[m++] = sp->tail[t];                                                                                 \
            }                                                                                                          \
            s = cuzk_##G##_msm(&rest, tb, ts, m, threads);                                                             \
            free(tb);                                                                                                  \
            free(ts);                                                                                                  \
        }                                                                                                              \
        if (s == CUZK_OK) s = dups_msm_##G(&dups, sp, bases, threads);                                                 \
        if (s != CUZK_OK) return s;                                                                                    \
        cuzk_##G##_jac_add(r, &ones, &rest);                                                                           \
        cuzk_##G##_jac_add(r, r, &dups);                                                                               \
        return CUZK_OK;                                                                                                \
    }
SPLIT_MSM(g1, cuzk_g1_affine_t, cuzk_g1_jac_t)
SPLIT_MSM(g2, cuzk_g2_affine_t, cuzk_g2_jac_t)
#undef SPLIT_MSM

/* The evaluations a, b, c of the witness combinations on the domain (n elements each, zero past the rows). */
static cuzk_status prove_synthesize(const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit, const cuzk_fr_t *z,
                                    cuzk_r1cs_c_mode mode, unsigned threads, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c,
                                    cuzk_errmsg *err)
{
    uint64_t bad = 0;
    cuzk_status s;
    if (pk->conv == CUZK_GROTH16_BELLPERSON) {
        s = cuzk_r1cs_spmv(circuit, z, a, b, c, mode, threads, &bad);
        if (s == CUZK_ERR_R1CS_UNSATISFIED)
            return cuzk_fail(err, s, "witness does not satisfy constraint row %llu", (unsigned long long)bad);
        if (s != CUZK_OK) return cuzk_fail(err, s, "sparse evaluation failed");
        /* the input rows: A = z_i, B = C = 0, so that the key's a/ic points for inputs are linearly independent */
        uint64_t m = circuit->num_constraints;
        for (uint64_t i = 0; i < circuit->num_inputs; i++) a[m + i] = z[i];
        return CUZK_OK;
    }
    /* snarkjs keys hold A and B only (input rows included); C is taken as a∘b, as snarkjs does. The witness can be
     * checked only against a circuit that still has its C matrix. */
    if (mode == CUZK_R1CS_C_CHECKED) {
        if (circuit == NULL || circuit == pk->circuit)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                             "checking the witness needs the circuit with its C matrix (the snarkjs key has none)");
        s = cuzk_r1cs_check(circuit, z, threads, &bad);
        if (s == CUZK_ERR_R1CS_UNSATISFIED)
            return cuzk_fail(err, s, "witness does not satisfy constraint row %llu", (unsigned long long)bad);
        if (s != CUZK_OK) return cuzk_fail(err, s, "witness check failed");
    }
    s = cuzk_r1cs_spmv(pk->circuit, z, a, b, c, CUZK_R1CS_C_PRODUCT, threads, NULL);
    if (s != CUZK_OK) return cuzk_fail(err, s, "sparse evaluation failed");
    return CUZK_OK;
}

/* The points a split's MSMs sum with a whole scalar: its tail less the members merged into groups, and one point
 * per group (cuzk_groth16_prove_stats). */
static uint64_t split_points(const prove_split *sp) { return sp->n_tail - sp->moved + sp->groups; }

/* The four witness MSMs over the key's density layout. */
static cuzk_status prove_witness_msms(cuzk_groth16_msm_sums *out, const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit,
                                      const cuzk_fr_t *z, unsigned threads, bool merge, cuzk_groth16_prove_stats *st)
{
    uint64_t ni = pk->vk.num_inputs, na = pk->num_aux;
    bool bell = pk->conv == CUZK_GROTH16_BELLPERSON;
    prove_split sp;
    double t = cuzk_now();

    cuzk_status s = split_build(&sp, z + ni, 0, NULL, na, NULL, threads);
    if (s == CUZK_OK && merge) s = dups_build(&sp);
    if (s == CUZK_OK) s = split_msm_g1(&out->l, &sp, pk->l, threads);
    st->points_l = split_points(&sp);
    split_free(&sp);
    st->msm_l = cuzk_now() - t;
    if (s != CUZK_OK) return s;

    t = cuzk_now();
    s = split_build(&sp, z, ni, NULL, na, bell ? circuit->a_aux_density : NULL, threads);
    if (s == CUZK_OK && merge) s = dups_build(&sp);
    if (s == CUZK_OK) s = split_msm_g1(&out->a, &sp, pk->a, threads);
    st->points_a = split_points(&sp);
    split_free(&sp);
    st->msm_a = cuzk_now() - t;
    if (s != CUZK_OK) return s;

    /* B1 and B2 share their scalars, so they share the split */
    t = cuzk_now();
    s = split_build(&sp, z, ni, bell ? circuit->b_input_density : NULL, na, bell ? circuit->b_aux_density : NULL,
                    threads);
    if (s == CUZK_OK && merge) s = dups_build(&sp);
    if (s == CUZK_OK) s = split_msm_g1(&out->b1, &sp, pk->b_g1, threads);
    double t2 = cuzk_now();
    st->msm_b1 = t2 - t;
    if (s == CUZK_OK) s = split_msm_g2(&out->b2, &sp, pk->b_g2, threads);
    st->points_b = split_points(&sp);
    split_free(&sp);
    st->msm_b2 = cuzk_now() - t2;
    return s;
}

/* A, B, C from the MSM results and the secret r, s (constant-time multiplications for every term that holds them). */
static void prove_assemble(cuzk_groth16_proof_t *proof, const cuzk_groth16_vk *vk, const cuzk_groth16_msm_sums *m,
                           const cuzk_fr_t *r, const cuzk_fr_t *s)
{
    cuzk_g1_jac_t delta1, t, aa, bb, c;
    cuzk_g2_jac_t delta2, b;
    cuzk_fr_t rs;
    cuzk_fr_mul(&rs, r, s);
    cuzk_g1_jac_from_affine(&delta1, &vk->delta_g1);
    cuzk_g2_jac_from_affine(&delta2, &vk->delta_g2);

    /* aa = α1 + A_msm, bb = β1 + B1_msm: public-looking sums the secret terms are built on */
    cuzk_g1_jac_add_affine(&aa, &m->a, &vk->alpha_g1);
    cuzk_g1_jac_add_affine(&bb, &m->b1, &vk->beta_g1);

    cuzk_g1_jac_t a;
    cuzk_g1_jac_mul_ct(&t, &delta1, r);
    cuzk_g1_jac_add(&a, &aa, &t);

    cuzk_g2_jac_mul_ct(&b, &delta2, s);
    cuzk_g2_jac_add(&b, &b, &m->b2);
    cuzk_g2_jac_add_affine(&b, &b, &vk->beta_g2);

    cuzk_g1_jac_add(&c, &m->l, &m->h);
    cuzk_g1_jac_mul_ct(&t, &aa, s);
    cuzk_g1_jac_add(&c, &c, &t);
    cuzk_g1_jac_mul_ct(&t, &bb, r);
    cuzk_g1_jac_add(&c, &c, &t);
    cuzk_g1_jac_mul_ct(&t, &delta1, &rs);
    cuzk_g1_jac_add(&c, &c, &t);

    cuzk_g1_jac_to_affine(&proof->a, &a);
    cuzk_g2_jac_to_affine(&proof->b, &b);
    cuzk_g1_jac_to_affine(&proof->c, &c);
    explicit_bzero(&rs, sizeof rs);
}

cuzk_status cuzk_groth16_assemble(cuzk_groth16_proof_t *proof, const cuzk_groth16_vk *vk,
                                  const cuzk_groth16_msm_sums *sums, const cuzk_groth16_prove_opts *opts)
{
    cuzk_fr_t r, s;
    if (opts != NULL && opts->given_rs) {
        r = opts->r;
        s = opts->s;
    } else if (cuzk_fr_random(&r) != CUZK_OK || cuzk_fr_random(&s) != CUZK_OK) {
        explicit_bzero(&r, sizeof r);
        return CUZK_ERR_IO;
    }
    prove_assemble(proof, vk, sums, &r, &s);
    explicit_bzero(&r, sizeof r);
    explicit_bzero(&s, sizeof s);
    return CUZK_OK;
}

/* opts->verify: the proof as a verifier receives it (encoded, then decoded with the curve and subgroup checks) must
 * verify against the key's own vk with the witness's public inputs. A key whose points are valid but inconsistent, or
 * a witness that satisfies the key's A and B but not the circuit's C (a snarkjs key has no C to check it against),
 * gives a proof that does not: it is wiped, never returned. */
static cuzk_status prove_self_check(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk *pk, const cuzk_fr_t *z,
                                    cuzk_errmsg *err)
{
    uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_t p;
    cuzk_groth16_proof_to_bytes(bytes, proof);
    cuzk_status s = cuzk_groth16_proof_from_bytes(&p, bytes, sizeof bytes);
    if (s != CUZK_OK) {
        cuzk_fail(err, CUZK_ERR_PROOF_INVALID,
                  "the proof made does not decode (%s): the key holds points outside "
                  "the prime-order subgroup",
                  cuzk_status_str(s));
    } else {
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &pk->vk);
        s = cuzk_groth16_verify(&pvk, &p, z + 1, pk->vk.num_inputs - 1);
        if (s == CUZK_ERR_PROOF_INVALID)
            cuzk_fail(err, s,
                      "the proof made does not verify against the key's verifying key: the witness does not "
                      "satisfy the circuit, or the key is damaged");
        else if (s != CUZK_OK) cuzk_fail(err, s, "verifying the proof made failed");
    }
    if (s != CUZK_OK) {
        memset(proof, 0, sizeof *proof);
        if (s != CUZK_ERR_NOMEM) s = CUZK_ERR_PROOF_INVALID;
    }
    return s;
}

/* Arguments both steps check: the key fits the circuit, z[0] = 1, a known c_mode. */
static cuzk_status prove_check_args(const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit, const cuzk_fr_t *z,
                                    const cuzk_groth16_prove_opts *o, cuzk_errmsg *err)
{
    if (pk == NULL || z == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (o->c_mode != CUZK_R1CS_C_MATRIX && o->c_mode != CUZK_R1CS_C_PRODUCT && o->c_mode != CUZK_R1CS_C_CHECKED)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "unknown c_mode %d", (int)o->c_mode);
    cuzk_status s;
    if (pk->conv == CUZK_GROTH16_BELLPERSON) {
        if (circuit == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a bellperson key needs its circuit");
        s = cuzk_groth16_pk_check_circuit(pk, circuit, err);
    } else {
        s = cuzk_groth16_pk_check_circuit(pk, circuit != NULL ? circuit : pk->circuit, err);
    }
    if (s != CUZK_OK) return s;
    if (!cuzk_fr_is_one(&z[0])) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "witness z[0] is not 1");
    return CUZK_OK;
}

static cuzk_groth16_prove_opts prove_opts_or_default(const cuzk_groth16_prove_opts *opts)
{
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    if (opts != NULL) o = *opts;
    if (o.threads == 0) o.threads = 1;
    return o;
}

void cuzk_groth16_synthesis_free(cuzk_groth16_synthesis *syn)
{
    if (syn == NULL) return;
    free(syn->a);
    free(syn->b);
    free(syn->c);
    memset(syn, 0, sizeof *syn);
}

cuzk_status cuzk_groth16_synthesize(cuzk_groth16_synthesis *syn, const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit,
                                    const cuzk_fr_t *z, const cuzk_groth16_prove_opts *opts,
                                    cuzk_groth16_prove_stats *stats, cuzk_errmsg *err)
{
    double t = cuzk_now();
    if (syn == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    memset(syn, 0, sizeof *syn);
    cuzk_groth16_prove_opts o = prove_opts_or_default(opts);
    cuzk_status s = prove_check_args(pk, circuit, z, &o, err);
    if (s != CUZK_OK) return s;

    uint64_t n = pk->domain_size;
    syn->n = n;
    syn->a = calloc(n, sizeof *syn->a);
    syn->b = calloc(n, sizeof *syn->b);
    syn->c = calloc(n, sizeof *syn->c);
    if (syn->a == NULL || syn->b == NULL || syn->c == NULL) {
        cuzk_groth16_synthesis_free(syn);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "cannot allocate 3 x %llu evaluations", (unsigned long long)n);
    }
    s = prove_synthesize(pk, circuit, z, o.c_mode, o.threads, syn->a, syn->b, syn->c, err);
    if (s != CUZK_OK) cuzk_groth16_synthesis_free(syn);
    if (stats != NULL) {
        stats->spmv = cuzk_now() - t;
        stats->total = stats->spmv;
    }
    return s;
}

cuzk_status cuzk_groth16_prove_from_synthesis(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk *pk,
                                              const cuzk_r1cs_t *circuit, const cuzk_fr_t *z,
                                              cuzk_groth16_synthesis *syn, const cuzk_groth16_prove_opts *opts,
                                              cuzk_groth16_prove_stats *stats, cuzk_errmsg *err)
{
    double t_start = cuzk_now();
    cuzk_groth16_prove_stats st;
    memset(&st, 0, sizeof st);
    if (stats != NULL)
        st.spmv = stats->spmv; /* kept from cuzk_groth16_synthesize when the caller passes the same one */
    cuzk_groth16_prove_opts o = prove_opts_or_default(opts);
    unsigned threads = o.threads;
    cuzk_status s;
    if (proof == NULL || syn == NULL) {
        s = cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
        goto out;
    }
    s = prove_check_args(pk, circuit, z, &o, err);
    if (s != CUZK_OK) goto out;
    if (syn->a == NULL || syn->b == NULL || syn->c == NULL || syn->n != pk->domain_size) {
        s = cuzk_fail(err, CUZK_ERR_MISMATCH, "synthesis of %llu evaluations does not fit a key of domain %llu",
                      (unsigned long long)syn->n, (unsigned long long)pk->domain_size);
        goto out;
    }

    uint64_t n = pk->domain_size;
    cuzk_ntt_domain dom;
    memset(&dom, 0, sizeof dom);
    cuzk_groth16_msm_sums m;

    double t = cuzk_now();
    s = cuzk_ntt_domain_init(&dom, cuzk_log2_ceil(n),
                             pk->conv == CUZK_GROTH16_BELLPERSON ? CUZK_FR_ROOTS_GEN7 : CUZK_FR_ROOTS_GEN5);
    if (s != CUZK_OK) {
        cuzk_fail(err, s, "cannot build the evaluation domain of %llu", (unsigned long long)n);
        goto done;
    }
    if (pk->conv == CUZK_GROTH16_BELLPERSON) cuzk_ntt_h_bellperson(syn->a, syn->a, syn->b, syn->c, &dom, threads);
    else cuzk_ntt_h_snarkjs(syn->a, syn->a, syn->b, syn->c, &dom, threads);
    st.ntt_h = cuzk_now() - t;
    st.domain_log2 = dom.log2n;
    /* b and c are scratch now; release them before the MSMs need their memory */
    free(syn->b);
    free(syn->c);
    syn->b = syn->c = NULL;

    t = cuzk_now();
    s = cuzk_g1_msm(&m.h, pk->h, syn->a, pk->h_len, threads);
    st.msm_h = cuzk_now() - t;
    st.points_h = pk->h_len;
    if (s != CUZK_OK) {
        cuzk_fail(err, s, "H multi-scalar multiplication failed");
        goto done;
    }
    free(syn->a);
    syn->a = NULL;

    s = prove_witness_msms(&m, pk, circuit, z, threads, !o.no_merge_equal, &st);
    if (s != CUZK_OK) {
        cuzk_fail(err, s, "witness multi-scalar multiplication failed");
        goto done;
    }

    t = cuzk_now();
    s = cuzk_groth16_assemble(proof, &pk->vk, &m, &o);
    if (s != CUZK_OK) cuzk_fail(err, s, "OS random source failed");
    st.assembly = cuzk_now() - t;
    if (s == CUZK_OK && o.verify) {
        t = cuzk_now();
        s = prove_self_check(proof, pk, z, err);
        st.verify = cuzk_now() - t;
    }

done:
    cuzk_ntt_domain_free(&dom);
out:
    cuzk_groth16_synthesis_free(syn);
    st.total = st.spmv + (cuzk_now() - t_start);
    if (stats != NULL) *stats = st;
    return s;
}

cuzk_status cuzk_groth16_prove(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit,
                               const cuzk_fr_t *z, const cuzk_groth16_prove_opts *opts, cuzk_groth16_prove_stats *stats,
                               cuzk_errmsg *err)
{
    cuzk_groth16_prove_stats st;
    memset(&st, 0, sizeof st);
    cuzk_groth16_synthesis syn;
    cuzk_status s = proof == NULL ? cuzk_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument")
                                  : cuzk_groth16_synthesize(&syn, pk, circuit, z, opts, &st, err);
    if (s == CUZK_OK) s = cuzk_groth16_prove_from_synthesis(proof, pk, circuit, z, &syn, opts, &st, err);
    if (stats != NULL) *stats = st;
    return s;
}

/* ---- memory model --------------------------------------------------------------------------------------------
 *
 * The prover's allocations, phase by phase, with every block live in the phase (n = domain, F = 32 = sizeof(cuzk_fr_t),
 * T = threads, tw = max(n/2, 1)·F the domain's twiddles, P = cuzk_par_for_bytes(T) the job records of a parallel
 * loop, for the split of MSM X ∈ {L, A, B}: V_X variables visited, S_X positions kept, O_X = max(tail_X, 1) other
 * scalars, G_X gathered points; a dense split (2·tail_X >= S_X > 0, split_dense) keeps S_X scalars by position and
 * gathers nothing, its MSM taking the S_X key bases in place):
 *   synthesis   3·nF (a, b, c)
 *   H           3·nF + tw + P                                        (the domain is built while a, b, c are live)
 *   H MSM       nF (a; b and c freed) + tw + cuzk_g1_msm_scratch_bytes(h_len, T)
 * then, a freed, for each split X (tw stays live through every MSM):
 *   count       tw + 2·(ceil(V_X/1024) + 1)·8 (per-chunk counters) + P
 *   fill        tw + 2·(ceil(V_X/1024) + 1)·8 + split_X + P,   split_X = (S_X/64 + 1)·8 + O_X·8 + O_X·F
 *                                                              (dense: (S_X/64 + 1)·8 + S_X·F)
 *   ones        tw + split_X + g*_batch_add_scratch_bytes(S_X, T)
 *   gather      tw + split_X + O_X·(sizeof base + F) + g*_msm_scratch_bytes(G_X, T)
 *                                                              (dense: tw + split_X + g*_msm_scratch_bytes(S_X, T))
 * (B: ones and gather once in G1 and once in G2 over the same split). The peak is the largest phase. Every block
 * is counted as malloc returns it: its request plus one page (glibc's usable size exceeds a request by less than
 * 32 bytes, or, for a block it maps, by less than a page). The MSM terms come from the functions the MSM code
 * sizes its own allocations with; when the gathered count is unknown, the _upto variant covers any count up to O.
 *
 * Worst case (cuzk_groth16_prove_peak_bytes, before the witness is known; v = num_vars): V = S = O = v for all three
 * splits and G unknown (every variable selected by the densities, no scalar 0 or 1: a random witness), h_len up to
 * n. Such a split is dense, and the bound also takes the largest sparse tail ((S − 1)/2 scalars, gathered): the peak
 * is then B2's MSM, tw + v·(1/8 + F) (split) + cuzk_g2_msm_scratch_bytes(v, T) (scalar copy, GLV ψ points, buckets,
 * task sums), or its sparse gather, tw + v/8 + (v/2)·(8 + F) + (v/2)·(192 + F) + cuzk_g2_msm_scratch_bytes_upto(v/2,
 * T). A real (mostly bits) witness leaves few "other" scalars and peaks in the H phase (3·nF + tw), so the bound is up
 * to ~2x its peak with the key's densities (cuzk_groth16_prove_shape_key), ~3x from the dimensions alone;
 * cuzk_groth16_prove_shape_of gives the exact shape of a known witness (within a few percent of the measured peak,
 * tests/memory). Not counted: thread stacks (mapped by pthread_create, not malloc'd) and the witness and key, which the
 * caller holds. */
static uint64_t g16_block(uint64_t request)
{
    long page = sysconf(_SC_PAGESIZE);
    return request + (page > 4096 ? (uint64_t)page : 4096);
}

/* count blocks of `bytes` bytes in all (0 bytes: nothing allocated) */
static uint64_t g16_blocks(uint64_t bytes, uint64_t count) { return bytes == 0 ? 0 : bytes + count * g16_block(0); }

static uint64_t g16_max(uint64_t a, uint64_t b) { return a > b ? a : b; }

void cuzk_groth16_prove_shape_worst(cuzk_groth16_prove_shape *sh, uint64_t domain_size, uint64_t num_vars)
{
    memset(sh, 0, sizeof *sh);
    sh->domain_size = domain_size;
    sh->h_len = CUZK_GROTH16_UNKNOWN;
    for (int x = 0; x < 3; x++) sh->vars[x] = sh->sel[x] = sh->tail[x] = num_vars;
    for (int x = 0; x < 4; x++) sh->gathered[x] = CUZK_GROTH16_UNKNOWN;
    for (int x = 0; x < 3; x++) sh->groups[x] = sh->moved[x] = CUZK_GROTH16_UNKNOWN;
}

void cuzk_groth16_prove_shape_key(cuzk_groth16_prove_shape *sh, const cuzk_groth16_pk *pk)
{
    uint64_t ni = pk->vk.num_inputs, na = pk->num_aux;
    cuzk_groth16_prove_shape_worst(sh, pk->domain_size, ni + na);
    sh->h_len = pk->h_len;
    sh->vars[CUZK_GROTH16_MSM_L] = na;
    sh->sel[CUZK_GROTH16_MSM_L] = sh->tail[CUZK_GROTH16_MSM_L] = pk->l_len;
    sh->sel[CUZK_GROTH16_MSM_A] = sh->tail[CUZK_GROTH16_MSM_A] = pk->a_len;
    sh->sel[CUZK_GROTH16_MSM_B] = sh->tail[CUZK_GROTH16_MSM_B] = pk->b_len;
}

/* The counts split_build, dups_build and split_msm find for one MSM (found by running the first two): positions kept,
 * tail, groups of equal scalars and the members that left the tail for them, tail with a base not at infinity. */
static cuzk_status shape_count(cuzk_groth16_prove_shape *sh, int x, const cuzk_fr_t *z, uint64_t ni,
                               const uint64_t *in_bits, uint64_t na, const uint64_t *aux_bits,
                               const cuzk_g1_affine_t *b1, const cuzk_g2_affine_t *b2)
{
    prove_split sp;
    cuzk_status st = split_build(&sp, z, ni, in_bits, na, aux_bits, 1);
    if (st == CUZK_OK) st = dups_build(&sp);
    if (st != CUZK_OK) {
        split_free(&sp);
        return st;
    }
    uint64_t g1 = sp.n, g2 = sp.n; /* dense: the MSM takes every position's base in place */
    if (!sp.dense) {
        g1 = g2 = 0;
        for (uint64_t t = 0; t < sp.n_tail; t++) {
            if (cuzk_fr_is_zero(&sp.tail[t])) continue; /* moved to its group */
            if (!cuzk_g1_affine_is_infinity(&b1[sp.idx[t]])) g1++;
            if (b2 != NULL && !cuzk_g2_affine_is_infinity(&b2[sp.idx[t]])) g2++;
        }
    }
    sh->vars[x] = ni + na;
    sh->sel[x] = sp.n;
    sh->tail[x] = sp.n_tail;
    sh->groups[x] = sp.groups;
    sh->moved[x] = sp.moved;
    sh->gathered[x] = g1;
    if (b2 != NULL) sh->gathered[3] = g2;
    split_free(&sp);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_prove_shape_of(cuzk_groth16_prove_shape *sh, const cuzk_groth16_pk *pk,
                                        const cuzk_r1cs_t *circuit, const cuzk_fr_t *z)
{
    if (sh == NULL || pk == NULL || z == NULL) return CUZK_ERR_INVALID_ARG;
    bool bell = pk->conv == CUZK_GROTH16_BELLPERSON;
    if (bell && circuit == NULL) return CUZK_ERR_INVALID_ARG;
    memset(sh, 0, sizeof *sh);
    uint64_t ni = pk->vk.num_inputs, na = pk->num_aux;
    sh->domain_size = pk->domain_size;
    sh->h_len = pk->h_len;
    cuzk_status st = shape_count(sh, CUZK_GROTH16_MSM_L, z + ni, 0, NULL, na, NULL, pk->l, NULL);
    if (st == CUZK_OK)
        st = shape_count(sh, CUZK_GROTH16_MSM_A, z, ni, NULL, na, bell ? circuit->a_aux_density : NULL, pk->a, NULL);
    if (st == CUZK_OK)
        st = shape_count(sh, CUZK_GROTH16_MSM_B, z, ni, bell ? circuit->b_input_density : NULL, na,
                         bell ? circuit->b_aux_density : NULL, pk->b_g1, pk->b_g2);
    if (st != CUZK_OK) return st;
    if (sh->sel[CUZK_GROTH16_MSM_L] != pk->l_len || sh->sel[CUZK_GROTH16_MSM_A] != pk->a_len ||
        sh->sel[CUZK_GROTH16_MSM_B] != pk->b_len)
        return CUZK_ERR_MISMATCH;
    return CUZK_OK;
}

static uint64_t shape_msm(bool g2, uint64_t gathered, uint64_t tail, unsigned threads)
{
    size_t b = gathered == CUZK_GROTH16_UNKNOWN
                   ? (g2 ? cuzk_g2_msm_scratch_bytes_upto : cuzk_g1_msm_scratch_bytes_upto)(tail, threads)
                   : (g2 ? cuzk_g2_msm_scratch_bytes : cuzk_g1_msm_scratch_bytes)(gathered, threads);
    return g16_blocks(b, CUZK_MSM_SCRATCH_ALLOCS);
}

/* The phases of split x (count, fill, grouping of equal scalars, then ones, gather and the groups' MSM for each group
 * of the curve) with a tail of t scalars, dense or not. */
static uint64_t shape_split_peak(const cuzk_groth16_prove_shape *sh, int x, bool dense, uint64_t t, uint64_t tw,
                                 uint64_t par, unsigned threads)
{
    const uint64_t F = sizeof(cuzk_fr_t);
    uint64_t v = sh->vars[x], s = sh->sel[x], o = t ? t : 1, peak = 0;
    uint64_t counters = 2 * g16_block(((v + SPLIT_CHUNK - 1) / SPLIT_CHUNK + 1) * 8);
    uint64_t split = g16_block((s / 64 + 1) * 8) + (dense ? g16_block(s * F) : g16_block(o * 8) + g16_block(o * F));
    peak = g16_max(peak, tw + counters + split + par); /* count, fill */
    /* grouping: the hash table and links, then the groups' lists, kept through the MSMs (dups); unknown counts take
     * the most a tail of t allows: t members in t / 2 groups */
    const bool known = sh->groups[x] != CUZK_GROTH16_UNKNOWN;
    const uint64_t len = dense ? s : t;
    uint64_t groups = 0, dups = 0;
    if (t >= 2 && len < DUP_NONE) {
        groups = known ? sh->groups[x] : t / 2;
        uint64_t members = known ? groups + sh->moved[x] : t;
        if (groups > 0) dups = g16_block(members * 4) + g16_block((groups + 1) * 4);
        peak = g16_max(peak, tw + split + g16_block(dups_slots(t) * 4) + g16_block(len * 4) + dups);
    }
    for (int g2 = 0; g2 < (x == CUZK_GROTH16_MSM_B ? 2 : 1); g2++) {
        uint64_t ones = g2 ? cuzk_g2_batch_add_scratch_bytes(s, threads) : cuzk_g1_batch_add_scratch_bytes(s, threads);
        peak = g16_max(peak, tw + split + dups + g16_blocks(ones, CUZK_BATCH_ADD_SCRATCH_ALLOCS));
        uint64_t base = g2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t);
        uint64_t gather = dense ? 0 : g16_block(o * base) + g16_block(o * F);
        uint64_t gathered = dense ? s : sh->gathered[x + g2];
        peak = g16_max(peak, tw + split + dups + gather + shape_msm(g2, gathered, o, threads));
        if (groups > 0) {
            /* the groups' sums, DUP_BATCH at a time (the last batch may be smaller) */
            uint64_t b = groups < DUP_BATCH ? groups : DUP_BATCH, last = groups - (groups - 1) / b * b;
            uint64_t arrays = g16_block(b * base) + g16_block(b * F);
            uint64_t msm = known ? g16_max(shape_msm(g2, b, b, threads), shape_msm(g2, last, last, threads))
                                 : shape_msm(g2, CUZK_GROTH16_UNKNOWN, b, threads);
            peak = g16_max(peak, tw + split + dups + arrays + g16_max(par, msm));
        }
    }
    return peak;
}

uint64_t cuzk_groth16_prove_shape_peak_bytes(const cuzk_groth16_prove_shape *sh, unsigned threads)
{
    if (threads == 0) threads = 1;
    const uint64_t n = sh->domain_size, F = sizeof(cuzk_fr_t);
    const uint64_t abc = 3 * g16_block(n * F), tw = g16_block((n / 2 ? n / 2 : 1) * F);
    const uint64_t par = g16_blocks(cuzk_par_for_bytes(threads), 1);
    uint64_t peak = abc;                  /* synthesis */
    peak = g16_max(peak, abc + tw + par); /* H */
    uint64_t h_msm = sh->h_len == CUZK_GROTH16_UNKNOWN ? cuzk_g1_msm_scratch_bytes_upto(n, threads)
                                                       : cuzk_g1_msm_scratch_bytes(sh->h_len, threads);
    peak = g16_max(peak, g16_block(n * F) + tw + g16_blocks(h_msm, CUZK_MSM_SCRATCH_ALLOCS)); /* H MSM */
    for (int x = 0; x < 3; x++) {
        uint64_t s = sh->sel[x], t = sh->tail[x];
        peak = g16_max(peak, shape_split_peak(sh, x, split_dense(s, t), t, tw, par, threads));
        /* a bound (the gathered counts unknown) covers every tail up to t: the largest sparse one too */
        if (sh->gathered[x] == CUZK_GROTH16_UNKNOWN && split_dense(s, t) && s > 0)
            peak = g16_max(peak, shape_split_peak(sh, x, false, (s - 1) / 2, tw, par, threads));
    }
    return peak;
}

uint64_t cuzk_groth16_prove_peak_bytes(uint64_t domain_size, uint64_t num_vars, unsigned threads)
{
    cuzk_groth16_prove_shape sh;
    cuzk_groth16_prove_shape_worst(&sh, domain_size, num_vars);
    return cuzk_groth16_prove_shape_peak_bytes(&sh, threads);
}
