#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Interop checks between cuzk and snarkjs on the fixtures made by make-fixtures.sh.
#
#   tests/interop/run-interop.sh CUZK_BIN_DIR [CACHE_DIR] [CIRCUIT ...]
#
# CUZK_BIN_DIR holds the `cuzk` CLI (build/bin; tests/interop/shims holds a snarkjs-backed test double for testing this
# script itself). CACHE_DIR defaults to build/interop; the fixtures are (re)made there first, which is a no-op when
# they are up to date. Per circuit:
#   prove            cuzk prove exits 0 and writes proof.json/public.json
#   public-matches   cuzk's public.json equals snarkjs's
#   snarkjs-accepts  snarkjs groth16 verify accepts cuzk's proof
#   prove-rs         cuzk prove --r 1 --s 2 (fixed blinders) gives a proof snarkjs accepts
#   verify-own       cuzk verify accepts cuzk's proof
#   verify-snarkjs   cuzk verify accepts snarkjs's own proof
#   bad-witness      cuzk prove exits 1 and writes nothing for the witness with one bit flipped in its middle byte
#                    (the proof it would make does not verify); with --r1cs the message names the failing constraint
#   reject-*         cuzk verify exits 1 (not 0, not 2) on snarkjs's proof with a public signal changed, pi_a doubled,
#                    pi_a replaced by the G1 generator, pi_b doubled, pi_c doubled
# One line per check (PASS/FAIL), then "N passed, M failed"; exit status 1 when any check failed.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ "$#" -ge 1 ] || { echo "usage: $0 CUZK_BIN_DIR [CACHE_DIR] [CIRCUIT ...]" >&2; exit 2; }
cuzk="$(cd "$1" && pwd)/cuzk"
cache="${2:-$root/build/interop}"
shift 2 2>/dev/null || shift
if [ "$#" -gt 0 ]; then circuits=("$@"); else circuits=(multiplier mulchain_1000 manypub sha256_4); fi
[ -x "$cuzk" ] || { echo "no cuzk executable at $cuzk" >&2; exit 2; }

"$here/make-fixtures.sh" "$cache" "${circuits[@]}" || { echo "making the fixtures failed" >&2; exit 2; }
cache="$(cd "$cache" && pwd)"
snarkjs="$here/node_modules/.bin/snarkjs"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
# check NAME DETAIL CONDITION...: runs CONDITION, prints PASS/FAIL NAME (DETAIL on failure) and counts it.
check() {
  local name="$1" detail="$2" t0 t1
  shift 2
  t0=$(date +%s.%N)
  if "$@" >"$tmp/check.log" 2>&1; then
    t1=$(date +%s.%N)
    passed=$((passed + 1))
    printf 'PASS %-40s %6.2f s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
  else
    failed=$((failed + 1))
    echo "FAIL $name: $detail"
    sed 's/^/     | /' "$tmp/check.log" | tail -n 15
  fi
}
# expect_rc WANT CMD...: true when CMD exits with status WANT.
expect_rc() {
  local want="$1" rc
  shift
  "$@"
  rc=$?
  [ "$rc" -eq "$want" ] || { echo "exit status $rc, expected $want"; return 1; }
}
same_json() {
  node -e 'const fs = require("fs"), [a, b] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f)));
    if (JSON.stringify(a) !== JSON.stringify(b)) { console.log("got", a, "\nwant", b); process.exit(1); }' "$1" "$2"
}
snarkjs_verify() { "$snarkjs" groth16 verify "$1" "$2" "$3"; }

for c in "${circuits[@]}"; do
  d="$cache/$c"
  o="$tmp/$c"
  mkdir -p "$o"
  vk="$d/verification_key.json"

  check "$c/prove" "cuzk prove failed" \
    "$cuzk" prove --zkey "$d/$c.zkey" --wtns "$d/witness.wtns" --proof "$o/proof.json" --public "$o/public.json"
  if [ -s "$o/proof.json" ] && [ -s "$o/public.json" ]; then
    check "$c/public-matches" "cuzk's public.json differs from snarkjs's" same_json "$o/public.json" "$d/public.json"
    check "$c/snarkjs-accepts" "snarkjs groth16 verify rejected cuzk's proof" \
      snarkjs_verify "$vk" "$o/public.json" "$o/proof.json"
    check "$c/verify-own" "cuzk verify rejected cuzk's proof" \
      expect_rc 0 "$cuzk" verify --vk "$vk" --public "$o/public.json" --proof "$o/proof.json"
  else
    for k in public-matches snarkjs-accepts verify-own; do
      check "$c/$k" "no proof.json/public.json from cuzk prove" false
    done
  fi
  check "$c/prove-rs" "cuzk prove --r 1 --s 2: failed or snarkjs rejected it" sh -c '
    "$1" prove --zkey "$2" --wtns "$3" --proof "$4/proof_rs.json" --public "$4/public_rs.json" --r 1 --s 2 &&
    "$5" groth16 verify "$6" "$4/public_rs.json" "$4/proof_rs.json"' sh \
    "$cuzk" "$d/$c.zkey" "$d/witness.wtns" "$o" "$snarkjs" "$vk"
  check "$c/verify-snarkjs" "cuzk verify rejected snarkjs's proof" \
    expect_rc 0 "$cuzk" verify --vk "$vk" --public "$d/public.json" --proof "$d/proof.json"

  # one bit of the witness's middle byte flipped (the value stays below r, a constraint no longer holds); where the
  # middle falls on ONE or a public signal (a witness of a few values), the last value's lowest byte instead
  node -e 'const fs = require("fs"), b = fs.readFileSync(process.argv[1]);
    const npub = JSON.parse(fs.readFileSync(process.argv[3])).length, mid = b.length >> 1;
    b[mid >= 76 + 32 * (npub + 1) ? mid : b.length - 32] ^= 1;
    fs.writeFileSync(process.argv[2], b)' "$d/witness.wtns" "$o/flipped.wtns" "$d/public.json"
  check "$c/bad-witness" "cuzk prove of a flipped witness did not exit 1, or wrote a file" sh -c '
    "$1" prove --zkey "$2" --wtns "$3" --proof "$4/bad_proof.json" --public "$4/bad_public.json"; rc=$?
    [ "$rc" -eq 1 ] && [ ! -e "$4/bad_proof.json" ] && [ ! -e "$4/bad_public.json" ] || { echo "exit $rc"; exit 1; }
    "$1" prove --zkey "$2" --r1cs "$5" --wtns "$3" --proof "$4/bad_proof.json" --public "$4/bad_public.json" \
      >"$4/bad.log" 2>&1; rc=$?; cat "$4/bad.log"
    [ "$rc" -eq 1 ] && grep -q "does not satisfy constraint row" "$4/bad.log"' sh \
    "$cuzk" "$d/$c.zkey" "$o/flipped.wtns" "$o" "$d/$c.r1cs"

  if node "$here/lib/tamper.mjs" public-inc "$d/public.json" "$o/public_bad.json"; then
    check "$c/reject-public" "cuzk verify did not reject a changed public signal" \
      expect_rc 1 "$cuzk" verify --vk "$vk" --public "$o/public_bad.json" --proof "$d/proof.json"
  else
    check "$c/reject-public" "could not make the tampered public.json" false
  fi
  for k in pi_a-double pi_a-generator pi_b-double pi_c-double; do
    if node "$here/lib/tamper.mjs" "$k" "$d/proof.json" "$o/proof_$k.json"; then
      check "$c/reject-$k" "cuzk verify did not reject the proof with $k" \
        expect_rc 1 "$cuzk" verify --vk "$vk" --public "$d/public.json" --proof "$o/proof_$k.json"
    else
      check "$c/reject-$k" "could not make the tampered proof.json" false
    fi
  done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
