/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk snap: SnapDeals (EmptySectorUpdate) proofs from Curio's vanilla proofs — gen-vanilla (a native update of a
 * small sector), prove (every partition, self-verified), verify (from the request's public data and a .vk). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cuzk/filecoin.h"

static const char snap_help[] =
    "usage: cuzk snap gen-vanilla --sector-size S --out PREFIX [--json FILE] [--seed N] [--threads N]\n"
    "       cuzk snap prove --vanilla FILE... --comm-r-old C --comm-d-new C --comm-r-new C\n"
    "                       [--registered-proof N] [--sector-size S] --params FILE|DIR [--pce FILE | --cache DIR]\n"
    "                       --proof OUT [--h H] [--threads N]\n"
    "       cuzk snap verify --vk FILE --proof FILE --comm-r-old C --comm-d-new C --comm-r-new C\n"
    "                        [--registered-proof N] [--sector-size S] [--h H]\n"
    "\n"
    "SnapDeals (EmptySectorUpdate) proofs: one Groth16 proof per partition, concatenated in partition order (192\n"
    "bytes each), from the vanilla proofs Curio sends (one bincode PartitionProof per partition).\n"
    "\n"
    "gen-vanilla  encodes random new data into a random replica of a small sector natively (tree D, trees R old and\n"
    "             new) and writes each partition proof to PREFIX-K.vproof (and with --json, all of them as Curio\n"
    "             stores them: a JSON array of base64 strings); prints the commitments as one JSON line.\n"
    "prove        checks every partition proof against the request (challenges, roots, commitments, paths,\n"
    "             encoding), makes its witness and proof, verifies the proof with the key's verifying key, and\n"
    "             writes OUT only when every partition's proof is valid.\n"
    "verify       checks a proof file against the public inputs derived from the request.\n"
    "\n"
    "  --vanilla FILE...      the partition proofs in partition order (bincode files, or one JSON array file)\n"
    "  --comm-r-old C etc.    64 hex digits (the 32 bytes as sent), or a commitment CID (binary as hex, or text)\n"
    "  --registered-proof N   abi.RegisteredUpdateProof (0 2 KiB, 1 8 MiB, 2 512 MiB, 3 32 GiB, 4 64 GiB)\n"
    "  --sector-size S        2KiB, 32GiB, ... (also the test sizes 1, 4, 8, 16, 32 KiB and 16 MiB)\n"
    "  --params FILE|DIR      a bellperson .params file, or the directory holding Filecoin's (name derived)\n"
    "  --pce FILE             the circuit's .pce (cuzk circuit pce); default: built in memory\n"
    "  --cache DIR            the shape cache directory: the circuit's .pce there, built and stored when missing\n"
    "  --h H                  the encoding's high bits (default: the registered proof's)\n"
    "  --threads N            worker threads (default: online CPUs)\n"
    "\n"
    "Exit status: 0 valid, 1 invalid (a proof did not verify), 2 error (the message names the file and field).\n";

/* ---- commitments ------------------------------------------------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* RFC 4648 base32, lower case, no padding (multibase 'b') */
static size_t base32_decode(const char *s, uint8_t *out, size_t cap)
{
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t n = 0;
    for (; *s != '\0'; s++) {
        int v = *s >= 'a' && *s <= 'z' ? *s - 'a' : *s >= '2' && *s <= '7' ? *s - '2' + 26 : -1;
        if (v < 0) return 0;
        acc = acc << 5 | (uint32_t)v;
        bits += 5;
        if (bits >= 8) {
            if (n == cap) return 0;
            out[n++] = (uint8_t)(acc >> (bits - 8));
            bits -= 8;
        }
    }
    return n;
}

/* 64 hex digits, the binary CID as hex, or the CID's text form */
static bool parse_comm(const char *cmd, const char *name, const char *s, uint8_t out[32])
{
    uint8_t buf[64];
    size_t n = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    size_t len = strlen(s);
    bool hex = len % 2 == 0 && len / 2 <= sizeof buf;
    for (size_t i = 0; hex && i < len; i++) hex = hexval(s[i]) >= 0;
    if (hex) {
        for (size_t i = 0; i < len / 2; i++) buf[i] = (uint8_t)(hexval(s[2 * i]) << 4 | hexval(s[2 * i + 1]));
        n = len / 2;
    } else if (s[0] == 'b') {
        n = base32_decode(s + 1, buf, sizeof buf);
    }
    cuzk_errmsg err = {{0}};
    cuzk_status st = n > 0 ? cuzk_fil_commitment_parse(buf, n, out, &err) : CUZK_ERR_INVALID_ARG;
    if (st != CUZK_OK) {
        cli_error(cmd, "--%s '%s': %s", name, s, n > 0 ? err.msg : "not hex digits nor a commitment CID");
        return false;
    }
    return true;
}

static void put_hex(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
}

/* ---- the registered proof or test geometry ----------------------------------------------------------------------- */

static const cuzk_fil_proof *resolve(const char *cmd, const cli_args *a)
{
    const char *rp = cli_opt(a, "registered-proof"), *ss = cli_opt(a, "sector-size");
    const cuzk_fil_proof *p = NULL;
    if (rp == NULL && ss == NULL) {
        cli_error(cmd, "give --registered-proof N or --sector-size S");
        return NULL;
    }
    if (rp != NULL) {
        uint64_t id;
        if (!cli_opt_u64(a, "registered-proof", 0, UINT32_MAX, &id)) return NULL;
        p = cuzk_fil_proof_find(CUZK_FIL_CLASS_UPDATE, id);
        if (p == NULL) {
            cli_error(cmd, "--registered-proof %llu is not a RegisteredUpdateProof (0 .. 4)", (unsigned long long)id);
            return NULL;
        }
    }
    if (ss != NULL) {
        uint64_t bytes;
        const cuzk_fil_proof *g = cuzk_fil_size_parse(ss, &bytes) ? cuzk_fil_snap_geometry(bytes) : NULL;
        if (g == NULL) {
            cli_error(cmd, "--sector-size '%s' is not a SnapDeals sector size", ss);
            return NULL;
        }
        if (p != NULL && p != g) {
            cli_error(cmd, "--sector-size %s disagrees with --registered-proof (%s)", ss, p->name);
            return NULL;
        }
        p = g;
    }
    return p;
}

typedef struct {
    const cuzk_fil_proof *p;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    uint32_t h;
} request;

static bool parse_request(const char *cmd, const cli_args *a, request *rq)
{
    memset(rq, 0, sizeof *rq);
    if ((rq->p = resolve(cmd, a)) == NULL) return false;
    const char *names[3] = {"comm-r-old", "comm-d-new", "comm-r-new"};
    uint8_t *outs[3] = {rq->comm_r_old, rq->comm_d_new, rq->comm_r_new};
    for (int i = 0; i < 3; i++) {
        const char *v = cli_need(a, names[i]);
        if (v == NULL || !parse_comm(cmd, names[i], v, outs[i])) return false;
    }
    uint64_t h = 0;
    if (!cli_opt_u64(a, "h", 1, 64, &h)) return false;
    rq->h = (uint32_t)h;
    uint64_t kh;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_snap_k_and_h_select(rq->p, 0, rq->h, &kh, &err);
    if (s != CUZK_OK) return cli_fail(cmd, "--h", s, &err), false;
    return true;
}

/* ---- vanilla proof files ----------------------------------------------------------------------------------------- */

typedef struct {
    uint8_t *buf[CLI_MAX_POS + 1];
    size_t len[CLI_MAX_POS + 1];
    char what[CLI_MAX_POS + 1][300];
    size_t n;
    char *json; /* the JSON array file, when given one */
} vanilla_set;

static void vanilla_free(vanilla_set *v)
{
    for (size_t i = 0; i < v->n; i++) free(v->buf[i]);
    free(v->json);
    memset(v, 0, sizeof *v);
}

static int b64val(char c)
{
    return c >= 'A' && c <= 'Z'   ? c - 'A'
           : c >= 'a' && c <= 'z' ? c - 'a' + 26
           : c >= '0' && c <= '9' ? c - '0' + 52
           : c == '+'             ? 62
           : c == '/'             ? 63
                                  : -1;
}

/* Curio's snap vanilla proof file: JSON [][]byte, i.e. an array of standard base64 strings. */
static cuzk_status parse_json_array(const char *path, const char *s, vanilla_set *v, cuzk_errmsg *err)
{
    const char *p = s;
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
    if (*p++ != '[') return cuzk_fail(err, CUZK_ERR_BAD_JSON, "not a JSON array");
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
        if (*p == ']' && v->n == 0) break;
        if (*p != '"') return cuzk_fail(err, CUZK_ERR_BAD_JSON, "element %zu is not a base64 string", v->n);
        const char *q = ++p;
        while (*q != '"' && *q != '\0') q++;
        if (*q != '"') return cuzk_fail(err, CUZK_ERR_BAD_JSON, "element %zu: unterminated string", v->n);
        if (v->n == CLI_MAX_POS + 1) return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "more than %d elements", CLI_MAX_POS);
        size_t cap = (size_t)(q - p) / 4 * 3 + 3, n = 0;
        uint8_t *out = malloc(cap);
        if (out == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu bytes", cap);
        uint32_t acc = 0;
        unsigned bits = 0;
        for (const char *c = p; c < q; c++) {
            if (*c == '=') break;
            int val = b64val(*c);
            if (val < 0) {
                free(out);
                return cuzk_fail(err, CUZK_ERR_BAD_JSON, "element %zu: '%c' is not base64", v->n, *c);
            }
            acc = acc << 6 | (uint32_t)val;
            bits += 6;
            if (bits >= 8) {
                out[n++] = (uint8_t)(acc >> (bits - 8));
                bits -= 8;
            }
        }
        v->buf[v->n] = out;
        v->len[v->n] = n;
        snprintf(v->what[v->n], sizeof v->what[0], "%s[%zu]", path, v->n);
        v->n++;
        p = q + 1;
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == ']') break;
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "expected ',' or ']' after element %zu", v->n - 1);
    }
    return CUZK_OK;
}

/* --vanilla FILE then any further files given as arguments */
static bool load_vanilla(const char *cmd, const cli_args *a, vanilla_set *v)
{
    memset(v, 0, sizeof *v);
    const char *first = cli_need(a, "vanilla");
    if (first == NULL) return false;
    const char *files[CLI_MAX_POS + 1];
    size_t nf = 0;
    files[nf++] = first;
    for (int i = 0; i < a->npos; i++) files[nf++] = a->pos[i];
    for (size_t i = 0; i < nf; i++) {
        char *buf;
        size_t len;
        cuzk_errmsg err = {{0}};
        cuzk_status s = cli_read_file(files[i], &buf, &len, &err);
        if (s != CUZK_OK) {
            vanilla_free(v);
            return cli_fail(cmd, files[i], s, &err), false;
        }
        size_t j = 0;
        while (j < len && (buf[j] == ' ' || buf[j] == '\n' || buf[j] == '\r' || buf[j] == '\t')) j++;
        if (nf == 1 && j < len && buf[j] == '[') {
            v->json = buf;
            if ((s = parse_json_array(files[i], buf, v, &err)) != CUZK_OK) {
                vanilla_free(v);
                return cli_fail(cmd, files[i], s, &err), false;
            }
            return true;
        }
        v->buf[v->n] = (uint8_t *)buf;
        v->len[v->n] = len;
        snprintf(v->what[v->n], sizeof v->what[0], "%s", files[i]);
        v->n++;
    }
    return true;
}

/* ---- gen-vanilla ------------------------------------------------------------------------------------------------- */

static int snap_gen(int argc, char **argv)
{
    static const char *const known[] = {"sector-size", "registered-proof", "out", "json", "seed", "threads", NULL};
    const char *cmd = "snap gen-vanilla";
    cli_args a;
    if (!cli_parse(&a, cmd, known, argc, argv)) return CLI_ERROR;
    if (a.help) return fputs(snap_help, stdout), CLI_OK;
    if (a.npos > 0) return cli_error(cmd, "unexpected argument '%s'", a.pos[0]);
    const cuzk_fil_proof *p = resolve(cmd, &a);
    const char *prefix = cli_need(&a, "out"), *json = cli_opt(&a, "json");
    uint64_t seed = 1;
    unsigned threads;
    if (p == NULL || prefix == NULL || !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed) || !cli_threads(&a, &threads))
        return CLI_ERROR;
    cuzk_errmsg err = {{0}};
    cuzk_fil_snap_update u;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_fil_snap_update_random(p, seed, threads, &u, &err);
    if (s != CUZK_OK) return cli_fail(cmd, p->name, s, &err);
    double dt = cli_step_end(cmd, "the update", t0);
    int rc = CLI_OK;
    for (uint32_t k = 0; k < u.partitions && rc == CLI_OK; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s-%u.vproof", prefix, k);
        if ((s = cli_write_file(path, u.vanilla + u.partition_bytes * k, u.partition_bytes, &err)) != CUZK_OK)
            rc = cli_fail(cmd, path, s, &err);
    }
    if (rc == CLI_OK && json != NULL &&
        (s = cli_write_b64_array(json, u.vanilla, u.partitions, u.partition_bytes, &err)) != CUZK_OK)
        rc = cli_fail(cmd, json, s, &err);
    if (rc == CLI_OK) {
        char sz[24];
        printf("{\"proof\": \"%s\", \"sector_size\": \"%s\", \"partitions\": %u, \"partition_bytes\": %zu, ", p->name,
               cuzk_fil_size_str(p->sector_size, sz), u.partitions, u.partition_bytes);
        printf("\"comm_r_old\": \"");
        put_hex(u.comm_r_old, 32);
        printf("\", \"comm_d_new\": \"");
        put_hex(u.comm_d_new, 32);
        printf("\", \"comm_r_new\": \"");
        put_hex(u.comm_r_new, 32);
        printf("\", \"comm_c\": \"");
        put_hex(u.comm_c, 32);
        printf("\", \"seconds\": %.3f}\n", dt);
    }
    cuzk_fil_snap_update_free(&u);
    return rc;
}

/* ---- prove ------------------------------------------------------------------------------------------------------- */

static int snap_prove(int argc, char **argv)
{
    static const char *const known[] = {"vanilla",     "comm-r-old", "comm-d-new", "comm-r-new", "registered-proof",
                                        "sector-size", "params",     "pce",        "cache",      "proof",
                                        "h",           "threads",    NULL};
    const char *cmd = "snap prove";
    cli_args a;
    if (!cli_parse(&a, cmd, known, argc, argv)) return CLI_ERROR;
    if (a.help) return fputs(snap_help, stdout), CLI_OK;
    request rq;
    unsigned threads;
    if (!parse_request(cmd, &a, &rq) || !cli_threads(&a, &threads)) return CLI_ERROR;
    const cuzk_fil_proof *p = rq.p;
    const char *params = cli_need(&a, "params"), *pce = cli_opt(&a, "pce"), *out = cli_need(&a, "proof");
    const char *cache = cli_opt(&a, "cache");
    if (params == NULL || out == NULL) return CLI_ERROR;
    if (pce != NULL && cache != NULL) return cli_error(cmd, "--pce and --cache: give one");
    vanilla_set v;
    if (!load_vanilla(cmd, &a, &v)) return CLI_ERROR;
    if (v.n != p->partitions) {
        size_t n = v.n;
        vanilla_free(&v);
        return cli_error(cmd, "%zu vanilla proofs, %s has %u partitions", n, p->name, p->partitions);
    }

    /* the key: a file, or Filecoin's file name in a directory */
    char keypath[4200];
    cuzk_errmsg err = {{0}};
    snprintf(keypath, sizeof keypath, "%s", params);
    struct stat st;
    if (stat(params, &st) == 0 && S_ISDIR(st.st_mode)) {
        char name[400];
        if (p->id == CUZK_FIL_SNAP_TEST_ID || cuzk_fil_proof_param_name(p, false, name, sizeof name, &err) != CUZK_OK) {
            vanilla_free(&v);
            return cli_error(cmd, "%s is a directory, and %s has no Filecoin parameter file: give the file", params,
                             p->name);
        }
        snprintf(keypath, sizeof keypath, "%s/%s", params, name);
    }

    int rc = CLI_OK;
    cuzk_status s;
    cuzk_r1cs_t *r = NULL;
    cuzk_groth16_pk pk;
    memset(&pk, 0, sizeof pk);
    cuzk_fr_t *z = NULL;
    uint8_t *proofs = NULL;
    cuzk_fil_snap_partition *parts = calloc(p->partitions, sizeof *parts);
    if (parts == NULL) {
        vanilla_free(&v);
        return cli_error(cmd, "no memory for %u partitions", p->partitions);
    }
    /* every partition proof decoded and checked against the request before anything large is loaded */
    double t0 = cuzk_now();
    for (uint32_t k = 0; k < p->partitions; k++) {
        s = cuzk_fil_snap_partition_decode(p, v.buf[k], v.len[k], &parts[k], &err);
        if (s == CUZK_OK) {
            cuzk_fil_snap_circuit c = {p, k, rq.h, &parts[k], rq.comm_r_old, rq.comm_d_new, rq.comm_r_new};
            s = cuzk_fil_snap_validate(&c, threads, &err);
        }
        if (s != CUZK_OK) {
            char what[400];
            snprintf(what, sizeof what, "%s (partition %u)", v.what[k], k);
            rc = cli_fail(cmd, what, s, &err);
            goto out;
        }
    }
    double t_check = cli_step_end(cmd, "checking the vanilla proofs", t0);
    if (access(keypath, R_OK) != 0) {
        rc = cli_error(cmd, "%s: cannot read: %s", keypath, strerror(errno));
        goto out;
    }
    t0 = cuzk_now();
    if (pce != NULL) s = cuzk_r1cs_pce_load(pce, 0, NULL, &r, &err);
    else if (cache != NULL) s = cuzk_fil_shape_load_or_build(cache, p, threads, 0, &r, NULL, &err);
    else s = cuzk_fil_snap_shape(p, threads, &r, &err);
    if (s != CUZK_OK) {
        rc = cli_fail(cmd, pce != NULL ? pce : cache != NULL ? cache : "the circuit", s, &err);
        goto out;
    }
    double t_shape = cli_step_end(cmd,
                                  pce != NULL     ? "loading the circuit"
                                  : cache != NULL ? "the circuit from the shape cache"
                                                  : "building the circuit",
                                  t0);
    t0 = cuzk_now();
    if ((s = cuzk_groth16_params_load(&pk, keypath, 0, threads, &err)) != CUZK_OK) {
        rc = cli_fail(cmd, keypath, s, &err);
        goto out;
    }
    double t_key = cli_step_end(cmd, "loading the key", t0);
    if ((s = cuzk_groth16_pk_check_circuit(&pk, r, &err)) != CUZK_OK) {
        char what[8500];
        snprintf(what, sizeof what, "%s and %s's circuit", keypath, p->name);
        rc = cli_fail(cmd, what, s, &err);
        goto out;
    }
    if (r->num_inputs != CUZK_FIL_SNAP_INPUTS) {
        rc = cli_error(cmd, "%s: %u public inputs, not a SnapDeals circuit", pce != NULL ? pce : keypath,
                       r->num_inputs);
        goto out;
    }
    uint64_t nv = cuzk_r1cs_num_vars(r);
    z = malloc(nv * sizeof *z);
    proofs = malloc((size_t)p->partitions * CUZK_GROTH16_PROOF_BYTES);
    if (z == NULL || proofs == NULL) {
        rc = cli_error(cmd, "no memory for a %llu-variable witness", (unsigned long long)nv);
        goto out;
    }
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk.vk);
    double t_wit = 0, t_prove = 0;
    for (uint32_t k = 0; k < p->partitions && rc == CLI_OK; k++) {
        cuzk_fil_snap_circuit c = {p, k, rq.h, &parts[k], rq.comm_r_old, rq.comm_d_new, rq.comm_r_new};
        t0 = cuzk_now();
        s = cuzk_fil_snap_witness(&c, threads, z, nv, &err);
        t_wit += cuzk_now() - t0;
        if (s != CUZK_OK) {
            char what[400];
            snprintf(what, sizeof what, "%s (partition %u)", v.what[k], k);
            rc = cli_fail(cmd, what, s, &err);
            break;
        }
        cuzk_groth16_prove_opts po;
        memset(&po, 0, sizeof po);
        po.threads = threads;
        po.c_mode = CUZK_R1CS_C_CHECKED;
        cuzk_groth16_proof_t proof;
        t0 = cuzk_now();
        s = cuzk_groth16_prove(&proof, &pk, r, z, &po, NULL, &err);
        t_prove += cuzk_now() - t0;
        if (s != CUZK_OK) {
            char what[400];
            snprintf(what, sizeof what, "partition %u", k);
            rc = cli_fail(cmd, what, s, &err);
            break;
        }
        s = cuzk_groth16_verify(&pvk, &proof, z + 1, CUZK_FIL_SNAP_INPUTS - 1);
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzk %s: partition %u: the proof does not verify with %s's verifying key\n", cmd, k,
                    keypath);
            rc = s == CUZK_ERR_PROOF_INVALID ? CLI_INVALID : CLI_ERROR;
            break;
        }
        cuzk_groth16_proof_to_bytes(proofs + (size_t)k * CUZK_GROTH16_PROOF_BYTES, &proof);
    }
    if (rc == CLI_OK) {
        if ((s = cli_write_file(out, proofs, (size_t)p->partitions * CUZK_GROTH16_PROOF_BYTES, &err)) != CUZK_OK) {
            rc = cli_fail(cmd, out, s, &err);
        } else {
            printf("{\"proof\": \"%s\", \"partitions\": %u, \"bytes\": %u, \"constraints\": %llu, "
                   "\"check_s\": %.3f, \"shape_s\": %.3f, \"key_s\": %.3f, \"witness_s\": %.3f, \"prove_s\": %.3f, "
                   "\"valid\": true}\n",
                   p->name, p->partitions, p->partitions * CUZK_GROTH16_PROOF_BYTES,
                   (unsigned long long)r->num_constraints, t_check, t_shape, t_key, t_wit, t_prove);
        }
    }
out:
    for (uint32_t k = 0; k < p->partitions; k++) cuzk_fil_snap_partition_free(&parts[k]);
    free(parts);
    free(z);
    free(proofs);
    cuzk_r1cs_free(r);
    cuzk_groth16_pk_free(&pk);
    vanilla_free(&v);
    return rc;
}

/* ---- verify ------------------------------------------------------------------------------------------------------ */

static int snap_verify(int argc, char **argv)
{
    static const char *const known[] = {
        "vk", "proof", "comm-r-old", "comm-d-new", "comm-r-new", "registered-proof", "sector-size", "h", NULL};
    const char *cmd = "snap verify";
    cli_args a;
    if (!cli_parse(&a, cmd, known, argc, argv)) return CLI_ERROR;
    if (a.help) return fputs(snap_help, stdout), CLI_OK;
    if (a.npos > 0) return cli_error(cmd, "unexpected argument '%s'", a.pos[0]);
    request rq;
    if (!parse_request(cmd, &a, &rq)) return CLI_ERROR;
    const cuzk_fil_proof *p = rq.p;
    const char *vkp = cli_need(&a, "vk"), *proofp = cli_need(&a, "proof");
    if (vkp == NULL || proofp == NULL) return CLI_ERROR;
    cuzk_errmsg err = {{0}};
    cuzk_groth16_vk vk;
    cuzk_status s = cli_load_vk(vkp, &vk, &err);
    if (s != CUZK_OK) return cli_fail(cmd, vkp, s, &err);
    int rc = CLI_OK;
    char *buf = NULL;
    size_t len = 0;
    if (vk.num_inputs != CUZK_FIL_SNAP_INPUTS) {
        rc = cli_error(cmd, "%s: a key for %llu public inputs, SnapDeals has %u", vkp,
                       (unsigned long long)vk.num_inputs - 1, CUZK_FIL_SNAP_INPUTS - 1);
    } else if ((s = cli_read_file(proofp, &buf, &len, &err)) != CUZK_OK) {
        rc = cli_fail(cmd, proofp, s, &err);
    } else if (len != (size_t)p->partitions * CUZK_GROTH16_PROOF_BYTES) {
        rc = cli_error(cmd, "%s: %zu bytes, %s's proof is %u partitions of %d", proofp, len, p->name, p->partitions,
                       CUZK_GROTH16_PROOF_BYTES);
    } else {
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &vk);
        for (uint32_t k = 0; k < p->partitions && rc == CLI_OK; k++) {
            cuzk_fr_t pub[4];
            cuzk_groth16_proof_t proof;
            if ((s = cuzk_fil_snap_public_inputs(p, k, rq.h, rq.comm_r_old, rq.comm_d_new, rq.comm_r_new, pub, &err)) !=
                CUZK_OK) {
                rc = cli_fail(cmd, "the public inputs", s, &err);
            } else if ((s = cuzk_groth16_proof_from_bytes(&proof,
                                                          (const uint8_t *)buf + (size_t)k * CUZK_GROTH16_PROOF_BYTES,
                                                          CUZK_GROTH16_PROOF_BYTES)) != CUZK_OK) {
                rc = cli_error(cmd, "%s: partition %u's proof: %s", proofp, k, cuzk_status_str(s));
            } else if ((s = cuzk_groth16_verify(&pvk, &proof, pub, 4)) == CUZK_ERR_PROOF_INVALID) {
                printf("invalid (partition %u)\n", k);
                rc = CLI_INVALID;
            } else if (s != CUZK_OK) {
                rc = cli_fail(cmd, proofp, s, NULL);
            }
        }
        if (rc == CLI_OK) printf("valid\n");
    }
    free(buf);
    cuzk_groth16_vk_free(&vk);
    return rc;
}

int cmd_snap(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } sub[] = {{"gen-vanilla", snap_gen}, {"prove", snap_prove}, {"verify", snap_verify}};
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        fputs(snap_help, argc < 1 ? stderr : stdout);
        return argc < 1 ? CLI_ERROR : CLI_OK;
    }
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++)
        if (strcmp(argv[0], sub[i].name) == 0) return sub[i].run(argc - 1, argv + 1);
    return cli_error("snap", "unknown subcommand '%s' (gen-vanilla, prove, verify)", argv[0]);
}
