/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-bench: benchmark programs. A table of commands, and the benchmarks each runs as a static table of entry
 * points (one per benchmark file, bench.h); the files take their timing and output from timing.c and never call
 * back here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/filecoin.h"
#ifdef CUZK_HAVE_CUDA
#include "cuzk/gpu.h"
#endif

/* `micro`, in this order: an entry runs when `gate` is NULL (it selects its own lines by name) or selected. */
typedef struct {
    const char *gate;
    bench_entry run;
} bench_step;

static const bench_step micro_cpu[] = {
    {NULL, bench_micro_ff},       {NULL, bench_micro_ec},       {NULL, bench_micro_pairing},
    {NULL, bench_micro_msm},      {NULL, bench_micro_ntt},      {NULL, bench_micro_r1cs},
    {NULL, bench_micro_circuits}, {NULL, bench_micro_poseidon}, {NULL, bench_micro_groth16},
    {NULL, bench_micro_filecoin}, {NULL, bench_micro_sdr},      {NULL, bench_micro_snap},
    {"prove", bench_prove_gen},
};

#ifdef CUZK_HAVE_CUDA
/* --gpu: the floor first (it measures the default kernels), then the kernels, then whole proofs */
static const bench_step micro_gpu[] = {
    {"gpu_floor", bench_floor_gpu},
    {NULL, bench_micro_gpu},
    {NULL, bench_prove_gpu},
};
#endif

static void run_steps(const bench_opts *o, const bench_step *steps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (steps[i].gate == NULL || bench_selected(o, steps[i].gate)) steps[i].run(o);
}

static void usage(FILE *f)
{
    fprintf(
        f, "usage: cuzk-bench micro [--filter NAME] [--threads N] [--gpu]\n"
           "       cuzk-bench prove [--max-log2 K] [--threads N]\n"
           "       cuzk-bench zkey\n"
           "       cuzk-bench gen-vanilla porep [--registered-proof N] [-o FILE] (cuzk-bench gen-vanilla --help)\n"
           "       cuzk-bench post shape|witness ...   (FallbackPoSt circuits at production size: post.c)\n"
           "       cuzk-bench porep [--sector-size S] [--threads N] [--filter NAME] [--gpu]\n"
           "       cuzk-bench --version\n"
           "  micro      field, curve, pairing, MSM, NTT, SpMV, Poseidon and Groth16 micro-benchmarks, one JSON\n"
           "             object per line, ending with `prove` on synthetic PoRep-shaped circuits (up to 2^K, see\n"
           "             prove)\n"
           "  prove      Groth16 proofs of synthetic PoRep-shaped circuits of 2^16, 2^18, ... 2^K constraints\n"
           "             (default K = 20), per phase, with peak memory; keys cached in ~/.cache/cuzk-bench\n"
           "  zkey       makes (once) snarkjs-convention zkey + wtns fixtures in that cache and prints their paths:\n"
           "             mulchain (65,000 multiplications, 2^16) and bits (PoRep-shaped, 2^15), for cuzk prove --zkey\n"
           "  porep      the PoRep C2 circuit at one sector size (default 32GiB): the layout, one partition's\n"
           "             witness at 1, 2, 4, ... threads, the shape (time, peak memory, matrix fingerprint), a\n"
           "             whole C2 (CPU: test sizes; --gpu: on the device, witnesses overlapped with proofs)\n"
           "  --filter   run only benchmarks whose name contains NAME\n"
           "  --threads  thread count for multi-threaded benchmarks (default: 1 and 2)\n"
           "  --max-log2 largest circuit for prove (16 .. 27; --gpu: the proofs at 2^20, 2^24, 2^26, 2^27 up to\n"
           "             K, default 24)\n"
           "  --min-log2 smallest circuit for the --gpu proofs\n"
           "  --sizes K[,K...]\n"
           "             with --gpu: only these sizes 2^K of the NTT, MSM, batch-addition and proof lines (the\n"
           "             proofs: of 2^20, 2^24, 2^26, 2^27, up to 2^27 unless --max-log2 says otherwise)\n"
           "  --gpu      the CUDA backend's benchmarks instead (when built with CUDA)\n"
           "  --msm-variant V, --ntt-variant V\n"
           "             with --gpu: the MSM / NTT kernel variant for every benchmark (gpu.h: cuzk_gpu_msm_opts,\n"
           "             cuzk_gpu_ntt_opts), to compare whole proofs side by side\n"
           "  --msm-profile\n"
           "             with --gpu: every MSM and batch addition prints its phase times on stderr\n");
#ifdef CUZK_BENCH_CLIENT
    fprintf(f, "       cuzk-bench [-a ADDR] single|batch|stress|status|preload|evict|metrics ... against a daemon,\n"
               "                  in Curio's cuzk-bench forms (cuzk-bench batch --help)\n");
#endif
    fprintf(f, "Lines carry the best run as \"value\" (GPU lines: the median), with \"median\", \"spread\" ((worst -\n"
               "best) / median) and \"runs\" where a figure comes from repeated runs.\n");
}

/* The options after the command; false (with a message) on a bad one. *help: --help was given. */
static bool parse_opts(int argc, char **argv, bench_opts *o, bool *help)
{
    for (int i = 2; i < argc; i++) {
        bool has_next = i + 1 < argc;
        char *end;
        if (strcmp(argv[i], "--filter") == 0 && has_next) {
            o->filter = argv[++i];
        } else if (strcmp(argv[i], "--threads") == 0 && has_next) {
            long t = strtol(argv[++i], &end, 10);
            if (*end != '\0' || t < 1 || t > 1024) {
                fprintf(stderr, "cuzk-bench: --threads needs a count between 1 and 1024\n");
                return false;
            }
            o->threads = (int)t;
        } else if ((strcmp(argv[i], "--max-log2") == 0 || strcmp(argv[i], "--min-log2") == 0) && has_next) {
            bool max = argv[i][3] == 'a';
            long k = strtol(argv[++i], &end, 10);
            if (*end != '\0' || k < 16 || k > 27) {
                fprintf(stderr, "cuzk-bench: %s needs a size between 16 and 27\n", max ? "--max-log2" : "--min-log2");
                return false;
            }
            if (max) o->max_log2 = (int)k;
            else o->min_log2 = (int)k;
        } else if (strcmp(argv[i], "--sector-size") == 0 && has_next) {
            if (!cuzk_fil_size_parse(argv[++i], &o->sector_size)) {
                fprintf(stderr, "cuzk-bench: --sector-size '%s' is not a size\n", argv[i]);
                return false;
            }
        } else if (strcmp(argv[i], "--sizes") == 0 && has_next) {
            const char *p = argv[++i];
            o->sizes = 0;
            do {
                long k = strtol(p, &end, 10);
                if (end == p || k < 1 || k > 31 || (*end != ',' && *end != '\0')) {
                    fprintf(stderr, "cuzk-bench: --sizes needs sizes K (2^K) between 1 and 31, comma-separated\n");
                    return false;
                }
                o->sizes |= (uint32_t)1 << k;
                p = end + 1;
            } while (*end == ',');
        } else if (strcmp(argv[i], "--gpu") == 0) {
            o->gpu = true;
        } else if (strcmp(argv[i], "--msm-profile") == 0) {
            o->msm_profile = true;
        } else if ((strcmp(argv[i], "--msm-variant") == 0 || strcmp(argv[i], "--ntt-variant") == 0) && has_next) {
            bool msm = argv[i][2] == 'm';
            long v = strtol(argv[++i], &end, 0);
            long max = msm ? 0xffffffffL : 0xffff;
            if (*end != '\0' || v < 0 || v > max) {
                fprintf(stderr, "cuzk-bench: %s needs a number between 0 and %#lx\n",
                        msm ? "--msm-variant" : "--ntt-variant", max);
                return false;
            }
            if (msm) o->msm_variant = v;
            else o->ntt_variant = v;
        } else if (strcmp(argv[i], "--help") == 0) {
            *help = true;
        } else {
            fprintf(stderr, "cuzk-bench: unknown option '%s'\n", argv[i]);
            return false;
        }
    }
    return true;
}

/* --gpu: the device; the kernel variants are options of each context, domain and prover the benchmarks make
 * (bench_gpu_msm_opts, bench_gpu_ntt_variant, bench_gpu_prover_opts). */
static int micro_gpu_run(const bench_opts *o)
{
#ifdef CUZK_HAVE_CUDA
    if (cuzk_gpu_device_count() <= 0) {
        fprintf(stderr, "cuzk-bench: --gpu: no CUDA device\n");
        return 0;
    }
    char name[256];
    if (cuzk_gpu_device_name(name, sizeof name) == CUZK_OK) fprintf(stderr, "cuzk-bench: device %s\n", name);
    run_steps(o, micro_gpu, sizeof micro_gpu / sizeof micro_gpu[0]);
    return 0;
#else
    (void)o;
    fprintf(stderr, "cuzk-bench: --gpu: built without CUDA\n");
    return 2;
#endif
}

static int cmd_micro(const bench_opts *o)
{
    if (o->gpu) return micro_gpu_run(o);
    run_steps(o, micro_cpu, sizeof micro_cpu / sizeof micro_cpu[0]);
    return 0;
}

static int cmd_prove(const bench_opts *o)
{
    bench_prove_gen(o);
    return 0;
}

static int cmd_zkey(const bench_opts *o)
{
    bench_zkey_fixtures(o);
    return 0;
}

static int cmd_porep(const bench_opts *o)
{
    bench_porep(o);
    return 0;
}

static const struct {
    const char *name;
    int (*run)(const bench_opts *o);
} commands[] = {
    {"micro", cmd_micro},
    {"prove", cmd_prove},
    {"zkey", cmd_zkey},
    {"porep", cmd_porep},
};

int main(int argc, char **argv)
{
    /* the options before the command, as Curio's cuzk-bench takes them: -a/--addr and --log-level */
    const char *addr = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("cuzk-bench %s\n", cuzk_version());
            return 0;
        } else if ((strcmp(a, "-a") == 0 || strcmp(a, "--addr") == 0) && i + 1 < argc) {
            addr = argv[++i];
        } else if (strcmp(a, "--log-level") == 0 && i + 1 < argc) {
            i++; /* accepted for Curio's command lines; cuzk-bench writes results, not logs */
        } else {
            fprintf(stderr, "cuzk-bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (i == argc) {
        usage(stderr);
        return 2;
    }
    /* from here argv[1] is the command */
    argc -= i - 1;
    argv += i - 1;
#ifdef CUZK_BENCH_CLIENT
    if (bench_net_is_command(argv[1])) return bench_net_main(argc - 1, argv + 1, addr);
#endif
    if (addr != NULL) {
        fprintf(stderr, "cuzk-bench: -a is for the commands against a daemon, not '%s'\n", argv[1]);
        return 2;
    }
    if (strcmp(argv[1], "gen-vanilla") == 0) return bench_gen_vanilla(argc - 1, argv + 1);
    if (strcmp(argv[1], "post") == 0) return bench_post_main(argc - 2, argv + 2);
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        if (strcmp(argv[1], commands[c].name) != 0) continue;
        bench_opts o = {NULL, 0, 0, 0, false, -1, -1, false, 0, 0};
        bool help = false;
        if (!parse_opts(argc, argv, &o, &help)) {
            usage(stderr);
            return 2;
        }
        if (help) {
            usage(stdout);
            return 0;
        }
        return commands[c].run(&o);
    }
    fprintf(stderr, "cuzk-bench: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
