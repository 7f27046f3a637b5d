/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-engine-bench --porep S / --snap S: Curio's PoRep C2 and SnapDeals requests through the engine in this process,
 * each timed from request to proof (cuzk_engine_submit, which parses and checks the vanilla proofs, to
 * cuzk_engine_await's answer), one after the other, after the circuit's shape and key are in place (timed apart).
 *
 * Inputs, in the forms Curio sends: at the test sizes (up to 512 MiB) a sector sealed here (cuzk_fil_sdr_seal) and
 * its C1 in Curio's envelope, or an update of a random sector (cuzk_fil_snap_update_random) with its partition proofs
 * in bincode: real inputs whose proofs verify. At the production sizes (or --generated 1) generated ones: a
 * structurally valid C1 (cuzk_fil_c1_random: random labels, columns and paths opening random challenges) or
 * partition proofs (cuzk_fil_snap_partition_random) with random commitments. Nothing in them hashes to anything, so
 * no proof of them can verify: the engine runs with fil_benchmark_inputs (engine.h), which skips the hash checks at
 * submission and counts each partition whose self-verification fails instead of failing the job. The line then says
 * "inputs": "generated", "self_verified": false and how many partitions did not verify (all of them): the work is a
 * real request's (parse, witness, proof, verification), the answer is not a proof.
 *
 * --shape-first 1 (default) builds the circuit's shape into the shape cache before the engine starts, or maps it when
 * it is there, and reports that time and the build's peak memory apart ("shape_s", "shape_built"): the engine then
 * maps the cached file, and later runs with the same --pce-dir reuse it. One JSON line: the times (min, median, max),
 * the engine's per-stage times per request and per partition, the peak RSS after the key load and after the
 * requests, the resident anonymous and file-backed memory at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "seal.h"
#include "util.h"

static const cuzk_fil_proof *pick(const seal_opts *o)
{
    cuzk_fil_class cls = o->snap ? CUZK_FIL_CLASS_UPDATE : CUZK_FIL_CLASS_SEAL;
    if (o->registered_proof >= 0) {
        const cuzk_fil_proof *p = cuzk_fil_proof_find(cls, (uint64_t)o->registered_proof);
        return p != NULL && p->sector_size == o->sector_size ? p : NULL;
    }
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != cls || p->sector_size != o->sector_size) continue;
        if (o->snap || (p->kind == CUZK_FIL_KIND_POREP && p->api == CUZK_FIL_API_1_1)) return p;
    }
    return NULL;
}

/* ---- inputs ------------------------------------------------------------------------------------------------------ */

typedef struct {
    uint8_t *c1; /* PoRep: vanilla_proof */
    size_t c1_len;
    uint8_t *vanilla; /* SnapDeals: partitions × part_bytes */
    size_t part_bytes;
    uint32_t parts;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    bool real; /* sealed here: its proofs verify */
} inputs;

static void inputs_free(inputs *in)
{
    free(in->c1);
    free(in->vanilla);
}

static uint8_t *c1_envelope(const cuzk_fil_c1 *c1, size_t *len, cuzk_errmsg *err)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (f == NULL) {
        cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for the C1 document");
        return NULL;
    }
    cuzk_status s = cuzk_fil_c1_write_json(c1, true, f, err);
    fclose(f);
    if (s != CUZK_OK) {
        free(buf);
        return NULL;
    }
    return (uint8_t *)buf;
}

static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* a random node below r (its top two bits clear) */
static void random_node(uint64_t *x, uint8_t out[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t v = mix(x);
        for (int j = 0; j < 8; j++) out[8 * i + j] = (uint8_t)(v >> (8 * j));
    }
    out[31] &= 0x3f;
}

static cuzk_status porep_inputs(const seal_opts *o, const cuzk_fil_proof *p, unsigned threads, inputs *in,
                                cuzk_errmsg *err)
{
    cuzk_fil_c1 c1;
    cuzk_status s;
    if (o->c1 != NULL) {
        if ((in->c1 = eb_read_file(o->c1, &in->c1_len)) == NULL)
            return cuzk_fail(err, CUZK_ERR_IO, "cannot read %s", o->c1);
        in->real = !o->generated;
        return CUZK_OK;
    }
    if (o->generated) {
        if ((s = cuzk_fil_c1_random(p, o->seed, &c1, err)) != CUZK_OK) return s;
    } else {
        cuzk_fil_sdr_seal_params sp = {.sector_size = p->sector_size,
                                       .api = (cuzk_fil_sdr_api)p->api,
                                       .sector_id = o->sector_number,
                                       .threads = threads};
        memcpy(sp.porep_id, p->porep_id, 32);
        cuzk_fil_prover_id(o->miner_id, sp.prover_id);
        uint64_t x = o->seed;
        uint8_t seed[32];
        random_node(&x, sp.ticket);
        random_node(&x, seed);
        cuzk_fil_sdr_replica rep;
        if ((s = cuzk_fil_sdr_seal(&sp, NULL, 0, &rep, err)) != CUZK_OK) return s;
        s = cuzk_fil_porep_c1_from_replica(&rep, p, sp.ticket, seed, &c1, err);
        cuzk_fil_sdr_replica_free(&rep);
        if (s != CUZK_OK) return s;
        in->real = true;
    }
    c1.sector_num = o->sector_number;
    in->c1 = c1_envelope(&c1, &in->c1_len, err);
    cuzk_fil_c1_free(&c1);
    return in->c1 != NULL ? CUZK_OK : CUZK_ERR_IO;
}

static cuzk_status snap_inputs(const seal_opts *o, const cuzk_fil_proof *p, unsigned threads, inputs *in,
                               cuzk_errmsg *err)
{
    cuzk_status s;
    in->parts = p->partitions;
    in->part_bytes = cuzk_fil_snap_partition_bytes(p);
    if (!o->generated) {
        cuzk_fil_snap_update u;
        if ((s = cuzk_fil_snap_update_random(p, o->seed, threads, &u, err)) != CUZK_OK) return s;
        memcpy(in->comm_r_old, u.comm_r_old, 32);
        memcpy(in->comm_d_new, u.comm_d_new, 32);
        memcpy(in->comm_r_new, u.comm_r_new, 32);
        in->vanilla = u.vanilla; /* taken over */
        u.vanilla = NULL;
        cuzk_fil_snap_update_free(&u);
        in->real = true;
        return CUZK_OK;
    }
    uint64_t x = o->seed;
    random_node(&x, in->comm_r_old);
    random_node(&x, in->comm_d_new);
    random_node(&x, in->comm_r_new);
    if ((in->vanilla = malloc(in->parts * in->part_bytes)) == NULL)
        return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %u partition proofs", in->parts);
    for (uint32_t k = 0; k < in->parts; k++) {
        cuzk_fil_snap_partition part;
        if ((s = cuzk_fil_snap_partition_random(p, k, in->comm_r_new, o->seed + k, &part, err)) != CUZK_OK) return s;
        size_t len;
        s = cuzk_fil_snap_partition_encode(p, &part, in->vanilla + k * in->part_bytes, in->part_bytes, &len, err);
        cuzk_fil_snap_partition_free(&part);
        if (s != CUZK_OK) return s;
    }
    return CUZK_OK;
}

/* ---- the benchmark ----------------------------------------------------------------------------------------------- */

int seal_main(cuzk_engine_config *cfg, const seal_opts *o)
{
    const char *what = o->snap ? "snap" : "porep";
    const cuzk_fil_proof *p = pick(o);
    char size[24];
    if (p == NULL) {
        fprintf(stderr, "no %s registered proof for %s%s\n", what, cuzk_fil_size_str(o->sector_size, size),
                o->registered_proof >= 0 ? " with that --registered-proof" : "");
        return 2;
    }
    seal_opts opt = *o;
    if (opt.generated < 0) opt.generated = p->sector_size > (512ULL << 20) && opt.c1 == NULL;
    if (!opt.generated && opt.c1 == NULL && p->sector_size > (512ULL << 20)) {
        fprintf(stderr, "--generated 0: sectors are sealed here up to 512 MiB only; %s needs generated inputs\n",
                p->name);
        return 2;
    }
    if (!opt.snap && p->kind == CUZK_FIL_KIND_POREP_NI) {
        fprintf(stderr, "%s: NI-PoRep is not proved by cuzk (its C2 is a SnarkPack aggregate)\n", p->name);
        return 2;
    }
    unsigned threads = cfg->synthesis_threads ? cfg->synthesis_threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    cuzk_errmsg err = {{0}};
    inputs in;
    memset(&in, 0, sizeof in);
    double t = cuzk_now();
    cuzk_status s = opt.snap ? snap_inputs(&opt, p, threads, &in, &err) : porep_inputs(&opt, p, threads, &in, &err);
    double gen_s = cuzk_now() - t;
    if (s != CUZK_OK) {
        fprintf(stderr, "making the %s inputs: %s\n", what, err.msg);
        inputs_free(&in);
        return 1;
    }
    cuzk_engine_bytes *list = NULL;
    if (opt.snap) {
        if ((list = calloc(in.parts, sizeof *list)) == NULL) return 1;
        for (uint32_t k = 0; k < in.parts; k++)
            list[k] = (cuzk_engine_bytes){in.vanilla + k * in.part_bytes, in.part_bytes};
    }

    eb_shape sf;
    memset(&sf, 0, sizeof sf);
    if (opt.shape_first && (s = eb_shape_first(cfg, p, threads, &sf, &err)) != CUZK_OK) {
        fprintf(stderr, "the shape of %s: %s\n", p->name, err.msg);
        inputs_free(&in);
        free(list);
        return 1;
    }

    cfg->fil_generated_keys = opt.test_key;
    cfg->fil_benchmark_inputs = !in.real;
    cuzk_engine *e;
    if (cuzk_engine_create(&e, cfg, &err) != CUZK_OK) {
        fprintf(stderr, "engine_create: %s\n", err.msg);
        inputs_free(&in);
        free(list);
        return 1;
    }
    bool already;
    uint64_t load_ms;
    t = cuzk_now();
    if (cuzk_engine_preload(e, p->srs_id, &already, &load_ms, &err) != CUZK_OK) {
        fprintf(stderr, "preload %s: %s\n", p->srs_id, err.msg);
        cuzk_engine_destroy(e);
        inputs_free(&in);
        free(list);
        return 1;
    }
    double preload_s = cuzk_now() - t;
    uint64_t rss_key = eb_peak_rss();

    unsigned jobs = opt.jobs ? opt.jobs : 1, ok = 0;
    double *lat = calloc(jobs, sizeof *lat), *cpu = calloc(jobs, sizeof *cpu), submit_s = 0;
    cuzk_engine_result last;
    memset(&last, 0, sizeof last);
    for (unsigned j = 0; lat != NULL && cpu != NULL && j < jobs; j++) {
        cuzk_engine_request r;
        memset(&r, 0, sizeof r);
        /* as Curio's tasks send them: NORMAL, its request id, the sector's size and registered proof */
        r.proof_kind = opt.snap ? CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE : CUZK_ENGINE_KIND_POREP_SEAL_COMMIT;
        r.priority = CUZK_ENGINE_PRIO_NORMAL;
        snprintf(r.request_id, sizeof r.request_id, "%s-%llu-%llu-%u", what, (unsigned long long)opt.miner_id,
                 (unsigned long long)opt.sector_number, j);
        r.registered_proof = p->id;
        r.sector_size = p->sector_size;
        r.sector_number = opt.sector_number;
        r.miner_id = opt.miner_id;
        if (opt.snap) {
            r.vanilla_proofs = list;
            r.num_vanilla_proofs = in.parts;
            r.comm_r_old = (cuzk_engine_bytes){in.comm_r_old, 32};
            r.comm_d_new = (cuzk_engine_bytes){in.comm_d_new, 32};
            r.comm_r_new = (cuzk_engine_bytes){in.comm_r_new, 32};
        } else {
            r.vanilla_proof = (cuzk_engine_bytes){in.c1, in.c1_len};
        }
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
    uint64_t rss = eb_peak_rss(), anon = eb_status_bytes("RssAnon:"), file = eb_status_bytes("RssFile:");
    char *metrics = cuzk_engine_metrics_text(e);
    cuzk_engine_status_report st;
    char device[128] = "";
    bool have_st = cuzk_engine_status(e, &st) == CUZK_OK;
    if (have_st && st.num_gpus > 0) snprintf(device, sizeof device, "%s", st.gpus[0].name);
    double sorted[64], csorted[64];
    unsigned ns = ok < 64 ? ok : 64;
    if (ns > 0) {
        memcpy(sorted, lat, ns * sizeof *sorted);
        memcpy(csorted, cpu, ns * sizeof *csorted);
    }
    qsort(sorted, ns, sizeof *sorted, eb_cmp_double);
    qsort(csorted, ns, sizeof *csorted, eb_cmp_double);
    uint32_t parts = p->partitions;
    printf("{\"name\": \"engine_%s\", \"registered_proof\": \"%s\", \"sector_size\": \"%s\", \"partitions\": %u, "
           "\"inputs\": \"%s\", \"self_verified\": %s, \"unverified_partitions\": %u, \"input_bytes\": %zu, "
           "\"device\": \"%s\", \"test_key\": %s, \"synthesis_workers\": %u, \"synthesis_threads\": %u, "
           "\"prover_threads\": %u, \"gpu_queue_depth\": %u, \"input_gen_s\": %.3f, ",
           what, p->name, cuzk_fil_size_str(p->sector_size, size), parts,
           opt.c1 != NULL ? opt.c1
           : in.real      ? "sealed"
                          : "generated",
           in.real ? "true" : "false", last.unverified_partitions, opt.snap ? in.parts * in.part_bytes : in.c1_len,
           device, opt.test_key ? "true" : "false", cfg->synthesis_workers, cfg->synthesis_threads, cfg->prover_threads,
           cfg->gpu_queue_depth, gen_s);
    if (opt.shape_first) eb_shape_print(&sf);
    printf("\"preload_s\": %.3f, \"jobs\": %u, \"completed\": %u, "
           "\"request_to_proof_s\": {\"min\": %.3f, \"median\": %.3f, \"max\": %.3f}, \"cpu_s_median\": %.3f, "
           "\"submit_s\": %.3f, \"loadavg\": %.2f, "
           "\"last\": {\"synthesis_ms\": %llu, \"gpu_compute_ms\": %llu, \"queue_wait_ms\": %llu, \"total_ms\": %llu}, "
           "\"peak_rss_after_key_bytes\": %llu, \"peak_rss_bytes\": %llu, \"rss_anon_end_bytes\": %llu, "
           "\"rss_file_end_bytes\": %llu, ",
           preload_s, jobs, ok, ns ? sorted[0] : 0, ns ? sorted[ns / 2] : 0, ns ? sorted[ns - 1] : 0,
           ns ? csorted[ns / 2] : 0, submit_s, eb_loadavg(), (unsigned long long)last.synthesis_ms,
           (unsigned long long)last.gpu_compute_ms, (unsigned long long)last.queue_wait_ms,
           (unsigned long long)last.total_ms, (unsigned long long)rss_key, (unsigned long long)rss,
           (unsigned long long)anon, (unsigned long long)file);
    if (opt.floor) eb_floor_print(metrics, have_st ? &st : NULL, ok, ns ? sorted[ns / 2] : 0);
    if (have_st) cuzk_engine_status_clear(&st);
    printf("\"stage_s_per_partition\": {");
    /* where a partition's time goes (each stage summed over the completed requests' partitions) */
    static const char *const stages[] = {"synthesis", "upload", "spmv", "ntt_h", "msm", "finalize", "verify"};
    double np = (double)ok * parts;
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
        printf("%s\"%s\": %.4f", i ? ", " : "", stages[i], np > 0 ? eb_stage_sum(metrics, stages[i]) / np : 0);
    printf("}");
    if (!in.real)
        printf(", \"note\": \"generated inputs (random labels and paths): no proof of them can verify; every "
               "partition was verified and counted, not failed (fil_benchmark_inputs)\"");
    printf("}\n");
    fflush(stdout);
    free(metrics);
    fprintf(stderr,
            "%s %s, %s inputs: %u of %u requests, request to proof %.3f s (median), key %.1f s%s, peak RSS "
            "%.2f GiB%s\n",
            p->name, device, in.real ? "sealed" : "generated", ok, jobs, ns ? sorted[ns / 2] : 0, preload_s,
            opt.shape_first ? (sf.built ? " (shape built first)" : " (shape mapped first)") : "", rss / 1073741824.0,
            in.real ? "" : "; the proofs do not verify (generated inputs)");
    cuzk_engine_result_clear(&last);
    cuzk_engine_destroy(e);
    free(lat);
    free(cpu);
    free(list);
    inputs_free(&in);
    return ok == jobs ? 0 : 1;
}
