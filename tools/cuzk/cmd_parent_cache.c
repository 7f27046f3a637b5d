/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk parent-cache: the SDR parent cache of a registered proof's graph, written as the file rust-fil-proofs reads
 * (--out DIR) or only hashed, with its digest checked against the production manifest. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cuzk/filecoin.h"

static const char parent_cache_help[] =
    "usage: cuzk parent-cache --registered-proof ID [--out DIR] [--threads N]\n"
    "\n"
    "Generates the SDR parent cache of a registered seal proof's graph (14 u32 parents per node, 56 bytes a node:\n"
    "3.5 MiB at 2 KiB ... 56 GiB at 32 GiB sectors) and prints one JSON object with its file name, its SHA-256, the\n"
    "digest rust-fil-proofs' manifest lists for it (production graphs: ids 0-9) and the time. Exit status 0 when the\n"
    "digest matches the manifest (or the graph has none), 2 otherwise.\n"
    "\n"
    "  --registered-proof ID  0-4: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB V1; 5-9 the same sizes V1_1; 10-19 the V1_1\n"
    "                         SyntheticPoRep and V1_2 NonInteractivePoRep proofs (their own graphs)\n"
    "  --out DIR              write DIR/v28-sdr-parent-<id>.cache (without it, nothing is written: the cache is\n"
    "                         generated a window at a time and hashed, in 56 MiB of memory)\n"
    "  --threads N            worker threads (default: online CPUs)\n";

int cmd_parent_cache(int argc, char **argv)
{
    static const char *const known[] = {"registered-proof", "out", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "parent-cache", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(parent_cache_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("parent-cache", "unexpected argument '%s'", a.pos[0]);
    uint64_t id = 0;
    unsigned threads;
    if (cli_need(&a, "registered-proof") == NULL || !cli_opt_u64(&a, "registered-proof", 0, 19, &id) ||
        !cli_threads(&a, &threads))
        return CLI_ERROR;
    static const uint64_t sizes[5] = {2ULL << 10, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
    uint8_t porep_id[32];
    cuzk_fil_sdr_porep_id(id, 0, porep_id);
    cuzk_fil_sdr_api api = id < 5 ? CUZK_FIL_SDR_API_V1_0 : id < 15 ? CUZK_FIL_SDR_API_V1_1 : CUZK_FIL_SDR_API_V1_2;
    cuzk_fil_sdr_graph g;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_sdr_graph_init(&g, sizes[id % 5] / 32, porep_id, api, &err);
    if (s != CUZK_OK) return cli_fail("parent-cache", "graph", s, &err);
    char name[96], path[4096];
    cuzk_fil_sdr_parent_cache_name(&g, name);
    uint8_t digest[32], want[32];
    double t0 = cuzk_now();
    const char *out = cli_opt(&a, "out");
    if (out != NULL) {
        snprintf(path, sizeof path, "%s/%s", out, name);
        s = cuzk_fil_sdr_parent_cache_write(&g, path, threads, digest, &err);
    } else {
        s = cuzk_fil_sdr_parent_cache_digest_graph(&g, threads, digest, &err);
    }
    if (s != CUZK_OK && s != CUZK_ERR_CHECKSUM) return cli_fail("parent-cache", out ? path : name, s, &err);
    double dt = cuzk_now() - t0;
    bool known_digest = cuzk_fil_sdr_parent_cache_expected(&g, want);
    bool match = !known_digest || memcmp(digest, want, 32) == 0;
    printf("{\"registered_proof\": %llu, \"sector_size\": %llu, \"nodes\": %llu, \"name\": \"%s\", \"digest\": \"",
           (unsigned long long)id, (unsigned long long)sizes[id % 5], (unsigned long long)g.nodes, name);
    for (int i = 0; i < 32; i++) printf("%02x", digest[i]);
    printf("\", \"manifest\": ");
    if (known_digest) {
        printf("\"");
        for (int i = 0; i < 32; i++) printf("%02x", want[i]);
        printf("\"");
    } else {
        printf("null");
    }
    printf(", \"match\": %s, \"threads\": %u, \"seconds\": %.3f}\n", match ? "true" : "false", threads, dt);
    if (!match) return cli_error("parent-cache", "digest differs from the manifest's");
    return CLI_OK;
}
