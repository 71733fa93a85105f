"""Static subgraph optimization on the host-bound MLP (784-100-100-10, batch 1).

One training step (forward with softmax cross entropy, backward, SGD update), side by side:
Chainer on NumPy define-by-run, the same chain under ``@chainer.static_graph`` (the first
call records a schedule, later calls replay it), PyTorch CPU when installed, and the
hand-written NumPy floor, timed with the thread's CPU time in interleaved rounds. Goal
(issue 24): static at most 0.70x define-by-run (median of the per-round ratios).
Run: ``python benchmarks/static_graph_mlp.py [ROUNDS]``.
"""

from __future__ import annotations

import os
import statistics
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Thread counts must be set before NumPy (and OpenBLAS) load.
import numpy as np
from _timing import measure_thread_medians, median_ratio, report
from chainerx_mlp import LEARNING_RATE, make_data, numpy_step, torch_step

SIZES = (784, 100, 100, 10)
BATCH = 1


def chainer_step(static: bool):
    import chainer
    import chainer.functions as F
    import chainer.links as L

    x, onehot, params = make_data(SIZES, BATCH)
    t = onehot.argmax(axis=1).astype(np.int32)

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.layers = chainer.ChainList(
                    *(
                        L.Linear(w.shape[0], w.shape[1], initialW=w.T, initial_bias=b)
                        for w, b in zip(params[::2], params[1::2])
                    )
                )

        def loss(self, x, t):
            h = x
            for i, layer in enumerate(self.layers):
                h = layer(h)
                if i + 1 < len(self.layers):
                    h = F.relu(h)
            return F.softmax_cross_entropy(h, t)

        forward = chainer.static_graph(loss) if static else loss

    model = MLP()

    def step():
        loss = model(x, t)
        model.cleargrads()
        loss.backward()
        for p in model.params():
            p.array -= LEARNING_RATE * p.grad
        return loss

    return step


def main(rounds: int = 15) -> None:
    contenders = {
        "numpy floor": numpy_step(SIZES, BATCH),
        "chainer": chainer_step(static=False),
        "chainer static_graph": chainer_step(static=True),
    }
    try:
        contenders["pytorch"] = torch_step(SIZES, BATCH)
    except ImportError:
        pass
    samples = measure_thread_medians(contenders, number=200, rounds=rounds)
    medians = {name: statistics.median(series) for name, series in samples.items()}
    title = "MLP 784-100-100-10, batch 1, training step (thread CPU time, medians)"
    print(report(title, medians, "chainer"))
    ratio = median_ratio(samples, "chainer static_graph", "chainer")
    print(
        f"\nstatic_graph / define-by-run: {ratio:.3f}x (median of {rounds} rounds; goal <= 0.70x)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
