/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The SnapDeals (EmptySectorUpdate) circuit of one partition, allocation for allocation and row for row as
 * storage-proofs-update circuit.rs and gadgets.rs synthesize it, with the same namespaces. The challenges are
 * independent of one another (each reads only variables made before them), and so are the hashes of one apex tree
 * row: both run as uniform parallel blocks. */
#include <pthread.h>
#include <stdlib.h>

#include "fil_internal.h"
#include "snap_int.h"

#define SNAP_HS 6u           /* hs(): six selectable h values */
#define SNAP_MAX_KH_BITS 16u /* partition bits (<= 4 in Filecoin) + 6 */
#define SNAP_MAX_CBITS 40u

/* Nothing after the challenges reads what their blocks leave: COUNT mode counts one uniform block instead of running
 * them all. */
#define SNAP_CHALLENGE_BLOCKS (CUZK_CS_BLOCKS_UNIFORM | CUZK_CS_BLOCKS_NO_HANDLES)

typedef struct {
    const cuzk_fil_snap_circuit *c;
    const cuzk_fil_proof *p;
    cuzk_fil_snap_dims d;
    uint32_t hs[SNAP_HS];
    cuzk_fr_t gen_tag, merkle2_tag;
    cuzk_por_tree tree_r, tree_d_apex, tree_d_part;
    /* made before the blocks, read by them */
    cuzk_bit kh_bits[SNAP_MAX_KH_BITS]; /* partition bits, then h_select bits */
    cuzk_num phi, root_r_old, root_r_new;
    cuzk_num *apex; /* the apex tree, leaves first: 2·apex_leaves − 1 nodes */
    uint32_t apex_row, apex_row_start, apex_row_width;
    cuzk_bit *digest_bits; /* digests × 255 */
} snap_ctx;

/* ---- helpers ----------------------------------------------------------------------------------------------------- */

static const cuzk_fr_t *zero_fr(void)
{
    static const cuzk_fr_t z;
    return &z;
}

/* A value of the vanilla proof, zero for the blank circuit. */
static void node_val(const snap_ctx *x, const uint8_t b[32], cuzk_fr_t *v)
{
    if (x->c->part == NULL || b == NULL || cuzk_fr_from_bytes_le(v, b) != CUZK_OK) cuzk_fr_set_zero(v);
}

static cuzk_num alloc_node(cuzk_cs *cs, const snap_ctx *x, const uint8_t *b)
{
    cuzk_fr_t v;
    node_val(x, b, &v);
    return cuzk_num_alloc(cs, &v);
}

/* neptune's poseidon_hash over two numbers with the given tag (arity 2) */
static cuzk_num poseidon2(cuzk_cs *cs, const cuzk_fr_t *tag, cuzk_num a, cuzk_num b)
{
    cuzk_num in[2] = {a, b};
    return cuzk_poseidon_gadget_hash(cs, 2, tag, in);
}

/* Σ 2^i bits[i] · 1 = num: gadgets.rs allocated_num_to_allocated_bits and the k_and_h_select decomposition */
static void enforce_decomp(cuzk_cs *cs, const char *name, const cuzk_bit *bits, unsigned n, cuzk_num num)
{
    if (!cuzk_cs_builds_lc(cs)) {
        cuzk_cs_enforce(cs, name, NULL, NULL, NULL);
        return;
    }
    cuzk_term ta[CUZK_NUM_BITS], tb[1], tc[1];
    cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
    for (unsigned i = 0; i < n; i++) cuzk_lc_add(cs, &a, bits[i].var, cuzk_cs_pow2(i));
    cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
    cuzk_lc_add(cs, &c, num.var, NULL);
    cuzk_cs_enforce(cs, name, &a, &b, &c);
}

/* ---- apex tree: one row's hashes as blocks ----------------------------------------------------------------------- */

static void apex_block(cuzk_cs *cs, void *ctx, uint64_t j)
{
    snap_ctx *x = ctx;
    const cuzk_num *in = x->apex + x->apex_row_start;
    cuzk_cs_pushf(cs, "apex_tree generation hash (tree_row=%u, siblings=%llu)", x->apex_row, (unsigned long long)j);
    x->apex[x->apex_row_start + x->apex_row_width + j] = cuzk_sha256_gadget_hash2(cs, in[2 * j], in[2 * j + 1]);
    cuzk_cs_pop(cs);
}

/* gadgets.rs apex_por: the apex tree from the leaves, then its root up the partition path to comm_d_new */
static void apex_por(cuzk_cs *cs, snap_ctx *x, const cuzk_num *partition_path, cuzk_num comm_d_new, unsigned threads)
{
    cuzk_cs_push(cs, "apex_gadget");
    uint32_t start = 0, row = 0;
    for (uint32_t width = x->p->apex_leaves; width > 1; width /= 2, row++) {
        x->apex_row = row;
        x->apex_row_start = start;
        x->apex_row_width = width;
        cuzk_cs_blocks(cs, width / 2, apex_block, x, NULL, CUZK_CS_BLOCKS_UNIFORM, threads);
        start += width;
    }
    cuzk_cs_push(cs, "partition-tree por");
    cuzk_por_no_challenge_input(cs, &x->tree_d_part, x->kh_bits, x->apex[start], partition_path, comm_d_new);
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
}

/* ---- gadgets.rs gen_challenge_bits ------------------------------------------------------------------------------- */

static void gen_challenge_bits(cuzk_cs *cs, snap_ctx *x, cuzk_num comm_r_new, cuzk_num partition)
{
    cuzk_cs_push(cs, "gen_challenge_bits");
    cuzk_fr_t dpp;
    cuzk_fr_from_u64(&dpp, x->d.digests);
    for (uint32_t j = 0; j < x->d.digests; j++) {
        cuzk_fr_t jv, v;
        cuzk_fr_from_u64(&jv, j);
        cuzk_fr_mul(&v, &partition.val, &dpp);
        cuzk_fr_add(&v, &v, &jv);
        cuzk_cs_pushf(cs, "digest_index_%u", j);
        cuzk_num idx = cuzk_num_alloc(cs, &v);
        cuzk_cs_pop(cs);
        if (cuzk_cs_builds_lc(cs)) {
            cuzk_term ta[2], tb[1], tc[1];
            cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
            cuzk_lc_add(cs, &a, partition.var, &dpp);
            cuzk_lc_add(cs, &a, CUZK_VAR_ONE, &jv);
            cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
            cuzk_lc_add(cs, &c, idx.var, NULL);
            cuzk_cs_enforce(cs, "digest_index == k * digests_per_partition + j", &a, &b, &c);
        } else {
            cuzk_cs_enforce(cs, "digest_index == k * digests_per_partition + j", NULL, NULL, NULL);
        }
        cuzk_cs_pushf(cs, "digest_%u", j);
        cuzk_num digest = poseidon2(cs, &x->gen_tag, comm_r_new, idx);
        cuzk_cs_pop(cs);
        /* field_into_allocated_bits_le: 255 bits, least significant first */
        cuzk_cs_pushf(cs, "digest_%u_bits", j);
        uint8_t b[32];
        cuzk_fr_to_bytes_le(b, &digest.val);
        cuzk_bit *bits = x->digest_bits + (size_t)j * CUZK_NUM_BITS;
        for (unsigned i = 0; i < CUZK_NUM_BITS; i++) {
            cuzk_cs_pushf(cs, "bit %u", i);
            bits[i] = cuzk_bit_alloc(cs, (b[i >> 3] >> (i & 7)) & 1);
            cuzk_cs_pop(cs);
        }
        enforce_decomp(cs, "binary decomp", bits, CUZK_NUM_BITS, digest);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_pop(cs);
}

/* ---- one challenge ----------------------------------------------------------------------------------------------- */

/* gadgets.rs get_challenge_high_bits: for each h of hs, c_high = the h high bits packed, times its h_select bit; the
 * sum is the selected one */
static cuzk_num challenge_high_bits(cuzk_cs *cs, const snap_ctx *x, const cuzk_bit *c_bits)
{
    const cuzk_bit *h_select = x->kh_bits + x->d.pbits;
    cuzk_num or_zero[SNAP_HS];
    cuzk_fr_t sum;
    cuzk_fr_set_zero(&sum);
    for (unsigned k = 0; k < SNAP_HS; k++) {
        unsigned h = x->hs[k];
        cuzk_cs_pushf(cs, "c_high (h=%u, k=%u)", h, k);
        cuzk_num c_high = cuzk_multipack_pack_bits(cs, c_bits + x->d.cbits - h, h);
        cuzk_cs_pop(cs);
        cuzk_cs_pushf(cs, "c_high_or_zero (h=%u, k=%u)", h, k);
        or_zero[k] = cuzk_num_alloc(cs, h_select[k].val ? &c_high.val : zero_fr());
        cuzk_cs_pop(cs);
        cuzk_fr_add(&sum, &sum, &or_zero[k].val);
        if (cuzk_cs_builds_lc(cs)) {
            cuzk_term ta[1], tb[1], tc[1];
            cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
            cuzk_lc_add(cs, &a, c_high.var, NULL);
            cuzk_lc_add(cs, &b, h_select[k].var, NULL);
            cuzk_lc_add(cs, &c, or_zero[k].var, NULL);
            cuzk_cs_enforce(cs, "c_high_or_zero == c_high * h_select_bit", &a, &b, &c);
        } else {
            cuzk_cs_enforce(cs, "c_high_or_zero == c_high * h_select_bit", NULL, NULL, NULL);
        }
    }
    cuzk_cs_push(cs, "c_high_selected");
    cuzk_num sel = cuzk_num_alloc(cs, &sum);
    cuzk_cs_pop(cs);
    if (cuzk_cs_builds_lc(cs)) {
        cuzk_term ta[SNAP_HS], tb[1], tc[1];
        cuzk_lc a = CUZK_LC_ON(ta), b = CUZK_LC_ON(tb), c = CUZK_LC_ON(tc);
        for (unsigned k = 0; k < SNAP_HS; k++) cuzk_lc_add(cs, &a, or_zero[k].var, NULL);
        cuzk_lc_add(cs, &b, CUZK_VAR_ONE, NULL);
        cuzk_lc_add(cs, &c, sel.var, NULL);
        cuzk_cs_enforce(cs, "c_high_selected == dot(c_highs, h_select_bits)", &a, &b, &c);
    } else {
        cuzk_cs_enforce(cs, "c_high_selected == dot(c_highs, h_select_bits)", NULL, NULL, NULL);
    }
    return sel;
}

/* The siblings of a tree R path, level by level, each allocated as circuit.rs names them. */
static void alloc_path_r(cuzk_cs *cs, const snap_ctx *x, const char *which, uint64_t ci, const cuzk_fil_merkle_proof *m,
                         cuzk_num *out)
{
    unsigned levels = cuzk_fil_shape_levels(&x->p->tree_r), n = 0;
    for (unsigned l = 0; l < levels; l++) {
        unsigned arity = cuzk_fil_shape_arity(&x->p->tree_r, l);
        const cuzk_fil_node *sib = m != NULL ? cuzk_fil_merkle_level(m, &x->p->tree_r, l) : NULL;
        for (unsigned s = 0; s + 1 < arity; s++, n++) {
            cuzk_cs_pushf(cs, "%s sibling (c_index=%llu, tree_row=%u, sibling_index=%u)", which, (unsigned long long)ci,
                          l, s);
            out[n] = alloc_node(cs, x, sib != NULL ? sib[s] : NULL);
            cuzk_cs_pop(cs);
        }
    }
}

static void challenge_block(cuzk_cs *cs, void *ctx, uint64_t ci)
{
    const snap_ctx *x = ctx;
    const cuzk_fil_snap_challenge *ch = x->c->part != NULL ? &x->c->part->c[ci] : NULL;
    unsigned rbits = x->d.rbits;
    /* the generated bits, then the partition bits above them */
    cuzk_bit c_bits[SNAP_MAX_CBITS];
    const cuzk_bit *gen = x->digest_bits + (size_t)(ci / x->d.per_digest) * CUZK_NUM_BITS +
                          (size_t)(ci % x->d.per_digest) * rbits;
    memcpy(c_bits, gen, rbits * sizeof *c_bits);
    memcpy(c_bits + rbits, x->kh_bits, x->d.pbits * sizeof *c_bits);

    unsigned long long c = (unsigned long long)ci;
    cuzk_cs_pushf(cs, "get_challenge_high_bits (c_index=%llu)", c);
    cuzk_num c_high = challenge_high_bits(cs, x, c_bits);
    cuzk_cs_pop(cs);
    cuzk_cs_pushf(cs, "rho (c_index=%llu)", c);
    cuzk_num rho = poseidon2(cs, &x->gen_tag, x->phi, c_high);
    cuzk_cs_pop(cs);

    cuzk_cs_pushf(cs, "leaf_r_old (c_index=%llu)", c);
    cuzk_num leaf_r_old = alloc_node(cs, x, ch != NULL ? ch->r_old.leaf : NULL);
    cuzk_cs_pop(cs);
    cuzk_cs_pushf(cs, "leaf_d_new (c_index=%llu)", c);
    cuzk_num leaf_d_new = alloc_node(cs, x, ch != NULL ? ch->d_new.leaf : NULL);
    cuzk_cs_pop(cs);

    /* gadgets.rs label_r_new: label_d_new · rho, then label_r_old + that (alloc, then (a + b)·1 = c) */
    cuzk_cs_pushf(cs, "leaf_r_new (c_index=%llu)", c);
    cuzk_cs_push(cs, "label_d_new * rho");
    cuzk_num prod = cuzk_num_mul(cs, leaf_d_new, rho);
    cuzk_cs_pop(cs);
    cuzk_num leaf_r_new = cuzk_num_add(cs, leaf_r_old, prod);
    cuzk_cs_pop(cs);

    cuzk_num path[CUZK_FIL_MAX_LEVELS * (CUZK_POSEIDON_TREE_MAX_ARITY - 1)];
    alloc_path_r(cs, x, "path_r_old", ci, ch != NULL ? &ch->r_old : NULL, path);
    cuzk_cs_pushf(cs, "por tree_r_old (c_index=%llu)", c);
    cuzk_por_no_challenge_input(cs, &x->tree_r, c_bits, leaf_r_old, path, x->root_r_old);
    cuzk_cs_pop(cs);
    alloc_path_r(cs, x, "path_r_new", ci, ch != NULL ? &ch->r_new : NULL, path);
    cuzk_cs_pushf(cs, "por tree_r_new (c_index=%llu)", c);
    cuzk_por_no_challenge_input(cs, &x->tree_r, c_bits, leaf_r_new, path, x->root_r_new);
    cuzk_cs_pop(cs);

    cuzk_cs_pushf(cs, "select_apex_leaf (c_index=%llu)", c);
    cuzk_num apex_leaf = cuzk_insert_select(cs, x->apex, c_bits + x->d.apex_path, x->d.abits);
    cuzk_cs_pop(cs);

    for (unsigned l = 0; l < x->d.apex_path; l++) {
        cuzk_cs_pushf(cs, "path_to_apex_leaf sibling (c_index=%llu, tree_row=%u)", c, l);
        path[l] = alloc_node(cs, x, ch != NULL ? ch->d_new.siblings[l] : NULL);
        cuzk_cs_pop(cs);
    }
    cuzk_cs_pushf(cs, "por to_apex_leaf (c_index=%llu)", c);
    cuzk_por_no_challenge_input(cs, &x->tree_d_apex, c_bits, leaf_d_new, path, apex_leaf);
    cuzk_cs_pop(cs);
}

/* ---- the circuit ------------------------------------------------------------------------------------------------- */

static bool ctx_init(cuzk_cs *cs, snap_ctx *x, const cuzk_fil_snap_circuit *c)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    x->p = c->proof;
    cuzk_errmsg e = {{0}};
    if (cuzk_fil_snap_need(x->p, &e) != CUZK_OK) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s", e.msg);
        return false;
    }
    cuzk_fil_snap_dims_of(x->p, &x->d);
    if (x->d.pbits + SNAP_HS > SNAP_MAX_KH_BITS || x->d.cbits > SNAP_MAX_CBITS || c->k >= x->p->partitions ||
        cuzk_fil_shape_levels(&x->p->tree_r) > CUZK_FIL_MAX_LEVELS) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s: partition %u or a tree shape out of range", x->p->name, c->k);
        return false;
    }
    cuzk_fil_snap_hs(x->p, x->hs);
    if (cuzk_poseidon_tag(&x->gen_tag, CUZK_POSEIDON_CUSTOM, 2, CUZK_POSEIDON_GEN_RANDOMNESS_ID, &e) != CUZK_OK ||
        cuzk_poseidon_tag(&x->merkle2_tag, CUZK_POSEIDON_MERKLE_TREE, 2, 0, &e) != CUZK_OK) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s", e.msg);
        return false;
    }
    const cuzk_fil_shape *tr = &x->p->tree_r;
    x->tree_r = (cuzk_por_tree){tr->base, tr->sub, tr->top, tr->base_levels, cuzk_poseidon_gadget_por_hash, NULL};
    x->tree_d_apex = (cuzk_por_tree){2, 0, 0, x->d.apex_path, cuzk_sha256_gadget_por_hash, NULL};
    x->tree_d_part = (cuzk_por_tree){2, 0, 0, x->d.pbits, cuzk_sha256_gadget_por_hash, NULL};
    x->apex = malloc((2 * (size_t)x->p->apex_leaves - 1) * sizeof *x->apex);
    x->digest_bits = malloc((size_t)x->d.digests * CUZK_NUM_BITS * sizeof *x->digest_bits);
    if (x->apex == NULL || x->digest_bits == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for the apex tree and challenge bits");
        return false;
    }
    return true;
}

static cuzk_num alloc_input_num(cuzk_cs *cs, const char *name, const char *input_name, const cuzk_fr_t *v)
{
    cuzk_cs_push(cs, name);
    cuzk_num n = cuzk_num_alloc(cs, v);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, input_name);
    cuzk_num_inputize(cs, n);
    cuzk_cs_pop(cs);
    return n;
}

void cuzk_fil_snap_synthesize(cuzk_cs *cs, const cuzk_fil_snap_circuit *c, unsigned threads)
{
    snap_ctx x;
    if (c == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "no circuit");
        return;
    }
    if (!ctx_init(cs, &x, c)) goto out;
    const cuzk_fil_proof *p = x.p;
    bool full = c->part != NULL;

    /* public inputs' values: k | h_select << partition bits, then the commitments (zeros for the blank circuit) */
    cuzk_fr_t pub[4];
    uint64_t kh = 0;
    memset(pub, 0, sizeof pub);
    if (full) {
        cuzk_errmsg e = {{0}};
        if (c->comm_r_old == NULL || c->comm_d_new == NULL || c->comm_r_new == NULL ||
            c->part->challenges != p->challenges || c->part->apex_count != p->apex_leaves) {
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG,
                         "%s: a witness needs the three commitments and a partition proof "
                         "of %u challenges and %u apex leaves",
                         p->name, p->challenges, p->apex_leaves);
            goto out;
        }
        if (cuzk_fil_snap_public_inputs(p, c->k, c->h, c->comm_r_old, c->comm_d_new, c->comm_r_new, pub, &e) !=
                CUZK_OK ||
            cuzk_fil_snap_k_and_h_select(p, c->k, c->h, &kh, &e) != CUZK_OK) {
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "%s", e.msg);
            goto out;
        }
    }

    cuzk_num k_and_h = alloc_input_num(cs, "k_and_h_select", "k_and_h_select (public input)", &pub[0]);
    unsigned kh_n = x.d.pbits + SNAP_HS;
    for (unsigned i = 0; i < kh_n; i++) {
        cuzk_cs_pushf(cs, "k_and_h_select_bit_%u", i);
        x.kh_bits[i] = cuzk_bit_alloc(cs, (kh >> i) & 1);
        cuzk_cs_pop(cs);
    }
    enforce_decomp(cs, "k_and_h_select binary decomp", x.kh_bits, kh_n, k_and_h);
    cuzk_cs_push(cs, "pack partition bits");
    cuzk_num partition = cuzk_multipack_pack_bits(cs, x.kh_bits, x.d.pbits);
    cuzk_cs_pop(cs);

    cuzk_num comm_r_old = alloc_input_num(cs, "comm_r_old", "comm_r_old_input", &pub[1]);
    cuzk_num comm_d_new = alloc_input_num(cs, "comm_d_new", "comm_d_new_input", &pub[2]);
    cuzk_num comm_r_new = alloc_input_num(cs, "comm_r_new", "comm_r_new_input", &pub[3]);

    cuzk_cs_push(cs, "phi");
    x.phi = poseidon2(cs, &x.gen_tag, comm_d_new, comm_r_old);
    cuzk_cs_pop(cs);

    /* private inputs other than the challenges' proofs */
    const cuzk_fil_snap_partition *s = c->part;
    cuzk_cs_push(cs, "comm_c");
    cuzk_num comm_c = alloc_node(cs, &x, full ? s->comm_c : NULL);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "root_r_old");
    x.root_r_old = alloc_node(cs, &x, full ? s->c[0].r_old.root : NULL);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "root_r_new");
    x.root_r_new = alloc_node(cs, &x, full ? s->c[0].r_new.root : NULL);
    cuzk_cs_pop(cs);
    for (uint32_t i = 0; i < p->apex_leaves; i++) {
        cuzk_cs_pushf(cs, "apex_leaf_%u", i);
        x.apex[i] = alloc_node(cs, &x, full ? s->apex_leafs[i] : NULL);
        cuzk_cs_pop(cs);
    }
    cuzk_num partition_path[SNAP_MAX_KH_BITS];
    for (unsigned i = 0; i < x.d.pbits; i++) {
        cuzk_cs_pushf(cs, "partition_path_sibling_%u", i);
        partition_path[i] = alloc_node(cs, &x, full ? s->c[0].d_new.siblings[x.d.cbits - x.d.pbits + i] : NULL);
        cuzk_cs_pop(cs);
    }

    /* comm_r = H(comm_c || root_r), tree R's Poseidon-2 */
    cuzk_cs_push(cs, "comm_r_old_calc");
    cuzk_num calc = poseidon2(cs, &x.merkle2_tag, comm_c, x.root_r_old);
    cuzk_cs_pop(cs);
    cuzk_num_equal(cs, "enforce comm_r_old_calc == comm_r_old", calc, comm_r_old);
    cuzk_cs_push(cs, "comm_r_new_calc");
    calc = poseidon2(cs, &x.merkle2_tag, comm_c, x.root_r_new);
    cuzk_cs_pop(cs);
    cuzk_num_equal(cs, "enforce comm_r_new_calc == comm_r_new", calc, comm_r_new);

    apex_por(cs, &x, partition_path, comm_d_new, threads);
    gen_challenge_bits(cs, &x, comm_r_new, partition);
    cuzk_cs_blocks(cs, p->challenges, challenge_block, &x, NULL, SNAP_CHALLENGE_BLOCKS, threads);
out:
    free(x.apex);
    free(x.digest_bits);
}

cuzk_status cuzk_fil_snap_blank(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err)
{
    cuzk_fil_snap_circuit c = {.proof = p};
    cuzk_fil_snap_synthesize(cs, &c, threads);
    cuzk_status s = cuzk_cs_status(cs);
    if (s != CUZK_OK) cuzk_fail(err, s, "%s", cuzk_cs_errmsg(cs));
    return s;
}

/* ---- counts, shape, witness -------------------------------------------------------------------------------------- */

#define COUNT_CACHE 16
static struct {
    const cuzk_fil_proof *p;
    cuzk_cs_counts counts;
} count_cache[COUNT_CACHE];
static size_t count_cached;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

cuzk_status cuzk_fil_snap_counts(const cuzk_fil_proof *p, unsigned threads, cuzk_cs_counts *out, cuzk_errmsg *err)
{
    cuzk_status st = cuzk_fil_snap_need(p, err);
    if (st != CUZK_OK) return st;
    pthread_mutex_lock(&count_lock);
    for (size_t i = 0; i < count_cached; i++)
        if (count_cache[i].p == p) {
            *out = count_cache[i].counts;
            pthread_mutex_unlock(&count_lock);
            return CUZK_OK;
        }
    pthread_mutex_unlock(&count_lock);
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for a constraint system");
    cuzk_fil_snap_circuit c = {.proof = p};
    cuzk_fil_snap_synthesize(cs, &c, threads);
    cuzk_cs_get_counts(cs, out);
    if ((st = cuzk_cs_finish(cs, NULL, NULL, err)) != CUZK_OK) return st;
    pthread_mutex_lock(&count_lock);
    if (count_cached < COUNT_CACHE) {
        count_cache[count_cached].p = p;
        count_cache[count_cached].counts = *out;
        count_cached++;
    }
    pthread_mutex_unlock(&count_lock);
    return CUZK_OK;
}

cuzk_status cuzk_fil_snap_shape(const cuzk_fil_proof *p, unsigned threads, cuzk_r1cs_t **out, cuzk_errmsg *err)
{
    *out = NULL;
    cuzk_status st = cuzk_fil_snap_need(p, err);
    if (st != CUZK_OK) return st;
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for a constraint system");
    cuzk_fil_snap_circuit c = {.proof = p};
    cuzk_fil_snap_synthesize(cs, &c, threads);
    return cuzk_cs_finish(cs, out, NULL, err);
}

cuzk_status cuzk_fil_snap_witness(const cuzk_fil_snap_circuit *c, unsigned threads, cuzk_fr_t *z, uint64_t len,
                                  cuzk_errmsg *err)
{
    cuzk_status st = cuzk_fil_snap_validate(c, threads, err);
    if (st != CUZK_OK) return st;
    if (z == NULL || len < CUZK_FIL_SNAP_INPUTS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a witness buffer of %llu values", (unsigned long long)len);
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, CUZK_FIL_SNAP_INPUTS, len - CUZK_FIL_SNAP_INPUTS);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for a constraint system");
    cuzk_fil_snap_synthesize(cs, c, threads);
    if ((st = cuzk_cs_finish(cs, NULL, NULL, err)) != CUZK_OK) return st;
    /* the inputs the witness holds against those made from the request alone */
    cuzk_fr_t pub[4];
    if ((st = cuzk_fil_snap_public_inputs(c->proof, c->k, c->h, c->comm_r_old, c->comm_d_new, c->comm_r_new, pub,
                                          err)) != CUZK_OK)
        return st;
    static const char *const names[4] = {"k_and_h_select", "comm_r_old", "comm_d_new", "comm_r_new"};
    for (int i = 0; i < 4; i++)
        if (!cuzk_fr_eq(&z[1 + i], &pub[i]))
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "public input %d (%s) of the witness differs from the request's",
                             i + 1, names[i]);
    return CUZK_OK;
}
