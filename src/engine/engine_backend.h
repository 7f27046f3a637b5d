/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The backend interface: what the engine's prover workers call for one partition once its synthesis is done. A
 * backend is a static const table of operations (engine_backend_ops) and the context its constructor made.
 *
 * prove_start runs on the prover worker (for a GPU: the device part, cuzk_gpu_prove_msms) and prove_finish on a
 * finalizer, before the proof is verified (for a GPU: cuzk_groth16_assemble on the host), so that the worker takes
 * the next partition while the host finishes this one; the CPU backend does everything in prove_start. Between them
 * the work item carries the backend's results (sums). Both leave the proof in w->proof (after finish) and the phase
 * times in w->stats; on failure they fill err and the engine fails the job. CUZK_ERR_DEVICE from a backend takes the
 * device out of service (engine.c).
 *
 * The operations after `destroy` are optional (zero: the CPU backend's behaviour):
 *  synthesizes      the backend evaluates a, b, c itself (SpMV on the device): synthesis only produces the witness
 *                   (into witness_alloc's memory when set), the memory model counts only what the host holds
 *  witness_alloc    memory for a partition's witness (pinned, for a device); witness_free gives it back
 *  witness_made     on the synthesis worker once the witness is made: the backend may put it in the form its
 *                   prove_start reads (the GPU packs it in place for a shorter upload) and describe that form in
 *                   w->z_form; z[0 .. num_inputs) must stay as they are (the verification reads them)
 *  dev_key_*        device-resident keys: the engine keeps, per device and key, a handle that dev_key_load makes
 *                   (from the HOT host key: its circuit and, for registered circuits, its points; for synthetic keys
 *                   the device generates the key from cuzk_engine_synthetic_toxic) on the engine's per-device loader
 *                   thread, and decides which keys stay (a VRAM budget per device, least recently used first). */
#ifndef CUZK_ENGINE_BACKEND_H
#define CUZK_ENGINE_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "engine_jobs.h"

struct engine_key;

typedef struct {
    uint64_t vram_bytes; /* held on the device by the key */
    bool streamed;       /* its bases stay in host memory (slow path) */
} engine_devkey_info;

typedef struct engine_backend_ops {
    const char *name;
    unsigned (*num_devices)(void *ctx);
    void (*device_info)(void *ctx, unsigned device, cuzk_engine_gpu_status *out);
    /* the bytes one partition holds from synthesis to the end of its proof, besides the witness */
    uint64_t (*partition_bytes)(void *ctx, const cuzk_groth16_prove_shape *shape);
    cuzk_status (*prove_start)(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err);
    cuzk_status (*prove_finish)(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err);
    void (*destroy)(void *ctx);
    /* optional, see above */
    bool synthesizes;
    unsigned default_workers; /* prover workers per device when the config gives 0; 0 = 1 */
    cuzk_status (*witness_alloc)(void *ctx, uint64_t bytes, cuzk_fr_t **out);
    void (*witness_free)(void *ctx, cuzk_fr_t *z, uint64_t bytes);
    cuzk_status (*witness_made)(void *ctx, engine_work *w, unsigned threads, cuzk_errmsg *err);
    /* others_bytes: what the device's other resident keys hold; allow_streamed: the key may be placed STREAMED
     * (else RESIDENT only). CUZK_ERR_NOMEM when it does not fit (the engine then evicts and retries). */
    cuzk_status (*dev_key_load)(void *ctx, unsigned device, const struct engine_key *k, uint64_t others_bytes,
                                bool allow_streamed, void **handle, engine_devkey_info *info, cuzk_errmsg *err);
    void (*dev_key_free)(void *ctx, unsigned device, void *handle);
    const cuzk_groth16_vk *(*dev_key_vk)(void *ctx, void *handle);
} engine_backend_ops;

/* A backend: its operations and the context they are called with. */
typedef struct {
    const engine_backend_ops *ops;
    void *ctx;
} engine_backend;

/* threads per partition's H and MSM work */
cuzk_status cuzk_engine_backend_cpu(engine_backend *b, unsigned threads);
#ifdef CUZK_HAVE_CUDA
/* The GPU backend over cfg's devices (all visible ones when none are listed). CUZK_ERR_NOT_FOUND when there is no
 * device; CUZK_ERR_INVALID_ARG for a listed device that does not exist. */
cuzk_status cuzk_engine_backend_gpu(engine_backend *b, const cuzk_engine_config *cfg, cuzk_errmsg *err);
#endif

/* cuzk_engine_create with a given backend (the engine takes it over and calls its destroy). Used by the GPU backend's
 * wiring and by tests that inject failures. */
cuzk_status cuzk_engine_create_with_backend(cuzk_engine **out, const cuzk_engine_config *cfg, const engine_backend *be,
                                            cuzk_errmsg *err);

/* The working-memory budget a config gives: its working_memory_budget, else 75 % of physical memory. */
uint64_t cuzk_engine_memory_budget(const cuzk_engine_config *cfg);

#endif
