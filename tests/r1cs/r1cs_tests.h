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
    fr_t *dense[3]; /* rows × (ni + na), row-major */
    fr_t *z;        /* satisfying witness */
    r1cs_t *r;
} test_circuit;

void test_circuit_make(test_circuit *t, uint32_t ni, uint32_t na_free, uint64_t rows);
void test_circuit_free(test_circuit *t);
/* Lowest row where the dense matrices say z is unsatisfied; UINT64_MAX when none. */
uint64_t test_circuit_first_bad(const test_circuit *t, const fr_t *z);
bool test_r1cs_equal(const r1cs_t *x, const r1cs_t *y);
/* A unique temporary path (caller unlinks). */
void test_tmp_path(char *out, size_t len, const char *suffix);

extern const struct CMUnitTest test_pce_tests[];
extern const size_t test_pce_count;
extern const struct CMUnitTest test_iden3_tests[];
extern const size_t test_iden3_count;

#endif
