/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Key files and JSON: bellperson .params/.vk round trips and rejections, snarkjs .zkey images written here (sections
 * in several orders, hostile variants) and loaded, snarkjs JSON round trips and malformed inputs. Keys are random
 * points (multiples of the generators), no setup needed. The list at the end runs from test_prove.c's main. */
#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g16_circuits.h"

/* ---- helpers ----------------------------------------------------------------------------------------------------- */

static void rand_g1(cuzk_g1_affine_t *r)
{
    uint64_t k[4];
    for (int i = 0; i < 4; i++) k[i] = test_rand_u64();
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t j;
    cuzk_g1_generator(&g);
    cuzk_g1_jac_from_affine(&j, &g);
    cuzk_g1_jac_mul(&j, &j, k, 4);
    cuzk_g1_jac_to_affine(r, &j);
}

static void rand_g2(cuzk_g2_affine_t *r)
{
    uint64_t k[4];
    for (int i = 0; i < 4; i++) k[i] = test_rand_u64();
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t j;
    cuzk_g2_generator(&g);
    cuzk_g2_jac_from_affine(&j, &g);
    cuzk_g2_jac_mul(&j, &j, k, 4);
    cuzk_g2_jac_to_affine(r, &j);
}

/* Points on the curves but (with overwhelming probability, asserted) outside the order-r subgroups. */
static void off_subgroup_g1(cuzk_g1_affine_t *r)
{
    for (;;) {
        test_rand_fp(&r->x);
        cuzk_fp_t y2;
        cuzk_g1_curve_rhs(&y2, &r->x);
        if (cuzk_fp_sqrt(&r->y, &y2)) break;
    }
    assert_true(cuzk_g1_affine_on_curve(r));
    assert_false(cuzk_g1_affine_in_subgroup(r));
}

static void off_subgroup_g2(cuzk_g2_affine_t *r)
{
    for (;;) {
        test_rand_fp2(&r->x);
        cuzk_fp2_t y2;
        cuzk_g2_curve_rhs(&y2, &r->x);
        if (cuzk_fp2_sqrt(&r->y, &y2)) break;
    }
    assert_true(cuzk_g2_affine_on_curve(r));
    assert_false(cuzk_g2_affine_in_subgroup(r));
}

/* Scratch files live in memory (/dev/shm) when it exists: the truncation tests write thousands of them. */
static char *tmp_path(const char *tag)
{
    static char buf[8][128];
    static int next;
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    char *p = buf[next++ % 8];
    snprintf(p, 128, "%s/cuzk-test-formats-%d-%s", dir, (int)getpid(), tag);
    return p;
}

static void write_bytes(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static uint8_t *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(len ? (size_t)len : 1);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* A random bellperson-convention key: every point in one block, as the loader stores it. */
static void rand_pk(cuzk_groth16_pk *pk, uint64_t ic, uint64_t h, uint64_t l, uint64_t a, uint64_t b)
{
    memset(pk, 0, sizeof *pk);
    uint64_t g1n = ic + h + l + a + b;
    uint8_t *block = malloc(g1n * sizeof(cuzk_g1_affine_t) + b * sizeof(cuzk_g2_affine_t));
    cuzk_g1_affine_t *g1 = (cuzk_g1_affine_t *)block;
    for (uint64_t i = 0; i < g1n; i++) rand_g1(&g1[i]);
    pk->conv = CUZK_GROTH16_BELLPERSON;
    rand_g1(&pk->vk.alpha_g1);
    rand_g1(&pk->vk.beta_g1);
    rand_g1(&pk->vk.delta_g1);
    rand_g2(&pk->vk.beta_g2);
    rand_g2(&pk->vk.gamma_g2);
    rand_g2(&pk->vk.delta_g2);
    pk->vk.ic = g1;
    pk->vk.num_inputs = ic;
    pk->h = g1 += ic;
    pk->h_len = h;
    pk->l = g1 += h;
    pk->l_len = l;
    pk->a = g1 += l;
    pk->a_len = a;
    pk->b_g1 = g1 += a;
    pk->b_len = b;
    pk->b_g2 = (cuzk_g2_affine_t *)(g1 + b);
    for (uint64_t i = 0; i < b; i++) rand_g2(&pk->b_g2[i]);
    pk->num_aux = l;
    pk->domain_size = h + 1;
    pk->storage = block;
}

static void assert_g1s_equal(const cuzk_g1_affine_t *x, const cuzk_g1_affine_t *y, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) assert_true(cuzk_g1_affine_eq(&x[i], &y[i]));
}

static void assert_g2s_equal(const cuzk_g2_affine_t *x, const cuzk_g2_affine_t *y, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) assert_true(cuzk_g2_affine_eq(&x[i], &y[i]));
}

static void assert_vk_equal(const cuzk_groth16_vk *x, const cuzk_groth16_vk *y, bool with_g1_extras)
{
    assert_true(cuzk_g1_affine_eq(&x->alpha_g1, &y->alpha_g1));
    if (with_g1_extras) {
        assert_true(cuzk_g1_affine_eq(&x->beta_g1, &y->beta_g1));
        assert_true(cuzk_g1_affine_eq(&x->delta_g1, &y->delta_g1));
    }
    assert_true(cuzk_g2_affine_eq(&x->beta_g2, &y->beta_g2));
    assert_true(cuzk_g2_affine_eq(&x->gamma_g2, &y->gamma_g2));
    assert_true(cuzk_g2_affine_eq(&x->delta_g2, &y->delta_g2));
    assert_int_equal(x->num_inputs, y->num_inputs);
    assert_g1s_equal(x->ic, y->ic, x->num_inputs);
}

static void assert_pk_points_equal(const cuzk_groth16_pk *x, const cuzk_groth16_pk *y)
{
    assert_int_equal(x->conv, y->conv);
    assert_vk_equal(&x->vk, &y->vk, true);
    assert_int_equal(x->num_aux, y->num_aux);
    assert_int_equal(x->domain_size, y->domain_size);
    assert_int_equal(x->h_len, y->h_len);
    assert_int_equal(x->l_len, y->l_len);
    assert_int_equal(x->a_len, y->a_len);
    assert_int_equal(x->b_len, y->b_len);
    assert_g1s_equal(x->h, y->h, x->h_len);
    assert_g1s_equal(x->l, y->l, x->l_len);
    assert_g1s_equal(x->a, y->a, x->a_len);
    assert_g1s_equal(x->b_g1, y->b_g1, x->b_len);
    assert_g2s_equal(x->b_g2, y->b_g2, x->b_len);
}

static bool msg_has(const cuzk_errmsg *e, const char *needle)
{
    if (strstr(e->msg, needle) != NULL) return true;
    fprintf(stderr, "detail \"%s\" lacks \"%s\"\n", e->msg, needle);
    return false;
}

/* ---- .params / .vk ----------------------------------------------------------------------------------------------- */

/* Sizes of the key of rand_params: ic 3, h 7 (domain 8), l 5, a 6, b 4. */
enum { P_IC = 3, P_H = 7, P_L = 5, P_A = 6, P_B = 4 };
#define P_VK_BYTES (864 + 4 + 96 * P_IC)
/* offsets of each count in the file */
#define P_OFF_H (P_VK_BYTES)
#define P_OFF_L (P_OFF_H + 4 + 96 * P_H)
#define P_OFF_A (P_OFF_L + 4 + 96 * P_L)
#define P_OFF_B1 (P_OFF_A + 4 + 96 * P_A)
#define P_OFF_B2 (P_OFF_B1 + 4 + 96 * P_B)
#define P_FILE_BYTES (P_OFF_B2 + 4 + 192 * P_B)

/* Writes a random key and returns its file image. */
static uint8_t *params_image(cuzk_groth16_pk *pk, size_t *len)
{
    rand_pk(pk, P_IC, P_H, P_L, P_A, P_B);
    const char *path = tmp_path("img.params");
    assert_int_equal(cuzk_groth16_params_write(pk, path, NULL), CUZK_OK);
    uint8_t *img = read_bytes(path, len);
    unlink(path);
    assert_int_equal(*len, P_FILE_BYTES);
    return img;
}

static cuzk_status params_load_bytes(const uint8_t *b, size_t n, unsigned flags, cuzk_groth16_pk *out, cuzk_errmsg *err)
{
    const char *path = tmp_path("in.params");
    write_bytes(path, b, n);
    cuzk_status s = cuzk_groth16_params_load(out, path, flags, 2, err);
    unlink(path);
    return s;
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void test_params_round_trip(void **state)
{
    (void)state;
    cuzk_groth16_pk pk, back, back1;
    size_t len, len2;
    uint8_t *img = params_image(&pk, &len);
    /* the spec's size formula: 868 + 96·IC + 20 + 96·(|h| + |l| + |a| + |b|) + 192·|b| */
    assert_int_equal(len, 868 + 96 * P_IC + 20 + 96 * (P_H + P_L + P_A + P_B) + 192 * P_B);
    /* counts are big-endian u32 right after the vk points */
    assert_int_equal(img[864] << 24 | img[865] << 16 | img[866] << 8 | img[867], P_IC);

    const char *path = tmp_path("rt.params"), *path2 = tmp_path("rt2.params");
    write_bytes(path, img, len);
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_params_load(&back, path, CUZK_GROTH16_LOAD_SUBGROUP, 3, &err), CUZK_OK);
    assert_pk_points_equal(&pk, &back);
    assert_null(back.circuit);
    assert_int_equal(back.domain_size, P_H + 1);
    assert_int_equal(back.num_aux, P_L);
    assert_int_equal(back.vk.num_inputs, P_IC);
    assert_int_equal(cuzk_groth16_params_load(&back1, path, 0, 1, NULL), CUZK_OK);
    assert_pk_points_equal(&pk, &back1);

    /* writing what was read gives the same bytes */
    assert_int_equal(cuzk_groth16_params_write(&back, path2, NULL), CUZK_OK);
    uint8_t *img2 = read_bytes(path2, &len2);
    assert_int_equal(len2, len);
    assert_memory_equal(img, img2, len);

    unlink(path);
    unlink(path2);
    free(img);
    free(img2);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_pk_free(&back);
    cuzk_groth16_pk_free(&back1);
}

static void test_vk_round_trip(void **state)
{
    (void)state;
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    size_t len, vlen;
    uint8_t *img = params_image(&pk, &len);
    const char *path = tmp_path("rt.vk");
    assert_int_equal(cuzk_groth16_vk_write(&pk.vk, path, NULL), CUZK_OK);
    uint8_t *vimg = read_bytes(path, &vlen);
    /* a .vk is exactly the vk prefix of the .params: 868 + 96·IC bytes */
    assert_int_equal(vlen, 868 + 96 * P_IC);
    assert_memory_equal(vimg, img, vlen);
    assert_int_equal(cuzk_groth16_vk_load(&vk, path, NULL), CUZK_OK);
    assert_vk_equal(&pk.vk, &vk, true);
    assert_ptr_equal(vk.storage, vk.ic);
    cuzk_groth16_vk_free(&vk);

    cuzk_errmsg err = {{0}};
    /* a .params is not a .vk: named for what it is */
    write_bytes(path, img, len);
    assert_int_equal(cuzk_groth16_vk_load(&vk, path, &err), CUZK_ERR_BAD_MAGIC);
    assert_true(msg_has(&err, "vk: this is a bellperson parameters (.params), not a bellperson verifying key (.vk)"));
    /* nor a .vk with bytes appended */
    uint8_t *longer = malloc(vlen + 30);
    memcpy(longer, vimg, vlen);
    memset(longer + vlen, 0, 30);
    write_bytes(path, longer, vlen + 30);
    free(longer);
    assert_int_equal(cuzk_groth16_vk_load(&vk, path, &err), CUZK_ERR_BAD_LENGTH);
    assert_true(msg_has(&err, "30 trailing bytes after ic"));
    /* truncated at every length */
    for (size_t n = 0; n < vlen; n++) {
        write_bytes(path, vimg, n);
        assert_int_equal(cuzk_groth16_vk_load(&vk, path, NULL), CUZK_ERR_TRUNCATED);
    }
    /* a verifying key is always subgroup-checked */
    cuzk_g1_affine_t bad;
    off_subgroup_g1(&bad);
    cuzk_g1_to_uncompressed(vimg + 868 + 96, &bad);
    write_bytes(path, vimg, vlen);
    assert_int_equal(cuzk_groth16_vk_load(&vk, path, &err), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_true(msg_has(&err, "ic[1]"));
    assert_null(vk.ic);
    unlink(path);
    free(img);
    free(vimg);
    cuzk_groth16_pk_free(&pk);
}

static void test_params_truncated(void **state)
{
    (void)state;
    cuzk_groth16_pk pk, out;
    size_t len;
    uint8_t *img = params_image(&pk, &len);
    /* no proper prefix is a key: every length ends inside a point or before a count */
    for (size_t n = 0; n < len; n += (n < 1200 ? 1 : 7)) {
        cuzk_errmsg err = {{0}};
        /* cut right after IC it is a whole .vk, and named so */
        cuzk_status want = n == 868 + 96 * P_IC ? CUZK_ERR_BAD_MAGIC : CUZK_ERR_TRUNCATED;
        assert_int_equal(params_load_bytes(img, n, 0, &out, &err), want);
        assert_null(out.storage);
        assert_true(err.msg[0] != '\0');
    }
    assert_int_equal(params_load_bytes(img, len - 1, 0, &out, NULL), CUZK_ERR_TRUNCATED);
    free(img);
    cuzk_groth16_pk_free(&pk);
}

static void test_params_hostile_counts(void **state)
{
    (void)state;
    cuzk_groth16_pk pk, out;
    size_t len;
    uint8_t *img = params_image(&pk, &len);
    uint8_t *b = malloc(len + 200);
    cuzk_errmsg err = {{0}};
    const size_t count_off[] = {864, P_OFF_H, P_OFF_L, P_OFF_A, P_OFF_B1, P_OFF_B2};
    const char *names[] = {"ic", "h", "l", "a", "b_g1", "b_g2"};
    /* a count larger than the file could hold is refused before anything is allocated */
    for (int k = 0; k < 6; k++) {
        memcpy(b, img, len);
        put_be32(b + count_off[k], 0xffffffffu);
        assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_TRUNCATED);
        assert_true(msg_has(&err, names[k]));
        /* one more point than present */
        memcpy(b, img, len);
        uint32_t n = (uint32_t)(b[count_off[k] + 3] + 1);
        put_be32(b + count_off[k], n);
        assert_int_equal(params_load_bytes(b, len, 0, &out, NULL), CUZK_ERR_TRUNCATED);
    }
    /* trailing garbage */
    memcpy(b, img, len);
    memset(b + len, 0xab, 200);
    assert_int_equal(params_load_bytes(b, len + 1, 0, &out, &err), CUZK_ERR_BAD_LENGTH);
    assert_true(msg_has(&err, "trailing"));
    assert_int_equal(params_load_bytes(b, len + 200, 0, &out, NULL), CUZK_ERR_BAD_LENGTH);

    /* h of 6 points (domain 7, not a power of two): drop the last h point and fix the count */
    size_t cut = P_OFF_L - 96;
    memcpy(b, img, cut);
    memcpy(b + cut, img + cut + 96, len - cut - 96);
    put_be32(b + P_OFF_H, P_H - 1);
    assert_int_equal(params_load_bytes(b, len - 96, 0, &out, &err), CUZK_ERR_BAD_HEADER);
    assert_true(msg_has(&err, "no power of two"));

    /* b_g2 one point shorter than b_g1 */
    memcpy(b, img, len);
    put_be32(b + P_OFF_B2, P_B - 1);
    assert_int_equal(params_load_bytes(b, len - 192, 0, &out, &err), CUZK_ERR_BAD_HEADER);
    assert_true(msg_has(&err, "b_g2"));

    /* no ic at all (ONE is always an input) */
    memcpy(b, img, 864);
    put_be32(b + 864, 0);
    memcpy(b + 868, img + 868 + 96 * P_IC, len - 868 - 96 * P_IC);
    assert_int_equal(params_load_bytes(b, len - 96 * P_IC, 0, &out, &err), CUZK_ERR_BAD_HEADER);
    assert_true(msg_has(&err, "ic"));

    /* more a points than variables (ic + l = 8): move 3 l points' worth of bytes over to a */
    memcpy(b, img, len);
    put_be32(b + P_OFF_L, P_L - 3);
    put_be32(b + P_OFF_L + 4 + 96 * (P_L - 3), P_A + 3);
    assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_BAD_HEADER);
    assert_true(msg_has(&err, "variables"));

    /* missing file */
    assert_int_equal(cuzk_groth16_params_load(&out, tmp_path("does-not-exist"), 0, 1, &err), CUZK_ERR_IO);
    free(b);
    free(img);
    cuzk_groth16_pk_free(&pk);
}

/* Byte offset of point i of the array whose count is at count_off. */
static size_t p_point(size_t count_off, size_t i, size_t bytes) { return count_off + 4 + i * bytes; }

static void test_params_corrupt_points(void **state)
{
    (void)state;
    cuzk_groth16_pk pk, out;
    size_t len;
    uint8_t *img = params_image(&pk, &len);
    uint8_t *b = malloc(len);
    cuzk_errmsg err = {{0}};

    /* a flipped low bit of x: the point leaves the curve */
    memcpy(b, img, len);
    b[p_point(P_OFF_H, 2, 96) + 47] ^= 1;
    assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_NOT_ON_CURVE);
    assert_true(msg_has(&err, "h[2]"));
    assert_null(out.storage);

    memcpy(b, img, len);
    b[p_point(P_OFF_B2, 3, 192) + 100] ^= 0x10;
    assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_NOT_ON_CURVE);
    assert_true(msg_has(&err, "b_g2[3]"));

    memcpy(b, img, len);
    b[10] ^= 4; /* inside alpha_g1's x */
    assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_NOT_ON_CURVE);
    assert_true(msg_has(&err, "alpha_g1"));

    /* compression flag and sort flag are invalid in an uncompressed encoding */
    memcpy(b, img, len);
    b[p_point(P_OFF_L, 1, 96)] |= 0x80;
    assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_BAD_FLAGS);
    assert_true(msg_has(&err, "l[1]"));
    memcpy(b, img, len);
    b[p_point(P_OFF_A, 0, 96)] |= 0x20;
    assert_int_equal(params_load_bytes(b, len, 0, &out, NULL), CUZK_ERR_BAD_FLAGS);

    /* a coordinate >= p (p starts 0x1a01...) */
    memcpy(b, img, len);
    memset(b + p_point(P_OFF_B1, 2, 96), 0xff, 48);
    b[p_point(P_OFF_B1, 2, 96)] = 0x1f;
    assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_COORD_RANGE);
    assert_true(msg_has(&err, "b_g1[2]"));

    /* infinity, as bellperson, is refused everywhere */
    memcpy(b, img, len);
    memset(b + p_point(P_OFF_A, 4, 96), 0, 96);
    b[p_point(P_OFF_A, 4, 96)] = 0x40;
    assert_int_equal(params_load_bytes(b, len, 0, &out, &err), CUZK_ERR_INFINITY);
    assert_true(msg_has(&err, "a[4]"));

    /* a curve point outside the subgroup: refused only when asked to check */
    cuzk_g1_affine_t o1;
    cuzk_g2_affine_t o2;
    off_subgroup_g1(&o1);
    off_subgroup_g2(&o2);
    memcpy(b, img, len);
    cuzk_g1_to_uncompressed(b + p_point(P_OFF_L, 0, 96), &o1);
    assert_int_equal(params_load_bytes(b, len, CUZK_GROTH16_LOAD_SUBGROUP, &out, &err), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_true(msg_has(&err, "l[0]"));
    assert_int_equal(params_load_bytes(b, len, 0, &out, NULL), CUZK_OK);
    assert_true(cuzk_g1_affine_eq(&out.l[0], &o1));
    cuzk_groth16_pk_free(&out);
    memcpy(b, img, len);
    cuzk_g2_to_uncompressed(b + 96 * 2 + 192, &o2); /* gamma_g2 */
    assert_int_equal(params_load_bytes(b, len, CUZK_GROTH16_LOAD_SUBGROUP, &out, &err), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_true(msg_has(&err, "gamma_g2"));

    free(b);
    free(img);
    cuzk_groth16_pk_free(&pk);
}

static void test_params_write_rejects(void **state)
{
    (void)state;
    cuzk_groth16_pk pk;
    cuzk_errmsg err = {{0}};
    const char *path = tmp_path("w.params");
    rand_pk(&pk, P_IC, P_H, P_L, P_A, P_B);
    cuzk_g1_affine_set_infinity(&pk.l[2]);
    assert_int_equal(cuzk_groth16_params_write(&pk, path, &err), CUZK_ERR_INFINITY);
    assert_true(msg_has(&err, "l[2]"));
    assert_int_equal(access(path, F_OK), -1); /* no partial file left */
    rand_g1(&pk.l[2]);
    pk.conv = CUZK_GROTH16_SNARKJS;
    assert_int_equal(cuzk_groth16_params_write(&pk, path, NULL), CUZK_ERR_INVALID_ARG);
    pk.conv = CUZK_GROTH16_BELLPERSON;
    assert_int_equal(cuzk_groth16_params_write(&pk, "/nonexistent-dir/x.params", NULL), CUZK_ERR_IO);
    cuzk_groth16_pk_free(&pk);
}

/* ---- .zkey ------------------------------------------------------------------------------------------------------- */

static void tb_g1(tbuf *b, const cuzk_g1_affine_t *p)
{
    uint8_t e[96];
    cuzk_g1_to_iden3(e, p);
    tb_put(b, e, 96);
}
static void tb_g2(tbuf *b, const cuzk_g2_affine_t *p)
{
    uint8_t e[192];
    cuzk_g2_to_iden3(e, p);
    tb_put(b, e, 192);
}

typedef struct {
    uint32_t matrix, row, sig;
    cuzk_fr_t coef;
} zcoef;

/* A snarkjs-shaped key: N = 7 variables, P = 2 public, m = 3 constraints, hence rows m + P + 1 = 6, n = 8. */
enum { Z_N = 7, Z_P = 2, Z_M = 3, Z_ROWS = Z_M + Z_P + 1, Z_DOMAIN = 8 };

typedef struct {
    cuzk_groth16_pk pk; /* points, SNARKJS layout; circuit NULL */
    uint32_t nvars, npub, domain;
    zcoef *coefs;
    uint32_t ncoef;
} zmodel;

static void zmodel_free(zmodel *z)
{
    cuzk_groth16_pk_free(&z->pk);
    free(z->coefs);
}

/* 2^512 mod r: the factor snarkjs stores coefficients with (value = coef·R², R = 2^256). */
static void r_squared(cuzk_fr_t *r2)
{
    cuzk_fr_t two;
    const uint64_t e = 512;
    cuzk_fr_from_u64(&two, 2);
    cuzk_fr_pow(r2, &two, &e, 1);
}

static void zmodel_init(zmodel *z)
{
    memset(z, 0, sizeof *z);
    z->coefs = malloc(64 * sizeof *z->coefs);
    z->nvars = Z_N;
    z->npub = Z_P;
    z->domain = Z_DOMAIN;
    cuzk_groth16_pk *pk = &z->pk;
    uint64_t g1n = (Z_P + 1) + 2 * Z_N + (Z_N - Z_P - 1) + Z_DOMAIN;
    uint8_t *block = malloc(g1n * sizeof(cuzk_g1_affine_t) + Z_N * sizeof(cuzk_g2_affine_t));
    cuzk_g1_affine_t *g1 = (cuzk_g1_affine_t *)block;
    for (uint64_t i = 0; i < g1n; i++) rand_g1(&g1[i]);
    pk->storage = block;
    pk->conv = CUZK_GROTH16_SNARKJS;
    rand_g1(&pk->vk.alpha_g1);
    rand_g1(&pk->vk.beta_g1);
    rand_g1(&pk->vk.delta_g1);
    rand_g2(&pk->vk.beta_g2);
    cuzk_g2_generator(&pk->vk.gamma_g2); /* snarkjs keeps γ = 1 */
    rand_g2(&pk->vk.delta_g2);
    pk->vk.ic = g1;
    pk->vk.num_inputs = Z_P + 1;
    pk->a = g1 += Z_P + 1;
    pk->b_g1 = g1 += Z_N;
    pk->l = g1 += Z_N;
    pk->h = g1 += Z_N - Z_P - 1;
    pk->b_g2 = (cuzk_g2_affine_t *)(g1 + Z_DOMAIN);
    for (int i = 0; i < Z_N; i++) rand_g2(&pk->b_g2[i]);
    /* wire 0 never in B: its B points are infinity, as in real keys */
    cuzk_g1_affine_set_infinity(&pk->b_g1[0]);
    cuzk_g2_affine_set_infinity(&pk->b_g2[0]);
    cuzk_g1_affine_set_infinity(&pk->a[5]);
    pk->num_aux = Z_N - Z_P - 1;
    pk->domain_size = Z_DOMAIN;
    pk->h_len = Z_DOMAIN;
    pk->l_len = Z_N - Z_P - 1;
    pk->a_len = pk->b_len = Z_N;

    /* random A and B entries for the m constraints (sorted by constraint, as snarkjs writes them) */
    for (uint32_t c = 0; c < Z_M; c++)
        for (uint32_t mat = 0; mat < 2; mat++)
            for (int t = 0; t < 3; t++) {
                zcoef *e = &z->coefs[z->ncoef++];
                e->matrix = mat;
                e->row = c;
                e->sig = (uint32_t)(test_rand_u64() % Z_N);
                test_rand_fr(&e->coef);
            }
    /* a repeated (matrix, row, signal) whose values must be summed, and a -1 */
    z->coefs[z->ncoef] = z->coefs[0];
    test_rand_fr(&z->coefs[z->ncoef++].coef);
    zcoef *neg = &z->coefs[z->ncoef++];
    *neg = (zcoef){1, Z_M - 1, Z_N - 1, {{0}}};
    cuzk_fr_set_one(&neg->coef);
    cuzk_fr_neg(&neg->coef, &neg->coef);
    /* the input rows: (A, m + i, signal i, 1) */
    for (uint32_t i = 0; i <= Z_P; i++) {
        zcoef *e = &z->coefs[z->ncoef++];
        *e = (zcoef){0, Z_M + i, i, {{0}}};
        cuzk_fr_set_one(&e->coef);
    }
}

/* The circuit the loader should build, through the builder from the same entries. */
static cuzk_r1cs_t *zmodel_circuit(const zmodel *z, uint32_t rows)
{
    uint32_t ni = z->npub + 1;
    cuzk_r1cs_builder *b = cuzk_r1cs_builder_new(ni);
    cuzk_r1cs_var first;
    assert_int_equal(cuzk_r1cs_builder_alloc_aux_n(b, z->nvars - ni, &first), CUZK_OK);
    for (uint32_t r = 0; r < rows; r++) {
        cuzk_r1cs_term t[2][64];
        size_t n[2] = {0, 0};
        for (uint32_t k = 0; k < z->ncoef; k++) {
            const zcoef *e = &z->coefs[k];
            if (e->row != r) continue;
            cuzk_r1cs_term *x = &t[e->matrix][n[e->matrix]++];
            x->var = e->sig < ni ? CUZK_R1CS_INPUT(e->sig) : CUZK_R1CS_AUX(e->sig - ni);
            x->coeff = e->coef;
        }
        assert_int_equal(cuzk_r1cs_builder_enforce(b, t[0], n[0], t[1], n[1], NULL, 0), CUZK_OK);
    }
    cuzk_r1cs_t *out;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &out), CUZK_OK);
    return out;
}

/* Section bodies, index = type - 1 (10 sections). */
static void zmodel_sections(const zmodel *z, tbuf s[10])
{
    memset(s, 0, 10 * sizeof *s);
    const cuzk_groth16_pk *pk = &z->pk;
    tb_u32(&s[0], 1);
    /* header */
    tbuf *h = &s[1];
    tb_u32(h, 48);
    tb_put(h, CUZK_FP_MODULUS, 48);
    tb_u32(h, 32);
    tb_put(h, CUZK_FR_MODULUS, 32);
    tb_u32(h, z->nvars);
    tb_u32(h, z->npub);
    tb_u32(h, z->domain);
    tb_g1(h, &pk->vk.alpha_g1);
    tb_g1(h, &pk->vk.beta_g1);
    tb_g2(h, &pk->vk.beta_g2);
    tb_g2(h, &pk->vk.gamma_g2);
    tb_g1(h, &pk->vk.delta_g1);
    tb_g2(h, &pk->vk.delta_g2);
    for (uint64_t i = 0; i < pk->vk.num_inputs; i++) tb_g1(&s[2], &pk->vk.ic[i]);
    /* coefficients: value = coef·R² mod r, canonical little-endian */
    cuzk_fr_t r2;
    r_squared(&r2);
    tb_u32(&s[3], z->ncoef);
    for (uint32_t k = 0; k < z->ncoef; k++) {
        const zcoef *e = &z->coefs[k];
        cuzk_fr_t v;
        uint8_t le[32];
        cuzk_fr_mul(&v, &e->coef, &r2);
        cuzk_fr_to_bytes_le(le, &v);
        tb_u32(&s[3], e->matrix);
        tb_u32(&s[3], e->row);
        tb_u32(&s[3], e->sig);
        tb_put(&s[3], le, 32);
    }
    for (uint64_t i = 0; i < pk->a_len; i++) tb_g1(&s[4], &pk->a[i]);
    for (uint64_t i = 0; i < pk->b_len; i++) tb_g1(&s[5], &pk->b_g1[i]);
    for (uint64_t i = 0; i < pk->b_len; i++) tb_g2(&s[6], &pk->b_g2[i]);
    for (uint64_t i = 0; i < pk->l_len; i++) tb_g1(&s[7], &pk->l[i]);
    for (uint64_t i = 0; i < pk->h_len; i++) tb_g1(&s[8], &pk->h[i]);
    /* section 10 (MPC transcript): a hash and no contributions; the loader ignores it */
    uint8_t hash[64];
    test_rand_bytes(hash, 64);
    tb_put(&s[9], hash, 64);
    tb_u32(&s[9], 0);
}

static void sections_free(tbuf s[10])
{
    for (int i = 0; i < 10; i++) free(s[i].p);
}

/* order lists section types (1..10, repeats allowed) */
static uint8_t *zkey_image(const tbuf s[10], const int *order, int n, size_t *len)
{
    tbuf out = {0};
    tb_put(&out, "zkey", 4);
    tb_u32(&out, 1);
    tb_u32(&out, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        const tbuf *b = &s[order[i] - 1];
        tb_u32(&out, (uint32_t)order[i]);
        tb_u64(&out, b->len);
        tb_put(&out, b->p, b->len);
    }
    *len = out.len;
    return out.p;
}

static const int SETUP_ORDER[10] = {1, 2, 4, 3, 9, 8, 5, 6, 7, 10};

static cuzk_status zkey_load_bytes(const uint8_t *b, size_t n, unsigned flags, cuzk_groth16_pk *out, cuzk_errmsg *err)
{
    const char *path = tmp_path("in.zkey");
    write_bytes(path, b, n);
    cuzk_status s = cuzk_groth16_zkey_load(out, path, flags, 2, err);
    unlink(path);
    return s;
}

static cuzk_status zkey_load_sections(const tbuf s[10], unsigned flags, cuzk_groth16_pk *out, cuzk_errmsg *err)
{
    size_t len;
    uint8_t *img = zkey_image(s, SETUP_ORDER, 10, &len);
    cuzk_status st = zkey_load_bytes(img, len, flags, out, err);
    free(img);
    return st;
}

static void assert_zkey_matches(const zmodel *z, const cuzk_groth16_pk *pk)
{
    assert_pk_points_equal(&z->pk, pk);
    assert_non_null(pk->circuit);
    assert_null(pk->vk.storage);
    cuzk_r1cs_t *want = zmodel_circuit(z, Z_ROWS);
    assert_int_equal(pk->circuit->num_inputs, Z_P + 1);
    assert_int_equal(pk->circuit->num_aux, Z_N - Z_P - 1);
    assert_int_equal(pk->circuit->num_constraints, Z_ROWS);
    assert_int_equal(pk->circuit->m[CUZK_R1CS_C].nnz, 0);
    assert_memory_equal(pk->circuit->identity, want->identity, 32);
    cuzk_r1cs_free(want);
}

static void test_zkey_load(void **state)
{
    (void)state;
    zmodel z;
    zmodel_init(&z);
    tbuf s[10];
    zmodel_sections(&z, s);
    assert_int_equal(s[1].len, 964); /* the spec's header size */

    int natural[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, shuffled[10], no10[9] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
    memcpy(shuffled, natural, sizeof natural);
    for (int i = 9; i > 0; i--) {
        int j = (int)(test_rand_u64() % (uint64_t)(i + 1)), t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
    }
    const int *orders[4] = {SETUP_ORDER, natural, shuffled, no10};
    const int counts[4] = {10, 10, 10, 9};
    for (int o = 0; o < 4; o++) {
        size_t len;
        uint8_t *img = zkey_image(s, orders[o], counts[o], &len);
        cuzk_groth16_pk pk;
        cuzk_errmsg err = {{0}};
        cuzk_status st = zkey_load_bytes(img, len, o == 0 ? CUZK_GROTH16_LOAD_SUBGROUP : 0, &pk, &err);
        if (st != CUZK_OK) fprintf(stderr, "order %d: %s\n", o, err.msg);
        assert_int_equal(st, CUZK_OK);
        assert_zkey_matches(&z, &pk);
        cuzk_groth16_pk_free(&pk);
        free(img);
    }
    sections_free(s);

    /* coefficients in no particular order give the same circuit */
    for (uint32_t k = z.ncoef - 1; k > 0; k--) {
        uint32_t j = (uint32_t)(test_rand_u64() % (k + 1));
        zcoef t = z.coefs[k];
        z.coefs[k] = z.coefs[j];
        z.coefs[j] = t;
    }
    zmodel_sections(&z, s);
    cuzk_groth16_pk pk;
    assert_int_equal(zkey_load_sections(s, 0, &pk, NULL), CUZK_OK);
    assert_zkey_matches(&z, &pk);
    cuzk_groth16_pk_free(&pk);
    sections_free(s);
    zmodel_free(&z);
}

/* The coefficient encoding: 1 is stored as R² mod r (the spec's 0x0748d9d9…f3f29c6d) and -1 as r - R²; they must
 * come out as the builder's reserved ids for +1 and -1. */
static void test_zkey_coef_encoding(void **state)
{
    (void)state;
    cuzk_fr_t r2;
    uint8_t be[32];
    r_squared(&r2);
    cuzk_fr_to_bytes_be(be, &r2);
    const uint8_t head[4] = {0x07, 0x48, 0xd9, 0xd9}, tail[4] = {0xf3, 0xf2, 0x9c, 0x6d};
    assert_memory_equal(be, head, 4);
    assert_memory_equal(be + 28, tail, 4);

    /* known entries: row 0 = A{3: 1}, B{4: -1}; row 1 = A{5: 1}, B{6: 2}; row 2 = A{3: -1}, B{3: 1}; input rows */
    zmodel z;
    zmodel_init(&z);
    cuzk_fr_t one, minus_one, two;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&minus_one, &one);
    cuzk_fr_add(&two, &one, &one);
    const zcoef known[6] = {{0, 0, 3, one}, {1, 0, 4, minus_one}, {0, 1, 5, one},
                            {1, 1, 6, two}, {0, 2, 3, minus_one}, {1, 2, 3, one}};
    memcpy(z.coefs, known, sizeof known);
    z.ncoef = 6;
    for (uint32_t i = 0; i <= Z_P; i++) z.coefs[z.ncoef++] = (zcoef){0, Z_M + i, i, one};
    tbuf s[10];
    zmodel_sections(&z, s);
    /* the stored 1 is R² itself */
    uint8_t le[32];
    cuzk_fr_to_bytes_le(le, &r2);
    assert_memory_equal(s[3].p + 4 + 12, le, 32);
    cuzk_groth16_pk pk;
    assert_int_equal(zkey_load_sections(s, 0, &pk, NULL), CUZK_OK);
    const cuzk_r1cs_t *c = pk.circuit;
    const cuzk_r1cs_matrix *a = &c->m[CUZK_R1CS_A], *b = &c->m[CUZK_R1CS_B];
    const struct {
        const cuzk_r1cs_matrix *m;
        uint64_t row;
        uint32_t col, id;
    } want[] = {{a, 0, 3, CUZK_R1CS_COEF_ONE},       {b, 0, 4, CUZK_R1CS_COEF_MINUS_ONE},
                {a, 2, 3, CUZK_R1CS_COEF_MINUS_ONE}, {b, 2, 3, CUZK_R1CS_COEF_ONE},
                {a, Z_M, 0, CUZK_R1CS_COEF_ONE},     {a, Z_M + Z_P, Z_P, CUZK_R1CS_COEF_ONE}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cuzk_r1cs_matrix *m = want[i].m;
        assert_int_equal(m->row_ptr[want[i].row + 1] - m->row_ptr[want[i].row], 1);
        assert_int_equal(m->col[m->row_ptr[want[i].row]], want[i].col);
        assert_int_equal(m->coef[m->row_ptr[want[i].row]], want[i].id);
    }
    /* 2 is a value of its own */
    uint32_t id2 = b->coef[b->row_ptr[1]];
    assert_true(id2 >= 2 && cuzk_fr_eq(&c->values[id2], &two));
    cuzk_groth16_pk_free(&pk);
    sections_free(s);
    zmodel_free(&z);
}

static const uint64_t BN254_P[6] = {
    0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL, 0, 0};
static const uint64_t BN254_R[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL,
                                    0x30644e72e131a029ULL};

/* Rewrites coefficient k of the coefficient section body. */
static void coef_set(tbuf *c, uint32_t k, int field, uint32_t v) { memcpy(c->p + 4 + 44 * k + 4 * field, &v, 4); }

static void test_zkey_hostile(void **state)
{
    (void)state;
    zmodel z;
    zmodel_init(&z);
    tbuf s[10], t[10];
    zmodel_sections(&z, s);
    cuzk_groth16_pk pk;
    cuzk_errmsg err = {{0}};
    size_t len;
    uint8_t *img;

/* Runs one variant: t is a fresh copy of s, EDIT changes it, the load must fail with STATUS. */
#define VARIANT(STATUS, NEEDLE, EDIT)                                                                                  \
    do {                                                                                                               \
        for (int i_ = 0; i_ < 10; i_++) {                                                                              \
            t[i_] = (tbuf){0};                                                                                         \
            tb_put(&t[i_], s[i_].p, s[i_].len);                                                                        \
        }                                                                                                              \
        EDIT;                                                                                                          \
        memset(&err, 0, sizeof err);                                                                                   \
        cuzk_status st_ = zkey_load_sections(t, CUZK_GROTH16_LOAD_SUBGROUP, &pk, &err);                                \
        if (st_ != (STATUS)) fprintf(stderr, "line %d: %s (%s)\n", __LINE__, cuzk_status_str(st_), err.msg);           \
        assert_int_equal(st_, (STATUS));                                                                               \
        assert_null(pk.storage);                                                                                       \
        assert_null(pk.circuit);                                                                                       \
        assert_true(msg_has(&err, NEEDLE));                                                                            \
        sections_free(t);                                                                                              \
    } while (0)

    /* protocol 2 (plonk) */
    VARIANT(CUZK_ERR_WRONG_PROTOCOL, "plonk", {
        uint32_t v = 2;
        memcpy(t[0].p, &v, 4);
    });
    /* a bn128 key: 32-byte base field */
    VARIANT(CUZK_ERR_WRONG_CURVE, "base field", {
        t[1].len = 0;
        tb_u32(&t[1], 32);
        tb_put(&t[1], BN254_P, 32);
        tb_u32(&t[1], 32);
        tb_put(&t[1], BN254_R, 32);
        tb_put(&t[1], s[1].p + 88, s[1].len - 88);
    });
    /* right base field, another scalar field */
    VARIANT(CUZK_ERR_WRONG_CURVE, "scalar field", { memcpy(t[1].p + 56, BN254_R, 32); });
    VARIANT(CUZK_ERR_WRONG_CURVE, "base field", { t[1].p[4] ^= 1; });
    VARIANT(CUZK_ERR_BAD_SECTION, "header", { t[1].len -= 1; });
    /* counts */
    VARIANT(CUZK_ERR_BAD_HEADER, "public", {
        uint32_t v = Z_N;
        memcpy(t[1].p + 92, &v, 4);
    });
    VARIANT(CUZK_ERR_BAD_HEADER, "power of two", {
        uint32_t v = 6;
        memcpy(t[1].p + 96, &v, 4);
    });
    /* IC of nPublic points instead of nPublic + 1 */
    VARIANT(CUZK_ERR_BAD_SECTION, "IC", { t[2].len -= 96; });
    VARIANT(CUZK_ERR_BAD_SECTION, "B2", { t[6].len -= 192; });
    VARIANT(CUZK_ERR_BAD_SECTION, "H", { tb_put(&t[8], s[8].p, 96); });
    /* domainSize 16 with 16 H points, but 6 rows need only 8 */
    VARIANT(CUZK_ERR_BAD_HEADER, "domainSize 16", {
        uint32_t v = 16;
        memcpy(t[1].p + 96, &v, 4);
        tb_put(&t[8], s[8].p, s[8].len);
    });
    /* coefficients */
    VARIANT(CUZK_ERR_R1CS_COLUMN, "signal 7", { coef_set(&t[3], 4, 2, Z_N); });
    VARIANT(CUZK_ERR_BAD_SECTION, "matrix 2", { coef_set(&t[3], 1, 0, 2); });
    VARIANT(CUZK_ERR_BAD_HEADER, "constraint 8", { coef_set(&t[3], 2, 1, Z_DOMAIN); });
    VARIANT(CUZK_ERR_R1CS_COEFF, "coefficient 3", { memcpy(t[3].p + 4 + 44 * 3 + 12, CUZK_FR_MODULUS, 32); });
    VARIANT(CUZK_ERR_R1CS_COEFF, "coefficient 5", { memset(t[3].p + 4 + 44 * 5 + 12, 0xff, 32); });
    VARIANT(CUZK_ERR_BAD_SECTION, "coefficient section", {
        uint32_t v = z.ncoef + 1;
        memcpy(t[3].p, &v, 4);
    });
    VARIANT(CUZK_ERR_BAD_SECTION, "coefficient section", { t[3].len -= 44; });
    /* points */
    VARIANT(CUZK_ERR_INFINITY, "alpha1", { memset(t[1].p + 100, 0, 96); });
    VARIANT(CUZK_ERR_INFINITY, "delta2", { memset(t[1].p + 964 - 192, 0, 192); });
    VARIANT(CUZK_ERR_NOT_ON_CURVE, "H[3]", { t[8].p[96 * 3 + 5] ^= 1; });
    VARIANT(CUZK_ERR_NOT_ON_CURVE, "B2[2]", { t[6].p[192 * 2 + 150] ^= 1; });
    VARIANT(CUZK_ERR_COORD_RANGE, "A[1]", { memset(t[4].p + 96, 0xff, 48); });
    VARIANT(CUZK_ERR_NOT_IN_SUBGROUP, "C[2]", {
        cuzk_g1_affine_t o;
        off_subgroup_g1(&o);
        cuzk_g1_to_iden3(t[7].p + 96 * 2, &o);
    });
    VARIANT(CUZK_ERR_NOT_IN_SUBGROUP, "gamma2", {
        cuzk_g2_affine_t o;
        off_subgroup_g2(&o);
        cuzk_g2_to_iden3(t[1].p + 100 + 96 * 2 + 192, &o);
    });

    /* without the subgroup flag the same key loads */
    cuzk_g1_affine_t o;
    off_subgroup_g1(&o);
    cuzk_g1_to_iden3(s[7].p + 96 * 2, &o);
    assert_int_equal(zkey_load_sections(s, 0, &pk, NULL), CUZK_OK);
    assert_true(cuzk_g1_affine_eq(&pk.l[2], &o));
    cuzk_groth16_pk_free(&pk);
    cuzk_g1_to_iden3(s[7].p + 96 * 2, &z.pk.l[2]);

    /* container: duplicated, missing and trailing sections, magic, version */
    const int dup[11] = {1, 2, 4, 3, 9, 8, 5, 6, 7, 5, 10}, missing[9] = {1, 2, 4, 3, 9, 5, 6, 7, 10};
    img = zkey_image(s, dup, 11, &len);
    assert_int_equal(zkey_load_bytes(img, len, 0, &pk, &err), CUZK_ERR_BAD_SECTION);
    assert_true(msg_has(&err, "type 5 appears 2 times"));
    free(img);
    img = zkey_image(s, missing, 9, &len);
    assert_int_equal(zkey_load_bytes(img, len, 0, &pk, &err), CUZK_ERR_BAD_SECTION);
    assert_true(msg_has(&err, "type 8 appears 0 times"));
    free(img);
    img = zkey_image(s, SETUP_ORDER, 10, &len);
    img = realloc(img, len + 3);
    memset(img + len, 0, 3);
    assert_int_equal(zkey_load_bytes(img, len + 3, 0, &pk, &err), CUZK_ERR_BAD_SECTION);
    img[0] = 'Z';
    assert_int_equal(zkey_load_bytes(img, len, 0, &pk, NULL), CUZK_ERR_BAD_MAGIC);
    img[0] = 'z';
    img[4] = 2;
    assert_int_equal(zkey_load_bytes(img, len, 0, &pk, NULL), CUZK_ERR_BAD_VERSION);
    img[4] = 1;
    /* every proper prefix is truncated (a section's declared size runs past the end, or sections are missing) */
    for (size_t n = 0; n < len; n += (n < 1100 ? 1 : 11)) {
        assert_int_equal(zkey_load_bytes(img, n, 0, &pk, NULL), CUZK_ERR_TRUNCATED);
        assert_null(pk.storage);
    }
    /* a section size far beyond the file */
    uint64_t huge = UINT64_MAX / 2;
    memcpy(img + 16, &huge, 8);
    assert_int_equal(zkey_load_bytes(img, len, 0, &pk, &err), CUZK_ERR_TRUNCATED);
    free(img);
#undef VARIANT
    sections_free(s);
    zmodel_free(&z);
}

/* ---- JSON -------------------------------------------------------------------------------------------------------- */
#ifdef CUZK_HAVE_JANSSON

static const char G1_X_DEC[] = "368541675371338701678108831518307775796162079578254640989457837868860759237837631883605"
                               "4947676345821548104185464507";
static const char G1_Y_DEC[] = "133950654494447647302047137994192122158493387593834962042654373641651142395633350647272"
                               "4655353366534992391756441569";
static const char P_DEC[] = "400240955522166739341778982573590415655688281993900788533205813612403165049083786444268"
                            "7629129015664037894272559787";
static const char R_DEC[] = "52435875175126190479447740508185965837690552500527637822603658699938581184513";

static void test_json_proof(void **state)
{
    (void)state;
    cuzk_groth16_proof_t p, q;
    cuzk_errmsg err = {{0}};
    cuzk_g1_generator(&p.a);
    rand_g2(&p.b);
    rand_g1(&p.c);
    char *js;
    assert_int_equal(cuzk_groth16_proof_to_json(&p, &js), CUZK_OK);
    /* decimal, affine with z = "1", the generator's known coordinates */
    json_t *root = json_loads(js, 0, NULL);
    assert_non_null(root);
    json_t *pa = json_object_get(root, "pi_a");
    assert_string_equal(json_string_value(json_array_get(pa, 0)), G1_X_DEC);
    assert_string_equal(json_string_value(json_array_get(pa, 1)), G1_Y_DEC);
    assert_string_equal(json_string_value(json_array_get(pa, 2)), "1");
    json_t *pbz = json_array_get(json_object_get(root, "pi_b"), 2);
    assert_string_equal(json_string_value(json_array_get(pbz, 0)), "1");
    assert_string_equal(json_string_value(json_array_get(pbz, 1)), "0");
    assert_string_equal(json_string_value(json_object_get(root, "protocol")), "groth16");
    assert_string_equal(json_string_value(json_object_get(root, "curve")), "bls12381");
    json_decref(root);
    assert_int_equal(cuzk_groth16_proof_from_json(&q, js, &err), CUZK_OK);
    assert_true(cuzk_g1_affine_eq(&p.a, &q.a) && cuzk_g2_affine_eq(&p.b, &q.b) && cuzk_g1_affine_eq(&p.c, &q.c));
    free(js);

    /* infinity round trips as ["0", "1", "0"] */
    cuzk_g1_affine_set_infinity(&p.c);
    cuzk_g2_affine_set_infinity(&p.b);
    assert_int_equal(cuzk_groth16_proof_to_json(&p, &js), CUZK_OK);
    assert_non_null(strstr(js, "\"0\",\n  \"1\",\n  \"0\""));
    assert_int_equal(cuzk_groth16_proof_from_json(&q, js, NULL), CUZK_OK);
    assert_true(cuzk_g1_affine_is_infinity(&q.c) && cuzk_g2_affine_is_infinity(&q.b));
    free(js);

    /* malformed variants: edit the document, expect the status and the field in the detail */
    cuzk_g1_generator(&p.a);
    rand_g1(&p.c);
    rand_g2(&p.b);
    cuzk_g1_affine_t o1;
    cuzk_g2_affine_t o2;
    off_subgroup_g1(&o1);
    off_subgroup_g2(&o2);
    char o1x[130], o1y[130], o2x0[130];
    {
        cuzk_groth16_proof_t t = {o1, o2, o1};
        assert_int_equal(cuzk_groth16_proof_to_json(&t, &js), CUZK_OK);
        json_t *r = json_loads(js, 0, NULL);
        snprintf(o1x, sizeof o1x, "%s", json_string_value(json_array_get(json_object_get(r, "pi_a"), 0)));
        snprintf(o1y, sizeof o1y, "%s", json_string_value(json_array_get(json_object_get(r, "pi_a"), 1)));
        snprintf(o2x0, sizeof o2x0, "%s",
                 json_string_value(json_array_get(json_array_get(json_object_get(r, "pi_b"), 0), 0)));
        json_decref(r);
        free(js);
    }
    assert_int_equal(cuzk_groth16_proof_to_json(&p, &js), CUZK_OK);
    struct {
        const char *key; /* top-level key */
        int i, j;        /* element path, -1 = none */
        json_t *value;   /* replacement (NULL: delete the key) */
        cuzk_status want;
        const char *needle;
    } cases[] = {
        {"pi_a", 2, -1, json_string("2"), CUZK_ERR_BAD_JSON, "pi_a: z"},
        {"pi_a", 0, -1, json_string("0x17"), CUZK_ERR_BAD_JSON, "pi_a[0]"},
        {"pi_a", 0, -1, json_string("0123"), CUZK_ERR_BAD_JSON, "pi_a[0]"},
        {"pi_a", 0, -1, json_string("-1"), CUZK_ERR_BAD_JSON, "pi_a[0]"},
        {"pi_a", 0, -1, json_string(""), CUZK_ERR_BAD_JSON, "pi_a[0]"},
        {"pi_a", 0, -1, json_integer(5), CUZK_ERR_BAD_JSON, "pi_a[0]"},
        {"pi_a", 1, -1, json_string(P_DEC), CUZK_ERR_COORD_RANGE, "pi_a[1]"},
        {"pi_a", 1, -1,
         json_string("1000000000000000000000000000000000000000000000000000000000000000000000000000000"
                     "00000000000000000000000000000000000000000000000000000000000000000"),
         CUZK_ERR_COORD_RANGE, "pi_a[1]"},
        {"pi_a", 1, -1, json_string("1"), CUZK_ERR_NOT_ON_CURVE, "pi_a"},
        {"pi_a", 0, -1, json_string(o1x), CUZK_ERR_NOT_ON_CURVE, "pi_a"},
        {"pi_c", -1, -1, json_pack("[s, s, s]", o1x, o1y, "1"), CUZK_ERR_NOT_IN_SUBGROUP, "pi_c"},
        {"pi_c", -1, -1, json_pack("[s, s, s]", "0", "0", "1"), CUZK_ERR_NOT_ON_CURVE, "pi_c"},
        {"pi_c", -1, -1, json_pack("[s, s, s]", "1", "1", "0"), CUZK_ERR_BAD_JSON, "pi_c"},
        {"pi_c", -1, -1, json_pack("[s, s]", "1", "1"), CUZK_ERR_BAD_JSON, "pi_c: array of 2"},
        {"pi_c", -1, -1, json_pack("{}"), CUZK_ERR_BAD_JSON, "pi_c: expected an array"},
        {"pi_b", 2, -1, json_pack("[s, s]", "1", "1"), CUZK_ERR_BAD_JSON, "pi_b: z"},
        {"pi_b", 2, -1, json_pack("[s]", "1"), CUZK_ERR_BAD_JSON, "pi_b[2]"},
        {"pi_b", 0, 1, json_string(P_DEC), CUZK_ERR_COORD_RANGE, "pi_b[0][1]"},
        {"pi_b", 0, 0, json_string(o2x0), CUZK_ERR_NOT_ON_CURVE, "pi_b"},
        {"pi_b", -1, -1, NULL, CUZK_ERR_BAD_JSON, "missing \"pi_b\""},
        {"protocol", -1, -1, json_string("plonk"), CUZK_ERR_WRONG_PROTOCOL, "plonk"},
        {"protocol", -1, -1, json_integer(1), CUZK_ERR_BAD_JSON, "protocol"},
        {"curve", -1, -1, json_string("bn128"), CUZK_ERR_WRONG_CURVE, "bn128"},
        {"curve", -1, -1, NULL, CUZK_ERR_BAD_JSON, "missing \"curve\""},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        json_t *r = json_loads(js, 0, NULL);
        if (cases[c].value == NULL) json_object_del(r, cases[c].key);
        else if (cases[c].i < 0) json_object_set_new(r, cases[c].key, cases[c].value);
        else if (cases[c].j < 0)
            json_array_set_new(json_object_get(r, cases[c].key), (size_t)cases[c].i, cases[c].value);
        else
            json_array_set_new(json_array_get(json_object_get(r, cases[c].key), (size_t)cases[c].i), (size_t)cases[c].j,
                               cases[c].value);
        char *bad = json_dumps(r, 0);
        json_decref(r);
        memset(&err, 0, sizeof err);
        cuzk_status st = cuzk_groth16_proof_from_json(&q, bad, &err);
        if (st != cases[c].want) fprintf(stderr, "case %zu: %s (%s)\n", c, cuzk_status_str(st), err.msg);
        assert_int_equal(st, cases[c].want);
        assert_true(msg_has(&err, cases[c].needle));
        free(bad);
    }
    /* a pi_b off the G2 subgroup */
    {
        cuzk_groth16_proof_t t = p;
        t.b = o2;
        char *bad;
        assert_int_equal(cuzk_groth16_proof_to_json(&t, &bad), CUZK_OK);
        assert_int_equal(cuzk_groth16_proof_from_json(&q, bad, &err), CUZK_ERR_NOT_IN_SUBGROUP);
        assert_true(msg_has(&err, "pi_b"));
        free(bad);
    }
    /* not JSON, not an object, a repeated key */
    assert_int_equal(cuzk_groth16_proof_from_json(&q, "{\"pi_a\": [", &err), CUZK_ERR_BAD_JSON);
    assert_int_equal(cuzk_groth16_proof_from_json(&q, "[1, 2]", &err), CUZK_ERR_BAD_JSON);
    assert_true(msg_has(&err, "not a JSON object"));
    char *dup = malloc(strlen(js) + 64);
    sprintf(dup, "{\"curve\": \"bls12381\", %s", js + 1);
    assert_int_equal(cuzk_groth16_proof_from_json(&q, dup, &err), CUZK_ERR_BAD_JSON);
    assert_true(msg_has(&err, "duplicate"));
    free(dup);
    free(js);
}

static void test_json_public(void **state)
{
    (void)state;
    enum { N = 6 };
    cuzk_fr_t v[N];
    cuzk_fr_set_zero(&v[0]);
    cuzk_fr_set_one(&v[1]);
    cuzk_fr_neg(&v[2], &v[1]); /* r - 1 */
    for (int i = 3; i < N; i++) test_rand_fr(&v[i]);
    char *js;
    assert_int_equal(cuzk_groth16_public_to_json(v, N, &js), CUZK_OK);
    json_t *r = json_loads(js, 0, NULL);
    assert_string_equal(json_string_value(json_array_get(r, 0)), "0");
    assert_string_equal(json_string_value(json_array_get(r, 1)), "1");
    assert_string_equal(json_string_value(json_array_get(r, 2)),
                        "52435875175126190479447740508185965837690552500527637822603658699938581184512");
    json_decref(r);
    cuzk_fr_t *back;
    uint64_t n;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, js, &err), CUZK_OK);
    assert_int_equal(n, N);
    for (int i = 0; i < N; i++) assert_true(cuzk_fr_eq(&v[i], &back[i]));
    free(back);
    free(js);

    assert_int_equal(cuzk_groth16_public_to_json(v, 0, &js), CUZK_OK);
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, js, NULL), CUZK_OK);
    assert_int_equal(n, 0);
    free(back);
    free(js);

    char buf[256];
    snprintf(buf, sizeof buf, "[\"1\", \"%s\"]", R_DEC);
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, buf, &err), CUZK_ERR_NOT_CANONICAL);
    assert_true(msg_has(&err, "public[1]"));
    assert_null(back);
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, "[\"1\", 2]", &err), CUZK_ERR_BAD_JSON);
    assert_true(msg_has(&err, "public[1]"));
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, "[\"1a\"]", &err), CUZK_ERR_BAD_JSON);
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, "[\"01\"]", &err), CUZK_ERR_BAD_JSON);
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, "{\"a\": \"1\"}", &err), CUZK_ERR_BAD_JSON);
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, "[\"1\"", &err), CUZK_ERR_BAD_JSON);
    assert_int_equal(cuzk_groth16_public_from_json(&back, &n, "", &err), CUZK_ERR_BAD_JSON);
}

static void test_json_vk(void **state)
{
    (void)state;
    cuzk_groth16_pk pk;
    rand_pk(&pk, 4, 1, 1, 1, 1);
    cuzk_g1_affine_set_infinity(&pk.vk.ic[2]); /* an IC point may be infinity */
    char *js;
    assert_int_equal(cuzk_groth16_vk_to_json(&pk.vk, &js), CUZK_OK);
    cuzk_groth16_vk vk;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_vk_from_json(&vk, js, &err), CUZK_OK);
    assert_vk_equal(&pk.vk, &vk, false);
    assert_true(cuzk_g1_affine_is_infinity(&vk.beta_g1) && cuzk_g1_affine_is_infinity(&vk.delta_g1));
    assert_ptr_equal(vk.storage, vk.ic);
    cuzk_groth16_vk_free(&vk);

    /* the counts without a parse or a decoded point: nPublic + 1, once IC has that many elements (strings holding
     * brackets and escaped quotes, nested values and other keys are stepped over) */
    uint64_t inputs = 0;
    assert_int_equal(cuzk_groth16_vk_inputs((const uint8_t *)js, strlen(js), &inputs, NULL), CUZK_OK);
    assert_int_equal(inputs, 4);
    static const struct {
        const char *text;
        cuzk_status want;
        uint64_t inputs;
    } scans[] = {
        {"{\"IC\": [[\"1\", \"2\", \"1\"], [\"]\", \"[\\\"\", {\"a\": [1]}]], \"nPublic\": 1, \"vk_alpha_1\": 0}",
         CUZK_OK, 2},
        {"{\"x\": {\"IC\": [1, 2, 3]}, \"nPublic\": 0, \"IC\": [[]]}", CUZK_OK, 1},
        {"{\"nPublic\": 4, \"IC\": [1, 2, 3, 4, 5, 6], \"vk_alpha_1\": 0}", CUZK_ERR_BAD_JSON, 0},
        {"{\"nPublic\": 4, \"IC\": [1, 2, 3", CUZK_ERR_BAD_JSON, 0},
        {"{\"vk_alpha_1\": [\"1\"]}", CUZK_ERR_BAD_JSON, 0},
    };
    for (size_t c = 0; c < sizeof scans / sizeof scans[0]; c++) {
        inputs = 99;
        memset(&err, 0, sizeof err);
        assert_int_equal(cuzk_groth16_vk_inputs((const uint8_t *)scans[c].text, strlen(scans[c].text), &inputs, &err),
                         scans[c].want);
        assert_int_equal(inputs, scans[c].inputs);
    }
    assert_int_equal(cuzk_groth16_vk_inputs((const uint8_t *)"[\"1\"]", 5, &inputs, &err), CUZK_ERR_BAD_MAGIC);
    /* a vk whose IC outgrows nPublic is refused by the scan, before the document is parsed */
    assert_int_equal(cuzk_groth16_vk_from_json(&vk, scans[2].text, &err), CUZK_ERR_BAD_JSON);
    assert_true(msg_has(&err, "IC has 6 points, nPublic + 1 = 5"));

    /* layout: nPublic, and e(α1, β2) in [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]] nesting of [c0, c1] */
    json_t *r = json_loads(js, 0, NULL);
    assert_int_equal(json_integer_value(json_object_get(r, "nPublic")), 3);
    assert_int_equal(json_array_size(json_object_get(r, "IC")), 4);
    cuzk_fp12_t ab;
    cuzk_pairing(&ab, &pk.vk.alpha_g1, &pk.vk.beta_g2);
    /* compare one leaf through its decimal */
    json_t *leaf = json_array_get(json_array_get(json_array_get(json_object_get(r, "vk_alphabeta_12"), 1), 2), 1);
    uint64_t l[6] = {0};
    const char *d = json_string_value(leaf);
    for (const char *c = d; *c; c++) {
        unsigned __int128 carry = (unsigned)(*c - '0');
        for (int i = 0; i < 6; i++) {
            carry += (unsigned __int128)l[i] * 10;
            l[i] = (uint64_t)carry;
            carry >>= 64;
        }
    }
    cuzk_fp_t leaf_fp;
    assert_int_equal(cuzk_fp_from_limbs(&leaf_fp, l), CUZK_OK);
    assert_true(cuzk_fp_eq(&leaf_fp, &ab.c1.c2.c1));
    json_decref(r);

    cuzk_g1_affine_t o1;
    cuzk_g2_affine_t o2;
    off_subgroup_g1(&o1);
    off_subgroup_g2(&o2);
    struct {
        const char *key;
        json_t *value;
        cuzk_status want;
        const char *needle;
    } cases[] = {
        {"nPublic", json_integer(4), CUZK_ERR_BAD_JSON, "IC has 4 points"},
        {"nPublic", json_integer(-1), CUZK_ERR_BAD_JSON, "nPublic"},
        {"nPublic", json_string("3"), CUZK_ERR_BAD_JSON, "nPublic"},
        {"nPublic", NULL, CUZK_ERR_BAD_JSON, "missing \"nPublic\""},
        {"IC", json_pack("[]"), CUZK_ERR_BAD_JSON, "IC has 0"},
        {"IC", json_string("x"), CUZK_ERR_BAD_JSON, "IC is not an array"},
        {"vk_alpha_1", json_pack("[s, s, s]", "0", "1", "0"), CUZK_ERR_INFINITY, "vk_alpha_1"},
        {"vk_delta_2", NULL, CUZK_ERR_BAD_JSON, "missing \"vk_delta_2\""},
        {"vk_alphabeta_12", json_pack("[]"), CUZK_ERR_BAD_JSON, "vk_alphabeta_12"},
        {"protocol", json_string("fflonk"), CUZK_ERR_WRONG_PROTOCOL, "fflonk"},
        {"curve", json_string("bn128"), CUZK_ERR_WRONG_CURVE, "bn128"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        r = json_loads(js, 0, NULL);
        if (cases[c].value == NULL) json_object_del(r, cases[c].key);
        else json_object_set_new(r, cases[c].key, cases[c].value);
        char *bad = json_dumps(r, 0);
        json_decref(r);
        memset(&err, 0, sizeof err);
        cuzk_status st = cuzk_groth16_vk_from_json(&vk, bad, &err);
        if (st != cases[c].want) fprintf(stderr, "case %zu: %s (%s)\n", c, cuzk_status_str(st), err.msg);
        assert_int_equal(st, cases[c].want);
        assert_true(msg_has(&err, cases[c].needle));
        assert_null(vk.ic);
        free(bad);
    }
    /* vk_alphabeta_12: a changed leaf, a leaf >= p, a wrong shape */
    const struct {
        const char *value;
        cuzk_status want;
        const char *needle;
    } leaves[] = {{"1", CUZK_ERR_MISMATCH, "e(vk_alpha_1, vk_beta_2)"},
                  {P_DEC, CUZK_ERR_NOT_CANONICAL, "vk_alphabeta_12[0][1][0]"},
                  {"x", CUZK_ERR_BAD_JSON, "vk_alphabeta_12[0][1][0]"}};
    for (size_t c = 0; c < 3; c++) {
        r = json_loads(js, 0, NULL);
        json_t *fp2 = json_array_get(json_array_get(json_object_get(r, "vk_alphabeta_12"), 0), 1);
        json_array_set_new(fp2, 0, json_string(leaves[c].value));
        char *bad = json_dumps(r, 0);
        json_decref(r);
        assert_int_equal(cuzk_groth16_vk_from_json(&vk, bad, &err), leaves[c].want);
        assert_true(msg_has(&err, leaves[c].needle));
        free(bad);
    }
    /* points off the subgroup: a strict reader refuses them */
    cuzk_groth16_vk t = pk.vk;
    t.ic[1] = o1;
    char *bad;
    assert_int_equal(cuzk_groth16_vk_to_json(&t, &bad), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_json(&vk, bad, &err), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_true(msg_has(&err, "IC[1]"));
    free(bad);
    rand_g1(&t.ic[1]);
    t.gamma_g2 = o2;
    assert_int_equal(cuzk_groth16_vk_to_json(&t, &bad), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_json(&vk, bad, &err), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_true(msg_has(&err, "vk_gamma_2"));
    free(bad);
    free(js);
    cuzk_groth16_pk_free(&pk);
}
#else
/* A build without jansson: every JSON function refuses with CUZK_ERR_UNSUPPORTED and says why. */
static void test_json_unsupported(void **state)
{
    (void)state;
    cuzk_groth16_proof_t proof;
    cuzk_groth16_vk vk;
    memset(&proof, 0, sizeof proof);
    memset(&vk, 0, sizeof vk);
    cuzk_fr_t *pub = (cuzk_fr_t *)&proof;
    uint64_t n = 7;
    char *out = (char *)&vk;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_proof_to_json(&proof, &out), CUZK_ERR_UNSUPPORTED);
    assert_null(out);
    assert_int_equal(cuzk_groth16_public_to_json(pub, 0, &out), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_groth16_vk_to_json(&vk, &out), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_groth16_proof_from_json(&proof, "{}", &err), CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "jansson"));
    assert_int_equal(cuzk_groth16_public_from_json(&pub, &n, "[]", &err), CUZK_ERR_UNSUPPORTED);
    assert_null(pub);
    assert_int_equal(n, 0);
    assert_int_equal(cuzk_groth16_vk_from_json(&vk, "{}", &err), CUZK_ERR_UNSUPPORTED);
}
#endif

/* ---- keys from cuzk_groth16_setup through the files, then prove and verify ------------------------------------------- */

static void setup_for(cuzk_groth16_pk *pk, const cuzk_r1cs_t *r, cuzk_groth16_convention conv)
{
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.conv = conv;
    assert_int_equal(cuzk_groth16_setup(pk, r, &o, NULL), CUZK_OK);
}

/* Proves with pk and checks the proof with vk, also after a trip of proof, public inputs and vk through JSON. */
static void prove_and_verify(const cuzk_groth16_pk *pk, const cuzk_groth16_vk *vk, const g16_circuit *c)
{
    cuzk_groth16_proof_t proof;
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.c_mode = CUZK_R1CS_C_CHECKED;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_groth16_prove(&proof, pk, c->r, c->z, &o, NULL, &err);
    if (s != CUZK_OK) fprintf(stderr, "prove: %s (%s)\n", cuzk_status_str(s), err.msg);
    assert_int_equal(s, CUZK_OK);
    cuzk_groth16_pvk pvk;
    uint64_t np = c->r->num_inputs - 1;
    cuzk_groth16_prepare_vk(&pvk, vk);
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof, &c->z[1], np), CUZK_OK);
#ifdef CUZK_HAVE_JANSSON /* and through the snarkjs JSON files */
    cuzk_groth16_proof_t proof2;
    char *pj, *uj, *vj;
    cuzk_fr_t *pub;
    uint64_t n;
    cuzk_groth16_vk vk2;
    assert_int_equal(cuzk_groth16_proof_to_json(&proof, &pj), CUZK_OK);
    assert_int_equal(cuzk_groth16_public_to_json(&c->z[1], np, &uj), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_to_json(vk, &vj), CUZK_OK);
    assert_int_equal(cuzk_groth16_proof_from_json(&proof2, pj, NULL), CUZK_OK);
    assert_int_equal(cuzk_groth16_public_from_json(&pub, &n, uj, NULL), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_json(&vk2, vj, NULL), CUZK_OK);
    assert_int_equal(n, np);
    cuzk_groth16_prepare_vk(&pvk, &vk2);
    assert_int_equal(cuzk_groth16_verify(&pvk, &proof2, pub, n), CUZK_OK);
    /* and the check can fail: another public input */
    cuzk_fr_add(&pub[0], &pub[0], &pub[0]);
    if (!cuzk_fr_is_zero(&pub[0])) assert_int_equal(cuzk_groth16_verify(&pvk, &proof2, pub, n), CUZK_ERR_PROOF_INVALID);
    free(pj);
    free(uj);
    free(vj);
    free(pub);
    cuzk_groth16_vk_free(&vk2);
#endif
}

static void test_setup_params_prove(void **state)
{
    (void)state;
    g16_circuit c;
    g16_circuit_make(&c, 100, 3, test_rand_u64(), test_rand_u64());
    cuzk_groth16_pk pk, back;
    cuzk_groth16_vk vk;
    setup_for(&pk, c.r, CUZK_GROTH16_BELLPERSON);
    const char *path = tmp_path("setup.params"), *vpath = tmp_path("setup.vk");
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_params_write(&pk, path, &err), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_write(&pk.vk, vpath, &err), CUZK_OK);
    assert_int_equal(cuzk_groth16_params_load(&back, path, CUZK_GROTH16_LOAD_SUBGROUP, 2, &err), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_load(&vk, vpath, &err), CUZK_OK);
    assert_pk_points_equal(&pk, &back);
    assert_int_equal(cuzk_groth16_pk_check_circuit(&back, c.r, &err), CUZK_OK);
    prove_and_verify(&back, &vk, &c);
    unlink(path);
    unlink(vpath);
    cuzk_groth16_vk_free(&vk);
    cuzk_groth16_pk_free(&back);
    cuzk_groth16_pk_free(&pk);
    g16_circuit_free(&c);
}

/* A snarkjs-convention key from setup, written as a zkey with the coefficient section taken from its matrices. */
static void test_setup_zkey_prove(void **state)
{
    (void)state;
    g16_circuit c;
    g16_circuit_make(&c, 100, 2, test_rand_u64(), test_rand_u64());
    zmodel z;
    memset(&z, 0, sizeof z);
    setup_for(&z.pk, c.r, CUZK_GROTH16_SNARKJS);
    const cuzk_r1cs_t *m = z.pk.circuit;
    z.nvars = (uint32_t)cuzk_r1cs_num_vars(m);
    z.npub = m->num_inputs - 1;
    z.domain = (uint32_t)z.pk.domain_size;
    z.coefs = malloc((m->m[CUZK_R1CS_A].nnz + m->m[CUZK_R1CS_B].nnz) * sizeof *z.coefs);
    for (uint64_t row = 0; row < m->num_constraints; row++)
        for (uint32_t k = 0; k < 2; k++)
            for (uint64_t e = m->m[k].row_ptr[row]; e < m->m[k].row_ptr[row + 1]; e++)
                z.coefs[z.ncoef++] = (zcoef){k, (uint32_t)row, m->m[k].col[e], m->values[m->m[k].coef[e]]};
    tbuf s[10];
    zmodel_sections(&z, s);
    cuzk_groth16_pk back;
    cuzk_errmsg err = {{0}};
    cuzk_status st = zkey_load_sections(s, CUZK_GROTH16_LOAD_SUBGROUP, &back, &err);
    if (st != CUZK_OK) fprintf(stderr, "zkey: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    assert_pk_points_equal(&z.pk, &back);
    /* the same matrices: equal products with the witness */
    uint64_t rows = m->num_constraints;
    assert_int_equal(back.circuit->num_constraints, rows);
    cuzk_fr_t *v[4];
    for (int i = 0; i < 4; i++) v[i] = malloc(rows * sizeof(cuzk_fr_t));
    assert_int_equal(cuzk_r1cs_spmv(m, c.z, v[0], v[1], NULL, CUZK_R1CS_C_PRODUCT, 1, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_spmv(back.circuit, c.z, v[2], v[3], NULL, CUZK_R1CS_C_PRODUCT, 1, NULL), CUZK_OK);
    assert_memory_equal(v[0], v[2], rows * sizeof(cuzk_fr_t));
    assert_memory_equal(v[1], v[3], rows * sizeof(cuzk_fr_t));
    for (int i = 0; i < 4; i++) free(v[i]);
    prove_and_verify(&back, &back.vk, &c);
    sections_free(s);
    cuzk_groth16_pk_free(&back);
    zmodel_free(&z);
    g16_circuit_free(&c);
}

/* The G1 iden3 decoder of zkey loading (no subgroup check): curve checks batched 8 points at a time where the build
 * has AVX-512 IFMA, one by one elsewhere. Either way the status and index are those of the lowest failing point,
 * whatever the batch and thread boundaries; valid input decodes as cuzk_g1_from_iden3 does. */
static void test_keyio_g1_iden3_batches(void **state)
{
    (void)state;
    enum { N = 45 };
    uint8_t good[N * 96];
    cuzk_g1_affine_t want[N], got[N];
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t p, gj;
    cuzk_g1_generator(&g);
    cuzk_g1_jac_from_affine(&gj, &g);
    p = gj;
    for (int i = 0; i < N; i++) {
        cuzk_g1_jac_to_affine(&want[i], &p);
        cuzk_g1_jac_add(&p, &p, &gj);
        if (i == 17 || i == 30) cuzk_g1_affine_set_infinity(&want[i]);
        cuzk_g1_to_iden3(good + 96 * i, &want[i]);
    }
    const unsigned flags = CUZK_EC_DECODE_SKIP_SUBGROUP | CUZK_EC_DECODE_ALLOW_INFINITY;
    for (unsigned threads = 1; threads <= 3; threads++) {
        uint64_t bad = 99;
        assert_int_equal(cuzk_g16_keyio_decode_points(got, good, N, CUZK_G16_KEYIO_G1_IDEN3, flags, threads, &bad),
                         CUZK_OK);
        for (int i = 0; i < N; i++) assert_true(cuzk_g1_affine_eq(&got[i], &want[i]));
    }
    /* (what to break, where) pairs; the expected result is the lowest index */
    enum { OFF, RANGE, INF, NONE };
    static const struct {
        int kind[2], at[2];
        cuzk_status want;
        int want_at;
    } cases[] = {
        {{OFF, OFF}, {3, 44}, CUZK_ERR_NOT_ON_CURVE, 3},     {{OFF, RANGE}, {13, 20}, CUZK_ERR_NOT_ON_CURVE, 13},
        {{RANGE, OFF}, {10, 13}, CUZK_ERR_COORD_RANGE, 10},  {{OFF, RANGE}, {13, 14}, CUZK_ERR_NOT_ON_CURVE, 13},
        {{RANGE, OFF}, {14, 13}, CUZK_ERR_NOT_ON_CURVE, 13}, {{OFF, OFF}, {11, 9}, CUZK_ERR_NOT_ON_CURVE, 9},
        {{INF, OFF}, {17, 16}, CUZK_ERR_NOT_ON_CURVE, 16},   {{OFF, INF}, {18, 17}, CUZK_ERR_INFINITY, 17},
        {{OFF, NONE}, {44, 0}, CUZK_ERR_NOT_ON_CURVE, 44},   {{OFF, NONE}, {40, 0}, CUZK_ERR_NOT_ON_CURVE, 40},
        {{RANGE, RANGE}, {0, 0}, CUZK_ERR_COORD_RANGE, 0},
    };
    uint8_t b[N * 96];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(b, good, sizeof b);
        bool allow_inf = true;
        for (int e = 0; e < 2; e++) {
            uint8_t *pt = b + 96 * cases[c].at[e];
            if (cases[c].kind[e] == OFF) pt[5] ^= 1;
            if (cases[c].kind[e] == RANGE) memset(pt + 48, 0xff, 48);
            if (cases[c].kind[e] == INF) allow_inf = false;
        }
        for (unsigned threads = 1; threads <= 3; threads++) {
            uint64_t bad = 99;
            cuzk_status st = cuzk_g16_keyio_decode_points(
                got, b, N, CUZK_G16_KEYIO_G1_IDEN3, allow_inf ? flags : CUZK_EC_DECODE_SKIP_SUBGROUP, threads, &bad);
            if (st != cases[c].want || bad != (uint64_t)cases[c].want_at)
                fail_msg("case %zu, %u threads: %s at %llu", c, threads, cuzk_status_str(st), (unsigned long long)bad);
        }
    }
}

/* ---- the 192-byte proof ------------------------------------------------------------------------------------------ */

/* An x with no point of E(Fp) above it. */
static void g1_x_without_y(cuzk_fp_t *x)
{
    cuzk_fp_t y2, y;
    do {
        test_rand_fp(x);
        cuzk_g1_curve_rhs(&y2, x);
    } while (cuzk_fp_sqrt(&y, &y2));
}

/* A ‖ B ‖ C compressed, infinity allowed; every part validated; the output untouched on failure. */
static void test_proof_bytes(void **state)
{
    (void)state;
    cuzk_groth16_proof_t p, q;
    uint8_t buf[CUZK_GROTH16_PROOF_BYTES + 1];
    rand_g1(&p.a);
    rand_g2(&p.b);
    cuzk_g1_affine_set_infinity(&p.c); /* infinity is legitimate in a proof */
    cuzk_groth16_proof_to_bytes(buf, &p);
    assert_int_equal(cuzk_groth16_proof_from_bytes(&q, buf, CUZK_GROTH16_PROOF_BYTES), CUZK_OK);
    assert_true(cuzk_g1_affine_eq(&p.a, &q.a));
    assert_true(cuzk_g2_affine_eq(&p.b, &q.b));
    assert_true(cuzk_g1_affine_is_infinity(&q.c));
    uint8_t part[CUZK_G2_COMPRESSED_BYTES];
    cuzk_g1_to_compressed(part, &p.a);
    assert_memory_equal(buf, part, CUZK_G1_COMPRESSED_BYTES);
    cuzk_g2_to_compressed(part, &p.b);
    assert_memory_equal(buf + CUZK_G1_COMPRESSED_BYTES, part, CUZK_G2_COMPRESSED_BYTES);

    /* one byte short or long */
    assert_int_equal(cuzk_groth16_proof_from_bytes(&q, buf, CUZK_GROTH16_PROOF_BYTES - 1), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(cuzk_groth16_proof_from_bytes(&q, buf, CUZK_GROTH16_PROOF_BYTES + 1), CUZK_ERR_BAD_LENGTH);
    /* B outside the subgroup */
    cuzk_g2_affine_t off;
    off_subgroup_g2(&off);
    cuzk_g2_to_compressed(buf + CUZK_G1_COMPRESSED_BYTES, &off);
    assert_int_equal(cuzk_groth16_proof_from_bytes(&q, buf, CUZK_GROTH16_PROOF_BYTES), CUZK_ERR_NOT_IN_SUBGROUP);
    /* C without its compression flag */
    cuzk_groth16_proof_to_bytes(buf, &p);
    buf[CUZK_G1_COMPRESSED_BYTES + CUZK_G2_COMPRESSED_BYTES] = 0x00;
    assert_int_equal(cuzk_groth16_proof_from_bytes(&q, buf, CUZK_GROTH16_PROOF_BYTES), CUZK_ERR_BAD_FLAGS);
    /* A with an x that has no point */
    cuzk_groth16_proof_to_bytes(buf, &p);
    cuzk_fp_t nx;
    g1_x_without_y(&nx);
    cuzk_fp_to_bytes_be(buf, &nx);
    buf[0] |= 0x80;
    assert_int_equal(cuzk_groth16_proof_from_bytes(&q, buf, CUZK_GROTH16_PROOF_BYTES), CUZK_ERR_NOT_COMPRESSIBLE);
    assert_true(cuzk_g1_affine_is_infinity(&q.c)); /* untouched on failure */
}

/* cuzk_groth16_zkey_write gives the image the section model above gives (snarkjs's section order), up to section 10's
 * random hash, and reads back to the same key. */
static void test_zkey_write(void **state)
{
    (void)state;
    g16_circuit c;
    g16_circuit_make(&c, 60, 2, test_rand_u64(), test_rand_u64());
    zmodel z;
    memset(&z, 0, sizeof z);
    setup_for(&z.pk, c.r, CUZK_GROTH16_SNARKJS);
    const cuzk_r1cs_t *m = z.pk.circuit;
    z.nvars = (uint32_t)cuzk_r1cs_num_vars(m);
    z.npub = m->num_inputs - 1;
    z.domain = (uint32_t)z.pk.domain_size;
    z.coefs = malloc((m->m[CUZK_R1CS_A].nnz + m->m[CUZK_R1CS_B].nnz) * sizeof *z.coefs);
    for (uint64_t row = 0; row < m->num_constraints; row++)
        for (uint32_t k = 0; k < 2; k++)
            for (uint64_t e = m->m[k].row_ptr[row]; e < m->m[k].row_ptr[row + 1]; e++)
                z.coefs[z.ncoef++] = (zcoef){k, (uint32_t)row, m->m[k].col[e], m->values[m->m[k].coef[e]]};
    tbuf s[10];
    zmodel_sections(&z, s);
    size_t want_len, len;
    uint8_t *want = zkey_image(s, SETUP_ORDER, 10, &want_len);
    const char *path = tmp_path("w.zkey");
    assert_int_equal(cuzk_groth16_zkey_write(&z.pk, path, NULL), CUZK_OK);
    uint8_t *img = read_bytes(path, &len);
    assert_int_equal(len, want_len);
    assert_memory_equal(img, want, len - 68); /* section 10's payload: a 64-byte hash, no contributions */
    assert_int_equal(cuzk_load_le32(img + len - 4), 0);
    cuzk_groth16_pk back;
    assert_int_equal(cuzk_groth16_zkey_load(&back, path, CUZK_GROTH16_LOAD_SUBGROUP, 2, NULL), CUZK_OK);
    assert_pk_points_equal(&z.pk, &back);
    cuzk_groth16_pk_free(&back);
    assert_int_equal(cuzk_groth16_zkey_parse(&back, img, len, 0, 1, NULL), CUZK_OK);
    assert_pk_points_equal(&z.pk, &back);
    cuzk_groth16_pk_free(&back);
    /* a bellperson key has no .zkey form */
    cuzk_groth16_pk bell;
    setup_for(&bell, c.r, CUZK_GROTH16_BELLPERSON);
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_zkey_write(&bell, path, &err), CUZK_ERR_INVALID_ARG);
    assert_true(msg_has(&err, "snarkjs-convention"));
    cuzk_groth16_pk_free(&bell);
    unlink(path);
    free(img);
    free(want);
    sections_free(s);
    zmodel_free(&z);
    g16_circuit_free(&c);
}

/* Formats by content: every kind, and the damaged ones named for what they are, with how they are wrong. */
static void expect_format(const uint8_t *b, size_t n, cuzk_groth16_format want, cuzk_groth16_shape shape,
                          uint64_t expected, const char *what)
{
    cuzk_groth16_format_info in;
    cuzk_groth16_format f = cuzk_groth16_detect_format(b, n, &in);
    if (f != want || in.shape != shape)
        fail_msg("detected %s (shape %d), want %s (shape %d): %s", cuzk_groth16_format_name(f), (int)in.shape,
                 cuzk_groth16_format_name(want), (int)shape, in.what);
    assert_int_equal(in.format, f);
    assert_int_equal(in.size, n);
    assert_int_equal(in.expected, expected);
    if (strncmp(in.what, what, strlen(what)) != 0) fail_msg("\"%s\" does not start with \"%s\"", in.what, what);
    assert_int_equal(cuzk_groth16_detect_format(b, n, NULL), want);
}

static void test_detect_format(void **state)
{
    (void)state;
    const cuzk_groth16_shape W = CUZK_GROTH16_SHAPE_WHOLE, T = CUZK_GROTH16_SHAPE_TRUNCATED,
                             X = CUZK_GROTH16_SHAPE_TRAILING, D = CUZK_GROTH16_SHAPE_DAMAGED;
    const cuzk_groth16_format PARAMS = CUZK_GROTH16_FORMAT_PARAMS, VK = CUZK_GROTH16_FORMAT_VK;
    cuzk_groth16_pk pk;
    size_t len;
    uint8_t *img = params_image(&pk, &len);
    img = realloc(img, len + 64);
    memset(img + len, 0, 64);
    expect_format(img, len, PARAMS, W, 0, "a bellperson parameters (.params)");
    expect_format(img, P_VK_BYTES, VK, W, 0, "a bellperson verifying key (.vk)");
    /* a truncated .vk is a truncated .vk, at any length from α1 on */
    expect_format(img, P_VK_BYTES - 1, VK, T, P_VK_BYTES,
                  "a truncated .vk (3 IC points make 1156 bytes, this file has 1155)");
    expect_format(img, 900, VK, T, P_VK_BYTES, "a truncated .vk (3 IC points make 1156 bytes, this file has 900)");
    expect_format(img, 500, VK, T, 0,
                  "a truncated .vk (six points and the IC count make at least 868 bytes, this "
                  "file has 500)");
    expect_format(img, 96, VK, T, 0, "a truncated .vk");
    expect_format(img, 95, CUZK_GROTH16_FORMAT_UNKNOWN, W, 0, "no format cuzk knows"); /* no whole α1 */
    /* a .vk with bytes appended is a .vk with trailing bytes, however many, unless H follows */
    expect_format(img, P_VK_BYTES + 1, VK, X, P_VK_BYTES,
                  "a .vk with 1 trailing byte (3 IC points make 1156 bytes, this file has 1157)");
    expect_format(img, P_VK_BYTES + 19, VK, X, P_VK_BYTES, "a .vk with 19 trailing bytes");
    expect_format(img, P_VK_BYTES + 99, VK, X, P_VK_BYTES, "a .vk with 99 trailing bytes");
    uint8_t *vk_zeros = calloc(1, P_VK_BYTES + 500);
    memcpy(vk_zeros, img, P_VK_BYTES);
    expect_format(vk_zeros, P_VK_BYTES + 500, VK, X, P_VK_BYTES, "a .vk with 500 trailing bytes");
    /* ... but a .params cut anywhere after H's first point is a truncated .params */
    expect_format(img, P_VK_BYTES + 100, PARAMS, T, 0, "a truncated .params (h count 7 needs 672 bytes, only 96 left)");
    expect_format(img, len - 1, PARAMS, T, 0, "a truncated .params (b_g2 count 4 needs 768 bytes, only 767 left)");
    expect_format(img, len + 64, PARAMS, X, len, "a .params with 64 trailing bytes");
    /* counts that lay out no file: h + 1 must be a power of two */
    uint8_t *bad = malloc(len);
    memcpy(bad, img, len);
    put_be32(bad + P_OFF_L, P_L - 1);
    put_be32(bad + P_OFF_A, P_A + 4);
    expect_format(bad, len, PARAMS, T, 0, "a truncated .params");
    free(bad);
    cuzk_groth16_vk vk;
    cuzk_errmsg err = {{0}};
    /* a .vk + 1 byte is refused as a .vk for its trailing byte; an intact .vk given as a .params is named */
    assert_int_equal(cuzk_groth16_vk_parse(&vk, img, P_VK_BYTES + 1, &err), CUZK_ERR_BAD_LENGTH);
    assert_true(msg_has(&err, "trailing"));
    cuzk_groth16_pk out;
    assert_int_equal(cuzk_groth16_params_parse(&out, img, P_VK_BYTES, 0, 1, &err), CUZK_ERR_BAD_MAGIC);
    assert_true(
        msg_has(&err, "params: this is a bellperson verifying key (.vk), not a bellperson parameters (.params)"));
    /* a .vk with more trailing bytes than a .params cut in H's first point could have is named too */
    assert_int_equal(cuzk_groth16_params_parse(&out, vk_zeros, P_VK_BYTES + 500, 0, 1, &err), CUZK_ERR_BAD_MAGIC);
    assert_true(msg_has(&err, "params: this is a .vk with 500 trailing bytes (3 IC points make 1156 bytes"));
    /* a truncated .vk, or one with fewer trailing bytes, is also a .params cut short: the layout says where */
    assert_int_equal(cuzk_groth16_params_parse(&out, img, 900, 0, 1, &err), CUZK_ERR_TRUNCATED);
    assert_true(msg_has(&err, "params: ic count 3 needs 288 bytes"));
    assert_int_equal(cuzk_groth16_params_parse(&out, img, P_VK_BYTES + 1, 0, 1, &err), CUZK_ERR_TRUNCATED);
    assert_int_equal(cuzk_groth16_params_parse(&out, img, P_VK_BYTES + 99, 0, 1, &err), CUZK_ERR_TRUNCATED);
    /* ... but not when its H count would be 0 */
    assert_int_equal(cuzk_groth16_params_parse(&out, vk_zeros, P_VK_BYTES + 30, 0, 1, &err), CUZK_ERR_BAD_MAGIC);
    assert_true(msg_has(&err, "params: this is a .vk with 30 trailing bytes"));
    cuzk_groth16_format_info in;
    cuzk_groth16_detect_format(img, 900, &in);
    assert_int_equal(in.also, PARAMS);
    assert_true(cuzk_groth16_format_may_be(&in, PARAMS) && cuzk_groth16_format_may_be(&in, VK));
    assert_false(cuzk_groth16_format_may_be(&in, CUZK_GROTH16_FORMAT_ZKEY));
    cuzk_groth16_detect_format(img, len, &in);
    assert_int_equal(in.also, CUZK_GROTH16_FORMAT_UNKNOWN);
    assert_false(cuzk_groth16_format_may_be(&in, VK));
    assert_int_equal(cuzk_groth16_vk_parse(&vk, img, P_VK_BYTES, NULL), CUZK_OK);
    cuzk_groth16_vk_free(&vk);
    /* its input count from the header alone */
    uint64_t inputs = 0;
    assert_int_equal(cuzk_groth16_vk_inputs(img, P_VK_BYTES, &inputs, NULL), CUZK_OK);
    assert_int_equal(inputs, P_IC);
    assert_int_equal(cuzk_groth16_vk_inputs(img, P_VK_BYTES - 1, &inputs, &err), CUZK_ERR_TRUNCATED);
    assert_true(msg_has(&err, "vk: this is a truncated .vk"));
    assert_int_equal(cuzk_groth16_vk_inputs(img, P_VK_BYTES + 1, &inputs, &err), CUZK_ERR_BAD_LENGTH);
    assert_true(msg_has(&err, "vk: this is a .vk with 1 trailing byte"));
    assert_int_equal(cuzk_groth16_vk_inputs(img, len, &inputs, &err), CUZK_ERR_BAD_MAGIC);
    assert_true(msg_has(&err, "this is a bellperson parameters (.params)"));

    /* the magic formats, measured by their headers */
    static const struct {
        const char *text;
        size_t n;
        cuzk_groth16_format f;
        cuzk_groth16_shape shape;
        const char *what;
    } texts[] = {
#define SHAPE_(x) CUZK_GROTH16_SHAPE_##x
        {"CUZKPCE\0....", 13, CUZK_GROTH16_FORMAT_PCE, SHAPE_(TRUNCATED),
         "a truncated .pce (13 bytes, shorter than the 4096-byte header)"},
        {"wtns\2\0\0\0\0\0\0\0", 12, CUZK_GROTH16_FORMAT_WTNS, SHAPE_(WHOLE), "an iden3 witness (.wtns)"},
        {"wtns\2\0\0\0\0\0\0\0xy", 14, CUZK_GROTH16_FORMAT_WTNS, SHAPE_(TRAILING),
         "a .wtns with 2 trailing bytes (its sections end at byte 12, this file has 14)"},
        {"r1cs\1\0\0\0\1\0\0\0\1\0\0\0\5\0\0\0\0\0\0\0abc", 27, CUZK_GROTH16_FORMAT_R1CS, SHAPE_(TRUNCATED),
         "a truncated .r1cs (section 0 (type 1) length 5 exceeds the 3 bytes left)"},
        {"zkey\1\0\0\0\2\0\0\0", 12, CUZK_GROTH16_FORMAT_ZKEY, SHAPE_(TRUNCATED),
         "a truncated .zkey (section 0 of 2 header at 12 is past the end (12))"},
        {"ptau\1\0\0", 7, CUZK_GROTH16_FORMAT_PTAU, SHAPE_(TRUNCATED),
         "a truncated .ptau (7 bytes, shorter than the file header)"},
        {" [\"1\", \"2\"]", 11, CUZK_GROTH16_FORMAT_PUBLIC_JSON, SHAPE_(WHOLE),
         "a snarkjs public inputs (public.json)"},
        {"{\n \"pi_a\": []}", 14, CUZK_GROTH16_FORMAT_PROOF_JSON, SHAPE_(WHOLE), "a snarkjs proof (proof.json)"},
        {"{\"protocol\": \"groth16\", \"vk_alpha_1\": []}", 41, CUZK_GROTH16_FORMAT_VK_JSON, SHAPE_(WHOLE),
         "a snarkjs verification key"},
        {"{\"IC\": []}", 10, CUZK_GROTH16_FORMAT_VK_JSON, SHAPE_(WHOLE), "a snarkjs verification key"},
        {"{\"pi\": 1, \"xIC\": 2}", 20, CUZK_GROTH16_FORMAT_UNKNOWN, SHAPE_(WHOLE),
         "no format cuzk knows (a JSON object with none of the keys"},
        {"hello", 5, CUZK_GROTH16_FORMAT_UNKNOWN, SHAPE_(WHOLE), "no format cuzk knows"},
        {"", 0, CUZK_GROTH16_FORMAT_UNKNOWN, SHAPE_(WHOLE), "an empty file"},
#undef SHAPE_
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        expect_format((const uint8_t *)texts[i].text, texts[i].n, texts[i].f, texts[i].shape,
                      texts[i].shape == X ? 12 : 0, texts[i].what);
    expect_format(NULL, 0, CUZK_GROTH16_FORMAT_UNKNOWN, W, 0, "an empty file");
    /* a .pce measured by its section table */
    g16_circuit c;
    g16_circuit_make(&c, 20, 2, 5, 6);
    const char *pce = tmp_path("d.pce");
    assert_int_equal(cuzk_r1cs_pce_write(c.r, pce, NULL), CUZK_OK);
    g16_circuit_free(&c);
    size_t plen;
    uint8_t *pimg = read_bytes(pce, &plen);
    unlink(pce);
    pimg = realloc(pimg, plen + 4096);
    memset(pimg + plen, 0, 4096);
    expect_format(pimg, plen, CUZK_GROTH16_FORMAT_PCE, W, 0, "a PCE (compiled constraint system)");
    expect_format(pimg, plen - 4096, CUZK_GROTH16_FORMAT_PCE, T, plen, "a truncated .pce (its sections end at byte");
    expect_format(pimg, plen + 4096, CUZK_GROTH16_FORMAT_PCE, X, plen, "a .pce with 4096 trailing bytes");
    pimg[72] = 12;
    expect_format(pimg, plen, CUZK_GROTH16_FORMAT_PCE, D, 0, "a damaged .pce (section count 12, expected 13)");
    free(pimg);

    /* a proof.json given as a .params is named, not read as counts */
    const char *pj = "{\n \"pi_a\": [\"1\", \"2\", \"1\"], \"pi_b\": [], \"pi_c\": []}\n";
    assert_int_equal(cuzk_groth16_params_parse(&out, (const uint8_t *)pj, strlen(pj), 0, 1, &err), CUZK_ERR_BAD_MAGIC);
    assert_true(msg_has(&err, "params: this is a snarkjs proof (proof.json), not a bellperson parameters (.params)"));
    assert_int_equal(cuzk_groth16_vk_parse(&vk, (const uint8_t *)pj, strlen(pj), &err), CUZK_ERR_BAD_MAGIC);

    /* a 192-byte proof, one cut short, one with a byte appended */
    cuzk_groth16_proof_t p;
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    cuzk_g1_generator(&g1);
    cuzk_g2_generator(&g2);
    p.a = p.c = g1;
    p.b = g2;
    uint8_t pb[CUZK_GROTH16_PROOF_BYTES + 1] = {0};
    cuzk_groth16_proof_to_bytes(pb, &p);
    expect_format(pb, 192, CUZK_GROTH16_FORMAT_PROOF_BIN, W, 0, "a Groth16 proof (192 bytes, bellperson encoding)");
    expect_format(pb, 191, CUZK_GROTH16_FORMAT_PROOF_BIN, T, 192,
                  "a truncated 192-byte proof (a proof is 192 bytes, this file has 191)");
    expect_format(pb, 193, CUZK_GROTH16_FORMAT_PROOF_BIN, X, 192, "a 192-byte proof with 1 trailing byte");
    pb[48] &= 0x7f;
    expect_format(pb, 192, CUZK_GROTH16_FORMAT_PROOF_BIN, D, 0, "a damaged 192-byte proof (B at byte 48");
    assert_string_equal(cuzk_groth16_format_name(CUZK_GROTH16_FORMAT_ZKEY), "snarkjs proving key (.zkey)");
    assert_string_equal(cuzk_groth16_format_name((cuzk_groth16_format)99), "unknown");
    assert_string_equal(cuzk_groth16_format_short_name(CUZK_GROTH16_FORMAT_VK), ".vk");
    free(vk_zeros);
    free(img);
    cuzk_groth16_pk_free(&pk);
}

/* Run by the groth16 test executable (main is in test_prove.c). */
const struct CMUnitTest test_formats_tests[] = {
    cmocka_unit_test(test_proof_bytes),
    cmocka_unit_test(test_params_round_trip),
    cmocka_unit_test(test_vk_round_trip),
    cmocka_unit_test(test_params_truncated),
    cmocka_unit_test(test_params_hostile_counts),
    cmocka_unit_test(test_params_corrupt_points),
    cmocka_unit_test(test_params_write_rejects),
    cmocka_unit_test(test_zkey_load),
    cmocka_unit_test(test_zkey_coef_encoding),
    cmocka_unit_test(test_zkey_hostile),
    cmocka_unit_test(test_keyio_g1_iden3_batches),
#ifdef CUZK_HAVE_JANSSON
    cmocka_unit_test(test_json_proof),
    cmocka_unit_test(test_json_public),
    cmocka_unit_test(test_json_vk),
#else
    cmocka_unit_test(test_json_unsupported),
#endif
    cmocka_unit_test(test_setup_params_prove),
    cmocka_unit_test(test_setup_zkey_prove),
    cmocka_unit_test(test_zkey_write),
    cmocka_unit_test(test_detect_format),
};
const size_t test_formats_count = sizeof test_formats_tests / sizeof test_formats_tests[0];
