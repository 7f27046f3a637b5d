/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The GPU's multiplication rates for the floor (floor.h): the `gpu_fr_mul_eo`, `gpu_fp_mul_eo` and `gpu_fp2_mul_eo`
 * throughputs of the lab, the multiplications the NTT, G1 and G2 kernels use, back to back on the whole device. */
#include "floor.h"
#include "cuzk/gpu.h"
#include "gpu_lab.h"

bool floor_rates_gpu(floor_rates *r)
{
    const size_t threads = (size_t)1 << 20;
    double ns[3];
    static const cuzk_gpu_lab_ff_op ops[3] = {CUZK_GPU_LAB_FR_MUL_EO, CUZK_GPU_LAB_FP_MUL_EO, CUZK_GPU_LAB_FP2_MUL_EO};
    for (int i = 0; i < 3; i++)
        if (cuzk_gpu_lab_ff_throughput(ops[i], threads, 256, &ns[i]) != CUZK_OK) return false;
    r->fr_ps = ns[0] * 1e3, r->fp_ps = ns[1] * 1e3, r->fp2_ps = ns[2] * 1e3;
    return true;
}
