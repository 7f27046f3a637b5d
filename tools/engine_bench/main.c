/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-engine-bench: N synthetic jobs through the engine (the GPU backend where present, else the CPU; --backend
 * chooses); prints one JSON line with seconds per proof (partition), proofs per minute, each device's busy share of
 * the run (GPU busy %), the peak RSS, proofs per minute, the process's CPU utilisation (getrusage against wall time and the core count) and each stage's share of
 * the wall time, so that pipeline overlap can be judged: with S synthesis and P prover workers the stages may add up
 * to more than the wall time exactly when they ran at the same time. The 1-minute load average before and after the
 * run tells how busy the machine was besides. --tiers 1 then times a key's COLD load (files only) against its WARM
 * reload (files mapped): an engine whose key budget holds one key loads the key, a second one (which demotes the
 * first to WARM) and the first again.
 *
 *   cuzk-engine-bench [--log2 16] [--jobs 4] [--partitions 1] [--synthesis-workers 1] [--synthesis-threads 1]
 *                     [--provers 0] [--prover-threads 2] [--depth 1] [--seed 1] [--param-dir DIR] [--tiers 0]
 *                     [--backend auto|cpu|gpu] [--gpus 0,1] [--vram-budget BYTES] [--latency-mode 0|1]
 *                     [--whole-ntt-tables 0|1]
 * --provers is per device (0: the backend's default, 1). A human summary goes to stderr.
 *
 *   cuzk-engine-bench --post winning|window --sector-size 32GiB [--vanilla FILE] [--sectors N] [--randomness HEX]
 *                     [--registered-proof N] [--test-key 0|1] [--param-dir DIR] [--pce-dir DIR] [--manifest FILE]
 *                     [--verify-digest 0|1] [--shape-first 0|1] [--floor 0|1] [--jobs N] and the engine
 *                     options above
 * times Curio's PoSt requests from request to proof instead (post.c), and
 *
 *   cuzk-engine-bench --porep|--snap SIZE [--registered-proof N] [--c1 FILE] [--generated 0|1] [--shape-first 0|1]
 *                     [--sector-num N] [--miner-id N] [--seed N] [--test-key 0|1] [--param-dir DIR] [--pce-dir DIR]
 *                     [--manifest FILE] [--verify-digest 0|1] [--floor 0|1] [--jobs N] and the engine options above
 * Curio's PoRep C2 and SnapDeals requests (seal.c). --floor 1 adds the arithmetic floor of the requests (the time
 * their field multiplications alone take at this machine's rate, util.h) and the measured median over it. */
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "post.h"
#include "seal.h"

static double loadavg(void)
{
    double l[1] = {-1};
    return getloadavg(l, 1) == 1 ? l[0] : -1;
}

static uint64_t preload(cuzk_engine *e, const char *key)
{
    bool already;
    uint64_t ms = 0;
    cuzk_errmsg err = {{0}};
    if (cuzk_engine_preload(e, key, &already, &ms, &err) != CUZK_OK) {
        fprintf(stderr, "preload %s: %s\n", key, err.msg);
        exit(1);
    }
    return ms;
}

static uint64_t key_size(cuzk_engine *e, const char *key, cuzk_engine_tier *tier)
{
    cuzk_engine_status_report st;
    uint64_t size = 0;
    if (cuzk_engine_status(e, &st) != CUZK_OK) return 0;
    for (size_t i = 0; i < st.num_srs; i++) {
        if (strcmp(st.srs[i].circuit_id, key) == 0) {
            size = st.srs[i].size_bytes;
            *tier = st.srs[i].tier;
        }
    }
    cuzk_engine_status_clear(&st);
    return size;
}

/* VmHWM of this process, in bytes (0 when unknown) */
static uint64_t peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) return 0;
    char line[256];
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmHWM: %llu kB", (unsigned long long *)&kb) == 1) break;
    fclose(f);
    return kb * 1024;
}

/* busy seconds of each device (status), summed into busy[] (at most 64 devices) */
static size_t device_busy(cuzk_engine *e, double *busy, char names[][128])
{
    cuzk_engine_status_report st;
    if (cuzk_engine_status(e, &st) != CUZK_OK) return 0;
    size_t n = st.num_gpus < 64 ? st.num_gpus : 64;
    for (size_t d = 0; d < n; d++) {
        busy[d] = st.gpus[d].busy_seconds;
        if (names != NULL) snprintf(names[d], 128, "%s", st.gpus[d].name);
    }
    cuzk_engine_status_clear(&st);
    return n;
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

/* the _sum of one stage's histogram in the metrics text */
static double stage_sum(const char *text, const char *stage)
{
    char key[96];
    snprintf(key, sizeof key, "cuzk_stage_seconds_sum{stage=\"%s\"} ", stage);
    const char *p = strstr(text, key);
    return p != NULL ? strtod(p + strlen(key), NULL) : 0;
}

/* A fatal signal prints the stack as module offsets (resolve with addr2line -f -e cuzk-engine-bench OFFSET): long
 * runs on remote machines leave nothing else to go on. */
static void on_fatal(int sig)
{
    void *frames[48];
    int n = backtrace(frames, 48);
    char line[160];
    int len = snprintf(line, sizeof line, "cuzk-engine-bench: fatal signal %d; stack (module+offset):\n", sig);
    if (write(2, line, (size_t)len) < 0) _exit(128 + sig);
    for (int i = 0; i < n; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fname != NULL)
            len = snprintf(line, sizeof line, "  %s+0x%lx\n", info.dli_fname,
                           (unsigned long)((char *)frames[i] - (char *)info.dli_fbase));
        else len = snprintf(line, sizeof line, "  %p\n", frames[i]);
        if (write(2, line, (size_t)len) < 0) break;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: cuzk-engine-bench [--log2 16] [--jobs 4] [--partitions 1] [--synthesis-workers 1]\n"
        "                         [--synthesis-threads 1] [--provers 0] [--prover-threads 2] [--depth 1]\n"
        "                         [--seed 1]\n"
        "                         [--param-dir DIR] [--tiers 0|1] [--backend auto|cpu|gpu] [--gpus 0,1]\n"
        "                         [--vram-budget BYTES] [--latency-mode 0|1] [--whole-ntt-tables 0|1]\n"
        "       cuzk-engine-bench --post winning|window --sector-size S [--vanilla FILE] [--sectors N]\n"
        "                         [--randomness HEX] [--registered-proof N] [--test-key 0|1] [--pce-dir DIR]\n"
        "                         [--manifest FILE] [--verify-digest 0|1] [--floor 0|1] [--jobs N]\n"
        "                         [engine options]\n"
        "       cuzk-engine-bench --porep|--snap SIZE [--generated 0|1] [--c1 FILE] [--shape-first 0|1]\n"
        "                         [--test-key 0|1] [--pce-dir DIR] [--floor 0|1] [--jobs N] [engine options]\n"
        "       cuzk-engine-bench --version | --help\n"
        "\n"
        "Runs --jobs synthetic jobs (2^log2 constraints, --partitions each) through the engine in this process\n"
        "(no daemon) and prints one JSON line: s/proof, proofs/min, each device's busy share, peak RSS, CPU use\n"
        "and each stage's share of the wall time; a human summary goes to stderr.\n"
        "  --log2 K               circuit size (default 16)       --jobs N        jobs (default 4)\n"
        "  --partitions P         partitions per job (default 1)  --seed S        synthetic circuit seed\n"
        "  --synthesis-workers N  partitions synthesized at once  --synthesis-threads N   threads of each\n"
        "  --provers N            provers per device (0: the backend's default)  --prover-threads N (CPU backend)\n"
        "  --depth N              partitions queued for the provers (default 1)\n"
        "  --param-dir DIR        the synthetic keys' cache (default /tmp/cuzk-engine-bench)\n"
        "  --tiers 1              also time a key's COLD load against its WARM reload\n"
        "  --backend B            auto (default), cpu or gpu; --gpus 0,1 the devices; --vram-budget BYTES each\n"
        "  --latency-mode 1       GPUs in pairs, each partition split over its pair\n"
        "  --whole-ntt-tables 0   the provers keep the small split NTT tables\n"
        "\n"
        "--post times PoSt requests as Curio sends them, one after the other, from request to verified proof, after\n"
        "the key's load (timed apart); one JSON line with the times and the peak RSS:\n"
        "  --sector-size S        2KiB .. 64GiB (default 32GiB)\n"
        "  --vanilla FILE         one sector's bincode vanilla proof (default: one generated for --randomness)\n"
        "  --sectors N            WindowPoSt: that sector N times (default: the partition's slots, 2349 at 32GiB)\n"
        "  --randomness HEX       the request's (default 32 zero bytes: the 32 GiB fixture's)\n"
        "  --registered-proof N   default WinningPoSt's, WindowPoSt's V1_2\n"
        "  --test-key 1           keys from toxic waste (made on each GPU), not the v28 .params of --param-dir\n"
        "  --param-dir DIR        the v28 .params (default /tmp/cuzk-engine-bench); --pce-dir the shape cache\n"
        "  --manifest FILE        digests of test keys; --verify-digest 0 skips the digest check\n"
        "  --shape-first 0        let the key's load build the shape (default: built or mapped first, timed\n"
        "                         apart: \"shape_s\", \"shape_built\", its peak memory)\n"
        "  --floor 1              also the requests' arithmetic floor (\"floor\"): the time their field\n"
        "                         multiplications alone take at this machine's measured rate, on every GPU or\n"
        "                         every core, and the median over it (also for --porep and --snap)\n"
        "\n"
        "--porep SIZE / --snap SIZE time PoRep C2 and SnapDeals requests the same way (Curio's forms: the C1\n"
        "in its envelope, the partition proofs in bincode), the shape built or mapped first and timed apart:\n"
        "  --registered-proof N   default PoRep's V1_1 of the size, the size's update proof\n"
        "  --c1 FILE              PoRep: this commit-phase-1 output (with --sector-num and --miner-id its sector)\n"
        "  --generated 1          random inputs of the size (cuzk_fil_c1_random, cuzk_fil_snap_partition_random):\n"
        "                         their proofs cannot verify; each partition's verification is made and counted\n"
        "                         (\"self_verified\": false). Default: 1 above 512 MiB, else a sector sealed here\n"
        "  --sector-num N, --miner-id N, --seed N  the request's sector and miner, the inputs' seed\n");
}

int main(int argc, char **argv)
{
    signal(SIGFPE, on_fatal);
    signal(SIGSEGV, on_fatal);
    signal(SIGILL, on_fatal);
    signal(SIGBUS, on_fatal);
    unsigned log2 = 16, jobs = 4, parts = 1, sw = 1, st = 1, pw = 0, pt = 2, depth = 1, tiers = 0, latency = 0,
             whole = 1;
    unsigned long long seed = 1;
    const char *dir = "/tmp/cuzk-engine-bench";
    cuzk_engine_backend_kind backend = CUZK_ENGINE_BACKEND_AUTO;
    int gpus[64];
    size_t num_gpus = 0;
    unsigned long long vram = 0;
    const char *post = NULL, *pce_dir = NULL, *manifest = NULL;
    post_opts po;
    memset(&po, 0, sizeof po);
    po.shape_first = true;
    seal_opts so;
    memset(&so, 0, sizeof so);
    so.registered_proof = -1;
    so.generated = -1;
    so.shape_first = true;
    so.sector_number = 1;
    so.miner_id = 1000;
    bool seal = false;
    po.sector_size = (uint64_t)32 << 30;
    po.registered_proof = -1;
    bool jobs_given = false;
    unsigned verify_digest = 1;
    if (argc == 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        printf("cuzk-engine-bench %s\n", cuzk_version());
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc % 2 == 0) {
        fprintf(stderr, "options come in pairs: --name value\n");
        usage(stderr);
        return 2;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        unsigned v = (unsigned)strtoul(argv[i + 1], NULL, 10);
        if (strcmp(argv[i], "--backend") == 0) {
            const char *b = argv[i + 1];
            if (strcmp(b, "auto") == 0) backend = CUZK_ENGINE_BACKEND_AUTO;
            else if (strcmp(b, "cpu") == 0) backend = CUZK_ENGINE_BACKEND_CPU;
            else if (strcmp(b, "gpu") == 0) backend = CUZK_ENGINE_BACKEND_GPU;
            else {
                fprintf(stderr, "--backend: auto, cpu or gpu\n");
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "--gpus") == 0) {
            char *p = argv[i + 1], *end;
            while (*p && num_gpus < 64) {
                gpus[num_gpus++] = (int)strtol(p, &end, 10);
                if (end == p) {
                    fprintf(stderr, "--gpus: a comma-separated list of ordinals\n");
                    return 2;
                }
                p = *end == ',' ? end + 1 : end;
            }
            backend = CUZK_ENGINE_BACKEND_GPU;
            continue;
        }
        if (strcmp(argv[i], "--vram-budget") == 0) {
            vram = strtoull(argv[i + 1], NULL, 10);
            continue;
        }
        if (strcmp(argv[i], "--post") == 0) {
            post = po.kind = argv[i + 1];
            continue;
        }
        if (strcmp(argv[i], "--porep") == 0 || strcmp(argv[i], "--snap") == 0) {
            seal = true;
            so.snap = argv[i][2] == 's';
            if (!cuzk_fil_size_parse(argv[i + 1], &so.sector_size)) {
                fprintf(stderr, "%s: a sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)\n", argv[i]);
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "--c1") == 0) {
            so.c1 = argv[i + 1];
            continue;
        }
        if (strcmp(argv[i], "--generated") == 0) {
            so.generated = v != 0;
            continue;
        }
        if (strcmp(argv[i], "--shape-first") == 0) {
            so.shape_first = po.shape_first = v != 0;
            continue;
        }
        if (strcmp(argv[i], "--floor") == 0) {
            so.floor = po.floor = v != 0;
            continue;
        }
        if (strcmp(argv[i], "--sector-num") == 0 || strcmp(argv[i], "--miner-id") == 0) {
            *(argv[i][2] == 's' ? &so.sector_number : &so.miner_id) = strtoull(argv[i + 1], NULL, 10);
            continue;
        }
        if (strcmp(argv[i], "--sector-size") == 0) {
            if (!cuzk_fil_size_parse(argv[i + 1], &po.sector_size)) {
                fprintf(stderr, "--sector-size: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB\n");
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "--randomness") == 0) {
            const char *h = argv[i + 1];
            for (int k = 0; k < 32; k++) {
                unsigned b;
                if (strlen(h) != 64 || sscanf(h + 2 * k, "%2x", &b) != 1) {
                    fprintf(stderr, "--randomness: 64 hex digits\n");
                    return 2;
                }
                po.randomness[k] = (uint8_t)b;
            }
            continue;
        }
        if (strcmp(argv[i], "--registered-proof") == 0)
            po.registered_proof = so.registered_proof = (int64_t)strtoll(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--vanilla") == 0) po.vanilla = argv[i + 1];
        else if (strcmp(argv[i], "--sectors") == 0) po.sectors = v;
        else if (strcmp(argv[i], "--test-key") == 0) po.test_key = so.test_key = v != 0;
        else if (strcmp(argv[i], "--pce-dir") == 0) pce_dir = argv[i + 1];
        else if (strcmp(argv[i], "--manifest") == 0) manifest = argv[i + 1];
        else if (strcmp(argv[i], "--verify-digest") == 0) verify_digest = v;
        else if (strcmp(argv[i], "--jobs") == 0) jobs = v, jobs_given = true;
        else if (strcmp(argv[i], "--log2") == 0) log2 = v;
        else if (strcmp(argv[i], "--partitions") == 0) parts = v;
        else if (strcmp(argv[i], "--synthesis-workers") == 0) sw = v;
        else if (strcmp(argv[i], "--synthesis-threads") == 0) st = v;
        else if (strcmp(argv[i], "--provers") == 0) pw = v;
        else if (strcmp(argv[i], "--prover-threads") == 0) pt = v;
        else if (strcmp(argv[i], "--depth") == 0) depth = v;
        else if (strcmp(argv[i], "--tiers") == 0) tiers = v;
        else if (strcmp(argv[i], "--latency-mode") == 0) latency = v;   /* 1: GPUs in pairs ([gpus] latency_mode) */
        else if (strcmp(argv[i], "--whole-ntt-tables") == 0) whole = v; /* 0: [gpus] whole_ntt_tables = false */
        else if (strcmp(argv[i], "--seed") == 0) seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--param-dir") == 0) dir = argv[i + 1];
        else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    char mk[600];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", dir);
    if (system(mk) != 0) return 1;

    cuzk_engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.param_dir = dir;
    cfg.synthesis_workers = sw;
    cfg.synthesis_threads = st;
    cfg.prover_threads = pt;
    cfg.gpu_workers_per_device = pw;
    cfg.gpu_queue_depth = depth;
    cfg.backend = backend;
    cfg.gpu_devices = num_gpus ? gpus : NULL;
    cfg.num_gpu_devices = num_gpus;
    cfg.gpu_latency_pairs = latency != 0;
    cfg.gpu_split_ntt_tables = whole == 0;
    cfg.vram_budget = vram;
    if (post != NULL || seal) {
        cfg.pce_dir = pce_dir;
        cfg.param_manifest = manifest;
        cfg.skip_param_digest = verify_digest == 0;
        if (seal) {
            so.jobs = jobs_given ? jobs : 2;
            so.seed = seed;
            return seal_main(&cfg, &so);
        }
        po.jobs = jobs_given ? jobs : 3;
        return post_main(&cfg, &po);
    }
    if (po.floor) {
        fprintf(stderr, "--floor: for Filecoin requests (--post, --porep, --snap)\n");
        return 2;
    }
    cuzk_engine *e;
    cuzk_errmsg err = {{0}};
    if (cuzk_engine_create(&e, &cfg, &err) != CUZK_OK) {
        fprintf(stderr, "engine_create: %s\n", err.msg);
        return 1;
    }
    char key[64];
    snprintf(key, sizeof key, "synthetic-%u-%llu", log2, seed);
    bool already;
    uint64_t load_ms;
    double t = cuzk_now();
    if (cuzk_engine_preload(e, key, &already, &load_ms, &err) != CUZK_OK) {
        fprintf(stderr, "preload %s: %s\n", key, err.msg);
        return 1;
    }
    double preload_s = cuzk_now() - t;

    char(*ids)[CUZK_ENGINE_ID_MAX] = calloc(jobs, sizeof *ids);
    static double busy0[64], busy1[64];
    static char names[64][128];
    size_t ndev = device_busy(e, busy0, names);
    double load0 = loadavg();
    double c0 = cpu_seconds(), t0 = cuzk_now();
    for (unsigned j = 0; j < jobs; j++) {
        cuzk_engine_request r;
        memset(&r, 0, sizeof r);
        r.proof_kind = CUZK_ENGINE_KIND_SYNTHETIC;
        r.synthetic_log2 = log2;
        r.seed = seed;
        r.partitions = parts;
        r.priority = CUZK_ENGINE_PRIO_NORMAL;
        if (cuzk_engine_submit(e, &r, ids[j], NULL, NULL, &err) != CUZK_OK) {
            fprintf(stderr, "submit: %s\n", err.msg);
            return 1;
        }
    }
    unsigned ok = 0;
    for (unsigned j = 0; j < jobs; j++) {
        cuzk_engine_result res;
        cuzk_engine_await(e, ids[j], 0, &res);
        if (res.status == CUZK_ENGINE_JOB_COMPLETED) ok++;
        else fprintf(stderr, "job %s: %s\n", ids[j], res.error_message);
        cuzk_engine_result_clear(&res);
    }
    double wall = cuzk_now() - t0, cpu = cpu_seconds() - c0, load1 = loadavg();
    device_busy(e, busy1, NULL);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char *m = cuzk_engine_metrics_text(e);
    unsigned proofs = ok * parts;
    uint64_t rss = peak_rss();
    printf("{\"backend\": \"%s\", \"log2\": %u, \"jobs\": %u, \"partitions\": %u, \"completed\": %u, "
           "\"synthesis_workers\": %u, \"synthesis_threads\": %u, \"provers\": %u, \"latency_mode\": %s, "
           "\"whole_ntt_tables\": %s, \"prover_threads\": %u, \"depth\": %u, \"cores\": %ld, \"preload_s\": %.2f, "
           "\"wall_s\": %.3f, "
           "\"s_per_job\": %.3f, \"s_per_partition\": %.3f, \"cpu_s\": %.3f, \"cpu_utilisation\": %.3f, "
           "\"partitions_per_min\": %.2f, \"peak_rss_bytes\": %llu, \"loadavg_before\": %.2f, \"loadavg_after\": %.2f",
           ndev > 0 && strncmp(names[0], "cpu", 3) == 0 ? "cpu" : "gpu", log2, jobs, parts, ok, sw, st, pw,
           latency ? "true" : "false", whole ? "true" : "false", pt, depth, cores, preload_s, wall, ok ? wall / ok : 0,
           proofs ? wall / proofs : 0, cpu, cpu / (wall * (double)cores), 60.0 * proofs / wall, (unsigned long long)rss,
           load0, load1);
    printf(", \"devices\": [");
    for (size_t d = 0; d < ndev; d++)
        printf("%s{\"name\": \"%s\", \"busy_pct\": %.1f}", d ? ", " : "", names[d], 100 * (busy1[d] - busy0[d]) / wall);
    printf("]");
    /* a job is one proof of `parts` partitions (a 32 GiB PoRep: 10), each partition one Groth16 proof */
    fprintf(stderr,
            "%u x 2^%u partitions in %.2f s: %.2f s per %u-partition proof, %.3f s per partition, %.2f partitions/min, "
            "peak RSS %.2f GiB, preload %.1f s\n",
            proofs, log2, wall, ok ? wall / ok : 0, parts, proofs ? wall / proofs : 0, 60.0 * proofs / wall,
            rss / 1073741824.0, preload_s);
    for (size_t d = 0; d < ndev; d++)
        fprintf(stderr, "  device %zu (%s): busy %.1f%%\n", d, names[d], 100 * (busy1[d] - busy0[d]) / wall);
    static const char *stages[] = {"synthesis", "upload",   "spmv",      "ntt_h", "msm",
                                   "verify",    "finalize", "admission", "queue"};
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
        printf(", \"%s_wall_share\": %.3f", stages[i], m != NULL ? stage_sum(m, stages[i]) / wall : 0);
    free(m);
    free(ids);

    if (tiers) {
        /* the second key's files are made here, so that both loads below read files */
        char other[64];
        snprintf(other, sizeof other, "synthetic-%u-%llu", log2, seed + 1);
        preload(e, other);
        cuzk_engine_tier tier = CUZK_ENGINE_TIER_COLD;
        uint64_t size = key_size(e, key, &tier);
        cuzk_engine_destroy(e);
        cfg.pinned_budget = size + size / 2;
        if (cuzk_engine_create(&e, &cfg, &err) != CUZK_OK) {
            fprintf(stderr, "engine_create: %s\n", err.msg);
            return 1;
        }
        uint64_t cold_ms = preload(e, key);
        preload(e, other);
        key_size(e, key, &tier);
        bool demoted = tier == CUZK_ENGINE_TIER_WARM;
        uint64_t warm_ms = preload(e, key);
        printf(", \"key_bytes\": %llu, \"cold_load_ms\": %llu, \"warm_load_ms\": %llu, \"demoted_to_warm\": %s",
               (unsigned long long)size, (unsigned long long)cold_ms, (unsigned long long)warm_ms,
               demoted ? "true" : "false");
    }
    printf("}\n");
    cuzk_engine_destroy(e);
    return ok == jobs ? 0 : 1;
}
