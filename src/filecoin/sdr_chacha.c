/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ChaCha (Bernstein; RFC 8439 for the 20-round IETF variant) and the random-number generator of the rand_chacha
 * crate (ChaCha8Rng seeds the DRG parents of every node).
 *
 * rand_chacha 0.3 semantics, as the code relies on them:
 *   - from_seed(seed): key = the 32 seed bytes, 64-bit block counter (state words 12, 13) = 0, stream (words 14,
 *     15) = 0; the keystream is the blocks 0, 1, 2, ... each as 16 little-endian words;
 *   - the generator refills a buffer of 4 blocks (64 words) at a time; next_u32 returns the next word;
 *   - next_u64 returns two consecutive words, low word first; when only the buffer's last word is left it takes
 *     that word as the low half, refills, and takes the new buffer's first word as the high half. Either way the
 *     result is the next 8 keystream bytes read little-endian, so a fresh generator's u64 number i is keystream
 *     words 2i and 2i+1. */
#include <string.h>

#include "sdr_int.h"

#define QR(a, b, c, d)                                                                                                 \
    do {                                                                                                               \
        x[a] += x[b], x[d] ^= x[a], x[d] = x[d] << 16 | x[d] >> 16;                                                    \
        x[c] += x[d], x[b] ^= x[c], x[b] = x[b] << 12 | x[b] >> 20;                                                    \
        x[a] += x[b], x[d] ^= x[a], x[d] = x[d] << 8 | x[d] >> 24;                                                     \
        x[c] += x[d], x[b] ^= x[c], x[b] = x[b] << 7 | x[b] >> 25;                                                     \
    } while (0)

void cuzk_fil_sdr_chacha_block(const uint32_t key[8], uint32_t w12, uint32_t w13, uint32_t w14, uint32_t w15,
                               unsigned rounds, uint32_t out[16])
{
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, key[0], key[1], key[2], key[3],
                       key[4],     key[5],     key[6],     key[7],     w12,    w13,    w14,    w15};
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (unsigned r = 0; r < rounds; r += 2) {
        QR(0, 4, 8, 12);
        QR(1, 5, 9, 13);
        QR(2, 6, 10, 14);
        QR(3, 7, 11, 15);
        QR(0, 5, 10, 15);
        QR(1, 6, 11, 12);
        QR(2, 7, 8, 13);
        QR(3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

static void key_words(const uint8_t key[32], uint32_t k[8])
{
    for (int i = 0; i < 8; i++) k[i] = cuzk_load_le32(key + 4 * i);
}

void cuzk_fil_sdr_chacha20_ietf_stream(const uint8_t key[32], const uint8_t nonce[12], uint64_t offset, uint8_t *out,
                                       size_t len)
{
    uint32_t k[8], blk[16];
    key_words(key, k);
    uint32_t n0 = cuzk_load_le32(nonce), n1 = cuzk_load_le32(nonce + 4), n2 = cuzk_load_le32(nonce + 8);
    while (len) {
        cuzk_fil_sdr_chacha_block(k, (uint32_t)(offset / 64), n0, n1, n2, 20, blk);
        size_t at = offset % 64, take = 64 - at < len ? 64 - at : len;
        for (size_t i = 0; i < take; i++) out[i] = (uint8_t)(blk[(at + i) / 4] >> (8 * ((at + i) % 4)));
        out += take, offset += take, len -= take;
    }
}

void cuzk_fil_sdr_chacharng_seed(cuzk_fil_sdr_chacharng *r, const uint8_t seed[32], unsigned rounds)
{
    key_words(seed, r->key);
    r->rounds = rounds;
    r->block = 0;
    r->idx = 64; /* empty: the first draw refills */
}

static void refill(cuzk_fil_sdr_chacharng *r)
{
    for (int b = 0; b < 4; b++, r->block++)
        cuzk_fil_sdr_chacha_block(r->key, (uint32_t)r->block, (uint32_t)(r->block >> 32), 0, 0, r->rounds,
                                  r->buf + 16 * b);
    r->idx = 0;
}

uint32_t cuzk_fil_sdr_chacharng_next_u32(cuzk_fil_sdr_chacharng *r)
{
    if (r->idx >= 64) refill(r);
    return r->buf[r->idx++];
}

uint64_t cuzk_fil_sdr_chacharng_next_u64(cuzk_fil_sdr_chacharng *r)
{
    if (r->idx < 63) {
        uint64_t v = (uint64_t)r->buf[r->idx + 1] << 32 | r->buf[r->idx];
        r->idx += 2;
        return v;
    }
    if (r->idx >= 64) {
        refill(r);
        r->idx = 2;
        return (uint64_t)r->buf[1] << 32 | r->buf[0];
    }
    uint64_t lo = r->buf[63];
    refill(r);
    r->idx = 1;
    return (uint64_t)r->buf[0] << 32 | lo;
}
