/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Filecoin format benchmarks on generated 32 GiB-shaped inputs (src/filecoin):
 *   fil_post_decode          one WindowPoSt sector vanilla proof (24,960 B) decoded and checked     (us)
 *   fil_post_verify          the hashing cuzk_fil_post_sector_verify does for one such sector (10 paths)   (us)
 *   fil_post_public_inputs   the 25,839 public inputs of a full WindowPoSt partition (2349 sectors)  (ms)
 *   fil_snap_decode          one SnapDeals partition proof (561,768 B)                               (us)
 *   fil_c1_random            a 32 GiB C1 generated (10 partitions × 18 challenges)                  (ms)
 *   fil_c1_json_bytes        its JSON in Curio's envelope, written to a temporary file               (MB)
 *   fil_c1_parse_file        that file parsed, streamed in 256 KiB reads                             (ms)
 *   fil_c1_parse_buffer      the same document parsed from memory (as it arrives over gRPC)           (ms)
 *   fil_c1_result_mb         memory the parsed C1 holds                                              (MB)
 *   fil_c1_parse_peak_rss    the parse's peak resident memory above the process's before it (VmHWM,
 *                            reset through /proc/self/clear_refs; -1 where that is not possible)     (MB)
 *   fil_c1_bincode_decode    the supraseal bincode form (11,014,808 B) decoded                       (ms)
 * The peak RSS figure is meaningful with --filter fil_c1 (no earlier benchmark's freed heap to reuse). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "cuzk/filecoin.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void rand_node(uint8_t *b)
{
    for (int i = 0; i < 32; i++) b[i] = (uint8_t)next_rand();
    b[31] &= 0x3f;
}

/* a random path of shape s opening leaf, rooted at root */
static void rand_path(const cuzk_fil_shape *s, uint64_t leaf, const uint8_t *root, cuzk_fil_merkle_proof *m)
{
    m->levels = (uint8_t)cuzk_fil_shape_levels(s);
    m->kind = (uint8_t)(s->top ? CUZK_FIL_MERKLE_TOP : s->sub ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE);
    m->leaf_index = leaf;
    for (unsigned l = 0; l < m->levels; l++) {
        unsigned a = cuzk_fil_shape_arity(s, l);
        m->index[l] = (uint8_t)(leaf % a);
        leaf /= a;
    }
    for (unsigned i = 0; i < cuzk_fil_shape_siblings(s); i++) rand_node((uint8_t *)m->siblings[i]);
    memcpy(m->root, root, 32);
    rand_node(m->leaf);
}

/* VmRSS or VmHWM of this process in bytes (0 when unknown) */
static uint64_t proc_status_kb(const char *key)
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

/* resets VmHWM to the current RSS (Linux clear_refs 5) */
static bool reset_peak(void)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return false;
    bool ok = write(fd, "5", 1) == 1;
    close(fd);
    return ok;
}

static void bench_post(void)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 13);
    size_t sib = cuzk_fil_shape_siblings(&p->tree_r), n = cuzk_fil_post_sector_bytes(p), wl;
    cuzk_fil_post_sector s = {0};
    s.challenges = p->challenges;
    s.mem = calloc(p->challenges, sizeof(cuzk_fil_merkle_proof) + 32 * sib);
    s.inclusion = s.mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(s.inclusion + p->challenges);
    rand_node(s.comm_r);
    rand_node(s.comm_c);
    rand_node(s.comm_r_last);
    for (uint32_t i = 0; i < p->challenges; i++) {
        s.inclusion[i].siblings = pool + i * sib;
        rand_path(&p->tree_r, next_rand() % p->nodes, s.comm_r_last, &s.inclusion[i]);
    }
    uint8_t *buf = malloc(n);
    if (buf == NULL || cuzk_fil_post_sector_encode(p, &s, buf, n, &wl, NULL) != CUZK_OK) return;
    bench_runs runs = {0};
    int reps = 40; /* per run, 5 runs */
    for (int round = 0; round < 5; round++) {
        bench_run_start(&runs);
        for (int r = 0; r < reps; r++) {
            cuzk_fil_post_sector d;
            if (cuzk_fil_post_sector_decode(p, buf, n, &d, NULL) != CUZK_OK) return;
            cuzk_fil_post_sector_free(&d);
        }
        bench_run_stop(&runs);
    }
    bench_stat bs = bench_stat_of(&runs);
    bench_report_runs("fil_post_decode", n, 1, &bs, 1e-3 / reps, "us", NULL);
    /* the hashing of verify (random paths lead nowhere, so the roots are computed, not compared); the first hash
     * makes the arity's constants, so it runs before the clock starts */
    uint8_t warm[32];
    cuzk_fil_merkle_root(&s.inclusion[0], &p->tree_r, CUZK_FIL_HASH_POSEIDON, warm, NULL);
    bench_runs verify = {0};
    reps = 4;
    for (int round = 0; round < 5; round++) {
        bench_run_start(&verify);
        for (int r = 0; r < reps; r++) {
            uint8_t root[32];
            for (uint32_t i = 0; i < p->challenges; i++)
                cuzk_fil_merkle_root(&s.inclusion[i], &p->tree_r, CUZK_FIL_HASH_POSEIDON, root, NULL);
            BENCH_KEEP(root);
        }
        bench_run_stop(&verify);
    }
    bs = bench_stat_of(&verify);
    bench_report_runs("fil_post_verify", n, 1, &bs, 1e-3 / reps, "us", NULL);
    free(buf);
    free(s.mem);

    size_t ni = cuzk_fil_post_public_input_count(p);
    cuzk_fr_t *in = malloc(ni * sizeof *in);
    cuzk_fil_post_pub_sector *sec = malloc(p->post_sectors * sizeof *sec);
    uint8_t rand[32];
    rand_node(rand);
    for (uint32_t i = 0; i < p->post_sectors; i++) {
        sec[i].sector_id = 1000 + i;
        rand_node(sec[i].comm_r);
    }
    bench_runs pub = {0};
    bench_run_start(&pub);
    cuzk_status st = cuzk_fil_post_public_inputs(p, rand, sec, p->post_sectors, 0, in, NULL);
    bench_run_stop(&pub);
    bs = bench_stat_of(&pub);
    if (st == CUZK_OK) bench_report_runs("fil_post_public_inputs", ni, 1, &bs, 1e-6, "ms", NULL);
    free(in);
    free(sec);
}

static void bench_snap(void)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_UPDATE, 3);
    size_t sr = cuzk_fil_shape_siblings(&p->tree_r), sd = cuzk_fil_shape_siblings(&p->tree_d);
    size_t n = cuzk_fil_snap_partition_bytes(p), wl;
    cuzk_fil_snap_partition s = {0};
    s.mem = calloc(1, p->challenges * sizeof(cuzk_fil_snap_challenge) +
                          32 * (p->apex_leaves + p->challenges * (2 * sr + sd)));
    s.c = s.mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(s.c + p->challenges);
    s.apex_count = p->apex_leaves;
    s.apex_leafs = pool;
    for (uint32_t i = 0; i < p->apex_leaves; i++) rand_node((uint8_t *)pool[i]);
    pool += p->apex_leaves;
    s.challenges = p->challenges;
    uint8_t r_old[32], d_new[32], r_new[32];
    rand_node(r_old), rand_node(d_new), rand_node(r_new), rand_node(s.comm_c);
    for (uint32_t i = 0; i < p->challenges; i++, pool += 2 * sr + sd) {
        uint64_t leaf = next_rand() % p->nodes;
        s.c[i].r_old.siblings = pool;
        s.c[i].d_new.siblings = pool + sr;
        s.c[i].r_new.siblings = pool + sr + sd;
        rand_path(&p->tree_r, leaf, r_old, &s.c[i].r_old);
        rand_path(&p->tree_d, leaf, d_new, &s.c[i].d_new);
        rand_path(&p->tree_r, leaf, r_new, &s.c[i].r_new);
    }
    uint8_t *buf = malloc(n);
    if (buf == NULL || cuzk_fil_snap_partition_encode(p, &s, buf, n, &wl, NULL) != CUZK_OK) return;
    bench_runs runs = {0};
    const int reps = 4; /* per run, 5 runs */
    for (int round = 0; round < 5; round++) {
        bench_run_start(&runs);
        for (int r = 0; r < reps; r++) {
            cuzk_fil_snap_partition d;
            if (cuzk_fil_snap_partition_decode(p, buf, n, &d, NULL) != CUZK_OK) return;
            cuzk_fil_snap_partition_free(&d);
        }
        bench_run_stop(&runs);
    }
    bench_stat bs = bench_stat_of(&runs);
    bench_report_runs("fil_snap_decode", n, 1, &bs, 1e-3 / reps, "us", NULL);
    free(buf);
    free(s.mem);
}

static void bench_c1(void)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, 8);
    cuzk_errmsg err = {{0}};
    char path[] = "/tmp/cuzk-bench-c1-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "fil_c1: cannot create a temporary file\n");
        return;
    }
    close(fd);
    /* the document and the bincode are made in a child, so this process's heap never held a C1 */
    double gen_ms = 0;
    int pipefd[2];
    if (pipe(pipefd) != 0) return;
    pid_t pid = fork();
    if (pid == 0) {
        cuzk_fil_c1 c;
        bench_runs made = {0};
        bench_run_start(&made);
        if (cuzk_fil_c1_random(p, 42, &c, &err) != CUZK_OK) _exit(1);
        bench_run_stop(&made);
        double ms = made.v[0] / 1e6;
        FILE *f = fopen(path, "wb");
        if (f == NULL || cuzk_fil_c1_write_json(&c, true, f, &err) != CUZK_OK) _exit(1);
        fclose(f);
        if (write(pipefd[1], &ms, sizeof ms) != sizeof ms) _exit(1);
        _exit(0);
    }
    close(pipefd[1]);
    bool made = read(pipefd[0], &gen_ms, sizeof gen_ms) == sizeof gen_ms;
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    struct stat st;
    if (!made || stat(path, &st) != 0) {
        fprintf(stderr, "fil_c1: generating the document failed\n");
        unlink(path);
        return;
    }
    bench_runs gen = {0};
    bench_run_add(&gen, gen_ms); /* one run, timed in the child */
    bench_stat bs = bench_stat_of(&gen);
    bench_report_runs("fil_c1_random", p->sector_size, 1, &bs, 1, "ms", NULL);
    bench_report("fil_c1_json_bytes", p->sector_size, 1, (double)st.st_size / 1e6, "MB");

    uint64_t rss0 = proc_status_kb("VmRSS:");
    bool reset = reset_peak();
    cuzk_fil_c1 c;
    bench_runs parse = {0}; /* one run: the peak memory is that of the first parse */
    bench_run_start(&parse);
    cuzk_status ps = cuzk_fil_c1_parse_file(path, &c, &err);
    bench_run_stop(&parse);
    if (ps != CUZK_OK) {
        fprintf(stderr, "fil_c1: %s\n", err.msg);
        unlink(path);
        return;
    }
    uint64_t hwm = proc_status_kb("VmHWM:");
    bs = bench_stat_of(&parse);
    bench_report_runs("fil_c1_parse_file", p->sector_size, 1, &bs, 1e-6, "ms", NULL);
    bench_report("fil_c1_result_mb", p->sector_size, 1, (double)c.mem_bytes / 1e6, "MB");
    bench_report("fil_c1_parse_peak_rss", p->sector_size, 1, reset && hwm > rss0 ? (double)(hwm - rss0) / 1e6 : -1,
                 "MB");

    size_t n = cuzk_fil_c1_bincode_bytes(&c, CUZK_FIL_C1_BIN_SUPRASEAL), wl;
    uint8_t *bin = malloc(n);
    if (bin != NULL && cuzk_fil_c1_encode_bincode(&c, CUZK_FIL_C1_BIN_SUPRASEAL, bin, n, &wl, NULL) == CUZK_OK) {
        cuzk_fil_c1 d;
        bench_runs dec = {0};
        bench_run_start(&dec);
        cuzk_status ds = cuzk_fil_c1_decode_bincode(bin, n, CUZK_FIL_C1_BIN_SUPRASEAL, p, &d, NULL);
        bench_run_stop(&dec);
        if (ds == CUZK_OK) {
            bs = bench_stat_of(&dec);
            bench_report_runs("fil_c1_bincode_decode", n, 1, &bs, 1e-6, "ms", NULL);
            cuzk_fil_c1_free(&d);
        }
    }
    free(bin);
    cuzk_fil_c1_free(&c);

    FILE *f = fopen(path, "rb");
    uint8_t *doc = malloc((size_t)st.st_size);
    if (f != NULL && doc != NULL && fread(doc, 1, (size_t)st.st_size, f) == (size_t)st.st_size) {
        bench_runs buf_runs = {0};
        bench_run_start(&buf_runs);
        cuzk_status bst = cuzk_fil_c1_parse(doc, (size_t)st.st_size, &c, NULL);
        bench_run_stop(&buf_runs);
        if (bst == CUZK_OK) {
            bs = bench_stat_of(&buf_runs);
            bench_report_runs("fil_c1_parse_buffer", p->sector_size, 1, &bs, 1e-6, "ms", NULL);
            cuzk_fil_c1_free(&c);
        }
    }
    if (f != NULL) fclose(f);
    free(doc);
    unlink(path);
}

void bench_micro_filecoin(const bench_opts *o)
{
    if (bench_selected(o, "fil_post")) bench_post();
    if (bench_selected(o, "fil_snap")) bench_snap();
    if (bench_selected(o, "fil_c1")) bench_c1();
}
