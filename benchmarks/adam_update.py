"""Adam update over a ~10M-parameter model: memory allocated per step, and time against PyTorch.

The model is ten 1000x1000 weight matrices with their 1000-element biases (10,010,000 float32
parameters, 40 MB), gradients fixed and already computed, so only the optimizer step is
measured.

- Memory: ``tracemalloc`` peak of each ``optimizer.update()`` after the first (which creates
  the state). Chainer's NumPy kernels work in place on cache-sized chunks, so the peak is a few
  kilobytes of Python objects whatever the model size. For contrast, the same formula written
  the obvious NumPy way allocates several full-size temporaries per parameter.
- Time: Chainer's ``Adam`` on NumPy against ``torch.optim.Adam(foreach=True)`` (the baseline
  of the ratios), PyTorch's fused CPU kernel, and the obvious NumPy formula, timed side by
  side. NumPy runs on one thread; PyTorch uses its intra-op thread pool (its thread count is
  printed), and a one-thread PyTorch run is listed too.

Before timing, a few steps of Chainer and PyTorch from the same start are checked to agree.
"""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
from _timing import measure_side_by_side, report

LAYERS = 10
WIDTH = 1000
STEPS_FOR_MEMORY = 5


def build_model(layers: int = LAYERS, width: int = WIDTH, seed: int = 0):
    """A ChainList of links holding W (width x width) and b (width), with fixed gradients."""
    import chainer
    from chainer.link import ChainList, Link

    rng = np.random.default_rng(seed)
    model = ChainList()
    for _ in range(layers):
        layer = Link()
        with layer.init_scope():
            layer.W = chainer.Parameter(rng.standard_normal((width, width), np.float32) * 0.01)
            layer.b = chainer.Parameter(np.zeros(width, np.float32))
        model.append(layer)
    for param in model.params():
        param.grad = rng.standard_normal(param.shape, np.float32)
    return model


def chainer_adam(model, **kwargs):
    from chainer import optimizers

    optimizer = optimizers.Adam(**kwargs).setup(model)
    return optimizer.update


def naive_numpy_adam(model):
    """The Adam formula on whole arrays, one NumPy expression per line."""
    params = [(p.array, p.grad) for p in model.params()]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p, _ in params]
    t = 0

    def step():
        nonlocal t
        t += 1
        alpha_t = 1e-3 * math.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        for (p, g), (m, v) in zip(params, moments):
            m += 0.1 * (g - m)
            v += 0.001 * (g * g - v)
            p -= alpha_t * m / (np.sqrt(v) + 1e-8)

    return step


def torch_adam(model, **kwargs):
    import torch

    tensors = []
    for param in model.params():
        tensor = torch.tensor(param.array.copy(), requires_grad=True)
        tensor.grad = torch.tensor(param.grad)
        tensors.append(tensor)
    optimizer = torch.optim.Adam(tensors, **kwargs)
    return optimizer.step, tensors


def single_threaded(step):
    import torch

    threads = torch.get_num_threads()

    def run():
        torch.set_num_threads(1)
        try:
            step()
        finally:
            torch.set_num_threads(threads)

    return run


def check_parity() -> None:
    """Chainer's and PyTorch's Adam agree after a few steps from the same parameters.

    ``eps`` is 0 here: PyTorch adds it to the bias-corrected root mean square, Chainer to the
    uncorrected one, which differs visibly where gradients are tiny.
    """
    model = build_model(layers=2, width=64)
    torch_step, tensors = torch_adam(model, foreach=True, eps=0.0)
    chainer_step = chainer_adam(model, eps=0.0)
    for _ in range(5):
        chainer_step()
        torch_step()
    for param, tensor in zip(model.params(), tensors):
        np.testing.assert_allclose(param.array, tensor.detach().numpy(), rtol=1e-5, atol=1e-7)


def per_step_peaks(step, steps: int = STEPS_FOR_MEMORY) -> list[int]:
    step()  # the first step allocates the state: not a per-step cost
    peaks = []
    tracemalloc.start()
    try:
        for _ in range(steps):
            tracemalloc.reset_peak()
            step()
            peaks.append(tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()
    return peaks


def memory_report() -> str:
    model_bytes = sum(p.array.nbytes for p in build_model().params())
    rows = [
        ("chainer Adam (numpy)", per_step_peaks(chainer_adam(build_model()))),
        ("naive numpy formula", per_step_peaks(naive_numpy_adam(build_model()))),
    ]
    title = (
        f"tracemalloc peak per Adam step, model of {model_bytes / 1e6:.1f} MB "
        f"({STEPS_FOR_MEMORY} steps after the first)"
    )
    lines = [title, "-" * len(title)]
    for name, peaks in rows:
        cells = ", ".join(f"{peak / 1024:.1f}" for peak in peaks)
        share = max(peaks) / model_bytes
        lines.append(f"{name:<22} KiB: {cells}   (max {share:.2%} of the parameters)")
    return "\n".join(lines)


def time_report() -> str:
    import torch

    torch_foreach, _ = torch_adam(build_model(), foreach=True)
    torch_fused, _ = torch_adam(build_model(), fused=True)
    contenders = {
        "torch Adam(foreach=True)": torch_foreach,
        "torch Adam(foreach=True), 1 thread": single_threaded(torch_foreach),
        "torch Adam(fused=True)": torch_fused,
        "chainer Adam (numpy)": chainer_adam(build_model()),
        "naive numpy formula": naive_numpy_adam(build_model()),
    }
    results = measure_side_by_side(contenders, number=1, repeat=7)
    title = f"Adam step, {LAYERS * (WIDTH + 1) * WIDTH:,} parameters (torch threads: "
    title += f"{torch.get_num_threads()})"
    return report(title, results, "torch Adam(foreach=True)")


def main() -> str:
    check_parity()
    return "\n\n".join([memory_report(), time_report()])


if __name__ == "__main__":
    print(main())
