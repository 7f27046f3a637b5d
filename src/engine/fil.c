/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Filecoin proof kinds: what a request of each kind must hold, how a partition's witness is made and what its
 * proof is verified against (engine_fil.h), as filecoin-proofs' entry points that Curio's daemon calls do it:
 *
 *   WINNING_POST           generate_winning_post_with_vanilla: one sector's vanilla proof (66 challenges), the
 *                          randomness, the prover id from miner_id; one partition
 *   WINDOW_POST_PARTITION  generate_single_window_post_with_vanilla: the partition's sectors' vanilla proofs in their
 *                          order (1 ..= the circuit's sectors; a short partition is padded with its last sector),
 *                          the randomness, partition_index
 *   POREP_SEAL_COMMIT      seal_commit_phase2: vanilla_proof the commit-phase-1 output (Curio's envelope or the bare
 *                          JSON), sector_number the sector id, miner_id the prover id; partitions the registered
 *                          proof's (10 at 32 GiB), every one of them checked in the C1 before anything is queued
 *   SNAP_DEALS_UPDATE      generate_empty_sector_update_proof_with_vanilla: one vanilla proof per partition (16 at
 *                          32 GiB), comm_r_old, comm_d_new, comm_r_new (32 bytes or the commitments' CIDs)
 *
 * Randomness must be below r, as filecoin-proofs' as_safe_commitment demands (Curio and Lotus clear its top two bits
 * before they ask for a proof); sector_number is not read for PoSt (the sectors are the vanilla proofs'), as in
 * Curio's daemon. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>
#endif

#include "engine_fil.h"

/* ---- PoSt ------------------------------------------------------------------------------------------------------- */

typedef struct {
    uint8_t randomness[32], prover_id[32];
    uint32_t partition_index;
    size_t n;                      /* sectors */
    cuzk_fil_post_sector *sec;     /* [n], in the request's order */
    cuzk_fil_post_pub_sector *pub; /* [n] */
} post_input;

static void post_release(void *data)
{
    post_input *q = data;
    if (q == NULL) return;
    for (size_t i = 0; q->sec != NULL && i < q->n; i++) cuzk_fil_post_sector_free(&q->sec[i]);
    free(q->sec);
    free(q->pub);
    free(q);
}

/* the randomness below r: filecoin-proofs' as_safe_commitment("randomness") */
static bool below_r(const uint8_t b[32])
{
    cuzk_fr_t f;
    return cuzk_fr_from_bytes_le(&f, b) == CUZK_OK;
}

static cuzk_status post_decode(const engine_fil_env *env, const cuzk_fil_proof *p, const cuzk_engine_request *r,
                               engine_fil_input *in, cuzk_errmsg *err)
{
    (void)env;
    bool winning = p->kind == CUZK_FIL_KIND_WINNING_POST;
    size_t n = r->num_vanilla_proofs;
    if (r->randomness.len != 32)
        return cuzk_fail(err, CUZK_ERR_BAD_LENGTH, "randomness: %zu bytes, a PoSt challenge seed has 32",
                         r->randomness.len);
    if (!below_r(r->randomness.data))
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL,
                         "randomness: not below the scalar field's modulus (last byte 0x%02x; Filecoin clears its top "
                         "two bits: randomness[31] &= 0x3f)",
                         r->randomness.data[31]);
    if (winning && n != 1)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "vanilla_proofs: %zu given, %s proves one sector (its %u challenges in one vanilla proof)", n,
                         p->name, p->challenges);
    if (!winning && (n == 0 || n > p->post_sectors))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "vanilla_proofs: %zu given, a %s partition holds 1 to %u sectors",
                         n, p->name, p->post_sectors);
    if (winning && r->partition_index != 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "partition_index: %u, WinningPoSt has one partition (0)",
                         r->partition_index);
    post_input *q = calloc(1, sizeof *q);
    if (q == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    q->sec = calloc(n, sizeof *q->sec);
    q->pub = calloc(n, sizeof *q->pub);
    q->n = n;
    if (q->sec == NULL || q->pub == NULL) {
        post_release(q);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for %zu vanilla proofs", n);
    }
    memcpy(q->randomness, r->randomness.data, 32);
    cuzk_fil_prover_id(r->miner_id, q->prover_id);
    q->partition_index = r->partition_index;
    size_t want = cuzk_fil_post_sector_bytes(p);
    for (size_t i = 0; i < n; i++) {
        const cuzk_engine_bytes *v = &r->vanilla_proofs[i];
        cuzk_errmsg sub = {{0}};
        cuzk_status s = CUZK_OK;
        if (v->len != want)
            s = cuzk_fail(&sub, v->len < want ? CUZK_ERR_TRUNCATED : CUZK_ERR_BAD_LENGTH,
                          "%zu bytes, a %s FallbackPoStSectorProof has %zu", v->len, p->name, want);
        if (s == CUZK_OK) s = cuzk_fil_post_sector_decode(p, v->data, v->len, &q->sec[i], &sub);
        /* each opening must be the challenge the randomness derives for the sector's place (API 1.0 and 1.1 count
         * the sectors of earlier partitions, 1.2 does not) */
        uint64_t index = winning ? 0 : (uint64_t)r->partition_index * p->post_sectors + i;
        if (s == CUZK_OK) s = cuzk_fil_post_sector_check(p, &q->sec[i], q->randomness, index, &sub);
        if (s != CUZK_OK) {
            post_release(q);
            return cuzk_fail(err, s, "vanilla_proofs[%zu]: %s", i, sub.msg);
        }
        q->pub[i].sector_id = q->sec[i].sector_id;
        memcpy(q->pub[i].comm_r, q->sec[i].comm_r, 32);
    }
    in->data = q;
    in->bytes = sizeof *q + n * (sizeof *q->sec + sizeof *q->pub +
                                 p->challenges * (sizeof(cuzk_fil_merkle_proof) +
                                                  (uint64_t)cuzk_fil_shape_siblings(&p->tree_r) * 32));
    return CUZK_OK;
}

static cuzk_status post_witness(const engine_fil_input *in, uint32_t k, unsigned threads, cuzk_fr_t *z, uint64_t n,
                                cuzk_errmsg *err)
{
    (void)k; /* one partition per request */
    const post_input *q = in->data;
    cuzk_fil_post_request rq = {in->proof, q->sec, q->n, NULL, q->n, q->randomness, q->prover_id, q->partition_index};
    return cuzk_fil_post_witness(&rq, z, n, threads, err);
}

static cuzk_status post_inputs(const engine_fil_input *in, uint32_t k, cuzk_fr_t *out, size_t n, cuzk_errmsg *err)
{
    (void)k;
    const post_input *q = in->data;
    size_t want = cuzk_fil_post_public_input_count(in->proof);
    if (n != want)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "the key has %zu public inputs, %s's circuit %zu", n, in->proof->name,
                         want);
    return cuzk_fil_post_public_inputs(in->proof, q->randomness, q->pub, q->n, q->partition_index, out, err);
}

/* ---- the circuit objects jobs share ------------------------------------------------------------------------------ */

#define FIL_MAX_CIRCUITS 16

struct engine_fil_circuits {
    pthread_mutex_t lock;
    size_t n;
    struct {
        const char *srs_id; /* one PoRep geometry per SRS id (its interactive, synthetic and NI proofs share it) */
        cuzk_fil_porep_circuit *c;
    } porep[FIL_MAX_CIRCUITS];
};

cuzk_status cuzk_engine_fil_circuits_new(engine_fil_circuits **out)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL) return CUZK_ERR_NOMEM;
    pthread_mutex_init(&(*out)->lock, NULL);
    return CUZK_OK;
}

void cuzk_engine_fil_circuits_free(engine_fil_circuits *c)
{
    if (c == NULL) return;
    for (size_t i = 0; i < c->n; i++) cuzk_fil_porep_circuit_free(c->porep[i].c);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* p's PoRep circuit object, made on first use (others asking meanwhile wait for it). */
static cuzk_status porep_circuit(engine_fil_circuits *cc, const cuzk_fil_proof *p, unsigned threads,
                                 const cuzk_fil_porep_circuit **out, cuzk_errmsg *err)
{
    pthread_mutex_lock(&cc->lock);
    cuzk_status s = CUZK_OK;
    size_t i = 0;
    while (i < cc->n && strcmp(cc->porep[i].srs_id, p->srs_id) != 0) i++;
    if (i == cc->n) {
        if (cc->n == FIL_MAX_CIRCUITS) {
            s = cuzk_fail(err, CUZK_ERR_TOO_LARGE, "more than %d PoRep geometries", FIL_MAX_CIRCUITS);
        } else if ((s = cuzk_fil_porep_circuit_new(&cc->porep[i].c, p, threads, err)) == CUZK_OK) {
            cc->porep[i].srs_id = p->srs_id;
            cc->n++;
        }
    }
    *out = s == CUZK_OK ? cc->porep[i].c : NULL;
    pthread_mutex_unlock(&cc->lock);
    return s;
}

/* ---- PoRep (commit phase 2) -------------------------------------------------------------------------------------- */

typedef struct {
    cuzk_fil_c1 c1;
    cuzk_fil_porep_public pub;             /* what verify_seal is given: the C1's commitments, ticket and seed with
                                            * the request's prover id and sector */
    const cuzk_fil_porep_circuit *circuit; /* engine_fil_circuits' */
    bool benchmark;
} porep_input;

static void porep_release(void *data)
{
    porep_input *q = data;
    if (q == NULL) return;
    cuzk_fil_c1_free(&q->c1);
    free(q);
}

static cuzk_status porep_decode(const engine_fil_env *env, const cuzk_fil_proof *p, const cuzk_engine_request *r,
                                engine_fil_input *in, cuzk_errmsg *err)
{
    if (p->kind == CUZK_FIL_KIND_POREP_NI)
        return cuzk_fail(err, CUZK_ERR_UNSUPPORTED,
                         "registered_proof %u (%s): NI-PoRep's commit phase 2 is a SnarkPack aggregate of its "
                         "partition proofs, which cuzk does not make",
                         p->id, p->name);
    if (r->vanilla_proof.len == 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "vanilla_proof: empty; a PoRep request carries the commit-phase-1 output (Curio's envelope "
                         "{\"SectorNum\", \"Phase1Out\", \"SectorSize\"} or the bare SealCommitPhase1Output JSON)");
    if (r->num_vanilla_proofs != 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "vanilla_proofs: %zu given; a PoRep request carries its C1 in vanilla_proof alone",
                         r->num_vanilla_proofs);
    porep_input *q = calloc(1, sizeof *q);
    if (q == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    q->benchmark = env->benchmark;
    cuzk_errmsg sub = {{0}};
    cuzk_status s = cuzk_fil_c1_parse(r->vanilla_proof.data, r->vanilla_proof.len, &q->c1, &sub);
    if (s != CUZK_OK) {
        free(q);
        return cuzk_fail(err, s, "vanilla_proof: %s", sub.msg);
    }
    const cuzk_fil_c1 *c1 = &q->c1;
    if (c1->proof != p) {
        s = cuzk_fail(err, CUZK_ERR_MISMATCH,
                      "registered_proof %llu is %s, the C1 in vanilla_proof is for %s (registered proof %u)",
                      (unsigned long long)r->registered_proof, p->name, c1->proof->name, c1->proof->id);
    } else if (c1->wrapped && c1->sector_num != r->sector_number) {
        s = cuzk_fail(err, CUZK_ERR_MISMATCH, "sector_number %llu disagrees with vanilla_proof's SectorNum %llu",
                      (unsigned long long)r->sector_number, (unsigned long long)c1->sector_num);
    } else if (c1->partitions != in->partitions) {
        s = cuzk_fail(err, CUZK_ERR_MISMATCH, "vanilla_proof: %u partitions, %s has %u", c1->partitions, p->name,
                      in->partitions);
    }
    uint8_t prover_id[32];
    cuzk_fil_prover_id(r->miner_id, prover_id);
    /* everything the circuit will enforce, natively: replica id, challenges, parents, paths, labels, encoding */
    if (s == CUZK_OK && !env->benchmark &&
        (s = cuzk_fil_porep_c1_check(c1, prover_id, r->sector_number, env->threads, &sub)) != CUZK_OK) {
        bool replica = strncmp(sub.msg, "replica_id", 10) == 0;
        if (replica)
            cuzk_fail(err, s, "vanilla_proof: %s (prover id of miner_id %llu, sector_number %llu)", sub.msg,
                      (unsigned long long)r->miner_id, (unsigned long long)r->sector_number);
        else cuzk_fail(err, s, "vanilla_proof: %s", sub.msg);
    }
    if (s == CUZK_OK) {
        cuzk_fil_porep_public_of_c1(c1, prover_id, r->sector_number, &q->pub);
        s = porep_circuit(env->circuits, p, env->threads, &q->circuit, err);
    }
    if (s != CUZK_OK) {
        porep_release(q);
        return s;
    }
    cuzk_cs_counts k;
    cuzk_fil_porep_circuit_counts(q->circuit, &k);
    in->counts_known = true;
    in->num_inputs = k.inputs;
    in->num_aux = k.aux;
    in->num_rows = k.rows;
    in->data = q;
    in->bytes = sizeof *q + c1->mem_bytes;
    return CUZK_OK;
}

/* Partition k's public inputs from the request alone (verify_seal's). */
static cuzk_status porep_inputs(const engine_fil_input *in, uint32_t k, cuzk_fr_t *out, size_t n, cuzk_errmsg *err)
{
    const porep_input *q = in->data;
    size_t want = cuzk_fil_porep_public_input_count(in->proof);
    if (n != want)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "the key has %zu public inputs, %s's circuit %zu", n, in->proof->name,
                         want);
    return cuzk_fil_porep_public_inputs(in->proof, &q->pub, k, out, err);
}

/* The witness's public part against the request's: a C1 that passed its check gives them equal, so a difference is
 * named here rather than found as a proof that does not verify. */
static cuzk_status inputs_agree(const engine_fil_input *in, uint32_t k, const cuzk_fr_t *z, const char *const *names,
                                cuzk_errmsg *err)
{
    size_t n = in->counts_known && in->num_inputs > 0 ? (size_t)in->num_inputs - 1 : 0;
    cuzk_fr_t *pub = malloc((n ? n : 1) * sizeof *pub);
    if (pub == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu public inputs", n);
    cuzk_status s = in->kind->public_inputs(in, k, pub, n, err);
    for (size_t i = 0; s == CUZK_OK && i < n; i++)
        if (!cuzk_fr_eq(&z[1 + i], &pub[i]))
            s = cuzk_fail(err, CUZK_ERR_MISMATCH,
                          "public input %zu%s%s%s of the witness differs from the one derived from the request", i + 1,
                          names ? " (" : "", names ? names[i] : "", names ? ")" : "");
    free(pub);
    return s;
}

static cuzk_status porep_witness(const engine_fil_input *in, uint32_t k, unsigned threads, cuzk_fr_t *z, uint64_t n,
                                 cuzk_errmsg *err)
{
    const porep_input *q = in->data;
    cuzk_status s = cuzk_fil_porep_witness(q->circuit, &q->c1, k, threads, z, n, err);
    if (s != CUZK_OK || q->benchmark) return s;
    return inputs_agree(in, k, z, NULL, err);
}

/* ---- SnapDeals (empty sector update) ----------------------------------------------------------------------------- */

typedef struct {
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    uint32_t n;
    cuzk_fil_snap_partition *part; /* [n], partition k's vanilla proof at k */
    bool benchmark;
} snap_input;

static void snap_release(void *data)
{
    snap_input *q = data;
    if (q == NULL) return;
    for (uint32_t k = 0; q->part != NULL && k < q->n; k++) cuzk_fil_snap_partition_free(&q->part[k]);
    free(q->part);
    free(q);
}

/* One of the request's commitments: 32 bytes or the commitment's CID (a replica's sealed, the data's unsealed: 40 and
 * 39 bytes), below r. */
static cuzk_status snap_commitment(const char *name, bool sealed, const cuzk_engine_bytes *b, uint8_t out[32],
                                   cuzk_errmsg *err)
{
    cuzk_errmsg sub = {{0}};
    if (cuzk_fil_commitment_parse(b->data, b->len, out, &sub) != CUZK_OK)
        return cuzk_fail(err, CUZK_ERR_BAD_LENGTH, "%s: %s", name, sub.msg);
    if (b->len != 32 && (b->len == 40) != sealed)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "%s: the CID of %s commitment, %s is %s one", name,
                         sealed ? "an unsealed (data)" : "a sealed (replica)", name,
                         sealed ? "a sealed" : "an unsealed");
    if (!below_r(out))
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "%s: not below the scalar field's modulus (last byte 0x%02x)",
                         name, out[31]);
    return CUZK_OK;
}

static cuzk_status snap_decode(const engine_fil_env *env, const cuzk_fil_proof *p, const cuzk_engine_request *r,
                               engine_fil_input *in, cuzk_errmsg *err)
{
    size_t n = r->num_vanilla_proofs;
    if (n != p->partitions)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "vanilla_proofs: %zu given, %s has %u partitions (one PartitionProof each, in order)", n,
                         p->name, p->partitions);
    if (r->vanilla_proof.len != 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "vanilla_proof: %zu bytes given; a SnapDeals request carries its partition proofs in "
                         "vanilla_proofs",
                         r->vanilla_proof.len);
    snap_input *q = calloc(1, sizeof *q);
    if (q == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    q->benchmark = env->benchmark;
    cuzk_status s = snap_commitment("comm_r_old", true, &r->comm_r_old, q->comm_r_old, err);
    if (s == CUZK_OK) s = snap_commitment("comm_d_new", false, &r->comm_d_new, q->comm_d_new, err);
    if (s == CUZK_OK) s = snap_commitment("comm_r_new", true, &r->comm_r_new, q->comm_r_new, err);
    if (s == CUZK_OK && (q->part = calloc(n, sizeof *q->part)) == NULL)
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    if (s == CUZK_OK) q->n = (uint32_t)n;
    size_t want = cuzk_fil_snap_partition_bytes(p);
    for (uint32_t k = 0; s == CUZK_OK && k < n; k++) {
        const cuzk_engine_bytes *v = &r->vanilla_proofs[k];
        cuzk_errmsg sub = {{0}};
        if (v->len != want)
            s = cuzk_fail(&sub, v->len < want ? CUZK_ERR_TRUNCATED : CUZK_ERR_BAD_LENGTH,
                          "%zu bytes, a %s PartitionProof has %zu", v->len, p->name, want);
        if (s == CUZK_OK) s = cuzk_fil_snap_partition_decode(p, v->data, v->len, &q->part[k], &sub);
        /* its challenges partition k's, its roots shared, tree D's root comm_d_new (generated benchmark inputs have
         * roots of their own) */
        if (s == CUZK_OK)
            s = cuzk_fil_snap_partition_check(p, &q->part[k], k, env->benchmark ? NULL : q->comm_d_new, &sub);
        /* and every hash the circuit enforces */
        if (s == CUZK_OK && !env->benchmark) {
            cuzk_fil_snap_circuit c = {p, k, 0, &q->part[k], q->comm_r_old, q->comm_d_new, q->comm_r_new};
            s = cuzk_fil_snap_validate(&c, env->threads, &sub);
        }
        if (s != CUZK_OK) cuzk_fail(err, s, "vanilla_proofs[%u]: %s", k, sub.msg);
    }
    cuzk_cs_counts c;
    if (s == CUZK_OK) s = cuzk_fil_snap_counts(p, env->threads, &c, err);
    if (s != CUZK_OK) {
        snap_release(q);
        return s;
    }
    in->counts_known = true;
    in->num_inputs = c.inputs;
    in->num_aux = c.aux;
    in->num_rows = c.rows;
    in->data = q;
    in->bytes = sizeof *q + n * (sizeof *q->part + want + p->challenges * sizeof(cuzk_fil_snap_challenge));
    return CUZK_OK;
}

static cuzk_status snap_inputs(const engine_fil_input *in, uint32_t k, cuzk_fr_t *out, size_t n, cuzk_errmsg *err)
{
    const snap_input *q = in->data;
    if (n != CUZK_FIL_SNAP_INPUTS - 1)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "the key has %zu public inputs, %s's circuit %u", n, in->proof->name,
                         CUZK_FIL_SNAP_INPUTS - 1);
    return cuzk_fil_snap_public_inputs(in->proof, k, 0, q->comm_r_old, q->comm_d_new, q->comm_r_new, out, err);
}

/* WITNESS mode over the partition proof the decode validated (cuzk_fil_snap_witness would validate it again). */
static cuzk_status snap_witness(const engine_fil_input *in, uint32_t k, unsigned threads, cuzk_fr_t *z, uint64_t n,
                                cuzk_errmsg *err)
{
    const snap_input *q = in->data;
    if (k >= q->n || n < CUZK_FIL_SNAP_INPUTS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "partition %u of %u, a witness of %llu values", k, q->n,
                         (unsigned long long)n);
    cuzk_fil_snap_circuit c = {in->proof, k, 0, &q->part[k], q->comm_r_old, q->comm_d_new, q->comm_r_new};
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, CUZK_FIL_SNAP_INPUTS, n - CUZK_FIL_SNAP_INPUTS);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for a constraint system");
    cuzk_fil_snap_synthesize(cs, &c, threads);
    cuzk_status s = cuzk_cs_finish(cs, NULL, NULL, err);
    if (s != CUZK_OK || q->benchmark) return s;
    static const char *const names[4] = {"k_and_h_select", "comm_r_old", "comm_d_new", "comm_r_new"};
    return inputs_agree(in, k, z, names, err);
}

/* ---- the table --------------------------------------------------------------------------------------------------- */

static const engine_fil_kind kinds[] = {
    {CUZK_ENGINE_KIND_POREP_SEAL_COMMIT, porep_decode, porep_witness, porep_inputs, porep_release},
    {CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE, snap_decode, snap_witness, snap_inputs, snap_release},
    {CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, post_decode, post_witness, post_inputs, post_release},
    {CUZK_ENGINE_KIND_WINNING_POST, post_decode, post_witness, post_inputs, post_release},
};

cuzk_status cuzk_engine_fil_decode(const engine_fil_env *env, const cuzk_engine_request *r, engine_fil_input **out,
                                   cuzk_errmsg *err)
{
    *out = NULL;
    const engine_fil_kind *kind = NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].proof_kind == r->proof_kind) kind = &kinds[i];
    if (kind == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "proof kind %u is not a Filecoin kind", r->proof_kind);
    if (kind->decode == NULL)
        return cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "proof kind %s is not supported",
                         cuzk_engine_kind_wire_name(r->proof_kind));
    const cuzk_fil_proof *p;
    cuzk_status s = cuzk_fil_proof_for_request(r->proof_kind, r->registered_proof, r->sector_size, &p, err);
    if (s != CUZK_OK) return s;
    if (!cuzk_fil_circuit_supported(p))
        return cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "registered_proof %llu (%s): its circuit is not supported",
                         (unsigned long long)r->registered_proof, p->name);
    engine_fil_input *in = calloc(1, sizeof *in);
    if (in == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    in->kind = kind;
    in->proof = p;
    in->partitions = p->partitions ? p->partitions : 1;
    s = kind->decode(env, p, r, in, err);
    if (s != CUZK_OK) {
        free(in);
        return s;
    }
    in->bytes += sizeof *in;
    *out = in;
    return CUZK_OK;
}

void cuzk_engine_fil_free(engine_fil_input *in)
{
    if (in == NULL) return;
    if (in->kind != NULL && in->kind->release != NULL) in->kind->release(in->data);
    free(in);
}

/* ---- the parameter manifest -------------------------------------------------------------------------------------- */

void cuzk_engine_fil_manifest_free(engine_fil_digest *d, size_t n)
{
    for (size_t i = 0; d != NULL && i < n; i++) free(d[i].name);
    free(d);
}

static bool hex32(const char *s)
{
    if (s == NULL || strlen(s) != 32) return false;
    for (int i = 0; i < 32; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

cuzk_status cuzk_engine_fil_manifest_load(const char *path, engine_fil_digest **out, size_t *n, cuzk_errmsg *err)
{
    *out = NULL;
    *n = 0;
#ifdef CUZK_HAVE_JANSSON
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (root == NULL)
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "parameter manifest %s: line %d: %s", path, je.line, je.text);
    if (!json_is_object(root)) {
        json_decref(root);
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "parameter manifest %s: not a JSON object of file names", path);
    }
    size_t count = json_object_size(root);
    engine_fil_digest *d = calloc(count ? count : 1, sizeof *d);
    if (d == NULL) {
        json_decref(root);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    }
    const char *name;
    json_t *v;
    size_t i = 0;
    cuzk_status s = CUZK_OK;
    json_object_foreach(root, name, v)
    {
        const char *digest = json_string_value(json_object_get(v, "digest"));
        if (!json_is_object(v) || !hex32(digest)) {
            s = cuzk_fail(err, CUZK_ERR_BAD_JSON,
                          "parameter manifest %s: %.120s: no \"digest\" of 32 lowercase hex "
                          "digits",
                          path, name);
            break;
        }
        if (strchr(name, '/') != NULL || name[0] == '\0') {
            s = cuzk_fail(err, CUZK_ERR_BAD_JSON, "parameter manifest %s: %.120s: not a file name", path, name);
            break;
        }
        if ((d[i].name = strdup(name)) == NULL) {
            s = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
            break;
        }
        memcpy(d[i].digest, digest, 33);
        i++;
    }
    json_decref(root);
    if (s != CUZK_OK) {
        cuzk_engine_fil_manifest_free(d, i);
        return s;
    }
    *out = d;
    *n = i;
    return CUZK_OK;
#else
    return cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "parameter manifest %s: this build has no JSON reader (jansson)", path);
#endif
}

const char *cuzk_engine_fil_expected_digest(const engine_fil_digest *d, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(d[i].name, name) == 0) return d[i].digest;
    const cuzk_fil_param *m = cuzk_fil_params_find(name);
    return m != NULL ? m->digest : NULL;
}
