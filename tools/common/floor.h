/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The arithmetic floor of a proof: the time its field multiplications alone take, counted for the cheapest known
 * methods, at a measured multiplication rate with every other instruction free (floor.c, floor_gpu.c). No prover
 * of the same method beats it without a faster multiplication; benchmarks print it beside their targets. */
#ifndef CUZK_TOOLS_FLOOR_H
#define CUZK_TOOLS_FLOOR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    double fr_ps, fp_ps, fp2_ps; /* time per multiplication, back to back (GPU: on the whole device; CPU: one core) */
} floor_rates;

/* Fr multiplications of an NTT of size 2^log2; base-field multiplications of an MSM of n points */
double floor_ntt_muls(unsigned log2);
double floor_msm_muls(uint64_t n);
double floor_ms(double muls, double ps);

/* The work of one partition's proof (cuzk_groth16_prove_stats): six transforms of 2^domain_log2, the H, L, A and
 * B1 MSMs in G1, B2 in G2. */
typedef struct {
    unsigned domain_log2;
    uint64_t points_h, points_l, points_a, points_b;
} floor_work;
/* Its floor in ms at rates r: the transforms, the H MSM, the L, A and B MSMs (B in G1 and G2), and their sum. */
typedef struct {
    double ntt_ms, h_ms, tails_ms, all_ms;
} floor_proof;
floor_proof floor_proof_ms(const floor_work *w, const floor_rates *r);

/* This CPU's rates: one core, four independent chains of the library's multiplications. */
void floor_rates_cpu(floor_rates *r);
/* This GPU's rates (floor_gpu.c, CUDA builds): the multiplications the kernels use, back to back on the whole
 * device; false with the device's error in cuzk_gpu_last_error(). */
bool floor_rates_gpu(floor_rates *r);

#endif
