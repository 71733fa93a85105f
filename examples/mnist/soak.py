"""Soak test of the main job's training loop: memory must stop growing after warm-up.

Runs train_mnist.py's model, optimizer, updater and extensions (evaluation, log, snapshots)
for ``--iterations`` iterations and samples the process's resident memory (RSS) and the
memory traced by :mod:`tracemalloc` (Python objects and NumPy arrays) after the warm-up.
Exits with status 1 when the peak of either over the second half of the samples exceeds its
peak over the first half by more than its bound (leaks in the graph, reporter, iterators or
snapshot writers would grow with the iterations). ChainerX arrays (``--device native:0``)
live outside tracemalloc's view: the RSS covers them, and the native device's cache of freed
buffers (256 KiB and more, by size, 512 MiB at most) fills during the warm-up.
``--loop chainerx-mlp`` runs an MLP written with ChainerX routines alone (``chainerx.dot``,
``relu``, ``log_softmax``, ``backward`` and an in-place SGD step) instead of the Trainer.

    python examples/mnist/soak.py --iterations 2000            # CI (the example session)
    python examples/mnist/soak.py --iterations 20000           # by hand (nox -s soak)
    python examples/mnist/soak.py --device native:0            # ChainerX arrays
    python examples/mnist/soak.py --loop chainerx-mlp --unit 512
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tracemalloc

import numpy as np
from train_mnist import MLP, load_digits  # the main job's pieces, beside this file

import chainer
import chainer.links as L
from chainer import training
from chainer.training import extensions


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=None, help="default: iterations // 2")
    parser.add_argument("--samples", type=int, default=20, help="memory samples after warm-up")
    parser.add_argument("--device", default="@numpy")
    parser.add_argument("--loop", choices=["trainer", "chainerx-mlp"], default="trainer")
    parser.add_argument("--dataset", choices=["digits", "synthetic"], default="digits")
    parser.add_argument("--unit", type=int, default=256)
    parser.add_argument("--batchsize", type=int, default=64)
    parser.add_argument("--max-rss-growth-mib", type=float, default=16.0)
    parser.add_argument("--max-traced-growth-mib", type=float, default=1.0)
    return parser.parse_args(argv)


def synthetic_digits(seed: int = 0):
    """Random 8x8 "digits" (when scikit-learn is missing): the loop, not accuracy, matters."""
    rng = np.random.default_rng(seed)
    x = rng.random((1797, 64), dtype=np.float32)
    t = rng.integers(0, 10, 1797).astype(np.int32)
    train = chainer.datasets.TupleDataset(x[:1437], t[:1437])
    return train, chainer.datasets.TupleDataset(x[1437:], t[1437:])


def rss_bytes() -> int:
    """Resident memory of this process (Linux /proc; 0 where it is not available)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


class MemorySampler(training.Extension):
    """Starts tracemalloc at the end of the warm-up, then records (iteration, RSS, traced)."""

    trigger = 1, "iteration"
    priority = -1000  # after the other extensions of the iteration (the snapshot included)

    def __init__(self, warmup: int, every: int) -> None:
        self.warmup, self.every = warmup, every
        self.samples: list[tuple[int, int, int]] = []

    def __call__(self, trainer) -> None:
        self.record(trainer.updater.iteration)

    def record(self, iteration: int) -> None:
        if iteration == self.warmup:
            tracemalloc.start()
        if iteration >= self.warmup and (iteration - self.warmup) % self.every == 0:
            self.samples.append((iteration, rss_bytes(), tracemalloc.get_traced_memory()[0]))

    def finalize(self) -> None:
        if tracemalloc.is_tracing():
            tracemalloc.stop()


def run(args, out: str) -> MemorySampler:
    np.random.seed(0)
    train, test = load_digits() if args.dataset == "digits" else synthetic_digits()
    device = chainer.get_device(args.device)
    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.iterations, "iteration"), out=out)
    every = max((args.iterations - args.warmup) // args.samples, 1)
    trainer.extend(
        extensions.Evaluator(test_iter, model, device=device), trigger=(500, "iteration")
    )
    trainer.extend(extensions.snapshot(n_retains=1), trigger=(500, "iteration"))
    trainer.extend(extensions.LogReport(trigger=(100, "iteration")))
    sampler = MemorySampler(args.warmup, every)
    trainer.extend(sampler)
    trainer.run()
    return sampler


def run_chainerx_mlp(args) -> MemorySampler:
    """The MLP of train_mnist.py written with ChainerX routines only: no Chainer links,
    functions or Trainer, so what is measured is ChainerX (arrays, graph, native device)."""
    import chainerx as chx

    train, _ = load_digits() if args.dataset == "digits" else synthetic_digits()
    x_all, t_all = (np.asarray(column) for column in zip(*train))
    rng = np.random.default_rng(0)
    sizes = (x_all.shape[1], args.unit, args.unit, 10)
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        weight = rng.standard_normal((n_in, n_out)) * np.sqrt(2 / n_in)
        params.append(chx.array(weight.astype(np.float32)).require_grad())
        params.append(chx.zeros((n_out,), chx.float32).require_grad())
    eye = np.eye(10, dtype=np.float32)
    sampler = MemorySampler(args.warmup, max((args.iterations - args.warmup) // args.samples, 1))
    order = rng.permutation(len(x_all))
    for iteration in range(1, args.iterations + 1):
        start = (iteration - 1) * args.batchsize % (len(order) - args.batchsize)
        batch = order[start : start + args.batchsize]
        h = chx.array(x_all[batch])
        for i in range(0, len(params), 2):
            h = chx.dot(h, params[i]) + params[i + 1]
            if i + 2 < len(params):
                h = chx.relu(h)
        loss = -(chx.log_softmax(h) * chx.array(eye[t_all[batch]])).sum() / len(batch)
        loss.backward()
        for param in params:
            data = param.as_grad_stopped()
            data -= 0.01 * param.grad
            param.cleargrad()
        sampler.record(iteration)
    sampler.finalize()
    return sampler


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.dataset == "digits":
        try:
            import sklearn  # noqa: F401
        except ImportError:
            print("scikit-learn is missing: using synthetic digits")
            args.dataset = "synthetic"
    # tracemalloc triples the cost of an iteration: the default traces the second half.
    args.warmup = args.iterations // 2 if args.warmup is None else args.warmup
    start = time.perf_counter()
    if args.loop == "chainerx-mlp":
        args.device = "native:0"
        sampler = run_chainerx_mlp(args)
    else:
        with tempfile.TemporaryDirectory() as out:
            sampler = run(args, out)
    elapsed = time.perf_counter() - start
    # Each sample holds whatever the iteration had alive (a batch, an evaluation): compare
    # the peaks of the first and the second half of the samples, so that only growth with
    # the number of iterations counts.
    half = len(sampler.samples) // 2
    first, second = sampler.samples[1 : half + 1], sampler.samples[half + 1 :]
    rss0, traced0 = max(s[1] for s in first), max(s[2] for s in first)
    rss_growth = max(s[1] for s in second) - rss0
    traced_growth = max(s[2] for s in second) - traced0
    mib = 2.0**20
    print(
        f"soak: {args.iterations} iterations of the {args.loop} loop on {args.device} in "
        f"{elapsed:.1f} s; after "
        f"{args.warmup} warm-up iterations, {len(sampler.samples)} samples: RSS "
        f"{rss0 / mib:.1f} MiB, grew {rss_growth / mib:+.2f} MiB (bound "
        f"{args.max_rss_growth_mib}); traced {traced0 / mib:.2f} MiB, grew "
        f"{traced_growth / mib:+.3f} MiB (bound {args.max_traced_growth_mib})"
    )
    failed = rss_growth > args.max_rss_growth_mib * mib
    failed |= traced_growth > args.max_traced_growth_mib * mib
    if failed:
        for iteration, rss, traced in sampler.samples:
            print(f"  iteration {iteration}: RSS {rss / mib:.2f} MiB, traced {traced / mib:.3f}")
        print("FAILED: memory grows beyond its bound", file=sys.stderr)
    return int(failed)


if __name__ == "__main__":
    sys.exit(main())
