"""A small LeNet-style convnet on the real 8x8 handwritten digits bundled with scikit-learn.

Two 3x3 convolutions with max pooling, then two Linear layers; trained with Adam by a Trainer
with Evaluator, LogReport and PrintReport. ``--dataset mnist`` trains on MNIST (28x28) via
``chainer.datasets.get_mnist`` instead (downloads once).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "mnist"))
from train_mnist import check_final_accuracy  # the main job's final report


class ConvNet(chainer.Chain):
    def __init__(self, n_out: int = 10) -> None:
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(None, 16, ksize=3, pad=1)
            self.conv2 = L.Convolution2D(16, 32, ksize=3, pad=1)
            self.fc1 = L.Linear(None, 64)
            self.fc2 = L.Linear(64, n_out)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        return self.fc2(F.relu(self.fc1(h)))


def load(dataset: str):
    if dataset == "mnist":
        return chainer.datasets.get_mnist(ndim=3)
    try:
        from sklearn.datasets import load_digits
    except ImportError as error:
        raise SystemExit(
            "the default dataset needs scikit-learn: pip install scikit-learn"
        ) from error
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None]  # (N, 1, 8, 8)
    t = digits.target.astype(np.int32)
    order = np.random.default_rng(0).permutation(len(x))
    n_test = len(x) // 5
    return (
        chainer.datasets.TupleDataset(x[order[n_test:]], t[order[n_test:]]),
        chainer.datasets.TupleDataset(x[order[:n_test]], t[order[:n_test]]),
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=["digits", "mnist"], default="digits")
    parser.add_argument("--epoch", "-e", type=int, default=10)
    parser.add_argument("--batchsize", "-b", type=int, default=64)
    parser.add_argument("--out", "-o", default="result/convnet")
    parser.add_argument("--seed", type=int, default=0, help="seed of NumPy's generator")
    parser.add_argument("--min-accuracy", type=float, default=None)
    args = parser.parse_args(argv)
    np.random.seed(args.seed)  # initial weights and shuffling: the same run every time
    print(f"results go to {pathlib.Path(args.out).resolve()}")

    train, test = load(args.dataset)
    model = L.Classifier(ConvNet())
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model))
    trainer.extend(extensions.LogReport())
    trainer.extend(
        extensions.PrintReport(
            ["epoch", "main/loss", "main/accuracy", "validation/main/accuracy", "elapsed_time"]
        )
    )
    trainer.run()

    return check_final_accuracy(args.out, args.min_accuracy)


if __name__ == "__main__":
    sys.exit(main())
