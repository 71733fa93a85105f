"""chainer.optimizer_hooks exports Chainer 7's hooks with their modules and signatures."""

import inspect

import pytest

from chainer import optimizer_hooks

SIGNATURES = {
    "GradientClipping": ("gradient_clipping", "(threshold)"),
    "GradientHardClipping": ("gradient_hard_clipping", "(lower_bound, upper_bound)"),
    "GradientLARS": ("gradient_lars", "(threshold=0.01, weight_decay=0.0, eps=1e-09)"),
    "GradientNoise": ("gradient_noise", "(eta, noise_func=exponential_decay_noise)"),
    "Lasso": ("lasso", "(rate)"),
    "WeightDecay": ("weight_decay", "(rate)"),
}


def test_exports():
    assert sorted(optimizer_hooks.__all__) == sorted(SIGNATURES)


@pytest.mark.parametrize("name", list(SIGNATURES))
def test_module_and_signature(name):
    module, signature = SIGNATURES[name]
    cls = getattr(optimizer_hooks, name)
    assert cls.__module__ == f"chainer.optimizer_hooks.{module}"
    params = []
    for param in inspect.signature(cls).parameters.values():
        param = param.replace(annotation=inspect.Parameter.empty)
        if inspect.isfunction(param.default):  # shown by name, as in Chainer's docs
            param = param.replace(default=param.default.__name__)
        params.append(param)
    text = str(inspect.Signature(params)).replace("'", "")
    assert text == signature
