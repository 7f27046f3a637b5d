/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "util.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "floor.h"

uint64_t eb_status_bytes(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) return 0;
    char line[256];
    unsigned long long kb = 0;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, key, kl) == 0 && sscanf(line + kl, " %llu", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

uint64_t eb_peak_rss(void) { return eb_status_bytes("VmHWM:"); }

double eb_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

uint8_t *eb_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    uint8_t *buf = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL &&
        fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n >= 0 ? (size_t)n : 0;
    return buf;
}

/* a sample's value in the metrics text (0 when absent): the line that starts with the key, not its HELP and TYPE */
static double metric_value(const char *metrics, const char *key)
{
    char k[128];
    snprintf(k, sizeof k, "\n%s ", key);
    const char *at = metrics != NULL ? strstr(metrics, k) : NULL;
    return at != NULL ? strtod(at + strlen(k), NULL) : 0;
}

double eb_stage_sum(const char *metrics, const char *stage)
{
    char key[96];
    snprintf(key, sizeof key, "cuzk_stage_seconds_sum{stage=\"%s\"}", stage);
    return metric_value(metrics, key);
}

int eb_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double eb_loadavg(void)
{
    double l[1] = {-1};
    return getloadavg(l, 1) == 1 ? l[0] : -1;
}

static bool reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return false;
    bool ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok;
}

cuzk_status eb_shape_first(const cuzk_engine_config *cfg, const cuzk_fil_proof *p, unsigned threads, eb_shape *f,
                           cuzk_errmsg *err)
{
    char dir[4200];
    if (cfg->pce_dir != NULL && cfg->pce_dir[0] != 0) snprintf(dir, sizeof dir, "%s", cfg->pce_dir);
    else snprintf(dir, sizeof dir, "%s/cuzk-pce", cfg->param_dir);
    const cuzk_fil_proof *key = cuzk_fil_proof_by_srs_id(p->srs_id); /* the circuit the engine's key has */
    uint64_t rss0 = eb_status_bytes("VmRSS:");
    bool reset = reset_peak();
    cuzk_r1cs_t *r = NULL;
    double t = cuzk_now();
    cuzk_status s = cuzk_fil_shape_load_or_build(dir, key != NULL ? key : p, threads, 0, &r, &f->built, err);
    f->s = cuzk_now() - t;
    uint64_t hwm = eb_peak_rss();
    f->peak_bytes = reset && hwm > rss0 ? hwm - rss0 : 0;
    if (s != CUZK_OK) return s;
    f->rows = r->num_constraints;
    f->file_bytes = r->map_len;
    cuzk_r1cs_free(r);
    return CUZK_OK;
}

void eb_shape_print(const eb_shape *f)
{
    printf("\"shape_s\": %.3f, \"shape_built\": %s, \"shape_rows\": %llu, \"shape_file_bytes\": %llu, "
           "\"shape_peak_rss_bytes\": %llu, ",
           f->s, f->built ? "true" : "false", (unsigned long long)f->rows, (unsigned long long)f->file_bytes,
           (unsigned long long)f->peak_bytes);
}

void eb_floor_print(const char *metrics, const cuzk_engine_status_report *st, unsigned requests, double median_s)
{
    double parts = metric_value(metrics, "cuzk_stage_seconds_count{stage=\"msm\"}");
    if (parts < 1 || requests == 0) {
        printf("\"floor\": null, ");
        return;
    }
    floor_work w;
    w.domain_log2 = (unsigned)lround(log2(metric_value(metrics, "cuzk_prover_ntt_points_total") / parts));
    static const char *const msms[4] = {"h", "l", "a", "b"};
    uint64_t *pts[4] = {&w.points_h, &w.points_l, &w.points_a, &w.points_b};
    for (int m = 0; m < 4; m++) {
        char key[64];
        snprintf(key, sizeof key, "cuzk_prover_msm_points_total{msm=\"%s\"}", msms[m]);
        *pts[m] = (uint64_t)llround(metric_value(metrics, key) / parts);
    }
    floor_rates r;
    const char *on = "cpu";
    unsigned units = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
#ifdef CUZK_ENGINE_BENCH_GPU
    unsigned gpus = 0; /* the CPU backend's pseudo-device has no memory of its own */
    for (size_t d = 0; st != NULL && d < st->num_gpus; d++) gpus += st->gpus[d].vram_total_bytes > 0;
    if (gpus > 0) {
        if (!floor_rates_gpu(&r)) {
            printf("\"floor\": null, ");
            return;
        }
        on = "gpu", units = gpus;
    }
#else
    (void)st;
#endif
    if (strcmp(on, "cpu") == 0) floor_rates_cpu(&r);
    if (units == 0) units = 1;
    double part_ms = floor_proof_ms(&w, &r).all_ms, ppr = parts / requests;
    double req_s = part_ms * 1e-3 * ppr / units;
    printf("\"floor\": {\"on\": \"%s\", \"units\": %u, \"rates_ps\": {\"fr\": %.2f, \"fp\": %.2f, \"fp2\": %.2f}, "
           "\"partition\": {\"domain_log2\": %u, \"points_h\": %llu, \"points_l\": %llu, \"points_a\": %llu, "
           "\"points_b\": %llu, \"ms\": %.1f}, \"partitions_per_request\": %.2f, \"s_per_request\": %.3f, "
           "\"median_over_floor\": %.2f}, ",
           on, units, r.fr_ps, r.fp_ps, r.fp2_ps, w.domain_log2, (unsigned long long)w.points_h,
           (unsigned long long)w.points_l, (unsigned long long)w.points_a, (unsigned long long)w.points_b, part_ms, ppr,
           req_s, req_s > 0 ? median_s / req_s : 0);
}
