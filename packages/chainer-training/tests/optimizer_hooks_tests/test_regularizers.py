"""WeightDecay and Lasso: their gradient terms, as optimizer and as update-rule hooks."""

import numpy
import pytest

from chainer import optimizers
from chainer.optimizer_hooks import Lasso, WeightDecay

DTYPES = [numpy.float16, numpy.float32, numpy.float64]
HOOKS = {
    "WeightDecay": (WeightDecay, lambda p: p),
    "Lasso": (Lasso, numpy.sign),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(HOOKS))
def test_optimizer_hook_adds_the_penalty_gradient(kit, name, dtype):
    cls, penalty_grad = HOOKS[name]
    model = kit.TwoParams(dtype)
    before, grads = kit.sgd_step(model, cls(0.1))
    for key, p in before.items():
        expected = p - (grads[key] + 0.1 * penalty_grad(p))
        numpy.testing.assert_allclose(getattr(model, key).array, expected, **kit.TOLERANCES[dtype])


@pytest.mark.parametrize("name", list(HOOKS))
def test_acts_on_the_true_gradient_under_loss_scaling(kit, name):
    cls, _ = HOOKS[name]
    scaled, plain = kit.TwoParams(), kit.TwoParams()
    kit.sgd_step(scaled, cls(0.1), scale=64.0)
    kit.sgd_step(plain, cls(0.1))
    for key in ("w", "b"):
        numpy.testing.assert_allclose(getattr(scaled, key).array, getattr(plain, key).array)


@pytest.mark.parametrize("name", list(HOOKS))
def test_update_rule_hook_affects_only_its_parameter(kit, name):
    cls, penalty_grad = HOOKS[name]
    model = kit.TwoParams()
    optimizer = optimizers.SGD(lr=1.0).setup(model)
    model.w.update_rule.add_hook(cls(0.1))
    before, grads = model.arrays(), model.set_grads()
    optimizer.update()
    w = before["w"]
    numpy.testing.assert_allclose(model.w.array, w - grads["w"] - 0.1 * penalty_grad(w))
    numpy.testing.assert_allclose(model.b.array, before["b"] - grads["b"])


@pytest.mark.parametrize("name", list(HOOKS))
def test_post_timing_runs_after_the_update(kit, name):
    cls, penalty_grad = HOOKS[name]
    model = kit.TwoParams()
    hook = cls(0.1)
    hook.timing = "post"
    before, grads = kit.sgd_step(model, hook)
    for key, p in before.items():
        param = getattr(model, key)
        numpy.testing.assert_allclose(param.array, p - grads[key])  # the step ignored it
        # ...and it ran afterwards, on the updated parameter.
        numpy.testing.assert_allclose(param.grad, grads[key] + 0.1 * penalty_grad(param.array))


@pytest.mark.parametrize("name", list(HOOKS))
def test_surface(name):
    cls, _ = HOOKS[name]
    hook = cls(0.5)
    assert (hook.name, hook.timing, hook.call_for_each_param, hook.rate) == (
        name,
        "pre",
        True,
        0.5,
    )
    with pytest.raises(TypeError, match=rf"{name}: rate must be a real number, got str '0.5'"):
        cls("0.5")


def test_hooks_skip_parameters_without_gradient(kit):
    model = kit.TwoParams()
    model.w.grad = None
    rule = optimizers.SGD().create_update_rule()
    for hook in (WeightDecay(1.0), Lasso(1.0)):
        hook(rule, model.w)
    assert model.w.grad is None
