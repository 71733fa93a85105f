"""A small convnet trained with ChainerX alone (no Chainer): routines, autograd, manual SGD.

The data are 12x12 images of the ten digits drawn from a 3x5 bitmap font embedded below, each
shifted at random, scaled 2x and covered in noise, so the example needs nothing but chainerx
and NumPy. The net is conv 3x3 -> relu -> max_pool 2 -> conv 3x3 -> relu -> max_pool 2 ->
linear; the loss is ``chainerx.softmax_cross_entropy``. Parameters are updated in place through
``as_grad_stopped()`` views with momentum SGD. Exits non-zero when the loss does not fall or
the test accuracy is below ``--min-accuracy``.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import chainerx as chx

# A 3x5 font: five rows of three pixels per digit ('#' = ink).
FONT = [
    "### #.# #.# #.# ###",
    ".#. ##. .#. .#. ###",
    "### ..# ### #.. ###",
    "### ..# ### ..# ###",
    "#.# #.# ### ..# ..#",
    "### #.. ### ..# ###",
    "### #.. ### #.# ###",
    "### ..# .#. .#. .#.",
    "### #.# ### #.# ###",
    "### #.# ### ..# ###",
]
SIZE = 12


def make_digits(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n`` noisy 12x12 digit images (N, 1, 12, 12) float32 and their int32 labels."""
    glyphs = np.array([[c == "#" for c in g.replace(" ", "")] for g in FONT], np.float32).reshape(
        10, 5, 3
    )
    glyphs = glyphs.repeat(2, axis=1).repeat(2, axis=2)  # 10x6: fits 12x12 with room to move
    labels = rng.integers(0, 10, n).astype(np.int32)
    images = np.zeros((n, 1, SIZE, SIZE), np.float32)
    rows = rng.integers(0, SIZE - 10 + 1, n)
    cols = rng.integers(0, SIZE - 6 + 1, n)
    for i in range(n):
        images[i, 0, rows[i] : rows[i] + 10, cols[i] : cols[i] + 6] = glyphs[labels[i]]
    images += rng.normal(0.0, 0.35, images.shape).astype(np.float32)
    return images, labels


class ConvNet:
    """conv(1->c1) / pool / conv(c1->c2) / pool / linear(c2*3*3 -> 10), He-initialized."""

    def __init__(self, rng: np.random.Generator, c1: int = 8, c2: int = 16) -> None:
        def he(*shape: int) -> chx.ndarray:
            fan_in = int(np.prod(shape[1:]))
            w = rng.normal(0.0, np.sqrt(2.0 / fan_in), shape).astype(np.float32)
            return chx.array(w).require_grad()

        def zeros(n: int) -> chx.ndarray:
            return chx.zeros((n,), chx.float32).require_grad()

        self.params = [he(c1, 1, 3, 3), zeros(c1), he(c2, c1, 3, 3), zeros(c2)]
        self.params += [he(10, c2 * 3 * 3), zeros(10)]
        self.velocities = [chx.zeros_like(p.as_grad_stopped()) for p in self.params]

    def __call__(self, x: chx.ndarray) -> chx.ndarray:
        w1, b1, w2, b2, w3, b3 = self.params
        h = chx.max_pool(chx.relu(chx.conv(x, w1, b1, pad=1)), 2)
        h = chx.max_pool(chx.relu(chx.conv(h, w2, b2, pad=1)), 2)
        return chx.linear(h, w3, b3)

    def update(self, lr: float, momentum: float) -> None:
        for p, v in zip(self.params, self.velocities, strict=True):
            v *= momentum
            v -= lr * p.grad
            data = p.as_grad_stopped()  # shares p's memory; updating it leaves the graph alone
            data += v
            p.cleargrad()


def evaluate(model: ConvNet, x: chx.ndarray, t: chx.ndarray, batch: int) -> float:
    correct = 0.0
    with chx.no_backprop_mode():
        for i in range(0, len(x), batch):
            acc = chx.accuracy(model(x[i : i + batch]), t[i : i + batch])
            correct += float(acc) * len(t[i : i + batch])
    return correct / len(x)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--train-size", type=int, default=4000)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--min-accuracy", type=float, default=0.0)
    parser.add_argument("--device", default="native:0")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    device = chx.get_device(args.device)
    x_train, t_train = (chx.array(a, device=device) for a in make_digits(args.train_size, rng))
    x_test, t_test = (chx.array(a, device=device) for a in make_digits(1000, rng))
    with chx.using_device(device):
        model = ConvNet(rng)
    n = len(x_train)
    epoch_losses = []
    for epoch in range(1, args.epochs + 1):
        start = time.perf_counter()
        order = chx.array(rng.permutation(n), device=device)
        total = 0.0
        for i in range(0, n, args.batch_size):
            index = order[i : i + args.batch_size]
            loss = chx.softmax_cross_entropy(model(x_train[index]), t_train[index]).mean()
            loss.backward()
            model.update(args.lr, 0.9)
            total += float(loss) * len(index)
        epoch_losses.append(total / n)
        accuracy = evaluate(model, x_test, t_test, 500)
        print(
            f"epoch {epoch:2d}  loss {epoch_losses[-1]:.4f}  test accuracy {accuracy:.4f}"
            f"  ({time.perf_counter() - start:.2f} s)"
        )
    if not epoch_losses[-1] < epoch_losses[0]:
        print(f"FAILED: the loss did not fall ({epoch_losses[0]:.4f} -> {epoch_losses[-1]:.4f})")
        return 1
    if accuracy < args.min_accuracy:
        print(f"FAILED: test accuracy {accuracy:.4f} < {args.min_accuracy}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
