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
 * What the prover workers call for one partition whose synthesis (a, b, c) is done. A GPU backend starts the
 * upload and kernels in prove_start and waits for them in prove_finish, so a worker can overlap the next partition's
 * upload with the last one's tail; the CPU backend does everything in prove_start. Both return the proof in
 * w->proof and the phase times in w->stats; on failure they fill err and the engine fails the job. */
typedef struct engine_work {
    struct engine_job *job;
    struct engine_key *key;
    uint32_t index;        /* partition */
    const fr_t *z;         /* the partition's witness (= owned_z): generated for SYNTHETIC, parsed for GENERIC */
    fr_t *owned_z;
    groth16_synthesis syn; /* a, b, c from synthesis; the backend consumes them */
    groth16_proof_t proof;
    groth16_prove_stats stats;
    double upload_s;       /* backends that copy to a device report it; 0 on the CPU */
    uint64_t mem_bytes;    /* admitted working memory, released after the prover */
    struct engine_work *next;
} engine_work;

typedef struct engine_backend {
    const char *name;
    void *ctx;
    unsigned (*num_devices)(void *ctx);
    void (*device_info)(void *ctx, unsigned device, engine_gpu_status *out);
    /* the bytes one partition holds from synthesis to the end of its proof, besides the witness */
    uint64_t (*partition_bytes)(void *ctx, uint64_t domain_size, uint64_t num_vars);
    cuzk_status (*prove_start)(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err);
    cuzk_status (*prove_finish)(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err);
    void (*destroy)(void *ctx);
} engine_backend;

/* threads per partition's H and MSM work */
cuzk_status engine_backend_cpu(engine_backend *b, unsigned threads);

/* engine_create with a given backend (the engine takes it over and calls its destroy). Used by the GPU backend's
 * wiring and by tests that inject failures. */
cuzk_status engine_create_with_backend(engine **out, const engine_config *cfg, const engine_backend *be,
                                       cuzk_errmsg *err);

/* ---- keys (keys.c) --------------------------------------------------------------------------------------------- */
/* COLD: only files (or nothing: a synthetic key is made on demand). HOT: decoded, ready for provers; counted in the
 * key budget. WARM: the decoded points were dropped to make room, the files stay mapped (the PCE as the circuit
 * itself, the .params as bytes, both advised WILLNEED) and a reload decodes the points from memory; page cache, so
 * not counted in the key budget. LOADING: the loader owns the contents. */
typedef enum { KEY_COLD = 0, KEY_LOADING, KEY_HOT, KEY_WARM } key_state;

typedef struct engine_key {
    char id[ENGINE_ID_MAX];   /* circuit id, or "synthetic-<log2>-<seed>" */
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
    uint64_t domain_size, num_vars, num_inputs;
    char last_error[256];     /* the last load's failure, given to the jobs that waited for it */
    /* HOT contents: cs (a PCE mapping when the key has files, else heap), pk, pvk. WARM: cs and params_map */
    r1cs_t *cs;
    groth16_pk pk;
    groth16_pvk pvk;
    const uint8_t *params_map;
    size_t params_map_len;
    struct engine_key *next;
} engine_key;

/* ---- metrics (metrics.c) ---------------------------------------------------------------------------------------- */
enum {
    STAGE_QUEUE, STAGE_ADMISSION, STAGE_SYNTHESIS, STAGE_UPLOAD, STAGE_NTT_H, STAGE_MSM, STAGE_FINALIZE,
    STAGE_VERIFY, STAGE_COUNT
};
#define HIST_BUCKETS 14

typedef struct {
    uint64_t count[HIST_BUCKETS + 1]; /* last = +Inf */
    uint64_t n;
    double sum;
} engine_hist;

extern const char *const engine_stage_names[STAGE_COUNT];
void engine_hist_add(engine_hist *h, double seconds);

/* kinds with their own counters and queue lines: the wire's four, GENERIC_CIRCUIT, SYNTHETIC */
#define ENGINE_NUM_KINDS 6
int engine_kind_index(uint32_t kind); /* -1 when unknown */
const char *engine_kind_name(uint32_t kind);

/* ---- jobs ------------------------------------------------------------------------------------------------------ */
typedef enum { JOB_QUEUED = 0, JOB_RUNNING, JOB_DONE } job_state;

typedef struct engine_job {
    char id[ENGINE_ID_MAX];
    char request_id[ENGINE_ID_MAX];
    uint32_t kind;
    engine_priority prio;
    uint64_t seq; /* FIFO order within a priority */
    job_state state;
    engine_key *key;          /* referenced until the job is done and no partition is in flight */
    /* GENERIC_CIRCUIT input: the .wtns bytes (payload_bytes admitted at submit) or a path */
    uint8_t *wtns;
    size_t wtns_len;
    char *wtns_path;
    uint64_t payload_bytes;
    uint32_t partitions, next_part, inflight, parts_done;
    groth16_proof_t *proofs;
    engine_result result;     /* status, error_message and timings once done (proof filled on completion) */
    double t_submit, t_dispatch, t_admit_wait, t_done;
    double synth_s, prove_s, key_wait_s;
    uint32_t waiters;         /* engine_await calls inside; a done job is purged only without them */
    struct engine_job *next;
} engine_job;

/* ---- the engine ------------------------------------------------------------------------------------------------ */
struct engine {
    engine_config cfg;
    char *param_dir;
    engine_backend be;
    unsigned num_devices, num_provers;

    pthread_mutex_t lock;
    pthread_cond_t work_cv;   /* synthesis workers: a partition may be dispatchable (new job, memory, key) */
    pthread_cond_t prover_cv; /* prover workers: the GPU queue has work */
    pthread_cond_t space_cv;  /* synthesis workers: the GPU queue has room */
    pthread_cond_t final_cv;  /* finalizer: work to verify */
    pthread_cond_t done_cv;   /* awaiters, preloads and shutdown: a job or key changed state */
    pthread_cond_t loader_cv; /* the key loader: a load was requested or a key was released */

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
    char (*prover_job)[ENGINE_ID_MAX];
    uint32_t *prover_kind;

    /* counters and histograms */
    uint64_t done_count[ENGINE_NUM_KINDS][3]; /* completed, failed, cancelled */
    uint64_t partitions_proved;
    engine_hist hist[STAGE_COUNT];
    double t_start;

    pthread_t *threads;
    unsigned num_threads;
};

double engine_now(void);

/* keys.c, all with the lock held */
engine_key *engine_key_get(engine *e, const char *id, bool synthetic, unsigned log2, uint64_t seed);
void engine_key_request(engine *e, engine_key *k);
void engine_key_unref(engine *e, engine_key *k);
void *engine_loader_main(void *arg);
void engine_key_free_contents(engine *e, engine_key *k);
void engine_keys_destroy(engine *e);
bool engine_circuit_id_valid(const char *id);
/* job memory per partition for a key of these dimensions: the prover's peak bound plus the partition's witness */
uint64_t engine_partition_need(const engine *e, uint64_t domain_size, uint64_t num_vars);
/* GENERIC_CIRCUIT keys never loaded: their dimensions from the PCE header (false when it cannot be read; the load
 * then reports why) */
bool engine_key_read_dims(engine *e, engine_key *k);

/* engine.c, lock held: ends a job (no-op when already done) */
void engine_job_finish(engine *e, engine_job *j, engine_job_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
