/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* zcash/IETF and iden3 encodings, written once for G1 and G2. The including file defines, besides FE, FE_, G_ and
 * AFF as for curve_template.h:
 *   FE_BYTES                   bytes of one coordinate (48 or 96)
 *   fe_write_be / fe_read_be   zcash coordinate order (Fp2: c1 ‖ c0), big-endian; read returns
 *                              CUZK_ERR_NOT_CANONICAL for a value >= p
 *   fe_write_mont / fe_read_mont  iden3 coordinate order (Fp2: c0 ‖ c1), little-endian Montgomery limbs
 * Decoding never trusts its input: every byte is checked before a point is returned, and r is written only on
 * success. */

static bool G_(all_zero)(const uint8_t *in, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= in[i];
    return acc == 0;
}

/* The checks every decoder ends with: curve (never skipped), then subgroup unless skipped. */
static cuzk_status G_(validate)(const AFF *p, unsigned flags)
{
    if (!G_(affine_on_curve)(p)) return CUZK_ERR_NOT_ON_CURVE;
    if (!(flags & CUZK_EC_DECODE_SKIP_SUBGROUP) && !G_(affine_in_subgroup)(p)) return CUZK_ERR_NOT_IN_SUBGROUP;
    return CUZK_OK;
}

static cuzk_status G_(infinity_result)(AFF *r, unsigned flags)
{
    if (!(flags & CUZK_EC_DECODE_ALLOW_INFINITY)) return CUZK_ERR_INFINITY;
    G_(affine_set_infinity)(r);
    return CUZK_OK;
}

void G_(to_compressed)(uint8_t out[FE_BYTES], const AFF *p)
{
    if (G_(affine_is_infinity)(p)) {
        memset(out, 0, FE_BYTES);
        out[0] = 0xc0;
        return;
    }
    fe_write_be(out, &p->x);
    out[0] |= 0x80;
    if (FE_(is_lexicographically_largest)(&p->y)) out[0] |= 0x20;
}

void G_(to_uncompressed)(uint8_t out[2 * FE_BYTES], const AFF *p)
{
    if (G_(affine_is_infinity)(p)) {
        memset(out, 0, 2 * FE_BYTES);
        out[0] = 0x40;
        return;
    }
    fe_write_be(out, &p->x);
    fe_write_be(out + FE_BYTES, &p->y);
}

cuzk_status G_(from_compressed)(AFF *r, const uint8_t *in, size_t len, unsigned flags)
{
    if (len != FE_BYTES) return CUZK_ERR_BAD_LENGTH;
    uint8_t top = in[0] & 0xe0;
    if (!(top & 0x80)) return CUZK_ERR_BAD_FLAGS;
    if (top & 0x40) {
        /* infinity: the sign bit and every payload bit must be clear */
        if ((top & 0x20) || (in[0] & 0x1f) || !G_(all_zero)(in + 1, FE_BYTES - 1)) return CUZK_ERR_BAD_FLAGS;
        return G_(infinity_result)(r, flags);
    }
    uint8_t buf[FE_BYTES];
    memcpy(buf, in, FE_BYTES);
    buf[0] &= 0x1f;
    AFF p;
    if (fe_read_be(&p.x, buf) != CUZK_OK) return CUZK_ERR_COORD_RANGE;
    FE y2;
    G_(curve_rhs)(&y2, &p.x);
    if (!FE_(sqrt)(&p.y, &y2)) return CUZK_ERR_NOT_COMPRESSIBLE;
    if (FE_(is_lexicographically_largest)(&p.y) != ((top & 0x20) != 0)) FE_(neg)(&p.y, &p.y);
    cuzk_status s = G_(validate)(&p, flags);
    if (s != CUZK_OK) return s;
    *r = p;
    return CUZK_OK;
}

cuzk_status G_(from_uncompressed)(AFF *r, const uint8_t *in, size_t len, unsigned flags)
{
    if (len != 2 * FE_BYTES) return CUZK_ERR_BAD_LENGTH;
    uint8_t top = in[0] & 0xe0;
    if (top & 0xa0) return CUZK_ERR_BAD_FLAGS; /* compressed or sign flag in an uncompressed encoding */
    if (top & 0x40) {
        if ((in[0] & 0x1f) || !G_(all_zero)(in + 1, 2 * FE_BYTES - 1)) return CUZK_ERR_BAD_FLAGS;
        return G_(infinity_result)(r, flags);
    }
    AFF p;
    if (fe_read_be(&p.x, in) != CUZK_OK || fe_read_be(&p.y, in + FE_BYTES) != CUZK_OK) return CUZK_ERR_COORD_RANGE;
    /* (0, 0) is our in-memory infinity but not a curve point; here it can only be a malformed encoding */
    if (G_(affine_is_infinity)(&p)) return CUZK_ERR_NOT_ON_CURVE;
    cuzk_status s = G_(validate)(&p, flags);
    if (s != CUZK_OK) return s;
    *r = p;
    return CUZK_OK;
}

void G_(to_iden3)(uint8_t out[2 * FE_BYTES], const AFF *p)
{
    /* infinity is (0, 0) in memory, and 0 in Montgomery form is 0: all-zero bytes as the format wants */
    fe_write_mont(out, &p->x);
    fe_write_mont(out + FE_BYTES, &p->y);
}

cuzk_status G_(from_iden3)(AFF *r, const uint8_t *in, size_t len, unsigned flags)
{
    if (len != 2 * FE_BYTES) return CUZK_ERR_BAD_LENGTH;
    if (G_(all_zero)(in, 2 * FE_BYTES)) return G_(infinity_result)(r, flags);
    AFF p;
    if (fe_read_mont(&p.x, in) != CUZK_OK || fe_read_mont(&p.y, in + FE_BYTES) != CUZK_OK) {
        return CUZK_ERR_COORD_RANGE;
    }
    /* a non-zero encoding whose coordinates are both zero mod p cannot happen: each is < p */
    cuzk_status s = G_(validate)(&p, flags);
    if (s != CUZK_OK) return s;
    *r = p;
    return CUZK_OK;
}
