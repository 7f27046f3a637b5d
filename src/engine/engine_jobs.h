/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Jobs and their partitions (engine.c): a job, the work item that carries one partition through the pipeline, and
 * the list of jobs to fail that the key managers hand back to engine.c. Guarded by the engine's lock. */
#ifndef CUZK_ENGINE_JOBS_H
#define CUZK_ENGINE_JOBS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/engine.h"
#include "cuzk/groth16.h"

struct engine_job;
struct engine_key;
struct engine_fil_input;

/* One partition from dispatch to verification. Between a backend's prove_start and prove_finish the item carries
 * the backend's results (sums); see engine_backend.h. */
typedef struct engine_work {
    struct engine_job *job;
    struct engine_key *key;
    uint32_t index;     /* partition */
    unsigned worker;    /* the prover worker that proved it (its device: worker / workers per device) */
    const cuzk_fr_t *z; /* the partition's witness (= owned_z): generated for SYNTHETIC, parsed for GENERIC */
    cuzk_fr_t *owned_z;
    uint64_t z_bytes; /* of owned_z; from the backend's witness_alloc when z_backend */
    bool z_backend;
    const void *z_form;      /* what the backend's witness_made made of z (NULL: z as synthesized) */
    cuzk_r1cs_c_mode c_mode; /* CUZK_R1CS_C_CHECKED for a caller's witness (a backend that synthesizes checks it) */
    bool given_rs;           /* deterministic r and s (cuzk_engine_config.deterministic_rs) */
    cuzk_fr_t r, s;
    cuzk_groth16_synthesis syn; /* a, b, c from synthesis (backends that do not synthesize); consumed by the backend */
    void *dev_key;              /* the device key the worker proves with (backends with dev_key_load) */
    cuzk_groth16_msm_sums sums; /* prove_start's results for prove_finish (backends that compute the MSMs elsewhere) */
    cuzk_groth16_proof_t proof;
    cuzk_groth16_prove_stats stats;
    double upload_s;    /* backends that copy to a device report it; 0 on the CPU */
    uint64_t mem_bytes; /* admitted working memory: the prover's part is released after prove_start, the
                            * witness's (z_mem) when the partition is dropped after verification */
    uint64_t z_mem;
    struct engine_work *next;
} engine_work;

typedef enum { JOB_QUEUED = 0, JOB_RUNNING, JOB_DONE } job_state;

/* Where a partition is, for status (Curio's states). */
typedef enum { PART_PENDING = 0, PART_SYNTHESIZING, PART_SYNTH_DONE, PART_GPU, PART_DONE, PART_FAILED } part_phase;
typedef struct {
    part_phase phase;
    double t_synth0, t_synth1, t_gpu0, t_gpu1; /* 0: not yet */
} engine_part;

typedef struct engine_job {
    char id[CUZK_ENGINE_ID_MAX];
    char request_id[CUZK_ENGINE_ID_MAX];
    uint32_t kind;
    cuzk_engine_priority prio;
    uint64_t seq; /* FIFO order within a priority */
    job_state state;
    struct engine_key *key; /* referenced until the job is done and no partition is in flight */
    /* GENERIC_CIRCUIT input: the .wtns bytes (payload_bytes admitted at submit) or a path */
    uint8_t *wtns;
    size_t wtns_len;
    char *wtns_path;
    uint64_t payload_bytes;
    /* the Filecoin kinds' decoded input (engine_fil.h): read by the partitions, freed (and its fil_bytes of
     * working memory given back) once the job is done and none is in flight */
    struct engine_fil_input *fil;
    uint64_t fil_bytes;
    uint32_t partitions, next_part, inflight, parts_done;
    uint32_t unverified; /* cuzk_engine_config.fil_benchmark_inputs: partitions whose proof did not verify */
    cuzk_groth16_proof_t *proofs;
    engine_part *parts;        /* [partitions], kept after the job ends (status shows it for a while) */
    bool superseded;           /* a FAILED or CANCELLED job whose id a new job took: no longer found by id */
    cuzk_engine_result result; /* status, error_message and timings once done (proof filled on completion) */
    double t_submit, t_dispatch, t_admit_wait, t_done;
    double synth_s, prove_s, key_wait_s;
    uint32_t waiters; /* cuzk_engine_await calls inside; a done job is purged only without them */
    /* on an engine_failures list: the next one and why this job fails */
    bool fail_listed;
    struct engine_job *fail_next;
    char fail_reason[sizeof((cuzk_engine_result *)0)->error_message];
    struct engine_job *next;
} engine_job;

/* Jobs that must fail, each with its reason. The key managers (keys.c, devkeys.c) never end a job themselves: they
 * return such a list and engine.c ends its jobs before it lets go of the lock. The list runs through the jobs
 * (fail_next), so building it never allocates; a job is listed once, with its first reason, and jobs already done
 * are left out. */
typedef struct {
    engine_job *head, *tail;
} engine_failures;

static inline void engine_failures_add(engine_failures *f, engine_job *j, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void engine_failures_add(engine_failures *f, engine_job *j, const char *fmt, ...)
{
    if (j->state == JOB_DONE || j->fail_listed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->fail_reason, sizeof j->fail_reason, fmt, ap);
    va_end(ap);
    j->fail_listed = true;
    j->fail_next = NULL;
    if (f->tail != NULL) f->tail->fail_next = j;
    else f->head = j;
    f->tail = j;
}

#endif
