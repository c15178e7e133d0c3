#!/usr/bin/env bash
# The live round trip with Python Keras 3.15 (issue 16): keras-cpp writes .keras and .weights.h5
# files (models built in C++, and Keras's own fixture files saved again) with its predictions;
# Keras loads each one (safe_mode, no warnings allowed), predicts, loads the weights into its
# own build of the model and resumes training of the compiled one (tools/keras_oracle/interop.py).
# Needs a configured build/ (./scripts/build.sh); the pinned packages of
# requirements-interop.txt go into .cache/interop-venv. Exits non-zero on any failed check.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.cache/interop-venv
./scripts/python_env.sh "$venv" requirements-interop.txt
cmake --build build --target interop_models -j"$(nproc)"
out=build/interop
rm -rf "$out"
build/tools/interop/interop_models "$out" tests/oracle/fixtures
# Python Keras writes ~/.keras/keras.json on first import (naming its default backend, which
# keras-cpp would then read): give it a home of its own inside the checkout.
KERAS_HOME="$PWD/.cache/keras-home" "$venv/bin/python" tools/keras_oracle/interop.py "$out"
# Text models need Keras on TensorFlow (JAX arrays hold no strings), which this environment
# leaves out to keep CI's install small: with the oracle's environment at hand (./scripts/oracle.sh
# makes it), Keras loads keras-cpp's text models too (tools/keras_oracle/string_interop.py).
if [ -x .cache/oracle-venv/bin/python ]; then
  KERAS_HOME="$PWD/.cache/keras-home" .cache/oracle-venv/bin/python -W ignore \
    tools/keras_oracle/string_interop.py "$out/strings"
else
  echo "interop: text models skipped (no .cache/oracle-venv with TensorFlow; ./scripts/oracle.sh makes one)"
fi
