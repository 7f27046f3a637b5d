/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk demo: the project's main job on an embedded default. A synthetic PoRep-shaped circuit is generated in
 * memory, given a test key, proved and verified; each step's time goes to stdout and a final JSON line sums up.
 * On the GPU when there is one (built with CUDA and a device present): the key is generated on the device and the
 * proof made there; the verification is the host's either way. Exit status 0 only when the proof verifies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#ifdef CUZK_HAVE_CUDA
#include "cuzk/gpu.h"
#endif

/* 2^16 keeps the whole job (setup dominates) well under a minute on two cores */
#define DEMO_LOG2 16

static const char demo_help[] =
    "usage: cuzk demo [--log2 K] [--seed N] [--threads N] [--device auto|cpu|gpu]\n"
    "\n"
    "Generates a synthetic PoRep-shaped circuit of 2^K constraints (default K = 16) with its witness, makes a\n"
    "random test key, proves and verifies, printing each step's time and a final JSON line. --device auto (the\n"
    "default) makes the key and the proof on the GPU when cuzk was built with CUDA and a device is present, else on\n"
    "the CPU. Exit status 0 only when the proof verifies.\n";

/* One run's figures; setup_s and prove_s stay 0 for a step not reached. */
typedef struct {
    double gen_s, setup_s, prove_s, verify_s;
    bool valid;
} demo_run;

/* The proof's wire encoding decoded again and verified on the host, as a verifier elsewhere would; prints the step's
 * line and returns the exit status. */
static int demo_verify(const cuzk_groth16_vk *vk, const cuzk_groth16_proof_t *proof, const cuzk_r1cs_t *r,
                       const cuzk_fr_t *z, demo_run *run)
{
    uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_to_bytes(bytes, proof);
    cuzk_groth16_proof_t received;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_groth16_proof_from_bytes(&received, bytes, sizeof bytes);
    if (s == CUZK_OK) {
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, vk);
        s = cuzk_groth16_verify(&pvk, &received, z + 1, r->num_inputs - 1);
    }
    run->verify_s = cuzk_now() - t0;
    run->valid = s == CUZK_OK;
    printf("verify  %-38s %8.3f s\n", run->valid ? "valid" : "INVALID", run->verify_s);
    if (run->valid) return CLI_OK;
    return s == CUZK_ERR_PROOF_INVALID ? CLI_INVALID : cli_fail("demo", "verify", s, NULL);
}

static int demo_cpu(const cuzk_r1cs_t *r, const cuzk_fr_t *z, const cuzk_groth16_setup_opts *so, demo_run *run)
{
    cuzk_errmsg err = {{0}};
    cuzk_groth16_pk pk;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_groth16_setup(&pk, r, so, &err);
    if (s != CUZK_OK) return cli_fail("demo", "setup", s, &err);
    run->setup_s = cuzk_now() - t0;
    printf("setup   test key                                %8.3f s\n", run->setup_s);
    fflush(stdout);

    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.threads = so->threads;
    po.c_mode = CUZK_R1CS_C_PRODUCT;
    cuzk_groth16_prove_stats st;
    cuzk_groth16_proof_t proof;
    t0 = cuzk_now();
    s = cuzk_groth16_prove(&proof, &pk, r, z, &po, &st, &err);
    run->prove_s = cuzk_now() - t0;
    int rc;
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "prove", s, &err);
    } else {
        printf("prove   spmv %.3f, ntt/h %.3f, msm h %.3f l %.3f a %.3f b1 %.3f b2 %.3f  %8.3f s\n", st.spmv, st.ntt_h,
               st.msm_h, st.msm_l, st.msm_a, st.msm_b1, st.msm_b2, run->prove_s);
        rc = demo_verify(&pk.vk, &proof, r, z, run);
    }
    cuzk_groth16_pk_free(&pk);
    return rc;
}

#ifdef CUZK_HAVE_CUDA
/* The key generated on the device and the proof made there. */
static int demo_gpu(const cuzk_r1cs_t *r, const cuzk_fr_t *z, const cuzk_groth16_setup_opts *so, demo_run *run)
{
    cuzk_errmsg err = {{0}};
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    cuzk_gpu_key *k = NULL;
    cuzk_gpu_prover *p = NULL;
    int rc;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_gpu_setup(&k, r, so, &ko, &err);
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "setup on the GPU", s, &err);
        goto out;
    }
    run->setup_s = cuzk_now() - t0;
    printf("setup   test key on the GPU                     %8.3f s\n", run->setup_s);
    fflush(stdout);
    s = cuzk_gpu_prover_create(&p, NULL, &err);
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "prover", s, &err);
        goto out;
    }
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.c_mode = CUZK_R1CS_C_PRODUCT;
    cuzk_gpu_prove_stats st;
    cuzk_groth16_proof_t proof;
    t0 = cuzk_now();
    s = cuzk_gpu_prove(&proof, p, k, z, &po, &st, &err);
    run->prove_s = cuzk_now() - t0;
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "prove on the GPU", s, &err);
        goto out;
    }
    printf("prove   upload %.3f, spmv %.3f, ntt/h %.3f, msm h %.3f l %.3f a %.3f b1 %.3f b2 %.3f  %8.3f s\n", st.upload,
           st.spmv, st.ntt_h, st.msm_h, st.msm_l, st.msm_a, st.msm_b1, st.msm_b2, run->prove_s);
    rc = demo_verify(cuzk_gpu_key_vk(k), &proof, r, z, run);
out:
    cuzk_gpu_prover_destroy(p);
    cuzk_gpu_key_free(k);
    return rc;
}
#endif

int cmd_demo(int argc, char **argv)
{
    static const char *const known[] = {"log2", "seed", "threads", "device", NULL};
    cli_args a;
    if (!cli_parse(&a, "demo", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(demo_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("demo", "unexpected argument '%s'", a.pos[0]);
    uint64_t log2n = DEMO_LOG2, seed = 1;
    unsigned threads;
    if (!cli_opt_u64(&a, "log2", CUZK_CIRCUITS_LOG2_MIN, 28, &log2n) ||
        !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed) || !cli_threads(&a, &threads))
        return CLI_ERROR;

    const char *device = cli_opt(&a, "device");
    if (device == NULL) device = "auto";
    if (strcmp(device, "auto") != 0 && strcmp(device, "cpu") != 0 && strcmp(device, "gpu") != 0)
        return cli_error("demo", "--device must be auto, cpu or gpu, not '%s'", device);
    bool use_gpu = false;
#ifdef CUZK_HAVE_CUDA
    use_gpu = strcmp(device, "cpu") != 0 && cuzk_gpu_device_count() > 0;
    if (use_gpu) {
        char name[256] = "";
        cuzk_gpu_device_name(name, sizeof name);
        printf("device  %s\n", name);
    }
#endif
    if (strcmp(device, "gpu") == 0 && !use_gpu)
        return cli_error("demo", "--device gpu: %s", "no CUDA device (or cuzk was built without CUDA)");

    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    cuzk_fr_t *z;
    demo_run run;
    memset(&run, 0, sizeof run);
    double t0 = cuzk_now();
    cuzk_status s = cuzk_circuits_synthetic((unsigned)log2n, seed, threads, &r, &z, &err);
    if (s != CUZK_OK) return cli_fail("demo", "gen", s, &err);
    run.gen_s = cuzk_now() - t0;
    printf("gen     2^%llu: %llu constraints, %u inputs, %u aux  %8.3f s\n", (unsigned long long)log2n,
           (unsigned long long)r->num_constraints, r->num_inputs, r->num_aux, run.gen_s);
    fflush(stdout);

    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    so.conv = CUZK_GROTH16_BELLPERSON;
    int rc;
#ifdef CUZK_HAVE_CUDA
    rc = use_gpu ? demo_gpu(r, z, &so, &run) : demo_cpu(r, z, &so, &run);
#else
    rc = demo_cpu(r, z, &so, &run);
#endif
    printf("{\"name\": \"demo\", \"log2\": %llu, \"constraints\": %llu, \"threads\": %u, \"gen_s\": %.3f, "
           "\"setup_s\": %.3f, \"prove_s\": %.3f, \"verify_ms\": %.3f, \"valid\": %s, \"device\": \"%s\"}\n",
           (unsigned long long)log2n, (unsigned long long)r->num_constraints, threads, run.gen_s, run.setup_s,
           run.prove_s, run.verify_s * 1e3, run.valid ? "true" : "false", use_gpu ? "gpu" : "cpu");
    cuzk_r1cs_free(r);
    free(z);
    return rc;
}
