"""TF Serving's gRPC API as its own client speaks it, for tests/serving_grpc/official_client_test.cpp:
PredictRequest messages serialized by tensorflow-serving-api 2.21 (tf.make_tensor_proto and
predict_pb2, the classes TF Serving's Python clients use), and Keras 3.15's predictions for them:
    tests/oracle/fixtures/grpc_serving/<case>.bin    the request's bytes
    tests/oracle/fixtures/grpc_serving/expected.npz  "<case>.<output>": Keras's outputs
    tests/oracle/fixtures/grpc_serving/cases.json    each case's model and outputs
    tests/oracle/fixtures/grpc_serving/two_inputs.keras  a model with float32 and int32 inputs
The Fashion-MNIST cases run ../shared/models/fashion_mnist_cnn.keras.

With a built keras-cpp (build/tools/cli/keras-cpp, or $KERAS_CPP_CLI), it then runs `keras-cpp
serve --grpc-port` on both models and checks, through tensorflow-serving-api's stubs, that
Predict returns Keras's outputs (parsed by TF's own TensorProto code: tf.make_ndarray), that
GetModelMetadata's SignatureDefMap and GetModelStatus parse, and that an unknown model is
NOT_FOUND; it exits 1 on any difference.
Run: ./scripts/oracle.sh grpc_serving
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up Keras on JAX first)

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import tensor_pb2, types_pb2  # noqa: E402
from tensorflow_serving.apis import predict_pb2  # noqa: E402

FOLDER = os.path.join(oracle.ORACLE_DIR, "grpc_serving")
FASHION = os.path.join(oracle.ROOT, "..", "shared", "models", "fashion_mnist_cnn.keras")


def two_inputs_model():
    features = keras.Input(shape=(4,), name="features")
    ids = keras.Input(shape=(3,), dtype="int32", name="ids")
    embedded = keras.layers.Flatten()(keras.layers.Embedding(10, 2)(ids))
    joined = keras.layers.Concatenate()([features, embedded])
    scores = keras.layers.Dense(3, name="scores")(joined)
    prob = keras.layers.Dense(1, activation="sigmoid", name="prob")(joined)
    return keras.Model([features, ids], [scores, prob])


def typed_list(dtype, shape, field, values):
    """A TensorProto with its values in a typed list (what clients in other languages send)."""
    t = tensor_pb2.TensorProto(dtype=dtype)
    for d in shape:
        t.tensor_shape.dim.add().size = d
    getattr(t, field).extend(values)
    return t


def main():
    os.makedirs(FOLDER, exist_ok=True)
    rng = np.random.RandomState(11)
    fashion = keras.saving.load_model(FASHION)
    keras.utils.set_random_seed(4)
    two = two_inputs_model()
    two.save(os.path.join(FOLDER, "two_inputs.keras"))
    images = rng.rand(3, 28, 28, 1).astype(np.float32)
    features = rng.randn(2, 4).astype(np.float32)
    ids = np.array([[1, 2, 3], [9, 0, 4]], dtype=np.int32)
    cases = {}
    expected = {}

    def case(name, model_name, model, inputs, x, outputs=None, version=None, label=None):
        request = predict_pb2.PredictRequest()
        request.model_spec.name = model_name
        request.model_spec.signature_name = "serving_default"
        if version is not None:
            request.model_spec.version.value = version
        for key, tensor in inputs.items():
            request.inputs[key].CopyFrom(tensor)
        if outputs:
            request.output_filter.extend(outputs)
        with open(os.path.join(FOLDER, name + ".bin"), "wb") as f:
            f.write(request.SerializeToString())
        y = model.predict(x, verbose=0)
        y = y if isinstance(y, list) else [y]
        names = [t._keras_history[0].name for t in model.outputs]  # the output layers
        kept = outputs or names
        for n, v in zip(names, y):
            if n in kept:
                expected[name + "." + n] = np.asarray(v)
        cases[name] = {"model": model_name, "outputs": sorted(kept)}

    # tensor_content: what tf.make_tensor_proto makes of a NumPy array.
    case("fashion_tensor_content", "fashion", fashion,
         {"input_layer": tf.make_tensor_proto(images)}, images)
    # float_val: one image as a list of floats.
    case("fashion_float_val", "fashion", fashion,
         {"input_layer": typed_list(types_pb2.DT_FLOAT, [1, 28, 28, 1], "float_val",
                                    images[0].ravel().tolist())}, images[:1])
    # One value for a whole shape: TensorFlow repeats the last value (make_tensor_proto's scalar).
    case("fashion_fill", "fashion", fashion,
         {"input_layer": tf.make_tensor_proto(0.25, shape=[2, 28, 28, 1], dtype=tf.float32)},
         np.full((2, 28, 28, 1), 0.25, np.float32))
    # Two inputs by name (DT_INT32 from a Python list), a version, one output of two.
    case("two_inputs", "two", two,
         {"features": tf.make_tensor_proto(features), "ids": tf.make_tensor_proto(ids.tolist())},
         [features, ids], outputs=["prob"], version=1)
    # DT_DOUBLE features (converted to float32) and int64_val ids; both outputs.
    case("two_inputs_double_int64", "two", two,
         {"features": tf.make_tensor_proto(features.astype(np.float64)),
          "ids": typed_list(types_pb2.DT_INT64, [2, 3], "int64_val", ids.ravel().tolist())},
         [features, ids])
    np.savez(os.path.join(FOLDER, "expected.npz"), **expected)
    with open(os.path.join(FOLDER, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)
    print(f"grpc_serving: {len(cases)} requests, {len(expected)} outputs")
    live_check(cases, expected)


def live_check(cases, expected):
    cli = os.environ.get("KERAS_CPP_CLI", os.path.join(oracle.ROOT, "build", "tools", "cli", "keras-cpp"))
    if not os.path.exists(cli):
        print(f"grpc_serving: no {cli}: the live check against keras-cpp serve is skipped")
        return
    import grpc
    from tensorflow_serving.apis import (get_model_metadata_pb2, get_model_status_pb2,
                                         model_service_pb2_grpc, prediction_service_pb2_grpc)
    config = os.path.join(FOLDER, "..", "grpc_serving_models.json")
    with open(config, "w") as f:
        json.dump({"models": [{"name": "fashion", "path": os.path.abspath(FASHION)},
                              {"name": "two", "path": os.path.join(FOLDER, "two_inputs.keras")}]}, f)
    server = subprocess.Popen([cli, "serve", "--model-config", config, "--port", "0", "--grpc-port", "0",
                               "--host", "127.0.0.1", "--poll-interval-s", "0"],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "KERAS_HOME": os.devnull})
    failures = 0
    try:
        port = None
        for line in server.stdout:
            if line.startswith("grpc listening on port "):
                port = int(line.split()[-1])
                break
        os.remove(config)
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = prediction_service_pb2_grpc.PredictionServiceStub(channel)
        for name, c in cases.items():
            request = predict_pb2.PredictRequest.FromString(open(os.path.join(FOLDER, name + ".bin"), "rb").read())
            response = stub.Predict(request, timeout=30)
            if sorted(response.outputs.keys()) != c["outputs"]:
                print(f"  {name}: outputs {sorted(response.outputs.keys())}, expected {c['outputs']}")
                failures += 1
            for out in c["outputs"]:
                got = tf.make_ndarray(response.outputs[out])
                want = expected[name + "." + out]
                if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5, atol=1e-6):
                    print(f"  {name}.{out}: max diff {np.abs(got - want).max()}")
                    failures += 1
        meta = stub.GetModelMetadata(get_model_metadata_pb2.GetModelMetadataRequest(
            model_spec={"name": "two"}, metadata_field=["signature_def"]), timeout=30)
        signatures = get_model_metadata_pb2.SignatureDefMap()
        meta.metadata["signature_def"].Unpack(signatures)
        inputs = signatures.signature_def["serving_default"].inputs
        if sorted(inputs) != ["features", "ids"] or inputs["ids"].dtype != types_pb2.DT_INT32:
            print(f"  metadata: {signatures}")
            failures += 1
        status = model_service_pb2_grpc.ModelServiceStub(channel).GetModelStatus(
            get_model_status_pb2.GetModelStatusRequest(model_spec={"name": "fashion"}), timeout=30)
        if [s.state for s in status.model_version_status] != [30]:  # AVAILABLE
            print(f"  status: {status}")
            failures += 1
        try:
            stub.Predict(predict_pb2.PredictRequest(model_spec={"name": "nope"}), timeout=30)
            failures += 1
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.NOT_FOUND:
                print(f"  unknown model: {e.code()} {e.details()}")
                failures += 1
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"grpc_serving: live check against {cli}: {'passed' if failures == 0 else f'{failures} failed'}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
