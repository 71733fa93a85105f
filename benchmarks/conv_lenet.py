"""LeNet-style convnet, one SGD step (forward, backward, update) on a batch of 64 MNIST-sized
images: Chainer on NumPy against PyTorch CPU, side by side at the same thread count.

conv 5x5 (1 -> 20) -> relu -> max-pool 2 -> conv 5x5 (20 -> 50) -> relu -> max-pool 2
-> linear (800 -> 500) -> relu -> linear (500 -> 10) -> softmax cross entropy.

Usage: ``python conv_lenet.py [threads]`` (default 1). The thread count is set for OpenBLAS
(NumPy) and for PyTorch alike, before NumPy is imported.
"""

from __future__ import annotations

import os
import sys

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1
os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(THREADS)

import numpy as np  # noqa: E402  (the thread count must be set first)
from _timing import measure_side_by_side, report  # noqa: E402

BATCH = 64
LR = 0.01
SHAPES = {
    "conv1.W": (20, 1, 5, 5),
    "conv1.b": (20,),
    "conv2.W": (50, 20, 5, 5),
    "conv2.b": (50,),
    "fc1.W": (500, 800),
    "fc1.b": (500,),
    "fc2.W": (10, 500),
    "fc2.b": (10,),
}


def initial_params() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    params = {}
    for name, shape in SHAPES.items():
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        scale = np.sqrt(2.0 / fan_in) if len(shape) > 1 else 0.0
        params[name] = (rng.standard_normal(shape) * scale).astype(np.float32)
    return params


def batch() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 1, (BATCH, 1, 28, 28)).astype(np.float32)
    t = rng.integers(0, 10, BATCH).astype(np.int32)
    return x, t


def chainer_step(device_spec: str = "@numpy"):
    """Return (step, grads): one SGD step on ``device_spec`` (``native:0``: Chainer on
    ChainerX), and a function giving the last gradients as NumPy arrays."""
    import chainer
    import chainer.functions as F

    device = chainer.get_device(device_spec)
    params = {k: chainer.Parameter(device.send(v)) for k, v in initial_params().items()}
    x, t = (device.send(a) for a in batch())
    p = params

    def loss():
        h = F.max_pooling_2d(F.relu(F.convolution_2d(x, p["conv1.W"], p["conv1.b"])), 2)
        h = F.max_pooling_2d(F.relu(F.convolution_2d(h, p["conv2.W"], p["conv2.b"])), 2)
        h = F.relu(F.linear(h, p["fc1.W"], p["fc1.b"]))
        return F.softmax_cross_entropy(F.linear(h, p["fc2.W"], p["fc2.b"]), t)

    def step():
        for param in params.values():
            param.cleargrad()
        loss().backward()
        for param in params.values():
            param.array -= LR * param.grad

    def grads():
        for param in params.values():
            param.cleargrad()
        loss().backward()
        return {k: chainer.backend.CpuDevice().send(v.grad) for k, v in params.items()}

    return step, grads


def torch_step(stride: int = 1, pool: bool = True):
    """PyTorch's (step, grads); ``stride``/``pool`` give chainerx_lenet.py's strided variant."""
    import torch
    import torch.nn.functional as tf

    torch.set_num_threads(THREADS)
    params = {k: torch.tensor(v, requires_grad=True) for k, v in initial_params().items()}
    x, t = (torch.tensor(a) for a in batch())
    t = t.long()
    p = params

    def conv_block(h, name):
        h = tf.relu(tf.conv2d(h, p[f"{name}.W"], p[f"{name}.b"], stride=stride))
        return tf.max_pool2d(h, 2) if pool else h

    def loss():
        h = conv_block(conv_block(x, "conv1"), "conv2")
        h = tf.relu(tf.linear(h.reshape(BATCH, -1), p["fc1.W"], p["fc1.b"]))
        return tf.cross_entropy(tf.linear(h, p["fc2.W"], p["fc2.b"]), t)

    def step():
        for param in params.values():
            param.grad = None
        loss().backward()
        with torch.no_grad():
            for param in params.values():
                param -= LR * param.grad

    def grads():
        for param in params.values():
            param.grad = None
        loss().backward()
        return {k: v.grad.numpy() for k, v in params.items()}

    return step, grads


def check_same_gradients(contenders: dict) -> None:
    reference = None
    for _, grads in contenders.values():
        got = grads()
        if reference is None:
            reference = got
            continue
        for name in SHAPES:
            np.testing.assert_allclose(got[name], reference[name], rtol=2e-3, atol=2e-5)


def main() -> str:
    contenders = {"chainer (numpy)": chainer_step()}
    try:
        contenders["pytorch cpu"] = torch_step()
    except ImportError:
        pass
    check_same_gradients(contenders)
    # Many short rounds: on a shared machine the best round is the least disturbed one.
    steps = {k: v[0] for k, v in contenders.items()}
    results = measure_side_by_side(steps, number=2, repeat=30)
    baseline = "pytorch cpu" if "pytorch cpu" in results else "chainer (numpy)"
    title = f"LeNet-style SGD step, batch {BATCH}, {THREADS} thread(s)"
    return report(title, results, baseline)


if __name__ == "__main__":
    print(main())
