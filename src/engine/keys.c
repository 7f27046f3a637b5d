/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The key manager: one entry per circuit (a registered circuit's PCE + .params, a synthetic circuit with a key made by
 * cuzk_groth16_setup and cached as files in <param_dir>/synthetic, or a Filecoin circuit by SRS id: its v28 .params,
 * digest checked against the manifest before its first use, with its shape from the shape cache), in tiers
 * (engine_internal.h): HOT (decoded in memory), WARM (files mapped, points dropped), COLD (files only). One loader
 * thread (engine.c's, through cuzk_engine_keys_next_load and cuzk_engine_key_load) loads entries while the dispatcher
 * goes on with jobs whose keys are ready; jobs reference their key from submission until their last partition is done.
 * When a load needs room in the key budget, unreferenced HOT entries are demoted to WARM, least recently used first; a
 * load that cannot get room yet (every HOT key in use) waits without holding up the loads behind it that fit, and one
 * larger than the whole budget fails its jobs at once. Failed jobs are handed back to engine.c, never ended here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "engine_internal.h"

bool cuzk_engine_circuit_id_valid(const char *id)
{
    size_t n = strnlen(id, CUZK_ENGINE_ID_MAX);
    if (n == 0 || n >= CUZK_ENGINE_ID_MAX || id[0] == '.') return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                  c == '.';
        if (!ok) return false;
    }
    return true;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

uint64_t cuzk_engine_partition_need(const cuzk_engine *e, const engine_key *k)
{
    cuzk_groth16_prove_shape worst;
    const cuzk_groth16_prove_shape *sh = &k->shape;
    if (!k->shape_known) {
        cuzk_groth16_prove_shape_worst(&worst, k->domain_size, k->num_vars);
        sh = &worst;
    }
    return e->be.ops->partition_bytes(e->be.ctx, sh) + k->num_vars * sizeof(cuzk_fr_t);
}

/* The key's files: false for a synthetic key without a parameter directory (it has none). */
static bool key_paths(const cuzk_engine *e, const engine_key *k, char pce[4400], char params[4400])
{
    if (e->param_dir == NULL) return false;
    if (k->srs) {
        /* the shape cache's file (none without the circuit), and no .params for a generated key */
        pce[0] = params[0] = 0;
        if (k->fil_circuit) cuzk_fil_shape_path(e->pce_dir, k->fil, pce, 4400, NULL);
        if (!k->generated) snprintf(params, 4400, "%s/%s", e->param_dir, k->params_name);
    } else if (k->synthetic) {
        snprintf(pce, 4400, "%s/synthetic/%u-%llu.pce", e->param_dir, k->log2, (unsigned long long)k->seed);
        snprintf(params, 4400, "%s/synthetic/%u-%llu.params", e->param_dir, k->log2, (unsigned long long)k->seed);
    } else {
        snprintf(pce, 4400, "%s/%s.pce", e->param_dir, k->id);
        snprintf(params, 4400, "%s/%s.params", e->param_dir, k->id);
    }
    return true;
}

bool cuzk_engine_key_read_dims(cuzk_engine *e, engine_key *k)
{
    char pce[4400], params[4400];
    uint64_t ni, na, rows;
    if (k->dims_known) return true;
    if (k->srs) {
        /* a Filecoin circuit's counts by COUNT mode (uniform blocks counted once: milliseconds) */
        cuzk_cs_counts c;
        if (!k->fil_circuit || cuzk_fil_circuit_counts(k->fil, &c, NULL) != CUZK_OK) return false;
        ni = c.inputs;
        na = c.aux;
        rows = c.rows;
    } else if (!key_paths(e, k, pce, params) || cuzk_r1cs_pce_read_counts(pce, &ni, &na, &rows, NULL) != CUZK_OK) {
        return false;
    }
    cuzk_engine_key_set_dims(k, ni, na, rows);
    return true;
}

void cuzk_engine_key_set_dims(engine_key *k, uint64_t inputs, uint64_t aux, uint64_t rows)
{
    /* the bellperson domain: the smallest power of two holding the rows and one row per input */
    uint64_t n = 1;
    while (n < rows + inputs) n <<= 1;
    k->dims_known = true;
    k->domain_size = n;
    k->num_vars = inputs + aux;
    k->num_inputs = inputs;
}

engine_key *cuzk_engine_key_get(cuzk_engine *e, const char *id, bool synthetic, unsigned log2, uint64_t seed)
{
    for (engine_key *k = e->keys; k != NULL; k = k->next)
        if (strcmp(k->id, id) == 0) return k;
    engine_key *k = calloc(1, sizeof *k);
    if (k == NULL) return NULL;
    if (e->dev_keys) {
        k->dev = calloc(e->num_devices, sizeof *k->dev);
        if (k->dev == NULL) {
            free(k);
            return NULL;
        }
        for (unsigned d = 0; d < e->num_devices; d++)
            if (e->devs[d].broken) k->dev[d].state = DK_FAILED;
    }
    snprintf(k->id, sizeof k->id, "%s", id);
    k->synthetic = synthetic;
    k->generated = synthetic;
    k->log2 = log2;
    k->seed = seed;
    if (synthetic) {
        /* known without loading: the generator's domain is exactly 2^log2, its variables fewer */
        k->dims_known = true;
        k->domain_size = k->num_vars = (uint64_t)1 << log2;
    }
    /* the files' sizes estimate the first load (a synthetic key without cached files has none: 0) */
    char pce[4400], params[4400];
    if (key_paths(e, k, pce, params)) k->size_bytes = file_size(pce) + file_size(params);
    k->next = e->keys;
    e->keys = k;
    return k;
}

engine_key *cuzk_engine_key_get_srs(cuzk_engine *e, const cuzk_fil_proof *p, cuzk_errmsg *err)
{
    for (engine_key *k = e->keys; k != NULL; k = k->next)
        if (k->srs && strcmp(k->id, p->srs_id) == 0) return k;
    char name[256];
    if (cuzk_fil_proof_param_name(p, false, name, sizeof name, err) != CUZK_OK) return NULL;
    engine_key *k = calloc(1, sizeof *k);
    if (k == NULL) {
        cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (e->dev_keys) {
        /* the device loaders look at every key's per-device state (a key without its circuit is never wanted on a
         * device: no job and no device preload names it) */
        k->dev = calloc(e->num_devices, sizeof *k->dev);
        if (k->dev == NULL) {
            free(k);
            cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
            return NULL;
        }
        for (unsigned d = 0; d < e->num_devices; d++)
            if (e->devs[d].broken) k->dev[d].state = DK_FAILED;
    }
    snprintf(k->id, sizeof k->id, "%s", p->srs_id);
    snprintf(k->params_name, sizeof k->params_name, "%s", name);
    k->srs = true;
    k->fil = cuzk_fil_proof_by_srs_id(p->srs_id);
    if (k->fil == NULL) k->fil = p;
    k->fil_circuit = cuzk_fil_circuit_supported(k->fil);
    k->generated = k->fil_circuit && e->cfg.fil_generated_keys;
    char pce[4400], params[4400];
    if (key_paths(e, k, pce, params))
        k->size_bytes = (pce[0] ? file_size(pce) : 0) + (params[0] ? file_size(params) : 0);
    k->next = e->keys;
    e->keys = k;
    return k;
}

void cuzk_engine_key_request(cuzk_engine *e, engine_key *k)
{
    if ((k->state == KEY_COLD || k->state == KEY_WARM) && !k->load_queued) {
        k->load_queued = true;
        k->load_seq = ++e->next_load_seq;
        pthread_cond_signal(&e->loader_cv);
    }
}

bool cuzk_engine_key_unref(cuzk_engine *e, engine_key *k)
{
    if (k->refs > 0) k->refs--;
    k->last_use = ++e->lru_clock;
    k->t_last_use = cuzk_now();
    if (k->refs != 0) return false;
    pthread_cond_signal(&e->loader_cv); /* a waiting load may fit now */
    return true;
}

void cuzk_engine_key_free_contents(cuzk_engine *e, engine_key *k)
{
    if (k->state == KEY_HOT) e->keys_hot_bytes -= k->size_bytes;
    if (k->state == KEY_WARM) k->size_bytes = k->hot_bytes;
    cuzk_groth16_pk_free(&k->pk);
    if (k->cs != NULL) cuzk_r1cs_free(k->cs);
    k->cs = NULL;
    cuzk_unmap_file(k->params_map, k->params_map_len);
    k->params_map = NULL;
    k->params_map_len = 0;
    k->state = KEY_COLD; /* the verifying key stays (engine_internal.h) */
}

/* Lock held; k HOT and unreferenced. Drops the decoded points and keeps the files mapped (WARM) when the circuit is
 * a PCE mapping and the .params file maps; otherwise frees everything (COLD). */
static void key_demote(cuzk_engine *e, engine_key *k)
{
    char pce[4400], params[4400];
    const uint8_t *map = NULL;
    size_t len = 0;
    /* with device keys a generated key's host part is its circuit alone: a cached .params must not come back; a
     * generated Filecoin key has no file at all */
    if ((e->dev_keys && k->generated) || (k->srs && k->generated) || k->cs == NULL || k->cs->map == NULL ||
        !key_paths(e, k, pce, params) || params[0] == 0 || cuzk_map_file(params, &map, &len, NULL) != CUZK_OK ||
        map == NULL) {
        cuzk_engine_key_free_contents(e, k);
        return;
    }
    /* keep the pages cached: the reload reads them from memory */
    madvise(k->cs->map, k->cs->map_len, MADV_WILLNEED);
    madvise((void *)map, len, MADV_WILLNEED);
    e->keys_hot_bytes -= k->size_bytes;
    cuzk_groth16_pk_free(&k->pk);
    k->params_map = map;
    k->params_map_len = len;
    k->size_bytes = k->cs->map_len + len;
    k->state = KEY_WARM;
}

void cuzk_engine_keys_destroy(cuzk_engine *e)
{
    while (e->keys != NULL) {
        engine_key *k = e->keys;
        e->keys = k->next;
        cuzk_engine_key_free_contents(e, k);
        free(k->dev); /* its handles went back to the backend first (cuzk_engine_devkeys_destroy) */
        cuzk_groth16_vk_free(&k->vk);
        free(k);
    }
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Toxic waste from the seed: reproducible keys for benchmarks (a real deployment never uses synthetic keys). */
void cuzk_engine_synthetic_toxic(cuzk_groth16_setup_opts *o, uint64_t log2, uint64_t seed)
{
    uint64_t x = seed ^ (log2 << 56) ^ 0x6375a4b6e9d2c1f0ULL;
    cuzk_fr_t *f[5] = {&o->tau, &o->alpha, &o->beta, &o->gamma, &o->delta};
    for (int i = 0; i < 5; i++) {
        uint64_t l[4] = {splitmix(&x), splitmix(&x), splitmix(&x), splitmix(&x) >> 2};
        cuzk_fr_from_limbs_reduce(f[i], l);
    }
}

void cuzk_engine_key_toxic(const engine_key *k, cuzk_groth16_setup_opts *o)
{
    if (k->synthetic) {
        cuzk_engine_synthetic_toxic(o, k->log2, k->seed);
        return;
    }
    /* a Filecoin circuit's test key: from its SRS id, so that every device (and the CPU) makes the same key */
    uint64_t x = 0xcbf29ce484222325ULL;
    for (const char *c = k->id; *c; c++) x = (x ^ (uint8_t)*c) * 0x100000001b3ULL;
    cuzk_engine_synthetic_toxic(o, 0xf1, x);
}

/* Writes through a temporary name and renames, so a concurrent reader never sees half a file. Best effort: the
 * cache only saves time. */
static void cache_write_params(const cuzk_groth16_pk *pk, const char *path)
{
    char tmp[4500];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (cuzk_groth16_params_write(pk, tmp, NULL) != CUZK_OK || rename(tmp, path) != 0) unlink(tmp);
}

static void cache_write_pce(const cuzk_r1cs_t *cs, const char *path)
{
    char tmp[4500];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (cuzk_r1cs_pce_write(cs, tmp, NULL) != CUZK_OK || rename(tmp, path) != 0) unlink(tmp);
}

typedef struct {
    cuzk_r1cs_t *cs;
    cuzk_groth16_pk pk;
} key_contents;

/* The generated circuit, and its key from the cache or made and cached. With a cache the circuit is then replaced
 * by the mapping of its cached PCE (checked against the generated identity), so that the key can go WARM. */
static cuzk_status load_synthetic(const cuzk_engine *e, const engine_key *k, unsigned threads, key_contents *kc,
                                  cuzk_errmsg *err)
{
    cuzk_status s = cuzk_circuits_synthetic(k->log2, k->seed, threads, &kc->cs, NULL, err);
    if (s != CUZK_OK) return s;
    char params[4400], pce[4400], dir[4200];
    bool cache = key_paths(e, k, pce, params);
    if (cache) {
        snprintf(dir, sizeof dir, "%s/synthetic", e->param_dir);
        cache = mkdir(dir, 0755) == 0 || errno == EEXIST;
    }
    /* with device keys every device generates the key itself (cuzk_engine_synthetic_toxic): the host never holds it */
    bool have_key = e->dev_keys;
    if (!have_key && cache && access(params, R_OK) == 0) {
        /* a cached key is used only when it fits this circuit; anything else is regenerated */
        have_key = cuzk_groth16_params_load(&kc->pk, params, 0, threads, NULL) == CUZK_OK &&
                   cuzk_groth16_pk_check_circuit(&kc->pk, kc->cs, NULL) == CUZK_OK;
        if (!have_key) cuzk_groth16_pk_free(&kc->pk);
    }
    if (!have_key) {
        cuzk_groth16_setup_opts o;
        memset(&o, 0, sizeof o);
        o.threads = threads;
        o.conv = CUZK_GROTH16_BELLPERSON;
        o.given_toxic = true;
        cuzk_engine_key_toxic(k, &o);
        s = cuzk_groth16_setup(&kc->pk, kc->cs, &o, err);
        explicit_bzero(&o, sizeof o);
        if (s != CUZK_OK) return s;
        if (cache) cache_write_params(&kc->pk, params);
    }
    if (!cache) return CUZK_OK;
    cuzk_r1cs_t *mapped = NULL;
    if (cuzk_r1cs_pce_load(pce, 0, kc->cs->identity, &mapped, NULL) != CUZK_OK) {
        cache_write_pce(kc->cs, pce); /* missing, or another circuit's: written anew */
        if (cuzk_r1cs_pce_load(pce, 0, kc->cs->identity, &mapped, NULL) != CUZK_OK) return CUZK_OK; /* stays heap */
    }
    cuzk_r1cs_free(kc->cs);
    kc->cs = mapped;
    return CUZK_OK;
}

/* WARM: the points decoded from the mapped .params, for the circuit the key kept. */
static cuzk_status load_warm(const engine_key *k, unsigned threads, key_contents *kc, cuzk_errmsg *err)
{
    cuzk_errmsg sub = {{0}};
    cuzk_status s = cuzk_groth16_params_parse(&kc->pk, k->params_map, k->params_map_len, 0, threads, &sub);
    if (s == CUZK_OK) s = cuzk_groth16_pk_check_circuit(&kc->pk, k->cs, &sub);
    if (s != CUZK_OK)
        snprintf(err->msg, sizeof err->msg, "mapped %.40s.params: %.60s (%.130s)", k->id, cuzk_status_str(s), sub.msg);
    return s;
}

static cuzk_status load_generic(const cuzk_engine *e, const engine_key *k, unsigned threads, key_contents *kc,
                                cuzk_errmsg *err)
{
    char path[4400];
    cuzk_errmsg sub = {{0}};
    snprintf(path, sizeof path, "%s/%s.pce", e->param_dir, k->id);
    cuzk_status s = cuzk_r1cs_pce_load(path, 0, NULL, &kc->cs, &sub);
    if (s != CUZK_OK) {
        snprintf(err->msg, sizeof err->msg, "%.40s.pce: %.60s (%.130s)", k->id, cuzk_status_str(s), sub.msg);
        return s;
    }
    snprintf(path, sizeof path, "%s/%s.params", e->param_dir, k->id);
    s = cuzk_groth16_params_load(&kc->pk, path, 0, threads, &sub);
    if (s != CUZK_OK) {
        snprintf(err->msg, sizeof err->msg, "%.40s.params: %.60s (%.130s)", k->id, cuzk_status_str(s), sub.msg);
        return s;
    }
    s = cuzk_groth16_pk_check_circuit(&kc->pk, kc->cs, &sub);
    if (s != CUZK_OK)
        snprintf(err->msg, sizeof err->msg, "%.40s.params does not fit %.40s.pce: %.140s", k->id, k->id, sub.msg);
    return s;
}

/* A v28 file name for messages, its 64-digit hash cut to 16 ("v28-...-0170db1f394b35d9...params"): a load's message
 * must carry the name and two digests within one line. */
static const char *short_name(const char *name, char out[200])
{
    const char *dash = strrchr(name, '-'), *dot = strrchr(name, '.');
    if (dash == NULL || dot == NULL || dot - dash != 65) return name;
    snprintf(out, 200, "%.*s...%s", (int)(dash + 17 - name), name, dot);
    return out;
}

/* Before a .params file's first use: its BLAKE2b digest against the manifest's (the override's first). A file checked
 * before (same device, inode, size and modification time) is not hashed again. */
static cuzk_status check_digest(const cuzk_engine *e, engine_key *k, const char *path, cuzk_errmsg *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "%s is not in %s: %s", k->params_name, e->param_dir, strerror(errno));
    if (k->digest_ok && k->digest_dev == (uint64_t)st.st_dev && k->digest_ino == (uint64_t)st.st_ino &&
        k->digest_size == (uint64_t)st.st_size && k->digest_mtime == (uint64_t)st.st_mtime)
        return CUZK_OK;
    k->digest_ok = false;
    char sn[200];
    const char *want = cuzk_engine_fil_expected_digest(e->manifest, e->manifest_len, k->params_name);
    if (want == NULL)
        return cuzk_fail(err, CUZK_ERR_CHECKSUM, "%s: no digest for it in the parameter manifest",
                         short_name(k->params_name, sn));
    char got[33];
    uint64_t bytes;
    cuzk_errmsg sub = {{0}};
    cuzk_status s = cuzk_fil_file_digest(path, got, &bytes, &sub);
    if (s != CUZK_OK) return cuzk_fail(err, s, "%.120s: %.120s", short_name(k->params_name, sn), sub.msg);
    if (strcmp(got, want) != 0)
        return cuzk_fail(err, CUZK_ERR_CHECKSUM, "%s: digest %s, the manifest's is %s", short_name(k->params_name, sn),
                         got, want);
    k->digest_ok = true;
    k->digest_dev = (uint64_t)st.st_dev;
    k->digest_ino = (uint64_t)st.st_ino;
    k->digest_size = (uint64_t)st.st_size;
    k->digest_mtime = (uint64_t)st.st_mtime;
    return CUZK_OK;
}

/* A Filecoin circuit's key: its shape from the shape cache (built and written on first use) where the filecoin layer
 * has the circuit, then its v28 .params (digest checked unless the configuration says not to) checked against that
 * shape, or for a generated key the setup from its toxic waste (on each device instead, with device keys). The
 * loader owns k while it is LOADING (the digest memo is its own). */
static cuzk_status load_fil(const cuzk_engine *e, engine_key *k, unsigned threads, key_contents *kc, cuzk_errmsg *err)
{
    char path[4400];
    cuzk_errmsg sub = {{0}};
    cuzk_status s;
    if (e->param_dir == NULL || e->pce_dir == NULL)
        return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "no param_dir is configured");
    /* the file first: a damaged one is refused before its shape is built */
    snprintf(path, sizeof path, "%s/%s", e->param_dir, k->params_name);
    if (!k->generated && !e->cfg.skip_param_digest && (s = check_digest(e, k, path, err)) != CUZK_OK) return s;
    if (k->fil_circuit) {
        s = cuzk_fil_shape_load_or_build(e->pce_dir, k->fil, threads, 0, &kc->cs, NULL, &sub);
        if (s != CUZK_OK)
            return cuzk_fail(err, s, "the shape of %s in %.100s: %.120s", k->fil->name, e->pce_dir, sub.msg);
    }
    if (k->generated) {
        if (e->dev_keys) return CUZK_OK; /* every device makes the key itself: the host holds the shape alone */
        cuzk_groth16_setup_opts o;
        memset(&o, 0, sizeof o);
        o.threads = threads;
        o.conv = CUZK_GROTH16_BELLPERSON;
        o.given_toxic = true;
        cuzk_engine_key_toxic(k, &o);
        s = cuzk_groth16_setup(&kc->pk, kc->cs, &o, err);
        explicit_bzero(&o, sizeof o);
        return s;
    }
    s = cuzk_groth16_params_load(&kc->pk, path, 0, threads, &sub);
    if (s != CUZK_OK) return cuzk_fail(err, s, "%.140s: %.100s", k->params_name, sub.msg);
    if (kc->cs != NULL && (s = cuzk_groth16_pk_check_circuit(&kc->pk, kc->cs, &sub)) != CUZK_OK)
        return cuzk_fail(err, s, "%.130s is not a key of %s's circuit: %.80s", k->params_name, k->fil->name, sub.msg);
    return CUZK_OK;
}

static uint64_t contents_bytes(const key_contents *kc)
{
    const cuzk_groth16_pk *pk = &kc->pk;
    const cuzk_r1cs_t *cs = kc->cs;
    uint64_t b = (pk->h_len + pk->l_len + pk->a_len + pk->b_len + pk->vk.num_inputs) * sizeof(cuzk_g1_affine_t) +
                 pk->b_len * sizeof(cuzk_g2_affine_t);
    if (cs == NULL) {
        /* an SRS id's key: no circuit */
    } else if (cs->map != NULL) {
        b += cs->map_len;
    } else {
        for (int m = 0; m < 3; m++) b += (cs->num_constraints + 1) * 8 + cs->m[m].nnz * 8;
        b += (uint64_t)cs->num_values * sizeof(cuzk_fr_t) + (2 * (uint64_t)cs->num_aux + cs->num_inputs) / 8 + 24;
    }
    return b;
}

/* Lock held. Lists the unfinished jobs that wait for k, with the load's failure. */
static void fail_waiting_jobs(cuzk_engine *e, engine_key *k, engine_failures *fail)
{
    for (engine_job *j = e->jobs; j != NULL; j = j->next)
        if (j->key == k) engine_failures_add(fail, j, "cannot load circuit %s: %s", k->id, k->last_error);
}

static uint64_t load_estimate(const engine_key *k) { return k->hot_bytes != 0 ? k->hot_bytes : k->size_bytes; }

/* Lock held. Whether `need` more bytes would fit the key budget once every unreferenced HOT key is demoted. */
static bool room_possible(const cuzk_engine *e, uint64_t need)
{
    if (e->key_budget == 0) return true;
    uint64_t kept = e->keys_hot_bytes;
    for (const engine_key *k = e->keys; k != NULL; k = k->next)
        if (k->state == KEY_HOT && k->refs == 0) kept -= k->size_bytes;
    return kept + need <= e->key_budget;
}

/* Lock held, room_possible(need) true. Demotes unreferenced HOT keys, least recently used first, until `need` more
 * bytes fit the budget. */
static void make_room(cuzk_engine *e, uint64_t need)
{
    while (e->key_budget != 0 && e->keys_hot_bytes + need > e->key_budget) {
        engine_key *lru = NULL;
        for (engine_key *k = e->keys; k != NULL; k = k->next)
            if (k->state == KEY_HOT && k->refs == 0 && (lru == NULL || k->last_use < lru->last_use)) lru = k;
        if (lru == NULL) return;
        key_demote(e, lru);
    }
}

/* Loads that wait for keys in use to be released are passed over. */
engine_key *cuzk_engine_keys_next_load(cuzk_engine *e, engine_failures *fail)
{
    engine_key *pick = NULL;
    for (engine_key *k = e->keys; k != NULL; k = k->next) {
        if (!k->load_queued) continue;
        uint64_t estimate = load_estimate(k);
        if (e->key_budget != 0 && estimate > e->key_budget) {
            k->load_queued = false;
            snprintf(k->last_error, sizeof k->last_error, "the key needs %llu bytes, key budget %llu",
                     (unsigned long long)estimate, (unsigned long long)e->key_budget);
            k->last_status = CUZK_ERR_OVER_BUDGET;
            fail_waiting_jobs(e, k, fail);
            pthread_cond_broadcast(&e->done_cv);
            continue;
        }
        if (room_possible(e, estimate) && (pick == NULL || k->load_seq < pick->load_seq)) pick = k;
    }
    if (pick != NULL) make_room(e, load_estimate(pick));
    return pick;
}

void cuzk_engine_key_load(cuzk_engine *e, engine_key *k, engine_failures *fail)
{
    unsigned threads = e->cfg.synthesis_threads > e->cfg.prover_threads ? e->cfg.synthesis_threads
                                                                        : e->cfg.prover_threads;
    bool warm = k->state == KEY_WARM;
    k->load_queued = false;
    k->loading_from_warm = warm;
    k->state = KEY_LOADING;
    pthread_mutex_unlock(&e->lock);

    /* nobody reads a LOADING key's contents, so they are read and filled without the lock */
    double t = cuzk_now();
    key_contents kc;
    memset(&kc, 0, sizeof kc);
    cuzk_errmsg err = {{0}};
    cuzk_status s;
    if (warm) {
        kc.cs = k->cs; /* kept */
        s = load_warm(k, threads, &kc, &err);
    } else {
        s = k->srs         ? load_fil(e, k, threads, &kc, &err)
            : k->synthetic ? load_synthetic(e, k, threads, &kc, &err)
                           : load_generic(e, k, threads, &kc, &err);
    }
    uint64_t bytes = 0;
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    bool new_vk = false;
    /* the verifying key is the engine's own copy (it outlives the points); a device-generated synthetic key
     * gets it from its first device copy instead */
    if (s == CUZK_OK && kc.pk.vk.ic != NULL) {
        vk = kc.pk.vk;
        vk.ic = malloc(vk.num_inputs * sizeof *vk.ic);
        if (vk.ic == NULL) {
            s = CUZK_ERR_NOMEM;
            snprintf(err.msg, sizeof err.msg, "out of memory for the verifying key");
        } else {
            memcpy(vk.ic, kc.pk.vk.ic, vk.num_inputs * sizeof *vk.ic);
            vk.storage = vk.ic;
            cuzk_groth16_prepare_vk(&pvk, &vk);
            new_vk = true;
        }
    }
    if (s == CUZK_OK) {
        bytes = contents_bytes(&kc);
        k->cs = kc.cs;
        k->pk = kc.pk;
        cuzk_unmap_file(k->params_map, k->params_map_len);
        k->params_map = NULL;
        k->params_map_len = 0;
    }

    pthread_mutex_lock(&e->lock);
    if (s == CUZK_OK && new_vk) {
        /* no partition of this key is in flight (it was not HOT), so nobody verifies with the old one */
        cuzk_groth16_vk_free(&k->vk);
        k->vk = vk;
        k->pvk = pvk;
        k->pvk.vk = &k->vk;
        k->have_vk = true;
    }
    if (s == CUZK_OK) {
        k->size_bytes = k->hot_bytes = bytes;
        k->state = KEY_HOT;
        k->load_ms = (uint64_t)((cuzk_now() - t) * 1000);
        k->last_use = ++e->lru_clock;
        k->t_last_use = cuzk_now();
        k->dims_known = k->cs != NULL;
        k->domain_size = k->pk.domain_size;
        k->num_vars = k->cs != NULL ? cuzk_r1cs_num_vars(k->cs) : 0;
        k->num_inputs = k->cs != NULL ? k->cs->num_inputs : k->pk.vk.num_inputs;
        /* a key held on the host (not one made on a device) gives its densities: a tighter bound */
        k->shape_known = k->pk.domain_size != 0;
        if (k->shape_known) cuzk_groth16_prove_shape_key(&k->shape, &k->pk);
        k->last_error[0] = 0;
        k->last_status = CUZK_OK;
        k->t_hot = cuzk_now();
        e->keys_hot_bytes += bytes;
        make_room(e, 0); /* the estimate may have been low: back within the budget as far as keys are unused */
    } else {
        if (kc.cs != NULL && kc.cs != k->cs) cuzk_r1cs_free(kc.cs);
        cuzk_groth16_pk_free(&kc.pk);
        cuzk_engine_key_free_contents(e, k); /* a failed WARM reload drops the mappings too */
        snprintf(k->last_error, sizeof k->last_error, "%s: %s%s", cuzk_status_str(s), err.msg,
                 k->srs && s == CUZK_ERR_CHECKSUM
                     ? " (a damaged or foreign file: fetch it again, or turn the digest check off with [srs] "
                       "verify_digest = false)"
                     : "");
        k->last_status = s;
        fail_waiting_jobs(e, k, fail);
    }
}
