/* Internals of the engine shared by its files: the backend interface, partition work items, jobs, the key manager
 * and the metrics. Everything here is guarded by the engine's one mutex (engine.lock) unless a comment says
 * otherwise; the heavy work (loading, synthesis, proving, verifying) always runs with the lock released. */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/groth16.h"

struct engine_job;
struct engine_key;

/* ---- backend ----------------------------------------------------------------------------------------------------
 * What the prover workers call for one partition once its synthesis is done. prove_start runs on the prover worker
 * (for a GPU: the device part, cuzk_gpu_prove_msms) and prove_finish on a finalizer, before the proof is verified (for a
 * GPU: cuzk_groth16_assemble on the host), so that the worker takes the next partition while the host finishes this one;
 * the CPU backend does everything in prove_start. Between them the work item carries the backend's results (sums).
 * Both leave the proof in w->proof (after finish) and the phase times in w->stats; on failure they fill err and the
 * engine fails the job. CUZK_ERR_DEVICE from a backend takes the device out of service (engine.c).
 *
 * The fields after `destroy` are optional (zero: the CPU backend's behaviour):
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
typedef struct engine_work {
    struct engine_job *job;
    struct engine_key *key;
    uint32_t index;        /* partition */
    unsigned worker;       /* the prover worker that proved it (its device: worker / workers per device) */
    const cuzk_fr_t *z;         /* the partition's witness (= owned_z): generated for SYNTHETIC, parsed for GENERIC */
    cuzk_fr_t *owned_z;
    uint64_t z_bytes;      /* of owned_z; from the backend's witness_alloc when z_backend */
    bool z_backend;
    const void *z_form;    /* what the backend's witness_made made of z (NULL: z as synthesized) */
    cuzk_r1cs_c_mode c_mode;    /* CUZK_R1CS_C_CHECKED for a caller's witness (a backend that synthesizes checks it) */
    bool given_rs;         /* deterministic r and s (cuzk_engine_config.deterministic_rs) */
    cuzk_fr_t r, s;
    cuzk_groth16_synthesis syn; /* a, b, c from synthesis (backends that do not synthesize); the backend consumes them */
    void *dev_key;         /* the device key the worker proves with (backends with dev_key_load) */
    cuzk_groth16_msm_sums sums; /* prove_start's results for prove_finish (backends that compute the MSMs elsewhere) */
    cuzk_groth16_proof_t proof;
    cuzk_groth16_prove_stats stats;
    double upload_s;       /* backends that copy to a device report it; 0 on the CPU */
    uint64_t mem_bytes;    /* admitted working memory: the prover's part is released after prove_start, the
                            * witness's (z_mem) when the partition is dropped after verification */
    uint64_t z_mem;
    struct engine_work *next;
} engine_work;

typedef struct {
    uint64_t vram_bytes; /* held on the device by the key */
    bool streamed;       /* its bases stay in host memory (slow path) */
} engine_devkey_info;

typedef struct engine_backend {
    const char *name;
    void *ctx;
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

/* ---- keys (keys.c) --------------------------------------------------------------------------------------------- */
/* COLD: only files (or nothing: a synthetic key is made on demand). HOT: decoded, ready for provers; counted in the
 * key budget. WARM: the decoded points were dropped to make room, the files stay mapped (the PCE as the circuit
 * itself, the .params as bytes, both advised WILLNEED) and a reload decodes the points from memory; page cache, so
 * not counted in the key budget. LOADING: the loader owns the contents. */
typedef enum { KEY_COLD = 0, KEY_LOADING, KEY_HOT, KEY_WARM } key_state;

/* A key on one device (backends with dev_key_load). NONE: not there; LOADING: the device's loader makes it; READY:
 * provers use it (active counts the partitions being proved with it; only keys with active = 0 are evicted);
 * FAILED: it cannot be made on this device (error says why) until no job references the key any more. */
typedef enum { DK_NONE = 0, DK_LOADING, DK_READY, DK_FAILED } devkey_state;
typedef struct {
    devkey_state state;
    void *handle;
    uint64_t vram_bytes;
    bool streamed;
    uint32_t active;
    uint64_t last_use;
    double load_s;
    char error[256];
} engine_devkey;

typedef struct engine_key {
    char id[CUZK_ENGINE_ID_MAX];   /* circuit id, or "synthetic-<log2>-<seed>" */
    bool synthetic;
    unsigned log2;
    uint64_t seed;
    key_state state;
    bool load_queued;
    bool loading_from_warm;   /* while LOADING: the load started from WARM */
    uint64_t load_seq;        /* request order of queued loads */
    uint32_t refs;            /* jobs (not yet released) that need this key */
    uint64_t last_use;        /* LRU clock */
    uint64_t size_bytes;      /* in memory when HOT, mapped when WARM, on disk (or the last HOT size) when COLD */
    uint64_t hot_bytes;       /* the decoded size of the last load: the next load's estimate */
    uint64_t load_ms;
    double t_hot;             /* when it last became HOT */
    cuzk_status last_status;  /* of the last load */
    /* known after the first load (and kept when evicted), for memory admission at submit */
    bool dims_known;
    bool shape_known;          /* shape holds the loaded key's densities (cuzk_groth16_prove_shape_key); else the
                                * admission bound takes every variable as selected (cuzk_groth16_prove_shape_worst) */
    cuzk_groth16_prove_shape shape;
    uint64_t domain_size, num_vars, num_inputs;
    char last_error[256];     /* the last load's failure, given to the jobs that waited for it */
    /* HOT contents: cs (a PCE mapping when the key has files, else heap) and pk (with device keys, a synthetic key's
     * pk stays empty: the devices generate it). WARM: cs and params_map */
    cuzk_r1cs_t *cs;
    cuzk_groth16_pk pk;
    /* the verifying key (an owned copy, from the host key or the first device key) and its preparation: kept when
     * the contents go, replaced by the next host load (no partition is in flight then) */
    bool have_vk;
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    /* per device (engine.num_devices entries) with device keys, else NULL; dev_preload: preloads waiting for them */
    engine_devkey *dev;
    uint32_t dev_preload;
    const uint8_t *params_map;
    size_t params_map_len;
    struct engine_key *next;
} engine_key;

/* ---- metrics (metrics.c) ---------------------------------------------------------------------------------------- */
enum {
    STAGE_QUEUE, STAGE_ADMISSION, STAGE_SYNTHESIS, STAGE_UPLOAD, STAGE_SPMV, STAGE_NTT_H, STAGE_MSM, STAGE_FINALIZE,
    STAGE_VERIFY, STAGE_COUNT
};
#define HIST_BUCKETS 14

typedef struct {
    uint64_t count[HIST_BUCKETS + 1]; /* last = +Inf */
    uint64_t n;
    double sum;
} engine_hist;

extern const char *const cuzk_engine_stage_names[STAGE_COUNT];
void cuzk_engine_hist_add(engine_hist *h, double seconds);

/* kinds with their own counters and queue lines: the wire's four, GENERIC_CIRCUIT, SYNTHETIC */
#define ENGINE_NUM_KINDS 6
int cuzk_engine_kind_index(uint32_t kind); /* -1 when unknown */
const char *cuzk_engine_kind_name(uint32_t kind);

/* ---- jobs ------------------------------------------------------------------------------------------------------ */
typedef enum { JOB_QUEUED = 0, JOB_RUNNING, JOB_DONE } job_state;

typedef struct engine_job {
    char id[CUZK_ENGINE_ID_MAX];
    char request_id[CUZK_ENGINE_ID_MAX];
    uint32_t kind;
    cuzk_engine_priority prio;
    uint64_t seq; /* FIFO order within a priority */
    job_state state;
    engine_key *key;          /* referenced until the job is done and no partition is in flight */
    /* GENERIC_CIRCUIT input: the .wtns bytes (payload_bytes admitted at submit) or a path */
    uint8_t *wtns;
    size_t wtns_len;
    char *wtns_path;
    uint64_t payload_bytes;
    uint32_t partitions, next_part, inflight, parts_done;
    cuzk_groth16_proof_t *proofs;
    cuzk_engine_result result;     /* status, error_message and timings once done (proof filled on completion) */
    double t_submit, t_dispatch, t_admit_wait, t_done;
    double synth_s, prove_s, key_wait_s;
    uint32_t waiters;         /* cuzk_engine_await calls inside; a done job is purged only without them */
    struct engine_job *next;
} engine_job;

/* ---- devices ---------------------------------------------------------------------------------------------------- */
typedef struct {
    bool broken;              /* a device error took it out of service */
    char error[256];
    uint32_t busy;            /* prover workers inside prove_start */
    double busy_since;        /* when busy went from 0 to 1 */
    double busy_total;        /* seconds with busy > 0 (closed intervals) */
    uint32_t keys_resident;   /* device keys READY */
    uint64_t keys_bytes;      /* their VRAM */
    uint64_t partitions;      /* proved on it */
} engine_dev;

/* ---- the engine ------------------------------------------------------------------------------------------------ */
struct cuzk_engine {
    cuzk_engine_config cfg;
    char *param_dir;
    engine_backend be;
    unsigned num_devices, num_provers, num_finalizers;
    bool dev_keys;            /* the backend keeps keys on its devices (be.dev_key_load) */
    engine_dev *devs;         /* num_devices */
    unsigned devices_ok;      /* not broken */
    double t_first_prove;     /* when the first partition entered a prover (0: none yet) */

    pthread_mutex_t lock;
    pthread_cond_t work_cv;   /* synthesis workers: a partition may be dispatchable (new job, memory, key) */
    pthread_cond_t prover_cv; /* prover workers: the GPU queue has work */
    pthread_cond_t space_cv;  /* synthesis workers: the GPU queue has room */
    pthread_cond_t final_cv;  /* finalizer: work to verify */
    pthread_cond_t done_cv;   /* awaiters, preloads and shutdown: a job or key changed state */
    pthread_cond_t loader_cv; /* the key loader: a load was requested or a key was released */
    pthread_cond_t devload_cv; /* device-key loaders: a partition or preload wants a key, or a key became idle */

    bool shutting_down, stop;
    uint64_t next_seq, next_job_no, lru_clock, next_load_seq;
    engine_job *jobs, *jobs_tail;  /* every job not yet purged, in submission order */
    engine_work *gpu_q;            /* sorted by priority, then job order, then partition */
    uint32_t gpu_q_len;
    engine_work *final_q;
    uint32_t final_q_len;

    engine_key *keys;
    uint64_t key_budget, keys_hot_bytes;

    uint64_t mem_budget, mem_used, mem_peak;

    /* per-prover-worker current job, for status */
    char (*prover_job)[CUZK_ENGINE_ID_MAX];
    uint32_t *prover_kind;

    /* counters and histograms */
    uint64_t done_count[ENGINE_NUM_KINDS][3]; /* completed, failed, cancelled */
    uint64_t partitions_proved;
    engine_hist hist[STAGE_COUNT];
    double t_start;

    pthread_t *threads;
    unsigned num_threads;
};

/* The working-memory budget a config gives: its working_memory_budget, else 75 % of physical memory. */
uint64_t cuzk_engine_memory_budget(const cuzk_engine_config *cfg);

/* keys.c, all with the lock held */
engine_key *cuzk_engine_key_get(cuzk_engine *e, const char *id, bool synthetic, unsigned log2, uint64_t seed);
void cuzk_engine_key_request(cuzk_engine *e, engine_key *k);
void cuzk_engine_key_unref(cuzk_engine *e, engine_key *k);
void *cuzk_engine_loader_main(void *arg);
void cuzk_engine_key_free_contents(cuzk_engine *e, engine_key *k);

/* ---- devices and device keys (devkeys.c), lock held unless said otherwise ---------------------------------------- */
typedef struct {
    cuzk_engine *e;
    unsigned id; /* prover worker or device */
} engine_thread_arg;
/* one per device in service: makes the device keys that queued partitions, preloads and running jobs want */
void *cuzk_engine_devloader_main(void *arg);
/* Takes device d out of service (idempotent); fails every unfinished job when no device is left. */
void cuzk_engine_device_broken(cuzk_engine *e, unsigned d, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* why devices went out of service ("" when none did) */
const char *cuzk_engine_devices_error(cuzk_engine *e);
/* the engine's part of a device's status (keys, busy time, broken) */
void cuzk_engine_device_status(cuzk_engine *e, unsigned d, double now, cuzk_engine_gpu_status *out);
/* preloads: whether k is READY on every device in service; whether each of them is READY or FAILED; the error */
bool cuzk_engine_devkey_all_ready(cuzk_engine *e, engine_key *k);
bool cuzk_engine_devkey_all_settled(cuzk_engine *e, engine_key *k);
const char *cuzk_engine_devkey_error(cuzk_engine *e, engine_key *k);
/* A key that no job references any more may be tried again on devices where it failed. */
void cuzk_engine_devkey_unreferenced(cuzk_engine *e, engine_key *k);
/* Device keys leaving their devices: detached under the lock (the bookkeeping), freed by cuzk_engine_devkeys_release
 * after unlocking (freeing device memory waits for the device). */
typedef struct {
    struct { unsigned device; void *handle; } *items;
    size_t n, cap;
} engine_devkey_list;
uint64_t cuzk_engine_devkeys_detach(cuzk_engine *e, engine_key *k, engine_devkey_list *out); /* the idle ones; their VRAM */
void cuzk_engine_devkeys_release(cuzk_engine *e, engine_devkey_list *l);                     /* unlocked */
/* The toxic waste of a synthetic key: the same on the CPU and on every device, derived from log2 and seed. */
void cuzk_engine_synthetic_toxic(cuzk_groth16_setup_opts *o, uint64_t log2, uint64_t seed);
void cuzk_engine_keys_destroy(cuzk_engine *e);
bool cuzk_engine_circuit_id_valid(const char *id);
/* What admission reserves per partition of key k (its dimensions must be known): the backend's bound for the key's
 * shape (its densities once it has been loaded, the worst case for its dimensions before) plus the witness. */
uint64_t cuzk_engine_partition_need(const cuzk_engine *e, const struct engine_key *k);
/* GENERIC_CIRCUIT keys never loaded: their dimensions from the PCE header (false when it cannot be read; the load
 * then reports why) */
bool cuzk_engine_key_read_dims(cuzk_engine *e, engine_key *k);

/* engine.c, lock held: ends a job (no-op when already done) */
void cuzk_engine_job_finish(cuzk_engine *e, engine_job *j, cuzk_engine_job_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
