"""A minimal define-by-run demo on chainer-core alone: fit a cubic by gradient descent.

The model is y = a*x^3 + b*x^2 + c*x + d with Parameters a..d; every step builds the graph by
running plain Python, calls backward(), and moves the parameters against their gradients. At
the end it checks a higher-order derivative with chainer.grad(enable_double_backprop=True).
Exit status is non-zero if the loss did not fall or a derivative is wrong.
"""

from __future__ import annotations

import sys

import numpy as np

import chainer
from chainer import Parameter, Variable
from chainer._ops.array_ops import mean


def main(steps: int = 400, lr: float = 0.05) -> int:
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, 256).astype(np.float32)
    true = np.array([1.5, -0.7, 0.3, 0.2], dtype=np.float32)
    t = (true[0] * x**3 + true[1] * x**2 + true[2] * x + true[3]).astype(np.float32)
    t += rng.normal(0, 0.01, t.shape).astype(np.float32)

    params = [Parameter(np.zeros(1, np.float32), name=n) for n in "abcd"]
    xv, tv = Variable(x), Variable(t)
    losses = []
    for step in range(steps):
        a, b, c, d = params
        y = a * xv**3 + b * xv**2 + c * xv + d
        loss = mean((y - tv) ** 2)
        for p in params:
            p.cleargrad()
        loss.backward()
        for p in params:
            p.array -= lr * p.grad
        losses.append(float(loss.array))
        if step % 100 == 0 or step == steps - 1:
            print(f"step {step:4d}  loss {losses[-1]:.6f}")

    fitted = np.concatenate([p.array for p in params])
    print("fitted coefficients:", np.round(fitted, 3), "true:", true)

    # Higher-order derivatives: d^k/dx^k of x^4 at x=1.5 are 13.5, 27, 36, 24.
    z = Variable(np.array([1.5]))
    g = z**4
    derivatives = []
    for _ in range(4):
        (g,) = chainer.grad([g], [z], enable_double_backprop=True)
        derivatives.append(float(g.array[0]))
    print("derivatives of x^4 at 1.5:", derivatives)

    ok = losses[-1] < 0.1 * losses[0] and np.allclose(derivatives, [13.5, 27.0, 36.0, 24.0])
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
