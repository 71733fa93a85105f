"""Fine-tune a model imported from ONNX: export the MNIST example's MLP, import the file back
with ``onnx_chainer.import_model`` and train the imported Chain on the 8x8 digits.

The imported model's ONNX initializers are ``chainer.Parameter`` s, so any optimizer trains
it; this script checks that the loss falls and that the untrained import matched the original.

    python examples/onnx/finetune_imported.py            # ~5 s on 2 cores; needs scikit-learn
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import sys
import tempfile

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer

_EXAMPLES = pathlib.Path(__file__).resolve().parents[1]


def _mnist_example():
    """The MNIST example module (its MLP and its digits loader)."""
    spec = importlib.util.spec_from_file_location(
        "train_mnist", _EXAMPLES / "mnist" / "train_mnist.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mean_loss(model: chainer.Link, dataset) -> tuple[float, float]:
    """Mean softmax cross entropy and accuracy of ``model`` over ``dataset`` (test mode)."""
    x, t = chainer.dataset.concat_examples(dataset[:])
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        y = model(x)
        return float(F.softmax_cross_entropy(y, t).array), float(F.accuracy(y, t).array)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150, help="training iterations")
    parser.add_argument("--batchsize", type=int, default=64)
    parser.add_argument("--unit", type=int, default=100, help="hidden units of the MLP")
    parser.add_argument("--opset", type=int, default=onnx_chainer.MAXIMUM_OPSET_VERSION)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--max-loss-ratio",
        type=float,
        default=0.5,
        help="fail unless the final test loss is below this fraction of the initial one",
    )
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    np.random.seed(args.seed)
    mnist = _mnist_example()
    train, test = mnist.load_digits(args.seed)

    original = mnist.MLP(args.unit, 10)
    sample = train[:1][0][0][None]
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "mlp.onnx"
        onnx_chainer.export(
            original, sample, filename=str(path), opset_version=args.opset, no_testcase=True
        )
        model = onnx_chainer.import_model(path)
    print(f"imported {path.name}: parameters {[name for name, _ in model.namedparams()]}")

    x_test, _ = chainer.dataset.concat_examples(test[:])
    with chainer.no_backprop_mode():
        np.testing.assert_allclose(
            model(x_test).array, original(x_test).array, rtol=1e-5, atol=1e-6
        )

    classifier = L.Classifier(model)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(classifier)
    iterator = chainer.iterators.SerialIterator(train, args.batchsize)
    before, accuracy_before = mean_loss(model, test)
    print(f"before: test loss {before:.4f}, accuracy {accuracy_before:.3f}")
    for step in range(1, args.steps + 1):
        x, t = chainer.dataset.concat_examples(iterator.next())
        optimizer.update(classifier, x, t)
        if step % 50 == 0:
            print(f"step {step}: train batch loss {float(classifier.loss.array):.4f}")
    after, accuracy_after = mean_loss(model, test)
    print(f"after {args.steps} steps: test loss {after:.4f}, accuracy {accuracy_after:.3f}")
    if not after < args.max_loss_ratio * before:
        print(
            f"FAILED: the test loss fell from {before:.4f} to {after:.4f}, not below "
            f"{args.max_loss_ratio} of it",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
