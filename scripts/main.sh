#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Builds what the demo needs and runs the main job on its embedded default: a synthetic PoRep-shaped circuit of 2^16
# constraints is generated, given a test key, proved and verified (`cuzk demo`); each step's time, then one JSON line.
# Extra arguments go to the demo (--log2 K, --threads N, --seed N, --device cpu).
#
# The build is its own (build-demo/): the layers the demo uses and cuzk-demo (the CLI's demo command alone); no tests,
# no gRPC service, no Filecoin layer, and CUDA only where nvidia-smi lists a device (CUZK_CUDA=AUTO; CUZK_CUDA=ON in
# the environment builds it wherever nvcc exists). CMake's and the compiler's output go to build-demo/build.log, shown
# when a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-demo
log=$dir/build.log
mkdir -p "$dir"
: >"$log"
step() { printf 'main.sh: %s\n' "$*"; }
fail() {
  echo "main.sh: $1 failed; the end of $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
}
t0=$(date +%s)
step "configuring ($dir, CUDA ${CUZK_CUDA:-AUTO})"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA="${CUZK_CUDA:-AUTO}" -DCUZK_SERVER=OFF \
  -DBUILD_TESTING=OFF >>"$log" 2>&1 || fail "configuring"
grep -q "CUDA backend ON" "$log" && step "a CUDA device is here: the GPU backend is built too (minutes)"
step "building the demo on $(nproc) cores"
# make's percentages, one line per tenth of the way
set +e
cmake --build "$dir" --target cuzk-demo -j "$(nproc)" 2>&1 | tee -a "$log" |
  awk '/^\[ *[0-9]+%\]/ { p = substr($0, 2, 3) + 0
                          if (p >= next_p) { printf "main.sh:   %3d%%\n", p; fflush(); next_p = p - p % 10 + 10 } }'
built=${PIPESTATUS[0]}
set -e
[ "$built" -eq 0 ] && [ -x "$dir/bin/cuzk-demo" ] || fail "building"
step "built in $(($(date +%s) - t0)) s; running the demo"
exec "$dir/bin/cuzk-demo" "$@"
