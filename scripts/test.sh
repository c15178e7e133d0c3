#!/usr/bin/env bash
# Checks the API reference's doc comments, builds keras-cpp and runs the whole test suite (one
# ctest entry per test executable).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
# The API reference first (seconds): every public class and function documented.
./scripts/api_docs.sh --check
./scripts/build.sh -DKERAS_BUILD_TESTS=ON
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
