#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Rules of the tree that no compiler checks: layers meet only through include/cuzk/*.h, the project speaks of itself
# (no history of sessions or runs in code or docs), and every symbol the libraries export carries the cuzk_ prefix.
# Usage: scripts/check-tree.sh [BUILD_DIR]   (the symbol check needs a build; without one it is skipped)
set -uo pipefail
cd "$(dirname "$0")/.."
fail=0

# 1. Layer walls: a source file reaches another folder only through a public header.
if bad=$(grep -rn --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' --include='*.cc' \
              '#include "\.\./' src); then
  echo "check-tree: cross-folder includes in src/ (use include/cuzk/*.h):"; echo "$bad"; fail=1
fi

# 2. History: docs and comments are reference, not a diary.
if bad=$(grep -rniE '\bsession [0-9]+|\bsession[0-9]+|\brun ?[0-9]{2,}\b|working copy|\.devcopy|\.devbin' \
              src include docs tools tests/*/ README.md --exclude-dir=node_modules --exclude-dir=fixtures); then
  echo "check-tree: lines that narrate sessions or runs:"; echo "$bad" | head -20; fail=1
fi

# 3. Exported symbols: cuzk_ / CUZK_ only (plus what nvcc and the C++ runtime generate in the CUDA libraries: its
#    registration and NVTX hooks, and the C++ names of header-only libraries' templates: cub, thrust, libcu++, nvtx3,
#    toml++).
build=${1:-}
if [ -n "$build" ] && [ -d "$build/lib" ]; then
  for lib in "$build"/lib/libcuzk*.a; do
    case "$(basename "$lib")" in libcuzk_proto.a|libcuzk_testutil.a) continue ;; esac
    names=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 && $2 ~ /[TDBRCGSVW]/ {print $3}')
    bad=$(echo "$names" | grep -vE '^(cuzk_|CUZK_)' |
          grep -vE '^(_Z|__cuda|__nv|__fatbin|DW\.ref\.|InitializeInjectionNvtx|nvtx)' || true)
    ns='(cub|thrust|std|cuda|nvtx3|__gnu_cxx|toml)::'
    bad_cxx=$(echo "$names" | grep '^_Z' | c++filt | sed -E "s/^(typeinfo name|typeinfo|vtable|VTT|guard variable) for //" |
              sed -E "s/^[A-Za-z_][A-Za-z0-9_]* ($ns)/\1/" | grep -vE "^$ns" || true)
    if [ -n "$bad$bad_cxx" ]; then
      echo "check-tree: $(basename "$lib") exports names without the cuzk_ prefix:"
      [ -n "$bad" ] && echo "$bad" | head -20
      [ -n "$bad_cxx" ] && echo "$bad_cxx" | head -20
      fail=1
    fi
  done
else
  echo "check-tree: no build directory given: exported-symbol check skipped"
fi
[ $fail -eq 0 ] && echo "check-tree: ok"
exit $fail
