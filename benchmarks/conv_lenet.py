"""LeNet-style convnet, one SGD step (forward, backward, update) on a batch of 64 MNIST-sized
images, and on a single image: Chainer on NumPy against PyTorch CPU at the same thread count.

conv 5x5 (1 -> 20) -> relu -> max-pool 2 -> conv 5x5 (20 -> 50) -> relu -> max-pool 2
-> linear (800 -> 500) -> relu -> linear (500 -> 10) -> softmax cross entropy.

Usage: ``python conv_lenet.py [threads] [chainer|pytorch|halves]`` (default 1, both). The
thread count is set for OpenBLAS (NumPy) and for PyTorch alike, before NumPy is imported. At
one thread the contenders are timed with the thread's CPU time in interleaved rounds (medians,
and the median of per-round ratios); with more, by wall-clock time (best round), since the
worker threads' time counts. Naming one contender times it alone in the process: with more than
one thread the two contenders' thread pools otherwise compete, and a process that runs
PyTorch's step too leaves glibc's heap in another state (Chainer's own loop is the realistic
one). Run the script once per contender, alternately, several times, for those comparisons.

``halves`` (alone, two threads or more, batch 64 only; needs ``threadpoolctl``) is the ceiling
of splitting Chainer's step over Python threads: two models at half the batch, stepped at once
on two threads with OpenBLAS at one thread, so that both cores work on every pass (NumPy's
element-wise passes run on one thread) and no synchronisation costs anything. Its gradients,
the mean of the two halves', are checked against the whole batch's.
"""

from __future__ import annotations

import os
import statistics
import sys

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1
os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(THREADS)

import numpy as np  # noqa: E402  (the thread count must be set first)
from _timing import (  # noqa: E402
    measure_side_by_side,
    measure_thread_medians,
    median_ratio,
    report,
)

BATCH = 64
#: Steps per timed round, by batch size.
STEPS_PER_ROUND = {64: 2, 1: 40}
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


def batch(size: int = BATCH) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 1, (size, 1, 28, 28)).astype(np.float32)
    t = rng.integers(0, 10, size).astype(np.int32)
    return x, t


def chainer_step(device_spec: str = "@numpy", size: int = BATCH, rows: slice = slice(None)):
    """Return (step, grads): one SGD step on ``device_spec`` (``native:0``: Chainer on
    ChainerX) over ``rows`` of the batch, and a function giving the last gradients as NumPy
    arrays."""
    import chainer
    import chainer.functions as F

    device = chainer.get_device(device_spec)
    params = {k: chainer.Parameter(device.send(v)) for k, v in initial_params().items()}
    x, t = (device.send(a[rows]) for a in batch(size))
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


def chainer_halves_step(size: int = BATCH):
    """Return (step, grads) of ``halves`` (module docstring): the first half of the batch
    steps on this thread while a helper thread steps the second."""
    import threading

    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")  # for the process: run it alone
    half = size // 2
    (step_a, grads_a), (step_b, grads_b) = (
        chainer_step(size=size, rows=rows) for rows in (slice(None, half), slice(half, None))
    )
    start, done = threading.Semaphore(0), threading.Semaphore(0)

    def helper():
        while True:
            start.acquire()
            step_b()
            done.release()

    threading.Thread(target=helper, daemon=True).start()

    def step():
        start.release()
        step_a()
        done.acquire()

    def grads():
        a, b = grads_a(), grads_b()
        return {name: (a[name] + b[name]) / 2 for name in a}

    return step, grads


def torch_step(stride: int = 1, pool: bool = True, size: int = BATCH):
    """PyTorch's (step, grads); ``stride``/``pool`` give chainerx_lenet.py's strided variant."""
    import torch
    import torch.nn.functional as tf

    torch.set_num_threads(THREADS)
    params = {k: torch.tensor(v, requires_grad=True) for k, v in initial_params().items()}
    x, t = (torch.tensor(a) for a in batch(size))
    t = t.long()
    p = params

    def conv_block(h, name):
        h = tf.relu(tf.conv2d(h, p[f"{name}.W"], p[f"{name}.b"], stride=stride))
        return tf.max_pool2d(h, 2) if pool else h

    def loss():
        h = conv_block(conv_block(x, "conv1"), "conv2")
        h = tf.relu(tf.linear(h.reshape(size, -1), p["fc1.W"], p["fc1.b"]))
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


def _contenders(size: int, only: str | None) -> dict:
    makers = {"chainer (numpy)": chainer_step, "pytorch cpu": torch_step}
    if only == "halves":
        if THREADS < 2:
            raise SystemExit("halves runs on two threads or more: conv_lenet.py 2 halves")
        # The whole batch's step gives the reference gradients, then is dropped. Nothing is
        # skipped here: without threadpoolctl there is nothing to time.
        return {
            "chainer (numpy)": chainer_step(size=size),
            "chainer (two halves)": chainer_halves_step(size=size),
        }
    if only is not None:
        names = {"chainer": "chainer (numpy)", "pytorch": "pytorch cpu"}
        if only not in names:
            raise SystemExit(
                f"the contender must be 'chainer', 'pytorch' or 'halves', got {only!r}"
            )
        makers = {names[only]: makers[names[only]]}
    contenders = {}
    for name, make in makers.items():
        try:
            contenders[name] = make(size=size)
        except ImportError:
            pass
    return contenders


def _time(size: int, only: str | None) -> str:
    contenders = _contenders(size, only)
    check_same_gradients(contenders)
    if only == "halves":
        del contenders["chainer (numpy)"]  # its step would run at one BLAS thread here
    steps = {k: v[0] for k, v in contenders.items()}
    number = STEPS_PER_ROUND[size]
    baseline = "pytorch cpu" if "pytorch cpu" in steps else next(iter(steps))
    title = f"LeNet-style SGD step, batch {size}, {THREADS} thread(s)"
    if THREADS > 1:  # wall-clock: the worker threads' time counts
        # Many short rounds: on a shared machine the best round is the least disturbed one.
        results = measure_side_by_side(steps, number=number, repeat=30)
        return report(title + ", best wall-clock round", results, baseline)
    samples = measure_thread_medians(steps, number=number, rounds=15)
    medians = {k: statistics.median(v) for k, v in samples.items()}
    lines = report(title + ", thread CPU time (medians)", medians, baseline)
    if len(steps) > 1:
        ratio = median_ratio(samples, "chainer (numpy)", baseline)
        lines += f"\nmedian of per-round ratios chainer / pytorch: {ratio:.3f}x"
    return lines


def main() -> str:
    only = sys.argv[2] if len(sys.argv) > 2 else None
    sizes = (BATCH,) if only == "halves" else (BATCH, 1)
    return "\n\n".join(_time(size, only) for size in sizes)


if __name__ == "__main__":
    print(main())
