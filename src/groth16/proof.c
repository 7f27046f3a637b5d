/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The 192-byte Groth16 proof of bellperson: A ‖ B ‖ C, each zcash-compressed. */
#include "cuzk/groth16.h"

void cuzk_groth16_proof_to_bytes(uint8_t out[CUZK_GROTH16_PROOF_BYTES], const cuzk_groth16_proof_t *p)
{
    cuzk_g1_to_compressed(out, &p->a);
    cuzk_g2_to_compressed(out + CUZK_G1_COMPRESSED_BYTES, &p->b);
    cuzk_g1_to_compressed(out + CUZK_G1_COMPRESSED_BYTES + CUZK_G2_COMPRESSED_BYTES, &p->c);
}

cuzk_status cuzk_groth16_proof_from_bytes(cuzk_groth16_proof_t *r, const uint8_t *in, size_t len)
{
    if (len != CUZK_GROTH16_PROOF_BYTES) return CUZK_ERR_BAD_LENGTH;
    cuzk_groth16_proof_t p;
    const uint8_t *b = in + CUZK_G1_COMPRESSED_BYTES, *c = b + CUZK_G2_COMPRESSED_BYTES;
    cuzk_status s = cuzk_g1_from_compressed(&p.a, in, CUZK_G1_COMPRESSED_BYTES, CUZK_EC_DECODE_ALLOW_INFINITY);
    if (s == CUZK_OK) s = cuzk_g2_from_compressed(&p.b, b, CUZK_G2_COMPRESSED_BYTES, CUZK_EC_DECODE_ALLOW_INFINITY);
    if (s == CUZK_OK) s = cuzk_g1_from_compressed(&p.c, c, CUZK_G1_COMPRESSED_BYTES, CUZK_EC_DECODE_ALLOW_INFINITY);
    if (s != CUZK_OK) return s;
    *r = p;
    return CUZK_OK;
}
