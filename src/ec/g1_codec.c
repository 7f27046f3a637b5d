/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G1 encodings: zcash/IETF (48 / 96 bytes) and iden3 (96 bytes). */
#include <string.h>

#include "ec_internal.h"

#define FE_BYTES CUZK_FP_BYTES

static void fe_write_be(uint8_t *out, const cuzk_fp_t *a) { cuzk_fp_to_bytes_be(out, a); }
static cuzk_status fe_read_be(cuzk_fp_t *r, const uint8_t *in) { return cuzk_fp_from_bytes_be(r, in); }

static void fe_write_mont(uint8_t *out, const cuzk_fp_t *a)
{
    for (size_t i = 0; i < CUZK_FP_BYTES; i++) out[i] = (uint8_t)(a->l[i / 8] >> (8 * (i % 8)));
}

static cuzk_status fe_read_mont(cuzk_fp_t *r, const uint8_t *in)
{
    uint64_t l[CUZK_FP_LIMBS];
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++) l[i] = ec_load_le64(in + 8 * i);
    return cuzk_fp_from_mont_limbs(r, l);
}

#define FE cuzk_fp_t
#define FE_(name) cuzk_fp_##name
#define G_(name) cuzk_g1_##name
#define AFF cuzk_g1_affine_t
#include "codec_template.h"
