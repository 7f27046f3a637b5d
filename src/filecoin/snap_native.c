/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SnapDeals natively: the geometry of every sector size storage-proofs-update knows (constants.rs), the challenges
 * of a partition (challenges.rs), phi and rho (vanilla.rs), and the check of a partition proof against a request
 * that mirrors what the circuit enforces, so that a bad vanilla proof is named before a witness is made. */
#include <stdlib.h>

#include "fil_internal.h"
#include "snap_int.h"

/* ---- geometry ---------------------------------------------------------------------------------------------------- */

/* The sizes only the tests of storage-proofs-update use: partitions, challenges, apex leaves and h from its
 * constants.rs, tree R shapes from validate_tree_r_shape. */
/* clang-format off */
#define TR(B, S, T, L) {B, S, T, L} /* tree R: base, sub, top arity, base levels */
/* clang-format on */
#define TEST_ENTRY(NAME, SRS, BYTES, LOG2, PARTS, CH, TR, APEX, H)                                                     \
    {                                                                                                                  \
        CUZK_FIL_CLASS_UPDATE, CUZK_FIL_SNAP_TEST_ID, NAME, CUZK_FIL_KIND_SNAP, CUZK_FIL_API_1_1, BYTES, 1ULL << LOG2, \
            PARTS, CH, 0, 0, 0, TR, {2, 0, 0, LOG2}, APEX, H, {0}, SRS                                                 \
    }

static const cuzk_fil_proof test_sizes[] = {
    TEST_ENTRY("EmptySectorUpdate1KiB (test size)", "snap-1k", 1ULL << 10, 5, 1, 10, TR(8, 4, 0, 1), 8, 1),
    TEST_ENTRY("EmptySectorUpdate4KiB (test size)", "snap-4k", 4ULL << 10, 7, 1, 10, TR(8, 2, 0, 2), 8, 1),
    TEST_ENTRY("EmptySectorUpdate8KiB (test size)", "snap-8k", 8ULL << 10, 8, 1, 10, TR(8, 4, 0, 2), 8, 1),
    TEST_ENTRY("EmptySectorUpdate16KiB (test size)", "snap-16k", 16ULL << 10, 9, 2, 10, TR(8, 8, 0, 2), 128, 1),
    TEST_ENTRY("EmptySectorUpdate32KiB (test size)", "snap-32k", 32ULL << 10, 10, 2, 10, TR(8, 8, 2, 2), 128, 1),
    TEST_ENTRY("EmptySectorUpdate16MiB (test size)", "snap-16m", 16ULL << 20, 19, 4, 10, TR(8, 2, 0, 6), 128, 10),
};

const cuzk_fil_proof *cuzk_fil_snap_geometry(uint64_t sector_size)
{
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls == CUZK_FIL_CLASS_UPDATE && p->sector_size == sector_size) return p;
    }
    for (size_t i = 0; i < sizeof test_sizes / sizeof test_sizes[0]; i++)
        if (test_sizes[i].sector_size == sector_size) return &test_sizes[i];
    return NULL;
}

cuzk_status cuzk_fil_snap_need(const cuzk_fil_proof *p, cuzk_errmsg *err)
{
    if (p == NULL || p->cls != CUZK_FIL_CLASS_UPDATE || p->nodes < 2 || (p->nodes & (p->nodes - 1)) != 0 ||
        p->partitions == 0 || (p->partitions & (p->partitions - 1)) != 0 || p->apex_leaves < 2 ||
        (p->apex_leaves & (p->apex_leaves - 1)) != 0 || p->challenges == 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s is not a SnapDeals geometry", p != NULL ? p->name : "NULL");
    cuzk_fil_snap_dims d;
    cuzk_fil_snap_dims_of(p, &d);
    if (d.cbits < d.pbits + d.abits || d.rbits == 0 || d.rbits > 254)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s: %u partitions of %u apex leaves do not fit %llu nodes",
                         p->name, p->partitions, p->apex_leaves, (unsigned long long)p->nodes);
    return CUZK_OK;
}

void cuzk_fil_snap_dims_of(const cuzk_fil_proof *p, cuzk_fil_snap_dims *d)
{
    d->cbits = cuzk_log2_ceil(p->nodes);
    d->pbits = cuzk_log2_ceil(p->partitions);
    d->abits = cuzk_log2_ceil(p->apex_leaves);
    d->rbits = d->cbits - d->pbits;
    d->per_digest = d->rbits > 0 ? CUZK_NUM_CAPACITY / d->rbits : 0;
    d->digests = d->per_digest > 0 ? (p->challenges + d->per_digest - 1) / d->per_digest : 0;
    d->apex_path = d->cbits - d->pbits - d->abits;
}

/* ---- commitments ------------------------------------------------------------------------------------------------- */

cuzk_status cuzk_fil_commitment_parse(const uint8_t *buf, size_t len, uint8_t out[32], cuzk_errmsg *err)
{
    /* CIDv1, the codec and the multihash code as unsigned varints, the digest length 32 */
    static const uint8_t sealed[8] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    static const uint8_t unsealed[7] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    if (buf == NULL && len > 0) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no buffer");
    if (len == 32) {
        memcpy(out, buf, 32);
        return CUZK_OK;
    }
    if ((len == 40 && memcmp(buf, sealed, 8) == 0) || (len == 39 && memcmp(buf, unsealed, 7) == 0)) {
        memcpy(out, buf + len - 32, 32);
        return CUZK_OK;
    }
    if (len == 39 || len == 40)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "a %zu-byte value that is not a Filecoin commitment CID", len);
    return cuzk_fail(err, CUZK_ERR_BAD_LENGTH, "%zu bytes: a commitment is 32 bytes or a 39/40-byte CID", len);
}

/* ---- phi, rho, challenges ---------------------------------------------------------------------------------------- */

static cuzk_status gen_hash(const cuzk_fr_t *a, const cuzk_fr_t *b, cuzk_fr_t *out, cuzk_errmsg *err)
{
    cuzk_fr_t tag, in[2] = {*a, *b};
    cuzk_status s = cuzk_poseidon_tag(&tag, CUZK_POSEIDON_CUSTOM, 2, CUZK_POSEIDON_GEN_RANDOMNESS_ID, err);
    if (s != CUZK_OK) return s;
    return cuzk_poseidon_hash(out, 2, &tag, in, 2, err);
}

static cuzk_status fr_of(cuzk_fr_t *out, const uint8_t b[32], const char *name, cuzk_errmsg *err)
{
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK)
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "%s is not below r (top byte 0x%02x)", name, b[31]);
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_phi(const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], cuzk_fr_t *phi,
                              cuzk_errmsg *err)
{
    cuzk_fr_t d, r;
    cuzk_status s;
    if ((s = fr_of(&d, comm_d_new, "comm_d_new", err)) != CUZK_OK) return s;
    if ((s = fr_of(&r, comm_r_old, "comm_r_old", err)) != CUZK_OK) return s;
    return gen_hash(&d, &r, phi, err);
}

cuzk_status cuzk_fil_snap_rho(const cuzk_fr_t *phi, uint64_t high, cuzk_fr_t *rho, cuzk_errmsg *err)
{
    cuzk_fr_t h;
    cuzk_fr_from_u64(&h, high);
    return gen_hash(phi, &h, rho, err);
}

cuzk_status cuzk_fil_snap_challenges(const cuzk_fil_proof *p, uint32_t k, const uint8_t comm_r_new[32], uint64_t *out,
                                     cuzk_errmsg *err)
{
    cuzk_status s = cuzk_fil_snap_need(p, err);
    if (s != CUZK_OK) return s;
    if (k >= p->partitions)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "partition %u of %s, which has %u", k, p->name, p->partitions);
    cuzk_fil_snap_dims d;
    cuzk_fil_snap_dims_of(p, &d);
    cuzk_fr_t comm;
    if ((s = fr_of(&comm, comm_r_new, "comm_r_new", err)) != CUZK_OK) return s;
    uint32_t n = 0;
    /* digest j of partition k is number k·digests + j across the sector; each gives per_digest challenges of rbits
     * bits taken least significant first, with k appended above them */
    for (uint32_t j = 0; j < d.digests; j++) {
        cuzk_fr_t idx, digest;
        cuzk_fr_from_u64(&idx, (uint64_t)k * d.digests + j);
        if ((s = gen_hash(&comm, &idx, &digest, err)) != CUZK_OK) return s;
        uint8_t b[32];
        cuzk_fr_to_bytes_le(b, &digest);
        for (uint32_t i = 0; i < d.per_digest && n < p->challenges; i++, n++) {
            uint64_t c = 0;
            for (unsigned t = 0; t < d.rbits; t++) {
                unsigned bit = i * d.rbits + t;
                c |= (uint64_t)((b[bit >> 3] >> (bit & 7)) & 1) << t;
            }
            out[n] = c | (uint64_t)k << d.rbits;
        }
    }
    return CUZK_OK;
}

/* ---- tree D nodes ------------------------------------------------------------------------------------------------ */

void cuzk_fil_snap_sha_node(const uint8_t left[32], const uint8_t right[32], uint8_t out[32])
{
    uint8_t buf[64];
    memcpy(buf, left, 32);
    memcpy(buf + 32, right, 32);
    cuzk_fil_sha256(buf, 64, out);
    out[31] &= 0x3f; /* Sha256Domain::trim_to_fr32 */
}

/* ---- validation -------------------------------------------------------------------------------------------------- */

typedef struct {
    const cuzk_fil_snap_circuit *c;
    cuzk_fil_snap_dims d;
    cuzk_fr_t phi;
    const uint64_t *challenges;
    cuzk_status *st;  /* per challenge */
    cuzk_errmsg *msg; /* per challenge */
} validate_ctx;

static const char *const proof_names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};

static cuzk_status check_challenge(const validate_ctx *v, uint32_t i, cuzk_errmsg *err)
{
    const cuzk_fil_proof *p = v->c->proof;
    const cuzk_fil_snap_partition *s = v->c->part;
    const cuzk_fil_snap_challenge *ch = &s->c[i];
    const cuzk_fil_merkle_proof *m[3] = {&ch->r_old, &ch->d_new, &ch->r_new};
    cuzk_status st;
    for (int t = 0; t < 3; t++) {
        uint8_t root[32];
        const cuzk_fil_shape *sh = t == 1 ? &p->tree_d : &p->tree_r;
        st = cuzk_fil_merkle_root(m[t], sh, t == 1 ? CUZK_FIL_HASH_SHA256 : CUZK_FIL_HASH_POSEIDON, root, err);
        if (st != CUZK_OK) return st;
        if (memcmp(root, m[t]->root, 32) != 0)
            return cuzk_fail(err, CUZK_ERR_PROOF_INVALID, "challenge_proofs[%u].%s does not hash to its root", i,
                             proof_names[t]);
        if (t != 1) continue;
        /* the circuit hashes the data leaf up to the apex leaf the challenge's bits select, with its own siblings */
        uint8_t cur[32];
        memcpy(cur, ch->d_new.leaf, 32);
        for (unsigned l = 0; l < v->d.apex_path; l++) {
            const uint8_t *sib = ch->d_new.siblings[l];
            if ((v->challenges[i] >> l) & 1) cuzk_fil_snap_sha_node(sib, cur, cur);
            else cuzk_fil_snap_sha_node(cur, sib, cur);
        }
        uint64_t a = (v->challenges[i] >> v->d.apex_path) & (p->apex_leaves - 1);
        if (memcmp(cur, s->apex_leafs[a], 32) != 0)
            return cuzk_fail(err, CUZK_ERR_PROOF_INVALID,
                             "challenge_proofs[%u].proof_d_new does not lead to apex_leafs[%llu]", i,
                             (unsigned long long)a);
    }
    /* label_r_new = label_r_old + label_d_new · rho(h high bits of the challenge) */
    uint32_t h = v->c->h != 0 ? v->c->h : p->snap_h;
    cuzk_fr_t rho, old, data, neu, want;
    if ((st = cuzk_fil_snap_rho(&v->phi, v->challenges[i] >> (v->d.cbits - h), &rho, err)) != CUZK_OK) return st;
    cuzk_fr_from_bytes_le(&old, ch->r_old.leaf); /* the decoder refused leaves not below r */
    cuzk_fr_from_bytes_le(&data, ch->d_new.leaf);
    cuzk_fr_from_bytes_le(&neu, ch->r_new.leaf);
    cuzk_fr_mul(&want, &data, &rho);
    cuzk_fr_add(&want, &want, &old);
    if (!cuzk_fr_eq(&want, &neu))
        return cuzk_fail(err, CUZK_ERR_PROOF_INVALID,
                         "challenge_proofs[%u].proof_r_new.leaf is not proof_r_old.leaf + proof_d_new.leaf * rho", i);
    return CUZK_OK;
}

static void check_range(void *ctx, size_t lo, size_t hi)
{
    validate_ctx *v = ctx;
    for (size_t i = lo; i < hi; i++) v->st[i] = check_challenge(v, (uint32_t)i, &v->msg[i]);
}

/* What can be checked before the per-challenge work: counts, partition, derived challenges, shared roots,
 * commitments, the partition path and the apex tree. */
static cuzk_status check_partition(const cuzk_fil_snap_circuit *c, const cuzk_fil_snap_dims *d, const uint64_t *chal,
                                   cuzk_errmsg *err)
{
    const cuzk_fil_proof *p = c->proof;
    const cuzk_fil_snap_partition *s = c->part;
    if (s->challenges != p->challenges || s->apex_count != p->apex_leaves)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%u challenges and %u apex leaves, %s needs %u and %u", s->challenges,
                         s->apex_count, p->name, p->challenges, p->apex_leaves);
    for (uint32_t i = 0; i < s->challenges; i++) {
        const cuzk_fil_snap_challenge *ch = &s->c[i];
        const cuzk_fil_merkle_proof *m[3] = {&ch->r_old, &ch->d_new, &ch->r_new};
        for (int t = 0; t < 3; t++)
            if (m[t]->leaf_index != chal[i])
                return cuzk_fail(err, CUZK_ERR_MISMATCH,
                                 "challenge_proofs[%u].%s opens leaf %llu, but challenge %u of partition %u (from "
                                 "comm_r_new) is leaf %llu",
                                 i, proof_names[t], (unsigned long long)m[t]->leaf_index, i, c->k,
                                 (unsigned long long)chal[i]);
        const cuzk_fil_merkle_proof *m0[3] = {&s->c[0].r_old, &s->c[0].d_new, &s->c[0].r_new};
        for (int t = 0; t < 3; t++)
            if (memcmp(m[t]->root, m0[t]->root, 32) != 0)
                return cuzk_fail(err, CUZK_ERR_MISMATCH,
                                 "challenge_proofs[%u].%s.root differs from "
                                 "challenge_proofs[0]'s",
                                 i, proof_names[t]);
    }
    if (memcmp(s->c[0].d_new.root, c->comm_d_new, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "challenge_proofs[0].proof_d_new.root is not comm_d_new");
    static const char *const comm_names[2] = {"comm_r_old", "comm_r_new"};
    const uint8_t *want[2] = {c->comm_r_old, c->comm_r_new};
    const uint8_t *roots[2] = {s->c[0].r_old.root, s->c[0].r_new.root};
    for (int t = 0; t < 2; t++) {
        uint8_t got[32];
        cuzk_status st = cuzk_poseidon_comm_r(got, s->comm_c, roots[t], err);
        if (st != CUZK_OK) return st;
        if (memcmp(got, want[t], 32) != 0)
            return cuzk_fail(err, CUZK_ERR_PROOF_INVALID,
                             "%s is not Poseidon-2(comm_c, challenge_proofs[0].%s.root): comm_c or the tree R belongs "
                             "to another sector",
                             comm_names[t], proof_names[2 * t]);
    }
    /* the circuit takes the partition path from challenge 0; circuit.rs requires every challenge to carry it */
    for (uint32_t i = 1; i < s->challenges; i++)
        for (unsigned l = d->cbits - d->pbits; l < d->cbits; l++)
            if (memcmp(s->c[i].d_new.siblings[l], s->c[0].d_new.siblings[l], 32) != 0)
                return cuzk_fail(err, CUZK_ERR_MISMATCH,
                                 "challenge_proofs[%u].proof_d_new.path[%u] differs from challenge_proofs[0]'s "
                                 "partition path",
                                 i, l);
    /* apex tree, then up the partition path with k's bits */
    uint32_t n = p->apex_leaves;
    uint8_t(*row)[32] = malloc((size_t)n * 32);
    if (row == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %u apex leaves", n);
    memcpy(row, s->apex_leafs, (size_t)n * 32);
    for (; n > 1; n /= 2)
        for (uint32_t j = 0; j < n / 2; j++) cuzk_fil_snap_sha_node(row[2 * j], row[2 * j + 1], row[j]);
    uint8_t cur[32];
    memcpy(cur, row[0], 32);
    free(row);
    for (unsigned l = 0; l < d->pbits; l++) {
        const uint8_t *sib = s->c[0].d_new.siblings[d->cbits - d->pbits + l];
        if ((c->k >> l) & 1) cuzk_fil_snap_sha_node(sib, cur, cur);
        else cuzk_fil_snap_sha_node(cur, sib, cur);
    }
    if (memcmp(cur, c->comm_d_new, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_PROOF_INVALID,
                         "apex_leafs with challenge_proofs[0]'s partition path do not hash to comm_d_new");
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_validate(const cuzk_fil_snap_circuit *c, unsigned threads, cuzk_errmsg *err)
{
    if (c == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no circuit");
    cuzk_status st = cuzk_fil_snap_need(c->proof, err);
    if (st != CUZK_OK) return st;
    if (c->part == NULL || c->comm_r_old == NULL || c->comm_d_new == NULL || c->comm_r_new == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a witness needs the partition proof and the three commitments");
    const cuzk_fil_proof *p = c->proof;
    cuzk_fr_t pub[4];
    if ((st = cuzk_fil_snap_public_inputs(p, c->k, c->h, c->comm_r_old, c->comm_d_new, c->comm_r_new, pub, err)) !=
        CUZK_OK)
        return st;
    validate_ctx v = {.c = c};
    cuzk_fil_snap_dims_of(p, &v.d);
    uint32_t n = p->challenges;
    uint64_t *chal = malloc((size_t)n * sizeof *chal);
    v.st = malloc((size_t)n * sizeof *v.st);
    v.msg = malloc((size_t)n * sizeof *v.msg);
    if (chal == NULL || v.st == NULL || v.msg == NULL) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %u challenges", n);
        goto out;
    }
    v.challenges = chal;
    if ((st = cuzk_fil_snap_challenges(p, c->k, c->comm_r_new, chal, err)) != CUZK_OK) goto out;
    if ((st = check_partition(c, &v.d, chal, err)) != CUZK_OK) goto out;
    if ((st = cuzk_fil_snap_phi(c->comm_d_new, c->comm_r_old, &v.phi, err)) != CUZK_OK) goto out;
    cuzk_par_for(threads, n, 1, check_range, &v);
    for (uint32_t i = 0; i < n; i++)
        if (v.st[i] != CUZK_OK) {
            st = v.st[i];
            if (err != NULL) *err = v.msg[i];
            break;
        }
out:
    free(chal);
    free(v.st);
    free(v.msg);
    return st;
}
