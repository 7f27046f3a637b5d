/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Poseidon as Filecoin uses it (neptune 11, Strength::Standard): constants against the preprocessed constant files,
 * the optimised permutation against a textbook one, the published known answers, domain tags, Merkle trees and
 * paths, and a real 32 GiB WindowPoSt vanilla proof (tests/fixtures/filecoin/README.md). */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "testutil.h"

static const unsigned ARITIES[] = {2, 4, 8, 11, 16, 24, 36};
#define N_ARITIES (sizeof ARITIES / sizeof ARITIES[0])

/* ---- helpers ----------------------------------------------------------------------------------------------------- */
static void unhex(uint8_t *out, const char *hex, size_t n)
{
    assert_int_equal(strlen(hex), 2 * n);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

static void fr_from_hex_le(cuzk_fr_t *r, const char *hex)
{
    uint8_t b[32];
    unhex(b, hex, 32);
    assert_int_equal(cuzk_fr_from_bytes_le(r, b), CUZK_OK);
}

static void assert_fr_hex_le(const cuzk_fr_t *a, const char *hex)
{
    uint8_t got[32], want[32];
    cuzk_fr_to_bytes_le(got, a);
    unhex(want, hex, 32);
    assert_memory_equal(got, want, 32);
}

static uint8_t *read_file(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/filecoin/%s", CUZK_FIXTURES_DIR, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void merkle_tag(cuzk_fr_t *tag, unsigned arity)
{
    assert_int_equal(cuzk_poseidon_tag(tag, CUZK_POSEIDON_MERKLE_TREE, arity, 0, NULL), CUZK_OK);
}

/* ---- first use from several threads ------------------------------------------------------------------------------ */
static void *get_params(void *arg) { return (void *)cuzk_poseidon_params_get(*(const unsigned *)arg); }

/* Runs first in the process: arities 24 and 36 are made here, by whichever of eight threads comes first, and all
 * eight get the same constants. */
static void test_params_first_use_threaded(void **state)
{
    (void)state;
    static const unsigned A[] = {24, 36};
    for (unsigned k = 0; k < 2; k++) {
        pthread_t tid[8];
        void *got[8];
        for (unsigned i = 0; i < 8; i++) assert_int_equal(pthread_create(&tid[i], NULL, get_params, (void *)&A[k]), 0);
        for (unsigned i = 0; i < 8; i++) assert_int_equal(pthread_join(tid[i], &got[i]), 0);
        assert_non_null(got[0]);
        for (unsigned i = 1; i < 8; i++) assert_ptr_equal(got[i], got[0]);
        assert_ptr_equal(cuzk_poseidon_params_get(A[k]), got[0]);
    }
}

/* ---- round numbers and constants --------------------------------------------------------------------------------- */
static void test_round_numbers(void **state)
{
    (void)state;
    static const unsigned RP[] = {55, 56, 57, 57, 59, 59, 60};
    for (unsigned k = 0; k < N_ARITIES; k++) {
        assert_int_equal(cuzk_poseidon_partial_rounds(ARITIES[k]), RP[k]);
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(ARITIES[k]);
        assert_non_null(p);
        assert_int_equal(p->arity, ARITIES[k]);
        assert_int_equal(p->width, ARITIES[k] + 1);
        assert_int_equal(p->full_rounds, 8);
        assert_int_equal(p->partial_rounds, RP[k]);
        assert_ptr_equal(cuzk_poseidon_params_get(ARITIES[k]), p); /* made once */
    }
    static const unsigned NOT[] = {0, 1, 3, 5, 7, 9, 12, 32, 37, 1000};
    for (unsigned k = 0; k < sizeof NOT / sizeof NOT[0]; k++) {
        assert_int_equal(cuzk_poseidon_partial_rounds(NOT[k]), 0);
        assert_null(cuzk_poseidon_params_get(NOT[k]));
    }
}

/* The Grain LFSR on its own: round constants of t = 9 (RF 8, RP 57) as the Poseidon authors' reference script makes
 * them (neptune v11.0.0 parameters/round_constants-1-1-255-9-8-57-73EDA753...txt, 585 values; entries 0, 100, 584). */
static void test_grain_round_constants(void **state)
{
    (void)state;
    static const struct {
        unsigned i;
        const char *be;
    } RC[] = {{0, "6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"},
              {100, "348152b9007b9559470b527d1a99c97a180231b2cb4c748394da2a9d9c9f88ed"},
              {584, "3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c"}};
    const cuzk_poseidon_params *p = cuzk_poseidon_params_get(8);
    assert_non_null(p);
    assert_int_equal((p->full_rounds + p->partial_rounds) * p->width, 585);
    for (unsigned k = 0; k < 3; k++) {
        uint8_t got[32], want[32];
        cuzk_fr_to_bytes_be(got, &p->round_constants[RC[k].i]);
        unhex(want, RC[k].be, 32);
        assert_memory_equal(got, want, 32);
    }
}

/* The five preprocessed constant files, byte for byte: compressed round constants, MDS, pre-sparse, sparse. */
static void test_constants_match_files(void **state)
{
    (void)state;
    static const char *SECTION[] = {"compressed round constants", "mds", "pre-sparse matrix", "sparse matrices"};
    for (unsigned k = 0; k < 5; k++) {
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(ARITIES[k]);
        assert_non_null(p);
        char name[64];
        snprintf(name, sizeof name, "poseidon-constants-arity%u.bin", ARITIES[k]);
        size_t len, n = cuzk_poseidon_constants_size(p);
        uint8_t *want = read_file(name, &len), *got = malloc(n);
        assert_non_null(got);
        assert_int_equal(n, len);
        cuzk_poseidon_constants_write(p, got);
        if (memcmp(got, want, n) != 0) {
            size_t t = p->width, bounds[4] = {8 * t + p->partial_rounds, t * t, t * t, p->partial_rounds * (2 * t - 1)};
            size_t i = 0;
            while (got[i] == want[i]) i++;
            size_t v = i / 32, s = 0;
            while (v >= bounds[s]) v -= bounds[s++];
            fail_msg("arity %u: %s value %zu differs from %s", ARITIES[k], SECTION[s], v, name);
        }
        free(got);
        free(want);
    }
}

/* Arities 24 and 36 against the SHA-256 of curio's extern/supraseal/poseidon/constants/constants_{24,36}. */
static void test_constants_24_36_digest(void **state)
{
    (void)state;
    static const struct {
        unsigned arity;
        const char *sha256;
    } D[] = {{24, "63617d9ce27fe7d44cef3cd27ba141eacec20412ac4e50785f778ff71320c420"},
             {36, "c0fe6022799f978f99e63223d0fc3d8247d0c5858a90ee051e9b6c77702149b8"}};
    for (unsigned k = 0; k < 2; k++) {
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(D[k].arity);
        assert_non_null(p);
        size_t n = cuzk_poseidon_constants_size(p);
        assert_int_equal(n, D[k].arity == 24 ? 140800 : 239168);
        uint8_t *buf = malloc(n), md[32], want[32];
        assert_non_null(buf);
        cuzk_poseidon_constants_write(p, buf);
        unsigned mdlen = 0;
        assert_int_equal(EVP_Digest(buf, n, md, &mdlen, EVP_sha256(), NULL), 1);
        unhex(want, D[k].sha256, 32);
        assert_memory_equal(md, want, 32);
        free(buf);
    }
}

/* ---- the permutation --------------------------------------------------------------------------------------------- */
/* Textbook Poseidon: each round adds its keys, applies the S-box layer (all elements or element 0), multiplies by M. */
static void permute_textbook(const cuzk_poseidon_params *p, cuzk_fr_t *s)
{
    unsigned t = p->width, h = p->full_rounds / 2;
    for (unsigned r = 0; r < p->full_rounds + p->partial_rounds; r++) {
        for (unsigned i = 0; i < t; i++) cuzk_fr_add(&s[i], &s[i], &p->round_constants[r * t + i]);
        bool full = r < h || r >= h + p->partial_rounds;
        for (unsigned i = 0; i < (full ? t : 1); i++) {
            cuzk_fr_t x = s[i];
            cuzk_fr_sqr(&s[i], &s[i]);
            cuzk_fr_sqr(&s[i], &s[i]);
            cuzk_fr_mul(&s[i], &s[i], &x);
        }
        cuzk_fr_t m[CUZK_POSEIDON_MAX_WIDTH], x;
        for (unsigned i = 0; i < t; i++) {
            cuzk_fr_set_zero(&m[i]);
            for (unsigned j = 0; j < t; j++) {
                cuzk_fr_mul(&x, &p->mds[i * t + j], &s[j]);
                cuzk_fr_add(&m[i], &m[i], &x);
            }
        }
        memcpy(s, m, t * sizeof *s);
    }
}

static void test_optimised_equals_textbook(void **state)
{
    (void)state;
    for (unsigned k = 0; k < N_ARITIES; k++) {
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(ARITIES[k]);
        for (int rep = 0; rep < 4; rep++) {
            cuzk_fr_t a[CUZK_POSEIDON_MAX_WIDTH], b[CUZK_POSEIDON_MAX_WIDTH];
            for (unsigned i = 0; i < p->width; i++) test_rand_fr(&a[i]);
            memcpy(b, a, sizeof a);
            cuzk_poseidon_permute(p, a);
            permute_textbook(p, b);
            for (unsigned i = 0; i < p->width; i++)
                if (!cuzk_fr_eq(&a[i], &b[i])) fail_msg("arity %u: state element %u differs", p->arity, i);
        }
    }
}

/* The round-by-round walk a circuit gadget does with the public schedule (round_is_full, post_keys, round_mix),
 * checked against the trace of cuzk_poseidon_permute_trace and its final state. */
static void test_trace_follows_schedule(void **state)
{
    (void)state;
    for (unsigned k = 0; k < N_ARITIES; k++) {
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(ARITIES[k]);
        unsigned t = p->width, rounds = p->full_rounds + p->partial_rounds, nsb = CUZK_POSEIDON_SBOXES(p);
        cuzk_fr_t s[CUZK_POSEIDON_MAX_WIDTH], u[CUZK_POSEIDON_MAX_WIDTH], x;
        cuzk_fr_t *trace = malloc(nsb * sizeof *trace);
        assert_non_null(trace);
        for (unsigned i = 0; i < t; i++) test_rand_fr(&s[i]);
        memcpy(u, s, sizeof s);
        cuzk_poseidon_permute_trace(p, s, trace);

        unsigned sb = 0, full_count = 0;
        for (unsigned i = 0; i < t; i++) cuzk_fr_add(&u[i], &u[i], &p->compressed[i]);
        for (unsigned r = 0; r < rounds; r++) {
            bool full = cuzk_poseidon_round_is_full(p, r);
            const cuzk_fr_t *post = cuzk_poseidon_post_keys(p, r);
            assert_true((post == NULL) == (r + 1 == rounds));
            full_count += full;
            for (unsigned i = 0; i < (full ? t : 1); i++) {
                assert_true(cuzk_fr_eq(&trace[sb++], &u[i]));
                cuzk_fr_t x2, x4;
                cuzk_fr_sqr(&x2, &u[i]);
                cuzk_fr_sqr(&x4, &x2);
                cuzk_fr_mul(&u[i], &x4, &u[i]);
                if (post) cuzk_fr_add(&u[i], &u[i], &post[i]);
            }
            bool sparse;
            const cuzk_fr_t *m = cuzk_poseidon_round_mix(p, r, &sparse);
            assert_non_null(m);
            cuzk_fr_t v[CUZK_POSEIDON_MAX_WIDTH];
            for (unsigned j = 0; j < t; j++) {
                cuzk_fr_set_zero(&v[j]);
                for (unsigned i = 0; i < t; i++) {
                    /* a sparse matrix as its dense form: column 0 w_hat, row 0 [w_hat0, v_rest], identity inside */
                    cuzk_fr_t e;
                    if (!sparse) e = m[i * t + j];
                    else if (j == 0) e = m[i];
                    else if (i == 0) e = m[t + j - 1];
                    else if (i == j) cuzk_fr_set_one(&e);
                    else cuzk_fr_set_zero(&e);
                    cuzk_fr_mul(&x, &u[i], &e);
                    cuzk_fr_add(&v[j], &v[j], &x);
                }
            }
            memcpy(u, v, sizeof v);
        }
        assert_int_equal(full_count, p->full_rounds);
        assert_int_equal(sb, nsb);
        for (unsigned i = 0; i < t; i++) assert_true(cuzk_fr_eq(&u[i], &s[i]));
        bool sparse;
        assert_null(cuzk_poseidon_round_mix(p, rounds, &sparse));
        assert_null(cuzk_poseidon_post_keys(p, rounds));
        free(trace);
    }
}

/* ---- known answers ----------------------------------------------------------------------------------------------- */
/* neptune v11.0.0 src/poseidon.rs hash_values, Strength::Standard, MerkleTree: inputs 0, 1, .., arity−1. */
static void test_kat_neptune_hash_values(void **state)
{
    (void)state;
    static const char *OUT[] = {
        "ffe7029a363c202e9da6059d33a9fba661e1ef02d90f9e736ba5765ed7086539",
        "5d076266ff149801ec2713bf05466bfb99932279653cdb008a84e5a9104ba558",
        "e6a5386df534992ad9aec49c9d2e684b777067114200011255dea5a31d619423",
        "6331692bc3bbe3cec18fb0ccd8dcf3097ae8eb32e237a56c287f22e5b2c10f0c",
        "376d266040c791126f0a68306dbc8d5b631e876f5afbc2c18aae813366e23a2d",
        "21b385f56935efd7b1158846f679e7c39f3d3f78bf396f0615ae111f83b8be63",
        "40814efa6d6073443caca8f88d36cd75aabb103ce0300a545f5d6e2a08039369",
    };
    for (unsigned k = 0; k < N_ARITIES; k++) {
        cuzk_fr_t in[CUZK_POSEIDON_MAX_ARITY], tag, out;
        for (unsigned i = 0; i < ARITIES[k]; i++) cuzk_fr_from_u64(&in[i], i);
        merkle_tag(&tag, ARITIES[k]);
        assert_int_equal(cuzk_poseidon_hash(&out, ARITIES[k], &tag, in, ARITIES[k], NULL), CUZK_OK);
        assert_fr_hex_le(&out, OUT[k]);
        /* and through the textbook permutation */
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(ARITIES[k]);
        cuzk_fr_t s[CUZK_POSEIDON_MAX_WIDTH];
        s[0] = tag;
        memcpy(&s[1], in, ARITIES[k] * sizeof *in);
        permute_textbook(p, s);
        assert_fr_hex_le(&s[1], OUT[k]);
    }
}

/* curio lib/proof/post_vproof_test.go TestPoseidonHashMulti: an arity-8 tree-R node. */
static void test_kat_curio_arity8(void **state)
{
    (void)state;
    static const char *IN[] = {
        "f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31",
        "197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02",
        "01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21",
        "bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d",
        "937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908",
        "3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308",
        "2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936",
        "0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630",
    };
    uint8_t in[8 * 32], out[32], want[32];
    for (unsigned i = 0; i < 8; i++) unhex(in + 32 * i, IN[i], 32);
    unhex(want, "0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866", 32);
    assert_int_equal(cuzk_poseidon_merkle_hash_bytes(out, 8, in, NULL), CUZK_OK);
    assert_memory_equal(out, want, 32);
}

/* filecoin-hashers poseidon.rs (rust-fil-proofs 87348a74, lines 428-480): a binary tree over leaves 1, 0, 0, 1. */
static void test_kat_binary_tree(void **state)
{
    (void)state;
    uint8_t leaves[4 * 32], node[32], root[32], want[32];
    static const uint64_t V[] = {1, 0, 0, 1};
    for (unsigned i = 0; i < 4; i++) {
        cuzk_fr_t x;
        cuzk_fr_from_u64(&x, V[i]);
        cuzk_fr_to_bytes_le(leaves + 32 * i, &x);
    }
    assert_int_equal(cuzk_poseidon_merkle_hash_bytes(node, 2, leaves, NULL), CUZK_OK);
    unhex(want, "5e0b807960ff39b3af9430dcb30759ec264fa274cc03c093c36b78beff942f04", 32);
    assert_memory_equal(node, want, 32);
    cuzk_poseidon_tree_shape shape = {2, 0, 0};
    assert_int_equal(cuzk_poseidon_tree_root(root, leaves, 4, &shape, 1, NULL), CUZK_OK);
    unhex(want, "71e691e2e38bbbefd25a2bcbb872cc77ae746bae8563eb30ebd96ab2b7ebff1e", 32);
    assert_memory_equal(root, want, 32);
}

/* filecoin-hashers poseidon.rs (lines 523-540) hash_md of 71 copies of Fr(1). */
static void test_kat_hash_md(void **state)
{
    (void)state;
    cuzk_fr_t in[71], out;
    for (unsigned i = 0; i < 71; i++) cuzk_fr_set_one(&in[i]);
    assert_int_equal(cuzk_poseidon_hash_md(&out, in, 71, NULL), CUZK_OK);
    assert_fr_hex_le(&out, "902c333b13541c3595814e5f626d6fc22296ed433662d95ff7f69fe02022f459");
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_poseidon_hash_md(&out, in, 1, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "1 inputs"));
    /* two inputs: one permutation over (tag, in0, in1, 0, ..) */
    cuzk_fr_t tag, h;
    merkle_tag(&tag, 36);
    assert_int_equal(cuzk_poseidon_hash(&h, 36, &tag, in, 2, NULL), CUZK_OK);
    assert_int_equal(cuzk_poseidon_hash_md(&out, in, 2, NULL), CUZK_OK);
    assert_true(cuzk_fr_eq(&out, &h));
}

/* ---- tags and bad arguments -------------------------------------------------------------------------------------- */
static void test_tags(void **state)
{
    (void)state;
    static const struct {
        cuzk_poseidon_hash_type type;
        unsigned arity;
        uint64_t param;
        uint64_t limbs[4];
    } T[] = {
        {CUZK_POSEIDON_MERKLE_TREE, 2, 0, {0x3, 0, 0, 0}},
        {CUZK_POSEIDON_MERKLE_TREE, 8, 0, {0xff, 0, 0, 0}},
        {CUZK_POSEIDON_MERKLE_TREE, 11, 0, {0x7ff, 0, 0, 0}},
        {CUZK_POSEIDON_MERKLE_TREE, 36, 0, {0xfffffffffULL, 0, 0, 0}},
        {CUZK_POSEIDON_MERKLE_TREE_SPARSE, 8, 0x55, {0x55, 0, 0, 0}},
        {CUZK_POSEIDON_VARIABLE_LENGTH, 8, 0, {0, 1, 0, 0}},
        {CUZK_POSEIDON_CONSTANT_LENGTH, 8, 7, {0, 7, 0, 0}},
        {CUZK_POSEIDON_ENCRYPTION, 8, 0, {0x100000000ULL, 0, 0, 0}},
        {CUZK_POSEIDON_CUSTOM, 2, CUZK_POSEIDON_GEN_RANDOMNESS_ID, {0x10000000000ULL, 0, 0, 0}},
        {CUZK_POSEIDON_CUSTOM, 2, 256, {0x1000000000000ULL, 0, 0, 0}},
        {CUZK_POSEIDON_SPONGE, 8, 0, {0, 0, 0, 0}},
    };
    for (unsigned k = 0; k < sizeof T / sizeof T[0]; k++) {
        cuzk_fr_t tag, want;
        assert_int_equal(cuzk_poseidon_tag(&tag, T[k].type, T[k].arity, T[k].param, NULL), CUZK_OK);
        assert_int_equal(cuzk_fr_from_limbs(&want, T[k].limbs), CUZK_OK);
        assert_true(cuzk_fr_eq(&tag, &want));
    }
    /* curio lib/proof/poseidon/dst.go SnapDST: the generation-randomness tag as big-endian hex */
    cuzk_fr_t tag, want;
    uint8_t be[32];
    unhex(be, "0000000000000000000000000000000000000000000000000000010000000000", 32);
    assert_int_equal(cuzk_fr_from_bytes_be(&want, be), CUZK_OK);
    assert_int_equal(cuzk_poseidon_tag(&tag, CUZK_POSEIDON_CUSTOM, 2, CUZK_POSEIDON_GEN_RANDOMNESS_ID, NULL), CUZK_OK);
    assert_true(cuzk_fr_eq(&tag, &want));

    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_poseidon_tag(&tag, CUZK_POSEIDON_CUSTOM, 2, 0, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "custom id 0"));
    assert_int_equal(cuzk_poseidon_tag(&tag, CUZK_POSEIDON_CUSTOM, 2, 257, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "custom id 257"));
    assert_int_equal(cuzk_poseidon_tag(&tag, CUZK_POSEIDON_MERKLE_TREE, 0, 0, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poseidon_tag(&tag, CUZK_POSEIDON_MERKLE_TREE, 64, 0, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poseidon_tag(&tag, (cuzk_poseidon_hash_type)99, 2, 0, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "unknown hash type 99"));

    /* SnapDeals' Poseidon-2 with the custom tag differs from the MerkleTree one */
    cuzk_fr_t in[2], a, b, mt;
    cuzk_fr_from_u64(&in[0], 5);
    cuzk_fr_from_u64(&in[1], 6);
    merkle_tag(&mt, 2);
    assert_int_equal(cuzk_poseidon_hash(&a, 2, &tag, in, 2, NULL), CUZK_OK);
    assert_int_equal(cuzk_poseidon_hash(&b, 2, &mt, in, 2, NULL), CUZK_OK);
    assert_false(cuzk_fr_eq(&a, &b));
}

static void test_hash_rejects(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    cuzk_fr_t in[CUZK_POSEIDON_MAX_ARITY + 1] = {{{0}}}, tag, out;
    merkle_tag(&tag, 8);
    assert_int_equal(cuzk_poseidon_hash(&out, 3, &tag, in, 3, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "arity 3"));
    assert_int_equal(cuzk_poseidon_hash(&out, 8, &tag, in, 0, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "0 inputs"));
    assert_int_equal(cuzk_poseidon_hash(&out, 8, &tag, in, 9, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "9 inputs"));

    /* fewer inputs are zero-padded */
    cuzk_fr_t a, b;
    for (unsigned i = 0; i < 8; i++) cuzk_fr_from_u64(&in[i], i < 5 ? i + 1 : 0);
    assert_int_equal(cuzk_poseidon_hash(&a, 8, &tag, in, 5, NULL), CUZK_OK);
    assert_int_equal(cuzk_poseidon_hash(&b, 8, &tag, in, 8, NULL), CUZK_OK);
    assert_true(cuzk_fr_eq(&a, &b));

    /* a byte input >= r is named */
    uint8_t bytes[8 * 32] = {0}, o[32];
    memset(bytes + 3 * 32, 0xff, 32);
    assert_int_equal(cuzk_poseidon_merkle_hash_bytes(o, 8, bytes, &err), CUZK_ERR_NOT_CANONICAL);
    assert_non_null(strstr(err.msg, "input 3"));
    assert_int_equal(cuzk_poseidon_merkle_hash_bytes(o, 5, bytes, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poseidon_comm_r(o, bytes, bytes + 3 * 32, &err), CUZK_ERR_NOT_CANONICAL);
    assert_non_null(strstr(err.msg, "comm_r_last"));
    assert_int_equal(cuzk_poseidon_comm_r(o, bytes + 3 * 32, bytes, &err), CUZK_ERR_NOT_CANONICAL);
    assert_non_null(strstr(err.msg, "comm_c"));
}

/* ---- trees ------------------------------------------------------------------------------------------------------- */
/* The root by the definition: hash `arity` consecutive nodes level after level with the library's single hash. */
static void naive_root(uint8_t root[32], const uint8_t *leaves, uint64_t n, const cuzk_poseidon_tree_shape *sh)
{
    uint64_t groups = (sh->sub_arity ? sh->sub_arity : 1) * (uint64_t)(sh->top_arity ? sh->top_arity : 1), m = n;
    unsigned ar[64], levels = 0;
    while (m > groups) ar[levels++] = sh->base_arity, m /= sh->base_arity;
    if (sh->sub_arity) ar[levels++] = sh->sub_arity;
    if (sh->top_arity) ar[levels++] = sh->top_arity;
    uint8_t *cur = malloc(n * 32);
    assert_non_null(cur);
    memcpy(cur, leaves, n * 32);
    for (unsigned l = 0; l < levels; l++) {
        n /= ar[l];
        for (uint64_t i = 0; i < n; i++)
            assert_int_equal(cuzk_poseidon_merkle_hash_bytes(cur + 32 * i, ar[l], cur + 32 * ar[l] * i, NULL), CUZK_OK);
    }
    assert_int_equal(n, 1);
    memcpy(root, cur, 32);
    free(cur);
}

static void rand_leaves(uint8_t *leaves, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        cuzk_fr_t x;
        test_rand_fr(&x);
        cuzk_fr_to_bytes_le(leaves + 32 * i, &x);
    }
}

static void test_tree_shapes(void **state)
{
    (void)state;
    static const struct {
        cuzk_poseidon_tree_shape shape;
        uint64_t n;
        unsigned levels;
    } C[] = {
        {{8, 0, 0}, 8, 1},       {{8, 0, 0}, 512, 3},  {{8, 8, 0}, 8 * 64, 3}, {{8, 8, 2}, 16 * 8, 3},
        {{8, 8, 2}, 16 * 64, 4}, {{2, 0, 0}, 64, 6},   {{4, 0, 0}, 256, 4},    {{4, 4, 0}, 64, 3},
        {{2, 2, 2}, 32, 5},      {{16, 0, 0}, 256, 2}, {{8, 2, 0}, 16, 2},     {{2, 8, 4}, 64, 3},
    };
    for (unsigned k = 0; k < sizeof C / sizeof C[0]; k++) {
        const cuzk_poseidon_tree_shape *sh = &C[k].shape;
        uint64_t n = C[k].n;
        uint8_t *leaves = malloc(n * 32), r1[32], r2[32], r3[32], r4[32], leaf[32];
        assert_non_null(leaves);
        rand_leaves(leaves, n);
        unsigned levels;
        uint32_t ar[CUZK_POSEIDON_TREE_MAX_LEVELS];
        assert_int_equal(cuzk_poseidon_tree_levels(sh, n, &levels, ar, NULL), CUZK_OK);
        assert_int_equal(levels, C[k].levels);
        naive_root(r1, leaves, n, sh);
        assert_int_equal(cuzk_poseidon_tree_root(r2, leaves, n, sh, 1, NULL), CUZK_OK);
        assert_int_equal(cuzk_poseidon_tree_root(r3, leaves, n, sh, 3, NULL), CUZK_OK);
        assert_memory_equal(r1, r2, 32);
        assert_memory_equal(r1, r3, 32);
        cuzk_poseidon_tree *t = NULL;
        assert_int_equal(cuzk_poseidon_tree_build(&t, leaves, n, sh, 2, NULL), CUZK_OK);
        cuzk_poseidon_tree_root_of(t, r4);
        assert_memory_equal(r1, r4, 32);
        assert_int_equal(cuzk_poseidon_tree_leaves(t), n);

        cuzk_poseidon_path_elem *path = malloc(CUZK_POSEIDON_TREE_MAX_LEVELS * sizeof *path);
        assert_non_null(path);
        for (uint64_t i = 0; i < n; i += 1 + n / 16) {
            unsigned len;
            assert_int_equal(cuzk_poseidon_tree_path(t, i, leaf, path, &len, NULL), CUZK_OK);
            assert_int_equal(len, levels);
            assert_memory_equal(leaf, leaves + 32 * i, 32);
            for (unsigned l = 0; l < len; l++) assert_int_equal(path[l].arity, ar[l]);
            assert_int_equal(cuzk_poseidon_path_index(path, len), i);
            assert_int_equal(cuzk_poseidon_path_verify(sh, n, i, leaf, path, len, r1, NULL), CUZK_OK);

            cuzk_errmsg err = {{0}};
            /* another index, a changed sibling, a changed leaf, a short path */
            if (n > 1)
                assert_int_equal(cuzk_poseidon_path_verify(sh, n, (i + 1) % n, leaf, path, len, r1, &err),
                                 CUZK_ERR_MISMATCH);
            path[len - 1].siblings[0][0] ^= 1;
            assert_int_equal(cuzk_poseidon_path_verify(sh, n, i, leaf, path, len, r1, &err), CUZK_ERR_PROOF_INVALID);
            path[len - 1].siblings[0][0] ^= 1;
            leaf[5] ^= 0x10;
            assert_int_equal(cuzk_poseidon_path_verify(sh, n, i, leaf, path, len, r1, &err), CUZK_ERR_PROOF_INVALID);
            leaf[5] ^= 0x10;
            assert_int_equal(cuzk_poseidon_path_verify(sh, n, i, leaf, path, len - 1, r1, &err), CUZK_ERR_MISMATCH);
            assert_non_null(strstr(err.msg, "levels"));
        }
        free(path);
        cuzk_poseidon_tree_free(t);
        free(leaves);
    }
}

static void test_tree_rejects(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    unsigned levels;
    static const struct {
        cuzk_poseidon_tree_shape shape;
        uint64_t n;
        const char *msg;
    } B[] = {
        {{3, 0, 0}, 9, "base arity 3"},
        {{8, 3, 0}, 24, "sub arity 3"},
        {{8, 0, 2}, 16, "top arity 2"},
        {{8, 0, 0}, 63, "63 leaves"},
        {{8, 8, 0}, 8, "8 leaves"},
        {{8, 0, 0}, 0, "0 leaves"},
        {{8, 0, 0}, 1, "1 leaves"},
        {{1, 0, 0}, 1, "base arity 1"},
        {{8, 8, 2}, 8 * 16 * 3, "384 leaves"},
        {{2, 0, 0}, UINT64_C(1) << 63, "exceed 2^40"},
    };
    for (unsigned k = 0; k < sizeof B / sizeof B[0]; k++) {
        err.msg[0] = 0;
        assert_int_equal(cuzk_poseidon_tree_levels(&B[k].shape, B[k].n, &levels, NULL, &err), CUZK_ERR_INVALID_ARG);
        if (strstr(err.msg, B[k].msg) == NULL) fail_msg("case %u: \"%s\" lacks \"%s\"", k, err.msg, B[k].msg);
        uint8_t root[32], leaves[64 * 32] = {0};
        if (B[k].n <= 64)
            assert_int_equal(cuzk_poseidon_tree_root(root, leaves, B[k].n, &B[k].shape, 1, NULL), CUZK_ERR_INVALID_ARG);
    }

    /* the first leaf >= r is named, by both builders and at any thread count (with 4 threads, 100 and 400 fall in
     * different threads' ranges) */
    uint8_t *leaves = calloc(512, 32), root[32];
    assert_non_null(leaves);
    memset(leaves + 32 * 100, 0xff, 32);
    memset(leaves + 32 * 400, 0xff, 32);
    cuzk_poseidon_tree_shape sh = {8, 0, 0};
    for (unsigned th = 1; th <= 4; th += 3) {
        assert_int_equal(cuzk_poseidon_tree_root(root, leaves, 512, &sh, th, &err), CUZK_ERR_NOT_CANONICAL);
        assert_non_null(strstr(err.msg, "leaf 100"));
        cuzk_poseidon_tree *t = NULL;
        assert_int_equal(cuzk_poseidon_tree_build(&t, leaves, 512, &sh, th, &err), CUZK_ERR_NOT_CANONICAL);
        assert_null(t);
        assert_non_null(strstr(err.msg, "leaf 100"));
    }
    memset(leaves + 32 * 100, 0, 32);
    memset(leaves + 32 * 400, 0, 32);

    /* paths: an index out of range; an element's arity or index out of range; a sibling >= r */
    cuzk_poseidon_tree *t = NULL;
    assert_int_equal(cuzk_poseidon_tree_build(&t, leaves, 512, &sh, 1, NULL), CUZK_OK);
    cuzk_poseidon_path_elem path[CUZK_POSEIDON_TREE_MAX_LEVELS];
    unsigned len;
    uint8_t leaf[32];
    assert_int_equal(cuzk_poseidon_tree_path(t, 512, leaf, path, &len, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "leaf index 512"));
    assert_int_equal(cuzk_poseidon_tree_path(t, 77, leaf, path, &len, NULL), CUZK_OK);
    cuzk_poseidon_tree_root_of(t, root);
    uint32_t saved = path[1].index; /* 77 = 1·64 + 1·8 + 5 */
    assert_int_equal(saved, 1);
    path[1].index = 8;
    assert_int_equal(cuzk_poseidon_path_root(root, leaf, path, len, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "level 1"));
    path[1].index = saved;
    path[2].arity = 5;
    assert_int_equal(cuzk_poseidon_path_root(root, leaf, path, len, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "arity 5"));
    path[2].arity = 8;
    assert_int_equal(cuzk_poseidon_path_verify(&sh, 512, 77, leaf, path, len, root, NULL), CUZK_OK);
    memset(path[0].siblings[6], 0xff, 32);
    assert_int_equal(cuzk_poseidon_path_verify(&sh, 512, 77, leaf, path, len, root, &err), CUZK_ERR_NOT_CANONICAL);
    assert_non_null(strstr(err.msg, "level 0"));
    /* a path of another shape (an 8-8-2 tree's: top level arity 2) against the 8-0-0 tree */
    assert_int_equal(cuzk_poseidon_tree_path(t, 77, leaf, path, &len, NULL), CUZK_OK);
    path[2].arity = 2;
    assert_int_equal(cuzk_poseidon_path_verify(&sh, 512, 77, leaf, path, len, root, &err), CUZK_ERR_MISMATCH);
    assert_non_null(strstr(err.msg, "level 2 has arity 2 where the shape has 8"));
    /* a leaf index beyond the tree */
    assert_int_equal(cuzk_poseidon_path_verify(&sh, 512, 512, leaf, path, len, root, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "leaf index 512"));
    cuzk_poseidon_tree_free(t);
    cuzk_poseidon_tree_free(NULL);
    free(leaves);
}

/* A real 32 GiB WindowPoSt vanilla proof (curio lib/proof/testgolden/post.vproof): bincode of sector id, comm_r,
 * sectors [ {inclusion_proofs[10] (tree R, 8-8-0: ProofData::Sub with base and sub paths, root, leaf), comm_c,
 * comm_r_last} ]. Every path verifies against comm_r_last at its challenged leaf; comm_r = H2(comm_c, comm_r_last). */
typedef struct {
    const uint8_t *p;
    size_t len, off;
} bin;

static uint64_t bin_u64(bin *b)
{
    assert_true(b->off + 8 <= b->len);
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++) v |= (uint64_t)b->p[b->off + i] << (8 * i);
    b->off += 8;
    return v;
}

static const uint8_t *bin_bytes(bin *b, size_t n)
{
    assert_true(b->off + n <= b->len);
    b->off += n;
    return b->p + b->off - n;
}

static unsigned bin_path(bin *b, cuzk_poseidon_path_elem *out, unsigned arity)
{
    uint64_t n = bin_u64(b);
    assert_true(n <= CUZK_POSEIDON_TREE_MAX_LEVELS);
    for (uint64_t l = 0; l < n; l++) {
        assert_int_equal(bin_u64(b), arity - 1);
        out[l].arity = arity;
        memcpy(out[l].siblings, bin_bytes(b, 32 * (arity - 1)), 32 * (arity - 1));
        out[l].index = (uint32_t)bin_u64(b);
    }
    return (unsigned)n;
}

static void test_window_post_32g_paths(void **state)
{
    (void)state;
    static const uint64_t LEAVES[] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                      6202012,   1055504637, 389535735, 1000069704, 600088878};
    size_t len;
    uint8_t *data = read_file("window-post-32g-sector.vproof", &len);
    bin b = {data, len, 0};
    assert_int_equal(bin_u64(&b), 1); /* sector 1 */
    const uint8_t *comm_r = bin_bytes(&b, 32);
    assert_int_equal(bin_u64(&b), 1); /* one sector */
    assert_int_equal(bin_u64(&b), 10);
    cuzk_poseidon_path_elem path[CUZK_POSEIDON_TREE_MAX_LEVELS];
    const uint8_t *roots[10], *leaves[10];
    unsigned lens[10];
    cuzk_poseidon_path_elem *paths = malloc(10 * CUZK_POSEIDON_TREE_MAX_LEVELS * sizeof *paths);
    assert_non_null(paths);
    for (unsigned i = 0; i < 10; i++) {
        assert_true(b.off + 4 <= len);
        assert_int_equal(data[b.off], 1); /* ProofData::Sub, u32 */
        b.off += 4;
        unsigned nb = bin_path(&b, path, 8);
        unsigned ns = bin_path(&b, path + nb, 8);
        assert_int_equal(nb, 9);
        assert_int_equal(ns, 1);
        roots[i] = bin_bytes(&b, 32);
        leaves[i] = bin_bytes(&b, 32);
        lens[i] = nb + ns;
        memcpy(paths + i * CUZK_POSEIDON_TREE_MAX_LEVELS, path, lens[i] * sizeof *path);
    }
    const uint8_t *comm_c = bin_bytes(&b, 32), *comm_r_last = bin_bytes(&b, 32);
    assert_int_equal(b.off, len);

    cuzk_poseidon_tree_shape sh = {8, 8, 0};
    uint64_t n = UINT64_C(1) << 30;
    for (unsigned i = 0; i < 10; i++) {
        const cuzk_poseidon_path_elem *p = paths + i * CUZK_POSEIDON_TREE_MAX_LEVELS;
        assert_memory_equal(roots[i], comm_r_last, 32);
        assert_int_equal(cuzk_poseidon_path_index(p, lens[i]), LEAVES[i]);
        cuzk_errmsg err = {{0}};
        cuzk_status s = cuzk_poseidon_path_verify(&sh, n, LEAVES[i], leaves[i], p, lens[i], comm_r_last, &err);
        if (s != CUZK_OK) fail_msg("inclusion proof %u: %s", i, err.msg);
    }
    uint8_t got[32];
    assert_int_equal(cuzk_poseidon_comm_r(got, comm_c, comm_r_last, NULL), CUZK_OK);
    assert_memory_equal(got, comm_r, 32);
    free(paths);
    free(data);
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_first_use_threaded),
        cmocka_unit_test(test_round_numbers),
        cmocka_unit_test(test_grain_round_constants),
        cmocka_unit_test(test_constants_match_files),
        cmocka_unit_test(test_constants_24_36_digest),
        cmocka_unit_test(test_optimised_equals_textbook),
        cmocka_unit_test(test_trace_follows_schedule),
        cmocka_unit_test(test_kat_neptune_hash_values),
        cmocka_unit_test(test_kat_curio_arity8),
        cmocka_unit_test(test_kat_binary_tree),
        cmocka_unit_test(test_kat_hash_md),
        cmocka_unit_test(test_tags),
        cmocka_unit_test(test_hash_rejects),
        cmocka_unit_test(test_tree_shapes),
        cmocka_unit_test(test_tree_rejects),
        cmocka_unit_test(test_window_post_32g_paths),
    };
    return cmocka_run_group_tests_name("poseidon", tests, NULL, NULL);
}
