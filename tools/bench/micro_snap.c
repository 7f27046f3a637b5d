/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SnapDeals circuit benchmarks (src/filecoin/snap_*.c):
 *   snap_witness_2k          a real 2 KiB update's partition: validation and witness (WITNESS mode)   (ms)
 *   snap_validate_2k         the native check of that partition alone                                 (ms)
 * and, only when the filter names "snap" (they take seconds and gigabytes):
 *   snap_count_32g           the 32 GiB circuit's counts in COUNT mode (81,049,499 rows)               (ms)
 *   snap_witness_32g         one 32 GiB partition's witness into a caller's buffer, WITNESS mode, from a random
 *                            structurally valid partition proof (cuzk_fil_snap_partition_random): the work of a
 *                            real one, but the proof it would give does not verify, so validation is skipped  (ms)
 *   snap_witness_32g_cpu     the processor time that witness took, all threads together (core-seconds in ms: what a
 *                            loaded machine's wall clock hides)                                         (ms)
 *   snap_paths_32g           the native hashing the validation of one 32 GiB partition does (86 × three paths,
 *                            one thread; cuzk_fil_snap_validate spreads the challenges over its threads)    (ms)
 *   snap_shape_32g           the 32 GiB shape (SHAPE mode, then cuzk_cs_finish)                        (ms)
 *   snap_shape_32g_cpu       its processor time, all threads                                          (ms)
 *   snap_shape_32g_peak_rss  that build's peak resident memory above the process's before it          (MB)
 * Sizes: constraints. Threads: 1 and 2, or --threads N. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/filecoin.h"

static uint64_t status_bytes(const char *key)
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

/* VmHWM back to the current RSS (Linux clear_refs 5) */
static bool reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return false;
    bool ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void fail(const char *name, const cuzk_errmsg *err) { fprintf(stderr, "cuzk-bench: %s: %s\n", name, err->msg); }

static void bench_small(const bench_opts *o)
{
    const cuzk_fil_proof *p = cuzk_fil_snap_geometry(2ULL << 10);
    cuzk_errmsg err = {{0}};
    cuzk_fil_snap_update u;
    if (cuzk_fil_snap_update_random(p, 1, 2, &u, &err) != CUZK_OK) return fail("snap_witness_2k", &err);
    cuzk_fil_snap_partition part;
    cuzk_cs_counts c;
    if (cuzk_fil_snap_partition_decode(p, u.vanilla, u.partition_bytes, &part, &err) != CUZK_OK ||
        cuzk_fil_snap_counts(p, 2, &c, &err) != CUZK_OK) {
        cuzk_fil_snap_update_free(&u);
        return fail("snap_witness_2k", &err);
    }
    uint64_t nv = c.inputs + c.aux;
    cuzk_fr_t *z = malloc(nv * sizeof *z);
    cuzk_fil_snap_circuit circ = {p, 0, 0, &part, u.comm_r_old, u.comm_d_new, u.comm_r_new};
    int threads[2];
    int nt = bench_thread_set(o, threads);
    for (int ti = 0; ti < nt && z != NULL; ti++) {
        double best_w = -1, best_v = -1;
        for (int rep = 0; rep < 3; rep++) {
            double t0 = (double)cuzk_now_ns();
            if (cuzk_fil_snap_validate(&circ, (unsigned)threads[ti], &err) != CUZK_OK) break;
            double t1 = (double)cuzk_now_ns();
            if (cuzk_fil_snap_witness(&circ, (unsigned)threads[ti], z, nv, &err) != CUZK_OK) break;
            double t2 = (double)cuzk_now_ns();
            if (best_v < 0 || t1 - t0 < best_v) best_v = t1 - t0;
            if (best_w < 0 || t2 - t1 < best_w) best_w = t2 - t1;
        }
        if (best_w < 0) {
            fail("snap_witness_2k", &err);
            break;
        }
        if (bench_selected(o, "snap_witness_2k"))
            bench_report("snap_witness_2k", c.rows, threads[ti], best_w / 1e6, "ms");
        if (bench_selected(o, "snap_validate_2k"))
            bench_report("snap_validate_2k", c.rows, threads[ti], best_v / 1e6, "ms");
    }
    free(z);
    cuzk_fil_snap_partition_free(&part);
    cuzk_fil_snap_update_free(&u);
}

static void bench_32g(const bench_opts *o)
{
    const cuzk_fil_proof *p = cuzk_fil_snap_geometry(32ULL << 30);
    cuzk_errmsg err = {{0}};
    int threads[2];
    int nt = bench_thread_set(o, threads);
    cuzk_cs_counts c;
    double t0 = (double)cuzk_now_ns();
    if (cuzk_fil_snap_counts(p, (unsigned)threads[nt - 1], &c, &err) != CUZK_OK) return fail("snap_count_32g", &err);
    if (bench_selected(o, "snap_count_32g"))
        bench_report("snap_count_32g", c.rows, threads[nt - 1], ((double)cuzk_now_ns() - t0) / 1e6, "ms");

    if (bench_selected(o, "snap_witness_32g") || bench_selected(o, "snap_paths_32g")) {
        uint8_t comm[32];
        for (int i = 0; i < 32; i++) comm[i] = (uint8_t)(i * 37 + 11);
        comm[31] &= 0x3f;
        cuzk_fil_snap_partition part;
        if (cuzk_fil_snap_partition_random(p, 5, comm, 42, &part, &err) != CUZK_OK)
            return fail("snap_witness_32g", &err);
        uint64_t nv = c.inputs + c.aux;
        cuzk_fr_t *z = bench_selected(o, "snap_witness_32g") ? malloc(nv * sizeof *z) : NULL;
        if (z != NULL) memset(z, 0, nv * sizeof *z); /* pages touched once, as a reused buffer would be */
        cuzk_fil_snap_circuit circ = {p, 5, 0, &part, comm, part.c[0].d_new.root, comm};
        for (int ti = 0; ti < nt && z != NULL; ti++) {
            double best = -1, best_cpu = -1;
            for (int rep = 0; rep < 2; rep++) {
                cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, c.inputs, c.aux);
                double t1 = (double)cuzk_now_ns(), c1 = cpu_ms();
                cuzk_fil_snap_synthesize(cs, &circ, (unsigned)threads[ti]);
                cuzk_status s = cuzk_cs_finish(cs, NULL, NULL, &err);
                double dt = (double)cuzk_now_ns() - t1, dc = cpu_ms() - c1;
                if (s != CUZK_OK) {
                    fail("snap_witness_32g", &err);
                    break;
                }
                if (best < 0 || dt < best) best = dt;
                if (best_cpu < 0 || dc < best_cpu) best_cpu = dc;
            }
            if (best >= 0) {
                bench_report("snap_witness_32g", c.rows, threads[ti], best / 1e6, "ms");
                bench_report("snap_witness_32g_cpu", c.rows, threads[ti], best_cpu, "ms");
            }
        }
        free(z);
        if (bench_selected(o, "snap_paths_32g")) {
            uint8_t root[32];
            cuzk_fil_merkle_root(&part.c[0].r_old, &p->tree_r, CUZK_FIL_HASH_POSEIDON, root, NULL); /* constants */
            double t1 = (double)cuzk_now_ns();
            for (uint32_t i = 0; i < part.challenges; i++) {
                cuzk_fil_merkle_root(&part.c[i].r_old, &p->tree_r, CUZK_FIL_HASH_POSEIDON, root, NULL);
                cuzk_fil_merkle_root(&part.c[i].d_new, &p->tree_d, CUZK_FIL_HASH_SHA256, root, NULL);
                cuzk_fil_merkle_root(&part.c[i].r_new, &p->tree_r, CUZK_FIL_HASH_POSEIDON, root, NULL);
                BENCH_KEEP(root);
            }
            bench_report("snap_paths_32g", c.rows, 1, ((double)cuzk_now_ns() - t1) / 1e6, "ms");
        }
        cuzk_fil_snap_partition_free(&part);
    }

    if (bench_selected(o, "snap_shape_32g")) {
        int t = threads[nt - 1];
        bool peak = reset_peak();
        uint64_t before = status_bytes("VmRSS:");
        double t1 = (double)cuzk_now_ns();
        cuzk_r1cs_t *r = NULL;
        double c1 = cpu_ms();
        if (cuzk_fil_snap_shape(p, (unsigned)t, &r, &err) != CUZK_OK) return fail("snap_shape_32g", &err);
        bench_report("snap_shape_32g", c.rows, t, ((double)cuzk_now_ns() - t1) / 1e6, "ms");
        bench_report("snap_shape_32g_cpu", c.rows, t, cpu_ms() - c1, "ms");
        uint64_t hwm = status_bytes("VmHWM:");
        bench_report("snap_shape_32g_peak_rss", c.rows, t, peak && hwm > before ? (double)(hwm - before) / 1e6 : -1,
                     "MB");
        cuzk_r1cs_free(r);
    }
}

void bench_micro_snap(const bench_opts *o)
{
    if (bench_selected(o, "snap_witness_2k") || bench_selected(o, "snap_validate_2k")) bench_small(o);
    /* the 32 GiB lines only on request: a filter that selects one of them */
    static const char *const big[] = {"snap_count_32g", "snap_witness_32g", "snap_paths_32g",
                                      "snap_shape_32g_peak_rss"};
    bool any = false;
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) any |= bench_selected(o, big[i]);
    if (o->filter != NULL && any) bench_32g(o);
}
