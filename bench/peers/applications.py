"""The peers of bench/applications.sh: inference of a keras.applications architecture as a
PyTorch user (torchvision's model of the same architecture, eval mode, inference_mode, NCHW)
or an ONNX Runtime user (keras-cpp's model exported to ONNX by keras-cpp, so the same weights)
writes it; prints `ms_per_batch` and `samples_per_s` as bench_applications does.

    python applications.py MODEL --peer torch|onnxruntime --batch B --iters N [--threads T]
                           [--onnx FILE]

MODEL: resnet50, mobilenet_v2, efficientnet_b0 (torchvision: resnet50, mobilenet_v2,
efficientnet_b0, random weights). Images: uniform in [-1, 1], 224x224x3, 3 warm-up calls.
"""

import argparse
import time

import numpy as np


def run_torch(args):
    import torch
    import torchvision

    torch.set_num_threads(args.threads)
    model = getattr(torchvision.models, args.model)(weights=None).eval()
    x = torch.from_numpy(images(args.batch).transpose(0, 3, 1, 2).copy())
    with torch.inference_mode():
        return timed(lambda: model(x), args.iters)


def run_onnxruntime(args):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    session = ort.InferenceSession(args.onnx, options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    x = images(args.batch)
    return timed(lambda: session.run(None, {name: x}), args.iters)


def images(batch):
    return np.random.default_rng(7).uniform(-1, 1, (batch, 224, 224, 3)).astype(np.float32)


def timed(call, iters):
    for _ in range(3):
        call()
    start = time.perf_counter()
    for _ in range(iters):
        call()
    return (time.perf_counter() - start) / iters


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--peer", required=True, choices=["torch", "onnxruntime"])
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--onnx")
    args = p.parse_args()
    seconds = run_torch(args) if args.peer == "torch" else run_onnxruntime(args)
    print(f"ms_per_batch: {1e3 * seconds:.6g}")
    print(f"samples_per_s: {args.batch / seconds:.6g}", flush=True)


if __name__ == "__main__":
    main()
