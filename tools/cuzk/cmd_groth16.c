/* cuzk setup, cuzk prove, cuzk verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- setup ------------------------------------------------------------------------------------------------------- */

static const char setup_help[] =
    "usage: cuzk setup --pce CIRCUIT.pce --params OUT.params --vk OUT.vk [--seed N] [--threads N]\n"
    "\n"
    "Makes a bellperson-convention Groth16 key for the circuit from random toxic waste (or, with --seed, toxic\n"
    "waste derived from N, for reproducible tests). This is a test setup, not a ceremony: whoever knows the seed\n"
    "can forge proofs.\n"
    "\n"
    "  --params FILE   proving key, bellperson .params layout\n"
    "  --vk FILE       verifying key: a snarkjs verification_key.json when FILE ends in .json, else bellperson .vk\n"
    "  --seed N        derive tau, alpha, beta, gamma, delta from N\n"
    "  --threads N     worker threads (default: online CPUs)\n";

int cmd_setup(int argc, char **argv)
{
    static const char *const known[] = {"pce", "params", "vk", "seed", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "setup", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(setup_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("setup", "unexpected argument '%s'", a.pos[0]);
    const char *pce = cli_need(&a, "pce"), *params = cli_need(&a, "params"), *vkp = cli_need(&a, "vk");
    if (pce == NULL || params == NULL || vkp == NULL) return CLI_ERROR;
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.conv = CUZK_GROTH16_BELLPERSON;
    uint64_t seed = 0;
    if (!cli_threads(&a, &so.threads) || !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed)) return CLI_ERROR;
    if (cli_opt(&a, "seed") != NULL) cli_toxic_from_seed(&so, seed);

    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_r1cs_pce_load(pce, 0, NULL, &r, &err);
    if (s != CUZK_OK) return cli_fail("setup", pce, s, &err);
    cli_step_end("setup", "loading the circuit", t0);
    cuzk_groth16_pk pk;
    t0 = cuzk_now();
    s = cuzk_groth16_setup(&pk, r, &so, &err);
    cuzk_r1cs_free(r);
    if (s != CUZK_OK) return cli_fail("setup", "setup", s, &err);
    cli_step_end("setup", "key generation", t0);
    int rc = CLI_OK;
    t0 = cuzk_now();
    if ((s = cuzk_groth16_params_write(&pk, params, &err)) != CUZK_OK) {
        rc = cli_fail("setup", params, s, &err);
    } else if (cli_is_json_name(vkp)) {
        char *json;
        if ((s = cuzk_groth16_vk_to_json(&pk.vk, &json)) == CUZK_OK) {
            s = cli_write_file(vkp, json, strlen(json), &err);
            free(json);
        }
        if (s != CUZK_OK) rc = cli_fail("setup", vkp, s, &err);
    } else if ((s = cuzk_groth16_vk_write(&pk.vk, vkp, &err)) != CUZK_OK) {
        rc = cli_fail("setup", vkp, s, &err);
    }
    if (rc == CLI_OK) cli_step_end("setup", "writing the keys", t0);
    cuzk_groth16_pk_free(&pk);
    return rc;
}

/* ---- prove ------------------------------------------------------------------------------------------------------- */

static const char prove_help[] =
    "usage: cuzk prove --zkey K.zkey --wtns W.wtns --proof proof.json --public public.json [--r DEC --s DEC]\n"
    "       cuzk prove --params K.params --pce C.pce --wtns W.wtns --proof P.proof [--public public.json]\n"
    "                  [--r DEC --s DEC]\n"
    "\n"
    "Makes one Groth16 proof. With --zkey (snarkjs key; the circuit comes from the key) the witness is the\n"
    "circom .wtns; with --params (bellperson key) the circuit is the .pce the key was made for, and the witness is\n"
    "checked against it first.\n"
    "\n"
    "  --proof FILE    snarkjs proof.json when FILE ends in .json, else the 192-byte bellperson encoding\n"
    "  --public FILE   the public inputs (without ONE) as a snarkjs public.json\n"
    "  --r, --s DEC    the prover's blinding scalars as decimal integers below r (reproducible proofs for tests;\n"
    "                  default: drawn from the OS random source)\n"
    "  --threads N     worker threads (default: online CPUs)\n";

int cmd_prove(int argc, char **argv)
{
    static const char *const known[] = {"zkey", "params", "pce", "wtns", "proof", "public", "r", "s", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "prove", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(prove_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("prove", "unexpected argument '%s'", a.pos[0]);
    const char *zkey = cli_opt(&a, "zkey"), *params = cli_opt(&a, "params"), *pce = cli_opt(&a, "pce");
    const char *pub = cli_opt(&a, "public");
    if ((zkey == NULL) == (params == NULL))
        return cli_error("prove", "give exactly one key: --zkey K.zkey or --params K.params (see --help)");
    if (zkey != NULL && pce != NULL)
        return cli_error("prove", "--pce goes with --params; a .zkey carries its own circuit");
    if (params != NULL && (pce = cli_need(&a, "pce")) == NULL) return CLI_ERROR;
    if (zkey != NULL && (pub = cli_need(&a, "public")) == NULL) return CLI_ERROR;
    const char *wtns = cli_need(&a, "wtns"), *proofp = cli_need(&a, "proof");
    if (wtns == NULL || proofp == NULL) return CLI_ERROR;
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    if (!cli_threads(&a, &po.threads)) return CLI_ERROR;
    const char *rs = cli_opt(&a, "r"), *ss = cli_opt(&a, "s");
    if ((rs == NULL) != (ss == NULL)) return cli_error("prove", "--r and --s go together");
    if (rs != NULL) {
        if (!cli_parse_fr_dec(rs, &po.r)) return cli_error("prove", "--r '%s' is not a decimal integer below r", rs);
        if (!cli_parse_fr_dec(ss, &po.s)) return cli_error("prove", "--s '%s' is not a decimal integer below r", ss);
        po.given_rs = true;
    }

    cuzk_errmsg err = {{0}};
    cuzk_groth16_pk pk;
    memset(&pk, 0, sizeof pk);
    cuzk_r1cs_t *r = NULL;
    cuzk_fr_t *z = NULL;
    uint64_t nz = 0;
    int rc = CLI_OK;
    cuzk_status s;
    double t0 = cuzk_now();
    if (zkey != NULL) {
        if ((s = cuzk_groth16_zkey_load(&pk, zkey, 0, po.threads, &err)) != CUZK_OK) return cli_fail("prove", zkey, s, &err);
        cli_step_end("prove", "loading the key", t0);
        /* the zkey holds A and B only: c = a∘b is the one choice, so the witness is not checked against C */
        po.c_mode = CUZK_R1CS_C_PRODUCT;
        s = cuzk_r1cs_wtns_load(wtns, pk.circuit, &z, &nz, &err);
        if (s != CUZK_OK) rc = cli_fail("prove", wtns, s, &err);
    } else {
        if ((s = cuzk_r1cs_pce_load(pce, 0, NULL, &r, &err)) != CUZK_OK) return cli_fail("prove", pce, s, &err);
        if ((s = cuzk_groth16_params_load(&pk, params, 0, po.threads, &err)) != CUZK_OK) {
            cuzk_r1cs_free(r);
            return cli_fail("prove", params, s, &err);
        }
        cli_step_end("prove", "loading the circuit and key", t0);
        po.c_mode = CUZK_R1CS_C_CHECKED;
        if ((s = cuzk_groth16_pk_check_circuit(&pk, r, &err)) != CUZK_OK) {
            char what[512];
            snprintf(what, sizeof what, "%s and %s", params, pce);
            rc = cli_fail("prove", what, s, &err);
        } else if ((s = cuzk_r1cs_wtns_load(wtns, r, &z, &nz, &err)) != CUZK_OK) {
            rc = cli_fail("prove", wtns, s, &err);
        }
    }
    cuzk_groth16_proof_t proof;
    if (rc == CLI_OK) {
        t0 = cuzk_now();
        cuzk_groth16_prove_stats st;
        s = cuzk_groth16_prove(&proof, &pk, r, z, &po, &st, &err);
        if (s != CUZK_OK) rc = cli_fail("prove", wtns, s, &err);
        else cli_step_end("prove", "proving", t0);
    }
    if (rc == CLI_OK && (s = cli_save_proof(proofp, &proof, &err)) != CUZK_OK) rc = cli_fail("prove", proofp, s, &err);
    if (rc == CLI_OK && pub != NULL) {
        uint64_t np = pk.vk.num_inputs - 1;
        if ((s = cli_save_public(pub, z + 1, np, &err)) != CUZK_OK) rc = cli_fail("prove", pub, s, &err);
    }
    free(z);
    cuzk_r1cs_free(r);
    cuzk_groth16_pk_free(&pk);
    return rc;
}

/* ---- verify ------------------------------------------------------------------------------------------------------ */

static const char verify_help[] =
    "usage: cuzk verify --vk verification_key.json --public public.json --proof proof.json\n"
    "       cuzk verify --vk K.vk --proof P.proof --public public.json\n"
    "\n"
    "Checks one Groth16 proof. Formats are recognized by content: the key is a snarkjs verification_key.json or a\n"
    "bellperson .vk, the proof a proof.json or the 192-byte encoding; public inputs are a public.json (without\n"
    "ONE). Every proof point is checked to be on the curve and in the prime-order subgroup.\n"
    "\n"
    "Exit status: 0 valid, 1 invalid, 2 error (unreadable or malformed input, wrong number of public inputs).\n";

int cmd_verify(int argc, char **argv)
{
    static const char *const known[] = {"vk", "proof", "public", NULL};
    cli_args a;
    if (!cli_parse(&a, "verify", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(verify_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("verify", "unexpected argument '%s'", a.pos[0]);
    const char *vkp = cli_need(&a, "vk"), *proofp = cli_need(&a, "proof"), *pubp = cli_need(&a, "public");
    if (vkp == NULL || proofp == NULL || pubp == NULL) return CLI_ERROR;
    cuzk_errmsg err = {{0}};
    cuzk_groth16_vk vk;
    cuzk_status s = cli_load_vk(vkp, &vk, &err);
    if (s != CUZK_OK) return cli_fail("verify", vkp, s, &err);
    int rc = CLI_OK;
    cuzk_groth16_proof_t proof;
    cuzk_fr_t *pub = NULL;
    uint64_t np = 0;
    if ((s = cli_load_proof(proofp, &proof, &err)) != CUZK_OK) {
        rc = cli_fail("verify", proofp, s, &err);
    } else if ((s = cli_load_public(pubp, &pub, &np, &err)) != CUZK_OK) {
        rc = cli_fail("verify", pubp, s, &err);
    } else if (np + 1 != vk.num_inputs) {
        rc = cli_error("verify", "%s: %llu public inputs, the key %s expects %llu", pubp, (unsigned long long)np, vkp,
                       (unsigned long long)(vk.num_inputs - 1));
    } else {
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &vk);
        s = cuzk_groth16_verify(&pvk, &proof, pub, np);
        if (s == CUZK_OK) {
            printf("valid\n");
        } else if (s == CUZK_ERR_PROOF_INVALID) {
            printf("invalid\n");
            rc = CLI_INVALID;
        } else {
            rc = cli_fail("verify", proofp, s, NULL);
        }
    }
    free(pub);
    cuzk_groth16_vk_free(&vk);
    return rc;
}
