/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The constraint system in memory: the builder that programs use to emit circuits, the identity hash, densities and
 * the small file helpers the loaders share. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "r1cs_int.h"

void cuzk_r1cs_free(cuzk_r1cs_t *r)
{
    if (r == NULL) return;
    if (r->map != NULL) munmap(r->map, r->map_len);
    for (size_t i = 0; i < sizeof r->heap / sizeof r->heap[0]; i++) free(r->heap[i]);
    free(r);
}

/* ---- identity and densities -------------------------------------------------------------------------------------- */

void cuzk_r1cs_hash_matrices(const cuzk_r1cs_t *r, EVP_MD_CTX *ctx)
{
    static const char tag[] = "cuzk-r1cs-v1";
    uint64_t counts[7] = {r->num_inputs, r->num_aux,  r->num_constraints, r->num_values,
                          r->m[0].nnz,   r->m[1].nnz, r->m[2].nnz};
    EVP_DigestUpdate(ctx, tag, sizeof tag - 1);
    EVP_DigestUpdate(ctx, counts, sizeof counts);
    for (int k = 0; k < 3; k++) {
        const cuzk_r1cs_matrix *m = &r->m[k];
        EVP_DigestUpdate(ctx, m->row_ptr, (r->num_constraints + 1) * sizeof(uint64_t));
        EVP_DigestUpdate(ctx, m->col, m->nnz * sizeof(uint32_t));
        EVP_DigestUpdate(ctx, m->coef, m->nnz * sizeof(uint32_t));
    }
    EVP_DigestUpdate(ctx, r->values, (size_t)r->num_values * sizeof(cuzk_fr_t));
}

void cuzk_r1cs_identity(const cuzk_r1cs_t *r, uint8_t out[32])
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    cuzk_r1cs_hash_matrices(r, ctx);
    EVP_DigestFinal_ex(ctx, out, NULL);
    EVP_MD_CTX_free(ctx);
}

void cuzk_r1cs_compute_density(const cuzk_r1cs_t *r, uint64_t *a_aux, uint64_t *b_input, uint64_t *b_aux)
{
    uint32_t ni = r->num_inputs;
    const cuzk_r1cs_matrix *a = &r->m[CUZK_R1CS_A], *b = &r->m[CUZK_R1CS_B];
    for (uint64_t k = 0; k < a->nnz; k++) {
        uint32_t c = a->col[k];
        if (c >= ni) a_aux[(c - ni) >> 6] |= 1ULL << ((c - ni) & 63);
    }
    for (uint64_t k = 0; k < b->nnz; k++) {
        uint32_t c = b->col[k];
        if (c >= ni) b_aux[(c - ni) >> 6] |= 1ULL << ((c - ni) & 63);
        else b_input[c >> 6] |= 1ULL << (c & 63);
    }
}

/* ---- validation (shared with the PCE loader) -------------------------------------------------------------------- */

cuzk_status cuzk_r1cs_check_values(const cuzk_r1cs_t *r, cuzk_r1cs_err *err)
{
    cuzk_fr_t one, minus_one;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&minus_one, &one);
    if (!cuzk_fr_eq(&r->values[CUZK_R1CS_COEF_ONE], &one) ||
        !cuzk_fr_eq(&r->values[CUZK_R1CS_COEF_MINUS_ONE], &minus_one))
        return cuzk_fail(err, CUZK_ERR_R1CS_COEFF, "value table must start with 1 and -1");
    for (uint32_t i = 2; i < r->num_values; i++) {
        cuzk_fr_t v;
        if (cuzk_fr_from_mont_limbs(&v, r->values[i].l) != CUZK_OK)
            return cuzk_fail(err, CUZK_ERR_R1CS_COEFF, "value %u is not below r", i);
        if (cuzk_fr_is_zero(&v)) return cuzk_fail(err, CUZK_ERR_R1CS_COEFF, "value %u is zero", i);
    }
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_check_matrix(const cuzk_r1cs_t *r, int k, cuzk_r1cs_err *err)
{
    static const char mname[3] = {'A', 'B', 'C'};
    const cuzk_r1cs_matrix *m = &r->m[k];
    uint64_t nv = cuzk_r1cs_num_vars(r);
    if (m->row_ptr[0] != 0)
        return cuzk_fail(err, CUZK_ERR_R1CS_ROW_PTR, "%c.row_ptr[0] = %llu, must be 0", mname[k],
                         (unsigned long long)m->row_ptr[0]);
    for (uint64_t i = 0; i < r->num_constraints; i++) {
        uint64_t lo = m->row_ptr[i], hi = m->row_ptr[i + 1];
        if (hi < lo || hi > m->nnz)
            return cuzk_fail(err, CUZK_ERR_R1CS_ROW_PTR, "%c.row_ptr[%llu] = %llu after %llu (nnz %llu)", mname[k],
                             (unsigned long long)(i + 1), (unsigned long long)hi, (unsigned long long)lo,
                             (unsigned long long)m->nnz);
        for (uint64_t e = lo; e < hi; e++) {
            if (m->col[e] >= nv || (e > lo && m->col[e] <= m->col[e - 1]))
                return cuzk_fail(err, CUZK_ERR_R1CS_COLUMN,
                                 "%c row %llu column %u: out of range (%llu variables) or not increasing", mname[k],
                                 (unsigned long long)i, m->col[e], (unsigned long long)nv);
            if (m->coef[e] >= r->num_values)
                return cuzk_fail(err, CUZK_ERR_R1CS_COEFF, "%c row %llu coefficient id %u >= %u values", mname[k],
                                 (unsigned long long)i, m->coef[e], r->num_values);
        }
    }
    if (m->row_ptr[r->num_constraints] != m->nnz)
        return cuzk_fail(err, CUZK_ERR_R1CS_ROW_PTR, "%c.row_ptr ends at %llu, nnz is %llu", mname[k],
                         (unsigned long long)m->row_ptr[r->num_constraints], (unsigned long long)m->nnz);
    return CUZK_OK;
}

/* ---- builder ----------------------------------------------------------------------------------------------------- */

/* While building, a column is stored as a key that sorts inputs before aux without knowing the final input count:
 * input i -> i, aux j -> 2^31 | j. finish() rewrites keys to columns, which keeps each row's order. */
#define KEY_AUX 0x80000000u

typedef struct {
    uint64_t *row_ptr;
    uint32_t *col, *coef;
    uint64_t nnz, cap;
} bmatrix;

typedef struct {
    uint32_t key;
    cuzk_fr_t coeff;
} bterm;

struct cuzk_r1cs_builder {
    uint32_t num_inputs, num_aux;
    uint64_t rows, rows_cap;
    bmatrix m[3];
    /* distinct coefficients, interned through an open-addressing table of id+1 (0 = empty) */
    cuzk_fr_t *values;
    uint32_t num_values, values_cap;
    uint32_t *slots;
    uint64_t slot_mask;
    bterm *scratch;
    size_t scratch_cap;
};

static uint64_t coeff_hash(const cuzk_fr_t *c)
{
    uint64_t h = c->l[0] ^ (c->l[1] * 0x9e3779b97f4a7c15ULL) ^ c->l[2] ^ (c->l[3] << 17);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

static cuzk_status intern_grow(cuzk_r1cs_builder *b)
{
    uint64_t nslots = (b->slot_mask + 1) * 2;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (slots == NULL) return CUZK_ERR_NOMEM;
    for (uint32_t id = 0; id < b->num_values; id++) {
        uint64_t s = coeff_hash(&b->values[id]) & (nslots - 1);
        while (slots[s] != 0) s = (s + 1) & (nslots - 1);
        slots[s] = id + 1;
    }
    free(b->slots);
    b->slots = slots;
    b->slot_mask = nslots - 1;
    return CUZK_OK;
}

static cuzk_status intern(cuzk_r1cs_builder *b, const cuzk_fr_t *c, uint32_t *id)
{
    uint64_t s = coeff_hash(c) & b->slot_mask;
    for (; b->slots[s] != 0; s = (s + 1) & b->slot_mask) {
        if (cuzk_fr_eq(&b->values[b->slots[s] - 1], c)) {
            *id = b->slots[s] - 1;
            return CUZK_OK;
        }
    }
    if (b->num_values == UINT32_MAX - 1) return CUZK_ERR_TOO_LARGE;
    if (b->num_values == b->values_cap) {
        uint32_t cap = b->values_cap * 2;
        cuzk_fr_t *v = realloc(b->values, (size_t)cap * sizeof *v);
        if (v == NULL) return CUZK_ERR_NOMEM;
        b->values = v;
        b->values_cap = cap;
    }
    *id = b->num_values;
    b->values[b->num_values++] = *c;
    b->slots[s] = *id + 1;
    /* keep the table at most half full */
    if ((uint64_t)b->num_values * 2 > b->slot_mask) return intern_grow(b);
    return CUZK_OK;
}

cuzk_r1cs_builder *cuzk_r1cs_builder_new(uint32_t num_inputs)
{
    if (num_inputs == 0 || num_inputs >= KEY_AUX) return NULL;
    cuzk_r1cs_builder *b = calloc(1, sizeof *b);
    if (b == NULL) return NULL;
    b->num_inputs = num_inputs;
    b->rows_cap = 1024;
    b->values_cap = 64;
    b->values = malloc(b->values_cap * sizeof *b->values);
    b->slot_mask = 127;
    b->slots = calloc(b->slot_mask + 1, sizeof *b->slots);
    bool ok = b->values != NULL && b->slots != NULL;
    for (int k = 0; k < 3 && ok; k++) {
        b->m[k].cap = 4096;
        b->m[k].row_ptr = malloc((b->rows_cap + 1) * sizeof(uint64_t));
        b->m[k].col = malloc(b->m[k].cap * sizeof(uint32_t));
        b->m[k].coef = malloc(b->m[k].cap * sizeof(uint32_t));
        ok = b->m[k].row_ptr != NULL && b->m[k].col != NULL && b->m[k].coef != NULL;
        if (ok) b->m[k].row_ptr[0] = 0;
    }
    cuzk_fr_t one, minus_one;
    uint32_t id;
    cuzk_fr_set_one(&one);
    cuzk_fr_neg(&minus_one, &one);
    if (!ok || intern(b, &one, &id) != CUZK_OK || intern(b, &minus_one, &id) != CUZK_OK) {
        cuzk_r1cs_builder_free(b);
        return NULL;
    }
    return b;
}

void cuzk_r1cs_builder_free(cuzk_r1cs_builder *b)
{
    if (b == NULL) return;
    for (int k = 0; k < 3; k++) {
        free(b->m[k].row_ptr);
        free(b->m[k].col);
        free(b->m[k].coef);
    }
    free(b->values);
    free(b->slots);
    free(b->scratch);
    free(b);
}

cuzk_status cuzk_r1cs_builder_alloc_input(cuzk_r1cs_builder *b, cuzk_r1cs_var *out)
{
    if (b->num_inputs + 1 >= KEY_AUX || (uint64_t)b->num_inputs + b->num_aux + 1 > UINT32_MAX)
        return CUZK_ERR_TOO_LARGE;
    *out = CUZK_R1CS_INPUT(b->num_inputs++);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_alloc_aux(cuzk_r1cs_builder *b, cuzk_r1cs_var *out)
{
    if (b->num_aux + 1 >= KEY_AUX || (uint64_t)b->num_inputs + b->num_aux + 1 > UINT32_MAX) return CUZK_ERR_TOO_LARGE;
    *out = CUZK_R1CS_AUX(b->num_aux++);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_alloc_aux_n(cuzk_r1cs_builder *b, uint32_t n, cuzk_r1cs_var *first)
{
    if ((uint64_t)b->num_aux + n >= KEY_AUX || (uint64_t)b->num_inputs + b->num_aux + n > UINT32_MAX)
        return CUZK_ERR_TOO_LARGE;
    *first = CUZK_R1CS_AUX(b->num_aux);
    b->num_aux += n;
    return CUZK_OK;
}

static int bterm_cmp(const void *x, const void *y)
{
    uint32_t a = ((const bterm *)x)->key, b = ((const bterm *)y)->key;
    return (a > b) - (a < b);
}

/* Sorts one linear combination by column, sums repeats, drops zeros and appends it as the next row of m. */
static cuzk_status append_lc(cuzk_r1cs_builder *b, bmatrix *m, const cuzk_r1cs_term *t, size_t n)
{
    if (n > b->scratch_cap) {
        bterm *s = realloc(b->scratch, n * sizeof *s);
        if (s == NULL) return CUZK_ERR_NOMEM;
        b->scratch = s;
        b->scratch_cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t kind = t[i].var >> 32;
        uint32_t idx = (uint32_t)t[i].var;
        if (kind > 1 || (kind == 0 && idx >= b->num_inputs) || (kind == 1 && idx >= b->num_aux))
            return CUZK_ERR_R1CS_COLUMN;
        b->scratch[i].key = kind ? (KEY_AUX | idx) : idx;
        b->scratch[i].coeff = t[i].coeff;
    }
    if (n > 1) qsort(b->scratch, n, sizeof *b->scratch, bterm_cmp);
    if (m->nnz + n > m->cap) {
        uint64_t cap = m->cap * 2 > m->nnz + n ? m->cap * 2 : m->nnz + n;
        uint32_t *col = realloc(m->col, cap * sizeof *col);
        if (col != NULL) m->col = col;
        uint32_t *coef = realloc(m->coef, cap * sizeof *coef);
        if (coef != NULL) m->coef = coef;
        if (col == NULL || coef == NULL) return CUZK_ERR_NOMEM;
        m->cap = cap;
    }
    for (size_t i = 0; i < n;) {
        cuzk_fr_t sum = b->scratch[i].coeff;
        size_t j = i + 1;
        for (; j < n && b->scratch[j].key == b->scratch[i].key; j++) cuzk_fr_add(&sum, &sum, &b->scratch[j].coeff);
        if (!cuzk_fr_is_zero(&sum)) {
            uint32_t id;
            cuzk_status s = intern(b, &sum, &id);
            if (s != CUZK_OK) return s;
            m->col[m->nnz] = b->scratch[i].key;
            m->coef[m->nnz] = id;
            m->nnz++;
        }
        i = j;
    }
    m->row_ptr[b->rows + 1] = m->nnz;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_enforce(cuzk_r1cs_builder *b, const cuzk_r1cs_term *a, size_t na,
                                      const cuzk_r1cs_term *bt, size_t nb, const cuzk_r1cs_term *c, size_t nc)
{
    if (b->rows == b->rows_cap) {
        uint64_t cap = b->rows_cap * 2;
        for (int k = 0; k < 3; k++) {
            uint64_t *p = realloc(b->m[k].row_ptr, (cap + 1) * sizeof *p);
            if (p == NULL) return CUZK_ERR_NOMEM;
            b->m[k].row_ptr = p;
        }
        b->rows_cap = cap;
    }
    const cuzk_r1cs_term *lc[3] = {a, bt, c};
    size_t n[3] = {na, nb, nc};
    for (int k = 0; k < 3; k++) {
        cuzk_status s = append_lc(b, &b->m[k], lc[k], n[k]);
        if (s != CUZK_OK) {
            /* undo the rows already appended for this constraint */
            for (int u = 0; u < 3; u++) b->m[u].nnz = b->m[u].row_ptr[b->rows];
            return s;
        }
    }
    b->rows++;
    return CUZK_OK;
}

/* Renumbers the coefficient ids of the three matrices canonically: ids 0 and 1 (±1) stay, every other value gets the
 * next id at its first appearance scanning A, B, C row by row, and values nobody references are dropped. rep (may be
 * NULL) maps each old id to the smallest id holding the same value, so that duplicates merge. The new table goes to
 * *out (malloc'd), its length to *out_n. */
static cuzk_status renumber_coefs(uint32_t *const coef[3], const uint64_t nnz[3], const cuzk_fr_t *values,
                                  uint32_t nvals, const uint32_t *rep, cuzk_fr_t **out, uint32_t *out_n)
{
    uint32_t *renum = malloc((size_t)nvals * sizeof *renum);
    cuzk_fr_t *table = malloc((size_t)nvals * sizeof *table);
    if (renum == NULL || table == NULL) {
        free(renum);
        free(table);
        return CUZK_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < nvals; i++) renum[i] = UINT32_MAX;
    renum[0] = 0;
    renum[1] = 1;
    table[0] = values[0];
    table[1] = values[1];
    uint32_t next = 2;
    for (int k = 0; k < 3; k++) {
        uint32_t *c = coef[k];
        for (uint64_t e = 0; e < nnz[k]; e++) {
            uint32_t id = rep != NULL ? rep[c[e]] : c[e];
            if (renum[id] == UINT32_MAX) {
                renum[id] = next;
                table[next++] = values[id];
            }
            c[e] = renum[id];
        }
    }
    free(renum);
    *out = table;
    *out_n = next;
    return CUZK_OK;
}

/* Fills r's densities (allocating them into r->heap) and identity. */
static cuzk_status finish_system(cuzk_r1cs_t *r)
{
    uint64_t wa = r1cs_density_words(r->num_aux), wi = r1cs_density_words(r->num_inputs);
    uint64_t *dens[3] = {calloc(wa ? wa : 1, 8), calloc(wi, 8), calloc(wa ? wa : 1, 8)};
    for (int k = 0; k < 3; k++) r->heap[R1CS_SEC_A_AUX + k] = dens[k];
    if (dens[0] == NULL || dens[1] == NULL || dens[2] == NULL) return CUZK_ERR_NOMEM;
    r->a_aux_density = dens[0];
    r->b_input_density = dens[1];
    r->b_aux_density = dens[2];
    cuzk_r1cs_compute_density(r, dens[0], dens[1], dens[2]);
    cuzk_r1cs_identity(r, r->identity);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_finish(cuzk_r1cs_builder *b, cuzk_r1cs_t **out)
{
    *out = NULL;
    cuzk_r1cs_t *r = calloc(1, sizeof *r);
    if (r == NULL) {
        cuzk_r1cs_builder_free(b);
        return CUZK_ERR_NOMEM;
    }
    r->num_inputs = b->num_inputs;
    r->num_aux = b->num_aux;
    r->num_constraints = b->rows;
    for (int k = 0; k < 3; k++) {
        bmatrix *m = &b->m[k];
        for (uint64_t e = 0; e < m->nnz; e++) {
            uint32_t key = m->col[e];
            m->col[e] = (key & KEY_AUX) ? b->num_inputs + (key & ~KEY_AUX) : key;
        }
        r->m[k].row_ptr = m->row_ptr;
        r->m[k].col = m->col;
        r->m[k].coef = m->coef;
        r->m[k].nnz = m->nnz;
        r->heap[3 * k + R1CS_SEC_ROW_PTR] = m->row_ptr;
        r->heap[3 * k + R1CS_SEC_COL] = m->col;
        r->heap[3 * k + R1CS_SEC_COEF] = m->coef;
        m->row_ptr = NULL;
        m->col = m->coef = NULL;
    }
    uint32_t *coef[3] = {r->heap[R1CS_SEC_COEF], r->heap[3 + R1CS_SEC_COEF], r->heap[6 + R1CS_SEC_COEF]};
    uint64_t nnz[3] = {r->m[0].nnz, r->m[1].nnz, r->m[2].nnz};
    cuzk_fr_t *values = NULL;
    cuzk_status s = renumber_coefs(coef, nnz, b->values, b->num_values, NULL, &values, &r->num_values);
    cuzk_r1cs_builder_free(b);
    r->values = values;
    r->heap[R1CS_SEC_VALUES] = values;
    if (s == CUZK_OK) s = finish_system(r);
    if (s != CUZK_OK) {
        cuzk_r1cs_free(r);
        return s;
    }
    *out = r;
    return CUZK_OK;
}

/* ---- adopting caller-built arrays -------------------------------------------------------------------------------- */

static int value_cmp(const void *x, const void *y, void *ctx)
{
    const cuzk_fr_t *v = ctx;
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    for (int i = CUZK_FR_LIMBS - 1; i >= 0; i--)
        if (v[a].l[i] != v[b].l[i]) return v[a].l[i] < v[b].l[i] ? -1 : 1;
    return (a > b) - (a < b);
}

/* rep[id] = the smallest id holding the same value (Montgomery limbs are canonical, so equal limbs = equal values). */
static cuzk_status duplicate_map(const cuzk_fr_t *values, uint32_t n, uint32_t **rep_out)
{
    uint32_t *order = malloc((size_t)n * sizeof *order), *rep = malloc((size_t)n * sizeof *rep);
    if (order == NULL || rep == NULL) {
        free(order);
        free(rep);
        return CUZK_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    qsort_r(order, n, sizeof *order, value_cmp, (void *)values);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i;
        while (j < n && cuzk_fr_eq(&values[order[j]], &values[order[i]])) rep[order[j++]] = order[i];
        i = j;
    }
    free(order);
    *rep_out = rep;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_adopt(cuzk_r1cs_parts *p, cuzk_r1cs_t **out, cuzk_r1cs_err *err)
{
    *out = NULL;
    cuzk_r1cs_parts q = *p;
    memset(p, 0, sizeof *p);
    /* ownership passes to r at once, so that every exit below frees the arrays exactly once (through cuzk_r1cs_free) */
    cuzk_r1cs_t *r = calloc(1, sizeof *r);
    if (r == NULL) {
        for (int k = 0; k < 3; k++) {
            free(q.row_ptr[k]);
            free(q.col[k]);
            free(q.coef[k]);
        }
        free(q.values);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    }
    for (int k = 0; k < 3; k++) {
        r->heap[3 * k + R1CS_SEC_ROW_PTR] = q.row_ptr[k];
        r->heap[3 * k + R1CS_SEC_COL] = q.col[k];
        r->heap[3 * k + R1CS_SEC_COEF] = q.coef[k];
        r->m[k].row_ptr = q.row_ptr[k];
        r->m[k].col = q.col[k];
        r->m[k].coef = q.coef[k];
        r->m[k].nnz = q.nnz[k];
    }
    r->heap[R1CS_SEC_VALUES] = q.values;
    r->values = q.values;
    r->num_inputs = q.num_inputs;
    r->num_aux = q.num_aux;
    r->num_constraints = q.num_constraints;
    r->num_values = q.num_values;

    cuzk_status s = CUZK_OK;
    bool missing = q.values == NULL;
    for (int k = 0; k < 3; k++)
        missing |= q.row_ptr[k] == NULL || (q.nnz[k] > 0 && (q.col[k] == NULL || q.coef[k] == NULL));
    if (missing) s = cuzk_fail(err, CUZK_ERR_INVALID_ARG, "a matrix array or the value table is missing");
    else if (q.num_inputs == 0) s = cuzk_fail(err, CUZK_ERR_BAD_HEADER, "num_inputs is 0 (ONE is input 0)");
    else if ((uint64_t)q.num_inputs + q.num_aux > UINT32_MAX)
        s = cuzk_fail(err, CUZK_ERR_TOO_LARGE, "%llu variables exceed the 2^32-1 that u32 columns can index",
                      (unsigned long long)q.num_inputs + q.num_aux);
    else if (q.num_values < 2)
        s = cuzk_fail(err, CUZK_ERR_R1CS_COEFF, "value table of %u entries lacks 1 and -1", q.num_values);
    if (s == CUZK_OK) s = cuzk_r1cs_check_values(r, err);
    for (int k = 0; k < 3 && s == CUZK_OK; k++) s = cuzk_r1cs_check_matrix(r, k, err);
    uint32_t *rep = NULL;
    if (s == CUZK_OK) s = duplicate_map(q.values, q.num_values, &rep);
    cuzk_fr_t *values = NULL;
    if (s == CUZK_OK) s = renumber_coefs(q.coef, q.nnz, q.values, q.num_values, rep, &values, &r->num_values);
    free(rep);
    if (s == CUZK_OK) {
        free(q.values);
        r->values = values;
        r->heap[R1CS_SEC_VALUES] = values;
        s = finish_system(r);
    }
    if (s != CUZK_OK) {
        if (s == CUZK_ERR_NOMEM) cuzk_fail(err, s, "out of memory");
        cuzk_r1cs_free(r);
        return s;
    }
    *out = r;
    return CUZK_OK;
}
