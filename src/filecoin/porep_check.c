/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What a PoRep C2 proves, recomputed natively: the public inputs of a partition (StackedCompound::
 * generate_public_inputs) from public data alone, and the check that a C1 holds together before any witness is made
 * from it (every relation the circuit enforces, with the field that breaks one named). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "fil_internal.h"

#define NPARENTS (CUZK_FIL_DRG_PARENTS + CUZK_FIL_EXP_PARENTS)

static bool is_porep(const cuzk_fil_proof *p)
{
    return p != NULL && p->cls == CUZK_FIL_CLASS_SEAL &&
           (p->kind == CUZK_FIL_KIND_POREP || p->kind == CUZK_FIL_KIND_POREP_SYNTH ||
            p->kind == CUZK_FIL_KIND_POREP_NI);
}

static bool all_zero(const uint8_t b[32])
{
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++) acc |= b[i];
    return acc == 0;
}

static cuzk_fil_sdr_challenge_kind challenge_kind(const cuzk_fil_proof *p)
{
    return p->kind == CUZK_FIL_KIND_POREP_SYNTH ? CUZK_FIL_SDR_CHALLENGES_SYNTHETIC
           : p->kind == CUZK_FIL_KIND_POREP_NI  ? CUZK_FIL_SDR_CHALLENGES_NI
                                                : CUZK_FIL_SDR_CHALLENGES_INTERACTIVE;
}

void cuzk_fil_porep_replica_id(const cuzk_fil_proof *p, const uint8_t prover_id[32], uint64_t sector_id,
                               const uint8_t ticket[32], const uint8_t comm_d[32], uint8_t out[32])
{
    cuzk_fil_sdr_replica_id(prover_id, sector_id, ticket, comm_d, p->porep_id, out);
}

size_t cuzk_fil_porep_public_input_count(const cuzk_fil_proof *p) { return 3 + (size_t)p->challenges * (4 + NPARENTS); }

/* The public data every check starts from: the commitments Rust refuses (zero, not below r) and the graph. */
static cuzk_status pub_prepare(const cuzk_fil_proof *p, const cuzk_fil_porep_public *pub, cuzk_fil_sdr_graph *g,
                               uint8_t replica_id[32], cuzk_errmsg *err)
{
    if (!is_porep(p)) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s is not a PoRep proof", p ? p->name : "(null)");
    if (all_zero(pub->comm_d)) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "comm_d: all zero");
    if (all_zero(pub->comm_r)) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "comm_r: all zero");
    if (all_zero(pub->seed)) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "seed: all zero");
    if (!fil_canonical(pub->comm_d)) return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "comm_d: not below r");
    if (!fil_canonical(pub->comm_r)) return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "comm_r: not below r");
    cuzk_fil_porep_replica_id(p, pub->prover_id, pub->sector_id, pub->ticket, pub->comm_d, replica_id);
    return cuzk_fil_sdr_graph_init(g, p->nodes, p->porep_id, (cuzk_fil_sdr_api)p->api, err);
}

static void fr_u64(cuzk_fr_t *out, uint64_t v)
{
    uint64_t l[CUZK_FR_LIMBS] = {v, 0, 0, 0};
    cuzk_fr_from_limbs(out, l);
}

cuzk_status cuzk_fil_porep_public_inputs(const cuzk_fil_proof *p, const cuzk_fil_porep_public *pub, uint32_t k,
                                         cuzk_fr_t *out, cuzk_errmsg *err)
{
    cuzk_fil_sdr_graph g;
    uint8_t replica_id[32];
    cuzk_status s = pub_prepare(p, pub, &g, replica_id, err);
    if (s != CUZK_OK) return s;
    if (k >= p->partitions) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "partition %u of %u", k, p->partitions);
    uint64_t *ch = malloc(p->challenges * sizeof *ch);
    if (ch == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    s = cuzk_fil_sdr_challenges(challenge_kind(p), p->nodes, replica_id, pub->seed, pub->comm_r, k, p->challenges, ch,
                                err);
    if (s == CUZK_OK) {
        cuzk_fr_from_bytes_le(&out[0], replica_id);
        cuzk_fr_from_bytes_le(&out[1], pub->comm_d);
        cuzk_fr_from_bytes_le(&out[2], pub->comm_r);
        cuzk_fr_t *o = out + 3;
        for (uint32_t i = 0; i < p->challenges; i++) {
            uint32_t drg[CUZK_FIL_SDR_DRG_DEGREE], exp[CUZK_FIL_SDR_EXP_DEGREE];
            cuzk_fil_sdr_drg_parents(&g, (uint32_t)ch[i], drg);
            cuzk_fil_sdr_exp_parents(&g, (uint32_t)ch[i], exp);
            fr_u64(o++, ch[i]); /* tree D path */
            for (unsigned j = 0; j < CUZK_FIL_SDR_DRG_DEGREE; j++) fr_u64(o++, drg[j]);
            for (unsigned j = 0; j < CUZK_FIL_SDR_EXP_DEGREE; j++) fr_u64(o++, exp[j]);
            fr_u64(o++, ch[i]); /* the UInt64 challenge */
            fr_u64(o++, ch[i]); /* tree R path */
            fr_u64(o++, ch[i]); /* tree C path of the challenged column */
        }
    }
    free(ch);
    return s;
}

void cuzk_fil_porep_public_of_c1(const cuzk_fil_c1 *c1, const uint8_t prover_id[32], uint64_t sector_id,
                                 cuzk_fil_porep_public *out)
{
    memcpy(out->prover_id, prover_id, 32);
    out->sector_id = sector_id;
    memcpy(out->ticket, c1->ticket, 32);
    memcpy(out->seed, c1->seed, 32);
    memcpy(out->comm_d, c1->comm_d, 32);
    memcpy(out->comm_r, c1->comm_r, 32);
}

/* ---- the C1 check ------------------------------------------------------------------------------------------------ */

typedef struct {
    const cuzk_fil_c1 *c1;
    const cuzk_fil_sdr_graph *g;
    const uint64_t *challenges; /* derived, partitions × challenges */
    atomic_size_t next;
    /* the failure of the lowest challenge */
    pthread_mutex_t lock;
    size_t fail_at;
    cuzk_status fail;
    cuzk_errmsg err;
} check_job;

/* vanilla_proofs[k][i] */
static int where(char *out, size_t cap, const cuzk_fil_c1 *c1, size_t n)
{
    return snprintf(out, cap, "vanilla_proofs[%zu][%zu]", n / c1->challenges, n % c1->challenges);
}

static cuzk_status fail_at(cuzk_errmsg *err, const cuzk_fil_c1 *c1, size_t n, cuzk_status s, const char *field,
                           const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static cuzk_status fail_at(cuzk_errmsg *err, const cuzk_fil_c1 *c1, size_t n, cuzk_status s, const char *field,
                           const char *fmt, ...)
{
    char at[64], msg[240];
    where(at, sizeof at, c1, n);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_fail(err, s, "%s.%s: %s", at, field, msg);
}

static cuzk_status path_check(const cuzk_fil_c1 *c1, size_t n, const cuzk_fil_merkle_proof *m, const cuzk_fil_shape *sh,
                              cuzk_fil_hasher h, const char *field, cuzk_errmsg *err)
{
    uint8_t root[32];
    cuzk_errmsg e = {{0}};
    cuzk_status s = cuzk_fil_merkle_root(m, sh, h, root, &e);
    if (s != CUZK_OK) return fail_at(err, c1, n, s, field, "%s", e.msg);
    if (memcmp(root, m->root, 32) != 0)
        return fail_at(err, c1, n, CUZK_ERR_PROOF_INVALID, field, "the path does not hash to its root");
    return CUZK_OK;
}

/* The label of (layer, node) from 37 parents: SHA-256(replica_id ‖ layer BE ‖ node BE ‖ 20 zeros ‖ parents). */
static void label_of(const uint8_t replica_id[32], uint32_t layer, uint64_t node, const cuzk_fil_node *parents,
                     uint8_t out[32])
{
    uint8_t buf[64 + CUZK_FIL_LABEL_PARENTS * 32] = {0};
    memcpy(buf, replica_id, 32);
    cuzk_store_be32(buf + 32, layer);
    cuzk_store_be64(buf + 36, node);
    memcpy(buf + 64, parents, CUZK_FIL_LABEL_PARENTS * 32);
    cuzk_fil_sha256(buf, sizeof buf, out);
    out[31] &= 0x3f;
}

static cuzk_status check_challenge(const cuzk_fil_c1 *c1, const cuzk_fil_sdr_graph *g, size_t n, uint64_t expect,
                                   cuzk_errmsg *err)
{
    const cuzk_fil_proof *p = c1->proof;
    const cuzk_fil_porep_challenge *ch = &c1->c[n];
    unsigned L = p->layers;
    cuzk_status s;
    char field[96];
    if (ch->node != expect)
        return fail_at(err, c1, n, CUZK_ERR_MISMATCH, "comm_d_proofs",
                       "opens node %llu, the challenge derived from replica_id and seed is %llu",
                       (unsigned long long)ch->node, (unsigned long long)expect);
    if ((s = path_check(c1, n, &ch->comm_d, &p->tree_d, CUZK_FIL_HASH_SHA256, "comm_d_proofs", err)) != CUZK_OK)
        return s;
    if ((s = path_check(c1, n, &ch->comm_r_last, &p->tree_r, CUZK_FIL_HASH_POSEIDON, "comm_r_last_proof", err)) !=
        CUZK_OK)
        return s;

    uint32_t parents[NPARENTS];
    cuzk_fil_sdr_drg_parents(g, (uint32_t)ch->node, parents);
    cuzk_fil_sdr_exp_parents(g, (uint32_t)ch->node, parents + CUZK_FIL_DRG_PARENTS);
    for (unsigned i = 0; i <= NPARENTS; i++) {
        const cuzk_fil_column_proof *col = i == 0                      ? &ch->c_x
                                           : i <= CUZK_FIL_DRG_PARENTS ? &ch->drg[i - 1]
                                                                       : &ch->exp[i - 7];
        if (i == 0) snprintf(field, sizeof field, "replica_column_proofs.c_x");
        else if (i <= CUZK_FIL_DRG_PARENTS)
            snprintf(field, sizeof field, "replica_column_proofs.drg_parents[%u]", i - 1);
        else snprintf(field, sizeof field, "replica_column_proofs.exp_parents[%u]", i - 7);
        uint64_t want = i == 0 ? ch->node : parents[i - 1];
        if (col->index != want)
            return fail_at(err, c1, n, CUZK_ERR_MISMATCH, field, "column %u, the graph's is %llu", col->index,
                           (unsigned long long)want);
        uint8_t h[32];
        cuzk_errmsg e = {{0}};
        if ((s = cuzk_poseidon_merkle_hash_bytes(h, L, (const uint8_t *)col->rows, &e)) != CUZK_OK)
            return fail_at(err, c1, n, s, field, "column hash: %s", e.msg);
        if (memcmp(h, col->proof.leaf, 32) != 0)
            return fail_at(err, c1, n, CUZK_ERR_MISMATCH, field, "the inclusion proof's leaf is not the column's hash");
        size_t fl = strlen(field);
        snprintf(field + fl, sizeof field - fl, ".inclusion_proof");
        if ((s = path_check(c1, n, &col->proof, &p->tree_r, CUZK_FIL_HASH_POSEIDON, field, err)) != CUZK_OK) return s;
    }

    /* labels from the parent columns, as the circuit makes them, against the challenged column and the labeling
     * proofs */
    cuzk_fil_node expanded[CUZK_FIL_LABEL_PARENTS];
    for (unsigned l = 1; l <= L; l++) {
        unsigned np = l == 1 ? CUZK_FIL_DRG_PARENTS : NPARENTS;
        for (unsigned q = 0; q < CUZK_FIL_LABEL_PARENTS; q++) {
            unsigned i = q % np;
            const cuzk_fil_column_proof *col = i < CUZK_FIL_DRG_PARENTS ? &ch->drg[i] : &ch->exp[i - 6];
            memcpy(expanded[q], col->rows[i < CUZK_FIL_DRG_PARENTS ? l - 1 : l - 2], 32);
        }
        const cuzk_fil_node *given = ch->labeling + (size_t)(l - 1) * CUZK_FIL_LABEL_PARENTS;
        for (unsigned q = 0; q < CUZK_FIL_LABEL_PARENTS; q++)
            if (memcmp(given[q], expanded[q], 32) != 0) {
                snprintf(field, sizeof field, "labeling_proofs[%u].parents[%u]", l - 1, q);
                return fail_at(err, c1, n, CUZK_ERR_MISMATCH, field, "differs from the parent column's row %u",
                               (q % np) < CUZK_FIL_DRG_PARENTS ? l - 1 : l - 2);
            }
        uint8_t label[32];
        label_of(c1->replica_id, l, ch->node, (const cuzk_fil_node *)expanded, label);
        if (memcmp(label, ch->c_x.rows[l - 1], 32) != 0) {
            snprintf(field, sizeof field, "replica_column_proofs.c_x.column.rows[%u]", l - 1);
            return fail_at(err, c1, n, CUZK_ERR_MISMATCH, field, "is not the label of layer %u over its parents", l);
        }
        if (l == L && memcmp(ch->encoding, expanded, sizeof expanded) != 0)
            return fail_at(err, c1, n, CUZK_ERR_MISMATCH, "encoding_proof.parents",
                           "differ from the last layer's parents");
    }

    /* the replica node is the last label plus the data */
    cuzk_fr_t a, b;
    uint8_t enc[32];
    cuzk_fr_from_bytes_le(&a, ch->c_x.rows[L - 1]);
    cuzk_fr_from_bytes_le(&b, ch->comm_d.leaf);
    cuzk_fr_add(&a, &a, &b);
    cuzk_fr_to_bytes_le(enc, &a);
    if (memcmp(enc, ch->comm_r_last.leaf, 32) != 0)
        return fail_at(err, c1, n, CUZK_ERR_MISMATCH, "comm_r_last_proof.leaf",
                       "is not the last label plus the data leaf");
    return CUZK_OK;
}

static void check_worker(void *ctx, unsigned id)
{
    check_job *j = ctx;
    (void)id;
    size_t total = (size_t)j->c1->partitions * j->c1->challenges;
    for (;;) {
        size_t n = atomic_fetch_add(&j->next, 1);
        if (n >= total) break;
        pthread_mutex_lock(&j->lock);
        bool skip = j->fail != CUZK_OK && j->fail_at < n;
        pthread_mutex_unlock(&j->lock);
        if (skip) continue;
        cuzk_errmsg e = {{0}};
        cuzk_status s = check_challenge(j->c1, j->g, n, j->challenges[n], &e);
        if (s == CUZK_OK) continue;
        pthread_mutex_lock(&j->lock);
        if (j->fail == CUZK_OK || n < j->fail_at) {
            j->fail = s;
            j->fail_at = n;
            j->err = e;
        }
        pthread_mutex_unlock(&j->lock);
    }
}

cuzk_status cuzk_fil_porep_c1_check(const cuzk_fil_c1 *c1, const uint8_t prover_id[32], uint64_t sector_id,
                                    unsigned threads, cuzk_errmsg *err)
{
    const cuzk_fil_proof *p = c1->proof;
    if (!is_porep(p) || c1->c == NULL || c1->challenges != p->challenges || c1->partitions != p->partitions)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "not a parsed PoRep C1");
    cuzk_fil_porep_public pub;
    cuzk_fil_porep_public_of_c1(c1, prover_id, sector_id, &pub);
    cuzk_fil_sdr_graph g;
    uint8_t replica_id[32];
    cuzk_status s = pub_prepare(p, &pub, &g, replica_id, err);
    if (s != CUZK_OK) return s;
    if (memcmp(replica_id, c1->replica_id, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_MISMATCH,
                         "replica_id: not the one prover id, sector %llu, ticket, comm_d and %s's porep id give",
                         (unsigned long long)sector_id, p->name);
    uint8_t comm_r[32];
    if ((s = cuzk_poseidon_comm_r(comm_r, c1->c[0].c_x.proof.root, c1->c[0].comm_r_last.root, err)) != CUZK_OK)
        return s;
    if (memcmp(comm_r, c1->comm_r, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "comm_r: not Poseidon(comm_c, comm_r_last) of the vanilla proofs");

    size_t total = (size_t)c1->partitions * c1->challenges;
    uint64_t *ch = malloc(total * sizeof *ch);
    if (ch == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; k < c1->partitions && s == CUZK_OK; k++)
        s = cuzk_fil_sdr_challenges(challenge_kind(p), p->nodes, c1->replica_id, c1->seed, c1->comm_r, k,
                                    c1->challenges, ch + (size_t)k * c1->challenges, err);
    if (s == CUZK_OK) {
        check_job j = {.c1 = c1, .g = &g, .challenges = ch, .fail = CUZK_OK};
        atomic_init(&j.next, 0);
        pthread_mutex_init(&j.lock, NULL);
        if (threads == 0) threads = 1;
        if (threads > total) threads = (unsigned)total;
        cuzk_par_run(threads, check_worker, &j);
        pthread_mutex_destroy(&j.lock);
        if (j.fail != CUZK_OK) {
            if (err != NULL) *err = j.err;
            s = j.fail;
        }
    }
    free(ch);
    return s;
}
