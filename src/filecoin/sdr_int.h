/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Internals shared by the SDR files of the filecoin layer: SHA-256 (streaming, on top of the public block function),
 * BLAKE2b, the ChaCha block function, the thread count, and Fr addition on byte reprs. */
#ifndef CUZK_FILECOIN_SDR_INT_H
#define CUZK_FILECOIN_SDR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin.h"

/* ---- SHA-256 (sdr_sha256.c) ---------------------------------------------------------------------------------- */
extern const uint32_t CUZK_FIL_SDR_SHA256_IV[8];

typedef struct {
    uint32_t h[8];
    uint64_t len; /* bytes absorbed */
    uint8_t buf[64];
    size_t fill;
} cuzk_fil_sdr_sha256_ctx;

void cuzk_fil_sdr_sha256_init(cuzk_fil_sdr_sha256_ctx *c);
void cuzk_fil_sdr_sha256_update(cuzk_fil_sdr_sha256_ctx *c, const void *data, size_t len);
void cuzk_fil_sdr_sha256_final(cuzk_fil_sdr_sha256_ctx *c, uint8_t out[32]);
void cuzk_fil_sdr_sha256(const void *data, size_t len, uint8_t out[32]);
/* The state as the 32 digest bytes (big-endian words). */
void cuzk_fil_sdr_sha256_state_bytes(const uint32_t h[8], uint8_t out[32]);
/* The portable block function, whatever the processor has (tests compare both paths). */
void cuzk_fil_sdr_sha256_blocks_portable(uint32_t h[8], const uint8_t *blocks, size_t n);
/* True when the SHA extensions are used by cuzk_fil_sdr_sha256_blocks. */
bool cuzk_fil_sdr_sha256_have_ni(void);

/* ---- BLAKE2b (sdr_blake2b.c) ---------------------------------------------------------------------------------- */
/* outlen 1..64, keylen 0..64 (RFC 7693); returns false on other lengths. */
bool cuzk_fil_sdr_blake2b(uint8_t *out, size_t outlen, const void *key, size_t keylen, const void *data, size_t len);
/* The Feistel round function of the expander graph: the first 8 bytes, read big-endian, of BLAKE2b-512 over the 16
 * bytes right (u64 BE) ‖ key (u64 BE). */
uint64_t cuzk_fil_sdr_blake2b_feistel(uint64_t right, uint64_t key);
/* Four at once with the same key (AVX2 where the processor has it). */
void cuzk_fil_sdr_blake2b_feistel4(const uint64_t right[4], uint64_t key, uint64_t out[4]);
bool cuzk_fil_sdr_blake2b_have_avx2(void);

/* ---- ChaCha (sdr_chacha.c) ------------------------------------------------------------------------------------ */
/* One block: the state constants ‖ key (8 LE words) ‖ w12..w15 after `rounds` rounds (8, 12 or 20), input added,
 * as 16 words. rand_chacha sets w12,w13 to a 64-bit block counter and w14,w15 to the stream (0); RFC 8439 sets w12
 * to a 32-bit counter and w13..w15 to the nonce. */
void cuzk_fil_sdr_chacha_block(const uint32_t key[8], uint32_t w12, uint32_t w13, uint32_t w14, uint32_t w15,
                               unsigned rounds, uint32_t out[16]);
/* RFC 8439 ChaCha20 keystream (32-bit counter from 0, 96-bit nonce) from byte `offset`, len bytes. */
void cuzk_fil_sdr_chacha20_ietf_stream(const uint8_t key[32], const uint8_t nonce[12], uint64_t offset, uint8_t *out,
                                       size_t len);

/* ---- graph (sdr_graph.c) ------------------------------------------------------------------------------------- */
/* The expander parents of nodes first .. first+count−1 into parent-cache records (14 words a node, written at words
 * 6..13 of each), the Feistel rounds of four parents at a time. */
void cuzk_fil_sdr_exp_parents_batch(const cuzk_fil_sdr_graph *g, uint32_t first, uint32_t count, uint32_t *records);

/* ---- threads ------------------------------------------------------------------------------------------------ */
/* threads == 0 means every processor this process may use. */
static inline unsigned cuzk_fil_sdr_threads(unsigned threads) { return threads ? threads : cuzk_cpu_count(); }

/* ---- Fr on 32-byte little-endian reprs (sdr_util.c) ----------------------------------------------------------- */
/* out = a + b mod r; false when a or b is not < r. out may alias either input. */
bool cuzk_fil_sdr_fr_add_le(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]);
bool cuzk_fil_sdr_fr_is_canonical_le(const uint8_t a[32]);

#endif
