/* The one way the ntt layer spreads work over threads: split an index range, one pthread per piece. Transforms
 * start a few of these per call, so a pool would save only microseconds against milliseconds of work. */
#include <pthread.h>
#include <stdlib.h>

#include "ntt_internal.h"

typedef struct {
    pthread_t tid;
    ntt_range_fn fn;
    void *ctx;
    size_t lo, hi;
    bool started;
} par_job;

static void *par_run(void *arg)
{
    par_job *j = arg;
    j->fn(j->ctx, j->lo, j->hi);
    return NULL;
}

size_t cuzk_ntt_par_for_bytes(unsigned threads)
{
    return threads > 1 ? threads * sizeof(par_job) : 0;
}

void cuzk_ntt_par_for(unsigned threads, size_t count, size_t min_chunk, ntt_range_fn fn, void *ctx)
{
    if (count == 0) return;
    if (min_chunk == 0) min_chunk = 1;
    size_t parts = count / min_chunk;
    if (parts > threads) parts = threads;
    if (parts <= 1) {
        fn(ctx, 0, count);
        return;
    }
    par_job *jobs = calloc(parts, sizeof *jobs);
    if (jobs == NULL) {
        fn(ctx, 0, count);
        return;
    }
    for (size_t p = 0; p < parts; p++) {
        jobs[p].fn = fn;
        jobs[p].ctx = ctx;
        jobs[p].lo = count * p / parts;
        jobs[p].hi = count * (p + 1) / parts;
    }
    for (size_t p = 1; p < parts; p++)
        jobs[p].started = pthread_create(&jobs[p].tid, NULL, par_run, &jobs[p]) == 0;
    par_run(&jobs[0]);
    for (size_t p = 1; p < parts; p++) {
        if (jobs[p].started)
            pthread_join(jobs[p].tid, NULL);
        else
            par_run(&jobs[p]);
    }
    free(jobs);
}
