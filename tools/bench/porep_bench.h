/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The PoRep benchmark's pieces shared by porep.c and, built with CUDA, porep_prove_gpu.c. */
#ifndef CUZK_POREP_BENCH_H
#define CUZK_POREP_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/filecoin.h"

/* One JSON line: the bench fields, the registered proof, then extra (", \"key\": value..." or NULL). */
void porep_bench_line(const char *name, const cuzk_fil_proof *p, int threads, double value, const char *unit,
                      const char *extra);
double porep_bench_cpu_s(void);
/* A /proc/self/status field in kB (0 when unknown); the peak (VmHWM) reset to the current RSS. */
uint64_t porep_bench_status_kb(const char *key);
bool porep_bench_reset_peak(void);
/* A sealed test sector's C1 (test sizes). */
bool porep_bench_test_c1(const cuzk_fil_proof *p, unsigned threads, cuzk_fil_c1 *c1, uint8_t prover_id[32],
                         uint64_t *sector_id);

#ifdef CUZK_HAVE_CUDA
void porep_bench_c2_gpu(const cuzk_fil_porep_circuit *c, const cuzk_fil_proof *p, unsigned threads);
#endif

#endif
