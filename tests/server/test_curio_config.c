/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Curio's example configuration runs a daemon: cuzk-daemon reads fixtures/curio-cuzk.toml (the keys and values of
 * Curio's cuzk.example.toml) as it is, warns once for each of its keys that do not apply, honours the rest, and
 * serves. The machine-specific parts (a TCP port, /data/zk/params) are moved by flags, as an operator would; the
 * calls go through the cuzk_client library. usage: test_curio_config CUZK_DAEMON FIXTURE */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuzk_client.h"

static const char *g_daemon, *g_fixture;
static char g_tmp[256];

/* Runs argv with stdout and stderr into files under g_tmp; its exit status. */
static int run_capture(char *const argv[], const char *out, const char *err)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (freopen(out, "w", stdout) == NULL || freopen(err, "w", stderr) == NULL) _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle)) n++;
    return n;
}

/* --check-config on the file as it is: exit 0, Curio's values in place, one warning per key that does not apply. */
static void test_check_config(void **state)
{
    (void)state;
    char out[300], err[300];
    snprintf(out, sizeof out, "%s/check.out", g_tmp);
    snprintf(err, sizeof err, "%s/check.err", g_tmp);
    char *argv[] = {(char *)g_daemon, "-c", (char *)g_fixture, "--check-config", NULL};
    assert_int_equal(run_capture(argv, out, err), 0);
    const char *o = slurp(out);
    assert_non_null(strstr(o, "listen = [\"0.0.0.0:9820\"]  # file, line"));
    assert_non_null(strstr(o, "param_cache = \"/data/zk/params\"  # file, line"));
    assert_non_null(strstr(o, "total_budget = \"auto\"  # file, line"));
    assert_non_null(strstr(o, "safety_margin = \"5GiB\"  # file, line"));
    assert_non_null(strstr(o, "gpu_workers_per_device = 2  # file, line"));
    assert_non_null(strstr(o, "level = \"info\"  # file, line"));
    const char *e = slurp(err);
    /* eviction_min_idle, gpu_threads, max_batch_size, max_batch_wait_ms, sort_by_type, enabled,
     * synthesis_lookahead, synthesis_concurrency */
    assert_int_equal(count(e, "does not apply to cuzk"), 8);
    assert_non_null(strstr(e, "[gpus] gpu_threads = 32 does not apply to cuzk"));
    assert_int_equal(count(e, "error"), 0);
}

/* The daemon serves with the file: GetStatus answers, a synthetic proof completes, SIGTERM ends it with status 0. */
static void test_running_daemon(void **state)
{
    (void)state;
    char sock[300], listen[320], params[300], set[340], log[300];
    snprintf(sock, sizeof sock, "%s/cuzk.sock", g_tmp);
    snprintf(listen, sizeof listen, "unix://%s", sock);
    snprintf(params, sizeof params, "%s/zk/params", g_tmp); /* missing: the daemon makes it */
    snprintf(set, sizeof set, "srs.param_cache=%s", params);
    snprintf(log, sizeof log, "%s/daemon.log", g_tmp);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (freopen(log, "w", stderr) == NULL) _exit(127);
        execl(g_daemon, g_daemon, "-c", g_fixture, "-l", listen, "--set", set, (char *)NULL);
        _exit(127);
    }
    grpc_init();
    cuzk_client c;
    assert_int_equal(cuzk_client_open(&c, listen), 0);
    char detail[256];
    grpc_status_code st = GRPC_STATUS_UNAVAILABLE;
    /* until it answers, however long a loaded machine takes (CTest's timeout guards a hang); the daemon exiting
     * ends the wait at once */
    while (st != GRPC_STATUS_OK) {
        int ws;
        if (waitpid(pid, &ws, WNOHANG) == pid) fail_msg("the daemon exited:\n%s", slurp(log));
        Cuzk__V1__GetStatusResponse *s = NULL;
        if (access(sock, F_OK) == 0) st = cuzk_client_status(&c, 2000, &s, detail, sizeof detail);
        if (s != NULL) protobuf_c_message_free_unpacked(&s->base, NULL);
        if (st != GRPC_STATUS_OK) nanosleep(&(struct timespec){0, 100000000}, NULL);
    }
    assert_int_equal(st, GRPC_STATUS_OK);
    struct stat ps;
    assert_int_equal(stat(params, &ps), 0);
    assert_true(S_ISDIR(ps.st_mode));

    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    sub.proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC;
    sub.synthetic_log2 = 8;
    sub.seed = 1;
    sub.partitions = 1;
    Cuzk__V1__ProveResponse *r = NULL;
    st = cuzk_client_prove(&c, &sub, 0, &r, detail, sizeof detail);
    assert_int_equal(st, GRPC_STATUS_OK);
    assert_non_null(r->result);
    if (r->result->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
        fail_msg("proof: %s", r->result->error_message);
    assert_int_equal(r->result->proof.len, 192);
    protobuf_c_message_free_unpacked(&r->base, NULL);
    cuzk_client_close(&c);
    grpc_shutdown();

    assert_int_equal(kill(pid, SIGTERM), 0);
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFEXITED(ws));
    assert_int_equal(WEXITSTATUS(ws), 0);
    const char *l = slurp(log);
    assert_int_equal(count(l, "does not apply to cuzk"), 8);
    assert_non_null(strstr(l, "cuzk-daemon ready"));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_curio_config CUZK_DAEMON FIXTURE\n");
        return 2;
    }
    g_daemon = argv[1];
    g_fixture = argv[2];
    snprintf(g_tmp, sizeof g_tmp, "/tmp/cuzk-test-curio-XXXXXX");
    if (mkdtemp(g_tmp) == NULL) return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_config),
        cmocka_unit_test(test_running_daemon),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (failed == 0 && system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_tmp);
    return failed;
}
