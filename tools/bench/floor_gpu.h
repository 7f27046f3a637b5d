/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The arithmetic floor of the GPU targets: multiplication counts of the cheapest known methods, and the device's
 * multiplication rates (floor_gpu.c). */
#ifndef CUZK_BENCH_FLOOR_GPU_H
#define CUZK_BENCH_FLOOR_GPU_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    double cuzk_fr_ps, cuzk_fp_ps, cuzk_fp2_ps; /* device time per multiplication, back to back on the whole device */
} floor_rates;

bool floor_rates_measure(floor_rates *r);
/* Fr multiplications of an NTT of size 2^log2; base-field multiplications of an MSM of n points */
double floor_ntt_muls(unsigned log2);
double floor_msm_muls(uint64_t n);
double floor_ms(double muls, double ps);

#endif
