/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What a file holds, from its content (docs/formats/README.md, "How a file is recognized"): one table of rules tried
 * in order, each a magic or a shape test, and for the formats whose header or counts fix the file's size a measure of
 * the bytes against it. A file that has a format's signature but not its size is still named that format, with how
 * it is wrong: a truncated .vk is "a truncated .vk", a .vk with a byte appended "a .vk with 1 trailing byte". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/r1cs.h"
#include "g16_internal.h"

/* JSON keys are looked for in the first bytes only: every snarkjs file names its kind near the top. */
#define FORMAT_JSON_SCAN 65536
#define FORMAT_VK_FIXED CUZK_G16_PARAMS_VK_FIXED_BYTES
#define FORMAT_G1 CUZK_G1_UNCOMPRESSED_BYTES

static const struct {
    cuzk_groth16_format f;
    const char *name, *short_name;
} format_names[] = {
    {CUZK_GROTH16_FORMAT_UNKNOWN, "unknown", "unknown"},
    {CUZK_GROTH16_FORMAT_PCE, "PCE (compiled constraint system)", ".pce"},
    {CUZK_GROTH16_FORMAT_WTNS, "iden3 witness (.wtns)", ".wtns"},
    {CUZK_GROTH16_FORMAT_R1CS, "circom constraint system (.r1cs)", ".r1cs"},
    {CUZK_GROTH16_FORMAT_ZKEY, "snarkjs proving key (.zkey)", ".zkey"},
    {CUZK_GROTH16_FORMAT_PTAU, "snarkjs powers of tau (.ptau)", ".ptau"},
    {CUZK_GROTH16_FORMAT_PARAMS, "bellperson parameters (.params)", ".params"},
    {CUZK_GROTH16_FORMAT_VK, "bellperson verifying key (.vk)", ".vk"},
    {CUZK_GROTH16_FORMAT_PROOF_BIN, "Groth16 proof (192 bytes, bellperson encoding)", "192-byte proof"},
    {CUZK_GROTH16_FORMAT_PROOF_JSON, "snarkjs proof (proof.json)", "proof.json"},
    {CUZK_GROTH16_FORMAT_VK_JSON, "snarkjs verification key (verification_key.json)", "verification_key.json"},
    {CUZK_GROTH16_FORMAT_PUBLIC_JSON, "snarkjs public inputs (public.json)", "public.json"},
};

static size_t format_index(cuzk_groth16_format f)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (format_names[i].f == f) return i;
    return 0;
}

const char *cuzk_groth16_format_name(cuzk_groth16_format f) { return format_names[format_index(f)].name; }

const char *cuzk_groth16_format_short_name(cuzk_groth16_format f) { return format_names[format_index(f)].short_name; }

/* ---- the answer ------------------------------------------------------------------------------------------------- */

/* Sets the shape and the words: "a truncated .vk (detail)", "a .vk with N trailing bytes (detail)", "a damaged
 * .params (detail)"; detail may be NULL. */
static void format_shape(cuzk_groth16_format_info *in, cuzk_groth16_shape shape, uint64_t expected, const char *fmt,
                         ...) __attribute__((format(printf, 4, 5)));
static void format_shape(cuzk_groth16_format_info *in, cuzk_groth16_shape shape, uint64_t expected, const char *fmt,
                         ...)
{
    in->shape = shape;
    in->expected = expected;
    const char *sn = cuzk_groth16_format_short_name(in->format);
    int n;
    if (shape == CUZK_GROTH16_SHAPE_TRUNCATED) {
        n = snprintf(in->what, sizeof in->what, "a truncated %s", sn);
    } else if (shape == CUZK_GROTH16_SHAPE_TRAILING) {
        uint64_t t = in->size - expected;
        n = snprintf(in->what, sizeof in->what, "a %s with %llu trailing byte%s", sn, (unsigned long long)t,
                     t == 1 ? "" : "s");
    } else {
        n = snprintf(in->what, sizeof in->what, "a damaged %s", sn);
    }
    if (fmt == NULL || n < 0 || (size_t)n + 4 >= sizeof in->what) return;
    size_t at = (size_t)n;
    in->what[at++] = ' ';
    in->what[at++] = '(';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->what + at, sizeof in->what - at - 1, fmt, ap);
    va_end(ap);
    at = strlen(in->what);
    in->what[at++] = ')';
    in->what[at] = '\0';
}

/* A status message without the loader's "params: " / "iden3: " prefix, as a shape's detail. */
static const char *format_detail(const cuzk_errmsg *why)
{
    const char *c = strstr(why->msg, ": ");
    return c != NULL && c - why->msg < 16 ? c + 2 : why->msg;
}

/* ---- size rules -------------------------------------------------------------------------------------------------- */

/* The iden3 containers: section headers that reach exactly to the end. */
static bool format_iden3(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    cuzk_errmsg why = {{0}};
    uint64_t end;
    if (cuzk_iden3_measure(b, len, &end, "iden3", &why) != CUZK_OK)
        format_shape(in, CUZK_GROTH16_SHAPE_TRUNCATED, 0, "%s", format_detail(&why));
    else if (end < len)
        format_shape(in, CUZK_GROTH16_SHAPE_TRAILING, end, "its sections end at byte %llu, this file has %zu",
                     (unsigned long long)end, len);
    return true;
}

/* PCE: the section table's furthest end, rounded up to a page. */
static bool format_pce(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    cuzk_errmsg why = {{0}};
    uint64_t end;
    cuzk_status s = cuzk_r1cs_pce_measure(b, len, &end, &why);
    if (s == CUZK_ERR_TRUNCATED) format_shape(in, CUZK_GROTH16_SHAPE_TRUNCATED, 0, "%s", why.msg);
    else if (s != CUZK_OK) format_shape(in, CUZK_GROTH16_SHAPE_DAMAGED, 0, "%s", why.msg);
    else if (end > len)
        format_shape(in, CUZK_GROTH16_SHAPE_TRUNCATED, end, "its sections end at byte %llu, this file has %zu",
                     (unsigned long long)end, len);
    else if (end < len)
        format_shape(in, CUZK_GROTH16_SHAPE_TRAILING, end, "its sections end at byte %llu, this file has %zu",
                     (unsigned long long)end, len);
    return true;
}

/* ---- shape rules ------------------------------------------------------------------------------------------------- */

/* The first byte after leading whitespace, or -1. */
static int format_json_start(const uint8_t *b, size_t len, size_t *at)
{
    size_t i = 0;
    while (i < len && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) i++;
    *at = i;
    return i < len ? b[i] : -1;
}

/* Whether `key` (with its quotes) occurs in the first bytes of the object starting at b + at. */
static bool format_json_key(const uint8_t *b, size_t len, size_t at, const char *key)
{
    size_t n = len - at < FORMAT_JSON_SCAN ? len - at : FORMAT_JSON_SCAN, k = strlen(key);
    const uint8_t *s = b + at;
    for (size_t i = 0; i + k + 2 <= n; i++)
        if (s[i] == '"' && memcmp(s + i + 1, key, k) == 0 && s[i + 1 + k] == '"') return true;
    return false;
}

static bool format_public_json(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    (void)in;
    size_t at;
    return format_json_start(b, len, &at) == '[';
}

static bool format_proof_json(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    (void)in;
    size_t at;
    return format_json_start(b, len, &at) == '{' && format_json_key(b, len, at, "pi_a");
}

static bool format_vk_json(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    (void)in;
    size_t at;
    return format_json_start(b, len, &at) == '{' &&
           (format_json_key(b, len, at, "vk_alpha_1") || format_json_key(b, len, at, "IC"));
}

/* Any other JSON object is no format of ours; saying so beats "no format cuzk knows". */
static bool format_other_json(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    size_t at;
    if (format_json_start(b, len, &at) != '{') return false;
    snprintf(in->what, sizeof in->what,
             "no format cuzk knows (a JSON object with none of the keys of a snarkjs proof "
             "(pi_a) or verification key (vk_alpha_1, IC))");
    return true;
}

/* Compressed points carry the 0x80 flag; a proof is three of them (A at 0, B at 48, C at 144). A file that starts so
 * and is shorter than two proofs is taken for one of the wrong length. */
static bool format_proof_bin(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    const size_t n = CUZK_GROTH16_PROOF_BYTES;
    if (len == 0 || !(b[0] & 0x80) || len >= 2 * n) return false;
    if (len < n) format_shape(in, CUZK_GROTH16_SHAPE_TRUNCATED, n, "a proof is %zu bytes, this file has %zu", n, len);
    else if (len > n)
        format_shape(in, CUZK_GROTH16_SHAPE_TRAILING, n, "a proof is %zu bytes, this file has %zu", n, len);
    else if (!(b[48] & 0x80) || !(b[144] & 0x80))
        format_shape(in, CUZK_GROTH16_SHAPE_DAMAGED, 0, "B at byte 48 or C at byte 144 lacks the compressed flag");
    return true;
}

/* After the last IC point its counts place, a .params goes on with H's count and points: a valid point 4 bytes on (or
 * right there, when the IC count is too small and its end falls on an IC point) says that the file is a key with more
 * points, whatever its counts say; bytes appended to a .vk hold none. */
static bool format_params_follows(const uint8_t *b, size_t len, uint64_t vk)
{
    cuzk_g1_affine_t p;
    for (uint64_t at = vk; at <= vk + 4; at += 4)
        if (at + FORMAT_G1 <= len &&
            cuzk_g1_from_uncompressed(&p, b + at, FORMAT_G1, CUZK_EC_DECODE_SKIP_SUBGROUP) == CUZK_OK)
            return true;
    return false;
}

static bool format_read4(void *ctx, uint64_t pos, uint8_t out[4])
{
    memcpy(out, (const uint8_t *)ctx + pos, 4);
    return true;
}

/* bellperson's keys have no header: they start with α1, uncompressed (no flag bits, a point on the curve). A .vk is
 * exactly its IC count's size; a longer file is a .params when its counts lay it out or points follow the vk, else a
 * .vk with bytes trailing. */
static bool format_bellperson(const uint8_t *b, size_t len, cuzk_groth16_format_info *in)
{
    cuzk_g1_affine_t alpha;
    if (len < FORMAT_G1 || cuzk_g1_from_uncompressed(&alpha, b, FORMAT_G1, CUZK_EC_DECODE_SKIP_SUBGROUP) != CUZK_OK)
        return false;
    in->format = CUZK_GROTH16_FORMAT_VK;
    in->also = CUZK_GROTH16_FORMAT_PARAMS; /* until the bytes after the vk say otherwise */
    if (len < FORMAT_VK_FIXED + 4) {
        format_shape(in, CUZK_GROTH16_SHAPE_TRUNCATED, 0,
                     "six points and the IC count make at least %d bytes, this "
                     "file has %zu",
                     FORMAT_VK_FIXED + 4, len);
        return true;
    }
    uint64_t ic = cuzk_load_be32(b + FORMAT_VK_FIXED), vk = FORMAT_VK_FIXED + 4 + ic * FORMAT_G1;
    if (len < vk) {
        format_shape(in, CUZK_GROTH16_SHAPE_TRUNCATED, vk, "%llu IC points make %llu bytes, this file has %zu",
                     (unsigned long long)ic, (unsigned long long)vk, len);
        return true;
    }
    in->also = CUZK_GROTH16_FORMAT_UNKNOWN;
    if (len == vk) return true;
    uint64_t off[CUZK_G16_PARAMS_SEC_COUNT] = {0}, cnt[CUZK_G16_PARAMS_SEC_COUNT] = {0};
    cuzk_errmsg why = {{0}};
    cuzk_status s = cuzk_g16_params_layout(off, cnt, len, format_read4, (void *)b, &why);
    if (s != CUZK_OK && !format_params_follows(b, len, vk)) {
        format_shape(in, CUZK_GROTH16_SHAPE_TRAILING, vk, "%llu IC points make %llu bytes, this file has %zu",
                     (unsigned long long)ic, (unsigned long long)vk, len);
        /* too few bytes for H's first point: a .params cut there, unless its H count is 0 (no .params has that) */
        if (len - vk < 4 + FORMAT_G1 && (len - vk < 4 || cuzk_load_be32(b + vk) != 0))
            in->also = CUZK_GROTH16_FORMAT_PARAMS;
        return true;
    }
    in->format = CUZK_GROTH16_FORMAT_PARAMS;
    if (s == CUZK_ERR_BAD_LENGTH) {
        /* every count fits: bytes follow b_g2, the last array */
        uint64_t end = off[CUZK_G16_PARAMS_SEC_B_G2] + cnt[CUZK_G16_PARAMS_SEC_B_G2] * CUZK_G2_UNCOMPRESSED_BYTES;
        format_shape(in, CUZK_GROTH16_SHAPE_TRAILING, end, "its counts make %llu bytes, this file has %zu",
                     (unsigned long long)end, len);
    } else if (s == CUZK_ERR_TRUNCATED) {
        format_shape(in, CUZK_GROTH16_SHAPE_TRUNCATED, 0, "%s", format_detail(&why));
    } else if (s != CUZK_OK) {
        format_shape(in, CUZK_GROTH16_SHAPE_DAMAGED, 0, "%s", format_detail(&why));
    }
    return true;
}

/* ---- the rules, in the order they are tried ---------------------------------------------------------------------- */

typedef bool (*format_test_fn)(const uint8_t *b, size_t len, cuzk_groth16_format_info *in);

static const struct {
    const char magic[8];
    size_t magic_len;      /* 0: the test alone decides */
    cuzk_groth16_format f; /* what a match is (the test may say otherwise: a bellperson key, JSON of no kind) */
    format_test_fn test;   /* after a magic: the size rule (NULL: none); else: whether the bytes have the shape */
} format_rules[] = {
    {"CUZKPCE", 8, CUZK_GROTH16_FORMAT_PCE, format_pce},
    {"wtns", 4, CUZK_GROTH16_FORMAT_WTNS, format_iden3},
    {"r1cs", 4, CUZK_GROTH16_FORMAT_R1CS, format_iden3},
    {"zkey", 4, CUZK_GROTH16_FORMAT_ZKEY, format_iden3},
    {"ptau", 4, CUZK_GROTH16_FORMAT_PTAU, format_iden3},
    {"", 0, CUZK_GROTH16_FORMAT_PUBLIC_JSON, format_public_json}, /* '[' after whitespace */
    {"", 0, CUZK_GROTH16_FORMAT_PROOF_JSON, format_proof_json},   /* '{' with "pi_a" */
    {"", 0, CUZK_GROTH16_FORMAT_VK_JSON, format_vk_json},         /* '{' with "vk_alpha_1" or "IC" */
    {"", 0, CUZK_GROTH16_FORMAT_UNKNOWN, format_other_json},      /* any other '{' */
    {"", 0, CUZK_GROTH16_FORMAT_PROOF_BIN, format_proof_bin},     /* a compressed first point */
    {"", 0, CUZK_GROTH16_FORMAT_VK, format_bellperson},           /* an uncompressed α1: .vk or .params */
};

cuzk_groth16_format cuzk_groth16_detect_format(const uint8_t *buf, size_t len, cuzk_groth16_format_info *info)
{
    cuzk_groth16_format_info local;
    cuzk_groth16_format_info *in = info != NULL ? info : &local;
    memset(in, 0, sizeof *in);
    if (buf == NULL) len = 0;
    in->size = len;
    for (size_t i = 0; i < sizeof format_rules / sizeof format_rules[0]; i++) {
        size_t m = format_rules[i].magic_len;
        in->format = format_rules[i].f;
        if (m != 0) {
            if (len < m || memcmp(buf, format_rules[i].magic, m) != 0) continue;
            if (format_rules[i].test != NULL) format_rules[i].test(buf, len, in);
        } else if (!format_rules[i].test(buf, len, in)) {
            continue;
        }
        if (in->what[0] == '\0') {
            const char *name = cuzk_groth16_format_name(in->format);
            snprintf(in->what, sizeof in->what, "%s %s", strchr("aeiou", name[0]) != NULL ? "an" : "a", name);
        }
        return in->format;
    }
    in->format = CUZK_GROTH16_FORMAT_UNKNOWN;
    snprintf(in->what, sizeof in->what, len == 0 ? "an empty file" : "no format cuzk knows");
    return in->format;
}

bool cuzk_groth16_format_may_be(const cuzk_groth16_format_info *in, cuzk_groth16_format want)
{
    return in->format == want || in->format == CUZK_GROTH16_FORMAT_UNKNOWN ||
           (in->also == want && want != CUZK_GROTH16_FORMAT_UNKNOWN);
}

cuzk_status cuzk_groth16_vk_inputs(const uint8_t *buf, size_t len, uint64_t *num_inputs, cuzk_errmsg *err)
{
    *num_inputs = 0;
    cuzk_groth16_format_info in;
    cuzk_groth16_format f = cuzk_groth16_detect_format(buf, len, &in);
    if (f == CUZK_GROTH16_FORMAT_VK) {
        if (in.shape != CUZK_GROTH16_SHAPE_WHOLE)
            return cuzk_fail(err, in.shape == CUZK_GROTH16_SHAPE_TRUNCATED ? CUZK_ERR_TRUNCATED : CUZK_ERR_BAD_LENGTH,
                             "vk: this is %s", in.what);
        *num_inputs = cuzk_load_be32(buf + FORMAT_VK_FIXED);
        return CUZK_OK;
    }
    if (f == CUZK_GROTH16_FORMAT_VK_JSON) {
        uint64_t np, nic;
        if (!cuzk_g16_vk_json_counts((const char *)buf, len, &np, &nic))
            return cuzk_fail(err, CUZK_ERR_BAD_JSON, "verification_key: no top-level nPublic and IC");
        if (nic != np + 1)
            return cuzk_fail(err, CUZK_ERR_BAD_JSON, "verification_key: IC has %llu points, nPublic + 1 = %llu",
                             (unsigned long long)nic, (unsigned long long)np + 1);
        *num_inputs = nic;
        return CUZK_OK;
    }
    return cuzk_fail(err, CUZK_ERR_BAD_MAGIC,
                     "a verifying key is a verification_key.json or a bellperson .vk; this "
                     "is %s",
                     in.what);
}
