/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk seal-test: seals a small sector in memory (cuzk_fil_sdr_seal) and prints its commitments and PoRep
 * challenges; with --out, writes the sector's data, labels, trees and a seal.json, its commit-phase-1 output (bare
 * and in Curio's envelope) and the SnapDeals vanilla proofs of an update of it (bincode per partition, and Curio's
 * JSON array): real, satisfiable inputs in the forms Curio sends, for tests and benchmarks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cuzk/filecoin.h"

#define NO_PROOF UINT64_MAX

static const char seal_help[] =
    "usage: cuzk seal-test --sector-size 2KiB|8MiB|512MiB (--data FILE | --zero) --prover-id HEX --sector-id N\n"
    "                      --ticket HEX --seed HEX [--registered-proof ID] [--porep-id HEX] [--api 1.0|1.1|1.2]\n"
    "                      [--out DIR] [--threads N]\n"
    "\n"
    "Seals a test sector in memory the way rust-fil-proofs' pre-commit does (fr32 padding, tree D, SDR labels, the\n"
    "encoded replica, tree C and tree R) and prints one JSON object: replica_id, comm_d, comm_c, comm_r_last,\n"
    "comm_r and the PoRep challenges (drawn from the seed, or comm_r and the seed, or comm_r).\n"
    "\n"
    "  --sector-size S        2KiB, 4KiB, 16KiB, 32KiB, 8MiB, 16MiB, 512MiB, 1GiB (or the size in bytes)\n"
    "  --data FILE            the unpadded sector content, at most S*127/128 bytes, zero-filled to the sector\n"
    "  --zero                 an all-zero sector instead\n"
    "  --prover-id, --ticket, --seed HEX\n"
    "                         32 bytes each, as 64 hex digits\n"
    "  --sector-id N          the sector number\n"
    "  --registered-proof ID  the registered seal proof (0-4 V1, 5-9 V1_1, 10-14 V1_1 SyntheticPoRep, 15-19 V1_2\n"
    "                         NonInteractivePoRep); sets the porep id, the API version and the challenge kind\n"
    "                         (default: the V1_1 proof of the size)\n"
    "  --porep-id HEX         another porep id (32 bytes)\n"
    "  --api V                graph semantics 1.0, 1.1 or 1.2 (default: the registered proof's)\n"
    "  --out DIR              also write DIR/seal.json, data (fr32-padded), sealed (the replica), tree-d.dat,\n"
    "                         layer-<L>.dat, tree-c.dat, tree-r.dat (docs/formats/sdr.md); with a registered proof\n"
    "                         the commit-phase-1 output c1.json (SealCommitPhase1Output) and c1-curio.json (Curio's\n"
    "                         envelope {SectorNum, Phase1Out, SectorSize}: a PoRep request's vanilla_proof); and an\n"
    "                         update of the sealed sector with new data (SnapDeals): snap-<K>.vproof per partition\n"
    "                         (bincode, a request's vanilla_proofs) and snap.json (the same as Curio stores them: a\n"
    "                         JSON array of base64), its commitments (and their CIDs) under \"update\" in the JSON\n"
    "  --update-data FILE     the update's new data (unpadded, at most S*127/128 bytes); default: random bytes\n"
    "  --update-seed N        the random new data's seed (default 1)\n"
    "  --threads N            worker threads (default: online CPUs)\n";

static bool parse_hex32(const char *cmd, const char *name, const char *s, uint8_t out[32])
{
    if (s == NULL) return false;
    if (strlen(s) != 64) {
        cli_error(cmd, "--%s needs 64 hex digits (32 bytes), got %zu characters", name, strlen(s));
        return false;
    }
    for (int i = 0; i < 32; i++) {
        unsigned v = 0;
        for (int k = 0; k < 2; k++) {
            char c = s[2 * i + k];
            int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
            if (d < 0) {
                cli_error(cmd, "--%s: '%c' is not a hex digit", name, c);
                return false;
            }
            v = v << 4 | (unsigned)d;
        }
        out[i] = (uint8_t)v;
    }
    return true;
}

static bool parse_size(const char *s, uint64_t *out)
{
    static const struct {
        const char *name;
        uint64_t size;
    } names[] = {
        {"2KiB", 2ULL << 10}, {"4KiB", 4ULL << 10},   {"16KiB", 16ULL << 10},   {"32KiB", 32ULL << 10},
        {"8MiB", 8ULL << 20}, {"16MiB", 16ULL << 20}, {"512MiB", 512ULL << 20}, {"1GiB", 1ULL << 30},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) return *out = names[i].size, true;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end != '\0' || errno != 0) return false;
    *out = v;
    return true;
}

static void put_hex(FILE *f, const char *key, const uint8_t b[32], bool comma)
{
    fprintf(f, "\"%s\": \"", key);
    for (int i = 0; i < 32; i++) fprintf(f, "%02x", b[i]);
    fprintf(f, "\"%s", comma ? ", " : "");
}

/* What --out adds: the C1 and the update. */
typedef struct {
    bool c1;                  /* c1.json and c1-curio.json */
    bool update;              /* snap-<k>.vproof and snap.json */
    const cuzk_fil_proof *up; /* the update's geometry: a registered update proof, or a test size's */
    cuzk_fil_snap_update u;
} seal_extras;

static void put_cid(FILE *f, const char *key, const uint8_t *prefix, size_t n, const uint8_t b[32])
{
    fprintf(f, ", \"%s\": \"", key);
    for (size_t i = 0; i < n; i++) fprintf(f, "%02x", prefix[i]);
    for (int i = 0; i < 32; i++) fprintf(f, "%02x", b[i]);
    fprintf(f, "\"");
}

static void put_extras(FILE *f, const cuzk_fil_sdr_seal_params *p, const seal_extras *x)
{
    /* the CIDs Curio sends (sealed: fil-commitment-sealed, poseidon-bls12_381-a2-fc1; unsealed:
     * fil-commitment-unsealed, sha2-256-trunc254-padded) */
    static const uint8_t sealed[8] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    static const uint8_t unsealed[7] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    if (x->c1) fprintf(f, ", \"c1\": \"c1.json\", \"c1_curio\": \"c1-curio.json\"");
    if (!x->update) return;
    const cuzk_fil_proof *u = x->up;
    fprintf(f, ", \"update\": {");
    if (u->id == CUZK_FIL_SNAP_TEST_ID) fprintf(f, "\"registered_proof\": null, ");
    else fprintf(f, "\"registered_proof\": %u, ", u->id);
    fprintf(f, "\"name\": \"%s\", \"sector_size\": %llu, \"partitions\": %u, \"partition_bytes\": %zu, ", u->name,
            (unsigned long long)p->sector_size, x->u.partitions, x->u.partition_bytes);
    fprintf(f, "\"vanilla\": \"snap-<k>.vproof\", \"vanilla_json\": \"snap.json\", ");
    put_hex(f, "comm_c", x->u.comm_c, true);
    put_hex(f, "comm_r_old", x->u.comm_r_old, true);
    put_hex(f, "comm_d_new", x->u.comm_d_new, true);
    put_hex(f, "comm_r_new", x->u.comm_r_new, false);
    put_cid(f, "comm_r_old_cid", sealed, sizeof sealed, x->u.comm_r_old);
    put_cid(f, "comm_d_new_cid", unsealed, sizeof unsealed, x->u.comm_d_new);
    put_cid(f, "comm_r_new_cid", sealed, sizeof sealed, x->u.comm_r_new);
    fprintf(f, "}");
}

static void put_json(FILE *f, const cuzk_fil_sdr_seal_params *p, uint64_t registered, const uint8_t seed[32],
                     const cuzk_fil_sdr_replica *r, const char *kind, const uint64_t *ch, unsigned parts, unsigned per,
                     const seal_extras *x)
{
    fprintf(f, "{\"sector_size\": %llu, ", (unsigned long long)p->sector_size);
    if (registered == NO_PROOF) fprintf(f, "\"registered_proof\": null, ");
    else fprintf(f, "\"registered_proof\": %llu, ", (unsigned long long)registered);
    fprintf(f, "\"api\": \"1.%d\", ", (int)p->api);
    put_hex(f, "porep_id", p->porep_id, true);
    put_hex(f, "prover_id", p->prover_id, true);
    fprintf(f, "\"sector_id\": %llu, ", (unsigned long long)p->sector_id);
    put_hex(f, "ticket", p->ticket, true);
    put_hex(f, "seed", seed, true);
    fprintf(f, "\"nodes\": %llu, \"layers\": %u, ", (unsigned long long)r->nodes, r->layers);
    put_hex(f, "replica_id", r->replica_id, true);
    put_hex(f, "comm_d", r->comm_d, true);
    put_hex(f, "comm_c", r->comm_c, true);
    put_hex(f, "comm_r_last", r->comm_r_last, true);
    put_hex(f, "comm_r", r->comm_r, true);
    fprintf(f, "\"challenge_kind\": \"%s\", \"challenges\": [", kind);
    for (unsigned k = 0; k < parts; k++) {
        fprintf(f, "%s[", k ? ", " : "");
        for (unsigned i = 0; i < per; i++) fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)ch[k * per + i]);
        fprintf(f, "]");
    }
    fprintf(f, "]");
    if (x != NULL) put_extras(f, p, x);
    fprintf(f, "}\n");
}

/* The C1 of the replica for registered proof `registered`, bare and in Curio's envelope. */
static int write_c1(const char *dir, const cuzk_fil_sdr_seal_params *p, uint64_t registered, const uint8_t seed[32],
                    const cuzk_fil_sdr_replica *r)
{
    cuzk_errmsg err = {{0}};
    const cuzk_fil_proof *fp = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, registered);
    cuzk_fil_c1 c1;
    cuzk_status s = fp != NULL ? cuzk_fil_porep_c1_from_replica(r, fp, p->ticket, seed, &c1, &err)
                               : cuzk_fail(&err, CUZK_ERR_NOT_FOUND, "no registered seal proof %llu",
                                           (unsigned long long)registered);
    if (s != CUZK_OK) return cli_fail("seal-test", "commit phase 1", s, &err);
    c1.sector_num = p->sector_id;
    int rc = CLI_OK;
    static const char *const names[2] = {"c1.json", "c1-curio.json"};
    for (int w = 0; w < 2 && rc == CLI_OK; w++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[w]);
        FILE *f = fopen(path, "wb");
        if (f == NULL) {
            rc = cli_error("seal-test", "%s: %s", path, strerror(errno));
            break;
        }
        s = cuzk_fil_c1_write_json(&c1, w == 1, f, &err);
        if (fclose(f) != 0 && s == CUZK_OK) s = cuzk_fail(&err, CUZK_ERR_IO, "%s", strerror(errno));
        if (s != CUZK_OK) rc = cli_fail("seal-test", path, s, &err);
    }
    cuzk_fil_c1_free(&c1);
    return rc;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* SnapDeals: new data (a file's, or random bytes from seed) encoded into the sealed replica, with every partition's
 * vanilla proof (cuzk_fil_snap_update_prove). Its comm_r_old must be the sealed sector's comm_r. */
static int make_update(const cuzk_fil_sdr_replica *r, const char *data, uint64_t seed, unsigned threads, seal_extras *x)
{
    cuzk_errmsg err = {{0}};
    cuzk_status s;
    uint64_t bytes = r->nodes * 32, unpadded = bytes / 128 * 127;
    uint8_t *raw = calloc(1, unpadded), *fr32 = malloc(bytes);
    char *buf = NULL;
    size_t len = 0;
    int rc = CLI_OK;
    if (raw == NULL || fr32 == NULL) {
        rc = cli_error("seal-test", "out of memory for the update's data");
        goto out;
    }
    if (data != NULL) {
        if ((s = cli_read_file(data, &buf, &len, &err)) != CUZK_OK) {
            rc = cli_fail("seal-test", data, s, &err);
            goto out;
        }
        if (len > unpadded) {
            rc = cli_error("seal-test", "--update-data %s: %zu bytes, a %llu-byte sector holds %llu", data, len,
                           (unsigned long long)bytes, (unsigned long long)unpadded);
            goto out;
        }
        memcpy(raw, buf, len);
    } else {
        for (uint64_t i = 0; i < unpadded; i += 8) {
            uint64_t v = splitmix(&seed);
            for (uint64_t j = 0; j < 8 && i + j < unpadded; j++) raw[i + j] = (uint8_t)(v >> (8 * j));
        }
    }
    cuzk_fil_sdr_fr32_pad(raw, unpadded, fr32);
    cuzk_fil_snap_update_in in = {x->up, r->replica, fr32, r->comm_c, 0, threads};
    if ((s = cuzk_fil_snap_update_prove(&in, &x->u, &err)) != CUZK_OK) {
        rc = cli_fail("seal-test", "the update", s, &err);
        goto out;
    }
    if (memcmp(x->u.comm_r_old, r->comm_r, 32) != 0) {
        cuzk_fil_snap_update_free(&x->u);
        rc = cli_error("seal-test", "the update's comm_r_old is not the sealed sector's comm_r");
        goto out;
    }
    x->update = true;
out:
    free(raw);
    free(fr32);
    free(buf);
    return rc;
}

static int write_out(const char *dir, const cuzk_fil_sdr_seal_params *p, uint64_t registered, const uint8_t seed[32],
                     const cuzk_fil_sdr_replica *r, const char *kind, const uint64_t *ch, unsigned parts, unsigned per,
                     const seal_extras *x)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return cli_error("seal-test", "%s: %s", dir, strerror(errno));
    char path[4096];
    cuzk_errmsg err = {{0}};
    cuzk_status s;
    uint64_t n = r->nodes;
#define OUT(name, ptr, bytes)                                                                                          \
    do {                                                                                                               \
        snprintf(path, sizeof path, "%s/%s", dir, name);                                                               \
        if ((s = cli_write_file(path, ptr, bytes, &err)) != CUZK_OK) return cli_fail("seal-test", path, s, &err);      \
    } while (0)
    OUT("data", r->data, n * 32);
    OUT("sealed", r->replica, n * 32);
    OUT("tree-d.dat", r->tree_d, (2 * n - 1) * 32);
    for (unsigned l = 1; l <= r->layers; l++) {
        char name[32];
        snprintf(name, sizeof name, "layer-%u.dat", l);
        OUT(name, cuzk_fil_sdr_replica_label(r, l, 0), n * 32);
    }
    uint64_t len = cuzk_fil_sdr_tree_len(r->shape, n);
    OUT("tree-c.dat", r->tree_c, len * 32);
    OUT("tree-r.dat", r->tree_r, len * 32);
    for (uint32_t k = 0; x->update && k < x->u.partitions; k++) {
        char name[48];
        snprintf(name, sizeof name, "snap-%u.vproof", k);
        OUT(name, x->u.vanilla + x->u.partition_bytes * k, x->u.partition_bytes);
    }
#undef OUT
    if (x->update) {
        snprintf(path, sizeof path, "%s/snap.json", dir);
        s = cli_write_b64_array(path, x->u.vanilla, x->u.partitions, x->u.partition_bytes, &err);
        if (s != CUZK_OK) return cli_fail("seal-test", path, s, &err);
    }
    snprintf(path, sizeof path, "%s/seal.json", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) return cli_error("seal-test", "%s: %s", path, strerror(errno));
    put_json(f, p, registered, seed, r, kind, ch, parts, per, x);
    if (fclose(f) != 0) return cli_error("seal-test", "%s: %s", path, strerror(errno));
    return CLI_OK;
}

int cmd_seal_test(int argc, char **argv)
{
    static const char *const known[] = {
        "sector-size", "data", "prover-id", "sector-id",   "ticket",      "seed",    "registered-proof",
        "porep-id",    "api",  "out",       "update-data", "update-seed", "threads", NULL};
    /* --zero is the one option without a value */
    bool zero = false;
    char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
    if (rest == NULL) return cli_error("seal-test", "out of memory");
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--zero") == 0 && (i == 0 || strcmp(argv[i - 1], "--data") != 0)) zero = true;
        else rest[nrest++] = argv[i];
    }
    cli_args a;
    bool parsed = cli_parse(&a, "seal-test", known, nrest, rest);
    free(rest);
    if (!parsed) return CLI_ERROR;
    if (a.help) {
        fputs(seal_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("seal-test", "unexpected argument '%s'", a.pos[0]);

    cuzk_fil_sdr_seal_params p;
    memset(&p, 0, sizeof p);
    uint8_t seed[32];
    const char *size_s = cli_need(&a, "sector-size");
    if (size_s == NULL) return CLI_ERROR;
    if (!parse_size(size_s, &p.sector_size) || cuzk_fil_sdr_layers(p.sector_size) == 0 || p.sector_size > (1ULL << 30))
        return cli_error("seal-test", "--sector-size: '%s' is not a test sector size (2KiB .. 1GiB)", size_s);
    const char *data = cli_opt(&a, "data");
    if (zero == (data != NULL)) return cli_error("seal-test", "give exactly one of --data FILE and --zero");
    if (!parse_hex32("seal-test", "prover-id", cli_need(&a, "prover-id"), p.prover_id) ||
        !parse_hex32("seal-test", "ticket", cli_need(&a, "ticket"), p.ticket) ||
        !parse_hex32("seal-test", "seed", cli_need(&a, "seed"), seed) || cli_need(&a, "sector-id") == NULL ||
        !cli_opt_u64(&a, "sector-id", 0, UINT64_MAX, &p.sector_id) || !cli_threads(&a, &p.threads))
        return CLI_ERROR;

    /* the registered proof: V1_1 of the size unless given; sizes without one need --porep-id and --api */
    static const uint64_t sizes[5] = {2ULL << 10, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
    uint64_t registered = NO_PROOF;
    for (uint64_t i = 0; i < 5; i++)
        if (sizes[i] == p.sector_size) registered = 5 + i;
    if (!cli_opt_u64(&a, "registered-proof", 0, 19, &registered)) return CLI_ERROR;
    cuzk_fil_sdr_challenge_kind kind = CUZK_FIL_SDR_CHALLENGES_INTERACTIVE;
    if (registered != NO_PROOF) {
        if (sizes[registered % 5] != p.sector_size)
            return cli_error("seal-test", "--registered-proof %llu is for %llu-byte sectors, not %llu",
                             (unsigned long long)registered, (unsigned long long)sizes[registered % 5],
                             (unsigned long long)p.sector_size);
        cuzk_fil_sdr_porep_id(registered, 0, p.porep_id);
        p.api = registered < 5    ? CUZK_FIL_SDR_API_V1_0
                : registered < 15 ? CUZK_FIL_SDR_API_V1_1
                                  : CUZK_FIL_SDR_API_V1_2;
        kind = registered >= 15   ? CUZK_FIL_SDR_CHALLENGES_NI
               : registered >= 10 ? CUZK_FIL_SDR_CHALLENGES_SYNTHETIC
                                  : CUZK_FIL_SDR_CHALLENGES_INTERACTIVE;
    } else if (cli_opt(&a, "porep-id") == NULL || cli_opt(&a, "api") == NULL) {
        return cli_error("seal-test", "%s sectors have no registered proof: give --porep-id and --api", size_s);
    }
    if (cli_opt(&a, "porep-id") != NULL) {
        if (!parse_hex32("seal-test", "porep-id", cli_opt(&a, "porep-id"), p.porep_id)) return CLI_ERROR;
        /* a porep id of its own is no registered proof's unless one was named as well */
        if (cli_opt(&a, "registered-proof") == NULL) registered = NO_PROOF, kind = CUZK_FIL_SDR_CHALLENGES_INTERACTIVE;
    }
    const char *api = cli_opt(&a, "api");
    if (api != NULL) {
        if (strcmp(api, "1.0") == 0) p.api = CUZK_FIL_SDR_API_V1_0;
        else if (strcmp(api, "1.1") == 0) p.api = CUZK_FIL_SDR_API_V1_1;
        else if (strcmp(api, "1.2") == 0) p.api = CUZK_FIL_SDR_API_V1_2;
        else return cli_error("seal-test", "--api must be 1.0, 1.1 or 1.2, got '%s'", api);
    }

    cuzk_errmsg err = {{0}};
    char *buf = NULL;
    size_t len = 0;
    cuzk_status s;
    if (data != NULL && (s = cli_read_file(data, &buf, &len, &err)) != CUZK_OK)
        return cli_fail("seal-test", data, s, &err);
    double t0 = cuzk_now();
    cuzk_fil_sdr_replica r;
    s = cuzk_fil_sdr_seal(&p, (const uint8_t *)buf, len, &r, &err);
    free(buf);
    if (s != CUZK_OK) return cli_fail("seal-test", data ? data : "--zero", s, &err);
    cli_step_end("seal-test", "seal", t0);

    unsigned parts = 0, per = 0;
    uint64_t *ch = NULL;
    const char *kind_name[] = {"interactive", "synthetic", "non-interactive"};
    if ((s = cuzk_fil_sdr_challenge_count(p.sector_size, kind, &parts, &per, &err)) == CUZK_OK) {
        ch = calloc((size_t)parts * per, sizeof *ch);
        if (ch == NULL) s = CUZK_ERR_NOMEM;
    }
    for (unsigned k = 0; s == CUZK_OK && k < parts; k++)
        s = cuzk_fil_sdr_challenges(kind, r.nodes, r.replica_id, seed, r.comm_r, k, per, ch + (size_t)k * per, &err);
    int rc = CLI_OK;
    const char *out = cli_opt(&a, "out");
    seal_extras x;
    memset(&x, 0, sizeof x);
    uint64_t useed = 1;
    if (!cli_opt_u64(&a, "update-seed", 0, UINT64_MAX, &useed)) rc = CLI_ERROR;
    if (s != CUZK_OK) {
        rc = cli_fail("seal-test", "challenges", s, &err);
    } else if (rc == CLI_OK && out != NULL) {
        if (mkdir(out, 0755) != 0 && errno != EEXIST) rc = cli_error("seal-test", "%s: %s", out, strerror(errno));
        /* the C1 needs the registered proof (its name goes into the JSON) */
        if (rc == CLI_OK && registered != NO_PROOF && (rc = write_c1(out, &p, registered, seed, &r)) == CLI_OK)
            x.c1 = true;
        /* an update where SnapDeals has a geometry of this size and tree shape */
        x.up = cuzk_fil_snap_geometry(p.sector_size);
        if (rc == CLI_OK && x.up != NULL && x.up->tree_r.base == r.shape.base && x.up->tree_r.sub == r.shape.sub &&
            x.up->tree_r.top == r.shape.top) {
            double t1 = cuzk_now();
            rc = make_update(&r, cli_opt(&a, "update-data"), useed, p.threads, &x);
            if (rc == CLI_OK) cli_step_end("seal-test", "update", t1);
        }
        if (rc == CLI_OK) rc = write_out(out, &p, registered, seed, &r, kind_name[kind], ch, parts, per, &x);
    }
    if (rc == CLI_OK) put_json(stdout, &p, registered, seed, &r, kind_name[kind], ch, parts, per, &x);
    if (x.update) cuzk_fil_snap_update_free(&x.u);
    free(ch);
    cuzk_fil_sdr_replica_free(&r);
    return rc;
}
