/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The FallbackPoSt circuit (storage-proofs-post fallback/circuit.rs), WinningPoSt and WindowPoSt alike, and its
 * witness from the vanilla proofs (filecoin-proofs post_util.rs single_partition_vanilla_proofs, compound.rs).
 *
 * Per sector slot, in bellperson's order: comm_r_last, comm_c, comm_r allocated; comm_r made an input; Poseidon-2
 * MerkleTree(comm_c, comm_r_last) enforced equal to comm_r; then per challenge a PoR over tree R with the leaf
 * allocated (Root::Val), the path's index bits packed into one input, and comm_r_last as the private root. Slots are
 * uniform blocks synthesized in parallel, numbered as sequential synthesis numbers them. */
#include <stdlib.h>

#include "fil_internal.h"

cuzk_status cuzk_fil_post_geom_of(const cuzk_fil_proof *p, cuzk_fil_post_geom *g, cuzk_errmsg *err)
{
    if (p == NULL || (p->kind != CUZK_FIL_KIND_WINNING_POST && p->kind != CUZK_FIL_KIND_WINDOW_POST))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s is not a PoSt registered proof", p != NULL ? p->name : "NULL");
    g->tree = p->tree_r;
    g->nodes = p->nodes;
    g->sectors = p->post_sectors;
    g->challenges = p->post_sector_challenges;
    return CUZK_OK;
}

static unsigned log2u(unsigned a)
{
    unsigned k = 0;
    while ((1u << k) < a) k++;
    return k;
}

static cuzk_status geom_check(const cuzk_fil_post_geom *g, cuzk_errmsg *err)
{
    const cuzk_fil_shape *s = &g->tree;
    bool ok = (s->base == 2 || s->base == 4 || s->base == 8 || s->base == 16) && s->base_levels >= 1;
    ok &= s->sub == 0 || s->sub == 2 || s->sub == 4 || s->sub == 8 || s->sub == 16;
    ok &= s->top == 0 || (s->sub != 0 && (s->top == 2 || s->top == 4 || s->top == 8 || s->top == 16));
    unsigned bits = s->base_levels * log2u(s->base) + (s->sub ? log2u(s->sub) : 0) + (s->top ? log2u(s->top) : 0);
    ok &= bits < 64 && g->nodes == UINT64_C(1) << bits;
    if (!ok)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree %u-%u-%u with %u base levels does not hold %llu leaves",
                         s->base, s->sub, s->top, s->base_levels, (unsigned long long)g->nodes);
    if (g->sectors == 0 || g->challenges == 0 || g->sectors > 1u << 20 || g->challenges > 1u << 10)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%u sectors of %u challenges: out of range", g->sectors,
                         g->challenges);
    return CUZK_OK;
}

/* ---- synthesis --------------------------------------------------------------------------------------------------- */

typedef struct {
    const cuzk_fil_post_geom *g;
    const cuzk_fil_post_slot *slots; /* NULL: blank */
    cuzk_por_tree tree;
    unsigned siblings;
} post_job;

static bool fr_of(cuzk_cs *cs, cuzk_fr_t *out, const uint8_t *b, uint64_t slot, const char *what)
{
    if (cuzk_fr_from_bytes_le(out, b) == CUZK_OK) return true;
    cuzk_cs_fail(cs, CUZK_ERR_NOT_CANONICAL, "sector slot %llu: %s is not below r", (unsigned long long)slot, what);
    return false;
}

static void sector_block(cuzk_cs *cs, void *ctx, uint64_t b)
{
    post_job *J = ctx;
    const cuzk_fil_post_slot *sl = J->slots != NULL ? &J->slots[b] : NULL;
    cuzk_fr_t crl = {{0}}, cc = {{0}}, cr = {{0}};
    if (sl != NULL && !(fr_of(cs, &crl, sl->comm_r_last, b, "comm_r_last") && fr_of(cs, &cc, sl->comm_c, b, "comm_c") &&
                        fr_of(cs, &cr, sl->comm_r, b, "comm_r")))
        return;
    cuzk_cs_pushf(cs, "sector_%llu", (unsigned long long)b);
    cuzk_cs_push(cs, "comm_r_last");
    cuzk_num n_crl = cuzk_num_alloc(cs, &crl);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_c");
    cuzk_num n_cc = cuzk_num_alloc(cs, &cc);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r");
    cuzk_num n_cr = cuzk_num_alloc(cs, &cr);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r_input");
    cuzk_num_inputize(cs, n_cr);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "H_comm_c_comm_r_last");
    cuzk_num pre[2] = {n_cc, n_crl};
    cuzk_num h = cuzk_poseidon_gadget_por_hash(cs, NULL, pre, 2, 0);
    cuzk_cs_pop(cs);
    cuzk_num_equal(cs, "enforce_comm_c_comm_r_last_hash_comm_r", n_cr, h);
    bool values = sl != NULL && cuzk_cs_has_values(cs);
    if (values && !cuzk_fr_eq(&h.val, &cr))
        cuzk_cs_fail(cs, CUZK_ERR_PROOF_INVALID,
                     "sector slot %llu (sector %llu): comm_r is not Poseidon(comm_c, "
                     "comm_r_last)",
                     (unsigned long long)b, (unsigned long long)sl->sector_id);
    cuzk_fr_t sib[CUZK_FIL_MAX_LEVELS * 15];
    for (uint32_t c = 0; c < J->g->challenges && cs->status == CUZK_OK; c++) {
        cuzk_fr_t leaf = {{0}};
        uint64_t challenge = 0;
        const cuzk_fr_t *sibs = NULL;
        if (sl != NULL) {
            const cuzk_fil_merkle_proof *m = &sl->inclusion[c];
            bool ok = fr_of(cs, &leaf, m->leaf, b, "a leaf");
            for (unsigned i = 0; i < J->siblings && ok; i++) ok = fr_of(cs, &sib[i], m->siblings[i], b, "a sibling");
            if (!ok) break;
            challenge = m->leaf_index;
            sibs = sib;
        }
        cuzk_cs_pushf(cs, "challenge_inclusion_%u", c);
        cuzk_por_root value = {{0, leaf}, false}, root = {n_crl, true};
        cuzk_por_circuit(cs, &J->tree, value, challenge, sibs, root, true);
        cuzk_cs_pop(cs);
        /* with the root a private variable, the last aux the PoR allocates is the root it computed */
        const cuzk_fr_t *got = values ? cuzk_cs_value(cs, CUZK_VAR_AUX | (cs->next_aux - 1)) : NULL;
        if (got != NULL && !cuzk_fr_eq(got, &crl))
            cuzk_cs_fail(cs, CUZK_ERR_PROOF_INVALID,
                         "sector slot %llu (sector %llu): challenge %u (leaf %llu): the path does not hash to "
                         "comm_r_last",
                         (unsigned long long)b, (unsigned long long)sl->sector_id, c, (unsigned long long)challenge);
    }
    cuzk_cs_pop(cs);
}

cuzk_status cuzk_fil_post_synthesize(cuzk_cs *cs, const cuzk_fil_post_geom *g, const cuzk_fil_post_slot *slots,
                                     unsigned threads)
{
    cuzk_errmsg err;
    if (cs->status != CUZK_OK) return cs->status;
    if (geom_check(g, &err) != CUZK_OK) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "fallback post: %s", err.msg);
        return cs->status;
    }
    post_job J = {.g = g, .slots = slots};
    J.tree = (cuzk_por_tree){g->tree.base, g->tree.sub, g->tree.top, g->tree.base_levels, cuzk_poseidon_gadget_por_hash,
                             NULL};
    J.siblings = cuzk_por_siblings(&J.tree);
    if (slots != NULL)
        for (uint32_t i = 0; i < g->sectors; i++)
            for (uint32_t c = 0; c < g->challenges; c++) {
                const cuzk_fil_merkle_proof *m = &slots[i].inclusion[c];
                if (m->levels != cuzk_por_levels(&J.tree) || m->leaf_index >= g->nodes) {
                    cuzk_cs_fail(cs, CUZK_ERR_MISMATCH,
                                 "sector slot %u: challenge %u: a path of %u levels to leaf %llu, the tree (%u-%u-%u, "
                                 "%llu leaves) has %u levels",
                                 i, c, m->levels, (unsigned long long)m->leaf_index, g->tree.base, g->tree.sub,
                                 g->tree.top, (unsigned long long)g->nodes, cuzk_por_levels(&J.tree));
                    return cs->status;
                }
            }
    return cuzk_cs_blocks(cs, g->sectors, sector_block, &J, NULL, CUZK_CS_BLOCKS_UNIFORM | CUZK_CS_BLOCKS_NO_HANDLES,
                          threads);
}

cuzk_status cuzk_fil_post_counts(const cuzk_fil_post_geom *g, cuzk_cs_counts *out, cuzk_errmsg *err)
{
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for a constraint system");
    cuzk_fil_post_synthesize(cs, g, NULL, 1);
    cuzk_cs_get_counts(cs, out);
    return cuzk_cs_finish(cs, NULL, NULL, err);
}

/* ---- the witness from vanilla proofs ----------------------------------------------------------------------------- */

cuzk_status cuzk_fil_post_witness(const cuzk_fil_post_request *rq, cuzk_fr_t *z, uint64_t zlen, unsigned threads,
                                  cuzk_errmsg *err)
{
    const cuzk_fil_proof *p = rq->proof;
    cuzk_fil_post_geom g;
    cuzk_status st = cuzk_fil_post_geom_of(p, &g, err);
    if (st != CUZK_OK) return st;
    bool winning = p->kind == CUZK_FIL_KIND_WINNING_POST;
    size_t n = rq->nsectors;
    if (winning ? n != 1 || rq->partition_index != 0 : n == 0 || n > p->post_sectors)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s proves %s per partition, got %zu (partition %u)", p->name,
                         winning ? "1 sector" : "1 or more sectors, up to the circuit's", n, rq->partition_index);
    if (rq->randomness == NULL || !fil_canonical(rq->randomness))
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "randomness is not below r");
    if (rq->prover_id == NULL || !fil_canonical(rq->prover_id))
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "prover id is not below r");
    if (rq->nvanilla != n)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%zu vanilla proofs for %zu sectors", rq->nvanilla, n);

    /* the partition's sectors in the request's order, each found among the vanilla proofs by its id (Rust's find) */
    const cuzk_fil_post_sector **sec = calloc(n, sizeof *sec);
    cuzk_fil_post_pub_sector *pub = calloc(n, sizeof *pub);
    size_t npub = cuzk_fil_post_public_input_count(p);
    cuzk_fr_t *want = malloc(npub * sizeof *want);
    cuzk_fil_post_slot *slots = calloc(g.sectors, sizeof *slots);
    if (sec == NULL || pub == NULL || want == NULL || slots == NULL) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for %zu sectors", n);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t id = rq->sector_ids != NULL ? rq->sector_ids[i] : rq->vanilla[i].sector_id;
        for (size_t j = 0; j < n && sec[i] == NULL; j++)
            if (rq->vanilla[j].sector_id == id) sec[i] = &rq->vanilla[j];
        if (sec[i] == NULL) {
            st = cuzk_fail(err, CUZK_ERR_NOT_FOUND, "sector %llu: no vanilla proof for it", (unsigned long long)id);
            goto out;
        }
        const cuzk_fil_post_sector *s = sec[i];
        if (s->challenges != p->challenges || s->inclusion == NULL) {
            st = cuzk_fail(err, CUZK_ERR_MISMATCH, "sector %llu: %u inclusion proofs, %s needs %u",
                           (unsigned long long)id, s->challenges, p->name, p->challenges);
            goto out;
        }
        pub[i].sector_id = id;
        memcpy(pub[i].comm_r, s->comm_r, 32);
    }
    if ((st = cuzk_fil_post_public_inputs(p, rq->randomness, pub, n, rq->partition_index, want, err)) != CUZK_OK)
        goto out;

    /* the slots: WindowPoSt's sectors then the last repeated; WinningPoSt's one sector unrolled, slot i taking its
     * inclusion proof i. Each challenged leaf must be the one the public inputs derive. */
    size_t per = 1 + g.challenges;
    for (uint32_t i = 0; i < g.sectors; i++) {
        const cuzk_fil_post_sector *s = sec[winning ? 0 : (i < n ? i : n - 1)];
        slots[i] = (cuzk_fil_post_slot){s->sector_id, s->comm_r, s->comm_c, s->comm_r_last,
                                        winning ? &s->inclusion[i] : s->inclusion};
        for (uint32_t c = 0; c < g.challenges; c++) {
            uint64_t leaf = slots[i].inclusion[c].leaf_index;
            uint64_t limbs[CUZK_FR_LIMBS] = {leaf};
            cuzk_fr_t f;
            cuzk_fr_from_limbs(&f, limbs);
            if (!cuzk_fr_eq(&f, &want[i * per + 1 + c])) {
                st = cuzk_fail(err, CUZK_ERR_MISMATCH,
                               "sector %llu: inclusion_proofs[%u] opens leaf %llu, not the "
                               "challenged leaf",
                               (unsigned long long)s->sector_id, winning ? i : c, (unsigned long long)leaf);
                goto out;
            }
        }
    }

    cuzk_cs_counts cnt;
    if ((st = cuzk_fil_post_counts(&g, &cnt, err)) != CUZK_OK) goto out;
    if (z == NULL || zlen != cnt.inputs + cnt.aux) {
        st = cuzk_fail(err, CUZK_ERR_INVALID_ARG, "z holds %llu values, the circuit has %llu", (unsigned long long)zlen,
                       (unsigned long long)(cnt.inputs + cnt.aux));
        goto out;
    }
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, cnt.inputs, cnt.aux);
    if (cs == NULL) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for a constraint system");
        goto out;
    }
    cuzk_fil_post_synthesize(cs, &g, slots, threads);
    if ((st = cuzk_cs_finish(cs, NULL, NULL, err)) != CUZK_OK) goto out;
    /* the inputs the circuit made are the ones a verifier derives */
    for (size_t i = 0; i < npub; i++)
        if (!cuzk_fr_eq(&z[1 + i], &want[i])) {
            st = cuzk_fail(err, CUZK_ERR_MISMATCH, "public input %zu differs from the one the verifier derives", i + 1);
            goto out;
        }
out:
    free(sec);
    free(pub);
    free(want);
    free(slots);
    return st;
}
