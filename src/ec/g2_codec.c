/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G2 encodings: zcash/IETF (96 / 192 bytes, Fp2 as c1 ‖ c0) and iden3 (192 bytes, Fp2 as c0 ‖ c1). */
#include <string.h>

#include "ec_internal.h"

#define FE_BYTES (2 * CUZK_FP_BYTES)

static void fe_write_be(uint8_t *out, const cuzk_fp2_t *a)
{
    cuzk_fp_to_bytes_be(out, &a->c1);
    cuzk_fp_to_bytes_be(out + CUZK_FP_BYTES, &a->c0);
}

static cuzk_status fe_read_be(cuzk_fp2_t *r, const uint8_t *in)
{
    cuzk_status s = cuzk_fp_from_bytes_be(&r->c1, in);
    if (s != CUZK_OK) return s;
    return cuzk_fp_from_bytes_be(&r->c0, in + CUZK_FP_BYTES);
}

static void fe_write_mont(uint8_t *out, const cuzk_fp2_t *a)
{
    const cuzk_fp_t *c[2] = {&a->c0, &a->c1};
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < CUZK_FP_BYTES; i++)
            out[k * CUZK_FP_BYTES + i] = (uint8_t)(c[k]->l[i / 8] >> (8 * (i % 8)));
    }
}

static cuzk_status fe_read_mont(cuzk_fp2_t *r, const uint8_t *in)
{
    cuzk_fp_t *c[2] = {&r->c0, &r->c1};
    for (size_t k = 0; k < 2; k++) {
        uint64_t l[CUZK_FP_LIMBS];
        for (size_t i = 0; i < CUZK_FP_LIMBS; i++) l[i] = ec_load_le64(in + k * CUZK_FP_BYTES + 8 * i);
        cuzk_status s = cuzk_fp_from_mont_limbs(c[k], l);
        if (s != CUZK_OK) return s;
    }
    return CUZK_OK;
}

#define FE cuzk_fp2_t
#define FE_(name) cuzk_fp2_##name
#define G_(name) cuzk_g2_##name
#define AFF cuzk_g2_affine_t
#include "codec_template.h"
