/* cuzk demo: the project's main job on an embedded default. A synthetic PoRep-shaped circuit is generated in
 * memory, given a test key, proved and verified; each step's time goes to stdout and a final JSON line sums up.
 * Exit status 0 only when the proof verifies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* 2^16 keeps the whole job (setup dominates) well under a minute on two cores */
#define DEMO_LOG2 16

static const char demo_help[] =
    "usage: cuzk demo [--log2 K] [--seed N] [--threads N]\n"
    "\n"
    "Generates a synthetic PoRep-shaped circuit of 2^K constraints (default K = 16) with its witness, makes a\n"
    "random test key, proves and verifies, printing each step's time and a final JSON line. Exit status 0 only\n"
    "when the proof verifies.\n";

int cmd_demo(int argc, char **argv)
{
    static const char *const known[] = {"log2", "seed", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "demo", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(demo_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("demo", "unexpected argument '%s'", a.pos[0]);
    uint64_t log2n = DEMO_LOG2, seed = 1;
    unsigned threads;
    if (!cli_opt_u64(&a, "log2", CIRCUITS_LOG2_MIN, 28, &log2n) || !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed) ||
        !cli_threads(&a, &threads))
        return CLI_ERROR;

    cuzk_errmsg err = {{0}};
    r1cs_t *r;
    fr_t *z;
    double t0 = cli_now();
    cuzk_status s = circuits_synthetic((unsigned)log2n, seed, threads, &r, &z, &err);
    if (s != CUZK_OK) return cli_fail("demo", "gen", s, &err);
    double t_gen = cli_now() - t0;
    printf("gen     2^%llu: %llu constraints, %u inputs, %u aux  %8.3f s\n", (unsigned long long)log2n,
           (unsigned long long)r->num_constraints, r->num_inputs, r->num_aux, t_gen);
    fflush(stdout);

    groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    so.conv = GROTH16_BELLPERSON;
    groth16_pk pk;
    t0 = cli_now();
    s = groth16_setup(&pk, r, &so, &err);
    if (s != CUZK_OK) {
        r1cs_free(r);
        free(z);
        return cli_fail("demo", "setup", s, &err);
    }
    double t_setup = cli_now() - t0;
    printf("setup   test key                                %8.3f s\n", t_setup);
    fflush(stdout);

    groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.threads = threads;
    po.c_mode = R1CS_C_PRODUCT;
    groth16_prove_stats st;
    groth16_proof_t proof;
    t0 = cli_now();
    s = groth16_prove(&proof, &pk, r, z, &po, &st, &err);
    double t_prove = cli_now() - t0;
    int rc = CLI_OK;
    bool valid = false;
    double t_verify = 0;
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "prove", s, &err);
    } else {
        printf("prove   spmv %.3f, ntt/h %.3f, msm h %.3f l %.3f a %.3f b1 %.3f b2 %.3f  %8.3f s\n", st.spmv, st.ntt_h,
               st.msm_h, st.msm_l, st.msm_a, st.msm_b1, st.msm_b2, t_prove);
        /* through the wire encoding, as a verifier elsewhere would receive it */
        uint8_t bytes[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(bytes, &proof);
        groth16_proof_t received;
        t0 = cli_now();
        s = groth16_proof_from_bytes(&received, bytes, sizeof bytes);
        if (s == CUZK_OK) {
            groth16_pvk pvk;
            groth16_prepare_vk(&pvk, &pk.vk);
            s = groth16_verify(&pvk, &received, z + 1, r->num_inputs - 1);
        }
        t_verify = cli_now() - t0;
        valid = s == CUZK_OK;
        printf("verify  %-38s %8.3f s\n", valid ? "valid" : "INVALID", t_verify);
        if (!valid) rc = s == CUZK_ERR_PROOF_INVALID ? CLI_INVALID : cli_fail("demo", "verify", s, NULL);
    }
    printf("{\"name\": \"demo\", \"log2\": %llu, \"constraints\": %llu, \"threads\": %u, \"gen_s\": %.3f, "
           "\"setup_s\": %.3f, \"prove_s\": %.3f, \"verify_ms\": %.3f, \"valid\": %s}\n",
           (unsigned long long)log2n, (unsigned long long)r->num_constraints, threads, t_gen, t_setup, t_prove,
           t_verify * 1e3, valid ? "true" : "false");
    groth16_pk_free(&pk);
    r1cs_free(r);
    free(z);
    return rc;
}
