#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# PoRep C2 end to end through the CLI at 2 KiB: a test sector's C1 (cuzk porep test-c1), the circuit's shape
# (cuzk circuit pce), a test key (cuzk setup), cuzk porep prove (the C1 checked, every partition proved, verified,
# written) and cuzk porep verify from public data, with the exit statuses (0 valid, 1 invalid, 2 error) and the
# messages of refused inputs. The key of the 2^22 domain takes minutes to make, so it is kept in KEYDIR and made
# again only when the circuit's .pce changes.
# usage: test_cli_porep.sh path/to/cuzk KEYDIR
set -u
CUZK=$(realpath "${1:?usage: test_cli_porep.sh path/to/cuzk KEYDIR}")
KEYDIR=${2:?usage: test_cli_porep.sh path/to/cuzk KEYDIR}
mkdir -p "$KEYDIR"
KEYDIR=$(realpath "$KEYDIR")
. "$(dirname "$0")/expect.sh"

field() { sed -n "s/.*\"$1\": \"\\([0-9a-f]*\\)\".*/\\1/p" pub.json; }

TK=0303030303030303030303030303030303030303030303030303030303030300
SD=0505050505050505050505050505050505050505050505050505050505050505

# ---- help and the circuit's sizes ----
for sub in prove verify check test-c1; do
    expect 0 "^usage: cuzk porep $sub" "porep $sub --help" -- "$CUZK" porep $sub --help
done
expect 0 "^usage: cuzk porep SUBCOMMAND" "porep --help" -- "$CUZK" porep --help
expect 0 "^usage: cuzk circuit info" "circuit --help" -- "$CUZK" circuit --help
expect 0 '"registered_proof": "StackedDrg2KiBV1_1", .*"constraints": 2687921, "inputs": 40, "aux": 2685673, .*'\
'"domain": 4194304, "hash": "4ffb13da5826973b2c44ca2e37e5d6557d70b2429a38f260912370ac8788d19a"' \
    "circuit info 2KiB" -- "$CUZK" circuit info --kind porep --sector-size 2KiB --json --threads 2
expect 0 '"registered_proof": "StackedDrg2KiBV1", .*"constraints": 2687921, .*"hash": null' \
    "circuit info 2KiB API V1_0" -- "$CUZK" circuit info --kind porep --sector-size 2KiB --api V1_0 --json --no-hash
expect 2 "V1_2" "circuit info, no such API" -- "$CUZK" circuit info --kind porep --sector-size 2KiB --api V1_2
expect 2 "4KiB" "circuit info, no PoRep of that size" -- "$CUZK" circuit info --kind porep --sector-size 4KiB
expect 2 "usage: cuzk circuit" "circuit draw" -- "$CUZK" circuit draw

# ---- a test sector's C1 ----
expect 0 '"registered_proof": 5, "sector_id": 7' "test-c1, Curio's envelope" -- \
    "$CUZK" porep test-c1 --registered-proof 5 --prover-id f01234 --sector-id 7 --ticket $TK --seed $SD --out c1.json \
    --wrap 1 --threads 2
cp out.txt pub.json
expect 0 '"SectorNum":7' "the envelope names the sector" -- grep -o '"SectorNum":7' c1.json
expect 0 "" "test-c1, bare JSON" -- "$CUZK" porep test-c1 --registered-proof 5 --prover-id f01234 --sector-id 7 \
    --ticket $TK --seed $SD --out bare.json
expect 0 "\"comm_r\": \"$(field comm_r)\"" "check the envelope" -- "$CUZK" porep check --c1 c1.json --prover-id f01234
expect 0 "\"comm_r\": \"$(field comm_r)\"" "check the bare C1" -- "$CUZK" porep check --c1 bare.json \
    --prover-id "$(field prover_id)" --sector-id 7
expect 2 "missing --sector-id" "a bare C1 names no sector" -- "$CUZK" porep check --c1 bare.json --prover-id f01234
expect 2 "replica_id: not the one prover id, sector 8" "check, another sector" -- \
    "$CUZK" porep check --c1 c1.json --prover-id f01234 --sector-id 8
expect 2 "replica_id" "check, another miner" -- "$CUZK" porep check --c1 c1.json --prover-id f01235
expect 2 "the C1 is for StackedDrg2KiBV1_1 \(registered proof 5\), not StackedDrg2KiBV1" "check, another proof" -- \
    "$CUZK" porep check --c1 c1.json --prover-id f01234 --registered-proof 0
# a sibling of challenge 0's tree D path changed: the first byte of its first "hashes" array
n=$(grep -o '"hashes":\[\[[0-9]*' bare.json | head -1 | grep -o '[0-9]*$')
sed "0,/\"hashes\":\[\[$n,/s//\"hashes\":[[$(((n + 1) % 256)),/" bare.json >bad.json
expect 2 "bad.json: .*vanilla_proofs\[0\]\[0\]\.comm_d_proofs: the path does not hash to its root" \
    "check names the field" -- "$CUZK" porep check --c1 bad.json --prover-id f01234 --sector-id 7
expect 2 "sealer takes the 2 KiB, 8 MiB and 512 MiB" "test-c1 of a 32 GiB proof" -- \
    "$CUZK" porep test-c1 --registered-proof 8 --prover-id f01 --sector-id 1 --ticket $TK --seed $SD --out x.json
expect 2 "--prover-id 'f0x' is neither" "bad prover id" -- "$CUZK" porep check --c1 c1.json --prover-id f0x
"$CUZK" porep test-c1 --registered-proof 15 --prover-id f01234 --sector-id 7 --ticket $TK --seed $SD --out ni.json \
    >/dev/null 2>&1
expect 0 "" "an NI-PoRep C1 holds together" -- "$CUZK" porep check --c1 ni.json --prover-id f01234 --sector-id 7
expect 2 "NI-PoRep's C2 output is a SnarkPack aggregate" "porep prove refuses NI-PoRep" -- \
    "$CUZK" porep prove --c1 ni.json --prover-id f01234 --sector-id 7 --params x.params --proof x.proof
expect 2 "--registered-proof 20 is not a registered seal proof" "unknown registered proof" -- \
    "$CUZK" porep test-c1 --registered-proof 20 --prover-id f01 --sector-id 1 --ticket $TK --seed $SD --out x.json

# ---- the shape, the key (kept while the shape stays the same) ----
expect 0 '"constraints": 2687921, "inputs": 40, "aux": 2685673, "hash": "4ffb13da' "circuit pce" -- \
    "$CUZK" circuit pce --kind porep --sector-size 2KiB --out p2k.pce --threads 2
# (the same KEYDIR files as tests/server/test_seal.py's PoRep key: whichever test runs first makes it)
if ! cmp -s p2k.pce "$KEYDIR/porep.pce" || [ ! -s "$KEYDIR/porep.params" ] || [ ! -s "$KEYDIR/porep.vk" ]; then
    rm -f "$KEYDIR/porep.params" "$KEYDIR/porep.vk" "$KEYDIR/porep.pce"
    expect 0 "" "setup on the PoRep shape" -- "$CUZK" setup --pce p2k.pce --params "$KEYDIR/porep.params.tmp" \
        --vk "$KEYDIR/porep.vk" --seed 7 --threads 2
    mv "$KEYDIR/porep.params.tmp" "$KEYDIR/porep.params"
    cp p2k.pce "$KEYDIR/porep.pce"
fi
name=$("$CUZK" params list --json --kinds porep --sizes 2KiB | sed -n 's/.*"file": "\([^"]*\)\.params".*/\1/p')
mkdir -p keys
ln -s "$KEYDIR/porep.params" "keys/$name.params"
ln -s "$KEYDIR/porep.vk" "keys/$name.vk"

# ---- prove and verify ----
expect 0 '"partitions": 1, "bytes": 192, "valid": true' "porep prove, the envelope, keys by directory" -- \
    "$CUZK" porep prove --c1 c1.json --prover-id f01234 --params keys --vk keys --pce p2k.pce --proof p.proof
expect 0 "" "192 bytes written" -- test "$(wc -c <p.proof)" -eq 192
verify() {
    "$CUZK" porep verify --vk keys --registered-proof 5 --prover-id f01234 --ticket $TK --seed $SD \
        --comm-d "$(field comm_d)" --comm-r "$(field comm_r)" "$@"
}
expect 0 "^valid" "porep verify" -- verify --proof p.proof --sector-id 7
expect 1 "^invalid" "porep verify, another sector" -- verify --proof p.proof --sector-id 8
first=$(od -An -tu1 -N1 p.proof | tr -d ' ')
printf "\\$(printf '%03o' $((first ^ 0x20)))" >neg.proof
tail -c 191 p.proof >>neg.proof
expect 1 "^invalid" "porep verify, a changed proof byte" -- verify --proof neg.proof --sector-id 7
head -c 191 p.proof >short.proof
expect 2 "191 bytes, a StackedDrg2KiBV1_1 proof is 1 partitions x 192" "porep verify, short proof" -- \
    verify --proof short.proof --sector-id 7
expect 2 "comm_r: all zero" "porep verify, zero comm_r" -- "$CUZK" porep verify --vk keys --registered-proof 5 \
    --prover-id f01234 --ticket $TK --seed $SD --comm-d "$(field comm_d)" --comm-r "$(printf '0%.0s' {1..64})" \
    --proof p.proof --sector-id 7
expect 2 "bad.json: .*comm_d_proofs: the path does not hash" "porep prove refuses a bad C1 before the key" -- \
    "$CUZK" porep prove --c1 bad.json --prover-id f01234 --sector-id 7 --params nosuch.params --proof x.proof
expect 1 "" "no proof written for a refused C1" -- test -e x.proof
expect 2 "nosuch.params" "porep prove, missing key" -- \
    "$CUZK" porep prove --c1 c1.json --prover-id f01234 --params nosuch.params --proof x.proof
"$CUZK" gen --log2 10 --pce small.pce --wtns small.wtns >/dev/null 2>&1
expect 2 "small.pce: .*the PoRep circuit" "porep prove, the .pce of another circuit" -- \
    "$CUZK" porep prove --c1 c1.json --prover-id f01234 --params keys --pce small.pce --proof x.proof

echo "cli porep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
