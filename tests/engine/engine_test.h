/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared by the engine tests (test_engine.c, test_engine_devices.c: one executable). */
#ifndef CUZK_TESTS_ENGINE_TEST_H
#define CUZK_TESTS_ENGINE_TEST_H

#include "cuzk/engine.h"

/* The tests' engine: one synthesis worker and thread, one prover per device, queue depth 1, 1 GiB working memory,
 * results kept 10 min, keys under dir. */
cuzk_engine_config engine_test_cfg(const char *dir);
/* A SYNTHETIC request of `parts` partitions of a 2^log2 circuit. */
cuzk_engine_request engine_test_synth(unsigned log2, uint64_t seed, uint32_t parts, cuzk_engine_priority prio);
/* The job's result, waited for without a deadline of its own: only ten minutes in which no stage of any partition ends
 * (a hang, whatever the machine's speed) fails the test, after dump(e) (may be NULL) has shown the engine's state. */
cuzk_engine_result engine_test_await(cuzk_engine *e, const char *id, void (*dump)(cuzk_engine *e));
/* The device-backend tests (test_engine_devices.c); returns the failures. */
int run_device_tests(void);
/* What Curio relies on (test_engine_curio.c): ids and retries, its names, metrics and status page; the failures. */
int run_curio_tests(void);
/* The Filecoin kinds (test_engine_fil.c): PoSt jobs from vanilla proofs, refusals, the parameter digest; the
 * failures. */
int run_fil_tests(void);

#endif
