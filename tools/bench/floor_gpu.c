/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The arithmetic floor of the GPU targets (`cuzk-bench micro --gpu --filter gpu_floor`): the time their field
 * multiplications alone take at the rate this device reaches for them, with every other instruction free; the
 * counts and rates are tools/common/floor.c's and floor_gpu.c's.
 *
 * Lines: gpu_floor_rate_{fr,fp,fp2} (ps), then gpu_floor_ntt and gpu_floor_{g1,g2}_msm (ms) with the multiplication
 * count, and the goal and its sppark reference where it names them. prove_gpu.c adds gpu_prove_floor. */
#include <stdio.h>

#include "bench.h"
#include "floor.h"
#include "cuzk/gpu.h"

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
    if (!floor_rates_gpu(&r)) {
        fprintf(stderr, "cuzk-bench: gpu_floor: %s\n", cuzk_gpu_last_error());
        return;
    }
    bench_gpu_line("gpu_floor_rate_fr", 1, r.fr_ps, "ps", NULL);
    bench_gpu_line("gpu_floor_rate_fp", 1, r.fp_ps, "ps", NULL);
    bench_gpu_line("gpu_floor_rate_fp2", 1, r.fp2_ps, "ps", NULL);
    static const char *const names[] = {"gpu_floor_ntt", "gpu_floor_g1_msm", "gpu_floor_g2_msm"};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        uint64_t n = (uint64_t)1 << targets[i].log2;
        int kind = targets[i].kind;
        double muls = kind == FLOOR_NTT ? floor_ntt_muls(targets[i].log2) : floor_msm_muls(n);
        double ms = floor_ms(muls, kind == FLOOR_NTT ? r.fr_ps : kind == FLOOR_G1 ? r.fp_ps : r.fp2_ps);
        char extra[160];
        snprintf(extra, sizeof extra,
                 ", \"muls\": %.4g, \"goal_ms\": %.2f, \"sppark_ms\": %.2f, \"goal_over_floor\": %.3f", muls,
                 targets[i].goal, targets[i].sppark, targets[i].goal / ms);
        bench_gpu_line(names[kind], n, ms, "ms", extra);
    }
}
