/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The commit-phase-1 JSON in one streaming pass: a pull tokenizer over a byte source (a buffer, a file read in
 * pieces, or the base64 inside Curio's envelope decoded on the fly) and a recursive-descent reader of the
 * SealCommitPhase1Output shape that writes every node straight into the challenge's pool (c1.c). No document tree
 * is built, so memory is the result plus one read buffer. Keys may come in any order; unknown keys are skipped as
 * serde and Go skip them; every count, index and field element is checked as it is read. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "fil_internal.h"

#define JKEY 48        /* longer keys are none of ours */
#define JSKIP_DEPTH 64 /* nesting allowed inside a skipped value */

/* ---- byte sources ------------------------------------------------------------------------------------------------ */

typedef struct jsrc jsrc;
struct jsrc {
    const uint8_t *p, *end; /* unread bytes of the current window */
    const uint8_t *win;     /* the window's first byte */
    uint64_t base;          /* document offset of win */
    int (*refill)(jsrc *s); /* sets the next window: 1 bytes, 0 end of input, -1 failed (error recorded) */
    void *ctx;
};

static int jsrc_fill(jsrc *s)
{
    if (s->p < s->end) return 1;
    s->base += (uint64_t)(s->end - s->win);
    s->win = s->p = s->end;
    return s->refill != NULL ? s->refill(s) : 0;
}

/* ---- the tokenizer ----------------------------------------------------------------------------------------------- */

/* what the parsers of one document share: the first failure wins, later ones are dropped */
typedef struct {
    cuzk_errmsg *err;
    cuzk_status st;
} jsess;

typedef struct {
    jsrc *s;
    fil_path path;
    jsess *ss;
    const char *where; /* "" or " of Phase1Out", after byte offsets */
} jp;

static cuzk_status sess_fail(jsess *ss, cuzk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cuzk_status sess_fail(jsess *ss, cuzk_status s, const char *fmt, ...)
{
    if (ss->st != CUZK_OK) return ss->st;
    ss->st = s;
    if (ss->err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ss->err->msg, sizeof ss->err->msg, fmt, ap);
        va_end(ap);
    }
    return s;
}

static uint64_t joff(const jp *j) { return j->s->base + (uint64_t)(j->s->p - j->s->win); }

static cuzk_status jfail(jp *j, cuzk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cuzk_status jfail(jp *j, cuzk_status s, const char *fmt, ...)
{
    if (j->ss->st != CUZK_OK) return j->ss->st;
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    j->ss->st = s;
    return cuzk_fil_path_fail(j->ss->err, &j->path, s, "%s", what);
}

/* records a status a helper returned after writing err itself */
static cuzk_status jkeep(jp *j, cuzk_status s)
{
    if (s != CUZK_OK && j->ss->st == CUZK_OK) j->ss->st = s;
    return j->ss->st != CUZK_OK ? j->ss->st : s;
}

static inline int jpeek(jp *j)
{
    if (j->s->p == j->s->end && jsrc_fill(j->s) <= 0) return -1;
    return *j->s->p;
}

static inline int jws(jp *j)
{
    for (;;) {
        int c = jpeek(j);
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
        j->s->p++;
    }
}

/* "expected X found 'c' at byte N" */
static cuzk_status jexpected(jp *j, const char *what, int c)
{
    if (j->ss->st != CUZK_OK) return j->ss->st;
    if (c < 0)
        return jfail(j, CUZK_ERR_BAD_JSON, "expected %s, the input ends at byte %llu%s", what,
                     (unsigned long long)joff(j), j->where);
    if (c >= 0x20 && c < 0x7f)
        return jfail(j, CUZK_ERR_BAD_JSON, "expected %s found '%c' at byte %llu%s", what, c,
                     (unsigned long long)joff(j), j->where);
    return jfail(j, CUZK_ERR_BAD_JSON, "expected %s found byte 0x%02x at byte %llu%s", what, c,
                 (unsigned long long)joff(j), j->where);
}

static cuzk_status jchar(jp *j, int want, const char *what)
{
    int c = jws(j);
    if (c != want) return jexpected(j, what, c);
    j->s->p++;
    return CUZK_OK;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* A string (the opening quote next). Its first cap − 1 bytes go to buf (NUL-terminated); *len is the whole length.
 * \uXXXX escapes become UTF-8 (no surrogate pairing: only our ASCII names are ever compared). */
static cuzk_status jstring(jp *j, char *buf, size_t cap, size_t *len)
{
    cuzk_status st = jchar(j, '"', "a string");
    if (st != CUZK_OK) return st;
    size_t n = 0;
    for (;;) {
        int c = jpeek(j);
        if (c < 0) return jexpected(j, "the string's closing '\"'", c);
        j->s->p++;
        if (c == '"') break;
        if (c < 0x20) return jexpected(j, "a string character (control characters must be escaped)", c);
        uint8_t out[4];
        int k = 1;
        out[0] = (uint8_t)c;
        if (c == '\\') {
            int e = jpeek(j);
            if (e < 0) return jexpected(j, "an escape", e);
            j->s->p++;
            switch (e) {
            case '"':
            case '\\':
            case '/': out[0] = (uint8_t)e; break;
            case 'b': out[0] = '\b'; break;
            case 'f': out[0] = '\f'; break;
            case 'n': out[0] = '\n'; break;
            case 'r': out[0] = '\r'; break;
            case 't': out[0] = '\t'; break;
            case 'u': {
                unsigned u = 0;
                for (int i = 0; i < 4; i++) {
                    int h = jpeek(j);
                    if (hexval(h) < 0) return jexpected(j, "4 hex digits after \\u", h);
                    u = u << 4 | (unsigned)hexval(h);
                    j->s->p++;
                }
                if (u < 0x80) out[0] = (uint8_t)u;
                else if (u < 0x800) out[0] = (uint8_t)(0xc0 | u >> 6), out[1] = (uint8_t)(0x80 | (u & 0x3f)), k = 2;
                else
                    out[0] = (uint8_t)(0xe0 | u >> 12), out[1] = (uint8_t)(0x80 | ((u >> 6) & 0x3f)),
                    out[2] = (uint8_t)(0x80 | (u & 0x3f)), k = 3;
                break;
            }
            default: return jexpected(j, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)", e);
            }
        }
        for (int i = 0; i < k; i++, n++)
            if (n + 1 < cap) buf[n] = (char)out[i];
    }
    buf[n + 1 < cap ? n : cap - 1] = '\0';
    *len = n;
    return CUZK_OK;
}

/* A non-negative integer at most max (no sign, fraction, exponent or leading zero). */
static cuzk_status juint(jp *j, uint64_t max, uint64_t *out)
{
    int c = jws(j);
    if (c < '0' || c > '9') return jexpected(j, "a non-negative integer", c);
    uint64_t v = 0;
    bool big = false, first_zero = c == '0';
    int digits = 0;
    while ((c = jpeek(j)) >= '0' && c <= '9') {
        if (digits++ == 1 && first_zero) return jexpected(j, "no leading zero", c);
        if (v > (UINT64_MAX - 9) / 10) big = true;
        else v = v * 10 + (uint64_t)(c - '0');
        j->s->p++;
    }
    if (c == '.' || c == 'e' || c == 'E') return jexpected(j, "an integer (no fraction or exponent)", c);
    if (big || v > max)
        return jfail(j, CUZK_ERR_TOO_LARGE, "%s%llu exceeds %llu", big ? "more than " : "",
                     (unsigned long long)(big ? UINT64_MAX : v), (unsigned long long)max);
    *out = v;
    return CUZK_OK;
}

static cuzk_status jliteral(jp *j, const char *lit)
{
    int c = jws(j);
    for (const char *l = lit; *l != '\0'; l++, c = jpeek(j)) {
        if (c != *l) return jexpected(j, lit, c);
        j->s->p++;
    }
    return CUZK_OK;
}

/* Skips one value of any kind, checking its syntax. */
static cuzk_status jskip(jp *j, int depth)
{
    if (depth > JSKIP_DEPTH) return jfail(j, CUZK_ERR_TOO_LARGE, "values nested deeper than %d", JSKIP_DEPTH);
    int c = jws(j);
    char tmp[2];
    size_t len;
    cuzk_status st;
    switch (c) {
    case '"': return jstring(j, tmp, sizeof tmp, &len);
    case 't': return jliteral(j, "true");
    case 'f': return jliteral(j, "false");
    case 'n': return jliteral(j, "null");
    case '{':
    case '[': {
        int close = c == '{' ? '}' : ']';
        j->s->p++;
        if (jws(j) == close) {
            j->s->p++;
            return CUZK_OK;
        }
        for (;;) {
            if (close == '}') {
                if ((st = jstring(j, tmp, sizeof tmp, &len)) != CUZK_OK || (st = jchar(j, ':', "':'")) != CUZK_OK)
                    return st;
            }
            if ((st = jskip(j, depth + 1)) != CUZK_OK) return st;
            c = jws(j);
            j->s->p += c == ',' || c == close;
            if (c == close) return CUZK_OK;
            if (c != ',') return jexpected(j, close == '}' ? "',' or '}'" : "',' or ']'", c);
        }
    }
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            /* a JSON number: -? int frac? exp? */
            j->s->p += c == '-';
            int d = 0;
            while ((c = jpeek(j)) >= '0' && c <= '9') j->s->p++, d++;
            if (d == 0) return jexpected(j, "a digit", c);
            if (c == '.') {
                j->s->p++;
                for (d = 0; (c = jpeek(j)) >= '0' && c <= '9'; d++) j->s->p++;
                if (d == 0) return jexpected(j, "a digit", c);
            }
            if (c == 'e' || c == 'E') {
                j->s->p++;
                c = jpeek(j);
                j->s->p += c == '+' || c == '-';
                for (d = 0; (c = jpeek(j)) >= '0' && c <= '9'; d++) j->s->p++;
                if (d == 0) return jexpected(j, "a digit", c);
            }
            return CUZK_OK;
        }
        return jexpected(j, "a value", c);
    }
}

/* Object members: jobj_next gives 1 with the key read and its ':' consumed, 0 when the object closed, -1 on error. */
static int jobj_next(jp *j, bool *first, char key[JKEY])
{
    int c = jws(j);
    if (c == '}') {
        j->s->p++;
        return 0;
    }
    if (!*first) {
        if (c != ',') return jexpected(j, "',' or '}'", c), -1;
        j->s->p++;
    }
    *first = false;
    size_t len;
    if (jstring(j, key, JKEY, &len) != CUZK_OK) return -1;
    if (len >= JKEY) key[0] = '\0';
    if (jchar(j, ':', "':'") != CUZK_OK) return -1;
    return 1;
}

/* After '[' was consumed: 1 when an element follows, 0 when the array closed, -1 on error. */
static int jarr_next(jp *j, bool *first)
{
    int c = jws(j);
    if (c == ']') {
        j->s->p++;
        return 0;
    }
    if (!*first) {
        if (c != ',') return jexpected(j, "',' or ']'", c), -1;
        j->s->p++;
    }
    *first = false;
    return 1;
}

static int key_index(const char *const *names, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], key) == 0) return i;
    return -1;
}

/* Marks key i seen; a second time is an error. */
static cuzk_status jseen(jp *j, unsigned *seen, int i, const char *key)
{
    if (*seen & (1u << i)) return jfail(j, CUZK_ERR_BAD_JSON, "duplicate key '%s'", key);
    *seen |= 1u << i;
    return CUZK_OK;
}

/* The first key of names[] whose bit in need is missing from seen. */
static cuzk_status jmissing(jp *j, unsigned seen, unsigned need, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if ((need & (1u << i)) && !(seen & (1u << i))) return jfail(j, CUZK_ERR_BAD_JSON, "missing key '%s'", names[i]);
    return CUZK_OK;
}

/* An array of exactly n elements, each read by fn (under the frame the caller pushed, indexed here); extra
 * elements are skipped to count them for the message. */
typedef cuzk_status (*jelem_fn)(jp *j, uint32_t i, void *ctx);

static cuzk_status jarray(jp *j, uint32_t n, const char *what, jelem_fn fn, void *ctx)
{
    cuzk_status st = jchar(j, '[', "'['");
    if (st != CUZK_OK) return st;
    bool first = true;
    uint64_t count = 0;
    int r;
    while ((r = jarr_next(j, &first)) == 1) {
        fil_index(&j->path, (int64_t)count);
        st = count < n ? fn(j, (uint32_t)count, ctx) : jskip(j, 0);
        if (st != CUZK_OK) return st;
        count++;
    }
    fil_index(&j->path, -1);
    if (r < 0) return j->ss->st;
    if (count != n)
        return jfail(j, CUZK_ERR_BAD_LENGTH, "expected %u %s found %llu", n, what, (unsigned long long)count);
    return CUZK_OK;
}

/* The common compact form "[12,0,255,...]" read straight from the window; false (nothing consumed) for anything
 * else, which the general path then reads or reports. Most of a C1 document is such arrays. */
static bool jnode_fast(jp *j, uint8_t out[32])
{
    const uint8_t *p = j->s->p;
    if (j->s->end - p < 32 * 4 + 1 || *p++ != '[') return false;
    for (int i = 0; i < 32; i++) {
        unsigned v = (unsigned)*p - '0', d;
        if (v > 9) return false;
        p++;
        if (v != 0 && (d = (unsigned)*p - '0') <= 9) {
            v = v * 10 + d, p++;
            if ((d = (unsigned)*p - '0') <= 9) v = v * 10 + d, p++;
        }
        if (v > 255 || *p != (i == 31 ? ']' : ',')) return false;
        out[i] = (uint8_t)v;
        p++;
    }
    j->s->p = p;
    return true;
}

/* A node: [b0, ..., b31], bytes 0..255. */
static cuzk_status jnode(jp *j, uint8_t out[32], bool canonical)
{
    if (jws(j) == '[' && jnode_fast(j, out)) {
        if (canonical && !fil_canonical(out))
            return jfail(j, CUZK_ERR_NOT_CANONICAL, "field element is not below r (top byte 0x%02x)", out[31]);
        return CUZK_OK;
    }
    cuzk_status st = jchar(j, '[', "'[' (a 32-byte array)");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned count = 0;
    int r;
    while ((r = jarr_next(j, &first)) == 1) {
        uint64_t v = 0;
        if ((st = juint(j, 255, &v)) != CUZK_OK) return st;
        if (count < 32) out[count] = (uint8_t)v;
        count++;
    }
    if (r < 0) return j->ss->st;
    if (count != 32) return jfail(j, CUZK_ERR_BAD_LENGTH, "expected 32 bytes found %u", count);
    if (canonical && !fil_canonical(out))
        return jfail(j, CUZK_ERR_NOT_CANONICAL, "field element is not below r (top byte 0x%02x)", out[31]);
    return CUZK_OK;
}

static cuzk_status node_elem(jp *j, uint32_t i, void *ctx) { return jnode(j, ((uint8_t(*)[32])ctx)[i], true); }

/* exactly n canonical nodes into dst */
static cuzk_status jnodes(jp *j, const cuzk_fil_node *dst, uint32_t n)
{
    return jarray(j, n, n == 1 ? "node" : "nodes", node_elem, (void *)dst);
}

/* a node-valued member under its own frame */
static cuzk_status jnode_field(jp *j, const char *name, uint8_t out[32], bool canonical)
{
    fil_push(&j->path, name, -1);
    cuzk_status st = jnode(j, out, canonical);
    fil_pop(&j->path);
    return st;
}

/* ---- Merkle proofs ----------------------------------------------------------------------------------------------- */

typedef struct {
    const cuzk_fil_shape *s;
    cuzk_fil_merkle_proof *m;
    unsigned first; /* the level of the path's first element */
    bool *have;     /* per element: hashes and index seen */
} jpath_ctx;

static unsigned sib_offset(const cuzk_fil_shape *s, unsigned level)
{
    unsigned off = 0;
    for (unsigned l = 0; l < level; l++) off += cuzk_fil_shape_arity(s, l) - 1;
    return off;
}

static cuzk_status path_elem(jp *j, uint32_t i, void *ctx)
{
    static const char *const names[2] = {"hashes", "index"};
    jpath_ctx *c = ctx;
    unsigned level = c->first + i, arity = cuzk_fil_shape_arity(c->s, level);
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(names, 2, key);
        if (k < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, k, key)) != CUZK_OK) return st;
        fil_push(&j->path, names[k], -1);
        if (k == 0) {
            st = jnodes(j, c->m->siblings + sib_offset(c->s, level), arity - 1);
        } else {
            uint64_t idx = 0;
            st = juint(j, UINT64_MAX, &idx);
            if (st == CUZK_OK && idx >= arity)
                st = jfail(j, CUZK_ERR_TOO_LARGE, "%llu is not below the arity %u", (unsigned long long)idx, arity);
            c->m->index[level] = (uint8_t)idx;
        }
        if (st != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    return jmissing(j, seen, 3, names, 2);
}

/* InclusionPath {"path": [elements]} covering levels first .. first + count − 1 */
static cuzk_status jincl(jp *j, const cuzk_fil_shape *s, cuzk_fil_merkle_proof *m, unsigned first_level, unsigned count)
{
    static const char *const names[1] = {"path"};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        if (key_index(names, 1, key) < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, 0, key)) != CUZK_OK) return st;
        fil_push(&j->path, "path", -1);
        jpath_ctx c = {s, m, first_level, NULL};
        if ((st = jarray(j, count, count == 1 ? "path element" : "path elements", path_elem, &c)) != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    return jmissing(j, seen, 1, names, 1);
}

/* the variant object's members: which are needed for each variant */
static const char *const merkle_names[6] = {"root", "leaf", "path", "base_proof", "sub_proof", "top_proof"};
static const unsigned merkle_need[3] = {0x07, 0x1b, 0x3b};

static cuzk_status jvariant(jp *j, const cuzk_fil_shape *s, cuzk_fil_merkle_proof *m, unsigned kind)
{
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(merkle_names, 6, key);
        if (k < 0 || !(merkle_need[kind] & (1u << k))) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, k, key)) != CUZK_OK) return st;
        fil_push(&j->path, merkle_names[k], -1);
        switch (k) {
        case 0: st = jnode(j, m->root, true); break;
        case 1: st = jnode(j, m->leaf, true); break;
        case 2:
        case 3: st = jincl(j, s, m, 0, s->base_levels); break;
        case 4: st = jincl(j, s, m, s->base_levels, 1); break;
        default: st = jincl(j, s, m, s->base_levels + 1u, 1); break;
        }
        if (st != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    return jmissing(j, seen, merkle_need[kind], merkle_names, 6);
}

/* {"Single" | "Sub" | "Top": {...}}: exactly one member, the variant the shape needs */
static cuzk_status jmerkle_data(jp *j, const cuzk_fil_shape *s, cuzk_fil_merkle_proof *m)
{
    static const char *const variants[3] = {"Single", "Sub", "Top"};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    char key[JKEY];
    int r = jobj_next(j, &first, key);
    if (r < 0) return j->ss->st;
    if (r == 0) return jfail(j, CUZK_ERR_BAD_JSON, "expected one of Single, Sub, Top; the object is empty");
    int k = key_index(variants, 3, key);
    unsigned want = cuzk_fil_shape_kind(s);
    if (k < 0) return jfail(j, CUZK_ERR_BAD_HEADER, "unknown MerkleProof variant '%s' (Single, Sub, Top)", key);
    if ((unsigned)k != want)
        return jfail(j, CUZK_ERR_MISMATCH, "variant %s, the tree (%u-%u-%u) needs %s", key, s->base, s->sub, s->top,
                     variants[want]);
    m->kind = (uint8_t)k;
    m->levels = (uint8_t)cuzk_fil_shape_levels(s);
    fil_push(&j->path, variants[k], -1);
    if ((st = jvariant(j, s, m, (unsigned)k)) != CUZK_OK) return st;
    fil_pop(&j->path);
    r = jobj_next(j, &first, key);
    if (r < 0) return j->ss->st;
    if (r == 1) return jfail(j, CUZK_ERR_BAD_JSON, "more than one variant ('%s' after '%s')", key, variants[k]);
    return CUZK_OK;
}

/* MerkleProof {"data": {...}} */
static cuzk_status jmerkle(jp *j, const cuzk_fil_shape *s, uint64_t nodes, cuzk_fil_merkle_proof *m)
{
    static const char *const names[1] = {"data"};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        if (key_index(names, 1, key) < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, 0, key)) != CUZK_OK) return st;
        fil_push(&j->path, "data", -1);
        if ((st = jmerkle_data(j, s, m)) != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    if ((st = jmissing(j, seen, 1, names, 1)) != CUZK_OK) return st;
    return jkeep(j, cuzk_fil_merkle_finish(m, s, nodes, &j->path, j->ss->err));
}

static cuzk_status jmerkle_field(jp *j, const char *name, const cuzk_fil_shape *s, uint64_t nodes,
                                 cuzk_fil_merkle_proof *m)
{
    fil_push(&j->path, name, -1);
    cuzk_status st = jmerkle(j, s, nodes, m);
    fil_pop(&j->path);
    return st;
}

/* ---- one challenge's stacked::Proof ------------------------------------------------------------------------------ */

typedef struct {
    const cuzk_fil_proof *g;
    cuzk_fil_porep_challenge *c;
    uint64_t label_node[16]; /* node of each labeling proof (layers <= 11) */
    uint64_t enc_node;
} jch_ctx;

/* Column {"index": u32, "rows": [layers nodes], "_h": null} */
static cuzk_status jcolumn_inner(jp *j, const cuzk_fil_proof *g, cuzk_fil_column_proof *col)
{
    static const char *const names[2] = {"index", "rows"};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(names, 2, key);
        if (k < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, k, key)) != CUZK_OK) return st;
        fil_push(&j->path, names[k], -1);
        uint64_t v = 0;
        if (k == 0) st = juint(j, UINT32_MAX, &v), col->index = (uint32_t)v;
        else st = jnodes(j, col->rows, g->layers);
        if (st != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    return jmissing(j, seen, 3, names, 2);
}

/* ColumnProof {"column": Column, "inclusion_proof": MerkleProof} */
static cuzk_status jcolumn(jp *j, const cuzk_fil_proof *g, cuzk_fil_column_proof *col)
{
    static const char *const names[2] = {"column", "inclusion_proof"};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(names, 2, key);
        if (k < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, k, key)) != CUZK_OK) return st;
        fil_push(&j->path, names[k], -1);
        st = k == 0 ? jcolumn_inner(j, g, col) : jmerkle(j, &g->tree_r, g->nodes, &col->proof);
        if (st != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    if ((st = jmissing(j, seen, 3, names, 2)) != CUZK_OK) return st;
    if (col->proof.leaf_index != col->index)
        return jfail(j, CUZK_ERR_MISMATCH, "column.index %u, its inclusion_proof opens leaf %llu", col->index,
                     (unsigned long long)col->proof.leaf_index);
    return CUZK_OK;
}

static cuzk_status drg_elem(jp *j, uint32_t i, void *ctx)
{
    jch_ctx *c = ctx;
    return jcolumn(j, c->g, &c->c->drg[i]);
}

static cuzk_status exp_elem(jp *j, uint32_t i, void *ctx)
{
    jch_ctx *c = ctx;
    return jcolumn(j, c->g, &c->c->exp[i]);
}

/* ReplicaColumnProof {"c_x", "drg_parents": [6], "exp_parents": [8]} */
static cuzk_status jreplica_columns(jp *j, jch_ctx *c)
{
    static const char *const names[3] = {"c_x", "drg_parents", "exp_parents"};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(names, 3, key);
        if (k < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, k, key)) != CUZK_OK) return st;
        fil_push(&j->path, names[k], -1);
        if (k == 0) st = jcolumn(j, c->g, &c->c->c_x);
        else if (k == 1) st = jarray(j, CUZK_FIL_DRG_PARENTS, "columns", drg_elem, c);
        else st = jarray(j, CUZK_FIL_EXP_PARENTS, "columns", exp_elem, c);
        if (st != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    return jmissing(j, seen, 7, names, 3);
}

/* LabelingProof / EncodingProof {"parents": [37], "layer_index": layer, "node": u64} */
static cuzk_status jlabel(jp *j, const cuzk_fil_node *parents, uint32_t layer, uint64_t *node)
{
    static const char *const names[3] = {"parents", "layer_index", "node"};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(names, 3, key);
        if (k < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, k, key)) != CUZK_OK) return st;
        fil_push(&j->path, names[k], -1);
        uint64_t v = 0;
        if (k == 0) {
            st = jnodes(j, parents, CUZK_FIL_LABEL_PARENTS);
        } else if (k == 1) {
            st = juint(j, UINT32_MAX, &v);
            if (st == CUZK_OK && v != layer)
                st = jfail(j, CUZK_ERR_MISMATCH, "expected %u found %llu", layer, (unsigned long long)v);
        } else {
            st = juint(j, UINT64_MAX, node);
        }
        if (st != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    return jmissing(j, seen, 7, names, 3);
}

static cuzk_status label_elem(jp *j, uint32_t i, void *ctx)
{
    jch_ctx *c = ctx;
    return jlabel(j, c->c->labeling + (size_t)i * CUZK_FIL_LABEL_PARENTS, i + 1, &c->label_node[i]);
}

static const char *const proof_names[5] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                           "labeling_proofs", "encoding_proof"};

static cuzk_status jchallenge(jp *j, const cuzk_fil_proof *g, cuzk_fil_porep_challenge *ch)
{
    jch_ctx c = {g, ch, {0}, 0};
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(proof_names, 5, key);
        if (k < 0) {
            if ((st = jskip(j, 0)) != CUZK_OK) return st;
            continue;
        }
        if ((st = jseen(j, &seen, k, key)) != CUZK_OK) return st;
        fil_push(&j->path, proof_names[k], -1);
        switch (k) {
        case 0: st = jmerkle(j, &g->tree_d, g->nodes, &ch->comm_d); break;
        case 1: st = jmerkle(j, &g->tree_r, g->nodes, &ch->comm_r_last); break;
        case 2: st = jreplica_columns(j, &c); break;
        case 3: st = jarray(j, g->layers, "labeling proofs (one per layer)", label_elem, &c); break;
        default: st = jlabel(j, ch->encoding, g->layers, &c.enc_node); break;
        }
        if (st != CUZK_OK) return st;
        fil_pop(&j->path);
    }
    if (r < 0) return j->ss->st;
    if ((st = jmissing(j, seen, 0x1f, proof_names, 5)) != CUZK_OK) return st;
    if ((st = jkeep(j, cuzk_fil_c1_check_challenge(g, ch, &j->path, j->ss->err))) != CUZK_OK) return st;
    for (uint32_t l = 0; l < g->layers; l++) {
        if (c.label_node[l] != ch->node) {
            fil_push(&j->path, "labeling_proofs", l);
            fil_push(&j->path, "node", -1);
            return jfail(j, CUZK_ERR_MISMATCH, "expected %llu (the challenge) found %llu", (unsigned long long)ch->node,
                         (unsigned long long)c.label_node[l]);
        }
    }
    if (c.enc_node != ch->node) {
        fil_push(&j->path, "encoding_proof", -1);
        fil_push(&j->path, "node", -1);
        return jfail(j, CUZK_ERR_MISMATCH, "expected %llu (the challenge) found %llu", (unsigned long long)ch->node,
                     (unsigned long long)c.enc_node);
    }
    return CUZK_OK;
}

/* ---- the document ------------------------------------------------------------------------------------------------ */

typedef struct {
    cuzk_fil_c1 *out;
    fil_c1b cb;
    const cuzk_fil_proof *proof; /* registered_proof, once read */
} c1_state;

/* the VanillaSealProof variants: only V1 names exist, whatever the registered proof's version */
static const char *const variant_names[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                                             "StackedDrg32GiBV1", "StackedDrg64GiBV1"};

static cuzk_status challenge_elem(jp *j, uint32_t i, void *ctx)
{
    (void)i;
    c1_state *cs = ctx;
    cuzk_fil_porep_challenge *c = cuzk_fil_c1b_add(&cs->cb);
    if (c == NULL) return jfail(j, CUZK_ERR_NOMEM, "out of memory");
    return jchallenge(j, cs->cb.geom, c);
}

/* [[Proof; challenges]; partitions] */
static cuzk_status jpartitions(jp *j, c1_state *cs)
{
    const cuzk_fil_proof *g = cs->cb.geom;
    uint32_t max = cs->proof != NULL ? cs->proof->partitions : cuzk_fil_c1_max_partitions(g);
    cuzk_status st = jchar(j, '[', "'['");
    if (st != CUZK_OK) return st;
    bool first = true;
    uint64_t count = 0;
    int r;
    while ((r = jarr_next(j, &first)) == 1) {
        fil_index(&j->path, (int64_t)count);
        if (count < max) {
            fil_push(&j->path, NULL, -1);
            st = jarray(j, g->challenges, "challenges", challenge_elem, cs);
            fil_pop(&j->path);
            cs->cb.partitions++;
        } else {
            st = jskip(j, 0);
        }
        if (st != CUZK_OK) return st;
        count++;
    }
    fil_index(&j->path, -1);
    if (r < 0) return j->ss->st;
    if (count > max)
        return jfail(j, CUZK_ERR_BAD_LENGTH, "expected at most %u partitions found %llu", max,
                     (unsigned long long)count);
    return CUZK_OK;
}

/* {"StackedDrg32GiBV1": partitions}: the variant names the sector size and so the shapes */
static cuzk_status jvanilla(jp *j, c1_state *cs)
{
    cuzk_status st = jchar(j, '{', "'{'");
    if (st != CUZK_OK) return st;
    bool first = true;
    char key[JKEY];
    int r = jobj_next(j, &first, key);
    if (r < 0) return j->ss->st;
    if (r == 0) return jfail(j, CUZK_ERR_BAD_JSON, "expected a VanillaSealProof variant; the object is empty");
    int k = key_index(variant_names, 5, key);
    if (k < 0) return jfail(j, CUZK_ERR_BAD_HEADER, "unknown VanillaSealProof variant '%s'", key);
    const cuzk_fil_proof *g = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, (uint64_t)k);
    if (cs->proof != NULL && cs->proof->sector_size != g->sector_size)
        return jfail(j, CUZK_ERR_MISMATCH, "variant %s, registered_proof %s is for another sector size", key,
                     cs->proof->name);
    cs->cb.geom = g;
    fil_push(&j->path, NULL, -1); /* the variant is not part of the path: vanilla_proofs[k][i] */
    st = jpartitions(j, cs);
    fil_pop(&j->path);
    if (st != CUZK_OK) return st;
    r = jobj_next(j, &first, key);
    if (r < 0) return j->ss->st;
    if (r == 1) return jfail(j, CUZK_ERR_BAD_JSON, "more than one variant ('%s' after '%s')", key, variant_names[k]);
    return CUZK_OK;
}

static const char *const c1_names[7] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                        "replica_id",       "seed",           "ticket"};

/* One SealCommitPhase1Output member (k indexes c1_names). */
static cuzk_status jc1_member(jp *j, c1_state *cs, int k)
{
    cuzk_status st;
    fil_push(&j->path, c1_names[k], -1);
    if (k == 0) {
        char name[JKEY];
        size_t len;
        if ((st = jstring(j, name, sizeof name, &len)) != CUZK_OK) return st;
        const cuzk_fil_proof *p = len < JKEY ? cuzk_fil_proof_by_name(CUZK_FIL_CLASS_SEAL, name) : NULL;
        if (p == NULL) return jfail(j, CUZK_ERR_NOT_FOUND, "unknown RegisteredSealProof '%s'", name);
        if (cs->cb.geom != NULL && cs->cb.geom->sector_size != p->sector_size)
            return jfail(j, CUZK_ERR_MISMATCH, "%s, but the vanilla proofs are for another sector size", p->name);
        if (cs->cb.geom != NULL && cs->cb.partitions > p->partitions)
            return jfail(j, CUZK_ERR_BAD_LENGTH, "%s has %u partitions, the vanilla proofs %u", p->name, p->partitions,
                         cs->cb.partitions);
        cs->proof = p;
    } else if (k == 1) {
        if ((st = jvanilla(j, cs)) != CUZK_OK) return st;
    } else {
        uint8_t *dst[5] = {cs->out->comm_r, cs->out->comm_d, cs->out->replica_id, cs->out->seed, cs->out->ticket};
        if ((st = jnode(j, dst[k - 2], k <= 4)) != CUZK_OK) return st;
    }
    fil_pop(&j->path);
    return CUZK_OK;
}

static const char *const wrap_names[3] = {"SectorNum", "Phase1Out", "SectorSize"};

/* ---- base64 inside the envelope's Phase1Out string --------------------------------------------------------------- */

static const int8_t b64val[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 62, -1, -1, -1, 63, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61,
    -1, -1, -1, -1, -1, -1, -1, 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, -1, -1, -1, -1, -1, -1, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,
    45, 46, 47, 48, 49, 50, 51, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

#define B64_OUT (48u << 10)

typedef struct {
    jp *outer;     /* reads the string from its source; errors are recorded there */
    uint32_t quad; /* bits of the group being read */
    int nq, pad;   /* characters (padding included) and '=' in that group */
    bool padded;   /* a padded group ended: only the closing quote may follow */
    bool closed;   /* the closing quote was read */
    uint8_t buf[B64_OUT];
} b64_ctx;

/* one base64 character (or '=') into the output; false (error recorded) when it is not valid here */
static bool b64_char(b64_ctx *b, int c, uint8_t *out, size_t *n)
{
    jp *o = b->outer;
    int v = b64val[c & 0xff];
    if (b->padded || (v < 0 && c != '=') || (c != '=' && b->pad > 0) || (c == '=' && b->nq < 2)) {
        jfail(o, CUZK_ERR_BAD_JSON, "Phase1Out: invalid base64 %s 0x%02x at byte %llu",
              b->padded || b->pad > 0 || c == '=' ? "padding near" : "character", c & 0xff,
              (unsigned long long)joff(o));
        return false;
    }
    b->quad = b->quad << 6 | (uint32_t)(v < 0 ? 0 : v);
    b->pad += c == '=';
    if (++b->nq < 4) return true;
    uint8_t g[3] = {(uint8_t)(b->quad >> 16), (uint8_t)(b->quad >> 8), (uint8_t)b->quad};
    int keep = 3 - b->pad;
    /* the bits the padding drops must be zero (canonical encoding, as Rust's decoder wants) */
    if (b->pad > 0 && (b->quad & ((1u << (8 * b->pad)) - 1)) != 0) {
        jfail(o, CUZK_ERR_BAD_JSON, "Phase1Out: non-canonical base64 (dropped bits set) before byte %llu",
              (unsigned long long)joff(o));
        return false;
    }
    for (int i = 0; i < keep; i++) out[(*n)++] = g[i];
    b->padded = b->pad > 0;
    b->quad = 0;
    b->nq = b->pad = 0;
    return true;
}

static int b64_refill(jsrc *s)
{
    b64_ctx *b = s->ctx;
    jp *o = b->outer;
    jsrc *os = o->s;
    size_t n = 0;
    while (!b->closed && n + 3 <= B64_OUT) {
        if (os->p == os->end && jsrc_fill(os) <= 0) {
            jfail(o, CUZK_ERR_BAD_JSON, "Phase1Out: the string is not closed (input ends at byte %llu)",
                  (unsigned long long)joff(o));
            return -1;
        }
        /* the common case in bulk: plain base64 characters */
        const uint8_t *p = os->p, *end = os->end;
        size_t room = (B64_OUT - n) / 3 * 4;
        if ((size_t)(end - p) > room) end = p + room;
        while (p < end && b->nq == 0 && !b->padded && end - p >= 4) {
            int a = b64val[p[0]], bb = b64val[p[1]], c = b64val[p[2]], d = b64val[p[3]];
            if ((a | bb | c | d) < 0) break;
            uint32_t q = (uint32_t)a << 18 | (uint32_t)bb << 12 | (uint32_t)c << 6 | (uint32_t)d;
            b->buf[n++] = (uint8_t)(q >> 16);
            b->buf[n++] = (uint8_t)(q >> 8);
            b->buf[n++] = (uint8_t)q;
            p += 4;
        }
        os->p = p;
        if (n + 3 > B64_OUT) break;
        if (os->p == os->end) continue;
        int c = *os->p++;
        if (c == '"') {
            if (b->nq != 0) {
                jfail(o, CUZK_ERR_BAD_JSON, "Phase1Out: base64 length is not a multiple of 4 (ends at byte %llu)",
                      (unsigned long long)joff(o));
                return -1;
            }
            b->closed = true;
            break;
        }
        if (c == '\\') {
            /* JSON escapes inside the string: \/ and \u00XX may spell base64 characters */
            int e = jpeek(o);
            if (e == '/') {
                os->p++;
                c = '/';
            } else if (e == 'u') {
                os->p++;
                unsigned u = 0;
                for (int i = 0; i < 4; i++) {
                    int h = jpeek(o);
                    if (hexval(h) < 0) return jexpected(o, "4 hex digits after \\u", h), -1;
                    u = u << 4 | (unsigned)hexval(h);
                    os->p++;
                }
                c = u < 0x80 ? (int)u : 0x100; /* 0x100: no base64 character */
            } else {
                jexpected(o, "a base64 character", e < 0 ? e : '\\');
                return -1;
            }
        }
        if (!b64_char(b, c, b->buf, &n)) return -1;
    }
    s->win = s->p = b->buf;
    s->end = b->buf + n;
    return n > 0 ? 1 : 0;
}

/* ---- the top level ----------------------------------------------------------------------------------------------- */

static cuzk_status jc1_object(jp *j, c1_state *cs, bool wrapped_inner);

/* The inner SealCommitPhase1Output of Phase1Out, decoded from base64 as it is read. */
static cuzk_status jphase1(jp *o, c1_state *cs)
{
    cuzk_status st = jchar(o, '"', "a base64 string");
    if (st != CUZK_OK) return st;
    b64_ctx *b = calloc(1, sizeof *b);
    if (b == NULL) return jfail(o, CUZK_ERR_NOMEM, "out of memory");
    b->outer = o;
    jsrc in = {NULL, NULL, NULL, 0, b64_refill, b};
    jp ij = {&in, {.depth = 0}, o->ss, " of Phase1Out"};
    st = jc1_object(&ij, cs, true);
    if (st == CUZK_OK) {
        int c = jws(&ij);
        if (c >= 0) st = jexpected(&ij, "the end of Phase1Out", c);
    }
    free(b);
    return jkeep(o, st);
}

/* The top object: the envelope (wrapped_inner false: SectorNum, Phase1Out, SectorSize) or a bare
 * SealCommitPhase1Output; inside Phase1Out only the latter. */
static cuzk_status jc1_object(jp *j, c1_state *cs, bool wrapped_inner)
{
    cuzk_status st = jchar(j, '{', "'{' (a JSON object)");
    if (st != CUZK_OK) return st;
    bool first = true;
    unsigned seen = 0, wseen = 0;
    char key[JKEY];
    int r;
    while ((r = jobj_next(j, &first, key)) == 1) {
        int k = key_index(c1_names, 7, key), w = wrapped_inner ? -1 : key_index(wrap_names, 3, key);
        if (k >= 0) {
            if (wseen != 0) return jfail(j, CUZK_ERR_BAD_JSON, "'%s' beside the envelope's keys", key);
            if ((st = jseen(j, &seen, k, key)) != CUZK_OK || (st = jc1_member(j, cs, k)) != CUZK_OK) return st;
        } else if (w >= 0) {
            if (seen != 0) return jfail(j, CUZK_ERR_BAD_JSON, "'%s' beside SealCommitPhase1Output's keys", key);
            if ((st = jseen(j, &wseen, w, key)) != CUZK_OK) return st;
            fil_push(&j->path, wrap_names[w], -1);
            if (w == 0) st = juint(j, UINT64_MAX, &cs->out->sector_num);
            else if (w == 2) st = juint(j, UINT64_MAX, &cs->out->sector_size);
            else st = jphase1(j, cs);
            if (st != CUZK_OK) return st;
            fil_pop(&j->path);
        } else if ((st = jskip(j, 0)) != CUZK_OK) {
            return st;
        }
    }
    if (r < 0) return j->ss->st;
    if (wseen != 0) {
        if ((st = jmissing(j, wseen, 7, wrap_names, 3)) != CUZK_OK) return st;
        cs->out->wrapped = true;
        return CUZK_OK;
    }
    return jmissing(j, seen, 0x7f, c1_names, 7);
}

static cuzk_status parse(jsrc *src, jsess *ss, cuzk_fil_c1 *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    c1_state cs = {out, {NULL, {NULL, 0}, NULL, 0, 0, 0}, NULL};
    jp j = {src, {.depth = 0}, ss, ""};
    cuzk_status st = jc1_object(&j, &cs, false);
    if (st == CUZK_OK) {
        int c = jws(&j);
        if (c >= 0) st = jexpected(&j, "the end of the document", c);
        else st = ss->st;
    }
    if (st == CUZK_OK && out->wrapped && out->sector_size != cs.proof->sector_size) {
        char a[24], b[24];
        fil_path at = {{{"SectorSize", -1}}, 1};
        st = cuzk_fil_path_fail(err, &at, CUZK_ERR_MISMATCH, "%s, registered_proof %s is for %s sectors",
                                cuzk_fil_size_str(out->sector_size, a), cs.proof->name,
                                cuzk_fil_size_str(cs.proof->sector_size, b));
    }
    if (st != CUZK_OK) {
        cuzk_fil_c1b_free(&cs.cb);
        memset(out, 0, sizeof *out);
        return st;
    }
    bool wrapped = out->wrapped;
    uint64_t num = out->sector_num, size = out->sector_size;
    out->proof = cs.proof;
    st = cuzk_fil_c1b_finish(&cs.cb, out, err);
    if (st != CUZK_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    out->wrapped = wrapped, out->sector_num = num, out->sector_size = size;
    return CUZK_OK;
}

cuzk_status cuzk_fil_c1_parse(const uint8_t *buf, size_t len, cuzk_fil_c1 *out, cuzk_errmsg *err)
{
    if (buf == NULL && len > 0) {
        memset(out, 0, sizeof *out);
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no buffer");
    }
    if (buf == NULL) buf = cuzk_fil_empty;
    jsrc src = {buf, buf + len, buf, 0, NULL, NULL};
    jsess ss = {err, CUZK_OK};
    return parse(&src, &ss, out, err);
}

#define FD_BUF (256u << 10)

typedef struct {
    int fd;
    jsess *ss;
    uint8_t buf[FD_BUF];
} fd_ctx;

static int fd_refill(jsrc *s)
{
    fd_ctx *f = s->ctx;
    for (;;) {
        ssize_t n = read(f->fd, f->buf, sizeof f->buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            sess_fail(f->ss, CUZK_ERR_IO, "read failed after byte %llu: %s", (unsigned long long)s->base,
                      strerror(errno));
            return -1;
        }
        s->win = s->p = f->buf;
        s->end = f->buf + n;
        return n > 0;
    }
}

cuzk_status cuzk_fil_c1_parse_fd(int fd, cuzk_fil_c1 *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    fd_ctx *f = malloc(sizeof *f);
    if (f == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    jsess ss = {err, CUZK_OK};
    f->fd = fd;
    f->ss = &ss;
    jsrc src = {f->buf, f->buf, f->buf, 0, fd_refill, f};
    cuzk_status st = parse(&src, &ss, out, err);
    free(f);
    return st;
}

cuzk_status cuzk_fil_c1_parse_file(const char *path, cuzk_fil_c1 *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return cuzk_fail(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    cuzk_status st = cuzk_fil_c1_parse_fd(fd, out, err);
    close(fd);
    return st;
}
