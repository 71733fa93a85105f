"""Mixed precision end to end through the real optimizers: float16 parameters, float32 master
copies (``use_fp32_update``) and static or dynamic loss scaling."""

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer._ops.array_ops import sum as sum_all
from chainer.link import Link


class Linear16(Link):
    """A float16 parameter ``w`` and the loss ``sum(w * coefficient)`` (gradient: coefficient)."""

    def __init__(self, coefficient, size=4):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.ones(size, numpy.float16))
        self.coefficient = numpy.full(size, coefficient, numpy.float16)

    def forward(self):
        return sum_all(self.w * self.coefficient)


# Every step of these stays below half a float16 ulp at 1 (2.4e-4), while ten of them add
# up to more than that.
SMALL_STEPS = {
    "SGD": {"lr": 1e-4},
    "MomentumSGD": {"lr": 2e-5, "momentum": 0.5},
    "Adam": {"alpha": 1e-4},
    "RMSprop": {"lr": 1e-5},
    "AdaGrad": {"lr": 1e-4},
}


@pytest.mark.parametrize("name", list(SMALL_STEPS))
def test_fp32_master_copy_keeps_steps_that_float16_rounds_away(name):
    kwargs = SMALL_STEPS[name]
    plain, master = Linear16(1.0), Linear16(1.0)
    plain_opt = getattr(optimizers, name)(**kwargs).setup(plain)
    master_opt = getattr(optimizers, name)(**kwargs).setup(master)
    master_opt.use_fp32_update()
    for _ in range(10):
        plain_opt.update(plain)
        master_opt.update(master)
    numpy.testing.assert_array_equal(plain.w.array, numpy.ones(4, numpy.float16))
    rule = master.w.update_rule
    fp32 = rule._fp32_param.array
    assert fp32.dtype == numpy.float32
    assert all(value.dtype == numpy.float32 for value in rule.state.values())
    assert float(fp32[0]) < 1 - 2.5e-4  # more than half an ulp in total
    assert master.w.array.dtype == numpy.float16
    numpy.testing.assert_array_equal(master.w.array, fp32.astype(numpy.float16))


def test_adam_fp32_update_matches_the_closed_form():
    # With a constant gradient, Adam's bias-corrected step is alpha (up to eps) every time.
    model = Linear16(2.0)
    optimizer = optimizers.Adam(alpha=1e-4, eps=0.0).setup(model)
    optimizer.use_fp32_update()
    for _ in range(10):
        optimizer.update(model)
    numpy.testing.assert_allclose(model.w.update_rule._fp32_param.array, 1 - 10 * 1e-4, rtol=1e-6)


def test_static_loss_scale_is_divided_out_of_the_fp32_update():
    scaled, unscaled = Linear16(3.0), Linear16(3.0)
    for model, scale in ((scaled, 1024.0), (unscaled, None)):
        optimizer = optimizers.SGD(lr=0.25).setup(model)
        optimizer.use_fp32_update()
        optimizer.set_loss_scale(scale)
        optimizer.update(model)
    numpy.testing.assert_array_equal(scaled.w.array, unscaled.w.array)
    numpy.testing.assert_array_equal(scaled.w.array, numpy.full(4, 1 - 0.25 * 3, numpy.float16))


@pytest.mark.parametrize(
    "make",
    [
        # Small rates keep w * 40000 finite after the updates.
        lambda: optimizers.SGD(lr=1e-7),
        lambda: optimizers.MomentumSGD(lr=1e-7),
        lambda: optimizers.Adam(),
        lambda: optimizers.RMSprop(lr=1e-3),
    ],
    ids=["SGD", "MomentumSGD", "Adam", "RMSprop"],
)
def test_dynamic_loss_scaling_skips_an_overflowing_step_and_lowers_the_scale(make):
    model = Linear16(40000.0, size=1)
    optimizer = make().setup(model)
    optimizer.use_fp32_update()
    optimizer.loss_scaling()
    optimizer.update(model)  # scale 1: gradient 40000 is finite in float16
    assert optimizer.t == 1 and optimizer._loss_scale == 2.0
    rule = model.w.update_rule
    before = model.w.array.copy()
    master_before = rule._fp32_param.array.copy()
    state_before = {k: v.copy() for k, v in rule.state.items()}

    with numpy.errstate(over="ignore"):  # backprop overflows on purpose
        optimizer.update(model)  # scale 2 after the doubling: 2 * 40000 overflows float16
    assert optimizer.t == 1 and rule.t == 1  # the step was skipped...
    assert optimizer._loss_scale == 1.0  # ...and the scale halved
    numpy.testing.assert_array_equal(model.w.array, before)
    numpy.testing.assert_array_equal(rule._fp32_param.array, master_before)
    for key, value in state_before.items():
        numpy.testing.assert_array_equal(rule.state[key], value)

    optimizer.update(model)  # scale 1 again: the update goes through
    assert optimizer.t == 2 and rule.t == 2
    assert not numpy.array_equal(rule._fp32_param.array, master_before)
    assert numpy.isfinite(model.w.array).all()
