#!/usr/bin/env bash
# GPU MSM session on a device machine: gpu_check msm (GPU vs CPU, bit for bit) and the MSM benchmarks, logs in $OUT.
# Binaries built on the development machine (PREBUILT=dir holding gpu_check, cuzk-bench and the shared libraries
# they need) are used when they start there; otherwise everything is built as in gpu_device.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
exec > >(tee "$out/session.log") 2>&1
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,driver_version --format=csv || true
bin=""
if [ -n "${PREBUILT:-}" ] && [ -x "$PREBUILT/gpu_check" ]; then
  export LD_LIBRARY_PATH=$(realpath "$PREBUILT")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if ldd "$PREBUILT/gpu_check" "$PREBUILT/cuzk-bench" 2>&1 | grep -qE "not found|version .* not found"; then
    echo "prebuilt binaries do not start here"
  else
    bin=$(realpath "$PREBUILT")
    echo "using prebuilt binaries"
  fi
fi
if [ -z "$bin" ]; then
  echo "== building"
  BUILD_ONLY=1 BUILD_DIR=/tmp/b OUT=$out/build ./scripts/gpu_device.sh > $out/build_session.log 2>&1
  tail -5 $out/build_session.log
  bin=/tmp/b/bin
fi
echo "== gpu_check ${GPU_CHECK_ARGS:-msm}"
t0=$(date +%s)
timeout ${CHECK_LIMIT:-150} $bin/gpu_check ${GPU_CHECK_ARGS:-msm} 2>&1 | tee $out/check.log | tail -40
echo "check: $(( $(date +%s) - t0 )) s"
echo "== cuzk-bench micro --gpu ${BENCH_ARGS:---filter msm}"
timeout ${BENCH_LIMIT:-200} $bin/cuzk-bench micro --gpu ${BENCH_ARGS:---filter msm} 2>&1 | tee $out/bench.jsonl
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv || true
