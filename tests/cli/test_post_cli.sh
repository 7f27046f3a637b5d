#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# End-to-end tests of `cuzk circuit` and `cuzk post`: circuit info (counts of every PoSt size, cheap) and pce, a test
# key of the real 2 KiB shapes (cuzk setup --pce), WindowPoSt and WinningPoSt 2 KiB proofs from generated vanilla
# proofs verified from public data, and every bad input with its exit status (0 valid, 1 invalid, 2 error) and message.
# usage: test_post_cli.sh path/to/cuzk path/to/cuzk-post-gen
set -u
CUZK=$(realpath "${1:?usage: test_post_cli.sh path/to/cuzk path/to/cuzk-post-gen}")
GEN=$(realpath "${2:?usage: test_post_cli.sh path/to/cuzk path/to/cuzk-post-gen}")
. "$(dirname "$0")/expect.sh"

# ---- circuit info: one JSON object, counts of every size (COUNT mode, cheap) ----
expect 0 '"constraints": 21866, "inputs": 23, "aux": 22128, "nnz_a": 150262' "info window 2KiB" -- \
    "$CUZK" circuit info --kind window --sector-size 2KiB --json --threads 2
expect 0 '"hash": "[0-9a-f]{64}"' "info has the canonical hash" -- \
    "$CUZK" circuit info --kind window --sector-size 2KiB --json
hash2k=$(grep -oE '"hash": "[0-9a-f]{64}"' out.txt)
expect 0 '"constraints": 90750, "inputs": 133, "aux": 91674' "info winning 2KiB" -- \
    "$CUZK" circuit info --kind winning --sector-size 2KiB --json --no-hash
expect 0 '"constraints": 370590, "inputs": 133, "aux": 375210' "info winning 32GiB" -- \
    "$CUZK" circuit info --kind winning --sector-size 32GiB --json --no-hash
expect 0 '"constraints": 125279217, "inputs": 25840, "aux": 126902376' "info window 32GiB" -- \
    "$CUZK" circuit info --kind window --sector-size 32GiB --json --no-hash
expect 0 '"constraints": 129887900, "inputs": 25301, "aux": 131500200.*"domain": 134217728' "info window 64GiB" -- \
    "$CUZK" circuit info --kind window --sector-size 64GiB --json --no-hash
expect 0 '"registered_proof": "StackedDrgWindow32GiBV1", "api": "V1_0"' "info --api V1_0" -- \
    "$CUZK" circuit info --kind window --sector-size 32GiB --api V1_0 --json --no-hash
expect 0 'constraints  21866' "info as text" -- "$CUZK" circuit info --kind window --sector-size 2KiB --no-hash
for s in 8MiB 512MiB 64GiB; do
    expect 0 '"inputs": 133' "info winning $s" -- "$CUZK" circuit info --kind winning --sector-size $s --json --no-hash
done
for s in 8MiB 512MiB; do
    expect 0 '"inputs": 23' "info window $s" -- "$CUZK" circuit info --kind window --sector-size $s --json --no-hash
done
expect 0 "$hash2k" "the hash through the shape cache" -- \
    "$CUZK" circuit info --kind window --sector-size 2KiB --json --cache cache
expect 0 "" "the cache holds the shape under its key" -- test -f cache/wpost-2k-*.pce
expect 0 "$hash2k" "the hash from the cached file" -- \
    "$CUZK" circuit info --kind window --sector-size 2KiB --json --cache cache
expect 2 "one of winning, window, porep, snap" "unknown kind" -- "$CUZK" circuit info --kind wind --sector-size 2KiB
expect 0 "4ffb13da5826973b2c44ca2e37e5d6557d70b2429a38f260912370ac8788d19a" "porep's pinned hash" -- \
    "$CUZK" circuit info --kind porep --sector-size 2KiB --json
expect 2 "one of 2KiB, 8MiB" "bad size" -- "$CUZK" circuit info --kind window --sector-size 2QiB
expect 2 "no window registered proof for 4KiB" "unregistered size" -- \
    "$CUZK" circuit info --kind window --sector-size 4KiB
expect 2 "under API V1_2" "winning has no V1_2" -- "$CUZK" circuit info --kind winning --sector-size 2KiB --api V1_2
expect 2 "one of V1_0, V1_1, V1_2" "bad api" -- "$CUZK" circuit info --kind window --sector-size 2KiB --api 1.2
expect 2 "missing --kind" "no kind" -- "$CUZK" circuit info --sector-size 2KiB
expect 2 "" "no subcommand" -- "$CUZK" circuit
expect 0 "usage: cuzk circuit info" "circuit --help" -- "$CUZK" circuit --help

# ---- circuit pce, cuzk setup for test keys of the real shapes ----
expect 0 '"constraints": 21866' "pce window 2KiB" -- "$CUZK" circuit pce --kind window --sector-size 2KiB --out w.pce
expect 0 "constraints 21866, inputs 23" "inspect the pce" -- "$CUZK" inspect w.pce
expect 0 "" "setup window" -- "$CUZK" setup --pce w.pce --params w.params --vk w.vk --seed 3 --threads 2
expect 0 '"constraints": 90750' "pce winning 2KiB" -- "$CUZK" circuit pce --kind winning --sector-size 2KiB --out n.pce
expect 0 "" "setup winning" -- "$CUZK" setup --pce n.pce --params n.params --vk n.vk --seed 4 --threads 2
expect 2 "missing --out" "pce without --out" -- "$CUZK" circuit pce --kind window --sector-size 2KiB

# ---- WindowPoSt 2 KiB: two sectors, partition 0 (V1_2) ----
R=1111111111111111111111111111111111111111111111111111111111111111
P=2222222222222222222222222222222222222222222222222222222222222200
mkdir v
"$GEN" 10 v $R 0 77 5 9 >comm.txt || { echo "FAIL: cuzk-post-gen"; exit 1; }
c5=$(awk '$1 == 5 {print $2}' comm.txt)
c9=$(awk '$1 == 9 {print $2}' comm.txt)
expect 0 '"sectors": 2' "prove window" -- "$CUZK" post prove --kind window --sector-size 2KiB \
    --vanilla v/5.vproof v/9.vproof \
    --randomness $R --prover-id $P --sector-id 5 9 --params w.params --pce w.pce --proof w.proof --threads 2
expect 0 "" "192-byte proof" -- test "$(wc -c <w.proof)" -eq 192
expect 0 "^valid" "verify window from comm_r" -- "$CUZK" post verify --kind window --sector-size 2KiB --randomness $R \
    --sector-id 5,9 --comm-r $c5 $c9 --vk w.vk --proof w.proof
expect 0 "^valid" "verify window from the vanilla files" -- "$CUZK" post verify --kind window --sector-size 2KiB \
    --randomness $R --sector-id 5 --sector-id 9 --vanilla v/9.vproof v/5.vproof --vk w.vk --proof w.proof
expect 1 "^invalid" "another randomness" -- "$CUZK" post verify --kind window --sector-size 2KiB \
    --randomness ${R%1}2 --sector-id 5 9 --comm-r $c5 $c9 --vk w.vk --proof w.proof
expect 1 "^invalid" "sectors swapped" -- "$CUZK" post verify --kind window --sector-size 2KiB --randomness $R \
    --sector-id 9 5 --comm-r $c9 $c5 --vk w.vk --proof w.proof
expect 1 "^invalid" "another partition" -- "$CUZK" post verify --kind window --sector-size 2KiB --randomness $R \
    --sector-id 5 9 --comm-r $c5 $c9 --partition 1 --api V1_0 --vk w.vk --proof w.proof
expect 1 "^invalid" "a wrong comm_r" -- "$CUZK" post verify --kind window --sector-size 2KiB --randomness $R \
    --sector-id 5 9 --comm-r $c9 $c9 --vk w.vk --proof w.proof
first=$(od -An -tu1 -N1 w.proof | tr -d ' ')
printf "\\$(printf '%03o' $((first ^ 0x20)))" >neg.proof
tail -c 191 w.proof >>neg.proof
expect 1 "^invalid" "tampered proof" -- "$CUZK" post verify --kind window --sector-size 2KiB --randomness $R \
    --sector-id 5 9 --comm-r $c5 $c9 --vk w.vk --proof neg.proof
# a key directory: the files under their Filecoin names
mkdir keys
wname=$("$CUZK" params list --kinds window --sizes 2KiB | grep -oE 'v28-[^ ]*\.params' | head -1)
cp w.params keys/$wname
cp w.vk keys/${wname%.params}.vk
expect 0 "" "prove with --params DIR and the shape cache" -- "$CUZK" post prove --kind window --sector-size 2KiB \
    --vanilla v/5.vproof --randomness $R --prover-id f01000 --sector-id 5 --params keys --cache cache --proof one.proof
expect 0 "^valid" "one sector padded, --vk DIR" -- "$CUZK" post verify --kind window --sector-size 2KiB \
    --randomness $R \
    --sector-id 5 --comm-r $c5 --vk keys --proof one.proof

# ---- WindowPoSt: partition 1 under V1_0 moves the challenges ----
mkdir v1
"$GEN" 5 v1 $R 1 88 11 >comm1.txt
c11=$(awk '{print $2}' comm1.txt)
expect 0 "" "prove partition 1 (V1_0)" -- "$CUZK" post prove --kind window --sector-size 2KiB --api V1_0 \
    --vanilla v1/11.vproof --randomness $R --prover-id $P --sector-id 11 --partition 1 --params w.params --pce w.pce \
    --proof p1.proof
expect 0 "^valid" "verify partition 1" -- "$CUZK" post verify --kind window --sector-size 2KiB --api V1_0 \
    --randomness $R --sector-id 11 --comm-r $c11 --partition 1 --vk w.vk --proof p1.proof
expect 2 "opens leaf [0-9]+, not the challenged leaf" "the same proof as partition 0" -- "$CUZK" post prove \
    --kind window --sector-size 2KiB --api V1_0 --vanilla v1/11.vproof --randomness $R --prover-id $P --sector-id 11 \
    --params w.params --pce w.pce --proof x.proof

# ---- WinningPoSt 2 KiB ----
mkdir n
"$GEN" 0 n $R 0 99 42 >commn.txt
c42=$(awk '{print $2}' commn.txt)
expect 0 "" "prove winning" -- "$CUZK" post prove --kind winning --sector-size 2KiB --vanilla n/42.vproof \
    --randomness $R --prover-id $P --sector-id 42 --params n.params --pce n.pce --proof n.proof
expect 0 "^valid" "verify winning" -- "$CUZK" post verify --kind winning --sector-size 2KiB --randomness $R \
    --sector-id 42 --comm-r $c42 --vk n.vk --proof n.proof
expect 1 "^invalid" "winning, another sector id" -- "$CUZK" post verify --kind winning --sector-size 2KiB \
    --randomness $R --sector-id 43 --comm-r $c42 --vk n.vk --proof n.proof
expect 2 "a key for 23 inputs, StackedDrgWinning2KiBV1 has 133" "the window key for a winning proof" -- \
    "$CUZK" post verify --kind winning --sector-size 2KiB --randomness $R --sector-id 42 --comm-r $c42 --vk w.vk \
    --proof n.proof
expect 2 "StackedDrgWinning2KiBV1 proves 1 sector per partition, got 2" "winning with two sectors" -- \
    "$CUZK" post prove --kind winning --sector-size 2KiB --vanilla n/42.vproof n/42.vproof --randomness $R \
    --prover-id $P --sector-id 42 43 --params n.params --proof x.proof

# ---- bad inputs: exit 2, each named ----
PW=(post prove --kind window --sector-size 2KiB --randomness $R --prover-id $P --params w.params --pce w.pce
    --proof x.proof)
expect 2 "no vanilla proof for it" "a sector without its vanilla proof" -- \
    "$CUZK" "${PW[@]}" --vanilla v/5.vproof v/9.vproof --sector-id 5 6
expect 2 "1 vanilla proofs for 2 sectors" "fewer vanilla proofs" -- \
    "$CUZK" "${PW[@]}" --vanilla v/5.vproof --sector-id 5 9
expect 2 "v/nope.vproof.*cannot open" "a missing file" -- "$CUZK" "${PW[@]}" --vanilla v/nope.vproof --sector-id 5
head -c 1000 v/5.vproof >cut.vproof
expect 2 "cut.vproof: .*truncated" "a truncated vanilla proof" -- "$CUZK" "${PW[@]}" --vanilla cut.vproof --sector-id 5
cp v/5.vproof flip.vproof
printf '\x55' | dd of=flip.vproof bs=1 seek=3000 conv=notrunc 2>/dev/null
expect 2 "" "a flipped byte in a sibling" -- "$CUZK" "${PW[@]}" --vanilla flip.vproof --sector-id 5
expect 2 "winning.vproof|inclusion_proofs: expected 10 found 66" "a winning vanilla proof for window" -- \
    "$CUZK" "${PW[@]}" --vanilla n/42.vproof --sector-id 42
expect 2 "64 hex digits" "short randomness" -- "$CUZK" post prove --kind window --sector-size 2KiB --randomness 1234 \
    --prover-id $P --vanilla v/5.vproof --sector-id 5 --params w.params --proof x.proof
expect 2 "randomness is not below the field modulus" "randomness >= r" -- "$CUZK" post prove --kind window \
    --sector-size 2KiB --randomness ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff --prover-id $P \
    --vanilla v/5.vproof --sector-id 5 --params w.params --proof x.proof
expect 2 "prover id is not below r" "prover id >= r" -- "$CUZK" post prove --kind window --sector-size 2KiB \
    --randomness $R --prover-id ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff --vanilla v/5.vproof \
    --sector-id 5 --params w.params --pce w.pce --proof x.proof
expect 2 "--prover-id 'f0x'" "bad prover id" -- "$CUZK" post prove --kind window --sector-size 2KiB --randomness $R \
    --prover-id f0x --vanilla v/5.vproof --sector-id 5 --params w.params --proof x.proof
expect 2 "--sector-id 'x5'" "bad sector id" -- "$CUZK" "${PW[@]}" --vanilla v/5.vproof --sector-id x5
expect 2 "missing --sector-id" "no sector ids" -- "$CUZK" "${PW[@]}" --vanilla v/5.vproof
expect 2 "option '--vanilla' needs a value" "empty --vanilla" -- "$CUZK" "${PW[@]}" --vanilla --sector-id 5
expect 2 "unknown option '--foo'" "unknown option" -- "$CUZK" "${PW[@]}" --foo 1
expect 2 "option '--params' given twice" "repeated option" -- \
    "$CUZK" "${PW[@]}" --params w.params --vanilla v/5.vproof --sector-id 5
expect 2 "n.pce: 90750 constraints and 133 inputs, StackedDrgWindow2KiBV1_2's circuit has 21866 and 23" \
    "a shape of another circuit" -- "$CUZK" post prove --kind window --sector-size 2KiB --randomness $R --prover-id $P \
    --vanilla v/5.vproof --sector-id 5 --params w.params --pce n.pce --proof x.proof
expect 2 "n.params: .*key has 133 inputs, circuit 23" "a key of another circuit" -- \
    "$CUZK" post prove --kind window --sector-size 2KiB --randomness $R --prover-id $P --vanilla v/5.vproof \
    --sector-id 5 --params n.params --pce w.pce --proof x.proof
expect 2 "nope.params.*cannot open" "a missing key" -- "$CUZK" post prove --kind window --sector-size 2KiB \
    --randomness $R --prover-id $P --vanilla v/5.vproof --sector-id 5 --params nope.params --pce w.pce --proof x.proof
expect 2 "--kind 'porep': winning or window" "post of another kind" -- \
    "$CUZK" post prove --kind porep --sector-size 2KiB
expect 2 "2 --comm-r values for 1 sectors" "comm_r count" -- "$CUZK" post verify --kind window --sector-size 2KiB \
    --randomness $R --sector-id 5 --comm-r $c5 $c9 --vk w.vk --proof w.proof
expect 2 "--comm-r and --vanilla: give one of them" "both comm_r sources" -- "$CUZK" post verify --kind window \
    --sector-size 2KiB --randomness $R --sector-id 5 --comm-r $c5 --vanilla v/5.vproof --vk w.vk --proof w.proof
expect 2 "comm_r is not below r" "comm_r >= r" -- "$CUZK" post verify --kind window --sector-size 2KiB \
    --randomness $R --sector-id 5 --comm-r ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff --vk w.vk \
    --proof w.proof
expect 2 "sector 7: none of the vanilla proofs is for it" "verify: a sector without its file" -- "$CUZK" post verify \
    --kind window --sector-size 2KiB --randomness $R --sector-id 7 --vanilla v/5.vproof --vk w.vk --proof w.proof
head -c 100 w.proof >short.proof
expect 2 "short.proof" "a short proof file" -- "$CUZK" post verify --kind window --sector-size 2KiB --randomness $R \
    --sector-id 5 9 --comm-r $c5 $c9 --vk w.vk --proof short.proof
expect 2 "" "no subcommand" -- "$CUZK" post
expect 0 "usage: cuzk post prove" "post --help" -- "$CUZK" post --help
expect 0 "usage: cuzk post prove" "post prove --help" -- "$CUZK" post prove --help

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
