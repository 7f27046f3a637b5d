/* Group-independent parts of the MSM: window plan, scalar range check, worker pool. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "msm_internal.h"

/* Estimated time of a plan, in units of one batch-affine bucket addition: every part of every window adds its
 * points into buckets and then reduces all 2^(c−1) buckets; tasks are spread evenly over the workers, so time is
 * set by the busiest worker. */
static double msm_plan_cost(size_t n, unsigned threads, double bucket_cost, unsigned c, unsigned parts)
{
    unsigned nw = (MSM_SCALAR_BITS + c - 1) / c;
    unsigned tasks = nw * parts;
    unsigned rounds = (tasks + threads - 1) / threads;
    double per_task = (double)n / parts + bucket_cost * (double)((size_t)1 << (c - 1));
    return rounds * per_task;
}

void msm_plan_choose(msm_plan *p, size_t n, unsigned threads, double bucket_cost)
{
    if (threads == 0) threads = 1;
    p->c = 2;
    p->parts = 1;
    double best = -1;
    for (unsigned c = 2; c <= MSM_MAX_WINDOW; c++) {
        /* splitting windows only pays when windows alone cannot keep the workers busy */
        for (unsigned parts = 1; parts <= threads; parts++) {
            if (parts > 1 && (size_t)parts * 64 > n) break;
            double t = msm_plan_cost(n, threads, bucket_cost, c, parts);
            if (best < 0 || t < best) {
                best = t;
                p->c = c;
                p->parts = parts;
            }
        }
    }
    p->nw = (MSM_SCALAR_BITS + p->c - 1) / p->c;
}

int msm_scalar_in_range(const uint64_t k[4])
{
    for (size_t i = FR_LIMBS; i-- > 0;) {
        if (k[i] != FR_MODULUS[i]) return k[i] < FR_MODULUS[i];
    }
    return 0;
}

typedef struct {
    void (*fn)(void *ctx, unsigned id);
    void *ctx;
    unsigned id;
} msm_thread_arg;

static void *msm_thread_main(void *arg)
{
    msm_thread_arg *a = arg;
    a->fn(a->ctx, a->id);
    return NULL;
}

void msm_parallel(unsigned threads, void (*fn)(void *ctx, unsigned id), void *ctx)
{
    if (threads <= 1) {
        fn(ctx, 0);
        return;
    }
    pthread_t tid[MSM_MAX_THREADS];
    msm_thread_arg args[MSM_MAX_THREADS];
    bool started[MSM_MAX_THREADS] = {false};
    for (unsigned i = 1; i < threads; i++) {
        args[i] = (msm_thread_arg){fn, ctx, i};
        started[i] = pthread_create(&tid[i], NULL, msm_thread_main, &args[i]) == 0;
    }
    fn(ctx, 0);
    for (unsigned i = 1; i < threads; i++) {
        if (started[i]) {
            pthread_join(tid[i], NULL);
        } else {
            fn(ctx, i);
        }
    }
}
