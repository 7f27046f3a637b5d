#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# cuzk and blst side by side in one process: compiles tools/bench/blst/vs_blst.c against cuzk (built here in BUILD,
# default build/) and a blst that was built beforehand with blst's own build.sh (its libblst.a in BLST_DIR, or in
# BLST_LIB), then runs it; one JSON line per operation with both medians, their ratio and whether the results agree.
#
#   scripts/bench-vs-blst.sh BLST_DIR [cuzk-vs-blst options: --filter NAME --reps N --max-msm-log2 K]
#
# BLST_DIR is a blst source tree (bindings/blst.h). Nothing of blst enters this repository: the program is built
# into BUILD/bin/cuzk-vs-blst.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/bindings/blst.h" ]; then
    echo "usage: $0 BLST_DIR [--filter NAME] [--reps N] [--max-msm-log2 K]" >&2
    echo "  BLST_DIR: a blst source tree (bindings/blst.h), built with its build.sh" \
         "(libblst.a in BLST_DIR or BLST_LIB)" >&2
    exit 2
fi
blst=$(cd "$1" && pwd)
shift
lib=${BLST_LIB:-$blst/libblst.a}
if [ ! -f "$lib" ]; then
    echo "$0: no $lib: build blst first (cd $blst && ./build.sh), or name its libblst.a in BLST_LIB" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF >/dev/null
fi
cmake --build "$build" --target cuzk -j "$(nproc)" >/dev/null
mkdir -p "$build/bin"
${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE -I"$root/include" -I"$blst/bindings" "$root/tools/bench/blst/vs_blst.c" \
    "$build/lib/libcuzk.a" "$lib" -lcrypto -lpthread -o "$build/bin/cuzk-vs-blst"
load=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "{\"name\": \"setup\", \"blst\": \"$blst\", \"lib\": \"$lib\", \"load\": \"$load\", \"cpu\": \"$cpu\"}"
exec "$build/bin/cuzk-vs-blst" "$@"
