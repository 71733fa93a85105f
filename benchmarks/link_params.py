"""Link traversal cost: ``params()``, ``namedparams()`` and ``cleargrads()`` against tree size.

Two shapes of model with N layers (each layer a link with two parameters, W and b):

- flat: one ``ChainList`` holding the N layers;
- deep: N chains nested inside each other, each holding one layer and the next chain, so
  parameter paths grow to N components.

For each N in 10, 100, 1000 it reports the time per call and per layer. Linear scaling shows
as a per-layer time that stays flat as N grows. The floor is a generator over a prebuilt list
of the same parameters: the least any traversal that yields them one by one can cost.

On nested chains the per-layer time of ``namedparams()`` grows with N by construction: the
paths themselves have N components, so the output alone is O(N^2) characters.
"""

from __future__ import annotations

import numpy as np
from _timing import measure_side_by_side, report

SIZES = (10, 100, 1000)


def _layer():
    import chainer
    from chainer.link import Link

    layer = Link()
    with layer.init_scope():
        layer.W = chainer.Parameter(np.zeros((4, 4), np.float32))
        layer.b = chainer.Parameter(np.zeros(4, np.float32))
    return layer


def flat_model(n_layers: int):
    from chainer.link import ChainList

    return ChainList(*[_layer() for _ in range(n_layers)])


def deep_model(n_layers: int):
    from chainer.link import Chain

    model = None
    for _ in range(n_layers):
        outer = Chain()
        with outer.init_scope():
            outer.layer = _layer()
            if model is not None:
                outer.inner = model
        model = outer
    return model


def contenders(model) -> dict:
    params = list(model.params())

    def floor():
        for _ in (p for p in params):
            pass

    def run_params():
        for _ in model.params():
            pass

    def run_namedparams():
        for _ in model.namedparams():
            pass

    return {
        "floor (list generator)": floor,
        "params()": run_params,
        "namedparams()": run_namedparams,
        "cleargrads()": model.cleargrads,
    }


def check_counts() -> None:
    # Both shapes hold 2 parameters per layer, and the deep paths have N components.
    for build in (flat_model, deep_model):
        model = build(5)
        names = [name for name, _ in model.namedparams()]
        assert len(names) == 10 == len(list(model.params())), names
    deepest = max(name.count("/") for name, _ in deep_model(5).namedparams())
    assert deepest == 6, deepest


def main() -> str:
    check_counts()
    sections = []
    for shape, build in (("flat ChainList", flat_model), ("nested Chains", deep_model)):
        per_layer: dict[str, list[float]] = {}
        for n_layers in SIZES:
            number = max(1, 20000 // n_layers)
            results = measure_side_by_side(contenders(build(n_layers)), number=number)
            title = f"{shape}, {n_layers} layers ({2 * n_layers} parameters)"
            sections.append(report(title, results, "floor (list generator)"))
            for name, seconds in results.items():
                per_layer.setdefault(name, []).append(seconds / n_layers)
        lines = [f"{shape}: time per layer (ns) for N = {', '.join(map(str, SIZES))}"]
        for name, values in per_layer.items():
            cells = "  ".join(f"{v * 1e9:8.1f}" for v in values)
            growth = values[-1] / values[0]
            lines.append(f"  {name:<24}{cells}   N=1000 / N=10: {growth:4.2f}x")
        sections.append("\n".join(lines))
    return "\n\n".join(sections)


if __name__ == "__main__":
    print(main())
