/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PCE files: a compiled constraint system laid out for mmap (layout in r1cs.h). The writer emits the arrays as they
 * are in memory; the loader maps the file and validates every field in one pass before handing out pointers into
 * the mapping, so a truncated, inconsistent or corrupted file is refused with a status and a detail line. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r1cs_int.h"

#define PCE_PAGE 4096u
#define PCE_MAGIC "CUZKPCE\0"
#define OFF_VERSION 8
#define OFF_HDR_SIZE 12
#define OFF_COUNTS 16 /* num_inputs, num_aux, num_constraints, num_values, nnz A, B, C */
#define OFF_NSECT 72
#define OFF_FLAGS 76
#define OFF_TABLE 80
#define OFF_IDENTITY 288
#define OFF_CHECKSUM 320
#define OFF_RESERVED 352
/* Counts above 2^58 could overflow the byte-length arithmetic; no real circuit comes near. */
#define PCE_COUNT_LIMIT (1ULL << 58)

static const char *const sec_name[R1CS_SEC_COUNT] = {
    "A.row_ptr", "A.col",  "A.coef", "B.row_ptr",     "B.col",           "B.coef",       "C.row_ptr",
    "C.col",     "C.coef", "values", "a_aux_density", "b_input_density", "b_aux_density"};

static uint64_t align_page(uint64_t x) { return (x + PCE_PAGE - 1) & ~(uint64_t)(PCE_PAGE - 1); }

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Byte length of each section given the counts (all below PCE_COUNT_LIMIT, so nothing overflows). */
static void section_lengths(uint64_t len[R1CS_SEC_COUNT], uint64_t ni, uint64_t na, uint64_t rows, uint64_t nvals,
                            const uint64_t nnz[3])
{
    for (int k = 0; k < 3; k++) {
        len[3 * k + R1CS_SEC_ROW_PTR] = (rows + 1) * 8;
        len[3 * k + R1CS_SEC_COL] = nnz[k] * 4;
        len[3 * k + R1CS_SEC_COEF] = nnz[k] * 4;
    }
    len[R1CS_SEC_VALUES] = nvals * sizeof(cuzk_fr_t);
    len[R1CS_SEC_A_AUX] = r1cs_density_words(na) * 8;
    len[R1CS_SEC_B_INPUT] = r1cs_density_words(ni) * 8;
    len[R1CS_SEC_B_AUX] = r1cs_density_words(na) * 8;
}

static const void *section_ptr(const cuzk_r1cs_t *r, int s)
{
    if (s < 9) {
        const cuzk_r1cs_matrix *m = &r->m[s / 3];
        return s % 3 == R1CS_SEC_ROW_PTR ? (const void *)m->row_ptr
               : s % 3 == R1CS_SEC_COL   ? (const void *)m->col
                                         : (const void *)m->coef;
    }
    if (s == R1CS_SEC_VALUES) return r->values;
    if (s == R1CS_SEC_A_AUX) return r->a_aux_density;
    if (s == R1CS_SEC_B_INPUT) return r->b_input_density;
    return r->b_aux_density;
}

/* checksum = SHA-256(header with the checksum field zeroed ‖ density sections) */
static void pce_checksum(const uint8_t *header, const cuzk_r1cs_t *r, const uint64_t len[R1CS_SEC_COUNT],
                         uint8_t out[32])
{
    static const uint8_t zero[32];
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    EVP_DigestUpdate(ctx, header, OFF_CHECKSUM);
    EVP_DigestUpdate(ctx, zero, 32);
    EVP_DigestUpdate(ctx, header + OFF_CHECKSUM + 32, PCE_PAGE - OFF_CHECKSUM - 32);
    for (int s = R1CS_SEC_A_AUX; s <= R1CS_SEC_B_AUX; s++) EVP_DigestUpdate(ctx, section_ptr(r, s), len[s]);
    EVP_DigestFinal_ex(ctx, out, NULL);
    EVP_MD_CTX_free(ctx);
}

cuzk_status cuzk_r1cs_pce_write(const cuzk_r1cs_t *r, const char *path, cuzk_r1cs_err *err)
{
    uint64_t nnz[3] = {r->m[0].nnz, r->m[1].nnz, r->m[2].nnz}, len[R1CS_SEC_COUNT], off[R1CS_SEC_COUNT];
    section_lengths(len, r->num_inputs, r->num_aux, r->num_constraints, r->num_values, nnz);
    uint8_t header[PCE_PAGE] = {0};
    uint64_t counts[7] = {r->num_inputs, r->num_aux, r->num_constraints, r->num_values, nnz[0], nnz[1], nnz[2]};
    uint32_t version = CUZK_R1CS_PCE_VERSION, hdr_size = PCE_PAGE, nsect = R1CS_SEC_COUNT;
    memcpy(header, PCE_MAGIC, 8);
    memcpy(header + OFF_VERSION, &version, 4);
    memcpy(header + OFF_HDR_SIZE, &hdr_size, 4);
    memcpy(header + OFF_COUNTS, counts, sizeof counts);
    memcpy(header + OFF_NSECT, &nsect, 4);
    uint64_t pos = PCE_PAGE;
    for (int s = 0; s < R1CS_SEC_COUNT; s++) {
        off[s] = pos;
        memcpy(header + OFF_TABLE + 16 * s, &off[s], 8);
        memcpy(header + OFF_TABLE + 16 * s + 8, &len[s], 8);
        pos = align_page(pos + len[s]);
    }
    memcpy(header + OFF_IDENTITY, r->identity, 32);
    pce_checksum(header, r, len, header + OFF_CHECKSUM);

    FILE *f = fopen(path, "wb");
    if (f == NULL) return cuzk_fail(err, CUZK_ERR_IO, "cannot create %s", path);
    static const uint8_t pad[PCE_PAGE];
    bool ok = fwrite(header, 1, PCE_PAGE, f) == PCE_PAGE;
    for (int s = 0; s < R1CS_SEC_COUNT && ok; s++) {
        ok = fwrite(section_ptr(r, s), 1, len[s], f) == len[s];
        uint64_t gap = align_page(off[s] + len[s]) - (off[s] + len[s]);
        if (ok && gap) ok = fwrite(pad, 1, gap, f) == gap;
    }
    if (fclose(f) != 0 || !ok) return cuzk_fail(err, CUZK_ERR_IO, "cannot write %s", path);
    return CUZK_OK;
}

/* ---- loader ------------------------------------------------------------------------------------------------------ */

static bool all_zero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

cuzk_status cuzk_r1cs_pce_measure(const uint8_t *data, size_t size, uint64_t *file_size, cuzk_r1cs_err *err)
{
    *file_size = 0;
    if (size < PCE_PAGE)
        return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%zu bytes, shorter than the %u-byte header", size, PCE_PAGE);
    if (get32(data + OFF_NSECT) != R1CS_SEC_COUNT)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "section count %u, expected %u", get32(data + OFF_NSECT),
                         R1CS_SEC_COUNT);
    uint64_t end = PCE_PAGE;
    for (int s = 0; s < R1CS_SEC_COUNT; s++) {
        uint64_t off = get64(data + OFF_TABLE + 16 * s), slen = get64(data + OFF_TABLE + 16 * s + 8);
        /* 2^62 bounds both, so their sum and its rounding cannot overflow */
        if (off >> 62 != 0 || slen >> 62 != 0)
            return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "section %s: offset %llu, length %llu", sec_name[s],
                             (unsigned long long)off, (unsigned long long)slen);
        if (off + slen > end) end = off + slen;
    }
    *file_size = align_page(end);
    return CUZK_OK;
}

/* Header, counts and section table. Fills r's counts and pointers (into data) and len/off. */
static cuzk_status pce_check_layout(const uint8_t *data, size_t size, cuzk_r1cs_t *r, uint64_t len[R1CS_SEC_COUNT],
                                    cuzk_r1cs_err *err)
{
    if (size < 8) return cuzk_fail(err, CUZK_ERR_TRUNCATED, "file of %zu bytes is shorter than the magic", size);
    if (memcmp(data, PCE_MAGIC, 8) != 0) return cuzk_fail(err, CUZK_ERR_BAD_MAGIC, "not a PCE file (magic)");
    if (size < PCE_PAGE)
        return cuzk_fail(err, CUZK_ERR_TRUNCATED, "file of %zu bytes is shorter than the %u-byte header", size,
                         PCE_PAGE);
    uint32_t version = get32(data + OFF_VERSION);
    if (version != CUZK_R1CS_PCE_VERSION)
        return cuzk_fail(err, CUZK_ERR_BAD_VERSION, "PCE version %u, expected %u", version, CUZK_R1CS_PCE_VERSION);
    if (get32(data + OFF_HDR_SIZE) != PCE_PAGE || get32(data + OFF_NSECT) != R1CS_SEC_COUNT ||
        get32(data + OFF_FLAGS) != 0)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "header size %u, section count %u, flags %u: expected %u, %u, 0",
                         get32(data + OFF_HDR_SIZE), get32(data + OFF_NSECT), get32(data + OFF_FLAGS), PCE_PAGE,
                         R1CS_SEC_COUNT);
    if (!all_zero(data + OFF_RESERVED, PCE_PAGE - OFF_RESERVED))
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "reserved header bytes are not zero");

    uint64_t c[7];
    for (int i = 0; i < 7; i++) c[i] = get64(data + OFF_COUNTS + 8 * i);
    static const char *const cname[7] = {"num_inputs", "num_aux", "num_constraints", "num_values", "nnz A",
                                         "nnz B",      "nnz C"};
    for (int i = 0; i < 7; i++)
        if (c[i] >= PCE_COUNT_LIMIT)
            return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "%s = %llu exceeds 2^58", cname[i], (unsigned long long)c[i]);
    if (c[0] == 0) return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "num_inputs is 0 (ONE is input 0)");
    if (c[0] + c[1] > UINT32_MAX)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "%llu variables exceed the 2^32-1 that u32 columns can index",
                         (unsigned long long)(c[0] + c[1]));
    if (c[3] < 2 || c[3] > UINT32_MAX)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "num_values = %llu, must be in [2, 2^32)", (unsigned long long)c[3]);
    r->num_inputs = (uint32_t)c[0];
    r->num_aux = (uint32_t)c[1];
    r->num_constraints = c[2];
    r->num_values = (uint32_t)c[3];
    section_lengths(len, c[0], c[1], c[2], c[3], c + 4);

    uint64_t end = PCE_PAGE;
    const void *ptr[R1CS_SEC_COUNT];
    for (int s = 0; s < R1CS_SEC_COUNT; s++) {
        uint64_t off = get64(data + OFF_TABLE + 16 * s), slen = get64(data + OFF_TABLE + 16 * s + 8);
        if (slen != len[s])
            return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "section %s length %llu, the counts say %llu", sec_name[s],
                             (unsigned long long)slen, (unsigned long long)len[s]);
        if (off % PCE_PAGE != 0 || off < end)
            return cuzk_fail(err, CUZK_ERR_BAD_SECTION,
                             "section %s offset %llu is not 4096-aligned or overlaps what precedes it (ends at %llu)",
                             sec_name[s], (unsigned long long)off, (unsigned long long)end);
        if (off > size || slen > size - off)
            return cuzk_fail(err, CUZK_ERR_TRUNCATED, "section %s (offset %llu, length %llu) exceeds file size %zu",
                             sec_name[s], (unsigned long long)off, (unsigned long long)slen, size);
        if (!all_zero(data + end, off - end))
            return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "padding before section %s is not zero", sec_name[s]);
        ptr[s] = data + off;
        end = off + slen;
    }
    if (align_page(end) > size)
        return cuzk_fail(err, CUZK_ERR_TRUNCATED, "file size %zu, the sections need %llu", size,
                         (unsigned long long)align_page(end));
    if (align_page(end) < size)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "file size %zu, the sections end at %llu: trailing bytes", size,
                         (unsigned long long)align_page(end));
    if (!all_zero(data + end, size - end))
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "padding after the last section is not zero");
    for (int k = 0; k < 3; k++) {
        r->m[k].row_ptr = ptr[3 * k + R1CS_SEC_ROW_PTR];
        r->m[k].col = ptr[3 * k + R1CS_SEC_COL];
        r->m[k].coef = ptr[3 * k + R1CS_SEC_COEF];
        r->m[k].nnz = c[4 + k];
    }
    r->values = ptr[R1CS_SEC_VALUES];
    r->a_aux_density = ptr[R1CS_SEC_A_AUX];
    r->b_input_density = ptr[R1CS_SEC_B_INPUT];
    r->b_aux_density = ptr[R1CS_SEC_B_AUX];
    memcpy(r->identity, data + OFF_IDENTITY, 32);
    return CUZK_OK;
}

static cuzk_status pce_check_density(const cuzk_r1cs_t *r, const uint64_t len[R1CS_SEC_COUNT], cuzk_r1cs_err *err)
{
    /* the bitmaps are as large as their sections, which the file holds: no allocation beyond the file size */
    uint64_t *d[3];
    cuzk_status s = CUZK_OK;
    for (int i = 0; i < 3; i++) d[i] = calloc(len[R1CS_SEC_A_AUX + i] / 8 + 1, 8);
    if (d[0] == NULL || d[1] == NULL || d[2] == NULL) {
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for the density check");
    } else {
        cuzk_r1cs_compute_density(r, d[0], d[1], d[2]);
        const uint64_t *have[3] = {r->a_aux_density, r->b_input_density, r->b_aux_density};
        for (int i = 0; i < 3 && s == CUZK_OK; i++)
            if (memcmp(d[i], have[i], len[R1CS_SEC_A_AUX + i]) != 0)
                s = cuzk_fail(err, CUZK_ERR_R1CS_DENSITY, "%s disagrees with the matrices",
                              sec_name[R1CS_SEC_A_AUX + i]);
    }
    for (int i = 0; i < 3; i++) free(d[i]);
    return s;
}

cuzk_status cuzk_r1cs_pce_parse(const uint8_t *data, size_t size, unsigned flags, const uint8_t expect_identity[32],
                                cuzk_r1cs_t **out, cuzk_r1cs_err *err)
{
    *out = NULL;
    static const uint64_t empty = 0;
    if (data == NULL || size == 0) data = (const uint8_t *)&empty, size = 0;
    if ((uintptr_t)data % 8 != 0) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "PCE image not 8-byte aligned");
    cuzk_r1cs_t *r = calloc(1, sizeof *r);
    if (r == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    uint64_t len[R1CS_SEC_COUNT];
    cuzk_status s = pce_check_layout(data, size, r, len, err);
    if (s == CUZK_OK) s = cuzk_r1cs_check_values(r, err);
    for (int k = 0; k < 3 && s == CUZK_OK; k++) s = cuzk_r1cs_check_matrix(r, k, err);
    if (s == CUZK_OK) s = pce_check_density(r, len, err);
    if (s == CUZK_OK && !(flags & CUZK_R1CS_PCE_TRUSTED)) {
        uint8_t h[32];
        cuzk_r1cs_identity(r, h);
        if (memcmp(h, r->identity, 32) != 0) {
            s = cuzk_fail(err, CUZK_ERR_CHECKSUM, "matrices do not hash to the stored identity");
        } else {
            pce_checksum(data, r, len, h);
            if (memcmp(h, data + OFF_CHECKSUM, 32) != 0)
                s = cuzk_fail(err, CUZK_ERR_CHECKSUM, "header or densities do not match the stored checksum");
        }
    }
    if (s == CUZK_OK && expect_identity != NULL && memcmp(expect_identity, r->identity, 32) != 0)
        s = cuzk_fail(err, CUZK_ERR_MISMATCH, "circuit identity differs from the one expected");
    if (s != CUZK_OK) {
        cuzk_r1cs_free(r);
        return s;
    }
    *out = r;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_pce_load(const char *path, unsigned flags, const uint8_t expect_identity[32], cuzk_r1cs_t **out,
                               cuzk_r1cs_err *err)
{
    *out = NULL;
    const uint8_t *data;
    size_t size;
    cuzk_status s = cuzk_map_file(path, &data, &size, err);
    if (s != CUZK_OK) return s;
    s = cuzk_r1cs_pce_parse(data, size, flags, expect_identity, out, err);
    if (s != CUZK_OK) {
        cuzk_unmap_file(data, size);
        return s;
    }
    /* the system points into the mapping, which it now owns */
    (*out)->map = (void *)data;
    (*out)->map_len = size;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_pce_read_counts(const char *path, uint64_t *num_inputs, uint64_t *num_aux,
                                      uint64_t *num_constraints, cuzk_r1cs_err *err)
{
    uint8_t h[OFF_NSECT];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return cuzk_fail(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    ssize_t got = pread(fd, h, sizeof h, 0);
    close(fd);
    if (got != (ssize_t)sizeof h) return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s is shorter than the PCE header", path);
    if (memcmp(h, PCE_MAGIC, 8) != 0) return cuzk_fail(err, CUZK_ERR_BAD_MAGIC, "%s is not a PCE file (magic)", path);
    if (get32(h + OFF_VERSION) != CUZK_R1CS_PCE_VERSION)
        return cuzk_fail(err, CUZK_ERR_BAD_VERSION, "%s: PCE version %u, expected %u", path, get32(h + OFF_VERSION),
                         CUZK_R1CS_PCE_VERSION);
    uint64_t ni = get64(h + OFF_COUNTS), na = get64(h + OFF_COUNTS + 8), rows = get64(h + OFF_COUNTS + 16);
    if (ni == 0 || ni + na > UINT32_MAX || rows >= PCE_COUNT_LIMIT)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "%s: counts out of range (%llu inputs, %llu aux, %llu rows)", path,
                         (unsigned long long)ni, (unsigned long long)na, (unsigned long long)rows);
    *num_inputs = ni;
    *num_aux = na;
    *num_constraints = rows;
    return CUZK_OK;
}
