/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The CPU backend: one pseudo-device whose prover workers run cuzk_groth16_prove_from_synthesis, each with its own
 * threads. It is the reference the GPU backend is measured against and the fallback on hosts without one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_backend.h"
#include "engine_keys.h"

typedef struct {
    unsigned threads;
} cpu_ctx;

static unsigned cpu_num_devices(void *ctx)
{
    (void)ctx;
    return 1;
}

static void cpu_device_info(void *ctx, unsigned device, cuzk_engine_gpu_status *out)
{
    cpu_ctx *c = ctx;
    memset(out, 0, sizeof *out);
    out->ordinal = device;
    snprintf(out->name, sizeof out->name, "cpu (%u threads per partition)", c->threads);
}

static uint64_t cpu_partition_bytes(void *ctx, const cuzk_groth16_prove_shape *shape)
{
    cpu_ctx *c = ctx;
    return cuzk_groth16_prove_shape_peak_bytes(shape, c->threads);
}

static cuzk_status cpu_prove_start(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err)
{
    cpu_ctx *c = ctx;
    (void)device;
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.threads = c->threads;
    o.c_mode = CUZK_R1CS_C_PRODUCT; /* synthesis already checked what needed checking */
    o.given_rs = w->given_rs;
    o.r = w->r;
    o.s = w->s;
    return cuzk_groth16_prove_from_synthesis(&w->proof, &w->key->pk, w->key->cs, w->z, &w->syn, &o, &w->stats, err);
}

static cuzk_status cpu_prove_finish(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err)
{
    (void)ctx, (void)device, (void)w, (void)err;
    return CUZK_OK;
}

static void cpu_destroy(void *ctx) { free(ctx); }

static const engine_backend_ops cpu_ops = {
    .name = "cpu",
    .num_devices = cpu_num_devices,
    .device_info = cpu_device_info,
    .partition_bytes = cpu_partition_bytes,
    .prove_start = cpu_prove_start,
    .prove_finish = cpu_prove_finish,
    .destroy = cpu_destroy,
};

cuzk_status cuzk_engine_backend_cpu(engine_backend *b, unsigned threads)
{
    cpu_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) return CUZK_ERR_NOMEM;
    c->threads = threads ? threads : 1;
    b->ops = &cpu_ops;
    b->ctx = c;
    return CUZK_OK;
}
