/* cuzk-bench: benchmark programs. `cuzk-bench micro [--filter NAME] [--threads N]`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#ifdef CUZK_BENCH_CLIENT
#include "client.h"
#endif

bool bench_selected(const bench_opts *o, const char *name)
{
    return o->filter == NULL || strstr(name, o->filter) != NULL;
}

void bench_report(const char *name, uint64_t size, int threads, double value, const char *unit)
{
    printf("{\"name\": \"%s\", \"size\": %llu, \"threads\": %d, \"value\": %.3f, \"unit\": \"%s\"}\n", name,
           (unsigned long long)size, threads, value, unit);
    fflush(stdout);
}

int bench_thread_set(const bench_opts *o, int out[2])
{
    if (o->threads > 0) {
        out[0] = o->threads;
        return 1;
    }
    out[0] = 1;
    out[1] = 2;
    return 2;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-bench micro [--filter NAME] [--threads N] [--gpu]\n"
               "       cuzk-bench prove [--max-log2 K] [--threads N]\n"
               "       cuzk-bench zkey\n"
               "  micro      field, curve, pairing, MSM, NTT, SpMV, Poseidon and Groth16 micro-benchmarks, one JSON\n"
               "             object per line, ending with `prove` on synthetic PoRep-shaped circuits (up to 2^K, see\n"
               "             prove)\n"
               "  prove      Groth16 proofs of synthetic PoRep-shaped circuits of 2^16, 2^18, ... 2^K constraints\n"
               "             (default K = 20), per phase, with peak memory; keys cached in ~/.cache/cuzk-bench\n"
               "  zkey       makes (once) snarkjs-convention zkey + wtns fixtures in that cache and prints their paths:\n"
               "             mulchain (65,000 multiplications, 2^16) and bits (PoRep-shaped, 2^15), for cuzk prove --zkey\n"
               "  --filter   run only benchmarks whose name contains NAME\n"
               "  --threads  thread count for multi-threaded benchmarks (default: 1 and 2)\n"
               "  --max-log2 largest circuit for prove (16 .. 27; --gpu: the proofs at 2^20, 2^24, 2^26, 2^27 up to\n"
               "             K, default 24)\n"
               "  --min-log2 smallest circuit for the --gpu proofs\n"
               "  --gpu      the CUDA backend's benchmarks instead (when built with CUDA)\n"
               "  --msm-variant V, --ntt-variant V\n"
               "             with --gpu: the MSM / NTT kernel variant for every benchmark (gpu.h: gpu_msm_set_variant,\n"
               "             gpu_ntt_set_variant), to compare whole proofs side by side\n"
               "  --msm-profile\n"
               "             with --gpu: every MSM and batch addition prints its phase times on stderr\n");
#ifdef CUZK_BENCH_CLIENT
    fprintf(f, "       cuzk-bench single|batch|stress|status|preload|evict|metrics [--addr A] ... "
               "(cuzk-bench batch --help)\n");
#endif
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
#ifdef CUZK_BENCH_CLIENT
    static const char *const network[] = {"single", "batch", "stress", "status", "preload", "evict", "metrics"};
    for (size_t i = 0; i < sizeof network / sizeof network[0]; i++) {
        if (strcmp(argv[1], network[i]) == 0) {
            return client_main(argc - 1, argv + 1);
        }
    }
#endif
    bool prove = strcmp(argv[1], "prove") == 0, zkey = strcmp(argv[1], "zkey") == 0;
    if (!prove && !zkey && strcmp(argv[1], "micro") != 0) {
        fprintf(stderr, "cuzk-bench: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    bench_opts o = {NULL, 0, 20, 0, false, -1, -1, false};
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            o.filter = argv[++i];
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *end;
            long t = strtol(argv[++i], &end, 10);
            if (*end != '\0' || t < 1 || t > 1024) {
                fprintf(stderr, "cuzk-bench: --threads needs a count between 1 and 1024\n");
                return 2;
            }
            o.threads = (int)t;
        } else if (strcmp(argv[i], "--max-log2") == 0 && i + 1 < argc) {
            char *end;
            long k = strtol(argv[++i], &end, 10);
            if (*end != '\0' || k < 16 || k > 27) {
                fprintf(stderr, "cuzk-bench: --max-log2 needs a size between 16 and 27\n");
                return 2;
            }
            o.max_log2 = (int)k;
        } else if (strcmp(argv[i], "--min-log2") == 0 && i + 1 < argc) {
            char *end;
            long k = strtol(argv[++i], &end, 10);
            if (*end != '\0' || k < 16 || k > 27) {
                fprintf(stderr, "cuzk-bench: --min-log2 needs a size between 16 and 27\n");
                return 2;
            }
            o.min_log2 = (int)k;
        } else if (strcmp(argv[i], "--gpu") == 0) {
            o.gpu = true;
        } else if (strcmp(argv[i], "--msm-profile") == 0) {
            o.msm_profile = true;
        } else if ((strcmp(argv[i], "--msm-variant") == 0 || strcmp(argv[i], "--ntt-variant") == 0) && i + 1 < argc) {
            bool msm = argv[i][2] == 'm';
            char *end;
            long v = strtol(argv[++i], &end, 0);
            long max = msm ? 0xffffffffL : 0xffff;
            if (*end != '\0' || v < 0 || v > max) {
                fprintf(stderr, "cuzk-bench: %s needs a number between 0 and %#lx\n", msm ? "--msm-variant" : "--ntt-variant",
                        max);
                return 2;
            }
            if (msm) o.msm_variant = v;
            else o.ntt_variant = v;
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (zkey) {
        bench_zkey_fixtures(&o);
        return 0;
    }
    if (prove) {
        bench_prove_gen(&o);
        return 0;
    }
    if (o.gpu) {
#ifdef CUZK_HAVE_CUDA
        bench_micro_gpu(&o);
        return 0;
#else
        fprintf(stderr, "cuzk-bench: --gpu: built without CUDA\n");
        return 2;
#endif
    }
    bench_micro_ff(&o);
    bench_micro_ec(&o);
    bench_micro_pairing(&o);
    bench_micro_msm(&o);
    bench_micro_ntt(&o);
    bench_micro_r1cs(&o);
    bench_micro_circuits(&o);
    bench_micro_poseidon(&o);
    bench_micro_groth16(&o);
    bench_micro_filecoin(&o);
    if (bench_selected(&o, "prove")) bench_prove_gen(&o);
    return 0;
}
