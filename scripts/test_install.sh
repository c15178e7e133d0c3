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

cmake -S examples/consumer -B "$prefix/consumer-cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$prefix/consumer-cmake" > /dev/null
out=$("$prefix/consumer-cmake/consumer")
echo "$out"
# A build with the torch backend installs the package's torch component: the consumer must use it.
if [ -n "$(find "$prefix" -type d -name keras_torch)" ]; then
  grep -q "on the torch backend predicts the same" <<<"$out" ||
    { echo "the consumer did not run on the installed torch backend" >&2; exit 1; }
fi

pc=$(dirname "$(find "$prefix" -name keras-cpp.pc)")
flags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs keras-cpp)
# shellcheck disable=SC2086
g++ -O2 examples/consumer/main.cpp -o "$prefix/consumer-pkgconfig" $flags
"$prefix/consumer-pkgconfig"
echo "install test: CMake package and pkg-config consumers passed"
