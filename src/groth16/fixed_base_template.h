/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fixed-base scalar multiplication k·G for many k and the generator G of one group, for the test setup and the
 * powers-of-tau writer.
 *
 * The table holds, for each window k of w bits, the multiples d·2^(w·k)·G for d = 1 .. 2^(w−1) (affine, so the
 * additions are mixed). A scalar is recoded into signed digits in (−2^(w−1), 2^(w−1)], one per window, so that a
 * multiplication is ceil(256/w) mixed additions and no doubling; a negative digit adds the negated entry.
 * Scalars are < r < 2^255, so with 256 bits of windows the top digit never carries out.
 *
 * Instantiated by fixed_base.c with G(name) naming group functions (cuzk_g1_name / cuzk_g2_name), AFF and JAC the point types
 * and FB(name) the names of this file's functions (FB(table), the table type, is declared in g16_internal.h);
 * FB_CHUNK points are normalized together, and fb_window(count, point bytes) picks the window. */

void FB(table_free)(FB(table) * tb)
{
    free(tb->t);
    tb->t = NULL;
}

cuzk_status FB(table_build)(FB(table) * tb, size_t count)
{
    return FB(table_build_w)(tb, fb_window(count, sizeof(AFF)));
}

cuzk_status FB(table_build_w)(FB(table) * tb, unsigned w)
{
    tb->w = w;
    tb->nw = (256 + w - 1) / w;
    tb->half = 1u << (w - 1);
    size_t total = (size_t)tb->nw * tb->half;
    tb->t = malloc(total * sizeof *tb->t);
    JAC *row = malloc(tb->half * sizeof *row);
    if (tb->t == NULL || row == NULL) {
        free(row);
        FB(table_free)(tb);
        return CUZK_ERR_NOMEM;
    }
    AFF g;
    JAC p;
    G(generator)(&g);
    G(jac_from_affine)(&p, &g);
    for (unsigned k = 0; k < tb->nw; k++) {
        row[0] = p;
        for (unsigned d = 1; d < tb->half; d++) G(jac_add)(&row[d], &row[d - 1], &p);
        G(jac_batch_to_affine)(&tb->t[(size_t)k * tb->half], row, tb->half);
        G(jac_dbl)(&p, &row[tb->half - 1]); /* 2·2^(w−1)·P = 2^w·P, the next window's base */
    }
    free(row);
    return CUZK_OK;
}

static void FB(mul)(JAC *r, const FB(table) * tb, const cuzk_fr_t *k)
{
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_fr_to_limbs(l, k);
    G(jac_set_infinity)(r);
    unsigned carry = 0, w = tb->w;
    for (unsigned i = 0; i < tb->nw; i++) {
        unsigned pos = i * w, limb = pos / 64, off = pos % 64;
        uint64_t bits = 0;
        if (limb < CUZK_FR_LIMBS) {
            bits = l[limb] >> off;
            if (off + w > 64 && limb + 1 < CUZK_FR_LIMBS) bits |= l[limb + 1] << (64 - off);
        }
        unsigned d = (unsigned)(bits & ((1u << w) - 1)) + carry;
        carry = d > tb->half;
        unsigned mag = carry ? (1u << w) - d : d; /* |digit|: d − 2^w when it carries */
        if (mag == 0) continue;
        AFF e = tb->t[(size_t)i * tb->half + mag - 1];
        if (carry) G(affine_neg)(&e, &e);
        G(jac_add_affine)(r, r, &e);
    }
}

typedef struct {
    const FB(table) * tb;
    const cuzk_fr_t *k;
    AFF *out;
} FB(job);

static void FB(range)(void *arg, size_t lo, size_t hi)
{
    const FB(job) *j = arg;
    JAC buf[FB_CHUNK];
    for (size_t c = lo; c < hi; c += FB_CHUNK) {
        size_t n = hi - c < FB_CHUNK ? hi - c : FB_CHUNK;
        for (size_t i = 0; i < n; i++) FB(mul)(&buf[i], j->tb, &j->k[c + i]);
        G(jac_batch_to_affine)(&j->out[c], buf, n);
    }
}

void FB(mul_many)(AFF *out, const FB(table) * tb, const cuzk_fr_t *k, size_t n, unsigned threads)
{
    FB(job) j = {tb, k, out};
    cuzk_par_for(threads, n, FB_CHUNK, FB(range), &j);
}
