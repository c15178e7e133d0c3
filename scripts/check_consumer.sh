#!/usr/bin/env bash
# Builds examples/consumer against an installed keras-cpp tree, as a program outside the
# project would, and runs it: with CMake (find_package(keras_cpp), and its torch component when
# the tree has it: the consumer must then also run on the torch backend), with pkg-config, and
# against the shared library (keras::keras_shared), whose SONAME and exported symbols it checks.
# Usage: scripts/check_consumer.sh PREFIX WORK_DIR (used by test_install.sh and test_deb.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$1 work=$2
cmake -S examples/consumer -B "$work/consumer-cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/consumer-cmake" > /dev/null
out=$("$work/consumer-cmake/consumer")
echo "$out"
# The torch component needs LibTorch's CMake package (libtorch-dev, which the .deb suggests):
# with both, the consumer must also have run on the torch backend.
if [ -n "$(find "$prefix" -type d -name keras_torch)" ] &&
   [ -f /usr/lib/x86_64-linux-gnu/cmake/Torch/TorchConfig.cmake ]; then
  grep -q "on the torch backend predicts the same" <<<"$out" ||
    { echo "check_consumer: the consumer did not run on the installed torch backend" >&2; exit 1; }
fi
pc=$(dirname "$(find "$prefix" -name keras-cpp.pc)")
flags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs keras-cpp)
# shellcheck disable=SC2086
g++ -O2 examples/consumer/main.cpp -o "$work/consumer-pkgconfig" $flags
so=$(find "$prefix" -name 'libkeras.so.*.*.*' | head -1)
# (-lkeras finds libkeras.so where it is installed beside libkeras.a)
LD_LIBRARY_PATH="$(dirname "${so:-$pc}")" "$work/consumer-pkgconfig"

if [ -z "$so" ]; then
  echo "check_consumer: no libkeras.so in $prefix (built with KERAS_BUILD_SHARED_LIBRARY=OFF?)" >&2
  exit 1
fi
soname=$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')
[[ "$soname" =~ ^libkeras\.so\.[0-9]+\.[0-9]+$ ]] ||
  { echo "check_consumer: $so has SONAME '$soname', expected libkeras.so.MAJOR.MINOR" >&2; exit 1; }
cmake -S examples/consumer -B "$work/consumer-shared" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release -DCONSUMER_SHARED=ON > /dev/null
cmake --build "$work/consumer-shared" > /dev/null
objdump -p "$work/consumer-shared/consumer" | grep -q "NEEDED *$soname" ||
  { echo "check_consumer: the shared consumer does not load $soname" >&2; exit 1; }
LD_LIBRARY_PATH="$(dirname "$so")" "$work/consumer-shared/consumer"
# Every installed header that declares something opens and closes the default visibility.
unwrapped=$(grep -rlE '^namespace ' "$prefix/include/keras" | xargs grep -L 'visibility pop' || true)
if [ -n "$unwrapped" ]; then
  echo "check_consumer: public headers without '#pragma GCC visibility push(default)'/'pop'" \
    "(their declarations would be hidden in libkeras.so):" $unwrapped >&2
  exit 1
fi
# Exported: what the public headers declare; hidden: the backends' and the front end's internals.
# A symbol is internal when its own qualified name (not a return type or a template argument:
# libstdc++'s templates keep default visibility whatever they are instantiated with) is in a
# namespace no public header declares.
nm -D --defined-only -C "$so" | cut -d' ' -f3- > "$work/exported.txt"
public=$(grep -c -e '^keras::ops::matmul(' -e '^keras::saving::load_model(' \
  -e '^typeinfo for keras::ValueError$' "$work/exported.txt" || true)
python3 - "$work/exported.txt" > "$work/internal.txt" <<'PY'
import re, sys
internal = re.compile(r"(keras::(cpu|onnx|compiler::detail)::|.*\(anonymous namespace\))")
for line in open(sys.argv[1]):
    name = re.sub(r"^(vtable|typeinfo|typeinfo name|guard variable|VTT) for ", "", line.strip())
    depth, head = 0, name.split("(", 1)[0]
    for i, c in enumerate(head):  # drop a return type: text before a space outside <...>
        depth += (c == "<") - (c == ">")
        if c == " " and depth == 0:
            name = name[i + 1:]
            break
    if internal.match(name):
        print(line.strip())
PY
internal=$(wc -l < "$work/internal.txt")
echo "libkeras.so: SONAME $soname, $(wc -l < "$work/exported.txt") exported symbols, $internal internal"
if [ "$public" -lt 3 ] || [ "$internal" -ne 0 ]; then
  echo "check_consumer: libkeras.so exports $public of 3 API symbols checked and $internal" \
    "internal ones:" >&2
  head -20 "$work/internal.txt" >&2
  exit 1
fi
