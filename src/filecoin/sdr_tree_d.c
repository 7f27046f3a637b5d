/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Sector data: fr32 padding (254 data bits per 32-byte node), tree D (binary SHA-256 tree, 254-bit digests) and
 * comm_d, also of all-zero data of any size. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sdr_int.h"

#define NB 32
#define PAR_MIN_NODES 4096 /* levels smaller than this are hashed by one thread */
#define CHUNK_PAIRS 2048

/* bits [bit, bit + 8) of a little-endian bit string of len bytes (zero past its end) */
static inline uint8_t get8(const uint8_t *in, size_t len, size_t bit)
{
    size_t i = bit / 8;
    unsigned sh = bit % 8;
    unsigned lo = i < len ? in[i] : 0, hi = sh && i + 1 < len ? in[i + 1] : 0;
    return (uint8_t)(lo >> sh | hi << (8 - sh));
}

void cuzk_fil_sdr_fr32_pad(const uint8_t *in, size_t in_len, uint8_t *out)
{
    for (size_t q = 0; q < in_len / 127; q++, in += 127, out += 128) {
        for (unsigned e = 0; e < 4; e++) {
            for (unsigned i = 0; i < 32; i++) out[32 * e + i] = get8(in, 127, 254 * e + 8 * i);
            out[32 * e + 31] &= 0x3f;
        }
    }
}

bool cuzk_fil_sdr_fr32_unpad(const uint8_t *in, size_t in_len, uint8_t *out)
{
    for (size_t q = 0; q < in_len / 128; q++, in += 128, out += 127) {
        for (unsigned e = 0; e < 4; e++)
            if (in[32 * e + 31] & 0xc0) return false;
        memset(out, 0, 127);
        /* output bit b comes from node b / 254, bit b % 254 */
        for (unsigned b = 0; b < 1016; b++) {
            unsigned e = b / 254, j = b % 254;
            if ((in[32 * e + j / 8] >> (j % 8)) & 1) out[b / 8] |= (uint8_t)(1u << (b % 8));
        }
    }
    return true;
}

/* SHA-256(left ‖ right) truncated to 254 bits: the pair block, then the fixed padding block of a 64-byte message */
static inline void node_hash(const uint8_t pair[64], uint8_t out[32])
{
    static const uint8_t pad[64] = {0x80, [62] = 0x02, [63] = 0x00};
    uint32_t h[8];
    memcpy(h, CUZK_FIL_SDR_SHA256_IV, sizeof h);
    cuzk_fil_sdr_sha256_blocks(h, pair, 1);
    cuzk_fil_sdr_sha256_blocks(h, pad, 1);
    cuzk_fil_sdr_sha256_state_bytes(h, out);
    out[31] &= 0x3f;
}

static void hash_level(const uint8_t *below, uint64_t pairs, uint8_t *above, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to && i < pairs; i++) node_hash(below + 2 * i * NB, above + i * NB);
}

typedef struct {
    const uint8_t *below;
    uint8_t *above;
    uint64_t pairs;
    atomic_uint_fast64_t next;
} level_job;

static void level_worker(void *arg, unsigned t)
{
    (void)t;
    level_job *j = arg;
    for (;;) {
        uint64_t s = atomic_fetch_add(&j->next, CHUNK_PAIRS);
        if (s >= j->pairs) return;
        hash_level(j->below, j->pairs, j->above, s, s + CHUNK_PAIRS);
    }
}

static void level(const uint8_t *below, uint64_t pairs, uint8_t *above, unsigned threads)
{
    if (pairs < PAR_MIN_NODES || threads <= 1) {
        hash_level(below, pairs, above, 0, pairs);
        return;
    }
    level_job j = {.below = below, .above = above, .pairs = pairs};
    atomic_init(&j.next, 0);
    cuzk_par_run(threads, level_worker, &j);
}

/* the root of a subtree of 2^k leaves, reduced in place in scratch (2^(k−1) nodes) */
static void subtree_root(const uint8_t *leaves, uint64_t n, uint8_t *scratch, uint8_t root[32])
{
    if (n == 1) {
        memcpy(root, leaves, NB);
        return;
    }
    hash_level(leaves, n / 2, scratch, 0, n / 2);
    for (uint64_t m = n / 2; m > 1; m /= 2) hash_level(scratch, m / 2, scratch, 0, m / 2);
    memcpy(root, scratch, NB);
}

typedef struct {
    const uint8_t *leaves;
    uint64_t chunk, chunks;
    uint8_t *roots;
    atomic_uint_fast64_t next;
    bool nomem;
} root_job;

static void root_worker(void *arg, unsigned t)
{
    (void)t;
    root_job *j = arg;
    uint8_t *scratch = malloc((j->chunk / 2 + 1) * NB);
    if (scratch == NULL) {
        j->nomem = true;
        return;
    }
    for (;;) {
        uint64_t c = atomic_fetch_add(&j->next, 1);
        if (c >= j->chunks) break;
        subtree_root(j->leaves + c * j->chunk * NB, j->chunk, scratch, j->roots + c * NB);
    }
    free(scratch);
}

cuzk_status cuzk_fil_sdr_tree_d(const uint8_t *leaves, uint64_t nodes, uint8_t *tree, uint8_t root[32],
                                unsigned threads, cuzk_errmsg *err)
{
    if (nodes == 0 || (nodes & (nodes - 1)) != 0)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree D: %llu leaves is not a power of two",
                         (unsigned long long)nodes);
    threads = cuzk_fil_sdr_threads(threads);
    if (tree != NULL) {
        if (tree != leaves) memcpy(tree, leaves, nodes * NB);
        uint8_t *below = tree;
        for (uint64_t n = nodes; n > 1; n /= 2) {
            level(below, n / 2, below + n * NB, threads);
            below += n * NB;
        }
        memcpy(root, below, NB);
        return CUZK_OK;
    }
    /* root only: subtrees of up to 2^16 leaves by the threads, then their roots */
    uint64_t chunk = nodes < (1u << 16) ? nodes : (1u << 16);
    root_job j = {.leaves = leaves, .chunk = chunk, .chunks = nodes / chunk};
    atomic_init(&j.next, 0);
    j.roots = malloc(j.chunks * NB);
    if (j.roots == NULL)
        return cuzk_fail(err, CUZK_ERR_NOMEM, "tree D: %llu subtree roots", (unsigned long long)j.chunks);
    cuzk_par_run(threads < j.chunks ? threads : (unsigned)j.chunks, root_worker, &j);
    uint8_t *scratch = malloc((j.chunks / 2 + 1) * NB);
    if (j.nomem || scratch == NULL || atomic_load(&j.next) < j.chunks) {
        free(j.roots);
        free(scratch);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "tree D: scratch of %llu nodes", (unsigned long long)chunk / 2);
    }
    subtree_root(j.roots, j.chunks, scratch, root);
    free(scratch);
    free(j.roots);
    return CUZK_OK;
}

cuzk_status cuzk_fil_sdr_tree_d_path(const uint8_t *tree, uint64_t nodes, uint64_t leaf, uint8_t (*siblings)[32],
                                     cuzk_errmsg *err)
{
    if (nodes == 0 || (nodes & (nodes - 1)) != 0 || leaf >= nodes)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "tree D path: leaf %llu of %llu", (unsigned long long)leaf,
                         (unsigned long long)nodes);
    const uint8_t *lvl = tree;
    unsigned k = 0;
    for (uint64_t n = nodes; n > 1; n /= 2, leaf /= 2, k++) {
        memcpy(siblings[k], lvl + (leaf ^ 1) * NB, NB);
        lvl += n * NB;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_sdr_zero_comm_d(uint64_t size, uint8_t out[32], cuzk_errmsg *err)
{
    if (size < NB || (size & (size - 1)) != 0 || size > (1ULL << 61))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "zero comm_d: size %llu is not a power of two in 32 .. 2^61",
                         (unsigned long long)size);
    uint8_t pair[64] = {0};
    for (uint64_t s = NB; s < size; s *= 2) {
        node_hash(pair, pair);
        memcpy(pair + NB, pair, NB);
    }
    memcpy(out, pair, NB);
    return CUZK_OK;
}
