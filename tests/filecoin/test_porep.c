/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The StackedDrg PoRep circuit (src/filecoin/porep_*.c): its counts against rust-fil-proofs' own test constants, a
 * C1 from the SDR test sealer that satisfies it with the public inputs computed apart, every changed byte of such a
 * C1 refused before proving, and the refusals of the check. `test_filecoin_porep large` adds the test sizes above
 * 2 KiB, the production partitions' counts and the 32 GiB matrix fingerprint (seconds and gigabytes optimized, too
 * slow for the sanitizer build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin.h"
#include "testutil.h"

static const cuzk_fil_proof *seal_proof(uint64_t id)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, id);
    assert_non_null(p);
    return p;
}

static cuzk_fil_porep_circuit *circuit(const cuzk_fil_proof *p)
{
    cuzk_errmsg err = {{0}};
    cuzk_fil_porep_circuit *c;
    if (cuzk_fil_porep_circuit_new(&c, p, 2, &err) != CUZK_OK) fail_msg("%s: %s", p->name, err.msg);
    return c;
}

static void expect_counts(const cuzk_fil_proof *p, uint64_t rows, uint64_t inputs, uint64_t aux)
{
    cuzk_fil_porep_circuit *c = circuit(p);
    cuzk_cs_counts k;
    cuzk_fil_porep_circuit_counts(c, &k);
    assert_int_equal(k.rows, rows);
    assert_int_equal(k.inputs, inputs);
    if (aux != 0) assert_int_equal(k.aux, aux);
    assert_int_equal(k.inputs - 1, cuzk_fil_porep_public_input_count(p));
    cuzk_fil_porep_circuit_free(c);
}

/* The R1CS identity (cuzk_r1cs_identity) a size's shape has today: a change to the rows is caught here, and the
 * circuit-table of cuzk circuit info can pin it. Each shape these tests build also satisfied its sealed C1s. */
static void assert_identity(const cuzk_r1cs_t *r, const char *hex)
{
    char got[65];
    for (int i = 0; i < 32; i++) snprintf(got + 2 * i, 3, "%02x", r->identity[i]);
    assert_string_equal(got, hex);
}

/* storage-proofs-porep tests/stacked_circuit.rs: 2 layers, 1 interactive challenge, 8 · base_tree_count nodes */
static void test_counts_stacked_circuit_rs(void **state)
{
    (void)state;
    static const struct {
        uint64_t nodes;
        cuzk_fil_shape tree;
        uint64_t rows;
    } g[] = {
        {8, {2, 0, 0, 3}, 1206212},  /* test_stacked_porep_circuit_poseidon_base_2 */
        {8, {8, 0, 0, 1}, 1199620},  /* test_stacked_input_circuit_poseidon_base_8 */
        {32, {8, 4, 0, 1}, 1296576}, /* test_stacked_input_circuit_poseidon_sub_8_4 */
        {64, {8, 4, 2, 1}, 1346982}, /* test_stacked_input_circuit_poseidon_top_8_4_2 */
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        cuzk_fil_proof t = *seal_proof(5);
        t.nodes = g[i].nodes;
        t.layers = 2;
        t.challenges = 1;
        t.tree_r = g[i].tree;
        t.tree_d = (cuzk_fil_shape){2, 0, 0, (uint8_t)cuzk_log2_ceil(g[i].nodes)};
        expect_counts(&t, g[i].rows, 22, 0);
    }
}

/* the 2 KiB partition of every API version (one circuit): filecoin-circuits §0 */
static void test_counts_2kib(void **state)
{
    (void)state;
    for (uint64_t id = 0; id < 20; id += 5) expect_counts(seal_proof(id), 2687921, 40, 2685673);
}

static void test_bad_geometry(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    cuzk_fil_porep_circuit *c;
    cuzk_fil_proof t = *seal_proof(5);
    t.layers = 3;
    assert_int_equal(cuzk_fil_porep_circuit_new(&c, &t, 1, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "3 layers"));
    t = *seal_proof(5);
    t.tree_r.base_levels = 3;
    assert_int_equal(cuzk_fil_porep_circuit_new(&c, &t, 1, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "leaves"));
    t = *seal_proof(5);
    t.tree_r.base = 3;
    assert_int_equal(cuzk_fil_porep_circuit_new(&c, &t, 1, &err), CUZK_ERR_INVALID_ARG);
}

/* ---- a sealed 2 KiB sector --------------------------------------------------------------------------------------- */

typedef struct {
    const cuzk_fil_proof *p;
    uint8_t prover_id[32];
    uint64_t sector_id;
    cuzk_fil_c1 c1;
} sealed;

static void seal_sector(uint64_t id, uint64_t data_seed, sealed *s)
{
    cuzk_errmsg err = {{0}};
    s->p = seal_proof(id);
    cuzk_fil_sdr_seal_params sp = {.sector_size = s->p->sector_size,
                                   .api = (cuzk_fil_sdr_api)s->p->api,
                                   .sector_id = 1000 + data_seed,
                                   .threads = 2};
    memcpy(sp.porep_id, s->p->porep_id, 32);
    cuzk_fil_prover_id(1234 + data_seed, sp.prover_id);
    for (int i = 0; i < 32; i++) sp.ticket[i] = (uint8_t)(i * 7 + data_seed);
    sp.ticket[31] &= 0x3f;
    uint8_t seed[32], data[2032];
    for (int i = 0; i < 32; i++) seed[i] = (uint8_t)(200 - i + data_seed);
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)((i * 131 + data_seed * 17) >> 3);
    cuzk_fil_sdr_replica r;
    if (cuzk_fil_sdr_seal(&sp, data, sizeof data, &r, &err) != CUZK_OK) fail_msg("seal: %s", err.msg);
    if (cuzk_fil_porep_c1_from_replica(&r, s->p, sp.ticket, seed, &s->c1, &err) != CUZK_OK)
        fail_msg("commit phase 1: %s", err.msg);
    cuzk_fil_sdr_replica_free(&r);
    memcpy(s->prover_id, sp.prover_id, 32);
    s->sector_id = sp.sector_id;
}

/* Every partition's witness satisfies the shape, its inputs are the ones public data gives. */
static void assert_satisfies(const sealed *s, cuzk_fil_porep_circuit *c, const cuzk_r1cs_t *shape)
{
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_porep_c1_check(&s->c1, s->prover_id, s->sector_id, 2, &err) != CUZK_OK)
        fail_msg("%s: check: %s", s->p->name, err.msg);
    uint64_t n = cuzk_fil_porep_circuit_num_vars(c);
    size_t np = cuzk_fil_porep_public_input_count(s->p);
    cuzk_fr_t *z = malloc(n * sizeof *z), *pub = malloc(np * sizeof *pub);
    assert_non_null(z);
    assert_non_null(pub);
    cuzk_fil_porep_public pd;
    cuzk_fil_porep_public_of_c1(&s->c1, s->prover_id, s->sector_id, &pd);
    for (uint32_t k = 0; k < s->p->partitions; k++) {
        if (cuzk_fil_porep_witness(c, &s->c1, k, 2, z, n, &err) != CUZK_OK) fail_msg("witness: %s", err.msg);
        uint64_t bad = 0;
        if (cuzk_r1cs_check(shape, z, 2, &bad) != CUZK_OK)
            fail_msg("%s partition %u: row %llu unsatisfied", s->p->name, k, (unsigned long long)bad);
        if (cuzk_fil_porep_public_inputs(s->p, &pd, k, pub, &err) != CUZK_OK) fail_msg("inputs: %s", err.msg);
        for (size_t i = 0; i < np; i++)
            if (!cuzk_fr_eq(&z[1 + i], &pub[i])) fail_msg("%s partition %u: input %zu differs", s->p->name, k, i);
    }
    free(z);
    free(pub);
}

/* A C1 from the test sealer of each kind (V1, V1_1, synthetic, NI's first two partitions of 13 checked in full). */
static void test_2kib_satisfies(void **state)
{
    (void)state;
    cuzk_fil_porep_circuit *c = circuit(seal_proof(5));
    cuzk_r1cs_t *shape;
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_porep_shape(c, 2, &shape, &err) != CUZK_OK) fail_msg("shape: %s", err.msg);
    assert_int_equal(cuzk_fil_porep_check_circuit(c, shape, &err), CUZK_OK);
    assert_identity(shape, "4ffb13da5826973b2c44ca2e37e5d6557d70b2429a38f260912370ac8788d19a");
    static const uint64_t ids[] = {5, 0, 10};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        sealed s;
        seal_sector(ids[i], i, &s);
        assert_satisfies(&s, c, shape);
        cuzk_fil_c1_free(&s.c1);
    }
    /* CHECK mode agrees: no unsatisfied row, the same rows */
    sealed s;
    seal_sector(5, 9, &s);
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
    cuzk_fil_porep_synthesize(c, cs, &s.c1, 0, 2);
    cuzk_r1cs_t *checked;
    if (cuzk_cs_finish(cs, &checked, NULL, &err) != CUZK_OK) fail_msg("CHECK: %s", err.msg);
    assert_memory_equal(checked->identity, shape->identity, 32);
    cuzk_r1cs_free(checked);
    /* a label value changed mid-synthesis is named by CHECK: the challenged column's labels come from the C1 */
    memset((void *)s.c1.c[1].c_x.rows[1], 0x11, 31);
    cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
    cuzk_fil_porep_synthesize(c, cs, &s.c1, 0, 2);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_ERR_R1CS_UNSATISFIED);
    assert_non_null(strstr(err.msg, "challenge_1"));
    cuzk_fil_c1_free(&s.c1);
    cuzk_r1cs_free(shape);
    cuzk_fil_porep_circuit_free(c);
}

static void test_ni_partitions(void **state)
{
    (void)state;
    sealed s;
    seal_sector(15, 3, &s);
    assert_int_equal(s.c1.partitions, 13);
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_porep_c1_check(&s.c1, s.prover_id, s.sector_id, 2, &err) != CUZK_OK) fail_msg("%s", err.msg);
    /* partitions 0 and 12 through the witness, against public inputs computed apart */
    cuzk_fil_porep_circuit *c = circuit(s.p);
    uint64_t n = cuzk_fil_porep_circuit_num_vars(c);
    size_t np = cuzk_fil_porep_public_input_count(s.p);
    cuzk_fr_t *z = malloc(n * sizeof *z), *pub = malloc(np * sizeof *pub);
    cuzk_fil_porep_public pd;
    cuzk_fil_porep_public_of_c1(&s.c1, s.prover_id, s.sector_id, &pd);
    for (uint32_t k = 0; k < 13; k += 12) {
        assert_int_equal(cuzk_fil_porep_witness(c, &s.c1, k, 2, z, n, &err), CUZK_OK);
        assert_int_equal(cuzk_fil_porep_public_inputs(s.p, &pd, k, pub, &err), CUZK_OK);
        for (size_t i = 0; i < np; i++) assert_true(cuzk_fr_eq(&z[1 + i], &pub[i]));
    }
    assert_int_equal(cuzk_fil_porep_witness(c, &s.c1, 13, 2, z, n, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_porep_witness(c, &s.c1, 0, 2, z, n - 1, &err), CUZK_ERR_INVALID_ARG);
    free(z);
    free(pub);
    cuzk_fil_porep_circuit_free(c);
    cuzk_fil_c1_free(&s.c1);
}

/* rust-fil-proofs' test sector shapes 16 KiB (tree R / tree C 8-8-0, the 32 GiB shape) and 32 KiB (8-8-2, the
 * 64 GiB shape), 2 layers and 2 challenges like the other test sizes: the sub and top levels of the paths through the
 * whole circuit, a C1 of the test sealer satisfying it. */
static void test_sub_top_shapes_satisfy(void **state)
{
    (void)state;
    static const struct {
        uint64_t size;
        cuzk_fil_shape tree;
    } g[] = {{16 << 10, {8, 8, 0, 2}}, {32 << 10, {8, 8, 2, 2}}};
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        cuzk_fil_proof t = *seal_proof(5);
        t.sector_size = g[i].size;
        t.nodes = g[i].size / 32;
        t.tree_r = g[i].tree;
        t.tree_d = (cuzk_fil_shape){2, 0, 0, (uint8_t)cuzk_log2_ceil(t.nodes)};
        cuzk_errmsg err = {{0}};
        cuzk_fil_sdr_seal_params sp = {
            .sector_size = t.sector_size, .api = CUZK_FIL_SDR_API_V1_1, .sector_id = 3, .threads = 2};
        memcpy(sp.porep_id, t.porep_id, 32);
        cuzk_fil_prover_id(77, sp.prover_id);
        memset(sp.ticket, 0x21, 32);
        uint8_t seed[32], data[4000];
        memset(seed, 0x42, 32);
        for (size_t b = 0; b < sizeof data; b++) data[b] = (uint8_t)(b * 29 + i);
        cuzk_fil_sdr_replica r;
        if (cuzk_fil_sdr_seal(&sp, data, sizeof data, &r, &err) != CUZK_OK) fail_msg("seal: %s", err.msg);
        sealed s = {.p = &t, .sector_id = sp.sector_id};
        memcpy(s.prover_id, sp.prover_id, 32);
        if (cuzk_fil_porep_c1_from_replica(&r, &t, sp.ticket, seed, &s.c1, &err) != CUZK_OK)
            fail_msg("commit phase 1: %s", err.msg);
        cuzk_fil_sdr_replica_free(&r);
        cuzk_fil_porep_circuit *c = circuit(&t);
        cuzk_r1cs_t *shape;
        if (cuzk_fil_porep_shape(c, 2, &shape, &err) != CUZK_OK) fail_msg("shape: %s", err.msg);
        assert_satisfies(&s, c, shape);
        cuzk_r1cs_free(shape);
        cuzk_fil_porep_circuit_free(c);
        cuzk_fil_c1_free(&s.c1);
    }
}

/* The circuit table's PoRep rows: the 2 KiB shape is the same bytes on 1 and 3 threads, equal to its pinned identity,
 * and counting alone (every challenge adding the first one's counts) gives its counts; every API version and kind
 * of the size shares the key and identity. */
static void test_table_rows(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r1, *r3;
    const cuzk_fil_proof *p = seal_proof(5);
    assert_true(cuzk_fil_circuit_supported(p));
    assert_int_equal(cuzk_fil_circuit_shape(p, 1, &r1, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_circuit_shape(p, 3, &r3, &err), CUZK_OK);
    assert_memory_equal(r1->identity, r3->identity, 32);
    cuzk_cs_counts c;
    assert_int_equal(cuzk_fil_circuit_counts(p, &c, &err), CUZK_OK);
    assert_int_equal(c.rows, r1->num_constraints);
    assert_int_equal(c.inputs, r1->num_inputs);
    assert_int_equal(c.aux, r1->num_aux);
    for (int k = 0; k < 3; k++) assert_int_equal(c.nnz[k], r1->m[k].nnz);
    char key[128], other[128];
    assert_int_equal(cuzk_fil_circuit_key(p, key, sizeof key, &err), CUZK_OK);
    for (uint64_t id = 0; id < 20; id += 5) {
        uint8_t pin[32];
        assert_true(cuzk_fil_circuit_pinned_identity(seal_proof(id), pin));
        assert_memory_equal(pin, r1->identity, 32);
        assert_int_equal(cuzk_fil_circuit_key(seal_proof(id), other, sizeof other, &err), CUZK_OK);
        assert_string_equal(other, key);
    }
    cuzk_r1cs_free(r1);
    cuzk_r1cs_free(r3);
}

/* ---- refusals ---------------------------------------------------------------------------------------------------- */

static void expect_refused(const sealed *s, const uint8_t prover_id[32], uint64_t sector_id, cuzk_status want,
                           const char *msg)
{
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_porep_c1_check(&s->c1, prover_id, sector_id, 2, &err), want);
    if (strstr(err.msg, msg) == NULL) fail_msg("expected \"%s\" in \"%s\"", msg, err.msg);
}

static void test_check_refusals(void **state)
{
    (void)state;
    sealed s;
    seal_sector(5, 4, &s);
    uint8_t other[32];
    memcpy(other, s.prover_id, 32);
    other[0] ^= 1;
    expect_refused(&s, other, s.sector_id, CUZK_ERR_MISMATCH, "replica_id: not the one");
    expect_refused(&s, s.prover_id, s.sector_id + 1, CUZK_ERR_MISMATCH, "replica_id");

    /* one value in each part of a challenge, each named */
    static const struct {
        size_t off; /* into challenge 1's fields, by selector below */
        int what;
        const char *msg;
    } cases[] = {
        {0, 0, "vanilla_proofs[0][1].comm_d_proofs: the path does not hash to its root"},
        {0, 1, "vanilla_proofs[0][1].comm_r_last_proof: the path does not hash to its root"},
        {0, 2, "vanilla_proofs[0][1].replica_column_proofs.drg_parents[3]: the inclusion proof's leaf is not"},
        {0, 3, "vanilla_proofs[0][1].replica_column_proofs.exp_parents[7].inclusion_proof: the path does not hash"},
        {0, 4, "vanilla_proofs[0][1].labeling_proofs[1].parents[20]: differs from the parent column's row 0"},
        {0, 5, "vanilla_proofs[0][1].encoding_proof.parents: differ from the last layer's parents"},
        {0, 6, "vanilla_proofs[0][1].replica_column_proofs.c_x: the inclusion proof's leaf is not the column's hash"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cuzk_fil_porep_challenge *c = &s.c1.c[1];
        uint8_t *b;
        switch (cases[i].what) {
        case 0: b = (uint8_t *)c->comm_d.siblings[2]; break;
        case 1: b = (uint8_t *)c->comm_r_last.siblings[5]; break;
        case 2: b = (uint8_t *)c->drg[3].rows[0]; break;
        case 3: b = (uint8_t *)c->exp[7].proof.siblings[1]; break;
        case 4: b = (uint8_t *)c->labeling[CUZK_FIL_LABEL_PARENTS + 20]; break;
        case 5: b = (uint8_t *)c->encoding[36]; break;
        default: b = (uint8_t *)c->c_x.rows[0]; break;
        }
        b[3] ^= 0x40;
        expect_refused(&s, s.prover_id, s.sector_id, i < 2 || i == 3 ? CUZK_ERR_PROOF_INVALID : CUZK_ERR_MISMATCH,
                       cases[i].msg);
        b[3] ^= 0x40;
        expect_refused(&s, s.prover_id, s.sector_id, CUZK_OK, "");
    }
    /* a column of another node (its path re-rooted as a real one would be is beyond reach: the index alone) */
    s.c1.c[0].exp[2].index ^= 1;
    expect_refused(&s, s.prover_id, s.sector_id, CUZK_ERR_MISMATCH,
                   "vanilla_proofs[0][0].replica_column_proofs.exp_"
                   "parents[2]: column");
    s.c1.c[0].exp[2].index ^= 1;
    /* a challenge the seed does not give */
    s.c1.seed[0] ^= 1;
    expect_refused(&s, s.prover_id, s.sector_id, CUZK_ERR_MISMATCH, "the challenge derived from replica_id and seed");
    memset(s.c1.seed, 0, 32);
    expect_refused(&s, s.prover_id, s.sector_id, CUZK_ERR_INVALID_ARG, "seed: all zero");
    cuzk_fil_c1_free(&s.c1);
}

/* A changed byte anywhere in the C1's bincode (every byte of it carries data) is refused by the decoder or the
 * check, never reaching a witness. */
static void test_every_byte(void **state)
{
    (void)state;
    sealed s;
    seal_sector(5, 6, &s);
    size_t n = cuzk_fil_c1_bincode_bytes(&s.c1, CUZK_FIL_C1_BIN_API), wl;
    uint8_t *buf = malloc(n), *mod = malloc(n);
    assert_int_equal(cuzk_fil_c1_encode_bincode(&s.c1, CUZK_FIL_C1_BIN_API, buf, n, &wl, NULL), CUZK_OK);
    assert_int_equal(wl, n);
    cuzk_fil_c1 d;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_c1_decode_bincode(buf, n, CUZK_FIL_C1_BIN_API, NULL, &d, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_porep_c1_check(&d, s.prover_id, s.sector_id, 1, &err), CUZK_OK);
    cuzk_fil_c1_free(&d);
    size_t stride = 97, tried = 0, by_decoder = 0;
    for (size_t pos = test_rand_u64() % stride; pos < n; pos += stride, tried++) {
        memcpy(mod, buf, n);
        mod[pos] ^= (uint8_t)(1u << (pos % 8));
        cuzk_status st = cuzk_fil_c1_decode_bincode(mod, n, CUZK_FIL_C1_BIN_API, NULL, &d, &err);
        if (st != CUZK_OK) {
            by_decoder++;
            assert_true(err.msg[0] != '\0');
            continue;
        }
        st = cuzk_fil_porep_c1_check(&d, s.prover_id, s.sector_id, 1, &err);
        if (st == CUZK_OK) fail_msg("byte %zu of %zu changed, the C1 still passes", pos, n);
        assert_non_null(strstr(err.msg, ": "));
        cuzk_fil_c1_free(&d);
    }
    printf("    %zu changed bytes: %zu refused by the decoder, %zu by the check\n", tried, by_decoder,
           tried - by_decoder);
    free(buf);
    free(mod);
    cuzk_fil_c1_free(&s.c1);
}

/* ---- large: seconds and gigabytes -------------------------------------------------------------------------------- */

static void test_counts_production(void **state)
{
    (void)state;
    /* filecoin-circuits §0; the 32 GiB row measured from the Rust circuit */
    expect_counts(seal_proof(6), 3844929, 40, 3842449);
    expect_counts(seal_proof(7), 4423433, 40, 4420837);
    expect_counts(seal_proof(8), 130278541, 328, 130169893);
    expect_counts(seal_proof(9), 131185849, 328, 131076643);
    expect_counts(seal_proof(18), 130278541, 328, 130169893); /* NI-PoRep: the same circuit */
}

static uint64_t popcount_range(const uint64_t *bits, uint64_t from, uint64_t to)
{
    uint64_t n = 0;
    for (uint64_t i = from; i < to; i++) n += cuzk_r1cs_density_get(bits, i);
    return n;
}

/* The 32 GiB partition's matrix fingerprint (non-zeros and density popcounts, as extracted from the Rust circuit
 * with the prover's 328 input rows counted in A) from the shape of a one-challenge partition: challenges are
 * uniform and share only the top part's variables, so each further one adds what the first adds over the top. */
static void test_fingerprint_32gib(void **state)
{
    (void)state;
    cuzk_fil_proof g = *seal_proof(8);
    g.challenges = 1;
    cuzk_fil_porep_circuit *c = circuit(&g);
    cuzk_r1cs_t *r;
    cuzk_errmsg err = {{0}};
    if (cuzk_fil_porep_shape(c, 2, &r, &err) != CUZK_OK) fail_msg("shape: %s", err.msg);
    cuzk_cs_counts ch;
    cuzk_fil_porep_circuit_challenge_counts(c, &ch);
    uint64_t more = 17, top_aux = r->num_aux - ch.aux;
    uint64_t inputs = r->num_inputs + more * ch.inputs;
    assert_int_equal(inputs, 328);
    assert_int_equal(r->m[0].nnz + more * ch.nnz[0] + inputs, 309405051);
    assert_int_equal(r->m[1].nnz + more * ch.nnz[1], 130327340);
    assert_int_equal(r->m[2].nnz + more * ch.nnz[2], 282656500);
    uint64_t a = popcount_range(r->a_aux_density, 0, r->num_aux);
    uint64_t a1 = popcount_range(r->a_aux_density, top_aux, r->num_aux);
    uint64_t b = popcount_range(r->b_aux_density, 0, r->num_aux);
    uint64_t b1 = popcount_range(r->b_aux_density, top_aux, r->num_aux);
    assert_int_equal(a + more * a1, 129753292);
    assert_int_equal(b + more * b1, 33112281);
    assert_int_equal(popcount_range(r->b_input_density, 0, r->num_inputs), 1);
    cuzk_r1cs_free(r);
    cuzk_fil_porep_circuit_free(c);
}

/* An 8 MiB sector (tree D of 18 levels, tree R 8-0-0 of 6) satisfies too. */
static void test_8mib_satisfies(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = seal_proof(6);
    cuzk_errmsg err = {{0}};
    cuzk_fil_sdr_seal_params sp = {
        .sector_size = p->sector_size, .api = (cuzk_fil_sdr_api)p->api, .sector_id = 8, .threads = 2};
    memcpy(sp.porep_id, p->porep_id, 32);
    cuzk_fil_prover_id(1000, sp.prover_id);
    memset(sp.ticket, 1, 32);
    uint8_t seed[32];
    memset(seed, 2, 32);
    cuzk_fil_sdr_replica r;
    if (cuzk_fil_sdr_seal(&sp, NULL, 0, &r, &err) != CUZK_OK) fail_msg("seal: %s", err.msg);
    sealed s = {.p = p, .sector_id = sp.sector_id};
    memcpy(s.prover_id, sp.prover_id, 32);
    if (cuzk_fil_porep_c1_from_replica(&r, p, sp.ticket, seed, &s.c1, &err) != CUZK_OK) fail_msg("%s", err.msg);
    cuzk_fil_sdr_replica_free(&r);
    cuzk_fil_porep_circuit *c = circuit(p);
    cuzk_r1cs_t *shape;
    if (cuzk_fil_porep_shape(c, 2, &shape, &err) != CUZK_OK) fail_msg("shape: %s", err.msg);
    assert_identity(shape, "d14b66836fa0f6f3c202c7b4f8a60e260dcf5494ee6ae9aff97aeb768c05ace4");
    uint8_t pin[32];
    assert_true(cuzk_fil_circuit_pinned_identity(p, pin));
    assert_memory_equal(pin, shape->identity, 32);
    assert_satisfies(&s, c, shape);
    cuzk_r1cs_free(shape);
    cuzk_fil_porep_circuit_free(c);
    cuzk_fil_c1_free(&s.c1);
}

/* The 512 MiB shape through cuzk_fil_porep_blank (the circuit table's entry), in SHAPE and COUNT modes. */
static void test_512mib_blank(void **state)
{
    (void)state;
    cuzk_errmsg err = {{0}};
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    assert_int_equal(cuzk_fil_porep_blank(cs, seal_proof(7), 2, &err), CUZK_OK);
    cuzk_r1cs_t *r;
    if (cuzk_cs_finish(cs, &r, NULL, &err) != CUZK_OK) fail_msg("shape: %s", err.msg);
    assert_identity(r, "ee80a34aeba7a32d63bf4d93c132d760471e9635a02cf167965b78da5d56b591");
    uint8_t pin[32];
    assert_true(cuzk_fil_circuit_pinned_identity(seal_proof(7), pin));
    assert_memory_equal(pin, r->identity, 32);
    cuzk_cs_counts k;
    cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
    assert_int_equal(cuzk_fil_porep_blank(cs, seal_proof(2), 2, &err), CUZK_OK);
    cuzk_cs_get_counts(cs, &k);
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, &err), CUZK_OK);
    assert_int_equal(k.rows, r->num_constraints);
    assert_int_equal(k.nnz[0], r->m[0].nnz);
    assert_int_equal(k.nnz[2], r->m[2].nnz);
    cuzk_r1cs_free(r);
    cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
    cuzk_fil_proof bad = *seal_proof(7);
    bad.layers = 5;
    assert_int_equal(cuzk_fil_porep_blank(cs, &bad, 1, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "5 layers"));
    assert_int_equal(cuzk_cs_finish(cs, NULL, NULL, NULL), CUZK_ERR_INVALID_ARG);
}

int main(int argc, char **argv)
{
    test_seed_init();
    bool large = argc > 1 && strcmp(argv[1], "large") == 0;
    const struct CMUnitTest quick[] = {
        cmocka_unit_test(test_counts_stacked_circuit_rs),
        cmocka_unit_test(test_counts_2kib),
        cmocka_unit_test(test_bad_geometry),
        cmocka_unit_test(test_2kib_satisfies),
        cmocka_unit_test(test_ni_partitions),
        cmocka_unit_test(test_sub_top_shapes_satisfy),
        cmocka_unit_test(test_table_rows),
        cmocka_unit_test(test_check_refusals),
        cmocka_unit_test(test_every_byte),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_counts_production),
        cmocka_unit_test(test_fingerprint_32gib),
        cmocka_unit_test(test_8mib_satisfies),
        cmocka_unit_test(test_512mib_blank),
    };
    return large ? cmocka_run_group_tests_name("filecoin_porep_large", slow, NULL, NULL)
                 : cmocka_run_group_tests_name("filecoin_porep", quick, NULL, NULL);
}
