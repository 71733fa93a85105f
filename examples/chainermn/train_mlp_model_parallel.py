"""The digits MLP split across 2 processes (model parallelism), as in the ChainerMN tutorial.

Rank 0 holds the first layer and the classifier's loss, rank 1 the two hidden layers:

    x -> [rank 0: l1, relu] -> h -> [rank 1: l2, relu, l3] -> y -> [rank 0: loss]

Each rank's ``MultiNodeChainList`` says where its components' inputs come from and where their
outputs go; backward sends the gradients back the same way. Rank 1 has no data of its own
(an empty dataset of the same length keeps the two training loops in step).

    mpiexec -n 2 python -m mpi4py examples/chainermn/train_mlp_model_parallel.py
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "mnist"))
from train_mnist import check_final_accuracy, load_digits  # the main job's pieces


class MLP0SubA(chainer.Chain):
    """Rank 0, first component: the input layer (its output goes to rank 1)."""

    def __init__(self, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)

    def forward(self, x):
        return F.relu(self.l1(x))


class MLP0SubB(chainer.Chain):
    """Rank 0, second component: passes on what rank 1 returns (the model's output)."""

    def forward(self, y):
        return y


class MLP0(chainermn.MultiNodeChainList):
    """The model on rank 0."""

    def __init__(self, comm, n_units: int) -> None:
        super().__init__(comm=comm)
        self.add_link(MLP0SubA(n_units), rank_in=None, rank_out=1)
        self.add_link(MLP0SubB(), rank_in=1, rank_out=None)


class MLP1Sub(chainer.Chain):
    """Rank 1: the hidden and output layers."""

    def __init__(self, n_units: int, n_out: int) -> None:
        super().__init__()
        with self.init_scope():
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, h0):
        return self.l3(F.relu(self.l2(h0)))


class MLP1(chainermn.MultiNodeChainList):
    """The model on rank 1: receives from rank 0 and sends back to it."""

    def __init__(self, comm, n_units: int, n_out: int) -> None:
        super().__init__(comm=comm)
        self.add_link(MLP1Sub(n_units, n_out), rank_in=0, rank_out=0)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batchsize", "-b", type=int, default=64)
    parser.add_argument("--epoch", "-e", type=int, default=10)
    parser.add_argument("--unit", "-u", type=int, default=128)
    parser.add_argument("--out", "-o", default="result/mlp_model_parallel")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-accuracy", type=float, default=None)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    comm = chainermn.create_communicator("naive")
    if comm.size != 2:
        raise SystemExit(f"this example runs on exactly 2 processes, got {comm.size}")

    train, test = load_digits()
    numpy.random.seed(args.seed)  # initial weights and shuffling
    if comm.rank == 0:
        model = L.Classifier(MLP0(comm, args.unit))
    else:
        model = MLP1(comm, args.unit, 10)
        train = chainermn.datasets.create_empty_dataset(train)
        test = chainermn.datasets.create_empty_dataset(test)

    # Each rank updates its own parameters: a plain (not multi-node) optimizer.
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    # shuffle=False on rank 1 only changes the order of its empty tuples.
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize, shuffle=comm.rank == 0)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)
    # Both ranks evaluate: rank 1's half of the forward pass runs in rank 0's evaluation.
    trainer.extend(extensions.Evaluator(test_iter, model))
    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(
            extensions.PrintReport(
                ["epoch", "main/loss", "validation/main/loss", "validation/main/accuracy"]
            )
        )
    trainer.run()

    if comm.rank != 0:
        return 0
    return check_final_accuracy(args.out, args.min_accuracy, prefix="model parallel, ")


if __name__ == "__main__":
    sys.exit(main())
