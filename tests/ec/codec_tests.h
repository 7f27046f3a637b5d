/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Encoding tests shared by G1 and G2. Besides the macros of group_tests.h the including file defines
 * CBYTES / UBYTES / IBYTES (compressed, uncompressed, iden3 lengths). */

static void G_(test_codec_roundtrip)(void **state)
{
    (void)state;
    uint8_t c[CBYTES], u[UBYTES], i3[IBYTES];
    for (int it = 0; it < 4; it++) {
        JAC p;
        AFF a, b, n;
        G_(rand_point)(&p);
        G_(jac_to_affine)(&a, &p);
        for (int sign = 0; sign < 2; sign++) {
            G_(to_compressed)(c, &a);
            assert_int_equal(c[0] & 0xc0, 0x80);
            assert_int_equal((c[0] & 0x20) != 0, FE_(is_lexicographically_largest)(&a.y));
            assert_int_equal(G_(from_compressed)(&b, c, CBYTES, 0), CUZK_OK);
            assert_true(G_(affine_eq)(&a, &b));
            G_(to_uncompressed)(u, &a);
            assert_int_equal(u[0] & 0xe0, 0);
            assert_int_equal(u[0], c[0] & 0x1f);
            assert_memory_equal(u + 1, c + 1, CBYTES - 1);
            assert_int_equal(G_(from_uncompressed)(&b, u, UBYTES, 0), CUZK_OK);
            assert_true(G_(affine_eq)(&a, &b));
            G_(to_iden3)(i3, &a);
            assert_int_equal(G_(from_iden3)(&b, i3, IBYTES, 0), CUZK_OK);
            assert_true(G_(affine_eq)(&a, &b));
            /* the negated point differs only in the sign flag */
            G_(affine_neg)(&n, &a);
            uint8_t cn[CBYTES];
            G_(to_compressed)(cn, &n);
            assert_int_equal(cn[0] ^ c[0], 0x20);
            assert_memory_equal(cn + 1, c + 1, CBYTES - 1);
            a = n;
        }
    }
    /* infinity: the fixed encodings, accepted only when allowed */
    AFF inf, b;
    G_(affine_set_infinity)(&inf);
    G_(to_compressed)(c, &inf);
    G_(to_uncompressed)(u, &inf);
    G_(to_iden3)(i3, &inf);
    assert_int_equal(c[0], 0xc0);
    assert_int_equal(u[0], 0x40);
    for (size_t i = 1; i < CBYTES; i++) assert_int_equal(c[i], 0);
    for (size_t i = 1; i < UBYTES; i++) assert_int_equal(u[i], 0);
    for (size_t i = 0; i < IBYTES; i++) assert_int_equal(i3[i], 0);
    G_(generator)(&b);
    assert_int_equal(G_(from_compressed)(&b, c, CBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_OK);
    assert_true(G_(affine_is_infinity)(&b));
    G_(generator)(&b);
    assert_int_equal(G_(from_uncompressed)(&b, u, UBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_OK);
    assert_true(G_(affine_is_infinity)(&b));
    G_(generator)(&b);
    assert_int_equal(G_(from_iden3)(&b, i3, IBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_OK);
    assert_true(G_(affine_is_infinity)(&b));
    assert_int_equal(G_(from_compressed)(&b, c, CBYTES, 0), CUZK_ERR_INFINITY);
    assert_int_equal(G_(from_uncompressed)(&b, u, UBYTES, CUZK_EC_DECODE_SKIP_SUBGROUP), CUZK_ERR_INFINITY);
    assert_int_equal(G_(from_iden3)(&b, i3, IBYTES, 0), CUZK_ERR_INFINITY);
}

/* Writes p (as big-endian bytes) into a coordinate slot: a value that is exactly the modulus. */
static void G_(put_modulus_be)(uint8_t *out)
{
    for (size_t i = 0; i < CUZK_FP_BYTES; i++)
        out[i] = (uint8_t)(CUZK_FP_MODULUS[(CUZK_FP_BYTES - 1 - i) / 8] >> (8 * ((CUZK_FP_BYTES - 1 - i) % 8)));
}

static void G_(put_modulus_le)(uint8_t *out)
{
    for (size_t i = 0; i < CUZK_FP_BYTES; i++) out[i] = (uint8_t)(CUZK_FP_MODULUS[i / 8] >> (8 * (i % 8)));
}

static void G_(test_codec_rejections)(void **state)
{
    (void)state;
    uint8_t c[CBYTES], u[UBYTES], i3[IBYTES], big[UBYTES + 1] = {0};
    AFF a, b, g, off;
    JAC p;
    G_(generator)(&g);
    G_(rand_point)(&p);
    G_(jac_to_affine)(&a, &p);
    G_(to_compressed)(c, &a);
    G_(to_uncompressed)(u, &a);
    G_(to_iden3)(i3, &a);

    /* wrong length, both ways; r untouched */
    b = g;
    memcpy(big, u, UBYTES);
    assert_int_equal(G_(from_compressed)(&b, c, CBYTES - 1, 0), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(G_(from_compressed)(&b, big, CBYTES + 1, 0), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(G_(from_compressed)(&b, c, 0, 0), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(G_(from_uncompressed)(&b, u, UBYTES - 1, 0), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(G_(from_uncompressed)(&b, big, UBYTES + 1, 0), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(G_(from_iden3)(&b, i3, IBYTES - 1, 0), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(G_(from_iden3)(&b, big, IBYTES + 1, 0), CUZK_ERR_BAD_LENGTH);
    assert_true(G_(affine_eq)(&b, &g));

    /* compressed: flag errors */
    uint8_t t[UBYTES];
    memcpy(t, c, CBYTES);
    t[0] &= 0x7f; /* compressed flag missing */
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, 0), CUZK_ERR_BAD_FLAGS);
    memset(t, 0, CBYTES);
    t[0] = 0xe0; /* infinity with sign */
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_BAD_FLAGS);
    t[0] = 0xc0;
    t[CBYTES - 1] = 1; /* infinity with payload */
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_BAD_FLAGS);
    t[CBYTES - 1] = 0;
    t[0] = 0xc1;
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_BAD_FLAGS);
    memset(t, 0, CBYTES);
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_BAD_FLAGS);
    /* compressed: x = p (the top limb of x carries the flags) */
    memset(t, 0, CBYTES);
    G_(put_modulus_be)(t);
    t[0] |= 0x80;
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, 0), CUZK_ERR_COORD_RANGE);
    memset(t, 0xff, CBYTES);
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, 0), CUZK_ERR_BAD_FLAGS); /* 0xff: infinity with payload */
    t[0] = 0x9f;
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, 0), CUZK_ERR_COORD_RANGE);
    /* compressed: x with no y */
    AFF nx;
    G_(rand_x_without_y)(&nx.x);
    RAND_FE(&nx.y);
    G_(to_uncompressed)(t, &nx); /* x bytes as the encoder writes them */
    t[0] |= 0x80;
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, 0), CUZK_ERR_NOT_COMPRESSIBLE);
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, CUZK_EC_DECODE_SKIP_SUBGROUP), CUZK_ERR_NOT_COMPRESSIBLE);
    /* compressed and uncompressed: on the curve, outside the subgroup */
    G_(rand_curve_point)(&off);
    assert_false(G_(affine_in_subgroup_naive)(&off));
    G_(to_compressed)(t, &off);
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, 0), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(G_(from_compressed)(&b, t, CBYTES, CUZK_EC_DECODE_SKIP_SUBGROUP), CUZK_OK);
    assert_true(G_(affine_eq)(&b, &off));
    G_(to_uncompressed)(t, &off);
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, CUZK_EC_DECODE_SKIP_SUBGROUP), CUZK_OK);
    assert_true(G_(affine_eq)(&b, &off));
    G_(to_iden3)(t, &off);
    assert_int_equal(G_(from_iden3)(&b, t, IBYTES, 0), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(G_(from_iden3)(&b, t, IBYTES, CUZK_EC_DECODE_SKIP_SUBGROUP), CUZK_OK);
    assert_true(G_(affine_eq)(&b, &off));

    /* uncompressed: flag errors */
    memcpy(t, u, UBYTES);
    t[0] |= 0x80;
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, 0), CUZK_ERR_BAD_FLAGS);
    t[0] = u[0] | 0x20;
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, 0), CUZK_ERR_BAD_FLAGS);
    memset(t, 0, UBYTES);
    t[0] = 0x60; /* infinity with sign */
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_BAD_FLAGS);
    t[0] = 0x40;
    t[UBYTES - 1] = 7; /* infinity with payload */
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_BAD_FLAGS);
    t[0] = 0xc0;
    t[UBYTES - 1] = 0; /* compressed infinity in an uncompressed slot */
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_BAD_FLAGS);
    /* uncompressed: coordinates = p, then off the curve, then (0, 0) */
    memcpy(t, u, UBYTES);
    G_(put_modulus_be)(t);
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, 0), CUZK_ERR_COORD_RANGE);
    memcpy(t, u, UBYTES);
    G_(put_modulus_be)(t + UBYTES - CUZK_FP_BYTES);
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, 0), CUZK_ERR_COORD_RANGE);
    memcpy(t, u, UBYTES);
    t[UBYTES - 1] ^= 1;
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, CUZK_EC_DECODE_SKIP_SUBGROUP), CUZK_ERR_NOT_ON_CURVE);
    memset(t, 0, UBYTES);
    assert_int_equal(G_(from_uncompressed)(&b, t, UBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_NOT_ON_CURVE);

    /* iden3: coordinate = p (either coordinate), all-ones, off the curve */
    memcpy(t, i3, IBYTES);
    G_(put_modulus_le)(t + IBYTES - CUZK_FP_BYTES);
    assert_int_equal(G_(from_iden3)(&b, t, IBYTES, 0), CUZK_ERR_COORD_RANGE);
    memcpy(t, i3, IBYTES);
    G_(put_modulus_le)(t);
    assert_int_equal(G_(from_iden3)(&b, t, IBYTES, 0), CUZK_ERR_COORD_RANGE);
    memset(t, 0xff, IBYTES);
    assert_int_equal(G_(from_iden3)(&b, t, IBYTES, 0), CUZK_ERR_COORD_RANGE);
    memcpy(t, i3, IBYTES);
    t[0] ^= 1;
    assert_int_equal(G_(from_iden3)(&b, t, IBYTES, CUZK_EC_DECODE_SKIP_SUBGROUP), CUZK_ERR_NOT_ON_CURVE);
    memset(t, 0, IBYTES);
    t[IBYTES / 2] = 1; /* x = 0, y = tiny: not on the curve, not infinity */
    assert_int_equal(G_(from_iden3)(&b, t, IBYTES, CUZK_EC_DECODE_ALLOW_INFINITY), CUZK_ERR_NOT_ON_CURVE);

    /* none of the failures wrote r */
    assert_true(G_(affine_eq)(&b, &off));
}
