#!/usr/bin/env bash
# The GPU check of the cuda backend, for a machine with an NVIDIA GPU (CUDA 13 driver, nvcc,
# CMake present; no package archive needed). Usage: ./scripts/gpu_check.sh OUT_DIR
#   1. installs the Debian packages this machine lacks from .cache/gpu-bundle/debs (made by
#      scripts/gpu_bundle.sh on a machine with the archive; carried with the checkout);
#   2. builds the library, the cuda backend and its tests in build-gpu (Release, every core);
#      With the machine's own PyTorch (python3 -c 'import torch' with CUDA), the torch backend is
#      built against its LibTorch too, so "torch:cuda" runs beside "cuda";
#   3. runs the cuda backend's tests (host logic, and each primitive family against cpu on the
#      device), the torch backend's device tests (torch:cuda against ATen on the CPU) and the
#      conformance suite (every case on "cuda", "torch" and "torch:cuda" against cpu: its table
#      shows what passes, what differs and by how much, and which primitives a backend lacks);
#   4. runs the GPU benchmark (bench/gpu/gpu_bench.py: keras-cpp on cuda and torch:cuda against
#      PyTorch eager and torch.compile on the same GPU, GEMM against cuBLAS) in what is left of
#      the time budget (no new process after it; gpu_bench.txt says what was left out).
# Everything it prints goes to OUT_DIR (summary.txt first). Sized to finish in under 8 minutes on
# 16 cores (KERAS_GPU_CHECK_BUDGET seconds, default 450, bounds the benchmark's start times).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu_check.sh OUT_DIR}
mkdir -p "$out"
start=$(date +%s)
log() { echo "[gpu_check +$(( $(date +%s) - start ))s] $*" | tee -a "$out/summary.txt"; }
status=0

bundle=.cache/gpu-bundle/debs
if [ -d "$bundle" ]; then
  missing=()
  for deb in "$bundle"/*.deb; do
    pkg=$(dpkg-deb -f "$deb" Package)
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$deb")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${#missing[@]} packages from $bundle"
    dpkg -i "${missing[@]}" > "$out/dpkg.log" 2>&1 || log "dpkg reported errors (dpkg.log)"
  fi
fi
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || log "nvidia-smi failed (no driver?)"

generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# The LibTorch of the machine's PyTorch, when it is a CUDA build.
torch_prefix=$(python3 -c 'import torch; assert torch.version.cuda; print(torch.utils.cmake_prefix_path)' \
               2> /dev/null || true)
# cuDNN for the cuda backend's convolutions: the toolkit's when it has one, else the one that
# came with that PyTorch (its nvidia-cudnn package: include/ and lib/).
cudnn_root=$(python3 -c 'import nvidia.cudnn as c; print(list(c.__path__)[0])' 2> /dev/null || true)
# (cuDNN opens its sub-libraries, libcudnn_cnn.so.9 ..., by name at run time.)
[ -n "$cudnn_root" ] && export LD_LIBRARY_PATH="$cudnn_root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
budget=${KERAS_GPU_CHECK_BUDGET:-450}
configure() {  # $1: ON or OFF for the torch backend
  local torch=(-DKERAS_WITH_TORCH=OFF)
  [ "$1" = ON ] && torch=(-DKERAS_WITH_TORCH=ON -DCMAKE_PREFIX_PATH="$torch_prefix")
  rm -f build-gpu/CMakeCache.txt
  # Without the model server (tools/serve): the bundle carries no Boost or gRPC, which would
  # pass the carry limit, and the GPU run needs neither.
  TORCH_CUDA_ARCH_LIST=9.0 cmake -S . -B build-gpu "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DKERAS_WITH_CUDA=ON -DKERAS_BUILD_SERVING=OFF -DKERAS_BUILD_EXAMPLES=OFF \
    -DKERAS_BUILD_BENCH=ON -DKERAS_CUDNN_ROOT="$cudnn_root" -DKERAS_CLI_WITH_CUDA=ON \
    "${torch[@]}" \
    > "$out/configure.log" 2>&1
}
with_torch=OFF
if [ -n "$torch_prefix" ]; then
  log "configuring build-gpu with the torch backend (LibTorch of $torch_prefix)"
  if configure ON; then
    with_torch=ON
  else
    cp "$out/configure.log" "$out/configure-torch.log"
    log "configure with LibTorch failed (configure-torch.log); going on without the torch backend"
  fi
else
  log "no CUDA PyTorch on this machine: the torch backend is left out"
fi
if [ "$with_torch" = OFF ] && ! configure OFF; then
  log "configure failed (configure.log)"
  exit 1
fi
grep -q "keras_cuda" build-gpu/backends/cuda/Makefile build-gpu/build.ninja 2>/dev/null ||
  log "warning: the cuda backend is not configured (no CUDA compiler found?)"
grep -E "^-- cuda backend: (cuDNN|no cuDNN)" "$out/configure.log" | sed 's/^-- //' |
  tee -a "$out/summary.txt"
log "building (-j$(nproc))"
targets=(test_backend_cuda test_conformance bench_keras_gpu keras-cpp)
[ "$with_torch" = ON ] && targets+=(test_torch_interop)
if ! cmake --build build-gpu -j"$(nproc)" --target "${targets[@]}" > "$out/build.log" 2>&1; then
  log "build failed (build.log)"
  exit 1
fi
# The LibTorch C++ peer of the GPU benchmark: optional (it links LibTorch's CUDA library, whose
# own dependencies the machine's PyTorch may lay out otherwise), so its failure stops nothing.
if [ "$with_torch" = ON ] &&
   ! cmake --build build-gpu -j"$(nproc)" --target bench_libtorch > "$out/build-libtorch.log" 2>&1; then
  log "bench_libtorch did not build (build-libtorch.log): the benchmark goes on without it"
fi

# Each test in a process of its own, kernels launched synchronously: a kernel that faults
# leaves a sticky error that would fail every later test of the process, and a launch that
# waits names the kernel that faulted. Tests of CUDA graphs launch asynchronously (stream
# capture and blocking launches may not mix).
each_test() {  # $1: test binary, $2: output file; the failures and the counts in the summary
  local name blocking passed=0 skipped=0 failed=0
  : > "$2"
  for name in $("$1" --gtest_list_tests | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
    case "$name" in *CudaGraph*) blocking=0 ;; *) blocking=1 ;; esac
    if CUDA_LAUNCH_BLOCKING=$blocking timeout 300 "$1" --gtest_filter="$name" >> "$2" 2>&1; then
      if tail -n 5 "$2" | grep -q "^\[  SKIPPED \]"; then skipped=$((skipped + 1)); else passed=$((passed + 1)); fi
    else
      failed=$((failed + 1))
      status=1
      log "  FAILED: $name"
    fi
  done
  log "  $passed passed, $skipped skipped, $failed failed"
}
log "cuda backend tests (one process each)"
each_test build-gpu/backends/cuda/test_backend_cuda "$out/test_backend_cuda.txt"
build-gpu/tools/cli/keras-cpp info 2>&1 | tee "$out/info.txt" | grep -E "^devices|^torch on" |
  tee -a "$out/summary.txt"
if [ "$with_torch" = ON ]; then
  log "torch backend device and interop tests"
  build-gpu/backends/torch/tests/test_torch_interop > "$out/test_torch_interop.txt" 2>&1 || status=1
  grep -E "^\[ +(PASSED|FAILED|SKIPPED) +\] [0-9]+ test" "$out/test_torch_interop.txt" |
    tee -a "$out/summary.txt"
fi
log "conformance suite (cpu against every backend in the program: cuda, torch, torch:cuda)"
conformance_ok=1
CUDA_LAUNCH_BLOCKING=1 build-gpu/tests/test_conformance --gtest_brief=1 > "$out/conformance.txt" 2>&1 ||
  { status=1; conformance_ok=0; }
grep -E "^\| (cuda|torch)|^\[ +(PASSED|FAILED|SKIPPED) +\] [0-9]+ test" "$out/conformance.txt" |
  tee -a "$out/summary.txt"
# On a failure, once more with the cuda backend's fused kernels off (the front end's
# decompositions on its primitives): tells a fused kernel's fault from a primitive's.
if [ "$conformance_ok" = 0 ] && [ $(( budget - ($(date +%s) - start) )) -gt 120 ]; then
  log "conformance again with KERAS_CUDA_DISABLE=all"
  KERAS_CUDA_DISABLE=all CUDA_LAUNCH_BLOCKING=1 build-gpu/tests/test_conformance --gtest_brief=1 \
    > "$out/conformance-unfused.txt" 2>&1
  grep -E "^\| cuda|^\[ +(PASSED|FAILED) +\] [0-9]+ test" "$out/conformance-unfused.txt" |
    sed 's/^/  unfused: /' | tee -a "$out/summary.txt"
fi
left=$(( budget - ($(date +%s) - start) ))
if [ "$left" -gt 20 ]; then
  log "GPU benchmark (new processes for ${left} s more)"
  python3 bench/gpu/gpu_bench.py --build build-gpu --runs 2 --deadline "$left" \
    > "$out/gpu_bench.txt" 2> "$out/gpu_bench.log" || status=1
  sed -n '/^keras-cpp vs PyTorch/,/^$/p' "$out/gpu_bench.txt" | tee -a "$out/summary.txt"
  grep -E "^(problem|gpu_bench): " "$out/gpu_bench.txt" | head -20 | tee -a "$out/summary.txt"
else
  log "no time left for the GPU benchmark (KERAS_GPU_CHECK_BUDGET=$budget)"
fi
log "done (status $status)"
exit "$status"
