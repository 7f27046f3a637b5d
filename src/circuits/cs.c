/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The constraint system: allocation, rows (merged, interned, stored or counted), the CHECK mode's row evaluation
 * and namespaces, sticky errors, and the hand-over to cuzk_r1cs_adopt. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_int.h"

static const unsigned mode_flags[4] = {
    [CUZK_CS_COUNT] = CUZK_CS_F_LC,
    [CUZK_CS_SHAPE] = CUZK_CS_F_LC | CUZK_CS_F_ROWS,
    [CUZK_CS_WITNESS] = CUZK_CS_F_VALUES,
    [CUZK_CS_CHECK] = CUZK_CS_F_LC | CUZK_CS_F_ROWS | CUZK_CS_F_VALUES | CUZK_CS_F_EVAL | CUZK_CS_F_NAMES,
};

/* ---- constants --------------------------------------------------------------------------------------------------- */

static cuzk_fr_t pow2_table[256], minus_one;
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static void consts_init(void)
{
    cuzk_fr_set_one(&pow2_table[0]);
    for (int i = 1; i < 256; i++) cuzk_fr_dbl(&pow2_table[i], &pow2_table[i - 1]);
    cuzk_fr_neg(&minus_one, &pow2_table[0]);
}

const cuzk_fr_t *cuzk_cs_pow2(unsigned k)
{
    pthread_once(&consts_once, consts_init);
    return &pow2_table[k & 255];
}

const cuzk_fr_t *cuzk_cs_minus_one(void)
{
    pthread_once(&consts_once, consts_init);
    return &minus_one;
}

/* ---- errors ------------------------------------------------------------------------------------------------------ */

void cuzk_cs_vfail(cuzk_cs *cs, cuzk_status s, const char *fmt, va_list ap)
{
    if (cs->status != CUZK_OK) return;
    cs->status = s;
    vsnprintf(cs->in->err, sizeof cs->in->err, fmt, ap);
}

void cuzk_cs_fail(cuzk_cs *cs, cuzk_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cuzk_cs_vfail(cs, s, fmt, ap);
    va_end(ap);
}

const char *cuzk_cs_errmsg(const cuzk_cs *cs) { return cs->status != CUZK_OK ? cs->in->err : ""; }

/* ---- creation ---------------------------------------------------------------------------------------------------- */

static cuzk_status intern_init(struct cuzk_cs_int *in, const cuzk_cs *cs)
{
    in->vals_cap = 64;
    in->vals = malloc(in->vals_cap * sizeof *in->vals);
    in->slot_mask = 255;
    in->slots = calloc(in->slot_mask + 1, sizeof *in->slots);
    if (in->vals == NULL || in->slots == NULL) return CUZK_ERR_NOMEM;
    in->nvals = 0;
    (void)cs;
    return CUZK_OK;
}

/* One state for a root cs or a block; the counters and arrays are set by the caller. */
static cuzk_status state_init(cuzk_cs *cs, unsigned flags, cuzk_cs_mode mode)
{
    pthread_once(&consts_once, consts_init);
    cs->flags = flags;
    cs->status = CUZK_OK;
    cuzk_fr_set_one(&cs->one);
    struct cuzk_cs_int *in = calloc(1, sizeof *in);
    cs->in = in;
    if (in == NULL) return CUZK_ERR_NOMEM;
    in->mode = mode;
    if (flags & CUZK_CS_F_ROWS) {
        cuzk_status s = intern_init(in, cs);
        if (s != CUZK_OK) return s;
        uint32_t id;
        if ((id = cuzk_cs_intern(cs, &pow2_table[0])) != 0 || (id = cuzk_cs_intern(cs, &minus_one)) != 1)
            return CUZK_ERR_NOMEM;
    }
    if (flags & CUZK_CS_F_NAMES) {
        in->pcap = 256;
        in->path = malloc(in->pcap);
        in->marks_cap = 32;
        in->marks = malloc(in->marks_cap * sizeof *in->marks);
        if (in->path == NULL || in->marks == NULL) return CUZK_ERR_NOMEM;
        in->path[0] = '\0';
    }
    return CUZK_OK;
}

static void state_free(cuzk_cs *cs)
{
    struct cuzk_cs_int *in = cs->in;
    if (in == NULL) return;
    if (in->rows_own)
        for (int k = 0; k < 3; k++) {
            free(in->row_ptr[k]);
            free(in->col[k]);
            free(in->coef[k]);
        }
    if (in->vals_own) {
        free(cs->in_vals);
        free(cs->aux_vals);
    }
    free(in->vals);
    free(in->slots);
    free(in->scr);
    free(in->keys);
    free(in->path);
    free(in->marks);
    free(in->bad_path);
    free(in->watch_path);
    free(in);
    cs->in = NULL;
}

cuzk_cs *cuzk_cs_new(cuzk_cs_mode mode, cuzk_fr_t *z, uint64_t num_inputs, uint64_t num_aux)
{
    if ((unsigned)mode > CUZK_CS_CHECK) return NULL;
    cuzk_cs *cs = calloc(1, sizeof *cs);
    if (cs == NULL) return NULL;
    unsigned flags = mode_flags[mode];
    if (state_init(cs, flags, mode) != CUZK_OK) {
        cuzk_cs_free(cs);
        return NULL;
    }
    struct cuzk_cs_int *in = cs->in;
    cs->next_input = 1;
    if (flags & CUZK_CS_F_ROWS) {
        in->rows_own = true;
        uint64_t nnz[3] = {0, 0, 0};
        if (cuzk_cs_reserve_rows(cs, 0, nnz) != CUZK_OK) {
            cuzk_cs_free(cs);
            return NULL;
        }
    }
    if (flags & CUZK_CS_F_VALUES) {
        if (z != NULL) {
            if (num_inputs == 0 || num_inputs >= CUZK_VAR_AUX || num_aux >= CUZK_VAR_AUX) {
                cuzk_cs_free(cs);
                return NULL;
            }
            in->z_bound = true;
            in->z_inputs = num_inputs;
            in->z_aux = num_aux;
            cs->in_vals = z;
            cs->aux_vals = z + num_inputs;
            cs->in_lim = (uint32_t)num_inputs;
            cs->aux_lim = (uint32_t)num_aux;
        } else {
            in->vals_own = true;
            if (cuzk_cs_reserve_values(cs, 1, 0) != CUZK_OK) {
                cuzk_cs_free(cs);
                return NULL;
            }
        }
        cs->in_vals[0] = cs->one;
    }
    return cs;
}

void cuzk_cs_free(cuzk_cs *cs)
{
    if (cs == NULL) return;
    state_free(cs);
    free(cs);
}

cuzk_status cuzk_cs_block_init(cuzk_cs *sub, unsigned flags, cuzk_cs_mode mode)
{
    cuzk_status s = state_init(sub, flags, mode);
    if (s == CUZK_OK) sub->in->is_block = true;
    return s;
}

void cuzk_cs_block_release(cuzk_cs *sub) { state_free(sub); }

void cuzk_cs_block_reset(cuzk_cs *sub, const char *path)
{
    struct cuzk_cs_int *in = sub->in;
    sub->status = CUZK_OK;
    in->err[0] = '\0';
    in->bad = false;
    in->watching = false;
    free(in->watch_path);
    in->watch_path = NULL;
    if (in->slots != NULL) {
        memset(in->slots, 0, (in->slot_mask + 1) * sizeof *in->slots);
        in->nvals = 0;
        cuzk_cs_intern(sub, &pow2_table[0]);
        cuzk_cs_intern(sub, &minus_one);
    }
    if (in->path != NULL) {
        in->depth = 0;
        in->plen = 0;
        in->path[0] = '\0';
        if (path != NULL && path[0] != '\0') cuzk_cs_push_(sub, path);
        in->depth = 0; /* the parent's path is not popped by the block */
    }
}

/* ---- storage ----------------------------------------------------------------------------------------------------- */

/* Growth by half again, except for a known large reservation (blocks): that gets what it asks and 1/64 more, so
 * that a 130 M-row system is not over-allocated by a third. */
static uint64_t grown(uint64_t cap, uint64_t need)
{
    if (need > cap + cap / 2 + 1024) return need + need / 64 + 1024;
    while (cap < need) cap += cap / 2 + 1024;
    return cap;
}

static bool grow_array(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint64_t c = grown(*cap, need);
    void *q = realloc(*p, c * elem);
    if (q == NULL) return false;
    *p = q;
    *cap = c;
    return true;
}

cuzk_status cuzk_cs_reserve_rows(cuzk_cs *cs, uint64_t rows, const uint64_t nnz[3])
{
    struct cuzk_cs_int *in = cs->in;
    uint64_t need_rows = cs->next_row + rows;
    if (!in->rows_own) {
        bool fits = need_rows <= in->rows_lim;
        for (int k = 0; k < 3; k++) fits &= cs->nnz[k] + nnz[k] <= in->nnz_lim[k];
        if (fits) return CUZK_OK;
        cuzk_cs_fail(cs, CUZK_ERR_MISMATCH, "block %llu enforces more than its counts", (unsigned long long)in->block);
        return cs->status;
    }
    bool first = in->row_ptr[0] == NULL;
    if (first || need_rows > in->rows_lim) {
        uint64_t cap = grown(in->rows_lim, need_rows);
        for (int k = 0; k < 3; k++) {
            uint64_t *p = realloc(in->row_ptr[k], (cap + 1) * sizeof *p);
            if (p == NULL) goto nomem;
            in->row_ptr[k] = p;
            if (first) p[0] = 0;
        }
        in->rows_lim = cap;
    }
    for (int k = 0; k < 3; k++) {
        uint64_t need = cs->nnz[k] + nnz[k];
        if (in->col[k] != NULL && need <= in->nnz_lim[k]) continue;
        uint64_t cap = grown(in->nnz_lim[k], need);
        uint32_t *col = realloc(in->col[k], cap * sizeof *col);
        if (col == NULL) goto nomem;
        in->col[k] = col;
        uint32_t *coef = realloc(in->coef[k], cap * sizeof *coef);
        if (coef == NULL) goto nomem;
        in->coef[k] = coef;
        in->nnz_lim[k] = cap;
    }
    return CUZK_OK;
nomem:
    cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for %llu rows", (unsigned long long)need_rows);
    return cs->status;
}

cuzk_status cuzk_cs_reserve_values(cuzk_cs *cs, uint64_t inputs, uint64_t aux)
{
    struct cuzk_cs_int *in = cs->in;
    uint64_t ni = (uint64_t)cs->next_input + inputs, na = (uint64_t)cs->next_aux + aux;
    if (!in->vals_own) {
        if (ni <= cs->in_lim && na <= cs->aux_lim) return CUZK_OK;
        if (in->z_bound)
            cuzk_cs_fail(cs, CUZK_ERR_MISMATCH, "the circuit allocates more than z holds (%llu inputs, %llu aux)",
                         (unsigned long long)in->z_inputs, (unsigned long long)in->z_aux);
        else
            cuzk_cs_fail(cs, CUZK_ERR_MISMATCH, "block %llu allocates more than its counts",
                         (unsigned long long)in->block);
        return cs->status;
    }
    if (ni >= CUZK_VAR_AUX || na >= CUZK_VAR_AUX) {
        cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "more than 2^31 inputs or aux variables");
        return cs->status;
    }
    uint64_t ci = cs->in_lim, ca = cs->aux_lim;
    if (!grow_array((void **)&cs->in_vals, &ci, ni, sizeof(cuzk_fr_t)) ||
        !grow_array((void **)&cs->aux_vals, &ca, na ? na : 1, sizeof(cuzk_fr_t))) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for %llu values", (unsigned long long)(ni + na));
        return cs->status;
    }
    cs->in_lim = ci < CUZK_VAR_AUX ? (uint32_t)ci : CUZK_VAR_AUX - 1;
    cs->aux_lim = ca < CUZK_VAR_AUX ? (uint32_t)ca : CUZK_VAR_AUX - 1;
    return CUZK_OK;
}

void cuzk_cs_grow_(cuzk_cs *cs, bool input)
{
    if (cs->status != CUZK_OK) return;
    cuzk_cs_reserve_values(cs, input ? 1 : 0, input ? 0 : 1);
}

const cuzk_fr_t *cuzk_cs_value(const cuzk_cs *cs, cuzk_var v)
{
    if (!(cs->flags & CUZK_CS_F_VALUES)) return NULL;
    if (v & CUZK_VAR_AUX) {
        uint32_t j = v & ~CUZK_VAR_AUX;
        return j < cs->next_aux && j < cs->aux_lim ? &cs->aux_vals[j] : NULL;
    }
    return v < cs->next_input && v < cs->in_lim ? &cs->in_vals[v] : NULL;
}

void cuzk_cs_get_counts(const cuzk_cs *cs, cuzk_cs_counts *out)
{
    out->inputs = cs->next_input;
    out->aux = cs->next_aux;
    out->rows = cs->next_row;
    for (int k = 0; k < 3; k++) out->nnz[k] = cs->nnz[k];
}

/* ---- namespaces -------------------------------------------------------------------------------------------------- */

void cuzk_cs_push_(cuzk_cs *cs, const char *name)
{
    struct cuzk_cs_int *in = cs->in;
    size_t n = strlen(name), need = in->plen + n + 2;
    if (need > in->pcap) {
        size_t cap = in->pcap * 2 > need ? in->pcap * 2 : need;
        char *p = realloc(in->path, cap);
        if (p == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for a namespace");
            return;
        }
        in->path = p;
        in->pcap = cap;
    }
    if (in->depth == in->marks_cap) {
        size_t *m = realloc(in->marks, 2 * in->marks_cap * sizeof *m);
        if (m == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for a namespace");
            return;
        }
        in->marks = m;
        in->marks_cap *= 2;
    }
    in->marks[in->depth++] = in->plen;
    if (in->plen > 0) in->path[in->plen++] = '/';
    memcpy(in->path + in->plen, name, n + 1);
    in->plen += n;
}

void cuzk_cs_pushf_(cuzk_cs *cs, const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cuzk_cs_push_(cs, buf);
}

void cuzk_cs_pop_(cuzk_cs *cs)
{
    struct cuzk_cs_int *in = cs->in;
    if (in->depth == 0) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "namespace popped more often than pushed");
        return;
    }
    in->plen = in->marks[--in->depth];
    in->path[in->plen] = '\0';
}

const char *cuzk_cs_path(const cuzk_cs *cs) { return cs->in->path != NULL ? cs->in->path : ""; }

cuzk_status cuzk_cs_watch_row(cuzk_cs *cs, uint64_t row)
{
    struct cuzk_cs_int *in = cs->in;
    if (in->path == NULL) {
        in->pcap = 256;
        in->path = malloc(in->pcap);
        in->marks_cap = 32;
        in->marks = malloc(in->marks_cap * sizeof *in->marks);
        if (in->path == NULL || in->marks == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for namespaces");
            return cs->status;
        }
        in->path[0] = '\0';
    }
    cs->flags |= CUZK_CS_F_NAMES;
    in->watching = true;
    in->watch_row = row;
    free(in->watch_path);
    in->watch_path = NULL;
    return CUZK_OK;
}

const char *cuzk_cs_watched(const cuzk_cs *cs) { return cs->in->watch_path; }

/* "path/name", malloc'd (NULL when out of memory) */
static char *row_path(const struct cuzk_cs_int *in, const char *name)
{
    size_t n = in->plen + strlen(name) + 2;
    char *p = malloc(n);
    if (p != NULL) snprintf(p, n, "%s%s%s", in->path, in->plen ? "/" : "", name);
    return p;
}

/* ---- coefficients ------------------------------------------------------------------------------------------------ */

static uint64_t coeff_hash(const cuzk_fr_t *c)
{
    uint64_t h = c->l[0] ^ (c->l[1] * 0x9e3779b97f4a7c15ULL) ^ c->l[2] ^ (c->l[3] << 17);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

static bool intern_grow(struct cuzk_cs_int *in)
{
    uint64_t nslots = (in->slot_mask + 1) * 2;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (slots == NULL) return false;
    for (uint32_t id = 0; id < in->nvals; id++) {
        uint64_t s = coeff_hash(&in->vals[id]) & (nslots - 1);
        while (slots[s] != 0) s = (s + 1) & (nslots - 1);
        slots[s] = id + 1;
    }
    free(in->slots);
    in->slots = slots;
    in->slot_mask = nslots - 1;
    return true;
}

uint32_t cuzk_cs_intern(cuzk_cs *cs, const cuzk_fr_t *c)
{
    struct cuzk_cs_int *in = cs->in;
    uint64_t s = coeff_hash(c) & in->slot_mask;
    for (; in->slots[s] != 0; s = (s + 1) & in->slot_mask) {
        const cuzk_fr_t *v = &in->vals[in->slots[s] - 1];
        if (v->l[0] == c->l[0] && v->l[1] == c->l[1] && v->l[2] == c->l[2] && v->l[3] == c->l[3])
            return in->slots[s] - 1;
    }
    if (in->nvals == in->vals_cap) {
        cuzk_fr_t *v = in->nvals < UINT32_MAX / 2 ? realloc(in->vals, 2 * (size_t)in->vals_cap * sizeof *v) : NULL;
        if (v == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for coefficients");
            return UINT32_MAX;
        }
        in->vals = v;
        in->vals_cap *= 2;
    }
    uint32_t id = in->nvals++;
    in->vals[id] = *c;
    in->slots[s] = id + 1;
    if ((uint64_t)in->nvals * 2 > in->slot_mask && !intern_grow(in)) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for coefficients");
        return UINT32_MAX;
    }
    return id;
}

/* ---- linear combinations ----------------------------------------------------------------------------------------- */

void cuzk_lc_free(cuzk_lc *lc)
{
    if (lc->heap) free(lc->t);
    *lc = CUZK_LC_EMPTY;
}

static bool lc_reserve(cuzk_cs *cs, cuzk_lc *lc, uint32_t more)
{
    if (lc->n + more <= lc->cap) return true;
    if ((uint64_t)lc->n + more > UINT32_MAX / 2) {
        cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "a linear combination of more than 2^31 terms");
        return false;
    }
    uint32_t cap = lc->cap ? lc->cap : 8;
    while (cap < lc->n + more) cap *= 2;
    cuzk_term *t = lc->heap ? realloc(lc->t, (size_t)cap * sizeof *t) : malloc((size_t)cap * sizeof *t);
    if (t == NULL) {
        cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for a linear combination");
        return false;
    }
    if (!lc->heap && lc->n > 0) memcpy(t, lc->t, lc->n * sizeof *t);
    lc->t = t;
    lc->cap = cap;
    lc->heap = true;
    return true;
}

void cuzk_lc_add(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v, const cuzk_fr_t *coeff)
{
    if (!lc_reserve(cs, lc, 1)) return;
    cuzk_term *t = &lc->t[lc->n++];
    t->var = v;
    t->coeff = coeff != NULL ? *coeff : cs->one;
}

void cuzk_lc_sub(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v) { cuzk_lc_add(cs, lc, v, &minus_one); }

void cuzk_lc_add_lc(cuzk_cs *cs, cuzk_lc *lc, const cuzk_lc *other, const cuzk_fr_t *coeff)
{
    if (other->n == 0 || !lc_reserve(cs, lc, other->n)) return;
    cuzk_term *t = &lc->t[lc->n];
    for (uint32_t i = 0; i < other->n; i++) {
        t[i].var = other->t[i].var;
        if (coeff == NULL) t[i].coeff = other->t[i].coeff;
        else cuzk_fr_mul(&t[i].coeff, &other->t[i].coeff, coeff);
    }
    lc->n += other->n;
}

/* ---- rows -------------------------------------------------------------------------------------------------------- */

static inline bool fr_zero(const cuzk_fr_t *a) { return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0; }

static inline bool fr_same(const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) | (a->l[3] ^ b->l[3])) == 0;
}

/* Sorts n terms by variable: insertion sort when short, else a radix sort of (variable, position) keys in three
 * passes of 11 bits and one gather. Big rows (MultiEq's, packings) are runs of ascending variables, cheap either way,
 * but the radix sort never degrades. */
static bool sort_terms(cuzk_cs *cs, cuzk_term *s, uint32_t n)
{
    if (n <= 24) {
        for (uint32_t i = 1; i < n; i++) {
            cuzk_term t = s[i];
            uint32_t j = i;
            for (; j > 0 && s[j - 1].var > t.var; j--) s[j] = s[j - 1];
            s[j] = t;
        }
        return true;
    }
    struct cuzk_cs_int *in = cs->in;
    if (2 * (size_t)n > in->keys_cap) {
        size_t cap = in->keys_cap ? in->keys_cap : 1024;
        while (cap < 2 * (size_t)n) cap *= 2;
        uint64_t *k = realloc(in->keys, cap * sizeof *k);
        if (k == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for a row");
            return false;
        }
        in->keys = k;
        in->keys_cap = cap;
    }
    uint64_t *a = in->keys, *b = in->keys + n;
    for (uint32_t i = 0; i < n; i++) a[i] = (uint64_t)s[i].var << 32 | i;
    for (unsigned shift = 32; shift < 64; shift += 11) {
        uint32_t count[2048] = {0};
        for (uint32_t i = 0; i < n; i++) count[(a[i] >> shift) & 2047]++;
        uint32_t sum = 0;
        for (unsigned d = 0; d < 2048; d++) {
            uint32_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++) b[count[(a[i] >> shift) & 2047]++] = a[i];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    /* a holds the order; the terms sit in in->scr, the gather goes through the other half of scratch */
    cuzk_term *dst = in->scr + in->scr_cap / 2;
    for (uint32_t i = 0; i < n; i++) dst[i] = s[(uint32_t)a[i]];
    memcpy(s, dst, n * sizeof *s);
    return true;
}

/* lc's terms sorted by variable, repeats summed, zeros dropped, into in->scr; returns the count or -1. */
static int64_t lc_merge(cuzk_cs *cs, const cuzk_lc *lc)
{
    struct cuzk_cs_int *in = cs->in;
    uint32_t n = lc != NULL ? lc->n : 0;
    if (n == 0) return 0;
    if (2 * (size_t)n > in->scr_cap) {
        size_t cap = in->scr_cap ? in->scr_cap : 64;
        while (cap < 2 * (size_t)n) cap *= 2;
        cuzk_term *s = realloc(in->scr, cap * sizeof *s);
        if (s == NULL) {
            cuzk_cs_fail(cs, CUZK_ERR_NOMEM, "out of memory for a row");
            return -1;
        }
        in->scr = s;
        in->scr_cap = cap;
    }
    cuzk_term *s = in->scr;
    memcpy(s, lc->t, n * sizeof *s);
    bool sorted = true;
    for (uint32_t i = 1; i < n && sorted; i++) sorted = s[i - 1].var < s[i].var;
    if (!sorted && !sort_terms(cs, s, n)) return -1;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n;) {
        cuzk_term acc = s[i];
        uint32_t j = i + 1;
        for (; j < n && s[j].var == acc.var; j++) cuzk_fr_add(&acc.coeff, &acc.coeff, &s[j].coeff);
        if (!fr_zero(&acc.coeff)) s[m++] = acc;
        i = j;
    }
    return m;
}

static bool var_ok(const cuzk_cs *cs, cuzk_var v)
{
    return (v & CUZK_VAR_AUX) ? (v & ~CUZK_VAR_AUX) < cs->next_aux : v < cs->next_input;
}

static const cuzk_fr_t *var_value(const cuzk_cs *cs, cuzk_var v)
{
    return (v & CUZK_VAR_AUX) ? &cs->aux_vals[v & ~CUZK_VAR_AUX] : &cs->in_vals[v];
}

static void lc_eval(const cuzk_cs *cs, const cuzk_lc *lc, cuzk_fr_t *out)
{
    cuzk_fr_set_zero(out);
    if (lc == NULL) return;
    for (uint32_t i = 0; i < lc->n; i++) {
        cuzk_fr_t t;
        cuzk_fr_mul(&t, &lc->t[i].coeff, var_value(cs, lc->t[i].var));
        cuzk_fr_add(out, out, &t);
    }
}

static void note_bad_row(cuzk_cs *cs, const char *name)
{
    struct cuzk_cs_int *in = cs->in;
    in->bad = true;
    in->bad_row = cs->next_row;
    free(in->bad_path);
    in->bad_path = row_path(in, name);
}

void cuzk_cs_enforce_(cuzk_cs *cs, const char *name, const cuzk_lc *a, const cuzk_lc *b, const cuzk_lc *c)
{
    struct cuzk_cs_int *in = cs->in;
    const cuzk_lc *lc[3] = {a, b, c};
    uint64_t row = cs->next_row;
    cs->next_row++;
    if (cs->status != CUZK_OK) return;
    if (in->watching && row == in->watch_row && in->watch_path == NULL) in->watch_path = row_path(in, name);
    if (!(cs->flags & CUZK_CS_F_LC)) return;
    for (int k = 0; k < 3; k++)
        for (uint32_t i = 0; lc[k] != NULL && i < lc[k]->n; i++)
            if (!var_ok(cs, lc[k]->t[i].var)) {
                cuzk_cs_fail(cs, CUZK_ERR_R1CS_COLUMN, "row %llu (%s) uses variable %#x, not allocated",
                             (unsigned long long)row, name, lc[k]->t[i].var);
                return;
            }
    bool rows = (cs->flags & CUZK_CS_F_ROWS) != 0;
    if (rows && row >= in->rows_lim) {
        uint64_t none[3] = {0, 0, 0};
        cs->next_row = row;
        if (cuzk_cs_reserve_rows(cs, 1, none) != CUZK_OK) return;
        cs->next_row = row + 1;
    }
    for (int k = 0; k < 3; k++) {
        int64_t m = lc_merge(cs, lc[k]);
        if (m < 0) return;
        if (rows) {
            if (cs->nnz[k] + (uint64_t)m > in->nnz_lim[k]) {
                uint64_t more[3] = {0, 0, 0};
                more[k] = (uint64_t)m;
                cs->next_row = row;
                cuzk_status s = cuzk_cs_reserve_rows(cs, 0, more);
                cs->next_row = row + 1;
                if (s != CUZK_OK) return;
            }
            uint32_t *col = in->col[k] + cs->nnz[k], *coef = in->coef[k] + cs->nnz[k];
            for (int64_t e = 0; e < m; e++) {
                const cuzk_term *t = &in->scr[e];
                col[e] = t->var;
                if (fr_same(&t->coeff, &cs->one)) coef[e] = CUZK_R1CS_COEF_ONE;
                else if (fr_same(&t->coeff, &minus_one)) coef[e] = CUZK_R1CS_COEF_MINUS_ONE;
                else if ((coef[e] = cuzk_cs_intern(cs, &t->coeff)) == UINT32_MAX) return;
            }
        }
        cs->nnz[k] += (uint64_t)m;
        if (rows) in->row_ptr[k][row + 1] = cs->nnz[k];
    }
    if ((cs->flags & CUZK_CS_F_EVAL) && !in->bad) {
        cuzk_fr_t va, vb, vc;
        lc_eval(cs, a, &va);
        lc_eval(cs, b, &vb);
        lc_eval(cs, c, &vc);
        cuzk_fr_mul(&va, &va, &vb);
        if (!cuzk_fr_eq(&va, &vc)) {
            cs->next_row = row;
            note_bad_row(cs, name);
            cs->next_row = row + 1;
        }
    }
}

/* ---- finishing --------------------------------------------------------------------------------------------------- */

static cuzk_status finish_shape(cuzk_cs *cs, cuzk_r1cs_t **shape, cuzk_errmsg *err)
{
    struct cuzk_cs_int *in = cs->in;
    uint32_t ni = cs->next_input;
    if ((uint64_t)ni + cs->next_aux > UINT32_MAX)
        return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "%u inputs and %u aux exceed 2^32 - 1 variables", ni, cs->next_aux);
    cuzk_r1cs_parts p = {.num_inputs = ni, .num_aux = cs->next_aux, .num_constraints = cs->next_row};
    for (int k = 0; k < 3; k++) {
        uint32_t *col = in->col[k];
        for (uint64_t e = 0; e < cs->nnz[k]; e++) {
            uint32_t v = col[e];
            col[e] = (v & CUZK_VAR_AUX) ? ni + (v & ~CUZK_VAR_AUX) : v;
        }
        p.row_ptr[k] = in->row_ptr[k];
        p.col[k] = in->col[k];
        p.coef[k] = in->coef[k];
        p.nnz[k] = cs->nnz[k];
        in->row_ptr[k] = NULL;
        in->col[k] = in->coef[k] = NULL;
    }
    p.values = in->vals;
    p.num_values = in->nvals;
    in->vals = NULL;
    return cuzk_r1cs_adopt(&p, shape, err);
}

cuzk_status cuzk_cs_finish(cuzk_cs *cs, cuzk_r1cs_t **shape, cuzk_fr_t **z, cuzk_errmsg *err)
{
    if (shape != NULL) *shape = NULL;
    if (z != NULL) *z = NULL;
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no constraint system");
    struct cuzk_cs_int *in = cs->in;
    cuzk_status s = CUZK_OK;
    if (cs->status != CUZK_OK) {
        s = cuzk_fail(err, cs->status, "%s", in->err);
    } else if (in->bad) {
        s = cuzk_fail(err, CUZK_ERR_R1CS_UNSATISFIED, "row %llu unsatisfied: %s", (unsigned long long)in->bad_row,
                      in->bad_path != NULL ? in->bad_path : "?");
    } else if (in->z_bound && (cs->next_input != in->z_inputs || cs->next_aux != in->z_aux)) {
        s = cuzk_fail(err, CUZK_ERR_MISMATCH,
                      "the circuit allocated %u inputs and %u aux, z was sized for %llu and %llu", cs->next_input,
                      cs->next_aux, (unsigned long long)in->z_inputs, (unsigned long long)in->z_aux);
    }
    if (s == CUZK_OK && z != NULL && in->vals_own) {
        uint64_t ni = cs->next_input, na = cs->next_aux;
        cuzk_fr_t *w = malloc((ni + na) * sizeof *w);
        if (w == NULL) {
            s = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for %llu values", (unsigned long long)(ni + na));
        } else {
            memcpy(w, cs->in_vals, ni * sizeof *w);
            if (na) memcpy(w + ni, cs->aux_vals, na * sizeof *w);
            *z = w;
        }
    }
    if (s == CUZK_OK && shape != NULL && (cs->flags & CUZK_CS_F_ROWS)) s = finish_shape(cs, shape, err);
    if (s != CUZK_OK && z != NULL && *z != NULL) {
        free(*z);
        *z = NULL;
    }
    cuzk_cs_free(cs);
    return s;
}
