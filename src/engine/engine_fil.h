/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Filecoin proof kinds (fil.c): a static table with one row per wire kind saying how the engine takes a request
 * apart (decode: every field checked against the registered proof, the vanilla proofs decoded and checked), makes
 * partition k's witness, and derives the public inputs that partition's proof is verified against. The key of a
 * Filecoin job is its circuit's (keys.c: the registered proof's v28 .params and its shape from the shape cache), named
 * by the SRS id. A kind without a decode would be answered FAILED "proof kind ... is not supported".
 *
 * Also here: the parameter manifest the engine checks .params files against (the built-in v28 manifest, with the
 * digests of an override file first). */
#ifndef CUZK_ENGINE_FIL_H
#define CUZK_ENGINE_FIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"

struct engine_fil_kind;

/* Circuit objects the kinds share across jobs, made on first use and kept for the engine's life (a PoRep circuit lays
 * its partition out once per geometry: a COUNT pass over one challenge, about 1.5 CPU-seconds at 32 GiB). */
typedef struct engine_fil_circuits engine_fil_circuits;
cuzk_status cuzk_engine_fil_circuits_new(engine_fil_circuits **out);
void cuzk_engine_fil_circuits_free(engine_fil_circuits *c);

/* What a decode may use besides the request. */
typedef struct {
    engine_fil_circuits *circuits;
    unsigned threads; /* for the checks made at submission (the C1's hashes, SnapDeals' paths) */
    bool benchmark;   /* cuzk_engine_config.fil_benchmark_inputs: structure checked, hashes not (engine.h) */
} engine_fil_env;

/* A Filecoin job's input, decoded and checked at submission, owned by its job and read (never written) by its
 * partitions: freed once the job is done and no partition is in flight. */
typedef struct engine_fil_input {
    const struct engine_fil_kind *kind;
    const cuzk_fil_proof *proof;
    uint32_t partitions;
    uint64_t bytes; /* host memory it holds: counted in the working memory while it lives */
    void *data;     /* the kind's decoded request */
    /* the circuit's counts where the decode knows them (the key's dimensions for admission before its first load,
     * without counting the circuit again under the engine's lock) */
    bool counts_known;
    uint64_t num_inputs, num_aux, num_rows;
} engine_fil_input;

typedef struct engine_fil_kind {
    uint32_t proof_kind; /* CUZK_ENGINE_KIND_* */
    /* NULL: not supported. Fills in->data and in->bytes; errors name the request's field. */
    cuzk_status (*decode)(const engine_fil_env *env, const cuzk_fil_proof *p, const cuzk_engine_request *r,
                          engine_fil_input *in, cuzk_errmsg *err);
    /* partition k's witness [inputs | aux] into z (n values: the circuit's), on `threads` threads; its input part is
     * compared with the request's public inputs where that is cheap (PoRep, SnapDeals) */
    cuzk_status (*witness)(const engine_fil_input *in, uint32_t k, unsigned threads, cuzk_fr_t *z, uint64_t n,
                           cuzk_errmsg *err);
    /* partition k's public inputs without ONE, derived from the request alone (n: the key's inputs less one) */
    cuzk_status (*public_inputs)(const engine_fil_input *in, uint32_t k, cuzk_fr_t *out, size_t n, cuzk_errmsg *err);
    void (*release)(void *data);
} engine_fil_kind;

/* Takes a Filecoin request apart, without the engine's lock: the registered proof for its kind and size, then the
 * kind's decode. On error *out is NULL and err names the field. */
cuzk_status cuzk_engine_fil_decode(const engine_fil_env *env, const cuzk_engine_request *r, engine_fil_input **out,
                                   cuzk_errmsg *err);
void cuzk_engine_fil_free(engine_fil_input *in);

/* The manifest digests of an override file (rust-fil-proofs' parameters.json form). */
typedef struct {
    char *name;
    char digest[33];
} engine_fil_digest;

cuzk_status cuzk_engine_fil_manifest_load(const char *path, engine_fil_digest **out, size_t *n, cuzk_errmsg *err);
void cuzk_engine_fil_manifest_free(engine_fil_digest *d, size_t n);
/* The digest a parameter file must have: the override's, else the built-in manifest's; NULL when neither lists it. */
const char *cuzk_engine_fil_expected_digest(const engine_fil_digest *d, size_t n, const char *name);

#endif
