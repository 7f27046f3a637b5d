/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PCE files: round trip through mmap, and every class of damage refused with its own status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r1cs_tests.h"

/* header field offsets, from the layout in r1cs.h */
#define H_VERSION 8
#define H_HDR_SIZE 12
#define H_COUNTS 16
#define H_NSECT 72
#define H_FLAGS 76
#define H_TABLE 80
#define H_IDENTITY 288
#define H_CHECKSUM 320
enum {
    S_A_ROW = 0,
    S_A_COL = 1,
    S_A_COEF = 2,
    S_B_ROW = 3,
    S_B_COL = 4,
    S_C_COEF = 8,
    S_VALUES = 9,
    S_A_AUX = 10,
    S_B_AUX = 12
};

typedef struct {
    test_circuit t;
    char path[128];
    uint8_t *img; /* the valid file */
    size_t len;
} pce_fixture;

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(*len ? *len : 1);
    assert_int_equal(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

static void write_all(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
}

static int fixture_setup(void **state)
{
    pce_fixture *fx = calloc(1, sizeof *fx);
    test_circuit_make(&fx->t, 3, 150, 120); /* 273 aux: the density bitmaps have unused high bits */
    test_tmp_path(fx->path, sizeof fx->path, ".pce");
    if (cuzk_r1cs_pce_write(fx->t.r, fx->path, NULL) != CUZK_OK) return -1;
    fx->img = read_all(fx->path, &fx->len);
    *state = fx;
    return 0;
}

static int fixture_teardown(void **state)
{
    pce_fixture *fx = *state;
    unlink(fx->path);
    free(fx->img);
    test_circuit_free(&fx->t);
    free(fx);
    return 0;
}

static uint64_t h64(const uint8_t *img, size_t off)
{
    uint64_t v;
    memcpy(&v, img + off, 8);
    return v;
}

static void p64(uint8_t *img, size_t off, uint64_t v) { memcpy(img + off, &v, 8); }
static void p32(uint8_t *img, size_t off, uint32_t v) { memcpy(img + off, &v, 4); }
static uint64_t sec_off(const uint8_t *img, int s) { return h64(img, H_TABLE + 16 * s); }

/* Loads a copy of buf (len bytes) from disk; returns the status, checks a detail was written on failure. */
static cuzk_status load_image(pce_fixture *fx, const uint8_t *buf, size_t len, unsigned flags)
{
    write_all(fx->path, buf, len);
    cuzk_r1cs_t *r = (cuzk_r1cs_t *)1;
    cuzk_r1cs_err err = {{0}};
    cuzk_status s = cuzk_r1cs_pce_load(fx->path, flags, NULL, &r, &err);
    if (s == CUZK_OK) {
        assert_non_null(r);
        cuzk_r1cs_free(r);
    } else {
        assert_null(r);
        assert_true(err.msg[0] != '\0');
    }
    return s;
}

/* Applies one corruption to a fresh copy and returns the load status. */
typedef void (*corrupt_fn)(uint8_t *img, const cuzk_r1cs_t *r);
static cuzk_status load_corrupted(pce_fixture *fx, corrupt_fn f, unsigned flags)
{
    uint8_t *img = malloc(fx->len);
    memcpy(img, fx->img, fx->len);
    f(img, fx->t.r);
    cuzk_status s = load_image(fx, img, fx->len, flags);
    free(img);
    return s;
}

static void test_pce_round_trip(void **state)
{
    pce_fixture *fx = *state;
    assert_int_equal(fx->len % 4096, 0);
    for (unsigned flags = 0; flags <= CUZK_R1CS_PCE_TRUSTED; flags++) {
        write_all(fx->path, fx->img, fx->len);
        cuzk_r1cs_t *r;
        cuzk_r1cs_err err;
        assert_int_equal(cuzk_r1cs_pce_load(fx->path, flags, fx->t.r->identity, &r, &err), CUZK_OK);
        assert_true(test_r1cs_equal(r, fx->t.r));
        uint8_t id[32];
        cuzk_r1cs_identity(r, id);
        assert_memory_equal(id, fx->t.r->identity, 32);
        assert_int_equal(cuzk_r1cs_check(r, fx->t.z, 2, NULL), CUZK_OK);
        cuzk_r1cs_free(r);
        /* sections sit on 4 KiB boundaries */
        for (int s = 0; s < 13; s++) assert_int_equal(sec_off(fx->img, s) % 4096, 0);
    }
    /* the expected identity of another circuit */
    uint8_t other[32];
    memcpy(other, fx->t.r->identity, 32);
    other[5] ^= 1;
    cuzk_r1cs_t *r;
    cuzk_r1cs_err err;
    assert_int_equal(cuzk_r1cs_pce_load(fx->path, 0, other, &r, &err), CUZK_ERR_MISMATCH);
    assert_null(r);
    assert_int_equal(cuzk_r1cs_pce_load("/nonexistent/x.pce", 0, NULL, &r, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/x.pce"));
}

static void test_pce_truncated_and_extended(void **state)
{
    pce_fixture *fx = *state;
    /* every length below 80 and a stride through the rest, plus each page boundary ± 1 */
    for (size_t n = 0; n < fx->len; n += n < 80 ? 1 : 331)
        assert_int_equal(load_image(fx, fx->img, n, 0), CUZK_ERR_TRUNCATED);
    for (size_t p = 4096; p < fx->len; p += 4096) {
        assert_int_equal(load_image(fx, fx->img, p - 1, 0), CUZK_ERR_TRUNCATED);
        assert_int_equal(load_image(fx, fx->img, p, 0), CUZK_ERR_TRUNCATED);
        assert_int_equal(load_image(fx, fx->img, p + 1, 0), CUZK_ERR_TRUNCATED);
    }
    assert_int_equal(load_image(fx, fx->img, fx->len - 1, CUZK_R1CS_PCE_TRUSTED), CUZK_ERR_TRUNCATED);
    uint8_t *big = calloc(fx->len + 4096, 1);
    memcpy(big, fx->img, fx->len);
    assert_int_equal(load_image(fx, big, fx->len + 4096, 0), CUZK_ERR_BAD_SECTION);
    free(big);
}

/* ---- one corruption per failure class ---- */
static void c_magic(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    img[3] ^= 0x20;
}
static void c_version(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p32(img, H_VERSION, 2);
}
static void c_hdr_size(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p32(img, H_HDR_SIZE, 8192);
}
static void c_nsect(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p32(img, H_NSECT, 12);
}
static void c_flags(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p32(img, H_FLAGS, 1);
}
static void c_reserved(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    img[4000] = 1;
}
static void c_no_inputs(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, H_COUNTS, 0);
}
static void c_few_values(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, H_COUNTS + 24, 1);
}
static void c_huge_nnz(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, H_COUNTS + 32, 1ULL << 60);
}
static void c_huge_aux(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, H_COUNTS + 8, 1ULL << 32);
}
static void c_rows_plus_one(uint8_t *img, const cuzk_r1cs_t *r) { p64(img, H_COUNTS + 16, r->num_constraints + 1); }
static void c_misaligned(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, H_TABLE + 16 * S_A_COL, sec_off(img, S_A_COL) + 8);
}
static void c_overlap(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, H_TABLE + 16 * S_A_COL, sec_off(img, S_A_ROW));
}
static void c_beyond(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, H_TABLE + 16 * S_B_AUX, 1ULL << 40);
}
static void c_padding(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    img[sec_off(img, S_VALUES) - 1] = 7; /* last byte of the page before the value table */
}
static void c_row_ptr_start(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    p64(img, sec_off(img, S_A_ROW), 1);
}
static void c_row_ptr_back(uint8_t *img, const cuzk_r1cs_t *r)
{
    /* row 5 ends before it starts */
    p64(img, sec_off(img, S_B_ROW) + 8 * 6, r->m[1].row_ptr[5] - 1);
}
static void c_row_ptr_end(uint8_t *img, const cuzk_r1cs_t *r)
{
    p64(img, sec_off(img, S_A_ROW) + 8 * r->num_constraints, r->m[0].nnz - 1);
}
static void c_col_range(uint8_t *img, const cuzk_r1cs_t *r)
{
    p32(img, sec_off(img, S_B_COL) + 4 * (r->m[1].nnz - 1), (uint32_t)cuzk_r1cs_num_vars(r));
}
static void c_col_order(uint8_t *img, const cuzk_r1cs_t *r)
{
    /* swap the first two columns of the first A row holding two or more entries */
    const cuzk_r1cs_matrix *m = &r->m[0];
    uint64_t i = 0;
    while (m->row_ptr[i + 1] - m->row_ptr[i] < 2) i++;
    uint64_t e = m->row_ptr[i];
    p32(img, sec_off(img, S_A_COL) + 4 * e, m->col[e + 1]);
    p32(img, sec_off(img, S_A_COL) + 4 * (e + 1), m->col[e]);
}
static void c_coef_id(uint8_t *img, const cuzk_r1cs_t *r) { p32(img, sec_off(img, S_A_COEF), r->num_values); }
static void c_value_range(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    memcpy(img + sec_off(img, S_VALUES) + 2 * 32, CUZK_FR_MODULUS, 32);
}
static void c_value_zero(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    memset(img + sec_off(img, S_VALUES) + 2 * 32, 0, 32);
}
static void c_value_one(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    img[sec_off(img, S_VALUES)] ^= 1;
}
static void c_density_bit(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    img[sec_off(img, S_A_AUX) + 3] ^= 0x10;
}
static void c_density_tail(uint8_t *img, const cuzk_r1cs_t *r)
{
    /* a bit past the last aux variable */
    uint64_t bit = r->num_aux;
    img[sec_off(img, S_B_AUX) + bit / 8] |= (uint8_t)(1u << (bit % 8));
}
static void c_checksum(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    img[H_CHECKSUM + 31] ^= 0x80;
}
static void c_identity(uint8_t *img, const cuzk_r1cs_t *r)
{
    (void)r;
    img[H_IDENTITY] ^= 1;
}
static void c_coef_swap(uint8_t *img, const cuzk_r1cs_t *r)
{
    /* +1 becomes -1 in one entry: structurally valid, only the hashes notice */
    uint64_t e = 0;
    while (r->m[2].coef[e] > 1) e++;
    p32(img, sec_off(img, S_C_COEF) + 4 * e, r->m[2].coef[e] ^ 1);
}

static void test_pce_corruptions(void **state)
{
    pce_fixture *fx = *state;
    static const struct {
        corrupt_fn f;
        cuzk_status want;
    } cases[] = {
        {c_magic, CUZK_ERR_BAD_MAGIC},           {c_version, CUZK_ERR_BAD_VERSION},
        {c_hdr_size, CUZK_ERR_BAD_HEADER},       {c_nsect, CUZK_ERR_BAD_HEADER},
        {c_flags, CUZK_ERR_BAD_HEADER},          {c_reserved, CUZK_ERR_BAD_HEADER},
        {c_no_inputs, CUZK_ERR_BAD_HEADER},      {c_few_values, CUZK_ERR_BAD_HEADER},
        {c_huge_nnz, CUZK_ERR_TOO_LARGE},        {c_huge_aux, CUZK_ERR_TOO_LARGE},
        {c_rows_plus_one, CUZK_ERR_BAD_SECTION}, {c_misaligned, CUZK_ERR_BAD_SECTION},
        {c_overlap, CUZK_ERR_BAD_SECTION},       {c_beyond, CUZK_ERR_TRUNCATED},
        {c_padding, CUZK_ERR_BAD_SECTION},       {c_row_ptr_start, CUZK_ERR_R1CS_ROW_PTR},
        {c_row_ptr_back, CUZK_ERR_R1CS_ROW_PTR}, {c_row_ptr_end, CUZK_ERR_R1CS_ROW_PTR},
        {c_col_range, CUZK_ERR_R1CS_COLUMN},     {c_col_order, CUZK_ERR_R1CS_COLUMN},
        {c_coef_id, CUZK_ERR_R1CS_COEFF},        {c_value_range, CUZK_ERR_R1CS_COEFF},
        {c_value_zero, CUZK_ERR_R1CS_COEFF},     {c_value_one, CUZK_ERR_R1CS_COEFF},
        {c_density_bit, CUZK_ERR_R1CS_DENSITY},  {c_density_tail, CUZK_ERR_R1CS_DENSITY},
        {c_checksum, CUZK_ERR_CHECKSUM},         {c_identity, CUZK_ERR_CHECKSUM},
        {c_coef_swap, CUZK_ERR_CHECKSUM},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cuzk_status s = load_corrupted(fx, cases[i].f, 0);
        if (s != cases[i].want)
            fail_msg("case %zu: got %s, want %s", i, cuzk_status_str(s), cuzk_status_str(cases[i].want));
    }
    /* trusted loads skip only the hashes */
    assert_int_equal(load_corrupted(fx, c_checksum, CUZK_R1CS_PCE_TRUSTED), CUZK_OK);
    assert_int_equal(load_corrupted(fx, c_coef_swap, CUZK_R1CS_PCE_TRUSTED), CUZK_OK);
    assert_int_equal(load_corrupted(fx, c_col_range, CUZK_R1CS_PCE_TRUSTED), CUZK_ERR_R1CS_COLUMN);
}

/* Any single flipped byte, anywhere, is refused. */
static void test_pce_random_flips(void **state)
{
    pce_fixture *fx = *state;
    uint8_t *img = malloc(fx->len);
    for (int trial = 0; trial < 300; trial++) {
        memcpy(img, fx->img, fx->len);
        /* half in the header, half anywhere */
        size_t at = (size_t)(test_rand_u64() % (trial % 2 ? fx->len : 400));
        img[at] ^= (uint8_t)(1 + test_rand_u64() % 255);
        cuzk_status s = load_image(fx, img, fx->len, 0);
        if (s == CUZK_OK) fail_msg("flip at byte %zu was accepted", at);
    }
    free(img);
}

const struct CMUnitTest test_pce_tests[] = {
    cmocka_unit_test_setup_teardown(test_pce_round_trip, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_pce_truncated_and_extended, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_pce_corruptions, fixture_setup, fixture_teardown),
    cmocka_unit_test_setup_teardown(test_pce_random_flips, fixture_setup, fixture_teardown),
};
const size_t test_pce_count = sizeof test_pce_tests / sizeof test_pce_tests[0];
