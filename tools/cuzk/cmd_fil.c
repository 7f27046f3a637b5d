/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk circuit (info, pce) and cuzk post (prove, verify): the circuits of Filecoin's registered proofs and PoSt proofs
 * made from vanilla proofs with .params keys. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cuzk/filecoin.h"

/* ---- which registered proof ---------------------------------------------------------------------------------------
 * --kind names a row of this table: a circuit family with its class and kind. */
static const struct {
    const char *name;
    cuzk_fil_class cls;
    cuzk_fil_kind kind;
} kinds[] = {
    {"winning", CUZK_FIL_CLASS_POST, CUZK_FIL_KIND_WINNING_POST},
    {"window", CUZK_FIL_CLASS_POST, CUZK_FIL_KIND_WINDOW_POST},
    {"porep", CUZK_FIL_CLASS_SEAL, CUZK_FIL_KIND_POREP},
    {"snap", CUZK_FIL_CLASS_UPDATE, CUZK_FIL_KIND_SNAP},
};

static const char *const api_names[] = {"V1_0", "V1_1", "V1_2"};

/* The registered proof of --kind, --sector-size and --api (default: the newest API of that circuit); for snap, also
 * storage-proofs-update's test sizes, which have a circuit but no registered proof (cuzk_fil_snap_geometry). */
static const cuzk_fil_proof *pick_proof(const char *cmd, const char *kind, const char *size, const char *api)
{
    int k = -1;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && kind != NULL; i++)
        if (strcmp(kinds[i].name, kind) == 0) k = (int)i;
    if (k < 0) {
        cli_error(cmd, "--kind '%s': one of winning, window, porep, snap", kind != NULL ? kind : "");
        return NULL;
    }
    uint64_t bytes;
    if (size == NULL || !cuzk_fil_size_parse(size, &bytes)) {
        cli_error(cmd, "--sector-size '%s': one of 2KiB, 8MiB, 512MiB, 32GiB, 64GiB", size != NULL ? size : "");
        return NULL;
    }
    int want_api = -1;
    if (api != NULL) {
        for (int i = 0; i < 3; i++)
            if (strcmp(api, api_names[i]) == 0) want_api = i;
        if (want_api < 0) {
            cli_error(cmd, "--api '%s': one of V1_0, V1_1, V1_2", api);
            return NULL;
        }
    }
    const cuzk_fil_proof *best = NULL;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != kinds[k].cls || p->kind != kinds[k].kind || p->sector_size != bytes) continue;
        if (want_api >= 0 ? (int)p->api != want_api : best != NULL && p->api <= best->api) continue;
        best = p;
    }
    if (best == NULL && kinds[k].kind == CUZK_FIL_KIND_SNAP) {
        const cuzk_fil_proof *g = cuzk_fil_snap_geometry(bytes);
        if (g != NULL && g->id == CUZK_FIL_SNAP_TEST_ID && (want_api < 0 || (int)g->api == want_api)) best = g;
    }
    if (best == NULL) {
        char b[24];
        cli_error(cmd, "no %s registered proof%s for %s sectors%s%s", kinds[k].name,
                  kinds[k].kind == CUZK_FIL_KIND_SNAP ? " or test size" : "", cuzk_fil_size_str(bytes, b),
                  api != NULL ? " under API " : "", api != NULL ? api : "");
    }
    return best;
}

static void hex_of(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* 64 hex digits, optionally 0x-prefixed, into 32 bytes in the order written (the byte string Filecoin carries). */
static bool parse_hex32(const char *s, uint8_t out[32])
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (strlen(s) != 64) return false;
    for (int i = 0; i < 32; i++) {
        unsigned v;
        if (!isxdigit((unsigned char)s[2 * i]) || !isxdigit((unsigned char)s[2 * i + 1]) ||
            sscanf(s + 2 * i, "%2x", &v) != 1)
            return false;
        out[i] = (uint8_t)v;
    }
    return true;
}

/* --prover-id: 64 hex digits, or a miner address f0N / t0N (Lotus' toProverID: the actor id as LEB128). */
static bool parse_prover(const char *cmd, const char *s, uint8_t out[32])
{
    if ((s[0] == 'f' || s[0] == 't') && s[1] == '0' && s[2] != '\0') {
        char *end;
        errno = 0;
        unsigned long long id = strtoull(s + 2, &end, 10);
        if (*end == '\0' && errno == 0 && isdigit((unsigned char)s[2])) {
            cuzk_fil_prover_id(id, out);
            return true;
        }
    }
    if (parse_hex32(s, out)) return true;
    cli_error(cmd, "--prover-id '%s': 64 hex digits or a miner address (f0…)", s);
    return false;
}

static bool below_r(const uint8_t b[32])
{
    cuzk_fr_t f;
    return cuzk_fr_from_bytes_le(&f, b) == CUZK_OK;
}

/* ---- cuzk circuit ------------------------------------------------------------------------------------------------ */

static const char circuit_help[] =
    "usage: cuzk circuit info --kind KIND --sector-size S [--api V] [--json] [--no-hash] [--cache DIR] [--threads N]\n"
    "       cuzk circuit pce --kind KIND --sector-size S [--api V] --out FILE.pce [--threads N]\n"
    "\n"
    "The Groth16 circuit of a Filecoin registered proof, as cuzk synthesizes it (bellperson's variables and rows).\n"
    "info prints its constraints, inputs (ONE included), aux variables, non-zeros of A, B and C, the bellperson\n"
    "domain, its cache key and its canonical hash (the SHA-256 identity of the matrices, which needs the shape:\n"
    "built in memory, or loaded from / stored in the shape cache DIR; --no-hash skips it). pce writes the shape as\n"
    "a PCE file, which `cuzk setup --pce FILE` turns into a test key of the real shape.\n"
    "\n"
    "  --kind KIND       winning, window, porep, snap\n"
    "  --sector-size S   2KiB, 8MiB, 512MiB, 32GiB, 64GiB; snap also its test sizes 1, 4, 8, 16, 32 KiB and 16 MiB\n"
    "  --api V           V1_0, V1_1, V1_2 (default: the newest; every API of a kind and size has the same circuit)\n"
    "  --cache DIR       shape cache directory (PCE files named by the circuit's key)\n"
    "  --threads N       worker threads (default: online CPUs)\n";

static int take_flag(int *argc, char **argv, const char *flag)
{
    int n = 0, found = 0;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], flag) == 0) found = 1;
        else argv[n++] = argv[i];
    }
    *argc = n;
    return found;
}

static int circuit_info(int argc, char **argv)
{
    static const char *const known[] = {"kind", "sector-size", "api", "cache", "threads", NULL};
    bool json = take_flag(&argc, argv, "--json"), no_hash = take_flag(&argc, argv, "--no-hash");
    cli_args a;
    if (!cli_parse(&a, "circuit info", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(circuit_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("circuit info", "unexpected argument '%s'", a.pos[0]);
    unsigned threads;
    if (!cli_threads(&a, &threads)) return CLI_ERROR;
    const cuzk_fil_proof *p = pick_proof("circuit info", cli_need(&a, "kind"), cli_need(&a, "sector-size"),
                                         cli_opt(&a, "api"));
    if (p == NULL) return CLI_ERROR;
    cuzk_errmsg err = {{0}};
    cuzk_cs_counts c;
    cuzk_status s = cuzk_fil_circuit_counts(p, &c, &err);
    if (s != CUZK_OK) return cli_fail("circuit info", p->name, s, &err);
    char key[128], hash[65] = "";
    if ((s = cuzk_fil_circuit_key(p, key, sizeof key, &err)) != CUZK_OK)
        return cli_fail("circuit info", p->name, s, &err);
    if (!no_hash) {
        cuzk_r1cs_t *r;
        const char *dir = cli_opt(&a, "cache");
        double t0 = cuzk_now();
        s = dir != NULL ? cuzk_fil_shape_load_or_build(dir, p, threads, CUZK_R1CS_PCE_TRUSTED, &r, NULL, &err)
                        : cuzk_fil_circuit_shape(p, threads, &r, &err);
        if (s != CUZK_OK) return cli_fail("circuit info", dir != NULL ? dir : p->name, s, &err);
        cli_step_end("circuit info", "the shape", t0);
        hex_of(r->identity, 32, hash);
        cuzk_r1cs_free(r);
    }
    uint64_t domain = 1;
    while (domain < c.rows + c.inputs) domain <<= 1;
    char size[24];
    cuzk_fil_size_str(p->sector_size, size);
    if (json) {
        printf("{\"kind\": \"%s\", \"sector_size\": \"%s\", \"registered_proof\": \"%s\", \"api\": \"%s\", "
               "\"key\": \"%s\", \"constraints\": %llu, \"inputs\": %llu, \"aux\": %llu, \"nnz_a\": %llu, "
               "\"nnz_b\": %llu, \"nnz_c\": %llu, \"domain\": %llu, \"hash\": ",
               cuzk_fil_kind_name(p->kind), size, p->name, api_names[p->api], key, (unsigned long long)c.rows,
               (unsigned long long)c.inputs, (unsigned long long)c.aux, (unsigned long long)c.nnz[0],
               (unsigned long long)c.nnz[1], (unsigned long long)c.nnz[2], (unsigned long long)domain);
        if (no_hash) printf("null}\n");
        else printf("\"%s\"}\n", hash);
    } else {
        printf("%s (%s %s, API %s)\n  key          %s\n  constraints  %llu\n  inputs       %llu\n  aux          %llu\n"
               "  non-zeros    A %llu, B %llu, C %llu\n  domain       %llu\n  hash         %s\n",
               p->name, cuzk_fil_kind_name(p->kind), size, api_names[p->api], key, (unsigned long long)c.rows,
               (unsigned long long)c.inputs, (unsigned long long)c.aux, (unsigned long long)c.nnz[0],
               (unsigned long long)c.nnz[1], (unsigned long long)c.nnz[2], (unsigned long long)domain,
               no_hash ? "(not computed)" : hash);
    }
    return CLI_OK;
}

static int circuit_pce(int argc, char **argv)
{
    static const char *const known[] = {"kind", "sector-size", "api", "out", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "circuit pce", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(circuit_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("circuit pce", "unexpected argument '%s'", a.pos[0]);
    unsigned threads;
    if (!cli_threads(&a, &threads)) return CLI_ERROR;
    const char *out = cli_need(&a, "out");
    const cuzk_fil_proof *p = pick_proof("circuit pce", cli_need(&a, "kind"), cli_need(&a, "sector-size"),
                                         cli_opt(&a, "api"));
    if (p == NULL || out == NULL) return CLI_ERROR;
    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_fil_circuit_shape(p, threads, &r, &err);
    if (s != CUZK_OK) return cli_fail("circuit pce", p->name, s, &err);
    cli_step_end("circuit pce", "the shape", t0);
    s = cuzk_r1cs_pce_write(r, out, &err);
    if (s == CUZK_OK) {
        char hash[65];
        hex_of(r->identity, 32, hash);
        printf("{\"registered_proof\": \"%s\", \"constraints\": %llu, \"inputs\": %u, \"aux\": %u, \"hash\": \"%s\"}\n",
               p->name, (unsigned long long)r->num_constraints, r->num_inputs, r->num_aux, hash);
    }
    cuzk_r1cs_free(r);
    return s == CUZK_OK ? CLI_OK : cli_fail("circuit pce", out, s, &err);
}

int cmd_circuit(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "info") == 0) return circuit_info(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "pce") == 0) return circuit_pce(argc - 1, argv + 1);
    if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        fputs(circuit_help, stdout);
        return CLI_OK;
    }
    fputs(circuit_help, stderr);
    return CLI_ERROR;
}

/* ---- cuzk post --------------------------------------------------------------------------------------------------- */

static const char post_help[] =
    "usage: cuzk post prove --kind winning|window --sector-size S --vanilla FILE... --randomness HEX\n"
    "                       --prover-id HEX|f0N --sector-id N... [--partition K] [--api V] --params FILE|DIR\n"
    "                       [--pce FILE | --cache DIR] --proof OUT [--threads N]\n"
    "       cuzk post verify --kind winning|window --sector-size S --randomness HEX --sector-id N...\n"
    "                       (--comm-r HEX... | --vanilla FILE...) [--partition K] [--api V] --vk FILE|DIR\n"
    "                       --proof FILE\n"
    "\n"
    "prove makes one PoSt partition proof (192 bytes, bellperson encoding) from the sectors' vanilla proofs (the\n"
    "bincode FallbackPoStSectorProof generate_single_vanilla_proof returns): the sectors in --sector-id order, each\n"
    "found among the vanilla files by its id; every opened leaf checked against the challenge the randomness\n"
    "derives, every path and comm_r hashed; short WindowPoSt partitions padded with their last sector as\n"
    "filecoin-proofs does. The proof is verified with the key's own verifying key before it is written.\n"
    "verify checks a proof against the public inputs a verifier derives (sector ids, comm_r, randomness, partition).\n"
    "Exit status: 0 valid, 1 the proof does not verify, 2 any error (the message names the input).\n"
    "\n"
    "  --vanilla FILE...   one file per sector (several values, or the option repeated)\n"
    "  --sector-id N...    the partition's sectors in order (several values, commas, or the option repeated)\n"
    "  --comm-r HEX...     verify: each sector's comm_r (32 bytes, hex), in --sector-id order\n"
    "  --randomness HEX    32 bytes, hex, below the field modulus\n"
    "  --prover-id HEX     32 bytes, hex, or the miner address f0N (not in the circuit; checked as Filecoin does)\n"
    "  --partition K       WindowPoSt partition index (default 0)\n"
    "  --api V             V1_0, V1_1, V1_2: the registered proof's API version, which fixes the challenge indices\n"
    "                      (default: winning V1_0, window V1_2)\n"
    "  --params FILE|DIR   the .params file, or the directory holding it under its Filecoin name\n"
    "  --vk FILE|DIR       the .vk file, or the directory holding it under its Filecoin name\n"
    "  --pce FILE          the circuit's shape (cuzk circuit pce); else --cache DIR, else built in memory\n"
    "  --threads N         worker threads (default: online CPUs)\n";

#define POST_MAX_SECTORS 4096

typedef struct {
    const char *kind, *size, *api, *randomness, *prover, *partition, *params, *vk, *pce, *cache, *proof, *threads;
    const char *vanilla[POST_MAX_SECTORS];
    size_t nvanilla;
    const char *ids[POST_MAX_SECTORS];
    size_t nids;
    const char *comm_r[POST_MAX_SECTORS];
    size_t ncomm_r;
    bool help;
} post_args;

/* Options with one value, and the three that take several (each value up to the next option). */
static bool post_parse(const char *cmd, int argc, char **argv, post_args *a)
{
    memset(a, 0, sizeof *a);
    static const struct {
        const char *name;
        size_t off;
    } one[] = {
        {"--kind", offsetof(post_args, kind)},        {"--sector-size", offsetof(post_args, size)},
        {"--api", offsetof(post_args, api)},          {"--randomness", offsetof(post_args, randomness)},
        {"--prover-id", offsetof(post_args, prover)}, {"--partition", offsetof(post_args, partition)},
        {"--params", offsetof(post_args, params)},    {"--vk", offsetof(post_args, vk)},
        {"--pce", offsetof(post_args, pce)},          {"--cache", offsetof(post_args, cache)},
        {"--proof", offsetof(post_args, proof)},      {"--threads", offsetof(post_args, threads)},
    };
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
            continue;
        }
        const char **list = NULL;
        size_t *n = NULL;
        if (strcmp(arg, "--vanilla") == 0) list = a->vanilla, n = &a->nvanilla;
        else if (strcmp(arg, "--sector-id") == 0) list = a->ids, n = &a->nids;
        else if (strcmp(arg, "--comm-r") == 0) list = a->comm_r, n = &a->ncomm_r;
        if (list != NULL) {
            size_t before = *n;
            for (; i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0; i++) {
                if (*n == POST_MAX_SECTORS)
                    return cli_error(cmd, "%s: more than %d values", arg, POST_MAX_SECTORS), false;
                list[(*n)++] = argv[i + 1];
            }
            if (*n == before) return cli_error(cmd, "option '%s' needs a value", arg), false;
            continue;
        }
        size_t k = 0;
        while (k < sizeof one / sizeof one[0] && strcmp(one[k].name, arg) != 0) k++;
        if (k == sizeof one / sizeof one[0])
            return cli_error(cmd, "unknown option '%s' (see cuzk post --help)", arg), false;
        const char **slot = (const char **)((char *)a + one[k].off);
        if (i + 1 >= argc) return cli_error(cmd, "option '%s' needs a value", arg), false;
        if (*slot != NULL) return cli_error(cmd, "option '%s' given twice", arg), false;
        *slot = argv[++i];
    }
    return true;
}

/* --sector-id values: decimal, each value possibly a comma-separated list. */
static bool parse_ids(const char *cmd, const post_args *a, uint64_t *ids, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < a->nids; i++) {
        char *copy = strdup(a->ids[i]), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(t, &end, 10);
            if (!isdigit((unsigned char)t[0]) || *end != '\0' || errno != 0 || *n == POST_MAX_SECTORS) {
                cli_error(cmd, "--sector-id '%s': a sector number", t);
                free(copy);
                return false;
            }
            ids[(*n)++] = v;
        }
        free(copy);
    }
    if (*n == 0) return cli_error(cmd, "missing --sector-id (see cuzk post --help)"), false;
    return true;
}

/* The proof the options name: --api, or winning V1_0 and window V1_2 by default. */
static const cuzk_fil_proof *post_proof(const char *cmd, const post_args *a)
{
    if (a->kind == NULL) return cli_error(cmd, "missing --kind (see cuzk post --help)"), NULL;
    if (strcmp(a->kind, "winning") != 0 && strcmp(a->kind, "window") != 0)
        return cli_error(cmd, "--kind '%s': winning or window", a->kind), NULL;
    if (a->size == NULL) return cli_error(cmd, "missing --sector-size (see cuzk post --help)"), NULL;
    const char *api = a->api != NULL ? a->api : strcmp(a->kind, "winning") == 0 ? "V1_0" : "V1_2";
    return pick_proof(cmd, a->kind, a->size, api);
}

/* A key file: the path itself, or the Filecoin-named file inside a directory. */
static bool key_path(const cuzk_fil_proof *p, const char *given, bool vk, char *out, size_t cap)
{
    struct stat st;
    if (stat(given, &st) == 0 && S_ISDIR(st.st_mode)) {
        char name[400];
        if (cuzk_fil_proof_param_name(p, vk, name, sizeof name, NULL) != CUZK_OK) return false;
        snprintf(out, cap, "%s/%s", given, name);
    } else {
        snprintf(out, cap, "%s", given);
    }
    return true;
}

static bool common_inputs(const char *cmd, const post_args *a, uint8_t rand[32], uint32_t *partition)
{
    if (a->randomness == NULL) return cli_error(cmd, "missing --randomness (see cuzk post --help)"), false;
    if (!parse_hex32(a->randomness, rand)) return cli_error(cmd, "--randomness: 64 hex digits"), false;
    if (!below_r(rand)) return cli_error(cmd, "--randomness is not below the field modulus"), false;
    *partition = 0;
    if (a->partition != NULL) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(a->partition, &end, 10);
        if (!isdigit((unsigned char)a->partition[0]) || *end != '\0' || errno != 0 || v > 1000000)
            return cli_error(cmd, "--partition '%s': a partition index", a->partition), false;
        *partition = (uint32_t)v;
    }
    return true;
}

/* Reads and decodes every --vanilla file into out (n = a->nvanilla). */
static bool load_vanilla(const char *cmd, const cuzk_fil_proof *p, const post_args *a, cuzk_fil_post_sector *out)
{
    for (size_t i = 0; i < a->nvanilla; i++) {
        cuzk_errmsg err = {{0}};
        char *buf;
        size_t len;
        cuzk_status s = cli_read_file(a->vanilla[i], &buf, &len, &err);
        if (s == CUZK_OK) {
            s = cuzk_fil_post_sector_decode(p, (const uint8_t *)buf, len, &out[i], &err);
            free(buf);
        }
        if (s != CUZK_OK) {
            cli_fail(cmd, a->vanilla[i], s, &err);
            for (size_t j = 0; j < i; j++) cuzk_fil_post_sector_free(&out[j]);
            return false;
        }
    }
    return true;
}

static int post_prove(int argc, char **argv)
{
    const char *cmd = "post prove";
    post_args a;
    if (!post_parse(cmd, argc, argv, &a)) return CLI_ERROR;
    if (a.help) {
        fputs(post_help, stdout);
        return CLI_OK;
    }
    const cuzk_fil_proof *p = post_proof(cmd, &a);
    if (p == NULL) return CLI_ERROR;
    uint8_t rand[32], prover[32];
    uint32_t partition;
    uint64_t ids[POST_MAX_SECTORS];
    size_t nids;
    if (!common_inputs(cmd, &a, rand, &partition) || !parse_ids(cmd, &a, ids, &nids)) return CLI_ERROR;
    if (a.prover == NULL) return cli_error(cmd, "missing --prover-id (see cuzk post --help)");
    if (!parse_prover(cmd, a.prover, prover)) return CLI_ERROR;
    if (a.nvanilla == 0) return cli_error(cmd, "missing --vanilla (see cuzk post --help)");
    if (a.params == NULL) return cli_error(cmd, "missing --params (see cuzk post --help)");
    if (a.proof == NULL) return cli_error(cmd, "missing --proof (see cuzk post --help)");
    if (a.ncomm_r > 0) return cli_error(cmd, "--comm-r is for verify: prove takes comm_r from the vanilla proofs");
    unsigned threads = 0;
    if (a.threads != NULL) {
        char *end;
        unsigned long t = strtoul(a.threads, &end, 10);
        if (*end != '\0' || t == 0 || t > 1024) return cli_error(cmd, "--threads needs an integer in [1, 1024]");
        threads = (unsigned)t;
    } else {
        cli_args none = {0};
        cli_threads(&none, &threads);
    }
    char params[4096];
    if (!key_path(p, a.params, false, params, sizeof params)) return cli_error(cmd, "no parameter file name");

    cuzk_fil_post_sector *van = calloc(a.nvanilla, sizeof *van);
    if (van == NULL || !load_vanilla(cmd, p, &a, van)) {
        free(van);
        return CLI_ERROR;
    }
    int rc = CLI_ERROR;
    cuzk_errmsg err = {{0}};
    cuzk_fr_t *z = NULL;
    cuzk_r1cs_t *r = NULL;
    cuzk_groth16_pk pk;
    memset(&pk, 0, sizeof pk);
    cuzk_cs_counts c;
    cuzk_status s = cuzk_fil_circuit_counts(p, &c, &err);
    if (s != CUZK_OK) {
        cli_fail(cmd, p->name, s, &err);
        goto out;
    }
    uint64_t nv = c.inputs + c.aux;
    if ((z = malloc(nv * sizeof *z)) == NULL) {
        cli_error(cmd, "no memory for %llu witness values", (unsigned long long)nv);
        goto out;
    }
    cuzk_fil_post_request rq = {p, van, a.nvanilla, ids, nids, rand, prover, partition};
    double t0 = cuzk_now();
    if ((s = cuzk_fil_post_witness(&rq, z, nv, threads, &err)) != CUZK_OK) {
        cli_fail(cmd, "vanilla proofs", s, &err);
        goto out;
    }
    cli_step_end(cmd, "the witness", t0);
    t0 = cuzk_now();
    if (a.pce != NULL) s = cuzk_r1cs_pce_load(a.pce, 0, NULL, &r, &err);
    else if (a.cache != NULL) s = cuzk_fil_shape_load_or_build(a.cache, p, threads, 0, &r, NULL, &err);
    else s = cuzk_fil_circuit_shape(p, threads, &r, &err);
    if (s != CUZK_OK) {
        cli_fail(cmd, a.pce != NULL ? a.pce : a.cache != NULL ? a.cache : "the shape", s, &err);
        goto out;
    }
    if (cuzk_r1cs_num_vars(r) != nv || r->num_inputs != c.inputs || r->num_constraints != c.rows) {
        cli_error(cmd, "%s: %llu constraints and %u inputs, %s's circuit has %llu and %llu", a.pce ? a.pce : "shape",
                  (unsigned long long)r->num_constraints, r->num_inputs, p->name, (unsigned long long)c.rows,
                  (unsigned long long)c.inputs);
        goto out;
    }
    cli_step_end(cmd, "the shape", t0);
    t0 = cuzk_now();
    if ((s = cuzk_groth16_params_load(&pk, params, 0, threads, &err)) != CUZK_OK) {
        cli_fail(cmd, params, s, &err);
        goto out;
    }
    cli_step_end(cmd, "loading the key", t0);
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.threads = threads;
    po.c_mode = CUZK_R1CS_C_CHECKED;
    cuzk_groth16_proof_t proof;
    t0 = cuzk_now();
    if ((s = cuzk_groth16_prove(&proof, &pk, r, z, &po, NULL, &err)) != CUZK_OK) {
        cli_fail(cmd, params, s, &err);
        goto out;
    }
    cli_step_end(cmd, "proving", t0);
    /* as filecoin-proofs does: never hand out a proof that does not verify */
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk.vk);
    if (cuzk_groth16_verify(&pvk, &proof, z + 1, c.inputs - 1) != CUZK_OK) {
        cli_error(cmd, "the proof does not verify with %s's verifying key (a key for another circuit?)", params);
        goto out;
    }
    if ((s = cli_save_proof(a.proof, &proof, &err)) != CUZK_OK) {
        cli_fail(cmd, a.proof, s, &err);
        goto out;
    }
    printf("{\"registered_proof\": \"%s\", \"sectors\": %zu, \"partition\": %u, \"proof\": \"%s\"}\n", p->name, nids,
           partition, a.proof);
    rc = CLI_OK;
out:
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_free(r);
    free(z);
    for (size_t i = 0; i < a.nvanilla; i++) cuzk_fil_post_sector_free(&van[i]);
    free(van);
    return rc;
}

static int post_verify(int argc, char **argv)
{
    const char *cmd = "post verify";
    post_args a;
    if (!post_parse(cmd, argc, argv, &a)) return CLI_ERROR;
    if (a.help) {
        fputs(post_help, stdout);
        return CLI_OK;
    }
    const cuzk_fil_proof *p = post_proof(cmd, &a);
    if (p == NULL) return CLI_ERROR;
    uint8_t rand[32];
    uint32_t partition;
    uint64_t ids[POST_MAX_SECTORS];
    size_t nids;
    if (!common_inputs(cmd, &a, rand, &partition) || !parse_ids(cmd, &a, ids, &nids)) return CLI_ERROR;
    if (a.vk == NULL) return cli_error(cmd, "missing --vk (see cuzk post --help)");
    if (a.proof == NULL) return cli_error(cmd, "missing --proof (see cuzk post --help)");
    if (a.ncomm_r == 0 && a.nvanilla == 0)
        return cli_error(cmd, "missing --comm-r or --vanilla (see cuzk post --help)");
    if (a.ncomm_r > 0 && a.nvanilla > 0) return cli_error(cmd, "--comm-r and --vanilla: give one of them");
    if (a.ncomm_r > 0 && a.ncomm_r != nids)
        return cli_error(cmd, "%zu --comm-r values for %zu sectors", a.ncomm_r, nids);
    cuzk_fil_post_pub_sector *pub = calloc(nids, sizeof *pub);
    if (pub == NULL) return cli_error(cmd, "out of memory");
    int rc = CLI_ERROR;
    cuzk_fil_post_sector *van = NULL;
    cuzk_fr_t *in = NULL;
    cuzk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    for (size_t i = 0; i < nids; i++) {
        pub[i].sector_id = ids[i];
        if (a.ncomm_r > 0 && !parse_hex32(a.comm_r[i], pub[i].comm_r)) {
            cli_error(cmd, "--comm-r '%s': 64 hex digits", a.comm_r[i]);
            goto out;
        }
    }
    if (a.nvanilla > 0) {
        if ((van = calloc(a.nvanilla, sizeof *van)) == NULL || !load_vanilla(cmd, p, &a, van)) {
            free(van);
            van = NULL;
            goto out;
        }
        for (size_t i = 0; i < nids; i++) {
            size_t j = 0;
            while (j < a.nvanilla && van[j].sector_id != ids[i]) j++;
            if (j == a.nvanilla) {
                cli_error(cmd, "sector %llu: none of the vanilla proofs is for it", (unsigned long long)ids[i]);
                goto out;
            }
            memcpy(pub[i].comm_r, van[j].comm_r, 32);
        }
    }
    cuzk_errmsg err = {{0}};
    size_t ni = cuzk_fil_post_public_input_count(p);
    if ((in = malloc(ni * sizeof *in)) == NULL) goto out;
    cuzk_status s = cuzk_fil_post_public_inputs(p, rand, pub, nids, partition, in, &err);
    if (s != CUZK_OK) {
        cli_fail(cmd, "public inputs", s, &err);
        goto out;
    }
    char vkpath[4096];
    if (!key_path(p, a.vk, true, vkpath, sizeof vkpath)) goto out;
    if ((s = cli_load_vk(vkpath, &vk, &err)) != CUZK_OK) {
        cli_fail(cmd, vkpath, s, &err);
        goto out;
    }
    if (vk.num_inputs != ni + 1) {
        cli_error(cmd, "%s: a key for %llu inputs, %s has %zu", vkpath, (unsigned long long)vk.num_inputs, p->name,
                  ni + 1);
        goto out;
    }
    cuzk_groth16_proof_t proof;
    if ((s = cli_load_proof(a.proof, &proof, &err)) != CUZK_OK) {
        cli_fail(cmd, a.proof, s, &err);
        goto out;
    }
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &vk);
    s = cuzk_groth16_verify(&pvk, &proof, in, ni);
    if (s == CUZK_OK) {
        printf("valid\n");
        rc = CLI_OK;
    } else if (s == CUZK_ERR_PROOF_INVALID) {
        printf("invalid\n");
        rc = CLI_INVALID;
    } else {
        cli_fail(cmd, a.proof, s, NULL);
    }
out:
    cuzk_groth16_vk_free(&vk);
    free(in);
    if (van != NULL)
        for (size_t i = 0; i < a.nvanilla; i++) cuzk_fil_post_sector_free(&van[i]);
    free(van);
    free(pub);
    return rc;
}

int cmd_post(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "prove") == 0) return post_prove(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "verify") == 0) return post_verify(argc - 1, argv + 1);
    if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        fputs(post_help, stdout);
        return CLI_OK;
    }
    fputs(post_help, stderr);
    return CLI_ERROR;
}
