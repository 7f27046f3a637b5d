#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Puts the license line first in every source file that lacks one (after a #! line where there is one):
#   /* SPDX-License-Identifier: Apache-2.0 OR MIT */   C, C++ and CUDA sources and headers
#   // SPDX-License-Identifier: Apache-2.0 OR MIT      JavaScript (.mjs) and protobuf (.proto)
#   # SPDX-License-Identifier: Apache-2.0 OR MIT       shell, Python and CMake files, and scripts known by their #! line
# A file counts as licensed when its first three lines name an SPDX-License-Identifier (in any comment form).
# Usage: scripts/spdx.sh [--check] [FILE...]
#   (no option)  adds the line where it is missing
#   --check      changes nothing: lists the files that lack it, then a summary line; exit status 1 when any does
# Without FILEs: the files git tracks or would track (untracked, not ignored), except node_modules and fixtures.
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
    echo "spdx.sh: unknown option $1 (try --help)" >&2
    exit 2
    ;;
esac

id='SPDX-License-Identifier: Apache-2.0 OR MIT'

# The comment form a file takes: "c", "slash", "hash", or "" for files this script leaves alone.
form_of()
{
    case "$1" in
    */node_modules/* | node_modules/* | */fixtures/* | fixtures/*) echo "" ;;
    *.c | *.h | *.cc | *.cpp | *.hpp | *.cu | *.cuh) echo c ;;
    *.mjs | *.js | *.proto) echo slash ;;
    *.sh | *.py | *.cmake | CMakeLists.txt | */CMakeLists.txt) echo hash ;;
    *)
        # extensionless scripts: by their #! line
        if [[ "${1##*/}" != *.* ]] && [ -f "$1" ] && head -n 1 "$1" | grep -qE '^#!.*[/ ]((ba|da|z)?sh|python3?)$'; then
            echo hash
        else
            echo ""
        fi
        ;;
    esac
}

if [ $# -gt 0 ]; then
    files=("$@")
else
    mapfile -t files < <(git ls-files --cached --others --exclude-standard | LC_ALL=C sort -u)
fi

missing=0
considered=0
for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    form=$(form_of "$f")
    [ -n "$form" ] || continue
    considered=$((considered + 1))
    if head -n 3 "$f" | grep -q 'SPDX-License-Identifier:'; then
        continue
    fi
    missing=$((missing + 1))
    if [ $check -eq 1 ]; then
        echo "$f"
        continue
    fi
    case $form in
    c) line="/* $id */" ;;
    slash) line="// $id" ;;
    *) line="# $id" ;;
    esac
    tmp=$(mktemp "$f.spdx.XXXXXX")
    if head -c 2 "$f" | grep -q '^#!'; then
        { head -n 1 "$f"; printf '%s\n' "$line"; tail -n +2 "$f"; } >"$tmp"
    else
        { printf '%s\n' "$line"; cat "$f"; } >"$tmp"
    fi
    chmod --reference="$f" "$tmp"
    mv "$tmp" "$f"
done

if [ $check -eq 1 ]; then
    echo "spdx.sh: ${missing} of ${considered} files lack the license line"
    [ $missing -eq 0 ]
else
    echo "spdx.sh: added the license line to ${missing} of ${considered} files"
fi
