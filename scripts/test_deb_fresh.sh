#!/usr/bin/env bash
# Installs keras-cpp's .deb on a fresh Debian 12: a bookworm root made by debootstrap (the
# minimal base system, nothing of this machine's), where apt installs the package with the
# dependencies its control file declares, and examples/consumer then builds and runs against it
# (CMake package, pkg-config, the shared library: scripts/check_consumer.sh). Needs root and
# Debian's archive, downloads about 1 GB and takes several minutes, so CI does not run it (CI's
# scripts/test_deb.sh checks the same package with `apt-get install --simulate` instead).
#   ./scripts/test_deb_fresh.sh [ROOT_DIR]   # default: a new folder under /var/tmp, removed after
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "test_deb_fresh: needs root (debootstrap, chroot)" >&2; exit 1; }
deb=$(ls build/keras-cpp_*.deb 2> /dev/null | head -1)
[ -n "$deb" ] || { echo "test_deb_fresh: no build/keras-cpp_*.deb: run scripts/test_deb.sh first" >&2; exit 1; }
command -v debootstrap > /dev/null || ./scripts/install_deps.sh debootstrap
root=${1:-$(mktemp -d /var/tmp/keras-fresh.XXXXXX)}
cleanup() {
  umount "$root/proc" 2> /dev/null || true
  [ -n "${1:-}" ] || rm -rf "$root"
}
trap 'cleanup "${1:-}"' EXIT
if [ ! -x "$root/usr/bin/apt-get" ]; then
  log=$(mktemp)
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian > "$log" 2>&1 ||
    { tail -20 "$log" >&2; rm -f "$log"; exit 1; }
  rm -f "$log"
fi
mount -t proc proc "$root/proc"
mkdir -p "$root/tmp/keras-check/scripts" "$root/tmp/keras-check/examples"
cp "$deb" "$root/tmp/"
cp scripts/check_consumer.sh "$root/tmp/keras-check/scripts/"
cp -r examples/consumer "$root/tmp/keras-check/examples/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
in_root apt-get update -qq
# The package with what its control file declares; then only the tools a user builds with.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "/tmp/$(basename "$deb")" > /dev/null
echo "installed $(basename "$deb") on a fresh bookworm root with $(in_root dpkg -l | grep -c '^ii') packages"
in_root keras-cpp --help > /dev/null
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  g++ cmake make pkgconf binutils python3 > /dev/null
in_root bash -c 'cd /tmp/keras-check && scripts/check_consumer.sh /usr /tmp/keras-work'
echo "without libtorch-dev: the consumers passed (cpu backend)"
# The torch component with the package the .deb suggests for it.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  libtorch-dev > /dev/null
in_root bash -c 'cd /tmp/keras-check && rm -rf /tmp/keras-work && scripts/check_consumer.sh /usr /tmp/keras-work'
echo "with libtorch-dev: the consumers passed, the CMake one on the torch backend too"
echo "deb on a fresh Debian 12: installed with its declared dependencies; the consumers passed"
