/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The engine's state, shared by its files, and the internal headers by concern:
 *   engine_backend.h   the backend interface (static const operation tables) and its constructors
 *   engine_jobs.h      jobs, partition work items, the list of jobs to fail
 *   engine_keys.h      the key manager (keys.c)
 *   engine_devkeys.h   devices and the keys on them (devkeys.c)
 *   engine_metrics.h   counters and histograms (metrics.c)
 *   engine_fil.h       the Filecoin proof kinds and the parameter manifest (fil.c)
 * Calls go one way: engine.c calls the key managers and the backend; the key managers (keys.c, devkeys.c) never call
 * back into engine.c, they return what engine.c must do (the jobs to fail). Everything is guarded by the engine's
 * one mutex (engine.lock) unless a comment says otherwise; the heavy work (loading, synthesis, proving, verifying)
 * always runs with the lock released. */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "engine_backend.h"
#include "engine_devkeys.h"
#include "engine_fil.h"
#include "engine_jobs.h"
#include "engine_keys.h"
#include "engine_metrics.h"

struct cuzk_engine {
    cuzk_engine_config cfg;
    char *param_dir;
    char *pce_dir;                     /* the Filecoin shape cache (NULL: no parameter directory) */
    engine_fil_digest *manifest;       /* the override's digests (cuzk_engine_config.param_manifest) */
    engine_fil_circuits *fil_circuits; /* circuit objects the Filecoin kinds share (its own lock) */
    size_t manifest_len;
    engine_backend be;
    unsigned num_devices, num_provers, num_finalizers;
    bool dev_keys;        /* the backend keeps keys on its devices (be.ops->dev_key_load) */
    engine_dev *devs;     /* num_devices */
    unsigned devices_ok;  /* not broken */
    double t_first_prove; /* when the first partition entered a prover (0: none yet) */

    pthread_mutex_t lock;
    pthread_cond_t work_cv;    /* synthesis workers: a partition may be dispatchable (new job, memory, key) */
    pthread_cond_t prover_cv;  /* prover workers: the GPU queue has work */
    pthread_cond_t space_cv;   /* synthesis workers: the GPU queue has room */
    pthread_cond_t final_cv;   /* finalizer: work to verify */
    pthread_cond_t done_cv;    /* awaiters, preloads and shutdown: a job or key changed state */
    pthread_cond_t loader_cv;  /* the key loader: a load was requested or a key was released */
    pthread_cond_t devload_cv; /* device-key loaders: a partition or preload wants a key, or a key became idle */

    bool shutting_down, stop;
    bool held; /* cuzk_engine_hold: workers wait with the partition they took */
    uint64_t next_seq, next_job_no, lru_clock, next_load_seq;
    engine_job *jobs, *jobs_tail; /* every job not yet purged, in submission order */
    engine_work *gpu_q;           /* sorted by priority, then job order, then partition */
    uint32_t gpu_q_len;
    engine_work *final_q;
    uint32_t final_q_len;

    engine_key *keys;
    uint64_t key_budget, keys_hot_bytes;

    uint64_t mem_budget, mem_used, mem_peak;

    /* per-prover-worker current job, for status */
    char (*prover_job)[CUZK_ENGINE_ID_MAX];
    uint32_t *prover_kind;
    uint32_t *prover_part; /* its partition */
    double *prover_since;  /* when it took it */

    /* counters and histograms */
    uint64_t done_count[ENGINE_NUM_KINDS][3]; /* completed, failed, cancelled */
    double done_seconds[ENGINE_NUM_KINDS];    /* completed jobs' submission-to-end time, summed */
    uint64_t partitions_proved;
    engine_hist hist[STAGE_COUNT];
    /* the provers' work, summed over partitions (cuzk_groth16_prove_stats): transform sizes 2^domain_log2, and the
     * points of the H, L, A and B MSMs with a scalar other than 0 and 1 */
    uint64_t work_ntt_size, work_points[4];
    double t_start;

    pthread_t *threads;
    unsigned num_threads;
};

#endif
