/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk setup, cuzk prove, cuzk verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ---- setup ------------------------------------------------------------------------------------------------------- */

static const char setup_help[] =
    "usage: cuzk setup --pce CIRCUIT.pce --params OUT.params --vk OUT.vk [--seed N] [--threads N]\n"
    "       cuzk setup --pce CIRCUIT.pce --zkey OUT.zkey --vk verification_key.json [--seed N] [--threads N]\n"
    "\n"
    "Makes a Groth16 key for the circuit from random toxic waste (or, with --seed, toxic waste derived from N, for\n"
    "reproducible tests): with --params in bellperson's convention, with --zkey in snarkjs's (a .zkey that\n"
    "`cuzk prove --zkey` and snarkjs read, proving the circuit with a witness in the circuit's variable order, as\n"
    "`cuzk gen` writes it). This is a test setup, not a ceremony: whoever knows the seed can forge proofs.\n"
    "\n"
    "  --params FILE   proving key, bellperson .params layout\n"
    "  --zkey FILE     proving key, snarkjs .zkey layout\n"
    "  --vk FILE       verifying key: a snarkjs verification_key.json when FILE ends in .json, else bellperson .vk\n"
    "  --seed N        derive tau, alpha, beta, gamma, delta from N\n"
    "  --threads N     worker threads (default: online CPUs)\n";

int cmd_setup(int argc, char **argv)
{
    static const char *const known[] = {"pce", "params", "zkey", "vk", "seed", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "setup", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(setup_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("setup", "unexpected argument '%s'", a.pos[0]);
    const char *params = cli_opt(&a, "params"), *zkey = cli_opt(&a, "zkey");
    if ((params == NULL) == (zkey == NULL))
        return cli_error("setup", "give exactly one key to write: --params OUT.params or --zkey OUT.zkey");
    const char *pce = cli_need(&a, "pce"), *vkp = cli_need(&a, "vk");
    if (pce == NULL || vkp == NULL) return CLI_ERROR;
    const char *keyp = params != NULL ? params : zkey;
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.conv = params != NULL ? CUZK_GROTH16_BELLPERSON : CUZK_GROTH16_SNARKJS;
    uint64_t seed = 0;
    if (!cli_threads(&a, &so.threads) || !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed)) return CLI_ERROR;
    if (cli_opt(&a, "seed") != NULL) cli_toxic_from_seed(&so, seed);

    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    double t0 = cuzk_now();
    cuzk_status s = cli_expect_type(pce, CUZK_GROTH16_FORMAT_PCE, "--pce", &err);
    if (s != CUZK_OK || (s = cuzk_r1cs_pce_load(pce, 0, NULL, &r, &err)) != CUZK_OK)
        return cli_fail("setup", pce, s, &err);
    cli_step_end("setup", "loading the circuit", t0);
    cuzk_groth16_pk pk;
    t0 = cuzk_now();
    s = cuzk_groth16_setup(&pk, r, &so, &err);
    cuzk_r1cs_free(r);
    if (s != CUZK_OK) return cli_fail("setup", "setup", s, &err);
    cli_step_end("setup", "key generation", t0);
    int rc = CLI_OK;
    t0 = cuzk_now();
    s = params != NULL ? cuzk_groth16_params_write(&pk, params, &err) : cuzk_groth16_zkey_write(&pk, zkey, &err);
    if (s != CUZK_OK) {
        rc = cli_fail("setup", keyp, s, &err);
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
    "usage: cuzk prove --zkey K.zkey --wtns W.wtns --proof proof.json --public public.json [--r1cs C.r1cs]\n"
    "                  [--r DEC --s DEC]\n"
    "       cuzk prove --params K.params --pce C.pce --wtns W.wtns --proof P.proof [--public public.json]\n"
    "                  [--r DEC --s DEC]\n"
    "\n"
    "Makes one Groth16 proof. With --zkey (snarkjs key; the circuit comes from the key) the witness is the\n"
    "circom .wtns; with --params (bellperson key) the circuit is the .pce the key was made for. The witness is\n"
    "checked against the circuit's constraints first where the circuit is known (--pce, or --r1cs with a .zkey,\n"
    "whose own matrices lack C), and every proof is verified against the key's verifying key before anything is\n"
    "written.\n"
    "\n"
    "  --proof FILE    snarkjs proof.json when FILE ends in .json, else the 192-byte bellperson encoding\n"
    "  --public FILE   the public inputs (without ONE) as a snarkjs public.json\n"
    "  --r1cs FILE     with --zkey: the circom .r1cs of the key's circuit, to check the witness against first and\n"
    "                  name the first constraint it fails\n"
    "  --r, --s DEC    the prover's blinding scalars as decimal integers below r (reproducible proofs for tests;\n"
    "                  default: drawn from the OS random source)\n"
    "  --threads N     worker threads (default: online CPUs)\n"
    "\n"
    "Exit status: 0 the proof verifies and was written; 1 no valid proof (the witness does not satisfy a\n"
    "constraint, named in the message, or the proof made does not verify), nothing written; 2 error (usage,\n"
    "unreadable or malformed input, keys and circuits that do not belong together).\n";

/* Statuses that mean "these inputs make no valid proof" rather than "these inputs are broken". */
static int prove_fail(const char *what, cuzk_status s, const cuzk_errmsg *err)
{
    cli_fail("prove", what, s, err);
    return s == CUZK_ERR_R1CS_UNSATISFIED || s == CUZK_ERR_PROOF_INVALID ? CLI_INVALID : CLI_ERROR;
}

int cmd_prove(int argc, char **argv)
{
    static const char *const known[] = {"zkey",   "params", "pce", "r1cs",    "wtns", "proof",
                                        "public", "r",      "s",   "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "prove", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(prove_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("prove", "unexpected argument '%s'", a.pos[0]);
    const char *zkey = cli_opt(&a, "zkey"), *params = cli_opt(&a, "params"), *pce = cli_opt(&a, "pce");
    const char *r1cs = cli_opt(&a, "r1cs"), *pub = cli_opt(&a, "public");
    if ((zkey == NULL) == (params == NULL))
        return cli_error("prove", "give exactly one key: --zkey K.zkey or --params K.params (see --help)");
    if (zkey != NULL && pce != NULL)
        return cli_error("prove", "--pce goes with --params; a .zkey carries its own circuit (--r1cs checks the "
                                  "witness against the circom circuit)");
    if (params != NULL && r1cs != NULL) return cli_error("prove", "--r1cs goes with --zkey; --params takes --pce");
    if (params != NULL && (pce = cli_need(&a, "pce")) == NULL) return CLI_ERROR;
    if (zkey != NULL && (pub = cli_need(&a, "public")) == NULL) return CLI_ERROR;
    const char *wtns = cli_need(&a, "wtns"), *proofp = cli_need(&a, "proof");
    if (wtns == NULL || proofp == NULL) return CLI_ERROR;
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.verify = true;
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
    char what[1024];
    if (zkey != NULL) {
        if ((s = cli_expect_type(zkey, CUZK_GROTH16_FORMAT_ZKEY, "--zkey", &err)) != CUZK_OK ||
            (s = cuzk_groth16_zkey_load(&pk, zkey, 0, po.threads, &err)) != CUZK_OK)
            return cli_fail("prove", zkey, s, &err);
        if (r1cs != NULL) {
            if ((s = cli_expect_type(r1cs, CUZK_GROTH16_FORMAT_R1CS, "--r1cs", &err)) != CUZK_OK ||
                (s = cuzk_r1cs_circom_load(r1cs, &r, &err)) != CUZK_OK) {
                cuzk_groth16_pk_free(&pk);
                return cli_fail("prove", r1cs, s, &err);
            }
        }
        cli_step_end("prove", "loading the key", t0);
        /* the zkey holds A and B only (c = a∘b): the witness is checked against the circom circuit's C when given,
         * and the finished proof against the key's verifying key in any case */
        po.c_mode = r != NULL ? CUZK_R1CS_C_CHECKED : CUZK_R1CS_C_PRODUCT;
        snprintf(what, sizeof what, "%s and %s", zkey, r1cs);
        if (r != NULL && (s = cuzk_groth16_pk_check_circuit(&pk, r, &err)) != CUZK_OK)
            rc = cli_fail("prove", what, s, &err);
        else if ((s = cuzk_r1cs_wtns_load(wtns, pk.circuit, &z, &nz, &err)) != CUZK_OK)
            rc = cli_fail("prove", wtns, s, &err);
    } else {
        if ((s = cli_expect_type(pce, CUZK_GROTH16_FORMAT_PCE, "--pce", &err)) != CUZK_OK ||
            (s = cuzk_r1cs_pce_load(pce, 0, NULL, &r, &err)) != CUZK_OK)
            return cli_fail("prove", pce, s, &err);
        if ((s = cli_expect_type(params, CUZK_GROTH16_FORMAT_PARAMS, "--params", &err)) != CUZK_OK ||
            (s = cuzk_groth16_params_load(&pk, params, 0, po.threads, &err)) != CUZK_OK) {
            cuzk_r1cs_free(r);
            return cli_fail("prove", params, s, &err);
        }
        cli_step_end("prove", "loading the circuit and key", t0);
        po.c_mode = CUZK_R1CS_C_CHECKED;
        snprintf(what, sizeof what, "%s and %s", params, pce);
        if ((s = cuzk_groth16_pk_check_circuit(&pk, r, &err)) != CUZK_OK) {
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
        if (s == CUZK_ERR_PROOF_INVALID && zkey != NULL && r == NULL)
            snprintf(err.msg + strlen(err.msg), sizeof err.msg - strlen(err.msg),
                     " (--r1cs CIRCUIT.r1cs names the first constraint the witness fails)");
        if (s != CUZK_OK) rc = prove_fail(wtns, s, &err);
        else cli_step_end("prove", "proving and verifying", t0);
    }
    /* both files or neither: each is written whole (temporary file, then renamed), the proof removed again when the
     * public inputs cannot be written */
    if (rc == CLI_OK && (s = cli_save_proof(proofp, &proof, &err)) != CUZK_OK) rc = cli_fail("prove", proofp, s, &err);
    if (rc == CLI_OK && pub != NULL) {
        uint64_t np = pk.vk.num_inputs - 1;
        if ((s = cli_save_public(pub, z + 1, np, &err)) != CUZK_OK) {
            rc = cli_fail("prove", pub, s, &err);
            unlink(proofp);
        }
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
    /* the cheap checks first: the public inputs, and whether the key takes that many (read from its header or
     * counted in its JSON), before any point of a possibly large key is decoded */
    cuzk_fr_t *pub = NULL;
    uint64_t np = 0, key_inputs = 0;
    cuzk_status s = cli_expect_type(pubp, CUZK_GROTH16_FORMAT_PUBLIC_JSON, "--public", &err);
    if (s != CUZK_OK || (s = cli_load_public(pubp, &pub, &np, &err)) != CUZK_OK)
        return cli_fail("verify", pubp, s, &err);
    const uint8_t *map;
    size_t map_len;
    if ((s = cuzk_map_file(vkp, &map, &map_len, &err)) == CUZK_OK) {
        s = cuzk_groth16_vk_inputs(map, map_len, &key_inputs, &err);
        cuzk_unmap_file(map, map_len);
    }
    if (s != CUZK_OK) {
        free(pub);
        return cli_fail("verify", vkp, s, &err);
    }
    if (np + 1 != key_inputs) {
        free(pub);
        return cli_error("verify", "%s: %llu public inputs, the key %s expects %llu", pubp, (unsigned long long)np, vkp,
                         (unsigned long long)(key_inputs - 1));
    }
    cuzk_groth16_vk vk;
    if ((s = cli_load_vk(vkp, &vk, &err)) != CUZK_OK) {
        free(pub);
        return cli_fail("verify", vkp, s, &err);
    }
    int rc = CLI_OK;
    cuzk_groth16_proof_t proof;
    cuzk_groth16_format pf = CUZK_GROTH16_FORMAT_UNKNOWN;
    cuzk_groth16_format_info pin;
    if ((s = cli_detect(proofp, &pf, &pin, &err)) == CUZK_OK && pf != CUZK_GROTH16_FORMAT_PROOF_BIN &&
        pf != CUZK_GROTH16_FORMAT_PROOF_JSON && pf != CUZK_GROTH16_FORMAT_UNKNOWN)
        s = cuzk_fail(&err, CUZK_ERR_BAD_MAGIC, "--proof: this is %s, not a proof.json or a 192-byte proof", pin.what);
    if (s != CUZK_OK || (s = cli_load_proof(proofp, &proof, &err)) != CUZK_OK) {
        rc = cli_fail("verify", proofp, s, &err);
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
