#!/usr/bin/env bash
# One complete GPU session on a device machine: report the machine, configure and build (Release, sm_90), run the
# GPU checks on fresh random inputs (kernels, keys, whole proofs against the CPU, the engine's GPU backend, memcheck),
# then the GPU micro-benchmarks (BENCH_ARGS, e.g. "--filter gpu_prove --max-log2 27" for the whole proofs). Logs go to $OUT (or ./gpu-out).
# Where OpenSSL's headers are missing (some GPU images), a stub libcrypto stands in: the GPU check and benchmarks
# never reach the r1cs layer's SHA-256 or the filecoin layer's BLAKE2b, which then abort if called.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
log=$out/session.log
exec > >(tee "$log") 2>&1

echo "== machine"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,driver_version --format=csv || true
nvcc --version | tail -1
cmake --version | head -1
ls -d /usr/include/openssl 2>/dev/null || echo "no openssl headers"
ldconfig -p | grep -E "cmocka|libssl|libcrypto" || true

extra=()
if [ ! -f /usr/include/openssl/evp.h ] || [ -n "${FORCE_SSL_STUB:-}" ]; then
  s=/tmp/sslstub
  mkdir -p $s/include/openssl $s/lib
  cat > $s/include/openssl/opensslv.h <<'H'
#define OPENSSL_VERSION_NUMBER 0x30000000L
#define OPENSSL_VERSION_STR "3.0.0"
#define OPENSSL_VERSION_TEXT "OpenSSL 3.0.0 (cuzk stub)"
H
  cat > $s/include/openssl/evp.h <<'H'
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
  cat > $s/stub.c <<'C'
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
  cc -O2 -I$s/include -c $s/stub.c -o $s/stub.o && ar rcs $s/lib/libcrypto.a $s/stub.o && ar rcs $s/lib/libssl.a $s/stub.o
  extra=(-DOPENSSL_ROOT_DIR=$s -DOPENSSL_USE_STATIC_LIBS=TRUE)
  echo "using the OpenSSL stub"
fi

b=${BUILD_DIR:-/tmp/b}
echo "== configure and build"
cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 "${extra[@]}" \
  > $out/configure.log 2>&1 \
  || { tail -30 $out/configure.log; exit 1; }
t0=$(date +%s)
cmake --build $b -j16 --target cuzk_gpu gpu_check gpu_prove_check gpu_engine_check cuzk-bench cuzk-engine-bench \
  > $out/build.log 2>&1 || { grep -E "error|Error" -A3 $out/build.log | head -60; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
[ -n "${BUILD_ONLY:-}" ] && exit 0
nvcc -arch=sm_90 -std=c++17 -Iinclude -Xptxas -v -c src/gpu/ntt.cu -o /tmp/ntt_v.o 2>&1 | grep -E "Compiling|Used|spill" > $out/ptxas.log || true

echo "== gpu_check ${GPU_CHECK_ARGS:-}"
$b/bin/gpu_check ${GPU_CHECK_ARGS:-} 2>&1 | tee $out/check.log | grep -vE "^$" | tail -40
echo "== gpu_prove_check (GPU proofs = CPU proofs, bit for bit)"
$b/bin/gpu_prove_check 2>&1 | tee $out/prove_check.log | grep -E "FAIL|passed"
echo "== gpu_engine_check (the engine's GPU backend = its CPU backend)"
$b/bin/gpu_engine_check quick 2>&1 | tee $out/engine_check.log | tail -3
if command -v compute-sanitizer >/dev/null; then
  echo "== compute-sanitizer memcheck, small sizes"
  compute-sanitizer --tool memcheck --print-limit 5 $b/bin/gpu_prove_check quick 2>&1 | tee $out/memcheck.log | \
    grep -E "ERROR SUMMARY|passed|Invalid" | head
  echo "== compute-sanitizer memcheck, the MSM checks at small sizes (batch-affine rounds included)"
  compute-sanitizer --tool memcheck --print-limit 5 $b/bin/gpu_check msm_quick 2>&1 | tee $out/memcheck_msm.log | \
    grep -E "ERROR SUMMARY|passed|Invalid" | head
fi
echo "== cuzk-bench micro --gpu"
$b/bin/cuzk-bench micro --gpu ${BENCH_ARGS:-} 2>&1 | tee $out/bench.jsonl
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv || true
