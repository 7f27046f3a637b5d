/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The StackedDrg PoRep partition circuit (storage-proofs-porep stacked/circuit/proof.rs, params.rs, create_label.rs,
 * hash.rs, column.rs), allocation for allocation and row for row.
 *
 * The partition is the top part (replica_id, comm_d, comm_r as inputs, comm_r = H(comm_c, comm_r_last)) and then,
 * per challenge, L + 2 blocks synthesized in parallel by cuzk_cs_blocks:
 *   part 0        the data leaf and its tree D path, the 14 parent columns with their hashes and tree C paths, the
 *                 challenge as a UInt64 input ("pre")
 *   part 1 .. L   the label of layer l: the parents' to_bits_le and create_label's SHA-256
 *   part L + 1    the encoding, its tree R path, the column hash of the labels and its tree C path ("post")
 * A label block reads variables the pre block of its challenge allocates (the parent rows, the challenge bits) and
 * the post block reads the labels. Their handles are fixed by the counts: a circuit object synthesizes challenge 0
 * once in COUNT mode and records where they lie relative to the challenge's first aux; challenge c's are the same
 * shifted by c times a challenge's aux count. Their values come from the C1 (the rows, the node, the challenged
 * column's labels), which cuzk_fil_porep_c1_check has found equal to what the other blocks compute. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "fil_internal.h"

#define MAX_LAYERS 11u
#define NPARENTS (CUZK_FIL_DRG_PARENTS + CUZK_FIL_EXP_PARENTS)
#define MAX_PARTS (MAX_LAYERS + 2u)
#define MAX_SIBLINGS 128u
#define LABEL_BITS ((2u + CUZK_FIL_LABEL_PARENTS) * 256u) /* replica id, layer ‖ node ‖ padding, 37 parents */

/* The variables a challenge's blocks share, as aux numbers relative to the challenge's first aux. */
typedef struct {
    uint32_t data_leaf;
    uint32_t cols[NPARENTS][MAX_LAYERS];
    uint32_t chal[64];
    uint32_t labels[MAX_LAYERS];
} porep_layout;

struct cuzk_fil_porep_circuit {
    cuzk_fil_proof geom;
    unsigned layers, challenges, parts;
    cuzk_por_tree tree_d, tree_rc;
    cuzk_cs_counts top;             /* the part before the challenges, ONE included */
    cuzk_cs_counts part[MAX_PARTS]; /* each part of a challenge */
    cuzk_cs_counts per_challenge, total;
    cuzk_cs_counts *blocks; /* challenges × parts, for cuzk_cs_blocks */
    porep_layout lay;
};

/* One synthesis. */
typedef struct {
    const cuzk_fil_porep_circuit *c;
    const cuzk_fil_porep_challenge *ch; /* the partition's challenges; NULL for the blank circuit */
    cuzk_bit replica[256];
    cuzk_num comm_d, comm_c, comm_r_last;
    uint32_t base_aux;    /* the first challenge's first aux */
    porep_layout *record; /* the layout pass: where challenge 0's blocks note their variables */
} porep_run;

static const cuzk_fr_t *fr_of(cuzk_fr_t *out, const uint8_t b[32])
{
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK) cuzk_fr_set_zero(out); /* the C1 readers let none through */
    return out;
}

/* Poseidon with the MerkleTree tag of arity n over n numbers (neptune's poseidon_hash circuit). */
static cuzk_num poseidon(cuzk_cs *cs, const cuzk_num *in, unsigned n)
{
    cuzk_fr_t tag;
    cuzk_poseidon_tag(&tag, CUZK_POSEIDON_MERKLE_TREE, n, 0, NULL);
    return cuzk_poseidon_gadget_hash(cs, n, &tag, in);
}

static cuzk_por_root var_root(cuzk_num n) { return (cuzk_por_root){n, true}; }

/* The siblings of a C1 path as field values (NULL for the blank circuit). */
static const cuzk_fr_t *siblings(cuzk_fr_t *out, const cuzk_fil_merkle_proof *m, unsigned n)
{
    if (m == NULL) return NULL;
    for (unsigned i = 0; i < n; i++) fr_of(&out[i], m->siblings[i]);
    return out;
}

static cuzk_num num_at(const porep_run *r, uint64_t ci, uint32_t off, const cuzk_fr_t *val)
{
    cuzk_num n;
    n.var = CUZK_VAR_AUX | (uint32_t)(r->base_aux + ci * r->c->per_challenge.aux + off);
    if (val != NULL) n.val = *val;
    else cuzk_fr_set_zero(&n.val);
    return n;
}

static uint32_t off_of(const porep_run *r, cuzk_var v) { return (v & ~CUZK_VAR_AUX) - r->base_aux; }

/* ---- the top part ------------------------------------------------------------------------------------------------ */

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

static void synth_top(cuzk_cs *cs, porep_run *r, const cuzk_fil_c1 *c1)
{
    cuzk_fr_t v;
    const cuzk_fil_porep_challenge *ch0 = r->ch;
    cuzk_num rid = alloc_input_num(cs, "replica_id", "replica_id_input", c1 ? fr_of(&v, c1->replica_id) : NULL);
    cuzk_bit bits[CUZK_NUM_BITS];
    cuzk_cs_push(cs, "replica_id_bits");
    cuzk_num_to_bits_le(cs, rid, bits);
    cuzk_cs_pop(cs);
    cuzk_bit_reverse_bit_numbering(bits, CUZK_NUM_BITS, r->replica);
    r->comm_d = alloc_input_num(cs, "comm_d", "comm_d_input", c1 ? fr_of(&v, c1->comm_d) : NULL);
    cuzk_num comm_r = alloc_input_num(cs, "comm_r", "comm_r_input", c1 ? fr_of(&v, c1->comm_r) : NULL);
    cuzk_cs_push(cs, "comm_r_last");
    r->comm_r_last = cuzk_num_alloc(cs, ch0 ? fr_of(&v, ch0->comm_r_last.root) : NULL);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_c");
    r->comm_c = cuzk_num_alloc(cs, ch0 ? fr_of(&v, ch0->c_x.proof.root) : NULL);
    cuzk_cs_pop(cs);
    cuzk_num pre[2] = {r->comm_c, r->comm_r_last};
    cuzk_cs_push(cs, "H_comm_c_comm_r_last");
    cuzk_num h = poseidon(cs, pre, 2);
    cuzk_cs_pop(cs);
    cuzk_num_equal(cs, "enforce comm_r = H(comm_c || comm_r_last)", comm_r, h);
}

/* ---- part 0: data leaf, tree D, parent columns, the challenge ---------------------------------------------------- */

static void block_pre(cuzk_cs *cs, porep_run *r, uint64_t ci)
{
    const cuzk_fil_porep_circuit *c = r->c;
    const cuzk_fil_porep_challenge *ch = r->ch != NULL ? &r->ch[ci] : NULL;
    unsigned L = c->layers, nsib_d = cuzk_por_siblings(&c->tree_d), nsib_rc = cuzk_por_siblings(&c->tree_rc);
    cuzk_fr_t v, sib[MAX_SIBLINGS];
    uint64_t node = ch != NULL ? ch->node : 0;

    cuzk_cs_push(cs, "data_leaf");
    cuzk_num data = cuzk_num_alloc(cs, ch != NULL ? fr_of(&v, ch->comm_d.leaf) : NULL);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_d_inclusion");
    cuzk_por_circuit(cs, &c->tree_d, var_root(data), node, siblings(sib, ch ? &ch->comm_d : NULL, nsib_d),
                     var_root(r->comm_d), true);
    cuzk_cs_pop(cs);

    for (unsigned i = 0; i < NPARENTS; i++) {
        bool drg = i < CUZK_FIL_DRG_PARENTS;
        unsigned pi = drg ? i : i - CUZK_FIL_DRG_PARENTS;
        const char *kind = drg ? "drg" : "exp";
        const cuzk_fil_column_proof *col = ch == NULL ? NULL : drg ? &ch->drg[pi] : &ch->exp[pi];
        cuzk_num rows[MAX_LAYERS];
        cuzk_cs_pushf(cs, "%s_parent_%u_num", kind, pi);
        cuzk_cs_push(cs, "column");
        for (unsigned l = 0; l < L; l++) {
            cuzk_cs_pushf(cs, "column_num_row_%u", l);
            rows[l] = cuzk_num_alloc(cs, col != NULL ? fr_of(&v, col->rows[l]) : NULL);
            cuzk_cs_pop(cs);
            if (r->record != NULL) r->record->cols[i][l] = off_of(r, rows[l].var);
        }
        cuzk_cs_pop(cs);
        cuzk_cs_pop(cs);
        cuzk_cs_pushf(cs, "%s_parent_%u_constraint", kind, pi);
        cuzk_num h = poseidon(cs, rows, L);
        cuzk_cs_pop(cs);
        cuzk_cs_pushf(cs, "%s_parent_%u_inclusion", kind, pi);
        cuzk_por_circuit(cs, &c->tree_rc, var_root(h), col != NULL ? col->index : 0,
                         siblings(sib, col ? &col->proof : NULL, nsib_rc), var_root(r->comm_c), true);
        cuzk_cs_pop(cs);
    }

    cuzk_u64 challenge;
    cuzk_cs_push(cs, "challenge");
    cuzk_u64_alloc(cs, node, &challenge);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "challenge input");
    cuzk_u64_pack_into_input(cs, &challenge);
    cuzk_cs_pop(cs);
    if (r->record != NULL) {
        r->record->data_leaf = off_of(r, data.var);
        for (unsigned b = 0; b < 64; b++) r->record->chal[b] = off_of(r, challenge.b[b].var);
    }
}

/* ---- parts 1 .. L: the labels ------------------------------------------------------------------------------------ */

static void block_label(cuzk_cs *cs, porep_run *r, uint64_t ci, unsigned layer)
{
    const cuzk_fil_porep_circuit *c = r->c;
    const porep_layout *lay = r->record != NULL ? r->record : &c->lay;
    const cuzk_fil_porep_challenge *ch = r->ch != NULL ? &r->ch[ci] : NULL;
    cuzk_bit *msg = malloc(LABEL_BITS * sizeof *msg);
    cuzk_bit(*parents)[256] = malloc(NPARENTS * sizeof *parents);
    if (msg == NULL || parents == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for the label of layer %u", layer);
        free(msg);
        free(parents);
        return;
    }
    cuzk_fr_t v;
    unsigned np = 0;
    cuzk_cs_pushf(cs, "labeling_%u", layer);
    /* every layer has the DRG parents (this layer's labels), the later ones the expander parents (the previous
     * layer's, so row layer − 2) */
    for (unsigned i = 0; i < NPARENTS; i++) {
        bool drg = i < CUZK_FIL_DRG_PARENTS;
        if (!drg && layer == 1) break;
        unsigned pi = drg ? i : i - CUZK_FIL_DRG_PARENTS, row = drg ? layer - 1 : layer - 2;
        const cuzk_fil_column_proof *col = ch == NULL ? NULL : drg ? &ch->drg[pi] : &ch->exp[pi];
        cuzk_num n = num_at(r, ci, lay->cols[i][row], col != NULL ? fr_of(&v, col->rows[row]) : NULL);
        cuzk_bit bits[CUZK_NUM_BITS];
        cuzk_cs_pushf(cs, "%s_parent_%u_bits", drg ? "drg" : "exp", np);
        cuzk_num_to_bits_le(cs, n, bits);
        cuzk_cs_pop(cs);
        cuzk_bit_reverse_bit_numbering(bits, CUZK_NUM_BITS, parents[np++]);
    }

    /* replica_id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ zeros to 64 bytes ‖ the parents repeated to 37 */
    memcpy(msg, r->replica, 256 * sizeof *msg);
    for (unsigned b = 0; b < 32; b++) msg[256 + b] = cuzk_bit_const((layer >> (31 - b)) & 1);
    uint64_t node = ch != NULL ? ch->node : 0;
    for (unsigned b = 0; b < 64; b++) {
        unsigned bit = 63 - b;
        cuzk_bit x = {CUZK_VAR_AUX | (uint32_t)(r->base_aux + ci * c->per_challenge.aux + lay->chal[bit]), CUZK_BIT_IS,
                      (uint8_t)((node >> bit) & 1)};
        msg[288 + b] = x;
    }
    for (unsigned b = 352; b < 512; b++) msg[b] = cuzk_bit_const(false);
    for (unsigned p = 0; p < CUZK_FIL_LABEL_PARENTS; p++)
        memcpy(msg + 512 + 256 * p, parents[p % np], 256 * sizeof *msg);

    cuzk_bit digest[256], le[256];
    cuzk_cs_push(cs, "create_label");
    cuzk_cs_push(cs, "hash");
    cuzk_sha256_gadget(cs, msg, LABEL_BITS, digest);
    cuzk_cs_pop(cs);
    cuzk_bit_reverse_bit_numbering(digest, 256, le);
    cuzk_cs_push(cs, "result_num");
    cuzk_num label = cuzk_multipack_pack_bits(cs, le, CUZK_NUM_CAPACITY);
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
    (void)label; /* the block's last aux: the layout knows it from the counts */
    free(msg);
    free(parents);
}

/* ---- part L + 1: encoding, tree R, the challenged column --------------------------------------------------------- */

static void block_post(cuzk_cs *cs, porep_run *r, uint64_t ci)
{
    const cuzk_fil_porep_circuit *c = r->c;
    const porep_layout *lay = r->record != NULL ? r->record : &c->lay;
    const cuzk_fil_porep_challenge *ch = r->ch != NULL ? &r->ch[ci] : NULL;
    unsigned L = c->layers, nsib = cuzk_por_siblings(&c->tree_rc);
    cuzk_fr_t v, sib[MAX_SIBLINGS];
    cuzk_num labels[MAX_LAYERS];
    for (unsigned l = 0; l < L; l++) labels[l] = num_at(r, ci, lay->labels[l], ch ? fr_of(&v, ch->c_x.rows[l]) : NULL);
    cuzk_num data = num_at(r, ci, lay->data_leaf, ch ? fr_of(&v, ch->comm_d.leaf) : NULL);
    uint64_t node = ch != NULL ? ch->node : 0;

    cuzk_cs_push(cs, "encode_node");
    cuzk_cs_push(cs, "encode_add");
    cuzk_num enc = cuzk_num_add(cs, labels[L - 1], data);
    cuzk_cs_pop(cs);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "comm_r_last_data_inclusion");
    cuzk_por_circuit(cs, &c->tree_rc, var_root(enc), node, siblings(sib, ch ? &ch->comm_r_last : NULL, nsib),
                     var_root(r->comm_r_last), true);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "c_x_column_hash");
    cuzk_num h = poseidon(cs, labels, L);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "c_x_inclusion");
    cuzk_por_circuit(cs, &c->tree_rc, var_root(h), node, siblings(sib, ch ? &ch->c_x.proof : NULL, nsib),
                     var_root(r->comm_c), true);
    cuzk_cs_pop(cs);
}

static void part_block(cuzk_cs *cs, void *ctx, uint64_t b)
{
    porep_run *r = ctx;
    unsigned parts = r->c->parts, q = (unsigned)(b % parts);
    uint64_t ci = b / parts;
    cuzk_cs_pushf(cs, "challenge_%llu", (unsigned long long)ci);
    if (q == 0) block_pre(cs, r, ci);
    else if (q <= r->c->layers) block_label(cs, r, ci, q);
    else block_post(cs, r, ci);
    cuzk_cs_pop(cs);
}

/* A whole challenge, its parts in order (COUNT mode's uniform block). */
static void challenge_block(cuzk_cs *cs, void *ctx, uint64_t ci)
{
    porep_run *r = ctx;
    for (unsigned q = 0; q < r->c->parts; q++) part_block(cs, r, ci * r->c->parts + q);
}

/* ---- the circuit object ------------------------------------------------------------------------------------------ */

static bool pow2_arity(unsigned a, bool zero_ok) { return (a == 0 && zero_ok) || a == 2 || a == 4 || a == 8; }

static cuzk_status geom_check(const cuzk_fil_proof *p, cuzk_errmsg *err)
{
    const cuzk_fil_shape *r = &p->tree_r, *d = &p->tree_d;
    if (p->layers != 2 && p->layers != MAX_LAYERS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%u layers: the column hash takes 2 or 11", p->layers);
    if (p->challenges == 0 || p->challenges > 1024)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%u challenges per partition", p->challenges);
    if (!pow2_arity(r->base, false) || !pow2_arity(r->sub, true) || !pow2_arity(r->top, true) || (r->top && !r->sub) ||
        r->base_levels == 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree R shape %u-%u-%u (%u base levels) is not supported", r->base,
                         r->sub, r->top, r->base_levels);
    if (d->base != 2 || d->sub || d->top || d->base_levels == 0 || d->base_levels > CUZK_FIL_MAX_LEVELS ||
        p->nodes != (uint64_t)1 << d->base_levels || p->nodes > ((uint64_t)1 << 32))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree D of %u levels over %llu nodes", d->base_levels,
                         (unsigned long long)p->nodes);
    uint64_t leaves = (r->sub ? r->sub : 1) * (r->top ? r->top : 1);
    for (unsigned l = 0; l < r->base_levels && leaves <= p->nodes; l++) leaves *= r->base;
    if (leaves != p->nodes)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "tree R shape %u-%u-%u with %u base levels has %llu leaves, not %llu", r->base, r->sub, r->top,
                         r->base_levels, (unsigned long long)leaves, (unsigned long long)p->nodes);
    return CUZK_OK;
}

static void counts_sub(cuzk_cs_counts *out, const cuzk_cs_counts *a, const cuzk_cs_counts *b)
{
    out->inputs = a->inputs - b->inputs;
    out->aux = a->aux - b->aux;
    out->rows = a->rows - b->rows;
    for (int k = 0; k < 3; k++) out->nnz[k] = a->nnz[k] - b->nnz[k];
}

static void counts_add(cuzk_cs_counts *acc, const cuzk_cs_counts *a, uint64_t times)
{
    acc->inputs += times * a->inputs;
    acc->aux += times * a->aux;
    acc->rows += times * a->rows;
    for (int k = 0; k < 3; k++) acc->nnz[k] += times * a->nnz[k];
}

/* The layout pass's label counts: each layer's block counted on its own (cs is not changed), layers shared out. */
typedef struct {
    cuzk_cs *cs;
    porep_run *r;
    cuzk_fil_porep_circuit *c;
    atomic_uint next;
    cuzk_status st[MAX_LAYERS];
} label_count_job;

static void label_count_worker(void *ctx, unsigned id)
{
    label_count_job *j = ctx;
    (void)id;
    for (;;) {
        unsigned l = atomic_fetch_add(&j->next, 1);
        if (l >= j->c->layers) break;
        j->st[l] = cuzk_cs_count_block(j->cs, part_block, j->r, 1 + l, &j->c->part[1 + l]);
    }
}

cuzk_status cuzk_fil_porep_circuit_new(cuzk_fil_porep_circuit **out, const cuzk_fil_proof *p, unsigned threads,
                                       cuzk_errmsg *err)
{
    *out = NULL;
    cuzk_status s = geom_check(p, err);
    if (s != CUZK_OK) return s;
    cuzk_fil_porep_circuit *c = calloc(1, sizeof *c);
    if (c == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    c->geom = *p;
    c->layers = p->layers;
    c->challenges = p->challenges;
    c->parts = p->layers + 2;
    c->tree_d = (cuzk_por_tree){2, 0, 0, p->tree_d.base_levels, cuzk_sha256_gadget_por_hash, NULL};
    c->tree_rc = (cuzk_por_tree){
        p->tree_r.base, p->tree_r.sub, p->tree_r.top, p->tree_r.base_levels, cuzk_poseidon_gadget_por_hash, NULL};

    /* the layout pass: the top part and challenge 0 counted part by part, the labels side by side */
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
    if (cs == NULL) {
        free(c);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    }
    porep_run r = {.c = c, .record = &c->lay};
    synth_top(cs, &r, NULL);
    cuzk_cs_get_counts(cs, &c->top);
    r.base_aux = cs->next_aux;
    cuzk_cs_counts before = c->top, after;
    part_block(cs, &r, 0);
    cuzk_cs_get_counts(cs, &after);
    counts_sub(&c->part[0], &after, &before);
    if (cuzk_cs_status(cs) == CUZK_OK) {
        label_count_job j = {.cs = cs, .r = &r, .c = c};
        atomic_init(&j.next, 0);
        cuzk_par_run(threads < 1 ? 1 : threads > c->layers ? c->layers : threads, label_count_worker, &j);
        /* each label is its block's last aux; the post block reads them, so the cs skips past their aux */
        uint64_t at = c->part[0].aux;
        for (unsigned l = 0; l < c->layers; l++) {
            if (j.st[l] != CUZK_OK) cuzk_cs_fail(cs, j.st[l], "counting the label of layer %u", l + 1);
            at += c->part[1 + l].aux;
            c->lay.labels[l] = (uint32_t)(at - 1);
            for (uint64_t a = 0; a < c->part[1 + l].aux; a++) cuzk_cs_alloc(cs, NULL);
        }
    }
    cuzk_cs_get_counts(cs, &before);
    part_block(cs, &r, c->parts - 1);
    cuzk_cs_get_counts(cs, &after);
    counts_sub(&c->part[c->parts - 1], &after, &before);
    for (unsigned q = 0; q < c->parts; q++) counts_add(&c->per_challenge, &c->part[q], 1);
    s = cuzk_cs_finish(cs, NULL, NULL, err);
    if (s == CUZK_OK) {
        c->total = c->top;
        counts_add(&c->total, &c->per_challenge, c->challenges);
        if (c->total.inputs >= CUZK_VAR_AUX || c->total.aux >= CUZK_VAR_AUX)
            s = cuzk_fail(err, CUZK_ERR_TOO_LARGE, "%llu inputs and %llu aux", (unsigned long long)c->total.inputs,
                          (unsigned long long)c->total.aux);
    }
    if (s == CUZK_OK && (c->blocks = malloc((size_t)c->challenges * c->parts * sizeof *c->blocks)) == NULL)
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    if (s != CUZK_OK) {
        cuzk_fil_porep_circuit_free(c);
        return s;
    }
    for (unsigned i = 0; i < c->challenges; i++)
        for (unsigned q = 0; q < c->parts; q++) c->blocks[(size_t)i * c->parts + q] = c->part[q];
    *out = c;
    return CUZK_OK;
}

void cuzk_fil_porep_circuit_free(cuzk_fil_porep_circuit *c)
{
    if (c == NULL) return;
    free(c->blocks);
    free(c);
}

void cuzk_fil_porep_circuit_counts(const cuzk_fil_porep_circuit *c, cuzk_cs_counts *out) { *out = c->total; }

void cuzk_fil_porep_circuit_challenge_counts(const cuzk_fil_porep_circuit *c, cuzk_cs_counts *out)
{
    *out = c->per_challenge;
}

uint64_t cuzk_fil_porep_circuit_num_vars(const cuzk_fil_porep_circuit *c) { return c->total.inputs + c->total.aux; }

static bool same_shape(const cuzk_fil_shape *a, const cuzk_fil_shape *b)
{
    return a->base == b->base && a->sub == b->sub && a->top == b->top && a->base_levels == b->base_levels;
}

cuzk_status cuzk_fil_porep_synthesize(const cuzk_fil_porep_circuit *c, cuzk_cs *cs, const cuzk_fil_c1 *c1, uint32_t k,
                                      unsigned threads)
{
    if (cuzk_cs_status(cs) != CUZK_OK) return cuzk_cs_status(cs);
    porep_run r = {.c = c};
    if (c1 != NULL) {
        const cuzk_fil_proof *g = c1->proof;
        if (g == NULL || g->nodes != c->geom.nodes || g->layers != c->layers || c1->challenges != c->challenges ||
            !same_shape(&g->tree_r, &c->geom.tree_r) || !same_shape(&g->tree_d, &c->geom.tree_d) || c1->c == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_MISMATCH, "the C1 is not of this circuit's geometry");
            return cuzk_cs_status(cs);
        }
        if (k >= c1->partitions) {
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "partition %u of a C1 of %u", k, c1->partitions);
            return cuzk_cs_status(cs);
        }
        r.ch = &c1->c[(size_t)k * c1->challenges];
    }
    if (cs->flags & CUZK_CS_F_EVAL) threads = 1;
    synth_top(cs, &r, c1);
    /* blocks address each other's variables from where the top part ends */
    r.base_aux = cs->next_aux;
    /* counting alone: every challenge adds what the layout pass counted, without running */
    if (cs->flags == CUZK_CS_F_LC)
        return cuzk_cs_blocks(cs, c->challenges, challenge_block, &r, &c->per_challenge,
                              CUZK_CS_BLOCKS_UNIFORM | CUZK_CS_BLOCKS_NO_HANDLES, threads);
    return cuzk_cs_blocks(cs, (uint64_t)c->challenges * c->parts, part_block, &r, c->blocks, 0, threads);
}

cuzk_status cuzk_fil_porep_blank(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err)
{
    cuzk_errmsg e = {{0}};
    cuzk_fil_porep_circuit *c;
    cuzk_status s = cuzk_fil_porep_circuit_new(&c, p, threads, &e);
    if (s != CUZK_OK) {
        cuzk_cs_fail(cs, s, "%s", e.msg);
    } else {
        s = cuzk_fil_porep_synthesize(c, cs, NULL, 0, threads);
        cuzk_fil_porep_circuit_free(c);
        if (s != CUZK_OK) cuzk_fail(&e, s, "%s", cuzk_cs_errmsg(cs));
    }
    if (err != NULL && s != CUZK_OK) *err = e;
    return s;
}

cuzk_status cuzk_fil_porep_shape(const cuzk_fil_porep_circuit *c, unsigned threads, cuzk_r1cs_t **out, cuzk_errmsg *err)
{
    *out = NULL;
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_fil_porep_synthesize(c, cs, NULL, 0, threads);
    return cuzk_cs_finish(cs, out, NULL, err);
}

cuzk_status cuzk_fil_porep_witness(const cuzk_fil_porep_circuit *c, const cuzk_fil_c1 *c1, uint32_t k, unsigned threads,
                                   cuzk_fr_t *z, uint64_t len, cuzk_errmsg *err)
{
    if (c1 == NULL || z == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a witness needs a C1 and a buffer");
    if (len != cuzk_fil_porep_circuit_num_vars(c))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a buffer of %llu values for %llu variables",
                         (unsigned long long)len, (unsigned long long)cuzk_fil_porep_circuit_num_vars(c));
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, c->total.inputs, c->total.aux);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_fil_porep_synthesize(c, cs, c1, k, threads);
    return cuzk_cs_finish(cs, NULL, NULL, err);
}
