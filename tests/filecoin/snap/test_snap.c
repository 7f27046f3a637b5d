/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The SnapDeals (EmptySectorUpdate) circuit: its counts against storage-proofs-update's tests, the challenges
 * against challenges.rs's known answers, and real small sector updates made natively here (new data encoded into a
 * random replica, trees D and R, the partition proofs in Curio's bincode) whose witnesses satisfy the system. Broken
 * vanilla proofs and requests are refused before any witness, naming the field.
 *
 * `test_filecoin_snap large` runs only the counts of the production sizes (8 MiB, 512 MiB, 32 GiB), which take
 * seconds each in COUNT mode; it skips itself under the sanitizers. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "testutil.h"

#define THREADS 2

static const cuzk_fil_proof *geom(uint64_t bytes)
{
    const cuzk_fil_proof *p = cuzk_fil_snap_geometry(bytes);
    assert_non_null(p);
    return p;
}

/* ---- counts ----------------------------------------------------------------------------------------------------- */

static void expect_counts(uint64_t bytes, uint64_t rows, uint64_t aux)
{
    cuzk_cs_counts c;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_snap_counts(geom(bytes), THREADS, &c, &err), CUZK_OK);
    if (c.rows != rows)
        fail_msg("%llu bytes: %llu constraints, expected %llu", (unsigned long long)bytes, (unsigned long long)c.rows,
                 (unsigned long long)rows);
    assert_int_equal(c.inputs, CUZK_FIL_SNAP_INPUTS);
    if (aux != 0) assert_int_equal(c.aux, aux);
}

/* storage-proofs-update tests/circuit.rs: test_empty_sector_update_circuit_{1,2,4,8,16,32}kib; the 2 KiB aux count
 * from the parameter key sizes */
static void test_counts_small(void **state)
{
    (void)state;
    expect_counts(1ULL << 10, 1248389, 0);
    expect_counts(2ULL << 10, 1705039, 1703569);
    expect_counts(4ULL << 10, 2165109, 0);
    expect_counts(8ULL << 10, 2620359, 0);
    expect_counts(16ULL << 10, 6300021, 0);
    expect_counts(32ULL << 10, 6760091, 0);
}

/* tests/circuit.rs test_empty_sector_update_constraints_32gib (81,049,499); 8 MiB and 512 MiB from the prover's
 * domain sizes (constraints + inputs = 10,007,508 and 57,450,484) */
static void test_counts_large(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#endif
    expect_counts(8ULL << 20, 10007503, 9998039);
    expect_counts(512ULL << 20, 57450479, 57401314);
    expect_counts(32ULL << 30, 81049499, 80978488);
}

/* ---- challenges: challenges.rs test_challenges_against_hardcoded ------------------------------------------------ */

typedef struct {
    uint32_t x, y, z, w;
} xorshift;

static uint32_t xs_u32(xorshift *r)
{
    uint32_t t = r->x ^ (r->x << 11);
    r->x = r->y;
    r->y = r->z;
    r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
    return r->w;
}

static uint64_t xs_u64(xorshift *r)
{
    uint64_t lo = xs_u32(r);
    return (uint64_t)xs_u32(r) << 32 | lo;
}

/* blstrs Scalar::random: four u64, the top bit cleared, retried until below r */
static void xs_fr(xorshift *r, uint8_t out[32])
{
    for (;;) {
        uint64_t l[4];
        for (int i = 0; i < 4; i++) l[i] = xs_u64(r);
        l[3] &= 0x7fffffffffffffffULL;
        cuzk_fr_t f;
        if (cuzk_fr_from_limbs(&f, l) == CUZK_OK) {
            cuzk_fr_to_bytes_le(out, &f);
            return;
        }
    }
}

static void test_challenges_known(void **state)
{
    (void)state;
    /* storage-proofs-core TEST_SEED, read as four little-endian u32 */
    static const uint8_t seed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                     0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};
    xorshift r = {cuzk_load_le32(seed), cuzk_load_le32(seed + 4), cuzk_load_le32(seed + 8), cuzk_load_le32(seed + 12)};
    uint8_t comm_r_new[32];
    xs_fr(&r, comm_r_new);
    static const struct {
        uint64_t bytes;
        uint32_t k;
        uint64_t c[5];
    } v[] = {
        {1ULL << 10, 0, {21, 7, 3, 31, 0}},
        {2ULL << 10, 0, {53, 51, 56, 3, 0}},
        {4ULL << 10, 0, {117, 25, 62, 0, 72}},
        {8ULL << 10, 0, {245, 140, 15, 128, 28}},
        {16ULL << 10, 0, {245, 140, 15, 128, 28}},
        {16ULL << 10, 1, {286, 308, 493, 510, 508}},
        {32ULL << 10, 0, {245, 454, 3, 400, 193}},
        {32ULL << 10, 1, {542, 666, 955, 927, 911}},
        {8ULL << 20, 0, {36085, 32783, 44060, 10950, 3731}},
        {8ULL << 20, 1, {78878, 130797, 112892, 93994, 78379}},
        {16ULL << 20, 0, {101621, 16391, 109319, 25944, 41193}},
        {16ULL << 20, 1, {209950, 163702, 175679, 224741, 197410}},
        {512ULL << 20, 0, {1019125, 116736, 706220, 59698, 799498}},
        {512ULL << 20, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
        {512ULL << 20, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
        {512ULL << 20, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
        {32ULL << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
        {32ULL << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
        {32ULL << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
        {32ULL << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
        {64ULL << 30, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
        {64ULL << 30, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
        {64ULL << 30, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
        {64ULL << 30, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        const cuzk_fil_proof *p = geom(v[i].bytes);
        uint64_t c[86];
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_fil_snap_challenges(p, v[i].k, comm_r_new, c, &err), CUZK_OK);
        for (int j = 0; j < 5; j++)
            if (c[j] != v[i].c[j])
                fail_msg("%s partition %u challenge %d: %llu, expected %llu", p->name, v[i].k, j,
                         (unsigned long long)c[j], (unsigned long long)v[i].c[j]);
        /* challenges.rs test_challenge_bucketing: every challenge inside partition k's share */
        uint64_t share = p->nodes / p->partitions;
        for (uint32_t j = 0; j < p->challenges; j++) assert_true(c[j] / share == v[i].k);
    }
}

/* ---- a native update, its witnesses ----------------------------------------------------------------------------- */

typedef struct {
    const cuzk_fil_proof *p;
    cuzk_fil_snap_update u;
} update;

static void make_update(update *x, uint64_t bytes)
{
    x->p = geom(bytes);
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_snap_update_random(x->p, test_rand_u64(), THREADS, &x->u, &err);
    if (s != CUZK_OK) fail_msg("update: %s", err.msg);
    assert_int_equal(x->u.partitions, x->p->partitions);
    assert_int_equal(x->u.partition_bytes, cuzk_fil_snap_partition_bytes(x->p));
}

static cuzk_status decode(const update *x, uint32_t k, const uint8_t *buf, cuzk_fil_snap_partition *part,
                          cuzk_errmsg *err)
{
    (void)k;
    return cuzk_fil_snap_partition_decode(x->p, buf, x->u.partition_bytes, part, err);
}

static cuzk_fil_snap_circuit circuit_of(const update *x, uint32_t k, const cuzk_fil_snap_partition *part)
{
    cuzk_fil_snap_circuit c = {x->p, k, 0, part, x->u.comm_r_old, x->u.comm_d_new, x->u.comm_r_new};
    return c;
}

/* Every partition: decoded, validated, its witness made into a caller's buffer and checked against the shape; then
 * CHECK mode (rows evaluated as enforced) gives the same system. */
static void prove_update(uint64_t bytes)
{
    update x;
    make_update(&x, bytes);
    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r = NULL;
    assert_int_equal(cuzk_fil_snap_shape(x.p, THREADS, &r, &err), CUZK_OK);
    cuzk_cs_counts counts;
    assert_int_equal(cuzk_fil_snap_counts(x.p, THREADS, &counts, &err), CUZK_OK);
    assert_int_equal(r->num_inputs, CUZK_FIL_SNAP_INPUTS);
    assert_int_equal(r->num_aux, counts.aux);
    assert_int_equal(r->num_constraints, counts.rows);
    /* the shape the table of circuits pins for this geometry */
    uint8_t pin[32];
    if (!cuzk_fil_circuit_pinned_identity(x.p, pin)) fail_msg("%s has no pinned identity", x.p->name);
    assert_memory_equal(pin, r->identity, 32);
    uint64_t nv = cuzk_r1cs_num_vars(r);
    cuzk_fr_t *z = malloc(nv * sizeof *z);
    assert_non_null(z);
    for (uint32_t k = 0; k < x.p->partitions; k++) {
        cuzk_fil_snap_partition part;
        if (decode(&x, k, x.u.vanilla + x.u.partition_bytes * k, &part, &err) != CUZK_OK)
            fail_msg("partition %u: %s", k, err.msg);
        cuzk_fil_snap_circuit c = circuit_of(&x, k, &part);
        cuzk_status s = cuzk_fil_snap_witness(&c, THREADS, z, nv, &err);
        if (s != CUZK_OK) fail_msg("%s partition %u: %s", x.p->name, k, err.msg);
        uint64_t bad = 0;
        s = cuzk_r1cs_check(r, z, THREADS, &bad);
        if (s != CUZK_OK) fail_msg("%s partition %u: row %llu unsatisfied", x.p->name, k, (unsigned long long)bad);
        /* the public inputs are the request's */
        cuzk_fr_t pub[4];
        assert_int_equal(
            cuzk_fil_snap_public_inputs(x.p, k, 0, x.u.comm_r_old, x.u.comm_d_new, x.u.comm_r_new, pub, &err), CUZK_OK);
        for (int i = 0; i < 4; i++) assert_true(cuzk_fr_eq(&z[1 + i], &pub[i]));
        if (k == 0) {
            cuzk_cs *cs = cuzk_cs_new(CUZK_CS_CHECK, NULL, 0, 0);
            assert_non_null(cs);
            cuzk_fil_snap_synthesize(cs, &c, THREADS);
            cuzk_r1cs_t *r2 = NULL;
            cuzk_fr_t *z2 = NULL;
            s = cuzk_cs_finish(cs, &r2, &z2, &err);
            if (s != CUZK_OK) fail_msg("CHECK: %s", err.msg);
            assert_memory_equal(r2->identity, r->identity, 32);
            assert_memory_equal(z2, z, nv * sizeof *z);
            cuzk_r1cs_free(r2);
            free(z2);
        }
        cuzk_fil_snap_partition_free(&part);
    }
    free(z);
    cuzk_r1cs_free(r);
    cuzk_fil_snap_update_free(&x.u);
}

static void test_update_1kib(void **state)
{
    (void)state;
    prove_update(1ULL << 10);
}

static void test_update_2kib(void **state)
{
    (void)state;
    prove_update(2ULL << 10);
}

/* two partitions and a tree R of shape 8-8-2 */
static void test_update_32kib(void **state)
{
    (void)state;
    prove_update(32ULL << 10);
}

/* ---- broken vanilla proofs and requests ------------------------------------------------------------------------- */

static bool names_a_field(const char *msg)
{
    static const char *const fields[] = {"comm_c",     "apex_leafs", "challenge_proofs",
                                         "comm_r_old", "comm_d_new", "comm_r_new"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strstr(msg, fields[i]) != NULL) return true;
    return false;
}

/* A byte flipped anywhere in a partition proof (a strided sample of positions) is refused by the decoder or by the
 * validation, with the field named; never by an unsatisfied witness. */
static void test_flipped_bytes(void **state)
{
    (void)state;
    update x;
    make_update(&x, 2ULL << 10);
    size_t len = x.u.partition_bytes;
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    size_t stride = 23, caught_decode = 0, caught_validate = 0;
    for (size_t off = test_rand_u64() % stride; off < len; off += stride) {
        memcpy(buf, x.u.vanilla, len);
        buf[off] ^= (uint8_t)(1u << (off % 8));
        cuzk_errmsg err = {{0}};
        cuzk_fil_snap_partition part;
        cuzk_status s = cuzk_fil_snap_partition_decode(x.p, buf, len, &part, &err);
        if (s != CUZK_OK) {
            caught_decode++;
        } else {
            cuzk_fil_snap_circuit c = circuit_of(&x, 0, &part);
            s = cuzk_fil_snap_validate(&c, THREADS, &err);
            cuzk_fil_snap_partition_free(&part);
            if (s == CUZK_OK) fail_msg("a flip at byte %zu of %zu was not caught", off, len);
            caught_validate++;
        }
        if (!names_a_field(err.msg)) fail_msg("byte %zu: '%s' names no field", off, err.msg);
    }
    assert_true(caught_decode > 0 && caught_validate > 0);
    free(buf);
    cuzk_fil_snap_update_free(&x.u);
}

static void expect_refused(const cuzk_fil_snap_circuit *c, cuzk_status want, const char *needle)
{
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_snap_validate(c, THREADS, &err);
    if (s != want || strstr(err.msg, needle) == NULL)
        fail_msg("got %s '%s', expected %s with '%s'", cuzk_status_name(s), err.msg, cuzk_status_name(want), needle);
    /* a witness is never made from it */
    cuzk_fr_t z[8];
    assert_int_equal(cuzk_fil_snap_witness(c, THREADS, z, 8, &err), s);
}

static void test_bad_requests(void **state)
{
    (void)state;
    update x;
    make_update(&x, 16ULL << 10); /* two partitions */
    cuzk_errmsg err = {{0}};
    cuzk_fil_snap_partition p0, p1;
    assert_int_equal(decode(&x, 0, x.u.vanilla, &p0, &err), CUZK_OK);
    assert_int_equal(decode(&x, 1, x.u.vanilla + x.u.partition_bytes, &p1, &err), CUZK_OK);
    cuzk_fil_snap_circuit c = circuit_of(&x, 0, &p0);
    assert_int_equal(cuzk_fil_snap_validate(&c, THREADS, &err), CUZK_OK);
    c = circuit_of(&x, 1, &p1);
    assert_int_equal(cuzk_fil_snap_validate(&c, THREADS, &err), CUZK_OK);

    /* partition 1's proof given as partition 0 */
    c = circuit_of(&x, 0, &p1);
    expect_refused(&c, CUZK_ERR_MISMATCH, "opens leaf");
    /* the commitments of another request */
    uint8_t other[32];
    memcpy(other, x.u.comm_r_new, 32);
    other[0] ^= 1;
    c = circuit_of(&x, 0, &p0);
    c.comm_r_new = other;
    expect_refused(&c, CUZK_ERR_MISMATCH, "from comm_r_new");
    c = circuit_of(&x, 0, &p0);
    c.comm_r_old = x.u.comm_r_new;
    expect_refused(&c, CUZK_ERR_PROOF_INVALID, "comm_r_old");
    c = circuit_of(&x, 0, &p0);
    c.comm_d_new = other;
    expect_refused(&c, CUZK_ERR_MISMATCH, "comm_d_new");
    /* not below r */
    uint8_t big[32];
    memset(big, 0xff, 32);
    c.comm_d_new = big;
    expect_refused(&c, CUZK_ERR_NOT_CANONICAL, "comm_d_new");
    /* partition out of range, h not allowed */
    c = circuit_of(&x, 2, &p0);
    expect_refused(&c, CUZK_ERR_INVALID_ARG, "partition 2");
    c = circuit_of(&x, 0, &p0);
    c.h = 7;
    expect_refused(&c, CUZK_ERR_INVALID_ARG, "h 7");
    /* a witness buffer of the wrong size */
    c = circuit_of(&x, 0, &p0);
    cuzk_fr_t z[8];
    assert_int_not_equal(cuzk_fil_snap_witness(&c, THREADS, z, 8, &err), CUZK_OK);
    /* a label that is not the encoding: r_new's leaf swapped for r_old's (its path no longer hashes either, so the
     * first check to fail names proof_r_new) */
    memcpy(p0.c[3].r_new.leaf, p0.c[3].r_old.leaf, 32);
    expect_refused(&c, CUZK_ERR_PROOF_INVALID, "challenge_proofs[3].proof_r_new");
    cuzk_fil_snap_partition_free(&p0);
    cuzk_fil_snap_partition_free(&p1);
    cuzk_fil_snap_update_free(&x.u);
}

/* The blank circuit and a filled one have the same system; geometry lookups refuse unknown sizes. */
static void test_geometry(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {1ULL << 10, 2ULL << 10,  4ULL << 10,   8ULL << 10,  16ULL << 10, 32ULL << 10,
                                     8ULL << 20, 16ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const cuzk_fil_proof *p = geom(sizes[i]);
        assert_int_equal(p->cls, CUZK_FIL_CLASS_UPDATE);
        assert_int_equal(p->nodes * 32, sizes[i]);
    }
    assert_null(cuzk_fil_snap_geometry(64ULL << 10));
    assert_int_equal(geom(32ULL << 30)->id, 3);
    assert_int_equal(geom(1ULL << 10)->id, CUZK_FIL_SNAP_TEST_ID);
    /* the random partition proofs of the benchmarks are refused by the validation */
    const cuzk_fil_proof *p = geom(8ULL << 20);
    uint8_t comm[3][32];
    for (int i = 0; i < 3; i++) {
        test_rand_bytes(comm[i], 32);
        comm[i][31] &= 0x3f;
    }
    cuzk_fil_snap_partition part;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_snap_partition_random(p, 3, comm[2], 7, &part, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_snap_partition_check(p, &part, 3, NULL, &err), CUZK_OK);
    cuzk_fil_snap_circuit c = {p, 3, 0, &part, comm[0], part.c[0].d_new.root, comm[2]};
    assert_int_equal(cuzk_fil_snap_validate(&c, THREADS, &err), CUZK_ERR_PROOF_INVALID);
    cuzk_fil_snap_partition_free(&part);
}

/* SnapDeals in the table of circuits by kind: registered proofs and test sizes alike have counts, a key naming the
 * circuit, and a shape kept in the shape cache (built once, mapped after). */
static void test_circuit_table(void **state)
{
    (void)state;
    const cuzk_fil_proof *p2k = cuzk_fil_proof_find(CUZK_FIL_CLASS_UPDATE, 0), *p1k = geom(1ULL << 10);
    assert_ptr_equal(p2k, geom(2ULL << 10));
    assert_true(cuzk_fil_circuit_supported(p2k));
    assert_true(cuzk_fil_circuit_supported(p1k));
    char key[64];
    assert_int_equal(cuzk_fil_circuit_key(p2k, key, sizeof key, NULL), CUZK_OK);
    assert_string_equal(key, "snap-2k-efd7e86014426f0e");
    assert_int_equal(cuzk_fil_circuit_key(geom(32ULL << 30), key, sizeof key, NULL), CUZK_OK);
    assert_string_equal(key, "snap-32g-ffbdc321b348dee4");
    assert_int_equal(cuzk_fil_circuit_key(p1k, key, sizeof key, NULL), CUZK_OK);
    assert_string_equal(key, "snap-1k-e84737b91eccfff0");
    /* every geometry has a pinned identity */
    static const uint64_t sizes[] = {1ULL << 10, 2ULL << 10,  4ULL << 10,   8ULL << 10,  16ULL << 10, 32ULL << 10,
                                     8ULL << 20, 16ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
    uint8_t pin[32];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const cuzk_fil_proof *p = geom(sizes[i]);
        if (!cuzk_fil_circuit_pinned_identity(p, pin)) fail_msg("%s: no pinned identity", p->name);
    }
    /* the table's counts are the circuit's */
    cuzk_cs_counts a, b;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_circuit_counts(p1k, &a, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_snap_counts(p1k, THREADS, &b, &err), CUZK_OK);
    assert_memory_equal(&a, &b, sizeof a);
    /* the shape cache: built and stored under the key, then mapped */
    char dir[256], path[512];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cuzk-snap-shapes-XXXXXX", t != NULL && t[0] != '\0' ? t : "/tmp");
    assert_non_null(mkdtemp(dir));
    assert_int_equal(cuzk_fil_shape_path(dir, p1k, path, sizeof path, NULL), CUZK_OK);
    assert_non_null(strstr(path, "/snap-1k-e84737b91eccfff0.pce"));
    cuzk_r1cs_t *r;
    bool built = false;
    assert_int_equal(cuzk_fil_shape_load_or_build(dir, p1k, THREADS, 0, &r, &built, &err), CUZK_OK);
    assert_true(built);
    assert_true(cuzk_fil_circuit_pinned_identity(p1k, pin));
    assert_memory_equal(r->identity, pin, 32);
    assert_int_equal(r->num_constraints, a.rows);
    cuzk_r1cs_free(r);
    assert_int_equal(cuzk_fil_shape_load_or_build(dir, p1k, THREADS, 0, &r, &built, &err), CUZK_OK);
    assert_false(built);
    assert_memory_equal(r->identity, pin, 32);
    cuzk_r1cs_free(r);
    unlink(path);
    rmdir(dir);
}

/* A commitment: its 32 bytes, or the binary CID of a sealed or unsealed commitment. */
static void test_commitment_parse(void **state)
{
    (void)state;
    uint8_t comm[32], buf[48], out[32];
    test_rand_bytes(comm, 32);
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_commitment_parse(comm, 32, out, &err), CUZK_OK);
    assert_memory_equal(out, comm, 32);
    static const uint8_t sealed[8] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    static const uint8_t unsealed[7] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    memcpy(buf, sealed, 8);
    memcpy(buf + 8, comm, 32);
    memset(out, 0, 32);
    assert_int_equal(cuzk_fil_commitment_parse(buf, 40, out, &err), CUZK_OK);
    assert_memory_equal(out, comm, 32);
    memcpy(buf, unsealed, 7);
    memcpy(buf + 7, comm, 32);
    memset(out, 0, 32);
    assert_int_equal(cuzk_fil_commitment_parse(buf, 39, out, &err), CUZK_OK);
    assert_memory_equal(out, comm, 32);
    /* the sealed codec with the unsealed hash, a truncated CID, a stray byte */
    buf[2] = 0xe2, buf[1] = 0x82;
    assert_int_equal(cuzk_fil_commitment_parse(buf, 39, out, &err), CUZK_ERR_BAD_HEADER);
    assert_int_equal(cuzk_fil_commitment_parse(buf, 38, out, &err), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(cuzk_fil_commitment_parse(comm, 31, out, &err), CUZK_ERR_BAD_LENGTH);
    assert_int_equal(cuzk_fil_commitment_parse(NULL, 5, out, &err), CUZK_ERR_INVALID_ARG);
}

int main(int argc, char **argv)
{
    test_seed_init();
    if (argc > 1 && strcmp(argv[1], "large") == 0) {
        const struct CMUnitTest large[] = {cmocka_unit_test(test_counts_large)};
        return cmocka_run_group_tests_name("filecoin_snap_large", large, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),         cmocka_unit_test(test_commitment_parse),
        cmocka_unit_test(test_challenges_known), cmocka_unit_test(test_counts_small),
        cmocka_unit_test(test_circuit_table),    cmocka_unit_test(test_update_1kib),
        cmocka_unit_test(test_update_2kib),      cmocka_unit_test(test_update_32kib),
        cmocka_unit_test(test_flipped_bytes),    cmocka_unit_test(test_bad_requests),
    };
    return cmocka_run_group_tests_name("filecoin_snap", tests, NULL, NULL);
}
