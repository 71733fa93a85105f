"""Loss scaling: static and dynamic scales, skipped steps, scale growth and limits."""

import math

import numpy
import pytest


@pytest.fixture
def opt(kit):
    w = kit.param(1.0, 2.0)
    return kit.SGD(lr=0.5).setup(kit.Target(w=w))


def _w(opt):
    return next(iter(opt.target.params()))


def _grad_seen_by_pre_hooks(opt):
    seen = []
    opt.add_hook(lambda o: seen.append(_w(o).grad.copy()), name="see_grad")
    return seen


def _step(opt, grad):
    """One update from a crafted gradient, as if backprop had run with the current scale."""
    w = _w(opt)
    w.grad = numpy.asarray(grad, numpy.float32)
    w._loss_scale = opt._loss_scale
    opt.update()


class TestStatic:
    def test_loss_is_scaled_for_backprop_and_gradients_unscaled_for_the_rule(self, opt):
        opt.loss_scaling(scale=8)
        seen = _grad_seen_by_pre_hooks(opt)
        w = _w(opt)
        opt.update(lambda: (w * w).mean())
        # d mean(w^2)/dw = w: optimizer hooks get the scaled gradient, the rule the true one.
        numpy.testing.assert_allclose(seen[0], 8 * numpy.array([1.0, 2.0]))
        numpy.testing.assert_allclose(w.array, [0.5, 1.0])
        assert opt._loss_scale == 8.0

    def test_static_scale_does_not_skip_or_change(self, opt):
        opt.set_loss_scale(4.0)
        _step(opt, [numpy.inf, 0.0])
        assert opt.t == 1 and opt._loss_scale == 4.0
        assert numpy.isneginf(_w(opt).array[0])

    def test_set_loss_scale_none_turns_scaling_off(self, opt):
        opt.loss_scaling()
        opt.set_loss_scale(None)
        seen = _grad_seen_by_pre_hooks(opt)
        w = _w(opt)
        opt.update(lambda: (w * w).mean())
        numpy.testing.assert_allclose(seen[0], [1.0, 2.0])
        assert opt._loss_scale is None

    @pytest.mark.parametrize("bad", [0, -1.0, float("nan"), "2", True])
    def test_scale_must_be_a_positive_number(self, opt, bad):
        with pytest.raises(ValueError, match="loss scale must be a positive number, got"):
            opt.set_loss_scale(bad)
        with pytest.raises(ValueError, match="loss scale must be a positive number, got"):
            opt.loss_scaling(scale=bad)

    @pytest.mark.parametrize("bad", [0, -3, 2.5, None, True])
    def test_interval_must_be_a_positive_integer(self, opt, bad):
        with pytest.raises(ValueError, match=r"interval must be an integer >= 1, got"):
            opt.loss_scaling(interval=bad)


class TestDynamic:
    def test_doubles_every_step_until_the_first_overflow(self, opt):
        opt.loss_scaling(interval=1000)
        assert opt._loss_scale == 1.0
        for expected in (2.0, 4.0, 8.0):
            _step(opt, [1.0, 1.0])
            assert opt._loss_scale == expected
        assert opt.t == 3

    @pytest.mark.parametrize("bad", [numpy.inf, -numpy.inf, numpy.nan])
    def test_non_finite_gradient_skips_the_step_and_halves(self, kit, opt, bad):
        opt.loss_scaling(interval=1000)
        _step(opt, [1.0, 1.0])
        _step(opt, [1.0, 1.0])
        assert opt._loss_scale == 4.0
        w = _w(opt)
        before = w.array.copy()
        log = []
        opt.add_hook(lambda o: log.append("pre"), name="pre")
        opt.add_hook(lambda o: log.append("post"), name="post", timing="post")
        _step(opt, [bad, 1.0])
        numpy.testing.assert_array_equal(w.array, before)
        assert (opt.t, w.update_rule.t) == (2, 2)
        assert log == []
        assert opt._loss_scale == 2.0
        assert not opt.is_safe_to_update()

    def test_after_an_overflow_interval_successes_double_the_scale(self, opt):
        interval = 4
        opt.loss_scaling(interval=interval)
        for _ in range(4):
            _step(opt, [1.0, 1.0])
        _step(opt, [numpy.inf, 1.0])
        assert opt._loss_scale == 8.0
        for i in range(1, interval + 1):
            _step(opt, [1.0, 1.0])
            assert opt._loss_scale == pytest.approx(8.0 * 2 ** (i / interval), rel=1e-12)
        assert opt._loss_scale == pytest.approx(16.0, rel=1e-12)

    def test_interval_one_doubles_exactly(self, opt):
        opt.loss_scaling(interval=1)
        _step(opt, [numpy.nan, 0.0])
        assert opt._loss_scale == 1.0  # never below 1
        _step(opt, [1.0, 1.0])
        _step(opt, [1.0, 1.0])
        assert opt._loss_scale == 4.0

    def test_scale_stops_at_the_float16_maximum(self, opt):
        opt.loss_scaling()
        for _ in range(20):
            _step(opt, [0.0, 0.0])
        assert opt._loss_scale == 65504.0

    def test_update_with_lossfun_uses_the_current_scale(self, opt):
        opt.loss_scaling()
        for _ in range(3):
            _step(opt, [0.0, 0.0])
        seen = _grad_seen_by_pre_hooks(opt)
        w = _w(opt)
        opt.update(lambda: (w * w).mean())
        numpy.testing.assert_allclose(seen[0], 8 * numpy.array([1.0, 2.0]))
        numpy.testing.assert_allclose(w.array, [0.5, 1.0])
        assert opt._loss_scale == 16.0

    def test_restarting_dynamic_scaling_resets_growth(self, opt):
        opt.loss_scaling(interval=1000)
        _step(opt, [numpy.inf, 0.0])
        opt.loss_scaling(interval=1000)
        _step(opt, [1.0, 1.0])
        assert opt._loss_scale == 2.0


class TestChecks:
    def test_check_nan_in_grads(self, opt):
        w = _w(opt)
        w.grad = numpy.array([1.0, 2.0], numpy.float32)
        assert opt.check_nan_in_grads() is False
        assert opt.is_safe_to_update()
        w.grad = numpy.array([1.0, numpy.nan], numpy.float32)
        assert opt.check_nan_in_grads() is True
        assert not opt.is_safe_to_update()

    def test_missing_gradients_are_ignored(self, opt):
        assert opt.check_nan_in_grads() is False

    def test_update_loss_scale_only_moves_dynamic_scales(self, opt):
        opt.set_loss_scale(3.0)
        opt.update_loss_scale()
        assert opt._loss_scale == 3.0
        opt.loss_scaling(interval=2)
        opt.update_loss_scale()
        assert opt._loss_scale == 2.0
        assert opt._loss_scaling_multiplier == math.sqrt(2.0)
