/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the GPU checks share (plain C, no test framework: the GPU machine has no cmocka): pass/fail counting, a
 * seeded generator (seed printed, replay with CUZK_TEST_SEED), and the start every check makes: exit code 77 (CTest's
 * skip) with a visible message when there is no CUDA device. Header-only: each check is one translation unit. */
#ifndef CUZK_GPU_TESTUTIL_H
#define CUZK_GPU_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cuzk/gpu.h"

static int g_pass, g_fail;
static uint64_t g_rng;

static uint64_t rnd(void)
{
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ULL); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(cuzk_fr_t *r)
{
    uint64_t l[CUZK_FR_LIMBS];
    for (int i = 0; i < CUZK_FR_LIMBS; i++) l[i] = rnd();
    cuzk_fr_from_limbs_reduce(r, l);
}

/* counts one check; a failure prints what (and detail, when not NULL) */
static void check_detail(int ok, const char *what, const char *detail)
{
    if (ok) {
        g_pass++;
        return;
    }
    g_fail++;
    printf("FAIL: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    fflush(stdout);
}

static void check(int ok, const char *what) { check_detail(ok, what, NULL); }

/* 0 to go on; else the exit code (77 when there is no device) */
static int gpu_test_start(void)
{
    if (cuzk_gpu_device_count() <= 0) {
        printf("SKIPPED: no CUDA device\n");
        return 77;
    }
    char name[256];
    if (cuzk_gpu_device_name(name, sizeof name) == CUZK_OK) printf("device: %s\n", name);
    const char *env = getenv("CUZK_TEST_SEED");
    g_rng = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    printf("seed: %llu (replay with CUZK_TEST_SEED)\n", (unsigned long long)g_rng);
    return 0;
}

static int gpu_test_finish(void)
{
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}

#endif
