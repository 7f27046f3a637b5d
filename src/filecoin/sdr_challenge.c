/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Replica id and PoRep challenges (rust-fil-proofs storage-proofs-porep stacked/vanilla/challenges.rs):
 *   interactive  challenge j = LE(SHA-256(replica_id ‖ seed ‖ j u32 LE)) mod (nodes − 1) + 1
 *   NI           the same over SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j u32 LE)
 *   synthetic    synthetic challenge i = LE(keystream bytes [32i, 32i+32)) mod (nodes − 1) + 1 of ChaCha20 (RFC 8439,
 *                nonce "synth-porep\0") keyed by BLAKE2b-256 keyed "…|Synthetic|1|Generation" over replica_id ‖
 *                comm_r; PoRep challenge j is synthetic challenge number LE-u32(bytes [4j, 4j+4)) mod count of the
 *                stream keyed by "…|Synthetic|1|Selection" over replica_id ‖ seed.
 * where j = k · challenges_per_partition + i for challenge i of partition k. */
#include <string.h>

#include "sdr_int.h"

void cuzk_fil_sdr_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                             const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32])
{
    uint8_t be[8];
    cuzk_store_be64(be, sector_id);
    cuzk_fil_sdr_sha256_ctx c;
    cuzk_fil_sdr_sha256_init(&c);
    cuzk_fil_sdr_sha256_update(&c, prover_id, 32);
    cuzk_fil_sdr_sha256_update(&c, be, 8);
    cuzk_fil_sdr_sha256_update(&c, ticket, 32);
    cuzk_fil_sdr_sha256_update(&c, comm_d, 32);
    cuzk_fil_sdr_sha256_update(&c, porep_id, 32);
    cuzk_fil_sdr_sha256_final(&c, out);
    out[31] &= 0x3f;
}

/* (little-endian 256-bit integer mod (nodes − 1)) + 1 */
static uint64_t to_challenge(const uint8_t b[32], uint64_t nodes)
{
    uint64_t m = nodes - 1;
    unsigned __int128 r = 0;
    for (int i = 31; i >= 0; i--) r = (r << 8 | b[i]) % m;
    return (uint64_t)r + 1;
}

static const struct {
    uint64_t size;
    unsigned partitions, ni_partitions, min_challenges, ni_min_challenges;
} SIZES[] = {
    {2ULL << 10, 1, 13, 2, 26},        {4ULL << 10, 1, 13, 2, 26}, {16ULL << 10, 1, 13, 2, 26},
    {32ULL << 10, 1, 13, 2, 26},       {8ULL << 20, 1, 13, 2, 26}, {16ULL << 20, 1, 13, 2, 26},
    {512ULL << 20, 1, 13, 2, 26},      {1ULL << 30, 1, 13, 2, 26}, {32ULL << 30, 10, 126, 176, 2253},
    {64ULL << 30, 10, 126, 176, 2253},
};

cuzk_status cuzk_fil_sdr_challenge_count(uint64_t sector_size, cuzk_fil_sdr_challenge_kind kind, unsigned *partitions,
                                         unsigned *per_partition, cuzk_errmsg *err)
{
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        if (SIZES[i].size != sector_size) continue;
        bool ni = kind == CUZK_FIL_SDR_CHALLENGES_NI;
        unsigned parts = ni ? SIZES[i].ni_partitions : SIZES[i].partitions;
        unsigned min = ni ? SIZES[i].ni_min_challenges : SIZES[i].min_challenges;
        *partitions = parts;
        *per_partition = (min + parts - 1) / parts;
        return CUZK_OK;
    }
    return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "challenges: no PoRep for sector size %llu",
                     (unsigned long long)sector_size);
}

static const uint8_t SYNTH_NONCE[12] = "synth-porep";
static const char SYNTH_GEN_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char SYNTH_SEL_KEY[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";
#define SYNTH_DEFAULT_COUNT (1ULL << 18)

static void synth_key(const char *tag, const uint8_t a[32], const uint8_t b[32], uint8_t key[32])
{
    uint8_t msg[64];
    memcpy(msg, a, 32);
    memcpy(msg + 32, b, 32);
    cuzk_fil_sdr_blake2b(key, 32, tag, strlen(tag), msg, sizeof msg);
}

uint64_t cuzk_fil_sdr_synth_count(uint64_t nodes) { return nodes < SYNTH_DEFAULT_COUNT ? nodes : SYNTH_DEFAULT_COUNT; }

uint64_t cuzk_fil_sdr_synth_challenge(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                      uint64_t i)
{
    uint8_t key[32], b[32];
    synth_key(SYNTH_GEN_KEY, replica_id, comm_r, key);
    cuzk_fil_sdr_chacha20_ietf_stream(key, SYNTH_NONCE, i * 32, b, 32);
    return to_challenge(b, nodes);
}

uint64_t cuzk_fil_sdr_synth_index(uint64_t synth_count, const uint8_t replica_id[32], const uint8_t seed[32],
                                  uint64_t j)
{
    uint8_t key[32], b[4];
    synth_key(SYNTH_SEL_KEY, replica_id, seed, key);
    cuzk_fil_sdr_chacha20_ietf_stream(key, SYNTH_NONCE, j * 4, b, 4);
    return cuzk_load_le32(b) % synth_count;
}

cuzk_status cuzk_fil_sdr_challenges(cuzk_fil_sdr_challenge_kind kind, uint64_t nodes, const uint8_t replica_id[32],
                                    const uint8_t seed[32], const uint8_t comm_r[32], unsigned k, unsigned count,
                                    uint64_t *out, cuzk_errmsg *err)
{
    if (nodes < 2 || nodes > (1ULL << 32))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "challenges: %llu nodes outside 2 .. 2^32",
                         (unsigned long long)nodes);
    if ((uint64_t)k * count + count > UINT32_MAX)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "challenges: index of partition %u x %u exceeds u32", k, count);
    static const char NI_TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
    for (unsigned i = 0; i < count; i++) {
        uint32_t j = k * count + i;
        uint8_t jl[4], h[32];
        cuzk_store_le32(jl, j);
        cuzk_fil_sdr_sha256_ctx c;
        switch (kind) {
        case CUZK_FIL_SDR_CHALLENGES_INTERACTIVE:
            cuzk_fil_sdr_sha256_init(&c);
            cuzk_fil_sdr_sha256_update(&c, replica_id, 32);
            cuzk_fil_sdr_sha256_update(&c, seed, 32);
            cuzk_fil_sdr_sha256_update(&c, jl, 4);
            cuzk_fil_sdr_sha256_final(&c, h);
            out[i] = to_challenge(h, nodes);
            break;
        case CUZK_FIL_SDR_CHALLENGES_NI:
            cuzk_fil_sdr_sha256_init(&c);
            cuzk_fil_sdr_sha256_update(&c, NI_TAG, sizeof NI_TAG - 1);
            cuzk_fil_sdr_sha256_update(&c, replica_id, 32);
            cuzk_fil_sdr_sha256_update(&c, comm_r, 32);
            cuzk_fil_sdr_sha256_update(&c, jl, 4);
            cuzk_fil_sdr_sha256_final(&c, h);
            out[i] = to_challenge(h, nodes);
            break;
        case CUZK_FIL_SDR_CHALLENGES_SYNTHETIC: {
            uint64_t idx = cuzk_fil_sdr_synth_index(cuzk_fil_sdr_synth_count(nodes), replica_id, seed, j);
            out[i] = cuzk_fil_sdr_synth_challenge(nodes, replica_id, comm_r, idx);
            break;
        }
        default: return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "challenges: unknown kind %d", (int)kind);
        }
    }
    return CUZK_OK;
}
