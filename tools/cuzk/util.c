/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared pieces of the cuzk CLI (see cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---- options ------------------------------------------------------------------------------------------------------ */

bool cli_parse(cli_args *a, const char *cmd, const char *const *known, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->known = known;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            if (a->npos == CLI_MAX_POS) {
                cli_error(cmd, "too many arguments");
                return false;
            }
            a->pos[a->npos++] = arg;
            continue;
        }
        const char *name = arg + 2;
        bool ok = false;
        for (int k = 0; known[k] != NULL && !ok; k++) ok = strcmp(known[k], name) == 0;
        if (!ok) {
            cli_error(cmd, "unknown option '%s' (see cuzk %s --help)", arg, cmd);
            return false;
        }
        if (i + 1 >= argc) {
            cli_error(cmd, "option '%s' needs a value", arg);
            return false;
        }
        if (cli_opt(a, name) != NULL) {
            cli_error(cmd, "option '%s' given twice", arg);
            return false;
        }
        a->name[a->count] = name;
        a->value[a->count++] = argv[++i];
    }
    return true;
}

const char *cli_opt(const cli_args *a, const char *name)
{
    for (int i = 0; i < a->count; i++)
        if (strcmp(a->name[i], name) == 0) return a->value[i];
    return NULL;
}

const char *cli_need(const cli_args *a, const char *name)
{
    const char *v = cli_opt(a, name);
    if (v == NULL) cli_error(a->cmd, "missing --%s (see cuzk %s --help)", name, a->cmd);
    return v;
}

bool cli_opt_u64(const cli_args *a, const char *name, uint64_t lo, uint64_t hi, uint64_t *out)
{
    const char *v = cli_opt(a, name);
    if (v == NULL) return true;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || x < lo || x > hi) {
        cli_error(a->cmd, "--%s needs an integer in [%llu, %llu], got '%s'", name, (unsigned long long)lo,
                  (unsigned long long)hi, v);
        return false;
    }
    *out = x;
    return true;
}

bool cli_threads(const cli_args *a, unsigned *out)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t t = n > 0 ? (uint64_t)n : 1;
    if (!cli_opt_u64(a, "threads", 1, 1024, &t)) return false;
    *out = (unsigned)t;
    return true;
}

/* ---- messages ----------------------------------------------------------------------------------------------------- */

int cli_fail(const char *cmd, const char *what, cuzk_status s, const cuzk_errmsg *err)
{
    if (err != NULL && err->msg[0] != '\0')
        fprintf(stderr, "cuzk %s: %s: %s: %s\n", cmd, what, cuzk_status_str(s), err->msg);
    else fprintf(stderr, "cuzk %s: %s: %s\n", cmd, what, cuzk_status_str(s));
    return CLI_ERROR;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cuzk %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_ERROR;
}

double cli_step_end(const char *cmd, const char *step, double t0)
{
    double dt = cuzk_now() - t0;
    if (dt >= 1.0) fprintf(stderr, "cuzk %s: %s done in %.2f s\n", cmd, step, dt);
    return dt;
}

/* ---- files -------------------------------------------------------------------------------------------------------- */

cuzk_status cli_detect(const char *path, cuzk_groth16_format *t, cuzk_groth16_format_info *info, cuzk_errmsg *err)
{
    *t = CUZK_GROTH16_FORMAT_UNKNOWN;
    const uint8_t *d;
    size_t len;
    cuzk_status s = cuzk_map_file(path, &d, &len, err);
    if (s != CUZK_OK) return s;
    *t = cuzk_groth16_detect_format(d, len, info);
    cuzk_unmap_file(d, len);
    return CUZK_OK;
}

cuzk_status cli_expect_type(const char *path, cuzk_groth16_format want, const char *option, cuzk_errmsg *err)
{
    cuzk_groth16_format t;
    cuzk_groth16_format_info in;
    cuzk_status s = cli_detect(path, &t, &in, err);
    if (s != CUZK_OK || cuzk_groth16_format_may_be(&in, want)) return s;
    return cuzk_fail(err, CUZK_ERR_BAD_MAGIC, "%s: this is %s, not a %s", option, in.what,
                     cuzk_groth16_format_name(want));
}

cuzk_status cli_read_file(const char *path, char **buf, size_t *len, cuzk_errmsg *err)
{
    *buf = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return cuzk_fail(err, CUZK_ERR_IO, "cannot open: %s", strerror(errno));
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return cuzk_fail(err, CUZK_ERR_IO, "not a regular file");
    }
    size_t n = (size_t)st.st_size;
    char *p = malloc(n + 1);
    if (p == NULL) {
        fclose(f);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu bytes", n);
    }
    size_t got = fread(p, 1, n, f);
    fclose(f);
    if (got != n) {
        free(p);
        return cuzk_fail(err, CUZK_ERR_IO, "short read (%zu of %zu bytes)", got, n);
    }
    p[n] = '\0';
    *buf = p;
    if (len != NULL) *len = n;
    return CUZK_OK;
}

cuzk_status cli_write_file(const char *path, const void *data, size_t len, cuzk_errmsg *err)
{
    return cuzk_write_file(path, data, len, err); /* whole or not at all: a temporary file renamed over path */
}

cuzk_status cli_write_b64_array(const char *path, const uint8_t *items, size_t n, size_t item_len, cuzk_errmsg *err)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t cap = 16 + n * ((item_len + 2) / 3 * 4 + 8);
    char *out = malloc(cap), *o = out;
    if (out == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu bytes", cap);
    *o++ = '[';
    for (size_t k = 0; k < n; k++) {
        const uint8_t *b = items + item_len * k;
        if (k > 0) *o++ = ',';
        *o++ = '"';
        for (size_t i = 0; i < item_len; i += 3) {
            uint32_t w = (uint32_t)b[i] << 16 | (i + 1 < item_len ? (uint32_t)b[i + 1] << 8 : 0) |
                         (i + 2 < item_len ? b[i + 2] : 0);
            *o++ = b64[w >> 18 & 63];
            *o++ = b64[w >> 12 & 63];
            *o++ = i + 1 < item_len ? b64[w >> 6 & 63] : '=';
            *o++ = i + 2 < item_len ? b64[w & 63] : '=';
        }
        *o++ = '"';
    }
    *o++ = ']';
    cuzk_status s = cli_write_file(path, out, (size_t)(o - out), err);
    free(out);
    return s;
}

bool cli_is_json_name(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".json") == 0;
}

cuzk_status cli_load_proof(const char *path, cuzk_groth16_proof_t *proof, cuzk_errmsg *err)
{
    char *buf;
    size_t len;
    cuzk_status s = cli_read_file(path, &buf, &len, err);
    if (s != CUZK_OK) return s;
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t')) i++;
    if (i < len && buf[i] == '{') {
        s = cuzk_groth16_proof_from_json(proof, buf, err);
    } else {
        s = cuzk_groth16_proof_from_bytes(proof, (const uint8_t *)buf, len);
        if (s == CUZK_ERR_BAD_LENGTH)
            cuzk_fail(err, s, "%zu bytes, a binary proof has %d", len, CUZK_GROTH16_PROOF_BYTES);
    }
    free(buf);
    return s;
}

cuzk_status cli_save_proof(const char *path, const cuzk_groth16_proof_t *proof, cuzk_errmsg *err)
{
    if (cli_is_json_name(path)) {
        char *json;
        cuzk_status s = cuzk_groth16_proof_to_json(proof, &json);
        if (s != CUZK_OK) return s;
        s = cli_write_file(path, json, strlen(json), err);
        free(json);
        return s;
    }
    uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_to_bytes(bytes, proof);
    return cli_write_file(path, bytes, sizeof bytes, err);
}

cuzk_status cli_load_vk(const char *path, cuzk_groth16_vk *vk, cuzk_errmsg *err)
{
    cuzk_groth16_format t;
    cuzk_groth16_format_info in;
    cuzk_status s = cli_detect(path, &t, &in, err);
    if (s != CUZK_OK) return s;
    memset(vk, 0, sizeof *vk);
    if (t == CUZK_GROTH16_FORMAT_VK_JSON) {
        char *buf;
        s = cli_read_file(path, &buf, NULL, err);
        if (s != CUZK_OK) return s;
        s = cuzk_groth16_vk_from_json(vk, buf, err);
        free(buf);
        return s;
    }
    if (t == CUZK_GROTH16_FORMAT_VK && in.shape == CUZK_GROTH16_SHAPE_WHOLE) return cuzk_groth16_vk_load(vk, path, err);
    if (t == CUZK_GROTH16_FORMAT_VK)
        return cuzk_fail(err, in.shape == CUZK_GROTH16_SHAPE_TRUNCATED ? CUZK_ERR_TRUNCATED : CUZK_ERR_BAD_LENGTH,
                         "this is %s", in.what);
    return cuzk_fail(err, t == CUZK_GROTH16_FORMAT_UNKNOWN ? CUZK_ERR_BAD_MAGIC : CUZK_ERR_INVALID_ARG,
                     "a verifying key is a verification_key.json or a bellperson .vk; this is %s", in.what);
}

cuzk_status cli_load_public(const char *path, cuzk_fr_t **pub, uint64_t *n, cuzk_errmsg *err)
{
    char *buf;
    cuzk_status s = cli_read_file(path, &buf, NULL, err);
    if (s != CUZK_OK) return s;
    s = cuzk_groth16_public_from_json(pub, n, buf, err);
    free(buf);
    return s;
}

cuzk_status cli_save_public(const char *path, const cuzk_fr_t *pub, uint64_t n, cuzk_errmsg *err)
{
    char *json;
    cuzk_status s = cuzk_groth16_public_to_json(pub, n, &json);
    if (s != CUZK_OK) return s;
    s = cli_write_file(path, json, strlen(json), err);
    free(json);
    return s;
}

bool cli_parse_fr_dec(const char *s, cuzk_fr_t *out)
{
    uint64_t l[CUZK_FR_LIMBS] = {0};
    if (*s == '\0' || strlen(s) > 80) return false;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        unsigned __int128 carry = (unsigned)(*p - '0');
        for (int i = 0; i < CUZK_FR_LIMBS; i++) {
            unsigned __int128 t = (unsigned __int128)l[i] * 10 + carry;
            l[i] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry != 0) return false;
    }
    return cuzk_fr_from_limbs(out, l) == CUZK_OK;
}

static uint64_t seed_next(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cli_toxic_from_seed(cuzk_groth16_setup_opts *o, uint64_t seed)
{
    cuzk_fr_t *v[5] = {&o->tau, &o->alpha, &o->beta, &o->gamma, &o->delta};
    uint64_t x = seed ^ 0x746f786963ULL; /* "toxic" */
    for (int i = 0; i < 5; i++) {
        do {
            uint64_t l[CUZK_FR_LIMBS] = {seed_next(&x), seed_next(&x), seed_next(&x), seed_next(&x)};
            cuzk_fr_from_limbs_reduce(v[i], l);
        } while (cuzk_fr_is_zero(v[i]));
    }
    o->given_toxic = true;
}
