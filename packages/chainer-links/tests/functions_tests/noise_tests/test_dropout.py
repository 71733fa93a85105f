"""dropout: masks in training (given or random), identity in test mode, options, errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

DTYPES = [numpy.float16, numpy.float32, numpy.float64]


@testing.parameterize(
    *testing.product({"shape": [(3, 4), (), (0, 2)], "ratio": [0.0, 0.4], "dtype": DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestDropoutWithMask(testing.FunctionTestCase):
    """With a fixed mask, dropout is the deterministic map ``x * mask``."""

    def setUp(self):
        keep = numpy.random.uniform(size=self.shape) >= self.ratio
        self.mask = (keep / (1 - self.ratio)).astype(self.dtype)
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2, "eps": 2.0**-6}
            self.check_double_backward_options = self.check_backward_options

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.dropout(inputs[0], self.ratio, mask=self.mask),)

    def forward_expected(self, inputs):
        return (numpy.asarray(inputs[0] * self.mask, self.dtype),)


@testing.fix_random()
@pytest.mark.parametrize("ratio", [0.2, 0.5, 0.9])
def test_dropout_random_mask_drops_about_ratio_and_scales_the_rest(ratio):
    x = numpy.ones((100, 100), numpy.float32)
    y, mask = F.dropout(x, ratio, return_mask=True)
    scale = numpy.float32(1 / (1 - ratio))
    assert set(numpy.unique(y.array)) <= {0.0, scale}
    numpy.testing.assert_array_equal(y.array, mask)
    dropped = float((y.array == 0).mean())
    assert abs(dropped - ratio) < 0.02  # 10000 draws: the standard deviation is <= 0.005
    assert abs(float(y.array.mean()) - 1.0) < 0.1


def test_dropout_backward_uses_the_same_mask():
    x = chainer.Variable(numpy.ones((5, 6), numpy.float32))
    y, mask = F.dropout(x, 0.5, return_mask=True)
    y.grad = numpy.full((5, 6), 2.0, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, 2.0 * mask)


@attr.chainerx
@pytest.mark.parametrize("dtype", DTYPES)
def test_dropout_on_chainerx_draws_the_numpy_mask_and_keeps_it_on_the_device(dtype):
    import chainerx

    x = numpy.random.uniform(-1, 1, (4, 5)).astype(dtype)
    numpy.random.seed(3)
    y_numpy, mask_numpy = F.dropout(x, 0.3, return_mask=True)
    numpy.random.seed(3)
    x_chx = chainer.Variable(chainerx.array(x))
    y_chx, mask_chx = F.dropout(x_chx, 0.3, return_mask=True)
    assert isinstance(mask_chx, chainerx.ndarray) and mask_chx.dtype == dtype
    assert y_chx.dtype == dtype
    numpy.testing.assert_array_equal(chainerx.to_numpy(mask_chx), mask_numpy)
    numpy.testing.assert_array_equal(chainerx.to_numpy(y_chx.array), y_numpy.array)
    gy = numpy.random.uniform(-1, 1, (4, 5)).astype(dtype)
    y_chx.grad = chainerx.array(gy)
    y_chx.backward()
    numpy.testing.assert_array_equal(chainerx.to_numpy(x_chx.grad), gy * mask_numpy)


@attr.chainerx
def test_dropout_on_chainerx_takes_a_numpy_mask_of_another_dtype():
    import chainerx

    x = chainerx.array(numpy.array([1.0, 2.0, 3.0], numpy.float16))
    y, mask = F.dropout(x, 0.5, mask=numpy.array([0.0, 2.0, 2.0]), return_mask=True)
    assert isinstance(mask, chainerx.ndarray) and mask.dtype == numpy.float16
    numpy.testing.assert_array_equal(chainerx.to_numpy(y.array), [0.0, 4.0, 6.0])


def test_dropout_in_test_mode_returns_the_input_as_a_variable():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    with chainer.using_config("train", False):
        y, mask = F.dropout(x, 0.5, return_mask=True)
        v = chainer.Variable(x)
        assert F.dropout(v) is v
    assert isinstance(y, chainer.Variable) and mask is None
    numpy.testing.assert_array_equal(y.array, x)


def test_dropout_casts_a_given_mask_to_the_input_dtype():
    x = chainer.Variable(numpy.ones(3, numpy.float16))
    y = F.dropout(x, 0.5, mask=numpy.array([0.0, 2.0, 2.0]))
    y.grad = numpy.ones(3, numpy.float16)
    y.backward()
    assert y.dtype == numpy.float16 and x.grad.dtype == numpy.float16
    numpy.testing.assert_array_equal(x.grad, [0.0, 2.0, 2.0])


@pytest.mark.parametrize("ratio", [1.0, -0.1, 1.5])
def test_dropout_rejects_ratio_outside_unit_interval(ratio):
    with pytest.raises(ValueError, match=rf"ratio must be in the range \[0, 1\), got {ratio}"):
        F.dropout(numpy.ones(3, numpy.float32), ratio)


def test_dropout_rejects_retired_train_option_and_unknown_options():
    x = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match=r"train argument is not supported anymore"):
        F.dropout(x, train=False)
    with pytest.raises(TypeError, match=r"dropout\(\) got unexpected keyword argument\(s\) 'p'"):
        F.dropout(x, p=0.1)


def test_dropout_rejects_mask_of_another_shape_and_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"Dropout[\s\S]*mask\.shape == x\.shape"):
        F.dropout(numpy.ones(3, numpy.float32), mask=numpy.ones(4, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.dropout(numpy.ones(3, numpy.int32))
