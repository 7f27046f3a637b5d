/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* bellperson parameter files: .params (the whole proving key) and .vk (its verifying-key prefix), layout in
 * docs/formats/bellperson.md §3. The files have no header or checksum, so the reader derives the
 * whole layout from the counts first, checks it against the file length, and only then allocates and decodes: a
 * hostile count can never make it allocate more than the file could hold (a decoded point takes exactly as many
 * bytes in memory as its uncompressed encoding). This file also holds the threaded point decoder of keyio.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ff_x8.h"
#include "g16_internal.h"

_Static_assert(sizeof(cuzk_g1_affine_t) == CUZK_G1_UNCOMPRESSED_BYTES &&
                   sizeof(cuzk_g2_affine_t) == CUZK_G2_UNCOMPRESSED_BYTES,
               "a decoded point must not be larger than its encoding: allocation bounds rely on it");

/* ---- threaded decoding ------------------------------------------------------------------------------------------- */

typedef struct {
    void *dst;
    const uint8_t *src;
    cuzk_g16_keyio_enc enc;
    unsigned flags;
    pthread_mutex_t lock;
    uint64_t bad;
    cuzk_status status;
} decode_job;

static cuzk_status decode_one(void *dst, const uint8_t *src, cuzk_g16_keyio_enc enc, unsigned flags, uint64_t i)
{
    switch (enc) {
    case CUZK_G16_KEYIO_G1_ZCASH:
        return cuzk_g1_from_uncompressed((cuzk_g1_affine_t *)dst + i, src + i * 96, 96, flags);
    case CUZK_G16_KEYIO_G2_ZCASH:
        return cuzk_g2_from_uncompressed((cuzk_g2_affine_t *)dst + i, src + i * 192, 192, flags);
    case CUZK_G16_KEYIO_G1_IDEN3: return cuzk_g1_from_iden3((cuzk_g1_affine_t *)dst + i, src + i * 96, 96, flags);
    case CUZK_G16_KEYIO_G2_IDEN3: return cuzk_g2_from_iden3((cuzk_g2_affine_t *)dst + i, src + i * 192, 192, flags);
    }
    return CUZK_ERR_INVALID_ARG;
}

static void decode_fail(decode_job *j, cuzk_status s, uint64_t i)
{
    pthread_mutex_lock(&j->lock);
    if (j->status == CUZK_OK || i < j->bad) {
        j->status = s;
        j->bad = i;
    }
    pthread_mutex_unlock(&j->lock);
}

#ifdef CUZK_FPX8
/* The curve check y² = x³ + 4 of the points dst[idx[0..n)] (1 <= n <= 8, indices increasing), 8 at a time with
 * AVX-512 IFMA (ff_x8.h): 3 vector multiplications instead of 3 scalar ones per point. Returns the position of the
 * first point off the curve, or n. Only where the CPU path is CUZK_CPU_IFMA. */
CUZK_FPX8_TARGET static int cuzk_g1_on_curve_x8(const cuzk_g1_affine_t *dst, const uint64_t *idx, int n)
{
    int64_t off[8];
    for (int l = 0; l < 8; l++) off[l] = (int64_t)idx[l < n ? l : 0] * (int64_t)sizeof(cuzk_g1_affine_t);
    const __m512i ox = _mm512_loadu_si512(off),
                  oy = _mm512_add_epi64(ox, _mm512_set1_epi64((long long)sizeof(cuzk_fp_t)));
    cuzk_fp_t four;
    const uint64_t four_limbs[CUZK_FP_LIMBS] = {4};
    cuzk_fp_from_limbs(&four, four_limbs);
    cuzk_fpx8 x, y, lhs, rhs, b;
    cuzk_fpx8_gather(&x, dst, ox);
    cuzk_fpx8_gather(&y, dst, oy);
    cuzk_fpx8_broadcast(&b, &four);
    cuzk_fpx8_mul(&lhs, &y, &y);
    cuzk_fpx8_mul(&rhs, &x, &x);
    cuzk_fpx8_mul(&rhs, &rhs, &x);
    /* rhs + b = rhs − (−b): −b = p − b in [0, p), so the sum stays in [0, 2p) */
    cuzk_fpx8 nb;
    cuzk_fpx8 zero;
    for (int k = 0; k < 8; k++) zero.l[k] = _mm512_setzero_si512();
    cuzk_fpx8_sub(&nb, &zero, &b);
    cuzk_fpx8_sub(&rhs, &rhs, &nb);
    cuzk_fpx8_canon(&lhs, &lhs);
    cuzk_fpx8_canon(&rhs, &rhs);
    __mmask8 ne = 0;
    for (int k = 0; k < 8; k++) ne |= _mm512_cmpneq_epi64_mask(lhs.l[k], rhs.l[k]);
    ne &= (__mmask8)((1u << n) - 1);
    return ne ? __builtin_ctz(ne) : n;
}

/* decode_range for iden3 G1 without the subgroup check (what zkey loading asks for): each point's bytes are checked
 * and copied in order, the curve checks run 8 points at a time. A batch is checked before any later failure is
 * reported, so the lowest failing index still wins. Points of a failing range may be left written: on failure the
 * caller discards the whole destination. */
static void decode_range_g1_iden3(decode_job *j, size_t lo, size_t hi)
{
    cuzk_g1_affine_t *dst = j->dst;
    uint64_t pend[8];
    int np = 0;
    for (size_t i = lo; i <= hi; i++) {
        cuzk_status s = CUZK_OK;
        bool last = i == hi;
        if (!last) {
            const uint8_t *in = j->src + i * CUZK_G1_IDEN3_BYTES;
            uint64_t w[2 * CUZK_FP_LIMBS], any = 0;
            for (int k = 0; k < 2 * CUZK_FP_LIMBS; k++) {
                memcpy(&w[k], in + 8 * k, 8);
                any |= w[k];
            }
            if (any == 0) {
                if (j->flags & CUZK_EC_DECODE_ALLOW_INFINITY) {
                    cuzk_g1_affine_set_infinity(&dst[i]);
                    continue;
                }
                s = CUZK_ERR_INFINITY;
            } else if (cuzk_fp_from_mont_limbs(&dst[i].x, w) != CUZK_OK ||
                       cuzk_fp_from_mont_limbs(&dst[i].y, w + CUZK_FP_LIMBS) != CUZK_OK) {
                s = CUZK_ERR_COORD_RANGE;
            } else {
                pend[np++] = i;
                if (np < 8) continue;
            }
        }
        if (np > 0) {
            int f = cuzk_g1_on_curve_x8(dst, pend, np);
            if (f < np) {
                decode_fail(j, CUZK_ERR_NOT_ON_CURVE, pend[f]);
                return;
            }
            np = 0;
        }
        if (s != CUZK_OK) {
            decode_fail(j, s, i);
            return;
        }
    }
}
#endif

/* Each range stops at its first failure, so the smallest recorded index is the lowest failing one overall. */
static void decode_range(void *ctx, size_t lo, size_t hi)
{
    decode_job *j = ctx;
#ifdef CUZK_FPX8
    if (j->enc == CUZK_G16_KEYIO_G1_IDEN3 && (j->flags & CUZK_EC_DECODE_SKIP_SUBGROUP) &&
        cuzk_cpu_path_get() >= CUZK_CPU_IFMA) {
        decode_range_g1_iden3(j, lo, hi);
        return;
    }
#endif
    for (size_t i = lo; i < hi; i++) {
        cuzk_status s = decode_one(j->dst, j->src, j->enc, j->flags, i);
        if (s != CUZK_OK) {
            pthread_mutex_lock(&j->lock);
            if (j->status == CUZK_OK || i < j->bad) {
                j->status = s;
                j->bad = i;
            }
            pthread_mutex_unlock(&j->lock);
            return;
        }
    }
}

cuzk_status cuzk_g16_keyio_decode_points(void *dst, const uint8_t *src, uint64_t n, cuzk_g16_keyio_enc enc,
                                         unsigned flags, unsigned threads, uint64_t *bad)
{
    decode_job j = {.dst = dst, .src = src, .enc = enc, .flags = flags, .status = CUZK_OK};
    *bad = 0;
    if (pthread_mutex_init(&j.lock, NULL) != 0) return CUZK_ERR_NOMEM;
    /* a G1 decode with subgroup check costs tens of microseconds: 256 points per thread amortize its start */
    cuzk_par_for(threads ? threads : 1, (size_t)n, 256, decode_range, &j);
    pthread_mutex_destroy(&j.lock);
    *bad = j.bad;
    return j.status;
}

/* ---- layout ------------------------------------------------------------------------------------------------------ */

#define VK_FIXED_BYTES CUZK_G16_PARAMS_VK_FIXED_BYTES

/* The counted arrays of a .params file in file order; a .vk file has the first one only. */
enum {
    SEC_IC = CUZK_G16_PARAMS_SEC_IC,
    SEC_H = CUZK_G16_PARAMS_SEC_H,
    SEC_L = CUZK_G16_PARAMS_SEC_L,
    SEC_A = CUZK_G16_PARAMS_SEC_A,
    SEC_B_G1 = CUZK_G16_PARAMS_SEC_B_G1,
    SEC_B_G2 = CUZK_G16_PARAMS_SEC_B_G2,
    SEC_COUNT = CUZK_G16_PARAMS_SEC_COUNT
};
static const char *const SEC_NAME[SEC_COUNT] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

const char *cuzk_g16_params_section_name(int k) { return SEC_NAME[k]; }

static size_t sec_point_bytes(int k) { return k == SEC_B_G2 ? CUZK_G2_UNCOMPRESSED_BYTES : CUZK_G1_UNCOMPRESSED_BYTES; }

static uint32_t rd32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool mem_read4(void *ctx, uint64_t pos, uint8_t out[4])
{
    memcpy(out, (const uint8_t *)ctx + pos, 4);
    return true;
}

/* Walks the counts of the first nsec arrays (read4 gives the 4 bytes at a position of the len-byte file): off[k] /
 * cnt[k] locate array k. Every array must fit in what is left of the file and nothing may follow the last one. */
static cuzk_status layout(size_t len, cuzk_g16_params_read4_fn read4, void *ctx, int nsec, uint64_t off[SEC_COUNT],
                          uint64_t cnt[SEC_COUNT], const char *what, cuzk_errmsg *err)
{
    if (len < VK_FIXED_BYTES)
        return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: %zu bytes, shorter than the %d bytes of the vk points", what,
                         len, VK_FIXED_BYTES);
    size_t pos = VK_FIXED_BYTES;
    for (int k = 0; k < nsec; k++) {
        if (len - pos < 4)
            return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: ends at byte %zu, before the %s count", what, len,
                             SEC_NAME[k]);
        uint8_t b[4];
        if (!read4(ctx, pos, b))
            return cuzk_fail(err, CUZK_ERR_IO, "%s: cannot read the %s count at byte %zu", what, SEC_NAME[k], pos);
        uint64_t n = rd32be(b), sz = sec_point_bytes(k);
        pos += 4;
        if (n > (len - pos) / sz)
            return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: %s count %llu needs %llu bytes, only %zu left", what,
                             SEC_NAME[k], (unsigned long long)n, (unsigned long long)(n * sz), len - pos);
        off[k] = pos;
        cnt[k] = n;
        pos += (size_t)(n * sz);
    }
    if (pos != len)
        return cuzk_fail(err, CUZK_ERR_BAD_LENGTH, "%s: %zu trailing bytes after %s", what, len - pos,
                         SEC_NAME[nsec - 1]);
    if (cnt[SEC_IC] == 0)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "%s: ic is empty, but it always holds the ONE input", what);
    return CUZK_OK;
}

static bool is_pow2(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

cuzk_status cuzk_g16_params_layout(uint64_t off[CUZK_G16_PARAMS_SEC_COUNT], uint64_t cnt[CUZK_G16_PARAMS_SEC_COUNT],
                                   size_t len, cuzk_g16_params_read4_fn read4, void *ctx, cuzk_errmsg *err)
{
    static const char what[] = "params";
    cuzk_status s = layout(len, read4, ctx, SEC_COUNT, off, cnt, what, err);
    if (s != CUZK_OK) return s;
    if (!is_pow2(cnt[SEC_H] + 1))
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "%s: h has %llu points, h + 1 is no power of two", what,
                         (unsigned long long)cnt[SEC_H]);
    if (cnt[SEC_B_G1] != cnt[SEC_B_G2])
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "%s: b_g1 has %llu points, b_g2 %llu", what,
                         (unsigned long long)cnt[SEC_B_G1], (unsigned long long)cnt[SEC_B_G2]);
    /* a and b hold at most one point per variable (inputs and aux; l has one per aux) */
    uint64_t vars = cnt[SEC_IC] + cnt[SEC_L];
    if (cnt[SEC_A] > vars || cnt[SEC_B_G1] > vars)
        return cuzk_fail(err, CUZK_ERR_BAD_HEADER, "%s: a (%llu) or b (%llu) has more points than the %llu variables",
                         what, (unsigned long long)cnt[SEC_A], (unsigned long long)cnt[SEC_B_G1],
                         (unsigned long long)vars);
    return CUZK_OK;
}

cuzk_status cuzk_g16_params_point_fail(cuzk_errmsg *err, cuzk_status s, const uint64_t off[CUZK_G16_PARAMS_SEC_COUNT],
                                       int k, uint64_t bad, const char *what)
{
    return cuzk_fail(err, s, "%s: %s[%llu] (byte %llu): %s", what, SEC_NAME[k], (unsigned long long)bad,
                     (unsigned long long)(off[k] + bad * sec_point_bytes(k)), cuzk_status_str(s));
}

/* The six fixed vk points at the start of d; bellperson refuses infinity for every point of its files. */
cuzk_status cuzk_g16_params_decode_vk_fixed(cuzk_groth16_vk *vk, const uint8_t *d, unsigned ecflags, const char *what,
                                            cuzk_errmsg *err)
{
    struct {
        const char *name;
        cuzk_g1_affine_t *g1;
        cuzk_g2_affine_t *g2;
    } pts[6] = {{"alpha_g1", &vk->alpha_g1, NULL}, {"beta_g1", &vk->beta_g1, NULL},
                {"beta_g2", NULL, &vk->beta_g2},   {"gamma_g2", NULL, &vk->gamma_g2},
                {"delta_g1", &vk->delta_g1, NULL}, {"delta_g2", NULL, &vk->delta_g2}};
    size_t pos = 0;
    for (int i = 0; i < 6; i++) {
        cuzk_status s;
        if (pts[i].g1 != NULL) {
            s = cuzk_g1_from_uncompressed(pts[i].g1, d + pos, CUZK_G1_UNCOMPRESSED_BYTES, ecflags);
            pos += CUZK_G1_UNCOMPRESSED_BYTES;
        } else {
            s = cuzk_g2_from_uncompressed(pts[i].g2, d + pos, CUZK_G2_UNCOMPRESSED_BYTES, ecflags);
            pos += CUZK_G2_UNCOMPRESSED_BYTES;
        }
        if (s != CUZK_OK) return cuzk_fail(err, s, "%s: vk %s: %s", what, pts[i].name, cuzk_status_str(s));
    }
    return CUZK_OK;
}

static cuzk_status decode_section(void *dst, const uint8_t *d, const uint64_t off[SEC_COUNT],
                                  const uint64_t cnt[SEC_COUNT], int k, unsigned ecflags, unsigned threads,
                                  const char *what, cuzk_errmsg *err)
{
    uint64_t bad;
    cuzk_status s = cuzk_g16_keyio_decode_points(dst, d + off[k], cnt[k],
                                                 k == SEC_B_G2 ? CUZK_G16_KEYIO_G2_ZCASH : CUZK_G16_KEYIO_G1_ZCASH,
                                                 ecflags, threads, &bad);
    if (s != CUZK_OK) return cuzk_g16_params_point_fail(err, s, off, k, bad, what);
    return CUZK_OK;
}

/* ---- loading ----------------------------------------------------------------------------------------------------- */

/* A file of another format would otherwise be read as counts ("h count 2065855609 needs 198 GB"): say what it is. A
 * file that may be of the wanted format, damaged or not, goes on to the layout's own message (a truncated .vk is
 * also a truncated .params), and so does anything unrecognised. */
static cuzk_status params_other_format(const uint8_t *d, size_t len, cuzk_groth16_format want, const char *what,
                                       cuzk_errmsg *err)
{
    cuzk_groth16_format_info in;
    cuzk_groth16_detect_format(d, len, &in);
    if (cuzk_groth16_format_may_be(&in, want)) return CUZK_OK;
    return cuzk_fail(err, CUZK_ERR_BAD_MAGIC, "%s: this is %s, not a %s", what, in.what,
                     cuzk_groth16_format_name(want));
}

static cuzk_status params_parse(cuzk_groth16_pk *pk, const uint8_t *d, size_t len, unsigned ecflags, unsigned threads,
                                cuzk_errmsg *err)
{
    static const char what[] = "params";
    uint64_t off[SEC_COUNT] = {0}, cnt[SEC_COUNT] = {0};
    cuzk_status s = params_other_format(d, len, CUZK_GROTH16_FORMAT_PARAMS, what, err);
    if (s != CUZK_OK) return s;
    s = cuzk_g16_params_layout(off, cnt, len, mem_read4, (void *)d, err);
    if (s != CUZK_OK) return s;

    uint64_t g1n = cnt[SEC_IC] + cnt[SEC_H] + cnt[SEC_L] + cnt[SEC_A] + cnt[SEC_B_G1];
    uint8_t *block = malloc(g1n * sizeof(cuzk_g1_affine_t) + cnt[SEC_B_G2] * sizeof(cuzk_g2_affine_t));
    if (block == NULL)
        return cuzk_fail(err, CUZK_ERR_NOMEM, "%s: no memory for %llu points", what,
                         (unsigned long long)(g1n + cnt[SEC_B_G2]));
    void *dst[SEC_COUNT];
    cuzk_g1_affine_t *g1 = (cuzk_g1_affine_t *)block;
    for (int k = 0; k < SEC_B_G2; k++) {
        dst[k] = g1;
        g1 += cnt[k];
    }
    dst[SEC_B_G2] = g1;
    /* H, L, A and B1 (adjacent): the MSMs read them in bucket order, i.e. at random, and a dense witness MSM reads the
     * key's own bases (prover.c) */
    cuzk_advise_huge(dst[SEC_H], (cnt[SEC_H] + cnt[SEC_L] + cnt[SEC_A] + cnt[SEC_B_G1]) * sizeof(cuzk_g1_affine_t));

    s = cuzk_g16_params_decode_vk_fixed(&pk->vk, d, ecflags, what, err);
    for (int k = 0; k < SEC_COUNT && s == CUZK_OK; k++)
        s = decode_section(dst[k], d, off, cnt, k, ecflags, threads, what, err);
    if (s != CUZK_OK) {
        free(block);
        return s;
    }
    pk->conv = CUZK_GROTH16_BELLPERSON;
    pk->vk.ic = dst[SEC_IC];
    pk->vk.num_inputs = cnt[SEC_IC];
    pk->vk.storage = NULL; /* the ic points live in pk->storage */
    pk->num_aux = cnt[SEC_L];
    pk->domain_size = cnt[SEC_H] + 1;
    pk->h = dst[SEC_H];
    pk->h_len = cnt[SEC_H];
    pk->l = dst[SEC_L];
    pk->l_len = cnt[SEC_L];
    pk->a = dst[SEC_A];
    pk->a_len = cnt[SEC_A];
    pk->b_g1 = dst[SEC_B_G1];
    pk->b_len = cnt[SEC_B_G1];
    pk->b_g2 = dst[SEC_B_G2];
    pk->circuit = NULL;
    pk->storage = block;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_params_parse(cuzk_groth16_pk *pk, const uint8_t *data, size_t len, unsigned flags,
                                      unsigned threads, cuzk_errmsg *err)
{
    memset(pk, 0, sizeof *pk);
    unsigned ecflags = (flags & CUZK_GROTH16_LOAD_SUBGROUP) ? 0 : CUZK_EC_DECODE_SKIP_SUBGROUP;
    cuzk_status s = params_parse(pk, data != NULL ? data : (const uint8_t *)"", len, ecflags, threads, err);
    if (s != CUZK_OK) memset(pk, 0, sizeof *pk);
    return s;
}

cuzk_status cuzk_groth16_params_load(cuzk_groth16_pk *pk, const char *path, unsigned flags, unsigned threads,
                                     cuzk_errmsg *err)
{
    memset(pk, 0, sizeof *pk);
    const uint8_t *d;
    size_t len;
    cuzk_status s = cuzk_map_file(path, &d, &len, err);
    if (s != CUZK_OK) return s;
    s = cuzk_groth16_params_parse(pk, d, len, flags, threads, err);
    cuzk_unmap_file(d, len);
    return s;
}

/* A verifying key is small and guards what a verifier accepts: its points are always subgroup-checked. */
cuzk_status cuzk_groth16_vk_parse(cuzk_groth16_vk *vk, const uint8_t *d, size_t len, cuzk_errmsg *err)
{
    static const char what[] = "vk";
    memset(vk, 0, sizeof *vk);
    if (d == NULL) d = (const uint8_t *)"", len = 0;
    uint64_t off[SEC_COUNT] = {0}, cnt[SEC_COUNT] = {0};
    cuzk_g1_affine_t *ic = NULL;
    cuzk_status s = params_other_format(d, len, CUZK_GROTH16_FORMAT_VK, what, err);
    if (s == CUZK_OK) s = layout(len, mem_read4, (void *)d, 1, off, cnt, what, err);
    if (s == CUZK_OK) s = cuzk_g16_params_decode_vk_fixed(vk, d, 0, what, err);
    if (s == CUZK_OK && (ic = malloc(cnt[SEC_IC] * sizeof *ic)) == NULL)
        s = cuzk_fail(err, CUZK_ERR_NOMEM, "%s: no memory for %llu ic points", what, (unsigned long long)cnt[SEC_IC]);
    if (s == CUZK_OK) s = decode_section(ic, d, off, cnt, SEC_IC, 0, 1, what, err);
    if (s != CUZK_OK) {
        free(ic);
        memset(vk, 0, sizeof *vk);
        return s;
    }
    vk->ic = ic;
    vk->num_inputs = cnt[SEC_IC];
    vk->storage = ic;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_load(cuzk_groth16_vk *vk, const char *path, cuzk_errmsg *err)
{
    memset(vk, 0, sizeof *vk);
    const uint8_t *d;
    size_t len;
    cuzk_status s = cuzk_map_file(path, &d, &len, err);
    if (s != CUZK_OK) return s;
    s = cuzk_groth16_vk_parse(vk, d, len, err);
    cuzk_unmap_file(d, len);
    return s;
}

/* ---- writing ----------------------------------------------------------------------------------------------------- */

/* Buffered writer; the first failure sticks and is reported once at the end. */
typedef struct {
    FILE *f;
    uint8_t *buf;
    size_t n, cap;
    bool ok;
} wbuf;

static void w_flush(wbuf *w)
{
    if (w->ok && w->n > 0 && fwrite(w->buf, 1, w->n, w->f) != w->n) w->ok = false;
    w->n = 0;
}

static uint8_t *w_reserve(wbuf *w, size_t n)
{
    if (w->cap - w->n < n) w_flush(w);
    uint8_t *p = w->buf + w->n;
    w->n += n;
    return p;
}

static void w_count(wbuf *w, uint64_t n)
{
    uint8_t *p = w_reserve(w, 4);
    p[0] = (uint8_t)(n >> 24);
    p[1] = (uint8_t)(n >> 16);
    p[2] = (uint8_t)(n >> 8);
    p[3] = (uint8_t)n;
}

/* Writes n points; CUZK_ERR_INFINITY when one is the point at infinity, which no reader of the format accepts. */
static cuzk_status w_g1s(wbuf *w, const cuzk_g1_affine_t *p, uint64_t n, const char *name, cuzk_errmsg *err)
{
    for (uint64_t i = 0; i < n; i++) {
        if (cuzk_g1_affine_is_infinity(&p[i]))
            return cuzk_fail(err, CUZK_ERR_INFINITY,
                             "params: %s[%llu] is the point at infinity, which the format "
                             "refuses",
                             name, (unsigned long long)i);
        cuzk_g1_to_uncompressed(w_reserve(w, CUZK_G1_UNCOMPRESSED_BYTES), &p[i]);
    }
    return CUZK_OK;
}

static cuzk_status w_g2s(wbuf *w, const cuzk_g2_affine_t *p, uint64_t n, const char *name, cuzk_errmsg *err)
{
    for (uint64_t i = 0; i < n; i++) {
        if (cuzk_g2_affine_is_infinity(&p[i]))
            return cuzk_fail(err, CUZK_ERR_INFINITY,
                             "params: %s[%llu] is the point at infinity, which the format "
                             "refuses",
                             name, (unsigned long long)i);
        cuzk_g2_to_uncompressed(w_reserve(w, CUZK_G2_UNCOMPRESSED_BYTES), &p[i]);
    }
    return CUZK_OK;
}

static cuzk_status w_vk(wbuf *w, const cuzk_groth16_vk *vk, cuzk_errmsg *err)
{
    if (vk->num_inputs == 0 || vk->num_inputs > UINT32_MAX)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "params: %llu ic points, the format needs 1 .. 2^32-1",
                         (unsigned long long)vk->num_inputs);
    cuzk_status s = w_g1s(w, &vk->alpha_g1, 1, "alpha_g1", err);
    if (s == CUZK_OK) s = w_g1s(w, &vk->beta_g1, 1, "beta_g1", err);
    if (s == CUZK_OK) s = w_g2s(w, &vk->beta_g2, 1, "beta_g2", err);
    if (s == CUZK_OK) s = w_g2s(w, &vk->gamma_g2, 1, "gamma_g2", err);
    if (s == CUZK_OK) s = w_g1s(w, &vk->delta_g1, 1, "delta_g1", err);
    if (s == CUZK_OK) s = w_g2s(w, &vk->delta_g2, 1, "delta_g2", err);
    if (s == CUZK_OK) {
        w_count(w, vk->num_inputs);
        s = w_g1s(w, vk->ic, vk->num_inputs, "ic", err);
    }
    return s;
}

static cuzk_status w_pk(wbuf *w, const cuzk_groth16_pk *pk, cuzk_errmsg *err)
{
    if (pk->conv != CUZK_GROTH16_BELLPERSON)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "params: only a bellperson-convention key has a .params form");
    const uint64_t n[4] = {pk->h_len, pk->l_len, pk->a_len, pk->b_len};
    for (int k = 0; k < 4; k++)
        if (n[k] > UINT32_MAX)
            return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "params: %s has %llu points, the format counts in u32",
                             SEC_NAME[k + 1], (unsigned long long)n[k]);
    cuzk_status s = w_vk(w, &pk->vk, err);
    const cuzk_g1_affine_t *g1[4] = {pk->h, pk->l, pk->a, pk->b_g1};
    for (int k = 0; k < 4 && s == CUZK_OK; k++) {
        w_count(w, n[k]);
        s = w_g1s(w, g1[k], n[k], SEC_NAME[k + 1], err);
    }
    if (s == CUZK_OK) {
        w_count(w, pk->b_len);
        s = w_g2s(w, pk->b_g2, pk->b_len, "b_g2", err);
    }
    return s;
}

/* Runs the writer for a vk (pk == NULL) or a whole key into path. */
static cuzk_status write_file(const cuzk_groth16_pk *pk, const cuzk_groth16_vk *vk, const char *path, cuzk_errmsg *err)
{
    wbuf w = {.cap = 1u << 20, .ok = true};
    w.buf = malloc(w.cap);
    if (w.buf == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "params: no memory for the write buffer");
    w.f = fopen(path, "wb");
    if (w.f == NULL) {
        free(w.buf);
        return cuzk_fail(err, CUZK_ERR_IO, "cannot create %s", path);
    }
    cuzk_status s = pk != NULL ? w_pk(&w, pk, err) : w_vk(&w, vk, err);
    w_flush(&w);
    if (fclose(w.f) != 0) w.ok = false;
    free(w.buf);
    if (s == CUZK_OK && !w.ok) s = cuzk_fail(err, CUZK_ERR_IO, "cannot write %s", path);
    if (s != CUZK_OK) remove(path); /* never leave a partial key behind */
    return s;
}

cuzk_status cuzk_groth16_params_write(const cuzk_groth16_pk *pk, const char *path, cuzk_errmsg *err)
{
    return write_file(pk, NULL, path, err);
}

cuzk_status cuzk_groth16_vk_write(const cuzk_groth16_vk *vk, const char *path, cuzk_errmsg *err)
{
    return write_file(NULL, vk, path, err);
}
