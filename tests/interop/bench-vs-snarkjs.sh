#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Proves the same circom circuits with `snarkjs groth16 prove` and with `cuzk prove`, in one run, and prints one JSON
# line per circuit:
#   {"name": "prove_vs_snarkjs", "circuit": C, "constraints": m, "snarkjs_s": S, "cuzk_s": K, "ratio": S/K}
# ratio > 1 means cuzk is faster. Times are wall-clock seconds of the whole CLI call (process start, reading the
# zkey and witness, proving, writing the JSON), the minimum over REPS runs (default 1). Each cuzk proof is then
# checked with `snarkjs groth16 verify` (not timed); a rejected proof makes the script fail.
#
#   tests/interop/bench-vs-snarkjs.sh CUZK_BIN_DIR [CACHE_DIR] [CIRCUIT ...]
#
# CACHE_DIR defaults to ~/.cache/cuzk-interop: the fixtures (power 15 and 16 ptau from `cuzk ptau`, snarkjs's setup of
# a 65,000-constraint circuit: minutes) are made once by make-fixtures.sh on the first run and kept outside the
# repository.
# CIRCUIT defaults to mulchain_65000 (65,000 multiplications, domain 2^16, dense witness) and sha256_32 (circomlib
# SHA-256 of 32 bytes, domain 2^15, mostly bits).
# For reference, snarkjs 0.7.6 on the 2-core CI machine: ~9.0 s for mulchain_65000, ~1.5 s for sha256 over 32 bytes.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
[ "$#" -ge 1 ] || { echo "usage: $0 CUZK_BIN_DIR [CACHE_DIR] [CIRCUIT ...]" >&2; exit 2; }
cuzk="$(cd "$1" && pwd)/cuzk"
cache="${2:-${XDG_CACHE_HOME:-$HOME/.cache}/cuzk-interop}"
shift 2 2>/dev/null || shift
if [ "$#" -gt 0 ]; then circuits=("$@"); else circuits=(mulchain_65000 sha256_32); fi
reps="${REPS:-1}"
[ -x "$cuzk" ] || { echo "no cuzk executable at $cuzk" >&2; exit 2; }

CUZK="${CUZK:-$cuzk}" "$here/make-fixtures.sh" "$cache" "${circuits[@]}" >&2
cache="$(cd "$cache" && pwd)"
snarkjs="$here/node_modules/.bin/snarkjs"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# best_time CMD...: runs CMD REPS times (output to $tmp/cmd.log), prints the smallest wall time in seconds.
best_time() {
  local best="" t0 t1 i
  for i in $(seq "$reps"); do
    t0=$(date +%s.%N)
    if ! "$@" >"$tmp/cmd.log" 2>&1; then
      echo "failed: $*" >&2
      cat "$tmp/cmd.log" >&2
      return 1
    fi
    t1=$(date +%s.%N)
    best=$(awk -v a="$t0" -v b="$t1" -v best="$best" 'BEGIN { t = b - a; if (best == "" || t < best) best = t; print best }')
  done
  echo "$best"
}

constraints() {
  node -e '
    const b = require("fs").readFileSync(process.argv[1]);
    let p = 12;
    for (let i = 0, n = b.readUInt32LE(8); i < n; i++) {
      const type = b.readUInt32LE(p), size = Number(b.readBigUInt64LE(p + 4));
      p += 12;
      if (type === 1) { console.log(b.readUInt32LE(p + 4 + b.readUInt32LE(p) + 24)); process.exit(0); }
      p += size;
    }' "$1"
}

for c in "${circuits[@]}"; do
  d="$cache/$c"
  s=$(best_time "$snarkjs" groth16 prove "$d/$c.zkey" "$d/witness.wtns" "$tmp/sj_proof.json" "$tmp/sj_public.json")
  k=$(best_time "$cuzk" prove --zkey "$d/$c.zkey" --wtns "$d/witness.wtns" --proof "$tmp/cz_proof.json" \
    --public "$tmp/cz_public.json")
  if ! "$snarkjs" groth16 verify "$d/verification_key.json" "$tmp/cz_public.json" "$tmp/cz_proof.json" \
      >"$tmp/verify.log" 2>&1; then
    echo "snarkjs groth16 verify rejected cuzk's proof for $c" >&2
    cat "$tmp/verify.log" >&2
    exit 1
  fi
  awk -v c="$c" -v m="$(constraints "$d/$c.r1cs")" -v s="$s" -v k="$k" 'BEGIN {
    printf "{\"name\": \"prove_vs_snarkjs\", \"circuit\": \"%s\", \"constraints\": %d, \"snarkjs_s\": %.3f, \"cuzk_s\": %.3f, \"ratio\": %.2f}\n",
      c, m, s, k, s / k }'
done
