/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* iden3 binary files: .wtns witnesses and circom .r1cs constraint systems (layouts in docs/formats/iden3-container.md,
 * witness.md §1 and r1cs.md). Both are a magic, a version and a list of typed sections that may come in any order;
 * every length is checked against what remains of the input before it is used. */
#include <stdlib.h>
#include <string.h>

#include "r1cs_int.h"

#define IDEN3_FIELD_HEADER 40 /* n8 u32, prime 32 bytes, count u32 (.wtns section 1) */
#define CIRCOM_HEADER 64      /* n8, prime, nWires, nPubOut, nPubIn, nPrvIn, nLabels u64, nConstraints */

/* Field size and prime: must be 32 bytes and BLS12-381's r. */
static cuzk_status iden3_check_prime(const uint8_t *p, const char *what, cuzk_r1cs_err *err)
{
    if (cuzk_load_le32(p) != CUZK_FR_BYTES)
        return cuzk_fail(err, CUZK_ERR_WRONG_PRIME, "%s: field size %u bytes, BLS12-381 Fr has 32", what,
                         cuzk_load_le32(p));
    for (int i = 0; i < CUZK_FR_LIMBS; i++)
        if (cuzk_load_le64(p + 4 + 8 * i) != CUZK_FR_MODULUS[i])
            return cuzk_fail(err, CUZK_ERR_WRONG_PRIME, "%s: prime is not the BLS12-381 scalar field order r", what);
    return CUZK_OK;
}

static cuzk_status read_fr(cuzk_fr_t *out, const uint8_t *p)
{
    uint64_t l[CUZK_FR_LIMBS];
    for (int i = 0; i < CUZK_FR_LIMBS; i++) l[i] = cuzk_load_le64(p + 8 * i);
    return cuzk_fr_from_limbs(out, l);
}

/* ---- .wtns ------------------------------------------------------------------------------------------------------- */

/* The checks of a .wtns image; *vals and *n give its values. */
static cuzk_status wtns_check(const uint8_t *buf, size_t len, const cuzk_r1cs_t *circuit, const uint8_t **vals,
                              uint64_t *count, cuzk_r1cs_err *err)
{
    const uint8_t *hdr = NULL;
    uint64_t hsize = 0, vsize = 0;
    cuzk_status s = cuzk_iden3_check(buf, len, "wtns", 2, "wtns", err);
    if (s == CUZK_OK) s = cuzk_iden3_find(buf, 1, &hdr, &hsize, "wtns", err);
    if (s == CUZK_OK) s = cuzk_iden3_find(buf, 2, vals, &vsize, "wtns", err);
    if (s != CUZK_OK) return s;
    if (hsize != IDEN3_FIELD_HEADER)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "wtns: header section has %llu bytes, expected %d",
                         (unsigned long long)hsize, IDEN3_FIELD_HEADER);
    if ((s = iden3_check_prime(hdr, "wtns", err)) != CUZK_OK) return s;
    uint64_t n = cuzk_load_le32(hdr + 36);
    if (vsize != n * CUZK_FR_BYTES)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "wtns: %llu values need %llu bytes, section 2 has %llu",
                         (unsigned long long)n, (unsigned long long)(n * CUZK_FR_BYTES), (unsigned long long)vsize);
    if (circuit != NULL && n != cuzk_r1cs_num_vars(circuit))
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "wtns: %llu values, the circuit has %llu variables",
                         (unsigned long long)n, (unsigned long long)cuzk_r1cs_num_vars(circuit));
    *count = n;
    return CUZK_OK;
}

static cuzk_status wtns_values(cuzk_fr_t *w, const uint8_t *vals, uint64_t n, cuzk_r1cs_err *err)
{
    for (uint64_t i = 0; i < n; i++)
        if (read_fr(&w[i], vals + i * CUZK_FR_BYTES) != CUZK_OK)
            return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "wtns: value %llu is not below r", (unsigned long long)i);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_wtns_parse(const uint8_t *buf, size_t len, const cuzk_r1cs_t *circuit, cuzk_fr_t **out,
                                 uint64_t *count, cuzk_r1cs_err *err)
{
    *out = NULL;
    const uint8_t *vals = NULL;
    uint64_t n = 0;
    cuzk_status s = wtns_check(buf, len, circuit, &vals, &n, err);
    if (s != CUZK_OK) return s;
    /* n·32 bytes are present in the input, so this allocation is bounded by the input size */
    cuzk_fr_t *w = malloc(n ? n * sizeof *w : 1);
    if (w == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "wtns: no memory for %llu values", (unsigned long long)n);
    s = wtns_values(w, vals, n, err);
    if (s != CUZK_OK) {
        free(w);
        return s;
    }
    *out = w;
    *count = n;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_wtns_parse_into(const uint8_t *buf, size_t len, const cuzk_r1cs_t *circuit, cuzk_fr_t *out,
                                      cuzk_r1cs_err *err)
{
    const uint8_t *vals = NULL;
    uint64_t n = 0;
    if (circuit == NULL || out == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "wtns: NULL circuit or buffer");
    cuzk_status s = wtns_check(buf, len, circuit, &vals, &n, err);
    return s != CUZK_OK ? s : wtns_values(out, vals, n, err);
}

cuzk_status cuzk_r1cs_wtns_load(const char *path, const cuzk_r1cs_t *circuit, cuzk_fr_t **out, uint64_t *count,
                                cuzk_r1cs_err *err)
{
    const uint8_t *data;
    size_t len;
    *out = NULL;
    cuzk_status s = cuzk_map_file(path, &data, &len, err);
    if (s != CUZK_OK) return s;
    s = cuzk_r1cs_wtns_parse(data ? data : (const uint8_t *)"", len, circuit, out, count, err);
    cuzk_unmap_file(data, len);
    return s;
}

cuzk_status cuzk_r1cs_wtns_load_into(const char *path, const cuzk_r1cs_t *circuit, cuzk_fr_t *out, cuzk_r1cs_err *err)
{
    const uint8_t *data;
    size_t len;
    cuzk_status s = cuzk_map_file(path, &data, &len, err);
    if (s != CUZK_OK) return s;
    s = cuzk_r1cs_wtns_parse_into(data ? data : (const uint8_t *)"", len, circuit, out, err);
    cuzk_unmap_file(data, len);
    return s;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
    return p + 4;
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
    return p + 8;
}

cuzk_status cuzk_r1cs_wtns_encode(const cuzk_fr_t *w, uint64_t n, uint8_t **buf, size_t *len)
{
    *buf = NULL;
    if (n > UINT32_MAX) return CUZK_ERR_TOO_LARGE;
    size_t total = 12 + 12 + IDEN3_FIELD_HEADER + 12 + n * CUZK_FR_BYTES;
    uint8_t *b = malloc(total), *p = b;
    if (b == NULL) return CUZK_ERR_NOMEM;
    memcpy(p, "wtns", 4);
    p = put32(put32(p + 4, 2), 2);
    p = put64(put32(p, 1), IDEN3_FIELD_HEADER);
    p = put32(p, CUZK_FR_BYTES);
    for (int i = 0; i < CUZK_FR_LIMBS; i++) p = put64(p, CUZK_FR_MODULUS[i]);
    p = put32(p, (uint32_t)n);
    p = put64(put32(p, 2), n * CUZK_FR_BYTES);
    for (uint64_t i = 0; i < n; i++, p += CUZK_FR_BYTES) cuzk_fr_to_bytes_le(p, &w[i]);
    *buf = b;
    *len = total;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_wtns_save(const cuzk_fr_t *w, uint64_t n, const char *path, cuzk_r1cs_err *err)
{
    uint8_t *buf;
    size_t len;
    cuzk_status s = cuzk_r1cs_wtns_encode(w, n, &buf, &len);
    if (s != CUZK_OK) return cuzk_fail(err, s, "wtns: cannot encode %llu values", (unsigned long long)n);
    s = cuzk_write_file(path, buf, len, err);
    free(buf);
    return s;
}

/* ---- circom .r1cs ------------------------------------------------------------------------------------------------ */

typedef struct {
    cuzk_r1cs_term *t;
    size_t cap;
} term_buf;

/* Reads one linear combination at *pos of the constraints section (size end) into tb. */
static cuzk_status circom_read_lc(const uint8_t *sec, uint64_t end, uint64_t *pos, uint32_t nwires, uint32_t num_inputs,
                                  term_buf *tb, size_t *n, uint64_t row, cuzk_r1cs_err *err)
{
    if (end - *pos < 4)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "r1cs: constraints section ends inside constraint %llu",
                         (unsigned long long)row);
    uint64_t nt = cuzk_load_le32(sec + *pos);
    *pos += 4;
    if (nt > (end - *pos) / (4 + CUZK_FR_BYTES))
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "r1cs: constraint %llu has %llu terms, more than the section holds",
                         (unsigned long long)row, (unsigned long long)nt);
    if (nt > tb->cap) {
        cuzk_r1cs_term *t = realloc(tb->t, nt * sizeof *t);
        if (t == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "r1cs: no memory for %llu terms", (unsigned long long)nt);
        tb->t = t;
        tb->cap = nt;
    }
    for (uint64_t i = 0; i < nt; i++, *pos += 4 + CUZK_FR_BYTES) {
        uint32_t wire = cuzk_load_le32(sec + *pos);
        if (wire >= nwires)
            return cuzk_fail(err, CUZK_ERR_R1CS_COLUMN, "r1cs: constraint %llu uses wire %u of %u",
                             (unsigned long long)row, wire, nwires);
        if (read_fr(&tb->t[i].coeff, sec + *pos + 4) != CUZK_OK)
            return cuzk_fail(err, CUZK_ERR_R1CS_COEFF, "r1cs: constraint %llu has a coefficient not below r",
                             (unsigned long long)row);
        tb->t[i].var = wire < num_inputs ? CUZK_R1CS_INPUT(wire) : CUZK_R1CS_AUX(wire - num_inputs);
    }
    *n = nt;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_circom_parse(const uint8_t *buf, size_t len, cuzk_r1cs_t **out, cuzk_r1cs_err *err)
{
    *out = NULL;
    const uint8_t *hdr = NULL, *cons = NULL;
    uint64_t hsize = 0, csize = 0;
    cuzk_status s = cuzk_iden3_check(buf, len, "r1cs", 1, "r1cs", err);
    if (s == CUZK_OK) s = cuzk_iden3_find(buf, 1, &hdr, &hsize, "r1cs", err);
    if (s == CUZK_OK) s = cuzk_iden3_find(buf, 2, &cons, &csize, "r1cs", err);
    if (s != CUZK_OK) return s;
    if (hsize != CIRCOM_HEADER)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "r1cs: header section has %llu bytes, expected %d",
                         (unsigned long long)hsize, CIRCOM_HEADER);
    if ((s = iden3_check_prime(hdr, "r1cs", err)) != CUZK_OK) return s;
    uint32_t nwires = cuzk_load_le32(hdr + 36), npub_out = cuzk_load_le32(hdr + 40), npub_in = cuzk_load_le32(hdr + 44),
             nprv_in = cuzk_load_le32(hdr + 48);
    uint64_t nconstraints = cuzk_load_le32(hdr + 60);
    /* wire 0 = ONE, then outputs and public inputs: the bellperson inputs; everything after is aux */
    uint64_t num_inputs = 1 + (uint64_t)npub_out + npub_in;
    if (num_inputs > nwires || nprv_in > nwires - num_inputs)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER,
                         "r1cs: %u wires cannot hold ONE, %u outputs, %u public and %u private inputs", nwires,
                         npub_out, npub_in, nprv_in);
    if (num_inputs >= 0x80000000u || nwires - num_inputs >= 0x80000000u)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "r1cs: %u wires exceed the builder's 2^31 inputs / 2^31 aux", nwires);
    /* each constraint takes at least 12 bytes (three term counts) */
    if (nconstraints > csize / 12)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "r1cs: %llu constraints cannot fit in a %llu-byte section",
                         (unsigned long long)nconstraints, (unsigned long long)csize);

    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new((uint32_t)num_inputs);
    cuzk_r1cs_var first;
    if (b == NULL || cuzk_r1cs_builder_alloc_aux_n(b, nwires - (uint32_t)num_inputs, &first) != CUZK_OK) {
        cuzk_r1cs_builder_free(b);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "r1cs: out of memory");
    }
    term_buf tb[3] = {{0}};
    uint64_t pos = 0;
    for (uint64_t row = 0; row < nconstraints && s == CUZK_OK; row++) {
        size_t n[3];
        for (int k = 0; k < 3 && s == CUZK_OK; k++)
            s = circom_read_lc(cons, csize, &pos, nwires, (uint32_t)num_inputs, &tb[k], &n[k], row, err);
        if (s == CUZK_OK) {
            s = cuzk_r1cs_builder_enforce(b, tb[0].t, n[0], tb[1].t, n[1], tb[2].t, n[2]);
            if (s != CUZK_OK) cuzk_fail(err, s, "r1cs: constraint %llu could not be added", (unsigned long long)row);
        }
    }
    for (int k = 0; k < 3; k++) free(tb[k].t);
    if (s == CUZK_OK && pos != csize)
        s = cuzk_fail(err, CUZK_ERR_BAD_SECTION, "r1cs: %llu bytes after the last constraint",
                      (unsigned long long)(csize - pos));
    if (s != CUZK_OK) {
        cuzk_r1cs_builder_free(b);
        return s;
    }
    s = cuzk_r1cs_builder_finish(b, out);
    if (s != CUZK_OK) return cuzk_fail(err, s, "r1cs: could not finish the system");
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_circom_load(const char *path, cuzk_r1cs_t **out, cuzk_r1cs_err *err)
{
    const uint8_t *data;
    size_t len;
    *out = NULL;
    cuzk_status s = cuzk_map_file(path, &data, &len, err);
    if (s != CUZK_OK) return s;
    s = cuzk_r1cs_circom_parse(data ? data : (const uint8_t *)"", len, out, err);
    cuzk_unmap_file(data, len);
    return s;
}
