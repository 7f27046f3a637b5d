/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `cuzk-bench post`: the FallbackPoSt circuits at production size, one JSON object per line.
 *
 *   cuzk-bench post shape --kind window|winning --sector-size S [--threads N] [--pce FILE]
 *       the blank circuit in SHAPE mode (parallel slots), then finished (canonical coefficients, densities,
 *       identity); {"name": "post_shape", ..., "synth_s", "finish_s", "peak_rss_mb", "nnz": [A, B, C]}; --pce writes it
 *   cuzk-bench post witness --vanilla FILE [--kind window] [--sector-size 32GiB] [--sectors N] [--threads N]
 *                           [--repeat R] [--digest] [--check [--pce FILE]]
 *       the witness of one partition made from that sector's vanilla proof listed N times (default: the circuit's
 *       slots; WindowPoSt under API 1.2, whose challenges do not depend on the sector's place), the rest padded;
 *       {"name": "post_witness", ..., "seconds" (best of R), "cpu_s" and "sys_s" (of that repetition),
 *       "peak_rss_mb"}; --digest adds "z_fnv64", the 64-bit FNV-1a of z's words (outside the timed span), to compare
 *       witnesses across builds. --check then takes the shape (from the PCE file when given, else built) and checks
 *       every row against the witness: {"name": "post_check", "satisfied": true|false, ...}; exit status 1 when a
 *       row fails. The full 32 GiB WindowPoSt check needs about 20 GB for the shape and 4 GB for the witness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "cuzk/filecoin.h"

static double peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* user + system CPU seconds of the process so far: on a shared machine, the work done rather than the wait */
static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* the system part alone (page faults, clearing) */
static double sys_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static int usage(void)
{
    fprintf(stderr, "usage: cuzk-bench post shape --kind window|winning --sector-size S [--threads N] [--pce FILE]\n"
                    "       cuzk-bench post witness --vanilla FILE [--kind window|winning] [--sector-size S] "
                    "[--sectors N]\n"
                    "                               [--threads N] [--repeat R] [--digest] [--check [--pce FILE]]\n");
    return 2;
}

static const cuzk_fil_proof *find_proof(const char *kind, uint64_t size, bool v1_2)
{
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != CUZK_FIL_CLASS_POST || p->sector_size != size) continue;
        bool win = p->kind == CUZK_FIL_KIND_WINNING_POST;
        if (strcmp(kind, win ? "winning" : "window") != 0) continue;
        if (win || (p->api == CUZK_FIL_API_1_2) == v1_2) return p;
    }
    return NULL;
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int shape(const cuzk_fil_proof *p, unsigned threads, const char *pce)
{
    cuzk_errmsg err = {{0}};
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    double c0 = cpu_s(), t0 = cuzk_now();
    cuzk_status s = cuzk_fil_circuit_synthesize(cs, p, threads, &err);
    double t1 = cuzk_now();
    cuzk_r1cs_t *r = NULL;
    if (s != CUZK_OK) {
        cuzk_cs_free(cs);
    } else {
        s = cuzk_cs_finish(cs, &r, NULL, &err);
    }
    double t2 = cuzk_now();
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench post shape: %s\n", err.msg);
        return 2;
    }
    char size[24], id[65];
    for (int i = 0; i < 32; i++) snprintf(id + 2 * i, 3, "%02x", r->identity[i]);
    printf("{\"name\": \"post_shape\", \"kind\": \"%s\", \"sector_size\": \"%s\", \"threads\": %u, "
           "\"constraints\": %llu, \"inputs\": %u, \"aux\": %u, \"nnz\": [%llu, %llu, %llu], \"synth_s\": %.3f, "
           "\"finish_s\": %.3f, \"seconds\": %.3f, \"cpu_s\": %.3f, \"peak_rss_mb\": %.0f, \"identity\": \"%s\"}\n",
           cuzk_fil_kind_name(p->kind), cuzk_fil_size_str(p->sector_size, size), threads,
           (unsigned long long)r->num_constraints, r->num_inputs, r->num_aux, (unsigned long long)r->m[0].nnz,
           (unsigned long long)r->m[1].nnz, (unsigned long long)r->m[2].nnz, t1 - t0, t2 - t1, t2 - t0, cpu_s() - c0,
           peak_rss_mb(), id);
    fflush(stdout);
    if (pce != NULL && (s = cuzk_r1cs_pce_write(r, pce, &err)) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench post shape: %s: %s\n", pce, err.msg);
        cuzk_r1cs_free(r);
        return 2;
    }
    cuzk_r1cs_free(r);
    return 0;
}

/* FNV-1a over 64-bit words: a fingerprint of z, not a cryptographic hash */
static uint64_t fnv64(const cuzk_fr_t *z, uint64_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint64_t i = 0; i < n; i++)
        for (int k = 0; k < CUZK_FR_LIMBS; k++) h = (h ^ z[i].l[k]) * 0x100000001b3ULL;
    return h;
}

static int witness(const cuzk_fil_proof *p, const char *vanilla, uint64_t nsectors, unsigned threads, unsigned repeat,
                   bool digest, bool check, const char *pce)
{
    cuzk_errmsg err = {{0}};
    size_t len;
    uint8_t *buf = read_file(vanilla, &len);
    if (buf == NULL) {
        fprintf(stderr, "cuzk-bench post witness: cannot read %s\n", vanilla);
        return 2;
    }
    cuzk_fil_post_sector s;
    cuzk_status st = cuzk_fil_post_sector_decode(p, buf, len, &s, &err);
    free(buf);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench post witness: %s: %s\n", vanilla, err.msg);
        return 2;
    }
    bool winning = p->kind == CUZK_FIL_KIND_WINNING_POST;
    size_t n = winning ? 1 : nsectors ? nsectors : p->post_sectors;
    if (n > p->post_sectors) n = p->post_sectors;
    cuzk_fil_post_sector *van = malloc(n * sizeof *van);
    uint64_t *ids = malloc(n * sizeof *ids);
    for (size_t i = 0; i < n; i++) {
        van[i] = s;
        ids[i] = s.sector_id;
    }
    uint8_t rand0[32] = {0}, prover[32] = {0};
    cuzk_fil_post_request rq = {p, van, n, ids, n, rand0, prover, 0};
    cuzk_cs_counts c;
    if ((st = cuzk_fil_circuit_counts(p, &c, &err)) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench post witness: %s\n", err.msg);
        return 2;
    }
    uint64_t nv = c.inputs + c.aux;
    cuzk_fr_t *z = malloc(nv * sizeof *z);
    if (z == NULL) {
        fprintf(stderr, "cuzk-bench post witness: no memory for %llu values\n", (unsigned long long)nv);
        return 2;
    }
    /* z is touched once first: a prover reuses its (pinned) witness buffer, so page faults are not the witness's. A
     * memset of zeros after malloc would be folded into calloc, which touches nothing: each page gets a volatile
     * store. */
    for (uint64_t off = 0; off < nv * sizeof *z; off += 4096) ((volatile uint8_t *)z)[off] = 0;
    double best = 1e30, best_cpu = 0, best_sys = 0;
    for (unsigned k = 0; k < (repeat ? repeat : 1); k++) {
        double c0 = cpu_s(), s0 = sys_s(), t0 = cuzk_now();
        st = cuzk_fil_post_witness(&rq, z, nv, threads, &err);
        double t = cuzk_now() - t0;
        if (t < best) best_cpu = cpu_s() - c0, best_sys = sys_s() - s0;
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk-bench post witness: %s\n", err.msg);
            return 2;
        }
        if (t < best) best = t;
    }
    char size[24], fp[48] = "";
    if (digest) snprintf(fp, sizeof fp, ", \"z_fnv64\": \"%016llx\"", (unsigned long long)fnv64(z, nv));
    printf("{\"name\": \"post_witness\", \"kind\": \"%s\", \"sector_size\": \"%s\", \"threads\": %u, \"sectors\": %zu, "
           "\"slots\": %u, \"vars\": %llu, \"seconds\": %.3f, \"cpu_s\": %.3f, \"sys_s\": %.3f, \"peak_rss_mb\": "
           "%.0f%s}\n",
           cuzk_fil_kind_name(p->kind), cuzk_fil_size_str(p->sector_size, size), threads, n, p->post_sectors,
           (unsigned long long)nv, best, best_cpu, best_sys, peak_rss_mb(), fp);
    fflush(stdout);
    int rc = 0;
    if (check) {
        cuzk_r1cs_t *r = NULL;
        double t0 = cuzk_now();
        st = pce != NULL ? cuzk_r1cs_pce_load(pce, CUZK_R1CS_PCE_TRUSTED, NULL, &r, &err)
                         : cuzk_fil_circuit_shape(p, threads, &r, &err);
        double t1 = cuzk_now();
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk-bench post witness: shape: %s\n", err.msg);
            return 2;
        }
        if (cuzk_r1cs_num_vars(r) != nv) {
            fprintf(stderr, "cuzk-bench post witness: the shape has %llu variables, the witness %llu\n",
                    (unsigned long long)cuzk_r1cs_num_vars(r), (unsigned long long)nv);
            return 2;
        }
        uint64_t bad = UINT64_MAX;
        st = cuzk_r1cs_check(r, z, threads, &bad);
        double t2 = cuzk_now();
        printf("{\"name\": \"post_check\", \"kind\": \"%s\", \"sector_size\": \"%s\", \"threads\": %u, "
               "\"constraints\": %llu, \"satisfied\": %s, \"first_bad_row\": %lld, \"shape_s\": %.3f, "
               "\"check_s\": %.3f, \"peak_rss_mb\": %.0f}\n",
               cuzk_fil_kind_name(p->kind), size, threads, (unsigned long long)r->num_constraints,
               st == CUZK_OK ? "true" : "false", st == CUZK_OK ? -1LL : (long long)bad, t1 - t0, t2 - t1,
               peak_rss_mb());
        rc = st == CUZK_OK ? 0 : 1;
        cuzk_r1cs_free(r);
    }
    free(z);
    free(van);
    free(ids);
    cuzk_fil_post_sector_free(&s);
    return rc;
}

int bench_post_main(int argc, char **argv)
{
    if (argc < 1) return usage();
    bool is_shape = strcmp(argv[0], "shape") == 0, is_witness = strcmp(argv[0], "witness") == 0;
    if (!is_shape && !is_witness) return usage();
    const char *kind = is_witness ? "window" : NULL, *vanilla = NULL, *pce = NULL;
    uint64_t size = is_witness ? UINT64_C(32) << 30 : 0, nsectors = 0;
    unsigned threads = 1, repeat = 1;
    bool check = false, digest = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (strcmp(a, "--check") == 0 || strcmp(a, "--digest") == 0) {
            *(a[2] == 'c' ? &check : &digest) = true;
            continue;
        }
        if (v == NULL) return usage();
        i++;
        if (strcmp(a, "--kind") == 0) kind = v;
        else if (strcmp(a, "--sector-size") == 0) {
            if (!cuzk_fil_size_parse(v, &size)) return usage();
        } else if (strcmp(a, "--threads") == 0) {
            threads = (unsigned)strtoul(v, &end, 10);
            if (*end != '\0' || threads == 0 || threads > 1024) return usage();
        } else if (strcmp(a, "--repeat") == 0) {
            repeat = (unsigned)strtoul(v, &end, 10);
            if (*end != '\0' || repeat == 0) return usage();
        } else if (strcmp(a, "--sectors") == 0) {
            nsectors = strtoull(v, &end, 10);
            if (*end != '\0' || nsectors == 0) return usage();
        } else if (strcmp(a, "--vanilla") == 0) vanilla = v;
        else if (strcmp(a, "--pce") == 0) pce = v;
        else return usage();
    }
    if (kind == NULL || size == 0 || (is_witness && vanilla == NULL)) return usage();
    /* WindowPoSt witnesses list one sector many times: API 1.2, where a sector's challenges ignore its place */
    const cuzk_fil_proof *p = find_proof(kind, size, is_witness);
    if (p == NULL) {
        fprintf(stderr, "cuzk-bench post: no %s PoSt of that sector size\n", kind);
        return 2;
    }
    return is_shape ? shape(p, threads, pce) : witness(p, vanilla, nsectors, threads, repeat, digest, check, pce);
}
