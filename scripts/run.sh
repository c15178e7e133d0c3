#!/usr/bin/env bash
# The main job: builds keras-cpp and runs the demo, a small model trained with keras::ops and
# autograd.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh -DKERAS_BUILD_EXAMPLES=ON
./build/examples/train_demo "$@"
