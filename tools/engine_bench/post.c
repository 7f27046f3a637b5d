/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-engine-bench --post winning|window: Curio's PoSt requests through the engine in this process, each timed from
 * request to verified proof (cuzk_engine_submit, which decodes and checks the vanilla proofs, to cuzk_engine_await's
 * answer), one after the other. The key is loaded first (PreloadSRS, timed apart): the registered proof's v28 .params
 * from the parameter directory with its shape from the shape cache (built and written there on first use), or with
 * --test-key 1 a key made from toxic waste, on each GPU by cuzk_gpu_setup where the GPU backend runs. The vanilla
 * proof is one sector's (a file, e.g. the real 32 GiB sector of tests/fixtures/filecoin, or generated here at any
 * size), listed --sectors times for a WindowPoSt partition (under API 1.2 a sector's challenges do not depend on its
 * place). With --shape-first 1 (the default) the circuit's shape is built into the shape cache (or mapped from it)
 * before the engine starts, timed apart with the build's peak memory ("shape_s"), and the key load maps it. One JSON
 * line: the times (min, median, max), the engine's per-stage times of the last request, the peak RSS after the key
 * load and after the requests (what a daemon holds for the same work). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/circuits.h"
#include "post.h"
#include "util.h"

/* ---- a sector's vanilla proof without the sector ----------------------------------------------------------------- */

typedef struct {
    uint64_t idx;
    uint8_t v[32];
} snode;

typedef struct {
    snode *n;
    size_t len;
} slevel;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* the value of a node off every path: drawn from (seed, level, index), below 2^254 < r */
static void filler(uint64_t seed, unsigned level, uint64_t idx, uint8_t out[32])
{
    uint64_t x = mix(seed ^ mix(((uint64_t)level << 56) ^ idx));
    for (int i = 0; i < 4; i++) {
        x = mix(x);
        for (int j = 0; j < 8; j++) out[8 * i + j] = (uint8_t)(x >> (8 * j));
    }
    out[31] &= 0x3f;
}

static const uint8_t *lookup(const slevel *l, uint64_t idx)
{
    for (size_t i = 0; i < l->len; i++)
        if (l->n[i].idx == idx) return l->n[i].v;
    return NULL;
}

static void node_value(const slevel *l, uint64_t seed, unsigned level, uint64_t idx, uint8_t out[32])
{
    const uint8_t *v = lookup(l, idx);
    if (v != NULL) memcpy(out, v, 32);
    else filler(seed, level, idx, out);
}

cuzk_status post_vanilla_generate(const cuzk_fil_proof *p, uint64_t sector_id, const uint8_t randomness[32],
                                  uint64_t seed, uint8_t **buf, size_t *len, cuzk_errmsg *err)
{
    const cuzk_fil_shape *sh = &p->tree_r;
    unsigned L = cuzk_fil_shape_levels(sh), sib = cuzk_fil_shape_siblings(sh), m = p->challenges;
    *buf = NULL;
    slevel lv[CUZK_FIL_MAX_LEVELS + 1];
    memset(lv, 0, sizeof lv);
    uint64_t *leaves = calloc(m, sizeof *leaves);
    cuzk_fil_post_sector s;
    memset(&s, 0, sizeof s);
    s.mem = calloc(1, (size_t)m * (sizeof(cuzk_fil_merkle_proof) + (size_t)sib * 32));
    cuzk_status st = CUZK_OK;
    if (leaves == NULL || s.mem == NULL || L == 0 || L > CUZK_FIL_MAX_LEVELS) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (unsigned l = 0; l <= L; l++) {
        lv[l].n = calloc(m, sizeof *lv[l].n);
        if (lv[l].n == NULL) {
            st = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
            goto out;
        }
    }
    if ((st = cuzk_fil_post_sector_challenges(p, randomness, sector_id, 0, leaves, err)) != CUZK_OK) goto out;
    /* level 0: the challenged leaves; then each level's nodes on a path, from their children */
    for (unsigned i = 0; i < m; i++) {
        if (lookup(&lv[0], leaves[i]) != NULL) continue;
        snode *n = &lv[0].n[lv[0].len++];
        n->idx = leaves[i];
        filler(seed, 0, leaves[i], n->v);
    }
    for (unsigned l = 0; l < L; l++) {
        unsigned a = cuzk_fil_shape_arity(sh, l);
        for (size_t i = 0; i < lv[l].len; i++) {
            uint64_t q = lv[l].n[i].idx / a;
            if (lookup(&lv[l + 1], q) != NULL) continue;
            uint8_t in[16 * 32];
            for (unsigned t = 0; t < a; t++) node_value(&lv[l], seed, l, q * a + t, in + 32 * t);
            snode *n = &lv[l + 1].n[lv[l + 1].len++];
            n->idx = q;
            if ((st = cuzk_poseidon_merkle_hash_bytes(n->v, a, in, err)) != CUZK_OK) goto out;
        }
    }
    /* the paths */
    s.sector_id = sector_id;
    s.challenges = m;
    s.inclusion = (cuzk_fil_merkle_proof *)s.mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)((uint8_t *)s.mem + (size_t)m * sizeof(cuzk_fil_merkle_proof));
    memcpy(s.comm_r_last, lv[L].n[0].v, 32);
    filler(seed, 63, 0, s.comm_c);
    if ((st = cuzk_poseidon_comm_r(s.comm_r, s.comm_c, s.comm_r_last, err)) != CUZK_OK) goto out;
    for (unsigned c = 0; c < m; c++) {
        cuzk_fil_merkle_proof *mp = &s.inclusion[c];
        mp->siblings = pool + (size_t)c * sib;
        memcpy(mp->root, s.comm_r_last, 32);
        node_value(&lv[0], seed, 0, leaves[c], mp->leaf);
        mp->levels = (uint8_t)L;
        mp->kind = sh->top ? CUZK_FIL_MERKLE_TOP : sh->sub ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE;
        mp->leaf_index = leaves[c];
        uint64_t idx = leaves[c];
        size_t k = 0;
        for (unsigned l = 0; l < L; l++) {
            unsigned a = cuzk_fil_shape_arity(sh, l);
            unsigned pos = (unsigned)(idx % a);
            for (unsigned t = 0; t < a; t++)
                if (t != pos) node_value(&lv[l], seed, l, idx - pos + t, (uint8_t *)mp->siblings[k++]);
            mp->index[l] = (uint8_t)pos;
            idx /= a;
        }
    }
    /* what the engine will check, checked here first */
    if ((st = cuzk_fil_post_sector_verify(p, &s, err)) != CUZK_OK) goto out;
    size_t cap = cuzk_fil_post_sector_bytes(p);
    if ((*buf = malloc(cap)) == NULL) {
        st = cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
        goto out;
    }
    st = cuzk_fil_post_sector_encode(p, &s, *buf, cap, len, err);
out:
    if (st != CUZK_OK) {
        free(*buf);
        *buf = NULL;
    }
    for (unsigned l = 0; l <= L && l <= CUZK_FIL_MAX_LEVELS; l++) free(lv[l].n);
    free(leaves);
    free(s.mem);
    return st;
}

/* ---- the benchmark ----------------------------------------------------------------------------------------------- */

static const cuzk_fil_proof *pick(const post_opts *o)
{
    bool winning = strcmp(o->kind, "winning") == 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != CUZK_FIL_CLASS_POST || p->sector_size != o->sector_size) continue;
        if (p->kind != (winning ? CUZK_FIL_KIND_WINNING_POST : CUZK_FIL_KIND_WINDOW_POST)) continue;
        if (o->registered_proof >= 0 ? p->id == (uint64_t)o->registered_proof : winning || p->api == CUZK_FIL_API_1_2)
            return p;
    }
    return NULL;
}

int post_main(cuzk_engine_config *cfg, const post_opts *o)
{
    if (strcmp(o->kind, "winning") != 0 && strcmp(o->kind, "window") != 0) {
        fprintf(stderr, "--post: winning or window\n");
        return 2;
    }
    const cuzk_fil_proof *p = pick(o);
    if (p == NULL) {
        char s[24];
        fprintf(stderr, "no %s registered proof for %s%s\n", o->kind, cuzk_fil_size_str(o->sector_size, s),
                o->registered_proof >= 0 ? " with that --registered-proof" : "");
        return 2;
    }
    bool winning = p->kind == CUZK_FIL_KIND_WINNING_POST;
    uint32_t n = winning ? 1 : o->sectors ? o->sectors : p->post_sectors;
    if (n > p->post_sectors && !winning) {
        fprintf(stderr, "--sectors %u: a %s partition holds at most %u\n", n, p->name, p->post_sectors);
        return 2;
    }
    if (n > 1 && p->api != CUZK_FIL_API_1_2) {
        fprintf(stderr,
                "--sectors %u under %s: one sector listed many times needs API 1.2 (its challenges do not "
                "depend on its place)\n",
                n, p->name);
        return 2;
    }
    cuzk_errmsg err = {{0}};
    uint8_t *van;
    size_t vlen = 0;
    double t = cuzk_now();
    if (o->vanilla != NULL) {
        if ((van = eb_read_file(o->vanilla, &vlen)) == NULL) {
            fprintf(stderr, "cannot read %s\n", o->vanilla);
            return 2;
        }
    } else if (post_vanilla_generate(p, 1, o->randomness, 1, &van, &vlen, &err) != CUZK_OK) {
        fprintf(stderr, "generating a vanilla proof: %s\n", err.msg);
        return 1;
    }
    double gen_s = cuzk_now() - t;
    cuzk_engine_bytes *list = malloc(n * sizeof *list);
    if (list == NULL) return 1;
    for (uint32_t i = 0; i < n; i++) list[i] = (cuzk_engine_bytes){van, vlen};

    eb_shape sf;
    memset(&sf, 0, sizeof sf);
    unsigned threads = cfg->synthesis_threads ? cfg->synthesis_threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (o->shape_first && eb_shape_first(cfg, p, threads, &sf, &err) != CUZK_OK) {
        fprintf(stderr, "the shape of %s: %s\n", p->name, err.msg);
        free(list);
        free(van);
        return 1;
    }

    cfg->fil_generated_keys = o->test_key;
    cuzk_engine *e;
    if (cuzk_engine_create(&e, cfg, &err) != CUZK_OK) {
        fprintf(stderr, "engine_create: %s\n", err.msg);
        return 1;
    }
    bool already;
    uint64_t load_ms;
    t = cuzk_now();
    if (cuzk_engine_preload(e, p->srs_id, &already, &load_ms, &err) != CUZK_OK) {
        fprintf(stderr, "preload %s: %s\n", p->srs_id, err.msg);
        cuzk_engine_destroy(e);
        return 1;
    }
    double preload_s = cuzk_now() - t;
    uint64_t rss_key = eb_peak_rss();

    unsigned jobs = o->jobs ? o->jobs : 1, ok = 0;
    double *lat = calloc(jobs, sizeof *lat), *cpu = calloc(jobs, sizeof *cpu), submit_s = 0;
    cuzk_engine_result last;
    memset(&last, 0, sizeof last);
    for (unsigned j = 0; j < jobs; j++) {
        cuzk_engine_request r;
        memset(&r, 0, sizeof r);
        r.proof_kind = winning ? CUZK_ENGINE_KIND_WINNING_POST : CUZK_ENGINE_KIND_WINDOW_POST_PARTITION;
        r.registered_proof = p->id;
        r.sector_size = p->sector_size;
        r.vanilla_proofs = list;
        r.num_vanilla_proofs = n;
        r.randomness = (cuzk_engine_bytes){o->randomness, 32};
        r.miner_id = 1000;
        char id[CUZK_ENGINE_ID_MAX];
        double c0 = eb_cpu_s();
        t = cuzk_now();
        if (cuzk_engine_submit(e, &r, id, NULL, NULL, &err) != CUZK_OK) {
            fprintf(stderr, "submit: %s\n", err.msg);
            break;
        }
        submit_s = cuzk_now() - t;
        cuzk_engine_result_clear(&last);
        cuzk_engine_await(e, id, 0, &last);
        lat[j] = cuzk_now() - t;
        cpu[j] = eb_cpu_s() - c0;
        if (last.status != CUZK_ENGINE_JOB_COMPLETED) {
            fprintf(stderr, "%s: %s\n", id, last.error_message);
            break;
        }
        ok++;
    }
    uint64_t rss = eb_peak_rss();
    char *metrics = cuzk_engine_metrics_text(e);
    cuzk_engine_status_report st;
    char device[128] = "";
    bool have_st = cuzk_engine_status(e, &st) == CUZK_OK;
    if (have_st && st.num_gpus > 0) snprintf(device, sizeof device, "%s", st.gpus[0].name);
    double sorted[64], csorted[64];
    unsigned ns = ok < 64 ? ok : 64;
    memcpy(sorted, lat, ns * sizeof *sorted);
    qsort(sorted, ns, sizeof *sorted, eb_cmp_double);
    memcpy(csorted, cpu, ns * sizeof *csorted);
    qsort(csorted, ns, sizeof *csorted, eb_cmp_double);
    double load[1] = {-1};
    getloadavg(load, 1);
    char size[24];
    printf("{\"name\": \"engine_post\", \"kind\": \"%s\", \"registered_proof\": \"%s\", \"sector_size\": \"%s\", "
           "\"sectors\": %u, \"vanilla\": \"%s\", \"device\": \"%s\", \"test_key\": %s, \"synthesis_threads\": %u, "
           "\"prover_threads\": %u, ",
           o->kind, p->name, cuzk_fil_size_str(p->sector_size, size), n, o->vanilla ? o->vanilla : "generated", device,
           o->test_key ? "true" : "false", cfg->synthesis_threads, cfg->prover_threads);
    if (o->shape_first) eb_shape_print(&sf);
    printf("\"preload_s\": %.3f, \"vanilla_gen_s\": %.3f, \"jobs\": %u, \"completed\": %u, "
           "\"request_to_proof_s\": {\"min\": %.4f, \"median\": %.4f, \"max\": %.4f}, \"cpu_s_median\": %.3f, "
           "\"submit_s\": %.4f, \"loadavg\": %.2f, "
           "\"last\": {\"synthesis_ms\": %llu, \"gpu_compute_ms\": %llu, \"queue_wait_ms\": %llu, \"total_ms\": %llu}, "
           "\"peak_rss_after_key_bytes\": %llu, \"peak_rss_bytes\": %llu, ",
           preload_s, gen_s, jobs, ok, ns ? sorted[0] : 0, ns ? sorted[ns / 2] : 0, ns ? sorted[ns - 1] : 0,
           ns ? csorted[ns / 2] : 0, submit_s, load[0], (unsigned long long)last.synthesis_ms,
           (unsigned long long)last.gpu_compute_ms, (unsigned long long)last.queue_wait_ms,
           (unsigned long long)last.total_ms, (unsigned long long)rss_key, (unsigned long long)rss);
    if (o->floor) eb_floor_print(metrics, have_st ? &st : NULL, ok, ns ? sorted[ns / 2] : 0);
    if (have_st) cuzk_engine_status_clear(&st);
    printf("\"stage_s_per_request\": {");
    /* where a request's time goes (each partition's stages, summed, over the completed requests) */
    static const char *const stages[] = {"synthesis", "upload", "spmv", "ntt_h", "msm", "finalize", "verify"};
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
        printf("%s\"%s\": %.4f", i ? ", " : "", stages[i], ok ? eb_stage_sum(metrics, stages[i]) / ok : 0);
    printf("}}\n");
    free(metrics);
    fprintf(stderr,
            "%s %s, %u sector%s: %u of %u proofs, request to proof %.3f s (median), key %.1f s, peak RSS "
            "%.2f GiB\n",
            p->name, device, n, n == 1 ? "" : "s", ok, jobs, ns ? sorted[ns / 2] : 0, preload_s, rss / 1073741824.0);
    cuzk_engine_result_clear(&last);
    cuzk_engine_destroy(e);
    free(lat);
    free(cpu);
    free(list);
    free(van);
    return ok == jobs ? 0 : 1;
}
