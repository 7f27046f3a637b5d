/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk: command-line front end to the proving engine. Exit status 0 = success (a proof made or checked is valid),
 * 1 = no valid proof (verify: the proof is invalid; prove: the witness fails a constraint or the proof made does not
 * verify, and nothing is written), 2 = error (a message on stderr names the file and the reason). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"gen", cmd_gen, "write a synthetic PoRep-shaped circuit (.pce) and its witness (.wtns)"},
    {"import", cmd_import, "compile a circom .r1cs into a .pce"},
    {"setup", cmd_setup, "make a test key (.params or .zkey, and its vk) for a .pce (not a ceremony)"},
    {"prove", cmd_prove, "prove with a .zkey or .params key"},
    {"verify", cmd_verify, "verify a proof against a verifying key and public inputs"},
    {"ptau", cmd_ptau, "write a snarkjs powers-of-tau file prepared for phase 2 (test fixtures, not a ceremony)"},
    {"inspect", cmd_inspect, "print the type, header and sizes of cuzk, bellperson and snarkjs files"},
    {"demo", cmd_demo, "gen -> setup -> prove -> verify in memory, with timings"},
    {"params", cmd_params, "list the Filecoin parameter files, or check a directory's against their digests"},
    {"parent-cache", cmd_parent_cache, "generate (or only hash) the SDR parent cache of a registered proof's graph"},
    {"seal-test", cmd_seal_test, "seal a small test sector (SDR) in memory: commitments, challenges, C1 material"},
    {"circuit", cmd_circuit, "a Filecoin proof's circuit: sizes and canonical hash (info), its shape as a .pce (pce)"},
    {"post", cmd_post,
     "WinningPoSt / WindowPoSt proofs from vanilla proofs (prove), checked from public data (verify)"},
    {"snap", cmd_snap, "SnapDeals: prove from Curio's vanilla proofs, verify, make test vanilla proofs"},
    {"porep", cmd_porep, "PoRep commit phase 2 from a C1 (prove), verify_seal (verify), the C1 check, a test C1"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk COMMAND [OPTIONS]   (cuzk COMMAND --help for each command's options)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "  %-12s %s\n", "--version", "print the version");
    fprintf(f, "\nexit status: 0 success (a proof made or checked is valid), 1 no valid proof (verify: invalid;\n"
               "prove: the witness fails a constraint or the proof does not verify; nothing written), 2 error\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_ERROR;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "version") == 0) {
        printf("cuzk %s\n", cuzk_version());
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "cuzk: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return CLI_ERROR;
}
