/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Filecoin proof kinds: what a request of each kind must hold, how a partition's witness is made and what its
 * proof is verified against (engine_fil.h), as filecoin-proofs' entry points that Curio's daemon calls do it:
 *
 *   WINNING_POST           generate_winning_post_with_vanilla: one sector's vanilla proof (66 challenges), the
 *                          randomness, the prover id from miner_id; one partition
 *   WINDOW_POST_PARTITION  generate_single_window_post_with_vanilla: the partition's sectors' vanilla proofs in their
 *                          order (1 ..= the circuit's sectors; a short partition is padded with its last sector),
 *                          the randomness, partition_index
 *   POREP_SEAL_COMMIT      seal_commit_phase2 (the C1 envelope, sector_number, miner_id): when its circuit lands
 *   SNAP_DEALS_UPDATE      generate_empty_sector_update_proof_with_vanilla (one vanilla proof per partition,
 *                          comm_r_old, comm_r_new, comm_d_new): when its circuit lands
 *
 * Randomness must be below r, as filecoin-proofs' as_safe_commitment demands (Curio and Lotus clear its top two bits
 * before they ask for a proof); sector_number is not read for PoSt (the sectors are the vanilla proofs'), as in
 * Curio's daemon. */
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

static cuzk_status post_decode(const cuzk_fil_proof *p, const cuzk_engine_request *r, engine_fil_input *in,
                               cuzk_errmsg *err)
{
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
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "the key has %zu public inputs, %s's circuit %zu", n,
                         in->proof->name, want);
    return cuzk_fil_post_public_inputs(in->proof, q->randomness, q->pub, q->n, q->partition_index, out, err);
}

/* ---- the table --------------------------------------------------------------------------------------------------- */

static const engine_fil_kind kinds[] = {
    {CUZK_ENGINE_KIND_POREP_SEAL_COMMIT, NULL, NULL, NULL, NULL},
    {CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE, NULL, NULL, NULL, NULL},
    {CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, post_decode, post_witness, post_inputs, post_release},
    {CUZK_ENGINE_KIND_WINNING_POST, post_decode, post_witness, post_inputs, post_release},
};

cuzk_status cuzk_engine_fil_decode(const cuzk_engine_request *r, engine_fil_input **out, cuzk_errmsg *err)
{
    *out = NULL;
    const engine_fil_kind *kind = NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].proof_kind == r->proof_kind) kind = &kinds[i];
    if (kind == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "proof kind %u is not a Filecoin kind", r->proof_kind);
    if (kind->decode == NULL)
        return cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "proof kind %s is not supported yet",
                         cuzk_engine_kind_wire_name(r->proof_kind));
    const cuzk_fil_proof *p;
    cuzk_status s = cuzk_fil_proof_for_request(r->proof_kind, r->registered_proof, r->sector_size, &p, err);
    if (s != CUZK_OK) return s;
    if (!cuzk_fil_circuit_supported(p))
        return cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "registered_proof %llu (%s): its circuit is not supported yet",
                         (unsigned long long)r->registered_proof, p->name);
    engine_fil_input *in = calloc(1, sizeof *in);
    if (in == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    in->kind = kind;
    in->proof = p;
    in->partitions = p->partitions ? p->partitions : 1;
    s = kind->decode(p, r, in, err);
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
    json_object_foreach(root, name, v) {
        const char *digest = json_string_value(json_object_get(v, "digest"));
        if (!json_is_object(v) || !hex32(digest)) {
            s = cuzk_fail(err, CUZK_ERR_BAD_JSON, "parameter manifest %s: %.120s: no \"digest\" of 32 lowercase hex "
                          "digits", path, name);
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
