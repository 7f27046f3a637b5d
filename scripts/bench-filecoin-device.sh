#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The Filecoin proofs' figures on the GPU machine (16 cores, one H200, 128 GiB, no network), in one run of under nine
# minutes from the repository root: a CUDA build (sm_90, -j16), then, each a JSON line with its peak RSS:
#   porep_witness   one 32 GiB PoRep partition's witness on 16 threads (cuzk-bench porep; target 1.2 s)
#   engine_porep    a whole 32 GiB PoRep C2 from Curio's request (the C1 envelope of a generated C1) to the proof
#                   through the engine on the GPU (target 18 s, host memory 64 GiB), with the shape of the 130 M-row
#                   partition built first and timed ("shape_s", target 90 s)
#   engine_snap     a 32 GiB SnapDeals request, 16 partitions (target 12 s), its shape built first
#   engine_post     WinningPoSt 32 GiB request to proof (target 0.3 s); WindowPoSt 32 GiB (2,349 sectors) request to
#                   proof (target 2.5 s) with its shape built first ("shape_s", target 60 s)
#   post_witness    the WindowPoSt 32 GiB partition's witness from the real sector (target 1.0 s)
# Each engine line carries the requests' arithmetic floor ("floor": their field multiplications alone at this GPU's
# measured rates, cuzk-engine-bench --floor 1) and the median over it.
# The keys are test keys made on the GPU from toxic waste (no .params files are reachable there). The 32 GiB PoRep and
# SnapDeals inputs are generated (random labels and paths, cuzk_fil_c1_random / cuzk_fil_snap_partition_random):
# structurally what Curio sends, so the work is a real request's, but no proof of them can verify; those lines say
# "inputs": "generated", "self_verified": false and count the partitions whose check failed (all of them), and the
# engine runs them with fil_benchmark_inputs (every partition still verified, the failures counted instead of failing
# the job). Shapes go to $WORK_DIR/pce once (about 27 GB) and are mapped by the later runs.
# STEPS names the steps to run (default all six, in the order above).
# Output: $OUT/filecoin.jsonl (the JSON lines), $OUT/*.log. Each step has a time limit taken from what is left of
# BUDGET_S (default 530 s); a step that does not fit is skipped with a line saying so. OPENSSL_DIR names an OpenSSL
# tree (include/, lib/libcrypto.a) to build against where the machine has no OpenSSL headers.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-filecoin-out}
mkdir -p "$out"
exec > >(tee "$out/all.log") 2>&1
b=${BUILD_DIR:-/tmp/b}
work=${WORK_DIR:-/tmp/cuzk-filecoin}
mkdir -p "$work/params" "$work/pce"
t_start=$(date +%s)
deadline=$((t_start + ${BUDGET_S:-530}))
jsonl=$out/filecoin.jsonl
: >"$jsonl"

left() { echo $((deadline - $(date +%s))); }

# step NAME MIN_S MAX_S CMD...: runs CMD with a limit of min(MAX_S, time left), when at least MIN_S is left; its JSON
# lines go to $jsonl, everything to $out/NAME.log
step() {
    local name=$1 min=$2 max=$3
    shift 3
    [[ " ${STEPS:-porep_witness engine_porep engine_snap engine_winning engine_window post_witness} " == *" $name "* ]] ||
        return 0
    local l
    l=$(left)
    if [ "$l" -lt "$min" ]; then
        echo "{\"name\": \"$name\", \"skipped\": \"$l s left, it needs $min\"}" | tee -a "$jsonl"
        return
    fi
    [ "$l" -lt "$max" ] && max=$l
    local t0
    t0=$(date +%s)
    echo "== $name (limit $max s): $*"
    timeout "$max" "$@" >"$out/$name.log" 2>&1
    local rc=$?
    grep '^{' "$out/$name.log" | tee -a "$jsonl"
    grep -v '^{' "$out/$name.log" | tail -4
    echo "{\"name\": \"${name}_step\", \"rc\": $rc, \"wall_s\": $(($(date +%s) - t0))}" | tee -a "$jsonl"
}

echo "== machine"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader || true
nproc
free -g | head -2

# Without OpenSSL's headers (some GPU images) the build still needs its SHA-256 (the shapes' identities and the PCE
# checksums): the system's libcrypto where it is, else a small SHA-256 of our own; BLAKE2b (the parameter digests,
# not checked here) aborts.
extra=()
if [ -n "${OPENSSL_DIR:-}" ]; then
    extra=(-DOPENSSL_ROOT_DIR="$OPENSSL_DIR" -DOPENSSL_USE_STATIC_LIBS=TRUE)
elif [ ! -f /usr/include/openssl/evp.h ]; then
    s=/tmp/sslshim
    mkdir -p $s/include/openssl $s/lib
    cat >$s/include/openssl/opensslv.h <<'H'
#define OPENSSL_VERSION_NUMBER 0x30000000L
#define OPENSSL_VERSION_STR "3.0.0"
#define OPENSSL_VERSION_TEXT "OpenSSL 3.0.0 (cuzk shim)"
H
    cat >$s/include/openssl/evp.h <<'H'
#include <stddef.h>
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_md_st EVP_MD;
typedef struct engine_st ENGINE;
EVP_MD_CTX *EVP_MD_CTX_new(void);
void EVP_MD_CTX_free(EVP_MD_CTX *);
const EVP_MD *EVP_sha256(void);
const EVP_MD *EVP_blake2b512(void);
int EVP_DigestInit_ex(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
int EVP_DigestUpdate(EVP_MD_CTX *, const void *, size_t);
int EVP_DigestFinal_ex(EVP_MD_CTX *, unsigned char *, unsigned int *);
H
    lib=$(ldconfig -p | sed -n 's/.*libcrypto\.so\.3 .*=> \(.*\)$/\1/p' | head -1)
    ssl=$(ldconfig -p | sed -n 's/.*libssl\.so\.3 .*=> \(.*\)$/\1/p' | head -1)
    if [ -n "$lib" ]; then
        ln -sf "$lib" $s/lib/libcrypto.so
        ln -sf "${ssl:-$lib}" $s/lib/libssl.so # found by CMake, never linked
        echo "OpenSSL headers missing: declared here, linked to $lib"
    else
        cat >$s/shim.c <<'C'
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "openssl/evp.h"
struct evp_md_ctx_st { uint32_t h[8]; uint8_t buf[64]; uint64_t n; };
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};
#define R(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
static void block(uint32_t *h, const uint8_t *p)
{
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++)
        w[i] = w[i - 16] + (R(w[i - 15], 7) ^ R(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
               (R(w[i - 2], 17) ^ R(w[i - 2], 19) ^ (w[i - 2] >> 10));
    memcpy(v, h, 32);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (R(v[4], 6) ^ R(v[4], 11) ^ R(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[i] + w[i];
        uint32_t t2 = (R(v[0], 2) ^ R(v[0], 13) ^ R(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 28);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) h[i] += v[i];
}
EVP_MD_CTX *EVP_MD_CTX_new(void) { return calloc(1, sizeof(EVP_MD_CTX)); }
void EVP_MD_CTX_free(EVP_MD_CTX *c) { free(c); }
const EVP_MD *EVP_sha256(void) { return (const EVP_MD *)1; }
const EVP_MD *EVP_blake2b512(void) { abort(); }
int EVP_DigestInit_ex(EVP_MD_CTX *c, const EVP_MD *m, ENGINE *e)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    (void)m, (void)e;
    memcpy(c->h, iv, 32);
    c->n = 0;
    return 1;
}
int EVP_DigestUpdate(EVP_MD_CTX *c, const void *d, size_t n)
{
    const uint8_t *p = d;
    while (n > 0) {
        size_t at = c->n % 64, k = 64 - at < n ? 64 - at : n;
        memcpy(c->buf + at, p, k);
        c->n += k, p += k, n -= k;
        if (c->n % 64 == 0) block(c->h, c->buf);
    }
    return 1;
}
int EVP_DigestFinal_ex(EVP_MD_CTX *c, unsigned char *o, unsigned int *len)
{
    uint64_t bits = c->n * 8;
    uint8_t pad[72] = {0x80};
    size_t np = 64 - (c->n + 8) % 64;
    for (int i = 0; i < 8; i++) pad[np + i] = (uint8_t)(bits >> (56 - 8 * i));
    EVP_DigestUpdate(c, pad, np + 8);
    for (int i = 0; i < 32; i++) o[i] = (uint8_t)(c->h[i / 4] >> (24 - 8 * (i % 4)));
    if (len) *len = 32;
    return 1;
}
C
        cc -O2 -I$s/include -c $s/shim.c -o $s/shim.o && ar rcs $s/lib/libcrypto.a $s/shim.o &&
            ar rcs $s/lib/libssl.a $s/shim.o
        extra=(-DOPENSSL_USE_STATIC_LIBS=TRUE)
        echo "OpenSSL missing: a SHA-256 of our own stands in"
    fi
    extra+=(-DOPENSSL_ROOT_DIR=$s)
fi

echo "== configure and build"
t0=$(date +%s)
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 "${extra[@]}" >"$out/configure.log" 2>&1 ||
    { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$b" -j16 --target cuzk-bench cuzk-engine-bench >"$out/build.log" 2>&1 ||
    { grep -E "error|Error" -A3 "$out/build.log" | head -60; exit 1; }
echo "{\"name\": \"build\", \"wall_s\": $(($(date +%s) - t0))}" | tee -a "$jsonl"

bin=$b/bin
# the engine as the daemon runs it on this machine: one synthesis worker of 16 threads (the witness of the next
# partition made while the GPU proves this one), one prover, one partition queued; test keys made on the GPU
engine=(--backend gpu --synthesis-workers 1 --synthesis-threads 16 --prover-threads 16 --depth 1 --test-key 1
        --param-dir "$work/params" --pce-dir "$work/pce" --verify-digest 0 --floor 1)

step porep_witness 40 90 "$bin/cuzk-bench" porep --sector-size 32GiB --filter porep_witness --threads 16
step engine_porep 150 300 "$bin/cuzk-engine-bench" --porep 32GiB --jobs 2 "${engine[@]}"
step engine_snap 60 150 "$bin/cuzk-engine-bench" --snap 32GiB --jobs 2 "${engine[@]}"
step engine_winning 20 60 "$bin/cuzk-engine-bench" --post winning --sector-size 32GiB --jobs 5 "${engine[@]}"
step engine_window 90 200 "$bin/cuzk-engine-bench" --post window --sector-size 32GiB --jobs 2 \
    --vanilla tests/fixtures/filecoin/window-post-32g-sector.vproof "${engine[@]}"
step post_witness 30 90 "$bin/cuzk-bench" post witness --vanilla tests/fixtures/filecoin/window-post-32g-sector.vproof \
    --threads 16 --repeat 3
echo "{\"name\": \"all\", \"wall_s\": $(($(date +%s) - t_start))}" | tee -a "$jsonl"
