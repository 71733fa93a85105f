"""Chainer at a glance: an MLP built with Sequential + Classifier on a real tabular dataset.

The docs' glance example classifies mushrooms from a CSV downloaded from UCI. There is no
network here, so this version uses scikit-learn's bundled Wisconsin breast-cancer table
(569 samples, 30 real-valued features, 2 classes) with the same model shape: a Sequential of
Linear layers with ReLU, repeated, wrapped in a Classifier, trained by a Trainer.
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


def load_table(seed: int = 0):
    try:
        from sklearn.datasets import load_breast_cancer
    except ImportError as error:
        raise SystemExit("this example needs scikit-learn: pip install scikit-learn") from error
    table = load_breast_cancer()
    x = table.data.astype(np.float32)
    x = (x - x.mean(axis=0)) / x.std(axis=0)
    t = table.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = len(x) // 5
    test, train = order[:n_test], order[n_test:]
    return (
        chainer.datasets.TupleDataset(x[train], t[train]),
        chainer.datasets.TupleDataset(x[test], t[test]),
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epoch", "-e", type=int, default=20)
    parser.add_argument("--out", "-o", default="result/glance")
    parser.add_argument("--seed", type=int, default=0, help="seed of NumPy's generator")
    parser.add_argument("--min-accuracy", type=float, default=None)
    args = parser.parse_args(argv)
    np.random.seed(args.seed)  # initial weights and shuffling: the same run every time
    print(f"results go to {pathlib.Path(args.out).resolve()}")

    train, test = load_table()
    # The docs' model: two hidden layers of 44 units, built by repeating a Linear+ReLU block.
    block = chainer.Sequential(L.Linear(None, 44), F.relu)
    model = L.Classifier(chainer.Sequential(block.repeat(2), L.Linear(None, 2)))
    optimizer = chainer.optimizers.SGD(lr=0.05)
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, 32)
    test_iter = chainer.iterators.SerialIterator(test, 32, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model))
    trainer.extend(extensions.LogReport())
    trainer.extend(
        extensions.PrintReport(
            [
                "epoch",
                "main/loss",
                "main/accuracy",
                "validation/main/loss",
                "validation/main/accuracy",
            ]
        )
    )
    trainer.run()

    return check_final_accuracy(args.out, args.min_accuracy)


if __name__ == "__main__":
    sys.exit(main())
