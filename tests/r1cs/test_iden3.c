/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* iden3 files: .wtns round trip and rejections; circom .r1cs images written here (sections in several orders,
 * hostile variants) and imported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r1cs_tests.h"

/* bn254's scalar field order, a prime that must be refused */
static const uint64_t BN254_R[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL,
                                    0x30644e72e131a029ULL};

/* ---- a tiny iden3 container writer (tbuf from testutil.h) ---- */
static void tb_fr(tbuf *b, const cuzk_fr_t *x)
{
    uint8_t le[32];
    cuzk_fr_to_bytes_le(le, x);
    tb_put(b, le, 32);
}

typedef struct {
    uint32_t type;
    tbuf body;
} tsec;

static uint8_t *container(const char *magic, uint32_t version, tsec *s, const int *order, int n, size_t *len)
{
    tbuf out = {0};
    tb_put(&out, magic, 4);
    tb_u32(&out, version);
    tb_u32(&out, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        tsec *x = &s[order[i]];
        tb_u32(&out, x->type);
        tb_u64(&out, x->body.len);
        tb_put(&out, x->body.p, x->body.len);
    }
    *len = out.len;
    return out.p;
}

static void field_header(tbuf *b, const uint64_t prime[4])
{
    tb_u32(b, 32);
    for (int i = 0; i < 4; i++) tb_u64(b, prime[i]);
}

/* ---- .wtns ---- */

static void test_wtns_round_trip(void **state)
{
    (void)state;
    enum { N = 57 };
    cuzk_fr_t w[N];
    for (int i = 0; i < N; i++) test_rand_fr(&w[i]);
    cuzk_fr_set_one(&w[0]);
    uint8_t *buf;
    size_t len;
    assert_int_equal(cuzk_r1cs_wtns_encode(w, N, &buf, &len), CUZK_OK);
    assert_int_equal(len, 12 + 12 + 40 + 12 + 32 * N);
    /* the layout of the spec: section 1 = n8, r, count; section 2 = canonical LE values */
    assert_memory_equal(buf, "wtns", 4);
    assert_memory_equal(buf + 28, CUZK_FR_MODULUS, 32);
    uint8_t le[32];
    cuzk_fr_to_bytes_le(le, &w[5]);
    assert_memory_equal(buf + 76 + 5 * 32, le, 32);
    cuzk_fr_t *got;
    uint64_t n;
    cuzk_r1cs_err err;
    assert_int_equal(cuzk_r1cs_wtns_parse(buf, len, NULL, &got, &n, &err), CUZK_OK);
    assert_int_equal(n, N);
    assert_memory_equal(got, w, sizeof w);
    free(got);

    /* through a file, against a circuit with the right and a wrong variable count */
    char path[128];
    test_tmp_path(path, sizeof path, ".wtns");
    assert_int_equal(cuzk_r1cs_wtns_save(w, N, path, &err), CUZK_OK);
    test_circuit t;
    test_circuit_make(&t, 2, N - 2 - 3, 3); /* 2 inputs + (N-5) free + 3 out = N variables */
    assert_int_equal(cuzk_r1cs_wtns_load(path, t.r, &got, &n, &err), CUZK_OK);
    assert_memory_equal(got, w, sizeof w);
    free(got);
    test_circuit_free(&t);
    test_circuit_make(&t, 2, 10, 3);
    assert_int_equal(cuzk_r1cs_wtns_load(path, t.r, &got, &n, &err), CUZK_ERR_MISMATCH);
    assert_null(got);
    test_circuit_free(&t);
    unlink(path);
    assert_int_equal(cuzk_r1cs_wtns_load(path, NULL, &got, &n, &err), CUZK_ERR_IO);
    free(buf);
}

static cuzk_status wtns_status(const uint8_t *buf, size_t len)
{
    cuzk_fr_t *w = (cuzk_fr_t *)1;
    uint64_t n;
    cuzk_r1cs_err err = {{0}};
    cuzk_status s = cuzk_r1cs_wtns_parse(buf, len, NULL, &w, &n, &err);
    if (s == CUZK_OK) {
        free(w);
    } else {
        assert_null(w);
        assert_true(err.msg[0] != '\0');
    }
    return s;
}

/* A .wtns built section by section, with a knob for each way to get it wrong. */
static uint8_t *wtns_variant(int variant, size_t *len)
{
    enum { N = 4 };
    tsec s[3] = {{1, {0}}, {2, {0}}, {2, {0}}};
    field_header(&s[0].body, variant == 1 ? BN254_R : CUZK_FR_MODULUS);
    tb_u32(&s[0].body, variant == 2 ? N + 1 : N);
    for (int i = 0; i < N; i++) {
        cuzk_fr_t x;
        cuzk_fr_from_u64(&x, (uint64_t)i + 1);
        tb_fr(&s[1].body, &x);
    }
    if (variant == 3) memcpy(s[1].body.p + 64, CUZK_FR_MODULUS, 32); /* value 2 = r */
    if (variant == 4) s[0].body.p[0] = 48;                           /* field size 48 */
    if (variant == 5) tb_u32(&s[0].body, 0);                         /* header section too long */
    tb_put(&s[2].body, s[1].body.p, s[1].body.len);
    static const int fwd[] = {0, 1, 2}, back[] = {1, 0};
    /* variant 6: section 2 twice; 7: section 2 missing; 8: sections reversed (fine) */
    const int *order = variant == 8 ? back : fwd;
    int n = variant == 6 ? 3 : variant == 7 ? 1 : 2;
    uint8_t *img = container("wtns", variant == 9 ? 1 : 2, s, order, n, len);
    for (int i = 0; i < 3; i++) free(s[i].body.p);
    return img;
}

static void test_wtns_rejections(void **state)
{
    (void)state;
    static const cuzk_status want[] = {CUZK_OK,
                                       CUZK_ERR_WRONG_PRIME,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_NOT_CANONICAL,
                                       CUZK_ERR_WRONG_PRIME,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_OK,
                                       CUZK_ERR_BAD_VERSION};
    for (int v = 0; v < 10; v++) {
        size_t len;
        uint8_t *img = wtns_variant(v, &len);
        cuzk_status s = wtns_status(img, len);
        if (s != want[v]) fail_msg("variant %d: got %s, want %s", v, cuzk_status_str(s), cuzk_status_str(want[v]));
        free(img);
    }
    size_t len;
    uint8_t *img = wtns_variant(0, &len);
    for (size_t n = 0; n < len; n++) assert_int_equal(wtns_status(img, n), CUZK_ERR_TRUNCATED);
    img[1] = 'x';
    assert_int_equal(wtns_status(img, len), CUZK_ERR_BAD_MAGIC);
    img[1] = 't';
    img = realloc(img, len + 1);
    img[len] = 0;
    assert_int_equal(wtns_status(img, len + 1), CUZK_ERR_BAD_SECTION);
    free(img);
}

/* ---- circom .r1cs ---- */

typedef struct {
    uint32_t nwires, npub_out, npub_in, nprv_in, ncons;
} circom_header;

static void circom_header_body(tbuf *b, const circom_header *h, const uint64_t prime[4])
{
    field_header(b, prime);
    tb_u32(b, h->nwires);
    tb_u32(b, h->npub_out);
    tb_u32(b, h->npub_in);
    tb_u32(b, h->nprv_in);
    tb_u64(b, h->nwires + 5); /* labels */
    tb_u32(b, h->ncons);
}

/* The test circuit as circom would write it: wires = columns (public signals first). */
static uint8_t *circom_from_circuit(const test_circuit *t, const int *order, int nsect, size_t *len)
{
    tsec s[4] = {{1, {0}}, {2, {0}}, {3, {0}}, {4, {0}}};
    circom_header h = {t->ni + t->na, 1, t->ni - 2, 3, (uint32_t)t->rows};
    circom_header_body(&s[0].body, &h, CUZK_FR_MODULUS);
    size_t e = 0;
    for (uint64_t i = 0; i < t->rows; i++) {
        for (uint8_t k = 0; k < 3; k++) {
            size_t n = 0;
            while (e + n < t->nent && t->ent[e + n].row == i && t->ent[e + n].k == k) n++;
            tb_u32(&s[1].body, (uint32_t)n);
            for (size_t j = 0; j < n; j++) {
                tb_u32(&s[1].body, t->ent[e + j].col);
                tb_fr(&s[1].body, &t->ent[e + j].coeff);
            }
            e += n;
        }
    }
    assert_int_equal(e, t->nent);
    for (uint32_t w = 0; w < h.nwires; w++) tb_u64(&s[2].body, w * 3ULL);
    tb_u32(&s[3].body, 0); /* a custom-gates section: ignored */
    uint8_t *img = container("r1cs", 1, s, order, nsect, len);
    for (int i = 0; i < 4; i++) free(s[i].body.p);
    return img;
}

static cuzk_status circom_status(const uint8_t *buf, size_t len)
{
    cuzk_r1cs_t *r = (cuzk_r1cs_t *)1;
    cuzk_r1cs_err err = {{0}};
    cuzk_status s = cuzk_r1cs_circom_parse(buf, len, &r, &err);
    if (s == CUZK_OK) {
        cuzk_r1cs_free(r);
    } else {
        assert_null(r);
        assert_true(err.msg[0] != '\0');
    }
    return s;
}

static void test_circom_import(void **state)
{
    (void)state;
    test_circuit t;
    test_circuit_make(&t, 4, 30, 40);
    static const int orders[4][4] = {{1, 0, 2, 3}, {0, 1, 2, 3}, {3, 2, 1, 0}, {2, 3, 0, 1}};
    for (int o = 0; o < 4; o++) {
        size_t len;
        uint8_t *img = circom_from_circuit(&t, orders[o], o == 1 ? 2 : 4, &len);
        cuzk_r1cs_t *r;
        cuzk_r1cs_err err;
        assert_int_equal(cuzk_r1cs_circom_parse(img, len, &r, &err), CUZK_OK);
        /* the same matrices, so the same canonical system and identity as the builder produced */
        assert_true(test_r1cs_equal(r, t.r));
        assert_int_equal(cuzk_r1cs_check(r, t.z, 1, NULL), CUZK_OK);
        cuzk_r1cs_free(r);
        if (o == 0) {
            char path[128];
            test_tmp_path(path, sizeof path, ".r1cs");
            FILE *f = fopen(path, "wb");
            assert_int_equal(fwrite(img, 1, len, f), len);
            fclose(f);
            assert_int_equal(cuzk_r1cs_circom_load(path, &r, &err), CUZK_OK);
            assert_true(test_r1cs_equal(r, t.r));
            cuzk_r1cs_free(r);
            unlink(path);
        }
        free(img);
    }
    test_circuit_free(&t);
}

/* circom's multiplier (c = a·b, c public output, a and b private) with knobs for hostile variants. */
static uint8_t *multiplier(int variant, size_t *len)
{
    tsec s[3] = {{1, {0}}, {2, {0}}, {3, {0}}};
    circom_header h = {4, 1, 0, 2, 1};
    if (variant == 1) h.nwires = 1;         /* too few wires for ONE and the output */
    if (variant == 2) h.ncons = UINT32_MAX; /* more constraints than bytes */
    if (variant == 3) h.nwires = 0x80000005u;
    if (variant == 4) h.nprv_in = 3; /* more private inputs than wires left */
    circom_header_body(&s[0].body, &h, variant == 5 ? BN254_R : CUZK_FR_MODULUS);
    cuzk_fr_t one, minus_one;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&minus_one, &one);
    tbuf *c = &s[1].body;
    tb_u32(c, variant == 6 ? 100000 : 1); /* A = -a */
    tb_u32(c, variant == 7 ? 4 : 2);      /* wire 4 does not exist */
    if (variant == 8) {
        tb_put(c, CUZK_FR_MODULUS, 32); /* coefficient r */
    } else {
        tb_fr(c, &minus_one);
    }
    tb_u32(c, 1); /* B = b */
    tb_u32(c, 3);
    tb_fr(c, &one);
    tb_u32(c, 1); /* C = -c */
    tb_u32(c, 1);
    tb_fr(c, &minus_one);
    if (variant == 9) tb_u32(c, 0); /* trailing bytes in the section */
    for (uint32_t w = 0; w < 4; w++) tb_u64(&s[2].body, w);
    static const int normal[] = {1, 0, 2}, dup[] = {1, 0, 0}, missing[] = {0, 2};
    const int *order = variant == 10 ? dup : variant == 11 ? missing : normal;
    uint8_t *img = container("r1cs", variant == 12 ? 2 : 1, s, order, variant == 11 ? 2 : 3, len);
    for (int i = 0; i < 3; i++) free(s[i].body.p);
    return img;
}

static void test_circom_rejections(void **state)
{
    (void)state;
    static const cuzk_status want[] = {CUZK_OK,
                                       CUZK_ERR_BAD_HEADER,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_TOO_LARGE,
                                       CUZK_ERR_BAD_HEADER,
                                       CUZK_ERR_WRONG_PRIME,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_R1CS_COLUMN,
                                       CUZK_ERR_R1CS_COEFF,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_BAD_SECTION,
                                       CUZK_ERR_BAD_VERSION};
    for (int v = 0; v < 13; v++) {
        size_t len;
        uint8_t *img = multiplier(v, &len);
        cuzk_status s = circom_status(img, len);
        if (s != want[v]) fail_msg("variant %d: got %s, want %s", v, cuzk_status_str(s), cuzk_status_str(want[v]));
        free(img);
    }
    /* the valid multiplier: c = a·b with witness (1, 6, 2, 3), and truncation at every byte */
    size_t len;
    uint8_t *img = multiplier(0, &len);
    cuzk_r1cs_t *r;
    assert_int_equal(cuzk_r1cs_circom_parse(img, len, &r, NULL), CUZK_OK);
    assert_int_equal(r->num_inputs, 2);
    assert_int_equal(r->num_aux, 2);
    cuzk_fr_t z[4];
    for (int i = 0; i < 4; i++) cuzk_fr_from_u64(&z[i], (uint64_t[]){1, 6, 2, 3}[i]);
    assert_int_equal(cuzk_r1cs_check(r, z, 1, NULL), CUZK_OK);
    cuzk_fr_from_u64(&z[1], 7);
    uint64_t bad = 9;
    assert_int_equal(cuzk_r1cs_check(r, z, 1, &bad), CUZK_ERR_R1CS_UNSATISFIED);
    assert_int_equal(bad, 0);
    cuzk_r1cs_free(r);
    for (size_t n = 0; n < len; n++) assert_int_equal(circom_status(img, n), CUZK_ERR_TRUNCATED);
    img[0] = 'R';
    assert_int_equal(circom_status(img, len), CUZK_ERR_BAD_MAGIC);
    free(img);
}

const struct CMUnitTest test_iden3_tests[] = {
    cmocka_unit_test(test_wtns_round_trip),
    cmocka_unit_test(test_wtns_rejections),
    cmocka_unit_test(test_circom_import),
    cmocka_unit_test(test_circom_rejections),
};
const size_t test_iden3_count = sizeof test_iden3_tests / sizeof test_iden3_tests[0];
