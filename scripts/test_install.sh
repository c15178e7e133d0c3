#!/usr/bin/env bash
# Installs the build (./scripts/build.sh first) into a temporary prefix and builds
# examples/consumer against it twice, as a program outside the tree would: with CMake
# (find_package(keras_cpp CONFIG REQUIRED), keras::keras) and with pkg-config (keras-cpp.pc);
# each program trains, saves, loads and must exit 0. CI runs it after the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || ./scripts/build.sh
cmake --build build -j"$(nproc)" --target keras keras-cpp > /dev/null
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix" > /dev/null
echo "installed into $prefix: $(find "$prefix" -type f | wc -l) files"

scripts/check_consumer.sh "$prefix" "$prefix"
echo "install test: CMake package and pkg-config consumers passed"
