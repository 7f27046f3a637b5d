#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Builds the snarkjs/circom interop fixtures: for each circuit, circom2 compiles it for BLS12-381, snarkjs makes a
# prepared powers-of-tau file (made by `cuzk ptau` above power 12, see step 2), the Groth16 zkey (setup + one
# contribution), verification_key.json, the witness, and its own proof (which it then verifies).
#
#   tests/interop/make-fixtures.sh [CACHE_DIR] [CIRCUIT ...]
#
# CACHE_DIR defaults to build/interop (relative to the repository root). CIRCUIT names are file stems in
# tests/interop/circuits/ (NAME.circom is the main component, NAME.input.json its input); the default is the CI set.
# Output, per circuit, in CACHE_DIR/NAME/:
#   NAME.r1cs NAME.sym NAME_js/NAME.wasm NAME_0000.zkey NAME.zkey verification_key.json witness.wtns
#   proof.json public.json (snarkjs's own proof)     and CACHE_DIR/ptau/{snarkjs,cuzk}P.ptau (shared).
# A step is skipped when its outputs are newer than its inputs, so a second run only checks timestamps.
# Each step prints its wall time.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${1:-$root/build/interop}"
shift || true
if [ "$#" -gt 0 ]; then circuits=("$@"); else circuits=(multiplier mulchain_1000 manypub sha256_4); fi

mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"

if [ ! -x "$here/node_modules/.bin/snarkjs" ] || [ ! -x "$here/node_modules/.bin/circom2" ] \
   || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  echo "[npm] installing the pinned oracles (npm ci) in $here"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
snarkjs="$here/node_modules/.bin/snarkjs"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# fresh OUT IN...: true when OUT exists and is newer than every IN.
fresh() {
  local out="$1" in
  shift
  [ -e "$out" ] || return 1
  for in in "$@"; do [ "$in" -nt "$out" ] && return 1; done
  return 0
}

# step LABEL CMD...: runs CMD quietly (its output goes to the log, shown on failure) and prints the time.
step() {
  local label="$1" t0 log
  shift
  t0=$(now)
  log="$cache/.last-step.log"
  if ! "$@" >"$log" 2>&1; then
    echo "$label FAILED after $(elapsed "$t0") s: $*" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  echo "$label $(elapsed "$t0") s"
}

# The local .circom files a circuit depends on: itself and, transitively, its includes found in circuits/.
circom_deps() {
  local todo=("$1") seen=() f inc
  while [ "${#todo[@]}" -gt 0 ]; do
    f="${todo[0]}"
    todo=("${todo[@]:1}")
    case " ${seen[*]-} " in *" $f "*) continue ;; esac
    seen+=("$f")
    while IFS= read -r inc; do
      [ -f "$here/circuits/$inc" ] && todo+=("$here/circuits/$inc")
    done < <(sed -n 's/^[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
  done
  printf '%s\n' "${seen[@]}"
}

# The power of two the Groth16 domain of an .r1cs needs: log2floor(m + nPublic) + 1, as snarkjs computes it.
r1cs_power() {
  node -e '
    const b = require("fs").readFileSync(process.argv[1]);
    if (b.toString("latin1", 0, 4) !== "r1cs") throw new Error("not an r1cs file");
    let p = 12;
    const nSect = b.readUInt32LE(8);
    for (let i = 0; i < nSect; i++) {
      const type = b.readUInt32LE(p), size = Number(b.readBigUInt64LE(p + 4));
      p += 12;
      if (type === 1) {
        const n8 = b.readUInt32LE(p), h = p + 4 + n8;
        const nPub = b.readUInt32LE(h + 4) + b.readUInt32LE(h + 8), m = b.readUInt32LE(h + 24);
        console.log(Math.floor(Math.log2(m + nPub)) + 1);
        process.exit(0);
      }
      p += size;
    }
    throw new Error("no header section");' "$1"
}

echo "cache: $cache"
lock="$here/package-lock.json"

# 1. Compile every circuit and note the power of two its domain needs.
declare -A power
for c in "${circuits[@]}"; do
  src="$here/circuits/$c.circom"
  [ -f "$src" ] || { echo "no such circuit: $src" >&2; exit 1; }
  d="$cache/$c"
  mkdir -p "$d"
  mapfile -t deps < <(circom_deps "$src")
  if fresh "$d/$c.r1cs" "${deps[@]}" "$lock" && fresh "$d/${c}_js/$c.wasm" "${deps[@]}" "$lock"; then
    echo "[$c] compile: up to date"
  else
    # circom2 runs as WASI with only the working directory and its parents preopened: it resolves relative paths
    # but not absolute ones, so run it from tests/interop with relative paths.
    step "[$c] compile:" sh -c 'cd "$1" && shift && exec "$@"' sh "$here" node_modules/.bin/circom2 \
      "circuits/$c.circom" --r1cs --wasm --sym --prime bls12381 -l node_modules -l circuits \
      -o "$(realpath --relative-to="$here" "$d")"
  fi
  power[$c]=$(r1cs_power "$d/$c.r1cs")
  echo "[$c] needs power ${power[$c]}"
done

# 2. Prepared ptau files. snarkjs runs its own ceremony (new, contribute, prepare phase2) for the circuits of power up
# to SNARKJS_PTAU_MAX (default 12). Its prepare phase2 grows about 2.5x per power (30 min at power 15 on this machine
# kind), so larger circuits use a ptau that cuzk writes from a known tau (`cuzk ptau`, byte-identical to what
# snarkjs's prepare phase2 makes of the same powers, where compared); snarkjs still makes their zkeys, witnesses and
# proofs. Each kind is made once, at the largest power its circuits need, unless a large enough one is cached.
snarkjs_max=${SNARKJS_PTAU_MAX:-12}
cuzk="${CUZK:-$root/build/bin/cuzk}"
ptdir="$cache/ptau"
mkdir -p "$ptdir"
small=0
large=0
for c in "${circuits[@]}"; do
  p=${power[$c]}
  if [ "$p" -le "$snarkjs_max" ]; then
    [ "$p" -gt "$small" ] && small=$p
  else
    [ "$p" -gt "$large" ] && large=$p
  fi
done

# cached_ptau PREFIX FROM TO: the smallest cached PREFIX<p>.ptau with FROM <= p <= TO.
cached_ptau() {
  local p
  for p in $(seq "$2" "$3"); do
    if [ -s "$ptdir/$1$p.ptau" ]; then echo "$ptdir/$1$p.ptau"; return; fi
  done
}

ptau_small=""
if [ "$small" -gt 0 ]; then
  ptau_small=$(cached_ptau snarkjs "$small" "$snarkjs_max")
  if [ -n "$ptau_small" ]; then
    echo "[ptau] using $ptau_small"
  else
    p=$small
    step "[ptau] snarkjs powersoftau new bls12381 $p:" "$snarkjs" powersoftau new bls12381 "$p" "$ptdir/pot${p}_0000.ptau"
    step "[ptau] snarkjs powersoftau contribute:" "$snarkjs" powersoftau contribute "$ptdir/pot${p}_0000.ptau" \
      "$ptdir/pot${p}_0001.ptau" --name="cuzk interop" -e="cuzk interop fixture entropy (not secret)"
    step "[ptau] snarkjs powersoftau prepare phase2:" "$snarkjs" powersoftau prepare phase2 \
      "$ptdir/pot${p}_0001.ptau" "$ptdir/snarkjs$p.ptau.tmp"
    mv "$ptdir/snarkjs$p.ptau.tmp" "$ptdir/snarkjs$p.ptau"
    rm -f "$ptdir/pot${p}_0000.ptau" "$ptdir/pot${p}_0001.ptau"
    ptau_small="$ptdir/snarkjs$p.ptau"
  fi
fi
ptau_large=""
if [ "$large" -gt 0 ]; then
  ptau_large=$(cached_ptau cuzk "$large" 28)
  if [ -n "$ptau_large" ]; then
    echo "[ptau] using $ptau_large"
  else
    [ -x "$cuzk" ] || { echo "power $large needs $cuzk (build cuzk first, or set CUZK)" >&2; exit 1; }
    p=$large
    step "[ptau] cuzk ptau --power $p:" "$cuzk" ptau --power "$p" --seed 1 --out "$ptdir/cuzk$p.ptau.tmp"
    mv "$ptdir/cuzk$p.ptau.tmp" "$ptdir/cuzk$p.ptau"
    ptau_large="$ptdir/cuzk$p.ptau"
  fi
fi

# 3. Per circuit: zkey, verification key, witness, snarkjs's own proof.
for c in "${circuits[@]}"; do
  d="$cache/$c"
  if [ "${power[$c]}" -le "$snarkjs_max" ]; then ptau=$ptau_small; else ptau=$ptau_large; fi
  if fresh "$d/${c}_0000.zkey" "$d/$c.r1cs" "$ptau"; then
    echo "[$c] groth16 setup: up to date"
  else
    step "[$c] groth16 setup:" "$snarkjs" groth16 setup "$d/$c.r1cs" "$ptau" "$d/${c}_0000.zkey"
  fi
  if fresh "$d/$c.zkey" "$d/${c}_0000.zkey"; then
    echo "[$c] zkey contribute: up to date"
  else
    step "[$c] zkey contribute:" "$snarkjs" zkey contribute "$d/${c}_0000.zkey" "$d/$c.zkey" \
      --name="cuzk interop" -e="cuzk interop zkey entropy (not secret)"
  fi
  if fresh "$d/verification_key.json" "$d/$c.zkey"; then
    echo "[$c] export verificationkey: up to date"
  else
    step "[$c] export verificationkey:" "$snarkjs" zkey export verificationkey "$d/$c.zkey" "$d/verification_key.json"
  fi
  input="$here/circuits/$c.input.json"
  if fresh "$d/witness.wtns" "$d/${c}_js/$c.wasm" "$input"; then
    echo "[$c] wtns calculate: up to date"
  else
    cp "$input" "$d/input.json"
    step "[$c] wtns calculate:" "$snarkjs" wtns calculate "$d/${c}_js/$c.wasm" "$input" "$d/witness.wtns"
  fi
  if fresh "$d/proof.json" "$d/$c.zkey" "$d/witness.wtns" && fresh "$d/public.json" "$d/$c.zkey" "$d/witness.wtns"; then
    echo "[$c] groth16 prove (snarkjs): up to date"
  else
    rm -f "$d/proof.json" "$d/public.json"
    step "[$c] groth16 prove (snarkjs):" "$snarkjs" groth16 prove "$d/$c.zkey" "$d/witness.wtns" \
      "$d/proof.tmp.json" "$d/public.tmp.json"
    step "[$c] groth16 verify (snarkjs):" "$snarkjs" groth16 verify "$d/verification_key.json" \
      "$d/public.tmp.json" "$d/proof.tmp.json"
    case "$c" in
      sha256_*)   # the circuit's public output must be the real SHA-256 of the input bytes
        step "[$c] digest matches node's sha256:" node -e '
          const fs = require("fs");
          const bytes = Buffer.from(JSON.parse(fs.readFileSync(process.argv[1])).in.map(Number));
          const h = require("crypto").createHash("sha256").update(bytes).digest("hex");
          const want = [BigInt("0x" + h.slice(0, 32)).toString(), BigInt("0x" + h.slice(32)).toString()];
          const got = JSON.parse(fs.readFileSync(process.argv[2]));
          if (JSON.stringify(got) !== JSON.stringify(want)) {
            console.error("public", got, "expected", want); process.exit(1);
          }' "$input" "$d/public.tmp.json" ;;
    esac
    mv "$d/proof.tmp.json" "$d/proof.json"
    mv "$d/public.tmp.json" "$d/public.json"
  fi
done
rm -f "$cache/.last-step.log"
echo "fixtures ready in $cache: ${circuits[*]}"
