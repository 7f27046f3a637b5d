/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared pieces of the SDR tests (main is in test_sdr.c): hex helpers, the fixture directory and each file's list. */
#ifndef CUZK_SDR_TESTS_H
#define CUZK_SDR_TESTS_H

#include "cuzk/filecoin.h"
#include "testutil.h"

/* Parses exactly 2·n hex digits into out (fails the test otherwise). */
void sdr_hex(const char *hex, uint8_t *out, size_t n);
/* assert that 32 bytes equal the given 64 hex digits */
void sdr_assert_hex32(const uint8_t got[32], const char *hex);
/* a fixture file, read whole (caller frees); fails the test when missing */
uint8_t *sdr_fixture(const char *name, size_t *len);
/* the porep id of a registered proof (nonce 0) and its graph */
void sdr_graph_of(cuzk_fil_sdr_graph *g, uint64_t sector_size, uint64_t registered_id);
/* an unused temporary file path (caller unlinks) */
void sdr_tmp_path(char *out, size_t len, const char *suffix);

#define SDR_GROUP(name)                                                                                                \
    extern const struct CMUnitTest name##_tests[];                                                                     \
    extern const size_t name##_count;
SDR_GROUP(sdr_prims)
SDR_GROUP(sdr_graph)
SDR_GROUP(sdr_label)
SDR_GROUP(sdr_tree)
SDR_GROUP(sdr_challenge)
SDR_GROUP(sdr_seal)
SDR_GROUP(sdr_slow)
#undef SDR_GROUP

#endif
