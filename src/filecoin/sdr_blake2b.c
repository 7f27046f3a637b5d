/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* BLAKE2b (RFC 7693): the Feistel round function of the expander graph (BLAKE2b-512 of 16 bytes, first 8 bytes),
 * called ~50 times per node when the parent cache is generated, and the keyed 32-byte BLAKE2b that keys the
 * synthetic-challenge ChaCha20 streams. */
#include <string.h>

#include "sdr_int.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define SDR_X86 1
#endif

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static inline uint64_t ror64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

#define G(a, b, c, d, x, y)                                                                                            \
    do {                                                                                                               \
        v[a] = v[a] + v[b] + (x);                                                                                      \
        v[d] = ror64(v[d] ^ v[a], 32);                                                                                 \
        v[c] = v[c] + v[d];                                                                                            \
        v[b] = ror64(v[b] ^ v[c], 24);                                                                                 \
        v[a] = v[a] + v[b] + (y);                                                                                      \
        v[d] = ror64(v[d] ^ v[a], 16);                                                                                 \
        v[c] = v[c] + v[d];                                                                                            \
        v[b] = ror64(v[b] ^ v[c], 63);                                                                                 \
    } while (0)

/* Rounds over v with message m; fully unrolled so that the zero words of short messages fold away. */
static inline __attribute__((always_inline)) void rounds(uint64_t v[16], const uint64_t m[16])
{
#pragma GCC unroll 12
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
}

static void compress(uint64_t h[8], const uint8_t block[128], uint64_t t, bool last)
{
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++) m[i] = cuzk_load_le64(block + 8 * i);
    for (int i = 0; i < 8; i++) v[i] = h[i], v[i + 8] = IV[i];
    v[12] ^= t;
    if (last) v[14] = ~v[14];
    rounds(v, m);
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

bool cuzk_fil_sdr_blake2b(uint8_t *out, size_t outlen, const void *key, size_t keylen, const void *data, size_t len)
{
    if (outlen == 0 || outlen > 64 || keylen > 64) return false;
    uint64_t h[8];
    memcpy(h, IV, sizeof h);
    h[0] ^= 0x01010000ULL ^ (uint64_t)keylen << 8 ^ outlen;
    uint8_t block[128];
    uint64_t t = 0;
    const uint8_t *p = data;
    if (keylen) {
        /* the key, zero-padded to a block, is the first block (the last one when there is no data) */
        memset(block, 0, sizeof block);
        memcpy(block, key, keylen);
        t = 128;
        compress(h, block, t, len == 0);
    }
    while (len > 128) {
        t += 128;
        compress(h, p, t, false);
        p += 128, len -= 128;
    }
    if (len > 0 || keylen == 0) {
        memset(block, 0, sizeof block);
        memcpy(block, p, len);
        t += len;
        compress(h, block, t, true);
    }
    for (size_t i = 0; i < outlen; i++) out[i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
    return true;
}

uint64_t cuzk_fil_sdr_blake2b_feistel(uint64_t right, uint64_t key)
{
    /* one final block of 16 bytes: message words are the byte-swapped inputs, the other 14 are zero */
    uint64_t m[16] = {__builtin_bswap64(right), __builtin_bswap64(key)};
    uint64_t v[16];
    for (int i = 0; i < 8; i++) v[i] = IV[i], v[i + 8] = IV[i];
    v[0] ^= 0x01010040ULL;
    v[12] ^= 16;
    v[14] = ~v[14];
    uint64_t h0 = v[0];
    rounds(v, m);
    return __builtin_bswap64(h0 ^ v[0] ^ v[8]);
}

#ifdef SDR_X86
/* Four Feistel round functions at once, one per 64-bit lane of AVX2 registers (same key). */
__attribute__((target("avx2"))) static void feistel4_avx2(const uint64_t right[4], uint64_t key, uint64_t out[4])
{
    const __m256i r24 = _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10, 3, 4, 5, 6, 7, 0, 1, 2,
                                         11, 12, 13, 14, 15, 8, 9, 10);
    const __m256i r16 = _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, 7, 0, 1,
                                         10, 11, 12, 13, 14, 15, 8, 9);
    const __m256i bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                                           15, 14, 13, 12, 11, 10, 9, 8);
    __m256i m[16];
    m[0] = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)right), bswap);
    m[1] = _mm256_set1_epi64x((long long)__builtin_bswap64(key));
    for (int i = 2; i < 16; i++) m[i] = _mm256_setzero_si256();
    __m256i v[16];
    for (int i = 0; i < 8; i++) v[i] = _mm256_set1_epi64x((long long)IV[i]), v[i + 8] = v[i];
    v[0] = _mm256_set1_epi64x((long long)(IV[0] ^ 0x01010040ULL));
    v[12] = _mm256_set1_epi64x((long long)(IV[4] ^ 16));
    v[14] = _mm256_set1_epi64x((long long)~IV[6]);
    const __m256i h0 = v[0];
#define G4(a, b, c, d, x, y)                                                                                           \
    do {                                                                                                               \
        v[a] = _mm256_add_epi64(_mm256_add_epi64(v[a], v[b]), x);                                                      \
        v[d] = _mm256_shuffle_epi32(_mm256_xor_si256(v[d], v[a]), 0xB1);                                               \
        v[c] = _mm256_add_epi64(v[c], v[d]);                                                                           \
        v[b] = _mm256_shuffle_epi8(_mm256_xor_si256(v[b], v[c]), r24);                                                 \
        v[a] = _mm256_add_epi64(_mm256_add_epi64(v[a], v[b]), y);                                                      \
        v[d] = _mm256_shuffle_epi8(_mm256_xor_si256(v[d], v[a]), r16);                                                 \
        v[c] = _mm256_add_epi64(v[c], v[d]);                                                                           \
        __m256i t_ = _mm256_xor_si256(v[b], v[c]);                                                                     \
        v[b] = _mm256_or_si256(_mm256_srli_epi64(t_, 63), _mm256_add_epi64(t_, t_));                                   \
    } while (0)
#pragma GCC unroll 12
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G4(0, 4, 8, 12, m[s[0]], m[s[1]]);
        G4(1, 5, 9, 13, m[s[2]], m[s[3]]);
        G4(2, 6, 10, 14, m[s[4]], m[s[5]]);
        G4(3, 7, 11, 15, m[s[6]], m[s[7]]);
        G4(0, 5, 10, 15, m[s[8]], m[s[9]]);
        G4(1, 6, 11, 12, m[s[10]], m[s[11]]);
        G4(2, 7, 8, 13, m[s[12]], m[s[13]]);
        G4(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
#undef G4
    __m256i h = _mm256_xor_si256(_mm256_xor_si256(h0, v[0]), v[8]);
    _mm256_storeu_si256((__m256i *)out, _mm256_shuffle_epi8(h, bswap));
}

static int have_avx2 = -1;
#endif

bool cuzk_fil_sdr_blake2b_have_avx2(void)
{
#ifdef SDR_X86
    int v = __atomic_load_n(&have_avx2, __ATOMIC_RELAXED);
    if (v < 0) {
        v = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&have_avx2, v, __ATOMIC_RELAXED);
    }
    return v == 1;
#else
    return false;
#endif
}

void cuzk_fil_sdr_blake2b_feistel4(const uint64_t right[4], uint64_t key, uint64_t out[4])
{
#ifdef SDR_X86
    if (cuzk_fil_sdr_blake2b_have_avx2()) {
        feistel4_avx2(right, key, out);
        return;
    }
#endif
    for (int i = 0; i < 4; i++) out[i] = cuzk_fil_sdr_blake2b_feistel(right[i], key);
}
