#!/usr/bin/env bash
# The main job: builds keras-cpp and trains a classifier on Fashion-MNIST (Debian's
# dataset-fashion-mnist, which scripts/install_deps.sh installs) with compile/fit, printing
# Keras's progress bar, then evaluates it on the test images. Arguments go to the example
# (e.g. --samples 10000 --epochs 2).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh -DKERAS_BUILD_EXAMPLES=ON
./build/examples/fashion_mnist "$@"
