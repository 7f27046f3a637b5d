/* The key manager: one entry per circuit (a registered circuit's PCE + .params, or a synthetic circuit with its
 * witness and a key made by groth16_setup), in tiers. On the CPU backend an entry is HOT when loaded in memory and
 * COLD when only its files exist. One loader thread loads entries while the dispatcher goes on with jobs whose keys
 * are ready; jobs reference their key from submission until their last partition is done, and only unreferenced
 * HOT entries are evicted, least recently used first, when a load needs room in the key budget. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "engine_internal.h"

bool engine_circuit_id_valid(const char *id)
{
    size_t n = strnlen(id, ENGINE_ID_MAX);
    if (n == 0 || n >= ENGINE_ID_MAX || id[0] == '.') return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                  c == '_' || c == '.';
        if (!ok) return false;
    }
    return true;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

uint64_t engine_partition_need(const engine *e, uint32_t kind, uint64_t domain_size, uint64_t num_vars)
{
    uint64_t b = e->be.partition_bytes(e->be.ctx, domain_size, num_vars);
    if (kind == ENGINE_KIND_GENERIC_CIRCUIT) b += num_vars * sizeof(fr_t);
    return b;
}

engine_key *engine_key_get(engine *e, const char *id, bool synthetic, unsigned log2, uint64_t seed)
{
    for (engine_key *k = e->keys; k != NULL; k = k->next)
        if (strcmp(k->id, id) == 0) return k;
    engine_key *k = calloc(1, sizeof *k);
    if (k == NULL) return NULL;
    snprintf(k->id, sizeof k->id, "%s", id);
    k->synthetic = synthetic;
    k->log2 = log2;
    k->seed = seed;
    if (synthetic) {
        /* known without loading: the generator's domain is exactly 2^log2, its variables fewer */
        k->dims_known = true;
        k->domain_size = k->num_vars = (uint64_t)1 << log2;
    } else if (e->param_dir != NULL) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s.pce", e->param_dir, id);
        k->size_bytes = file_size(path);
        snprintf(path, sizeof path, "%s/%s.params", e->param_dir, id);
        k->size_bytes += file_size(path);
    }
    k->next = e->keys;
    e->keys = k;
    return k;
}

void engine_key_request(engine *e, engine_key *k)
{
    if (k->state == KEY_COLD && !k->load_queued) {
        k->load_queued = true;
        pthread_cond_signal(&e->loader_cv);
    }
}

void engine_key_unref(engine *e, engine_key *k)
{
    if (k->refs > 0) k->refs--;
    k->last_use = ++e->lru_clock;
    if (k->refs == 0) pthread_cond_signal(&e->loader_cv); /* a waiting load may fit now */
}

void engine_key_free_contents(engine *e, engine_key *k)
{
    if (k->state == KEY_HOT) e->keys_hot_bytes -= k->size_bytes;
    groth16_pk_free(&k->pk);
    if (k->cs != NULL) r1cs_free(k->cs);
    free(k->witness);
    k->cs = NULL;
    k->witness = NULL;
    memset(&k->pvk, 0, sizeof k->pvk);
    k->state = KEY_COLD;
}

void engine_keys_destroy(engine *e)
{
    while (e->keys != NULL) {
        engine_key *k = e->keys;
        e->keys = k->next;
        engine_key_free_contents(e, k);
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
static void synthetic_toxic(groth16_setup_opts *o, uint64_t log2, uint64_t seed)
{
    uint64_t x = seed ^ (log2 << 56) ^ 0x6375a4b6e9d2c1f0ULL;
    fr_t *f[5] = {&o->tau, &o->alpha, &o->beta, &o->gamma, &o->delta};
    for (int i = 0; i < 5; i++) {
        uint64_t l[4] = {splitmix(&x), splitmix(&x), splitmix(&x), splitmix(&x) >> 2};
        fr_from_limbs_reduce(f[i], l);
    }
}

/* Writes through a temporary name and renames, so a concurrent reader never sees half a file. Best effort: the
 * cache only saves time. */
static void cache_write(const groth16_pk *pk, const r1cs_t *cs, const char *params_path, const char *pce_path)
{
    char tmp[4500];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", params_path, (long)getpid());
    if (groth16_params_write(pk, tmp, NULL) == CUZK_OK && rename(tmp, params_path) == 0) {
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", pce_path, (long)getpid());
        if (r1cs_pce_write(cs, tmp, NULL) == CUZK_OK && rename(tmp, pce_path) == 0) return;
    }
    unlink(tmp);
}

typedef struct {
    r1cs_t *cs;
    groth16_pk pk;
    fr_t *witness;
} key_contents;

static cuzk_status load_synthetic(const engine *e, const engine_key *k, unsigned threads, key_contents *kc,
                                  cuzk_errmsg *err)
{
    cuzk_status s = circuits_synthetic(k->log2, k->seed, threads, &kc->cs, &kc->witness, err);
    if (s != CUZK_OK) return s;
    char params[4400] = "", pce[4400] = "";
    if (e->param_dir != NULL) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/synthetic", e->param_dir);
        if (mkdir(dir, 0755) == 0 || errno == EEXIST) {
            snprintf(params, sizeof params, "%s/%u-%llu.params", dir, k->log2, (unsigned long long)k->seed);
            snprintf(pce, sizeof pce, "%s/%u-%llu.pce", dir, k->log2, (unsigned long long)k->seed);
        }
    }
    if (params[0] != 0 && access(params, R_OK) == 0) {
        /* a cached key is used only when it fits this circuit; anything else is regenerated */
        if (groth16_params_load(&kc->pk, params, 0, threads, NULL) == CUZK_OK &&
            groth16_pk_check_circuit(&kc->pk, kc->cs, NULL) == CUZK_OK)
            return CUZK_OK;
        groth16_pk_free(&kc->pk);
    }
    groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.conv = GROTH16_BELLPERSON;
    o.given_toxic = true;
    synthetic_toxic(&o, k->log2, k->seed);
    s = groth16_setup(&kc->pk, kc->cs, &o, err);
    explicit_bzero(&o, sizeof o);
    if (s != CUZK_OK) return s;
    if (params[0] != 0) cache_write(&kc->pk, kc->cs, params, pce);
    return CUZK_OK;
}

static cuzk_status load_generic(const engine *e, const engine_key *k, unsigned threads, key_contents *kc,
                                cuzk_errmsg *err)
{
    char path[4400];
    cuzk_errmsg sub = {{0}};
    snprintf(path, sizeof path, "%s/%s.pce", e->param_dir, k->id);
    cuzk_status s = r1cs_pce_load(path, 0, NULL, &kc->cs, &sub);
    if (s != CUZK_OK) {
        snprintf(err->msg, sizeof err->msg, "%.40s.pce: %.60s (%.130s)", k->id, cuzk_status_str(s), sub.msg);
        return s;
    }
    snprintf(path, sizeof path, "%s/%s.params", e->param_dir, k->id);
    s = groth16_params_load(&kc->pk, path, 0, threads, &sub);
    if (s != CUZK_OK) {
        snprintf(err->msg, sizeof err->msg, "%.40s.params: %.60s (%.130s)", k->id, cuzk_status_str(s), sub.msg);
        return s;
    }
    s = groth16_pk_check_circuit(&kc->pk, kc->cs, &sub);
    if (s != CUZK_OK) snprintf(err->msg, sizeof err->msg, "%.40s.params does not fit %.40s.pce: %.140s", k->id, k->id, sub.msg);
    return s;
}

static uint64_t contents_bytes(const key_contents *kc)
{
    const groth16_pk *pk = &kc->pk;
    const r1cs_t *cs = kc->cs;
    uint64_t b = (pk->h_len + pk->l_len + pk->a_len + pk->b_len + pk->vk.num_inputs) * sizeof(g1_affine_t) +
                 pk->b_len * sizeof(g2_affine_t);
    if (cs->map != NULL) {
        b += cs->map_len;
    } else {
        for (int m = 0; m < 3; m++) b += (cs->num_constraints + 1) * 8 + cs->m[m].nnz * 8;
        b += (uint64_t)cs->num_values * sizeof(fr_t) + (2 * (uint64_t)cs->num_aux + cs->num_inputs) / 8 + 24;
    }
    if (kc->witness != NULL) b += r1cs_num_vars(cs) * sizeof(fr_t);
    return b;
}

/* Lock held. Fails the unfinished jobs that wait for k. */
static void fail_waiting_jobs(engine *e, engine_key *k)
{
    for (engine_job *j = e->jobs; j != NULL; j = j->next)
        if (j->key == k && j->state != JOB_DONE)
            engine_job_finish(e, j, ENGINE_JOB_FAILED, "cannot load circuit %s: %s", k->id, k->last_error);
}

/* Lock held. Evicts unreferenced HOT keys, least recently used first, until `need` more bytes fit the budget. */
static bool make_room(engine *e, uint64_t need)
{
    while (e->key_budget != 0 && e->keys_hot_bytes + need > e->key_budget) {
        engine_key *lru = NULL;
        for (engine_key *k = e->keys; k != NULL; k = k->next)
            if (k->state == KEY_HOT && k->refs == 0 && (lru == NULL || k->last_use < lru->last_use)) lru = k;
        if (lru == NULL) return false;
        engine_key_free_contents(e, lru);
    }
    return true;
}

void *engine_loader_main(void *arg)
{
    engine *e = arg;
    unsigned threads = e->cfg.synthesis_threads > e->cfg.prover_threads ? e->cfg.synthesis_threads
                                                                        : e->cfg.prover_threads;
    pthread_mutex_lock(&e->lock);
    for (;;) {
        if (e->stop) break;
        engine_key *k = NULL;
        for (engine_key *x = e->keys; x != NULL; x = x->next)
            if (x->load_queued) k = x; /* the list is newest first: the last one found was requested first */
        if (k == NULL) {
            pthread_cond_wait(&e->loader_cv, &e->lock);
            continue;
        }
        uint64_t estimate = k->size_bytes;
        if (e->key_budget != 0 && estimate > e->key_budget) {
            k->load_queued = false;
            snprintf(k->last_error, sizeof k->last_error, "the key needs %llu bytes, key budget %llu",
                     (unsigned long long)estimate, (unsigned long long)e->key_budget);
            k->last_status = CUZK_ERR_OVER_BUDGET;
            fail_waiting_jobs(e, k);
            pthread_cond_broadcast(&e->done_cv);
            continue;
        }
        if (!make_room(e, estimate)) {
            /* every HOT key is in use: wait for a job to release one */
            pthread_cond_wait(&e->loader_cv, &e->lock);
            continue;
        }
        k->load_queued = false;
        k->state = KEY_LOADING;
        pthread_mutex_unlock(&e->lock);

        double t = engine_now();
        key_contents kc;
        memset(&kc, 0, sizeof kc);
        cuzk_errmsg err = {{0}};
        cuzk_status s = k->synthetic ? load_synthetic(e, k, threads, &kc, &err) : load_generic(e, k, threads, &kc, &err);
        uint64_t bytes = 0;
        if (s == CUZK_OK) {
            /* nobody reads a LOADING key's contents, so they are filled without the lock; the vk is prepared in
             * place because the prepared key points at it */
            bytes = contents_bytes(&kc);
            k->cs = kc.cs;
            k->pk = kc.pk;
            k->witness = kc.witness;
            groth16_prepare_vk(&k->pvk, &k->pk.vk);
        }

        pthread_mutex_lock(&e->lock);
        if (s == CUZK_OK) {
            k->size_bytes = bytes;
            k->state = KEY_HOT;
            k->load_ms = (uint64_t)((engine_now() - t) * 1000);
            k->last_use = ++e->lru_clock;
            k->dims_known = true;
            k->domain_size = k->pk.domain_size;
            k->num_vars = r1cs_num_vars(k->cs);
            k->num_inputs = k->cs->num_inputs;
            k->last_error[0] = 0;
            k->last_status = CUZK_OK;
            k->t_hot = engine_now();
            e->keys_hot_bytes += bytes;
        } else {
            if (kc.cs != NULL) r1cs_free(kc.cs);
            groth16_pk_free(&kc.pk);
            free(kc.witness);
            k->state = KEY_COLD;
            snprintf(k->last_error, sizeof k->last_error, "%.60s: %.190s", cuzk_status_str(s), err.msg);
            k->last_status = s;
            fail_waiting_jobs(e, k);
        }
        pthread_cond_broadcast(&e->work_cv);
        pthread_cond_broadcast(&e->done_cv);
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}
