#!/usr/bin/env bash
# keras-cpp's keras.applications against Keras 3.15 (issue 20): Keras builds each architecture
# with weights=None, gives it distinct random weights and writes its config, weights (.keras,
# .weights.h5, legacy .h5) and predictions on fixed images (tools/keras_oracle/applications.py);
# keras-cpp builds the same architecture, compares config and weights, loads each file and
# predicts (tools/applications/check_applications.cpp). Prints the agreement table.
#   ./scripts/applications_check.sh          every family at a small input size (CI)
#   ./scripts/applications_check.sh --all    also every architecture at its default size
#   ./scripts/applications_check.sh --only resnet50,vgg16
# Needs a configured build/ with tests (./scripts/test.sh); the pinned packages of
# requirements-interop.txt go into .cache/interop-venv.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.cache/interop-venv
./scripts/python_env.sh "$venv" requirements-interop.txt
cmake --build build --target check_applications -j"$(nproc)"
out=build/applications
rm -rf "$out"
KERAS_HOME="$PWD/.cache/keras-home" "$venv/bin/python" -W ignore tools/keras_oracle/applications.py "$out" "$@"
# keras-cpp reads keras.json too: an empty home of its own, not the one Python Keras wrote.
mkdir -p "$out/cpp-home"
KERAS_HOME="$out/cpp-home" build/tools/applications/check_applications "$out"
rm -rf "$out"
