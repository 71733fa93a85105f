"""A chain of 100 elementwise ops on small arrays, forward + backward (host overhead).

Chainer (NumPy backend) vs PyTorch CPU eager vs a hand-written NumPy floor (forward and
hand-derived backward with no graph bookkeeping at all), side by side in one run: the
thread's CPU time in interleaved rounds, ratios the median of per-round ratios.

Run: ``python benchmarks/autograd_chain.py [rounds]``.
"""

from __future__ import annotations

import statistics
import sys

import numpy as np
from _timing import measure_thread_medians, median_ratio

N_BLOCKS = 25  # 4 ops per block: 100 elementwise ops
SHAPE = (32,)


def chainer_step():
    import chainer
    from chainer._ops.array_ops import sum as chainer_sum

    rng = np.random.default_rng(0)
    x = chainer.Variable(rng.standard_normal(SHAPE).astype(np.float32))
    w = chainer.Variable(rng.standard_normal(SHAPE).astype(np.float32))
    b = chainer.Variable(rng.standard_normal(SHAPE).astype(np.float32))

    def step():
        h = x
        for _ in range(N_BLOCKS):
            h = h * w
            h = h + b
            h = h * 0.5
            h = h - 0.1
        loss = chainer_sum(h)
        x.cleargrad()
        w.cleargrad()
        b.cleargrad()
        loss.backward()
        return w.grad

    return step


def torch_step():
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal(SHAPE).astype(np.float32), requires_grad=True)
    w = torch.tensor(rng.standard_normal(SHAPE).astype(np.float32), requires_grad=True)
    b = torch.tensor(rng.standard_normal(SHAPE).astype(np.float32), requires_grad=True)

    def step():
        h = x
        for _ in range(N_BLOCKS):
            h = h * w
            h = h + b
            h = h * 0.5
            h = h - 0.1
        loss = h.sum()
        x.grad = w.grad = b.grad = None
        loss.backward()
        return w.grad

    return step


def numpy_step():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    w = rng.standard_normal(SHAPE).astype(np.float32)
    b = rng.standard_normal(SHAPE).astype(np.float32)
    half = np.float32(0.5)
    tenth = np.float32(0.1)

    def step():
        hs = []
        h = x
        for _ in range(N_BLOCKS):
            hs.append(h)
            h = h * w
            h = h + b
            h = h * half
            h = h - tenth
        g = np.ones_like(h)
        gw = np.zeros_like(w)
        gb = np.zeros_like(b)
        for h_in in reversed(hs):
            g = g * half
            gb += g
            gw += g * h_in
            g = g * w
        return gw

    return step


def check_same_gradients() -> None:
    ref = numpy_step()()
    np.testing.assert_allclose(chainer_step()(), ref, rtol=1e-4, atol=1e-5)
    try:
        np.testing.assert_allclose(torch_step()().numpy(), ref, rtol=1e-4, atol=1e-5)
    except ImportError:
        pass


def main(rounds: int = 25) -> str:
    check_same_gradients()
    contenders = {"chainer (numpy)": chainer_step()}
    try:
        contenders["pytorch cpu"] = torch_step()
    except ImportError:
        pass
    contenders["numpy floor"] = numpy_step()
    samples = measure_thread_medians(contenders, number=60, rounds=rounds)
    baseline = "pytorch cpu" if "pytorch cpu" in samples else "numpy floor"
    title = f"100-op elementwise chain, shape {SHAPE}, fwd+bwd, thread CPU time, {rounds} rounds"
    lines = [title, "-" * len(title)]
    for name, times in samples.items():
        ratio = median_ratio(samples, name, baseline)
        median = statistics.median(times) * 1e6
        lines.append(f"{name:<16} {median:8.1f} us   {ratio:5.2f}x {baseline}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(main(int(sys.argv[1]) if len(sys.argv) > 1 else 25))
