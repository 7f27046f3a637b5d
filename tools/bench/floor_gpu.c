/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The arithmetic floor of the GPU targets (`cuzk-bench micro --gpu --filter gpu_floor`): the time their field
 * multiplications alone take at the rate this device reaches for them, with every other instruction free.
 *
 * The counts are those of the cheapest known methods, so no kernel of this shape can beat the floor without a
 * faster multiplication:
 *   - an NTT of size 2^k is k radix-2 stages of 2^(k−1) butterflies, one multiplication each unless its twiddle is
 *     1 (the first butterfly of every block, a fraction 2^−b at the stage of blocks of 2^(b+1)): 2^(k−1)·(k − 2) + 1;
 *   - an MSM of n points over windows of c bits (signed digits, ⌈256/c⌉ windows of 2^(c−1) buckets, the c that
 *     minimises the count) adds each point into one bucket per window, less one addition for each bucket's first
 *     point, and reduces each window's buckets with at least two additions each;
 *   - an addition is at least 6 multiplications of the curve's field: the affine sum's 2M + 1S with its inversion
 *     shared by Montgomery's trick (3M), the shared inversion itself not counted.
 * The rates are the `gpu_fr_mul_eo`, `gpu_fp_mul_eo` and `gpu_fp2_mul_eo` throughputs: the multiplications the NTT,
 * G1 and G2 kernels use, measured back to back on the whole device.
 *
 * Lines: gpu_floor_rate_{fr,fp,fp2} (ps), then gpu_floor_ntt and gpu_floor_{g1,g2}_msm (ms) with the multiplication
 * count, and the goal and its sppark reference where it names them. prove_gpu.c adds gpu_prove_floor. */
#include <math.h>
#include <stdio.h>

#include "bench.h"
#include "floor_gpu.h"
#include "cuzk/gpu.h"
#include "gpu_lab.h"

#define ADD_MULS 6.0

bool floor_rates_measure(floor_rates *r)
{
    const size_t threads = (size_t)1 << 20;
    double ns[3];
    static const cuzk_gpu_lab_ff_op ops[3] = {CUZK_GPU_LAB_FR_MUL_EO, CUZK_GPU_LAB_FP_MUL_EO, CUZK_GPU_LAB_FP2_MUL_EO};
    for (int i = 0; i < 3; i++)
        if (cuzk_gpu_lab_ff_throughput(ops[i], threads, 256, &ns[i]) != CUZK_OK) return false;
    r->cuzk_fr_ps = ns[0] * 1e3, r->cuzk_fp_ps = ns[1] * 1e3, r->cuzk_fp2_ps = ns[2] * 1e3;
    return true;
}

double floor_ntt_muls(unsigned log2)
{
    if (log2 < 2) return 0;
    return ldexp(1.0, (int)log2 - 1) * (log2 - 2) + 1;
}

double floor_msm_muls(uint64_t n)
{
    if (n == 0) return 0;
    double best = -1;
    for (unsigned c = 2; c <= 30; c++) {
        double nw = (256 + c - 1) / c, buckets = nw * ldexp(1.0, (int)c - 1);
        double adds = (double)n * nw - buckets + 2 * buckets; /* into the buckets, then their reduction */
        if (best < 0 || adds < best) best = adds;
    }
    return best * ADD_MULS;
}

double floor_ms(double muls, double ps) { return muls * ps * 1e-9; }

/* the goals (half of sppark's time on this H200) and sppark's times, in ms */
enum { FLOOR_NTT, FLOOR_G1, FLOOR_G2 };
static const struct {
    int kind;
    unsigned log2;
    double goal, sppark;
} targets[] = {
    {FLOOR_NTT, 24, 2.215, 4.43}, {FLOOR_NTT, 27, 21.15, 42.3}, {FLOOR_G1, 20, 10.9, 21.8},
    {FLOOR_G1, 24, 81, 162},      {FLOOR_G1, 26, 283, 566},     {FLOOR_G1, 27, 553, 1106},
    {FLOOR_G2, 20, 24.45, 48.9},  {FLOOR_G2, 24, 230, 460},     {FLOOR_G2, 26, 820.5, 1641},
};

void bench_floor_gpu(const bench_opts *o)
{
    (void)o;
    floor_rates r;
    if (!floor_rates_measure(&r)) {
        fprintf(stderr, "cuzk-bench: gpu_floor: %s\n", cuzk_gpu_last_error());
        return;
    }
    bench_gpu_line("gpu_floor_rate_fr", 1, r.cuzk_fr_ps, "ps", NULL);
    bench_gpu_line("gpu_floor_rate_fp", 1, r.cuzk_fp_ps, "ps", NULL);
    bench_gpu_line("gpu_floor_rate_fp2", 1, r.cuzk_fp2_ps, "ps", NULL);
    static const char *const names[] = {"gpu_floor_ntt", "gpu_floor_g1_msm", "gpu_floor_g2_msm"};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        uint64_t n = (uint64_t)1 << targets[i].log2;
        int kind = targets[i].kind;
        double muls = kind == FLOOR_NTT ? floor_ntt_muls(targets[i].log2) : floor_msm_muls(n);
        double ms = floor_ms(muls, kind == FLOOR_NTT ? r.cuzk_fr_ps : kind == FLOOR_G1 ? r.cuzk_fp_ps : r.cuzk_fp2_ps);
        char extra[160];
        snprintf(extra, sizeof extra,
                 ", \"muls\": %.4g, \"goal_ms\": %.2f, \"sppark_ms\": %.2f, \"goal_over_floor\": %.3f", muls,
                 targets[i].goal, targets[i].sppark, targets[i].goal / ms);
        bench_gpu_line(names[kind], n, ms, "ms", extra);
    }
}
