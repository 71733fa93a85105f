"""MLP training steps on ChainerX against PyTorch CPU and a hand-written NumPy floor.

Two settings, timed side by side in one run, one thread everywhere:

- host-bound: 784-100-100-10, batch 1 (issue 11's goal: ChainerX at most 0.55x PyTorch);
- compute-bound: 784-1000-1000-10, batch 256 (goal: within 1.05x of the NumPy floor).

Each step is forward (linear via ``dot`` + bias, relu, softmax cross entropy written with
routines), backward and a manual SGD update. It also times trivial binding calls (``a.shape``,
``a + b`` on one-element arrays). Run with an environment that has chainerx and torch:
``python benchmarks/chainerx_mlp.py``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Thread counts must be set before NumPy (and OpenBLAS) load.
import numpy as np
from _timing import measure_side_by_side, report

LEARNING_RATE = 0.01


def make_data(sizes: tuple[int, ...], batch: int, seed: int = 0):
    """Float32 inputs, one-hot targets and He-initialized weights shared by every contender."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    labels = rng.integers(0, sizes[-1], batch)
    onehot = np.eye(sizes[-1], dtype=np.float32)[labels]
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True):
        params.append((rng.standard_normal((n_in, n_out)) * np.sqrt(2 / n_in)).astype(np.float32))
        params.append(np.zeros(n_out, np.float32))
    return x, onehot, params


def chainerx_step(sizes, batch):
    import chainerx as chx

    x_np, t_np, params_np = make_data(sizes, batch)
    x, t = chx.array(x_np), chx.array(t_np)
    params = [chx.array(p).require_grad() for p in params_np]

    def step():
        h = x
        for i in range(0, len(params), 2):
            h = chx.dot(h, params[i]) + params[i + 1]
            if i + 2 < len(params):
                h = chx.relu(h)
        loss = -(chx.log_softmax(h) * t).sum() / batch
        loss.backward()
        for p in params:
            data = p.as_grad_stopped()
            data -= LEARNING_RATE * p.grad
            p.cleargrad()
        return loss

    return step


def torch_step(sizes, batch):
    import torch

    torch.set_num_threads(1)
    x_np, t_np, params_np = make_data(sizes, batch)
    x, t = torch.from_numpy(x_np), torch.from_numpy(t_np)
    params = [torch.from_numpy(p.copy()).requires_grad_() for p in params_np]

    def step():
        h = x
        for i in range(0, len(params), 2):
            h = h @ params[i] + params[i + 1]
            if i + 2 < len(params):
                h = torch.relu(h)
        loss = -(torch.log_softmax(h, dim=1) * t).sum() / batch
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= LEARNING_RATE * p.grad
                p.grad = None
        return loss

    return step


def numpy_step(sizes, batch, weights_out_in=False):
    """The hand-written step; ``weights_out_in`` stores each W as ``(out, in)``, as Chainer's
    and PyTorch's linear layers do (the products are then ``x W^T``, ``g W`` and ``g^T x``)."""
    x, t, params = make_data(sizes, batch)
    if weights_out_in:
        params = [np.ascontiguousarray(p.T) if p.ndim == 2 else p for p in params]

    def step():
        # Forward, keeping what backward needs.
        activations = [x]
        h = x
        for i in range(0, len(params), 2):
            h = h.dot(params[i].T if weights_out_in else params[i]) + params[i + 1]
            if i + 2 < len(params):
                h = np.maximum(h, 0)
            activations.append(h)
        shifted = h - h.max(axis=1, keepdims=True)
        log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        loss = -(log_softmax * t).sum() / batch
        # Backward by hand.
        g = (np.exp(log_softmax) - t) / batch
        for i in range(len(params) - 2, -1, -2):
            a = activations[i // 2]
            # ndarray.dot: matmul (@) takes a slow non-BLAS path for batch-1 outer products.
            gw = g.T.dot(a) if weights_out_in else a.T.dot(g)
            gb = g.sum(axis=0)
            if i > 0:
                g = g.dot(params[i] if weights_out_in else params[i].T) * (a > 0)
            params[i] -= LEARNING_RATE * gw
            params[i + 1] -= LEARNING_RATE * gb
        return loss

    return step


def binding_calls():
    import chainerx as chx

    a = chx.ones((1,), chx.float32)
    b = chx.ones((1,), chx.float32)
    calls = {"a.shape": lambda: a.shape, "a + b": lambda: a + b}
    results = measure_side_by_side(calls, number=20000)
    return "\n".join(f"{name:<8} {seconds * 1e9:8.0f} ns" for name, seconds in results.items())


def main() -> None:
    for title, sizes, batch, number in [
        ("MLP 784-100-100-10, batch 1 (host-bound)", (784, 100, 100, 10), 1, 200),
        ("MLP 784-1000-1000-10, batch 256 (compute-bound)", (784, 1000, 1000, 10), 256, 3),
    ]:
        contenders = {
            "numpy floor": numpy_step(sizes, batch),
            "chainerx": chainerx_step(sizes, batch),
        }
        try:
            contenders["pytorch"] = torch_step(sizes, batch)
        except ImportError:
            pass
        baseline = "pytorch" if "pytorch" in contenders else "numpy floor"
        results = measure_side_by_side(contenders, number=number, repeat=7)
        print(report(title, results, baseline))
        print(f"chainerx / numpy floor: {results['chainerx'] / results['numpy floor']:.2f}x\n")
    print("Trivial binding calls\n---------------------")
    print(binding_calls())


if __name__ == "__main__":
    main()
