"""One-layer LSTM over 20 steps of a batch of 32 with 128 units, forward and backward:
``F.n_step_lstm`` on NumPy against PyTorch's ``nn.LSTM`` on CPU, side by side at the same
thread count.

Both get the same weights (PyTorch's gate order ``i, f, g, o`` is n_step_lstm's
``W_0 .. W_3``) and the same all-ones output gradient; the gradients of the inputs and of
every weight are compared before timing. A third line times the matrix products alone that
any NumPy LSTM needs for this (the same FLOPs as PyTorch's): a floor for NumPy code.

Usage: ``python n_step_lstm.py [threads]`` (default 1). The thread count is set for OpenBLAS
(NumPy) and for PyTorch alike, before NumPy is imported.
"""

from __future__ import annotations

import os
import sys

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 1
os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = str(THREADS)

import numpy as np  # noqa: E402  (the thread count must be set first)
from _timing import measure_side_by_side, report  # noqa: E402

STEPS, BATCH, IN_SIZE, UNITS = 20, 32, 128, 128


def initial_params() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    scale = 1 / np.sqrt(UNITS)
    shapes = {
        "weight_ih": (4 * UNITS, IN_SIZE),
        "weight_hh": (4 * UNITS, UNITS),
        "bias_ih": (4 * UNITS,),
        "bias_hh": (4 * UNITS,),
    }
    return {k: rng.uniform(-scale, scale, s).astype(np.float32) for k, s in shapes.items()}


def inputs() -> np.ndarray:
    return np.random.default_rng(1).standard_normal((STEPS, BATCH, IN_SIZE)).astype(np.float32)


def chainer_step():
    """Return (step, grads): one forward and backward pass, and a function giving gradients."""
    import chainer
    from chainer.functions.rnn.n_step_lstm import n_step_lstm

    p = initial_params()
    # n_step_lstm takes the gates as separate matrices: W_0..3 on x, W_4..7 on h.
    ws = [
        chainer.Parameter(w) for name in ("weight_ih", "weight_hh") for w in np.split(p[name], 4)
    ]
    bs = [chainer.Parameter(b) for name in ("bias_ih", "bias_hh") for b in np.split(p[name], 4)]
    xs = [chainer.Variable(x) for x in inputs()]
    h0 = np.zeros((1, BATCH, UNITS), np.float32)
    ones = [np.ones((BATCH, UNITS), np.float32)] * STEPS

    def step():
        for v in (*ws, *bs, *xs):
            v.cleargrad()
        _, _, ys = n_step_lstm(1, 0.0, h0, h0, [ws], [bs], xs)
        chainer.backward(list(ys), ones)

    def grads():
        step()
        return {
            "x": np.stack([x.grad for x in xs]),
            "weight_ih": np.concatenate([w.grad for w in ws[:4]]),
            "weight_hh": np.concatenate([w.grad for w in ws[4:]]),
            "bias_ih": np.concatenate([b.grad for b in bs[:4]]),
            "bias_hh": np.concatenate([b.grad for b in bs[4:]]),
        }

    return step, grads


def torch_step():
    import torch

    torch.set_num_threads(THREADS)
    lstm = torch.nn.LSTM(IN_SIZE, UNITS, 1)
    with torch.no_grad():
        for name, value in initial_params().items():
            getattr(lstm, f"{name}_l0").copy_(torch.tensor(value))
    x = torch.tensor(inputs(), requires_grad=True)
    ones = torch.ones(STEPS, BATCH, UNITS)

    def step():
        lstm.zero_grad()
        x.grad = None
        y, _ = lstm(x)
        y.backward(ones)

    def grads():
        step()
        got = {name: getattr(lstm, f"{name}_l0").grad.numpy() for name in initial_params()}
        return {"x": x.grad.numpy(), **got}

    return step, grads


def numpy_gemms():
    """The GEMMs of one forward and backward pass, on NumPy (nothing else)."""
    p = initial_params()
    x = inputs().reshape(STEPS * BATCH, IN_SIZE)
    w_ih, w_hh = p["weight_ih"], p["weight_hh"]
    h = np.ones((BATCH, UNITS), np.float32)
    g = np.ones((STEPS * BATCH, 4 * UNITS), np.float32)

    def step():
        x.dot(w_ih.T)  # input projection of all steps
        for t in range(STEPS):
            h.dot(w_hh.T)  # forward, per step
            g[t * BATCH : (t + 1) * BATCH].dot(w_hh)  # backward to the previous step
        g.T.dot(h.repeat(STEPS, axis=0))  # weight gradients, all steps at once
        g.dot(w_ih)
        g.T.dot(x)

    return step


def check_same_gradients(contenders: dict) -> None:
    reference = None
    for _, grads in contenders.values():
        got = grads()
        if reference is None:
            reference = got
            continue
        for name, value in reference.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-3, atol=1e-4, err_msg=name)


def main() -> str:
    contenders = {"chainer (numpy)": chainer_step()}
    try:
        contenders["pytorch cpu"] = torch_step()
    except ImportError:
        pass
    check_same_gradients(contenders)
    timed = {k: v[0] for k, v in contenders.items()}
    timed["numpy GEMMs alone"] = numpy_gemms()
    results = measure_side_by_side(timed, number=5)
    baseline = "pytorch cpu" if "pytorch cpu" in results else "chainer (numpy)"
    title = (
        f"n_step_lstm forward+backward, {STEPS} steps x batch {BATCH} x {UNITS} units, "
        f"{THREADS} thread(s)"
    )
    return report(title, results, baseline)


if __name__ == "__main__":
    print(main())
