#!/usr/bin/env bash
# Builds cuzk and runs the main job on its embedded default: a synthetic PoRep-shaped circuit of 2^16 constraints is
# generated, given a test key, proved and verified (`cuzk demo`); each step's time, then one JSON line. Extra
# arguments go to the demo (--log2 K, --threads N, --seed N).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
build/bin/cuzk demo "$@"
