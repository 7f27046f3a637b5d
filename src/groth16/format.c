/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What a file holds, from its content: the magic of the iden3 containers and of PCE, the first key of a snarkjs JSON
 * document, and for bellperson's headerless keys the sizes their counts fix (docs/formats/README.md). A file that has
 * a format's signature but not its size is still called that format, with a note that says what is wrong, so that
 * a truncated .vk is reported as a truncated .vk rather than as something else. */
#include <stdio.h>
#include <string.h>

#include "g16_internal.h"

/* JSON keys are looked for in the first bytes only: every snarkjs file names its kind near the top. */
#define FORMAT_JSON_SCAN 65536

static const struct {
    cuzk_groth16_format f;
    const char *name;
} format_names[] = {
    {CUZK_GROTH16_FORMAT_UNKNOWN, "unknown"},
    {CUZK_GROTH16_FORMAT_PCE, "PCE (compiled constraint system)"},
    {CUZK_GROTH16_FORMAT_WTNS, "iden3 witness (.wtns)"},
    {CUZK_GROTH16_FORMAT_R1CS, "circom constraint system (.r1cs)"},
    {CUZK_GROTH16_FORMAT_ZKEY, "snarkjs proving key (.zkey)"},
    {CUZK_GROTH16_FORMAT_PTAU, "snarkjs powers of tau (.ptau)"},
    {CUZK_GROTH16_FORMAT_PARAMS, "bellperson parameters (.params)"},
    {CUZK_GROTH16_FORMAT_VK, "bellperson verifying key (.vk)"},
    {CUZK_GROTH16_FORMAT_PROOF_BIN, "Groth16 proof (192 bytes, bellperson encoding)"},
    {CUZK_GROTH16_FORMAT_PROOF_JSON, "snarkjs proof (proof.json)"},
    {CUZK_GROTH16_FORMAT_VK_JSON, "snarkjs verification key (verification_key.json)"},
    {CUZK_GROTH16_FORMAT_PUBLIC_JSON, "snarkjs public inputs (public.json)"},
};

const char *cuzk_groth16_format_name(cuzk_groth16_format f)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (format_names[i].f == f) return format_names[i].name;
    return "unknown";
}

static bool format_read4(void *ctx, uint64_t pos, uint8_t out[4])
{
    memcpy(out, (const uint8_t *)ctx + pos, 4);
    return true;
}

/* Whether `key` (with its quotes) occurs in the first n bytes of s, which need not be NUL-terminated. */
static bool format_has_key(const uint8_t *s, size_t n, const char *key)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k + 2 <= n; i++)
        if (s[i] == '"' && memcmp(s + i + 1, key, k) == 0 && s[i + 1 + k] == '"') return true;
    return false;
}

/* bellperson keys start with α1, uncompressed: no flag bits, a point on the curve. */
static cuzk_groth16_format format_bellperson(const uint8_t *b, size_t len, cuzk_errmsg *note)
{
    const size_t fixed = CUZK_G16_PARAMS_VK_FIXED_BYTES;
    if (len < fixed + 4) {
        cuzk_fail(note, CUZK_ERR_TRUNCATED, "truncated: a .vk is at least %zu bytes (six points and the IC count), "
                  "this file has %zu", fixed + 4, len);
        return CUZK_GROTH16_FORMAT_VK;
    }
    uint64_t ic = cuzk_load_be32(b + fixed);
    uint64_t vk = fixed + 4 + ic * CUZK_G1_UNCOMPRESSED_BYTES;
    if (len == vk) return CUZK_GROTH16_FORMAT_VK;
    if (len < vk) {
        cuzk_fail(note, CUZK_ERR_TRUNCATED, "truncated: %llu IC points make a %llu-byte .vk, this file has %zu",
                  (unsigned long long)ic, (unsigned long long)vk, len);
        return CUZK_GROTH16_FORMAT_VK;
    }
    uint64_t off[CUZK_G16_PARAMS_SEC_COUNT], cnt[CUZK_G16_PARAMS_SEC_COUNT];
    cuzk_errmsg why = {{0}};
    if (cuzk_g16_params_layout(off, cnt, len, format_read4, (void *)b, &why) == CUZK_OK)
        return CUZK_GROTH16_FORMAT_PARAMS;
    /* a .params goes on with five counted arrays: fewer bytes than their counts are a .vk with bytes appended */
    if (len - vk < 5 * 4) {
        cuzk_fail(note, CUZK_ERR_BAD_LENGTH, "%llu bytes follow the last IC point of a .vk (a .vk ends there; a "
                  ".params goes on with five counted arrays)", (unsigned long long)(len - vk));
        return CUZK_GROTH16_FORMAT_VK;
    }
    cuzk_fail(note, CUZK_ERR_BAD_HEADER, "damaged: %s", why.msg);
    return CUZK_GROTH16_FORMAT_PARAMS;
}

cuzk_groth16_format cuzk_groth16_detect_format(const uint8_t *buf, size_t len, cuzk_errmsg *note)
{
    static const struct {
        const char magic[8];
        size_t n;
        cuzk_groth16_format f;
    } magics[] = {
        {"CUZKPCE", 8, CUZK_GROTH16_FORMAT_PCE},  {"wtns", 4, CUZK_GROTH16_FORMAT_WTNS},
        {"r1cs", 4, CUZK_GROTH16_FORMAT_R1CS},    {"zkey", 4, CUZK_GROTH16_FORMAT_ZKEY},
        {"ptau", 4, CUZK_GROTH16_FORMAT_PTAU},
    };
    if (note != NULL) note->msg[0] = '\0';
    if (buf == NULL) len = 0;
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (len >= magics[i].n && memcmp(buf, magics[i].magic, magics[i].n) == 0) return magics[i].f;

    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t')) i++;
    if (i < len && buf[i] == '[') return CUZK_GROTH16_FORMAT_PUBLIC_JSON;
    if (i < len && buf[i] == '{') {
        size_t n = len - i < FORMAT_JSON_SCAN ? len - i : FORMAT_JSON_SCAN;
        if (format_has_key(buf + i, n, "pi_a")) return CUZK_GROTH16_FORMAT_PROOF_JSON;
        if (format_has_key(buf + i, n, "vk_alpha_1") || format_has_key(buf + i, n, "IC"))
            return CUZK_GROTH16_FORMAT_VK_JSON;
        cuzk_fail(note, CUZK_ERR_BAD_JSON, "a JSON object with none of the keys of a snarkjs proof (pi_a) or "
                  "verification key (vk_alpha_1, IC)");
        return CUZK_GROTH16_FORMAT_UNKNOWN;
    }
    /* compressed points carry the 0x80 flag; a proof is three of them (A at 0, B at 48, C at 144) */
    if (len > 0 && (buf[0] & 0x80)) {
        if (len == CUZK_GROTH16_PROOF_BYTES && (buf[48] & 0x80) && (buf[144] & 0x80))
            return CUZK_GROTH16_FORMAT_PROOF_BIN;
        if (len < CUZK_GROTH16_PROOF_BYTES * 2) {
            cuzk_fail(note, CUZK_ERR_BAD_LENGTH, "starts like a compressed proof, which is %d bytes; this file has %zu",
                      CUZK_GROTH16_PROOF_BYTES, len);
            return CUZK_GROTH16_FORMAT_PROOF_BIN;
        }
        return CUZK_GROTH16_FORMAT_UNKNOWN;
    }
    cuzk_g1_affine_t alpha;
    if (len >= CUZK_G1_UNCOMPRESSED_BYTES &&
        cuzk_g1_from_uncompressed(&alpha, buf, CUZK_G1_UNCOMPRESSED_BYTES, CUZK_EC_DECODE_SKIP_SUBGROUP) == CUZK_OK)
        return format_bellperson(buf, len, note);
    if (len == 0) cuzk_fail(note, CUZK_ERR_TRUNCATED, "the file is empty");
    return CUZK_GROTH16_FORMAT_UNKNOWN;
}

cuzk_status cuzk_groth16_vk_inputs(const uint8_t *buf, size_t len, uint64_t *num_inputs, cuzk_errmsg *err)
{
    *num_inputs = 0;
    cuzk_errmsg note = {{0}};
    cuzk_groth16_format f = cuzk_groth16_detect_format(buf, len, &note);
    if (f == CUZK_GROTH16_FORMAT_VK) {
        const size_t fixed = CUZK_G16_PARAMS_VK_FIXED_BYTES;
        uint64_t ic = len >= fixed + 4 ? cuzk_load_be32(buf + fixed) : 0;
        if (note.msg[0] != '\0')
            return cuzk_fail(err, len < fixed + 4 + ic * CUZK_G1_UNCOMPRESSED_BYTES ? CUZK_ERR_TRUNCATED
                                                                                 : CUZK_ERR_BAD_LENGTH,
                             "vk: %s", note.msg);
        *num_inputs = ic;
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
    return cuzk_fail(err, CUZK_ERR_BAD_MAGIC, "a verifying key is a verification_key.json or a bellperson .vk; this "
                     "is %s", f == CUZK_GROTH16_FORMAT_UNKNOWN ? "no format cuzk knows" : cuzk_groth16_format_name(f));
}
