/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared pieces of the r1cs tests: a random circuit with a dense copy for naive evaluation, and the test lists of
 * each file (main is in test_r1cs.c). */
#ifndef CUZK_R1CS_TESTS_H
#define CUZK_R1CS_TESTS_H

#include "cuzk/r1cs.h"
#include "testutil.h"

/* A random satisfiable system: row i's C contains "out" aux variable i (only there), so z can be completed. */
typedef struct {
    uint32_t ni, na;
    uint64_t rows;
    /* every term as entered (unsorted, repeats kept): the naive reference */
    struct test_entry {
        uint64_t row;
        uint32_t col;
        uint8_t k;
        cuzk_fr_t coeff;
    } * ent;
    size_t nent;
    cuzk_fr_t *z; /* satisfying witness */
    cuzk_r1cs_t *r;
} test_circuit;

void test_circuit_make(test_circuit *t, uint32_t ni, uint32_t na_free, uint64_t rows);
void test_circuit_free(test_circuit *t);
/* Naive out[i] = Σ coeff·z[col] over the entries of matrix k. */
void test_circuit_eval(const test_circuit *t, int k, const cuzk_fr_t *z, cuzk_fr_t *out);
/* Lowest row where the entries say z is unsatisfied; UINT64_MAX when none. */
uint64_t test_circuit_first_bad(const test_circuit *t, const cuzk_fr_t *z);
bool test_r1cs_equal(const cuzk_r1cs_t *x, const cuzk_r1cs_t *y);
/* A unique temporary path (caller unlinks). */
void test_tmp_path(char *out, size_t len, const char *suffix);

extern const struct CMUnitTest test_pce_tests[];
extern const size_t test_pce_count;
extern const struct CMUnitTest test_iden3_tests[];
extern const size_t test_iden3_count;

#endif
