/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The GPU backend (built only with CUDA): one engine device per GPU in use, gpu_workers_per_device provers each.
 *
 * Only the witness crosses PCIe: synthesis produces the witness alone, into pinned host memory from a small pool
 * (pinning gigabytes per partition would cost more than the copy), and prove_start runs cuzk_gpu_prove_msms on the
 * worker's device with its own cuzk_gpu_prover (witness upload, SpMV, H, the 0/1 split and every MSM on the device).
 * prove_finish, on a finalizer, assembles the proof on the host (cuzk_groth16_assemble with the engine's copy of the
 * verifying key), so the device takes the next partition meanwhile.
 *
 * Keys live on the devices (the engine's device keys, devkeys.c): a registered circuit's key is uploaded from the
 * host key (cuzk_gpu_key_upload); a generated key (a synthetic one, or a Filecoin circuit's test key) is made on each
 * device by cuzk_gpu_setup from the same toxic waste the CPU path uses (cuzk_engine_key_toxic), so the host never holds
 * its bases. Each load is planned against the
 * device's VRAM budget (config, else the free VRAM at start less 1 GiB) less what the device's other keys hold and
 * what the provers' buffers may grow to.
 *
 * Latency mode (gpu_latency_pairs): GPUs 2d and 2d + 1 form engine device d. Each holds a copy of every key the pair
 * loads, each worker has a prover on both, and a partition runs cuzk_gpu_prove_msms_pair: SpMV, H and part of the H MSM
 * on the first GPU while the second computes the L, A and B MSMs and then the rest of the H MSM, each worker's first
 * prover learning the share that makes both sides finish together (docs/performance/prover.md has the times). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "engine_backend.h"
#include "engine_keys.h"

#define GIB ((uint64_t)1 << 30)

typedef struct {
    int ordinal;
    char name[128];
    uint64_t total, free_now, budget;
    uint64_t max_prover_bytes; /* the largest working memory one prover was planned for (buffers only grow) */
} gdev;

typedef struct {
    void *p;
    uint64_t bytes;
    bool pinned; /* else malloc'd (pinning failed) */
    bool in_use;
} gbuf;

/* A key on an engine device: one cuzk_gpu_key, or in latency mode a copy on each GPU of the pair. */
typedef struct {
    cuzk_gpu_key *k[2];
} devkey;

typedef struct {
    unsigned num_devices, workers;
    unsigned sides;    /* GPUs per engine device: 1, or 2 in latency mode */
    bool split_tables; /* cuzk_gpu_key_opts.split_ntt_tables for every key */
    gdev *dev;         /* num_devices × sides GPUs: engine device d has GPUs d·sides .. d·sides + sides − 1 */
    cuzk_gpu_prover **provers; /* per worker and side: made when a key loads on its device, or at its first partition */
    pthread_mutex_t *prover_lock; /* per worker: its prover is used by one thread at a time */
    pthread_mutex_t lock;         /* devices' cached figures, the buffer pool */
    gbuf *bufs;
    size_t num_bufs, cap_bufs, max_idle;
    size_t reserving;  /* idle buffers being made by reserve_witness_buffers, counted as idle */
    uint64_t pool_cap; /* the engine's working-memory budget: reserve_witness_buffers keeps the pool within it */
    bool trace;        /* CUZK_GPU_TRACE set: one line per partition on stderr (device, times, phases) */
    double t0;         /* cuzk_now() at creation, the trace's time origin */
} gpu_ctx;

static unsigned g_num_devices(void *ctx) { return ((gpu_ctx *)ctx)->num_devices; }

/* the gdev of side `side` of engine device `device` */
static gdev *gpu_of(gpu_ctx *c, unsigned device, unsigned side) { return &c->dev[device * c->sides + side]; }

/* A latency pair reports its first GPU's figures, named after both. */
static void g_device_info(void *ctx, unsigned device, cuzk_engine_gpu_status *out)
{
    gpu_ctx *c = ctx;
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&c->lock);
    const gdev *d = gpu_of(c, device, 0);
    out->ordinal = (uint32_t)d->ordinal;
    if (c->sides == 2)
        snprintf(out->name, sizeof out->name, "%.100s + GPU %d (latency pair)", d->name, gpu_of(c, device, 1)->ordinal);
    else snprintf(out->name, sizeof out->name, "%s", d->name);
    out->vram_total_bytes = d->total;
    out->vram_free_bytes = d->free_now;
    out->vram_budget_bytes = d->budget;
    pthread_mutex_unlock(&c->lock);
}

/* A witness buffer's room beyond z's own bytes: the classes of the packed witness and its packing (witness_made). */
static uint64_t pack_room(uint64_t z_bytes)
{
    return cuzk_gpu_witness_classes_words(z_bytes / sizeof(cuzk_fr_t)) * sizeof(uint64_t) +
           sizeof(cuzk_gpu_witness_packing);
}

/* The pool's buffer for a witness of z_bytes: z, then that room. */
static uint64_t witness_buffer_bytes(uint64_t z_bytes) { return z_bytes + pack_room(z_bytes); }

/* The host holds only the witness (counted by the engine), its packing's room and a few points between synthesis
 * and verification. */
static uint64_t g_partition_bytes(void *ctx, const cuzk_groth16_prove_shape *shape)
{
    (void)ctx;
    return pack_room(shape->vars[CUZK_GROTH16_MSM_A] * sizeof(cuzk_fr_t)); /* A's split visits every variable */
}

/* The witness packed in place (most values are 0 or 1: about a fifth of the bytes cross PCIe), its classes and
 * packing in the buffer's room after z. */
static cuzk_status g_witness_made(void *ctx, engine_work *w, unsigned threads, cuzk_errmsg *err)
{
    (void)ctx, (void)err;
    if (!w->z_backend) return CUZK_OK; /* not one of our buffers: sent whole */
    const cuzk_r1cs_t *cs = w->key->cs;
    uint64_t *classes = (uint64_t *)((char *)w->owned_z + w->z_bytes);
    cuzk_gpu_witness_packing *pk = (cuzk_gpu_witness_packing *)(classes + cuzk_gpu_witness_classes_words(cs->num_aux));
    cuzk_gpu_witness_pack(pk, w->owned_z, cs->num_inputs, cs->num_aux, classes, threads);
    w->z_form = pk;
    return CUZK_OK;
}

/* On the calling thread, whose current GPU is d: its free VRAM into the cache (status reads it without touching the
 * driver). */
static void refresh_mem(gpu_ctx *c, gdev *d)
{
    size_t f = 0, t = 0;
    if (cuzk_gpu_mem_info(&f, &t) != CUZK_OK) return;
    pthread_mutex_lock(&c->lock);
    d->free_now = f;
    d->total = t;
    pthread_mutex_unlock(&c->lock);
}

static cuzk_status set_gpu(const gdev *d, cuzk_errmsg *err)
{
    cuzk_status s = cuzk_gpu_set_device(d->ordinal);
    if (s != CUZK_OK && err != NULL)
        snprintf(err->msg, sizeof err->msg, "cannot select GPU %d: %s", d->ordinal, cuzk_gpu_last_error());
    return s;
}

/* Worker w's prover on side `side`, made on that GPU when it has none; the worker's lock held. */
static cuzk_status worker_prover(gpu_ctx *c, unsigned device, unsigned w, unsigned side, cuzk_gpu_prover **out,
                                 cuzk_errmsg *err)
{
    cuzk_gpu_prover **pp = &c->provers[w * c->sides + side];
    cuzk_status s = CUZK_OK;
    if (*pp == NULL) {
        s = set_gpu(gpu_of(c, device, side), err);
        if (s == CUZK_OK) s = cuzk_gpu_prover_create(pp, NULL, err);
    }
    *out = *pp;
    return s;
}

static cuzk_status g_prove_start(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err)
{
    gpu_ctx *c = ctx;
    const devkey *dk = w->dev_key;
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.c_mode = w->c_mode;
    cuzk_gpu_prove_stats st;
    memset(&st, 0, sizeof st);
    double t = cuzk_now();
    cuzk_gpu_prover *p0 = NULL, *p1 = NULL;
    pthread_mutex_lock(&c->prover_lock[w->worker]);
    cuzk_status s = worker_prover(c, device, w->worker, 0, &p0, err);
    if (s == CUZK_OK && c->sides == 2) s = worker_prover(c, device, w->worker, 1, &p1, err);
    if (s == CUZK_OK) s = set_gpu(gpu_of(c, device, 0), err);
    if (s == CUZK_OK && c->sides == 2)
        s = cuzk_gpu_prove_msms_pair(&w->sums, p0, dk->k[0], p1, dk->k[1], w->z, w->z_form, &o, &st, err);
    else if (s == CUZK_OK) s = cuzk_gpu_prove_msms(&w->sums, p0, dk->k[0], w->z, w->z_form, &o, &st, err);
    pthread_mutex_unlock(&c->prover_lock[w->worker]);
    if (s != CUZK_OK) return s;
    if (c->trace)
        fprintf(stderr,
                "gpu trace: device %u worker %u partition %u at %.3f s: %.3f s (prepare %.3f, upload %.3f, spmv %.3f, "
                "ntt/h %.3f, msm h %.3f l %.3f a %.3f b1 %.3f b2 %.3f; latency mode: H side's share %.3f, the rest "
                "%.3f)\n",
                device, w->worker, w->index, t - c->t0, st.total, st.prepare, st.upload, st.spmv, st.ntt_h, st.msm_h,
                st.msm_l, st.msm_a, st.msm_b1, st.msm_b2, st.h_share, st.msm_h_other);
    w->upload_s = st.upload;
    w->stats.spmv = st.spmv;
    w->stats.ntt_h = st.ntt_h;
    w->stats.msm_h = st.msm_h;
    w->stats.msm_l = st.msm_l;
    w->stats.msm_a = st.msm_a;
    w->stats.msm_b1 = st.msm_b1;
    w->stats.msm_b2 = st.msm_b2;
    w->stats.total = st.total;
    w->stats.domain_log2 = st.domain_log2;
    w->stats.points_h = st.h_points;
    w->stats.points_l = st.tail_l;
    w->stats.points_a = st.tail_a;
    w->stats.points_b = st.tail_b;
    refresh_mem(c, gpu_of(c, device, 0));
    return CUZK_OK;
}

static cuzk_status g_prove_finish(void *ctx, unsigned device, engine_work *w, cuzk_errmsg *err)
{
    (void)ctx, (void)device;
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.given_rs = w->given_rs;
    o.r = w->r;
    o.s = w->s;
    double t = cuzk_now();
    /* the engine's copy of the vk: the device key may be evicted once prove_start is done */
    cuzk_status s = cuzk_groth16_assemble(&w->proof, &w->key->vk, &w->sums, &o);
    w->stats.assembly = cuzk_now() - t;
    explicit_bzero(&o, sizeof o);
    if (s != CUZK_OK && err != NULL) snprintf(err->msg, sizeof err->msg, "assembly: %s", cuzk_status_str(s));
    return s;
}

/* ---- pinned witness buffers -------------------------------------------------------------------------------------- */
static void gbuf_release(const gbuf *b)
{
    if (b->pinned) cuzk_gpu_host_free(b->p);
    else free(b->p);
}

/* Lock held. Adds b to the pool; false when the pool's array cannot grow. */
static bool pool_add(gpu_ctx *c, gbuf b)
{
    if (c->num_bufs == c->cap_bufs) {
        size_t cap = c->cap_bufs ? 2 * c->cap_bufs : 16;
        gbuf *nb = realloc(c->bufs, cap * sizeof *nb);
        if (nb == NULL) return false;
        c->bufs = nb;
        c->cap_bufs = cap;
    }
    c->bufs[c->num_bufs++] = b;
    return true;
}

static cuzk_status g_witness_alloc(void *ctx, uint64_t bytes, cuzk_fr_t **out)
{
    gpu_ctx *c = ctx;
    *out = NULL;
    bytes = witness_buffer_bytes(bytes);
    pthread_mutex_lock(&c->lock);
    /* the smallest idle buffer that holds it, if not more than twice as large */
    gbuf *best = NULL;
    for (size_t i = 0; i < c->num_bufs; i++) {
        gbuf *b = &c->bufs[i];
        if (!b->in_use && b->bytes >= bytes && b->bytes <= 2 * bytes && (best == NULL || b->bytes < best->bytes))
            best = b;
    }
    if (best != NULL) {
        best->in_use = true;
        *out = best->p;
        pthread_mutex_unlock(&c->lock);
        return CUZK_OK;
    }
    /* No idle buffer fits: the idle ones belong to another size of circuit. They are outside the engine's memory
     * accounting (only buffers in use are admitted), so they go before a new one is made, and the pool never holds
     * more than the admitted witnesses plus idle buffers of the size in use. */
    gbuf stale[64];
    size_t nstale = 0;
    for (size_t i = 0; i < c->num_bufs && nstale < 64;) {
        if (!c->bufs[i].in_use) {
            stale[nstale++] = c->bufs[i];
            c->bufs[i] = c->bufs[--c->num_bufs];
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&c->lock);
    for (size_t i = 0; i < nstale; i++) gbuf_release(&stale[i]);

    void *p = NULL;
    double t = cuzk_now();
    bool pinned = set_gpu(&c->dev[0], NULL) == CUZK_OK && cuzk_gpu_host_alloc(&p, bytes ? bytes : 1) == CUZK_OK;
    if (c->trace)
        fprintf(stderr, "gpu trace: a new %s witness buffer of %llu bytes at %.3f s took %.3f s\n",
                pinned ? "pinned" : "pageable", (unsigned long long)bytes, t - c->t0, cuzk_now() - t);
    if (!pinned) {
        p = malloc(bytes ? bytes : 1); /* pageable: slower copies, same results */
        if (p == NULL) return CUZK_ERR_NOMEM;
    }
    gbuf b = {p, bytes, pinned, true};
    pthread_mutex_lock(&c->lock);
    bool added = pool_add(c, b);
    pthread_mutex_unlock(&c->lock);
    if (!added) {
        gbuf_release(&b);
        return CUZK_ERR_NOMEM;
    }
    *out = p;
    return CUZK_OK;
}

/* After a key loads: the pool gets its idle pinned buffers for this key's witness now, up to the idle buffers it
 * keeps anyway. Pinning gigabytes takes seconds and holds up the other threads' CUDA calls meanwhile: made at the
 * first partitions, it stalled the device's first two by 4.8 and 1.6 s (docs/performance/engine.md). */
static void reserve_witness_buffers(gpu_ctx *c, unsigned device, uint64_t bytes)
{
    for (;;) {
        pthread_mutex_lock(&c->lock);
        size_t idle = 0, fit = 0;
        for (size_t i = 0; i < c->num_bufs; i++) {
            const gbuf *b = &c->bufs[i];
            if (b->in_use) continue;
            idle++;
            if (b->bytes >= bytes && b->bytes <= 2 * bytes) fit++;
        }
        uint64_t pool = (uint64_t)c->reserving * bytes;
        for (size_t i = 0; i < c->num_bufs; i++) pool += c->bufs[i].bytes;
        idle += c->reserving, fit += c->reserving; /* another device's load is making some */
        /* no more than the budget admits: the GPU backend's partitions hold nothing on the host but their witness,
         * so buffers beyond the budget could never all be in use */
        bool more = idle < c->max_idle && fit < c->max_idle && pool + bytes <= c->pool_cap;
        if (more) c->reserving++;
        pthread_mutex_unlock(&c->lock);
        void *p = NULL;
        bool made = more && cuzk_gpu_host_alloc(&p, bytes ? bytes : 1) == CUZK_OK;
        gbuf b = {p, bytes, true, false};
        pthread_mutex_lock(&c->lock);
        if (more) c->reserving--;
        bool kept = made && pool_add(c, b);
        pthread_mutex_unlock(&c->lock);
        if (made && !kept) gbuf_release(&b);
        if (!kept) break;
    }
    if (c->trace) {
        pthread_mutex_lock(&c->lock);
        size_t idle = 0;
        for (size_t i = 0; i < c->num_bufs; i++) idle += !c->bufs[i].in_use;
        pthread_mutex_unlock(&c->lock);
        fprintf(stderr, "gpu trace: device %u: %zu idle pinned witness buffers\n", device, idle);
    }
}

static void g_witness_free(void *ctx, cuzk_fr_t *z, uint64_t bytes)
{
    gpu_ctx *c = ctx;
    (void)bytes;
    if (z == NULL) return;
    pthread_mutex_lock(&c->lock);
    size_t idle = 0, at = c->num_bufs;
    for (size_t i = 0; i < c->num_bufs; i++) {
        if (c->bufs[i].p == (void *)z) at = i;
        else if (!c->bufs[i].in_use) idle++;
    }
    if (at == c->num_bufs) { /* not ours: cannot happen */
        pthread_mutex_unlock(&c->lock);
        return;
    }
    if (idle < c->max_idle) {
        c->bufs[at].in_use = false;
        pthread_mutex_unlock(&c->lock);
        return;
    }
    gbuf b = c->bufs[at];
    c->bufs[at] = c->bufs[--c->num_bufs];
    pthread_mutex_unlock(&c->lock);
    double t = cuzk_now();
    gbuf_release(&b);
    if (c->trace) fprintf(stderr, "gpu trace: a witness buffer freed at %.3f s in %.3f s\n", t - c->t0, cuzk_now() - t);
}

/* ---- device keys ------------------------------------------------------------------------------------------------- */
/* After a key loads on side `side` of an engine device: each idle worker of the device makes its prover there if it
 * has none and grows it for the key now, so that no partition pays for tens of GB of allocations (the load planned
 * the VRAM for them). A worker that is proving is left alone: its buffers grow at its next partition if they must. */
static void reserve_provers(gpu_ctx *c, unsigned device, unsigned side, const cuzk_gpu_key *gk)
{
    for (unsigned j = 0; j < c->workers; j++) {
        unsigned w = device * c->workers + j;
        if (pthread_mutex_trylock(&c->prover_lock[w]) != 0) continue;
        cuzk_errmsg err;
        memset(&err, 0, sizeof err);
        double t = cuzk_now();
        cuzk_gpu_prover *p = NULL;
        cuzk_status s = worker_prover(c, device, w, side, &p, &err);
        if (s == CUZK_OK) s = cuzk_gpu_prover_reserve(p, gk, &err);
        pthread_mutex_unlock(&c->prover_lock[w]);
        if (c->trace || s != CUZK_OK)
            fprintf(stderr, "gpu trace: GPU %d worker %u reserved its buffers in %.3f s%s%s\n",
                    gpu_of(c, device, side)->ordinal, w, cuzk_now() - t,
                    s == CUZK_OK ? "" : ": failed: ", s == CUZK_OK ? "" : err.msg);
    }
}

/* The key on one GPU of the engine device, planned against that GPU's budget. */
static cuzk_status key_load_side(gpu_ctx *c, unsigned device, unsigned side, const engine_key *k, uint64_t others_bytes,
                                 bool allow_streamed, cuzk_gpu_key **out, cuzk_errmsg *err)
{
    gdev *d = gpu_of(c, device, side);
    *out = NULL;
    cuzk_status s = set_gpu(d, err);
    if (s != CUZK_OK) return s;
    uint64_t nv = cuzk_r1cs_num_vars(k->cs);
    uint64_t prover = cuzk_gpu_prove_vram_bytes(k->domain_size, nv);
    pthread_mutex_lock(&c->lock);
    uint64_t grow = d->max_prover_bytes > prover ? d->max_prover_bytes - prover : 0;
    uint64_t taken = others_bytes + (uint64_t)c->workers * grow;
    uint64_t budget = d->budget;
    pthread_mutex_unlock(&c->lock);
    if (taken >= budget) {
        snprintf(err->msg, sizeof err->msg,
                 "no room on GPU %d: its other keys and provers take %llu of the %llu-byte budget", d->ordinal,
                 (unsigned long long)taken, (unsigned long long)budget);
        return CUZK_ERR_NOMEM;
    }
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.placement = allow_streamed ? CUZK_GPU_KEY_AUTO : CUZK_GPU_KEY_RESIDENT;
    ko.vram_budget = budget - taken;
    ko.workers = c->workers;
    ko.split_ntt_tables = c->split_tables;
    cuzk_gpu_key *gk = NULL;
    if (k->generated) {
        cuzk_groth16_setup_opts so;
        memset(&so, 0, sizeof so);
        so.conv = CUZK_GROTH16_BELLPERSON;
        so.given_toxic = true;
        cuzk_engine_key_toxic(k, &so);
        s = cuzk_gpu_setup(&gk, k->cs, &so, &ko, err);
        explicit_bzero(&so, sizeof so);
    } else {
        s = cuzk_gpu_key_upload(&gk, &k->pk, k->cs, &ko, err);
    }
    refresh_mem(c, d);
    if (s != CUZK_OK) return s;
    cuzk_gpu_key_info gi;
    cuzk_gpu_key_get_info(gk, &gi);
    pthread_mutex_lock(&c->lock);
    if (gi.prover_vram_bytes > d->max_prover_bytes) d->max_prover_bytes = gi.prover_vram_bytes;
    pthread_mutex_unlock(&c->lock);
    reserve_provers(c, device, side, gk);
    set_gpu(d, NULL);
    refresh_mem(c, d);
    *out = gk;
    return CUZK_OK;
}

static void devkey_free(gpu_ctx *c, unsigned device, devkey *dk)
{
    for (unsigned side = 0; side < 2; side++) {
        if (dk->k[side] == NULL) continue;
        gdev *d = gpu_of(c, device, side);
        set_gpu(d, NULL);
        cuzk_gpu_key_free(dk->k[side]);
        refresh_mem(c, d);
    }
    free(dk);
}

/* info->vram_bytes: what the key takes on each GPU of the device (a latency pair holds it twice, once on each). */
static cuzk_status g_dev_key_load(void *ctx, unsigned device, const engine_key *k, uint64_t others_bytes,
                                  bool allow_streamed, void **handle, engine_devkey_info *info, cuzk_errmsg *err)
{
    gpu_ctx *c = ctx;
    *handle = NULL;
    devkey *dk = calloc(1, sizeof *dk);
    if (dk == NULL) return CUZK_ERR_NOMEM;
    info->vram_bytes = 0;
    info->streamed = false;
    for (unsigned side = 0; side < c->sides; side++) {
        cuzk_status s = key_load_side(c, device, side, k, others_bytes, allow_streamed, &dk->k[side], err);
        if (s != CUZK_OK) {
            devkey_free(c, device, dk);
            return s;
        }
        cuzk_gpu_key_info gi;
        cuzk_gpu_key_get_info(dk->k[side], &gi);
        if (gi.vram_bytes > info->vram_bytes) info->vram_bytes = gi.vram_bytes;
        info->streamed |= gi.placement == CUZK_GPU_KEY_STREAMED;
    }
    double t = cuzk_now();
    reserve_witness_buffers(c, device, witness_buffer_bytes(cuzk_r1cs_num_vars(k->cs) * sizeof(cuzk_fr_t)));
    if (c->trace) fprintf(stderr, "gpu trace: device %u: witness buffers in %.3f s\n", device, cuzk_now() - t);
    *handle = dk;
    return CUZK_OK;
}

static void g_dev_key_free(void *ctx, unsigned device, void *handle)
{
    if (handle != NULL) devkey_free(ctx, device, handle);
}

static const cuzk_groth16_vk *g_dev_key_vk(void *ctx, void *handle)
{
    (void)ctx;
    return cuzk_gpu_key_vk(((const devkey *)handle)->k[0]);
}

static void g_destroy(void *ctx)
{
    gpu_ctx *c = ctx;
    unsigned workers = c->num_devices * c->workers;
    for (unsigned i = 0; c->provers != NULL && i < workers * c->sides; i++) {
        if (c->provers[i] == NULL) continue;
        set_gpu(gpu_of(c, i / c->sides / c->workers, i % c->sides), NULL);
        cuzk_gpu_prover_destroy(c->provers[i]);
    }
    for (size_t i = 0; i < c->num_bufs; i++) gbuf_release(&c->bufs[i]);
    free(c->bufs);
    for (unsigned i = 0; c->prover_lock != NULL && i < workers; i++) pthread_mutex_destroy(&c->prover_lock[i]);
    free(c->prover_lock);
    free(c->provers);
    free(c->dev);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static const engine_backend_ops gpu_ops = {
    .name = "gpu",
    .num_devices = g_num_devices,
    .device_info = g_device_info,
    .partition_bytes = g_partition_bytes,
    .prove_start = g_prove_start,
    .prove_finish = g_prove_finish,
    .destroy = g_destroy,
    .synthesizes = true,
    .default_workers = 1,
    .witness_alloc = g_witness_alloc,
    .witness_free = g_witness_free,
    .witness_made = g_witness_made,
    .dev_key_load = g_dev_key_load,
    .dev_key_free = g_dev_key_free,
    .dev_key_vk = g_dev_key_vk,
};

cuzk_status cuzk_engine_backend_gpu(engine_backend *b, const cuzk_engine_config *cfg, cuzk_errmsg *err)
{
    int visible = cuzk_gpu_device_count();
    if (visible <= 0) {
        snprintf(err->msg, sizeof err->msg, "no CUDA device is visible");
        return CUZK_ERR_NOT_FOUND;
    }
    size_t n = cfg->gpu_devices != NULL && cfg->num_gpu_devices > 0 ? cfg->num_gpu_devices : (size_t)visible;
    for (size_t i = 0; cfg->gpu_devices != NULL && i < cfg->num_gpu_devices; i++) {
        int o = cfg->gpu_devices[i];
        if (o < 0 || o >= visible) {
            snprintf(err->msg, sizeof err->msg, "GPU %d does not exist (%d visible)", o, visible);
            return CUZK_ERR_INVALID_ARG;
        }
        for (size_t j = 0; j < i; j++) {
            if (cfg->gpu_devices[j] == o) {
                snprintf(err->msg, sizeof err->msg, "GPU %d is listed twice", o);
                return CUZK_ERR_INVALID_ARG;
            }
        }
    }
    if (cfg->gpu_latency_pairs && n % 2 != 0) {
        snprintf(err->msg, sizeof err->msg, "latency mode pairs the GPUs: it needs an even number of them (%zu in use)",
                 n);
        return CUZK_ERR_INVALID_ARG;
    }
    gpu_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) return CUZK_ERR_NOMEM;
    c->sides = cfg->gpu_latency_pairs ? 2 : 1;
    c->split_tables = cfg->gpu_split_ntt_tables;
    c->num_devices = (unsigned)(n / c->sides);
    c->workers = cfg->gpu_workers_per_device ? cfg->gpu_workers_per_device : 1;
    size_t workers = (size_t)c->num_devices * c->workers;
    c->dev = calloc(n, sizeof *c->dev);
    c->provers = calloc(workers * c->sides, sizeof *c->provers);
    c->prover_lock = calloc(workers, sizeof *c->prover_lock);
    for (size_t i = 0; c->prover_lock != NULL && i < workers; i++) pthread_mutex_init(&c->prover_lock[i], NULL);
    c->trace = getenv("CUZK_GPU_TRACE") != NULL;
    c->t0 = cuzk_now();
    c->pool_cap = cuzk_engine_memory_budget(cfg);
    pthread_mutex_init(&c->lock, NULL);
    /* idle witness buffers kept: as many as partitions can hold one at once in steady state (synthesizing, queued,
     * proving, and waiting for verification after it) */
    c->max_idle = (cfg->synthesis_workers ? cfg->synthesis_workers : 1) +
                  (cfg->gpu_queue_depth ? cfg->gpu_queue_depth : 1) + 2 * workers;
    if (c->dev == NULL || c->provers == NULL || c->prover_lock == NULL) {
        g_destroy(c);
        return CUZK_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        gdev *d = &c->dev[i];
        d->ordinal = cfg->gpu_devices != NULL && cfg->num_gpu_devices > 0 ? cfg->gpu_devices[i] : (int)i;
        size_t f = 0, t = 0;
        cuzk_status s = cuzk_gpu_set_device(d->ordinal);
        if (s == CUZK_OK) s = cuzk_gpu_device_name(d->name, sizeof d->name);
        if (s == CUZK_OK) s = cuzk_gpu_mem_info(&f, &t);
        if (s != CUZK_OK) {
            snprintf(err->msg, sizeof err->msg, "GPU %d: %s", d->ordinal, cuzk_gpu_last_error());
            g_destroy(c);
            return s;
        }
        d->total = t;
        d->free_now = f;
        d->budget = cfg->vram_budget ? cfg->vram_budget : f > GIB ? f - GIB : 0;
        if (d->budget > t) d->budget = t;
    }
    b->ops = &gpu_ops;
    b->ctx = c;
    return CUZK_OK;
}
