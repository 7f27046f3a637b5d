/* Pieces shared by the key-file readers (params.c, zkey.c): decoding a run of encoded points over several threads,
 * the size of an encoded point. Files are mapped and iden3 containers walked with the r1cs layer's helpers
 * (cuzk_r1cs_map_file, cuzk_r1cs_iden3_check / cuzk_r1cs_iden3_find in src/r1cs/r1cs_int.h). */
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

/* Decodes n points of encoding enc from src into dst (cuzk_g1_affine_t or cuzk_g2_affine_t array) with the ec decoder flags,
 * spread over `threads` threads. On failure returns the status of the lowest failing index, which goes to *bad. */
cuzk_status cuzk_keyio_decode_points(void *dst, const uint8_t *src, uint64_t n, keyio_enc enc, unsigned flags,
                                unsigned threads, uint64_t *bad);

/* Bytes of one encoded point. */
static inline size_t keyio_point_bytes(keyio_enc enc)
{
    return (enc == KEYIO_G2_ZCASH || enc == KEYIO_G2_IDEN3) ? 192 : 96;
}

/* ---- bellperson .params (params.c), shared with the GPU loader -------------------------------------------------- */
/* The counted arrays in file order, after the six fixed vk points (α1, β1, β2, γ2, δ1, δ2). */
enum { PARAMS_SEC_IC, PARAMS_SEC_H, PARAMS_SEC_L, PARAMS_SEC_A, PARAMS_SEC_B_G1, PARAMS_SEC_B_G2, PARAMS_SEC_COUNT };
#define PARAMS_VK_FIXED_BYTES (3 * 96 + 3 * 192)
/* The 4 bytes at byte pos of the file (within its length); false when they cannot be read. */
typedef bool (*params_read4_fn)(void *ctx, uint64_t pos, uint8_t out[4]);
/* The layout of a len-byte .params file: off[k] / cnt[k] locate array k (off at its first point). Every check and
 * message of cuzk_groth16_params_load before any point is decoded (CUZK_ERR_TRUNCATED, CUZK_ERR_BAD_LENGTH,
 * CUZK_ERR_BAD_HEADER; CUZK_ERR_IO when read4 fails). */
cuzk_status cuzk_params_layout(uint64_t off[PARAMS_SEC_COUNT], uint64_t cnt[PARAMS_SEC_COUNT], size_t len,
                          params_read4_fn read4, void *ctx, cuzk_errmsg *err);
/* Decodes the six fixed vk points at d (PARAMS_VK_FIXED_BYTES bytes) with the ec decoder flags. */
cuzk_status cuzk_params_decode_vk_fixed(cuzk_groth16_vk *vk, const uint8_t *d, unsigned ecflags, const char *what,
                                   cuzk_errmsg *err);
/* The message of a bad point: status s at index bad of array k ("params: h[2] (byte 1540): ..."); returns s. */
cuzk_status cuzk_params_point_fail(cuzk_errmsg *err, cuzk_status s, const uint64_t off[PARAMS_SEC_COUNT], int k,
                              uint64_t bad, const char *what);
const char *cuzk_params_section_name(int k);

#endif
