/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk circuit info | pce: the Filecoin circuits of this build, by kind — their counts, and their constraint
 * systems written as .pce files (for cuzk setup, cuzk snap prove --pce). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/filecoin.h"

static const char circuit_help[] =
    "usage: cuzk circuit info --kind KIND --sector-size S [--threads N]\n"
    "       cuzk circuit pce --kind KIND --sector-size S --out FILE.pce [--threads N]\n"
    "\n"
    "The constraint system of one partition of a Filecoin circuit, as bellperson synthesizes it.\n"
    "info prints its counts as one JSON line (constraints, inputs with ONE, aux, non-zeros of A, B, C, the\n"
    "prover's domain); pce writes it as a .pce file.\n"
    "\n"
    "  --kind KIND       snap\n"
    "  --sector-size S   snap: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB and the test sizes 1, 4, 8, 16, 32 KiB, 16 MiB\n"
    "  --threads N       worker threads (default: online CPUs)\n";

/* The circuits of this build, by kind: the geometry of a sector size, counts, the shape. */
static const struct {
    cuzk_fil_kind kind;
    const cuzk_fil_proof *(*geometry)(uint64_t sector_size);
    cuzk_status (*counts)(const cuzk_fil_proof *p, unsigned threads, cuzk_cs_counts *out, cuzk_errmsg *err);
    cuzk_status (*shape)(const cuzk_fil_proof *p, unsigned threads, cuzk_r1cs_t **out, cuzk_errmsg *err);
} kinds[] = {
    {CUZK_FIL_KIND_SNAP, cuzk_fil_snap_geometry, cuzk_fil_snap_counts, cuzk_fil_snap_shape},
};

int cmd_circuit(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        fputs(circuit_help, argc < 1 ? stderr : stdout);
        return argc < 1 ? CLI_ERROR : CLI_OK;
    }
    bool info = strcmp(argv[0], "info") == 0, pce = strcmp(argv[0], "pce") == 0;
    if (!info && !pce) return cli_error("circuit", "unknown subcommand '%s' (info, pce)", argv[0]);
    const char *cmd = info ? "circuit info" : "circuit pce";
    static const char *const known[] = {"kind", "sector-size", "out", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, cmd, known, argc - 1, argv + 1)) return CLI_ERROR;
    if (a.help) return fputs(circuit_help, stdout), CLI_OK;
    if (a.npos > 0) return cli_error(cmd, "unexpected argument '%s'", a.pos[0]);
    const char *ks = cli_need(&a, "kind"), *ss = cli_need(&a, "sector-size"), *out = pce ? cli_need(&a, "out") : NULL;
    unsigned threads;
    if (ks == NULL || ss == NULL || (pce && out == NULL) || !cli_threads(&a, &threads)) return CLI_ERROR;
    if (info && cli_opt(&a, "out") != NULL) return cli_error(cmd, "--out goes with cuzk circuit pce");
    int kind = cuzk_fil_kind_parse(ks);
    size_t ki = 0;
    while (ki < sizeof kinds / sizeof kinds[0] && (int)kinds[ki].kind != kind) ki++;
    if (ki == sizeof kinds / sizeof kinds[0]) return cli_error(cmd, "--kind '%s': no such circuit here (snap)", ks);
    uint64_t bytes;
    const cuzk_fil_proof *p = cuzk_fil_size_parse(ss, &bytes) ? kinds[ki].geometry(bytes) : NULL;
    if (p == NULL) return cli_error(cmd, "--sector-size '%s': no %s circuit of that size", ss, ks);

    cuzk_errmsg err = {{0}};
    char sz[24];
    double t0 = cuzk_now();
    if (info) {
        cuzk_cs_counts c;
        cuzk_status s = kinds[ki].counts(p, threads, &c, &err);
        if (s != CUZK_OK) return cli_fail(cmd, p->name, s, &err);
        printf("{\"kind\": \"%s\", \"proof\": \"%s\", \"sector_size\": \"%s\", \"partitions\": %u, \"constraints\": "
               "%llu, \"inputs\": %llu, \"aux\": %llu, \"nnz\": [%llu, %llu, %llu], \"domain_log2\": %u, "
               "\"seconds\": %.3f}\n",
               cuzk_fil_kind_name(p->kind), p->name, cuzk_fil_size_str(p->sector_size, sz), p->partitions,
               (unsigned long long)c.rows, (unsigned long long)c.inputs, (unsigned long long)c.aux,
               (unsigned long long)c.nnz[0], (unsigned long long)c.nnz[1], (unsigned long long)c.nnz[2],
               cuzk_log2_ceil(c.rows + c.inputs), cuzk_now() - t0);
        return CLI_OK;
    }
    cuzk_r1cs_t *r;
    cuzk_status s = kinds[ki].shape(p, threads, &r, &err);
    if (s != CUZK_OK) return cli_fail(cmd, p->name, s, &err);
    double t_shape = cli_step_end(cmd, "building the circuit", t0);
    t0 = cuzk_now();
    s = cuzk_r1cs_pce_write(r, out, &err);
    int rc = s == CUZK_OK ? CLI_OK : cli_fail(cmd, out, s, &err);
    if (rc == CLI_OK)
        printf("{\"kind\": \"%s\", \"proof\": \"%s\", \"sector_size\": \"%s\", \"constraints\": %llu, \"inputs\": %u, "
               "\"aux\": %u, \"shape_s\": %.3f, \"write_s\": %.3f}\n",
               cuzk_fil_kind_name(p->kind), p->name, cuzk_fil_size_str(p->sector_size, sz),
               (unsigned long long)r->num_constraints, r->num_inputs, r->num_aux, t_shape, cuzk_now() - t0);
    cuzk_r1cs_free(r);
    return rc;
}
