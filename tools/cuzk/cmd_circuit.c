/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk gen, cuzk import: producing compiled circuits (.pce) and witnesses. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char gen_help[] =
    "usage: cuzk gen --log2 K --pce OUT.pce --wtns OUT.wtns [--public public.json] [--seed N] [--threads N]\n"
    "\n"
    "Writes a synthetic circuit shaped like a Filecoin PoRep partition (SHA-256-style bit gadgets, Poseidon-style\n"
    "x^5 rounds; about 2.4 / 1.0 / 2.2 non-zeros per row in A / B / C) with 2^K - 5 constraints and 5 inputs, so\n"
    "that the bellperson domain is exactly 2^K, and a satisfying witness. The circuit and witness depend only on\n"
    "K and the seed (default 1).\n"
    "\n"
    "  --log2 K        size, 4 <= K <= 31\n"
    "  --pce FILE      the compiled circuit\n"
    "  --wtns FILE     the witness (iden3 .wtns, all variables in bellperson order)\n"
    "  --public FILE   the 4 public inputs as a snarkjs public.json\n"
    "  --seed N        generator seed (default 1)\n"
    "  --threads N     worker threads (default: online CPUs)\n";

int cmd_gen(int argc, char **argv)
{
    static const char *const known[] = {"log2", "seed", "pce", "wtns", "public", "threads", NULL};
    cli_args a;
    if (!cli_parse(&a, "gen", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(gen_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("gen", "unexpected argument '%s'", a.pos[0]);
    uint64_t log2n = 0, seed = 1;
    unsigned threads;
    const char *pce = cli_need(&a, "pce"), *wtns = cli_need(&a, "wtns"), *pub = cli_opt(&a, "public");
    if (cli_need(&a, "log2") == NULL || pce == NULL || wtns == NULL) return CLI_ERROR;
    if (!cli_opt_u64(&a, "log2", CUZK_CIRCUITS_LOG2_MIN, CUZK_CIRCUITS_LOG2_MAX, &log2n) ||
        !cli_opt_u64(&a, "seed", 0, UINT64_MAX, &seed) || !cli_threads(&a, &threads))
        return CLI_ERROR;

    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    cuzk_fr_t *z;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_circuits_synthetic((unsigned)log2n, seed, threads, &r, &z, &err);
    if (s != CUZK_OK) return cli_fail("gen", "generator", s, &err);
    cli_step_end("gen", "generating", t0);
    int rc = CLI_OK;
    t0 = cuzk_now();
    if ((s = cuzk_r1cs_pce_write(r, pce, &err)) != CUZK_OK) rc = cli_fail("gen", pce, s, &err);
    else if ((s = cuzk_r1cs_wtns_save(z, cuzk_r1cs_num_vars(r), wtns, &err)) != CUZK_OK)
        rc = cli_fail("gen", wtns, s, &err);
    else if (pub != NULL && (s = cli_save_public(pub, z + 1, r->num_inputs - 1, &err)) != CUZK_OK)
        rc = cli_fail("gen", pub, s, &err);
    if (rc == CLI_OK) {
        cli_step_end("gen", "writing", t0);
        cuzk_circuits_stats st;
        cuzk_circuits_stats_compute(r, z, &st);
        printf("{\"constraints\": %llu, \"inputs\": %llu, \"aux\": %llu, \"nnz_per_row\": [%.3f, %.3f, %.3f], "
               "\"a_aux_density\": %.4f, \"b_aux_density\": %.4f, \"bit_fraction\": %.4f}\n",
               (unsigned long long)st.rows, (unsigned long long)st.inputs, (unsigned long long)st.aux, st.per_row[0],
               st.per_row[1], st.per_row[2], st.a_aux_density, st.b_aux_density, st.bit_fraction);
    }
    cuzk_r1cs_free(r);
    free(z);
    return rc;
}

static const char import_help[] =
    "usage: cuzk import --r1cs CIRCUIT.r1cs --pce OUT.pce\n"
    "\n"
    "Compiles a circom .r1cs (BLS12-381 scalar field) into a .pce: wire 0 is ONE, the public outputs and inputs\n"
    "become the bellperson inputs, every later wire an aux variable (a .wtns from circom is then in the right\n"
    "order already).\n";

int cmd_import(int argc, char **argv)
{
    static const char *const known[] = {"r1cs", "pce", NULL};
    cli_args a;
    if (!cli_parse(&a, "import", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(import_help, stdout);
        return CLI_OK;
    }
    if (a.npos > 0) return cli_error("import", "unexpected argument '%s'", a.pos[0]);
    const char *in = cli_need(&a, "r1cs"), *out = cli_need(&a, "pce");
    if (in == NULL || out == NULL) return CLI_ERROR;
    cuzk_errmsg err = {{0}};
    cuzk_r1cs_t *r;
    double t0 = cuzk_now();
    cuzk_status s = cuzk_r1cs_circom_load(in, &r, &err);
    if (s != CUZK_OK) return cli_fail("import", in, s, &err);
    cli_step_end("import", "reading", t0);
    s = cuzk_r1cs_pce_write(r, out, &err);
    int rc = s == CUZK_OK ? CLI_OK : cli_fail("import", out, s, &err);
    if (rc == CLI_OK)
        printf("{\"constraints\": %llu, \"inputs\": %u, \"aux\": %u}\n", (unsigned long long)r->num_constraints,
               r->num_inputs, r->num_aux);
    cuzk_r1cs_free(r);
    return rc;
}
