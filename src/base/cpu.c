/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Which instruction-set path the CPU kernels take: detected once at start-up (CPUID, and XGETBV for the OS side of
 * AVX-512), overridable by CUZK_CPU_PATH and by cuzk_cpu_path_set. */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/base.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define CPU_X86 1
#endif

/* Portable until the constructor below has run: every path computes the same results, so a kernel that runs
 * before it (another constructor) is only slower. */
cuzk_cpu_path cuzk_cpu_path_current = CUZK_CPU_PORTABLE;

static const char *const PATH_NAMES[CUZK_CPU_PATH_COUNT] = {"portable", "adx", "ifma"};

#ifdef CPU_X86
static uint64_t cpu_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}
#endif

static cuzk_cpu_path cpu_detect(void)
{
#ifdef CPU_X86
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 7) return CUZK_CPU_PORTABLE;
    __cpuid(1, a, b, c, d);
    bool osxsave = (c >> 27) & 1;
    __cpuid_count(7, 0, a, b, c, d);
    bool bmi2 = (b >> 8) & 1, adx = (b >> 19) & 1;
    bool avx512 = ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 21) & 1); /* F, DQ, IFMA */
    if (!bmi2 || !adx) return CUZK_CPU_PORTABLE;
    /* XCR0: SSE (1), AVX (2), opmask (5), upper halves of ZMM0-15 (6), ZMM16-31 (7) saved by the OS */
    if (avx512 && osxsave && (cpu_xgetbv0() & 0xe6) == 0xe6) return CUZK_CPU_IFMA;
    return CUZK_CPU_ADX;
#else
    return CUZK_CPU_PORTABLE;
#endif
}

static cuzk_cpu_path cpu_best = CUZK_CPU_PORTABLE;

__attribute__((constructor)) static void cpu_path_init(void)
{
    cpu_best = cpu_detect();
    /* Valgrind's emulated CPUID hides ADX although it executes ADCX/ADOX: CUZK_CPU_UNCHECKED=1 takes CUZK_CPU_PATH
     * at its word, so that callgrind can count the instructions of the fast paths. */
    const char *unchecked = getenv("CUZK_CPU_UNCHECKED");
    if (unchecked != NULL && strcmp(unchecked, "1") == 0) cpu_best = CUZK_CPU_IFMA;
    cuzk_cpu_path p = cpu_best;
    const char *env = getenv("CUZK_CPU_PATH");
    if (env != NULL && env[0] != '\0') {
        cuzk_cpu_path want;
        if (cuzk_cpu_path_parse(env, &want) != CUZK_OK) {
            fprintf(stderr, "cuzk: CUZK_CPU_PATH=%s is not portable, adx, ifma or auto; using %s\n", env,
                    PATH_NAMES[p]);
        } else if (want > cpu_best) {
            fprintf(stderr, "cuzk: CUZK_CPU_PATH=%s: this processor lacks it; using %s\n", env, PATH_NAMES[p]);
        } else {
            p = want;
        }
    }
    cuzk_cpu_path_current = p;
}

cuzk_cpu_path cuzk_cpu_path_best(void) { return cpu_best; }

cuzk_status cuzk_cpu_path_set(cuzk_cpu_path p)
{
    if ((unsigned)p >= CUZK_CPU_PATH_COUNT) return CUZK_ERR_INVALID_ARG;
    if (p > cpu_best) return CUZK_ERR_UNSUPPORTED;
    cuzk_cpu_path_current = p;
    return CUZK_OK;
}

const char *cuzk_cpu_path_name(cuzk_cpu_path p) { return (unsigned)p < CUZK_CPU_PATH_COUNT ? PATH_NAMES[p] : "?"; }

cuzk_status cuzk_cpu_path_parse(const char *name, cuzk_cpu_path *p)
{
    if (name == NULL) return CUZK_ERR_INVALID_ARG;
    if (strcmp(name, "auto") == 0) {
        *p = cpu_best;
        return CUZK_OK;
    }
    for (unsigned i = 0; i < CUZK_CPU_PATH_COUNT; i++) {
        if (strcmp(name, PATH_NAMES[i]) == 0) {
            *p = (cuzk_cpu_path)i;
            return CUZK_OK;
        }
    }
    return CUZK_ERR_INVALID_ARG;
}
