"""zoneout: keep h with probability ratio, else x; gradients by the same choice; test mode."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(3, 4), (), (0, 2)])
def test_zoneout_picks_h_where_the_draw_is_below_ratio(dtype, shape, backend_config):
    h = numpy.random.uniform(-1, 1, shape).astype(dtype)
    x = numpy.random.uniform(-1, 1, shape).astype(dtype)
    numpy.random.seed(7)
    y = F.zoneout(*backend_config.get_array((h, x)), ratio=0.3)
    numpy.random.seed(7)
    take_x = numpy.random.uniform(size=shape) >= 0.3
    assert y.dtype == dtype and y.shape == shape
    assert y.device == backend_config.device
    numpy.testing.assert_array_equal(_host(y.array), numpy.where(take_x, x, h))


@testing.fix_random()  # the test reseeds NumPy's global generator; restore it afterwards
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
def test_zoneout_gradients_follow_the_choice(backend_config):
    rng = numpy.random.default_rng(8)
    h, x, gy, gg_h, gg_x = backend_config.get_array(
        tuple(rng.uniform(-1, 1, (3, 4)) for _ in range(5))
    )
    ggs = (gg_h, gg_x)

    def f(a, b):
        numpy.random.seed(9)  # the same choice on every evaluation
        return F.zoneout(a, b, ratio=0.5)

    gradient_check.check_backward(f, (h, x), gy)
    gradient_check.check_double_backward(f, (h, x), gy, ggs)
    hv, xv = chainer.Variable(h), chainer.Variable(x)
    y = f(hv, xv)
    y.grad = backend_config.get_array(numpy.ones((3, 4)))
    y.backward()
    h_grad, x_grad = _host(hv.grad), _host(xv.grad)
    numpy.testing.assert_array_equal(h_grad + x_grad, numpy.ones((3, 4)))
    assert 0 < h_grad.sum() < 12


def _host(array):
    return chainer.backend.CpuDevice().send(array)


@testing.fix_random()
def test_zoneout_keeps_about_ratio_of_h():
    h = numpy.zeros(20000, numpy.float32)
    x = numpy.ones(20000, numpy.float32)
    y = F.zoneout(h, x, ratio=0.25)
    assert abs(float(y.array.mean()) - 0.75) < 0.015


def test_zoneout_in_test_mode_returns_x():
    x = numpy.ones(3, numpy.float32)
    with chainer.using_config("train", False):
        y = F.zoneout(numpy.zeros(3, numpy.float32), x)
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_array_equal(y.array, x)


@pytest.mark.parametrize(("ratio", "expected"), [(1.0, "h"), (0.0, "x")])
def test_zoneout_with_ratio_one_keeps_h_and_zero_takes_x(ratio, expected):
    h = chainer.Variable(numpy.full((2, 3), -1.0, numpy.float32))
    x = chainer.Variable(numpy.full((2, 3), 2.0, numpy.float32))
    y = F.zoneout(h, x, ratio)
    kept = h if expected == "h" else x
    numpy.testing.assert_array_equal(y.array, kept.array)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(kept.grad, numpy.ones((2, 3)))


def test_zoneout_rejects_bad_ratio_and_options():
    zeros = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match=r"ratio must be in the range \[0, 1\], got 1.5"):
        F.zoneout(zeros, zeros, 1.5)
    with pytest.raises(ValueError, match=r"train argument is not supported anymore"):
        F.zoneout(zeros, zeros, train=True)
    with pytest.raises(TypeError, match=r"zoneout\(\) got unexpected keyword argument"):
        F.zoneout(zeros, zeros, mask=zeros)


def test_zoneout_rejects_mismatched_states():
    with pytest.raises(type_check.InvalidType, match=r"Zoneout[\s\S]*x\.shape == h\.shape"):
        F.zoneout(numpy.zeros(3, numpy.float32), numpy.zeros(4, numpy.float32))
