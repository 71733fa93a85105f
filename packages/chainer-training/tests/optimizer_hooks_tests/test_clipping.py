"""GradientClipping (global norm) and GradientHardClipping (elementwise)."""

import math

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.optimizer_hooks import GradientClipping, GradientHardClipping

DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _global_norm(grads):
    return math.sqrt(sum(float((g * g).sum()) for g in grads.values()))


class TestGradientClipping:
    @pytest.mark.parametrize("dtype", DTYPES)
    def test_rescales_all_gradients_to_the_threshold(self, kit, dtype):
        model = kit.TwoParams(dtype)
        before, grads = kit.sgd_step(model, GradientClipping(2.0))
        rate = 2.0 / _global_norm(grads)
        assert rate < 1
        for key, p in before.items():
            numpy.testing.assert_allclose(
                getattr(model, key).array, p - rate * grads[key], **kit.TOLERANCES[dtype]
            )

    def test_leaves_gradients_within_the_threshold_alone(self, kit):
        model = kit.TwoParams()
        before, grads = kit.sgd_step(model, GradientClipping(100.0))
        for key, p in before.items():
            numpy.testing.assert_allclose(getattr(model, key).array, p - grads[key])

    def test_threshold_applies_to_the_unscaled_norm(self, kit):
        scaled, plain = kit.TwoParams(), kit.TwoParams()
        kit.sgd_step(scaled, GradientClipping(2.0), scale=1024.0)
        kit.sgd_step(plain, GradientClipping(2.0))
        for key in ("w", "b"):
            numpy.testing.assert_allclose(getattr(scaled, key).array, getattr(plain, key).array)

    def test_is_an_optimizer_hook(self):
        hook = GradientClipping(1.0)
        assert (hook.name, hook.timing, hook.threshold) == ("GradientClipping", "pre", 1.0)
        assert not getattr(hook, "call_for_each_param", False)

    def test_bad_threshold(self):
        with pytest.raises(ValueError, match=r"threshold must be >= 0, got -1"):
            GradientClipping(-1)
        with pytest.raises(TypeError, match=r"threshold must be a real number, got NoneType"):
            GradientClipping(None)


class TestGradientHardClipping:
    @pytest.mark.parametrize("dtype", DTYPES)
    def test_clips_each_element(self, kit, dtype):
        model = kit.TwoParams(dtype)
        before, grads = kit.sgd_step(model, GradientHardClipping(-0.75, 1.25))
        for key, p in before.items():
            expected = p - numpy.clip(grads[key], -0.75, 1.25)
            numpy.testing.assert_allclose(
                getattr(model, key).array, expected, **kit.TOLERANCES[dtype]
            )

    def test_bounds_apply_to_the_unscaled_gradient(self, kit):
        scaled, plain = kit.TwoParams(), kit.TwoParams()
        kit.sgd_step(scaled, GradientHardClipping(-0.75, 1.25), scale=16.0)
        kit.sgd_step(plain, GradientHardClipping(-0.75, 1.25))
        for key in ("w", "b"):
            numpy.testing.assert_allclose(getattr(scaled, key).array, getattr(plain, key).array)

    def test_as_an_update_rule_hook(self, kit):
        model = kit.TwoParams()
        optimizer = optimizers.SGD(lr=1.0).setup(model)
        model.b.update_rule.add_hook(GradientHardClipping(-1.0, 0.0))
        before, grads = model.arrays(), model.set_grads()
        optimizer.update()
        numpy.testing.assert_allclose(model.b.array, before["b"] - [-1.0, 0.0, 0.0])
        numpy.testing.assert_allclose(model.w.array, before["w"] - grads["w"])

    @pytest.mark.chainerx
    def test_clips_chainerx_gradients_in_place(self):
        chainerx = pytest.importorskip("chainerx")
        if not chainerx.is_available():
            pytest.skip("chainerx is not built")
        grad_values = numpy.array([-3.0, -0.5, 0.25, 2.0], numpy.float32)
        param = chainer.Parameter(numpy.zeros(4, numpy.float32))
        param.to_device("native:0")
        param.grad = chainerx.array(grad_values)
        grad = param.grad
        GradientHardClipping(-1.0, 1.5)(None, param)
        assert param.grad.data_ptr == grad.data_ptr  # clipped in place (grad reads give new views)
        numpy.testing.assert_array_equal(chainerx.to_numpy(grad), [-1.0, -0.5, 0.25, 1.5])

    def test_surface_and_bad_bounds(self):
        hook = GradientHardClipping(-1, 2)
        assert (hook.name, hook.timing, hook.call_for_each_param) == (
            "GradientHardClipping",
            "pre",
            True,
        )
        assert (hook.lower_bound, hook.upper_bound) == (-1, 2)
        with pytest.raises(ValueError, match=r"lower_bound=3 > upper_bound=2"):
            GradientHardClipping(3, 2)
        with pytest.raises(TypeError, match=r"upper_bound must be a real number, got str"):
            GradientHardClipping(0, "2")
