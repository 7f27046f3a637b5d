#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# cuzk snap and cuzk circuit end to end on a 1 KiB sector (storage-proofs-update's smallest test size, 1,248,389
# constraints): a native update's vanilla proofs, the circuit's counts, .pce and shape cache entry, a test key from it,
# proofs that verify, and every refusal with its exit status (0 valid, 1 invalid, 2 error) and message. The key
# generation takes minutes on two cores, so the script is its own CTest test, left out of sanitizer builds.
# usage: test_snap.sh path/to/cuzk
set -u
CUZK=$(realpath "${1:?usage: test_snap.sh path/to/cuzk}")
. "$(dirname "$0")/expect.sh"

# flip BIT (a mask) of byte OFF of FILE into OUT
flip() {
    local b
    cp "$1" "$4"
    b=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
    printf "\\$(printf '%03o' $((b ^ $3)))" | dd of="$4" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

J=2
# ---- vanilla proofs and the circuit's counts ----
expect 0 '"partitions": 1, "partition_bytes": 12184' "gen-vanilla 1KiB" -- \
    "$CUZK" snap gen-vanilla --sector-size 1KiB --out v --json v.json --seed 3 --threads $J
cp out.txt gen.json
comm() { sed "s/.*\"$1\": \"\([0-9a-f]*\)\".*/\1/" "${2:-gen.json}"; }
R=$(comm comm_r_old)
D=$(comm comm_d_new)
N=$(comm comm_r_new)
expect 0 "" "one 12,184-byte partition proof" -- test "$(wc -c <v-0.vproof)" -eq 12184
expect 0 '"partitions": 2' "gen-vanilla 16KiB has two partitions" -- \
    "$CUZK" snap gen-vanilla --sector-size 16KiB --out w --seed 4 --threads $J
cp out.txt genw.json
expect 0 '"key": "snap-2k-[0-9a-f]{16}", "constraints": 1705039, "inputs": 5, "aux": 1703569' \
    "circuit info 2KiB (tests/circuit.rs)" -- "$CUZK" circuit info --kind snap --sector-size 2KiB --json --no-hash
# a test size (no registered proof): its shape built into the cache directory, its hash kept for pce below
expect 0 '"EmptySectorUpdate1KiB \(test size\)".*"key": "snap-1k-[0-9a-f]{16}", "constraints": 1248389' \
    "circuit info 1KiB" -- "$CUZK" circuit info --kind snap --sector-size 1KiB --json --cache sc --threads $J
HASH=$(sed -n 's/.*"hash": "\([0-9a-f]*\)".*/\1/p' out.txt)
expect 0 "" "the 1KiB shape stored under its key" -- test -s "$(echo sc/snap-1k-*.pce)"
expect 0 "constraints  1248389" "circuit info 1KiB as text, the shape from the cache" -- \
    "$CUZK" circuit info --kind snap --sector-size 1KiB --cache sc
expect 2 "no snap registered proof or test size for 64KiB sectors" "circuit info of an unknown size" -- \
    "$CUZK" circuit info --kind snap --sector-size 64KiB
expect 2 "no snap registered proof or test size for 1KiB sectors under API V1_2" "a test size under another API" -- \
    "$CUZK" circuit info --kind snap --sector-size 1KiB --api V1_2

# ---- refusals before any key is read (the key path does not exist) ----
REQ=(--comm-r-old "$R" --comm-d-new "$D" --comm-r-new "$N" --sector-size 1KiB --params nosuch.params --proof x.proof)
# byte 329: inside challenge 0's first tree R sibling (comm_c 32, apex leaves 8 + 256, challenges 8, tag 4, path 8+8)
flip v-0.vproof 329 1 bad.vproof
expect 2 "challenge_proofs\[0\]\.proof_r_old does not hash to its root" "a flipped sibling byte" -- \
    "$CUZK" snap prove --vanilla bad.vproof "${REQ[@]}"
flip v-0.vproof 40 1 bad2.vproof
expect 2 "apex_leafs.* do not hash to comm_d_new" "a flipped apex leaf byte" -- \
    "$CUZK" snap prove --vanilla bad2.vproof "${REQ[@]}"
head -c 5000 v-0.vproof >trunc.vproof
expect 2 "trunc.vproof \(partition 0\): .*truncated" "a truncated vanilla proof" -- \
    "$CUZK" snap prove --vanilla trunc.vproof "${REQ[@]}"
expect 2 "2 vanilla proofs, .* has 1 partitions" "one vanilla proof too many" -- \
    "$CUZK" snap prove --vanilla v-0.vproof v-0.vproof "${REQ[@]}"
expect 2 "from comm_r_new" "another request's comm_r_new" -- \
    "$CUZK" snap prove --vanilla v-0.vproof --comm-r-old "$R" --comm-d-new "$D" --comm-r-new "$R" \
    --sector-size 1KiB --params nosuch.params --proof x.proof
expect 2 "--pce and --cache" "both a .pce and a shape cache" -- \
    "$CUZK" snap prove --vanilla v-0.vproof "${REQ[@]}" --pce c.pce --cache sc
expect 2 "comm-d-new 'zz'" "a commitment that is not hex" -- \
    "$CUZK" snap prove --vanilla v-0.vproof --comm-r-old "$R" --comm-d-new zz --comm-r-new "$N" \
    --sector-size 1KiB --params nosuch.params --proof x.proof
expect 2 "not a RegisteredUpdateProof" "an unknown registered proof" -- \
    "$CUZK" snap prove --vanilla v-0.vproof "${REQ[@]}" --registered-proof 9
expect 2 "disagrees with --registered-proof" "a size that is not the registered proof's" -- \
    "$CUZK" snap prove --vanilla v-0.vproof "${REQ[@]}" --registered-proof 3
expect 2 "nosuch.params" "a missing key, reached with valid vanilla proofs" -- \
    "$CUZK" snap prove --vanilla v-0.vproof "${REQ[@]}"
expect 0 "" "no proof written on errors" -- test ! -e x.proof
# commitments as CIDs: the binary form as hex, and the text form (multibase b, base32)
hex2bin() { printf "$(echo "$1" | sed 's/../\\x&/g')"; }
SEALED_R="0182e20381e80220$R"
UNSEALED_D="b$(hex2bin "0181e203922020$D" | base32 | tr -d '=\n' | tr 'A-Z' 'a-z')"
expect 2 "nosuch.params" "commitments given as CIDs" -- \
    "$CUZK" snap prove --vanilla v-0.vproof --comm-r-old "$SEALED_R" --comm-d-new "$UNSEALED_D" --comm-r-new "$N" \
    --sector-size 1KiB --params nosuch.params --proof x.proof
expect 2 "not a Filecoin commitment CID" "a CID of another codec" -- \
    "$CUZK" snap prove --vanilla v-0.vproof --comm-r-old "0181e20381e80220$R" --comm-d-new "$D" --comm-r-new "$N" \
    --sector-size 1KiB --params nosuch.params --proof x.proof

# ---- a test key for the circuit, then proofs ----
expect 0 "\"constraints\": 1248389, \"inputs\": 5, .*\"hash\": \"$HASH\"" "circuit pce 1KiB, the hash info gave" -- \
    "$CUZK" circuit pce --kind snap --sector-size 1KiB --out c.pce --threads $J
expect 0 "" "setup on the circuit's .pce" -- "$CUZK" setup --pce c.pce --params k.params --vk k.vk --seed 5 --threads $J
PROVE=(--comm-r-old "$R" --comm-d-new "$D" --comm-r-new "$N" --sector-size 1KiB --params k.params --threads $J)
expect 0 '"valid": true' "prove from the bincode file" -- \
    "$CUZK" snap prove --vanilla v-0.vproof "${PROVE[@]}" --pce c.pce --proof p.proof
expect 0 "" "192 bytes" -- test "$(wc -c <p.proof)" -eq 192
expect 0 "^valid" "verify" -- "$CUZK" snap verify --vk k.vk --proof p.proof --comm-r-old "$R" --comm-d-new "$D" \
    --comm-r-new "$N" --sector-size 1KiB
expect 0 '"valid": true' "prove from Curio's JSON array, the circuit from the shape cache" -- \
    "$CUZK" snap prove --vanilla v.json "${PROVE[@]}" --cache sc --proof p2.proof
expect 0 "^valid" "verify the second proof" -- "$CUZK" snap verify --vk k.vk --proof p2.proof --comm-r-old "$R" \
    --comm-d-new "$D" --comm-r-new "$N" --sector-size 1KiB
expect 1 "^invalid \(partition 0\)" "verify against another comm_d_new" -- \
    "$CUZK" snap verify --vk k.vk --proof p.proof --comm-r-old "$R" --comm-d-new "$N" --comm-r-new "$N" \
    --sector-size 1KiB
flip p.proof 0 32 neg.proof
expect 1 "^invalid" "verify a proof with A negated" -- "$CUZK" snap verify --vk k.vk --proof neg.proof \
    --comm-r-old "$R" --comm-d-new "$D" --comm-r-new "$N" --sector-size 1KiB
head -c 191 p.proof >short.proof
expect 2 "191 bytes" "verify a short proof" -- "$CUZK" snap verify --vk k.vk --proof short.proof \
    --comm-r-old "$R" --comm-d-new "$D" --comm-r-new "$N" --sector-size 1KiB
expect 2 "k.params and EmptySectorUpdate16KiB.*: " "a key of another circuit" -- \
    "$CUZK" snap prove --vanilla w-0.vproof w-1.vproof --comm-r-old "$(comm comm_r_old genw.json)" \
    --comm-d-new "$(comm comm_d_new genw.json)" --comm-r-new "$(comm comm_r_new genw.json)" --sector-size 16KiB \
    --params k.params --proof y.proof --threads $J
for c in "snap --help" "snap prove --help" "circuit --help"; do
    expect 0 "usage: cuzk" "$c" -- "$CUZK" $c
done

echo "test_snap.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
