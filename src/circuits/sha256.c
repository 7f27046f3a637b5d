/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SHA-256 as bellperson builds it (sha256.rs): the message schedule and rounds over UInt32 words, additions deferred
 * (a new a and e are sums of up to seven words, computed where they are first read) and their equalities packed by
 * one MultiEq per compression. Then filecoin-hashers' Sha256Function circuits over it. */
#include <stdlib.h>

#include "cuzk/circuits.h"

static const uint32_t ROUND_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void cuzk_sha256_gadget_iv(cuzk_u32 iv[8])
{
    for (int i = 0; i < 8; i++) cuzk_u32_const(IV[i], &iv[i]);
}

/* A word that is either known (n = 0: v[0]) or the deferred sum of n words. */
typedef struct {
    cuzk_u32 v[8];
    unsigned n;
} maybe;

/* Maybe::compute: the known word, or addmany of the deferred words and `extra` (NULL: none). */
static void maybe_compute(cuzk_cs *cs, cuzk_multieq *me, maybe *m, const char *ns, const cuzk_u32 *extra, cuzk_u32 *out)
{
    if (m->n == 0) {
        *out = m->v[0];
        return;
    }
    if (extra != NULL) m->v[m->n++] = *extra;
    cuzk_cs_push(cs, ns);
    cuzk_u32_addmany(cs, me, m->v, m->n, out);
    cuzk_cs_pop(cs);
}

/* x rotr r1 ^ x rotr r2 ^ (x rotr r3, or x shr r3 when shift) */
static void sigma(cuzk_cs *cs, const cuzk_u32 *x, unsigned r1, unsigned r2, unsigned r3, bool shift, const char *first,
                  const char *second, cuzk_u32 *out)
{
    cuzk_u32 t;
    cuzk_u32_rotr(x, r1, out);
    cuzk_u32_rotr(x, r2, &t);
    cuzk_cs_push(cs, first);
    cuzk_u32_xor(cs, out, &t, out);
    cuzk_cs_pop(cs);
    if (shift) cuzk_u32_shr(x, r3, &t);
    else cuzk_u32_rotr(x, r3, &t);
    cuzk_cs_push(cs, second);
    cuzk_u32_xor(cs, out, &t, out);
    cuzk_cs_pop(cs);
}

void cuzk_sha256_gadget_compression(cuzk_cs *cs, const cuzk_bit in[512], const cuzk_u32 cur[8], cuzk_u32 out[8])
{
    cuzk_u32 w[64];
    for (int i = 0; i < 16; i++) cuzk_u32_from_bits_be(in + 32 * i, &w[i]);
    cuzk_multieq me;
    cuzk_multieq_init(&me, cs);
    for (unsigned i = 16; i < 64; i++) {
        cuzk_cs_pushf(cs, "w extension %u", i);
        cuzk_u32 ops[4];
        ops[0] = w[i - 16];
        sigma(cs, &w[i - 15], 7, 18, 3, true, "first xor for s0", "second xor for s0", &ops[1]);
        ops[2] = w[i - 7];
        sigma(cs, &w[i - 2], 17, 19, 10, true, "first xor for s1", "second xor for s1", &ops[3]);
        cuzk_cs_push(cs, "computation of w[i]");
        cuzk_u32_addmany(cs, &me, ops, 4, &w[i]);
        cuzk_cs_pop(cs);
        cuzk_cs_pop(cs);
    }
    maybe a = {.n = 0}, e = {.n = 0};
    a.v[0] = cur[0];
    e.v[0] = cur[4];
    cuzk_u32 b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
    for (unsigned i = 0; i < 64; i++) {
        cuzk_cs_pushf(cs, "compression round %u", i);
        cuzk_u32 new_e, new_a, s1, ch, s0, maj, k;
        maybe_compute(cs, &me, &e, "deferred e computation", NULL, &new_e);
        sigma(cs, &new_e, 6, 11, 25, false, "first xor for s1", "second xor for s1", &s1);
        cuzk_cs_push(cs, "ch");
        cuzk_u32_sha256_ch(cs, &new_e, &f, &g, &ch);
        cuzk_cs_pop(cs);
        cuzk_u32_const(ROUND_K[i], &k);
        maybe_compute(cs, &me, &a, "deferred a computation", NULL, &new_a);
        sigma(cs, &new_a, 2, 13, 22, false, "first xor for s0", "second xor for s0", &s0);
        cuzk_cs_push(cs, "maj");
        cuzk_u32_sha256_maj(cs, &new_a, &b, &c, &maj);
        cuzk_cs_pop(cs);
        /* e = d + temp1 and a = temp1 + temp2, temp1 = h + S1 + ch + k + w, temp2 = S0 + maj, all deferred */
        cuzk_u32 temp1[5] = {h, s1, ch, k, w[i]};
        h = g;
        g = f;
        f = new_e;
        for (int t = 0; t < 5; t++) e.v[t] = temp1[t];
        e.v[5] = d;
        e.n = 6;
        d = c;
        c = b;
        b = new_a;
        for (int t = 0; t < 5; t++) a.v[t] = temp1[t];
        a.v[5] = s0;
        a.v[6] = maj;
        a.n = 7;
        cuzk_cs_pop(cs);
    }
    static const char *const NEW_H[8] = {NULL, "new h1", "new h2", "new h3", NULL, "new h5", "new h6", "new h7"};
    const cuzk_u32 *last[8] = {NULL, &b, &c, &d, NULL, &f, &g, &h};
    maybe_compute(cs, &me, &a, "deferred h0 computation", &cur[0], &out[0]);
    for (int i = 1; i < 8; i++) {
        if (i == 4) {
            maybe_compute(cs, &me, &e, "deferred h4 computation", &cur[4], &out[4]);
            continue;
        }
        cuzk_u32 ops[2] = {cur[i], *last[i]};
        cuzk_cs_push(cs, NEW_H[i]);
        cuzk_u32_addmany(cs, &me, ops, 2, &out[i]);
        cuzk_cs_pop(cs);
    }
    cuzk_multieq_finish(&me);
}

static void state_bits_be(const cuzk_u32 st[8], cuzk_bit out[256])
{
    for (int i = 0; i < 8; i++) cuzk_u32_into_bits_be(&st[i], out + 32 * i);
}

void cuzk_sha256_gadget_block_no_padding(cuzk_cs *cs, const cuzk_bit in[512], cuzk_bit out[256])
{
    cuzk_u32 iv[8], st[8];
    cuzk_sha256_gadget_iv(iv);
    cuzk_sha256_gadget_compression(cs, in, iv, st);
    state_bits_be(st, out);
}

void cuzk_sha256_gadget(cuzk_cs *cs, const cuzk_bit *in, size_t nbits, cuzk_bit out[256])
{
    if (nbits % 8 != 0) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "sha256 of %zu bits (a whole number of bytes is required)", nbits);
        for (int i = 0; i < 256; i++) out[i] = cuzk_bit_const(false);
        return;
    }
    /* message, a one, zeros, the bit length as 64 bits big-endian: a multiple of 512 */
    size_t total = (nbits + 1 + 64 + 511) / 512 * 512;
    uint64_t plen = nbits;
    cuzk_u32 st[8];
    cuzk_sha256_gadget_iv(st);
    cuzk_bit block[512];
    for (size_t blk = 0; blk * 512 < total; blk++) {
        for (size_t j = 0; j < 512; j++) {
            size_t p = blk * 512 + j;
            if (p < nbits) block[j] = in[p];
            else if (p == nbits) block[j] = cuzk_bit_const(true);
            else if (p < total - 64) block[j] = cuzk_bit_const(false);
            else block[j] = cuzk_bit_const((plen >> (63 - (p - (total - 64)))) & 1);
        }
        cuzk_cs_pushf(cs, "block %zu", blk);
        cuzk_sha256_gadget_compression(cs, block, st, st);
        cuzk_cs_pop(cs);
    }
    state_bits_be(st, out);
}

cuzk_num cuzk_sha256_gadget_hash_bits(cuzk_cs *cs, const cuzk_bit *bits, size_t nbits)
{
    cuzk_bit be[256], le[256];
    cuzk_cs_push(cs, "hash");
    cuzk_sha256_gadget(cs, bits, nbits, be);
    cuzk_cs_pop(cs);
    cuzk_bit_reverse_bit_numbering(be, 256, le);
    cuzk_cs_push(cs, "pack_le");
    cuzk_num r = cuzk_multipack_pack_bits(cs, le, CUZK_NUM_CAPACITY);
    cuzk_cs_pop(cs);
    return r;
}

/* The preimage of hash_multi_leaf / hash2: each leaf's to_bits_le, padded to 256 bits, bits reversed within bytes. */
static cuzk_num hash_nums(cuzk_cs *cs, const cuzk_num *leaves, size_t n, const char *const names[2])
{
    if (n == 0) return cuzk_sha256_gadget_hash_bits(cs, NULL, 0);
    cuzk_bit stack_bits[8 * 256];
    cuzk_bit *pre = n <= 8 ? stack_bits : malloc(n * 256 * sizeof *pre);
    if (pre == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for a %zu-leaf hash", n);
        return (cuzk_num){0};
    }
    for (size_t i = 0; i < n; i++) {
        cuzk_bit bits[CUZK_NUM_BITS];
        if (names != NULL) cuzk_cs_push(cs, names[i]);
        else cuzk_cs_pushf(cs, "%zu_num_into_bits", i);
        cuzk_num_to_bits_le(cs, leaves[i], bits);
        cuzk_cs_pop(cs);
        cuzk_bit_reverse_bit_numbering(bits, CUZK_NUM_BITS, pre + 256 * i);
    }
    cuzk_num r = cuzk_sha256_gadget_hash_bits(cs, pre, n * 256);
    if (pre != stack_bits) free(pre);
    return r;
}

cuzk_num cuzk_sha256_gadget_hash2(cuzk_cs *cs, cuzk_num a, cuzk_num b)
{
    static const char *const names[2] = {"a_bits", "b_bits"};
    cuzk_num ab[2] = {a, b};
    return hash_nums(cs, ab, 2, names);
}

cuzk_num cuzk_sha256_gadget_hash_multi_leaf(cuzk_cs *cs, const cuzk_num *leaves, size_t n)
{
    return hash_nums(cs, leaves, n, NULL);
}

cuzk_num cuzk_sha256_gadget_hash_leaf_bits(cuzk_cs *cs, const cuzk_bit *left, size_t nl, const cuzk_bit *right,
                                           size_t nr)
{
    size_t pl = (nl + 7) / 8 * 8, pr = (nr + 7) / 8 * 8;
    cuzk_bit *pre = malloc((pl + pr + 1) * sizeof *pre);
    if (pre == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for a %zu-bit preimage", pl + pr);
        return (cuzk_num){0};
    }
    cuzk_bit_reverse_bit_numbering(left, nl, pre);
    cuzk_bit_reverse_bit_numbering(right, nr, pre + pl);
    cuzk_num r = cuzk_sha256_gadget_hash_bits(cs, pre, pl + pr);
    free(pre);
    return r;
}

cuzk_num cuzk_sha256_gadget_por_hash(cuzk_cs *cs, void *ctx, const cuzk_num *children, unsigned arity, unsigned height)
{
    (void)ctx;
    (void)height;
    return cuzk_sha256_gadget_hash_multi_leaf(cs, children, arity);
}
