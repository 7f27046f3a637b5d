/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Sparse evaluation a = A·z, b = B·z, c = C·z (or a∘b) and the satisfiability check.
 *
 * Rows are handed out to threads in chunks through an atomic counter, so uneven rows balance themselves. Entries
 * with coefficient id 0 or 1 (+1, -1: most entries of Filecoin circuits) are an addition or subtraction; only the
 * others pay a Montgomery multiplication. */
#include <stdatomic.h>
#include <stdlib.h>

#include "r1cs_int.h"

#define CHUNK_ROWS 2048

typedef struct {
    const cuzk_r1cs_t *r;
    const cuzk_fr_t *z;
    cuzk_fr_t *out[3];
    cuzk_r1cs_c_mode mode;
    bool check;
    atomic_uint_fast64_t next;
    atomic_uint_fast64_t first_bad; /* UINT64_MAX: none yet */
} spmv_job;

static void row_dot(cuzk_fr_t *out, const cuzk_fr_t *values, const cuzk_r1cs_matrix *m, uint64_t row,
                    const cuzk_fr_t *z)
{
    cuzk_fr_t acc, t;
    cuzk_fr_set_zero(&acc);
    for (uint64_t k = m->row_ptr[row], end = m->row_ptr[row + 1]; k < end; k++) {
        const cuzk_fr_t *x = &z[m->col[k]];
        uint32_t id = m->coef[k];
        if (id == CUZK_R1CS_COEF_ONE) {
            cuzk_fr_add(&acc, &acc, x);
        } else if (id == CUZK_R1CS_COEF_MINUS_ONE) {
            cuzk_fr_sub(&acc, &acc, x);
        } else {
            cuzk_fr_mul(&t, &values[id], x);
            cuzk_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

static void note_bad_row(spmv_job *job, uint64_t row)
{
    uint_fast64_t cur = atomic_load(&job->first_bad);
    while (row < cur && !atomic_compare_exchange_weak(&job->first_bad, &cur, row)) {
    }
}

static void spmv_worker(void *arg, unsigned id)
{
    (void)id;
    spmv_job *job = arg;
    const cuzk_r1cs_t *r = job->r;
    uint64_t rows = r->num_constraints;
    for (;;) {
        uint64_t lo = atomic_fetch_add(&job->next, CHUNK_ROWS);
        if (lo >= rows) break;
        uint64_t hi = rows - lo < CHUNK_ROWS ? rows : lo + CHUNK_ROWS;
        for (uint64_t i = lo; i < hi; i++) {
            cuzk_fr_t a, b, c;
            row_dot(&a, r->values, &r->m[CUZK_R1CS_A], i, job->z);
            row_dot(&b, r->values, &r->m[CUZK_R1CS_B], i, job->z);
            if (job->out[0] != NULL) job->out[0][i] = a;
            if (job->out[1] != NULL) job->out[1][i] = b;
            if (job->mode == CUZK_R1CS_C_MATRIX) {
                if (job->out[2] != NULL) row_dot(&job->out[2][i], r->values, &r->m[CUZK_R1CS_C], i, job->z);
                continue;
            }
            cuzk_fr_t ab;
            cuzk_fr_mul(&ab, &a, &b);
            if (job->out[2] != NULL) job->out[2][i] = ab;
            if (job->check) {
                row_dot(&c, r->values, &r->m[CUZK_R1CS_C], i, job->z);
                if (!cuzk_fr_eq(&ab, &c)) note_bad_row(job, i);
            }
        }
    }
}

static void spmv_run(spmv_job *job, unsigned threads)
{
    if (threads == 0) threads = 1;
    uint64_t chunks = (job->r->num_constraints + CHUNK_ROWS - 1) / CHUNK_ROWS;
    if (threads > chunks) threads = chunks ? (unsigned)chunks : 1;
    cuzk_par_run(threads, spmv_worker, job); /* workers take row chunks until none is left */
}

cuzk_status cuzk_r1cs_spmv(const cuzk_r1cs_t *r, const cuzk_fr_t *z, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c,
                           cuzk_r1cs_c_mode mode, unsigned threads, uint64_t *first_bad_row)
{
    if (r == NULL || z == NULL ||
        (mode != CUZK_R1CS_C_MATRIX && mode != CUZK_R1CS_C_PRODUCT && mode != CUZK_R1CS_C_CHECKED))
        return CUZK_ERR_INVALID_ARG;
    spmv_job job = {.r = r, .z = z, .out = {a, b, c}, .mode = mode, .check = mode == CUZK_R1CS_C_CHECKED};
    atomic_init(&job.next, 0);
    atomic_init(&job.first_bad, UINT64_MAX);
    spmv_run(&job, threads);
    uint64_t bad = atomic_load(&job.first_bad);
    if (bad != UINT64_MAX) {
        if (first_bad_row != NULL) *first_bad_row = bad;
        return CUZK_ERR_R1CS_UNSATISFIED;
    }
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_check(const cuzk_r1cs_t *r, const cuzk_fr_t *z, unsigned threads, uint64_t *first_bad_row)
{
    if (r == NULL || z == NULL || !cuzk_fr_is_one(&z[0])) return CUZK_ERR_INVALID_ARG;
    return cuzk_r1cs_spmv(r, z, NULL, NULL, NULL, CUZK_R1CS_C_CHECKED, threads, first_bad_row);
}
