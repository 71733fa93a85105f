"""LeNet-style convnet, one SGD step (forward, backward, update) on a batch of 64 MNIST-sized
images: ChainerX against PyTorch CPU, side by side at the same thread count.

conv 5x5 (1 -> 20) -> relu -> max-pool 2 -> conv 5x5 (20 -> 50) -> relu -> max-pool 2
-> linear (800 -> 500) -> relu -> linear (500 -> 10) -> softmax cross entropy.

The net is ``conv_lenet.py``'s, written with ChainerX routines (``conv``, ``max_pool``,
``linear``, ``softmax_cross_entropy``) and with PyTorch's functional API. The ``strided``
variant drops the pooling and gives both convolutions stride 2 instead (same shapes from the
first linear layer on), which times the convolutions alone.
Goal: ChainerX at most 1.2x PyTorch's time.

Usage: ``python chainerx_lenet.py [threads] [maxpool|strided] [chainerx|pytorch|chainer]``
(default 1, maxpool, all; ``chainer`` is Chainer on ChainerX, ``native:0``). The thread count
is set through ``OPENBLAS_NUM_THREADS`` (which sizes ChainerX's native thread pool) and for
PyTorch alike, before anything loads. With more than one thread the two contenders' worker
threads compete for the cores when timed in one process; naming one contender times it alone:
run the script once per contender (alternately, several times) for the fair multi-thread
comparison.
"""

from __future__ import annotations

import os
import sys

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1
VARIANT = sys.argv[2] if len(sys.argv) > 2 else "maxpool"
ONLY = sys.argv[3] if len(sys.argv) > 3 else None
STRIDE = 2 if VARIANT == "strided" else 1
os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(THREADS)

import numpy as np  # noqa: E402  (the thread count must be set first)
from _timing import measure_side_by_side, report  # noqa: E402
from conv_lenet import (  # noqa: E402
    BATCH,
    LR,
    SHAPES,
    batch,
    chainer_step,
    initial_params,
    torch_step,
)


def chainerx_step():
    """Return (step, grads): one SGD step, and a function giving the last gradients."""
    import chainerx as chx

    params = {k: chx.array(v).require_grad() for k, v in initial_params().items()}
    x_np, t_np = batch()
    x = chx.array(x_np)
    t = chx.array(t_np)
    p = params

    def pool(h):
        return h if VARIANT == "strided" else chx.max_pool(h, 2)

    def loss():
        h = pool(chx.relu(chx.conv(x, p["conv1.W"], p["conv1.b"], stride=STRIDE)))
        h = pool(chx.relu(chx.conv(h, p["conv2.W"], p["conv2.b"], stride=STRIDE)))
        h = chx.relu(chx.linear(h, p["fc1.W"], p["fc1.b"]))
        return chx.softmax_cross_entropy(chx.linear(h, p["fc2.W"], p["fc2.b"]), t).mean()

    def step():
        loss().backward()
        for param in params.values():
            data = param.as_grad_stopped()
            data -= LR * param.grad
            param.cleargrad()

    def grads():
        loss().backward()
        got = {k: chx.to_numpy(v.grad) for k, v in params.items()}
        for param in params.values():
            param.cleargrad()
        return got

    return step, grads


def pytorch_step():
    """conv_lenet.py's PyTorch step, in this run's variant."""
    return torch_step(stride=STRIDE, pool=VARIANT != "strided")


def main() -> str:
    title = f"LeNet-style SGD step ({VARIANT}), batch {BATCH}, {THREADS} thread(s)"
    if ONLY is not None:
        makers = {
            "chainerx": chainerx_step,
            "pytorch": pytorch_step,
            "chainer": lambda: chainer_step("native:0"),  # Chainer on ChainerX
        }
        step = makers[ONLY]()[0]
        seconds = measure_side_by_side({ONLY: step}, number=2, repeat=30)[ONLY]
        return f"{title}: {ONLY} {seconds * 1e6:.1f} us"
    contenders = {"chainerx": chainerx_step(), "pytorch cpu": pytorch_step()}
    if VARIANT != "strided":  # the Chainer model has the pooling
        contenders["chainer on chainerx"] = chainer_step("native:0")
    # All start from the same parameters: their first gradients must agree.
    expected = contenders["pytorch cpu"][1]()
    for name, (_, grads) in contenders.items():
        if name != "pytorch cpu":
            got = grads()
            for key in SHAPES:
                np.testing.assert_allclose(got[key], expected[key], rtol=2e-3, atol=2e-5)
    # Many short rounds: on a shared machine the best round is the least disturbed one.
    steps = {name: fns[0] for name, fns in contenders.items()}
    results = measure_side_by_side(steps, number=2, repeat=30)
    lines = report(title, results, "pytorch cpu")
    if "chainer on chainerx" in results:  # issue 23: within 1.15x of ChainerX alone
        ratio = results["chainer on chainerx"] / results["chainerx"]
        lines += f"\nchainer on chainerx / chainerx alone: {ratio:.2f}x"
    return lines


if __name__ == "__main__":
    print(main())
