/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk ptau: a snarkjs powers-of-tau file, prepared for phase 2, from toxic waste drawn here (test fixtures). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char ptau_help[] =
    "usage: cuzk ptau --power P --out FILE.ptau [--seed N] [--threads N]\n"
    "\n"
    "Writes a BLS12-381 powers-of-tau file in snarkjs's binary layout, already prepared for phase 2 (what\n"
    "`snarkjs powersoftau prepare phase2` writes): `snarkjs groth16 setup` takes it for any circuit whose domain\n"
    "is at most 2^P (constraints + public signals < 2^P). tau, alpha and beta are random, or with --seed derived\n"
    "from N (reproducible fixtures). This is not a ceremony: whoever knows the seed can forge proofs for every key\n"
    "made from the file. The file records no contributions.\n"
    "\n"
    "  --power P       1 .. 28; the file holds 2^(P+1) - 1 powers in G1 and about 15 * 2^P points in all\n"
    "                  (power 15: 57 MB, power 16: 113 MB)\n"
    "  --out FILE      the .ptau to write\n"
    "  --seed N        derive tau, alpha, beta from N\n"
    "  --threads N     worker threads (default: online CPUs)\n";

int cmd_ptau(int argc, char **argv)
{
    static const char *const known[] = {"power", "out", "seed", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "ptau", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(ptau_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("ptau", "unexpected argument '%s'", a.pos[0]);
    const char *out = cli_need(&a, "out");
    if (cli_need(&a, "power") == NULL || out == NULL) return CLI_ERROR;
    uint64_t power = 0, seed = 0;
    cuzk_groth16_ptau_opts po;
    memset(&po, 0, sizeof po);
    if (!cli_opt_u64(&a, "power", 1, CUZK_PTAU_MAX_POWER, &power) || !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed) ||
        !cli_threads(&a, &po.threads))
        return CLI_ERROR;
    if (cli_opt(&a, "seed") != NULL) {
        cuzk_groth16_setup_opts so;
        memset(&so, 0, sizeof so);
        cli_toxic_from_seed(&so, seed);
        po.given_toxic = true;
        po.tau = so.tau;
        po.alpha = so.alpha;
        po.beta = so.beta;
    }
    cuzk_errmsg err = {{0}};
    double t0 = cuzk_now();
    cuzk_status s = cuzk_groth16_ptau_write(out, (unsigned)power, &po, &err);
    if (s != CUZK_OK) return cli_fail("ptau", out, s, &err);
    double dt = cuzk_now() - t0;
    struct stat st;
    long long bytes = stat(out, &st) == 0 ? (long long)st.st_size : -1;
    printf("{\"power\": %llu, \"bytes\": %lld, \"seconds\": %.3f}\n", (unsigned long long)power, bytes, dt);
    return CLI_OK;
}
