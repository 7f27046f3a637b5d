/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Synthetic PoRep-shaped circuits (see circuits.h), built straight into CSR arrays.
 *
 * The rows are cut into blocks of BLOCK_ROWS. A block draws its gadgets from its own random stream (seeded by the
 * circuit seed and the block index) and references only its own variables, ONE and the inputs, so blocks can be
 * generated in any order by any thread and still give the same bytes. Every gadget row allocates exactly one new
 * aux variable, which fixes each block's first column in advance; only the last block ends with the rows that
 * bind the public inputs, which allocate none.
 *
 * Generation runs twice over every block: a counting pass that only sizes each block's entries (the structure never
 * depends on witness values, and both passes draw the same random numbers), then a filling pass that writes the
 * rows and computes the witness into arrays sized exactly. That keeps memory at what the system itself holds, which
 * matters at 2^27 rows. A witness alone (cuzk_circuits_synthetic_witness) is one pass that writes no rows.
 *
 * Two random streams per block: the structure stream (circuit seed) picks gadgets and operands; the witness stream
 * (witness seed) gives the free values, the random field values that tobits splits into bits and the lone bits. Every
 * other value follows from those, so any witness seed gives a satisfying witness of the same system. The structure
 * stream still draws (and drops) the free values' random numbers, so that the system of a seed is what it was before
 * the streams were separated.
 *
 * The gadget mix (constants below, tuned against the targets in circuits.h by the tests' statistics):
 *   tobits    255 boolean constraints (1 − b)·b = 0 over the bits of a random field value v, then v·1 = Σ 2^i b_i
 *   sha run   XOR rows (2x)·y = x + y − c and AND rows x·y = c: y an allocated bit, x preferably a result not yet
 *             used in A, so that results chain as in SHA-256
 *   pack      Σ 2^i x_i · 1 = v over up to 254 recent bits, the pending results first; v is a field value
 *   poseidon  rounds x·x = x2, x2·x2 = x4, x4·x = x5, (rc + m·z + x5)·1 = y, chaining y into the next round */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"

#define BLOCK_ROWS 8192u
#define BIT_RING 256u  /* recent bit variables, for operands and pack fillers */
#define BPOOL_RING 64u /* recent allocated bits (already in B): the B operands */
#define FIELD_RING 32u /* recent field values */
#define PEND_CAP 512u  /* bits and field values produced but not yet used in A */

/* the gadget mix, per mille / percent / ranges */
#define MIX_TOBITS 185   /* per mille of the rows: tobits gadgets */
#define MIX_POSEIDON 126 /* per mille of the rows: poseidon rounds; the rest are sha runs and packs */
#define SHA_RUN_MIN 16
#define SHA_RUN_MAX 64
#define SHA_XOR_PCT 89 /* XOR rows among sha rows; the rest AND */
#define SHA_PENDING_PCT 50
#define A_PER_KROW 2400 /* after a sha run, pack while A has fewer entries than this per 1000 rows */
#define PACK_MIN 128
#define PACK_MAX 254
#define PACK_FORCE 96
#define POSEIDON_ROUNDS_MIN 4
#define POSEIDON_ROUNDS_MAX 8

/* Provisional coefficient ids (cuzk_r1cs_adopt renumbers them canonically): 1, -1, 2^1 .. 2^254, then Poseidon-like
 * round constants and mixing factors, fixed for every circuit. */
#define ID_ONE 0u
#define ID_MINUS_ONE 1u
#define ID_POW2(i) ((i) == 0 ? ID_ONE : 1u + (uint32_t)(i))
#define NUM_RC 64u
#define NUM_MIX 16u
#define ID_RC 256u
#define ID_MIX (ID_RC + NUM_RC)
#define NUM_COEFS (ID_MIX + NUM_MIX)

/* variable flags within a block */
#define F_IN_A 1u
#define F_TAKEN 2u

typedef enum {
    PASS_COUNT,   /* sizes each block's entries into blk_nnz */
    PASS_FILL,    /* writes the rows at the blk_nnz offsets, and the witness */
    PASS_WITNESS, /* writes the witness only */
} pass_kind;

typedef struct {
    uint32_t ni;
    uint64_t rows, nblocks;
    uint64_t seed, witness_seed;
    cuzk_fr_t coefs[NUM_COEFS];
    uint64_t *blk_nnz; /* 3 per block: entry counts after the counting pass, then start offsets */
    /* outputs: rows (PASS_FILL), witness (PASS_FILL, PASS_WITNESS) */
    uint64_t *row_ptr[3];
    uint32_t *col[3], *coef[3];
    cuzk_fr_t *z;
    pass_kind pass;
    _Atomic uint64_t next_block;
    atomic_bool failed; /* a worker could not allocate its block state */
} plan;

typedef struct {
    uint32_t v[PEND_CAP];
    uint32_t n;
} stack;

typedef struct {
    uint32_t *v;
    uint32_t size;
    uint64_t count;
} ring;

typedef struct {
    const plan *pl;
    uint64_t rng;    /* structure stream */
    uint64_t wrng;   /* witness stream */
    uint64_t row;    /* global index of the next row */
    uint64_t pos[3]; /* next entry of each matrix */
    uint32_t base;   /* first aux column of the block */
    uint32_t next_var;
    uint8_t flags[BLOCK_ROWS];
    uint8_t bitval[BLOCK_ROWS];
    uint32_t bit_store[BIT_RING], bpool_store[BPOOL_RING], field_store[FIELD_RING];
    ring bits, bpool, fields;
    stack pend_bits, pend_fields;
    uint32_t scratch[PACK_MAX];
} blk;

/* ---- randomness -------------------------------------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* xorshift64*: fast, and quality is no concern here beyond avoiding obvious patterns */
static inline uint64_t xorshift(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545f4914f6cdd1dULL;
}

static inline uint64_t rnd(blk *b) { return xorshift(&b->rng); }

/* a free witness value's random bits: drawn from both streams (see the top of the file), the witness stream's used */
static inline uint64_t rnd_free(blk *b)
{
    (void)xorshift(&b->rng);
    return xorshift(&b->wrng);
}

/* uniform-enough in [0, n) for the small n used here */
static inline uint32_t rnd_below(blk *b, uint32_t n) { return (uint32_t)(((rnd(b) >> 32) * n) >> 32); }
static inline uint32_t rnd_range(blk *b, uint32_t lo, uint32_t hi) { return lo + rnd_below(b, hi - lo + 1); }

/* ---- pools ------------------------------------------------------------------------------------------------------- */

static inline void ring_push(ring *r, uint32_t v) { r->v[r->count++ % r->size] = v; }
static inline uint32_t ring_avail(const ring *r) { return r->count < r->size ? (uint32_t)r->count : r->size; }
/* the k-th most recent entry, k < ring_avail */
static inline uint32_t ring_back(const ring *r, uint32_t k) { return r->v[(r->count - 1 - k) % r->size]; }
static inline uint32_t ring_pick(blk *b, const ring *r) { return ring_back(r, rnd_below(b, ring_avail(r))); }

static inline uint8_t *flag(blk *b, uint32_t var) { return &b->flags[var - b->base]; }

/* ---- emitting rows ----------------------------------------------------------------------------------------------- */

static inline void put(blk *b, int k, uint32_t col, uint32_t id)
{
    if (b->pl->pass == PASS_FILL) {
        b->pl->col[k][b->pos[k]] = col;
        b->pl->coef[k][b->pos[k]] = id;
    }
    b->pos[k]++;
}

static inline void end_row(blk *b)
{
    b->row++;
    if (b->pl->pass == PASS_FILL)
        for (int k = 0; k < 3; k++) b->pl->row_ptr[k][b->row] = b->pos[k];
}

static inline uint32_t new_var(blk *b)
{
    uint32_t v = b->next_var++;
    b->flags[v - b->base] = 0;
    return v;
}

static inline void set_bit(blk *b, uint32_t var, unsigned bit)
{
    b->bitval[var - b->base] = (uint8_t)bit;
    if (b->pl->z != NULL) {
        if (bit) cuzk_fr_set_one(&b->pl->z[var]);
        else cuzk_fr_set_zero(&b->pl->z[var]);
    }
}

static inline unsigned get_bit(blk *b, uint32_t var) { return b->bitval[var - b->base]; }

/* ---- gadgets (each returns the rows it emitted) ------------------------------------------------------------------ */

/* (1 − b)·b = 0 */
static void emit_alloc_bit(blk *b, unsigned bit)
{
    uint32_t v = new_var(b);
    set_bit(b, v, bit);
    put(b, 0, 0, ID_ONE);
    put(b, 0, v, ID_MINUS_ONE);
    put(b, 1, v, ID_ONE);
    end_row(b);
    *flag(b, v) |= F_IN_A;
    ring_push(&b->bits, v);
    ring_push(&b->bpool, v);
}

/* the 255 bits of a random field value, then v·1 = Σ 2^i b_i: 256 rows */
static void gadget_tobits(blk *b)
{
    uint64_t l[CUZK_FR_LIMBS] = {rnd_free(b), rnd_free(b), rnd_free(b), rnd_free(b)};
    cuzk_fr_t v;
    if (b->pl->z != NULL) {
        cuzk_fr_from_limbs_reduce(&v, l);
        cuzk_fr_to_limbs(l, &v);
    }
    uint32_t first = b->next_var;
    for (unsigned i = 0; i < 255; i++) emit_alloc_bit(b, (l[i / 64] >> (i % 64)) & 1);
    uint32_t out = new_var(b);
    if (b->pl->z != NULL) b->pl->z[out] = v;
    put(b, 0, out, ID_ONE);
    put(b, 1, 0, ID_ONE);
    for (unsigned i = 0; i < 255; i++) put(b, 2, first + i, ID_POW2(i));
    end_row(b);
    *flag(b, out) |= F_IN_A;
    ring_push(&b->fields, out);
}

/* one XOR or AND row over earlier bits */
static void gadget_sha_row(blk *b)
{
    uint32_t y = ring_pick(b, &b->bpool), x;
    bool from_pending = b->pend_bits.n > 0 && rnd_below(b, 100) < SHA_PENDING_PCT;
    if (from_pending) {
        x = b->pend_bits.v[--b->pend_bits.n];
    } else {
        x = ring_pick(b, &b->bits);
    }
    bool is_xor = rnd_below(b, 100) < SHA_XOR_PCT && x != y;
    uint32_t c = new_var(b);
    unsigned xv = get_bit(b, x), yv = get_bit(b, y);
    if (is_xor) {
        set_bit(b, c, xv ^ yv);
        put(b, 0, x, ID_POW2(1));
        put(b, 1, y, ID_ONE);
        put(b, 2, x < y ? x : y, ID_ONE);
        put(b, 2, x < y ? y : x, ID_ONE);
        put(b, 2, c, ID_MINUS_ONE);
    } else {
        set_bit(b, c, xv & yv);
        put(b, 0, x, ID_ONE);
        put(b, 1, y, ID_ONE);
        put(b, 2, c, ID_ONE);
    }
    end_row(b);
    *flag(b, x) |= F_IN_A;
    ring_push(&b->bits, c);
    b->pend_bits.v[b->pend_bits.n++] = c;
}

/* Sorts the n distinct block variables of b->scratch ascending through a bitmap of the block's columns: packs run
 * every few rows, and a comparison sort of up to 254 entries was a quarter of the witness generation's time. */
static void sort_block_vars(blk *b, uint32_t n)
{
    uint64_t seen[BLOCK_ROWS / 64] = {0};
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = b->scratch[i] - b->base;
        seen[d / 64] |= (uint64_t)1 << (d % 64);
    }
    uint32_t k = 0;
    for (uint32_t w = 0; w < BLOCK_ROWS / 64; w++) {
        for (uint64_t m = seen[w]; m != 0; m &= m - 1)
            b->scratch[k++] = b->base + w * 64 + (uint32_t)__builtin_ctzll(m);
    }
}

/* Σ 2^i x_i · 1 = v over the pending bits and then the most recent others, up to width bits */
static void gadget_pack(blk *b, uint32_t width)
{
    uint32_t n = 0;
    while (n < width && b->pend_bits.n > 0) {
        uint32_t v = b->pend_bits.v[--b->pend_bits.n];
        *flag(b, v) |= F_TAKEN;
        b->scratch[n++] = v;
    }
    for (uint32_t k = 0; k < ring_avail(&b->bits) && n < width; k++) {
        uint32_t v = ring_back(&b->bits, k);
        if (*flag(b, v) & F_TAKEN) continue;
        /* a result still pending beyond width stays pending: it must not be taken twice or lost */
        if (!(*flag(b, v) & F_IN_A)) continue;
        *flag(b, v) |= F_TAKEN;
        b->scratch[n++] = v;
    }
    sort_block_vars(b, n);
    uint64_t l[CUZK_FR_LIMBS] = {0};
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = b->scratch[i];
        *flag(b, v) = (uint8_t)((*flag(b, v) & ~F_TAKEN) | F_IN_A);
        l[i / 64] |= (uint64_t)get_bit(b, v) << (i % 64);
        put(b, 0, v, ID_POW2(i));
    }
    uint32_t out = new_var(b);
    if (b->pl->z != NULL) cuzk_fr_from_limbs(&b->pl->z[out], l); /* below 2^254 < r */
    put(b, 1, 0, ID_ONE);
    put(b, 2, out, ID_ONE);
    end_row(b);
    ring_push(&b->fields, out);
    if (b->pend_fields.n < PEND_CAP) b->pend_fields.v[b->pend_fields.n++] = out;
}

/* a field value that is waiting for its first use in A, else a recent one */
static uint32_t take_field(blk *b)
{
    if (b->pend_fields.n > 0) return b->pend_fields.v[--b->pend_fields.n];
    return ring_pick(b, &b->fields);
}

/* rounds x^5 + mixing; 4 rows per round */
static void gadget_poseidon(blk *b, uint32_t rounds)
{
    uint32_t x = take_field(b);
    cuzk_fr_t *z = b->pl->z;
    bool fill = z != NULL;
    for (uint32_t r = 0; r < rounds; r++) {
        uint32_t x2 = new_var(b);
        if (fill) cuzk_fr_sqr(&z[x2], &z[x]);
        put(b, 0, x, ID_ONE);
        put(b, 1, x, ID_ONE);
        put(b, 2, x2, ID_ONE);
        end_row(b);
        uint32_t x4 = new_var(b);
        if (fill) cuzk_fr_sqr(&z[x4], &z[x2]);
        put(b, 0, x2, ID_ONE);
        put(b, 1, x2, ID_ONE);
        put(b, 2, x4, ID_ONE);
        end_row(b);
        uint32_t x5 = new_var(b);
        if (fill) cuzk_fr_mul(&z[x5], &z[x4], &z[x]);
        put(b, 0, x4, ID_ONE);
        put(b, 1, x, ID_ONE);
        put(b, 2, x5, ID_ONE);
        end_row(b);
        uint32_t other = take_field(b);
        uint32_t rc = ID_RC + rnd_below(b, NUM_RC), m = ID_MIX + rnd_below(b, NUM_MIX);
        uint32_t y = new_var(b);
        if (fill) {
            cuzk_fr_t t;
            cuzk_fr_mul(&t, &b->pl->coefs[m], &z[other]);
            cuzk_fr_add(&t, &t, &b->pl->coefs[rc]);
            cuzk_fr_add(&z[y], &t, &z[x5]);
        }
        put(b, 0, 0, rc);
        put(b, 0, other, m); /* other < x5: it existed before this round */
        put(b, 0, x5, ID_ONE);
        put(b, 1, 0, ID_ONE);
        put(b, 2, y, ID_ONE);
        end_row(b);
        /* x, x2, x4, x5 and other are all in A now */
        *flag(b, other) |= F_IN_A;
        ring_push(&b->fields, y);
        x = y;
    }
    if (b->pend_fields.n < PEND_CAP) b->pend_fields.v[b->pend_fields.n++] = x;
}

/* input_i = x: x·1 = input_i, allocating nothing */
static void emit_inputize(blk *b, uint32_t input)
{
    uint32_t x = ring_avail(&b->fields) > 0 ? take_field(b) : ring_pick(b, &b->bits);
    if (b->pl->z != NULL) b->pl->z[input] = b->pl->z[x];
    put(b, 0, x, ID_ONE);
    put(b, 1, 0, ID_ONE);
    put(b, 2, input, ID_ONE);
    end_row(b);
}

static void gen_block(blk *b, uint64_t index)
{
    const plan *pl = b->pl;
    uint64_t first_row = index * BLOCK_ROWS;
    uint64_t rows = pl->rows - first_row < BLOCK_ROWS ? pl->rows - first_row : BLOCK_ROWS;
    bool last = index + 1 == pl->nblocks;
    uint64_t gadget_rows = rows - (last ? pl->ni - 1 : 0);

    b->rng = splitmix(pl->seed ^ splitmix(index + 0x5bd1e995ULL)) | 1;
    b->wrng = splitmix(pl->witness_seed ^ splitmix(index + 0x27d4eb2fULL)) | 1;
    b->row = first_row;
    b->base = pl->ni + (uint32_t)first_row;
    b->next_var = b->base;
    b->bits = (ring){b->bit_store, BIT_RING, 0};
    b->bpool = (ring){b->bpool_store, BPOOL_RING, 0};
    b->fields = (ring){b->field_store, FIELD_RING, 0};
    b->pend_bits.n = b->pend_fields.n = 0;

    uint64_t end = first_row + gadget_rows, tobits_rows = 0, poseidon_rows = 0, a_start = b->pos[0];
    while (b->row < end) {
        uint64_t left = end - b->row;
        if (b->pend_bits.n >= PACK_FORCE) {
            gadget_pack(b, rnd_range(b, PACK_MIN, PACK_MAX));
            continue;
        }
        /* each kind gets its share of the rows so far: steadier statistics than random picks of big gadgets */
        uint64_t done = b->row - first_row + 1;
        if (ring_avail(&b->bpool) == 0 || (tobits_rows * 1000 < MIX_TOBITS * done && left >= 256)) {
            if (left >= 256) {
                gadget_tobits(b);
                tobits_rows += 256;
            } else {
                emit_alloc_bit(b, (unsigned)(rnd_free(b) >> 63));
            }
        } else if (poseidon_rows * 1000 < MIX_POSEIDON * done && left >= 4 && ring_avail(&b->fields) > 0) {
            uint32_t rounds = rnd_range(b, POSEIDON_ROUNDS_MIN, POSEIDON_ROUNDS_MAX);
            if (left / 4 < rounds) rounds = (uint32_t)(left / 4);
            gadget_poseidon(b, rounds);
            poseidon_rows += 4 * rounds;
        } else {
            uint32_t run = rnd_range(b, SHA_RUN_MIN, SHA_RUN_MAX);
            if (run > left) run = (uint32_t)left;
            for (uint32_t i = 0; i < run; i++) gadget_sha_row(b);
            if (b->row < end && (b->pos[0] - a_start) * 1000 < A_PER_KROW * (b->row - first_row))
                gadget_pack(b, rnd_range(b, PACK_MIN, PACK_MAX));
        }
    }
    if (last)
        for (uint32_t i = 1; i < pl->ni; i++) emit_inputize(b, i);
}

/* ---- driver ------------------------------------------------------------------------------------------------------ */

static void gen_worker(void *arg, unsigned id)
{
    (void)id;
    plan *pl = arg;
    blk *b = malloc(sizeof *b);
    if (b == NULL) {
        atomic_store(&pl->failed, true);
        return;
    }
    b->pl = pl;
    for (;;) {
        uint64_t i = atomic_fetch_add(&pl->next_block, 1);
        if (i >= pl->nblocks) break;
        for (int k = 0; k < 3; k++) b->pos[k] = pl->pass == PASS_FILL ? pl->blk_nnz[3 * i + k] : 0;
        gen_block(b, i);
        if (pl->pass == PASS_COUNT)
            for (int k = 0; k < 3; k++) pl->blk_nnz[3 * i + k] = b->pos[k];
    }
    free(b);
}

/* Runs one pass over every block with up to `threads` workers; false when memory ran out. */
static bool gen_pass(plan *pl, unsigned threads)
{
    atomic_store(&pl->next_block, 0);
    if (threads > pl->nblocks) threads = (unsigned)pl->nblocks;
    atomic_store(&pl->failed, false);
    cuzk_par_run(threads, gen_worker, pl);
    bool ok = !atomic_load(&pl->failed);
    return ok;
}

static void make_coefs(cuzk_fr_t coefs[NUM_COEFS])
{
    cuzk_fr_set_one(&coefs[ID_ONE]);
    cuzk_fr_neg(&coefs[ID_MINUS_ONE], &coefs[ID_ONE]);
    cuzk_fr_from_u64(&coefs[ID_POW2(1)], 2);
    for (unsigned i = 2; i < 255; i++) cuzk_fr_add(&coefs[ID_POW2(i)], &coefs[ID_POW2(i - 1)], &coefs[ID_POW2(i - 1)]);
    /* fixed pseudo-random constants, the same for every circuit, like a hash function's round constants */
    uint64_t s = 0x706f736569646f6eULL;
    for (unsigned i = ID_RC; i < NUM_COEFS; i++) {
        uint64_t l[CUZK_FR_LIMBS];
        for (int j = 0; j < CUZK_FR_LIMBS; j++) l[j] = s = splitmix(s);
        cuzk_fr_from_limbs_reduce(&coefs[i], l);
    }
}

/* A plan for a 2^log2n system (NULL when out of memory); CUZK_ERR_INVALID_ARG sizes are refused before. */
static plan *plan_new(unsigned log2n, uint64_t seed, uint64_t witness_seed)
{
    plan *pl = calloc(1, sizeof *pl);
    if (pl == NULL) return NULL;
    pl->ni = CUZK_CIRCUITS_SYNTHETIC_INPUTS;
    pl->rows = (1ULL << log2n) - pl->ni;
    pl->nblocks = (pl->rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
    pl->seed = seed;
    pl->witness_seed = witness_seed;
    make_coefs(pl->coefs);
    return pl;
}

static cuzk_status check_size(unsigned log2n, unsigned *threads, cuzk_errmsg *err)
{
    if (log2n < CUZK_CIRCUITS_LOG2_MIN || log2n > CUZK_CIRCUITS_LOG2_MAX) {
        if (err != NULL)
            snprintf(err->msg, sizeof err->msg, "circuit size 2^%u outside the supported 2^%u .. 2^%u", log2n,
                     CUZK_CIRCUITS_LOG2_MIN, CUZK_CIRCUITS_LOG2_MAX);
        return CUZK_ERR_INVALID_ARG;
    }
    if (*threads == 0) *threads = 1;
    if (*threads > 1024) *threads = 1024;
    return CUZK_OK;
}

cuzk_status cuzk_circuits_synthetic(unsigned log2n, uint64_t seed, unsigned threads, cuzk_r1cs_t **cs,
                                    cuzk_fr_t **witness, cuzk_errmsg *err)
{
    *cs = NULL;
    if (witness != NULL) *witness = NULL;
    cuzk_status s = check_size(log2n, &threads, err);
    if (s != CUZK_OK) return s;
    plan *pl = plan_new(log2n, seed, seed);
    if (pl == NULL) goto nomem;
    pl->blk_nnz = malloc(pl->nblocks * 3 * sizeof *pl->blk_nnz);
    pl->pass = PASS_COUNT;
    if (pl->blk_nnz == NULL || !gen_pass(pl, threads)) goto nomem_plan;

    /* block counts -> start offsets */
    uint64_t total[3] = {0, 0, 0};
    for (uint64_t i = 0; i < pl->nblocks; i++)
        for (int k = 0; k < 3; k++) {
            uint64_t n = pl->blk_nnz[3 * i + k];
            pl->blk_nnz[3 * i + k] = total[k];
            total[k] += n;
        }
    cuzk_r1cs_parts parts = {.num_inputs = pl->ni,
                             .num_aux = (uint32_t)(pl->rows - (pl->ni - 1)),
                             .num_constraints = pl->rows,
                             .num_values = NUM_COEFS};
    uint64_t nvars = (uint64_t)parts.num_inputs + parts.num_aux;
    bool ok = true;
    for (int k = 0; k < 3; k++) {
        parts.row_ptr[k] = malloc((pl->rows + 1) * sizeof(uint64_t));
        parts.col[k] = malloc((total[k] ? total[k] : 1) * sizeof(uint32_t));
        parts.coef[k] = malloc((total[k] ? total[k] : 1) * sizeof(uint32_t));
        parts.nnz[k] = total[k];
        ok &= parts.row_ptr[k] != NULL && parts.col[k] != NULL && parts.coef[k] != NULL;
        if (parts.row_ptr[k] != NULL) parts.row_ptr[k][0] = 0;
        pl->row_ptr[k] = parts.row_ptr[k];
        pl->col[k] = parts.col[k];
        pl->coef[k] = parts.coef[k];
    }
    parts.values = malloc(NUM_COEFS * sizeof(cuzk_fr_t));
    pl->z = malloc(nvars * sizeof(cuzk_fr_t));
    ok &= parts.values != NULL && pl->z != NULL;
    if (ok) {
        memcpy(parts.values, pl->coefs, sizeof pl->coefs);
        cuzk_fr_set_one(&pl->z[0]);
        pl->pass = PASS_FILL;
        ok = gen_pass(pl, threads);
    }
    if (!ok) {
        for (int k = 0; k < 3; k++) {
            free(parts.row_ptr[k]);
            free(parts.col[k]);
            free(parts.coef[k]);
        }
        free(parts.values);
        free(pl->z);
        goto nomem_plan;
    }
    cuzk_fr_t *z = pl->z;
    free(pl->blk_nnz);
    free(pl);
    s = cuzk_r1cs_adopt(&parts, cs, err);
    if (s != CUZK_OK || witness == NULL) free(z);
    else *witness = z;
    return s;

nomem_plan:
    free(pl->blk_nnz);
    free(pl);
nomem:
    if (err != NULL) snprintf(err->msg, sizeof err->msg, "out of memory for a 2^%u circuit", log2n);
    return CUZK_ERR_NOMEM;
}

uint64_t cuzk_circuits_synthetic_num_vars(unsigned log2n)
{
    if (log2n < CUZK_CIRCUITS_LOG2_MIN || log2n > CUZK_CIRCUITS_LOG2_MAX) return 0;
    /* ni inputs and one aux per gadget row (rows − (ni − 1)), rows = 2^log2n − ni */
    return ((uint64_t)1 << log2n) - CUZK_CIRCUITS_SYNTHETIC_INPUTS + 1;
}

cuzk_status cuzk_circuits_synthetic_witness_into(unsigned log2n, uint64_t seed, uint64_t witness_seed, unsigned threads,
                                                 cuzk_fr_t *z, uint64_t len, cuzk_errmsg *err)
{
    cuzk_status s = check_size(log2n, &threads, err);
    if (s != CUZK_OK) return s;
    plan *pl = plan_new(log2n, seed, witness_seed);
    if (pl == NULL) {
        if (err != NULL) snprintf(err->msg, sizeof err->msg, "out of memory for a 2^%u witness", log2n);
        return CUZK_ERR_NOMEM;
    }
    uint64_t need = pl->ni + pl->rows - (pl->ni - 1);
    if (z == NULL || len != need) {
        free(pl);
        if (err != NULL)
            snprintf(err->msg, sizeof err->msg, "a 2^%u witness has %llu values, the buffer %llu", log2n,
                     (unsigned long long)need, (unsigned long long)len);
        return CUZK_ERR_INVALID_ARG;
    }
    cuzk_fr_set_one(&z[0]);
    pl->z = z;
    pl->pass = PASS_WITNESS;
    bool ok = gen_pass(pl, threads);
    free(pl);
    if (!ok) {
        if (err != NULL) snprintf(err->msg, sizeof err->msg, "out of memory for a 2^%u witness", log2n);
        return CUZK_ERR_NOMEM;
    }
    return CUZK_OK;
}

cuzk_status cuzk_circuits_synthetic_witness(unsigned log2n, uint64_t seed, uint64_t witness_seed, unsigned threads,
                                            cuzk_fr_t **witness, cuzk_errmsg *err)
{
    *witness = NULL;
    cuzk_status s = check_size(log2n, &threads, err);
    if (s != CUZK_OK) return s;
    uint64_t n = cuzk_circuits_synthetic_num_vars(log2n);
    cuzk_fr_t *z = malloc(n * sizeof(cuzk_fr_t));
    if (z == NULL) {
        if (err != NULL) snprintf(err->msg, sizeof err->msg, "out of memory for a 2^%u witness", log2n);
        return CUZK_ERR_NOMEM;
    }
    s = cuzk_circuits_synthetic_witness_into(log2n, seed, witness_seed, threads, z, n, err);
    if (s != CUZK_OK) {
        free(z);
        return s;
    }
    *witness = z;
    return CUZK_OK;
}

/* ---- statistics -------------------------------------------------------------------------------------------------- */

static uint64_t popcount_words(const uint64_t *w, uint64_t n)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++) c += (uint64_t)__builtin_popcountll(w[i]);
    return c;
}

void cuzk_circuits_stats_compute(const cuzk_r1cs_t *r, const cuzk_fr_t *z, cuzk_circuits_stats *st)
{
    memset(st, 0, sizeof *st);
    st->rows = r->num_constraints;
    st->inputs = r->num_inputs;
    st->aux = r->num_aux;
    st->num_values = r->num_values;
    for (int k = 0; k < 3; k++) {
        st->nnz[k] = r->m[k].nnz;
        st->per_row[k] = st->rows ? (double)st->nnz[k] / (double)st->rows : 0;
    }
    uint64_t words = (r->num_aux + 63) / 64;
    if (r->num_aux > 0) {
        st->a_aux_density = (double)popcount_words(r->a_aux_density, words) / r->num_aux;
        st->b_aux_density = (double)popcount_words(r->b_aux_density, words) / r->num_aux;
    }
    st->bit_fraction = -1;
    if (z != NULL && r->num_aux > 0) {
        uint64_t bits = 0;
        for (uint64_t j = r->num_inputs; j < cuzk_r1cs_num_vars(r); j++)
            bits += cuzk_fr_is_zero(&z[j]) || cuzk_fr_is_one(&z[j]);
        st->bit_fraction = (double)bits / r->num_aux;
    }
}
