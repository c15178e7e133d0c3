#!/usr/bin/env bash
# Configures and builds keras-cpp in build/ (Release). Extra arguments go to cmake.
# KERAS_BUILD_TARGETS="a b" builds only those targets (and what they need) instead of all.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
# ccache keys on paths relative to the checkout, so another clone on this machine (CI's) reuses
# what this one compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" > /dev/null
if [ -n "${KERAS_BUILD_TARGETS:-}" ]; then
  # shellcheck disable=SC2086
  cmake --build build -j"$(nproc)" --target ${KERAS_BUILD_TARGETS}
else
  cmake --build build -j"$(nproc)"
fi
