/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk CLI internals: option parsing, error reporting with the documented exit codes, step timing, file type
 * detection and the small readers and writers that the subcommands share. */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"

/* exit statuses */
#define CLI_OK 0
#define CLI_INVALID 1 /* the proof does not verify */
#define CLI_ERROR 2   /* anything else: bad usage, unreadable or malformed input, failed computation */

/* ---- options ------------------------------------------------------------------------------------------------------ */
#define CLI_MAX_OPTS 16
#define CLI_MAX_POS 64

typedef struct {
    const char *cmd;                /* subcommand name, for messages */
    const char *const *known;       /* NULL-terminated option names (without "--") that take a value */
    const char *name[CLI_MAX_OPTS]; /* given options */
    const char *value[CLI_MAX_OPTS];
    int count;
    const char *pos[CLI_MAX_POS]; /* positional arguments */
    int npos;
    bool help;
} cli_args;

/* Parses argv (after the subcommand) into a; prints the problem and returns false on an unknown option, a missing
 * value, a repeated option or too many arguments. "--help"/"-h" sets a->help. */
bool cli_parse(cli_args *a, const char *cmd, const char *const *known, int argc, char **argv);
/* The value of --name, or NULL. */
const char *cli_opt(const cli_args *a, const char *name);
/* The value of a required option; prints "missing --name" and returns NULL when absent. */
const char *cli_need(const cli_args *a, const char *name);
/* Unsigned integer options: false (after a message) when malformed or outside [lo, hi]; *out untouched if absent. */
bool cli_opt_u64(const cli_args *a, const char *name, uint64_t lo, uint64_t hi, uint64_t *out);
/* --threads N, default the online CPU count. */
bool cli_threads(const cli_args *a, unsigned *out);

/* ---- messages ----------------------------------------------------------------------------------------------------- */
/* "cuzk <cmd>: <what>: <status text>[: detail]" on stderr; returns CLI_ERROR. what is usually a file name. */
int cli_fail(const char *cmd, const char *what, cuzk_status s, const cuzk_errmsg *err);
/* "cuzk <cmd>: <printf message>" on stderr; returns CLI_ERROR. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Step timing: cli_step_end prints "cuzk <cmd>: <step> done in X s" on stderr when the step took a second or more
 * (or always when verbose), and returns the seconds. */
double cli_step_end(const char *cmd, const char *step, double t0);

/* ---- files -------------------------------------------------------------------------------------------------------- */
/* A file's format from its content (cuzk_groth16_detect_format on its mapping); info (may be NULL) as that function
 * fills it: its shape and the answer in words. CUZK_ERR_IO when it cannot be read. */
cuzk_status cli_detect(const char *path, cuzk_groth16_format *t, cuzk_groth16_format_info *info, cuzk_errmsg *err);
/* CUZK_OK when path may be of format want (cuzk_groth16_format_may_be: its loader then says what is wrong); else
 * CUZK_ERR_BAD_MAGIC with "OPTION: this is X, not a Y", X in the detector's words ("a truncated .vk (...)"). */
cuzk_status cli_expect_type(const char *path, cuzk_groth16_format want, const char *option, cuzk_errmsg *err);
/* Whole file as a NUL-terminated buffer (malloc'd). */
cuzk_status cli_read_file(const char *path, char **buf, size_t *len, cuzk_errmsg *err);
cuzk_status cli_write_file(const char *path, const void *data, size_t len, cuzk_errmsg *err);
/* n items of item_len bytes each as a JSON array of standard base64 strings (how Curio stores SnapDeals vanilla
 * proofs, and what cuzk-bench --vanilla reads). */
cuzk_status cli_write_b64_array(const char *path, const uint8_t *items, size_t n, size_t item_len, cuzk_errmsg *err);
/* true when path ends in ".json": the writers choose JSON or binary by the output name */
bool cli_is_json_name(const char *path);

/* A proof from a 192-byte file or a proof.json (by content); the decoders check curve and subgroup. */
cuzk_status cli_load_proof(const char *path, cuzk_groth16_proof_t *proof, cuzk_errmsg *err);
/* proof.json when path ends in .json, else the 192-byte encoding. */
cuzk_status cli_save_proof(const char *path, const cuzk_groth16_proof_t *proof, cuzk_errmsg *err);
/* A vk from verification_key.json or a bellperson .vk / .params prefix (by content). */
cuzk_status cli_load_vk(const char *path, cuzk_groth16_vk *vk, cuzk_errmsg *err);
cuzk_status cli_load_public(const char *path, cuzk_fr_t **pub, uint64_t *n, cuzk_errmsg *err);
cuzk_status cli_save_public(const char *path, const cuzk_fr_t *pub, uint64_t n, cuzk_errmsg *err);

/* A decimal integer below r (for --r / --s); false when malformed or too large. */
bool cli_parse_fr_dec(const char *s, cuzk_fr_t *out);
/* Deterministic toxic waste from a seed (tests), non-zero. */
void cli_toxic_from_seed(cuzk_groth16_setup_opts *o, uint64_t seed);

/* ---- subcommands ------------------------------------------------------------------------------------------------- */
int cmd_gen(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_ptau(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_params(int argc, char **argv);
int cmd_porep(int argc, char **argv);
int cmd_seal_test(int argc, char **argv);
int cmd_parent_cache(int argc, char **argv);
int cmd_circuit(int argc, char **argv);
int cmd_post(int argc, char **argv);
int cmd_snap(int argc, char **argv);

#endif
