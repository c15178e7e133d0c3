#!/usr/bin/env bash
# Builds the Debian package (cpack, cmake/Packaging.cmake) and checks it as an installer would,
# without installing it on this machine: its control fields (Depends: the -dev packages the
# installed CMake package and .pc file look for, and the keras-cpp command's shared libraries),
# that apt resolves every dependency (apt-get install --simulate changes nothing), and then the
# package's files unpacked into a temporary root: the keras-cpp command runs, and
# examples/consumer builds against them with CMake and with pkg-config and passes. CI runs it
# after scripts/test_install.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || ./scripts/build.sh
cmake --build build -j"$(nproc)" > /dev/null
rm -f build/keras-cpp_*.deb
(cd build && cpack -G DEB > /dev/null)
deb=$(ls build/keras-cpp_*.deb)
echo "built $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb --field "$deb" Package Version Architecture Section
depends=$(dpkg-deb --field "$deb" Depends)
echo "Depends: $depends"
for p in libopenblas-dev liblapacke-dev libhdf5-dev libzip-dev nlohmann-json3-dev libsndfile1-dev \
         pkgconf libtorch; do
  grep -q "$p" <<<"$depends" || { echo "test_deb: Depends lacks $p" >&2; exit 1; }
done
# Every dependency can be installed from the archive (as root, which CI is; nothing changes).
if [ "$(id -u)" = 0 ]; then
  apt-get install --simulate -qq "./$deb" > /dev/null
  echo "apt-get install --simulate ./$(basename "$deb"): dependencies resolve"
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
for f in usr/bin/keras-cpp usr/include/keras/keras.h usr/share/doc/keras-cpp/copyright; do
  [ -e "$root/$f" ] || { echo "test_deb: the package has no /$f" >&2; exit 1; }
done
lib=$(find "$root/usr" -name libkeras.a)
[ -n "$lib" ] || { echo "test_deb: the package has no libkeras.a" >&2; exit 1; }
"$root/usr/bin/keras-cpp" --help > /dev/null

scripts/check_consumer.sh "$root/usr" "$root"
echo "deb test: package fields, dependencies and both consumers passed"
