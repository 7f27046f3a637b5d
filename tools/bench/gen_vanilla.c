/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench gen-vanilla: inputs for `single|batch -t porep --c1 FILE` without a sealed sector. Curio's cuzk-bench
 * makes PoSt and SnapDeals vanilla proofs from a sealed sector's cache through filecoin-proofs; cuzk reads no such
 * cache, so those subcommands are refused with that reason. `porep` writes a commit-phase-1 output of any registered
 * PoRep in Curio's envelope (cuzk_fil_c1_random: every count, index and path shaped as the proof needs, the values
 * random), the bytes Curio sends as vanilla_proof. Such a C1 proves nothing: it measures transport, parsing and the
 * daemon's answers, never a proof that verifies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/filecoin.h"

static void gen_usage(FILE *f)
{
    fprintf(f, "usage: cuzk-bench gen-vanilla porep [--registered-proof N] [--sector-number N] [--seed S]\n"
               "                                    [-o|--output FILE] [--bare]\n"
               "  porep               a commit-phase-1 output of registered seal proof N (default 8,\n"
               "                      StackedDrg32GiBV1_1; 5 is the 2 KiB one) in Curio's JSON envelope, for\n"
               "                      cuzk-bench single|batch -t porep --c1 FILE. Structurally valid, random values:\n"
               "                      not a proof anything verifies\n"
               "  --sector-number N   the envelope's SectorNum (default 1)\n"
               "  --seed S            the generator's seed (default 1)\n"
               "  -o, --output FILE   default porep-c1.json\n"
               "  --bare              the bare SealCommitPhase1Output JSON, without Curio's envelope\n"
               "  winning-post, window-post, snap-prove\n"
               "                      Curio's, from a sealed sector's cache through filecoin-proofs: not made here\n");
}

static bool gen_u64(const char *flag, const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*v < '0' || *v > '9' || *end != '\0' || errno != 0) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s needs a whole number, got '%s'\n", flag, v);
        return false;
    }
    *out = x;
    return true;
}

int bench_gen_vanilla(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        gen_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *what = argv[1];
    if (strcmp(what, "winning-post") == 0 || strcmp(what, "window-post") == 0 || strcmp(what, "snap-prove") == 0) {
        fprintf(stderr,
                "cuzk-bench gen-vanilla %s: needs a sealed sector's cache (tree-r-last, p_aux, t_aux) read "
                "through filecoin-proofs, which cuzk does not do; make the file with Curio's cuzk-bench "
                "gen-vanilla and pass it to --vanilla\n",
                what);
        return 2;
    }
    if (strcmp(what, "porep") != 0) {
        fprintf(stderr, "cuzk-bench gen-vanilla: unknown kind '%s'\n", what);
        gen_usage(stderr);
        return 2;
    }
    uint64_t registered = 8, sector = 1, seed = 1;
    const char *out = "porep-c1.json";
    bool bare = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--bare") == 0) {
            bare = true;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            gen_usage(stdout);
            return 0;
        }
        bool known = strcmp(a, "--registered-proof") == 0 || strcmp(a, "--sector-number") == 0 ||
                     strcmp(a, "--sector-num") == 0 || strcmp(a, "--seed") == 0 || strcmp(a, "-o") == 0 ||
                     strcmp(a, "--output") == 0;
        if (!known) {
            fprintf(stderr, "cuzk-bench gen-vanilla: unknown option '%s'\n", a);
            return 2;
        }
        if (v == NULL) {
            fprintf(stderr, "cuzk-bench gen-vanilla: %s needs a value\n", a);
            return 2;
        }
        i++;
        bool ok = true;
        if (strcmp(a, "--registered-proof") == 0) ok = gen_u64(a, v, &registered);
        else if (strcmp(a, "--seed") == 0) ok = gen_u64(a, v, &seed);
        else if (a[1] == 'o' || strcmp(a, "--output") == 0) out = v;
        else ok = gen_u64(a, v, &sector);
        if (!ok) return 2;
    }
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, registered);
    if (p == NULL) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %llu is not a registered seal proof\n",
                (unsigned long long)registered);
        return 2;
    }
    cuzk_fil_c1 c1;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_c1_random(p, seed, &c1, &err);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s: %s\n", p->name, err.msg);
        return 1;
    }
    c1.sector_num = sector;
    FILE *f = fopen(out, "w");
    if (f == NULL) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s: %s\n", out, strerror(errno));
        cuzk_fil_c1_free(&c1);
        return 1;
    }
    s = cuzk_fil_c1_write_json(&c1, !bare, f, &err);
    bool closed = fclose(f) == 0;
    cuzk_fil_c1_free(&c1);
    if (s != CUZK_OK || !closed) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s: %s\n", out, s != CUZK_OK ? err.msg : strerror(errno));
        return 1;
    }
    fprintf(stderr, "cuzk-bench gen-vanilla: %s (%s, sector %llu, %u partitions): %s\n", out, p->name,
            (unsigned long long)sector, p->partitions, bare ? "bare C1" : "Curio's envelope");
    return 0;
}
