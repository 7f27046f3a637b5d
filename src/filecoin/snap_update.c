/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A SnapDeals update done natively for small sectors, as storage-proofs-update's vanilla.rs does it: encode_into
 * (tree D over the new data (the SDR code's cuzk_fil_sdr_tree_d), phi, one rho per h high bits of the node index, new label = old label + data · rho,
 * tree R over the new replica) and prove_inner per partition (apex leaves from tree D, three Merkle proofs per
 * challenge), written in the bincode Curio sends. Also random, structurally valid partition proofs of any size for
 * benchmarks. */
#include <stdlib.h>

#include "fil_internal.h"
#include "snap_int.h"

#define UPDATE_MAX_NODES (1ULL << 24) /* 512 MiB: everything below is held in memory several times over */

/* ---- a partition proof in memory, laid out as the decoder lays it out -------------------------------------------- */

static cuzk_status partition_alloc(const cuzk_fil_proof *p, cuzk_fil_snap_partition *s, cuzk_errmsg *err)
{
    memset(s, 0, sizeof *s);
    size_t sr = cuzk_fil_shape_siblings(&p->tree_r), sd = cuzk_fil_shape_siblings(&p->tree_d);
    size_t per = 2 * sr + sd;
    size_t bytes = (size_t)p->challenges * sizeof(cuzk_fil_snap_challenge) +
                   32 * ((size_t)p->apex_leaves + (size_t)p->challenges * per);
    uint8_t *mem = calloc(1, bytes);
    if (mem == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu bytes", bytes);
    s->mem = mem;
    s->c = (cuzk_fil_snap_challenge *)mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(mem + (size_t)p->challenges * sizeof(cuzk_fil_snap_challenge));
    s->apex_count = p->apex_leaves;
    s->apex_leafs = pool;
    s->challenges = p->challenges;
    pool += p->apex_leaves;
    for (uint32_t i = 0; i < p->challenges; i++, pool += per) {
        s->c[i].r_old.siblings = pool;
        s->c[i].d_new.siblings = pool + sr;
        s->c[i].r_new.siblings = pool + sr + sd;
    }
    return CUZK_OK;
}

/* Levels, variant, indices and leaf index of a proof opening `leaf` in a tree of shape sh. */
static void merkle_frame(const cuzk_fil_shape *sh, uint64_t leaf, cuzk_fil_merkle_proof *m)
{
    m->levels = (uint8_t)cuzk_fil_shape_levels(sh);
    m->kind = (uint8_t)(sh->top ? CUZK_FIL_MERKLE_TOP : sh->sub ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE);
    m->leaf_index = leaf;
    for (unsigned l = 0; l < m->levels; l++) {
        unsigned a = cuzk_fil_shape_arity(sh, l);
        m->index[l] = (uint8_t)(leaf % a);
        leaf /= a;
    }
}

/* ---- a seeded generator (splitmix64) ----------------------------------------------------------------------------- */

static uint64_t mix_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* a node below 2^254, so below r */
static void mix_node(uint64_t *s, uint8_t out[32])
{
    for (int i = 0; i < 4; i++) cuzk_store_le64(out + 8 * i, mix_next(s));
    out[31] &= 0x3f;
}

cuzk_status cuzk_fil_snap_partition_random(const cuzk_fil_proof *p, uint32_t k, const uint8_t comm_r_new[32],
                                           uint64_t seed, cuzk_fil_snap_partition *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = cuzk_fil_snap_need(p, err);
    if (st != CUZK_OK) return st;
    uint64_t *chal = malloc((size_t)p->challenges * sizeof *chal);
    if (chal == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %u challenges", p->challenges);
    if ((st = cuzk_fil_snap_challenges(p, k, comm_r_new, chal, err)) != CUZK_OK ||
        (st = partition_alloc(p, out, err)) != CUZK_OK) {
        free(chal);
        return st;
    }
    uint64_t s = seed ^ ((uint64_t)k << 48);
    cuzk_fil_snap_dims d;
    cuzk_fil_snap_dims_of(p, &d);
    uint8_t roots[3][32];
    mix_node(&s, out->comm_c);
    for (int t = 0; t < 3; t++) mix_node(&s, roots[t]);
    for (uint32_t i = 0; i < p->apex_leaves; i++) mix_node(&s, (uint8_t *)out->apex_leafs[i]);
    size_t sr = cuzk_fil_shape_siblings(&p->tree_r), sd = cuzk_fil_shape_siblings(&p->tree_d);
    for (uint32_t i = 0; i < p->challenges; i++) {
        cuzk_fil_snap_challenge *c = &out->c[i];
        cuzk_fil_merkle_proof *m[3] = {&c->r_old, &c->d_new, &c->r_new};
        for (int t = 0; t < 3; t++) {
            const cuzk_fil_shape *sh = t == 1 ? &p->tree_d : &p->tree_r;
            merkle_frame(sh, chal[i], m[t]);
            memcpy(m[t]->root, roots[t], 32);
            mix_node(&s, m[t]->leaf);
            size_t n = t == 1 ? sd : sr;
            for (size_t j = 0; j < n; j++) mix_node(&s, (uint8_t *)m[t]->siblings[j]);
        }
        /* one partition path, as real proofs have */
        for (unsigned l = d.cbits - d.pbits; l < d.cbits && i > 0; l++)
            memcpy((uint8_t *)c->d_new.siblings[l], out->c[0].d_new.siblings[l], 32);
    }
    free(chal);
    return CUZK_OK;
}

/* ---- the update -------------------------------------------------------------------------------------------------- */

typedef struct {
    const uint8_t *old, *data;
    uint8_t *neu;
    const cuzk_fr_t *rho;
    unsigned shift;
} encode_ctx;

static void encode_range(void *ctx, size_t lo, size_t hi)
{
    encode_ctx *e = ctx;
    for (size_t i = lo; i < hi; i++) {
        cuzk_fr_t o, d, t;
        cuzk_fr_from_bytes_le(&o, e->old + 32 * i);
        cuzk_fr_from_bytes_le(&d, e->data + 32 * i);
        cuzk_fr_mul(&t, &d, &e->rho[i >> e->shift]);
        cuzk_fr_add(&t, &t, &o);
        cuzk_fr_to_bytes_le(e->neu + 32 * i, &t);
    }
}

static cuzk_status check_nodes(const uint8_t *b, uint64_t n, const char *name, cuzk_errmsg *err)
{
    for (uint64_t i = 0; i < n; i++)
        if (!fil_canonical(b + 32 * i))
            return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "%s node %llu is not below r", name, (unsigned long long)i);
    return CUZK_OK;
}

/* Fills a tree R proof from a Poseidon tree. */
static cuzk_status path_r(const cuzk_poseidon_tree *t, const cuzk_fil_shape *sh, uint64_t leaf,
                          cuzk_fil_merkle_proof *m, cuzk_errmsg *err)
{
    cuzk_poseidon_path_elem path[CUZK_POSEIDON_TREE_MAX_LEVELS];
    unsigned len = 0;
    cuzk_status st = cuzk_poseidon_tree_path(t, leaf, m->leaf, path, &len, err);
    if (st != CUZK_OK) return st;
    merkle_frame(sh, leaf, m);
    if (len != m->levels) return cuzk_fail(err, CUZK_ERR_MISMATCH, "tree R has %u levels, not %u", len, m->levels);
    cuzk_fil_node *sib = (cuzk_fil_node *)m->siblings;
    for (unsigned l = 0, n = 0; l < len; l++)
        for (uint32_t s = 0; s + 1 < path[l].arity; s++) memcpy(sib[n++], path[l].siblings[s], 32);
    cuzk_poseidon_tree_root_of(t, m->root);
    return CUZK_OK;
}

void cuzk_fil_snap_update_free(cuzk_fil_snap_update *u)
{
    if (u == NULL) return;
    free(u->replica_new);
    free(u->vanilla);
    memset(u, 0, sizeof *u);
}

cuzk_status cuzk_fil_snap_update_prove(const cuzk_fil_snap_update_in *in, cuzk_fil_snap_update *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    if (in == NULL || in->replica_old == NULL || in->data_new == NULL || in->comm_c == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "an update needs the sector key, the new data and comm_c");
    const cuzk_fil_proof *p = in->proof;
    cuzk_status st = cuzk_fil_snap_need(p, err);
    if (st != CUZK_OK) return st;
    uint64_t n = p->nodes, kh;
    if (n > UPDATE_MAX_NODES)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE,
                         "%s: a native update holds the sector in memory; %llu nodes exceed "
                         "2^24",
                         p->name, (unsigned long long)n);
    uint32_t h = in->h != 0 ? in->h : p->snap_h;
    if ((st = cuzk_fil_snap_k_and_h_select(p, 0, h, &kh, err)) != CUZK_OK) return st;
    if ((st = check_nodes(in->replica_old, n, "sector key", err)) != CUZK_OK ||
        (st = check_nodes(in->data_new, n, "new data", err)) != CUZK_OK ||
        (st = check_nodes(in->comm_c, 1, "comm_c", err)) != CUZK_OK)
        return st;
    unsigned threads = in->threads ? in->threads : 1;
    cuzk_fil_snap_dims d;
    cuzk_fil_snap_dims_of(p, &d);
    memcpy(out->comm_c, in->comm_c, 32);

    cuzk_poseidon_tree *tr_old = NULL, *tr_new = NULL;
    cuzk_fr_t *rho = NULL;
    uint64_t *chal = NULL;
    cuzk_fil_snap_partition part = {0};
    /* tree D: every level in memory, leaves first (2n − 1 nodes) */
    uint8_t *tree_d = malloc((2 * n - 1) * 32);
    out->replica_new = malloc(n * 32);
    if (tree_d == NULL || out->replica_new == NULL) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for a %llu-node sector", (unsigned long long)n);
        goto fail;
    }
    if ((st = cuzk_fil_sdr_tree_d(in->data_new, n, tree_d, out->comm_d_new, threads, err)) != CUZK_OK) goto fail;
    uint64_t apex_row = 0; /* where level c − p − a starts */
    for (unsigned l = 0; l < d.apex_path; l++) apex_row += n >> l;

    cuzk_poseidon_tree_shape shape = {p->tree_r.base, p->tree_r.sub, p->tree_r.top};
    if ((st = cuzk_poseidon_tree_build(&tr_old, in->replica_old, n, &shape, threads, err)) != CUZK_OK) goto fail;
    cuzk_poseidon_tree_root_of(tr_old, out->comm_r_last_old);
    if ((st = cuzk_poseidon_comm_r(out->comm_r_old, in->comm_c, out->comm_r_last_old, err)) != CUZK_OK) goto fail;

    /* encode: rho for each value of the h high bits of a node index */
    cuzk_fr_t phi;
    if ((st = cuzk_fil_snap_phi(out->comm_d_new, out->comm_r_old, &phi, err)) != CUZK_OK) goto fail;
    rho = malloc(((size_t)1 << h) * sizeof *rho);
    if (rho == NULL) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for 2^%u rho values", h);
        goto fail;
    }
    for (uint64_t hi = 0; hi < (1ULL << h); hi++)
        if ((st = cuzk_fil_snap_rho(&phi, hi, &rho[hi], err)) != CUZK_OK) goto fail;
    encode_ctx e = {in->replica_old, in->data_new, out->replica_new, rho, d.cbits - h};
    cuzk_par_for(threads, n, 4096, encode_range, &e);
    if ((st = cuzk_poseidon_tree_build(&tr_new, out->replica_new, n, &shape, threads, err)) != CUZK_OK) goto fail;
    cuzk_poseidon_tree_root_of(tr_new, out->comm_r_last_new);
    if ((st = cuzk_poseidon_comm_r(out->comm_r_new, in->comm_c, out->comm_r_last_new, err)) != CUZK_OK) goto fail;

    /* the partition proofs */
    out->partitions = p->partitions;
    out->partition_bytes = cuzk_fil_snap_partition_bytes(p);
    out->vanilla = malloc(out->partition_bytes * p->partitions);
    chal = malloc((size_t)p->challenges * sizeof *chal);
    if (out->vanilla == NULL || chal == NULL) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %u partition proofs", p->partitions);
        goto fail;
    }
    if ((st = partition_alloc(p, &part, err)) != CUZK_OK) goto fail;
    memcpy(part.comm_c, in->comm_c, 32);
    for (uint32_t k = 0; k < p->partitions; k++) {
        if ((st = cuzk_fil_snap_challenges(p, k, out->comm_r_new, chal, err)) != CUZK_OK) goto fail;
        memcpy((uint8_t *)part.apex_leafs, tree_d + 32 * (apex_row + (uint64_t)k * p->apex_leaves),
               32 * (size_t)p->apex_leaves);
        for (uint32_t i = 0; i < p->challenges; i++) {
            cuzk_fil_snap_challenge *c = &part.c[i];
            if ((st = path_r(tr_old, &p->tree_r, chal[i], &c->r_old, err)) != CUZK_OK ||
                (st = path_r(tr_new, &p->tree_r, chal[i], &c->r_new, err)) != CUZK_OK)
                goto fail;
            merkle_frame(&p->tree_d, chal[i], &c->d_new);
            memcpy(c->d_new.leaf, in->data_new + 32 * chal[i], 32);
            memcpy(c->d_new.root, out->comm_d_new, 32);
            if ((st = cuzk_fil_sdr_tree_d_path(tree_d, n, chal[i], (uint8_t(*)[32])c->d_new.siblings, err)) != CUZK_OK)
                goto fail;
        }
        size_t len = 0;
        st = cuzk_fil_snap_partition_encode(p, &part, out->vanilla + out->partition_bytes * k, out->partition_bytes,
                                            &len, err);
        if (st != CUZK_OK) goto fail;
    }
    goto done;
fail:
    cuzk_fil_snap_update_free(out);
done:
    cuzk_fil_snap_partition_free(&part);
    cuzk_poseidon_tree_free(tr_old);
    cuzk_poseidon_tree_free(tr_new);
    free(tree_d);
    free(rho);
    free(chal);
    return st;
}

cuzk_status cuzk_fil_snap_update_random(const cuzk_fil_proof *p, uint64_t seed, unsigned threads,
                                        cuzk_fil_snap_update *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = cuzk_fil_snap_need(p, err);
    if (st != CUZK_OK) return st;
    if (p->nodes > UPDATE_MAX_NODES)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE,
                         "%s: a native update holds the sector in memory; %llu nodes exceed "
                         "2^24",
                         p->name, (unsigned long long)p->nodes);
    uint8_t *old = malloc(p->nodes * 32), *data = malloc(p->nodes * 32), comm_c[32];
    if (old == NULL || data == NULL) {
        free(old);
        free(data);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for a %llu-node sector", (unsigned long long)p->nodes);
    }
    uint64_t s = seed;
    for (uint64_t i = 0; i < p->nodes; i++) {
        mix_node(&s, old + 32 * i);
        mix_node(&s, data + 32 * i);
    }
    mix_node(&s, comm_c);
    cuzk_fil_snap_update_in in = {p, old, data, comm_c, 0, threads};
    st = cuzk_fil_snap_update_prove(&in, out, err);
    free(old);
    free(data);
    return st;
}
