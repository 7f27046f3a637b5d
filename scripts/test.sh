#!/usr/bin/env bash
# Builds cuzk and runs every test: the optimized build (unit tests and the noble oracle cross-check), then the unit
# tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

if [ ! -d tests/oracle/node_modules ]; then
  (cd tests/oracle && npm ci --no-audit --no-fund)
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCUZK_SANITIZE=ON
cmake --build build-asan -j "$jobs"
ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE oracle
