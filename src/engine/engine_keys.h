/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The key manager (keys.c): one entry per circuit, in tiers, and the loads between them.
 *
 * COLD: only files (or nothing: a synthetic key is made on demand). HOT: decoded, ready for provers; counted in the
 * key budget. WARM: the decoded points were dropped to make room, the files stay mapped (the PCE as the circuit
 * itself, the .params as bytes, both advised WILLNEED) and a reload decodes the points from memory; page cache, so
 * not counted in the key budget. LOADING: the loader owns the contents.
 *
 * Every function here runs with the engine's lock held (cuzk_engine_key_load lets go of it while it loads). The key
 * manager never ends a job: where jobs must fail, it lists them in an engine_failures for engine.c. */
#ifndef CUZK_ENGINE_KEYS_H
#define CUZK_ENGINE_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "engine_jobs.h"

struct engine_devkey;

typedef enum { KEY_COLD = 0, KEY_LOADING, KEY_HOT, KEY_WARM } key_state;

typedef struct engine_key {
    char id[CUZK_ENGINE_ID_MAX]; /* circuit id, "synthetic-<log2>-<seed>", or an SRS id ("porep-32g") */
    bool synthetic;
    bool srs;                  /* a Filecoin circuit by SRS id: its v28 .params (params_name) and, where the filecoin
                               * layer has the circuit (fil_circuit), its shape from the shape cache; else the key
                               * alone (cs NULL, for PreloadSRS) */
    const cuzk_fil_proof *fil; /* srs: the circuit's registered proof (cuzk_fil_proof_by_srs_id) */
    bool fil_circuit;
    bool generated;        /* made from toxic waste (cuzk_engine_key_toxic): synthetic keys, and Filecoin circuits
                               * under cuzk_engine_config.fil_generated_keys; no .params file is read */
    char params_name[256]; /* srs: the v28 .params file in the parameter directory */
    /* srs: the .params file whose manifest digest was checked (device, inode, size, mtime): not hashed again */
    bool digest_ok;
    uint64_t digest_dev, digest_ino, digest_size, digest_mtime;
    unsigned log2;
    uint64_t seed;
    key_state state;
    bool load_queued;
    bool loading_from_warm; /* while LOADING: the load started from WARM */
    uint64_t load_seq;      /* request order of queued loads */
    uint32_t refs;          /* jobs (not yet released) that need this key */
    uint64_t last_use;      /* LRU clock */
    double t_last_use;      /* when: loaded, dispatched, released (status) */
    uint64_t size_bytes;    /* in memory when HOT, mapped when WARM, on disk (or the last HOT size) when COLD */
    uint64_t hot_bytes;     /* the decoded size of the last load: the next load's estimate */
    uint64_t load_ms;
    double t_hot;            /* when it last became HOT */
    cuzk_status last_status; /* of the last load */
    /* known after the first load (and kept when evicted), for memory admission at submit */
    bool dims_known;
    bool shape_known; /* shape holds the loaded key's densities (cuzk_groth16_prove_shape_key); else the
                                * admission bound takes every variable as selected (cuzk_groth16_prove_shape_worst) */
    cuzk_groth16_prove_shape shape;
    uint64_t domain_size, num_vars, num_inputs;
    char last_error[400]; /* the last load's failure, given to the jobs that waited for it */
    /* HOT contents: cs (a PCE mapping when the key has files, else heap) and pk (with device keys, a synthetic key's
     * pk stays empty: the devices generate it). WARM: cs and params_map */
    cuzk_r1cs_t *cs;
    cuzk_groth16_pk pk;
    /* the verifying key (an owned copy, from the host key or the first device key) and its preparation: kept when
     * the contents go, replaced by the next host load (no partition is in flight then) */
    bool have_vk;
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    /* per device (engine.num_devices entries) with device keys, else NULL (engine_devkeys.h); dev_preload: preloads
     * waiting for them */
    struct engine_devkey *dev;
    uint32_t dev_preload;
    const uint8_t *params_map;
    size_t params_map_len;
    struct engine_key *next;
} engine_key;

/* The entry for a circuit, made (COLD) when it is new; NULL when out of memory. */
engine_key *cuzk_engine_key_get(cuzk_engine *e, const char *id, bool synthetic, unsigned log2, uint64_t seed);
/* The entry of a Filecoin circuit, by its registered proof's SRS id (p->srs_id): its parameter file is
 * cuzk_fil_proof_param_name's, its shape the shape cache's. NULL when out of memory or when p has no parameter file
 * name (err says so). */
engine_key *cuzk_engine_key_get_srs(cuzk_engine *e, const cuzk_fil_proof *p, cuzk_errmsg *err);
/* Queues a load of a COLD or WARM key for the loader. */
void cuzk_engine_key_request(cuzk_engine *e, engine_key *k);
/* Drops one reference; true when none is left (the caller then lets the device keys know). */
bool cuzk_engine_key_unref(cuzk_engine *e, engine_key *k);
void cuzk_engine_key_free_contents(cuzk_engine *e, engine_key *k);
void cuzk_engine_keys_destroy(cuzk_engine *e);

/* The loader's two steps. next_load: the queued load requested first among those that fit now (making room for it),
 * or NULL; loads larger than the whole budget end there, their jobs listed in `fail`. key_load: loads k (the lock
 * released meanwhile) to HOT, or on failure back to COLD with its jobs listed in `fail`. */
engine_key *cuzk_engine_keys_next_load(cuzk_engine *e, engine_failures *fail);
void cuzk_engine_key_load(cuzk_engine *e, engine_key *k, engine_failures *fail);

bool cuzk_engine_circuit_id_valid(const char *id);
/* What admission reserves per partition of key k (its dimensions must be known): the backend's bound for the key's
 * shape (its densities once it has been loaded, the worst case for its dimensions before) plus the witness. */
uint64_t cuzk_engine_partition_need(const cuzk_engine *e, const engine_key *k);
/* GENERIC_CIRCUIT keys never loaded: their dimensions from the PCE header (false when it cannot be read; the load
 * then reports why) */
bool cuzk_engine_key_read_dims(cuzk_engine *e, engine_key *k);
/* The dimensions from the circuit's counts (inputs with ONE, aux, rows), before the key's first load. */
void cuzk_engine_key_set_dims(engine_key *k, uint64_t inputs, uint64_t aux, uint64_t rows);
/* The toxic waste of a synthetic key: the same on the CPU and on every device, derived from log2 and seed. */
void cuzk_engine_synthetic_toxic(cuzk_groth16_setup_opts *o, uint64_t log2, uint64_t seed);
/* The toxic waste of a generated key (k->generated): a synthetic key's, or a Filecoin circuit's from its SRS id. */
void cuzk_engine_key_toxic(const engine_key *k, cuzk_groth16_setup_opts *o);

#endif
