/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* libFuzzer targets for every parser of untrusted bytes (docs/fuzzing.md). One binary, cuzk-fuzz, holds them all; the
 * environment picks one: CUZK_FUZZ_TARGET=NAME runs NAME under libFuzzer, and with CUZK_FUZZ_SEEDS=DIR as well it
 * writes NAME's seed corpus (small valid inputs made with the library's own writers) into DIR and exits;
 * CUZK_FUZZ_LIST=1 prints the names this build has.
 *
 * Adding a target is one line in fuzz_targets[] below: a name, a function that takes the bytes (and must free what
 * the parser gives back), and a seed maker (seeds.c; NULL for none). tests/CMakeLists.txt reads the names from those
 * lines, one smoke test each. Every target must return without a crash, a leak or a hang whatever the bytes are. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"

/* Bytes as a NUL-terminated string, for the JSON readers. */
static char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s == NULL) abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* A copy at an 8-byte aligned address, for readers of aligned images (PCE) and of data an input must not outlive. */
static uint8_t *fuzz_copy(const uint8_t *data, size_t size)
{
    uint8_t *p = aligned_alloc(8, (size + 7) / 8 * 8 + 8);
    if (p == NULL) abort();
    memcpy(p, data, size);
    return p;
}

static void fuzz_params(const uint8_t *data, size_t size)
{
    cuzk_groth16_pk pk;
    cuzk_errmsg err;
    if (cuzk_groth16_params_parse(&pk, data, size, 0, 1, &err) == CUZK_OK) cuzk_groth16_pk_free(&pk);
}

static void fuzz_vk(const uint8_t *data, size_t size)
{
    cuzk_groth16_vk vk;
    cuzk_errmsg err;
    if (cuzk_groth16_vk_parse(&vk, data, size, &err) == CUZK_OK) cuzk_groth16_vk_free(&vk);
}

static void fuzz_zkey(const uint8_t *data, size_t size)
{
    cuzk_groth16_pk pk;
    cuzk_errmsg err;
    if (cuzk_groth16_zkey_parse(&pk, data, size, 0, 1, &err) == CUZK_OK) cuzk_groth16_pk_free(&pk);
}

static void fuzz_wtns(const uint8_t *data, size_t size)
{
    cuzk_fr_t *w;
    uint64_t n;
    cuzk_errmsg err;
    if (cuzk_r1cs_wtns_parse(data, size, NULL, &w, &n, &err) == CUZK_OK) free(w);
}

static void fuzz_r1cs(const uint8_t *data, size_t size)
{
    cuzk_r1cs_t *r;
    cuzk_errmsg err;
    if (cuzk_r1cs_circom_parse(data, size, &r, &err) == CUZK_OK) cuzk_r1cs_free(r);
}

static void fuzz_pce(const uint8_t *data, size_t size)
{
    uint8_t *img = fuzz_copy(data, size);
    cuzk_r1cs_t *r;
    cuzk_errmsg err;
    if (cuzk_r1cs_pce_parse(img, size, 0, NULL, &r, &err) == CUZK_OK) cuzk_r1cs_free(r);
    free(img);
}

static void fuzz_ptau(const uint8_t *data, size_t size)
{
    cuzk_groth16_ptau_info info;
    cuzk_errmsg err;
    cuzk_groth16_ptau_check_buf(data, size, &info, &err);
}

static void fuzz_proof_json(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    cuzk_groth16_proof_t p;
    cuzk_errmsg err;
    cuzk_groth16_proof_from_json(&p, s, &err);
    free(s);
}

static void fuzz_public_json(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    cuzk_fr_t *pub;
    uint64_t n;
    cuzk_errmsg err;
    if (cuzk_groth16_public_from_json(&pub, &n, s, &err) == CUZK_OK) free(pub);
    free(s);
}

/* the counting scan first, as cuzk verify runs it, then the full reader */
static void fuzz_vk_json(const uint8_t *data, size_t size)
{
    uint64_t inputs;
    cuzk_errmsg err;
    cuzk_groth16_vk_inputs(data, size, &inputs, &err);
    char *s = fuzz_string(data, size);
    cuzk_groth16_vk vk;
    if (cuzk_groth16_vk_from_json(&vk, s, &err) == CUZK_OK) cuzk_groth16_vk_free(&vk);
    free(s);
}

static void fuzz_proof_bin(const uint8_t *data, size_t size)
{
    cuzk_groth16_proof_t p;
    cuzk_groth16_proof_from_bytes(&p, data, size);
}

/* The detector, and the invariants of its answer: a shape other than whole only for a format, words always, and an
 * expected size that says how the file's differs. */
static void fuzz_detect(const uint8_t *data, size_t size)
{
    cuzk_groth16_format_info in;
    cuzk_errmsg err;
    uint64_t inputs;
    cuzk_groth16_format f = cuzk_groth16_detect_format(data, size, &in);
    if (in.format != f || in.size != size || in.what[0] == '\0' ||
        (f == CUZK_GROTH16_FORMAT_UNKNOWN && in.shape != CUZK_GROTH16_SHAPE_WHOLE) ||
        (in.shape == CUZK_GROTH16_SHAPE_TRAILING && in.expected >= size) ||
        (in.shape == CUZK_GROTH16_SHAPE_TRUNCATED && in.expected != 0 && in.expected <= size) ||
        !cuzk_groth16_format_may_be(&in, f))
        abort();
    cuzk_groth16_vk_inputs(data, size, &inputs, &err);
}

/* ---- Filecoin vanilla proofs and C1 (src/filecoin): the first byte picks the registered proof of the class,
 * which the decoders take from the request ---- */
const cuzk_fil_proof *fuzz_fil_pick(cuzk_fil_class cls, uint8_t b)
{
    size_t n = 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) n += cuzk_fil_proof_at(i)->cls == cls;
    size_t want = n ? b % n : 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++)
        if (cuzk_fil_proof_at(i)->cls == cls && want-- == 0) return cuzk_fil_proof_at(i);
    return NULL;
}

static void fuzz_fil_post(const uint8_t *data, size_t size)
{
    if (size == 0) return;
    cuzk_fil_post_sector s;
    cuzk_errmsg err;
    if (cuzk_fil_post_sector_decode(fuzz_fil_pick(CUZK_FIL_CLASS_POST, data[0]), data + 1, size - 1, &s, &err) ==
        CUZK_OK)
        cuzk_fil_post_sector_free(&s);
}

static void fuzz_fil_snap(const uint8_t *data, size_t size)
{
    if (size == 0) return;
    cuzk_fil_snap_partition s;
    cuzk_errmsg err;
    if (cuzk_fil_snap_partition_decode(fuzz_fil_pick(CUZK_FIL_CLASS_UPDATE, data[0]), data + 1, size - 1, &s, &err) ==
        CUZK_OK)
        cuzk_fil_snap_partition_free(&s);
}

static void fuzz_fil_c1(const uint8_t *data, size_t size)
{
    cuzk_fil_c1 c;
    cuzk_errmsg err;
    if (cuzk_fil_c1_parse(data, size, &c, &err) == CUZK_OK) cuzk_fil_c1_free(&c);
}

/* bit 0 of the first byte: the form (SUPRASEAL needs the registered proof; API carries it, given or not) */
static void fuzz_fil_c1_bin(const uint8_t *data, size_t size)
{
    if (size == 0) return;
    cuzk_fil_c1_bin_form form = (data[0] & 1) ? CUZK_FIL_C1_BIN_API : CUZK_FIL_C1_BIN_SUPRASEAL;
    const cuzk_fil_proof *p = form == CUZK_FIL_C1_BIN_API && (data[0] & 2)
                                  ? NULL
                                  : fuzz_fil_pick(CUZK_FIL_CLASS_SEAL, data[0] >> 2);
    cuzk_fil_c1 c;
    cuzk_errmsg err;
    if (cuzk_fil_c1_decode_bincode(data + 1, size - 1, form, p, &c, &err) == CUZK_OK) cuzk_fil_c1_free(&c);
}

/* A commitment as a request carries it: 32 bytes or a binary commitment CID. */
static void fuzz_fil_commitment(const uint8_t *data, size_t size)
{
    uint8_t out[32];
    cuzk_errmsg err;
    if (cuzk_fil_commitment_parse(data, size, out, &err) == CUZK_OK && memcmp(out, data + size - 32, 32) != 0) abort();
}

/* The same C1 parser reading from a socket: a SOCK_SEQPACKET pair delivers the document in pieces of 2^(b % 13)
 * bytes (b the first byte), so that every token and base64 quantum crosses the parser's window boundaries somewhere.
 * Whatever the pieces, the answer must be the one the whole buffer gives: the status, the message, and on success
 * the same C1 (its bincode). */
typedef struct {
    int fd;
    const uint8_t *p;
    size_t n, piece;
} fuzz_feeder;

static void *fuzz_feed(void *arg)
{
    fuzz_feeder *f = arg;
    for (size_t at = 0; at < f->n;) {
        size_t k = f->n - at < f->piece ? f->n - at : f->piece;
        ssize_t w = send(f->fd, f->p + at, k, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break; /* the parser stopped reading: it has its answer */
        at += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

static uint8_t *fuzz_c1_bytes(const cuzk_fil_c1 *c, size_t *n)
{
    *n = cuzk_fil_c1_bincode_bytes(c, CUZK_FIL_C1_BIN_API);
    uint8_t *b = malloc(*n ? *n : 1);
    if (b == NULL || cuzk_fil_c1_encode_bincode(c, CUZK_FIL_C1_BIN_API, b, *n, n, NULL) != CUZK_OK) abort();
    return b;
}

static void fuzz_fil_c1_stream(const uint8_t *data, size_t size)
{
    if (size == 0) return;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) abort();
    fuzz_feeder f = {sv[1], data + 1, size - 1, (size_t)1 << (data[0] % 13)};
    pthread_t t;
    if (pthread_create(&t, NULL, fuzz_feed, &f) != 0) abort();
    cuzk_fil_c1 c, whole;
    cuzk_errmsg err = {{0}}, werr = {{0}};
    cuzk_status s = cuzk_fil_c1_parse_fd(sv[0], &c, &err);
    close(sv[0]); /* a writer still sending gets EPIPE */
    pthread_join(t, NULL);
    cuzk_status ws = cuzk_fil_c1_parse(data + 1, size - 1, &whole, &werr);
    if (s != ws || (s != CUZK_OK && strcmp(err.msg, werr.msg) != 0)) {
        fprintf(stderr, "fil_c1_stream: pieces of %zu bytes: %s (%s); whole: %s (%s)\n", f.piece, cuzk_status_str(s),
                err.msg, cuzk_status_str(ws), werr.msg);
        abort();
    }
    if (s == CUZK_OK) {
        size_t n1, n2;
        uint8_t *b1 = fuzz_c1_bytes(&c, &n1), *b2 = fuzz_c1_bytes(&whole, &n2);
        if (n1 != n2 || memcmp(b1, b2, n1) != 0 || c.wrapped != whole.wrapped || c.sector_num != whole.sector_num)
            abort();
        free(b1);
        free(b2);
        cuzk_fil_c1_free(&c);
        cuzk_fil_c1_free(&whole);
    }
}

#ifdef CUZK_FUZZ_SERVER
#include "config.h"
#include "requests.h"

/* A cuzk-daemon configuration file: toml++'s parser, the key table's checks, then what --check-config prints. */
static FILE *fuzz_null;

static void fuzz_config(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    cuzk_daemon_config c;
    cuzk_config_defaults(&c);
    char err[1024];
    if (cuzk_config_load_string(&c, s, "fuzz.toml", err, sizeof err) && cuzk_config_check(&c, err, sizeof err)) {
        if (fuzz_null == NULL && (fuzz_null = fopen("/dev/null", "w")) == NULL) abort();
        cuzk_config_print(&c, fuzz_null);
    }
    cuzk_config_free(&c);
    free(s);
}

/* The first byte picks the method, the rest is its request message: protobuf-c's unpack, then the checks the
 * method's handler makes before the engine sees the request. */
static void fuzz_grpc(const uint8_t *data, size_t size)
{
    if (size == 0) return;
    char err[768];
    cuzk_req_check(data[0] % cuzk_req_method_count(), data + 1, size - 1, err, sizeof err);
}
#endif

/* One target a line, out of clang-format's reach; CMake and scripts/fuzz.sh read the names (each macro's first
 * argument) from this table. */
/* clang-format off */
#define FUZZ_TARGET(name, fn, seeds) {name, fn, seeds},
static const fuzz_target fuzz_targets[] = {
    FUZZ_TARGET("params", fuzz_params, fuzz_seeds_params)
    FUZZ_TARGET("vk", fuzz_vk, fuzz_seeds_vk)
    FUZZ_TARGET("zkey", fuzz_zkey, fuzz_seeds_zkey)
    FUZZ_TARGET("wtns", fuzz_wtns, fuzz_seeds_wtns)
    FUZZ_TARGET("r1cs", fuzz_r1cs, fuzz_seeds_r1cs)
    FUZZ_TARGET("pce", fuzz_pce, fuzz_seeds_pce)
    FUZZ_TARGET("ptau", fuzz_ptau, fuzz_seeds_ptau)
    FUZZ_TARGET("proof_json", fuzz_proof_json, fuzz_seeds_proof_json)
    FUZZ_TARGET("public_json", fuzz_public_json, fuzz_seeds_public_json)
    FUZZ_TARGET("vk_json", fuzz_vk_json, fuzz_seeds_vk_json)
    FUZZ_TARGET("proof_bin", fuzz_proof_bin, fuzz_seeds_proof_bin)
    FUZZ_TARGET("detect", fuzz_detect, fuzz_seeds_detect)
    FUZZ_TARGET("fil_post", fuzz_fil_post, fuzz_seeds_fil_post)
    FUZZ_TARGET("fil_snap", fuzz_fil_snap, fuzz_seeds_fil_snap)
    FUZZ_TARGET("fil_c1", fuzz_fil_c1, fuzz_seeds_fil_c1)
    FUZZ_TARGET("fil_c1_bin", fuzz_fil_c1_bin, fuzz_seeds_fil_c1_bin)
    FUZZ_TARGET("fil_c1_stream", fuzz_fil_c1_stream, fuzz_seeds_fil_c1_stream)
    FUZZ_TARGET("fil_commitment", fuzz_fil_commitment, fuzz_seeds_fil_commitment)
#ifdef CUZK_FUZZ_SERVER
    FUZZ_TARGET("grpc", fuzz_grpc, fuzz_seeds_grpc)
    FUZZ_TARGET("config", fuzz_config, fuzz_seeds_config)
#endif
};
/* clang-format on */

static const fuzz_target *fuzz_current;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *name = getenv("CUZK_FUZZ_TARGET");
    size_t n = sizeof fuzz_targets / sizeof fuzz_targets[0];
    if (getenv("CUZK_FUZZ_LIST") != NULL) {
        for (size_t i = 0; i < n; i++) printf("%s\n", fuzz_targets[i].name);
        exit(0);
    }
    for (size_t i = 0; name != NULL && i < n; i++)
        if (strcmp(fuzz_targets[i].name, name) == 0) fuzz_current = &fuzz_targets[i];
    if (fuzz_current == NULL) {
        fprintf(stderr, "cuzk-fuzz: set CUZK_FUZZ_TARGET to one of:");
        for (size_t i = 0; i < n; i++) fprintf(stderr, " %s", fuzz_targets[i].name);
        fprintf(stderr, "\n");
        exit(2);
    }
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (dir != NULL) {
        int made = fuzz_current->seeds != NULL ? fuzz_current->seeds(dir) : 0;
        if (made < 0) {
            fprintf(stderr, "cuzk-fuzz: %s: making the seeds in %s failed\n", name, dir);
            exit(1);
        }
        fprintf(stderr, "cuzk-fuzz: %s: %d seeds in %s\n", name, made, dir);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_current->run(data, size);
    return 0;
}
