"""GradientNoise: annealed Gaussian noise, or the noise of a given function."""

import math

import numpy
import pytest

from chainer import optimizers
from chainer.optimizer_hooks import GradientNoise
from chainer.optimizer_hooks.gradient_noise import exponential_decay_noise


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_default_noise_has_the_annealed_deviation(kit, dtype):
    model = kit.TwoParams(dtype)
    optimizer = optimizers.SGD(lr=1.0).setup(model)
    optimizer.add_hook(GradientNoise(0.3))
    for _ in range(2):  # the second step sees rule.t == 1
        before, grads = model.arrays(), model.set_grads()
        numpy.random.seed(3)
        optimizer.update()
    std = math.sqrt(0.3 / (1 + 1) ** 0.55)
    numpy.random.seed(3)
    for key in ("b", "w"):  # the hook draws in parameter order (by name)
        noise = numpy.random.normal(0, std, grads[key].shape).astype(dtype)
        expected = before[key] - (grads[key].astype(dtype) + noise)
        numpy.testing.assert_allclose(getattr(model, key).array, expected, **kit.TOLERANCES[dtype])


def test_exponential_decay_noise_statistics():
    hook, rule = GradientNoise(2.0), optimizers.SGD().create_update_rule()
    rule.t = 9
    numpy.random.seed(0)
    noise = exponential_decay_noise(numpy, (200_000,), numpy.float32, hook, rule)
    assert noise.dtype == numpy.float32 and noise.shape == (200_000,)
    assert abs(noise.mean()) < 0.01
    assert noise.std() == pytest.approx(math.sqrt(2.0 / 10**0.55), rel=0.01)


def test_custom_noise_func_gets_the_arguments_and_is_scaled_with_the_loss(kit):
    calls = []

    def constant_noise(xp, shape, dtype, hook, opt):
        calls.append((xp, shape, dtype, hook, opt))
        return xp.full(shape, 0.5, dtype)

    hook = GradientNoise(1.0, noise_func=constant_noise)
    model = kit.TwoParams()
    before, grads = kit.sgd_step(model, hook, scale=8.0)
    assert [c[1] for c in calls] == [(3,), (2, 3)]  # b, then w
    assert all(c[0] is numpy and c[2] == numpy.float32 and c[3] is hook for c in calls)
    assert calls[1][4] is model.w.update_rule
    for key, p in before.items():
        numpy.testing.assert_allclose(getattr(model, key).array, p - (grads[key] + 0.5))


def test_surface_and_bad_arguments():
    hook = GradientNoise(0.1)
    assert (hook.name, hook.timing, hook.call_for_each_param) == ("GradientNoise", "pre", True)
    assert hook.noise_func is exponential_decay_noise and hook.eta == 0.1
    with pytest.raises(TypeError, match=r"noise_func must be callable, got int"):
        GradientNoise(0.1, noise_func=3)
    with pytest.raises(TypeError, match=r"eta must be a real number, got list"):
        GradientNoise([0.1])
