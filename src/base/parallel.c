/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The one way every layer spreads work over threads: an index range split into pieces, or a fixed set of worker
 * ids; one pthread per piece, started per call (callers hand each thread milliseconds of work or more). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuzk/base.h"

typedef struct {
    pthread_t tid;
    cuzk_range_fn fn;
    void *ctx;
    size_t lo, hi;
    bool started;
} range_job;

static void *range_run(void *arg)
{
    range_job *j = arg;
    j->fn(j->ctx, j->lo, j->hi);
    return NULL;
}

size_t cuzk_par_for_bytes(unsigned threads) { return threads > 1 ? threads * sizeof(range_job) : 0; }

void cuzk_par_for(unsigned threads, size_t count, size_t min_chunk, cuzk_range_fn fn, void *ctx)
{
    if (count == 0) return;
    if (min_chunk == 0) min_chunk = 1;
    size_t parts = count / min_chunk;
    if (parts > threads) parts = threads;
    if (parts <= 1) {
        fn(ctx, 0, count);
        return;
    }
    range_job *jobs = calloc(parts, sizeof *jobs);
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
    for (size_t p = 1; p < parts; p++) jobs[p].started = pthread_create(&jobs[p].tid, NULL, range_run, &jobs[p]) == 0;
    range_run(&jobs[0]);
    for (size_t p = 1; p < parts; p++) {
        if (jobs[p].started) pthread_join(jobs[p].tid, NULL);
        else range_run(&jobs[p]);
    }
    free(jobs);
}

typedef struct {
    cuzk_task_fn fn;
    void *ctx;
    unsigned id;
} task_arg;

static void *task_run(void *arg)
{
    task_arg *a = arg;
    a->fn(a->ctx, a->id);
    return NULL;
}

void cuzk_par_run(unsigned threads, cuzk_task_fn fn, void *ctx)
{
    if (threads > CUZK_PAR_MAX) threads = CUZK_PAR_MAX;
    if (threads <= 1) {
        fn(ctx, 0);
        return;
    }
    pthread_t tid[CUZK_PAR_MAX];
    task_arg args[CUZK_PAR_MAX];
    bool started[CUZK_PAR_MAX] = {false};
    for (unsigned i = 1; i < threads; i++) {
        args[i] = (task_arg){fn, ctx, i};
        started[i] = pthread_create(&tid[i], NULL, task_run, &args[i]) == 0;
    }
    fn(ctx, 0);
    for (unsigned i = 1; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else fn(ctx, i);
    }
}

unsigned cuzk_cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return (unsigned)n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
