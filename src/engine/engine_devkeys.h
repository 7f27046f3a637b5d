/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Devices and the keys on them (devkeys.c), for backends that keep keys on their devices (the GPU backend). Every
 * function runs with the engine's lock held unless it says otherwise. Like the key manager, this never ends a job:
 * where jobs must fail it lists them in an engine_failures for engine.c. */
#ifndef CUZK_ENGINE_DEVKEYS_H
#define CUZK_ENGINE_DEVKEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine_jobs.h"
#include "engine_keys.h"

/* A key on one device. NONE: not there; LOADING: the device's loader makes it; READY: provers use it (active counts
 * the partitions being proved with it; only keys with active = 0 are evicted); FAILED: it cannot be made on this
 * device (error says why) until no job references the key any more. */
typedef enum { DK_NONE = 0, DK_LOADING, DK_READY, DK_FAILED } devkey_state;
typedef struct engine_devkey {
    devkey_state state;
    void *handle;
    uint64_t vram_bytes;
    bool streamed;
    uint32_t active;
    uint64_t last_use;
    double load_s;
    char error[256];
} engine_devkey;

typedef struct {
    bool broken; /* a device error took it out of service */
    char error[256];
    uint32_t busy;          /* prover workers inside prove_start */
    double busy_since;      /* when busy went from 0 to 1 */
    double busy_total;      /* seconds with busy > 0 (closed intervals) */
    uint32_t keys_resident; /* device keys READY */
    uint64_t keys_bytes;    /* their VRAM */
    uint64_t partitions;    /* proved on it */
} engine_dev;

/* One step of device d's loader: makes the key the device should make next (the lock released while the backend
 * loads it). Returns true when the loader should wait for a change (nothing wanted, or no room until a key in use
 * becomes idle); jobs that can no longer be proved are listed in `fail`. */
bool cuzk_engine_devkey_load_next(cuzk_engine *e, unsigned d, engine_failures *fail);
/* Takes device d out of service (idempotent); lists in `fail` the jobs no device in service can prove any more
 * (every unfinished job when none is left). */
void cuzk_engine_device_broken(cuzk_engine *e, unsigned d, engine_failures *fail, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
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
    struct {
        unsigned device;
        void *handle;
    } * items;
    size_t n, cap;
} engine_devkey_list;
/* the idle ones; returns their VRAM */
uint64_t cuzk_engine_devkeys_detach(cuzk_engine *e, engine_key *k, engine_devkey_list *out);
void cuzk_engine_devkeys_release(cuzk_engine *e, engine_devkey_list *l); /* unlocked */
/* At destruction, the engine's threads stopped: every device key's handle back to the backend. */
void cuzk_engine_devkeys_destroy(cuzk_engine *e);

#endif
