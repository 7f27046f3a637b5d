#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Everything the GPU machine runs, in one script (it works from the repository root, needs no network): configure and
# build with CUDA (Release, sm_90), run every GPU test and check program (kernels against the CPU layers, device keys,
# GPU proofs against the CPU prover and the engine's GPU backend against its CPU backend, bit for bit), then the GPU
# micro-benchmarks as JSON lines. Logs and results go to $OUT. Made to finish within 9 minutes on one H200 with 16
# cores: a step never runs past DEADLINE, and one that would start with too little time left is skipped and named.
#
# Environment (all optional):
#   OUT         logs and results (default ./gpu-out): all.log (everything below), summary.txt (one line per
#               step: ok / FAILED / skipped, seconds), bench.jsonl (every benchmark line), <step>.log
#   STEPS       the steps, in this order: build ctest checks bench (default all four); a warm machine keeps
#               BUILD_DIR, so a second call with STEPS="bench" (or "checks bench") rebuilds nothing
#   BUILD_DIR   the build folder (default build-gpu, ignored by git); JOBS build jobs (default 16)
#   CHECKS      the full-size check programs after ctest's quick ones (default "gpu_check gpu_prove_check
#               gpu_engine_check"); CHECK_ARGS_gpu_check etc. give one its arguments (e.g. "msm")
#   BENCH       benchmark groups, in order (default "ntt msm prove"; msm is g1_msm and g2_msm; also: ff, batch,
#               floor, var)
#   NTT_LOG2    NTT sizes (default "20 21 22 23 24 25 26 27"); MSM_LOG2 G1 and G2 MSM sizes (default "20 22 24 26");
#               BATCH_LOG2 batch additions (default "24 26"); PROVE_LOG2 whole proofs, of 20 24 26 27 (default 27)
#   BENCH_ARGS  more cuzk-bench options for every group (e.g. "--msm-variant 0x14", "--msm-profile")
#   DEADLINE    seconds after the start by which every step has ended (default 520)
#   OPENSSL_DIR an OpenSSL tree (include/, lib/libcrypto.a) for machines without OpenSSL headers; else a stub
#   SANITIZE=1  compute-sanitizer memcheck of the prover and MSM checks at small sizes too (slow; when installed)
# Where OpenSSL's headers are missing (some GPU images), a stub libcrypto stands in: the GPU checks and benchmarks
# never reach the r1cs layer's SHA-256, which then aborts if called.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${OUT:-gpu-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

start=$(date +%s)
deadline=${DEADLINE:-520}
steps=" ${STEPS:-build ctest checks bench} "
b=${BUILD_DIR:-build-gpu}
case "$b" in /*) ;; *) b=$root/$b ;; esac
failed=0
: > "$out/summary.txt"

elapsed() { echo $(( $(date +%s) - start )); }
# seconds a step may take: what is left before the deadline, at most $1
budget() { local left=$(( deadline - $(elapsed) )); [ "$left" -lt "$1" ] && echo "$left" || echo "$1"; }
note() { echo "$1" | tee -a "$out/summary.txt"; }
# result NAME RC SECONDS LIMIT: the step's lines worth seeing from NAME.log, and its summary line; exit 77 is a check
# that found no device (skipped), a timeout (124, 137) or any other failure marks the whole run failed
result() {
  grep -E "FAIL|passed|Error|error:|tests passed|tests failed|Not Run|Timeout|SKIPPED|^cuzk-bench: " "$out/$1.log" |
    tail -12
  if [ "$2" -eq 0 ]; then note "$1: ok, $3 s"
  elif [ "$2" -eq 77 ]; then note "$1: skipped (no CUDA device)"
  elif [ "$2" -eq 124 ] || [ "$2" -eq 137 ]; then note "$1: FAILED (time limit $4 s)"; failed=1
  else note "$1: FAILED (exit $2), $3 s"; failed=1
  fi
}
# run NAME LIMIT COMMAND...: the command under a timeout (at most LIMIT, ending by the deadline), its output in
# NAME.log; skipped when fewer than 15 s are left
run() {
  local name=$1 limit; limit=$(budget "$2"); shift 2
  if [ "$limit" -lt 15 ]; then note "$name: skipped (deadline)"; return 0; fi
  echo "== $name (at most $limit s): $*"
  local t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" > "$out/$name.log" 2>&1
  result "$name" $? $(( $(date +%s) - t0 )) "$limit"
}
# side_by_side LIMIT NAME COMMAND [NAME COMMAND ...]: commands (strings) that share the device and the cores at once
# (one after another where the device takes one process at a time), each under the timeout; for checks, whose
# results do not depend on timing
side_by_side() {
  local max=$1 limit names=() pids=() t0s=() lims=(); shift
  while [ $# -ge 2 ]; do
    limit=$(budget "$max")
    if [ "$limit" -lt 15 ]; then note "$1: skipped (deadline)"; shift 2; continue; fi
    echo "== $1 (at most $limit s): $2"
    timeout --kill-after=10 "$limit" bash -c "$2" > "$out/$1.log" 2>&1 &
    names+=("$1"); pids+=($!); t0s+=($(date +%s)); lims+=("$limit"); shift 2
    if [ "$par" -eq 1 ]; then wait "${pids[-1]}"; pids[-1]="rc:$?:$(date +%s)"; fi
  done
  local i rc end
  for i in "${!pids[@]}"; do
    case ${pids[$i]} in
      rc:*) IFS=: read -r _ rc end <<< "${pids[$i]}" ;;
      *) wait "${pids[$i]}"; rc=$?; end=$(date +%s) ;;
    esac
    result "${names[$i]}" "$rc" $(( end - ${t0s[$i]} )) "${lims[$i]}"
  done
}

main() {
echo "== machine"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,driver_version --format=csv || true
nvcc --version | tail -1
cmake --version | head -1
echo "cores: $(nproc)"
# processes share the device only in the default compute mode: else the checks run one at a time
par=4
case "$(nvidia-smi --query-gpu=compute_mode --format=csv,noheader 2>/dev/null)" in *Exclusive* | *Prohibited*) par=1 ;; esac
echo "checks side by side: $par"
git log --oneline -1 2>/dev/null || true

if [[ $steps == *" build "* ]]; then
  extra=()
  if [ -n "${OPENSSL_DIR:-}" ]; then
    extra=(-DOPENSSL_ROOT_DIR="$OPENSSL_DIR" -DOPENSSL_USE_STATIC_LIBS=TRUE)
  elif [ ! -f /usr/include/openssl/evp.h ] || [ -n "${FORCE_SSL_STUB:-}" ]; then
    s=/tmp/sslstub
    mkdir -p $s/include/openssl $s/lib
    cat > $s/include/openssl/opensslv.h <<'H'
#define OPENSSL_VERSION_NUMBER 0x30000000L
#define OPENSSL_VERSION_STR "3.0.0"
#define OPENSSL_VERSION_TEXT "OpenSSL 3.0.0 (cuzk stub)"
H
    cat > $s/include/openssl/evp.h <<'H'
#include <stddef.h>
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_md_st EVP_MD;
typedef struct engine_st ENGINE;
EVP_MD_CTX *EVP_MD_CTX_new(void);
void EVP_MD_CTX_free(EVP_MD_CTX *);
const EVP_MD *EVP_sha256(void);
int EVP_DigestInit_ex(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
int EVP_DigestUpdate(EVP_MD_CTX *, const void *, size_t);
int EVP_DigestFinal_ex(EVP_MD_CTX *, unsigned char *, unsigned int *);
H
    cat > $s/stub.c <<'C'
#include <stdlib.h>
#include "openssl/evp.h"
EVP_MD_CTX *EVP_MD_CTX_new(void) { abort(); }
void EVP_MD_CTX_free(EVP_MD_CTX *c) { (void)c; abort(); }
const EVP_MD *EVP_sha256(void) { abort(); }
int EVP_DigestInit_ex(EVP_MD_CTX *c, const EVP_MD *m, ENGINE *e) { (void)c, (void)m, (void)e; abort(); }
int EVP_DigestUpdate(EVP_MD_CTX *c, const void *p, size_t n) { (void)c, (void)p, (void)n; abort(); }
int EVP_DigestFinal_ex(EVP_MD_CTX *c, unsigned char *o, unsigned int *n) { (void)c, (void)o, (void)n; abort(); }
C
    cc -O2 -I$s/include -c $s/stub.c -o $s/stub.o &&
      ar rcs $s/lib/libcrypto.a $s/stub.o && ar rcs $s/lib/libssl.a $s/stub.o
    extra=(-DOPENSSL_ROOT_DIR=$s -DOPENSSL_USE_STATIC_LIBS=TRUE)
    echo "using the OpenSSL stub"
  fi
  run configure 120 cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    "${extra[@]}"
  # what the GPU tests (ctest -R gpu), the check programs and the benchmarks need; test_gpu_host where cmocka is
  targets=(cuzk_gpu cuzk_gpu_lab gpu_check gpu_prove_check gpu_engine_check cuzk-bench)
  cmake --build "$b" --target help 2>/dev/null | grep -w test_gpu_host > /dev/null && targets+=(test_gpu_host)
  run build 420 cmake --build "$b" -j "${JOBS:-16}" --target "${targets[@]}"
  grep -q "build: ok" "$out/summary.txt" || { grep -E "error" -A3 "$out/build.log" | head -40; return 1; }
fi
bin=$b/bin
if [ ! -x "$bin/gpu_check" ] || [ ! -x "$bin/cuzk-bench" ]; then
  note "no binaries in $bin: run the build step first"
  return 1
fi

# The GPU tests at their quick sizes, four at a time (they share the device; none times anything): gpu_check quick,
# gpu_prove_check quick (GPU proofs = CPU proofs, bit for bit), gpu_engine_check quick (the engine's GPU backend = its
# CPU backend), test_gpu_host (the device arithmetic's plain-C parts on the host). Without a device they exit 77,
# which ctest counts as skipped.
if [[ $steps == *" ctest "* ]]; then
  run ctest 180 ctest --test-dir "$b" -R gpu -j $par --output-on-failure
  grep -E "^ *[0-9]+/[0-9]+ Test" "$out/ctest.log"
fi

# The check programs at full size, side by side: gpu_check (every kernel against the CPU layers: fields, NTT up to
# 2^24 and a 2^26 round trip, MSM up to 2^20, batch additions up to 5·10^6, device keys against the CPU's),
# gpu_prove_check (GPU proofs against the CPU prover, byte for byte, up to 2^16, both key conventions, packed
# witnesses, latency pairs), gpu_engine_check (the engine's GPU backend against its CPU backend up to 2^14).
if [[ $steps == *" checks "* ]]; then
  todo=()
  for c in ${CHECKS:-gpu_check gpu_prove_check gpu_engine_check}; do
    var=CHECK_ARGS_$c
    todo+=("$c" "'$bin/$c' ${!var:-}")
  done
  if [ -n "${SANITIZE:-}" ] && command -v compute-sanitizer > /dev/null; then
    san="compute-sanitizer --tool memcheck --print-limit 5"
    todo+=(memcheck_prove "$san '$bin/gpu_prove_check' quick" memcheck_msm "$san '$bin/gpu_check' msm_quick")
  fi
  [ ${#todo[@]} -gt 0 ] && side_by_side 180 "${todo[@]}"
fi

# The micro-benchmarks: one JSON object per line (docs/performance/README.md), all of them in bench.jsonl.
csv() { echo "$*" | tr -s ' ' ',' | sed 's/^,//; s/,$//'; }
if [[ $steps == *" bench "* ]]; then
  : > "$out/bench.jsonl"
  for g in $(echo " ${BENCH:-ntt msm prove} " | sed 's/ msm / g1_msm g2_msm /'); do
    case $g in
      ntt)   args=(--filter gpu_ntt --sizes "$(csv "${NTT_LOG2:-20 21 22 23 24 25 26 27}")"); lim=90 ;;
      g1_msm | g2_msm) args=(--filter $g --sizes "$(csv "${MSM_LOG2:-20 22 24 26}")"); lim=100 ;;
      batch) args=(--filter batch_add --sizes "$(csv "${BATCH_LOG2:-24 26}")"); lim=60 ;;
      prove) args=(--filter gpu_prove --sizes "$(csv "${PROVE_LOG2:-27}")"); lim=240 ;;
      ff)    args=(--filter gpu_f); lim=60 ;;
      floor) args=(--filter gpu_floor); lim=60 ;;
      var)   args=(--filter gpu_msm_var); lim=200 ;;
      *) note "bench $g: unknown group"; continue ;;
    esac
    run "bench_$g" $lim "$bin/cuzk-bench" micro --gpu "${args[@]}" ${BENCH_ARGS:-}
    grep '^{' "$out/bench_$g.log" | tee -a "$out/bench.jsonl"
    # a group that ran and printed no line measured nothing (a filter or size that selects no benchmark)
    if grep -q "bench_$g: ok" "$out/summary.txt" && ! grep -q '^{' "$out/bench_$g.log"; then
      note "bench_$g: FAILED (no benchmark line)"; failed=1
    fi
    # every proof is verified (and at 2^20 compared with the CPU's): a line saying otherwise fails the whole run
    if grep -qE '"(valid|match_cpu)": false' "$out/bench_$g.log"; then note "bench_$g: FAILED (a proof)"; failed=1; fi
  done
fi

nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv || true
note "total: $(elapsed) s, $([ $failed -eq 0 ] && echo "everything passed" || echo "FAILURES above")"
return $failed
}

main 2>&1 | tee "$out/all.log"
