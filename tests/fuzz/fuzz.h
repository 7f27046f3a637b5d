/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The fuzz targets' table entry and their seed makers (tests/fuzz/seeds.c). */
#ifndef CUZK_TESTS_FUZZ_H
#define CUZK_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"

typedef struct {
    const char *name;
    void (*run)(const uint8_t *data, size_t size);
    int (*seeds)(const char *dir); /* writes valid inputs into dir: how many, or -1 */
} fuzz_target;

int fuzz_seeds_params(const char *dir);
int fuzz_seeds_vk(const char *dir);
int fuzz_seeds_zkey(const char *dir);
int fuzz_seeds_wtns(const char *dir);
int fuzz_seeds_r1cs(const char *dir);
int fuzz_seeds_pce(const char *dir);
int fuzz_seeds_ptau(const char *dir);
int fuzz_seeds_proof_json(const char *dir);
int fuzz_seeds_public_json(const char *dir);
int fuzz_seeds_vk_json(const char *dir);
int fuzz_seeds_proof_bin(const char *dir);
int fuzz_seeds_detect(const char *dir);
int fuzz_seeds_grpc(const char *dir);

#endif
