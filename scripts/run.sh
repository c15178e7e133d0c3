#!/usr/bin/env bash
# The main job: installs what is missing, builds keras-cpp in Release and trains a CNN on
# Fashion-MNIST (Debian's dataset-fashion-mnist) with compile/fit: the model summary, Keras's
# progress bar, the test accuracy, then fashion_mnist.keras, history.csv and
# training_curves.svg in the output folder (default: run/). Arguments go to the example:
#   ./scripts/run.sh --epochs 2 --samples 10000 --backend cpu --out run
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the main job runs: the example and the keras-cpp command (the keras_main_job target;
# the tests are most of the rest of a default build).
KERAS_BUILD_TARGETS=keras_main_job ./scripts/build.sh -DKERAS_BUILD_EXAMPLES=ON
out=run
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  if [ "${args[i]}" = "--out" ]; then out="${args[i + 1]}"; fi
done
./build/examples/fashion_mnist_cnn --out "$out" "$@"
./build/tools/cli/keras-cpp plot-history "$out/history.csv" -o "$out/training_curves.svg" \
  --title "Fashion-MNIST CNN"
echo "wrote $out/training_curves.svg"
