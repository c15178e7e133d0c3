#!/usr/bin/env bash
# Talks to a running `keras-cpp serve` the way any TensorFlow Serving client does, with curl.
#
# Start the server first, in another terminal (the trained CNN of ../shared/models here):
#   build/tools/cli/keras-cpp serve ../shared/models/fashion_mnist_cnn.keras --name fashion
# then:
#   examples/serve_client.sh [HOST:PORT] [NAME]
set -euo pipefail

server=${1:-localhost:8501}
name=${2:-fashion}
base="http://$server/v1/models/$name"

# Is the model loaded? {"model_version_status": [{"version": "1", "state": "AVAILABLE", ...}]}
curl -s "$base"
echo

# Its signature: input and output names, dtypes (DT_FLOAT, ...) and shapes (-1 = any batch).
curl -s "$base/metadata"
echo

# One 28x28x1 image (all zeros), row format: "instances" is a list of instances, the answer
# {"predictions": [[10 class probabilities]]}. A model with several inputs takes one object
# per instance, keyed by input name: {"instances": [{"a": [...], "b": [...]}]}.
image=$(python3 -c 'import json; print(json.dumps([[[0.0]] * 28] * 28))')
curl -s -X POST "$base:predict" -H 'Content-Type: application/json' \
  -d "{\"instances\": [$image]}"
echo

# The same in the columnar format: "inputs" holds the whole batch (several inputs: an object
# keyed by input name); the answer is {"outputs": [[...]]}.
curl -s -X POST "$base:predict" -d "{\"inputs\": [$image, $image]}"
echo

# A mistake gets its HTTP status and {"error": "..."} naming what is wrong (here 400: the
# model takes instances of shape (28, 28, 1)).
curl -s -w ' (HTTP %{http_code})\n' -X POST "$base:predict" -d '{"instances": [[1, 2, 3]]}'

# Prometheus metrics: requests by status code, latency and batch size histograms.
curl -s "http://$server/metrics" | grep -E '^keras_serving_(requests_total|batch_size_count|merged)'
