"""Train a multi-layer perceptron on handwritten digits with Chainer's Trainer.

By default it uses the 8x8 handwritten digits that ship inside scikit-learn (1797 real
samples, no network needed); ``--dataset mnist`` uses ``chainer.datasets.get_mnist()``, which
downloads MNIST once into the dataset root. Results (log, plots, snapshots) go to ``--out``.

    python examples/mnist/train_mnist.py                # digits, ~30 s on 2 cores
    python examples/mnist/train_mnist.py --resume       # continue from the last snapshot
    python examples/mnist/train_mnist.py --dataset mnist --epoch 20
    python examples/mnist/train_mnist.py --device native:0  # Chainer on ChainerX (chainer[x])
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):
    """Two hidden layers with ReLU; input size is inferred on the first batch."""

    def __init__(self, n_units: int, n_out: int) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def load_digits(seed: int = 0):
    """scikit-learn's real 8x8 digits as (train, test) TupleDatasets, pixels scaled to [0, 1]."""
    try:
        from sklearn.datasets import load_digits as sklearn_digits
    except ImportError as error:
        raise SystemExit(
            "the default dataset needs scikit-learn: pip install scikit-learn "
            "(or use --dataset mnist)"
        ) from error
    digits = sklearn_digits()
    x = (digits.data / 16.0).astype(np.float32)
    t = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = len(x) // 5
    test, train = order[:n_test], order[n_test:]
    return (
        chainer.datasets.TupleDataset(x[train], t[train]),
        chainer.datasets.TupleDataset(x[test], t[test]),
    )


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=["digits", "mnist"], default="digits")
    parser.add_argument("--batchsize", "-b", type=int, default=64)
    parser.add_argument("--epoch", "-e", type=int, default=20)
    parser.add_argument("--unit", "-u", type=int, default=256)
    parser.add_argument(
        "--device",
        "-d",
        default="@numpy",
        help="device spec: @numpy (default), native:0 (ChainerX, needs chainer[x]), @cupy:0",
    )
    parser.add_argument("--out", "-o", default="result/mnist")
    parser.add_argument("--seed", type=int, default=0, help="seed of NumPy's generator")
    parser.add_argument("--resume", action="store_true", help="resume from the last snapshot")
    parser.add_argument(
        "--min-accuracy",
        type=float,
        default=None,
        help="exit with status 1 if the final test accuracy is lower",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    np.random.seed(args.seed)  # initial weights and shuffling: the same run every time
    print(f"results go to {pathlib.Path(args.out).resolve()}")
    device = chainer.get_device(args.device)
    if args.dataset == "digits":
        train, test = load_digits()
    else:
        train, test = chainer.datasets.get_mnist()

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.resume), trigger=(5, "epoch"))
    trainer.extend(extensions.LogReport())
    if extensions.PlotReport.available():
        trainer.extend(
            extensions.PlotReport(
                ["main/loss", "validation/main/loss"], "epoch", file_name="loss.png"
            )
        )
        trainer.extend(
            extensions.PlotReport(
                ["main/accuracy", "validation/main/accuracy"], "epoch", file_name="accuracy.png"
            )
        )
    trainer.extend(
        extensions.PrintReport(
            [
                "epoch",
                "main/loss",
                "validation/main/loss",
                "main/accuracy",
                "validation/main/accuracy",
                "elapsed_time",
            ]
        )
    )
    if not args.no_progress:
        trainer.extend(extensions.ProgressBar())
    trainer.run()

    return check_final_accuracy(args.out, args.min_accuracy)


def check_final_accuracy(out: str, min_accuracy: float | None, prefix: str = "") -> int:
    """Print the last validation accuracy of ``out``/log; 1 if below ``min_accuracy``, else 0."""
    log = json.loads((pathlib.Path(out) / "log").read_text())
    accuracy = log[-1]["validation/main/accuracy"]
    print(f"{prefix}final test accuracy: {accuracy:.4f}; results in {pathlib.Path(out).resolve()}")
    if min_accuracy is not None and accuracy < min_accuracy:
        print(f"FAILED: below the required {min_accuracy}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
