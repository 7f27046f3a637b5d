/* The 192-byte Groth16 proof of bellperson: A ‖ B ‖ C, each zcash-compressed. */
#include "cuzk/ec.h"

void groth16_proof_to_bytes(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *p)
{
    g1_to_compressed(out, &p->a);
    g2_to_compressed(out + G1_COMPRESSED_BYTES, &p->b);
    g1_to_compressed(out + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, &p->c);
}

cuzk_status groth16_proof_from_bytes(groth16_proof_t *r, const uint8_t *in, size_t len)
{
    if (len != GROTH16_PROOF_BYTES) return CUZK_ERR_BAD_LENGTH;
    groth16_proof_t p;
    cuzk_status s = g1_from_compressed(&p.a, in, G1_COMPRESSED_BYTES, EC_DECODE_ALLOW_INFINITY);
    if (s == CUZK_OK) {
        s = g2_from_compressed(&p.b, in + G1_COMPRESSED_BYTES, G2_COMPRESSED_BYTES, EC_DECODE_ALLOW_INFINITY);
    }
    if (s == CUZK_OK) {
        s = g1_from_compressed(&p.c, in + G1_COMPRESSED_BYTES + G2_COMPRESSED_BYTES, G1_COMPRESSED_BYTES,
                               EC_DECODE_ALLOW_INFINITY);
    }
    if (s != CUZK_OK) return s;
    *r = p;
    return CUZK_OK;
}
