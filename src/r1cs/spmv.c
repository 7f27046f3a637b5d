/* Sparse evaluation a = A·z, b = B·z, c = C·z (or a∘b) and the satisfiability check.
 *
 * Rows are handed out to threads in chunks through an atomic counter, so uneven rows balance themselves. Entries
 * with coefficient id 0 or 1 (+1, -1: most entries of Filecoin circuits) are an addition or subtraction; only the
 * others pay a Montgomery multiplication. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "r1cs_int.h"

#define CHUNK_ROWS 2048

typedef struct {
    const r1cs_t *r;
    const fr_t *z;
    fr_t *out[3];
    r1cs_c_mode mode;
    bool check;
    atomic_uint_fast64_t next;
    atomic_uint_fast64_t first_bad; /* UINT64_MAX: none yet */
} spmv_job;

static void row_dot(fr_t *out, const fr_t *values, const r1cs_matrix *m, uint64_t row, const fr_t *z)
{
    fr_t acc, t;
    fr_set_zero(&acc);
    for (uint64_t k = m->row_ptr[row], end = m->row_ptr[row + 1]; k < end; k++) {
        const fr_t *x = &z[m->col[k]];
        uint32_t id = m->coef[k];
        if (id == R1CS_COEF_ONE) {
            fr_add(&acc, &acc, x);
        } else if (id == R1CS_COEF_MINUS_ONE) {
            fr_sub(&acc, &acc, x);
        } else {
            fr_mul(&t, &values[id], x);
            fr_add(&acc, &acc, &t);
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

static void *spmv_worker(void *arg)
{
    spmv_job *job = arg;
    const r1cs_t *r = job->r;
    uint64_t rows = r->num_constraints;
    for (;;) {
        uint64_t lo = atomic_fetch_add(&job->next, CHUNK_ROWS);
        if (lo >= rows) break;
        uint64_t hi = rows - lo < CHUNK_ROWS ? rows : lo + CHUNK_ROWS;
        for (uint64_t i = lo; i < hi; i++) {
            fr_t a, b, c;
            row_dot(&a, r->values, &r->m[R1CS_A], i, job->z);
            row_dot(&b, r->values, &r->m[R1CS_B], i, job->z);
            if (job->out[0] != NULL) job->out[0][i] = a;
            if (job->out[1] != NULL) job->out[1][i] = b;
            if (job->mode == R1CS_C_MATRIX) {
                if (job->out[2] != NULL) row_dot(&job->out[2][i], r->values, &r->m[R1CS_C], i, job->z);
                continue;
            }
            fr_t ab;
            fr_mul(&ab, &a, &b);
            if (job->out[2] != NULL) job->out[2][i] = ab;
            if (job->check) {
                row_dot(&c, r->values, &r->m[R1CS_C], i, job->z);
                if (!fr_eq(&ab, &c)) note_bad_row(job, i);
            }
        }
    }
    return NULL;
}

size_t r1cs_spmv_scratch_bytes(unsigned threads)
{
    return threads > 1 ? (threads - 1) * sizeof(pthread_t) : 0;
}

static void spmv_run(spmv_job *job, unsigned threads)
{
    if (threads == 0) threads = 1;
    uint64_t chunks = (job->r->num_constraints + CHUNK_ROWS - 1) / CHUNK_ROWS;
    if (threads > chunks) threads = chunks ? (unsigned)chunks : 1;
    pthread_t *tid = threads > 1 ? malloc(r1cs_spmv_scratch_bytes(threads)) : NULL;
    unsigned started = 0;
    if (tid != NULL)
        while (started < threads - 1 && pthread_create(&tid[started], NULL, spmv_worker, job) == 0) started++;
    spmv_worker(job); /* the calling thread works too; if threads could not start, it does everything */
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    free(tid);
}

cuzk_status r1cs_spmv(const r1cs_t *r, const fr_t *z, fr_t *a, fr_t *b, fr_t *c, r1cs_c_mode mode, unsigned threads,
                      uint64_t *first_bad_row)
{
    if (r == NULL || z == NULL || (mode != R1CS_C_MATRIX && mode != R1CS_C_PRODUCT && mode != R1CS_C_CHECKED))
        return CUZK_ERR_INVALID_ARG;
    spmv_job job = {.r = r, .z = z, .out = {a, b, c}, .mode = mode, .check = mode == R1CS_C_CHECKED};
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

cuzk_status r1cs_check(const r1cs_t *r, const fr_t *z, unsigned threads, uint64_t *first_bad_row)
{
    if (r == NULL || z == NULL || !fr_is_one(&z[0])) return CUZK_ERR_INVALID_ARG;
    return r1cs_spmv(r, z, NULL, NULL, NULL, R1CS_C_CHECKED, threads, first_bad_row);
}
