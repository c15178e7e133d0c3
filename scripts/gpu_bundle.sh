#!/usr/bin/env bash
# Downloads the Debian packages the GPU check needs (the build dependencies of the library and
# its tests, with every package they depend on) into .cache/gpu-bundle/debs, for a GPU machine
# that has no package archive: scripts/gpu_check.sh installs from there what that machine lacks.
# Run it on a Debian 12 machine with the archive (no root needed). The folder is carried to the
# GPU machine with the checkout (git-ignored; about 45 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.cache/gpu-bundle/debs
mkdir -p "$out"
# The library's and the tests' build dependencies (scripts/install_deps.sh less the optional
# ones: LibTorch, Gloo, Google Benchmark, the dataset; and less the model server's Boost and
# gRPC, since gpu_check.sh builds with -DKERAS_BUILD_SERVING=OFF).
packages=(
  libgtest-dev libopenblas-dev liblapacke-dev libzip-dev nlohmann-json3-dev libhdf5-dev
  zlib1g-dev libcli11-dev libcpp-httplib-dev libpng-dev libjpeg62-turbo-dev libgif-dev
  libstb-dev libsndfile1-dev libkissfft-dev pkg-config ccache
)
# What installing them on an empty system would install (apt's own resolution, one provider
# per virtual package), less what every Debian system has (essential and required packages:
# libc, coreutils, ...), which the GPU machine's own system provides.
empty_status=$(mktemp)
trap 'rm -f "$empty_status"' EXIT
mapfile -t closure < <(apt-get install -s --no-install-recommends \
  -o Dir::State::Status="$empty_status" "${packages[@]}" 2>/dev/null | awk '/^Inst/ {print $2}')
wanted=()
for p in "${closure[@]}"; do
  fields=$(apt-cache show --no-all-versions "$p" 2>/dev/null)
  grep -q '^Essential: yes' <<< "$fields" && continue
  grep -q '^Priority: required' <<< "$fields" && continue
  wanted+=("$p")
done
(cd "$out" && apt-get download "${wanted[@]}" > /dev/null)
echo "gpu_bundle: ${#wanted[@]} packages, $(du -sh "$out" | cut -f1) in $out"
