/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Helpers of the circuit tests: run one circuit function in every mode and compare. */
#ifndef CUZK_TESTS_CIRC_TEST_H
#define CUZK_TESTS_CIRC_TEST_H

#include "cuzk/circuits.h"

/* A circuit under test: synthesizes into cs (any mode) from ctx. */
typedef void (*circ_fn)(cuzk_cs *cs, void *ctx);

typedef struct {
    cuzk_r1cs_t *r; /* the SHAPE mode's system */
    cuzk_fr_t *z;   /* the WITNESS mode's assignment, [inputs | aux] */
} circ_run;

/* SHAPE, then WITNESS into a z sized from the shape (which must then satisfy it: cuzk_r1cs_check), then CHECK (the
 * same identity and assignment, no unsatisfied row) and COUNT (the same counts). Fails the test otherwise. */
void circ_run_all(circ_fn fn, void *ctx, circ_run *out);
void circ_run_free(circ_run *run);
/* CHECK mode alone: its status, err filled. */
cuzk_status circ_check(circ_fn fn, void *ctx, cuzk_errmsg *err);
/* COUNT mode alone. */
void circ_count(circ_fn fn, void *ctx, cuzk_cs_counts *out);
/* The path of row `row`, by rerunning fn in WITNESS mode with the row watched (malloc'd; NULL when never enforced). */
char *circ_row_path(circ_fn fn, void *ctx, uint64_t row);
/* Mutable access to a value in CHECK or WITNESS mode, to corrupt a witness mid-synthesis. */
cuzk_fr_t *circ_value(cuzk_cs *cs, cuzk_var v);

/* The groups of the test executable. */
int test_group_synthetic(void);
int test_group_cs(void);
int test_group_gadgets(void);
int test_group_sha256(void);
int test_group_por(void);
int test_group_poseidon_gadget(void);

#endif
