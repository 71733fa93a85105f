"""MLP training steps with Chainer's optimizers against PyTorch's, split into phases.

Each step is forward (linear layers with relu, softmax cross entropy), backward and the
optimizer's update, timed phase by phase inside the step so that the update (the optimizer
machinery) can be told apart from autograd. Settings, side by side in one run:

- host-bound: 784-100-100-10 at batch 1 and batch 8, with SGD and with Adam;
- compute-bound: 784-1000-1000-10 at batch 256 with SGD, against the hand-written NumPy floor
  of ``chainerx_mlp.py`` too (forward, backward and a plain SGD update by hand), with W
  stored ``(in, out)`` (its products need no transposed operand) and ``(out, in)`` as
  Chainer's ``Linear`` stores it.

Chainer runs ``chainer.optimizers.SGD``/``Adam`` on NumPy; PyTorch runs ``torch.optim.SGD``/
``Adam`` with their defaults (on CPU tensors that is the per-parameter for-loop
implementation). One thread everywhere. Each round times ``number`` steps of every contender,
rounds interleave the contenders, and the tables give the median over rounds of the mean
per-step time of each phase, with the ratio to PyTorch of the same phase. Times are the
thread's CPU time (see :data:`clock`).

Run: ``python benchmarks/mlp_optimizer.py [rounds]`` in an environment with torch.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Thread counts must be set before NumPy (and OpenBLAS) load.
import statistics
import sys
import time

import numpy as np
from chainerx_mlp import make_data, numpy_step

PHASES = ("forward", "backward", "update")

#: The clock of every phase: the CPU time of the calling thread. Every contender runs on this
#: one thread (NumPy's BLAS and PyTorch set to one thread), and on a shared, busy machine CPU
#: time leaves out the time spent waiting for a core, which wall-clock time would add at
#: random.
clock = time.thread_time
ADAM_ALPHA = 1e-3
SGD_LR = 0.01


def chainer_step(sizes, batch, optimizer_name):
    """One phase-timed training step of a Chainer MLP with a ``chainer.optimizers`` optimizer."""
    import chainer
    import chainer.functions as F
    import chainer.links as L
    from chainer import optimizers

    x, onehot, params = make_data(sizes, batch)
    t = onehot.argmax(axis=1).astype(np.int32)
    model = chainer.ChainList(
        *(
            L.Linear(w.shape[0], w.shape[1], initialW=w.T, initial_bias=b)
            for w, b in zip(params[::2], params[1::2])
        )
    )
    if optimizer_name == "adam":
        optimizer = optimizers.Adam(alpha=ADAM_ALPHA)
    else:
        optimizer = optimizers.SGD(lr=SGD_LR)
    optimizer.setup(model)
    layers = list(model)

    def forward():
        return F.softmax_cross_entropy(mlp(layers, x, F.relu), t)

    def backward(loss):
        model.cleargrads()
        loss.backward()

    return phase_timed(forward, backward, optimizer.update)


def torch_step(sizes, batch, optimizer_name):
    """The same step with ``torch.nn.Linear`` layers and a ``torch.optim`` optimizer."""
    import torch

    torch.set_num_threads(1)
    x_np, onehot, params = make_data(sizes, batch)
    x = torch.from_numpy(x_np)
    t = torch.from_numpy(onehot.argmax(axis=1))
    layers = []
    for w, b in zip(params[::2], params[1::2]):
        layer = torch.nn.Linear(w.shape[0], w.shape[1])
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(w.T.copy()))
            layer.bias.copy_(torch.from_numpy(b))
        layers.append(layer)
    model = torch.nn.ModuleList(layers)
    if optimizer_name == "adam":
        optimizer = torch.optim.Adam(model.parameters(), lr=ADAM_ALPHA)
    else:
        optimizer = torch.optim.SGD(model.parameters(), lr=SGD_LR)

    def forward():
        return torch.nn.functional.cross_entropy(mlp(layers, x, torch.relu), t)

    def backward(loss):
        optimizer.zero_grad(set_to_none=True)
        loss.backward()

    return phase_timed(forward, backward, optimizer.step)


def mlp(layers, x, relu):
    """The logits: the layers applied in turn, with ``relu`` between them."""
    for layer in layers[:-1]:
        x = relu(layer(x))
    return layers[-1](x)


def phase_timed(forward, backward, update):
    """A step returning the seconds of ``loss = forward()``, ``backward(loss)``, ``update()``
    and of the three together."""

    def step():
        start = clock()
        loss = forward()
        forward_end = clock()
        backward(loss)
        del loss  # free the graph before the update, as Optimizer.update(lossfun) does
        backward_end = clock()
        update()
        end = clock()
        return forward_end - start, backward_end - forward_end, end - backward_end, end - start

    return step


def whole_step(fn):
    """Adapt an untimed step (the NumPy floor) to the phase-timed protocol (only a total)."""

    def step():
        start = clock()
        fn()
        return 0.0, 0.0, 0.0, clock() - start

    return step


def measure_phases(steps, *, number: int, rounds: int) -> dict[str, list[float]]:
    """Median over interleaved rounds of the mean time per step of each phase, and the total."""
    for step in steps.values():
        for _ in range(3):
            step()  # warm-up: optimizer state, lazy imports, caches
    samples = {name: [[] for _ in range(len(PHASES) + 1)] for name in steps}
    for _ in range(rounds):
        for name, step in steps.items():
            sums = [0.0] * (len(PHASES) + 1)
            for _ in range(number):
                for index, seconds in enumerate(step()):
                    sums[index] += seconds
            for index, total in enumerate(sums):
                samples[name][index].append(total / number)
    return {
        name: [statistics.median(series) for series in phases] for name, phases in samples.items()
    }


def table(title: str, results: dict[str, list[float]], baseline: str) -> str:
    width = max(len(name) for name in results)
    header = f"{'':<{width}}  " + "".join(f"{p:>18}" for p in (*PHASES, "step"))
    lines = [title, "-" * len(title), header]
    base = results[baseline]
    for name, times in results.items():
        cells = "".join(
            f"{t * 1e3:8.3f} ms {t / b:5.2f}x" if t else f"{'-':>18}" for t, b in zip(times, base)
        )
        lines.append(f"{name:<{width}}  {cells}")
    return "\n".join(lines)


def main(rounds: int) -> None:
    settings = [
        ((784, 100, 100, 10), 1, "sgd", 200),
        ((784, 100, 100, 10), 1, "adam", 200),
        ((784, 100, 100, 10), 8, "sgd", 200),
        ((784, 100, 100, 10), 8, "adam", 200),
        ((784, 1000, 1000, 10), 256, "sgd", 2),
    ]
    for sizes, batch, optimizer_name, number in settings:
        steps = {
            "pytorch": torch_step(sizes, batch, optimizer_name),
            "chainer": chainer_step(sizes, batch, optimizer_name),
        }
        if batch >= 256:
            steps["numpy floor"] = whole_step(numpy_step(sizes, batch))
            steps["floor, W (out, in)"] = whole_step(numpy_step(sizes, batch, True))
        results = measure_phases(steps, number=number, rounds=rounds)
        shape = "-".join(map(str, sizes))
        title = f"MLP {shape}, batch {batch}, {optimizer_name} (ratios to pytorch)"
        print(table(title, results, "pytorch"))
        if "numpy floor" in results:
            floor = results["numpy floor"][-1]
            print(f"chainer step / numpy floor: {results['chainer'][-1] / floor:.3f}x")
            floor_out_in = results["floor, W (out, in)"][-1]
            print(
                "chainer step / numpy floor with W stored (out, in), as Chainer does: "
                f"{results['chainer'][-1] / floor_out_in:.3f}x"
            )
        print()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
