/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Poseidon permutation in neptune's optimised schedule (circuits.h, docs/formats/poseidon.md), the domain tags and
 * the hashes Filecoin builds on it. */
#include <string.h>

#include "poseidon_int.h"

/* ---- the schedule ------------------------------------------------------------------------------------------------ */
bool cuzk_poseidon_round_is_full(const cuzk_poseidon_params *p, unsigned round)
{
    unsigned h = p->full_rounds / 2;
    return round < h || round >= h + p->partial_rounds;
}

const cuzk_fr_t *cuzk_poseidon_post_keys(const cuzk_poseidon_params *p, unsigned round)
{
    unsigned h = p->full_rounds / 2, rp = p->partial_rounds, t = p->width;
    if (round + 1 >= p->full_rounds + rp) return NULL; /* the last round adds none */
    if (round < h) return &p->compressed[(size_t)(round + 1) * t];
    if (round < h + rp) return &p->compressed[(size_t)(h + 1) * t + (round - h)];
    return &p->compressed[(size_t)(h + 1) * t + rp + (size_t)(round - h - rp) * t];
}

const cuzk_fr_t *cuzk_poseidon_round_mix(const cuzk_poseidon_params *p, unsigned round, bool *sparse)
{
    unsigned h = p->full_rounds / 2, rp = p->partial_rounds;
    *sparse = false;
    if (round >= p->full_rounds + rp) return NULL;
    if (round + 1 == h) return p->pre_sparse;
    if (round >= h && round < h + rp) {
        *sparse = true;
        return &p->sparse[(size_t)(round - h) * (2 * p->width - 1)];
    }
    return p->mds;
}

/* ---- the permutation --------------------------------------------------------------------------------------------- */
static inline void pow5(cuzk_fr_t *x)
{
    cuzk_fr_t x4;
    cuzk_fr_sqr(&x4, x);
    cuzk_fr_sqr(&x4, &x4);
    cuzk_fr_mul(x, x, &x4);
}

/* s <- s · m for a dense t×t matrix given by its columns (column j at cols[j·t]): each new element one sum of
 * products, reduced once. */
static void mix_dense(cuzk_fr_t *s, const cuzk_fr_t *cols, unsigned t)
{
    cuzk_fr_t r[CUZK_POSEIDON_MAX_WIDTH];
    for (unsigned j = 0; j < t; j++) cuzk_fr_dot(&r[j], s, &cols[j * t], t);
    memcpy(s, r, t * sizeof *s);
}

/* ---- partial rounds in blocks (poseidon_int.h) ------------------------------------------------------------------- */
size_t cuzk_poseidon_blocked_len(unsigned t, unsigned rp)
{
    size_t n = 0;
    for (unsigned b = 0; b < rp; b += CUZK_POSEIDON_BLOCK) {
        unsigned len = rp - b < CUZK_POSEIDON_BLOCK ? rp - b : CUZK_POSEIDON_BLOCK;
        for (unsigned i = 0; i < len; i++) n += t + i;
        n += (size_t)(t - 1) * len;
    }
    return n;
}

void cuzk_poseidon_blocked_make(cuzk_fr_t *out, const cuzk_fr_t *sparse, unsigned t, unsigned rp)
{
    const unsigned m = 2 * t - 1; /* round r's w at sparse[r·m], its v at sparse[r·m + t] */
    for (unsigned b = 0; b < rp; b += CUZK_POSEIDON_BLOCK) {
        unsigned len = rp - b < CUZK_POSEIDON_BLOCK ? rp - b : CUZK_POSEIDON_BLOCK;
        for (unsigned i = 0; i < len; i++) {
            const cuzk_fr_t *w = &sparse[(size_t)(b + i) * m];
            for (unsigned j = 1; j < t; j++) *out++ = w[j];
            for (unsigned k = 0; k < i; k++) /* c_{r,r'}: what y_r' reaches s_0 through the elements j ≥ 1 */
                cuzk_fr_dot(out++, &w[1], &sparse[(size_t)(b + k) * m + t], t - 1);
            *out++ = w[0];
        }
        for (unsigned j = 1; j < t; j++)
            for (unsigned k = 0; k < len; k++) *out++ = sparse[(size_t)(b + k) * m + t + j - 1];
    }
}

cuzk_fr_t *cuzk_poseidon_partial(const cuzk_poseidon_params *p, cuzk_fr_t *s, cuzk_fr_t *o, unsigned keep)
{
    unsigned t = p->width, rp = p->partial_rounds;
    const cuzk_fr_t *c = p->blocked, *key = cuzk_poseidon_post_keys(p, p->full_rounds / 2);
    cuzk_fr_t a[CUZK_POSEIDON_MAX_WIDTH - 1 + CUZK_POSEIDON_BLOCK], x2, x4, sum;
    for (unsigned b = 0; b < rp; b += CUZK_POSEIDON_BLOCK) {
        unsigned len = rp - b < CUZK_POSEIDON_BLOCK ? rp - b : CUZK_POSEIDON_BLOCK;
        cuzk_fr_t *y = &a[t - 1];
        memcpy(a, &s[1], (t - 1) * sizeof *s);
        for (unsigned i = 0; i < len; i++) {
            cuzk_fr_sqr(&x2, &s[0]);
            cuzk_fr_sqr(&x4, &x2);
            if (keep) *o++ = s[0];
            cuzk_fr_mul(&y[i], &s[0], &x4);
            cuzk_fr_add(&y[i], &y[i], &key[b + i]);
            if (keep == 4) {
                *o++ = x2;
                *o++ = x4;
                *o++ = y[i];
            }
            cuzk_fr_dot(&s[0], a, c, t + i);
            c += t + i;
        }
        for (unsigned j = 1; j < t; j++) {
            cuzk_fr_dot(&sum, y, c, len);
            c += len;
            cuzk_fr_add(&s[j], &a[j - 1], &sum);
        }
    }
    return o;
}

/* digest_only: the last mix makes element 1 alone, the only one a hash reads (the others are left as they were) */
static void permute(const cuzk_poseidon_params *p, cuzk_fr_t *s, cuzk_fr_t *trace, bool digest_only)
{
    unsigned t = p->width, h = p->full_rounds / 2, rp = p->partial_rounds, rounds = p->full_rounds + rp;
    const cuzk_fr_t *k = p->compressed;
    for (unsigned i = 0; i < t; i++) cuzk_fr_add(&s[i], &s[i], &k[i]);
    k += t;
    for (unsigned r = 0; r < rounds; r++) {
        bool last = r + 1 == rounds;
        if (r < h || r >= h + rp) {
            for (unsigned i = 0; i < t; i++) {
                if (trace) *trace++ = s[i];
                pow5(&s[i]);
                if (!last) cuzk_fr_add(&s[i], &s[i], &k[i]);
            }
            k += t;
        } else {
            trace = cuzk_poseidon_partial(p, s, trace, trace != NULL);
            k += rp;
            r += rp - 1;
            continue;
        }
        if (r + 1 == h) mix_dense(s, p->pre_sparse_cols, t);
        else if (last && digest_only) cuzk_fr_dot(&s[1], s, &p->mds[t], t);
        else mix_dense(s, p->mds, t); /* symmetric: its rows are its columns */
    }
}

void cuzk_poseidon_permute(const cuzk_poseidon_params *p, cuzk_fr_t *state) { permute(p, state, NULL, false); }

void cuzk_poseidon_permute_digest(const cuzk_poseidon_params *p, cuzk_fr_t *state) { permute(p, state, NULL, true); }

void cuzk_poseidon_permute_trace(const cuzk_poseidon_params *p, cuzk_fr_t *state, cuzk_fr_t *sbox_in)
{
    permute(p, state, sbox_in, false);
}

/* ---- domain tags (neptune hash_type.rs) -------------------------------------------------------------------------- */
cuzk_status cuzk_poseidon_tag(cuzk_fr_t *tag, cuzk_poseidon_hash_type type, unsigned arity, uint64_t param,
                              cuzk_errmsg *err)
{
    uint64_t limbs[CUZK_FR_LIMBS] = {0};
    switch (type) {
    case CUZK_POSEIDON_MERKLE_TREE:
        if (arity < 1 || arity > 63)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon tag: MerkleTree arity %u outside 1..63", arity);
        limbs[0] = (UINT64_C(1) << arity) - 1;
        break;
    case CUZK_POSEIDON_MERKLE_TREE_SPARSE: limbs[0] = param; break;
    case CUZK_POSEIDON_VARIABLE_LENGTH: limbs[1] = 1; break;
    case CUZK_POSEIDON_CONSTANT_LENGTH: limbs[1] = param; break;
    case CUZK_POSEIDON_ENCRYPTION: limbs[0] = UINT64_C(1) << 32; break;
    case CUZK_POSEIDON_CUSTOM:
        /* id 0 would collide with the strengthened Encryption tag; neptune keeps ids to 1..256 */
        if (param < 1 || param > 256)
            return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon tag: custom id %llu outside 1..256",
                             (unsigned long long)param);
        limbs[0] = param << 40;
        break;
    case CUZK_POSEIDON_SPONGE: break;
    default: return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon tag: unknown hash type %d", (int)type);
    }
    return cuzk_fr_from_limbs(tag, limbs); /* every value above is far below r */
}

/* ---- hashes ------------------------------------------------------------------------------------------------------ */
static cuzk_status params_for(const cuzk_poseidon_params **p, unsigned arity, cuzk_errmsg *err)
{
    if (cuzk_poseidon_partial_rounds(arity) == 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon: arity %u not one of 2, 4, 8, 11, 16, 24, 36", arity);
    *p = cuzk_poseidon_params_get(arity);
    if (*p == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "poseidon: no memory for the arity-%u constants", arity);
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_hash(cuzk_fr_t *out, unsigned arity, const cuzk_fr_t *tag, const cuzk_fr_t *in, size_t n,
                               cuzk_errmsg *err)
{
    const cuzk_poseidon_params *p;
    cuzk_status s = params_for(&p, arity, err);
    if (s != CUZK_OK) return s;
    if (n == 0 || n > arity)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon: %zu inputs for arity %u (1..%u)", n, arity, arity);
    cuzk_fr_t st[CUZK_POSEIDON_MAX_WIDTH];
    st[0] = *tag;
    memcpy(&st[1], in, n * sizeof *in);
    for (size_t i = n + 1; i <= arity; i++) cuzk_fr_set_zero(&st[i]);
    permute(p, st, NULL, true);
    *out = st[1];
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_merkle_hash_bytes(uint8_t out[CUZK_FR_BYTES], unsigned arity, const uint8_t *in,
                                            cuzk_errmsg *err)
{
    const cuzk_poseidon_params *p;
    cuzk_status s = params_for(&p, arity, err);
    if (s != CUZK_OK) return s;
    cuzk_fr_t st[CUZK_POSEIDON_MAX_WIDTH];
    cuzk_poseidon_tag(&st[0], CUZK_POSEIDON_MERKLE_TREE, arity, 0, NULL);
    for (unsigned i = 0; i < arity; i++)
        if (cuzk_fr_from_bytes_le(&st[1 + i], in + (size_t)i * CUZK_FR_BYTES) != CUZK_OK)
            return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "poseidon: input %u is not below the field modulus", i);
    permute(p, st, NULL, true);
    cuzk_fr_to_bytes_le(out, &st[1]);
    return CUZK_OK;
}

cuzk_status cuzk_poseidon_comm_r(uint8_t comm_r[CUZK_FR_BYTES], const uint8_t comm_c[CUZK_FR_BYTES],
                                 const uint8_t comm_r_last[CUZK_FR_BYTES], cuzk_errmsg *err)
{
    uint8_t in[2 * CUZK_FR_BYTES];
    memcpy(in, comm_c, CUZK_FR_BYTES);
    memcpy(in + CUZK_FR_BYTES, comm_r_last, CUZK_FR_BYTES);
    cuzk_status s = cuzk_poseidon_merkle_hash_bytes(comm_r, 2, in, err);
    if (s == CUZK_ERR_NOT_CANONICAL)
        return cuzk_fail(err, s, "poseidon comm_r: %s is not below the field modulus",
                         cuzk_fr_from_bytes_le(&(cuzk_fr_t){{0}}, comm_c) != CUZK_OK ? "comm_c" : "comm_r_last");
    return s;
}

cuzk_status cuzk_poseidon_hash_md(cuzk_fr_t *out, const cuzk_fr_t *in, size_t n, cuzk_errmsg *err)
{
    const unsigned arity = 36;
    const cuzk_poseidon_params *p;
    cuzk_status s = params_for(&p, arity, err);
    if (s != CUZK_OK) return s;
    if (n < 2) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon hash_md: %zu inputs (needs 2 or more)", n);
    cuzk_fr_t tag, acc = in[0], st[CUZK_POSEIDON_MAX_WIDTH];
    cuzk_poseidon_tag(&tag, CUZK_POSEIDON_MERKLE_TREE, arity, 0, NULL);
    for (size_t i = 1; i < n; i += arity - 1) {
        size_t m = n - i < arity - 1 ? n - i : arity - 1;
        st[0] = tag;
        st[1] = acc;
        memcpy(&st[2], &in[i], m * sizeof *in);
        for (size_t j = 2 + m; j <= arity; j++) cuzk_fr_set_zero(&st[j]);
        permute(p, st, NULL, true);
        acc = st[1];
    }
    *out = acc;
    return CUZK_OK;
}
