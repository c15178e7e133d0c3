#!/usr/bin/env bash
# Regenerates the fixtures written by real Keras 3.15 (tools/keras_oracle -> tests/oracle/fixtures)
# in a virtual environment under .cache/ with the pinned packages of requirements-oracle.txt.
# The fixtures are committed, so ./scripts/test.sh needs no Python. Extra arguments name scripts
# to run (default: all of them), e.g. ./scripts/oracle.sh ops layers
set -euo pipefail
cd "$(dirname "$0")/.."
# Python Keras writes ~/.keras/keras.json on first import; keep it inside the checkout.
export KERAS_HOME="$PWD/.cache/keras-home"
venv=.cache/oracle-venv
./scripts/python_env.sh "$venv" requirements-oracle.txt
# tensorflow-serving-api (grpc_serving.py's client) names `tensorflow` as a dependency, whose
# modules tensorflow-cpu already holds: installed without its dependencies.
"$venv/bin/pip" install -q --no-deps tensorflow-serving-api==2.21.0
scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
  # Every generator, in an order that respects their inputs: configs reads the layers_*.npz
  # fixtures. (ops_adapters, ops_differs and ops_edge_cases are modules of ops.py.)
  scripts=(ops fft complex complex_linalg complex_rest complex_weights result_type layers conv_lstm configs layer_functions losses_metrics optimizers models
           legacy_h5 training mixed_precision summaries graphs op_nodes ctc layer_files lora
           quantize quantize_int4 quantize_float8 image_io image_ops image_layers image_layers_colour
           image_layers_geometric einops qlora tensorboard_events remote_monitor optimizers_muon_sf
           multi_optimizer hashing text_lookup string_graphs text_dataset audio_dataset gptq_awq
           grpc_serving)
fi
for name in "${scripts[@]}"; do
  echo "== tools/keras_oracle/$name.py"
  "$venv/bin/python" -W ignore "tools/keras_oracle/$name.py"
done
