#!/usr/bin/env bash
# The GPU check of the cuda backend, for a machine with an NVIDIA GPU (CUDA 13 driver, nvcc,
# CMake present; no package archive needed). Usage: ./scripts/gpu_check.sh OUT_DIR
#   1. installs the Debian packages this machine lacks from .cache/gpu-bundle/debs (made by
#      scripts/gpu_bundle.sh on a machine with the archive; carried with the checkout);
#   2. builds the library, the cuda backend and its tests in build-gpu (Release, every core);
#   3. runs the cuda backend's tests (host logic, and each primitive family against cpu on the
#      device) and the conformance suite (every case on "cuda" against cpu: its table shows what
#      passes, what differs and by how much, and which primitives the backend still lacks).
# Everything it prints goes to OUT_DIR (summary.txt first). Sized to finish in under 8 minutes on
# 16 cores. Not yet here: the torch backend on CUDA and a GPU benchmark (issue 22).
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
log "configuring build-gpu"
# Without the model server (tools/serve): the bundle carries no Boost or gRPC, which would pass
# the carry limit, and the GPU run needs neither.
if ! cmake -S . -B build-gpu "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DKERAS_WITH_CUDA=ON \
     -DKERAS_BUILD_SERVING=OFF \
     -DKERAS_WITH_TORCH=OFF -DKERAS_BUILD_EXAMPLES=OFF > "$out/configure.log" 2>&1; then
  log "configure failed (configure.log)"
  exit 1
fi
grep -q "keras_cuda" build-gpu/backends/cuda/Makefile build-gpu/build.ninja 2>/dev/null ||
  log "warning: the cuda backend is not configured (no CUDA compiler found?)"
log "building (-j$(nproc))"
if ! cmake --build build-gpu -j"$(nproc)" --target test_backend_cuda test_conformance \
     > "$out/build.log" 2>&1; then
  log "build failed (build.log)"
  exit 1
fi

log "cuda backend tests"
build-gpu/backends/cuda/test_backend_cuda > "$out/test_backend_cuda.txt" 2>&1 || status=1
grep -E "^\[ +(PASSED|FAILED|SKIPPED) +\] [0-9]+ test" "$out/test_backend_cuda.txt" |
  tee -a "$out/summary.txt"
log "conformance suite (cpu against every backend in the program, cuda among them)"
build-gpu/tests/test_conformance --gtest_brief=1 > "$out/conformance.txt" 2>&1 || status=1
grep -E "^\| cuda|^\[ +(PASSED|FAILED|SKIPPED) +\] [0-9]+ test" "$out/conformance.txt" |
  tee -a "$out/summary.txt"
log "done (status $status)"
exit "$status"
