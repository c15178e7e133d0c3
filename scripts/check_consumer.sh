#!/usr/bin/env bash
# Builds examples/consumer against an installed keras-cpp tree, as a program outside the
# project would, and runs it: with CMake (find_package(keras_cpp), and its torch component when
# the tree has it: the consumer must then also run on the torch backend) and with pkg-config.
# Usage: scripts/check_consumer.sh PREFIX WORK_DIR (used by test_install.sh and test_deb.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$1 work=$2
cmake -S examples/consumer -B "$work/consumer-cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/consumer-cmake" > /dev/null
out=$("$work/consumer-cmake/consumer")
echo "$out"
if [ -n "$(find "$prefix" -type d -name keras_torch)" ]; then
  grep -q "on the torch backend predicts the same" <<<"$out" ||
    { echo "check_consumer: the consumer did not run on the installed torch backend" >&2; exit 1; }
fi
pc=$(dirname "$(find "$prefix" -name keras-cpp.pc)")
flags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs keras-cpp)
# shellcheck disable=SC2086
g++ -O2 examples/consumer/main.cpp -o "$work/consumer-pkgconfig" $flags
"$work/consumer-pkgconfig"
