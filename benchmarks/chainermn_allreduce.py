"""ChainerMN gradient allreduce against raw mpi4py ``Allreduce``, and the data-parallel step.

Run under MPI (2 ranks unless stated):

    mpiexec -n 2 python -m mpi4py benchmarks/chainermn_allreduce.py [threads]
        [--only allreduce|steps] [--repeat 15]

1. Throughput of ``multi_node_mean_grad`` (flat communicator) on a model whose gradients
   total 1-64 MiB, against ``MPI.Allreduce`` of the same float32 buffer (the one-parameter
   model's gradient), alone and followed by the division a hand-written gradient average
   also needs: one parameter
   (reduced in place), 16 and 64 parameters (gradients under 1 MiB packed), these also
   against the hand-written loop (``Allreduce`` of each gradient in place, then divide).
   The bandwidth is the message size over the time.
2. One training step (forward, backward, gradient average, update) of the digits MLP, of
   a LeNet and of a wide MLP (16 MiB of gradients): ``B`` per rank with the multi-node
   optimizer (plain, bucketed and double-buffered) against the local step without
   communication (the overhead) and against one rank on ``ranks x B``. Each timed call is
   5 steps; the double-buffered one also waits for its last average.

Both parts time every contender in interleaved rounds and take each round's slowest rank: the
tables show median times and, as ratios and overheads, medians of per-round ratios (the
machine's speed drifts between rounds; adjacent timings see the same). Ratios are what to
compare.
"""

from __future__ import annotations

import argparse
import os
import statistics

PARSER = argparse.ArgumentParser(description=__doc__.splitlines()[0])
PARSER.add_argument("threads", nargs="?", type=int, default=1, help="BLAS threads per rank")
PARSER.add_argument("--only", choices=("allreduce", "steps"), help="run one part only")
PARSER.add_argument("--repeat", type=int, default=15, help="interleaved rounds")
ARGS = PARSER.parse_args()
THREADS = ARGS.threads
os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(THREADS)

import numpy as np  # noqa: E402  (the thread count must be set first)
from _timing import measure_rounds, median_ratio  # noqa: E402
from mpi4py import MPI  # noqa: E402

import chainer  # noqa: E402
import chainer.functions as F  # noqa: E402
import chainer.links as L  # noqa: E402
import chainermn  # noqa: E402

COMM = chainermn.create_communicator("flat")
MPI_COMM = COMM.mpi_comm


def slowest_rounds(samples: dict[str, list[float]]) -> dict[str, list[float]]:
    """Each round's maximum over the ranks, per entry (a collective step ends with its
    slowest rank)."""
    out = {}
    for name, times in samples.items():
        mine = np.asarray(times)
        worst = np.empty_like(mine)
        MPI_COMM.Allreduce(mine, worst, op=MPI.MAX)
        out[name] = worst.tolist()
    return out


class Flat(chainer.Chain):
    """A model whose only role is to hold ``n_params`` gradients of ``total`` floats."""

    def __init__(self, total: int, n_params: int) -> None:
        super().__init__()
        with self.init_scope():
            for i in range(n_params):
                setattr(self, f"p{i}", chainer.Parameter(np.zeros(total // n_params, "f")))
        # Zeros: the raw contender sums without dividing, and repeated sums of other values
        # reach inf, which MPICH sums about 25 % slower than finite numbers.
        for p in self.params():
            p.grad = np.zeros_like(p.array)


def raw_mean(buffer: np.ndarray) -> None:
    """What a hand-written mpi4py gradient average does: sum, then divide."""
    MPI_COMM.Allreduce(MPI.IN_PLACE, buffer, op=MPI.SUM)
    buffer *= np.float32(1.0 / COMM.size)


def hand_written_mean(model: chainer.Chain) -> None:
    """The hand-written per-parameter loop: each gradient summed in place, then divided."""
    for param in model.params():
        MPI_COMM.Allreduce(MPI.IN_PLACE, param.grad, op=MPI.SUM)
        param.grad *= np.float32(1.0 / COMM.size)


def allreduce_throughput() -> list[str]:
    lines = [
        "| message | raw Allreduce (bandwidth) | raw + divide | mean_grad, 1 param (to raw, "
        "to raw + divide; bandwidth) | 16 params (to raw, to the loop) "
        "| 64 params (to raw, to the loop) |",
        "|---|---|---|---|---|---|",
    ]
    for mib in (1, 4, 16, 64):
        total = mib * 2**20 // 4
        models = {"1": Flat(total, 1), "16": Flat(total, 16), "64": Flat(total, 64)}
        buffer = models["1"].p0.grad  # the same buffer as the 1-parameter average (the cache)
        contenders = {
            "raw": lambda b=buffer: MPI_COMM.Allreduce(MPI.IN_PLACE, b, op=MPI.SUM),
            "raw mean": lambda b=buffer: raw_mean(b),
        }
        for name, model in models.items():
            contenders[name] = lambda m=model: COMM.multi_node_mean_grad(m)
            if name != "1":
                contenders[f"loop {name}"] = lambda m=model: hand_written_mean(m)
        number = max(1, 32 // mib)
        rounds = slowest_rounds(measure_rounds(contenders, number=number, rounds=ARGS.repeat))
        r = {name: statistics.median(times) for name, times in rounds.items()}

        def speed(name: str, baseline: str, rounds: dict = rounds) -> float:
            """Throughput of ``name`` over ``baseline``'s: the median of per-round ratios."""
            return 1 / median_ratio(rounds, name, baseline)

        raw = r["raw"]
        cells = [
            f"{mib} MiB",
            f"{raw * 1e3:.2f} ms ({mib / 1024 / raw:.2f} GiB/s)",
            f"{r['raw mean'] * 1e3:.2f} ms",
            f"{r['1'] * 1e3:.2f} ms ({speed('1', 'raw'):.2f}x, {speed('1', 'raw mean'):.2f}x; "
            f"{mib / 1024 / r['1']:.2f} GiB/s)",
        ]
        for n in ("16", "64"):
            ratios = f"{speed(n, 'raw'):.2f}x, {speed(n, 'loop ' + n):.2f}x"
            cells.append(f"{r[n] * 1e3:.2f} ms ({ratios})")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


class MLP(chainer.Chain):
    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.l1, self.l2, self.l3 = L.Linear(64, 256), L.Linear(256, 256), L.Linear(256, 10)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


class LeNet(chainer.Chain):
    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.c1, self.c2 = L.Convolution2D(1, 20, 5), L.Convolution2D(20, 50, 5)
            self.f1, self.f2 = L.Linear(800, 500), L.Linear(500, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.c1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.c2(h)), 2)
        return self.f2(F.relu(self.f1(h)))


# Training steps per timed call (the double-buffered optimizer's last average is waited for).
STEPS = 5


class WideMLP(chainer.Chain):
    """16 MiB of gradients for little computation: where overlapping the average could pay."""

    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.l1, self.l2 = L.Linear(2048, 2048), L.Linear(2048, 10)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def step_overhead(name: str, make, shape: tuple, batch: int) -> list[str]:
    rng = np.random.RandomState(COMM.rank)

    def data(n):
        return rng.uniform(-1, 1, (n, *shape)).astype("f"), rng.randint(0, 10, n).astype("i")

    def trainer(multi_node: bool, **options):
        model = L.Classifier(make())
        optimizer = chainer.optimizers.MomentumSGD(lr=0.01)
        if multi_node:
            optimizer = chainermn.create_multi_node_optimizer(optimizer, COMM, **options)
        optimizer.setup(model)
        x, t = data(batch)
        if multi_node:
            optimizer.update(model, x, t)  # the first update broadcasts the parameters
            optimizer.update(model, x, t)  # (double buffering: the second only averages)
        wait = getattr(optimizer, "wait", lambda: None)

        def steps():
            for _ in range(STEPS):
                optimizer.update(model, x, t)
            wait()  # double buffering: the last average is part of these steps' cost

        return steps

    local = trainer(False)
    x2, t2 = data(COMM.size * batch)
    model2 = L.Classifier(make())
    opt2 = chainer.optimizers.MomentumSGD(lr=0.01).setup(model2)

    def one_rank_global_batch():
        for _ in range(STEPS):
            opt2.update(model2, x2, t2)

    rounds = slowest_rounds(
        measure_rounds(
            {
                "local B": local,
                "mn B": trainer(True),
                "mn B bucketed": trainer(True, bucketed=True),
                "mn B double-buffered": trainer(True, double_buffering=True),
                "1 rank": one_rank_global_batch,
            },
            number=1,
            rounds=ARGS.repeat,
        )
    )
    base = statistics.median(rounds["local B"]) / STEPS

    def cell(contender: str, rounds: dict = rounds) -> str:
        """Median time per step, and the overhead over the local step (median of ratios)."""
        seconds = statistics.median(rounds[contender]) / STEPS
        overhead = (median_ratio(rounds, contender, "local B") - 1) * 100
        return f"{seconds * 1e3:.2f} ms ({overhead:+.0f} %)"

    one_rank = statistics.median(rounds["1 rank"]) / STEPS
    speed_up = median_ratio(rounds, "1 rank", "mn B")
    return [
        f"| {name} (B={batch}) | {base * 1e3:.2f} ms | {cell('mn B')} "
        f"| {cell('mn B bucketed')} | {cell('mn B double-buffered')} "
        f"| {one_rank * 1e3:.2f} ms | {speed_up:.2f}x |"
    ]


def main() -> None:
    lines = [f"{COMM.size} ranks, {THREADS} thread(s) each, {MPI.Get_library_version()[:40]}"]
    if ARGS.only in (None, "allreduce"):
        lines += ["", "Gradient allreduce (float32, flat communicator):", ""]
        lines += allreduce_throughput()
    if ARGS.only in (None, "steps"):
        lines += ["", "Training step (forward, backward, allreduce, update):", ""]
        lines += [
            f"| model | local step | multi-node step | bucketed | double-buffered "
            f"| 1 rank, {COMM.size}B | speed-up vs 1 rank {COMM.size}B |",
            "|---|---|---|---|---|---|---|",
        ]
        lines += step_overhead("digits MLP", MLP, (64,), 32)
        lines += step_overhead("LeNet", LeNet, (1, 28, 28), 32)
        lines += step_overhead("wide MLP (2048-2048-10)", WideMLP, (2048,), 64)
    if COMM.rank == 0:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
