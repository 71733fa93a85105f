"""ONNX export: ResNet-50 export time, and onnxruntime vs Chainer forward time at batch 1.

Random weights (``pretrained_model=None``), input 1x3x224x224, ``chainer.config.train`` False.
Forward times are the best of interleaved rounds (see ``_timing``); the ratio is
onnxruntime / Chainer (below 1: onnxruntime is faster). onnxruntime gets the same thread count.

Usage: ``python onnx_export.py [threads] [rounds]`` (defaults 2 and 5).
"""

from __future__ import annotations

import os
import sys
import time

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(THREADS)

import numpy as np  # noqa: E402  (the thread count must be set first)
import onnxruntime  # noqa: E402
from _timing import measure_side_by_side  # noqa: E402

import chainer  # noqa: E402
import chainer.links as L  # noqa: E402
import onnx_chainer  # noqa: E402


def export_seconds(model, x) -> tuple[float, bytes]:
    best, data = float("inf"), b""
    for _ in range(3):
        start = time.perf_counter()
        proto = onnx_chainer.export(model, x)
        data = proto.SerializeToString()
        best = min(best, time.perf_counter() - start)
    return best, data


def forward_ratio(name: str, model, x, data: bytes) -> str:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = THREADS
    session = onnxruntime.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: x}
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        expected = next(iter(model(x).values())).array
    got = session.run(None, feed)[0]
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-5)

    def chainer_forward():
        with chainer.using_config("train", False), chainer.no_backprop_mode():
            model(x)

    times = measure_side_by_side(
        {"chainer": chainer_forward, "onnxruntime": lambda: session.run(None, feed)},
        number=1,
        repeat=ROUNDS,
    )
    ratio = times["onnxruntime"] / times["chainer"]
    return (
        f"{name:<10} chainer {times['chainer'] * 1e3:8.1f} ms   onnxruntime "
        f"{times['onnxruntime'] * 1e3:8.1f} ms   ratio {ratio:5.2f}"
    )


def main() -> None:
    x = np.random.RandomState(0).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
    print(f"threads {THREADS}, onnx opset {onnx_chainer.MAXIMUM_OPSET_VERSION}")
    resnet = L.ResNet50Layers(pretrained_model=None)
    seconds, resnet_data = export_seconds(resnet, x)
    print(f"ResNet-50 export (trace + convert + check), best of 3: {seconds:.2f} s")
    print(forward_ratio("ResNet-50", resnet, x, resnet_data))
    vgg = L.VGG16Layers(pretrained_model=None)
    seconds, vgg_data = export_seconds(vgg, x)
    print(f"VGG16 export, best of 3: {seconds:.2f} s")
    print(forward_ratio("VGG16", vgg, x, vgg_data))


if __name__ == "__main__":
    main()
