#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The libFuzzer targets of tests/fuzz (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_OPTION...]   run TARGET (or `all`, one after the other) for SECONDS
#   scripts/fuzz.sh --build                                 configure and build only (the CTest fixture)
#   scripts/fuzz.sh --smoke TARGET RUNS                     RUNS inputs, without building (the CTest smoke tests)
#   scripts/fuzz.sh --list                                  the targets
#
# The build is its own (FUZZ_DIR, default build-fuzz/): clang, every source instrumented for libFuzzer, ASan and
# UBSan, no CUDA, no tests; it is brought up to date on every call. Each target starts from its seeds (small valid
# files the binary writes with the library's own writers, FUZZ_DIR/seeds/TARGET, made once) and keeps what it finds in
# FUZZ_DIR/corpus/TARGET, which grows from run to run; crashing inputs land in FUZZ_DIR/crashes/TARGET/. After each
# run one line: `fuzz TARGET: N runs in S s, cov C, ft F, corpus K, crashes X`. Exit status 1 when a target crashed.
# A smoke run is a count of inputs, not a time: it does the same work on a fast machine and on a slow, loaded one, and
# has no per-input time limit (CTest's timeout stands guard against a hang).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${FUZZ_DIR:-$root/build-fuzz}"
cc="${FUZZ_CC:-$(command -v clang || command -v clang-14 || true)}"
cxx="${FUZZ_CXX:-$(command -v clang++ || command -v clang++-14 || true)}"

# the built binary's targets (a build without the gRPC service has no grpc target), else the table's
targets() {
  if [ -x "$dir/bin/cuzk-fuzz" ]; then CUZK_FUZZ_LIST=1 "$dir/bin/cuzk-fuzz"
  else grep -o 'FUZZ_TARGET("[a-z_0-9]*"' "$root/tests/fuzz/fuzz.c" | sed 's/.*("\(.*\)"/\1/'; fi
}

build() {
  [ -n "$cc" ] || { echo "fuzz.sh: no clang (apt-get install clang libclang-rt-14-dev)" >&2; return 77; }
  mkdir -p "$dir"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    # the daemon's one C++ file needs a clang++ to be instrumented alike; without one the grpc target is left out
    local with_cxx=(-DCUZK_SERVER=OFF)
    [ -n "$cxx" ] && with_cxx=(-DCMAKE_CXX_COMPILER="$cxx")
    echo "fuzz.sh: configuring $dir with $cc${cxx:+ and $cxx}"
    cmake -S "$root" -B "$dir" -DCMAKE_C_COMPILER="$cc" "${with_cxx[@]}" -DCUZK_FUZZ=ON -DBUILD_TESTING=OFF \
      -DCUZK_CUDA=OFF -DCMAKE_BUILD_TYPE=Release >"$dir/configure.log" 2>&1 ||
      { tail -20 "$dir/configure.log" >&2; echo "fuzz.sh: configuring failed ($dir/configure.log)" >&2; return 1; }
  fi
  echo "fuzz.sh: building cuzk-fuzz in $dir"
  cmake --build "$dir" -j "$(nproc)" --target cuzk-fuzz >"$dir/build.log" 2>&1 ||
    { grep -E "error|undefined" "$dir/build.log" | head -20 >&2; echo "fuzz.sh: building failed ($dir/build.log)" >&2
      return 1; }
  for t in $(targets); do
    [ -d "$dir/seeds/$t" ] && continue
    mkdir -p "$dir/seeds/$t.tmp"
    CUZK_FUZZ_TARGET=$t CUZK_FUZZ_SEEDS="$dir/seeds/$t.tmp" "$dir/bin/cuzk-fuzz" 2>&1 | tail -1 || return 1
    mv "$dir/seeds/$t.tmp" "$dir/seeds/$t"
  done
}

# run TARGET LIMIT LIBFUZZER_OPTION...: LIMIT is `S s` (seconds) or `N runs`
run() {
  local t=$1 limit=$2 log
  shift 2
  mkdir -p "$dir/corpus/$t" "$dir/crashes/$t"
  log="$dir/crashes/$t/last-run.log"
  local t0=$SECONDS
  CUZK_FUZZ_TARGET=$t "$dir/bin/cuzk-fuzz" -print_final_stats=1 -rss_limit_mb=2048 \
    -artifact_prefix="$dir/crashes/$t/" "$@" "$dir/corpus/$t" "$dir/seeds/$t" >"$log" 2>&1
  local rc=$? secs=$((SECONDS - t0))
  local runs cov ft corpus crashes
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(find "$dir/corpus/$t" -type f | wc -l)
  crashes=$(find "$dir/crashes/$t" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
             -o -name 'oom-*' \) | wc -l)
  echo "fuzz $t ($limit): ${runs:-0} runs in $secs s, cov ${cov:-0}, ft ${ft:-0}, corpus $corpus, crashes $crashes"
  if [ $rc -ne 0 ]; then
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5
    echo "fuzz.sh: $t failed (exit $rc); the whole output is in $log" >&2
    return 1
  fi
}

case "${1:-}" in
  --list) targets ;;
  --build) build ;;
  --smoke)
    [ $# -eq 3 ] || { echo "usage: scripts/fuzz.sh --smoke TARGET RUNS" >&2; exit 2; }
    [ -x "$dir/bin/cuzk-fuzz" ] || { echo "fuzz.sh: no $dir/bin/cuzk-fuzz: run scripts/fuzz.sh --build" >&2; exit 2; }
    run "$2" "$3 runs" -runs="$3" -timeout=0 ;;
  "" | -h | --help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ] ;;
  *)
    [ $# -ge 2 ] || { echo "usage: scripts/fuzz.sh TARGET|all SECONDS [LIBFUZZER_OPTION...]" >&2; exit 2; }
    want=$1 secs=$2
    shift 2
    build || exit $?
    if [ "$want" != all ] && ! targets | grep -qx "$want"; then
      echo "fuzz.sh: no target '$want' in this build; its targets: $(targets | tr '\n' ' ')" >&2
      exit 2
    fi
    failed=0
    for t in $(targets); do
      [ "$want" = all ] || [ "$want" = "$t" ] || continue
      run "$t" "$secs s" -max_total_time="$secs" -timeout=60 "$@" || failed=1
    done
    exit $failed ;;
esac
