/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk params: the Filecoin parameter files (parameters.json, v28) — list them, or check a directory's copies
 * against their BLAKE2b digests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuzk/filecoin.h"

static const char params_help[] =
    "usage: cuzk params check [DIR] [--sizes LIST] [--kinds LIST] [--vk-only] [--json] [--threads N]\n"
    "       cuzk params list [--sizes LIST] [--kinds LIST] [--vk-only] [--json]\n"
    "\n"
    "The 44 Filecoin v28 parameter files (.params and .vk) of rust-fil-proofs' parameters.json.\n"
    "check hashes each selected file in DIR (default $FIL_PROOFS_PARAMETER_CACHE, else\n"
    "/var/tmp/filecoin-proof-parameters) with BLAKE2b-512 and compares the first 128 bits with the manifest;\n"
    "it prints OK, MISSING, WRONG (digest differs) or ERROR (unreadable) per file and a summary.\n"
    "Exit status: 0 when every selected file is OK, 1 when any is not, 2 on a usage error.\n"
    "\n"
    "  --sizes LIST    sector sizes, comma-separated: 2KiB,8MiB,512MiB,32GiB,64GiB (also 32G, 32g, bytes)\n"
    "  --kinds LIST    porep, winning, window, snap, snap-poseidon (comma-separated)\n"
    "  --vk-only       only the verifying keys (.vk)\n"
    "  --json          one JSON object per file, then a summary object\n"
    "  --threads N     files hashed at once (default 1: the files are large and read sequentially)\n";

static const char *const state_name[] = {"ok", "missing", "wrong", "error"};

/* Parses --sizes and --kinds into o (sizes into the caller's array of 16). */
static bool parse_filters(const cli_args *a, cuzk_fil_params_check_opts *o, uint64_t sizes[16])
{
    const char *v = cli_opt(a, "sizes");
    if (v != NULL) {
        char *copy = strdup(v), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
            if (o->nsizes == 16 || !cuzk_fil_size_parse(t, &sizes[o->nsizes])) {
                cli_error(a->cmd, "--sizes: '%s' is not a sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", t);
                free(copy);
                return false;
            }
            o->nsizes++;
        }
        free(copy);
        if (o->nsizes == 0) return cli_error(a->cmd, "--sizes: empty list"), false;
        o->sizes = sizes;
    }
    v = cli_opt(a, "kinds");
    if (v != NULL) {
        char *copy = strdup(v), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
            int k = cuzk_fil_kind_parse(t);
            if (k < 0 || k == CUZK_FIL_KIND_POREP_SYNTH || k == CUZK_FIL_KIND_POREP_NI) {
                cli_error(a->cmd, "--kinds: '%s' is not one of porep, winning, window, snap, snap-poseidon", t);
                free(copy);
                return false;
            }
            o->kinds |= 1u << k;
        }
        free(copy);
        if (o->kinds == 0) return cli_error(a->cmd, "--kinds: empty list"), false;
    }
    return true;
}

/* Takes the value-less flags out of argv (cli_parse handles options with values only). */
static int take_flags(int argc, char **argv, bool *vk_only, bool *json)
{
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--vk-only") == 0) *vk_only = true;
        else if (strcmp(argv[i], "--json") == 0) *json = true;
        else argv[n++] = argv[i];
    }
    return n;
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s != '\0'; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
        else putchar(*s);
    }
    putchar('"');
}

static int params_list(const cli_args *a, const cuzk_fil_params_check_opts *o, bool json)
{
    (void)a;
    for (size_t i = 0; i < cuzk_fil_params_count(); i++) {
        const cuzk_fil_param *p = cuzk_fil_params_at(i);
        if (o->vk_only && !p->vk) continue;
        if (o->kinds != 0 && !(o->kinds & (1u << p->kind))) continue;
        bool size_ok = o->nsizes == 0;
        for (size_t k = 0; k < o->nsizes; k++) size_ok |= o->sizes[k] == p->sector_size;
        if (!size_ok) continue;
        char sz[24];
        cuzk_fil_size_str(p->sector_size, sz);
        if (json) {
            printf("{\"file\": ");
            json_str(p->name);
            printf(", \"kind\": \"%s\", \"sector_size\": %llu, \"vk\": %s, \"cid\": \"%s\", \"digest\": \"%s\"}\n",
                   cuzk_fil_kind_name(p->kind), (unsigned long long)p->sector_size, p->vk ? "true" : "false", p->cid,
                   p->digest);
        } else {
            printf("%-13s %-7s %-6s %s  %s  %s\n", cuzk_fil_kind_name(p->kind), sz, p->vk ? "vk" : "params", p->digest,
                   p->cid, p->name);
        }
    }
    return CLI_OK;
}

static int params_check(const cli_args *a, cuzk_fil_params_check_opts *o, bool json)
{
    if (a->npos > 2) return cli_error(a->cmd, "unexpected argument '%s'", a->pos[2]);
    const char *dir = a->npos == 2 ? a->pos[1] : cuzk_fil_params_default_dir();
    uint64_t threads = 1;
    if (!cli_opt_u64(a, "threads", 1, 64, &threads)) return CLI_ERROR;
    o->threads = (unsigned)threads;
    size_t total = cuzk_fil_params_count(), n = 0;
    cuzk_fil_param_result *r = calloc(total, sizeof *r);
    if (r == NULL) return cli_error(a->cmd, "out of memory");
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_fil_params_check(dir, o, r, &n, &err);
    if (s != CUZK_OK) {
        free(r);
        return cli_fail(a->cmd, dir, s, &err);
    }
    if (n == 0) {
        free(r);
        return cli_error(a->cmd, "no parameter file matches the --sizes / --kinds / --vk-only selection");
    }
    size_t count[4] = {0};
    for (size_t i = 0; i < n; i++) {
        const cuzk_fil_param_result *x = &r[i];
        count[x->state]++;
        if (json) {
            printf("{\"file\": ");
            json_str(x->param->name);
            printf(", \"state\": \"%s\", \"kind\": \"%s\", \"sector_size\": %llu, \"expected\": \"%s\"",
                   state_name[x->state], cuzk_fil_kind_name(x->param->kind), (unsigned long long)x->param->sector_size,
                   x->param->digest);
            if (x->state == CUZK_FIL_PARAM_OK || x->state == CUZK_FIL_PARAM_WRONG)
                printf(", \"found\": \"%s\", \"bytes\": %llu", x->digest, (unsigned long long)x->bytes);
            if (x->state == CUZK_FIL_PARAM_ERROR) {
                printf(", \"error\": ");
                json_str(x->detail);
            }
            printf("}\n");
        } else if (x->state == CUZK_FIL_PARAM_WRONG) {
            printf("WRONG    %s: digest %s, expected %s\n", x->param->name, x->digest, x->param->digest);
        } else if (x->state == CUZK_FIL_PARAM_ERROR) {
            printf("ERROR    %s: %s\n", x->param->name, x->detail);
        } else {
            printf("%-8s %s\n", x->state == CUZK_FIL_PARAM_OK ? "OK" : "MISSING", x->param->name);
        }
    }
    if (json) {
        printf("{\"dir\": ");
        json_str(dir);
        printf(", \"checked\": %zu, \"ok\": %zu, \"missing\": %zu, \"wrong\": %zu, \"error\": %zu}\n", n, count[0],
               count[1], count[2], count[3]);
    } else {
        printf("%s: %zu checked, %zu ok, %zu missing, %zu wrong, %zu unreadable\n", dir, n, count[0], count[1],
               count[2], count[3]);
    }
    free(r);
    return count[0] == n ? CLI_OK : CLI_INVALID;
}

int cmd_params(int argc, char **argv)
{
    static const char *const known[] = {"sizes", "kinds", "threads", NULL};
    bool vk_only = false, json = false;
    argc = take_flags(argc, argv, &vk_only, &json);
    cli_args a;
    if (!cli_parse(&a, "params", known, argc, argv)) return CLI_ERROR;
    if (a.help) {
        fputs(params_help, stdout);
        return CLI_OK;
    }
    if (a.npos == 0) return cli_error("params", "missing subcommand: check or list (see cuzk params --help)");
    uint64_t sizes[16];
    cuzk_fil_params_check_opts o = {0, NULL, 0, vk_only, 1};
    if (!parse_filters(&a, &o, sizes)) return CLI_ERROR;
    if (strcmp(a.pos[0], "check") == 0) return params_check(&a, &o, json);
    if (strcmp(a.pos[0], "list") == 0) {
        if (a.npos > 1) return cli_error("params", "unexpected argument '%s'", a.pos[1]);
        if (cli_opt(&a, "threads") != NULL) return cli_error("params", "--threads is for check");
        return params_list(&a, &o, json);
    }
    return cli_error("params", "unknown subcommand '%s' (check or list)", a.pos[0]);
}
