#!/usr/bin/env bash
# Installs the Debian 12 packages keras-cpp builds and tests with (as root; only missing ones).
#   ./scripts/install_deps.sh              # the packages below
#   ./scripts/install_deps.sh PACKAGE...   # these instead (tools only some scripts need)
set -euo pipefail

packages=(
  g++ cmake make pkg-config ccache
  doxygen  # the API reference (scripts/api_docs.sh; test.sh checks its doc comments)
  libgtest-dev libbenchmark-dev
  libopenblas-dev liblapacke-dev
  libzip-dev nlohmann-json3-dev libhdf5-dev zlib1g-dev libcli11-dev
  libcpp-httplib-dev  # RemoteMonitor and the serving tests' HTTP client
  libboost-dev  # keras-cpp serve's event loop and HTTP parser (Boost.Asio, Boost.Beast; header-only)
  libgrpc++-dev protobuf-compiler protobuf-compiler-grpc  # keras-cpp serve's gRPC API (TF Serving's)
  libpng-dev libjpeg62-turbo-dev libgif-dev libstb-dev  # image files (keras::utils::load_img)
  libsndfile1-dev  # WAV files (keras::utils::audio_dataset_from_directory; LGPL-2.1, linked shared)
  libkissfft-dev  # keras.ops.fft/rfft/stft and the audio layers (KISS FFT, BSD)
  libgloo-dev  # the collectives of multi-process jobs (keras::distribution)
  libtorch-dev  # the torch backend, its interop and the LibTorch side of bench/
  dataset-fashion-mnist
)
[ $# -gt 0 ] && packages=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi
