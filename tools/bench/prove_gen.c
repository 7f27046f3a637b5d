/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench prove`: one Groth16 proof on synthetic PoRep-shaped circuits (cuzk_circuits_synthetic) of growing size,
 *   prove            the whole proof, best of two                              (ms)
 *   prove_<phase>    its phases: spmv, ntt_h, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly (ms)
 *   prove_peak_rss   the process's peak resident memory after proving          (MB)
 *
 * Keys take far longer to make than proofs at these sizes, so each one is made once, in a child process (so that
 * its memory does not count in the peak), and kept under $XDG_CACHE_HOME/cuzk-bench (default ~/.cache/cuzk-bench)
 * together with the circuit's .pce, in files named by size, seed and the circuit's identity: a changed generator
 * gives new names instead of a stale key. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/circuits.h"

#define GEN_SEED 1

/* Makes the key in a child process and writes params and pce through temporary names, so that an interrupted run
 * never leaves a partial file under the final name. */
static bool make_key(const cuzk_r1cs_t *r, unsigned threads, const char *params, const char *pce)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        cuzk_groth16_setup_opts so;
        memset(&so, 0, sizeof so);
        so.threads = threads;
        so.conv = CUZK_GROTH16_BELLPERSON;
        cuzk_groth16_pk pk;
        cuzk_errmsg err = {{0}};
        char tp[4200], tc[4200];
        snprintf(tp, sizeof tp, "%s.tmp", params);
        snprintf(tc, sizeof tc, "%s.tmp", pce);
        cuzk_status s = cuzk_groth16_setup(&pk, r, &so, &err);
        if (s == CUZK_OK) s = cuzk_groth16_params_write(&pk, tp, &err);
        if (s == CUZK_OK) s = cuzk_r1cs_pce_write(r, tc, &err);
        if (s == CUZK_OK && (rename(tc, pce) != 0 || rename(tp, params) != 0)) s = CUZK_ERR_IO;
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: key for %s: %s (%s)\n", params, cuzk_status_str(s), err.msg);
            unlink(tp);
            unlink(tc);
        }
        _exit(s == CUZK_OK ? 0 : 1);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static bool load_key(cuzk_groth16_pk *pk, const cuzk_r1cs_t *r, const char *params, unsigned threads)
{
    if (access(params, R_OK) != 0) return false;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_groth16_params_load(pk, params, 0, threads, &err);
    if (s == CUZK_OK && (s = cuzk_groth16_pk_check_circuit(pk, r, &err)) != CUZK_OK) cuzk_groth16_pk_free(pk);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: cached key %s unusable (%s: %s), making it again\n", params, cuzk_status_str(s),
                err.msg);
        unlink(params);
        return false;
    }
    return true;
}

void bench_prove_gen(const bench_opts *o)
{
    static const unsigned sizes[] = {16, 18, 20, 22, 24, 26, 27};
    char dir[3800];
    if (!bench_cache_dir(dir, sizeof dir)) {
        fprintf(stderr, "cuzk-bench: no cache directory (set HOME or XDG_CACHE_HOME)\n");
        return;
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = o->threads > 0 ? (unsigned)o->threads : ncpu > 0 ? (unsigned)ncpu : 1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        unsigned k = sizes[i];
        if ((int)k > bench_max_log2(o, 20)) break;
        cuzk_r1cs_t *r;
        cuzk_fr_t *z;
        cuzk_errmsg err = {{0}};
        cuzk_status s = cuzk_circuits_synthetic(k, GEN_SEED, threads, &r, &z, &err);
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: 2^%u circuit: %s (%s)\n", k, cuzk_status_str(s), err.msg);
            return;
        }
        char id[17], params[4096], pce[4096];
        for (int b = 0; b < 8; b++) snprintf(id + 2 * b, 3, "%02x", r->identity[b]);
        snprintf(params, sizeof params, "%s/gen-%u-%d-%s.params", dir, k, GEN_SEED, id);
        snprintf(pce, sizeof pce, "%s/gen-%u-%d-%s.pce", dir, k, GEN_SEED, id);
        cuzk_groth16_pk pk;
        bool ok = load_key(&pk, r, params, threads);
        if (!ok) {
            fprintf(stderr, "cuzk-bench: making the 2^%u key once (cached as %s)\n", k, params);
            double t0 = (double)cuzk_now_ns();
            ok = make_key(r, threads, params, pce) && load_key(&pk, r, params, threads);
            if (ok) fprintf(stderr, "cuzk-bench: key made in %.1f s\n", ((double)cuzk_now_ns() - t0) / 1e9);
        }
        if (ok) {
            bench_groth16_prove(o, "prove", r, &pk, z, r->num_constraints);
            struct rusage ru;
            getrusage(RUSAGE_SELF, &ru);
            bench_report("prove_peak_rss", r->num_constraints, (int)threads, (double)ru.ru_maxrss / 1024.0, "MB");
            cuzk_groth16_pk_free(&pk);
        }
        cuzk_r1cs_free(r);
        free(z);
        if (!ok) return;
    }
}
