"""Chainer on ChainerX: MLP training steps through the public Chainer API on ``native:0``.

MLP 784-100-100-10 at batch 1 (host-bound: the Python per op is what is measured), one
thread: forward with ``L.Linear``, ``F.relu`` and ``F.softmax_cross_entropy``, ``cleargrads``,
backward and ``optimizers.SGD``'s update. Side by side in one run, interleaved, timed with the
thread's CPU time (the machine is shared): Chainer on ChainerX, Chainer on NumPy, ChainerX
alone, PyTorch CPU and the hand-written NumPy floor of ``chainerx_mlp.py``. Issue 23's goal:
Chainer on ChainerX at most 0.9x PyTorch (aim 0.6x). Also counts the calls that fell back to
NumPy (``chainer.function_hooks.ChainerxFallbackHook``).

Run with an environment that has chainerx and torch:
``python benchmarks/chainer_on_chainerx_mlp.py [ROUNDS]``.
"""

from __future__ import annotations

import os
import statistics
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Thread counts must be set before NumPy (and OpenBLAS) load.
import numpy as np
from _timing import measure_thread_medians, median_ratio
from chainerx_mlp import LEARNING_RATE, chainerx_step, make_data, numpy_step, torch_step

SIZES = (784, 100, 100, 10)


def chainer_step(sizes, batch, device_spec: str):
    """One step of the MLP through Chainer's public API on ``device_spec``."""
    import chainer
    import chainer.functions as F
    import chainer.links as L

    x_np, onehot, params_np = make_data(sizes, batch)
    labels = onehot.argmax(axis=1).astype(np.int32)
    layers = []
    for i in range(0, len(params_np), 2):
        link = L.Linear(sizes[i // 2], sizes[i // 2 + 1])
        link.W.array[...] = params_np[i].T  # same weights as the other contenders
        link.b.array[...] = params_np[i + 1]
        layers.append(link)
    model = chainer.Sequential(layers[0], F.relu, layers[1], F.relu, layers[2])
    device = chainer.get_device(device_spec)
    model.to_device(device)
    optimizer = chainer.optimizers.SGD(LEARNING_RATE)
    optimizer.setup(model)
    x, t = device.send(x_np), device.send(labels)

    def step():
        loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    return step


def fallback_counts(step) -> dict:
    """Which functions fell back to NumPy in one step (empty: every call was native)."""
    import chainer

    hook = chainer.function_hooks.ChainerxFallbackHook()
    with hook:
        step()
    return dict(hook.counts)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    contenders = {
        "chainer on chainerx": chainer_step(SIZES, 1, "native:0"),
        "chainer on numpy": chainer_step(SIZES, 1, "@numpy"),
        "chainerx alone": chainerx_step(SIZES, 1),
        "numpy floor": numpy_step(SIZES, 1),
    }
    try:
        contenders["pytorch"] = torch_step(SIZES, 1)
    except ImportError:
        pass
    baseline = "pytorch" if "pytorch" in contenders else "numpy floor"
    samples = measure_thread_medians(contenders, number=200, rounds=rounds)
    title = f"MLP 784-100-100-10, batch 1, SGD, thread CPU time, {rounds} interleaved rounds"
    print(title)
    print("-" * len(title))
    for name, times in samples.items():
        ratio = median_ratio(samples, name, baseline)
        print(f"{name:<20} {statistics.median(times) * 1e6:8.1f} us   {ratio:5.2f}x {baseline}")
    print(f"fallbacks per step: {fallback_counts(contenders['chainer on chainerx']) or 'none'}")


if __name__ == "__main__":
    main()
