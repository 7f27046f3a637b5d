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

/* The synthetic circuit and its witness, with the step's line. */
static cuzk_status demo_gen(unsigned log2n, uint64_t seed, unsigned threads, r1cs_t **r, fr_t **z, double *seconds,
                            cuzk_errmsg *err)
{
    double t0 = cli_now();
    cuzk_status s = circuits_synthetic(log2n, seed, threads, r, z, err);
    if (s != CUZK_OK) return s;
    *seconds = cli_now() - t0;
    printf("gen     2^%u: %llu constraints, %u inputs, %u aux  %8.3f s\n", log2n,
           (unsigned long long)(*r)->num_constraints, (*r)->num_inputs, (*r)->num_aux, *seconds);
    fflush(stdout);
    return CUZK_OK;
}

/* The proof's wire encoding decoded again and verified on the host, as a verifier elsewhere would. */
static cuzk_status demo_verify(const groth16_vk *vk, const groth16_proof_t *proof, const r1cs_t *r, const fr_t *z,
                               double *seconds)
{
    uint8_t bytes[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(bytes, proof);
    groth16_proof_t received;
    double t0 = cli_now();
    cuzk_status s = groth16_proof_from_bytes(&received, bytes, sizeof bytes);
    if (s == CUZK_OK) {
        groth16_pvk pvk;
        groth16_prepare_vk(&pvk, vk);
        s = groth16_verify(&pvk, &received, z + 1, r->num_inputs - 1);
    }
    *seconds = cli_now() - t0;
    return s;
}

#ifdef CUZK_HAVE_CUDA
static int demo_gpu(unsigned log2n, uint64_t seed, unsigned threads)
{
    char name[256] = "";
    gpu_device_name(name, sizeof name);
    printf("device  %s\n", name);
    cuzk_errmsg err = {{0}};
    r1cs_t *r;
    fr_t *z;
    double t_gen;
    cuzk_status s = demo_gen(log2n, seed, threads, &r, &z, &t_gen, &err);
    if (s != CUZK_OK) return cli_fail("demo", "gen", s, &err);
    double t0;

    groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = threads;
    so.conv = GROTH16_BELLPERSON;
    gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    gpu_key *k = NULL;
    gpu_prover *p = NULL;
    int rc = CLI_OK;
    bool valid = false;
    double t_setup = 0, t_prove = 0, t_verify = 0;
    t0 = cli_now();
    s = gpu_setup(&k, r, &so, &ko, &err);
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "setup on the GPU", s, &err);
        goto out;
    }
    t_setup = cli_now() - t0;
    printf("setup   test key on the GPU                     %8.3f s\n", t_setup);
    fflush(stdout);
    s = gpu_prover_create(&p, &err);
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "prover", s, &err);
        goto out;
    }
    groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.c_mode = R1CS_C_PRODUCT;
    gpu_prove_stats st;
    groth16_proof_t proof;
    t0 = cli_now();
    s = gpu_prove(&proof, p, k, z, &po, &st, &err);
    t_prove = cli_now() - t0;
    if (s != CUZK_OK) {
        rc = cli_fail("demo", "prove on the GPU", s, &err);
        goto out;
    }
    printf("prove   upload %.3f, spmv %.3f, ntt/h %.3f, msm h %.3f l %.3f a %.3f b1 %.3f b2 %.3f  %8.3f s\n", st.upload,
           st.spmv, st.ntt_h, st.msm_h, st.msm_l, st.msm_a, st.msm_b1, st.msm_b2, t_prove);
    s = demo_verify(gpu_key_vk(k), &proof, r, z, &t_verify);
    valid = s == CUZK_OK;
    printf("verify  %-38s %8.3f s\n", valid ? "valid" : "INVALID", t_verify);
    if (!valid) rc = s == CUZK_ERR_PROOF_INVALID ? CLI_INVALID : cli_fail("demo", "verify", s, NULL);
out:
    printf("{\"name\": \"demo\", \"log2\": %u, \"constraints\": %llu, \"threads\": %u, \"gen_s\": %.3f, "
           "\"setup_s\": %.3f, \"prove_s\": %.3f, \"verify_ms\": %.3f, \"valid\": %s, \"device\": \"gpu\"}\n",
           log2n, (unsigned long long)r->num_constraints, threads, t_gen, t_setup, t_prove, t_verify * 1e3,
           valid ? "true" : "false");
    gpu_prover_destroy(p);
    gpu_key_free(k);
    r1cs_free(r);
    free(z);
    return rc;
}
#else
static int demo_gpu(unsigned log2n, uint64_t seed, unsigned threads)
{
    (void)log2n, (void)seed, (void)threads;
    return cli_error("demo", "%s", "built without CUDA");
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
    if (!cli_opt_u64(&a, "log2", CIRCUITS_LOG2_MIN, 28, &log2n) || !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed) ||
        !cli_threads(&a, &threads))
        return CLI_ERROR;

    const char *device = cli_opt(&a, "device");
    if (device == NULL) device = "auto";
    if (strcmp(device, "auto") != 0 && strcmp(device, "cpu") != 0 && strcmp(device, "gpu") != 0)
        return cli_error("demo", "--device must be auto, cpu or gpu, not '%s'", device);
    bool use_gpu = false;
#ifdef CUZK_HAVE_CUDA
    use_gpu = strcmp(device, "cpu") != 0 && gpu_device_count() > 0;
#endif
    if (strcmp(device, "gpu") == 0 && !use_gpu)
        return cli_error("demo", "--device gpu: %s", "no CUDA device (or cuzk was built without CUDA)");
    if (use_gpu) return demo_gpu((unsigned)log2n, seed, threads);

    cuzk_errmsg err = {{0}};
    r1cs_t *r;
    fr_t *z;
    double t_gen;
    cuzk_status s = demo_gen((unsigned)log2n, seed, threads, &r, &z, &t_gen, &err);
    if (s != CUZK_OK) return cli_fail("demo", "gen", s, &err);
    double t0;

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
        s = demo_verify(&pk.vk, &proof, r, z, &t_verify);
        valid = s == CUZK_OK;
        printf("verify  %-38s %8.3f s\n", valid ? "valid" : "INVALID", t_verify);
        if (!valid) rc = s == CUZK_ERR_PROOF_INVALID ? CLI_INVALID : cli_fail("demo", "verify", s, NULL);
    }
    printf("{\"name\": \"demo\", \"log2\": %llu, \"constraints\": %llu, \"threads\": %u, \"gen_s\": %.3f, "
           "\"setup_s\": %.3f, \"prove_s\": %.3f, \"verify_ms\": %.3f, \"valid\": %s, \"device\": \"cpu\"}\n",
           (unsigned long long)log2n, (unsigned long long)r->num_constraints, threads, t_gen, t_setup, t_prove,
           t_verify * 1e3, valid ? "true" : "false");
    groth16_pk_free(&pk);
    r1cs_free(r);
    free(z);
    return rc;
}
