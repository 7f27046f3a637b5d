/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* snarkjs .zkey proving keys (Groth16 over BLS12-381), layout in docs/formats/snarkjs.md §2.
 * The iden3 container is walked by the r1cs layer's reader (every section inside the file, sections by type, each
 * needed one exactly once); the header's counts then fix every section's exact size, so nothing is allocated before
 * the file is known to hold what the header declares. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "g16_internal.h"

#define ZKEY_HEADER_BYTES                                                                                              \
    (4 + CUZK_FP_BYTES + 4 + CUZK_FR_BYTES + 12 + 3 * CUZK_G1_IDEN3_BYTES + 3 * CUZK_G2_IDEN3_BYTES) /* 964 */
#define ZKEY_COEF_BYTES (4 + 4 + 4 + CUZK_FR_BYTES)

enum { ZK_PROTOCOL = 1, ZK_HEADER, ZK_IC, ZK_COEFS, ZK_A, ZK_B1, ZK_B2, ZK_C, ZK_H };

static bool limbs_eq(const uint8_t *p, const uint64_t *m, int limbs)
{
    for (int i = 0; i < limbs; i++)
        if (cuzk_load_le64(p + 8 * i) != m[i]) return false;
    return true;
}

typedef struct {
    const uint8_t *p[ZK_H + 1];
    uint64_t size[ZK_H + 1];
    uint32_t n_vars, n_public, domain;
} zkey_parts;

/* Sections 1 and 2: Groth16 over BLS12-381, counts consistent; then every section's size follows from them. */
static cuzk_status zkey_header(const uint8_t *buf, size_t len, zkey_parts *z, cuzk_errmsg *err)
{
    cuzk_status s = cuzk_iden3_check(buf, len, "zkey", 1, "zkey", err);
    if (s == CUZK_OK) s = cuzk_iden3_find(buf, ZK_PROTOCOL, &z->p[ZK_PROTOCOL], &z->size[ZK_PROTOCOL], "zkey", err);
    if (s != CUZK_OK) return s;
    if (z->size[ZK_PROTOCOL] != 4)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "zkey: protocol section has %llu bytes, expected 4",
                         (unsigned long long)z->size[ZK_PROTOCOL]);
    uint32_t protocol = cuzk_load_le32(z->p[ZK_PROTOCOL]);
    if (protocol != 1)
        return cuzk_fail(err, CUZK_ERR_WRONG_PROTOCOL, "zkey: protocol %u (%s), only 1 (groth16) is supported",
                         protocol,
                         protocol == 2    ? "plonk"
                         : protocol == 10 ? "fflonk"
                                          : "unknown");

    /* field sizes and primes first: a key for another curve has a header of another size */
    if ((s = cuzk_iden3_find(buf, ZK_HEADER, &z->p[ZK_HEADER], &z->size[ZK_HEADER], "zkey", err)) != CUZK_OK) return s;
    const uint8_t *h = z->p[ZK_HEADER];
    uint64_t hs = z->size[ZK_HEADER];
    if (hs < 4 || cuzk_load_le32(h) != CUZK_FP_BYTES || hs < 4 + CUZK_FP_BYTES ||
        !limbs_eq(h + 4, CUZK_FP_MODULUS, CUZK_FP_LIMBS))
        return cuzk_fail(err, CUZK_ERR_WRONG_CURVE, "zkey: base field is not BLS12-381's (n8q %u)",
                         hs >= 4 ? cuzk_load_le32(h) : 0);
    const uint8_t *hr = h + 4 + CUZK_FP_BYTES;
    if (hs < 4 + CUZK_FP_BYTES + 4 + CUZK_FR_BYTES || cuzk_load_le32(hr) != CUZK_FR_BYTES ||
        !limbs_eq(hr + 4, CUZK_FR_MODULUS, CUZK_FR_LIMBS))
        return cuzk_fail(err, CUZK_ERR_WRONG_CURVE, "zkey: scalar field is not BLS12-381's r");
    if (hs != ZKEY_HEADER_BYTES)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "zkey: groth16 header has %llu bytes, expected %d",
                         (unsigned long long)hs, ZKEY_HEADER_BYTES);
    const uint8_t *c = hr + 4 + CUZK_FR_BYTES;
    z->n_vars = cuzk_load_le32(c);
    z->n_public = cuzk_load_le32(c + 4);
    z->domain = cuzk_load_le32(c + 8);
    uint64_t nv = z->n_vars, np = z->n_public, n = z->domain;
    if (np + 1 > nv)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "zkey: %llu variables cannot hold ONE and %llu public signals",
                         (unsigned long long)nv, (unsigned long long)np);
    if (np + 1 >= 0x80000000u || nv - np - 1 >= 0x80000000u)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "zkey: %llu variables exceed 2^31 inputs / 2^31 aux",
                         (unsigned long long)nv);
    if (n == 0 || (n & (n - 1)) != 0)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "zkey: domainSize %llu is not a power of two",
                         (unsigned long long)n);
    if (n > (1u << CUZK_NTT_MAX_LOG2))
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "zkey: domainSize %llu exceeds 2^%d", (unsigned long long)n,
                         CUZK_NTT_MAX_LOG2);

    for (int t = ZK_IC; t <= ZK_H && s == CUZK_OK; t++)
        s = cuzk_iden3_find(buf, (uint32_t)t, &z->p[t], &z->size[t], "zkey", err);
    if (s != CUZK_OK) return s;
    const struct {
        int t;
        uint64_t count, bytes;
        const char *name;
    } want[] = {{ZK_IC, np + 1, CUZK_G1_IDEN3_BYTES, "IC (nPublic + 1 G1)"},
                {ZK_A, nv, CUZK_G1_IDEN3_BYTES, "A (nVars G1)"},
                {ZK_B1, nv, CUZK_G1_IDEN3_BYTES, "B1 (nVars G1)"},
                {ZK_B2, nv, CUZK_G2_IDEN3_BYTES, "B2 (nVars G2)"},
                {ZK_C, nv - np - 1, CUZK_G1_IDEN3_BYTES, "C (nVars - nPublic - 1 G1)"},
                {ZK_H, n, CUZK_G1_IDEN3_BYTES, "H (domainSize G1)"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (z->size[want[i].t] != want[i].count * want[i].bytes)
            return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "zkey: section %d %s has %llu bytes, expected %llu", want[i].t,
                             want[i].name, (unsigned long long)z->size[want[i].t],
                             (unsigned long long)(want[i].count * want[i].bytes));
    uint64_t cs = z->size[ZK_COEFS];
    if (cs < 4 || cs != 4 + (uint64_t)cuzk_load_le32(z->p[ZK_COEFS]) * ZKEY_COEF_BYTES)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION,
                         "zkey: coefficient section has %llu bytes, not 4 + 44 per "
                         "declared coefficient",
                         (unsigned long long)cs);
    return CUZK_OK;
}

/* Section 4 → the A and B matrices (C stays empty: snarkjs's prover takes c = a∘b). A stored value is coef·R² mod r
 * with R = 2^256. cuzk_fr_t keeps x as x·R, so reading the value as raw Montgomery limbs gives the element coef·R, and one
 * Montgomery multiplication by the element whose limbs are 1 (that is, by R⁻¹) leaves coef. Rows are bucketed by a
 * counting sort so that unsorted files work too; the builder sums repeated (matrix, row, column) entries. */
static cuzk_status zkey_circuit(const zkey_parts *z, cuzk_r1cs_t **out, cuzk_errmsg *err)
{
    const uint8_t *sec = z->p[ZK_COEFS] + 4;
    uint64_t ncoef = cuzk_load_le32(z->p[ZK_COEFS]), n = z->domain;
    uint32_t num_inputs = z->n_public + 1, nv = z->n_vars;
    cuzk_fr_t r_inv;
    const uint64_t one_limb[CUZK_FR_LIMBS] = {1, 0, 0, 0};
    cuzk_fr_from_mont_limbs(&r_inv, one_limb);

    /* first pass: validate every entry and count entries per row; rows < domainSize, which H bounds by the file */
    uint64_t *start = calloc(n + 1, sizeof *start);
    uint32_t *order = malloc((ncoef ? ncoef : 1) * sizeof *order);
    cuzk_r1cs_term *terms = malloc((ncoef ? ncoef : 1) * sizeof *terms);
    cuzk_status s = CUZK_OK;
    if (start == NULL || order == NULL || terms == NULL) s = cuzk_fail(err, CUZK_ERR_NOMEM, "zkey: out of memory");
    uint64_t rows = 0;
    for (uint64_t k = 0; k < ncoef && s == CUZK_OK; k++) {
        const uint8_t *e = sec + k * ZKEY_COEF_BYTES;
        uint32_t matrix = cuzk_load_le32(e), row = cuzk_load_le32(e + 4), sig = cuzk_load_le32(e + 8);
        uint64_t v[CUZK_FR_LIMBS];
        for (int i = 0; i < CUZK_FR_LIMBS; i++) v[i] = cuzk_load_le64(e + 12 + 8 * i);
        if (matrix > 1)
            s = cuzk_fail(err, CUZK_ERR_BAD_SECTION, "zkey: coefficient %llu names matrix %u (0 = A, 1 = B only)",
                          (unsigned long long)k, matrix);
        else if (row >= n)
            s = cuzk_fail(err, CUZK_ERR_BAD_HEADER, "zkey: coefficient %llu is in constraint %u, past domainSize %llu",
                          (unsigned long long)k, row, (unsigned long long)n);
        else if (sig >= nv)
            s = cuzk_fail(err, CUZK_ERR_R1CS_COLUMN, "zkey: coefficient %llu uses signal %u of %u",
                          (unsigned long long)k, sig, nv);
        else if (cuzk_fr_from_mont_limbs(&terms[k].coeff, v) != CUZK_OK)
            s = cuzk_fail(err, CUZK_ERR_R1CS_COEFF, "zkey: coefficient %llu has a value not below r",
                          (unsigned long long)k);
        else {
            cuzk_fr_mul(&terms[k].coeff, &terms[k].coeff, &r_inv);
            terms[k].var = sig < num_inputs ? CUZK_R1CS_INPUT(sig) : CUZK_R1CS_AUX(sig - num_inputs);
            start[row + 1]++;
            if (row + 1 > rows) rows = row + 1;
        }
    }
    /* m constraints and P + 1 input rows fill rows = m + P + 1, and snarkjs picks the smallest power of two > m + P */
    if (s == CUZK_OK && (rows <= z->n_public || n / 2 >= rows || rows > n))
        s = cuzk_fail(err, CUZK_ERR_BAD_HEADER,
                      "zkey: %llu constraint rows (the last %u of them the input rows) "
                      "do not give domainSize %llu",
                      (unsigned long long)rows, num_inputs, (unsigned long long)n);
    cuzk_r1cs_builder *b = NULL;
    if (s == CUZK_OK) {
        /* start[i] becomes where row i begins; placing the entries advances it to where row i ends */
        for (uint64_t i = 0; i < rows; i++) start[i + 1] += start[i];
        for (uint64_t k = 0; k < ncoef; k++)
            order[start[cuzk_load_le32(sec + k * ZKEY_COEF_BYTES + 4)]++] = (uint32_t)k;
        cuzk_r1cs_var first;
        b = cuzk_r1cs_builder_new(num_inputs);
        if (b == NULL || cuzk_r1cs_builder_alloc_aux_n(b, nv - num_inputs, &first) != CUZK_OK)
            s = cuzk_fail(err, CUZK_ERR_NOMEM, "zkey: out of memory");
    }
    cuzk_r1cs_term *ab = NULL;
    if (s == CUZK_OK && (ab = malloc((ncoef ? ncoef : 1) * sizeof *ab)) == NULL)
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "zkey: out of memory");
    for (uint64_t i = 0, lo = 0; i < rows && s == CUZK_OK; i++) {
        uint64_t hi = start[i], na = 0, nb = 0;
        /* A terms from the front of ab, B terms from the back, so one buffer holds both */
        for (uint64_t k = lo; k < hi; k++) {
            uint32_t idx = order[k];
            if (cuzk_load_le32(sec + (uint64_t)idx * ZKEY_COEF_BYTES) == 0) ab[lo + na++] = terms[idx];
            else ab[hi - ++nb] = terms[idx];
        }
        s = cuzk_r1cs_builder_enforce(b, ab + lo, na, ab + hi - nb, nb, NULL, 0);
        if (s != CUZK_OK) cuzk_fail(err, s, "zkey: constraint %llu could not be added", (unsigned long long)i);
        lo = hi;
    }
    free(ab);
    free(start);
    free(order);
    free(terms);
    if (s != CUZK_OK) {
        cuzk_r1cs_builder_free(b);
        return s;
    }
    s = cuzk_r1cs_builder_finish(b, out);
    if (s != CUZK_OK) return cuzk_fail(err, s, "zkey: could not finish the constraint system");
    return CUZK_OK;
}

static cuzk_status zkey_points(cuzk_groth16_pk *pk, const zkey_parts *z, unsigned ecflags, unsigned threads,
                               cuzk_errmsg *err)
{
    /* α, β, γ, δ are never infinity in a real key; the bases may be (B1/B2 of wires absent from B, for one) */
    const uint8_t *h = z->p[ZK_HEADER] + 4 + CUZK_FP_BYTES + 4 + CUZK_FR_BYTES + 12;
    struct {
        const char *name;
        cuzk_g1_affine_t *g1;
        cuzk_g2_affine_t *g2;
    } fixed[6] = {{"alpha1", &pk->vk.alpha_g1, NULL}, {"beta1", &pk->vk.beta_g1, NULL},
                  {"beta2", NULL, &pk->vk.beta_g2},   {"gamma2", NULL, &pk->vk.gamma_g2},
                  {"delta1", &pk->vk.delta_g1, NULL}, {"delta2", NULL, &pk->vk.delta_g2}};
    for (int i = 0; i < 6; i++) {
        cuzk_status s = fixed[i].g1 ? cuzk_g1_from_iden3(fixed[i].g1, h, CUZK_G1_IDEN3_BYTES, ecflags)
                                    : cuzk_g2_from_iden3(fixed[i].g2, h, CUZK_G2_IDEN3_BYTES, ecflags);
        if (s != CUZK_OK) return cuzk_fail(err, s, "zkey: header %s: %s", fixed[i].name, cuzk_status_str(s));
        h += fixed[i].g1 ? CUZK_G1_IDEN3_BYTES : CUZK_G2_IDEN3_BYTES;
    }
    const struct {
        int t;
        void *dst;
        const char *name;
    } secs[] = {{ZK_IC, pk->vk.ic, "IC"}, {ZK_A, pk->a, "A"}, {ZK_B1, pk->b_g1, "B1"},
                {ZK_B2, pk->b_g2, "B2"},  {ZK_C, pk->l, "C"}, {ZK_H, pk->h, "H"}};
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
        cuzk_g16_keyio_enc enc = secs[i].t == ZK_B2 ? CUZK_G16_KEYIO_G2_IDEN3 : CUZK_G16_KEYIO_G1_IDEN3;
        uint64_t bad, n = z->size[secs[i].t] / cuzk_g16_keyio_point_bytes(enc);
        cuzk_status s = cuzk_g16_keyio_decode_points(secs[i].dst, z->p[secs[i].t], n, enc,
                                                     ecflags | CUZK_EC_DECODE_ALLOW_INFINITY, threads, &bad);
        if (s != CUZK_OK)
            return cuzk_fail(err, s, "zkey: section %d %s[%llu]: %s", secs[i].t, secs[i].name, (unsigned long long)bad,
                             cuzk_status_str(s));
    }
    return CUZK_OK;
}

typedef struct {
    const zkey_parts *z;
    cuzk_r1cs_t *circuit;
    cuzk_status status;
    cuzk_errmsg err;
} circuit_job;

static void *circuit_main(void *arg)
{
    circuit_job *j = arg;
    j->status = zkey_circuit(j->z, &j->circuit, &j->err);
    return NULL;
}

static cuzk_status zkey_parse(cuzk_groth16_pk *pk, const uint8_t *buf, size_t len, unsigned ecflags, unsigned threads,
                              cuzk_errmsg *err)
{
    zkey_parts z;
    memset(&z, 0, sizeof z);
    cuzk_status s = zkey_header(buf, len, &z, err);
    if (s != CUZK_OK) return s;
    uint64_t nv = z.n_vars, np = z.n_public, n = z.domain;
    /* the sizes were checked against the sections, which lie inside the file: this block is bounded by its size */
    uint64_t g1n = (np + 1) + 3 * nv - np - 1 + n;
    uint8_t *block = malloc(g1n * sizeof(cuzk_g1_affine_t) + nv * sizeof(cuzk_g2_affine_t));
    if (block == NULL)
        return cuzk_fail(err, CUZK_ERR_NOMEM, "zkey: no memory for %llu points", (unsigned long long)(g1n + nv));
    cuzk_g1_affine_t *g1 = (cuzk_g1_affine_t *)block;
    pk->vk.ic = g1;
    pk->a = (g1 += np + 1);
    pk->b_g1 = (g1 += nv);
    pk->l = (g1 += nv);
    pk->h = (g1 += nv - np - 1);
    pk->b_g2 = (cuzk_g2_affine_t *)(g1 + n);
    cuzk_advise_huge(pk->h, n * sizeof(cuzk_g1_affine_t));
    pk->storage = block;

    /* The matrices are built on one thread (about 40 % of the load of a SHA-256 key) while the points are
     * decoded on all of them; with one thread, one after the other. A points error is reported first, as when the
     * steps ran in order. */
    circuit_job cj = {&z, NULL, CUZK_OK, {{0}}};
    pthread_t tid;
    bool threaded = threads > 1 && pthread_create(&tid, NULL, circuit_main, &cj) == 0;
    s = zkey_points(pk, &z, ecflags, threads, err);
    if (threaded) {
        pthread_join(tid, NULL);
    } else if (s == CUZK_OK) {
        circuit_main(&cj);
    }
    if (s == CUZK_OK && cj.status != CUZK_OK) {
        s = cj.status;
        if (err != NULL) *err = cj.err;
    }
    if (s != CUZK_OK) {
        cuzk_r1cs_free(cj.circuit);
        free(block);
        return s;
    }
    pk->circuit = cj.circuit;
    pk->conv = CUZK_GROTH16_SNARKJS;
    pk->vk.num_inputs = np + 1;
    pk->vk.storage = NULL; /* IC lives in pk->storage */
    pk->num_aux = nv - np - 1;
    pk->domain_size = n;
    pk->h_len = n;
    pk->l_len = nv - np - 1;
    pk->a_len = nv;
    pk->b_len = nv;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_zkey_parse(cuzk_groth16_pk *pk, const uint8_t *data, size_t len, unsigned flags,
                                    unsigned threads, cuzk_errmsg *err)
{
    memset(pk, 0, sizeof *pk);
    unsigned ecflags = (flags & CUZK_GROTH16_LOAD_SUBGROUP) ? 0 : CUZK_EC_DECODE_SKIP_SUBGROUP;
    cuzk_status s = zkey_parse(pk, data != NULL ? data : (const uint8_t *)"", data != NULL ? len : 0, ecflags, threads,
                               err);
    if (s != CUZK_OK) memset(pk, 0, sizeof *pk);
    return s;
}

cuzk_status cuzk_groth16_zkey_load(cuzk_groth16_pk *pk, const char *path, unsigned flags, unsigned threads,
                                   cuzk_errmsg *err)
{
    memset(pk, 0, sizeof *pk);
    const uint8_t *d;
    size_t len;
    cuzk_status s = cuzk_map_file(path, &d, &len, err);
    if (s != CUZK_OK) return s;
    s = cuzk_groth16_zkey_parse(pk, d, len, flags, threads, err);
    cuzk_unmap_file(d, len);
    return s;
}

/* ---- writing ----------------------------------------------------------------------------------------------------- */

/* The image grows in one buffer (a key small enough to write is small enough to hold twice). */
typedef struct {
    uint8_t *p;
    size_t n, cap;
    bool ok;
} zkey_buf;

static uint8_t *zb_reserve(zkey_buf *b, size_t n)
{
    if (!b->ok) return NULL;
    if (b->cap - b->n < n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->n < n) {
            if (cap > SIZE_MAX / 2) {
                b->ok = false;
                return NULL;
            }
            cap *= 2;
        }
        uint8_t *q = realloc(b->p, cap);
        if (q == NULL) {
            b->ok = false;
            return NULL;
        }
        b->p = q;
        b->cap = cap;
    }
    uint8_t *r = b->p + b->n;
    b->n += n;
    return r;
}

static void zb_put(zkey_buf *b, const void *src, size_t n)
{
    uint8_t *d = zb_reserve(b, n);
    if (d != NULL) memcpy(d, src, n);
}

static void zb_u32(zkey_buf *b, uint32_t v)
{
    uint8_t *d = zb_reserve(b, 4);
    if (d != NULL) cuzk_store_le32(d, v);
}

static void zb_section(zkey_buf *b, uint32_t type, uint64_t bytes)
{
    uint8_t *d = zb_reserve(b, 12);
    if (d == NULL) return;
    cuzk_store_le32(d, type);
    cuzk_store_le64(d + 4, bytes);
}

static void zb_g1s(zkey_buf *b, const cuzk_g1_affine_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint8_t *d = zb_reserve(b, CUZK_G1_IDEN3_BYTES);
        if (d != NULL) cuzk_g1_to_iden3(d, &p[i]);
    }
}

static void zb_g2s(zkey_buf *b, const cuzk_g2_affine_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint8_t *d = zb_reserve(b, CUZK_G2_IDEN3_BYTES);
        if (d != NULL) cuzk_g2_to_iden3(d, &p[i]);
    }
}

cuzk_status cuzk_groth16_zkey_write(const cuzk_groth16_pk *pk, const char *path, cuzk_errmsg *err)
{
    const cuzk_r1cs_t *m = pk->circuit;
    if (pk->conv != CUZK_GROTH16_SNARKJS || m == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG,
                         "zkey: only a snarkjs-convention key (with its A and B) has a "
                         ".zkey form");
    uint64_t nv = cuzk_r1cs_num_vars(m), np = m->num_inputs - 1;
    uint64_t ncoef = m->m[CUZK_R1CS_A].nnz + m->m[CUZK_R1CS_B].nnz;
    if (nv > UINT32_MAX || pk->domain_size > UINT32_MAX || ncoef > UINT32_MAX || m->num_constraints > UINT32_MAX)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "zkey: %llu variables, %llu coefficients: the format counts in u32",
                         (unsigned long long)nv, (unsigned long long)ncoef);
    zkey_buf b = {NULL, 0, 0, true};
    zb_put(&b, "zkey", 4);
    zb_u32(&b, 1);
    zb_u32(&b, 10);
    zb_section(&b, ZK_PROTOCOL, 4);
    zb_u32(&b, 1);
    zb_section(&b, ZK_HEADER, ZKEY_HEADER_BYTES);
    uint8_t le[CUZK_FP_BYTES];
    zb_u32(&b, CUZK_FP_BYTES);
    for (int i = 0; i < CUZK_FP_LIMBS; i++) cuzk_store_le64(le + 8 * i, CUZK_FP_MODULUS[i]);
    zb_put(&b, le, CUZK_FP_BYTES);
    zb_u32(&b, CUZK_FR_BYTES);
    for (int i = 0; i < CUZK_FR_LIMBS; i++) cuzk_store_le64(le + 8 * i, CUZK_FR_MODULUS[i]);
    zb_put(&b, le, CUZK_FR_BYTES);
    zb_u32(&b, (uint32_t)nv);
    zb_u32(&b, (uint32_t)np);
    zb_u32(&b, (uint32_t)pk->domain_size);
    zb_g1s(&b, &pk->vk.alpha_g1, 1);
    zb_g1s(&b, &pk->vk.beta_g1, 1);
    zb_g2s(&b, &pk->vk.beta_g2, 1);
    zb_g2s(&b, &pk->vk.gamma_g2, 1);
    zb_g1s(&b, &pk->vk.delta_g1, 1);
    zb_g2s(&b, &pk->vk.delta_g2, 1);
    /* coefficients (matrix, constraint, signal, coef·R² mod r), constraint by constraint as snarkjs writes them */
    zb_section(&b, ZK_COEFS, 4 + ncoef * ZKEY_COEF_BYTES);
    zb_u32(&b, (uint32_t)ncoef);
    cuzk_fr_t r2, two;
    const uint64_t e512 = 512;
    cuzk_fr_from_u64(&two, 2);
    cuzk_fr_pow(&r2, &two, &e512, 1);
    for (uint64_t row = 0; row < m->num_constraints; row++) {
        for (uint32_t k = 0; k < 2; k++) {
            for (uint64_t e = m->m[k].row_ptr[row]; e < m->m[k].row_ptr[row + 1]; e++) {
                cuzk_fr_t v;
                cuzk_fr_mul(&v, &m->values[m->m[k].coef[e]], &r2);
                zb_u32(&b, k);
                zb_u32(&b, (uint32_t)row);
                zb_u32(&b, m->m[k].col[e]);
                uint8_t *d = zb_reserve(&b, CUZK_FR_BYTES);
                if (d != NULL) cuzk_fr_to_bytes_le(d, &v);
            }
        }
    }
    zb_section(&b, ZK_IC, pk->vk.num_inputs * CUZK_G1_IDEN3_BYTES);
    zb_g1s(&b, pk->vk.ic, pk->vk.num_inputs);
    zb_section(&b, ZK_H, pk->h_len * CUZK_G1_IDEN3_BYTES);
    zb_g1s(&b, pk->h, pk->h_len);
    zb_section(&b, ZK_C, pk->l_len * CUZK_G1_IDEN3_BYTES);
    zb_g1s(&b, pk->l, pk->l_len);
    zb_section(&b, ZK_A, pk->a_len * CUZK_G1_IDEN3_BYTES);
    zb_g1s(&b, pk->a, pk->a_len);
    zb_section(&b, ZK_B1, pk->b_len * CUZK_G1_IDEN3_BYTES);
    zb_g1s(&b, pk->b_g1, pk->b_len);
    zb_section(&b, ZK_B2, pk->b_len * CUZK_G2_IDEN3_BYTES);
    zb_g2s(&b, pk->b_g2, pk->b_len);
    /* section 10, the MPC transcript: a zero hash and no contributions */
    static const uint8_t hash[64];
    zb_section(&b, 10, sizeof hash + 4);
    zb_put(&b, hash, sizeof hash);
    zb_u32(&b, 0);
    cuzk_status s = b.ok ? cuzk_write_file(path, b.p, b.n, err)
                         : cuzk_fail(err, CUZK_ERR_NOMEM, "zkey: no memory for the %zu-byte image", b.n);
    free(b.p);
    return s;
}
