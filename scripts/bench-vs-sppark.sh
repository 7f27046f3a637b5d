#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# cuzk and sppark side by side on one GPU, in one process: configures a CUDA build (BUILD, default build-sppark/)
# with CUZK_SPPARK_DIR and CUZK_BLST_DIR, builds cuzk-vs-sppark (tools/bench/sppark/vs_sppark.cu) and runs it: one
# JSON line per kernel and size (NTT forward, inverse and coset forward at 2^20 … 2^27, G1 and G2 MSM) with both
# medians, the ratio cuzk/sppark and whether the two results agree. The build dominates a first run (cuzk_gpu); the
# default sizes' calls add up to about a minute on an H200.
#
#   scripts/bench-vs-sppark.sh SPPARK_DIR [BLST_DIR] [cuzk-vs-sppark options: --only ntt|msm --reps N ...]
#
# SPPARK_DIR is a sppark source tree (ntt/ntt.cuh), BLST_DIR the blst source tree sppark's host field types come
# from (src/blst_t.hpp; default: blst beside SPPARK_DIR), for instance both copied under third_party_ref/, which git
# ignores. Nothing of either enters the repository. Environment: BUILD, CUDA_ARCH (default 90), JOBS (default 16).
# Exit status: the program's (0 all agreed, 1 a pair of results differed, 2 an error), 2 when the build fails.
set -eu
usage() {
    echo "usage: $0 SPPARK_DIR [BLST_DIR] [--only ntt|msm] [--reps N] [--msm-reps N] [--ntt-log2 L,..]" \
         "[--g1-log2 L,..] [--g2-log2 L,..]" >&2
    exit 2
}
[ $# -ge 1 ] || usage
[ -f "$1/ntt/ntt.cuh" ] || { echo "$0: $1 is not a sppark source tree (no ntt/ntt.cuh)" >&2; usage; }
sppark=$(cd "$1" && pwd)
shift
blst=$sppark/../blst
if [ $# -ge 1 ] && [ "${1#-}" = "$1" ]; then
    blst=$1
    shift
fi
[ -f "$blst/src/blst_t.hpp" ] || { echo "$0: $blst is not a blst source tree (no src/blst_t.hpp)" >&2; usage; }
blst=$(cd "$blst" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-sppark}

# Some GPU images have no OpenSSL headers: a stub stands in for the SHA-256 and BLAKE2b that this program never
# reaches (the r1cs and filecoin layers'), and aborts if called.
ssl=""
if [ ! -f /usr/include/openssl/evp.h ]; then
    s=$build/sslstub
    mkdir -p "$s/include/openssl" "$s/lib"
    printf '#define OPENSSL_VERSION_NUMBER 0x30000000L\n#define OPENSSL_VERSION_STR "3.0.0"\n' \
        > "$s/include/openssl/opensslv.h"
    cat > "$s/include/openssl/evp.h" <<'H'
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
    cat > "$s/stub.c" <<'C'
#include <stdlib.h>
#include "openssl/evp.h"
EVP_MD_CTX *EVP_MD_CTX_new(void) { abort(); }
void EVP_MD_CTX_free(EVP_MD_CTX *c) { (void)c; abort(); }
const EVP_MD *EVP_sha256(void) { abort(); }
const EVP_MD *EVP_blake2b512(void) { abort(); }
int EVP_DigestInit_ex(EVP_MD_CTX *c, const EVP_MD *m, ENGINE *e) { (void)c, (void)m, (void)e; abort(); }
int EVP_DigestUpdate(EVP_MD_CTX *c, const void *p, size_t n) { (void)c, (void)p, (void)n; abort(); }
int EVP_DigestFinal_ex(EVP_MD_CTX *c, unsigned char *o, unsigned int *n) { (void)c, (void)o, (void)n; abort(); }
C
    cc -O2 -I"$s/include" -c "$s/stub.c" -o "$s/stub.o"
    ar rcs "$s/lib/libcrypto.a" "$s/stub.o"
    ar rcs "$s/lib/libssl.a" "$s/stub.o"
    ssl="-DOPENSSL_ROOT_DIR=$s -DOPENSSL_USE_STATIC_LIBS=TRUE"
fi

t0=$(date +%s)
mkdir -p "$build"
# shellcheck disable=SC2086 # $ssl is empty or two arguments
if ! cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" -DBUILD_TESTING=OFF \
        -DCUZK_SPPARK_DIR="$sppark" -DCUZK_BLST_DIR="$blst" $ssl > "$build/configure.log" 2>&1 ||
   ! cmake --build "$build" -j "${JOBS:-16}" --target cuzk-vs-sppark > "$build/build.log" 2>&1; then
    tail -40 "$build/configure.log" "$build/build.log" 2>/dev/null >&2
    echo "$0: the build failed (logs in $build)" >&2
    exit 2
fi
version() { sed -n 's/^version = "\(.*\)"/\1/p' "$1" 2>/dev/null | head -1; }
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "{\"kernel\": \"build\", \"seconds\": $(( $(date +%s) - t0 )), \"sppark\": \"$sppark\"," \
     "\"sppark_version\": \"$(version "$sppark/rust/Cargo.toml")\", \"blst\": \"$blst\"," \
     "\"blst_version\": \"$(version "$blst/bindings/rust/Cargo.toml")\", \"cpu\": \"$cpu\"}"
exec "$build/bin/cuzk-vs-sppark" "$@"
