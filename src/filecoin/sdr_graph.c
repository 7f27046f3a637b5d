/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The SDR graph (rust-fil-proofs StackedBucketGraph): per node 6 DRG parents from bucket sampling seeded by ChaCha8,
 * and 8 expander parents from a 3-round Feistel permutation of [0, 8·nodes) keyed by the porep id.
 * docs/formats/sdr.md spells out each step. */
#include <string.h>

#include "sdr_int.h"

#define FEISTEL_ROUNDS 3

void cuzk_fil_sdr_porep_id(uint64_t registered_id, uint64_t nonce, uint8_t out[32])
{
    memset(out, 0, 32);
    cuzk_store_le64(out, registered_id);
    cuzk_store_le64(out + 8, nonce);
}

unsigned cuzk_fil_sdr_layers(uint64_t sector_size)
{
    static const struct {
        uint64_t size;
        unsigned layers;
    } table[] = {
        {2ULL << 10, 2},  {4ULL << 10, 2},   {16ULL << 10, 2}, {32ULL << 10, 2},  {8ULL << 20, 2},
        {16ULL << 20, 2}, {512ULL << 20, 2}, {1ULL << 30, 2},  {32ULL << 30, 11}, {64ULL << 30, 11},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].size == sector_size) return table[i].layers;
    return 0;
}

/* SHA-256(tag ‖ porep_id): the domain-separated seeds of the DRG and the Feistel keys */
static void domain_seed(const char *tag, const uint8_t porep_id[32], uint8_t out[32])
{
    cuzk_fil_sdr_sha256_ctx c;
    cuzk_fil_sdr_sha256_init(&c);
    cuzk_fil_sdr_sha256_update(&c, tag, strlen(tag));
    cuzk_fil_sdr_sha256_update(&c, porep_id, 32);
    cuzk_fil_sdr_sha256_final(&c, out);
}

cuzk_status cuzk_fil_sdr_graph_init(cuzk_fil_sdr_graph *g, uint64_t nodes, const uint8_t porep_id[32],
                                    cuzk_fil_sdr_api api, cuzk_errmsg *err)
{
    if (nodes < 2 || nodes > UINT32_MAX)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "graph: %llu nodes outside 2 .. 2^32-1", (unsigned long long)nodes);
    if (api != CUZK_FIL_SDR_API_V1_0 && api != CUZK_FIL_SDR_API_V1_1 && api != CUZK_FIL_SDR_API_V1_2)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "graph: unknown api version %d", (int)api);
    memset(g, 0, sizeof *g);
    g->nodes = nodes;
    g->api = api;
    memcpy(g->porep_id, porep_id, 32);
    uint8_t seed[32];
    domain_seed("Filecoin_DRSample", porep_id, seed);
    memcpy(g->drg_seed, seed, 28);
    domain_seed("Filecoin_Feistel", porep_id, seed);
    for (int k = 0; k < 4; k++) g->feistel_keys[k] = cuzk_load_le64(seed + 8 * k);
    /* the smallest power of four ≥ 8·nodes (at least 4), split into two halves of log4 bits */
    uint64_t n = nodes * CUZK_FIL_SDR_EXP_DEGREE, pow4 = 4;
    unsigned log4 = 1;
    while (pow4 < n) pow4 *= 4, log4++;
    g->feistel_half_bits = log4;
    g->feistel_right_mask = (1ULL << log4) - 1;
    g->feistel_left_mask = g->feistel_right_mask << log4;
    return CUZK_OK;
}

void cuzk_fil_sdr_drg_parents(const cuzk_fil_sdr_graph *g, uint32_t node, uint32_t out[CUZK_FIL_SDR_DRG_DEGREE])
{
    if (node < 2) {
        memset(out, 0, CUZK_FIL_SDR_DRG_DEGREE * sizeof out[0]);
        return;
    }
    /* ChaCha8Rng seeded with drg_seed ‖ node (u32 LE); ten u64 draws = keystream words 0..19, two blocks */
    uint32_t key[8], ks[32];
    for (int i = 0; i < 7; i++) key[i] = cuzk_load_le32(g->drg_seed + 4 * i);
    key[7] = node;
    cuzk_fil_sdr_chacha_block(key, 0, 0, 0, 0, 8, ks);
    cuzk_fil_sdr_chacha_block(key, 1, 0, 0, 0, 8, ks + 16);
    const uint64_t m_prime = CUZK_FIL_SDR_DRG_DEGREE - 1;
    uint64_t meta = (uint64_t)node * m_prime;
    /* ceil(log2(meta)) as rust-fil-proofs computes it in f64; the integer one is the same for meta < 2^35: for
     * meta = 2^k + 1, log2 exceeds k by more than half an ulp of k, so the f64 ceiling is k + 1 as well */
    uint64_t n_buckets = cuzk_log2_ceil(meta);
    /* V1_0: the 5 sampled parents first, the predecessor last; V1_1+: the predecessor first */
    unsigned first = g->api == CUZK_FIL_SDR_API_V1_0 ? 0 : 1;
    unsigned pred = g->api == CUZK_FIL_SDR_API_V1_0 ? CUZK_FIL_SDR_DRG_DEGREE - 1 : 0;
    const uint32_t *w = ks;
    for (unsigned k = 0; k < m_prime; k++, w += 4) {
        uint64_t r0 = (uint64_t)w[1] << 32 | w[0], r1 = (uint64_t)w[3] << 32 | w[2];
        uint64_t bucket = r0 % n_buckets + 1;
        uint64_t largest = meta < (1ULL << bucket) ? meta : (1ULL << bucket);
        uint64_t smallest = largest >> 1 > 2 ? largest >> 1 : 2;
        uint64_t distance = smallest + r1 % (largest - smallest + 1);
        uint32_t parent = (uint32_t)((meta - distance) / m_prime);
        out[first + k] = parent == node ? node - 1 : parent;
    }
    out[pred] = node - 1;
}

static inline uint64_t feistel_encode(const cuzk_fil_sdr_graph *g, uint64_t index)
{
    uint64_t left = (index & g->feistel_left_mask) >> g->feistel_half_bits;
    uint64_t right = index & g->feistel_right_mask;
    for (int r = 0; r < FEISTEL_ROUNDS; r++) {
        uint64_t f = cuzk_fil_sdr_blake2b_feistel(right, g->feistel_keys[r]) & g->feistel_right_mask;
        uint64_t nl = right;
        right = left ^ f;
        left = nl;
    }
    return left << g->feistel_half_bits | right;
}

static inline uint64_t feistel_decode(const cuzk_fil_sdr_graph *g, uint64_t index)
{
    uint64_t left = (index & g->feistel_left_mask) >> g->feistel_half_bits;
    uint64_t right = index & g->feistel_right_mask;
    for (int r = FEISTEL_ROUNDS - 1; r >= 0; r--) {
        uint64_t f = cuzk_fil_sdr_blake2b_feistel(left, g->feistel_keys[r]) & g->feistel_right_mask;
        uint64_t nr = left;
        left = right ^ f;
        right = nr;
    }
    return left << g->feistel_half_bits | right;
}

/* cycle-walking: the cipher permutes [0, 4^log4); repeat until the value falls inside [0, 8·nodes) */
uint64_t cuzk_fil_sdr_feistel_permute(const cuzk_fil_sdr_graph *g, uint64_t index)
{
    uint64_t n = g->nodes * CUZK_FIL_SDR_EXP_DEGREE, u = feistel_encode(g, index);
    while (u >= n) u = feistel_encode(g, u);
    return u;
}

uint64_t cuzk_fil_sdr_feistel_invert(const cuzk_fil_sdr_graph *g, uint64_t index)
{
    uint64_t n = g->nodes * CUZK_FIL_SDR_EXP_DEGREE, u = feistel_decode(g, index);
    while (u >= n) u = feistel_decode(g, u);
    return u;
}

void cuzk_fil_sdr_exp_parents(const cuzk_fil_sdr_graph *g, uint32_t node, uint32_t out[CUZK_FIL_SDR_EXP_DEGREE])
{
    for (unsigned i = 0; i < CUZK_FIL_SDR_EXP_DEGREE; i++) {
        uint64_t t = cuzk_fil_sdr_feistel_permute(g, (uint64_t)node * CUZK_FIL_SDR_EXP_DEGREE + i);
        /* V1_0 keeps only the low 32 bits before dividing (the "pathological" legacy graph) */
        out[i] = g->api == CUZK_FIL_SDR_API_V1_0 ? (uint32_t)t / CUZK_FIL_SDR_EXP_DEGREE
                                                 : (uint32_t)(t / CUZK_FIL_SDR_EXP_DEGREE);
    }
}

/* the Feistel encoding of four values at once (BLAKE2b four lanes wide) */
static void feistel_encode4(const cuzk_fil_sdr_graph *g, uint64_t u[4])
{
    uint64_t left[4], right[4], f[4];
    for (int i = 0; i < 4; i++) {
        left[i] = (u[i] & g->feistel_left_mask) >> g->feistel_half_bits;
        right[i] = u[i] & g->feistel_right_mask;
    }
    for (int r = 0; r < FEISTEL_ROUNDS; r++) {
        cuzk_fil_sdr_blake2b_feistel4(right, g->feistel_keys[r], f);
        for (int i = 0; i < 4; i++) {
            uint64_t nl = right[i];
            right[i] = left[i] ^ (f[i] & g->feistel_right_mask);
            left[i] = nl;
        }
    }
    for (int i = 0; i < 4; i++) u[i] = left[i] << g->feistel_half_bits | right[i];
}

#define BATCH_NODES 64

void cuzk_fil_sdr_exp_parents_batch(const cuzk_fil_sdr_graph *g, uint32_t first, uint32_t count, uint32_t *records)
{
    const uint64_t n = g->nodes * CUZK_FIL_SDR_EXP_DEGREE;
    uint64_t val[BATCH_NODES * CUZK_FIL_SDR_EXP_DEGREE];
    uint16_t slot[BATCH_NODES * CUZK_FIL_SDR_EXP_DEGREE];
    for (uint32_t base = 0; base < count; base += BATCH_NODES) {
        uint32_t nodes = count - base < BATCH_NODES ? count - base : BATCH_NODES, pend = 0;
        for (uint32_t k = 0; k < nodes * CUZK_FIL_SDR_EXP_DEGREE; k++) {
            val[pend] = (uint64_t)(first + base) * CUZK_FIL_SDR_EXP_DEGREE + k;
            slot[pend++] = (uint16_t)k;
        }
        /* passes of cycle-walking: encode everything pending four at a time, keep what is still out of range */
        while (pend) {
            uint32_t next = 0;
            for (uint32_t j = 0; j < pend; j += 4) {
                uint32_t lanes = pend - j < 4 ? pend - j : 4;
                uint64_t u[4];
                for (uint32_t l = 0; l < 4; l++) u[l] = val[j + (l < lanes ? l : 0)];
                uint16_t s[4];
                for (uint32_t l = 0; l < lanes; l++) s[l] = slot[j + l];
                feistel_encode4(g, u);
                for (uint32_t l = 0; l < lanes; l++) {
                    if (u[l] >= n) {
                        val[next] = u[l], slot[next++] = s[l];
                        continue;
                    }
                    uint32_t *rec = records + (uint64_t)(base + s[l] / CUZK_FIL_SDR_EXP_DEGREE) * CUZK_FIL_SDR_DEGREE;
                    rec[CUZK_FIL_SDR_DRG_DEGREE + s[l] % CUZK_FIL_SDR_EXP_DEGREE] =
                        g->api == CUZK_FIL_SDR_API_V1_0 ? (uint32_t)u[l] / CUZK_FIL_SDR_EXP_DEGREE
                                                        : (uint32_t)(u[l] / CUZK_FIL_SDR_EXP_DEGREE);
                }
            }
            pend = next;
        }
    }
}

void cuzk_fil_sdr_parents(const cuzk_fil_sdr_graph *g, uint32_t node, uint32_t out[CUZK_FIL_SDR_DEGREE])
{
    cuzk_fil_sdr_drg_parents(g, node, out);
    cuzk_fil_sdr_exp_parents(g, node, out + CUZK_FIL_SDR_DRG_DEGREE);
}
