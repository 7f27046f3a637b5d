/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk engine: the proving service's core, independent of any transport. Jobs are submitted, scheduled by priority
 * through a per-partition pipeline (synthesis workers -> bounded GPU queue -> GPU/prover workers -> finalizers),
 * admitted against an exact memory model, verified, and kept for a while after they finish so that duplicate
 * request ids and late awaits get the same answer.
 *
 * The gRPC server (src/server) maps cuzk.v1 messages onto these calls one to one. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Values of the wire enums (proto/cuzk/v1/cuzk.proto), plus cuzk's two extensions. */
enum {
    CUZK_ENGINE_KIND_UNSPECIFIED = 0,
    CUZK_ENGINE_KIND_POREP_SEAL_COMMIT = 1,
    CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE = 2,
    CUZK_ENGINE_KIND_WINDOW_POST_PARTITION = 3,
    CUZK_ENGINE_KIND_WINNING_POST = 4,
    CUZK_ENGINE_KIND_GENERIC_CIRCUIT = 100, /* a circuit registered in the parameter directory + a .wtns witness */
    CUZK_ENGINE_KIND_SYNTHETIC = 101,       /* a `gen` circuit of 2^log2 constraints, witness from a seed */
};

typedef enum {
    CUZK_ENGINE_PRIO_UNSPECIFIED = 0, /* resolved by kind: WinningPoSt CRITICAL, WindowPoSt HIGH, others NORMAL */
    CUZK_ENGINE_PRIO_LOW = 1,
    CUZK_ENGINE_PRIO_NORMAL = 2,
    CUZK_ENGINE_PRIO_HIGH = 3,
    CUZK_ENGINE_PRIO_CRITICAL = 4,
} cuzk_engine_priority;
#define CUZK_ENGINE_NUM_PRIORITIES 5

/* AwaitProofResponse.Status */
typedef enum {
    CUZK_ENGINE_JOB_UNKNOWN = 0, /* also: still queued or running when an await times out is reported as TIMEOUT */
    CUZK_ENGINE_JOB_COMPLETED = 1,
    CUZK_ENGINE_JOB_FAILED = 2,
    CUZK_ENGINE_JOB_CANCELLED = 3,
    CUZK_ENGINE_JOB_TIMEOUT = 4,
} cuzk_engine_job_status;

#define CUZK_ENGINE_ID_MAX 128

/* Bytes a request points to (owned by the caller; copied or decoded by cuzk_engine_submit). */
typedef struct {
    const uint8_t *data;
    size_t len;
} cuzk_engine_bytes;

typedef struct {
    char request_id[CUZK_ENGINE_ID_MAX]; /* the job's id and idempotency key (Curio's porep-<miner>-<sector>); empty:
                                          * the engine makes one (job-N) */
    uint32_t proof_kind;
    cuzk_engine_priority priority;
    /* GENERIC_CIRCUIT */
    char circuit_id[CUZK_ENGINE_ID_MAX];
    const uint8_t *witness; /* .wtns bytes; copied by cuzk_engine_submit */
    size_t witness_len;
    char witness_path[4096];
    /* SYNTHETIC */
    uint32_t synthetic_log2;
    uint64_t seed;
    uint32_t partitions; /* 0 = 1 */
    /* The Filecoin kinds (Curio's SubmitProofRequest fields; docs/daemon.md §4.1). registered_proof picks the
     * circuit (sector_size, when not 0, must agree); miner_id gives the prover id. WINNING_POST and
     * WINDOW_POST_PARTITION take one bincode FallbackPoStSectorProof per sector in vanilla_proofs, the 32-byte
     * randomness and, for WindowPoSt, partition_index. POREP_SEAL_COMMIT takes the commit-phase-1 output in
     * vanilla_proof (Curio's envelope {"SectorNum", "Phase1Out": base64, "SectorSize"} or the bare JSON) and the
     * sector in sector_number; SNAP_DEALS_UPDATE one bincode PartitionProof per partition in vanilla_proofs and
     * comm_r_old, comm_d_new, comm_r_new (32 bytes each, or the commitments' CIDs). A request that does not fit its
     * registered proof is accepted and FAILED at once, the message naming the field. */
    uint64_t sector_size, registered_proof, sector_number, miner_id;
    cuzk_engine_bytes vanilla_proof;
    const cuzk_engine_bytes *vanilla_proofs;
    size_t num_vanilla_proofs;
    cuzk_engine_bytes randomness, comm_r_old, comm_r_new, comm_d_new;
    uint32_t partition_index;
} cuzk_engine_request;

typedef struct {
    cuzk_engine_job_status status;
    uint8_t *proof; /* 192 bytes per partition, malloc'd; the caller frees with cuzk_engine_result_clear */
    size_t proof_len;
    char error_message[512];
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
    /* under cuzk_engine_config.fil_benchmark_inputs only: partitions whose proof did not verify (the job COMPLETED
     * all the same, error_message saying how many); 0 otherwise, where such a job FAILED */
    uint32_t unverified_partitions;
} cuzk_engine_result;

void cuzk_engine_result_clear(cuzk_engine_result *r);

/* What the engine tells its owner as jobs go (the daemon logs them). */
typedef enum {
    CUZK_ENGINE_EVENT_ACCEPTED = 0, /* a new job (not a duplicate that attached to one) */
    CUZK_ENGINE_EVENT_STARTED = 1,  /* its first partition was dispatched */
    CUZK_ENGINE_EVENT_ENDED = 2,    /* COMPLETED, FAILED or CANCELLED */
} cuzk_engine_event_kind;

typedef struct {
    cuzk_engine_event_kind kind;
    const char *job_id;
    uint32_t proof_kind;
    cuzk_engine_priority priority; /* resolved */
    uint32_t partitions;
    bool retry;                       /* ACCEPTED: the id named a FAILED or CANCELLED job, which this one replaces */
    const cuzk_engine_result *result; /* ENDED: status, error_message and timings (proof NULL) */
} cuzk_engine_event;

/* Called with the engine's lock held, from the thread that made the change: it must be quick and must not call the
 * engine. */
typedef void (*cuzk_engine_event_fn)(void *ctx, const cuzk_engine_event *ev);

typedef enum {
    CUZK_ENGINE_BACKEND_AUTO = 0, /* the GPUs when this build has CUDA and a device is visible, else the CPU */
    CUZK_ENGINE_BACKEND_CPU = 1,  /* never the GPUs */
    CUZK_ENGINE_BACKEND_GPU = 2,  /* the GPUs, or cuzk_engine_create fails */
} cuzk_engine_backend_kind;

typedef struct {
    const char *param_dir; /* circuit registry: <dir>/<id>.pce + <id>.params (and synthetic key cache);
                                     * Filecoin's v28 parameter files (.params by their manifest names) */
    /* Filecoin proofs: the registered proof's v28 .params in param_dir and its circuit's shape (a PCE file) from the
     * shape cache (cuzk_fil_shape_load_or_build: built on first use, then mapped) */
    const char *pce_dir;        /* the shape cache; NULL or "" = <param_dir>/cuzk-pce */
    bool skip_param_digest;     /* use a .params file without checking its manifest digest first (the check
                                     * hashes the whole file once per engine and file: BLAKE2b, about 1 GB/s) */
    const char *param_manifest; /* a parameters.json (rust-fil-proofs' form: name -> {cid, digest, sector_size})
                                     * whose digests replace the built-in v28 manifest's for the files it lists, e.g.
                                     * for test keys; NULL = the built-in manifest alone */
    /* TESTS AND BENCHMARKS ONLY: Filecoin circuits get keys made from toxic waste derived from their SRS id (on each
     * device with the GPU backend, as synthetic keys are) instead of the v28 files. Their proofs verify only against
     * those keys: never in production. */
    bool fil_generated_keys;
    /* BENCHMARKS ONLY: Filecoin requests made by a generator (random labels and paths: cuzk_fil_c1_random,
     * cuzk_fil_snap_partition_random) are proved although their hashes do not hold. Their structure is checked as
     * always, their hashes are not (no C1 check, no SnapDeals path validation, no comparison of the witness's
     * inputs), and every partition's proof is still verified but one that does not verify is counted
     * (cuzk_engine_result.unverified_partitions) instead of failing the job. Never in production. */
    bool fil_benchmark_inputs;
    unsigned synthesis_workers;      /* parallel partitions in synthesis */
    unsigned synthesis_threads;      /* threads per synthesis */
    unsigned prover_threads;         /* CPU backend: threads per partition's H/MSM work */
    unsigned gpu_workers_per_device; /* 0 = the backend's default: 1 (a second prover's buffers leave no room for a
                                      * 2^27 key even on an H200; docs/daemon.md §2.4) */
    const int *gpu_devices;          /* NULL/0 = all visible devices; CPU backend when there are none */
    size_t num_gpu_devices;
    bool gpu_latency_pairs;         /* latency mode: GPUs in pairs, each partition split over its pair (H on one,
                                     * L, A, B on the other): lower latency, lower throughput; an even count */
    bool gpu_split_ntt_tables;      /* the provers keep the small split NTT tables even where a resident key leaves
                                     * room for whole ones (cuzk_gpu_key_opts.split_ntt_tables): more room for keys */
    unsigned gpu_queue_depth;       /* bounded queue between synthesis and provers, in partitions */
    uint64_t working_memory_budget; /* bytes; 0 = 75% of physical memory */
    uint64_t pinned_budget;         /* bytes of pinned host memory for keys and transfers */
    uint64_t vram_budget;           /* bytes per device for keys and provers; 0 = what it reports free at start,
                                     * less 1 GiB */
    uint64_t result_ttl_ms;         /* how long finished results stay for duplicates and awaits */
    uint64_t max_request_bytes;
    cuzk_engine_backend_kind backend;
    cuzk_engine_event_fn on_event; /* NULL: none */
    void *on_event_ctx;
    /* TESTS ONLY: r and s derived from the key and partition instead of the OS random source, so that two engines
     * (CPU and GPU backends) give the same proof bytes. Such proofs are not zero-knowledge: never in production. */
    bool deterministic_rs;
} cuzk_engine_config;

typedef struct cuzk_engine cuzk_engine;

cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg, cuzk_errmsg *err);
/* Stops intake, lets running and queued work finish until deadline_ms, then cancels what is left; returns when
 * every worker has stopped. Every accepted job ends in COMPLETED, FAILED or CANCELLED (none is lost silently). */
void cuzk_engine_shutdown(cuzk_engine *e, uint64_t deadline_ms);
void cuzk_engine_destroy(cuzk_engine *e);

/* Accepts a job. Its id is request_id when one is given (so that AwaitProof and CancelProof find it by the caller's
 * id, as Curio's daemon does), else a new job-N. A request_id naming a job that is queued, running, or COMPLETED
 * within result_ttl_ms attaches to that job (*attached = true: same id, one proof); one naming a FAILED or
 * CANCELLED job starts a new job under that id (Curio retries a failed proof with its id). Malformed requests are
 * rejected here with a status and message (unknown circuit, witness of the wrong length, job larger than the memory
 * budget, ...). */
cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_engine_request *req, char job_id[CUZK_ENGINE_ID_MAX],
                               uint32_t *queue_position, bool *attached, cuzk_errmsg *err);
/* Waits for the job (timeout_ms 0 = forever); status TIMEOUT when it is still pending at the deadline. */
cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms, cuzk_engine_result *out);
/* A queued job is cancelled at once, a running one at its next stage boundary. */
cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running);

/* Holds the pipeline (on) or lets it go on (off). While held, a synthesis worker that takes a partition waits before
 * working on it: that partition's job counts as running, every job after it stays queued, and nothing completes
 * that had not passed synthesis. Submissions, cancels (a held partition of a cancelled job is dropped), awaits and
 * status go on as usual; a shutdown's deadline ends the hold. For operators (the daemon's SIGUSR1 and SIGUSR2) and
 * for tests that need a job to stay queued or running however fast the machine is. */
void cuzk_engine_hold(cuzk_engine *e, bool on);

typedef struct {
    uint32_t ordinal;
    char name[128];
    uint64_t vram_total_bytes, vram_free_bytes; /* as the driver last reported them */
    char current_job_id[CUZK_ENGINE_ID_MAX];
    char current_proof_kind[32];
    /* cuzk's own */
    uint64_t vram_budget_bytes; /* for keys and provers */
    uint64_t vram_keys_bytes;   /* held by the resident keys */
    uint32_t keys_resident;
    bool busy;           /* a prover is working on it now */
    double busy_seconds; /* time with at least one prover working on it */
    double busy_ratio;   /* busy_seconds over the wall time since the engine's first partition */
    uint64_t partitions; /* proved on it */
    bool broken;         /* taken out of service after a device error (error says which) */
    char error[256];
} cuzk_engine_gpu_status;

typedef enum { CUZK_ENGINE_TIER_HOT = 0, CUZK_ENGINE_TIER_WARM = 1, CUZK_ENGINE_TIER_COLD = 2 } cuzk_engine_tier;

typedef struct {
    char circuit_id[CUZK_ENGINE_ID_MAX];
    cuzk_engine_tier tier;
    uint64_t size_bytes;
    uint32_t ref_count;
} cuzk_engine_srs_status;

typedef struct {
    char proof_kind[32]; /* Curio's names (cuzk_engine_kind_name) */
    uint32_t pending, in_progress;
} cuzk_engine_queue_status;

typedef struct {
    cuzk_engine_gpu_status *gpus;
    size_t num_gpus;
    cuzk_engine_srs_status *srs;
    size_t num_srs;
    cuzk_engine_queue_status *queues;
    size_t num_queues;
    uint64_t total_proofs_completed, total_proofs_failed, uptime_seconds;
    uint64_t pinned_memory_bytes, pinned_memory_limit_bytes;
} cuzk_engine_status_report;

/* Fills a snapshot (arrays malloc'd; release with cuzk_engine_status_clear). */
cuzk_status cuzk_engine_status(cuzk_engine *e, cuzk_engine_status_report *out);
void cuzk_engine_status_clear(cuzk_engine_status_report *r);

/* circuit_id: a registered circuit (<param_dir>/<id>.pce + .params), synthetic-<log2>-<seed>, or one of Curio's SRS
 * ids (porep-32g, wpost-32g, winning-32g, snap-32g, ...: cuzk_fil_proof_by_srs_id), which loads that circuit's v28
 * .params file from the parameter directory (digest checked) with its shape from the shape cache, and with device
 * keys its copy on every device in service: the key the Filecoin jobs of that circuit use. */
cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *circuit_id, bool *already_loaded, uint64_t *load_time_ms,
                                cuzk_errmsg *err);
cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *circuit_id, bool *was_loaded, uint64_t *freed_bytes);

/* Prometheus text exposition of every counter, gauge and per-stage latency histogram, Curio's metrics among them
 * (malloc'd). */
char *cuzk_engine_metrics_text(cuzk_engine *e);
/* The JSON document Curio's daemon serves at GET /status (uptime, memory, synthesis, pipelines with their
 * partitions, GPU workers, allocations, counters, buffers; docs/daemon.md), malloc'd. */
char *cuzk_engine_status_json(cuzk_engine *e);

/* Proof kinds by name: Curio's (porep-c2, snap-update, window-post, winning-post; cuzk's generic, synthetic), as in
 * status and logs; the Prometheus label (porep_c2, ...); the wire enum's (POREP_SEAL_COMMIT, ...). "unknown" /
 * "UNKNOWN" for others. */
const char *cuzk_engine_kind_name(uint32_t kind);
const char *cuzk_engine_kind_label(uint32_t kind);
const char *cuzk_engine_kind_wire_name(uint32_t kind);

#ifdef __cplusplus
}
#endif

#endif
