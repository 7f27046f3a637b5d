/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PoRep C1: generated commit-phase-1 outputs of every sector size written as serde_json and Go write them, bare and
 * in Curio's envelope, read back equal (from a buffer, a file, a descriptor); key orders, whitespace, unknown keys
 * and escapes accepted; every class of broken document refused with its status and the JSON path; the bincode
 * forms. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fil_tests.h"

static const cuzk_fil_proof *seal(uint64_t id)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, id);
    assert_non_null(p);
    return p;
}

static void gen(uint64_t id, uint64_t seed, cuzk_fil_c1 *c)
{
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_c1_random(seal(id), seed, c, &err) != CUZK_OK) fail_msg("generate: %s", err.msg);
}

static char *to_json(const cuzk_fil_c1 *c, bool wrapped, size_t *len)
{
    char *doc = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&doc, &n);
    assert_non_null(f);
    assert_int_equal(cuzk_fil_c1_write_json(c, wrapped, f, NULL), CUZK_OK);
    fclose(f);
    if (len != NULL) *len = n;
    return doc;
}

static cuzk_status parse(const char *doc, cuzk_fil_c1 *c, cuzk_errmsg *err)
{
    return cuzk_fil_c1_parse((const uint8_t *)doc, strlen(doc), c, err);
}

static void assert_merkle_equal(const cuzk_fil_shape *s, const cuzk_fil_merkle_proof *x, const cuzk_fil_merkle_proof *y)
{
    assert_int_equal(x->leaf_index, y->leaf_index);
    assert_int_equal(x->levels, y->levels);
    assert_int_equal(x->kind, y->kind);
    assert_memory_equal(x->index, y->index, x->levels);
    assert_memory_equal(x->root, y->root, 32);
    assert_memory_equal(x->leaf, y->leaf, 32);
    assert_memory_equal(x->siblings, y->siblings, 32 * (size_t)cuzk_fil_shape_siblings(s));
}

static void assert_column_equal(const cuzk_fil_proof *p, const cuzk_fil_column_proof *x, const cuzk_fil_column_proof *y)
{
    assert_int_equal(x->index, y->index);
    assert_memory_equal(x->rows, y->rows, 32 * (size_t)p->layers);
    assert_merkle_equal(&p->tree_r, &x->proof, &y->proof);
}

static void assert_c1_equal(const cuzk_fil_c1 *a, const cuzk_fil_c1 *b)
{
    const cuzk_fil_proof *p = a->proof;
    assert_ptr_equal(a->proof, b->proof);
    assert_int_equal(a->partitions, b->partitions);
    assert_int_equal(a->challenges, b->challenges);
    assert_memory_equal(a->comm_r, b->comm_r, 32);
    assert_memory_equal(a->comm_d, b->comm_d, 32);
    assert_memory_equal(a->replica_id, b->replica_id, 32);
    assert_memory_equal(a->seed, b->seed, 32);
    assert_memory_equal(a->ticket, b->ticket, 32);
    for (size_t i = 0; i < (size_t)a->partitions * a->challenges; i++) {
        const cuzk_fil_porep_challenge *x = &a->c[i], *y = &b->c[i];
        assert_int_equal(x->node, y->node);
        assert_merkle_equal(&p->tree_d, &x->comm_d, &y->comm_d);
        assert_merkle_equal(&p->tree_r, &x->comm_r_last, &y->comm_r_last);
        assert_column_equal(p, &x->c_x, &y->c_x);
        for (int k = 0; k < CUZK_FIL_DRG_PARENTS; k++) assert_column_equal(p, &x->drg[k], &y->drg[k]);
        for (int k = 0; k < CUZK_FIL_EXP_PARENTS; k++) assert_column_equal(p, &x->exp[k], &y->exp[k]);
        assert_memory_equal(x->labeling, y->labeling, 32 * (size_t)p->layers * CUZK_FIL_LABEL_PARENTS);
        assert_memory_equal(x->encoding, y->encoding, 32 * (size_t)CUZK_FIL_LABEL_PARENTS);
    }
}

/* Extent of the JSON value that starts at s[at]: offset just past it. */
static size_t value_end(const char *s, size_t at)
{
    int depth = 0;
    bool str = false;
    for (size_t i = at;; i++) {
        char c = s[i];
        assert_true(c != '\0');
        if (str) {
            if (c == '\\') i++;
            else if (c == '"') str = false;
            if (!str && depth == 0) return i + 1;
            continue;
        }
        if (c == '"') str = true;
        else if (c == '[' || c == '{') depth++;
        else if (c == ']' || c == '}') {
            if (depth == 0) return i; /* a number or literal ends at its container's close */
            if (--depth == 0) return i + 1;
        } else if (depth == 0 && c == ',') return i;
    }
}

/* The document with the value of the n-th member `key` replaced by val. */
static char *set_value(const char *doc, const char *key, int n, const char *val)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    size_t at = fil_test_find(doc, pat, 0, n) + strlen(pat), end = value_end(doc, at);
    size_t ld = strlen(doc), lv = strlen(val);
    char *r = malloc(ld - (end - at) + lv + 1);
    memcpy(r, doc, at);
    memcpy(r + at, val, lv);
    memcpy(r + at + lv, doc + end, ld - end + 1);
    return r;
}

/* The document without the value starting at offset at (and the comma after it, else the one before). */
static char *cut_value(const char *doc, size_t at)
{
    size_t end = value_end(doc, at), ld = strlen(doc);
    if (doc[end] == ',') end++;
    else if (at > 0 && doc[at - 1] == ',') at--;
    char *r = malloc(ld + 1);
    memcpy(r, doc, at);
    memcpy(r + at, doc + end, ld - end + 1);
    return r;
}

/* The document without its n-th member `key` (and a comma). */
static char *cut_member(const char *doc, const char *key, int n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    size_t at = fil_test_find(doc, pat, 0, n), end = value_end(doc, at + strlen(pat)), ld = strlen(doc);
    if (doc[end] == ',') end++;
    else if (at > 0 && doc[at - 1] == ',') at--;
    char *r = malloc(ld + 1);
    memcpy(r, doc, at);
    memcpy(r + at, doc + end, ld - end + 1);
    return r;
}

/* Curio's envelope around an inner document given as text. */
static char *wrap(const char *inner)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(inner), k = 0;
    char *r = malloc(n / 3 * 4 + 100);
    k += (size_t)sprintf(r, "{\"SectorNum\":9,\"Phase1Out\":\"");
    for (size_t i = 0; i < n; i += 3) {
        uint32_t q = (uint32_t)(uint8_t)inner[i] << 16 | (i + 1 < n ? (uint32_t)(uint8_t)inner[i + 1] << 8 : 0) |
                     (i + 2 < n ? (uint8_t)inner[i + 2] : 0);
        r[k++] = b64[q >> 18 & 63];
        r[k++] = b64[q >> 12 & 63];
        r[k++] = i + 1 < n ? b64[q >> 6 & 63] : '=';
        r[k++] = i + 2 < n ? b64[q & 63] : '=';
    }
    sprintf(r + k, "\",\"SectorSize\":2048}");
    return r;
}

/* The document with `ins` inserted at offset at. */
static char *insert_at(const char *doc, size_t at, const char *ins)
{
    size_t ld = strlen(doc), li = strlen(ins);
    char *r = malloc(ld + li + 1);
    memcpy(r, doc, at);
    memcpy(r + at, ins, li);
    memcpy(r + at + li, doc + at, ld - at + 1);
    return r;
}

/* parse must fail with status st and a message containing msg; the result must be left empty */
static void expect_fail(char *doc, cuzk_status st, const char *msg)
{
    cuzk_fil_c1 c;
    cuzk_errmsg err = {{0}};
    cuzk_status got = parse(doc, &c, &err);
    if (got != st || strstr(err.msg, msg) == NULL)
        fail_msg("status %d (want %d), message \"%s\" (want \"%s\")", got, st, err.msg, msg);
    assert_null(c.mem);
    assert_null(c.c);
    free(doc);
}

static void expect_ok(char *doc, const cuzk_fil_c1 *want)
{
    cuzk_fil_c1 c;
    cuzk_errmsg err = {{0}};
    if (parse(doc, &c, &err) != CUZK_OK) fail_msg("%s", err.msg);
    if (want != NULL) assert_c1_equal(&c, want);
    cuzk_fil_c1_free(&c);
    free(doc);
}

/* ---- round trips ------------------------------------------------------------------------------------------------- */

static void test_json_round_trip(void **state)
{
    (void)state;
    static const uint64_t ids[] = {0, 5, 11, 7, 15, 16};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        cuzk_fil_c1 a, b;
        gen(ids[k], test_rand_u64(), &a);
        assert_int_equal(a.partitions, a.proof->partitions);
        assert_int_equal(a.challenges, a.proof->challenges);
        for (int wrapped = 0; wrapped < 2; wrapped++) {
            size_t len;
            char *doc = to_json(&a, wrapped, &len);
            cuzk_errmsg err = {{0}};
            if (parse(doc, &b, &err) != CUZK_OK) fail_msg("%s: %s", a.proof->name, err.msg);
            assert_c1_equal(&a, &b);
            assert_int_equal(b.wrapped, wrapped);
            if (wrapped) {
                assert_int_equal(b.sector_num, a.sector_num);
                assert_int_equal(b.sector_size, a.proof->sector_size);
                assert_true(fil_test_has(doc, "{\"SectorNum\":"));
            } else {
                assert_int_equal(b.sector_num, 0);
                assert_true(fil_test_has(doc, "{\"registered_proof\":\""));
            }
            assert_true(b.mem_bytes > 0);
            char *again = to_json(&b, wrapped, NULL);
            assert_string_equal(again, doc);
            free(again);
            cuzk_fil_c1_free(&b);
            cuzk_fil_c1_free(&b);
            free(doc);
        }
        cuzk_fil_c1_free(&a);
    }
}

/* From a file and a descriptor, read in pieces. */
static void test_json_from_file(void **state)
{
    (void)state;
    cuzk_fil_c1 a, b;
    gen(7, test_rand_u64(), &a);
    char dir[256], path[512];
    fil_test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/c1.json", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(cuzk_fil_c1_write_json(&a, true, f, NULL), CUZK_OK);
    fclose(f);
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_c1_parse_file(path, &b, &err) != CUZK_OK) fail_msg("%s", err.msg);
    assert_c1_equal(&a, &b);
    cuzk_fil_c1_free(&b);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(cuzk_fil_c1_parse_fd(fd, &b, NULL), CUZK_OK);
    close(fd);
    assert_c1_equal(&a, &b);
    cuzk_fil_c1_free(&b);
    snprintf(path, sizeof path, "%s/none.json", dir);
    assert_int_equal(cuzk_fil_c1_parse_file(path, &b, &err), CUZK_ERR_IO);
    assert_true(fil_test_has(err.msg, "none.json"));
    /* a descriptor that cannot be read */
    assert_int_equal(cuzk_fil_c1_parse_fd(-1, &b, &err), CUZK_ERR_IO);
    assert_true(fil_test_has(err.msg, "read failed"));
    assert_null(b.mem);
    fil_test_rmtree(dir);
    cuzk_fil_c1_free(&a);
}

/* 32 GiB: the layout's sizes, and the bincode round trips. */
static void test_32g(void **state)
{
    (void)state;
    cuzk_fil_c1 a, b;
    gen(8, test_rand_u64(), &a);
    assert_int_equal(a.partitions, 10);
    assert_int_equal(a.challenges, 18);
    size_t n = cuzk_fil_c1_bincode_bytes(&a, CUZK_FIL_C1_BIN_SUPRASEAL);
    assert_int_equal(n, 11014808);
    assert_int_equal(cuzk_fil_c1_bincode_bytes(&a, CUZK_FIL_C1_BIN_API), n + 8);
    for (int form = 0; form < 2; form++) {
        size_t len = cuzk_fil_c1_bincode_bytes(&a, (cuzk_fil_c1_bin_form)form), wl;
        uint8_t *buf = malloc(len);
        assert_int_equal(cuzk_fil_c1_encode_bincode(&a, (cuzk_fil_c1_bin_form)form, buf, len, &wl, NULL), CUZK_OK);
        assert_int_equal(wl, len);
        cuzk_errmsg err = {{0}};
        if (cuzk_fil_c1_decode_bincode(buf, len, (cuzk_fil_c1_bin_form)form, form ? NULL : a.proof, &b, &err) !=
            CUZK_OK)
            fail_msg("%s", err.msg);
        assert_c1_equal(&a, &b);
        cuzk_fil_c1_free(&b);
        free(buf);
    }
    cuzk_fil_c1_free(&a);
}

/* The same document with its keys in Go's order, whitespace everywhere, unknown members, escapes in keys and _h
 * left out or given any value. */
static void test_json_variants_accepted(void **state)
{
    (void)state;
    cuzk_fil_c1 a;
    gen(5, test_rand_u64(), &a);
    char *doc = to_json(&a, false, NULL);
    /* Go's encoding/json order: comm_d, comm_r, registered_proof, replica_id, seed, ticket, vanilla_proofs */
    {
        size_t v0 = fil_test_find(doc, "\"vanilla_proofs\":", 0, 0), v1 = fil_test_find(doc, ",\"comm_r\":", 0, 0);
        size_t r0 = fil_test_find(doc, "\"registered_proof\":", 0, 0);
        size_t ld = strlen(doc);
        char *go = malloc(ld + 8), *w = go;
        w += sprintf(w, "{");
        memcpy(w, doc + v1 + 1, ld - 1 - (v1 + 1)); /* comm_r .. ticket, without the final brace */
        w += ld - 1 - (v1 + 1);
        *w++ = ',';
        memcpy(w, doc + r0, v0 - r0); /* "registered_proof":"...", */
        w += v0 - r0;
        memcpy(w, doc + v0, v1 - v0); /* "vanilla_proofs":{...} */
        w += v1 - v0;
        strcpy(w, "}");
        expect_ok(go, &a);
    }
    /* whitespace after every comma and colon */
    {
        size_t ld = strlen(doc), n = 0;
        char *ws = malloc(3 * ld + 1);
        for (size_t i = 0; i < ld; i++) {
            ws[n++] = doc[i];
            if (doc[i] == ',') ws[n++] = '\n', ws[n++] = ' ';
            if (doc[i] == ':') ws[n++] = '\t';
        }
        ws[n] = '\0';
        char *pre = malloc(n + 8);
        sprintf(pre, " \r\n%s \n", ws);
        free(ws);
        expect_ok(pre, &a);
    }
    /* unknown members at every level we look at, of every JSON type */
    {
        char *d1 = insert_at(doc, 1, "\"extra\":{\"a\":[1,-2.5e+3,true,false,null,\"x\\\"y\\u00e9\"],\"b\":{}},");
        size_t at = fil_test_find(d1, "{\"comm_d_proofs\":", 0, 1) + 1;
        char *d2 = insert_at(d1, at, "\"note\":[[],[[]],{\"k\":0}],");
        free(d1);
        at = fil_test_find(d2, "{\"hashes\":", 0, 3) + 1;
        char *d3 = insert_at(d2, at, "\"x\":\"\",");
        free(d2);
        expect_ok(d3, &a);
    }
    /* a key spelled with an escape */
    expect_ok(fil_test_replace(doc, "\"comm_r\":", "\"comm\\u005fr\":", 0), &a);
    /* Column._h absent, or any value */
    expect_ok(fil_test_replace(doc, ",\"_h\":null", "", 4), &a);
    expect_ok(fil_test_replace(doc, "\"_h\":null", "\"_h\":{\"any\":[1,2]}", 0), &a);
    /* seed and ticket are plain bytes */
    char *d = set_value(doc, "ticket", 0,
                        "[255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,"
                        "255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255]");
    cuzk_fil_c1 b;
    assert_int_equal(parse(d, &b, NULL), CUZK_OK);
    assert_int_equal(b.ticket[31], 255);
    cuzk_fil_c1_free(&b);
    free(d);
    free(doc);
    cuzk_fil_c1_free(&a);
}

/* ---- broken documents -------------------------------------------------------------------------------------------- */

static const char *const ones32 = "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";

static void test_json_syntax(void **state)
{
    (void)state;
    cuzk_fil_c1 a;
    gen(5, test_rand_u64(), &a);
    char *doc = to_json(&a, false, NULL);
    expect_fail(strdup(""), CUZK_ERR_BAD_JSON, "expected '{' (a JSON object), the input ends at byte 0");
    {
        cuzk_fil_c1 c;
        assert_int_equal(cuzk_fil_c1_parse(NULL, 0, &c, NULL), CUZK_ERR_BAD_JSON);
        assert_int_equal(cuzk_fil_c1_parse(NULL, 3, &c, NULL), CUZK_ERR_INVALID_ARG);
        assert_int_equal(cuzk_fil_c1_decode_bincode(NULL, 0, CUZK_FIL_C1_BIN_API, NULL, &c, NULL), CUZK_ERR_TRUNCATED);
    }
    expect_fail(strdup("[]"), CUZK_ERR_BAD_JSON, "expected '{' (a JSON object) found '[' at byte 0");
    expect_fail(strdup("null"), CUZK_ERR_BAD_JSON, "found 'n'");
    expect_fail(strdup("{}"), CUZK_ERR_BAD_JSON, "missing key 'registered_proof'");
    expect_fail(strdup("{\"a\":1,}"), CUZK_ERR_BAD_JSON, "expected a string found '}' at byte 7");
    expect_fail(strdup("{\"a\" 1}"), CUZK_ERR_BAD_JSON, "expected ':' found '1'");
    expect_fail(strdup("{\"a\":tru}"), CUZK_ERR_BAD_JSON, "expected true found '}'");
    expect_fail(strdup("{\"a\":\"x\ty\"}"), CUZK_ERR_BAD_JSON, "control characters must be escaped");
    expect_fail(strdup("{\"a\":\"\\q\"}"), CUZK_ERR_BAD_JSON, "expected an escape");
    expect_fail(strdup("{\"a\":\"\\u12g4\"}"), CUZK_ERR_BAD_JSON, "4 hex digits");
    expect_fail(strdup("{\"a\":\"abc"), CUZK_ERR_BAD_JSON, "the string's closing");
    expect_fail(strdup("{\"a\":-}"), CUZK_ERR_BAD_JSON, "expected a digit");
    expect_fail(strdup("{\"a\":1.}"), CUZK_ERR_BAD_JSON, "expected a digit");
    expect_fail(strdup("{\"a\":[1 2]}"), CUZK_ERR_BAD_JSON, "expected ',' or ']' found '2'");
    /* nesting bombs in skipped values stop at a fixed depth */
    {
        char bomb[400];
        int n = sprintf(bomb, "{\"x\":");
        for (int i = 0; i < 100; i++) bomb[n++] = '[';
        bomb[n] = '\0';
        expect_fail(strdup(bomb), CUZK_ERR_TOO_LARGE, "values nested deeper than 64");
    }
    /* after the document */
    {
        size_t ld = strlen(doc);
        char *t = malloc(ld + 3);
        sprintf(t, "%s x", doc);
        expect_fail(t, CUZK_ERR_BAD_JSON, "expected the end of the document found 'x'");
        t = malloc(ld + 3);
        sprintf(t, "%s{}", doc);
        expect_fail(t, CUZK_ERR_BAD_JSON, "expected the end of the document found '{'");
    }
    /* every truncation is refused (a sample of lengths) */
    size_t ld = strlen(doc);
    for (size_t t = 0; t < ld; t += t < 600 ? 1 : 211) {
        cuzk_fil_c1 c;
        cuzk_errmsg err = {{0}};
        assert_int_not_equal(cuzk_fil_c1_parse((const uint8_t *)doc, t, &c, &err), CUZK_OK);
        assert_null(c.mem);
    }
    free(doc);
    cuzk_fil_c1_free(&a);
}

static void test_json_values(void **state)
{
    (void)state;
    cuzk_fil_c1 a;
    gen(5, test_rand_u64(), &a);
    char *doc = to_json(&a, false, NULL);
    expect_fail(set_value(doc, "comm_r", 0, "\"abc\""), CUZK_ERR_BAD_JSON,
                "comm_r: expected '[' (a 32-byte array) found '\"'");
    expect_fail(set_value(doc, "comm_r", 0, "[1,2,3]"), CUZK_ERR_BAD_LENGTH, "comm_r: expected 32 bytes found 3");
    expect_fail(set_value(doc, "comm_d", 0, "[256]"), CUZK_ERR_TOO_LARGE, "comm_d: 256 exceeds 255");
    expect_fail(set_value(doc, "comm_d", 0, "[99999999999999999999999]"), CUZK_ERR_TOO_LARGE, "comm_d: more than");
    expect_fail(set_value(doc, "comm_d", 0, "[-1]"), CUZK_ERR_BAD_JSON, "expected a non-negative integer found '-'");
    expect_fail(set_value(doc, "comm_d", 0, "[1.0]"), CUZK_ERR_BAD_JSON,
                "expected an integer (no fraction or exponent)");
    expect_fail(set_value(doc, "comm_d", 0, "[1e2]"), CUZK_ERR_BAD_JSON, "no fraction or exponent");
    expect_fail(set_value(doc, "comm_d", 0, "[01]"), CUZK_ERR_BAD_JSON, "expected no leading zero found '1'");
    expect_fail(set_value(doc, "replica_id", 0, "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,116]"),
                CUZK_ERR_NOT_CANONICAL, "replica_id: field element is not below r (top byte 0x74)");
    expect_fail(set_value(doc, "registered_proof", 0, "\"StackedDrg2KiBV9\""), CUZK_ERR_NOT_FOUND,
                "registered_proof: unknown RegisteredSealProof 'StackedDrg2KiBV9'");
    expect_fail(set_value(doc, "registered_proof", 0, "5"), CUZK_ERR_BAD_JSON, "registered_proof: expected a string");
    expect_fail(
        set_value(doc, "registered_proof", 0, "\"StackedDrg8MiBV1_1\""), CUZK_ERR_MISMATCH,
        "vanilla_proofs: variant StackedDrg2KiBV1, registered_proof StackedDrg8MiBV1_1 is for another sector size");
    expect_fail(fil_test_replace(doc, "\"StackedDrg2KiBV1\":", "\"StackedDrg4KiBV1\":", 0), CUZK_ERR_BAD_HEADER,
                "vanilla_proofs: unknown VanillaSealProof variant 'StackedDrg4KiBV1'");
    expect_fail(set_value(doc, "vanilla_proofs", 0, "{}"), CUZK_ERR_BAD_JSON,
                "vanilla_proofs: expected a VanillaSealProof variant");
    /* missing and repeated keys */
    expect_fail(cut_member(doc, "ticket", 0), CUZK_ERR_BAD_JSON, "missing key 'ticket'");
    {
        char dup[128];
        snprintf(dup, sizeof dup, "\"seed\":%s,", ones32);
        expect_fail(insert_at(doc, 1, dup), CUZK_ERR_BAD_JSON, "duplicate key 'seed'");
    }
    /* the registered proof after the vanilla proofs (Go's order) is checked as well */
    {
        char *d = cut_member(doc, "registered_proof", 0);
        size_t ld = strlen(d);
        d = realloc(d, ld + 40);
        strcpy(d + ld - 1, ",\"registered_proof\":\"StackedDrg8MiBV1\"}");
        expect_fail(d, CUZK_ERR_MISMATCH, "registered_proof: StackedDrg8MiBV1, but the vanilla proofs are for another");
    }
    free(doc);
    cuzk_fil_c1_free(&a);
}

static void test_json_counts(void **state)
{
    (void)state;
    cuzk_fil_c1 a;
    gen(5, test_rand_u64(), &a); /* 2 KiB V1_1: 1 partition of 2 challenges, 2 layers */
    char *doc = to_json(&a, false, NULL);
    size_t v = fil_test_find(doc, "\"StackedDrg2KiBV1\":", 0, 0) + strlen("\"StackedDrg2KiBV1\":");
    size_t vend = value_end(doc, v);
    char *parts = strndup(doc + v + 1, vend - v - 2); /* the partitions without the outer brackets */
    /* one partition too many */
    {
        size_t lp = strlen(parts);
        char *twice = malloc(2 * lp + 4);
        sprintf(twice, "[%s,%s]", parts, parts);
        char *d = set_value(doc, "StackedDrg2KiBV1", 0, twice);
        free(twice);
        expect_fail(d, CUZK_ERR_BAD_LENGTH, "vanilla_proofs: expected at most 1 partitions found 2");
    }
    /* no partition: the count check at the end */
    expect_fail(set_value(doc, "StackedDrg2KiBV1", 0, "[]"), CUZK_ERR_BAD_LENGTH,
                "vanilla_proofs: 0 partitions of 0 challenges, StackedDrg2KiBV1_1 needs 1 of 2");
    /* a third challenge in the partition */
    {
        size_t c0 = fil_test_find(doc, "{\"comm_d_proofs\":", 0, 0), c0end = value_end(doc, c0);
        char *one = strndup(doc + c0, c0end - c0);
        char *ins = malloc(strlen(one) + 2);
        sprintf(ins, "%s,", one);
        expect_fail(insert_at(doc, c0, ins), CUZK_ERR_BAD_LENGTH, "vanilla_proofs[0]: expected 2 challenges found 3");
        free(ins);
        /* one challenge only */
        expect_fail(cut_value(doc, c0), CUZK_ERR_BAD_LENGTH, "vanilla_proofs[0]: expected 2 challenges found 1");
        free(one);
    }
    /* 36 parents in vanilla_proofs[0][1].labeling_proofs[1] */
    {
        size_t lab = fil_test_find(doc, "\"labeling_proofs\":", 0, 1);
        size_t par = fil_test_find(doc, "{\"parents\":[", lab, 1) + strlen("{\"parents\":[");
        expect_fail(cut_value(doc, par), CUZK_ERR_BAD_LENGTH,
                    "vanilla_proofs[0][1].labeling_proofs[1].parents: expected 37 nodes found 36");
    }
    /* a third labeling proof (a copy of the second, after it) */
    {
        size_t lab = fil_test_find(doc, "\"labeling_proofs\":[", 0, 0) + strlen("\"labeling_proofs\":");
        size_t end = value_end(doc, lab), second = fil_test_find(doc, ",{\"parents\":", lab, 0);
        char *one = strndup(doc + second, end - 1 - second);
        expect_fail(insert_at(doc, end - 1, one), CUZK_ERR_BAD_LENGTH,
                    "vanilla_proofs[0][0].labeling_proofs: expected 2 labeling proofs (one per layer) found 3");
        free(one);
    }
    /* six DRG parents' columns as five, and a column with three rows */
    {
        size_t drg = fil_test_find(doc, "\"drg_parents\":[", 0, 1) + strlen("\"drg_parents\":[");
        expect_fail(cut_value(doc, drg), CUZK_ERR_BAD_LENGTH,
                    "vanilla_proofs[0][1].replica_column_proofs.drg_parents: expected 6 columns found 5");
        size_t rows = fil_test_find(doc, "\"rows\":[", 0, 2) + strlen("\"rows\":[");
        char ins[80];
        snprintf(ins, sizeof ins, "%s,", ones32);
        expect_fail(insert_at(doc, rows, ins), CUZK_ERR_BAD_LENGTH,
                    "vanilla_proofs[0][0].replica_column_proofs.drg_parents[1].column.rows: expected 2 nodes found 3");
    }
    /* a path element short of tree D's levels, a sibling too many */
    {
        size_t el = fil_test_find(doc, "{\"hashes\":", 0, 0);
        expect_fail(cut_value(doc, el), CUZK_ERR_BAD_LENGTH,
                    "vanilla_proofs[0][0].comm_d_proofs.data.Single.path.path: expected 6 path elements found 5");
        size_t h = fil_test_find(doc, "{\"hashes\":[", 0, 2) + strlen("{\"hashes\":[");
        char ins[80];
        snprintf(ins, sizeof ins, "%s,", ones32);
        expect_fail(insert_at(doc, h, ins), CUZK_ERR_BAD_LENGTH,
                    "vanilla_proofs[0][0].comm_d_proofs.data.Single.path.path[2].hashes: expected 1 node found 2");
    }
    free(parts);
    free(doc);
    cuzk_fil_c1_free(&a);
}

/* Proofs that do not fit the tree or each other, made by changing the generated structure before writing it. */
static void test_json_inconsistent(void **state)
{
    (void)state;
    cuzk_fil_c1 a;
    char *doc;
    gen(5, test_rand_u64(), &a);
    const cuzk_fil_proof *p = a.proof;
    cuzk_fil_porep_challenge *c1 = &a.c[1];
    /* the element the task names: a parent of a labeling proof not below r */
    uint8_t *par = (uint8_t *)c1->labeling[1 * CUZK_FIL_LABEL_PARENTS + 36], save = par[31];
    par[31] = 0x80;
    expect_fail(to_json(&a, false, NULL), CUZK_ERR_NOT_CANONICAL,
                "vanilla_proofs[0][1].labeling_proofs[1].parents[36]: field element is not below r (top byte 0x80)");
    expect_fail(to_json(&a, true, NULL), CUZK_ERR_NOT_CANONICAL, "vanilla_proofs[0][1].labeling_proofs[1].parents[36]");
    par[31] = save;
    /* an index at the arity */
    c1->comm_r_last.index[1] = 8;
    expect_fail(to_json(&a, false, NULL), CUZK_ERR_TOO_LARGE,
                "vanilla_proofs[0][1].comm_r_last_proof.data.Single.path.path[1].index: 8 is not below the arity 8");
    /* another in-range index: the tree R proof opens another node than tree D's */
    c1->comm_r_last.index[1] = (uint8_t)((c1->comm_d.leaf_index / 8 + 1) % 8);
    expect_fail(to_json(&a, false, NULL), CUZK_ERR_MISMATCH, "vanilla_proofs[0][1]: comm_r_last_proof opens node");
    c1->comm_r_last.index[1] = (uint8_t)(c1->comm_d.leaf_index / 8 % 8);
    /* a column whose index is not the node its proof opens */
    c1->drg[2].index ^= 1;
    expect_fail(to_json(&a, false, NULL), CUZK_ERR_MISMATCH,
                "vanilla_proofs[0][1].replica_column_proofs.drg_parents[2]: column.index");
    c1->drg[2].index ^= 1;
    /* labeling proofs of another node (the writer writes c->node into them) */
    c1->node ^= 1;
    expect_fail(to_json(&a, false, NULL), CUZK_ERR_MISMATCH, "vanilla_proofs[0][1].labeling_proofs[0].node: expected");
    c1->node ^= 1;
    /* a tree D proof rooted elsewhere than comm_d; a tree C one elsewhere than the others */
    c1->comm_d.root[3] ^= 1;
    expect_fail(to_json(&a, false, NULL), CUZK_ERR_MISMATCH,
                "vanilla_proofs[0][1].comm_d_proofs.root: differs from comm_d");
    c1->comm_d.root[3] ^= 1;
    c1->exp[7].proof.root[0] ^= 1;
    expect_fail(to_json(&a, false, NULL), CUZK_ERR_MISMATCH, "vanilla_proofs[0][1].replica_column_proofs.root");
    c1->exp[7].proof.root[0] ^= 1;
    /* node 0 is never challenged */
    {
        cuzk_fil_porep_challenge keep = *c1;
        memset(c1->comm_d.index, 0, sizeof c1->comm_d.index);
        memset(c1->comm_r_last.index, 0, sizeof c1->comm_r_last.index);
        memset(c1->c_x.proof.index, 0, sizeof c1->c_x.proof.index);
        c1->c_x.index = 0;
        c1->node = 0;
        expect_fail(to_json(&a, false, NULL), CUZK_ERR_MISMATCH, "vanilla_proofs[0][1]: challenges node 0");
        *c1 = keep;
    }
    expect_ok(to_json(&a, false, NULL), &a);
    (void)p;
    /* text-level: the wrong variant, an unknown one, two of them, a labeling proof of the wrong layer */
    doc = to_json(&a, false, NULL);
    expect_fail(fil_test_replace(doc, "{\"data\":{\"Single\":", "{\"data\":{\"Sub\":", 0), CUZK_ERR_MISMATCH,
                "vanilla_proofs[0][0].comm_d_proofs.data: variant Sub, the tree (2-0-0) needs Single");
    expect_fail(
        fil_test_replace(doc, "{\"data\":{\"Single\":", "{\"data\":{\"Double\":", 2), CUZK_ERR_BAD_HEADER,
        "vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.data: unknown MerkleProof variant 'Double'");
    expect_fail(fil_test_replace(doc, "\"data\":{\"Single\":", "\"data\":{\"Top\":{},\"Single\":", 0),
                CUZK_ERR_MISMATCH, "variant Top");
    expect_fail(fil_test_replace(doc, "\"layer_index\":1,", "\"layer_index\":2,", 0), CUZK_ERR_MISMATCH,
                "vanilla_proofs[0][0].labeling_proofs[0].layer_index: expected 1 found 2");
    expect_fail(fil_test_replace(doc, "\"layer_index\":2,", "\"layer_index\":1,", 1), CUZK_ERR_MISMATCH,
                "vanilla_proofs[0][0].encoding_proof.layer_index: expected 2 found 1");
    expect_fail(fil_test_replace(doc, "\"leaf\":", "\"leaf_\":", 0), CUZK_ERR_BAD_JSON,
                "vanilla_proofs[0][0].comm_d_proofs.data.Single: missing key 'leaf'");
    expect_fail(fil_test_replace(doc, "{\"data\":", "{\"data\":{},\"data\":", 0), CUZK_ERR_BAD_JSON,
                "comm_d_proofs.data: expected one of Single, Sub, Top; the object is empty");
    free(doc);
    cuzk_fil_c1_free(&a);
}

/* ---- the envelope ------------------------------------------------------------------------------------------------ */

static void test_envelope(void **state)
{
    (void)state;
    cuzk_fil_c1 a;
    gen(5, test_rand_u64(), &a);
    char *doc = to_json(&a, true, NULL);
    size_t b0 = fil_test_find(doc, "\"Phase1Out\":\"", 0, 0) + strlen("\"Phase1Out\":\"");
    size_t b1 = fil_test_find(doc, "\"", b0, 0);
    expect_fail(set_value(doc, "SectorSize", 0, "4096"), CUZK_ERR_MISMATCH,
                "SectorSize: 4KiB, registered_proof StackedDrg2KiBV1_1 is for 2KiB sectors");
    expect_fail(cut_member(doc, "SectorNum", 0), CUZK_ERR_BAD_JSON, "missing key 'SectorNum'");
    expect_fail(set_value(doc, "SectorNum", 0, "-3"), CUZK_ERR_BAD_JSON, "SectorNum: expected a non-negative integer");
    expect_fail(set_value(doc, "Phase1Out", 0, "123"), CUZK_ERR_BAD_JSON,
                "Phase1Out: expected a base64 string found '1'");
    expect_fail(set_value(doc, "Phase1Out", 0, "\"\""), CUZK_ERR_BAD_JSON,
                "expected '{' (a JSON object), the input ends at byte 0 of Phase1Out");
    {
        char ins[100];
        snprintf(ins, sizeof ins, "\"comm_r\":%s,", ones32);
        expect_fail(insert_at(doc, 1, ins), CUZK_ERR_BAD_JSON, "'SectorNum' beside SealCommitPhase1Output's keys");
        snprintf(ins, sizeof ins, ",\"comm_r\":%s", ones32);
        expect_fail(insert_at(doc, strlen(doc) - 1, ins), CUZK_ERR_BAD_JSON, "'comm_r' beside the envelope's keys");
    }
    /* base64 broken in each way */
    {
        char *d = strdup(doc);
        d[b0 + 100] = '*';
        expect_fail(d, CUZK_ERR_BAD_JSON, "Phase1Out: invalid base64 character 0x2a");
        d = strdup(doc);
        d[b0 + 101] = ' ';
        expect_fail(d, CUZK_ERR_BAD_JSON, "Phase1Out: invalid base64 character 0x20");
        d = strdup(doc);
        memmove(d + b1 - 1, d + b1, strlen(d + b1) + 1); /* one character short */
        expect_fail(d, CUZK_ERR_BAD_JSON, "Phase1Out:");
        d = strdup(doc);
        memmove(d + b0, d + b0 + 4, strlen(d + b0 + 4) + 1); /* the first 3 bytes gone: '{"r' */
        expect_fail(d, CUZK_ERR_BAD_JSON, "of Phase1Out");
        d = strdup(doc);
        d[b1 - 1] = 'x'; /* a padding character where data was or a bit of garbage at the end */
        expect_fail(d, CUZK_ERR_BAD_JSON, "Phase1Out");
    }
    /* small hand-made envelopes: "{}" is e30=, its padding bits set, data after padding, inner garbage */
    expect_fail(strdup("{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}"), CUZK_ERR_BAD_JSON,
                "missing key 'registered_proof'");
    expect_fail(strdup("{\"SectorNum\":1,\"Phase1Out\":\"e31=\",\"SectorSize\":2048}"), CUZK_ERR_BAD_JSON,
                "non-canonical base64");
    expect_fail(strdup("{\"SectorNum\":1,\"Phase1Out\":\"e30=e30=\",\"SectorSize\":2048}"), CUZK_ERR_BAD_JSON,
                "invalid base64 padding");
    expect_fail(strdup("{\"SectorNum\":1,\"Phase1Out\":\"e3=0\",\"SectorSize\":2048}"), CUZK_ERR_BAD_JSON,
                "invalid base64 padding");
    expect_fail(strdup("{\"SectorNum\":1,\"Phase1Out\":\"e30\",\"SectorSize\":2048}"), CUZK_ERR_BAD_JSON,
                "not a multiple of 4");
    expect_fail(strdup("{\"SectorNum\":1,\"Phase1Out\":\"e30"), CUZK_ERR_BAD_JSON, "the string is not closed");
    /* the inner document followed by whitespace (fine) or anything else */
    {
        char *bare = to_json(&a, false, NULL);
        size_t lb = strlen(bare);
        char *t = malloc(lb + 4);
        sprintf(t, "%s \n", bare);
        expect_ok(wrap(t), &a);
        sprintf(t, "%s x", bare);
        expect_fail(wrap(t), CUZK_ERR_BAD_JSON, "expected the end of Phase1Out found 'x'");
        free(t);
        free(bare);
    }
    /* JSON escapes that spell base64 characters are fine ("?????" puts a '/' in the base64) */
    {
        char *bare = to_json(&a, false, NULL);
        char *padded = insert_at(bare, 1, "\"pad\":\"?????\",");
        char *w = wrap(padded);
        size_t p0 = fil_test_find(w, "\"Phase1Out\":\"", 0, 0), slash = fil_test_find(w, "/", p0, 0);
        char *d = malloc(strlen(w) + 8);
        memcpy(d, w, slash);
        strcpy(d + slash, "\\/");
        strcat(d, w + slash + 1);
        char *e = fil_test_replace(d, "\"Phase1Out\":\"e", "\"Phase1Out\":\"\\u0065", 0);
        expect_ok(e, &a);
        free(d);
        free(w);
        free(padded);
        free(bare);
    }
    /* every truncation of the envelope is refused (a sample) */
    size_t ld = strlen(doc);
    for (size_t t = 0; t < ld; t += t < 200 ? 1 : 307) {
        cuzk_fil_c1 c;
        assert_int_not_equal(cuzk_fil_c1_parse((const uint8_t *)doc, t, &c, NULL), CUZK_OK);
        assert_null(c.mem);
    }
    free(doc);
    cuzk_fil_c1_free(&a);
}

/* Random byte flips in the bare and the wrapped document: refused or accepted, never anything worse. */
static void test_json_flips(void **state)
{
    (void)state;
    cuzk_fil_c1 a;
    gen(5, test_rand_u64(), &a);
    for (int wrapped = 0; wrapped < 2; wrapped++) {
        size_t ld;
        char *doc = to_json(&a, wrapped, &ld);
        for (int i = 0; i < 400; i++) {
            size_t o = test_rand_u64() % ld;
            char save = doc[o];
            doc[o] = (char)test_rand_u64();
            cuzk_fil_c1 c;
            if (cuzk_fil_c1_parse((const uint8_t *)doc, ld, &c, NULL) == CUZK_OK) cuzk_fil_c1_free(&c);
            else assert_null(c.mem);
            doc[o] = save;
        }
        free(doc);
    }
    cuzk_fil_c1_free(&a);
}

/* ---- bincode ----------------------------------------------------------------------------------------------------- */

static void test_bincode(void **state)
{
    (void)state;
    cuzk_fil_c1 a, b;
    gen(7, test_rand_u64(), &a); /* 512 MiB V1_1 */
    size_t n = cuzk_fil_c1_bincode_bytes(&a, CUZK_FIL_C1_BIN_SUPRASEAL), wl;
    uint8_t *buf = malloc(n + 8 + 1);
    assert_int_equal(cuzk_fil_c1_encode_bincode(&a, CUZK_FIL_C1_BIN_SUPRASEAL, buf, n, &wl, NULL), CUZK_OK);
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, a.proof, &b, &err), CUZK_OK);
    assert_c1_equal(&a, &b);
    cuzk_fil_c1_free(&b);
    /* the same bytes as another proof of the size decode (one partition each) but not as another size */
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, seal(2), &b, &err), CUZK_OK);
    assert_ptr_equal(b.proof, seal(2));
    cuzk_fil_c1_free(&b);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, seal(1), &b, &err),
                     CUZK_ERR_BAD_LENGTH);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, NULL, &b, &err),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_c1_encode_bincode(&a, CUZK_FIL_C1_BIN_SUPRASEAL, buf, n - 1, &wl, &err),
                     CUZK_ERR_TOO_LARGE);
    for (size_t t = 0; t < n; t += t < 3000 ? 1 : 1009) {
        assert_int_equal(cuzk_fil_c1_decode_bincode(buf, t, CUZK_FIL_C1_BIN_SUPRASEAL, a.proof, &b, NULL),
                         CUZK_ERR_TRUNCATED);
        assert_null(b.mem);
    }
    buf[n] = 0;
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n + 1, CUZK_FIL_C1_BIN_SUPRASEAL, a.proof, &b, &err),
                     CUZK_ERR_BAD_LENGTH);
    assert_true(fil_test_has(err.msg, "1 trailing bytes"));
    /* counts and the labeling layer */
    uint64_t v = 2;
    memcpy(buf, &v, 8);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, a.proof, &b, &err),
                     CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "vanilla_proofs: expected 1 found 2");
    v = 1;
    memcpy(buf, &v, 8);
    v = 3;
    memcpy(buf + 8, &v, 8);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, a.proof, &b, &err),
                     CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "vanilla_proofs[0]: expected 2 found 3");
    v = 2;
    memcpy(buf + 8, &v, 8);
    /* API form: the two enum tags in front */
    assert_int_equal(cuzk_fil_c1_encode_bincode(&a, CUZK_FIL_C1_BIN_API, buf, n + 8, &wl, NULL), CUZK_OK);
    assert_int_equal(wl, n + 8);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n + 8, CUZK_FIL_C1_BIN_API, NULL, &b, &err), CUZK_OK);
    assert_c1_equal(&a, &b);
    cuzk_fil_c1_free(&b);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n + 8, CUZK_FIL_C1_BIN_API, seal(2), &b, &err), CUZK_ERR_MISMATCH);
    assert_string_equal(err.msg, "registered_proof: StackedDrg512MiBV1_1, expected StackedDrg512MiBV1");
    uint32_t tag = 20;
    memcpy(buf, &tag, 4);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n + 8, CUZK_FIL_C1_BIN_API, NULL, &b, &err), CUZK_ERR_BAD_HEADER);
    tag = 7;
    memcpy(buf, &tag, 4);
    tag = 3;
    memcpy(buf + 4, &tag, 4);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n + 8, CUZK_FIL_C1_BIN_API, NULL, &b, &err), CUZK_ERR_MISMATCH);
    assert_true(fil_test_has(err.msg, "vanilla_proofs: variant 3 is for another sector size"));
    tag = 5;
    memcpy(buf + 4, &tag, 4);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n + 8, CUZK_FIL_C1_BIN_API, NULL, &b, &err), CUZK_ERR_BAD_HEADER);
    free(buf);
    cuzk_fil_c1_free(&a);

    /* a labeling proof of the wrong layer and node, in the 2 KiB supraseal form */
    gen(5, test_rand_u64(), &a);
    n = cuzk_fil_c1_bincode_bytes(&a, CUZK_FIL_C1_BIN_SUPRASEAL);
    buf = malloc(n);
    assert_int_equal(cuzk_fil_c1_encode_bincode(&a, CUZK_FIL_C1_BIN_SUPRASEAL, buf, n, &wl, NULL), CUZK_OK);
    /* challenge 0 ends with the encoding proof: 37 parents, then layer (u32) and node (u64) */
    size_t per = (n - 16 - 160) / 2, enc_layer = 16 + per - 12;
    uint32_t layer;
    memcpy(&layer, buf + enc_layer, 4);
    assert_int_equal(layer, 2);
    layer = 1;
    memcpy(buf + enc_layer, &layer, 4);
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, a.proof, &b, &err),
                     CUZK_ERR_MISMATCH);
    assert_string_equal(err.msg, "vanilla_proofs[0][0].encoding_proof.layer_index: expected 2 found 1");
    layer = 2;
    memcpy(buf + enc_layer, &layer, 4);
    buf[enc_layer + 4] ^= 1;
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_SUPRASEAL, a.proof, &b, &err),
                     CUZK_ERR_MISMATCH);
    assert_true(fil_test_has(err.msg, "vanilla_proofs[0][0].encoding_proof.node: expected"));
    free(buf);
    cuzk_fil_c1_free(&a);
}

const struct CMUnitTest fil_c1_tests[] = {
    cmocka_unit_test(test_json_round_trip),
    cmocka_unit_test(test_json_from_file),
    cmocka_unit_test(test_32g),
    cmocka_unit_test(test_json_variants_accepted),
    cmocka_unit_test(test_json_syntax),
    cmocka_unit_test(test_json_values),
    cmocka_unit_test(test_json_counts),
    cmocka_unit_test(test_json_inconsistent),
    cmocka_unit_test(test_envelope),
    cmocka_unit_test(test_json_flips),
    cmocka_unit_test(test_bincode),
};
const size_t fil_c1_count = sizeof fil_c1_tests / sizeof fil_c1_tests[0];
