#!/usr/bin/env bash
# The torch backend against LibTorch 2: the LibTorch inside PyTorch's wheel from PyPI (pinned
# below), beside the Debian LibTorch 1.13 that ./scripts/test.sh builds with. Builds
# build-torch2/ and runs every suite on the torch backend there (ctest label "torch": ops,
# gradients, layers, losses, metrics, optimizers, training, saving, the conformance suite and
# the LibTorch interop tests).
#
# The wheel is a CUDA 13 build. keras::torch links only its CPU library (torch_cpu), which loads
# libcudart.so.13 and libcupti.so.13 (the CUDA 13 toolkit's) but none of the CUDA libraries the
# wheel gets from other packages (cuSPARSELt, cuFile, NVSHMEM); only torch/lib, torch/include and
# torch/share of the wheel are unpacked, into ~/.cache/keras-cpp/torch-<version> (outside the
# source tree, which CMake's exported targets may not point into).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
version=2.15.0
prefix="${XDG_CACHE_HOME:-$HOME/.cache}/keras-cpp/torch-$version"
if [ ! -f "$prefix/torch/share/cmake/Torch/TorchConfig.cmake" ]; then
  wheels="$prefix.wheel"
  rm -rf "$wheels" "$prefix"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux_2_28_x86_64 -d "$wheels" "torch==$version"
  python3 - "$wheels"/torch-"$version"-*.whl "$prefix" <<'EOF'
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as wheel:
    wanted = ("torch/lib/", "torch/include/", "torch/share/cmake/")
    wheel.extractall(sys.argv[2], [n for n in wheel.namelist() if n.startswith(wanted)])
EOF
  rm -rf "$wheels"
fi
libraries=$(ldconfig -p)
for lib in libcudart.so.13 libcupti.so.13; do
  if [[ "$libraries" != *"$lib "* ]]; then
    echo "test_torch2: $lib (CUDA 13 toolkit) not found; LibTorch $version's CPU library needs it" >&2
    exit 1
  fi
done
# LibTorch's CMake files detect the GPUs to pick CUDA architectures when nvcc is present, and
# fail without one; naming the architecture skips the detection.
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
found() { sed -n 's/^TORCH_LIBRARY:FILEPATH=//p' build-torch2/CMakeCache.txt 2>/dev/null; }
# CMake caches where it found LibTorch: a cache from another LibTorch starts over.
case "$(found)" in "$prefix"/* | "") ;; *) rm -f build-torch2/CMakeCache.txt ;; esac
cmake -S . -B build-torch2 -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix/torch" \
  -DKERAS_WITH_CUDA=OFF -DKERAS_BUILD_EXAMPLES=OFF -DKERAS_BUILD_SERVING=OFF \
  -DKERAS_BUILD_SHARED_LIBRARY=OFF
case "$(found)" in
  "$prefix"/*) ;;
  *) echo "test_torch2: CMake found LibTorch at '$(found)', not in $prefix" >&2; exit 1 ;;
esac
cmake --build build-torch2 -j"$(nproc)"
ctest --test-dir build-torch2 -L torch -j"$(nproc)" --output-on-failure
