/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SDR tests: `test_filecoin_sdr` runs the quick groups; `test_filecoin_sdr 8mib` the parent caches of 8 MiB sectors
 * (seconds, a separate CTest entry). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdr_tests.h"

void sdr_hex(const char *hex, uint8_t *out, size_t n)
{
    assert_int_equal(strlen(hex), 2 * n);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

void sdr_assert_hex32(const uint8_t got[32], const char *hex)
{
    uint8_t want[32];
    sdr_hex(hex, want, 32);
    if (memcmp(got, want, 32) != 0) {
        char g[65];
        for (int i = 0; i < 32; i++) sprintf(g + 2 * i, "%02x", got[i]);
        fail_msg("got %s, expected %s", g, hex);
    }
}

uint8_t *sdr_fixture(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/filecoin/%s", CUZK_TEST_FIXTURES, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) fail_msg("fixture %s missing", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

void sdr_graph_of(cuzk_fil_sdr_graph *g, uint64_t sector_size, uint64_t registered_id)
{
    uint8_t porep_id[32];
    cuzk_fil_sdr_porep_id(registered_id, 0, porep_id);
    cuzk_fil_sdr_api api = registered_id < 5 ? CUZK_FIL_SDR_API_V1_0 : CUZK_FIL_SDR_API_V1_1;
    assert_int_equal(cuzk_fil_sdr_graph_init(g, sector_size / 32, porep_id, api, NULL), CUZK_OK);
}

void sdr_tmp_path(char *out, size_t len, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    snprintf(out, len, "%s/cuzk-sdr-%d-%llx%s", dir ? dir : "/tmp", (int)getpid(), (unsigned long long)test_rand_u64(),
             suffix);
}

int main(int argc, char **argv)
{
    test_seed_init();
    if (argc > 1 && strcmp(argv[1], "8mib") == 0)
        return _cmocka_run_group_tests("sdr_slow", sdr_slow_tests, sdr_slow_count, NULL, NULL);
    int fails = 0;
    fails += _cmocka_run_group_tests("sdr_prims", sdr_prims_tests, sdr_prims_count, NULL, NULL);
    fails += _cmocka_run_group_tests("sdr_graph", sdr_graph_tests, sdr_graph_count, NULL, NULL);
    fails += _cmocka_run_group_tests("sdr_label", sdr_label_tests, sdr_label_count, NULL, NULL);
    fails += _cmocka_run_group_tests("sdr_tree", sdr_tree_tests, sdr_tree_count, NULL, NULL);
    fails += _cmocka_run_group_tests("sdr_challenge", sdr_challenge_tests, sdr_challenge_count, NULL, NULL);
    fails += _cmocka_run_group_tests("sdr_seal", sdr_seal_tests, sdr_seal_count, NULL, NULL);
    return fails;
}
