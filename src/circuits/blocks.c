/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Independent blocks synthesized in parallel, numbered as sequential synthesis numbers them.
 *
 * Each block's counts (inputs, aux, rows, non-zeros) come from the caller or from a counting pass; their prefix sums
 * give every block its first input, aux, row and non-zero, so blocks write their values and rows straight into the
 * parent's arrays (grown once beforehand) in any order. A block interns its coefficients into its own table; when it
 * ends, its values are interned into the parent's table under a lock and its window's coefficient ids rewritten. The
 * parent's ids then depend on the order blocks finished, which cuzk_r1cs_adopt's canonical renumbering erases. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_int.h"

/* ---- blocks ------------------------------------------------------------------------------------------------------ */

typedef struct {
    cuzk_cs *parent;
    cuzk_cs_block_fn fn;
    void *ctx;
    const cuzk_cs_counts *counts; /* per block, or one when uniform */
    const cuzk_cs_counts *starts; /* per block first numbers, or NULL when uniform */
    cuzk_cs_counts base;          /* the parent's counters before the blocks */
    bool uniform;
    unsigned sub_flags;
    cuzk_cs *subs;              /* one per worker */
    cuzk_cs_counts *out_counts; /* counting pass: each block's counts */
    const char *path;
    bool counting_pass;
    uint64_t nrun;             /* blocks in this pass */
    atomic_uint_fast64_t next; /* the next block to hand out */
    pthread_mutex_t lock;
    /* the first failure by block number, and the first unsatisfied row */
    uint64_t fail_block;
    cuzk_status fail_status;
    char fail_msg[320];
    uint64_t bad_row;
    char *bad_path;
} blocks_job;

static void block_start(const blocks_job *j, uint64_t b, cuzk_cs_counts *first)
{
    if (j->uniform) {
        first->inputs = j->base.inputs + b * j->counts->inputs;
        first->aux = j->base.aux + b * j->counts->aux;
        first->rows = j->base.rows + b * j->counts->rows;
        for (int k = 0; k < 3; k++) first->nnz[k] = j->base.nnz[k] + b * j->counts->nnz[k];
    } else {
        *first = j->starts[b];
    }
}

static const cuzk_cs_counts *block_counts(const blocks_job *j, uint64_t b)
{
    return j->uniform ? j->counts : &j->counts[b];
}

static void note_failure(blocks_job *j, uint64_t b, cuzk_cs *sub)
{
    pthread_mutex_lock(&j->lock);
    if (sub->status != CUZK_OK && (j->fail_status == CUZK_OK || b < j->fail_block)) {
        j->fail_block = b;
        j->fail_status = sub->status;
        snprintf(j->fail_msg, sizeof j->fail_msg, "block %llu: %s", (unsigned long long)b, sub->in->err);
    }
    if (sub->in->watch_path != NULL && !j->counting_pass) {
        free(j->parent->in->watch_path);
        j->parent->in->watch_path = sub->in->watch_path;
        sub->in->watch_path = NULL;
    }
    if (sub->in->bad && sub->in->bad_row < j->bad_row) {
        j->bad_row = sub->in->bad_row;
        free(j->bad_path);
        j->bad_path = sub->in->bad_path;
        sub->in->bad_path = NULL;
    }
    pthread_mutex_unlock(&j->lock);
}

/* Maps the block's coefficient ids (its own table) to the parent's over the block's window. */
static void fix_coefficients(blocks_job *j, cuzk_cs *sub)
{
    struct cuzk_cs_int *si = sub->in, *pi = j->parent->in;
    uint32_t *map = malloc((size_t)si->nvals * sizeof *map);
    if (map == NULL) {
        cuzk_cs_fail(sub, CUZK_ERR_NOMEM, "out of memory for block %llu's coefficients", (unsigned long long)si->block);
        return;
    }
    pthread_mutex_lock(&j->lock);
    for (uint32_t id = 0; id < si->nvals && j->parent->status == CUZK_OK; id++)
        map[id] = cuzk_cs_intern(j->parent, &si->vals[id]);
    cuzk_status ps = j->parent->status;
    pthread_mutex_unlock(&j->lock);
    if (ps == CUZK_OK)
        for (int k = 0; k < 3; k++) {
            uint32_t *coef = pi->coef[k];
            for (uint64_t e = si->nnz0[k]; e < sub->nnz[k]; e++) coef[e] = map[coef[e]];
        }
    free(map);
}

static void run_block(blocks_job *j, uint64_t b, unsigned worker)
{
    cuzk_cs *p = j->parent, *sub = &j->subs[worker];
    struct cuzk_cs_int *si = sub->in, *pi = p->in;
    cuzk_cs_counts first;
    bool counting = j->out_counts != NULL;
    if (counting) first = j->base;
    else block_start(j, b, &first);
    cuzk_cs_block_reset(sub, j->path);
    si->block = b;
    si->watching = (sub->flags & CUZK_CS_F_NAMES) && pi->watching;
    si->watch_row = pi->watch_row;
    sub->next_input = (uint32_t)first.inputs;
    sub->next_aux = (uint32_t)first.aux;
    sub->next_row = first.rows;
    for (int k = 0; k < 3; k++) sub->nnz[k] = first.nnz[k];
    si->row0 = first.rows;
    for (int k = 0; k < 3; k++) si->nnz0[k] = first.nnz[k];
    if (!counting) {
        const cuzk_cs_counts *c = block_counts(j, b);
        if (sub->flags & CUZK_CS_F_VALUES) {
            sub->in_vals = p->in_vals;
            sub->aux_vals = p->aux_vals;
            sub->in_lim = (uint32_t)(first.inputs + c->inputs);
            sub->aux_lim = (uint32_t)(first.aux + c->aux);
        }
        if (sub->flags & CUZK_CS_F_ROWS) {
            for (int k = 0; k < 3; k++) {
                si->row_ptr[k] = pi->row_ptr[k];
                si->col[k] = pi->col[k];
                si->coef[k] = pi->coef[k];
                si->nnz_lim[k] = first.nnz[k] + c->nnz[k];
            }
            si->rows_lim = first.rows + c->rows;
        }
    }
    j->fn(sub, j->ctx, b);
    cuzk_cs_counts got = {sub->next_input - first.inputs,
                          sub->next_aux - first.aux,
                          sub->next_row - first.rows,
                          {sub->nnz[0] - first.nnz[0], sub->nnz[1] - first.nnz[1], sub->nnz[2] - first.nnz[2]}};
    if (counting) {
        j->out_counts[b] = got;
    } else if (sub->status == CUZK_OK) {
        const cuzk_cs_counts *c = block_counts(j, b);
        bool same = got.inputs == c->inputs && got.aux == c->aux && got.rows == c->rows;
        if (sub->flags & CUZK_CS_F_LC) same &= !memcmp(got.nnz, c->nnz, sizeof got.nnz);
        if (!same)
            cuzk_cs_fail(sub, CUZK_ERR_MISMATCH,
                         "made %llu inputs, %llu aux, %llu rows; its counts say %llu, %llu, %llu (or non-zeros differ)",
                         (unsigned long long)got.inputs, (unsigned long long)got.aux, (unsigned long long)got.rows,
                         (unsigned long long)c->inputs, (unsigned long long)c->aux, (unsigned long long)c->rows);
        else if (sub->flags & CUZK_CS_F_ROWS) fix_coefficients(j, sub);
    }
    if (sub->status != CUZK_OK || si->bad || si->watch_path != NULL) note_failure(j, b, sub);
}

/* One worker: blocks one at a time, in the order handed out, on the worker's own sub-cs. */
static void pass_worker(void *ctx, unsigned id)
{
    blocks_job *j = ctx;
    for (;;) {
        uint64_t b = atomic_fetch_add(&j->next, 1);
        if (b >= j->nrun) break;
        run_block(j, b, id);
    }
}

/* Runs every block (or, counting, each block into out) on sub-css of the given flags. */
static cuzk_status run_pass(blocks_job *j, uint64_t nblocks, unsigned flags, unsigned threads)
{
    if (threads == 0) threads = 1;
    if (threads > nblocks) threads = (unsigned)nblocks;
    if (threads > CUZK_PAR_MAX) threads = CUZK_PAR_MAX;
    j->sub_flags = flags;
    j->subs = calloc(threads, sizeof *j->subs);
    if (j->subs == NULL) return CUZK_ERR_NOMEM;
    cuzk_status s = CUZK_OK;
    for (unsigned w = 0; w < threads && s == CUZK_OK; w++)
        s = cuzk_cs_block_init(&j->subs[w], flags, j->parent->in->mode);
    j->nrun = nblocks;
    atomic_store(&j->next, 0);
    if (s == CUZK_OK) cuzk_par_run(threads, pass_worker, j);
    for (unsigned w = 0; w < threads; w++) cuzk_cs_block_release(&j->subs[w]);
    free(j->subs);
    j->subs = NULL;
    return s;
}

cuzk_status cuzk_cs_blocks(cuzk_cs *cs, uint64_t nblocks, cuzk_cs_block_fn fn, void *ctx, const cuzk_cs_counts *counts,
                           unsigned flags, unsigned threads)
{
    if (cs->status != CUZK_OK) return cs->status;
    if (fn == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "cuzk_cs_blocks without a block function");
        return cs->status;
    }
    if (nblocks == 0) return CUZK_OK;
    blocks_job j = {.parent = cs, .fn = fn, .ctx = ctx, .uniform = (flags & CUZK_CS_BLOCKS_UNIFORM) != 0};
    pthread_mutex_init(&j.lock, NULL);
    j.bad_row = UINT64_MAX;
    j.path = (cs->flags & CUZK_CS_F_NAMES) ? cuzk_cs_path(cs) : NULL;
    cuzk_cs_get_counts(cs, &j.base);
    cuzk_cs_counts *own = NULL, *starts = NULL;
    cuzk_status s = CUZK_OK;
    /* the counts need non-zeros only where rows are kept or counted */
    unsigned count_flags = cs->flags & CUZK_CS_F_LC;
    if (counts == NULL) {
        uint64_t n = j.uniform ? 1 : nblocks;
        own = calloc(n, sizeof *own);
        if (own == NULL) {
            s = CUZK_ERR_NOMEM;
            goto out;
        }
        j.out_counts = own;
        j.counting_pass = true;
        s = run_pass(&j, n, count_flags, threads);
        j.counting_pass = false;
        j.out_counts = NULL;
        if (s != CUZK_OK || j.fail_status != CUZK_OK) goto out;
        counts = own;
    }
    j.counts = counts;
    /* totals, and each block's first numbers */
    cuzk_cs_counts total = {0, 0, 0, {0, 0, 0}};
    if (!j.uniform) {
        starts = malloc(nblocks * sizeof *starts);
        if (starts == NULL) {
            s = CUZK_ERR_NOMEM;
            goto out;
        }
    }
    for (uint64_t b = 0; b < (j.uniform ? 1 : nblocks); b++) {
        const cuzk_cs_counts *c = &counts[b];
        if (!j.uniform) {
            starts[b] = (cuzk_cs_counts){
                j.base.inputs + total.inputs,
                j.base.aux + total.aux,
                j.base.rows + total.rows,
                {j.base.nnz[0] + total.nnz[0], j.base.nnz[1] + total.nnz[1], j.base.nnz[2] + total.nnz[2]}};
        }
        uint64_t times = j.uniform ? nblocks : 1;
        if (c->inputs > (uint64_t)CUZK_VAR_AUX || c->aux > (uint64_t)CUZK_VAR_AUX || times > (uint64_t)CUZK_VAR_AUX ||
            c->rows > UINT64_MAX / 2 / times) {
            s = CUZK_ERR_TOO_LARGE;
            goto out;
        }
        total.inputs += times * c->inputs;
        total.aux += times * c->aux;
        total.rows += times * c->rows;
        for (int k = 0; k < 3; k++) total.nnz[k] += times * c->nnz[k];
    }
    j.starts = starts;
    if (j.base.inputs + total.inputs >= CUZK_VAR_AUX || j.base.aux + total.aux >= CUZK_VAR_AUX) {
        cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "blocks take the circuit past 2^31 inputs or aux variables");
        goto out;
    }
    /* every mode runs the blocks at their true numbers: the handles they leave in ctx must be the real ones; unless
     * nothing reads them, when counting needs no block run at all */
    bool skip = j.uniform && (flags & CUZK_CS_BLOCKS_NO_HANDLES) && cs->in->mode == CUZK_CS_COUNT &&
                !(cs->flags & CUZK_CS_F_NAMES);
    if ((cs->flags & CUZK_CS_F_ROWS) && cuzk_cs_reserve_rows(cs, total.rows, total.nnz) != CUZK_OK) goto out;
    if ((cs->flags & CUZK_CS_F_VALUES) && cuzk_cs_reserve_values(cs, total.inputs, total.aux) != CUZK_OK) goto out;
    if (!skip) s = run_pass(&j, nblocks, cs->flags, threads);
    if (s != CUZK_OK || j.fail_status != CUZK_OK) goto out;
    cs->next_input = (uint32_t)(j.base.inputs + total.inputs);
    cs->next_aux = (uint32_t)(j.base.aux + total.aux);
    cs->next_row = j.base.rows + total.rows;
    for (int k = 0; k < 3; k++) cs->nnz[k] = j.base.nnz[k] + (cs->flags & CUZK_CS_F_LC ? total.nnz[k] : 0);
    if (j.bad_row != UINT64_MAX && !cs->in->bad) {
        cs->in->bad = true;
        cs->in->bad_row = j.bad_row;
        free(cs->in->bad_path);
        cs->in->bad_path = j.bad_path;
        j.bad_path = NULL;
    }
out:
    if (s != CUZK_OK) cuzk_cs_fail(cs, s, "blocks: %s", cuzk_status_str(s));
    if (j.fail_status != CUZK_OK) cuzk_cs_fail(cs, j.fail_status, "%s", j.fail_msg);
    free(j.bad_path);
    free(own);
    free(starts);
    pthread_mutex_destroy(&j.lock);
    return cs->status;
}

cuzk_status cuzk_cs_count_block(cuzk_cs *cs, cuzk_cs_block_fn fn, void *ctx, uint64_t block, cuzk_cs_counts *out)
{
    if (cs->status != CUZK_OK) return cs->status;
    cuzk_cs sub = {0};
    cuzk_status s = cuzk_cs_block_init(&sub, CUZK_CS_F_LC, CUZK_CS_COUNT);
    if (s == CUZK_OK) {
        cuzk_cs_block_reset(&sub, NULL);
        sub.in->block = block;
        sub.next_input = cs->next_input;
        sub.next_aux = cs->next_aux;
        sub.next_row = cs->next_row;
        fn(&sub, ctx, block);
        s = sub.status;
        *out = (cuzk_cs_counts){sub.next_input - cs->next_input,
                                sub.next_aux - cs->next_aux,
                                sub.next_row - cs->next_row,
                                {sub.nnz[0], sub.nnz[1], sub.nnz[2]}};
    }
    cuzk_cs_block_release(&sub);
    return s;
}
