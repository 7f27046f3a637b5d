/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Internals of the constraint system (cs.c, blocks.c): row storage, coefficient interning, namespaces. */
#ifndef CUZK_CIRCUITS_CS_INT_H
#define CUZK_CIRCUITS_CS_INT_H

#include <stdarg.h>

#include "cuzk/circuits.h"

struct cuzk_cs_int {
    cuzk_cs_mode mode;
    /* rows (CUZK_CS_F_ROWS), indexed by global row and non-zero numbers: own arrays grow, a block's window does not;
     * row_ptr[k][r + 1] is the end of row r in matrix k, col[k] holds variables (cuzk_var) until cuzk_cs_finish */
    uint64_t *row_ptr[3];
    uint32_t *col[3], *coef[3];
    uint64_t rows_lim, nnz_lim[3];
    bool rows_own, vals_own;
    /* a caller's z: the counts it must end with */
    bool z_bound;
    uint64_t z_inputs, z_aux;
    /* coefficients: ids 0 and 1 are 1 and -1; the others number distinct values in first-use order */
    cuzk_fr_t *vals;
    uint32_t nvals, vals_cap;
    uint32_t *slots; /* open addressing, id + 1 (0 = empty) */
    uint64_t slot_mask;
    /* sorting and merging one linear combination */
    cuzk_term *scr; /* twice the longest row: the terms, then room for a sort's gather */
    size_t scr_cap;
    uint64_t *keys; /* radix sort keys, twice the longest row */
    size_t keys_cap;
    /* namespaces (CHECK): the path and where each pushed level began */
    char *path;
    size_t plen, pcap;
    size_t *marks;
    unsigned depth, marks_cap;
    /* the first unsatisfied row (CHECK) */
    bool bad;
    uint64_t bad_row;
    char *bad_path;
    char err[256];
    /* a watched row (cuzk_cs_watch_row) and its path once enforced */
    bool watching;
    uint64_t watch_row;
    char *watch_path;
    /* a block: where its window starts (for the coefficient fix-up) and its number, for messages */
    bool is_block;
    uint64_t block;
    uint64_t row0, nnz0[3];
};

/* Interns a coefficient into cs's table; UINT32_MAX when out of memory (the cs then holds the error). */
uint32_t cuzk_cs_intern(cuzk_cs *cs, const cuzk_fr_t *c);
/* Sets up a block's cs (fields zeroed by the caller; internal state allocated once, reused by cuzk_cs_block_reset). */
cuzk_status cuzk_cs_block_init(cuzk_cs *sub, unsigned flags, cuzk_cs_mode mode);
void cuzk_cs_block_release(cuzk_cs *sub);
/* Empties the coefficient table and namespaces of a block cs for its next block. */
void cuzk_cs_block_reset(cuzk_cs *sub, const char *path);
/* Grows own row storage to hold `rows` more rows and nnz[k] more entries. */
cuzk_status cuzk_cs_reserve_rows(cuzk_cs *cs, uint64_t rows, const uint64_t nnz[3]);
/* Grows own value storage to hold inputs / aux more values. */
cuzk_status cuzk_cs_reserve_values(cuzk_cs *cs, uint64_t inputs, uint64_t aux);
void cuzk_cs_vfail(cuzk_cs *cs, cuzk_status s, const char *fmt, va_list ap);

#endif
