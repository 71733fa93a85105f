"""A small data-parallel training job for the fault tests (launched by ``test_faults.py``).

Run as ``mpiexec -n 2 python _fault_job.py --out DIR [--kill-at I] [--raise-at I]``. It
checkpoints with ``create_multi_node_checkpointer`` every ``--every`` iterations, resumes
from the newest complete set at start, and at the end writes ``result.<rank>.npz`` (the
parameters, the final loss and the iteration it resumed from) into ``--out``.
"""

from __future__ import annotations

import argparse
import os
import signal
import time

import numpy

import chainer
import chainer.links as L
import chainermn
from chainer import training


def _model() -> L.Classifier:
    rng = numpy.random.RandomState(0)
    mlp = chainer.Sequential(
        L.Linear(4, 8, initialW=rng.uniform(-1, 1, (8, 4)), initial_bias=0),
        chainer.functions.tanh,
        L.Linear(8, 3, initialW=rng.uniform(-1, 1, (3, 8)), initial_bias=0),
    )
    return L.Classifier(mlp)


def _dataset():
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (96, 4)).astype(numpy.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(numpy.int32) + (x[:, 2] > 0.5).astype(numpy.int32)
    return chainer.datasets.TupleDataset(x, t)


def _fault_at(rank: int, iteration: int | None, action, out: str):
    """An extension that runs ``action`` on rank 1 at ``iteration`` (noting the time)."""

    def extension(trainer):
        if rank == 1 and trainer.updater.iteration == iteration:
            with open(os.path.join(out, "fault_time"), "w") as f:
                f.write(repr(time.time()))
            action()

    return extension


def _raise():
    raise RuntimeError("injected failure on rank 1")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--kill-at", type=int, default=None)
    parser.add_argument("--raise-at", type=int, default=None)
    args = parser.parse_args()

    comm = chainermn.create_communicator("naive")
    model = _model()
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
    optimizer.setup(model)
    train = chainermn.scatter_dataset(
        _dataset() if comm.rank == 0 else None, comm, shuffle=True, seed=3
    )
    iterator = chainer.iterators.SerialIterator(train, 8, shuffle=False)
    updater = training.StandardUpdater(iterator, optimizer)
    trainer = training.Trainer(updater, (args.iterations, "iteration"), out=args.out)
    checkpointer = chainermn.create_multi_node_checkpointer(
        "job", comm, cp_interval=2, gc_interval=2
    )
    trainer.extend(checkpointer, trigger=(args.every, "iteration"))
    kill = _fault_at(
        comm.rank, args.kill_at, lambda: os.kill(os.getpid(), signal.SIGKILL), args.out
    )
    trainer.extend(kill, trigger=(1, "iteration"))
    fail = _fault_at(comm.rank, args.raise_at, _raise, args.out)
    trainer.extend(fail, trigger=(1, "iteration"))
    checkpointer.maybe_load(trainer, optimizer)
    resumed_from = updater.iteration
    trainer.run()

    x, t = chainer.dataset.concat_examples(train)
    with chainer.using_config("train", False):
        loss = model(x, t)
    params = {name: p.array for name, p in model.namedparams()}
    numpy.savez(
        os.path.join(args.out, f"result.{comm.rank}.npz"),
        loss=loss.array,
        resumed_from=resumed_from,
        **{f"param{name.replace('/', '_')}": a for name, a in params.items()},
    )


if __name__ == "__main__":
    main()
