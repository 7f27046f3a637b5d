#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# End-to-end tests of the cuzk CLI: gen -> setup -> prove -> verify in both file conventions, tampered and broken
# inputs with their exit statuses (0 valid, 1 invalid, 2 error) and messages, every --help; cuzk-bench's option errors.
# usage: test_cli.sh path/to/cuzk [path/to/cuzk-bench]
set -u
CUZK=$(realpath "${1:?usage: test_cli.sh path/to/cuzk [path/to/cuzk-bench]}")
BENCH=${2:+$(realpath "$2")}
FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
. "$(dirname "$0")/expect.sh"

# ---- the happy paths ----
expect 0 '"constraints": 1019' "gen 2^10" -- "$CUZK" gen --log2 10 --seed 5 --pce c.pce --wtns w.wtns --public pub.json --threads 2
expect 0 "" "setup, binary vk" -- "$CUZK" setup --pce c.pce --params k.params --vk k.vk --seed 9 --threads 2
expect 0 "" "setup, JSON vk" -- "$CUZK" setup --pce c.pce --params k2.params --vk vk.json --seed 9
expect 0 "" "seeded setups are reproducible" -- cmp k.params k2.params
expect 0 "" "prove to 192 bytes" -- "$CUZK" prove --params k.params --pce c.pce --wtns w.wtns --proof p.proof --public pub2.json --threads 2
expect 0 "" "prove writes the public inputs gen wrote" -- cmp pub.json pub2.json
expect 0 "" "192-byte proof" -- test "$(wc -c <p.proof)" -eq 192
expect 0 "^valid" "verify binary" -- "$CUZK" verify --vk k.vk --proof p.proof --public pub.json
expect 0 "" "prove to proof.json" -- "$CUZK" prove --params k.params --pce c.pce --wtns w.wtns --proof proof.json --r 12345 --s 678
expect 0 "^valid" "verify snarkjs JSON" -- "$CUZK" verify --vk vk.json --public pub.json --proof proof.json
expect 0 "^valid" "verify mixed formats" -- "$CUZK" verify --vk k.vk --public pub.json --proof proof.json
"$CUZK" prove --params k.params --pce c.pce --wtns w.wtns --proof r1.proof --r 12345 --s 678 >/dev/null 2>&1
"$CUZK" prove --params k.params --pce c.pce --wtns w.wtns --proof r2.proof --r 12345 --s 678 >/dev/null 2>&1
expect 0 "" "given r and s give the same proof" -- cmp r1.proof r2.proof
expect 1 "" "random r and s differ" -- cmp -s p.proof r1.proof
expect 0 "constraints 1019, inputs 5" "inspect everything" -- "$CUZK" inspect c.pce w.wtns k.params k.vk vk.json p.proof proof.json pub.json

# a damaged file is still named for what it is, with what is wrong
head -c 1000 k.vk >trunc.vk
expect 2 "note: a truncated .vk \(5 IC points make 1348 bytes, this file has 1000\)" "inspect a truncated .vk" -- "$CUZK" inspect trunc.vk
{ cat k.vk; printf 'x'; } >long.vk
expect 2 "note: a .vk with 1 trailing byte \(5 IC points make 1348 bytes, this file has 1349\)" "inspect a .vk with a byte appended" -- "$CUZK" inspect long.vk
expect 2 "long.vk: .*this is a .vk with 1 trailing byte" "verify with a .vk with a byte appended" -- "$CUZK" verify --vk long.vk --proof p.proof --public pub.json
expect 2 "trunc.vk: .*this is a truncated .vk" "verify with a truncated .vk" -- "$CUZK" verify --vk trunc.vk --proof p.proof --public pub.json
{ cat k.vk; head -c 300 /dev/zero; } >zeros.vk
expect 2 "note: a .vk with 300 trailing bytes" "inspect a .vk with zeros appended" -- "$CUZK" inspect zeros.vk
expect 2 "--params: this is a .vk with 300 trailing bytes \(5 IC points make 1348 bytes, this file has 1648\), not a bellperson parameters" "--params given a .vk with zeros appended" -- "$CUZK" prove --params zeros.vk --pce c.pce --wtns w.wtns --proof x.proof
expect 2 "--params: this is a bellperson verifying key \(.vk\), not a bellperson parameters" "--params given a .vk" -- "$CUZK" prove --params k.vk --pce c.pce --wtns w.wtns --proof x.proof
head -c 5000 c.pce >trunc.pce
expect 2 "note: a truncated .pce \(its sections end at byte [0-9]*, this file has 5000\)" "inspect a truncated .pce" -- "$CUZK" inspect trunc.pce

# ---- invalid proofs: exit 1 ----
# flipping the sign bit of A keeps a valid encoding (−A is in the subgroup) but breaks the proof
first=$(od -An -tu1 -N1 p.proof | tr -d ' ')
printf "\\$(printf '%03o' $((first ^ 0x20)))" >neg.proof
tail -c 191 p.proof >>neg.proof
expect 1 "^invalid" "tampered proof byte" -- "$CUZK" verify --vk k.vk --proof neg.proof --public pub.json
sed '0,/"[0-9]*"/s//"7"/' pub.json >bad_pub.json
expect 1 "^invalid" "tampered public input" -- "$CUZK" verify --vk k.vk --proof p.proof --public bad_pub.json
expect 1 "^invalid" "tampered public input, JSON" -- "$CUZK" verify --vk vk.json --proof proof.json --public bad_pub.json

# ---- prove: exit 0 only with a proof that verifies; 1 with nothing written when the inputs make no valid proof ----
expect 0 "" "setup, snarkjs .zkey" -- "$CUZK" setup --pce c.pce --zkey k.zkey --vk zvk.json --seed 9 --threads 2
expect 0 "" "prove with the .zkey" -- "$CUZK" prove --zkey k.zkey --wtns w.wtns --proof zp.json --public zpub.json --threads 2
expect 0 "" "the .zkey proof's public inputs" -- cmp pub.json zpub.json
expect 0 "^valid" "verify the .zkey proof" -- "$CUZK" verify --vk zvk.json --proof zp.json --public zpub.json
# one bit flipped in the middle of the witness: the value stays below r, but a constraint no longer holds
cp w.wtns flip.wtns
half=$(($(wc -c <w.wtns) / 2))
byte=$(od -An -tu1 -j "$half" -N1 w.wtns | tr -d ' ')
printf "\\$(printf '%03o' $((byte ^ 1)))" | dd of=flip.wtns bs=1 seek="$half" conv=notrunc status=none
rm -f nw.json npub.json nw.proof npub2.json
expect 1 "flip.wtns: .*does not verify against the key's verifying key.*--r1cs" "flipped witness bit, .zkey" -- "$CUZK" prove --zkey k.zkey --wtns flip.wtns --proof nw.json --public npub.json
expect 1 "flip.wtns: .*does not satisfy constraint row [0-9]+" "flipped witness bit, .params" -- "$CUZK" prove --params k.params --pce c.pce --wtns flip.wtns --proof nw.proof --public npub2.json
expect 1 "" "no proof or public file from a failed prove" -- test -e nw.json -o -e npub.json -o -e nw.proof -o -e npub2.json
# the key's own matrices lack C: --r1cs names the failing constraint of a snarkjs key's circuit (tiny.r1cs below,
# x·x = y with y public: a witness 1, 9, 3 and one with y = 10)
wtns3() { printf 'wtns\x02\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x28\x00\x00\x00\x00\x00\x00\x00\x20\x00\x00\x00'
          printf '\x01\x00\x00\x00\xff\xff\xff\xff\xfe\x5b\xfe\xff\x02\xa4\xbd\x53\x05\xd8\xa1\x09\x08\xd8\x39\x33\x48\x7d\x9d\x29\x53\xa7\xed\x73'
          printf '\x03\x00\x00\x00\x02\x00\x00\x00\x60\x00\x00\x00\x00\x00\x00\x00'
          for v in 1 "$1" 3; do printf "\\$(printf '%03o' "$v")"; head -c 31 /dev/zero; done; }
# ---- errors: exit 2 with a message naming the file ----
expect 2 "nosuch.proof: file could not be" "missing proof" -- "$CUZK" verify --vk k.vk --proof nosuch.proof --public pub.json
expect 2 "nosuch.vk" "missing vk" -- "$CUZK" verify --vk nosuch.vk --proof p.proof --public pub.json
expect 2 "nosuch.wtns" "missing witness" -- "$CUZK" prove --params k.params --pce c.pce --wtns nosuch.wtns --proof x.proof
head -c 100000 k.params >trunc.params
expect 2 "trunc.params: .*trunc" "truncated params" -- "$CUZK" prove --params trunc.params --pce c.pce --wtns w.wtns --proof x.proof
head -c 5000 c.pce >trunc.pce
expect 2 "trunc.pce" "truncated pce" -- "$CUZK" prove --params k.params --pce trunc.pce --wtns w.wtns --proof x.proof
# random bytes after a first byte that starts no format: a '[' or '{' would make it a (malformed) JSON file to inspect
{ printf '\001'; head -c 3999 /dev/urandom; } >garbage.bin
expect 2 "garbage.bin" "garbage proof" -- "$CUZK" verify --vk k.vk --proof garbage.bin --public pub.json
expect 2 "garbage.bin" "garbage vk" -- "$CUZK" verify --vk garbage.bin --proof p.proof --public pub.json
expect 2 "garbage.bin" "garbage public inputs" -- "$CUZK" verify --vk k.vk --proof p.proof --public garbage.bin
expect 2 "garbage.bin" "garbage zkey" -- "$CUZK" prove --zkey garbage.bin --wtns w.wtns --proof x.json --public x.json
expect 2 "garbage.bin" "garbage pce" -- "$CUZK" prove --params k.params --pce garbage.bin --wtns w.wtns --proof x.proof
expect 2 "garbage.bin: .*no format cuzk knows" "inspect garbage" -- "$CUZK" inspect c.pce garbage.bin
{ printf '[\255'; head -c 3998 /dev/urandom; } >garbage_json.bin
expect 2 "garbage_json.bin: malformed JSON" "inspect garbage that starts like JSON" -- "$CUZK" inspect garbage_json.bin
head -c 191 p.proof >short.proof
expect 2 "short.proof" "191-byte proof" -- "$CUZK" verify --vk k.vk --proof short.proof --public pub.json
echo '["1", "2"]' >two.json
expect 2 "2 public inputs, the key k.vk expects 4" "wrong public input count" -- "$CUZK" verify --vk k.vk --proof p.proof --public two.json
"$CUZK" gen --log2 10 --seed 6 --pce c6.pce --wtns w6.wtns >/dev/null
expect 2 "different circuit" "key for another circuit" -- "$CUZK" prove --params k.params --pce c6.pce --wtns w6.wtns --proof x.proof
expect 1 "w6.wtns: witness does not satisfy" "witness of another circuit" -- "$CUZK" prove --params k.params --pce c.pce --wtns w6.wtns --proof x.proof
expect 2 "not a decimal integer below r" "--r too large" -- "$CUZK" prove --params k.params --pce c.pce --wtns w.wtns --proof x.proof --r 52435875175126190479447740508185965837690552500527637822603658699938581184513 --s 1
expect 2 "--r and --s go together" "--r alone" -- "$CUZK" prove --params k.params --pce c.pce --wtns w.wtns --proof x.proof --r 1
expect 2 "exactly one key" "no key" -- "$CUZK" prove --pce c.pce --wtns w.wtns --proof x.proof
expect 2 "missing --public" "zkey form needs --public" -- "$CUZK" prove --zkey k.zkey --wtns w.wtns --proof x.json
expect 2 "--log2 needs an integer" "gen size out of range" -- "$CUZK" gen --log2 3 --pce x.pce --wtns x.wtns
expect 2 "missing --wtns" "gen without --wtns" -- "$CUZK" gen --log2 8 --pce x.pce
expect 2 "unknown option '--bogus'" "unknown option" -- "$CUZK" verify --bogus 1
expect 2 "--threads needs an integer" "bad thread count" -- "$CUZK" setup --pce c.pce --params x --vk y --threads 0
expect 2 "unknown command 'frobnicate'" "unknown subcommand" -- "$CUZK" frobnicate
expect 2 "usage" "no subcommand" -- "$CUZK"

# ---- circom import: a one-constraint .r1cs (x·x = y, y public) written byte by byte ----
{
    printf 'r1cs\x01\x00\x00\x00\x02\x00\x00\x00'
    printf '\x01\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x00'         # header section, 64 bytes
    printf '\x20\x00\x00\x00'                                         # field size 32
    printf '\x01\x00\x00\x00\xff\xff\xff\xff\xfe\x5b\xfe\xff\x02\xa4\xbd\x53'
    printf '\x05\xd8\xa1\x09\x08\xd8\x39\x33\x48\x7d\x9d\x29\x53\xa7\xed\x73' # r, little-endian
    printf '\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00' # wires, outputs, public in, private in
    printf '\x03\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00'         # labels, constraints
    printf '\x02\x00\x00\x00\x78\x00\x00\x00\x00\x00\x00\x00'         # constraints section, 120 bytes
    for wire in 2 2 1; do
        printf '\x01\x00\x00\x00'
        printf "\\x0$wire\\x00\\x00\\x00"
        printf '\x01'; head -c 31 /dev/zero
    done
} >tiny.r1cs
expect 0 '"constraints": 1, "inputs": 2, "aux": 1' "import circom r1cs" -- "$CUZK" import --r1cs tiny.r1cs --pce tiny.pce
expect 0 "constraints 1, inputs 2" "inspect the r1cs and its pce" -- "$CUZK" inspect tiny.r1cs tiny.pce
expect 2 "garbage.bin" "import garbage" -- "$CUZK" import --r1cs garbage.bin --pce x.pce
wtns3 9 >t9.wtns
wtns3 10 >t10.wtns
expect 0 "" "setup of the circom circuit, .zkey" -- "$CUZK" setup --pce tiny.pce --zkey tiny.zkey --vk tvk.json --seed 4
expect 0 "" "prove with --r1cs" -- "$CUZK" prove --zkey tiny.zkey --r1cs tiny.r1cs --wtns t9.wtns --proof tp.json --public tpub.json
expect 0 "^valid" "verify it" -- "$CUZK" verify --vk tvk.json --proof tp.json --public tpub.json
expect 1 "t10.wtns: .*does not satisfy constraint row 0" "--r1cs names the failing constraint" -- "$CUZK" prove --zkey tiny.zkey --r1cs tiny.r1cs --wtns t10.wtns --proof tq.json --public tqpub.json
expect 1 "t10.wtns: .*does not verify" "without --r1cs the proof check catches it" -- "$CUZK" prove --zkey tiny.zkey --wtns t10.wtns --proof tq.json --public tqpub.json
expect 1 "" "nothing written" -- test -e tq.json -o -e tqpub.json
expect 2 "--r1cs: this is a PCE" "--r1cs given a .pce" -- "$CUZK" prove --zkey tiny.zkey --r1cs tiny.pce --wtns t9.wtns --proof tq.json --public tqpub.json
expect 2 "--zkey: this is a bellperson parameters" "--zkey given a .params" -- "$CUZK" prove --zkey k.params --wtns w.wtns --proof tq.json --public tqpub.json
expect 2 "--params: this is a snarkjs proof" "--params given a proof.json" -- "$CUZK" prove --params proof.json --pce c.pce --wtns w.wtns --proof x.proof
expect 2 "--pce: this is a bellperson verifying key" "--pce given a .vk" -- "$CUZK" prove --params k.params --pce k.vk --wtns w.wtns --proof x.proof

# ---- a damaged .zkey never gives exit 0 with a proof that does not verify: one bit flipped at positions spread
# over the whole file (header, IC, coefficients, points, transcript), each proof that comes out checked ----
"$CUZK" gen --log2 6 --seed 2 --pce m.pce --wtns m.wtns --public mpub.json >/dev/null 2>&1
"$CUZK" setup --pce m.pce --zkey m.zkey --vk mvk.json --seed 2 >/dev/null 2>&1
zsize=$(wc -c <m.zkey)
bad=0
for i in $(seq 0 119); do
    pos=$((i * zsize / 120 + i % 7))
    cp m.zkey mm.zkey
    byte=$(od -An -tu1 -j "$pos" -N1 m.zkey | tr -d ' ')
    printf "\\$(printf '%03o' $((byte ^ (1 << (i % 8)))))" | dd of=mm.zkey bs=1 seek="$pos" conv=notrunc status=none
    rm -f mp.json mp2.json
    "$CUZK" prove --zkey mm.zkey --wtns m.wtns --proof mp.json --public mp2.json --threads 1 >/dev/null 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        "$CUZK" verify --vk mvk.json --proof mp.json --public mp2.json >/dev/null 2>&1 || { echo "    byte $pos: exit 0, proof rejected"; bad=$((bad + 1)); }
    elif [ -e mp.json ] || [ -e mp2.json ]; then
        echo "    byte $pos: exit $rc but files written"; bad=$((bad + 1))
    fi
done
expect 0 "" "120 one-bit damaged .zkey files: exit 0 only with a proof that verifies" -- test "$bad" -eq 0

# ---- powers of tau for snarkjs (power 4: sections 1-7 then 12-15, every size fixed by the power) ----
expect 0 '"power": 4, "bytes": 27472' "ptau power 4" -- "$CUZK" ptau --power 4 --out p4.ptau --seed 3 --threads 2
"$CUZK" ptau --power 4 --out p4b.ptau --seed 3 >/dev/null 2>&1
expect 0 "" "seeded ptau files are reproducible" -- cmp p4.ptau p4b.ptau
"$CUZK" ptau --power 4 --out p4r.ptau >/dev/null 2>&1
expect 1 "" "unseeded ptau differs" -- cmp -s p4.ptau p4r.ptau
expect 0 "power 4 \(ceremony power 4\), 0 contributions, prepared for phase 2" "inspect ptau" -- "$CUZK" inspect p4.ptau
expect 0 "every Lagrange block sums" "inspect checks the Lagrange blocks" -- "$CUZK" inspect p4.ptau
# sections 1-7 alone (they end at byte 9472; the container header then counts 7 sections): not prepared
{ printf 'ptau\x01\x00\x00\x00\x07\x00\x00\x00'; head -c 9472 p4.ptau | tail -c +13; } >raw.ptau
expect 0 "power 4 .*not prepared for phase 2" "inspect unprepared ptau" -- "$CUZK" inspect raw.ptau
# section 12's data starts at byte 9484: its block of 2^1 is points 1 and 2; copying point 1 over point 2
cp p4.ptau lag.ptau
dd if=p4.ptau of=lag.ptau bs=1 skip=9580 seek=9676 count=96 conv=notrunc status=none
expect 2 "lag.ptau: .*section 12, the block of 2\^1 Lagrange points does not sum" "tampered Lagrange point" -- "$CUZK" inspect lag.ptau
cp p4.ptau bad.ptau
printf '\x55' | dd of=bad.ptau bs=1 seek=200 conv=notrunc status=none
expect 2 "bad.ptau: .*section 2 point 1 is not a G1 point" "ptau point off the curve" -- "$CUZK" inspect bad.ptau
head -c 20000 p4.ptau >trunc.ptau
expect 2 "trunc.ptau: .*exceeds" "truncated ptau" -- "$CUZK" inspect trunc.ptau
expect 2 "--power needs an integer in \[1, 28\]" "ptau power 0" -- "$CUZK" ptau --power 0 --out x.ptau
expect 2 "--power needs an integer in \[1, 28\]" "ptau power 29" -- "$CUZK" ptau --power 29 --out x.ptau
expect 2 "--power needs an integer" "ptau power not a number" -- "$CUZK" ptau --power ten --out x.ptau
expect 2 "missing --out" "ptau without --out" -- "$CUZK" ptau --power 4
expect 2 "missing --power" "ptau without --power" -- "$CUZK" ptau --out x.ptau
expect 2 "--seed needs an integer" "ptau bad seed" -- "$CUZK" ptau --power 4 --out x.ptau --seed -1
expect 2 "unexpected argument 'extra'" "ptau positional argument" -- "$CUZK" ptau --power 4 --out x.ptau extra
expect 2 "nodir/x.ptau: .*cannot create" "ptau unwritable" -- "$CUZK" ptau --power 4 --out nodir/x.ptau
expect 1 "" "no file left by a failed ptau" -- test -e x.ptau

# ---- Filecoin parameter files: the manifest, a directory checked against it ----
mkdir -p params
wvk=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.vk
expect 0 "^window +32GiB +vk +0f8ec542485568fa3468c066e9fed82b" "params list" -- "$CUZK" params list --sizes 32GiB
expect 0 '"kind": "snap-poseidon", "sector_size": 68719476736, "vk": true' "params list --json" -- \
    "$CUZK" params list --json --kinds snap-poseidon --vk-only --sizes 64g
expect 1 "params: 44 checked, 0 ok, 44 missing" "params check, empty directory" -- "$CUZK" params check params
printf 'not a key' >"params/$wvk"
expect 1 "^WRONG +$wvk: digest [0-9a-f]{32}, expected 0f8ec542485568fa3468c066e9fed82b" "params check, wrong file" -- \
    "$CUZK" params check params --kinds window --sizes 32GiB --threads 2
expect 1 '"state": "wrong", .*"found": "[0-9a-f]{32}", "bytes": 9' "params check --json" -- \
    "$CUZK" params check params --kinds window --sizes 32GiB --vk-only --json
expect 1 '"dir": "params", "checked": 1, "ok": 0, "missing": 0, "wrong": 1' "params check --json summary" -- \
    "$CUZK" params check params --kinds window --sizes 32GiB --vk-only --json
expect 1 "^params: 2 checked" "params check, directory from FIL_PROOFS_PARAMETER_CACHE" -- \
    env FIL_PROOFS_PARAMETER_CACHE=params "$CUZK" params check --sizes 2KiB --kinds porep
expect 2 "'4KiB' is not a sector size|no parameter file matches" "params check, size with no files" -- \
    "$CUZK" params check params --sizes 4KiB
expect 2 "--kinds: 'wpost' is not one of" "params check, unknown kind" -- "$CUZK" params check params --kinds wpost
expect 2 "missing subcommand" "params without a subcommand" -- "$CUZK" params
expect 2 "unknown subcommand 'fetch'" "params fetch" -- "$CUZK" params fetch
expect 2 "unexpected argument 'x'" "params check, two directories" -- "$CUZK" params check params x

# ---- SDR: seal-test and parent-cache ----
Z=0000000000000000000000000000000000000000000000000000000000000000
TK=0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c
SD=0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d
CAR=$FIXTURES/filecoin/polka-storage-test-data-big.car
seal() { "$CUZK" seal-test --prover-id $Z --sector-id 77 --ticket $TK --seed $SD --threads 2 "$@"; }
expect 0 '"comm_d": "129c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421"' "seal-test: polka-storage's 2 KiB comm_d" -- \
    seal --sector-size 2KiB --data "$CAR" --porep-id $Z --api 1.2 --out sealed
expect 0 '"comm_r": "4afb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950"' "seal-test: polka-storage's comm_r" -- \
    seal --sector-size 2KiB --data "$CAR" --porep-id $Z --api 1.2
expect 0 '"challenges": \[\[37, 29\]\]' "seal-test: its challenges" -- seal --sector-size 2KiB --data "$CAR" --porep-id $Z --api 1.2
expect 0 '"registered_proof": null' "seal-test: a porep id of its own names no registered proof" -- \
    seal --sector-size 2KiB --data "$CAR" --porep-id $Z --api 1.2
expect 0 "" "seal-test --out writes the sector" -- test -s sealed/seal.json -a -s sealed/layer-2.dat -a -s sealed/tree-d.dat \
    -a -s sealed/tree-r.dat -a -s sealed/tree-c.dat
expect 0 "" "seal-test --out: tree D holds 2n - 1 nodes" -- test "$(stat -c %s sealed/tree-d.dat)" -eq 4064
# with a registered proof: the C1 (bare and in Curio's envelope) and an update's SnapDeals vanilla proofs
expect 0 '"c1_curio": "c1-curio.json", "update": \{"registered_proof": 0, "name": "StackedDrg2KiBV1", .*"partition_bytes": 15064' \
    "seal-test --out writes the C1 and the update" -- seal --sector-size 2KiB --zero --registered-proof 5 --out sealed5
cr=$(sed -n 's/.*"comm_r": "\([0-9a-f]*\)".*/\1/p' out.txt)
expect 0 "\"comm_r_old\": \"$cr\"" "seal-test: the update starts from the sealed sector" -- cat sealed5/seal.json
expect 0 "\"comm_r\": \"$cr\"" "seal-test: its C1 in Curio's envelope holds together" -- \
    "$CUZK" porep check --c1 sealed5/c1-curio.json --prover-id $Z
expect 0 "\"sector_id\": 77" "seal-test: and the bare C1" -- "$CUZK" porep check --c1 sealed5/c1.json --prover-id $Z --sector-id 77
expect 0 "" "seal-test: one 15,064-byte partition proof and Curio's JSON array of it" -- \
    test "$(stat -c %s sealed5/snap-0.vproof)" -eq 15064 -a "$(head -c 2 sealed5/snap.json)" = '["'
expect 0 '"comm_d": "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"' "seal-test --zero" -- \
    seal --sector-size 2KiB --zero
expect 0 '"registered_proof": 10.*"challenge_kind": "synthetic"' "seal-test synthetic" -- seal --sector-size 2KiB --zero --registered-proof 10
expect 2 "exactly one of --data FILE and --zero" "seal-test with both data and --zero" -- seal --sector-size 2KiB --zero --data "$CAR"
expect 2 "exactly one of --data FILE and --zero" "seal-test without data" -- seal --sector-size 2KiB
expect 2 "needs 64 hex digits" "seal-test short prover id" -- "$CUZK" seal-test --sector-size 2KiB --zero --prover-id 00 \
    --sector-id 1 --ticket $TK --seed $SD
expect 2 "'x' is not a hex digit" "seal-test bad ticket" -- "$CUZK" seal-test --sector-size 2KiB --zero --prover-id $Z \
    --sector-id 1 --ticket x${TK:1} --seed $SD
expect 2 "missing --seed" "seal-test without seed" -- "$CUZK" seal-test --sector-size 2KiB --zero --prover-id $Z --sector-id 1 --ticket $TK
expect 2 "not a test sector size" "seal-test 32GiB" -- seal --sector-size 32GiB --zero
expect 2 "is for 2048-byte sectors, not 8388608" "seal-test proof of another size" -- seal --sector-size 8MiB --zero --registered-proof 5
expect 2 "give --porep-id and --api" "seal-test 4KiB without porep id" -- seal --sector-size 4KiB --zero
expect 2 "--api must be 1.0, 1.1 or 1.2" "seal-test bad api" -- seal --sector-size 2KiB --zero --api 2.0
head -c 2033 /dev/zero > big.bin
expect 2 "holds 2032" "seal-test data larger than the sector" -- seal --sector-size 2KiB --data big.bin
expect 2 "--update-data big.bin: 2033 bytes, a 2048-byte sector holds 2032" "seal-test update data larger than the sector" \
    -- seal --sector-size 2KiB --zero --out upd --update-data big.bin
expect 2 "nosuch.bin" "seal-test missing data file" -- seal --sector-size 2KiB --data nosuch.bin
expect 0 '"match": true' "parent-cache 2KiB V1 digest" -- "$CUZK" parent-cache --registered-proof 0 --threads 2
expect 0 '"match": true' "parent-cache 2KiB V1_1 file" -- "$CUZK" parent-cache --registered-proof 5 --out .
expect 0 "" "parent-cache wrote rust-fil-proofs' file" -- \
    test -s v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache
expect 2 "--registered-proof needs an integer in \[0, 19\]" "parent-cache unknown proof" -- "$CUZK" parent-cache --registered-proof 20
expect 2 "missing --registered-proof" "parent-cache without a proof" -- "$CUZK" parent-cache

# ---- every --help ----
expect 0 "--subgroup yes\|no" "inspect --help shows --subgroup's values" -- "$CUZK" inspect --help
for c in gen import setup prove verify ptau inspect demo params seal-test parent-cache circuit post snap; do
    expect 0 "^usage: cuzk $c" "$c --help" -- "$CUZK" "$c" --help
done
expect 0 "^usage: cuzk COMMAND" "--help" -- "$CUZK" --help

# ---- the demo, small ----
expect 0 '"valid": true' "demo" -- "$CUZK" demo --log2 10 --threads 2

# ---- cuzk-bench: bad options are refused with exit 2 and a message, before any benchmark runs ----
if [ -n "$BENCH" ]; then
    expect 0 "^usage: cuzk-bench micro" "bench --help" -- "$BENCH" --help
    expect 2 "unknown command 'nosuch'" "bench unknown command" -- "$BENCH" nosuch
    expect 2 "unknown option '--nosuch'" "bench unknown option" -- "$BENCH" micro --nosuch
    expect 2 "--max-log2 needs a size between 16 and 27" "bench size out of range" -- "$BENCH" micro --max-log2 40
    expect 2 "--threads needs a count" "bench threads not a number" -- "$BENCH" micro --threads 2x
    expect 2 "--msm-variant needs a number between 0 and 0xffffffff" "bench msm variant not a number" -- "$BENCH" micro --gpu --msm-variant zz
    expect 2 "--ntt-variant needs a number between 0 and 0xffff" "bench ntt variant too large" -- "$BENCH" micro --gpu --ntt-variant 0x10000
    expect 2 "--msm-variant needs a number between 0 and 0xffffffff" "bench msm variant too large" -- "$BENCH" micro --gpu --msm-variant 0x100000000
    expect 2 "--ntt-variant needs a number" "bench ntt variant negative" -- "$BENCH" micro --gpu --ntt-variant -1
    expect 0 "" "bench msm variant: the default's bits 24..27 accepted" -- "$BENCH" micro --msm-variant 0x8c00514 --filter none

    # one version for every tool, from the project's
    v=$("$CUZK" --version)
    expect 0 "^cuzk [0-9]" "cuzk --version" -- "$CUZK" --version
    expect 0 "^cuzk-bench ${v#cuzk }\$" "cuzk-bench --version, cuzk's" -- "$BENCH" --version
    expect 0 "gen-vanilla porep" "bench --help names gen-vanilla" -- "$BENCH" --help

    # gen-vanilla: a C1 in Curio's envelope for any registered PoRep; Curio's sector-based kinds refused with why
    expect 0 "StackedDrg2KiBV1_1, sector 7, 1 partitions.*Curio's envelope" "gen-vanilla porep 2 KiB" -- \
        "$BENCH" gen-vanilla porep --registered-proof 5 --sector-number 7 -o c1.json
    expect 0 '^\{"SectorNum":7,"Phase1Out":"' "gen-vanilla wrote the envelope" -- head -c 40 c1.json
    expect 2 "99 is not a registered seal proof" "gen-vanilla unknown proof" -- \
        "$BENCH" gen-vanilla porep --registered-proof 99
    expect 2 "sealed sector's cache" "gen-vanilla window-post refused" -- "$BENCH" gen-vanilla window-post
    expect 2 "unknown kind 'nosuch'" "gen-vanilla unknown kind" -- "$BENCH" gen-vanilla nosuch

    # the commands against a daemon (builds with the gRPC client): Curio's command lines, refused before any call
    # when wrong
    if "$BENCH" status --help >/dev/null 2>&1; then
        expect 0 "http://127.0.0.1:9820, Curio's" "bench net --help" -- "$BENCH" batch --help
        expect 2 "unknown or incomplete option '-a'" "bench -a without a value" -- "$BENCH" -a
        expect 2 "-a is for the commands against a daemon" "bench -a with micro" -- "$BENCH" -a unix:///x micro
        expect 2 "-t porep needs --c1 FILE" "bench porep without --c1" -- "$BENCH" -a unix:///x single -t porep
        expect 2 "-t wpost needs --vanilla FILE" "bench wpost without --vanilla" -- "$BENCH" batch -t wpost
        expect 2 "unknown proof type 'stark'" "bench unknown type" -- "$BENCH" single -t stark
        expect 2 "nosuch.json" "bench missing --c1 file" -- "$BENCH" single -t porep --c1 nosuch.json
        expect 2 "--randomness wants hex digits in pairs" "bench odd hex" -- \
            "$BENCH" single -t porep --c1 c1.json --randomness abc
        expect 2 "--registered-proof needs a whole number" "bench registered proof not a number" -- \
            "$BENCH" single -t porep --c1 c1.json --registered-proof 8x
        expect 2 "-c needs a whole number up to 1000000" "bench count too large" -- "$BENCH" batch -c 2000000
        expect 2 "needs a circuit id \(-c ID\)" "bench preload without an id" -- "$BENCH" preload
        expect 2 "is not an address" "bench http address with a path" -- "$BENCH" -a http://127.0.0.1:9820/x status
        expect 2 "unknown option '--nosuch'" "bench net unknown option" -- "$BENCH" status --nosuch
        # no daemon there: a call error, exit 1
        expect 1 "cuzk-bench status: gRPC status 14" "bench status without a daemon" -- \
            "$BENCH" -a "unix://$T/none.sock" status --timeout 120000
    fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
