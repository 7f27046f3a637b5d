#!/usr/bin/env bash
# Builds cuzk and runs the main job on its embedded default. For now that is the arithmetic core's
# micro-benchmarks (later: setup -> prove -> verify on a built-in circuit).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
build/bin/cuzk-bench micro "$@"
