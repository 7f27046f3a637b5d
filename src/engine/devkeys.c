/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Devices and the keys on them, for backends that keep keys on their devices (the GPU backend).
 *
 * Per device and key the engine holds an engine_devkey (engine_devkeys.h). Each device in service has a loader
 * thread (engine.c's, one cuzk_engine_devkey_load_next per key) that makes the keys its device is missing, in this
 * order: the keys of queued partitions (priority order),
 * the keys preloads wait for, and, on a device that holds no key yet, the keys of unfinished jobs (so that a new
 * key's device copy is made while its first partition is synthesized). A load that does not fit the device's VRAM
 * budget (the backend answers CUZK_ERR_NOMEM) evicts the least recently used key that no partition is being proved
 * with, keys that no queued partition needs first, and tries again; while every other key is in use it waits for
 * one to become idle; a key alone on its device that still does not fit RESIDENT is placed STREAMED (its bases
 * stay in pinned host memory), and when even that fails it is FAILED on that device. A key FAILED on every device
 * in service fails its jobs. Loads run without the lock and on their own threads, so neither the dispatch of other
 * work nor the other devices wait for them.
 *
 * A device error (CUZK_ERR_DEVICE from a prover or a load) takes the device out of service: its provers and loader
 * stop, the other devices go on, and when none is left every unfinished job fails with the reason. The jobs to fail
 * are handed back to engine.c (engine_failures), never ended here. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

void cuzk_engine_device_broken(cuzk_engine *e, unsigned d, engine_failures *fail, const char *fmt, ...)
{
    engine_dev *dev = &e->devs[d];
    if (dev->broken) return;
    dev->broken = true;
    va_list ap;
    va_start(ap, fmt);
    char msg[200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(dev->error, sizeof dev->error, "device %u: %s", d, msg);
    e->devices_ok--;
    /* keys the device had or was making: no longer usable there */
    for (engine_key *k = e->keys; k != NULL; k = k->next) {
        if (k->dev == NULL) continue;
        engine_devkey *dk = &k->dev[d];
        if (dk->state == DK_READY || dk->state == DK_NONE) {
            if (dk->state == DK_READY) {
                dev->keys_resident--;
                dev->keys_bytes -= dk->vram_bytes;
            }
            /* the handle stays until the engine is destroyed: freeing device memory on a faulted device can hang */
            dk->state = DK_FAILED;
            snprintf(dk->error, sizeof dk->error, "%.255s", dev->error);
        }
    }
    if (e->devices_ok == 0) {
        for (engine_job *j = e->jobs; j != NULL; j = j->next)
            engine_failures_add(fail, j, "no usable GPU is left: %s", dev->error);
    } else {
        /* jobs whose key failed on every device still in service */
        for (engine_key *k = e->keys; k != NULL; k = k->next) {
            if (k->dev == NULL || k->refs == 0) continue;
            bool any = false;
            for (unsigned x = 0; x < e->num_devices && !any; x++)
                any = !e->devs[x].broken && k->dev[x].state != DK_FAILED;
            if (!any)
                for (engine_job *j = e->jobs; j != NULL; j = j->next)
                    if (j->key == k)
                        engine_failures_add(fail, j, "cannot load circuit %s on any GPU: %s", k->id,
                                            cuzk_engine_devkey_error(e, k));
        }
    }
    pthread_cond_broadcast(&e->prover_cv);
    pthread_cond_broadcast(&e->devload_cv);
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->work_cv);
}

const char *cuzk_engine_devices_error(cuzk_engine *e)
{
    for (unsigned d = 0; d < e->num_devices; d++)
        if (e->devs[d].broken) return e->devs[d].error;
    return "";
}

void cuzk_engine_device_status(cuzk_engine *e, unsigned d, double now, cuzk_engine_gpu_status *out)
{
    const engine_dev *dev = &e->devs[d];
    out->keys_resident = dev->keys_resident;
    out->vram_keys_bytes = dev->keys_bytes;
    out->busy = dev->busy > 0;
    out->busy_seconds = dev->busy_total + (dev->busy > 0 ? now - dev->busy_since : 0);
    double wall = e->t_first_prove > 0 ? now - e->t_first_prove : 0;
    out->busy_ratio = wall > 0 ? out->busy_seconds / wall : 0;
    if (out->busy_ratio > 1) out->busy_ratio = 1;
    out->partitions = dev->partitions;
    out->broken = dev->broken;
    snprintf(out->error, sizeof out->error, "%s", dev->error);
}

bool cuzk_engine_devkey_all_ready(cuzk_engine *e, engine_key *k)
{
    bool any = false;
    for (unsigned d = 0; d < e->num_devices; d++) {
        if (e->devs[d].broken) continue;
        if (k->dev[d].state != DK_READY) return false;
        any = true;
    }
    return any;
}

bool cuzk_engine_devkey_all_settled(cuzk_engine *e, engine_key *k)
{
    for (unsigned d = 0; d < e->num_devices; d++)
        if (!e->devs[d].broken && k->dev[d].state != DK_READY && k->dev[d].state != DK_FAILED) return false;
    return true;
}

const char *cuzk_engine_devkey_error(cuzk_engine *e, engine_key *k)
{
    for (unsigned d = 0; d < e->num_devices; d++)
        if (k->dev[d].state == DK_FAILED && k->dev[d].error[0] != 0) return k->dev[d].error;
    return e->devices_ok == 0 ? cuzk_engine_devices_error(e) : "no device is in service";
}

void cuzk_engine_devkey_unreferenced(cuzk_engine *e, engine_key *k)
{
    if (k->dev == NULL) return;
    for (unsigned d = 0; d < e->num_devices; d++) {
        if (k->dev[d].state == DK_FAILED && !e->devs[d].broken) {
            k->dev[d].state = DK_NONE;
            k->dev[d].error[0] = 0;
        }
    }
}

static bool list_add(engine_devkey_list *l, unsigned d, void *h)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        void *p = realloc(l->items, cap * sizeof *l->items);
        if (p == NULL) return false;
        l->items = p;
        l->cap = cap;
    }
    l->items[l->n].device = d;
    l->items[l->n].handle = h;
    l->n++;
    return true;
}

/* Lock held: k's key on device d leaves the device's books; the handle goes to l (freed after unlocking). */
static bool detach_one(cuzk_engine *e, engine_key *k, unsigned d, engine_devkey_list *l)
{
    engine_devkey *dk = &k->dev[d];
    if (!list_add(l, d, dk->handle)) return false;
    e->devs[d].keys_resident--;
    e->devs[d].keys_bytes -= dk->vram_bytes;
    dk->handle = NULL;
    dk->vram_bytes = 0;
    dk->state = DK_NONE;
    return true;
}

uint64_t cuzk_engine_devkeys_detach(cuzk_engine *e, engine_key *k, engine_devkey_list *out)
{
    uint64_t bytes = 0;
    if (k->dev == NULL) return 0;
    for (unsigned d = 0; d < e->num_devices; d++) {
        engine_devkey *dk = &k->dev[d];
        uint64_t b = dk->vram_bytes;
        if (dk->state == DK_READY && dk->active == 0 && detach_one(e, k, d, out)) bytes += b;
    }
    return bytes;
}

void cuzk_engine_devkeys_release(cuzk_engine *e, engine_devkey_list *l)
{
    for (size_t i = 0; i < l->n; i++) e->be.ops->dev_key_free(e->be.ctx, l->items[i].device, l->items[i].handle);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* Lock held. The key device d should make next, or NULL. */
static engine_key *wanted(cuzk_engine *e, unsigned d)
{
    for (engine_work *w = e->gpu_q; w != NULL; w = w->next)
        if (w->job->state != JOB_DONE && w->key->state == KEY_HOT && w->key->dev[d].state == DK_NONE) return w->key;
    for (engine_key *k = e->keys; k != NULL; k = k->next)
        if (k->dev_preload > 0 && k->state == KEY_HOT && k->dev[d].state == DK_NONE) return k;
    /* a device without keys makes the key of the most urgent unfinished job ahead of its first partition */
    if (e->devs[d].keys_resident == 0) {
        for (int p = CUZK_ENGINE_PRIO_CRITICAL; p >= CUZK_ENGINE_PRIO_LOW; p--)
            for (engine_job *j = e->jobs; j != NULL; j = j->next)
                if ((int)j->prio == p && j->state != JOB_DONE && j->key != NULL && j->key->state == KEY_HOT &&
                    j->key->dev != NULL && j->key->dev[d].state == DK_NONE)
                    return j->key;
    }
    return NULL;
}

/* Lock held. Whether a queued partition needs k. */
static bool queued_for(cuzk_engine *e, const engine_key *k)
{
    for (engine_work *w = e->gpu_q; w != NULL; w = w->next)
        if (w->key == k && w->job->state != JOB_DONE) return true;
    return false;
}

/* Lock held. The key to evict from device d to make room for `for_key`: READY, idle, least recently used; keys no
 * queued partition or preload needs first. NULL when none is idle. */
static engine_key *victim(cuzk_engine *e, unsigned d, const engine_key *for_key)
{
    engine_key *best = NULL;
    bool best_needed = true;
    for (engine_key *k = e->keys; k != NULL; k = k->next) {
        if (k == for_key || k->dev == NULL) continue;
        const engine_devkey *dk = &k->dev[d];
        if (dk->state != DK_READY || dk->active != 0) continue;
        bool needed = k->dev_preload > 0 || queued_for(e, k);
        if (best == NULL || (best_needed && !needed) ||
            (needed == best_needed && dk->last_use < best->dev[d].last_use)) {
            best = k;
            best_needed = needed;
        }
    }
    return best;
}

static bool any_busy_key(cuzk_engine *e, unsigned d)
{
    for (engine_key *k = e->keys; k != NULL; k = k->next)
        if (k->dev != NULL && k->dev[d].state == DK_READY && k->dev[d].active > 0) return true;
    return false;
}

/* Lock held. k FAILED on d: its jobs fail when no device in service can still make it. */
static void failed_on(cuzk_engine *e, engine_key *k, unsigned d, const char *msg, engine_failures *fail)
{
    engine_devkey *dk = &k->dev[d];
    dk->state = DK_FAILED;
    snprintf(dk->error, sizeof dk->error, "device %u: %.230s", d, msg);
    for (unsigned x = 0; x < e->num_devices; x++)
        if (!e->devs[x].broken && k->dev[x].state != DK_FAILED) return;
    for (engine_job *j = e->jobs; j != NULL; j = j->next)
        if (j->key == k) engine_failures_add(fail, j, "cannot load circuit %s on any GPU: %s", k->id, dk->error);
}

static cuzk_status vk_clone(cuzk_groth16_vk *dst, const cuzk_groth16_vk *src)
{
    *dst = *src;
    dst->storage = NULL;
    dst->ic = malloc((src->num_inputs ? src->num_inputs : 1) * sizeof *dst->ic);
    if (dst->ic == NULL) return CUZK_ERR_NOMEM;
    memcpy(dst->ic, src->ic, src->num_inputs * sizeof *dst->ic);
    dst->storage = dst->ic;
    return CUZK_OK;
}

bool cuzk_engine_devkey_load_next(cuzk_engine *e, unsigned d, engine_failures *fail)
{
    engine_dev *dev = &e->devs[d];
    engine_key *k = wanted(e, d);
    if (k == NULL) return true;
    engine_devkey *dk = &k->dev[d];
    dk->state = DK_LOADING;
    k->refs++; /* the host key (its circuit and points) stays while the device reads it */
    bool need_vk = !k->have_vk;
    bool streamed = false;
    void *h = NULL;
    engine_devkey_info info;
    cuzk_errmsg err;
    cuzk_status s;
    double t = cuzk_now();
    const engine_backend_ops *ops = e->be.ops;
    for (;;) {
        uint64_t others = dev->keys_bytes;
        pthread_mutex_unlock(&e->lock);
        memset(&info, 0, sizeof info);
        memset(&err, 0, sizeof err);
        s = ops->dev_key_load(e->be.ctx, d, k, others, streamed, &h, &info, &err);
        pthread_mutex_lock(&e->lock);
        if (s != CUZK_ERR_NOMEM || streamed || e->stop) break;
        engine_key *v = victim(e, d, k);
        if (v != NULL) {
            engine_devkey_list gone = {0};
            detach_one(e, v, d, &gone);
            pthread_mutex_unlock(&e->lock);
            cuzk_engine_devkeys_release(e, &gone);
            pthread_mutex_lock(&e->lock);
            continue;
        }
        if (!any_busy_key(e, d)) {
            streamed = true; /* alone on the device: the slow placement rather than none */
            continue;
        }
        break; /* every other key is in use: wait for one to become idle */
    }
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    memset(&vk, 0, sizeof vk);
    bool have_vk = false;
    if (s == CUZK_OK && need_vk) {
        /* prepared without the lock; installed below unless a host load or another device was first */
        pthread_mutex_unlock(&e->lock);
        have_vk = vk_clone(&vk, ops->dev_key_vk(e->be.ctx, h)) == CUZK_OK;
        if (have_vk) cuzk_groth16_prepare_vk(&pvk, &vk);
        pthread_mutex_lock(&e->lock);
        if (!have_vk) {
            s = CUZK_ERR_NOMEM;
            snprintf(err.msg, sizeof err.msg, "out of memory for the verifying key");
            ops->dev_key_free(e->be.ctx, d, h);
            h = NULL;
        }
    }
    if (s == CUZK_OK && !e->stop && !dev->broken) {
        dk->state = DK_READY;
        dk->handle = h;
        dk->vram_bytes = info.vram_bytes;
        dk->streamed = info.streamed;
        dk->load_s = cuzk_now() - t;
        dk->last_use = ++e->lru_clock;
        dev->keys_resident++;
        dev->keys_bytes += info.vram_bytes;
        if (have_vk && !k->have_vk) {
            k->vk = vk;
            k->pvk = pvk;
            k->pvk.vk = &k->vk;
            k->have_vk = true;
            have_vk = false;
        }
    } else if (s == CUZK_OK) {
        dk->state = DK_NONE; /* shutting down, or the device failed meanwhile */
        pthread_mutex_unlock(&e->lock);
        ops->dev_key_free(e->be.ctx, d, h);
        pthread_mutex_lock(&e->lock);
    } else if (s == CUZK_ERR_NOMEM && !streamed) {
        dk->state = DK_NONE; /* waits for a key in use to become idle */
    } else if (s == CUZK_ERR_DEVICE) {
        failed_on(e, k, d, err.msg, fail);
        cuzk_engine_device_broken(e, d, fail, "loading circuit %s: %s", k->id, err.msg);
    } else {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot load circuit %.60s: %.40s (%.100s)", k->id, cuzk_status_str(s), err.msg);
        failed_on(e, k, d, msg, fail);
    }
    if (have_vk) cuzk_groth16_vk_free(&vk);
    bool wait = s == CUZK_ERR_NOMEM && !streamed && dk->state == DK_NONE;
    if (cuzk_engine_key_unref(e, k)) cuzk_engine_devkey_unreferenced(e, k);
    pthread_cond_broadcast(&e->prover_cv);
    pthread_cond_broadcast(&e->done_cv);
    return wait;
}

void cuzk_engine_devkeys_destroy(cuzk_engine *e)
{
    for (engine_key *k = e->keys; k != NULL; k = k->next) {
        for (unsigned d = 0; k->dev != NULL && d < e->num_devices; d++) {
            if (k->dev[d].handle != NULL) e->be.ops->dev_key_free(e->be.ctx, d, k->dev[d].handle);
            k->dev[d].handle = NULL;
        }
    }
}
