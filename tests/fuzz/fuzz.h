/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The fuzz targets' table entry and their seed makers (tests/fuzz/seeds.c). */
#ifndef CUZK_TESTS_FUZZ_H
#define CUZK_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuits.h"
#include "cuzk/filecoin.h"
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
int fuzz_seeds_fil_post(const char *dir);
int fuzz_seeds_fil_snap(const char *dir);
int fuzz_seeds_fil_c1(const char *dir);
int fuzz_seeds_fil_c1_bin(const char *dir);
int fuzz_seeds_fil_c1_stream(const char *dir);
int fuzz_seeds_fil_commitment(const char *dir);
int fuzz_seeds_config(const char *dir);
/* The registered proof of class cls the first byte b of a Filecoin target's input picks (fuzz.c). */
const cuzk_fil_proof *fuzz_fil_pick(cuzk_fil_class cls, uint8_t b);

#endif
