/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Commit phase 1 of a test replica: the vanilla proofs filecoin-proofs' seal_commit_phase1 gathers from a sealed
 * sector (storage-proofs-porep StackedDrg::prove_layers), here from the in-memory replica of cuzk_fil_sdr_seal. For
 * each challenge of each partition: the data leaf's tree D path, the replica node's tree R path, the columns of the
 * node and of its 14 parents with their tree C paths, and the 37 parent labels of every layer. */
#include <stdlib.h>

#include "fil_internal.h"

static cuzk_fil_sdr_challenge_kind kind_of(const cuzk_fil_proof *p)
{
    return p->kind == CUZK_FIL_KIND_POREP_SYNTH ? CUZK_FIL_SDR_CHALLENGES_SYNTHETIC
           : p->kind == CUZK_FIL_KIND_POREP_NI  ? CUZK_FIL_SDR_CHALLENGES_NI
                                                : CUZK_FIL_SDR_CHALLENGES_INTERACTIVE;
}

/* A tree R / tree C path of leaf from a stored tree. */
static cuzk_status tree_proof(const cuzk_fil_sdr_replica *r, const uint8_t *tree, uint64_t leaf, const uint8_t root[32],
                              cuzk_fil_merkle_proof *m, cuzk_errmsg *err)
{
    unsigned pos[CUZK_FIL_MAX_LEVELS], levels;
    cuzk_status s = cuzk_fil_sdr_tree_path(r->shape, tree, r->nodes, leaf, (uint8_t(*)[32])m->siblings, pos, &levels,
                                           err);
    if (s != CUZK_OK) return s;
    memcpy(m->root, root, 32);
    memcpy(m->leaf, tree + leaf * 32, 32);
    m->levels = (uint8_t)levels;
    m->kind = r->shape.top ? CUZK_FIL_MERKLE_TOP : r->shape.sub ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE;
    for (unsigned l = 0; l < levels; l++) m->index[l] = (uint8_t)pos[l];
    m->leaf_index = leaf;
    return CUZK_OK;
}

static cuzk_status column_proof(const cuzk_fil_sdr_replica *r, uint64_t node, cuzk_fil_column_proof *col,
                                cuzk_errmsg *err)
{
    col->index = (uint32_t)node;
    if (!cuzk_fil_sdr_replica_column(r, node, (uint8_t(*)[32])col->rows))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no column %llu in the replica", (unsigned long long)node);
    return tree_proof(r, r->tree_c, node, r->comm_c, &col->proof, err);
}

static cuzk_status challenge_proofs(const cuzk_fil_sdr_replica *r, uint64_t node, cuzk_fil_porep_challenge *c,
                                    cuzk_errmsg *err)
{
    cuzk_fil_merkle_proof *d = &c->comm_d;
    cuzk_status s = cuzk_fil_sdr_tree_d_path(r->tree_d, r->nodes, node, (uint8_t(*)[32])d->siblings, err);
    if (s != CUZK_OK) return s;
    memcpy(d->root, r->comm_d, 32);
    memcpy(d->leaf, r->data + node * 32, 32);
    d->kind = CUZK_FIL_MERKLE_SINGLE;
    d->levels = 0;
    for (uint64_t n = r->nodes; n > 1; n >>= 1) d->index[d->levels] = (uint8_t)((node >> d->levels) & 1), d->levels++;
    d->leaf_index = node;
    if ((s = tree_proof(r, r->tree_r, node, r->comm_r_last, &c->comm_r_last, err)) != CUZK_OK) return s;
    if ((s = column_proof(r, node, &c->c_x, err)) != CUZK_OK) return s;
    uint32_t drg[CUZK_FIL_SDR_DRG_DEGREE], exp[CUZK_FIL_SDR_EXP_DEGREE];
    cuzk_fil_sdr_drg_parents(&r->graph, (uint32_t)node, drg);
    cuzk_fil_sdr_exp_parents(&r->graph, (uint32_t)node, exp);
    for (unsigned i = 0; i < CUZK_FIL_SDR_DRG_DEGREE && s == CUZK_OK; i++) s = column_proof(r, drg[i], &c->drg[i], err);
    for (unsigned i = 0; i < CUZK_FIL_SDR_EXP_DEGREE && s == CUZK_OK; i++) s = column_proof(r, exp[i], &c->exp[i], err);
    size_t layer_bytes = (size_t)r->nodes * 32;
    for (unsigned l = 1; l <= r->layers && s == CUZK_OK; l++) {
        const uint8_t *cur = r->labels + (l - 1) * layer_bytes, *prev = l > 1 ? cur - layer_bytes : NULL;
        s = cuzk_fil_sdr_label_parents(&r->cache, l, node, cur, prev,
                                       (uint8_t(*)[32])(c->labeling + (size_t)(l - 1) * CUZK_FIL_LABEL_PARENTS), err);
    }
    if (s == CUZK_OK)
        memcpy((void *)c->encoding, c->labeling + (size_t)(r->layers - 1) * CUZK_FIL_LABEL_PARENTS,
               CUZK_FIL_LABEL_PARENTS * 32);
    return s;
}

cuzk_status cuzk_fil_porep_c1_from_replica(const cuzk_fil_sdr_replica *r, const cuzk_fil_proof *p,
                                           const uint8_t ticket[32], const uint8_t seed[32], cuzk_fil_c1 *out,
                                           cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    if (p == NULL || p->cls != CUZK_FIL_CLASS_SEAL || p->nodes != r->nodes || p->layers != r->layers ||
        p->tree_r.base != r->shape.base || p->tree_r.sub != r->shape.sub || p->tree_r.top != r->shape.top ||
        memcmp(p->porep_id, r->graph.porep_id, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "the replica was not sealed for %s", p ? p->name : "(null)");
    fil_c1b b = {.geom = p};
    uint64_t *ch = malloc(p->challenges * sizeof *ch);
    if (ch == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_status s = CUZK_OK;
    for (uint32_t k = 0; k < p->partitions && s == CUZK_OK; k++) {
        s = cuzk_fil_sdr_challenges(kind_of(p), p->nodes, r->replica_id, seed, r->comm_r, k, p->challenges, ch, err);
        for (uint32_t i = 0; i < p->challenges && s == CUZK_OK; i++) {
            cuzk_fil_porep_challenge *c = cuzk_fil_c1b_add(&b);
            if (c == NULL) s = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
            else if ((s = challenge_proofs(r, ch[i], c, err)) == CUZK_OK) {
                fil_path at = {{{"vanilla_proofs", k}, {NULL, i}}, 2};
                s = cuzk_fil_c1_check_challenge(p, c, &at, err);
            }
        }
        b.partitions++;
    }
    free(ch);
    if (s != CUZK_OK) {
        cuzk_fil_c1b_free(&b);
        return s;
    }
    out->proof = p;
    memcpy(out->comm_r, r->comm_r, 32);
    memcpy(out->comm_d, r->comm_d, 32);
    memcpy(out->replica_id, r->replica_id, 32);
    memcpy(out->seed, seed, 32);
    memcpy(out->ticket, ticket, 32);
    return cuzk_fil_c1b_finish(&b, out, err);
}
