"""embed_id: row lookup, ignore_label, the scatter-add gradient and its own gradient."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection.embed_id import EmbedIDFunction, EmbedIDGrad
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform


@testing.parameterize(
    *testing.product(
        {
            "x_data": [[0, 1, 0], [[2, 0], [-1, 2]], 1, []],
            "ignore_label": [None, -1],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestEmbedID(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        if self.ignore_label is None and -1 in numpy.ravel(self.x_data):
            self.x_data = numpy.abs(self.x_data).tolist()

    def generate_inputs(self):
        return numpy.array(self.x_data, numpy.int32), uniform((3, 2), self.dtype)

    def forward(self, inputs, device):
        return (F.embed_id(inputs[0], inputs[1], self.ignore_label),)

    def forward_expected(self, inputs):
        x, W = inputs
        y = numpy.zeros(x.shape + (2,), self.dtype)
        for index in numpy.ndindex(x.shape):
            if x[index] != self.ignore_label:
                y[index] = W[x[index]]
        return (y,)


def test_gradient_adds_rows_of_repeated_ids_and_skips_ignored_ones():
    W = chainer.Variable(numpy.zeros((3, 2), numpy.float32))
    y = F.embed_id(numpy.array([1, 1, -1, 2], numpy.int32), W, ignore_label=-1)
    gy = chainer.Variable(numpy.arange(8, dtype=numpy.float32).reshape(4, 2))
    (gW,) = chainer.grad([y], [W], [gy], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gW.array, [[0, 0], [2, 4], [6, 7]])
    assert isinstance(gW.creator_node, EmbedIDGrad)


@pytest.mark.parametrize("ids", [[3], [-2]])
def test_out_of_range_id_is_a_value_error(ids):
    W = numpy.ones((3, 2), numpy.float32)
    with pytest.raises(ValueError, match=rf"0 <= x < len\(W\) = 3 .*got {ids[0]}"):
        F.embed_id(numpy.array(ids, numpy.int32), W, ignore_label=-1)


def test_float_ids_are_an_invalid_type():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == i"):
        F.embed_id(numpy.array([0.0], numpy.float32), numpy.ones((3, 2), numpy.float32))


def test_weight_must_be_a_matrix():
    with pytest.raises(type_check.InvalidType, match=r"W\.ndim == 2"):
        F.embed_id(numpy.array([0], numpy.int32), numpy.ones((3, 2, 1), numpy.float32))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("ignore_label", [None, 2])
def test_chainerx_ids_are_looked_up_natively(monkeypatch, dtype, ignore_label):
    forbid_fallback(monkeypatch, EmbedIDFunction)
    x = numpy.array([[2, 0], [1, 2]], numpy.int32)
    W = uniform((3, 2), dtype)
    y = F.embed_id(*to_chainerx(x, W), ignore_label=ignore_label)
    expected = W[x] * (x != ignore_label)[..., None]
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(to_numpy(y), expected)


@pytest.mark.parametrize("ids", [[3], [-2]])
def test_chainerx_out_of_range_id_is_a_value_error(ids):
    x, W = to_chainerx(numpy.array(ids, numpy.int32), numpy.ones((3, 2), numpy.float32))
    with pytest.raises(ValueError, match=rf"0 <= x < len\(W\) = 3 .*got {ids[0]}"):
        F.embed_id(x, W, ignore_label=-1)
