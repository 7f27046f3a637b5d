/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* snarkjs JSON files for Groth16 over BLS12-381: proof.json, public.json and verification_key.json, layouts in
 * docs/formats/snarkjs.md §4. Numbers are decimal strings of canonical integers, points affine with
 * z = "1" (infinity as ["0", "1", "0"]), Fp2 as [c0, c1].
 *
 * The readers are strict, as a verifier's input should be: exact array lengths, canonical decimals (digits only,
 * no leading zero, below the modulus), points on the curve and in the subgroup, the protocol and curve named, and no
 * repeated keys. Unknown extra keys are ignored. Parsing is jansson's (its nesting limit bounds the recursion). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16_internal.h"

#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>

typedef unsigned __int128 u128;

/* Longest decimal of a 384-bit integer (116 digits) and its NUL, rounded up. */
#define DEC_MAX 128

/* ---- decimal integers -------------------------------------------------------------------------------------------- */

/* Canonical little-endian limbs → decimal, 19 digits at a time by long division by 10^19. */
static void limbs_to_dec(char out[DEC_MAX], const uint64_t *in, int n)
{
    const uint64_t chunk = 10000000000000000000ULL;
    uint64_t t[CUZK_FP_LIMBS];
    char rev[DEC_MAX];
    size_t k = 0;
    memcpy(t, in, (size_t)n * sizeof *t);
    for (;;) {
        u128 rem = 0;
        bool more = false;
        for (int i = n - 1; i >= 0; i--) {
            u128 cur = rem << 64 | t[i];
            t[i] = (uint64_t)(cur / chunk);
            rem = cur % chunk;
            more |= t[i] != 0;
        }
        uint64_t r = (uint64_t)rem;
        /* inner chunks keep their leading zeros; the most significant one does not */
        for (int d = 0; d < 19 && (more || r != 0); d++, r /= 10) rev[k++] = (char)('0' + r % 10);
        if (!more) break;
    }
    if (k == 0) rev[k++] = '0';
    for (size_t i = 0; i < k; i++) out[i] = rev[k - 1 - i];
    out[k] = '\0';
}

typedef enum { DEC_OK, DEC_SYNTAX, DEC_RANGE } dec_result;

/* Decimal → n little-endian limbs. Only the canonical spelling is accepted: one or more digits, no sign, no leading
 * zero (except "0" itself). DEC_RANGE when the value needs more than n limbs. */
static dec_result dec_to_limbs(uint64_t *out, const char *s, int n)
{
    size_t len = strlen(s);
    if (len == 0 || (s[0] == '0' && len > 1)) return DEC_SYNTAX;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return DEC_SYNTAX;
    memset(out, 0, (size_t)n * sizeof *out);
    for (size_t i = 0; i < len; i++) {
        uint64_t carry = (uint64_t)(s[i] - '0');
        for (int j = 0; j < n; j++) {
            u128 cur = (u128)out[j] * 10 + carry;
            out[j] = (uint64_t)cur;
            carry = (uint64_t)(cur >> 64);
        }
        if (carry != 0) return DEC_RANGE;
    }
    return DEC_OK;
}

/* ---- writing ----------------------------------------------------------------------------------------------------- */

/* Builders collect allocation failures in *ok instead of checking every call: jansson's setters refuse NULL values
 * and report it, so a failed allocation anywhere ends as ok = false and the document is discarded. */
static json_t *j_str(const char *s, bool *ok)
{
    json_t *v = json_string(s);
    if (v == NULL) *ok = false;
    return v;
}

static void j_append(json_t *arr, json_t *v, bool *ok)
{
    if (arr == NULL || json_array_append_new(arr, v) != 0) *ok = false;
}

static void j_set(json_t *obj, const char *key, json_t *v, bool *ok)
{
    if (obj == NULL || json_object_set_new(obj, key, v) != 0) *ok = false;
}

static json_t *j_fp(const cuzk_fp_t *a, bool *ok)
{
    uint64_t l[CUZK_FP_LIMBS];
    char dec[DEC_MAX];
    cuzk_fp_to_limbs(l, a);
    limbs_to_dec(dec, l, CUZK_FP_LIMBS);
    return j_str(dec, ok);
}

static json_t *j_fp2(const cuzk_fp2_t *a, bool *ok)
{
    json_t *arr = json_array();
    j_append(arr, j_fp(&a->c0, ok), ok);
    j_append(arr, j_fp(&a->c1, ok), ok);
    return arr;
}

static json_t *j_g1(const cuzk_g1_affine_t *p, bool *ok)
{
    json_t *arr = json_array();
    bool inf = cuzk_g1_affine_is_infinity(p);
    j_append(arr, inf ? j_str("0", ok) : j_fp(&p->x, ok), ok);
    j_append(arr, inf ? j_str("1", ok) : j_fp(&p->y, ok), ok);
    j_append(arr, j_str(inf ? "0" : "1", ok), ok);
    return arr;
}

static json_t *j_g2(const cuzk_g2_affine_t *p, bool *ok)
{
    cuzk_fp2_t zero, one;
    cuzk_fp2_set_zero(&zero);
    cuzk_fp2_set_one(&one);
    json_t *arr = json_array();
    bool inf = cuzk_g2_affine_is_infinity(p);
    j_append(arr, j_fp2(inf ? &zero : &p->x, ok), ok);
    j_append(arr, j_fp2(inf ? &one : &p->y, ok), ok);
    j_append(arr, j_fp2(inf ? &zero : &one, ok), ok);
    return arr;
}

/* snarkjs writes its files with JSON.stringify(…, null, 1); the same one-space indentation keeps diffs readable. */
static cuzk_status j_finish(json_t *root, bool ok, char **out)
{
    *out = ok && root != NULL ? json_dumps(root, JSON_INDENT(1)) : NULL;
    json_decref(root);
    return *out != NULL ? CUZK_OK : CUZK_ERR_NOMEM;
}

cuzk_status cuzk_groth16_proof_to_json(const cuzk_groth16_proof_t *proof, char **out)
{
    bool ok = true;
    json_t *root = json_object();
    j_set(root, "pi_a", j_g1(&proof->a, &ok), &ok);
    j_set(root, "pi_b", j_g2(&proof->b, &ok), &ok);
    j_set(root, "pi_c", j_g1(&proof->c, &ok), &ok);
    j_set(root, "protocol", j_str("groth16", &ok), &ok);
    j_set(root, "curve", j_str("bls12381", &ok), &ok);
    return j_finish(root, ok, out);
}

cuzk_status cuzk_groth16_public_to_json(const cuzk_fr_t *pub, uint64_t n, char **out)
{
    bool ok = true;
    json_t *root = json_array();
    for (uint64_t i = 0; i < n && ok; i++) {
        uint64_t l[CUZK_FR_LIMBS];
        char dec[DEC_MAX];
        cuzk_fr_to_limbs(l, &pub[i]);
        limbs_to_dec(dec, l, CUZK_FR_LIMBS);
        j_append(root, j_str(dec, &ok), &ok);
    }
    return j_finish(root, ok, out);
}

cuzk_status cuzk_groth16_vk_to_json(const cuzk_groth16_vk *vk, char **out)
{
    if (vk->num_inputs == 0) return CUZK_ERR_INVALID_ARG;
    bool ok = true;
    json_t *root = json_object();
    j_set(root, "protocol", j_str("groth16", &ok), &ok);
    j_set(root, "curve", j_str("bls12381", &ok), &ok);
    j_set(root, "nPublic", json_integer((json_int_t)(vk->num_inputs - 1)), &ok);
    j_set(root, "vk_alpha_1", j_g1(&vk->alpha_g1, &ok), &ok);
    j_set(root, "vk_beta_2", j_g2(&vk->beta_g2, &ok), &ok);
    j_set(root, "vk_gamma_2", j_g2(&vk->gamma_g2, &ok), &ok);
    j_set(root, "vk_delta_2", j_g2(&vk->delta_g2, &ok), &ok);
    cuzk_fp12_t ab;
    cuzk_pairing(&ab, &vk->alpha_g1, &vk->beta_g2);
    json_t *gt = json_array();
    for (int h = 0; h < 2; h++) {
        const cuzk_fp6_t *c = h ? &ab.c1 : &ab.c0;
        json_t *half = json_array();
        j_append(half, j_fp2(&c->c0, &ok), &ok);
        j_append(half, j_fp2(&c->c1, &ok), &ok);
        j_append(half, j_fp2(&c->c2, &ok), &ok);
        j_append(gt, half, &ok);
    }
    j_set(root, "vk_alphabeta_12", gt, &ok);
    json_t *ic = json_array();
    for (uint64_t i = 0; i < vk->num_inputs && ok; i++) j_append(ic, j_g1(&vk->ic[i], &ok), &ok);
    j_set(root, "IC", ic, &ok);
    return j_finish(root, ok, out);
}

/* ---- reading ----------------------------------------------------------------------------------------------------- */

static cuzk_status j_parse(json_t **root, const char *json, const char *what, cuzk_errmsg *err)
{
    json_error_t je;
    *root = json_loads(json, JSON_REJECT_DUPLICATES, &je);
    if (*root == NULL)
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: line %d column %d: %s", what, je.line, je.column, je.text);
    return CUZK_OK;
}

/* An array of exactly n elements. */
static cuzk_status j_array(const json_t *v, size_t n, const char *field, cuzk_errmsg *err)
{
    if (!json_is_array(v)) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: expected an array", field);
    if (json_array_size(v) != n)
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: array of %zu elements, expected %zu", field, json_array_size(v),
                         n);
    return CUZK_OK;
}

static cuzk_status j_member(const json_t *obj, const char *key, const json_t **v, const char *what, cuzk_errmsg *err)
{
    *v = json_object_get(obj, key);
    if (*v == NULL) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: missing \"%s\"", what, key);
    return CUZK_OK;
}

/* out = "field[i]", the name of an element in error details (cut short if it ever outgrew the buffer). */
#define FIELD_MAX 96
static void j_sub(char out[FIELD_MAX], const char *field, size_t i)
{
    if (snprintf(out, FIELD_MAX, "%s[%zu]", field, i) >= FIELD_MAX) out[FIELD_MAX - 2] = '~';
}

/* A decimal string below p. range is the status for a value >= p (COORD_RANGE for a point coordinate). */
static cuzk_status j_read_fp(cuzk_fp_t *r, const json_t *v, cuzk_status range, const char *field, cuzk_errmsg *err)
{
    if (!json_is_string(v)) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: expected a decimal string", field);
    uint64_t l[CUZK_FP_LIMBS];
    dec_result d = dec_to_limbs(l, json_string_value(v), CUZK_FP_LIMBS);
    if (d == DEC_SYNTAX)
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: \"%.40s\" is not a canonical decimal integer", field,
                         json_string_value(v));
    if (d == DEC_RANGE || cuzk_fp_from_limbs(r, l) != CUZK_OK)
        return cuzk_fail(err, range, "%s: value is not below the base field modulus p", field);
    return CUZK_OK;
}

static cuzk_status j_read_fp2(cuzk_fp2_t *r, const json_t *v, cuzk_status range, const char *field, cuzk_errmsg *err)
{
    char sub[FIELD_MAX];
    cuzk_status s = j_array(v, 2, field, err);
    for (size_t i = 0; i < 2 && s == CUZK_OK; i++) {
        j_sub(sub, field, i);
        s = j_read_fp(i ? &r->c1 : &r->c0, json_array_get(v, i), range, sub, err);
    }
    return s;
}

/* True when v is the string lit. */
static bool j_is(const json_t *v, const char *lit)
{
    return json_is_string(v) && strcmp(json_string_value(v), lit) == 0;
}

static cuzk_status j_point_checks(bool on_curve, bool in_subgroup, const char *field, cuzk_errmsg *err)
{
    if (!on_curve) return cuzk_fail(err, CUZK_ERR_NOT_ON_CURVE, "%s: point is not on the curve", field);
    if (!in_subgroup) return cuzk_fail(err, CUZK_ERR_NOT_IN_SUBGROUP, "%s: point is not in the subgroup", field);
    return CUZK_OK;
}

static cuzk_status j_read_g1(cuzk_g1_affine_t *r, const json_t *v, bool allow_inf, const char *field, cuzk_errmsg *err)
{
    char sub[FIELD_MAX];
    cuzk_status s = j_array(v, 3, field, err);
    if (s != CUZK_OK) return s;
    const json_t *x = json_array_get(v, 0), *y = json_array_get(v, 1), *z = json_array_get(v, 2);
    if (j_is(z, "0")) {
        if (!j_is(x, "0") || !j_is(y, "1"))
            return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: z = \"0\" but the point is not [\"0\", \"1\", \"0\"]", field);
        if (!allow_inf) return cuzk_fail(err, CUZK_ERR_INFINITY, "%s: the point at infinity is not allowed", field);
        cuzk_g1_affine_set_infinity(r);
        return CUZK_OK;
    }
    if (!j_is(z, "1")) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: z coordinate must be \"1\" (affine)", field);
    cuzk_g1_affine_t p;
    j_sub(sub, field, 0);
    s = j_read_fp(&p.x, x, CUZK_ERR_COORD_RANGE, sub, err);
    j_sub(sub, field, 1);
    if (s == CUZK_OK) s = j_read_fp(&p.y, y, CUZK_ERR_COORD_RANGE, sub, err);
    if (s != CUZK_OK) return s;
    /* (0, 0) would read back as our in-memory infinity; it is no curve point */
    bool on = !cuzk_g1_affine_is_infinity(&p) && cuzk_g1_affine_on_curve(&p);
    if ((s = j_point_checks(on, on && cuzk_g1_affine_in_subgroup(&p), field, err)) != CUZK_OK) return s;
    *r = p;
    return CUZK_OK;
}

static cuzk_status j_read_g2(cuzk_g2_affine_t *r, const json_t *v, bool allow_inf, const char *field, cuzk_errmsg *err)
{
    char sub[FIELD_MAX];
    cuzk_status s = j_array(v, 3, field, err);
    if (s != CUZK_OK) return s;
    cuzk_fp2_t c[3];
    for (size_t i = 0; i < 3 && s == CUZK_OK; i++) {
        j_sub(sub, field, i);
        s = j_read_fp2(&c[i], json_array_get(v, i), CUZK_ERR_COORD_RANGE, sub, err);
    }
    if (s != CUZK_OK) return s;
    if (cuzk_fp2_is_zero(&c[2])) {
        if (!cuzk_fp2_is_zero(&c[0]) || !cuzk_fp2_is_one(&c[1]))
            return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: z = 0 but the point is not infinity's [0, 1, 0]", field);
        if (!allow_inf) return cuzk_fail(err, CUZK_ERR_INFINITY, "%s: the point at infinity is not allowed", field);
        cuzk_g2_affine_set_infinity(r);
        return CUZK_OK;
    }
    if (!cuzk_fp2_is_one(&c[2]))
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: z coordinate must be [\"1\", \"0\"]", field);
    cuzk_g2_affine_t p = {c[0], c[1]};
    bool on = !cuzk_g2_affine_is_infinity(&p) && cuzk_g2_affine_on_curve(&p);
    if ((s = j_point_checks(on, on && cuzk_g2_affine_in_subgroup(&p), field, err)) != CUZK_OK) return s;
    *r = p;
    return CUZK_OK;
}

/* "protocol": "groth16" and "curve": "bls12381", both required. */
static cuzk_status j_read_kind(const json_t *root, const char *what, cuzk_errmsg *err)
{
    const json_t *v;
    cuzk_status s = j_member(root, "protocol", &v, what, err);
    if (s != CUZK_OK) return s;
    if (!json_is_string(v)) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: \"protocol\" is not a string", what);
    if (!j_is(v, "groth16"))
        return cuzk_fail(err, CUZK_ERR_WRONG_PROTOCOL, "%s: protocol \"%.20s\", expected \"groth16\"", what,
                         json_string_value(v));
    if ((s = j_member(root, "curve", &v, what, err)) != CUZK_OK) return s;
    if (!json_is_string(v)) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: \"curve\" is not a string", what);
    if (!j_is(v, "bls12381"))
        return cuzk_fail(err, CUZK_ERR_WRONG_CURVE, "%s: curve \"%.20s\", expected \"bls12381\"", what,
                         json_string_value(v));
    return CUZK_OK;
}

static cuzk_status proof_read(cuzk_groth16_proof_t *proof, const json_t *root, cuzk_errmsg *err)
{
    const json_t *v;
    if (!json_is_object(root)) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "proof: not a JSON object");
    cuzk_status s = j_read_kind(root, "proof", err);
    /* a proof point may legitimately be infinity (see ec.h) */
    if (s == CUZK_OK && (s = j_member(root, "pi_a", &v, "proof", err)) == CUZK_OK)
        s = j_read_g1(&proof->a, v, true, "pi_a", err);
    if (s == CUZK_OK && (s = j_member(root, "pi_b", &v, "proof", err)) == CUZK_OK)
        s = j_read_g2(&proof->b, v, true, "pi_b", err);
    if (s == CUZK_OK && (s = j_member(root, "pi_c", &v, "proof", err)) == CUZK_OK)
        s = j_read_g1(&proof->c, v, true, "pi_c", err);
    return s;
}

cuzk_status cuzk_groth16_proof_from_json(cuzk_groth16_proof_t *proof, const char *json, cuzk_errmsg *err)
{
    json_t *root;
    cuzk_status s = j_parse(&root, json, "proof", err);
    if (s != CUZK_OK) return s;
    cuzk_groth16_proof_t p;
    s = proof_read(&p, root, err);
    json_decref(root);
    if (s == CUZK_OK) *proof = p;
    return s;
}

cuzk_status cuzk_groth16_public_from_json(cuzk_fr_t **pub, uint64_t *n, const char *json, cuzk_errmsg *err)
{
    *pub = NULL;
    *n = 0;
    json_t *root;
    cuzk_status s = j_parse(&root, json, "public", err);
    if (s != CUZK_OK) return s;
    if (!json_is_array(root)) {
        json_decref(root);
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "public: not a JSON array");
    }
    size_t count = json_array_size(root);
    /* each element took at least 3 bytes of the input, so this is bounded by its length */
    cuzk_fr_t *out = count ? malloc(count * sizeof *out) : NULL;
    if (count && out == NULL) s = cuzk_fail(err, CUZK_ERR_NOMEM, "public: no memory for %zu signals", count);
    for (size_t i = 0; i < count && s == CUZK_OK; i++) {
        const json_t *v = json_array_get(root, i);
        uint64_t l[CUZK_FR_LIMBS];
        dec_result d = json_is_string(v) ? dec_to_limbs(l, json_string_value(v), CUZK_FR_LIMBS) : DEC_SYNTAX;
        if (d == DEC_SYNTAX)
            s = cuzk_fail(err, CUZK_ERR_BAD_JSON, "public[%zu]: expected a canonical decimal string", i);
        else if (d == DEC_RANGE || cuzk_fr_from_limbs(&out[i], l) != CUZK_OK)
            s = cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "public[%zu]: value is not below the scalar field order r", i);
    }
    json_decref(root);
    if (s != CUZK_OK) {
        free(out);
        return s;
    }
    *pub = out;
    *n = count;
    return CUZK_OK;
}

static cuzk_status vk_read(cuzk_groth16_vk *vk, cuzk_g1_affine_t **ic_out, const json_t *root, cuzk_errmsg *err)
{
    static const char what[] = "verification_key";
    const json_t *v;
    if (!json_is_object(root)) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: not a JSON object", what);
    cuzk_status s = j_read_kind(root, what, err);
    if (s == CUZK_OK && (s = j_member(root, "vk_alpha_1", &v, what, err)) == CUZK_OK)
        s = j_read_g1(&vk->alpha_g1, v, false, "vk_alpha_1", err);
    if (s == CUZK_OK && (s = j_member(root, "vk_beta_2", &v, what, err)) == CUZK_OK)
        s = j_read_g2(&vk->beta_g2, v, false, "vk_beta_2", err);
    if (s == CUZK_OK && (s = j_member(root, "vk_gamma_2", &v, what, err)) == CUZK_OK)
        s = j_read_g2(&vk->gamma_g2, v, false, "vk_gamma_2", err);
    if (s == CUZK_OK && (s = j_member(root, "vk_delta_2", &v, what, err)) == CUZK_OK)
        s = j_read_g2(&vk->delta_g2, v, false, "vk_delta_2", err);
    if (s != CUZK_OK) return s;

    /* e(α1, β2) as stored must be the pairing of the stored points: a mismatch means an inconsistent file */
    cuzk_fp12_t stored, computed;
    if ((s = j_member(root, "vk_alphabeta_12", &v, what, err)) != CUZK_OK) return s;
    if ((s = j_array(v, 2, "vk_alphabeta_12", err)) != CUZK_OK) return s;
    for (size_t h = 0; h < 2 && s == CUZK_OK; h++) {
        char sub[FIELD_MAX];
        cuzk_fp6_t *c6 = h ? &stored.c1 : &stored.c0;
        cuzk_fp2_t *c2[3] = {&c6->c0, &c6->c1, &c6->c2};
        const json_t *half = json_array_get(v, h);
        j_sub(sub, "vk_alphabeta_12", h);
        s = j_array(half, 3, sub, err);
        for (size_t i = 0; i < 3 && s == CUZK_OK; i++) {
            char sub2[FIELD_MAX];
            j_sub(sub2, sub, i);
            s = j_read_fp2(c2[i], json_array_get(half, i), CUZK_ERR_NOT_CANONICAL, sub2, err);
        }
    }
    if (s != CUZK_OK) return s;
    cuzk_pairing(&computed, &vk->alpha_g1, &vk->beta_g2);
    if (!cuzk_fp12_eq(&stored, &computed))
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%s: vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)", what);

    if ((s = j_member(root, "nPublic", &v, what, err)) != CUZK_OK) return s;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: nPublic is not a non-negative integer", what);
    uint64_t np = (uint64_t)json_integer_value(v);
    if ((s = j_member(root, "IC", &v, what, err)) != CUZK_OK) return s;
    if (!json_is_array(v)) return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: IC is not an array", what);
    size_t n = json_array_size(v);
    if (np >= UINT64_MAX || n != np + 1)
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "%s: IC has %zu points, nPublic + 1 = %llu", what, n,
                         (unsigned long long)np + 1);
    /* n elements were present in the input, so this is bounded by its length */
    cuzk_g1_affine_t *ic = malloc(n * sizeof *ic);
    if (ic == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "%s: no memory for %zu IC points", what, n);
    for (size_t i = 0; i < n && s == CUZK_OK; i++) {
        char sub[FIELD_MAX];
        j_sub(sub, "IC", i);
        s = j_read_g1(&ic[i], json_array_get(v, i), true, sub, err);
    }
    if (s != CUZK_OK) {
        free(ic);
        return s;
    }
    vk->ic = ic;
    vk->num_inputs = n;
    *ic_out = ic;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_from_json(cuzk_groth16_vk *vk, const char *json, cuzk_errmsg *err)
{
    memset(vk, 0, sizeof *vk);
    /* counts first: the parse itself costs several times the document's size */
    uint64_t np, nic;
    if (json != NULL && cuzk_g16_vk_json_counts(json, strlen(json), &np, &nic) && nic != np + 1)
        return cuzk_fail(err, CUZK_ERR_BAD_JSON, "verification_key: IC has %llu points, nPublic + 1 = %llu",
                         (unsigned long long)nic, (unsigned long long)np + 1);
    json_t *root;
    cuzk_status s = j_parse(&root, json, "verification_key", err);
    if (s != CUZK_OK) return s;
    cuzk_groth16_vk k;
    cuzk_g1_affine_t *ic = NULL;
    memset(&k, 0, sizeof k);
    s = vk_read(&k, &ic, root, err);
    json_decref(root);
    if (s != CUZK_OK) return s;
    /* β1 and δ1 are prover-side points that the JSON does not carry: they stay at infinity (x = y = 0) */
    cuzk_g1_affine_set_infinity(&k.beta_g1);
    cuzk_g1_affine_set_infinity(&k.delta_g1);
    k.storage = ic;
    *vk = k;
    return CUZK_OK;
}

#else /* built without jansson (CMakeLists.txt): every JSON function says so */

static cuzk_status no_json(char **out, cuzk_errmsg *err)
{
    if (out != NULL) *out = NULL;
    return cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "snarkjs JSON files need jansson, which this build lacks");
}

cuzk_status cuzk_groth16_proof_to_json(const cuzk_groth16_proof_t *proof, char **out)
{
    (void)proof;
    return no_json(out, NULL);
}

cuzk_status cuzk_groth16_proof_from_json(cuzk_groth16_proof_t *proof, const char *json, cuzk_errmsg *err)
{
    (void)proof, (void)json;
    return no_json(NULL, err);
}

cuzk_status cuzk_groth16_public_to_json(const cuzk_fr_t *pub, uint64_t n, char **out)
{
    (void)pub, (void)n;
    return no_json(out, NULL);
}

cuzk_status cuzk_groth16_public_from_json(cuzk_fr_t **pub, uint64_t *n, const char *json, cuzk_errmsg *err)
{
    (void)json;
    if (pub != NULL) *pub = NULL;
    if (n != NULL) *n = 0;
    return no_json(NULL, err);
}

cuzk_status cuzk_groth16_vk_to_json(const cuzk_groth16_vk *vk, char **out)
{
    (void)vk;
    return no_json(out, NULL);
}

cuzk_status cuzk_groth16_vk_from_json(cuzk_groth16_vk *vk, const char *json, cuzk_errmsg *err)
{
    (void)vk, (void)json;
    return no_json(NULL, err);
}

#endif
