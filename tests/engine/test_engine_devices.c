/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The engine's device paths with a fake device backend that proves on the CPU: witness-only synthesis into the
 * backend's memory, keys made per device (the host never generates a synthetic key's points), a VRAM budget with
 * LRU eviction, preloads on every device, devices taken out of service after a device error, per-device status and
 * metrics, and proofs equal to the CPU backend's for the same deterministic r and s. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_internal.h"
#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "testutil.h"
#include "engine_test.h"

#define FAKE_DEVICES 2

typedef struct {
    cuzk_groth16_pk pk;
    uint64_t bytes;
} fake_key;

typedef struct {
    pthread_mutex_t lock;
    uint64_t budget;    /* per device, in fake bytes */
    uint64_t key_bytes; /* what each key takes: key_bytes · 2^log2 / 256 */
    int fail_device;    /* the next prove on this device returns CUZK_ERR_DEVICE (-1: none) */
    unsigned loads[FAKE_DEVICES], frees[FAKE_DEVICES], streamed[FAKE_DEVICES], proves[FAKE_DEVICES];
    unsigned z_allocs, z_frees;
    bool a_b_c_seen; /* a partition arrived with a, b, c: synthesis did work it should not have */
} fake_ctx;

static unsigned fk_devices(void *ctx)
{
    (void)ctx;
    return FAKE_DEVICES;
}

static void fk_info(void *ctx, unsigned d, cuzk_engine_gpu_status *o)
{
    fake_ctx *f = ctx;
    memset(o, 0, sizeof *o);
    o->ordinal = d;
    snprintf(o->name, sizeof o->name, "fake %u", d);
    o->vram_budget_bytes = f->budget;
}

static uint64_t fk_bytes(void *ctx, const cuzk_groth16_prove_shape *sh)
{
    (void)ctx, (void)sh;
    return 0;
}

static cuzk_status fk_start(void *ctx, unsigned d, engine_work *w, cuzk_errmsg *err)
{
    fake_ctx *f = ctx;
    pthread_mutex_lock(&f->lock);
    if (w->syn.a != NULL) f->a_b_c_seen = true;
    bool fault = f->fail_device == (int)d;
    if (fault) f->fail_device = -1;
    f->proves[d]++;
    pthread_mutex_unlock(&f->lock);
    if (fault) {
        snprintf(err->msg, sizeof err->msg, "injected: an illegal memory access was encountered");
        return CUZK_ERR_DEVICE;
    }
    const fake_key *fk = w->dev_key;
    assert_non_null(fk);
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    o.c_mode = w->c_mode;
    o.given_rs = w->given_rs;
    o.r = w->r;
    o.s = w->s;
    return cuzk_groth16_prove(&w->proof, &fk->pk, w->key->cs, w->z, &o, &w->stats, err);
}

static cuzk_status fk_finish(void *ctx, unsigned d, engine_work *w, cuzk_errmsg *err)
{
    (void)ctx, (void)d, (void)w, (void)err;
    return CUZK_OK;
}

static cuzk_status fk_zalloc(void *ctx, uint64_t bytes, cuzk_fr_t **out)
{
    fake_ctx *f = ctx;
    *out = malloc(bytes ? bytes : 1);
    if (*out == NULL) return CUZK_ERR_NOMEM;
    pthread_mutex_lock(&f->lock);
    f->z_allocs++;
    pthread_mutex_unlock(&f->lock);
    return CUZK_OK;
}

static void fk_zfree(void *ctx, cuzk_fr_t *z, uint64_t bytes)
{
    fake_ctx *f = ctx;
    (void)bytes;
    free(z);
    pthread_mutex_lock(&f->lock);
    f->z_frees++;
    pthread_mutex_unlock(&f->lock);
}

static cuzk_status fk_load(void *ctx, unsigned d, const engine_key *k, uint64_t others, bool allow_streamed,
                           void **handle, engine_devkey_info *info, cuzk_errmsg *err)
{
    fake_ctx *f = ctx;
    assert_true(k->synthetic);
    assert_null(k->pk.h); /* the host holds the circuit only */
    uint64_t need = f->key_bytes * ((uint64_t)1 << k->log2) / 256;
    bool streamed = false;
    if (others + need > f->budget) {
        if (!allow_streamed || need / 8 > f->budget) {
            snprintf(err->msg, sizeof err->msg, "needs %llu bytes, %llu free", (unsigned long long)need,
                     (unsigned long long)(f->budget - others));
            return CUZK_ERR_NOMEM;
        }
        streamed = true;
        need /= 8;
    }
    fake_key *fk = calloc(1, sizeof *fk);
    assert_non_null(fk);
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    o.conv = CUZK_GROTH16_BELLPERSON;
    o.given_toxic = true;
    cuzk_engine_synthetic_toxic(&o, k->log2, k->seed);
    cuzk_status s = cuzk_groth16_setup(&fk->pk, k->cs, &o, err);
    if (s != CUZK_OK) {
        free(fk);
        return s;
    }
    fk->bytes = need;
    pthread_mutex_lock(&f->lock);
    f->loads[d]++;
    if (streamed) f->streamed[d]++;
    pthread_mutex_unlock(&f->lock);
    info->vram_bytes = need;
    info->streamed = streamed;
    *handle = fk;
    return CUZK_OK;
}

static void fk_free(void *ctx, unsigned d, void *h)
{
    fake_ctx *f = ctx;
    fake_key *fk = h;
    cuzk_groth16_pk_free(&fk->pk);
    free(fk);
    pthread_mutex_lock(&f->lock);
    f->frees[d]++;
    pthread_mutex_unlock(&f->lock);
}

static const cuzk_groth16_vk *fk_vk(void *ctx, void *h)
{
    (void)ctx;
    return &((fake_key *)h)->pk.vk;
}

static void fk_destroy(void *ctx) { (void)ctx; /* the test owns it */ }

static char g_dir[256];

static cuzk_engine_config dev_cfg(void)
{
    cuzk_engine_config c = engine_test_cfg(g_dir);
    c.synthesis_workers = 2;
    c.gpu_workers_per_device = 0; /* the backend's default */
    c.gpu_queue_depth = 2;
    c.deterministic_rs = true;
    return c;
}

static cuzk_engine *start_fake(fake_ctx *f, const cuzk_engine_config *c)
{
    static const engine_backend_ops fake_ops = {.name = "fake",
                                                .num_devices = fk_devices,
                                                .device_info = fk_info,
                                                .partition_bytes = fk_bytes,
                                                .prove_start = fk_start,
                                                .prove_finish = fk_finish,
                                                .destroy = fk_destroy,
                                                .synthesizes = true,
                                                .default_workers = 2,
                                                .witness_alloc = fk_zalloc,
                                                .witness_free = fk_zfree,
                                                .dev_key_load = fk_load,
                                                .dev_key_free = fk_free,
                                                .dev_key_vk = fk_vk};
    engine_backend be = {&fake_ops, f};
    cuzk_engine *e = NULL;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_engine_create_with_backend(&e, c, &be, &err);
    if (s != CUZK_OK) fprintf(stderr, "engine_create_with_backend: %s\n", err.msg);
    assert_int_equal(s, CUZK_OK);
    return e;
}

static void fake_init(fake_ctx *f, uint64_t budget)
{
    memset(f, 0, sizeof *f);
    pthread_mutex_init(&f->lock, NULL);
    f->budget = budget;
    f->key_bytes = 100;
    f->fail_device = -1;
}

static char *submit_synth(cuzk_engine *e, unsigned log2, uint64_t seed, uint32_t parts, char id[CUZK_ENGINE_ID_MAX])
{
    cuzk_engine_request r = engine_test_synth(log2, seed, parts, CUZK_ENGINE_PRIO_NORMAL);
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_engine_submit(e, &r, id, NULL, NULL, &err);
    if (s != CUZK_OK) fprintf(stderr, "submit: %s\n", err.msg);
    assert_int_equal(s, CUZK_OK);
    return id;
}

static void engine_lock_dump(cuzk_engine *e)
{
    pthread_mutex_lock(&e->lock);
    for (engine_key *k = e->keys; k; k = k->next)
        fprintf(stderr, "key %s state %d refs %u dev %d/%d active %u/%u pre %u\n", k->id, k->state, k->refs,
                k->dev[0].state, k->dev[1].state, k->dev[0].active, k->dev[1].active, k->dev_preload);
    for (engine_work *w = e->gpu_q; w; w = w->next) fprintf(stderr, "q %s/%u\n", w->key->id, w->index);
    for (engine_job *j = e->jobs; j; j = j->next)
        fprintf(stderr, "job %s state %d next %u infl %u done %u\n", j->id, j->state, j->next_part, j->inflight,
                j->parts_done);
    pthread_mutex_unlock(&e->lock);
}

static void engine_state_dump(cuzk_engine *e)
{
    char *m = cuzk_engine_metrics_text(e);
    fprintf(stderr, "%s\n", m);
    free(m);
    engine_lock_dump(e);
}

static cuzk_engine_result await_job(cuzk_engine *e, const char *id)
{
    return engine_test_await(e, id, engine_state_dump);
}

static double metric_of(cuzk_engine *e, const char *line_start)
{
    char *t = cuzk_engine_metrics_text(e);
    assert_non_null(t);
    char *p = strstr(t, line_start);
    double v = p != NULL ? strtod(p + strlen(line_start), NULL) : -1;
    free(t);
    return v;
}

/* Proofs through the device path equal the CPU backend's (same toxic waste, same deterministic r and s); the
 * synthesis made no a, b, c and every witness came from the backend and went back to it; no .params was written
 * for the synthetic key (its points were never on the host); status and metrics per device. */
static void test_devices_prove_like_cpu(void **state)
{
    (void)state;
    fake_ctx f;
    fake_init(&f, 1u << 20);
    cuzk_engine_config c = dev_cfg();
    cuzk_engine *e = start_fake(&f, &c);
    char id[CUZK_ENGINE_ID_MAX];
    submit_synth(e, 8, 77, 6, id);
    cuzk_engine_result gr = await_job(e, id);
    if (gr.status != CUZK_ENGINE_JOB_COMPLETED) fprintf(stderr, "%s\n", gr.error_message);
    assert_int_equal(gr.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_false(f.a_b_c_seen);
    assert_int_equal(f.z_allocs, 6);

    char path[512];
    snprintf(path, sizeof path, "%s/synthetic/8-77.params", g_dir);
    assert_int_not_equal(access(path, F_OK), 0);

    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.num_gpus, FAKE_DEVICES);
    uint64_t parts = 0;
    for (size_t d = 0; d < st.num_gpus; d++) {
        parts += st.gpus[d].partitions;
        assert_false(st.gpus[d].broken);
        assert_true(st.gpus[d].busy_ratio >= 0 && st.gpus[d].busy_ratio <= 1);
        assert_int_equal(st.gpus[d].keys_resident, f.loads[d] - f.frees[d]);
    }
    assert_int_equal(parts, 6);
    cuzk_engine_status_clear(&st);
    assert_true(metric_of(e, "cuzk_gpu_busy_seconds_total{gpu=\"0\"} ") >= 0);
    assert_true(metric_of(e, "cuzk_gpu_partitions_total{gpu=\"1\"} ") >= 0);
    assert_true(metric_of(e, "cuzk_stage_seconds_count{stage=\"spmv\"} ") == 6);
    assert_true(metric_of(e, "cuzk_memory_in_use_bytes ") == 0);

    /* a preload makes the key on every device */
    bool already = true;
    uint64_t ms = 0;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_engine_preload(e, "synthetic-7-5", &already, &ms, &err), CUZK_OK);
    assert_false(already);
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    for (size_t d = 0; d < st.num_gpus; d++) assert_true(st.gpus[d].keys_resident >= 1);
    cuzk_engine_status_clear(&st);
    assert_int_equal(cuzk_engine_preload(e, "synthetic-7-5", &already, &ms, &err), CUZK_OK);
    assert_true(already);
    /* an evict takes it off the devices too */
    bool was = false;
    uint64_t freed = 0;
    assert_int_equal(cuzk_engine_evict(e, "synthetic-7-5", &was, &freed), CUZK_OK);
    assert_true(was);
    assert_true(freed >= 2 * f.key_bytes / 2);
    cuzk_engine_destroy(e);
    assert_int_equal(f.z_frees, f.z_allocs);
    for (int d = 0; d < FAKE_DEVICES; d++) assert_int_equal(f.loads[d], f.frees[d]);

    /* the CPU backend, same request: the same bytes */
    c.gpu_workers_per_device = 1;
    e = NULL;
    assert_int_equal(cuzk_engine_create(&e, &c, &err), CUZK_OK);
    submit_synth(e, 8, 77, 6, id);
    cuzk_engine_result cr = await_job(e, id);
    assert_int_equal(cr.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(cr.proof_len, gr.proof_len);
    assert_memory_equal(cr.proof, gr.proof, gr.proof_len);
    cuzk_engine_result_clear(&cr);
    cuzk_engine_destroy(e);
    cuzk_engine_result_clear(&gr);
    pthread_mutex_destroy(&f.lock);
}

/* Room for one key per device: jobs on three keys all complete, keys are evicted and made again, and a key too large
 * even for the streamed placement fails its job with the reason. A key alone on its device that does not fit
 * RESIDENT is placed STREAMED. */
static void test_devices_eviction(void **state)
{
    (void)state;
    fake_ctx f;
    fake_init(&f, 150); /* a 2^8 key takes 100 */
    cuzk_engine_config c = dev_cfg();
    c.gpu_workers_per_device = 1;
    cuzk_engine *e = start_fake(&f, &c);
    char ids[6][CUZK_ENGINE_ID_MAX];
    for (int i = 0; i < 6; i++) submit_synth(e, 8, 100 + i % 3, 2, ids[i]);
    for (int i = 0; i < 6; i++) {
        cuzk_engine_result r = await_job(e, ids[i]);
        if (r.status != CUZK_ENGINE_JOB_COMPLETED) fprintf(stderr, "%s\n", r.error_message);
        assert_int_equal(r.status, CUZK_ENGINE_JOB_COMPLETED);
        cuzk_engine_result_clear(&r);
    }
    assert_true(f.loads[0] + f.loads[1] >= 3);
    assert_true(f.frees[0] + f.frees[1] >= 1);
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    for (size_t d = 0; d < st.num_gpus; d++) {
        assert_true(st.gpus[d].keys_resident <= 1);
        assert_true(st.gpus[d].vram_keys_bytes <= 150);
    }
    cuzk_engine_status_clear(&st);

    /* 2^9 needs 200: alone on a device it goes STREAMED (25) */
    char id[CUZK_ENGINE_ID_MAX];
    submit_synth(e, 9, 1, 2, id);
    cuzk_engine_result r = await_job(e, id);
    assert_int_equal(r.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&r);
    assert_true(f.streamed[0] + f.streamed[1] >= 1);

    /* 2^12 needs 1600 (200 streamed): it fits no device */
    submit_synth(e, 12, 1, 1, id);
    r = await_job(e, id);
    assert_int_equal(r.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(r.error_message, "cannot load circuit synthetic-12-1 on any GPU"));
    cuzk_engine_result_clear(&r);
    /* and the engine goes on */
    submit_synth(e, 8, 100, 1, id);
    r = await_job(e, id);
    assert_int_equal(r.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&r);
    cuzk_engine_destroy(e);
    assert_int_equal(f.z_frees, f.z_allocs);
    for (int d = 0; d < FAKE_DEVICES; d++) assert_int_equal(f.loads[d], f.frees[d]);
    pthread_mutex_destroy(&f.lock);
}

/* A device error fails its job with a clear message and takes the device out of service; the other device goes on;
 * when none is left, jobs fail saying so. */
static void test_devices_errors(void **state)
{
    (void)state;
    fake_ctx f;
    fake_init(&f, 1u << 20);
    cuzk_engine_config c = dev_cfg();
    c.gpu_workers_per_device = 1;
    cuzk_engine *e = start_fake(&f, &c);
    char id[CUZK_ENGINE_ID_MAX];
    /* warm both devices up, so that the fault below surely meets a partition */
    assert_int_equal(cuzk_engine_preload(e, "synthetic-7-3", NULL, NULL, NULL), CUZK_OK);
    pthread_mutex_lock(&f.lock);
    f.fail_device = 1;
    pthread_mutex_unlock(&f.lock);
    bool failed = false;
    for (int i = 0; i < 20 && !failed; i++) {
        submit_synth(e, 7, 3, 4, id);
        cuzk_engine_result r = await_job(e, id);
        if (r.status == CUZK_ENGINE_JOB_FAILED) {
            failed = true;
            assert_non_null(strstr(r.error_message, "device 1 (fake 1) failed"));
            assert_non_null(strstr(r.error_message, "illegal memory access"));
            assert_non_null(strstr(r.error_message, "taken out of service"));
        } else {
            assert_int_equal(r.status, CUZK_ENGINE_JOB_COMPLETED);
        }
        cuzk_engine_result_clear(&r);
    }
    assert_true(failed);
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_true(st.gpus[1].broken);
    assert_false(st.gpus[0].broken);
    assert_non_null(strstr(st.gpus[1].error, "illegal memory access"));
    cuzk_engine_status_clear(&st);
    assert_true(metric_of(e, "cuzk_gpu_broken{gpu=\"1\"} ") == 1);
    unsigned before = f.proves[1];
    submit_synth(e, 7, 3, 4, id);
    cuzk_engine_result r = await_job(e, id);
    assert_int_equal(r.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&r);
    assert_int_equal(f.proves[1], before);

    pthread_mutex_lock(&f.lock);
    f.fail_device = 0;
    pthread_mutex_unlock(&f.lock);
    submit_synth(e, 7, 3, 1, id);
    r = await_job(e, id);
    assert_int_equal(r.status, CUZK_ENGINE_JOB_FAILED);
    cuzk_engine_result_clear(&r);
    submit_synth(e, 7, 3, 1, id);
    r = await_job(e, id);
    assert_int_equal(r.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(r.error_message, "no usable GPU is left"));
    cuzk_engine_result_clear(&r);
    cuzk_engine_destroy(e);
    assert_int_equal(f.z_frees, f.z_allocs);
    pthread_mutex_destroy(&f.lock);
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk-engine-dev-%ld", (long)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", g_dir, g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int run_device_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_devices_prove_like_cpu),
        cmocka_unit_test(test_devices_eviction),
        cmocka_unit_test(test_devices_errors),
    };
    return cmocka_run_group_tests_name("engine_devices", tests, setup_dir, teardown_dir);
}
