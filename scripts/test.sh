#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Builds cuzk and runs every test: the optimized build (unit tests and the noble oracle cross-check), then the unit
# tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# The oracle's JavaScript side: @noble/curves (pinned in tests/oracle/package-lock.json) needs node >= 20.19; where
# the system's is older, node-env.sh fetches the pinned one from the npm registry (once) and puts it on PATH.
# shellcheck source=node-env.sh
. scripts/node-env.sh
cuzk_node_env || { echo "test.sh: no Node.js >= 20.19 for the test oracles" >&2; exit 1; }
# Install the pinned packages when they are missing or not the locked version (npm ci removes stale ones).
if ! cmp -s tests/oracle/package-lock.json tests/oracle/node_modules/.package-lock.json.src 2>/dev/null; then
  (cd tests/oracle && npm ci --no-audit --no-fund && cp package-lock.json node_modules/.package-lock.json.src)
fi

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "test.sh: no CUDA device here: the GPU tests (gpu_check, gpu_prove_check, gpu_engine_check) are skipped;" \
       "run scripts/gpu_device.sh on a GPU machine"
fi

# The optimized build compiles the CUDA kernels wherever nvcc is (their tests skip without a device), so that a kernel
# that stops compiling fails here; the sanitizer build leaves them out.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON
cmake --build build -j "$jobs"
./scripts/check-tree.sh build
./scripts/spdx.sh --check
# The layout .clang-format describes, checked with the clang-format it was written for (others wrap differently).
if command -v clang-format >/dev/null && clang-format --version | grep -q "version 14\."; then
  ./scripts/format.sh --check
fi
ctest --test-dir build --output-on-failure -j "$jobs"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON
cmake --build build-asan -j "$jobs"
ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE "oracle|fuzz"
