/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk porep: PoRep C2 from a commit-phase-1 output (prove), verify_seal from public data (verify), the C1 check
 * alone (check), and a test C1 from a sector sealed in memory (test-c1). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cuzk/filecoin.h"

/* ---- argument helpers ------------------------------------------------------------------------------------------- */

static bool hex32(const char *cmd, const char *name, const char *s, uint8_t out[32])
{
    if (strlen(s) != 64) {
        cli_error(cmd, "--%s needs 64 hex digits (32 bytes), got %zu characters", name, strlen(s));
        return false;
    }
    for (int i = 0; i < 64; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) {
            cli_error(cmd, "--%s: '%c' is not a hex digit", name, c);
            return false;
        }
        out[i / 2] = (uint8_t)(i % 2 ? out[i / 2] | d : d << 4);
    }
    return true;
}

static bool need_hex32(const cli_args *a, const char *name, uint8_t out[32])
{
    const char *s = cli_need(a, name);
    return s != NULL && hex32(a->cmd, name, s, out);
}

/* --prover-id: 64 hex digits, or a miner id (f01234, t01234 or 1234) made into filecoin-proofs' prover id */
static bool prover_id_arg(const cli_args *a, uint8_t out[32])
{
    const char *s = cli_need(a, "prover-id");
    if (s == NULL) return false;
    if (strlen(s) == 64) return hex32(a->cmd, "prover-id", s, out);
    const char *d = (s[0] == 'f' || s[0] == 't') && s[1] == '0' ? s + 2 : s;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(d, &end, 10);
    if (*d < '0' || *d > '9' || *end != '\0' || errno != 0) {
        cli_error(a->cmd, "--prover-id '%s' is neither 64 hex digits nor a miner id (f01234)", s);
        return false;
    }
    cuzk_fil_prover_id(v, out);
    return true;
}

static void hex_out(char out[65], const uint8_t b[32])
{
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* A key file: FILE itself, or the registered proof's parameter file inside DIR. */
static const char *key_path(const char *arg, const cuzk_fil_proof *p, bool vk, char *buf, size_t cap)
{
    struct stat st;
    if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) return arg;
    char name[400];
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_proof_param_name(p, vk, name, sizeof name, &err) != CUZK_OK) return arg;
    snprintf(buf, cap, "%s/%s", arg, name);
    return buf;
}

static const cuzk_fil_proof *seal_proof_arg(const cli_args *a, bool required)
{
    uint64_t id = UINT64_MAX;
    if (required && cli_need(a, "registered-proof") == NULL) return NULL;
    if (!cli_opt_u64(a, "registered-proof", 0, UINT32_MAX, &id)) return NULL;
    if (id == UINT64_MAX) return NULL;
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, id);
    if (p == NULL ||
        (p->kind != CUZK_FIL_KIND_POREP && p->kind != CUZK_FIL_KIND_POREP_SYNTH && p->kind != CUZK_FIL_KIND_POREP_NI))
        cli_error(a->cmd, "--registered-proof %" PRIu64 " is not a registered seal proof (0-19)", id);
    return p;
}

/* The C1 of --c1, checked against --registered-proof when given; the sector from --sector-id or the envelope. */
static int load_c1(const cli_args *a, cuzk_fil_c1 *c1, uint8_t prover_id[32], uint64_t *sector_id)
{
    const char *path = cli_need(a, "c1");
    if (path == NULL || !prover_id_arg(a, prover_id)) return CLI_ERROR;
    const cuzk_fil_proof *want = NULL;
    if (cli_opt(a, "registered-proof") != NULL && (want = seal_proof_arg(a, false)) == NULL) return CLI_ERROR;
    uint64_t sid = UINT64_MAX;
    if (!cli_opt_u64(a, "sector-id", 0, UINT64_MAX - 1, &sid)) return CLI_ERROR;
    cuzk_errmsg err = {{0}};
    double t0 = cuzk_now();
    cuzk_status s = cuzk_fil_c1_parse_file(path, c1, &err);
    if (s != CUZK_OK) return cli_fail(a->cmd, path, s, &err);
    cli_step_end(a->cmd, "reading the C1", t0);
    if (want != NULL && want != c1->proof) {
        cli_error(a->cmd, "%s: the C1 is for %s (registered proof %u), not %s", path, c1->proof->name, c1->proof->id,
                  want->name);
        cuzk_fil_c1_free(c1);
        return CLI_ERROR;
    }
    if (sid == UINT64_MAX) {
        if (!c1->wrapped) {
            cli_error(a->cmd, "missing --sector-id (a bare C1 names no sector)");
            cuzk_fil_c1_free(c1);
            return CLI_ERROR;
        }
        sid = c1->sector_num;
    }
    *sector_id = sid;
    return CLI_OK;
}

/* ---- prove ------------------------------------------------------------------------------------------------------- */

static const char prove_help[] =
    "usage: cuzk porep prove --c1 FILE --prover-id ID [--sector-id N] [--registered-proof N] --params FILE|DIR\n"
    "                        [--vk FILE|DIR] [--pce FILE] --proof OUT [--threads N]\n"
    "\n"
    "PoRep commit phase 2 (seal_commit_phase2): checks the C1 (replica id, challenges, parents, paths, labels),\n"
    "proves every partition of the StackedDrg circuit, verifies them all, and only then writes OUT: the partitions'\n"
    "192-byte proofs in partition order (filecoin-proofs' multi-proof). Exit 0 with a valid proof, 1 when the proof\n"
    "does not verify (nothing is written), 2 for any error (a C1 that does not hold together is named field by\n"
    "field). NI-PoRep C1s are refused: their C2 output is a SnarkPack aggregate, which cuzk does not make.\n"
    "\n"
    "  --c1 FILE               the commit-phase-1 output: Curio's envelope {SectorNum, Phase1Out, SectorSize} or\n"
    "                          the bare SealCommitPhase1Output JSON\n"
    "  --prover-id ID          64 hex digits, or the miner's id (f01234)\n"
    "  --sector-id N           the sector number (default: the envelope's SectorNum)\n"
    "  --registered-proof N    must be the C1's registered proof when given\n"
    "  --params FILE|DIR       the circuit's key: a .params file, or the directory holding it under its v28 name\n"
    "  --vk FILE|DIR           verify with this .vk too (default: the key's own)\n"
    "  --pce FILE              the circuit's compiled shape (cuzk circuit pce); default: built in memory\n"
    "  --proof OUT             the proof (partitions x 192 bytes)\n"
    "  --threads N             worker threads (default: online CPUs)\n";

static int porep_prove(int argc, char **argv)
{
    static const char *const known[] = {"c1", "prover-id", "sector-id", "registered-proof", "params",
                                        "vk", "pce",       "proof",     "threads",          NULL};
    cli_args a;
    if (!cli_parse(&a, "porep prove", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(prove_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error(a.cmd, "unexpected argument '%s'", a.pos[0]);
    const char *params = cli_need(&a, "params"), *out = cli_need(&a, "proof"), *pce = cli_opt(&a, "pce");
    unsigned threads;
    if (params == NULL || out == NULL || !cli_threads(&a, &threads)) return CLI_ERROR;
    cuzk_fil_c1 c1;
    uint8_t prover_id[32];
    uint64_t sector_id;
    int rc = load_c1(&a, &c1, prover_id, &sector_id);
    if (rc != CLI_OK) return rc;
    const cuzk_fil_proof *p = c1.proof;
    if (p->kind == CUZK_FIL_KIND_POREP_NI) {
        cuzk_fil_c1_free(&c1);
        return cli_error(a.cmd,
                         "%s: NI-PoRep's C2 output is a SnarkPack aggregate of its partition proofs, which "
                         "cuzk does not make",
                         p->name);
    }
    cuzk_errmsg err = {{0}};
    cuzk_fil_porep_circuit *c = NULL;
    cuzk_r1cs_t *shape = NULL;
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    memset(&pk, 0, sizeof pk);
    memset(&vk, 0, sizeof vk);
    bool have_vk = false;
    cuzk_groth16_proof_t *proofs = calloc(p->partitions, sizeof *proofs);
    uint8_t *bytes = calloc(p->partitions, CUZK_GROTH16_PROOF_BYTES);
    char kbuf[4096], vbuf[4096];
    const char *kpath = key_path(params, p, false, kbuf, sizeof kbuf);
    cuzk_status s;
    double t0 = cuzk_now();
    if (proofs == NULL || bytes == NULL) {
        rc = cli_error(a.cmd, "out of memory");
        goto out;
    }
    /* the C1 first: a bad one is refused before any key is read */
    if ((s = cuzk_fil_porep_c1_check(&c1, prover_id, sector_id, threads, &err)) != CUZK_OK) {
        rc = cli_fail(a.cmd, cli_opt(&a, "c1"), s, &err);
        goto out;
    }
    cli_step_end(a.cmd, "checking the C1", t0);
    t0 = cuzk_now();
    if ((s = cuzk_fil_porep_circuit_new(&c, p, threads, &err)) != CUZK_OK) {
        rc = cli_fail(a.cmd, p->name, s, &err);
        goto out;
    }
    if (pce != NULL) {
        if ((s = cuzk_r1cs_pce_load(pce, 0, NULL, &shape, &err)) != CUZK_OK ||
            (s = cuzk_fil_porep_check_circuit(c, shape, &err)) != CUZK_OK) {
            rc = cli_fail(a.cmd, pce, s, &err);
            goto out;
        }
    } else if ((s = cuzk_fil_porep_shape(c, threads, &shape, &err)) != CUZK_OK) {
        rc = cli_fail(a.cmd, "the circuit's shape", s, &err);
        goto out;
    }
    cli_step_end(a.cmd, "the circuit", t0);
    t0 = cuzk_now();
    if ((s = cuzk_groth16_params_load(&pk, kpath, 0, threads, &err)) != CUZK_OK) {
        rc = cli_fail(a.cmd, kpath, s, &err);
        goto out;
    }
    if ((s = cuzk_groth16_pk_check_circuit(&pk, shape, &err)) != CUZK_OK) {
        rc = cli_fail(a.cmd, kpath, s, &err);
        goto out;
    }
    const char *vkarg = cli_opt(&a, "vk");
    if (vkarg != NULL) {
        const char *vpath = key_path(vkarg, p, true, vbuf, sizeof vbuf);
        if ((s = cuzk_groth16_vk_load(&vk, vpath, &err)) != CUZK_OK) {
            rc = cli_fail(a.cmd, vpath, s, &err);
            goto out;
        }
        have_vk = true;
    }
    cli_step_end(a.cmd, "loading the key", t0);
    t0 = cuzk_now();
    cuzk_fil_porep_prove_opts po = {.threads = threads, .c1_checked = true};
    cuzk_fil_porep_prove_stats st;
    s = cuzk_fil_porep_prove(c, shape, &pk, NULL, &c1, prover_id, sector_id, &po, proofs, &st, &err);
    if (s == CUZK_OK && have_vk) {
        cuzk_fil_porep_public pub;
        cuzk_fil_porep_public_of_c1(&c1, prover_id, sector_id, &pub);
        s = cuzk_fil_porep_verify(&vk, p, &pub, proofs, p->partitions, &err);
    }
    if (s == CUZK_ERR_PROOF_INVALID) {
        fprintf(stderr, "cuzk %s: the proof does not verify: %s (nothing written)\n", a.cmd, err.msg);
        rc = CLI_INVALID;
        goto out;
    }
    if (s != CUZK_OK) {
        rc = cli_fail(a.cmd, cli_opt(&a, "c1"), s, &err);
        goto out;
    }
    cli_step_end(a.cmd, "proving", t0);
    for (uint32_t k = 0; k < p->partitions; k++)
        cuzk_groth16_proof_to_bytes(bytes + (size_t)k * CUZK_GROTH16_PROOF_BYTES, &proofs[k]);
    if ((s = cli_write_file(out, bytes, (size_t)p->partitions * CUZK_GROTH16_PROOF_BYTES, &err)) != CUZK_OK) {
        rc = cli_fail(a.cmd, out, s, &err);
        goto out;
    }
    printf("{\"registered_proof\": %u, \"partitions\": %u, \"bytes\": %u, \"valid\": true, \"witness_s\": %.3f, "
           "\"prove_s\": %.3f, \"verify_s\": %.3f}\n",
           p->id, p->partitions, p->partitions * CUZK_GROTH16_PROOF_BYTES, st.witness, st.prove, st.verify);
out:
    free(proofs);
    free(bytes);
    cuzk_groth16_vk_free(&vk);
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_free(shape);
    cuzk_fil_porep_circuit_free(c);
    cuzk_fil_c1_free(&c1);
    return rc;
}

/* ---- verify ------------------------------------------------------------------------------------------------------ */

static const char verify_help[] =
    "usage: cuzk porep verify --vk FILE|DIR --proof FILE --registered-proof N --prover-id ID --sector-id N\n"
    "                         --ticket HEX --seed HEX --comm-d HEX --comm-r HEX\n"
    "\n"
    "verify_seal: checks a PoRep proof (partitions x 192 bytes) against the public inputs derived from public data\n"
    "alone (replica id, challenges, graph parents). Prints \"valid\" and exits 0, or \"invalid\" and exits 1; 2 on\n"
    "errors. 32-byte values are 64 hex digits of their bytes in order (comm_d and comm_r as their field elements'\n"
    "little-endian bytes, as the C1 JSON and the chain's commitment bytes hold them).\n";

static int porep_verify(int argc, char **argv)
{
    static const char *const known[] = {"vk",     "proof", "registered-proof", "prover-id", "sector-id",
                                        "ticket", "seed",  "comm-d",           "comm-r",    NULL};
    cli_args a;
    if (!cli_parse(&a, "porep verify", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(verify_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error(a.cmd, "unexpected argument '%s'", a.pos[0]);
    cuzk_fil_porep_public pub;
    const char *vkarg = cli_need(&a, "vk"), *proofp = cli_need(&a, "proof");
    if (vkarg == NULL || proofp == NULL) return CLI_ERROR;
    const cuzk_fil_proof *p = seal_proof_arg(&a, true);
    if (p == NULL || !prover_id_arg(&a, pub.prover_id) || !need_hex32(&a, "ticket", pub.ticket) ||
        !need_hex32(&a, "seed", pub.seed) || !need_hex32(&a, "comm-d", pub.comm_d) ||
        !need_hex32(&a, "comm-r", pub.comm_r) || cli_need(&a, "sector-id") == NULL ||
        !cli_opt_u64(&a, "sector-id", 0, UINT64_MAX, &pub.sector_id))
        return CLI_ERROR;
    if (p->kind == CUZK_FIL_KIND_POREP_NI)
        return cli_error(a.cmd, "%s: an NI-PoRep proof is a SnarkPack aggregate, which cuzk does not verify", p->name);
    cuzk_errmsg err = {{0}};
    char vbuf[4096];
    const char *vpath = key_path(vkarg, p, true, vbuf, sizeof vbuf);
    cuzk_groth16_vk vk;
    cuzk_status s = cli_load_vk(vpath, &vk, &err);
    if (s != CUZK_OK) return cli_fail(a.cmd, vpath, s, &err);
    char *buf = NULL;
    size_t len = 0;
    int rc = CLI_OK;
    cuzk_groth16_proof_t *proofs = calloc(p->partitions, sizeof *proofs);
    if (proofs == NULL) {
        rc = cli_error(a.cmd, "out of memory");
    } else if ((s = cli_read_file(proofp, &buf, &len, &err)) != CUZK_OK) {
        rc = cli_fail(a.cmd, proofp, s, &err);
    } else if (len != (size_t)p->partitions * CUZK_GROTH16_PROOF_BYTES) {
        rc = cli_error(a.cmd, "%s: %zu bytes, a %s proof is %u partitions x 192", proofp, len, p->name, p->partitions);
    } else {
        for (uint32_t k = 0; k < p->partitions && rc == CLI_OK; k++) {
            s = cuzk_groth16_proof_from_bytes(&proofs[k], (const uint8_t *)buf + (size_t)k * CUZK_GROTH16_PROOF_BYTES,
                                              CUZK_GROTH16_PROOF_BYTES);
            if (s != CUZK_OK) {
                cuzk_errmsg e = {{0}};
                cuzk_fail(&e, s, "partition %u's proof", k);
                rc = cli_fail(a.cmd, proofp, s, &e);
            }
        }
    }
    if (rc == CLI_OK) {
        s = cuzk_fil_porep_verify(&vk, p, &pub, proofs, p->partitions, &err);
        if (s == CUZK_OK) {
            printf("valid\n");
        } else if (s == CUZK_ERR_PROOF_INVALID) {
            printf("invalid\n");
            rc = CLI_INVALID;
        } else {
            rc = cli_fail(a.cmd, proofp, s, &err);
        }
    }
    free(buf);
    free(proofs);
    cuzk_groth16_vk_free(&vk);
    return rc;
}

/* ---- check ------------------------------------------------------------------------------------------------------- */

static const char check_help[] =
    "usage: cuzk porep check --c1 FILE --prover-id ID [--sector-id N] [--registered-proof N] [--threads N]\n"
    "\n"
    "Reads a commit-phase-1 output and checks everything the PoRep circuit will enforce (replica id, comm_r,\n"
    "challenges, graph parents, Merkle paths, labels, encoding). Prints the public data as JSON and exits 0 when it\n"
    "holds; exits 2 naming the first field that does not.\n";

static int porep_check(int argc, char **argv)
{
    static const char *const known[] = {"c1", "prover-id", "sector-id", "registered-proof", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "porep check", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(check_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error(a.cmd, "unexpected argument '%s'", a.pos[0]);
    unsigned threads;
    if (!cli_threads(&a, &threads)) return CLI_ERROR;
    cuzk_fil_c1 c1;
    uint8_t prover_id[32];
    uint64_t sector_id;
    int rc = load_c1(&a, &c1, prover_id, &sector_id);
    if (rc != CLI_OK) return rc;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_porep_c1_check(&c1, prover_id, sector_id, threads, &err);
    if (s != CUZK_OK) {
        rc = cli_fail(a.cmd, cli_opt(&a, "c1"), s, &err);
    } else {
        char cr[65], cd[65], tk[65], sd[65], pi[65];
        hex_out(cr, c1.comm_r);
        hex_out(cd, c1.comm_d);
        hex_out(tk, c1.ticket);
        hex_out(sd, c1.seed);
        hex_out(pi, prover_id);
        printf("{\"registered_proof\": %u, \"sector_id\": %" PRIu64 ", \"prover_id\": \"%s\", \"ticket\": \"%s\", "
               "\"seed\": \"%s\", \"comm_d\": \"%s\", \"comm_r\": \"%s\"}\n",
               c1.proof->id, sector_id, pi, tk, sd, cd, cr);
    }
    cuzk_fil_c1_free(&c1);
    return rc;
}

/* ---- test-c1 ----------------------------------------------------------------------------------------------------- */

static const char test_c1_help[] =
    "usage: cuzk porep test-c1 --registered-proof N --prover-id ID --sector-id N --ticket HEX --seed HEX\n"
    "                          [--data FILE] [--wrap] --out FILE [--threads N]\n"
    "\n"
    "Seals a test sector (2 KiB, 8 MiB or 512 MiB proofs) in memory and writes the commit-phase-1 output for it:\n"
    "the bare SealCommitPhase1Output JSON, or with --wrap 1 Curio's envelope. Prints the public data as JSON (the\n"
    "arguments of cuzk porep verify). Not a sealer for real sectors: for tests and benchmarks.\n"
    "\n"
    "  --data FILE   the unpadded sector content (at most size*127/128 bytes; default: zeros)\n"
    "  --wrap 1      write Curio's envelope (SectorNum = --sector-id)\n";

static int porep_test_c1(int argc, char **argv)
{
    static const char *const known[] = {
        "registered-proof", "prover-id", "sector-id", "ticket", "seed", "data", "wrap", "out", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "porep test-c1", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(test_c1_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error(a.cmd, "unexpected argument '%s'", a.pos[0]);
    cuzk_fil_sdr_seal_params sp;
    memset(&sp, 0, sizeof sp);
    uint8_t seed[32];
    uint64_t wrap = 0;
    const cuzk_fil_proof *p = seal_proof_arg(&a, true);
    const char *out = cli_need(&a, "out"), *datap = cli_opt(&a, "data");
    if (p == NULL || out == NULL || !prover_id_arg(&a, sp.prover_id) || !need_hex32(&a, "ticket", sp.ticket) ||
        !need_hex32(&a, "seed", seed) || cli_need(&a, "sector-id") == NULL ||
        !cli_opt_u64(&a, "sector-id", 0, UINT64_MAX, &sp.sector_id) || !cli_opt_u64(&a, "wrap", 0, 1, &wrap) ||
        !cli_threads(&a, &sp.threads))
        return CLI_ERROR;
    if (p->sector_size > (512ULL << 20))
        return cli_error(a.cmd, "%s: the test sealer takes the 2 KiB, 8 MiB and 512 MiB proofs", p->name);
    sp.sector_size = p->sector_size;
    sp.api = (cuzk_fil_sdr_api)p->api;
    memcpy(sp.porep_id, p->porep_id, 32);
    cuzk_errmsg err = {{0}};
    char *data = NULL;
    size_t len = 0;
    cuzk_status s;
    if (datap != NULL && (s = cli_read_file(datap, &data, &len, &err)) != CUZK_OK)
        return cli_fail(a.cmd, datap, s, &err);
    cuzk_fil_sdr_replica r;
    double t0 = cuzk_now();
    s = cuzk_fil_sdr_seal(&sp, (const uint8_t *)data, len, &r, &err);
    free(data);
    if (s != CUZK_OK) return cli_fail(a.cmd, datap != NULL ? datap : "sealing", s, &err);
    cli_step_end(a.cmd, "sealing", t0);
    cuzk_fil_c1 c1;
    s = cuzk_fil_porep_c1_from_replica(&r, p, sp.ticket, seed, &c1, &err);
    cuzk_fil_sdr_replica_free(&r);
    if (s != CUZK_OK) return cli_fail(a.cmd, "commit phase 1", s, &err);
    c1.sector_num = sp.sector_id;
    int rc = CLI_OK;
    FILE *f = fopen(out, "wb");
    if (f == NULL) {
        rc = cli_error(a.cmd, "%s: %s", out, strerror(errno));
    } else {
        s = cuzk_fil_c1_write_json(&c1, wrap != 0, f, &err);
        if (fclose(f) != 0 && s == CUZK_OK) s = cuzk_fail(&err, CUZK_ERR_IO, "%s", strerror(errno));
        if (s != CUZK_OK) rc = cli_fail(a.cmd, out, s, &err);
    }
    if (rc == CLI_OK) {
        char cr[65], cd[65], tk[65], sd[65], pi[65];
        hex_out(cr, c1.comm_r);
        hex_out(cd, c1.comm_d);
        hex_out(tk, c1.ticket);
        hex_out(sd, c1.seed);
        hex_out(pi, sp.prover_id);
        printf("{\"registered_proof\": %u, \"sector_id\": %" PRIu64 ", \"prover_id\": \"%s\", \"ticket\": \"%s\", "
               "\"seed\": \"%s\", \"comm_d\": \"%s\", \"comm_r\": \"%s\"}\n",
               p->id, sp.sector_id, pi, tk, sd, cd, cr);
    }
    cuzk_fil_c1_free(&c1);
    return rc;
}

/* ---- dispatch ---------------------------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} subs[] = {
    {"prove", porep_prove, "commit phase 2: check a C1, prove every partition, verify, write the proof"},
    {"verify", porep_verify, "verify a PoRep proof from public data (verify_seal)"},
    {"check", porep_check, "check that a C1 holds together (what prove checks first)"},
    {"test-c1", porep_test_c1, "seal a test sector in memory and write its C1"},
};

int cmd_porep(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        FILE *f = argc < 1 ? stderr : stdout;
        fprintf(f, "usage: cuzk porep SUBCOMMAND [OPTIONS]   (cuzk porep SUBCOMMAND --help)\n\n");
        for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
            fprintf(f, "  %-8s %s\n", subs[i].name, subs[i].summary);
        return argc < 1 ? CLI_ERROR : CLI_OK;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[0], subs[i].name) == 0) return subs[i].run(argc - 1, argv + 1);
    return cli_error("porep", "unknown subcommand '%s' (prove, verify, check, test-c1)", argv[0]);
}
