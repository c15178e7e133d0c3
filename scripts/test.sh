#!/usr/bin/env bash
# Builds keras-cpp and runs the whole test suite (one ctest entry per test executable).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh -DKERAS_BUILD_TESTS=ON
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
