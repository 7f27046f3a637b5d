#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Formats the C, C++ and CUDA sources with clang-format and the repository's .clang-format.
# Usage: scripts/format.sh [--check] [FILE...]
#   (no option)  rewrites every file that clang-format would change
#   --check      changes nothing: lists the files that differ with the number of their lines that would change, then a
#                summary line; exit status 1 when any file differs
# Without FILEs: every *.c, *.h, *.cc, *.cu and *.cuh under src, include, tests and tools, except node_modules,
# fixtures and generated protobuf code. Regions that must keep their own layout (inline assembly, macros whose body
# starts with a brace) sit between /* clang-format off */ and /* clang-format on */.
# CLANG_FORMAT names the binary (default: clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [ "${1:-}" = "--check" ]; then
    check=1
    shift
fi
case "${1:-}" in
-h | --help)
    sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
-*)
    echo "format.sh: unknown option $1 (try --help)" >&2
    exit 2
    ;;
esac

cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null; then
    echo "format.sh: $cf not found (Debian: apt-get install clang-format)" >&2
    exit 2
fi

if [ $# -gt 0 ]; then
    files=("$@")
else
    mapfile -t files < <(find src include tests tools \
        \( -name node_modules -o -name fixtures \) -prune -o \
        -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' \) \
        ! -name '*.pb-c.*' -print | LC_ALL=C sort)
fi

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
changed_files=0
changed_lines=0
for f in "${files[@]}"; do
    if [ $check -eq 0 ]; then
        "$cf" --style=file -i "$f"
        continue
    fi
    if ! "$cf" --style=file "$f" >"$tmp"; then
        echo "format.sh: clang-format failed on $f" >&2
        exit 2
    fi
    # lines of the file that the formatted text does not keep as they are
    n=$(diff "$f" "$tmp" | grep -c '^<' || true)
    if [ "$n" -gt 0 ]; then
        printf '%6d %s\n' "$n" "$f"
        changed_files=$((changed_files + 1))
        changed_lines=$((changed_lines + n))
    fi
done

if [ $check -eq 1 ]; then
    echo "format.sh: ${changed_files} of ${#files[@]} files differ, ${changed_lines} lines would change"
    [ $changed_files -eq 0 ]
fi
