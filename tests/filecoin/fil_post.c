/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PoSt vanilla proofs: the real 32 GiB WindowPoSt sector proof (tests/fixtures/filecoin) decoded, checked against
 * its public data and the known leaf challenges, written back byte for byte; every truncation, every length, tag
 * and index field broken, byte flips; generated proofs of other sizes; the public-input vector. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fil_tests.h"

#define VPROOF CUZK_FIL_FIXTURES "/window-post-32g-sector.vproof"
#define PUBJSON CUZK_FIL_FIXTURES "/window-post-32g-sector.pub.json"

/* the fixture's leaves for challenges 0..9 (rust-fil-proofs storage-proofs-post fallback/vanilla.rs rule) */
static const uint64_t fixture_leaves[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                            6202012,   1055504637, 389535735, 1000069704, 600088878};

static const cuzk_fil_proof *post(uint64_t id)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, id);
    assert_non_null(p);
    return p;
}

/* comm_r from the sealed CID of the public data: multibase 'b' (RFC 4648 base32, lowercase, unpadded); the digest
 * is the CID's last 32 bytes */
static void comm_r_from_pub(uint8_t out[32])
{
    size_t len;
    char *pub = (char *)fil_test_read(PUBJSON, &len);
    const char *key = "\"SealedCID\":{\"/\":\"";
    char *p = strstr(pub, key);
    assert_non_null(p);
    p += strlen(key);
    assert_int_equal(*p++, 'b');
    uint8_t bytes[64];
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (; *p != '"'; p++) {
        const char *alpha = "abcdefghijklmnopqrstuvwxyz234567", *at = strchr(alpha, *p);
        assert_non_null(at);
        acc = acc << 5 | (uint32_t)(at - alpha);
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            assert_true(n < sizeof bytes);
            bytes[n++] = (uint8_t)(acc >> bits);
        }
    }
    assert_true(n >= 32);
    memcpy(out, bytes + n - 32, 32);
    free(pub);
}

static void test_fixture_decodes(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = fil_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = post(8);
    assert_int_equal(len, 24960);
    assert_int_equal(cuzk_fil_post_sector_bytes(p), 24960);
    cuzk_fil_post_sector s;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_OK);
    assert_int_equal(s.sector_id, 1);
    uint8_t comm_r[32];
    comm_r_from_pub(comm_r);
    assert_memory_equal(s.comm_r, comm_r, 32);
    assert_int_equal(s.challenges, 10);
    for (int i = 0; i < 10; i++) {
        const cuzk_fil_merkle_proof *m = &s.inclusion[i];
        assert_int_equal(m->kind, CUZK_FIL_MERKLE_SUB);
        assert_int_equal(m->levels, 10);
        assert_memory_equal(m->root, s.comm_r_last, 32);
        assert_int_equal(m->leaf_index, fixture_leaves[i]);
    }
    /* the challenges follow from randomness 0 and sector 1 (and are the same under API 1.2 for sector index 0) */
    uint8_t rand0[32] = {0};
    uint64_t leaves[10];
    assert_int_equal(cuzk_fil_post_sector_challenges(p, rand0, 1, 0, leaves, NULL), CUZK_OK);
    assert_memory_equal(leaves, fixture_leaves, sizeof leaves);
    assert_int_equal(cuzk_fil_post_sector_check(p, &s, rand0, 0, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_post_sector_check(post(13), &s, rand0, 0, &err), CUZK_OK);
    /* as sector index 1 under API 1.0 the challenge indices move to 10..19 */
    assert_int_equal(cuzk_fil_post_sector_check(p, &s, rand0, 1, &err), CUZK_ERR_MISMATCH);
    assert_true(fil_test_has(err.msg, "sector 1: inclusion_proofs[0] opens leaf 707914199"));
    uint8_t bad[32];
    memset(bad, 0xff, 32);
    assert_int_equal(cuzk_fil_post_sector_check(p, &s, bad, 0, &err), CUZK_ERR_NOT_CANONICAL);
    /* written back byte for byte */
    uint8_t *out = malloc(len);
    size_t wl = 0;
    assert_int_equal(cuzk_fil_post_sector_encode(p, &s, out, len, &wl, NULL), CUZK_OK);
    assert_int_equal(wl, len);
    assert_memory_equal(out, buf, len);
    assert_int_equal(cuzk_fil_post_sector_encode(p, &s, out, len - 1, &wl, &err), CUZK_ERR_TOO_LARGE);
    assert_int_equal(wl, len);
    free(out);
    cuzk_fil_post_sector_free(&s);
    cuzk_fil_post_sector_free(&s); /* a second free is harmless */
    free(buf);
}

/* The same bytes against registered proofs of another shape or count. */
static void test_fixture_wrong_proof(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = fil_test_read(VPROOF, &len);
    cuzk_fil_post_sector s;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_post_sector_decode(post(3), buf, len, &s, &err), CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "vanilla_proof.sectors[0].inclusion_proofs: expected 66 found 10");
    assert_null(s.mem);
    assert_int_equal(cuzk_fil_post_sector_decode(post(9), buf, len, &s, &err), CUZK_ERR_MISMATCH);
    assert_string_equal(err.msg,
                        "vanilla_proof.sectors[0].inclusion_proofs[0]: variant Sub, the tree (8-8-2) needs Top");
    assert_int_equal(cuzk_fil_post_sector_decode(post(5), buf, len, &s, &err), CUZK_ERR_MISMATCH);
    assert_int_equal(cuzk_fil_post_sector_decode(cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, 8), buf, len, &s, &err),
                     CUZK_ERR_INVALID_ARG);
    free(buf);
}

/* Every length short of the whole proof is a truncation, named by its field; one byte more is trailing. */
static void test_fixture_truncations(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = fil_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = post(8);
    cuzk_fil_post_sector s;
    cuzk_errmsg err = {{0}};
    for (size_t n = 0; n < len; n++) {
        assert_int_equal(cuzk_fil_post_sector_decode(p, buf, n, &s, &err), CUZK_ERR_TRUNCATED);
        assert_null(s.mem);
        if (n == 0) assert_string_equal(err.msg, "sector_id: truncated: needs 8 bytes at byte 0, 0 left");
        if (n == 45) assert_string_equal(err.msg, "vanilla_proof.sectors: truncated: needs 8 bytes at byte 40, 5 left");
        if (n == 100)
            assert_string_equal(err.msg, "vanilla_proof.sectors[0].inclusion_proofs[0].base_proof.path[0].hashes[0]: "
                                         "truncated: needs 32 bytes at byte 76, 24 left");
        if (n == len - 1) assert_true(fil_test_has(err.msg, "comm_r_last: truncated"));
    }
    assert_int_equal(cuzk_fil_post_sector_decode(p, NULL, 0, &s, &err), CUZK_ERR_TRUNCATED);
    assert_int_equal(cuzk_fil_post_sector_decode(p, NULL, 5, &s, &err), CUZK_ERR_INVALID_ARG);
    uint8_t *more = malloc(len + 1);
    memcpy(more, buf, len);
    more[len] = 0;
    assert_int_equal(cuzk_fil_post_sector_decode(p, more, len + 1, &s, &err), CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "1 trailing bytes after the proof (at byte 24960)");
    free(more);
    free(buf);
}

/* The layout's count, tag and index fields, found by walking it. */
enum { F_COUNT, F_TAG, F_INDEX };
typedef struct {
    size_t off;
    int kind;
    uint64_t value; /* what the field holds in a valid proof (count) or its arity (index) */
} field;

static size_t walk(const cuzk_fil_proof *p, field *f, size_t max)
{
    size_t n = 0, off = 40;
    const cuzk_fil_shape *s = &p->tree_r;
    f[n++] = (field){off, F_COUNT, 1};
    off += 8;
    f[n++] = (field){off, F_COUNT, p->challenges};
    off += 8;
    for (uint32_t c = 0; c < p->challenges && n + 64 < max; c++) {
        f[n++] = (field){off, F_TAG, (uint64_t)(s->top ? 2 : s->sub ? 1 : 0)};
        off += 4;
        if (s->sub == 0) off += 64;
        unsigned parts = 1 + (s->sub != 0) + (s->top != 0), level = 0;
        for (unsigned part = 0; part < parts; part++) {
            unsigned count = part == 0 ? s->base_levels : 1;
            f[n++] = (field){off, F_COUNT, count};
            off += 8;
            for (unsigned e = 0; e < count; e++, level++) {
                unsigned a = cuzk_fil_shape_arity(s, level);
                f[n++] = (field){off, F_COUNT, a - 1};
                off += 8 + 32 * (size_t)(a - 1);
                f[n++] = (field){off, F_INDEX, a};
                off += 8;
            }
        }
        if (s->sub != 0) off += 64;
    }
    assert_int_equal(off + 64, cuzk_fil_post_sector_bytes(p));
    return n;
}

/* Every count made one more, one less and huge; every tag another variant or unknown; every index at or past its
 * arity: each refused with the status of its kind. */
static void test_fixture_fields_broken(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = fil_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = post(8);
    static field f[400];
    size_t nf = walk(p, f, 400);
    assert_int_equal(nf, 2 + 10 * (1 + 1 + 9 * 2 + 1 + 2)); /* counts, tag, paths' counts and indices */
    cuzk_fil_post_sector s;
    cuzk_errmsg err = {{0}};
    for (size_t i = 0; i < nf; i++) {
        uint8_t save[8];
        memcpy(save, buf + f[i].off, 8);
        if (f[i].kind == F_TAG) {
            static const uint32_t tags[] = {0, 2, 3, 0xffffffffu};
            for (size_t t = 0; t < 4; t++) {
                memcpy(buf + f[i].off, &tags[t], 4);
                cuzk_status want = tags[t] <= 2 ? CUZK_ERR_MISMATCH : CUZK_ERR_BAD_HEADER;
                assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), want);
            }
        } else {
            uint64_t vals[3] = {f[i].value + 1, f[i].value - 1, UINT64_MAX};
            if (f[i].kind == F_INDEX) vals[0] = f[i].value, vals[1] = 255;
            for (int v = 0; v < 3; v++) {
                memcpy(buf + f[i].off, &vals[v], 8);
                cuzk_status want = f[i].kind == F_COUNT ? CUZK_ERR_BAD_LENGTH : CUZK_ERR_TOO_LARGE;
                assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), want);
                assert_null(s.mem);
            }
        }
        memcpy(buf + f[i].off, save, 8);
    }
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, NULL), CUZK_OK);
    cuzk_fil_post_sector_free(&s);

    /* the messages name the field, expected against found */
    uint64_t v = 6;
    memcpy(buf + f[4].off, &v, 8); /* inclusion_proofs[0].base_proof.path[0].hashes */
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_ERR_BAD_LENGTH);
    assert_string_equal(err.msg, "vanilla_proof.sectors[0].inclusion_proofs[0].base_proof.path[0].hashes: "
                                 "expected 7 found 6");
    v = 7;
    memcpy(buf + f[4].off, &v, 8);
    v = 8;
    memcpy(buf + f[5].off, &v, 8);
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_ERR_TOO_LARGE);
    assert_string_equal(err.msg, "vanilla_proof.sectors[0].inclusion_proofs[0].base_proof.path[0].index: "
                                 "8 is not below the arity 8");
    free(buf);
}

static void test_fixture_values_broken(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = fil_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = post(8);
    cuzk_fil_post_sector s;
    cuzk_errmsg err = {{0}};
    /* comm_r at or above r */
    uint8_t save = buf[39];
    buf[39] = 0x74;
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_ERR_NOT_CANONICAL);
    assert_string_equal(err.msg, "comm_r: field element at byte 8 is not below r (top byte 0x74)");
    buf[39] = save;
    /* a sibling: inclusion_proofs[0].base_proof.path[0].hashes[3] */
    size_t off = 76 + 3 * 32 + 31;
    save = buf[off];
    buf[off] = 0xff;
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_ERR_NOT_CANONICAL);
    assert_true(fil_test_has(err.msg, "vanilla_proof.sectors[0].inclusion_proofs[0].base_proof.path[0].hashes[3]: "));
    buf[off] = save;
    /* an inclusion proof rooted elsewhere than comm_r_last */
    off = 56 + 2484 + 2484 - 64; /* inclusion_proofs[1].root */
    buf[off] ^= 1;
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_ERR_MISMATCH);
    assert_string_equal(err.msg, "vanilla_proof.sectors[0].inclusion_proofs[1].root: differs from comm_r_last");
    buf[off] ^= 1;
    /* index bytes that still decode move the leaf: the decoder takes them, the challenge check does not */
    buf[300] = (uint8_t)((buf[300] + 1) % 8);
    assert_int_equal(cuzk_fil_post_sector_decode(p, buf, len, &s, &err), CUZK_OK);
    uint8_t rand0[32] = {0};
    assert_int_equal(cuzk_fil_post_sector_check(p, &s, rand0, 0, &err), CUZK_ERR_MISMATCH);
    cuzk_fil_post_sector_free(&s);
    free(buf);
}

/* Single-byte flips all over the proof: refused or accepted, never a crash, a leak or a half-filled result. */
static void test_fixture_flips(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = fil_test_read(VPROOF, &len);
    const cuzk_fil_proof *p = post(8);
    size_t ok = 0, bad = 0;
    for (size_t i = 0; i < len; i += i < 2600 ? 1 : 13) {
        uint8_t flip = (uint8_t)(1u << (test_rand_u64() & 7));
        buf[i] ^= flip;
        cuzk_fil_post_sector s;
        if (cuzk_fil_post_sector_decode(p, buf, len, &s, NULL) == CUZK_OK) {
            ok++;
            assert_non_null(s.mem);
            cuzk_fil_post_sector_free(&s);
        } else {
            bad++;
            assert_null(s.mem);
        }
        buf[i] ^= flip;
    }
    assert_true(ok > 0 && bad > 0);
    free(buf);
}

/* a random, structurally valid sector proof of p with these leaves (NULL: random) */
static void make_sector(const cuzk_fil_proof *p, uint64_t sector_id, const uint64_t *leaves, cuzk_fil_post_sector *s)
{
    size_t sib = cuzk_fil_shape_siblings(&p->tree_r);
    memset(s, 0, sizeof *s);
    s->mem = calloc(p->challenges, sizeof(cuzk_fil_merkle_proof) + 32 * sib);
    assert_non_null(s->mem);
    s->inclusion = s->mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(s->inclusion + p->challenges);
    s->challenges = p->challenges;
    s->sector_id = sector_id;
    test_rand_bytes(s->comm_r, 32);
    test_rand_bytes(s->comm_c, 32);
    test_rand_bytes(s->comm_r_last, 32);
    s->comm_r[31] &= 0x3f, s->comm_c[31] &= 0x3f, s->comm_r_last[31] &= 0x3f;
    for (uint32_t i = 0; i < p->challenges; i++) {
        cuzk_fil_merkle_proof *m = &s->inclusion[i];
        m->siblings = pool + i * sib;
        for (size_t k = 0; k < sib; k++) {
            test_rand_bytes((uint8_t *)m->siblings[k], 32);
            ((uint8_t *)m->siblings[k])[31] &= 0x3f;
        }
        memcpy(m->root, s->comm_r_last, 32);
        test_rand_bytes(m->leaf, 32);
        m->leaf[31] &= 0x3f;
        uint64_t leaf = leaves != NULL ? leaves[i] : test_rand_u64() % p->nodes;
        m->leaf_index = leaf;
        m->levels = (uint8_t)cuzk_fil_shape_levels(&p->tree_r);
        m->kind = (uint8_t)(p->tree_r.top ? 2 : p->tree_r.sub ? 1 : 0);
        for (unsigned l = 0; l < m->levels; l++) {
            unsigned a = cuzk_fil_shape_arity(&p->tree_r, l);
            m->index[l] = (uint8_t)(leaf % a);
            leaf /= a;
        }
    }
}

static void assert_sector_equal(const cuzk_fil_proof *p, const cuzk_fil_post_sector *a, const cuzk_fil_post_sector *b)
{
    assert_int_equal(a->sector_id, b->sector_id);
    assert_memory_equal(a->comm_r, b->comm_r, 32);
    assert_memory_equal(a->comm_c, b->comm_c, 32);
    assert_memory_equal(a->comm_r_last, b->comm_r_last, 32);
    assert_int_equal(a->challenges, b->challenges);
    size_t sib = cuzk_fil_shape_siblings(&p->tree_r);
    for (uint32_t i = 0; i < a->challenges; i++) {
        const cuzk_fil_merkle_proof *x = &a->inclusion[i], *y = &b->inclusion[i];
        assert_int_equal(x->leaf_index, y->leaf_index);
        assert_int_equal(x->levels, y->levels);
        assert_int_equal(x->kind, y->kind);
        assert_memory_equal(x->index, y->index, x->levels);
        assert_memory_equal(x->root, y->root, 32);
        assert_memory_equal(x->leaf, y->leaf, 32);
        assert_memory_equal(x->siblings, y->siblings, 32 * sib);
    }
}

/* Generated proofs of every PoSt registered proof: sizes, round trips, truncations of the small ones. */
static void test_generated_round_trip(void **state)
{
    (void)state;
    static const struct {
        uint32_t id;
        size_t bytes;
    } sizes[] = {{0, 36816}, {5, 5680}, {3, 164064}, {8, 24960}, {4, 167760}, {1, 0}, {12, 0}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const cuzk_fil_proof *p = post(sizes[k].id);
        if (sizes[k].bytes != 0) assert_int_equal(cuzk_fil_post_sector_bytes(p), sizes[k].bytes);
        cuzk_fil_post_sector s, d;
        make_sector(p, test_rand_u64(), NULL, &s);
        size_t n = cuzk_fil_post_sector_bytes(p), wl;
        uint8_t *buf = malloc(n);
        assert_int_equal(cuzk_fil_post_sector_encode(p, &s, buf, n, &wl, NULL), CUZK_OK);
        assert_int_equal(wl, n);
        assert_int_equal(cuzk_fil_post_sector_decode(p, buf, n, &d, NULL), CUZK_OK);
        assert_sector_equal(p, &s, &d);
        cuzk_fil_post_sector_free(&d);
        if (n < 40000)
            for (size_t t = 0; t < n; t += 1 + (t > 4000) * 7)
                assert_int_equal(cuzk_fil_post_sector_decode(p, buf, t, &d, NULL), CUZK_ERR_TRUNCATED);
        free(buf);
        free(s.mem);
    }
}

static void test_public_inputs_window(void **state)
{
    (void)state;
    const cuzk_fil_proof *v1 = post(8), *v12 = post(13);
    size_t n = cuzk_fil_post_public_input_count(v1);
    assert_int_equal(n, 2349 * 11);
    assert_int_equal(n + 1, 25840); /* the IC length of the WindowPoSt 32 GiB key */
    cuzk_fr_t *in = malloc(n * sizeof *in);
    assert_non_null(in);
    uint8_t rand[32];
    test_rand_bytes(rand, 32);
    rand[31] &= 0x3f;
    cuzk_fil_post_pub_sector sec[3];
    for (int i = 0; i < 3; i++) {
        sec[i].sector_id = 100 + (uint64_t)i * 7;
        test_rand_bytes(sec[i].comm_r, 32);
        sec[i].comm_r[31] &= 0x3f;
    }
    for (int api = 0; api < 2; api++) {
        const cuzk_fil_proof *p = api == 0 ? v1 : v12;
        uint32_t part = 2;
        assert_int_equal(cuzk_fil_post_public_inputs(p, rand, sec, 3, part, in, NULL), CUZK_OK);
        for (size_t slot = 0; slot < 2349; slot++) {
            size_t i = slot < 3 ? slot : 2; /* short partitions repeat the last sector */
            cuzk_fr_t want;
            assert_int_equal(cuzk_fr_from_bytes_le(&want, sec[i].comm_r), CUZK_OK);
            assert_true(cuzk_fr_eq(&in[slot * 11], &want));
            for (uint32_t c = 0; c < 10; c++) {
                uint64_t idx = api == 0 ? (part * 2349 + i) * 10 + c : c;
                uint64_t limbs[4] = {cuzk_fil_post_challenge(rand, sec[i].sector_id, idx, 1ULL << 30)};
                assert_int_equal(cuzk_fr_from_limbs(&want, limbs), CUZK_OK);
                assert_true(cuzk_fr_eq(&in[slot * 11 + 1 + c], &want));
            }
        }
    }
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_post_public_inputs(v1, rand, sec, 0, 0, in, &err), CUZK_ERR_INVALID_ARG);
    sec[1].comm_r[31] = 0xff;
    assert_int_equal(cuzk_fil_post_public_inputs(v1, rand, sec, 3, 0, in, &err), CUZK_ERR_NOT_CANONICAL);
    assert_true(fil_test_has(err.msg, "sector 107: comm_r"));
    rand[31] = 0x80;
    assert_int_equal(cuzk_fil_post_public_inputs(v1, rand, sec, 1, 0, in, &err), CUZK_ERR_NOT_CANONICAL);
    free(in);
}

/* WinningPoSt: the one sector in all 66 slots, slot i taking challenge i; its vanilla proof opens those leaves. */
static void test_public_inputs_winning(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = post(3);
    assert_int_equal(cuzk_fil_post_public_input_count(p), 132);
    cuzk_fr_t in[132];
    uint8_t rand[32];
    test_rand_bytes(rand, 32);
    rand[31] &= 0x3f;
    cuzk_fil_post_pub_sector sec = {12345, {0}};
    test_rand_bytes(sec.comm_r, 32);
    sec.comm_r[31] &= 0x3f;
    assert_int_equal(cuzk_fil_post_public_inputs(p, rand, &sec, 1, 0, in, NULL), CUZK_OK);
    uint64_t leaves[66];
    assert_int_equal(cuzk_fil_post_sector_challenges(p, rand, sec.sector_id, 0, leaves, NULL), CUZK_OK);
    for (int i = 0; i < 66; i++) {
        cuzk_fr_t want;
        cuzk_fr_from_bytes_le(&want, sec.comm_r);
        assert_true(cuzk_fr_eq(&in[2 * i], &want));
        uint64_t limbs[4] = {leaves[i]};
        cuzk_fr_from_limbs(&want, limbs);
        assert_true(cuzk_fr_eq(&in[2 * i + 1], &want));
        assert_int_equal(leaves[i], cuzk_fil_post_challenge(rand, sec.sector_id, (uint64_t)i, 1ULL << 30));
    }
    cuzk_fil_post_sector s;
    make_sector(p, sec.sector_id, leaves, &s);
    assert_int_equal(cuzk_fil_post_sector_check(p, &s, rand, 0, NULL), CUZK_OK);
    free(s.mem);
    cuzk_fil_post_pub_sector two[2] = {sec, sec};
    assert_int_equal(cuzk_fil_post_public_inputs(p, rand, two, 2, 0, in, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_post_public_inputs(p, rand, &sec, 1, 1, in, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(
        cuzk_fil_post_public_inputs(cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, 3), rand, &sec, 1, 0, in, NULL),
        CUZK_ERR_INVALID_ARG);
}

static void test_challenge_rule(void **state)
{
    (void)state;
    assert_int_equal(cuzk_fil_post_challenge_index(CUZK_FIL_API_1_0, 3, 10, 4), 34);
    assert_int_equal(cuzk_fil_post_challenge_index(CUZK_FIL_API_1_1, 3, 10, 4), 34);
    assert_int_equal(cuzk_fil_post_challenge_index(CUZK_FIL_API_1_2, 3, 10, 4), 4);
    uint8_t rand0[32] = {0};
    for (int i = 0; i < 10; i++)
        assert_int_equal(cuzk_fil_post_challenge(rand0, 1, (uint64_t)i, 1ULL << 30), fixture_leaves[i]);
}

const struct CMUnitTest fil_post_tests[] = {
    cmocka_unit_test(test_fixture_decodes),       cmocka_unit_test(test_fixture_wrong_proof),
    cmocka_unit_test(test_fixture_truncations),   cmocka_unit_test(test_fixture_fields_broken),
    cmocka_unit_test(test_fixture_values_broken), cmocka_unit_test(test_fixture_flips),
    cmocka_unit_test(test_generated_round_trip),  cmocka_unit_test(test_public_inputs_window),
    cmocka_unit_test(test_public_inputs_winning), cmocka_unit_test(test_challenge_rule),
};
const size_t fil_post_count = sizeof fil_post_tests / sizeof fil_post_tests[0];
