/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What Curio relies on from the engine: the request id is the job id (AwaitProof and CancelProof find it), a FAILED or
 * CANCELLED job's id runs again when resubmitted while a queued, running or completed one attaches, generated ids
 * never collide with a caller's; Curio's proof-kind names in status, its metrics (names, types, labels), the /status
 * document; SRS ids (porep-2k, ...) naming the v28 parameter files. A running job is held there by a gate in the
 * prover (a CPU backend whose prove_start waits for the test), so nothing depends on the machine's speed. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>
#endif

#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "engine_internal.h"
#include "engine_test.h"
#include "testutil.h"

static char c_dir[256];

/* ---- a CPU backend with a gate before each partition's proof ----------------------------------------------------- */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static bool gate_open = true;
static const engine_backend_ops *gate_real;
static engine_backend_ops gate_ops;

static cuzk_status gate_start(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err)
{
    pthread_mutex_lock(&gate_lock);
    while (!gate_open) pthread_cond_wait(&gate_cv, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
    return gate_real->prove_start(ctx, device, w, err);
}

static void gate_set(bool open)
{
    pthread_mutex_lock(&gate_lock);
    gate_open = open;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_lock);
}

/* the events the engine reports, counted */
static unsigned ev_count[3], ev_retries;

static void count_event(void *ctx, const cuzk_engine_event *ev)
{
    (void)ctx;
    ev_count[ev->kind]++;
    if (ev->kind == CUZK_ENGINE_EVENT_ACCEPTED && ev->retry) ev_retries++;
}

/* manifest: a parameter manifest override (NULL: none) */
static cuzk_engine *gated_engine_with(const char *manifest)
{
    cuzk_engine_config c = engine_test_cfg(c_dir);
    c.param_manifest = manifest;
    c.on_event = count_event;
    engine_backend be;
    assert_int_equal(cuzk_engine_backend_cpu(&be, 1), CUZK_OK);
    gate_real = be.ops;
    gate_ops = *be.ops;
    gate_ops.prove_start = gate_start;
    be.ops = &gate_ops;
    memset(ev_count, 0, sizeof ev_count);
    ev_retries = 0;
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create_with_backend(&e, &c, &be, NULL), CUZK_OK);
    return e;
}

static cuzk_engine *gated_engine(void) { return gated_engine_with(NULL); }

static void submit(cuzk_engine *e, const cuzk_engine_request *r, char id[CUZK_ENGINE_ID_MAX], bool want_attached)
{
    bool attached = !want_attached;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_engine_submit(e, r, id, NULL, &attached, &err);
    if (s != CUZK_OK) fprintf(stderr, "submit: %s (%s)\n", cuzk_status_str(s), err.msg);
    assert_int_equal(s, CUZK_OK);
    assert_int_equal(attached, want_attached);
}

static cuzk_engine_job_status await_status(cuzk_engine *e, const char *id)
{
    cuzk_engine_result r;
    assert_int_equal(cuzk_engine_await(e, id, 0, &r), CUZK_OK);
    cuzk_engine_job_status st = r.status;
    cuzk_engine_result_clear(&r);
    return st;
}

/* Waits until a prover works on job id (its partition is then at the closed gate). */
static void wait_at_gate(cuzk_engine *e, const char *id)
{
    for (;;) {
        cuzk_engine_status_report st;
        assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
        bool there = strcmp(st.gpus[0].current_job_id, id) == 0;
        cuzk_engine_status_clear(&st);
        if (there) return;
        cuzk_engine_result r;
        assert_int_equal(cuzk_engine_await(e, id, 1, &r), CUZK_OK); /* the wait itself: 1 ms */
        cuzk_engine_result_clear(&r);
    }
}

static cuzk_engine_request filecoin_req(const char *request_id)
{
    cuzk_engine_request r;
    memset(&r, 0, sizeof r);
    r.proof_kind = CUZK_ENGINE_KIND_POREP_SEAL_COMMIT;
    snprintf(r.request_id, sizeof r.request_id, "%s", request_id);
    return r;
}

/* ---- ids --------------------------------------------------------------------------------------------------------- */
static void test_request_id_is_job_id(void **state)
{
    (void)state;
    cuzk_engine *e = gated_engine();
    char id[CUZK_ENGINE_ID_MAX], id2[CUZK_ENGINE_ID_MAX];
    cuzk_engine_request r = engine_test_synth(7, 1, 1, CUZK_ENGINE_PRIO_NORMAL);
    snprintf(r.request_id, sizeof r.request_id, "porep-1000-7");
    submit(e, &r, id, false);
    assert_string_equal(id, "porep-1000-7");
    /* AwaitProof by the caller's id */
    assert_int_equal(await_status(e, "porep-1000-7"), CUZK_ENGINE_JOB_COMPLETED);
    /* a duplicate of a completed job attaches: same id, the kept proof, no second job */
    submit(e, &r, id2, true);
    assert_string_equal(id2, "porep-1000-7");
    assert_int_equal(ev_count[CUZK_ENGINE_EVENT_ACCEPTED], 1);

    /* Curio's WindowPoSt ids carry spaces and brackets (a byte slice through %d): any id under 128 bytes is one */
    snprintf(r.request_id, sizeof r.request_id, "wdpost-1000-0-[1 2 3 4 5 6 7 8]");
    submit(e, &r, id, false);
    assert_string_equal(id, "wdpost-1000-0-[1 2 3 4 5 6 7 8]");
    assert_int_equal(await_status(e, id), CUZK_ENGINE_JOB_COMPLETED);

    /* without a request id: job-N, never one a caller took */
    r.request_id[0] = 0;
    submit(e, &r, id, false);
    assert_string_equal(id, "job-1");
    snprintf(r.request_id, sizeof r.request_id, "job-2");
    submit(e, &r, id, false);
    assert_string_equal(id, "job-2");
    r.request_id[0] = 0;
    submit(e, &r, id, false);
    assert_string_equal(id, "job-3");
    assert_int_equal(await_status(e, "job-1"), CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(await_status(e, "job-2"), CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(await_status(e, "job-3"), CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_destroy(e);
}

static void test_retry_failed_and_cancelled(void **state)
{
    (void)state;
    cuzk_engine *e = gated_engine();
    char id[CUZK_ENGINE_ID_MAX];

    /* a FAILED job's id runs again: a new job, not the kept failure */
    cuzk_engine_request f = filecoin_req("porep-1000-8");
    submit(e, &f, id, false);
    assert_int_equal(await_status(e, "porep-1000-8"), CUZK_ENGINE_JOB_FAILED);
    submit(e, &f, id, false);
    assert_string_equal(id, "porep-1000-8");
    assert_int_equal(await_status(e, "porep-1000-8"), CUZK_ENGINE_JOB_FAILED);
    assert_int_equal(ev_count[CUZK_ENGINE_EVENT_ACCEPTED], 2);
    assert_int_equal(ev_retries, 1);

    /* a running job: duplicates attach; cancelled, its id runs again and completes */
    gate_set(false);
    cuzk_engine_request r = engine_test_synth(7, 2, 2, CUZK_ENGINE_PRIO_NORMAL);
    snprintf(r.request_id, sizeof r.request_id, "snap-1000-9");
    submit(e, &r, id, false);
    wait_at_gate(e, "snap-1000-9");
    submit(e, &r, id, true);
    bool was_running = false;
    assert_int_equal(cuzk_engine_cancel(e, "snap-1000-9", &was_running), CUZK_OK);
    assert_true(was_running);
    assert_int_equal(await_status(e, "snap-1000-9"), CUZK_ENGINE_JOB_CANCELLED);
    submit(e, &r, id, false);
    assert_string_equal(id, "snap-1000-9");
    gate_set(true); /* the cancelled job's partition drops out; the new job's proofs go through */
    assert_int_equal(await_status(e, "snap-1000-9"), CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(ev_retries, 2);
    /* and now it attaches again */
    submit(e, &r, id, true);

    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.total_proofs_completed, 1);
    assert_int_equal(st.total_proofs_failed, 2);
    cuzk_engine_status_clear(&st);
    cuzk_engine_destroy(e);
}

/* ---- names, metrics, /status ------------------------------------------------------------------------------------- */
static bool has(const char *text, const char *want)
{
    if (strstr(text, want) != NULL) return true;
    fprintf(stderr, "missing: %s\n", want);
    return false;
}

static void test_names_metrics_status(void **state)
{
    (void)state;
    cuzk_engine *e = gated_engine();
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_engine_request f = filecoin_req("porep-1000-10");
    submit(e, &f, id, false);
    assert_int_equal(await_status(e, id), CUZK_ENGINE_JOB_FAILED);

    gate_set(false);
    cuzk_engine_request r = engine_test_synth(7, 3, 2, CUZK_ENGINE_PRIO_NORMAL);
    snprintf(r.request_id, sizeof r.request_id, "synthetic \"quoted\"");
    submit(e, &r, id, false);
    wait_at_gate(e, id);

    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    static const char *const names[] = {"porep-c2",     "snap-update", "window-post",
                                        "winning-post", "generic",     "synthetic"};
    assert_int_equal(st.num_queues, 6);
    for (size_t i = 0; i < 6; i++) assert_string_equal(st.queues[i].proof_kind, names[i]);
    assert_int_equal(st.queues[5].in_progress, 1);
    assert_string_equal(st.gpus[0].current_proof_kind, "synthetic");
    cuzk_engine_status_clear(&st);

    /* the /status document while the first partition is at the prover */
    char *j = cuzk_engine_status_json(e);
    assert_non_null(j);
    assert_true(has(j, "{\"uptime_secs\":"));
    assert_true(has(j, "\"pipelines\":[{\"job_id\":\"synthetic \\\"quoted\\\"\",\"proof_kind\":\"synthetic\","));
    assert_true(has(j, "\"total_partitions\":2,\"partitions_done\":0,\"partitions\":[{\"index\":0,\"state\":\"gpu\","));
    assert_true(has(j, "{\"index\":1,\"state\":\"")); /* pending, synthesizing or synth_done by now */
    assert_true(has(j, "\"gpu_workers\":[{\"worker_id\":0,\"gpu_ordinal\":0,\"state\":\"proving\",\"current_job\":"
                       "\"synthetic \\\"quoted\\\"\",\"current_partition\":0,\"busy_secs\":"));
    assert_true(has(j, "\"counters\":{\"total_completed\":0,\"total_failed\":1,\"completed_by_kind\":{},"
                       "\"failed_by_kind\":{\"porep-c2\":1},\"queue_depth\":0}"));
    assert_true(has(j, "\"buffers\":{\"synth_in_flight\":"));
#ifdef CUZK_HAVE_JANSSON
    json_error_t jerr;
    json_t *doc = json_loads(j, 0, &jerr);
    if (doc == NULL) fprintf(stderr, "status JSON: %s at %d: %s\n", jerr.text, jerr.position, j);
    assert_non_null(doc);
    static const char *const keys[] = {"uptime_secs", "memory",      "synthesis", "pipelines",
                                       "gpu_workers", "allocations", "counters",  "buffers"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) assert_non_null(json_object_get(doc, keys[i]));
    json_t *srs = json_object_get(json_object_get(doc, "allocations"), "srs");
    assert_int_equal(json_array_size(srs), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(srs, 0), "circuit_id")), "synthetic-7-3");
    assert_true(json_is_false(json_object_get(json_array_get(srs, 0), "evictable"))); /* the job holds it */
    json_decref(doc);
#endif
    free(j);

    char *m = cuzk_engine_metrics_text(e);
    assert_non_null(m);
    assert_true(has(m, "# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs 1\n"));
    assert_true(has(m, "# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers 1\n"));
    free(m);
    gate_set(true);
    assert_int_equal(await_status(e, id), CUZK_ENGINE_JOB_COMPLETED);

    /* Curio's metrics, by its names, types and labels */
    m = cuzk_engine_metrics_text(e);
    assert_non_null(m);
    assert_true(has(m, "# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total 1\n"));
    assert_true(has(m, "# TYPE cuzk_proofs_failed_total counter\ncuzk_proofs_failed_total 1\n"));
    assert_true(has(m, "# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds "));
    assert_true(has(m, "# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth 0\n"));
    assert_true(has(m, "# TYPE cuzk_proofs_completed counter\n"));
    assert_true(has(m, "cuzk_proofs_completed{proof_kind=\"synthetic\"} 1\n"));
    assert_true(has(m, "cuzk_proofs_completed{proof_kind=\"porep_c2\"} 0\n"));
    assert_true(has(m, "# TYPE cuzk_proofs_failed counter\n"));
    assert_true(has(m, "cuzk_proofs_failed{proof_kind=\"porep_c2\"} 1\n"));
    assert_true(has(m, "# TYPE cuzk_proof_duration_seconds summary\n"));
    assert_true(has(m, "cuzk_proof_duration_seconds_count{proof_kind=\"synthetic\"} 1\n"));
    assert_true(has(m, "cuzk_proof_duration_seconds_sum{proof_kind=\"synthetic\"} "));
    assert_true(has(m, "cuzk_running_jobs 0\n"));
    assert_true(has(m, "cuzk_jobs_total{kind=\"porep_c2\",outcome=\"failed\"} 1\n"));
    /* every family once */
    assert_true(strstr(strstr(m, "# TYPE cuzk_uptime_seconds") + 1, "# TYPE cuzk_uptime_seconds") == NULL);
    free(m);

    assert_int_equal(ev_count[CUZK_ENGINE_EVENT_ACCEPTED], 2);
    assert_int_equal(ev_count[CUZK_ENGINE_EVENT_STARTED], 1); /* the Filecoin job never started */
    assert_int_equal(ev_count[CUZK_ENGINE_EVENT_ENDED], 2);
    cuzk_engine_destroy(e);
}

/* ---- SRS ids ----------------------------------------------------------------------------------------------------- */
static void test_srs_ids(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = cuzk_fil_proof_by_srs_id("porep-2k");
    assert_non_null(p);
    char name[400];
    assert_int_equal(cuzk_fil_proof_param_name(p, false, name, sizeof name, NULL), CUZK_OK);
    assert_true(strncmp(name, "v28-stacked-proof-of-replication-", 33) == 0);

    /* a bellperson .params under winning-2k's v28 name that is a key of another circuit (a synthetic one) */
    p = cuzk_fil_proof_by_srs_id("winning-2k");
    assert_non_null(p);
    assert_int_equal(cuzk_fil_proof_param_name(p, false, name, sizeof name, NULL), CUZK_OK);
    cuzk_r1cs_t *cs = NULL;
    cuzk_fr_t *z = NULL;
    cuzk_groth16_pk pk;
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    assert_int_equal(cuzk_circuits_synthetic(6, 5, 1, &cs, &z, NULL), CUZK_OK);
    assert_int_equal(cuzk_groth16_setup(&pk, cs, &o, NULL), CUZK_OK);
    char path[800];
    snprintf(path, sizeof path, "%s/%s", c_dir, name);
    assert_int_equal(cuzk_groth16_params_write(&pk, path, NULL), CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_free(cs);
    free(z);

    /* a test key's digest is not the published file's: a manifest override lists it */
    char digest[33], manifest[800];
    uint64_t bytes;
    assert_int_equal(cuzk_fil_file_digest(path, digest, &bytes, NULL), CUZK_OK);
    snprintf(manifest, sizeof manifest, "%s/manifest.json", c_dir);
    FILE *mf = fopen(manifest, "w");
    assert_non_null(mf);
    fprintf(mf, "{\"%s\": {\"cid\": \"\", \"digest\": \"%s\", \"sector_size\": 2048}}\n", name, digest);
    fclose(mf);
    cuzk_engine *e = gated_engine_with(manifest);
    bool already = true;
    uint64_t ms;
    cuzk_errmsg err = {{0}};
    /* its digest passes, its shape does not: refused, naming the circuit, nothing kept */
    assert_int_not_equal(cuzk_engine_preload(e, "winning-2k", &already, &ms, &err), CUZK_OK);
    assert_non_null(strstr(err.msg, "cannot load circuit winning-2k"));
    assert_non_null(strstr(err.msg, "is not a key of StackedDrgWinning2KiBV1's circuit"));
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.num_srs, 1);
    assert_string_equal(st.srs[0].circuit_id, "winning-2k");
    assert_int_equal(st.srs[0].tier, CUZK_ENGINE_TIER_COLD);
    cuzk_engine_status_clear(&st);

    /* Curio's other ids: known, their files missing here; the message names the file */
    assert_int_equal(cuzk_engine_preload(e, "wpost-32g", &already, &ms, &err), CUZK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.msg, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"));
    assert_int_equal(cuzk_engine_preload(e, "snap-32g", &already, &ms, &err), CUZK_ERR_NOT_FOUND);
    assert_non_null(strstr(err.msg, "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"));
    /* a file that is not a key: refused by its digest before anything is built, nothing kept */
    p = cuzk_fil_proof_by_srs_id("porep-2k");
    assert_int_equal(cuzk_fil_proof_param_name(p, false, name, sizeof name, NULL), CUZK_OK);
    snprintf(path, sizeof path, "%s/%s", c_dir, name);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs("not a key", fp);
    fclose(fp);
    assert_int_not_equal(cuzk_engine_preload(e, "porep-2k", &already, &ms, &err), CUZK_OK);
    /* (the file's long name leaves the two digests past the end of a preload's message) */
    assert_non_null(strstr(err.msg, "cannot load circuit porep-2k: checksum does not match the contents: "
                                    "v28-stacked-proof-of-replication-"));

    /* an SRS id is not a registered circuit a GENERIC job could name */
    cuzk_engine_request r;
    memset(&r, 0, sizeof r);
    r.proof_kind = CUZK_ENGINE_KIND_GENERIC_CIRCUIT;
    snprintf(r.circuit_id, sizeof r.circuit_id, "porep-2k");
    snprintf(r.witness_path, sizeof r.witness_path, "%s", path);
    char id[CUZK_ENGINE_ID_MAX];
    assert_int_equal(cuzk_engine_submit(e, &r, id, NULL, NULL, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "porep-2k is an SRS id"));
    cuzk_engine_destroy(e);
}

int run_curio_tests(void)
{
    snprintf(c_dir, sizeof c_dir, "/tmp/cuzk-engine-curio-XXXXXX");
    if (mkdtemp(c_dir) == NULL) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request_id_is_job_id),
        cmocka_unit_test(test_retry_failed_and_cancelled),
        cmocka_unit_test(test_names_metrics_status),
        cmocka_unit_test(test_srs_ids),
    };
    int failed = cmocka_run_group_tests_name("engine_curio", tests, NULL, NULL);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", c_dir);
    if (system(cmd) != 0) failed++;
    return failed;
}
