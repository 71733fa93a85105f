"""The digits MLP of examples/mnist, trained data-parallel over MPI with ChainerMN.

Each rank trains on its share of the training set; gradients are averaged over the ranks
before every update, and the test set is evaluated in parallel. Only rank 0 reports.

    mpiexec -n 2 python -m mpi4py examples/chainermn/train_mnist_data_parallel.py

Compared with examples/mnist/train_mnist.py, the changes are the communicator, the
multi-node optimizer (the two lines that make it data-parallel), scattering the datasets,
the multi-node evaluator, and reporting on rank 0 only.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import chainer
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "mnist"))
from train_mnist import MLP, check_final_accuracy, load_digits  # the main job's pieces


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--communicator", default="flat", help="e.g. flat, naive, pure_nccl")
    parser.add_argument("--batchsize", "-b", type=int, default=32, help="per rank")
    parser.add_argument("--epoch", "-e", type=int, default=20)
    parser.add_argument("--unit", "-u", type=int, default=256)
    parser.add_argument("--out", "-o", default="result/mnist_data_parallel")
    parser.add_argument("--bucketed", action="store_true", help="overlap allreduce with backward")
    parser.add_argument("--min-accuracy", type=float, default=None)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    comm = chainermn.create_communicator(args.communicator)

    train, test = load_digits() if comm.rank == 0 else (None, None)
    train = chainermn.scatter_dataset(train, comm, shuffle=True, seed=0)
    test = chainermn.scatter_dataset(test, comm)

    model = L.Classifier(MLP(args.unit, 10))
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.Adam(), comm, bucketed=args.bucketed
    )
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)

    evaluator = extensions.Evaluator(test_iter, model)
    trainer.extend(chainermn.create_multi_node_evaluator(evaluator, comm))
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
    return check_final_accuracy(args.out, args.min_accuracy, prefix=f"{comm.size} ranks, ")


if __name__ == "__main__":
    sys.exit(main())
