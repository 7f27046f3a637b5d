/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk inspect: what a file is and what it holds. Each file is loaded through the library's own loader, so
 * inspecting also validates it (for keys: every point on the curve; subgroup checks are left to --subgroup). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char inspect_help[] =
    "usage: cuzk inspect [--subgroup yes|no] [--threads N] FILE...\n"
    "\n"
    "Prints the type, header counts and sizes of each file, recognized by content: .pce, .wtns, circom .r1cs,\n"
    ".zkey, .ptau, bellperson .params and .vk, 192-byte proofs, proof.json, verification_key.json, public.json.\n"
    "Each file is fully parsed and validated; exit status 2 when any of them is not valid.\n"
    "\n"
    "  --subgroup yes|no  yes: also check that every key point is in the prime-order subgroup (slow for large\n"
    "                  keys); default no (every point is still checked to be on the curve)\n"
    "  --threads N     worker threads for loading keys (default: online CPUs)\n";

static void print_hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

static void print_pk(const cuzk_groth16_pk *pk)
{
    printf("  convention %s, inputs %llu (ONE included), aux %llu, domain 2^%d\n",
           pk->conv == CUZK_GROTH16_SNARKJS ? "snarkjs" : "bellperson", (unsigned long long)pk->vk.num_inputs,
           (unsigned long long)pk->num_aux, pk->domain_size ? __builtin_ctzll(pk->domain_size) : 0);
    printf("  points: h %llu, l %llu, a %llu, b_g1 %llu, b_g2 %llu\n", (unsigned long long)pk->h_len,
           (unsigned long long)pk->l_len, (unsigned long long)pk->a_len, (unsigned long long)pk->b_len,
           (unsigned long long)pk->b_len);
    if (pk->circuit != NULL)
        printf("  circuit: %llu rows (input rows included), nnz A %llu, B %llu\n",
               (unsigned long long)pk->circuit->num_constraints, (unsigned long long)pk->circuit->m[0].nnz,
               (unsigned long long)pk->circuit->m[1].nnz);
}

static cuzk_status inspect_one(const char *path, unsigned threads, unsigned flags, cuzk_errmsg *err)
{
    cuzk_groth16_format t;
    cuzk_groth16_format_info in;
    cuzk_status s = cli_detect(path, &t, &in, err);
    if (s != CUZK_OK) return s;
    printf("%s: %s, %llu bytes\n", path, cuzk_groth16_format_name(t), (unsigned long long)in.size);
    if (in.shape != CUZK_GROTH16_SHAPE_WHOLE || t == CUZK_GROTH16_FORMAT_UNKNOWN) printf("  note: %s\n", in.what);
    switch (t) {
    case CUZK_GROTH16_FORMAT_PCE:
    case CUZK_GROTH16_FORMAT_R1CS: {
        cuzk_r1cs_t *r;
        s = t == CUZK_GROTH16_FORMAT_PCE ? cuzk_r1cs_pce_load(path, 0, NULL, &r, err)
                                         : cuzk_r1cs_circom_load(path, &r, err);
        if (s != CUZK_OK) return s;
        cuzk_circuits_stats cs;
        cuzk_circuits_stats_compute(r, NULL, &cs);
        printf("  constraints %llu, inputs %llu (ONE included), aux %llu, bellperson domain 2^%u\n",
               (unsigned long long)cs.rows, (unsigned long long)cs.inputs, (unsigned long long)cs.aux,
               64 - __builtin_clzll(cs.rows + cs.inputs > 1 ? cs.rows + cs.inputs - 1 : 1));
        printf("  non-zeros A %llu, B %llu, C %llu (per row %.3f / %.3f / %.3f), %u distinct coefficients\n",
               (unsigned long long)cs.nnz[0], (unsigned long long)cs.nnz[1], (unsigned long long)cs.nnz[2],
               cs.per_row[0], cs.per_row[1], cs.per_row[2], cs.num_values);
        printf("  aux variables in A %.2f %%, in B %.2f %%\n  identity ", 100 * cs.a_aux_density,
               100 * cs.b_aux_density);
        print_hex(r->identity, 32);
        printf("\n");
        cuzk_r1cs_free(r);
        return CUZK_OK;
    }
    case CUZK_GROTH16_FORMAT_WTNS: {
        cuzk_fr_t *w;
        uint64_t n, bits = 0;
        if ((s = cuzk_r1cs_wtns_load(path, NULL, &w, &n, err)) != CUZK_OK) return s;
        for (uint64_t i = 0; i < n; i++) bits += cuzk_fr_is_zero(&w[i]) || cuzk_fr_is_one(&w[i]);
        printf("  %llu values (ONE included), %.1f %% of them 0 or 1%s\n", (unsigned long long)n,
               n ? 100.0 * (double)bits / (double)n : 0.0,
               n && !cuzk_fr_is_one(&w[0]) ? "; WARNING: w[0] is not 1" : "");
        free(w);
        return CUZK_OK;
    }
    case CUZK_GROTH16_FORMAT_ZKEY:
    case CUZK_GROTH16_FORMAT_PARAMS: {
        cuzk_groth16_pk pk;
        s = t == CUZK_GROTH16_FORMAT_ZKEY ? cuzk_groth16_zkey_load(&pk, path, flags, threads, err)
                                          : cuzk_groth16_params_load(&pk, path, flags, threads, err);
        if (s != CUZK_OK) return s;
        print_pk(&pk);
        cuzk_groth16_pk_free(&pk);
        return CUZK_OK;
    }
    case CUZK_GROTH16_FORMAT_PTAU: {
        cuzk_groth16_ptau_info pi;
        if ((s = cuzk_groth16_ptau_check(path, &pi, err)) != CUZK_OK) return s;
        printf("  power %u (ceremony power %u), %u contributions, %s\n", pi.power, pi.ceremony_power, pi.contributions,
               pi.prepared ? "prepared for phase 2 (sections 12-15)" : "not prepared for phase 2");
        printf("  points on the curve, pairings of tau, alpha, beta consistent%s\n",
               pi.prepared ? ", every Lagrange block sums to its first power" : "");
        return CUZK_OK;
    }
    case CUZK_GROTH16_FORMAT_VK:
    case CUZK_GROTH16_FORMAT_VK_JSON: {
        cuzk_groth16_vk vk;
        if ((s = cli_load_vk(path, &vk, err)) != CUZK_OK) return s;
        printf("  inputs %llu (ONE included), all points valid\n", (unsigned long long)vk.num_inputs);
        cuzk_groth16_vk_free(&vk);
        return CUZK_OK;
    }
    case CUZK_GROTH16_FORMAT_PROOF_BIN:
    case CUZK_GROTH16_FORMAT_PROOF_JSON: {
        cuzk_groth16_proof_t p;
        if ((s = cli_load_proof(path, &p, err)) != CUZK_OK) return s;
        uint8_t b[CUZK_GROTH16_PROOF_BYTES];
        cuzk_groth16_proof_to_bytes(b, &p);
        printf("  A, B, C on the curve and in the subgroup\n  compressed ");
        print_hex(b, sizeof b);
        printf("\n");
        return CUZK_OK;
    }
    case CUZK_GROTH16_FORMAT_PUBLIC_JSON: {
        cuzk_fr_t *pub;
        uint64_t n;
        if ((s = cli_load_public(path, &pub, &n, err)) != CUZK_OK) return s;
        printf("  %llu public inputs (ONE excluded)\n", (unsigned long long)n);
        free(pub);
        return CUZK_OK;
    }
    case CUZK_GROTH16_FORMAT_UNKNOWN: break;
    }
    return cuzk_fail(err, CUZK_ERR_BAD_MAGIC, "%s (see cuzk inspect --help)", in.what);
}

int cmd_inspect(int argc, char **argv)
{
    static const char *const known[] = {"threads", "subgroup", NULL};
    cli_args a;
    if (!cli_parse(&a, "inspect", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(inspect_help, stdout);
        return CLI_OK;
    }
    if (a.npos == 0) return cli_error("inspect", "no files given (see cuzk inspect --help)");
    unsigned threads;
    if (!cli_threads(&a, &threads)) return CLI_ERROR;
    const char *sg = cli_opt(&a, "subgroup");
    if (sg != NULL && strcmp(sg, "yes") != 0 && strcmp(sg, "no") != 0)
        return cli_error("inspect", "--subgroup takes yes or no");
    unsigned flags = sg != NULL && strcmp(sg, "yes") == 0 ? CUZK_GROTH16_LOAD_SUBGROUP : 0;
    int rc = CLI_OK;
    for (int i = 0; i < a.npos; i++) {
        cuzk_errmsg err = {{0}};
        cuzk_status s = inspect_one(a.pos[i], threads, flags, &err);
        fflush(stdout);
        if (s != CUZK_OK) rc = cli_fail("inspect", a.pos[i], s, &err);
    }
    return rc;
}
