"""GradientLARS: layer-wise adaptive rate scaling against its formula."""

import numpy
import pytest

from chainer.optimizer_hooks import GradientLARS


def _lars(p, g, threshold, weight_decay, eps):
    p_norm, g_norm = numpy.linalg.norm(p), numpy.linalg.norm(g)
    rate = 1.0
    if p_norm > threshold and g_norm > threshold:
        rate = p_norm / (eps + g_norm + weight_decay * p_norm)
    return rate * (g + weight_decay * p)


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("weight_decay", [0.0, 0.1])
def test_scales_each_gradient_by_its_local_rate(kit, dtype, weight_decay):
    model = kit.TwoParams(dtype)
    before, grads = kit.sgd_step(model, GradientLARS(weight_decay=weight_decay, eps=1e-3))
    for key, p in before.items():
        expected = p - _lars(p, grads[key], 1e-2, weight_decay, 1e-3)
        numpy.testing.assert_allclose(getattr(model, key).array, expected, **kit.TOLERANCES[dtype])


def test_below_the_threshold_only_weight_decay_is_added(kit):
    model = kit.TwoParams()
    # The norm of b is about 3.1: under a threshold of 5, b is not rescaled.
    before, grads = kit.sgd_step(model, GradientLARS(threshold=5.0, weight_decay=0.2))
    expected = before["b"] - (grads["b"] + 0.2 * before["b"])
    numpy.testing.assert_allclose(model.b.array, expected, rtol=1e-6)


def test_loss_scale_does_not_change_the_result(kit):
    scaled, plain = kit.TwoParams(), kit.TwoParams()
    kit.sgd_step(scaled, GradientLARS(weight_decay=0.1), scale=32.0)
    kit.sgd_step(plain, GradientLARS(weight_decay=0.1))
    for key in ("w", "b"):
        numpy.testing.assert_allclose(
            getattr(scaled, key).array, getattr(plain, key).array, rtol=1e-6
        )


def test_surface():
    hook = GradientLARS()
    assert (hook.threshold, hook.weight_decay, hook.eps) == (1e-2, 0.0, 1e-9)
    assert (hook.name, hook.timing, hook.call_for_each_param) == ("GradientLARS", "pre", True)
    with pytest.raises(TypeError, match=r"GradientLARS: eps must be a real number, got str"):
        GradientLARS(eps="1e-9")
