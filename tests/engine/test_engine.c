/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The engine end to end on the CPU backend with tiny circuits: synthetic and generic jobs whose proofs verify,
 * priority order, cancellation, idempotent request ids, await timeouts, malformed requests, the memory budget,
 * backend failures, shutdown under load, status, preload/evict and metrics. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_internal.h"
#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "testutil.h"
#include "engine_test.h"

/* Nothing here depends on the machine's speed: jobs that must stay queued or running are held there
 * (cuzk_engine_hold), waits for work have no deadline but a stall detector (engine_test_await), and the TTL test
 * lets the clock pass the TTL before it looks and takes results that expired before it asked as ended. */
/* no stage of any partition ended for this long: a hang (this whole executable takes 1-2 min under ASan) */
#define STALL_MS 600000
#define DRAIN_FOREVER_MS (1ull << 36) /* a shutdown drain that waits for everything */

static char g_dir[256];

cuzk_engine_config engine_test_cfg(const char *dir)
{
    cuzk_engine_config c;
    memset(&c, 0, sizeof c);
    c.param_dir = dir;
    c.synthesis_workers = 1;
    c.synthesis_threads = 1;
    c.prover_threads = 1;
    c.gpu_workers_per_device = 1;
    c.gpu_queue_depth = 1;
    c.working_memory_budget = (uint64_t)1 << 30;
    c.result_ttl_ms = 600000;
    return c;
}

static cuzk_engine_config base_cfg(void) { return engine_test_cfg(g_dir); }

static cuzk_engine *start(const cuzk_engine_config *c)
{
    cuzk_engine *e = NULL;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_engine_create(&e, c, &err);
    if (s != CUZK_OK) fprintf(stderr, "engine_create: %s\n", err.msg);
    assert_int_equal(s, CUZK_OK);
    return e;
}

cuzk_engine_request engine_test_synth(unsigned log2, uint64_t seed, uint32_t parts, cuzk_engine_priority prio)
{
    cuzk_engine_request r;
    memset(&r, 0, sizeof r);
    r.proof_kind = CUZK_ENGINE_KIND_SYNTHETIC;
    r.synthetic_log2 = log2;
    r.seed = seed;
    r.partitions = parts;
    r.priority = prio;
    return r;
}

static void submit_ok(cuzk_engine *e, const cuzk_engine_request *r, char id[CUZK_ENGINE_ID_MAX])
{
    cuzk_errmsg err = {{0}};
    bool attached = true;
    cuzk_status s = cuzk_engine_submit(e, r, id, NULL, &attached, &err);
    if (s != CUZK_OK) fprintf(stderr, "submit: %s (%s)\n", cuzk_status_str(s), err.msg);
    assert_int_equal(s, CUZK_OK);
    assert_false(attached);
}

/* Stages of partitions ended so far, over all stages: it grows while the engine works. */
static uint64_t engine_progress(cuzk_engine *e)
{
    char *t = cuzk_engine_metrics_text(e);
    assert_non_null(t);
    uint64_t n = 0;
    for (char *p = t; (p = strstr(p, "cuzk_stage_seconds_count{")) != NULL; p++) {
        char *sp = strchr(p, ' ');
        if (sp != NULL) n += strtoull(sp + 1, NULL, 10);
    }
    free(t);
    return n;
}

cuzk_engine_result engine_test_await(cuzk_engine *e, const char *id, void (*dump)(cuzk_engine *e))
{
    uint64_t seen = engine_progress(e);
    for (;;) {
        cuzk_engine_result r;
        assert_int_equal(cuzk_engine_await(e, id, STALL_MS, &r), CUZK_OK);
        if (r.status != CUZK_ENGINE_JOB_TIMEOUT) return r;
        uint64_t now = engine_progress(e);
        if (now == seen) {
            if (dump != NULL) dump(e);
            fail_msg("job %s: %s, and no stage of any partition ended in %d s", id, r.error_message, STALL_MS / 1000);
        }
        seen = now;
    }
}

static cuzk_engine_result await_done(cuzk_engine *e, const char *id) { return engine_test_await(e, id, NULL); }

/* Lets the clock pass ms milliseconds: for a TTL to run out, not to wait for anything. */
static void let_time_pass(uint64_t ms)
{
    uint64_t t0 = cuzk_now_ns();
    while (cuzk_now_ns() - t0 < ms * 1000000) usleep(1000);
}

/* Jobs ended so far and the last one's status, from the engine's ENDED events (written under the engine's lock). */
typedef struct {
    unsigned ended;
    cuzk_engine_job_status status;
} ended_log;

static void log_ended(void *ctx, const cuzk_engine_event *ev)
{
    ended_log *log = ctx;
    if (ev->kind != CUZK_ENGINE_EVENT_ENDED) return;
    log->ended++;
    log->status = ev->result->status;
}

/* The status of job id, the n-th job to end, whether its result is still kept or has already expired: with a short
 * TTL the result can be gone before an await that starts after the job ended (a loaded machine may keep the test's
 * thread off the cores that long), so an await's NOT_FOUND also means done, and the status comes from the event. */
static cuzk_engine_job_status await_ended(cuzk_engine *e, const char *id, ended_log *log, unsigned n)
{
    uint64_t seen = engine_progress(e);
    for (;;) {
        cuzk_engine_result r;
        cuzk_status s = cuzk_engine_await(e, id, STALL_MS, &r); /* takes the engine's lock: log is up to date */
        bool pending = s == CUZK_OK && r.status == CUZK_ENGINE_JOB_TIMEOUT;
        cuzk_engine_result_clear(&r);
        if (!pending) {
            assert_true(s == CUZK_OK || s == CUZK_ERR_NOT_FOUND);
            assert_int_equal(log->ended, n);
            return log->status;
        }
        uint64_t now = engine_progress(e);
        if (now == seen) fail_msg("job %s: no stage of any partition ended in %d s", id, STALL_MS / 1000);
        seen = now;
    }
}

static void expect_completed(cuzk_engine *e, const char *id, uint32_t parts)
{
    cuzk_engine_result r = await_done(e, id);
    if (r.status != CUZK_ENGINE_JOB_COMPLETED) fprintf(stderr, "job %s: %d %s\n", id, r.status, r.error_message);
    assert_int_equal(r.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(r.proof_len, (size_t)parts * CUZK_GROTH16_PROOF_BYTES);
    cuzk_engine_result_clear(&r);
}

static bool still_pending(cuzk_engine *e, const char *id)
{
    cuzk_engine_result r;
    assert_int_equal(cuzk_engine_await(e, id, 1, &r), CUZK_OK);
    bool pending = r.status == CUZK_ENGINE_JOB_TIMEOUT;
    cuzk_engine_result_clear(&r);
    return pending;
}

/* A metric's value from the text exposition (the line that starts with `name`), -1 when absent. */
static double metric(cuzk_engine *e, const char *name)
{
    char *t = cuzk_engine_metrics_text(e);
    assert_non_null(t);
    double v = -1;
    size_t n = strlen(name);
    for (char *p = t; p != NULL && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, name, n) == 0 && p[n] == ' ') {
            v = strtod(p + n + 1, NULL);
            break;
        }
    }
    free(t);
    return v;
}

/* Proofs of a synthetic job checked outside the engine: the key from the engine's own disk cache, each partition's
 * public inputs from the generator's witness for seed + partition. Each proof verifies with its own inputs only. */
static void check_synthetic_proofs(const cuzk_engine_result *r, unsigned log2, uint64_t seed, uint32_t parts)
{
    char path[512];
    snprintf(path, sizeof path, "%s/synthetic/%u-%llu.params", g_dir, log2, (unsigned long long)seed);
    cuzk_groth16_pk pk;
    assert_int_equal(cuzk_groth16_params_load(&pk, path, 0, 1, NULL), CUZK_OK);
    uint64_t ni = pk.vk.num_inputs - 1;
    assert_int_equal(ni, CUZK_CIRCUITS_SYNTHETIC_INPUTS - 1);
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk.vk);
    cuzk_fr_t *prev = NULL;
    for (uint32_t p = 0; p < parts; p++) {
        cuzk_fr_t *z;
        assert_int_equal(cuzk_circuits_synthetic_witness(log2, seed, seed + p, 1, &z, NULL), CUZK_OK);
        cuzk_groth16_proof_t proof;
        assert_int_equal(
            cuzk_groth16_proof_from_bytes(&proof, r->proof + p * CUZK_GROTH16_PROOF_BYTES, CUZK_GROTH16_PROOF_BYTES),
            CUZK_OK);
        assert_int_equal(cuzk_groth16_verify(&pvk, &proof, z + 1, ni), CUZK_OK);
        /* the previous partition's inputs differ, and this proof does not verify with them */
        if (prev != NULL) {
            assert_memory_not_equal(prev + 1, z + 1, ni * sizeof(cuzk_fr_t));
            assert_int_equal(cuzk_groth16_verify(&pvk, &proof, prev + 1, ni), CUZK_ERR_PROOF_INVALID);
        }
        /* and a tampered proof does not verify */
        cuzk_g1_affine_t a = proof.a;
        proof.a = proof.c;
        assert_int_not_equal(cuzk_groth16_verify(&pvk, &proof, z + 1, ni), CUZK_OK);
        proof.a = a;
        free(prev);
        prev = z;
    }
    free(prev);
    cuzk_groth16_pk_free(&pk);
}

static void test_synthetic_jobs(void **state)
{
    (void)state;
    cuzk_engine_config c = base_cfg();
    cuzk_engine *e = start(&c);
    char id1[CUZK_ENGINE_ID_MAX], id3[CUZK_ENGINE_ID_MAX];
    /* 2^9: the smallest size with a tobits gadget, so that witness seeds give different public inputs */
    cuzk_engine_request r1 = engine_test_synth(9, 1, 1, CUZK_ENGINE_PRIO_NORMAL),
                        r3 = engine_test_synth(9, 1, 3, CUZK_ENGINE_PRIO_NORMAL);
    submit_ok(e, &r1, id1);
    submit_ok(e, &r3, id3);
    assert_string_not_equal(id1, id3);
    cuzk_engine_result a = await_done(e, id1), b = await_done(e, id3);
    assert_int_equal(a.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(b.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(a.proof_len, CUZK_GROTH16_PROOF_BYTES);
    assert_int_equal(b.proof_len, 3 * CUZK_GROTH16_PROOF_BYTES);
    check_synthetic_proofs(&a, 9, 1, 1);
    check_synthetic_proofs(&b, 9, 1, 3);
    assert_memory_not_equal(b.proof, b.proof + CUZK_GROTH16_PROOF_BYTES, CUZK_GROTH16_PROOF_BYTES);
    cuzk_engine_result_clear(&a);
    cuzk_engine_result_clear(&b);
    cuzk_engine_destroy(e);
}

/* ---- generic circuits -------------------------------------------------------------------------------------------- */
typedef struct {
    cuzk_r1cs_t *cs;
    cuzk_fr_t *z;
    cuzk_groth16_pk pk;
} tiny_circuit;

static void tiny_make(tiny_circuit *t, const char *id, unsigned log2)
{
    assert_int_equal(cuzk_circuits_synthetic(log2, 77, 1, &t->cs, &t->z, NULL), CUZK_OK);
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    assert_int_equal(cuzk_groth16_setup(&t->pk, t->cs, &o, NULL), CUZK_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.pce", g_dir, id);
    assert_int_equal(cuzk_r1cs_pce_write(t->cs, path, NULL), CUZK_OK);
    snprintf(path, sizeof path, "%s/%s.params", g_dir, id);
    assert_int_equal(cuzk_groth16_params_write(&t->pk, path, NULL), CUZK_OK);
}

static void tiny_free(tiny_circuit *t)
{
    free(t->z);
    cuzk_r1cs_free(t->cs);
    cuzk_groth16_pk_free(&t->pk);
}

static cuzk_engine_request generic_req(const char *id, const uint8_t *w, size_t len)
{
    cuzk_engine_request r;
    memset(&r, 0, sizeof r);
    r.proof_kind = CUZK_ENGINE_KIND_GENERIC_CIRCUIT;
    snprintf(r.circuit_id, sizeof r.circuit_id, "%s", id);
    r.witness = w;
    r.witness_len = len;
    return r;
}

static cuzk_engine_result run_generic(cuzk_engine *e, const cuzk_engine_request *r)
{
    char id[CUZK_ENGINE_ID_MAX];
    submit_ok(e, r, id);
    return await_done(e, id);
}

static void test_generic_jobs(void **state)
{
    (void)state;
    tiny_circuit t;
    tiny_make(&t, "tiny", 6);
    cuzk_engine_config c = base_cfg();
    cuzk_engine *e = start(&c);
    uint64_t nv = cuzk_r1cs_num_vars(t.cs);
    uint8_t *w;
    size_t wl;
    assert_int_equal(cuzk_r1cs_wtns_encode(t.z, nv, &w, &wl), CUZK_OK);

    cuzk_engine_request r = generic_req("tiny", w, wl);
    cuzk_engine_result res = run_generic(e, &r);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &t.pk.vk);
    cuzk_groth16_proof_t proof;
    assert_int_equal(cuzk_groth16_proof_from_bytes(&proof, res.proof, res.proof_len), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof, t.z + 1, t.cs->num_inputs - 1), CUZK_OK);
    cuzk_engine_result_clear(&res);

    /* the same witness from a file */
    char path[512];
    snprintf(path, sizeof path, "%s/tiny.wtns", g_dir);
    assert_int_equal(cuzk_r1cs_wtns_save(t.z, nv, path, NULL), CUZK_OK);
    r = generic_req("tiny", NULL, 0);
    snprintf(r.witness_path, sizeof r.witness_path, "%s", path);
    res = run_generic(e, &r);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&res);

    /* a witness of the wrong length: FAILED, with the counts */
    uint8_t *w2;
    size_t wl2;
    assert_int_equal(cuzk_r1cs_wtns_encode(t.z, nv - 1, &w2, &wl2), CUZK_OK);
    r = generic_req("tiny", w2, wl2);
    res = run_generic(e, &r);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error_message, "witness"));
    cuzk_engine_result_clear(&res);
    free(w2);

    /* an unsatisfied witness: FAILED, naming the row */
    cuzk_fr_t keep = t.z[nv - 1];
    cuzk_fr_add(&t.z[nv - 1], &t.z[nv - 1], &t.z[0]);
    assert_int_equal(cuzk_r1cs_wtns_encode(t.z, nv, &w2, &wl2), CUZK_OK);
    t.z[nv - 1] = keep;
    r = generic_req("tiny", w2, wl2);
    res = run_generic(e, &r);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error_message, "does not satisfy"));
    cuzk_engine_result_clear(&res);
    free(w2);

    /* rejected at submission */
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_errmsg err = {{0}};
    r = generic_req("nosuch", w, wl);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.msg, "unknown circuit nosuch"));
    r = generic_req("../etc", w, wl);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);
    r = generic_req("tiny", w, wl);
    snprintf(r.witness_path, sizeof r.witness_path, "%s", path);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);
    r = generic_req("tiny", NULL, 0);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);
    r = generic_req("tiny", NULL, 0);
    snprintf(r.witness_path, sizeof r.witness_path, "%s/missing.wtns", g_dir);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_NOT_FOUND);
    r = generic_req("tiny", w, wl);
    r.proof_kind = 77;
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);

    /* Filecoin kinds: accepted and answered FAILED with a reason */
    r = generic_req("", NULL, 0);
    r.proof_kind = CUZK_ENGINE_KIND_POREP_SEAL_COMMIT;
    r.registered_proof = 5;
    res = run_generic(e, &r);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error_message, "vanilla_proof: empty; a PoRep request carries the commit-phase-1"));
    cuzk_engine_result_clear(&res);

    free(w);
    cuzk_engine_destroy(e);
    tiny_free(&t);
}

/* ---- scheduling -------------------------------------------------------------------------------------------------- */
/* Waits until the engine counts a SYNTHETIC job running (one a held worker keeps, with the engine held). */
static void wait_running(cuzk_engine *e, const char *id)
{
    for (;;) {
        cuzk_engine_status_report st;
        assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
        uint32_t running = 0;
        for (size_t q = 0; q < st.num_queues; q++)
            if (strcmp(st.queues[q].proof_kind, "synthetic") == 0) running = st.queues[q].in_progress;
        cuzk_engine_status_clear(&st);
        if (running > 0) return;
        assert_true(still_pending(e, id)); /* the wait itself: 1 ms inside the engine's await */
    }
}

/* The ids of the jobs in the order they ended, from the engine's ENDED events (written under the engine's lock). */
typedef struct {
    unsigned n;
    char ids[8][CUZK_ENGINE_ID_MAX];
} end_order;

static void log_end_order(void *ctx, const cuzk_engine_event *ev)
{
    end_order *o = ctx;
    if (ev->kind == CUZK_ENGINE_EVENT_ENDED && o->n < 8) snprintf(o->ids[o->n++], CUZK_ENGINE_ID_MAX, "%s", ev->job_id);
}

static void test_priority_order(void **state)
{
    (void)state;
    end_order order = {0};
    cuzk_engine_config c = base_cfg();
    c.on_event = log_end_order;
    c.on_event_ctx = &order;
    cuzk_engine *e = start(&c);
    bool already;
    uint64_t ms;
    assert_int_equal(cuzk_engine_preload(e, "synthetic-10-5", &already, &ms, NULL), CUZK_OK);
    char a[CUZK_ENGINE_ID_MAX], b[CUZK_ENGINE_ID_MAX], cc[CUZK_ENGINE_ID_MAX], d[CUZK_ENGINE_ID_MAX],
        x[CUZK_ENGINE_ID_MAX];
    /* held: the worker keeps a's first partition until every other job is in */
    cuzk_engine_hold(e, true);
    cuzk_engine_request r = engine_test_synth(10, 5, 8, CUZK_ENGINE_PRIO_NORMAL);
    submit_ok(e, &r, a);
    wait_running(e, a);
    r = engine_test_synth(10, 5, 3, CUZK_ENGINE_PRIO_LOW);
    submit_ok(e, &r, b);
    r = engine_test_synth(10, 5, 3, CUZK_ENGINE_PRIO_NORMAL);
    submit_ok(e, &r, cc);
    r = engine_test_synth(10, 5, 1, CUZK_ENGINE_PRIO_HIGH);
    submit_ok(e, &r, d);
    r = engine_test_synth(10, 5, 1, CUZK_ENGINE_PRIO_CRITICAL);
    uint32_t pos = 99;
    bool att;
    assert_int_equal(cuzk_engine_submit(e, &r, x, &pos, &att, NULL), CUZK_OK);
    assert_int_equal(pos, 0); /* nothing runs before a CRITICAL job */
    cuzk_engine_hold(e, false);

    expect_completed(e, x, 1);
    expect_completed(e, d, 1);
    expect_completed(e, a, 8);
    expect_completed(e, cc, 3);
    expect_completed(e, b, 3);
    /* the order they ended in, as the engine recorded it (a job that is still pending when the test looks may not be,
     * a moment later, on a loaded machine): CRITICAL, then HIGH, overtake the 8-partition NORMAL job at partition
     * boundaries; FIFO within NORMAL, LOW last */
    assert_int_equal(order.n, 5);
    const char *want[] = {x, d, a, cc, b};
    for (unsigned i = 0; i < 5; i++) assert_string_equal(order.ids[i], want[i]);
    cuzk_engine_destroy(e);
}

static void test_cancel(void **state)
{
    (void)state;
    cuzk_engine_config c = base_cfg();
    cuzk_engine *e = start(&c);
    char big[CUZK_ENGINE_ID_MAX], queued[CUZK_ENGINE_ID_MAX], after[CUZK_ENGINE_ID_MAX];
    /* held: big stays running (its first partition with the worker) and queued stays queued */
    cuzk_engine_hold(e, true);
    cuzk_engine_request r = engine_test_synth(9, 2, 40, CUZK_ENGINE_PRIO_NORMAL);
    submit_ok(e, &r, big);
    wait_running(e, big);
    r = engine_test_synth(9, 2, 1, CUZK_ENGINE_PRIO_LOW);
    submit_ok(e, &r, queued);
    assert_true(still_pending(e, queued));

    bool was_running = true;
    assert_int_equal(cuzk_engine_cancel(e, queued, &was_running), CUZK_OK);
    assert_false(was_running);
    cuzk_engine_result res = await_done(e, queued);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_CANCELLED);
    cuzk_engine_result_clear(&res);

    assert_int_equal(cuzk_engine_cancel(e, big, &was_running), CUZK_OK);
    assert_true(was_running);
    res = await_done(e, big);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_CANCELLED);
    assert_int_equal(res.proof_len, 0);
    cuzk_engine_result_clear(&res);
    assert_int_equal(cuzk_engine_cancel(e, "job-nosuch", &was_running), CUZK_ERR_NOT_FOUND);
    cuzk_engine_hold(e, false);

    /* the engine goes on serving, and the cancelled partitions gave back their memory and key reference */
    r = engine_test_synth(9, 2, 1, CUZK_ENGINE_PRIO_LOW);
    submit_ok(e, &r, after);
    expect_completed(e, after, 1);
    assert_true(metric(e, "cuzk_memory_in_use_bytes") == 0);
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.num_srs, 1);
    assert_int_equal(st.srs[0].ref_count, 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
}

static void test_idempotency_and_timeout(void **state)
{
    (void)state;
    cuzk_engine_config c = base_cfg();
    cuzk_engine *e = start(&c);
    char id[CUZK_ENGINE_ID_MAX], id2[CUZK_ENGINE_ID_MAX], id3[CUZK_ENGINE_ID_MAX];
    cuzk_engine_request r = engine_test_synth(9, 3, 6, CUZK_ENGINE_PRIO_NORMAL);
    snprintf(r.request_id, sizeof r.request_id, "porep-1000-7");
    cuzk_engine_hold(e, true);
    submit_ok(e, &r, id);
    bool attached = false;
    assert_int_equal(cuzk_engine_submit(e, &r, id2, NULL, &attached, NULL), CUZK_OK);
    assert_true(attached);
    assert_string_equal(id, id2);

    /* held, the job cannot end: an await of 1 ms times out */
    cuzk_engine_result res;
    assert_int_equal(cuzk_engine_await(e, id, 1, &res), CUZK_OK);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_TIMEOUT);
    cuzk_engine_result_clear(&res);
    cuzk_engine_hold(e, false);

    cuzk_engine_result first = await_done(e, id);
    assert_int_equal(first.status, CUZK_ENGINE_JOB_COMPLETED);
    attached = false;
    assert_int_equal(cuzk_engine_submit(e, &r, id3, NULL, &attached, NULL), CUZK_OK);
    assert_true(attached);
    assert_string_equal(id, id3);
    cuzk_engine_result again = await_done(e, id3);
    assert_int_equal(again.proof_len, first.proof_len);
    assert_memory_equal(again.proof, first.proof, first.proof_len);
    cuzk_engine_result_clear(&first);
    cuzk_engine_result_clear(&again);

    assert_int_equal(cuzk_engine_await(e, "job-0", 1, &res), CUZK_ERR_NOT_FOUND);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_UNKNOWN);
    cuzk_engine_destroy(e);

    /* with a TTL of 1 ms the kept result expires, and the request id makes a new job */
    ended_log log = {0};
    c.result_ttl_ms = 1;
    c.on_event = log_ended;
    c.on_event_ctx = &log;
    e = start(&c);
    r.partitions = 1;
    submit_ok(e, &r, id);
    assert_int_equal(await_ended(e, id, &log, 1), CUZK_ENGINE_JOB_COMPLETED);
    let_time_pass(5);
    submit_ok(e, &r, id3); /* a new job (not attached), under the same id: the request id */
    assert_string_equal(id, id3);
    assert_int_equal(await_ended(e, id3, &log, 2), CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_destroy(e);
}

/* ---- memory ------------------------------------------------------------------------------------------------------ */
static void test_memory_budget(void **state)
{
    (void)state;
    cuzk_engine_config c = base_cfg();
    /* the prover's bound and the partition's witness, for 2^8 variables at most */
    uint64_t need = cuzk_groth16_prove_peak_bytes(1u << 8, 1u << 8, 1) + (1u << 8) * sizeof(cuzk_fr_t);
    assert_true(need > 3 * 256 * 32);
    /* a job that can never fit is refused at once, with both numbers */
    c.working_memory_budget = need - 1;
    cuzk_engine *e = start(&c);
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_errmsg err = {{0}};
    cuzk_engine_request r = engine_test_synth(8, 4, 1, CUZK_ENGINE_PRIO_NORMAL);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_OVER_BUDGET);
    char expect[128];
    snprintf(expect, sizeof expect, "needs %llu bytes", (unsigned long long)need);
    assert_non_null(strstr(err.msg, expect));
    snprintf(expect, sizeof expect, "budget %llu", (unsigned long long)(need - 1));
    assert_non_null(strstr(err.msg, expect));
    cuzk_engine_destroy(e);

    /* room for two partitions, four workers' worth of demand: admission holds the rest back */
    c.working_memory_budget = 2 * need + need / 2;
    c.synthesis_workers = 3;
    c.gpu_workers_per_device = 2;
    c.gpu_queue_depth = 3;
    e = start(&c);
    char ids[5][CUZK_ENGINE_ID_MAX];
    for (int i = 0; i < 5; i++) {
        r = engine_test_synth(8, 4, 3, i % 2 ? CUZK_ENGINE_PRIO_HIGH : CUZK_ENGINE_PRIO_NORMAL);
        submit_ok(e, &r, ids[i]);
    }
    for (int i = 0; i < 5; i++) expect_completed(e, ids[i], 3);
    double peak = metric(e, "cuzk_memory_peak_bytes");
    assert_true(peak >= (double)need);
    assert_true(peak <= (double)c.working_memory_budget);
    assert_true(metric(e, "cuzk_memory_in_use_bytes") == 0);
    assert_true(metric(e, "cuzk_memory_budget_bytes") == (double)c.working_memory_budget);
    cuzk_engine_destroy(e);
}

/* Once a key is loaded its densities tighten the reservation (cuzk_groth16_prove_shape_key instead of every variable
 * selected): a budget between the two bounds refuses the job while only the dimensions are known, and takes it
 * once the key has been preloaded. */
static void test_memory_densities(void **state)
{
    (void)state;
    cuzk_r1cs_t *cs;
    assert_int_equal(cuzk_circuits_synthetic(8, 4, 1, &cs, NULL, NULL), CUZK_OK);
    cuzk_groth16_pk pk;
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    assert_int_equal(cuzk_groth16_setup(&pk, cs, &so, NULL), CUZK_OK);
    uint64_t nv = cuzk_r1cs_num_vars(cs);
    cuzk_groth16_prove_shape sh;
    cuzk_groth16_prove_shape_key(&sh, &pk);
    uint64_t tight = cuzk_groth16_prove_shape_peak_bytes(&sh, 1) + nv * sizeof(cuzk_fr_t);
    uint64_t worst = cuzk_groth16_prove_peak_bytes(pk.domain_size, nv, 1) + nv * sizeof(cuzk_fr_t);
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_free(cs);
    assert_true(tight < worst); /* B holds about a quarter of the variables: its G2 gather shrinks */

    cuzk_engine_config c = base_cfg();
    c.working_memory_budget = tight;
    cuzk_engine *e = start(&c);
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_errmsg err = {{0}};
    cuzk_engine_request r = engine_test_synth(8, 4, 2, CUZK_ENGINE_PRIO_NORMAL);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_OVER_BUDGET);
    bool already;
    uint64_t ms;
    assert_int_equal(cuzk_engine_preload(e, "synthetic-8-4", &already, &ms, &err), CUZK_OK);
    submit_ok(e, &r, id);
    expect_completed(e, id, 2);
    assert_true(metric(e, "cuzk_memory_peak_bytes") <= (double)tight);
    cuzk_engine_destroy(e);
}

/* The bound is an upper bound of what the prover really allocates: measured with glibc's counters around the
 * synthesis (which holds a, b, c) in builds without a sanitizer's allocator. */
static void test_memory_model(void **state)
{
    (void)state;
    uint64_t n = 1u << 12;
    assert_true(cuzk_groth16_prove_peak_bytes(n, n, 2) > cuzk_groth16_prove_peak_bytes(n, n, 1));
    assert_true(cuzk_groth16_prove_peak_bytes(2 * n, n, 1) > cuzk_groth16_prove_peak_bytes(n, n, 1));
    assert_true(cuzk_groth16_prove_peak_bytes(2 * n, n, 1) >= 3 * 2 * n * 32 + n * 32); /* H: a, b, c, twiddles */
    /* at 2^12 with every variable "other" the splits are dense (8 ones bits and 32 bytes of scalar a position; the MSM
     * reads the key's bases in place) and the bound also covers the largest sparse tail, (n − 1)/2 scalars with their
     * positions (8 + 32 bytes) and gathered bases (G2: 192 + 32, G1: 96 + 32); each MSM's own scratch on top (G1's is
     * the larger where its vector rounds add scratch, G2's where its GLV block does, so any of them may be the peak);
     * with the lists of equal scalars for a tail that is all pairs (4 bytes a member, 4 a group), and the phase that
     * multiplies the groups (half the tail: their sums and scalars, and that MSM's scratch) */
    uint64_t b = cuzk_groth16_prove_peak_bytes(n, n, 1);
    const uint64_t tw = n / 2 * 32, o = (n - 1) / 2;
    const uint64_t dd = n * 4 + (n / 2 + 1) * 4, ds = o * 4 + (o / 2 + 1) * 4;
    const uint64_t dense2 = tw + n / 8 + n * 32 + dd + cuzk_g2_msm_scratch_bytes(n, 1);
    const uint64_t dense1 = tw + n / 8 + n * 32 + dd + cuzk_g1_msm_scratch_bytes(n, 1);
    const uint64_t sparse2 = tw + n / 8 + o * (8 + 32) + ds + o * (192 + 32) + cuzk_g2_msm_scratch_bytes_upto(o, 1);
    const uint64_t sparse1 = tw + n / 8 + o * (8 + 32) + ds + o * (96 + 32) + cuzk_g1_msm_scratch_bytes_upto(o, 1);
    const uint64_t groups2 = tw + n / 8 + n * 32 + dd + n / 2 * (192 + 32) + cuzk_g2_msm_scratch_bytes_upto(n / 2, 1);
    const uint64_t groups1 = tw + n / 8 + n * 32 + dd + n / 2 * (96 + 32) + cuzk_g1_msm_scratch_bytes_upto(n / 2, 1);
    uint64_t top = dense2;
    if (dense1 > top) top = dense1;
    if (sparse2 > top) top = sparse2;
    if (sparse1 > top) top = sparse1;
    if (groups2 > top) top = groups2;
    if (groups1 > top) top = groups1;
    assert_true(b >= dense2 && b >= sparse2);
    assert_true(b < top + 64 * 1024);
    assert_true(b >= 3 * n * 32 + n / 2 * 32); /* a, b, c and the twiddles, live together during H */
}

/* A generic circuit that was never loaded is sized from its PCE header at submission: refused at once when it can
 * never fit, accepted when it just fits. */
static void test_generic_over_budget_at_submit(void **state)
{
    (void)state;
    tiny_circuit t;
    tiny_make(&t, "wide", 8);
    uint64_t nv = cuzk_r1cs_num_vars(t.cs);
    uint64_t need = cuzk_groth16_prove_peak_bytes(t.pk.domain_size, nv, 1) + nv * sizeof(cuzk_fr_t);
    uint8_t *w;
    size_t wl;
    assert_int_equal(cuzk_r1cs_wtns_encode(t.z, nv, &w, &wl), CUZK_OK);
    cuzk_engine_config c = base_cfg();
    c.working_memory_budget = need - 1;
    cuzk_engine *e = start(&c);
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_errmsg err = {{0}};
    cuzk_engine_request r = generic_req("wide", w, wl);
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_OVER_BUDGET);
    char expect[128];
    snprintf(expect, sizeof expect, "needs %llu bytes", (unsigned long long)need);
    assert_non_null(strstr(err.msg, expect));
    /* nothing was loaded for it */
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    for (size_t i = 0; i < st.num_srs; i++) assert_int_not_equal(st.srs[i].tier, CUZK_ENGINE_TIER_HOT);
    assert_int_equal(st.pinned_memory_bytes, 0);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);

    c.working_memory_budget = need;
    e = start(&c);
    cuzk_engine_result res = run_generic(e, &r);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&res);
    cuzk_engine_destroy(e);
    free(w);
    tiny_free(&t);
}

/* ---- key tiers --------------------------------------------------------------------------------------------------- */
static cuzk_engine_tier tier_of(cuzk_engine *e, const char *id, uint64_t *size)
{
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    int tier = -1;
    for (size_t i = 0; i < st.num_srs; i++) {
        if (strcmp(st.srs[i].circuit_id, id) == 0) {
            tier = (int)st.srs[i].tier;
            if (size != NULL) *size = st.srs[i].size_bytes;
        }
    }
    cuzk_engine_status_clear(&st);
    assert_true(tier >= 0);
    return (cuzk_engine_tier)tier;
}

static uint64_t preload_ms(cuzk_engine *e, const char *id)
{
    bool already = true;
    uint64_t ms = 0;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_engine_preload(e, id, &already, &ms, &err);
    if (s != CUZK_OK || already) fprintf(stderr, "preload %s: %s%s\n", id, err.msg, already ? "already loaded" : "");
    assert_int_equal(s, CUZK_OK);
    assert_false(already);
    return ms;
}

/* HOT sizes of registered circuits, from an engine without a key budget */
static uint64_t hot_size(const char *id)
{
    cuzk_engine_config c = base_cfg();
    cuzk_engine *e = start(&c);
    preload_ms(e, id);
    uint64_t size = 0;
    assert_int_equal(tier_of(e, id, &size), CUZK_ENGINE_TIER_HOT);
    cuzk_engine_destroy(e);
    return size;
}

/* A key budget with room for one of two keys: loading one demotes the other to WARM (mapped, points dropped), a WARM
 * key reloads from its mapping and proves, and an explicit evict of a WARM key leaves it COLD. */
static void test_key_tiers(void **state)
{
    (void)state;
    tiny_circuit ta, tb;
    tiny_make(&ta, "ta", 10);
    tiny_make(&tb, "tb", 10);
    uint64_t sa = hot_size("ta"), sb = hot_size("tb");
    assert_int_equal(sa, sb);
    cuzk_engine_config c = base_cfg();
    c.pinned_budget = sa + sa / 2;
    cuzk_engine *e = start(&c);
    uint64_t cold_ms = preload_ms(e, "ta");
    assert_int_equal(tier_of(e, "ta", NULL), CUZK_ENGINE_TIER_HOT);
    preload_ms(e, "tb");
    uint64_t mapped = 0;
    assert_int_equal(tier_of(e, "ta", &mapped), CUZK_ENGINE_TIER_WARM);
    assert_int_equal(tier_of(e, "tb", NULL), CUZK_ENGINE_TIER_HOT);
    /* WARM: the two files, mapped */
    char path[512];
    struct stat sp, sq;
    snprintf(path, sizeof path, "%s/ta.pce", g_dir);
    assert_int_equal(stat(path, &sp), 0);
    snprintf(path, sizeof path, "%s/ta.params", g_dir);
    assert_int_equal(stat(path, &sq), 0);
    assert_int_equal(mapped, (uint64_t)sp.st_size + (uint64_t)sq.st_size);
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.pinned_memory_bytes, sb);
    cuzk_engine_status_clear(&st);

    uint64_t warm_ms = preload_ms(e, "ta");
    assert_int_equal(tier_of(e, "ta", NULL), CUZK_ENGINE_TIER_HOT);
    assert_int_equal(tier_of(e, "tb", NULL), CUZK_ENGINE_TIER_WARM);
    printf("# 2^10 key of %llu bytes: COLD load %llu ms, WARM load %llu ms\n", (unsigned long long)sa,
           (unsigned long long)cold_ms, (unsigned long long)warm_ms);

    /* a job on the WARM key: reloaded, proved, verified against the key on disk */
    uint64_t nv = cuzk_r1cs_num_vars(tb.cs);
    uint8_t *w;
    size_t wl;
    assert_int_equal(cuzk_r1cs_wtns_encode(tb.z, nv, &w, &wl), CUZK_OK);
    cuzk_engine_request r = generic_req("tb", w, wl);
    cuzk_engine_result res = run_generic(e, &r);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &tb.pk.vk);
    cuzk_groth16_proof_t proof;
    assert_int_equal(cuzk_groth16_proof_from_bytes(&proof, res.proof, res.proof_len), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof, tb.z + 1, tb.cs->num_inputs - 1), CUZK_OK);
    cuzk_engine_result_clear(&res);
    assert_int_equal(tier_of(e, "tb", NULL), CUZK_ENGINE_TIER_HOT);
    assert_int_equal(tier_of(e, "ta", NULL), CUZK_ENGINE_TIER_WARM);

    bool was = true;
    uint64_t freed = 1;
    assert_int_equal(cuzk_engine_evict(e, "ta", &was, &freed), CUZK_OK);
    assert_false(was);
    assert_int_equal(freed, 0);
    assert_int_equal(tier_of(e, "ta", NULL), CUZK_ENGINE_TIER_COLD);
    assert_int_equal(cuzk_engine_evict(e, "tb", &was, &freed), CUZK_OK);
    assert_true(was);
    assert_int_equal(freed, sb);
    assert_int_equal(tier_of(e, "tb", NULL), CUZK_ENGINE_TIER_COLD);
    cuzk_engine_destroy(e);

    /* synthetic keys go WARM too (their circuit is the cached PCE's mapping), and prove from there */
    uint64_t s11 = hot_size("synthetic-9-11");
    c.pinned_budget = s11 + s11 / 2;
    e = start(&c);
    preload_ms(e, "synthetic-9-11");
    preload_ms(e, "synthetic-9-12");
    assert_int_equal(tier_of(e, "synthetic-9-11", NULL), CUZK_ENGINE_TIER_WARM);
    assert_int_equal(tier_of(e, "synthetic-9-12", NULL), CUZK_ENGINE_TIER_HOT);
    char jid[CUZK_ENGINE_ID_MAX];
    cuzk_engine_request sr = engine_test_synth(9, 11, 2, CUZK_ENGINE_PRIO_NORMAL);
    submit_ok(e, &sr, jid);
    res = await_done(e, jid);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    check_synthetic_proofs(&res, 9, 11, 2);
    cuzk_engine_result_clear(&res);
    assert_int_equal(tier_of(e, "synthetic-9-12", NULL), CUZK_ENGINE_TIER_WARM);
    cuzk_engine_destroy(e);
    free(w);
    tiny_free(&ta);
    tiny_free(&tb);
}

/* ---- failures ---------------------------------------------------------------------------------------------------- */
typedef struct {
    engine_backend cpu;
    int mode; /* 0 pass, 1 fail the prover call, 2 return a wrong proof, 3 fail witness_made */
    int form; /* what witness_made points w->z_form at: the prover must find it there */
} faulty_ctx;

static unsigned faulty_devices(void *ctx)
{
    faulty_ctx *f = ctx;
    return f->cpu.ops->num_devices(f->cpu.ctx);
}
static void faulty_info(void *ctx, unsigned d, cuzk_engine_gpu_status *o)
{
    faulty_ctx *f = ctx;
    f->cpu.ops->device_info(f->cpu.ctx, d, o);
}
static uint64_t faulty_bytes(void *ctx, const cuzk_groth16_prove_shape *sh)
{
    faulty_ctx *f = ctx;
    return f->cpu.ops->partition_bytes(f->cpu.ctx, sh);
}
static cuzk_status faulty_made(void *ctx, engine_work *w, unsigned threads, cuzk_errmsg *err)
{
    faulty_ctx *f = ctx;
    (void)threads;
    if (__atomic_load_n(&f->mode, __ATOMIC_SEQ_CST) == 3) {
        snprintf(err->msg, sizeof err->msg, "injected witness fault");
        return CUZK_ERR_IO;
    }
    w->z_form = &f->form;
    return CUZK_OK;
}
static cuzk_status faulty_start(void *ctx, unsigned d, engine_work *w, cuzk_errmsg *err)
{
    faulty_ctx *f = ctx;
    int mode = __atomic_load_n(&f->mode, __ATOMIC_SEQ_CST);
    if (mode == 1) {
        snprintf(err->msg, sizeof err->msg, "injected device fault");
        return CUZK_ERR_IO;
    }
    if (w->z_form != &f->form) {
        snprintf(err->msg, sizeof err->msg, "the witness's form from witness_made did not reach the prover");
        return CUZK_ERR_IO;
    }
    cuzk_status s = f->cpu.ops->prove_start(f->cpu.ctx, d, w, err);
    if (mode == 2) w->proof.a = w->proof.c;
    return s;
}
static cuzk_status faulty_finish(void *ctx, unsigned d, engine_work *w, cuzk_errmsg *err)
{
    faulty_ctx *f = ctx;
    return f->cpu.ops->prove_finish(f->cpu.ctx, d, w, err);
}
static void faulty_destroy(void *ctx)
{
    faulty_ctx *f = ctx;
    f->cpu.ops->destroy(f->cpu.ctx);
    free(f);
}

/* Latency mode pairs GPUs: with the CPU backend it is refused at once, with a message, and no engine is made. */
static void test_latency_mode_needs_gpus(void **state)
{
    (void)state;
    cuzk_engine_config c = base_cfg();
    c.backend = CUZK_ENGINE_BACKEND_CPU;
    c.gpu_latency_pairs = true;
    cuzk_engine *e = (cuzk_engine *)&c; /* poisoned: must come back NULL */
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_engine_create(&e, &c, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "latency mode"));
    assert_null(e);
}

/* With the faulty backend in `mode`, a job fails and its message holds each of the given parts. */
static void expect_fault(cuzk_engine *e, faulty_ctx *f, int mode, const cuzk_engine_request *r, const char *part,
                         const char *part2)
{
    char id[CUZK_ENGINE_ID_MAX];
    __atomic_store_n(&f->mode, mode, __ATOMIC_SEQ_CST);
    submit_ok(e, r, id);
    cuzk_engine_result res = await_done(e, id);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error_message, part));
    if (part2 != NULL) assert_non_null(strstr(res.error_message, part2));
    cuzk_engine_result_clear(&res);
}

static void test_backend_failures(void **state)
{
    (void)state;
    faulty_ctx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(cuzk_engine_backend_cpu(&f->cpu, 1), CUZK_OK);
    static const engine_backend_ops faulty_ops = {.name = "faulty",
                                                  .num_devices = faulty_devices,
                                                  .device_info = faulty_info,
                                                  .partition_bytes = faulty_bytes,
                                                  .prove_start = faulty_start,
                                                  .prove_finish = faulty_finish,
                                                  .destroy = faulty_destroy,
                                                  .witness_made = faulty_made};
    engine_backend be = {&faulty_ops, f};
    cuzk_engine_config c = base_cfg();
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create_with_backend(&e, &c, &be, NULL), CUZK_OK);
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_engine_request r = engine_test_synth(7, 1, 2, CUZK_ENGINE_PRIO_NORMAL);

    expect_fault(e, f, 1, &r, "prover failed", "injected device fault");
    expect_fault(e, f, 2, &r, "does not verify", NULL);
    /* the backend's witness_made fails: the job fails with its message, on the synthesis worker */
    expect_fault(e, f, 3, &r, "injected witness fault", NULL);

    /* and when it succeeds, the form it made reaches the prover (faulty_start checks) */
    __atomic_store_n(&f->mode, 0, __ATOMIC_SEQ_CST);
    submit_ok(e, &r, id);
    expect_completed(e, id, 2);
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.total_proofs_failed, 3);
    assert_int_equal(st.total_proofs_completed, 1);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
}

/* A backend that holds partitions of one key at a gate until the test opens it. */
typedef struct {
    engine_backend cpu;
    pthread_mutex_t lock;
    pthread_cond_t cv;
    bool closed;
    char key[CUZK_ENGINE_ID_MAX];
} gate_ctx;

static unsigned gate_devices(void *ctx)
{
    gate_ctx *g = ctx;
    return g->cpu.ops->num_devices(g->cpu.ctx);
}
static void gate_info(void *ctx, unsigned d, cuzk_engine_gpu_status *o)
{
    gate_ctx *g = ctx;
    g->cpu.ops->device_info(g->cpu.ctx, d, o);
}
static uint64_t gate_bytes(void *ctx, const cuzk_groth16_prove_shape *sh)
{
    gate_ctx *g = ctx;
    return g->cpu.ops->partition_bytes(g->cpu.ctx, sh);
}
static cuzk_status gate_start(void *ctx, unsigned d, engine_work *w, cuzk_errmsg *err)
{
    gate_ctx *g = ctx;
    pthread_mutex_lock(&g->lock);
    while (g->closed && strcmp(w->key->id, g->key) == 0) pthread_cond_wait(&g->cv, &g->lock);
    pthread_mutex_unlock(&g->lock);
    return g->cpu.ops->prove_start(g->cpu.ctx, d, w, err);
}
static cuzk_status gate_finish(void *ctx, unsigned d, engine_work *w, cuzk_errmsg *err)
{
    gate_ctx *g = ctx;
    return g->cpu.ops->prove_finish(g->cpu.ctx, d, w, err);
}
static void gate_destroy(void *ctx)
{
    gate_ctx *g = ctx;
    g->cpu.ops->destroy(g->cpu.ctx);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->cv);
    free(g);
}

/* A load that must wait for a key in use does not hold up the load of another key that fits: with room for the big
 * key A and the small key C, a job on A held in the prover by a gate, B (as big as A) waits while C loads and
 * proves; once A's job ends B loads (A going WARM). A key larger than the whole budget fails its jobs at once. */
static void test_loads_not_blocked(void **state)
{
    (void)state;
    tiny_circuit ta, tb, tc;
    tiny_make(&ta, "la", 9);
    tiny_make(&tb, "lb", 9);
    tiny_make(&tc, "lc", 6);
    uint64_t sa = hot_size("la"), sc = hot_size("lc");
    cuzk_engine_config c = base_cfg();
    c.pinned_budget = sa + sc + sc / 2;
    c.synthesis_workers = 2;
    c.gpu_workers_per_device = 2;
    gate_ctx *g = calloc(1, sizeof *g);
    assert_non_null(g);
    assert_int_equal(cuzk_engine_backend_cpu(&g->cpu, 1), CUZK_OK);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->closed = true;
    snprintf(g->key, sizeof g->key, "la");
    static const engine_backend_ops gate_ops = {.name = "gated",
                                                .num_devices = gate_devices,
                                                .device_info = gate_info,
                                                .partition_bytes = gate_bytes,
                                                .prove_start = gate_start,
                                                .prove_finish = gate_finish,
                                                .destroy = gate_destroy};
    engine_backend be = {&gate_ops, g};
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create_with_backend(&e, &c, &be, NULL), CUZK_OK);
    uint8_t *wa, *wb, *wc;
    size_t la, lb, lc;
    assert_int_equal(cuzk_r1cs_wtns_encode(ta.z, cuzk_r1cs_num_vars(ta.cs), &wa, &la), CUZK_OK);
    assert_int_equal(cuzk_r1cs_wtns_encode(tb.z, cuzk_r1cs_num_vars(tb.cs), &wb, &lb), CUZK_OK);
    assert_int_equal(cuzk_r1cs_wtns_encode(tc.z, cuzk_r1cs_num_vars(tc.cs), &wc, &lc), CUZK_OK);

    /* A's key referenced by a job whose prover waits at the gate */
    char ja[CUZK_ENGINE_ID_MAX], jb[CUZK_ENGINE_ID_MAX], jc[CUZK_ENGINE_ID_MAX];
    cuzk_engine_request r = generic_req("la", wa, la);
    submit_ok(e, &r, ja);
    while (tier_of(e, "la", NULL) != CUZK_ENGINE_TIER_HOT) assert_true(still_pending(e, ja)); /* held at the gate */
    assert_int_equal(tier_of(e, "la", NULL), CUZK_ENGINE_TIER_HOT);
    r = generic_req("lb", wb, lb);
    submit_ok(e, &r, jb);
    r = generic_req("lc", wc, lc);
    submit_ok(e, &r, jc);
    cuzk_engine_result res = await_done(e, jc);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&res);
    assert_true(still_pending(e, ja));
    assert_true(still_pending(e, jb));
    assert_int_equal(tier_of(e, "lb", NULL), CUZK_ENGINE_TIER_COLD);

    pthread_mutex_lock(&g->lock);
    g->closed = false;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->lock);
    expect_completed(e, ja, 1);
    expect_completed(e, jb, 1);
    assert_int_equal(tier_of(e, "la", NULL), CUZK_ENGINE_TIER_WARM);
    cuzk_engine_destroy(e);

    /* a key larger than the budget: its job fails with both numbers */
    c.pinned_budget = sc;
    c.synthesis_workers = 1;
    c.gpu_workers_per_device = 1;
    e = start(&c);
    r = generic_req("la", wa, la);
    submit_ok(e, &r, ja);
    res = await_done(e, ja);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error_message, "key budget"));
    cuzk_engine_result_clear(&res);
    cuzk_engine_destroy(e);
    free(wa);
    free(wb);
    free(wc);
    tiny_free(&ta);
    tiny_free(&tb);
    tiny_free(&tc);
}

static void test_shutdown_under_load(void **state)
{
    (void)state;
    for (int drain = 0; drain < 2; drain++) {
        cuzk_engine_config c = base_cfg();
        c.synthesis_workers = 2;
        cuzk_engine *e = start(&c);
        char ids[6][CUZK_ENGINE_ID_MAX];
        for (int i = 0; i < 6; i++) {
            cuzk_engine_request r = engine_test_synth(7, 1, 2, (cuzk_engine_priority)(1 + i % 4));
            submit_ok(e, &r, ids[i]);
        }
        cuzk_engine_shutdown(e, drain ? DRAIN_FOREVER_MS : 0);
        char id[CUZK_ENGINE_ID_MAX];
        cuzk_engine_request r = engine_test_synth(7, 1, 1, CUZK_ENGINE_PRIO_NORMAL);
        assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, NULL), CUZK_ERR_SHUTTING_DOWN);
        int done = 0, cancelled = 0;
        for (int i = 0; i < 6; i++) {
            cuzk_engine_result res;
            assert_int_equal(cuzk_engine_await(e, ids[i], 1, &res), CUZK_OK);
            if (res.status == CUZK_ENGINE_JOB_COMPLETED) done++;
            if (res.status == CUZK_ENGINE_JOB_CANCELLED) {
                assert_non_null(strstr(res.error_message, "shut down"));
                cancelled++;
            }
            cuzk_engine_result_clear(&res);
        }
        assert_int_equal(done + cancelled, 6);
        if (drain) assert_int_equal(done, 6);
        assert_true(metric(e, "cuzk_memory_in_use_bytes") == 0);
        cuzk_engine_destroy(e);
    }
}

/* ---- status, keys, metrics ------------------------------------------------------------------------------------- */
static void test_status_keys_metrics(void **state)
{
    (void)state;
    cuzk_engine_config c = base_cfg();
    cuzk_engine *e = start(&c);
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_engine_request r = engine_test_synth(7, 1, 2, CUZK_ENGINE_PRIO_UNSPECIFIED);
    submit_ok(e, &r, id);
    expect_completed(e, id, 2);

    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.total_proofs_completed, 1);
    assert_int_equal(st.num_gpus, 1);
    assert_int_equal(st.num_queues, 6);
    assert_int_equal(st.num_srs, 1);
    assert_string_equal(st.srs[0].circuit_id, "synthetic-7-1");
    assert_int_equal(st.srs[0].tier, CUZK_ENGINE_TIER_HOT);
    assert_int_equal(st.srs[0].ref_count, 0);
    assert_true(st.srs[0].size_bytes > 0);
    assert_int_equal(st.pinned_memory_bytes, st.srs[0].size_bytes);
    cuzk_engine_status_clear(&st);

    bool was;
    uint64_t freed;
    assert_int_equal(cuzk_engine_evict(e, "synthetic-7-1", &was, &freed), CUZK_OK);
    assert_true(was);
    assert_true(freed > 0);
    assert_int_equal(cuzk_engine_evict(e, "synthetic-7-1", &was, &freed), CUZK_OK);
    assert_false(was);
    assert_int_equal(cuzk_engine_evict(e, "nosuch", &was, &freed), CUZK_ERR_NOT_FOUND);
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.srs[0].tier, CUZK_ENGINE_TIER_COLD);
    assert_int_equal(st.pinned_memory_bytes, 0);
    cuzk_engine_status_clear(&st);

    bool already = true;
    uint64_t ms;
    assert_int_equal(cuzk_engine_preload(e, "synthetic-7-1", &already, &ms, NULL), CUZK_OK);
    assert_false(already);
    assert_int_equal(cuzk_engine_preload(e, "synthetic-7-1", &already, &ms, NULL), CUZK_OK);
    assert_true(already);
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_engine_preload(e, "nosuch", &already, &ms, &err), CUZK_ERR_NOT_FOUND);
    assert_int_equal(cuzk_engine_preload(e, "synthetic-99-1", &already, &ms, &err), CUZK_ERR_INVALID_ARG);

    char *t = cuzk_engine_metrics_text(e);
    assert_non_null(t);
    assert_non_null(strstr(t, "# TYPE cuzk_stage_seconds histogram\n"));
    assert_non_null(strstr(t, "# HELP cuzk_jobs_total "));
    assert_non_null(strstr(t, "cuzk_jobs_total{kind=\"synthetic\",outcome=\"completed\"} 1\n"));
    assert_non_null(strstr(t, "cuzk_stage_seconds_count{stage=\"verify\"} 2\n"));
    assert_non_null(strstr(t, "cuzk_stage_seconds_count{stage=\"msm\"} 2\n"));
    assert_non_null(strstr(t, "cuzk_stage_seconds_count{stage=\"queue\"} 1\n"));
    assert_non_null(strstr(t, "cuzk_stage_seconds_bucket{stage=\"synthesis\",le=\"+Inf\"} 2\n"));
    assert_non_null(strstr(t, "cuzk_jobs_queued{priority=\"critical\"} 0\n"));
    /* the provers' work adds up over partitions: two partitions of a 2^k domain are 2·2^k transform points and
     * 2·(2^k − 1) H points; the synthetic witness is random, so L, A and B have whole scalars */
    const char *w = strstr(t, "\ncuzk_prover_ntt_points_total ");
    assert_non_null(w);
    unsigned long long ntt = strtoull(w + strlen("\ncuzk_prover_ntt_points_total "), NULL, 10);
    assert_true(ntt >= 2 * 128 && ntt % 2 == 0 && ((ntt / 2) & (ntt / 2 - 1)) == 0);
    static const char *const msms[4] = {"h", "l", "a", "b"};
    for (int m = 0; m < 4; m++) {
        char key[80];
        snprintf(key, sizeof key, "\ncuzk_prover_msm_points_total{msm=\"%s\"} ", msms[m]);
        const char *at = strstr(t, key);
        assert_non_null(at);
        unsigned long long pts = strtoull(at + strlen(key), NULL, 10);
        if (m == 0) assert_int_equal(pts, ntt - 2);
        else assert_true(pts > 0);
    }
    free(t);
    cuzk_engine_destroy(e);
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk-engine-test-XXXXXX");
    return mkdtemp(g_dir) == NULL ? -1 : 0;
}

static int group_teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic_jobs),
        cmocka_unit_test(test_generic_jobs),
        cmocka_unit_test(test_priority_order),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_idempotency_and_timeout),
        cmocka_unit_test(test_memory_budget),
        cmocka_unit_test(test_memory_densities),
        cmocka_unit_test(test_memory_model),
        cmocka_unit_test(test_backend_failures),
        cmocka_unit_test(test_shutdown_under_load),
        cmocka_unit_test(test_status_keys_metrics),
        cmocka_unit_test(test_generic_over_budget_at_submit),
        cmocka_unit_test(test_key_tiers),
        cmocka_unit_test(test_loads_not_blocked),
        cmocka_unit_test(test_latency_mode_needs_gpus),
    };
    int failed = cmocka_run_group_tests(tests, group_setup, group_teardown);
    return failed + run_device_tests() + run_curio_tests() + run_fil_tests();
}
