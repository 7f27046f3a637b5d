/* Pieces shared by the key-file readers (params.c, zkey.c): decoding a run of encoded points over several threads,
 * the size of an encoded point. Files are mapped and iden3 containers walked with the r1cs layer's helpers
 * (r1cs_map_file, r1cs_iden3_check / r1cs_iden3_find in src/r1cs/r1cs_int.h). */
#ifndef CUZK_GROTH16_KEYIO_H
#define CUZK_GROTH16_KEYIO_H

#include "cuzk/groth16.h"

/* The four point encodings key files use. */
typedef enum {
    KEYIO_G1_ZCASH, /* 96-byte uncompressed zcash (bellperson .params) */
    KEYIO_G2_ZCASH, /* 192-byte uncompressed zcash */
    KEYIO_G1_IDEN3, /* 96-byte iden3 Montgomery (snarkjs .zkey) */
    KEYIO_G2_IDEN3, /* 192-byte iden3 Montgomery */
} keyio_enc;

/* Decodes n points of encoding enc from src into dst (g1_affine_t or g2_affine_t array) with the ec decoder flags,
 * spread over `threads` threads. On failure returns the status of the lowest failing index, which goes to *bad. */
cuzk_status keyio_decode_points(void *dst, const uint8_t *src, uint64_t n, keyio_enc enc, unsigned flags,
                                unsigned threads, uint64_t *bad);

/* Bytes of one encoded point. */
static inline size_t keyio_point_bytes(keyio_enc enc)
{
    return (enc == KEYIO_G2_ZCASH || enc == KEYIO_G2_IDEN3) ? 192 : 96;
}

#endif
