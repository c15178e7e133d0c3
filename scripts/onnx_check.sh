#!/usr/bin/env bash
# ONNX export checked against ONNX Runtime: keras-cpp exports models built in C++ (every
# converter of src/saving/onnx, weights randomized), the trained files of ../shared/models and
# models Keras saved for the check (tests/oracle/fixtures/onnx_masks) to ONNX with its own predictions (tools/onnx/export_models.cpp); the ONNX checker validates
# each file and ONNX Runtime reproduces the predictions at batch 3 and 2 (tools/onnx/check_onnx.py).
# Needs a configured build/ (./scripts/build.sh); the pinned packages of requirements-onnx.txt
# go into .cache/onnx-venv. KERAS_SHARED_MODELS overrides the folder of the trained files.
# Exits non-zero on any failed check.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.cache/onnx-venv
./scripts/python_env.sh "$venv" requirements-onnx.txt
cmake --build build --target onnx_export_models -j"$(nproc)"
out=build/onnx
rm -rf "$out"
build/tools/onnx/onnx_export_models "$out" "${KERAS_SHARED_MODELS:-$PWD/../shared/models}" \
  tests/oracle/fixtures
"$venv/bin/python" tools/onnx/check_onnx.py "$out"
