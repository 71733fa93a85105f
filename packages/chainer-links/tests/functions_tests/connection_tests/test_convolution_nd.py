"""convolution_nd / convolution_1d / convolution_3d against direct loops."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, conv_reference, loosen_for_float16, uniform

CASES = [
    {"size": (7,), "ksize": (3,), "stride": 2, "pad": 1, "cover_all": True, "groups": 1},
    {"size": (6,), "ksize": (2,), "stride": 1, "pad": 0, "dilate": 3, "groups": 2},
    {"size": (3, 4, 3), "ksize": (2, 3, 2), "stride": (1, 2, 1), "pad": (1, 0, 0), "groups": 1},
    {"size": (4, 3, 3), "ksize": (2, 2, 2), "stride": 2, "pad": 1, "cover_all": True,
     "groups": 2, "nobias": True},
]  # fmt: skip


@testing.parameterize(
    *testing.product_dict(
        [{"cover_all": False, "dilate": 1, "nobias": False, **case} for case in CASES],
        [{"dtype": dtype} for dtype in FLOAT_DTYPES],
        [{"wrapper": "nd"}, {"wrapper": "fixed"}],
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestConvolutionND(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        c_in, c_out = 2 * self.groups, 2 * self.groups
        x = uniform((2, c_in, *self.size), self.dtype)
        W = uniform((c_out, c_in // self.groups, *self.ksize), self.dtype)
        return (x, W) if self.nobias else (x, W, uniform((c_out,), self.dtype))

    def forward(self, inputs, device):
        x = inputs[0]
        function = F.convolution_nd
        if self.wrapper == "fixed":
            function = F.convolution_1d if x.ndim == 3 else F.convolution_3d
        args = (self.stride, self.pad, self.cover_all, self.dilate, self.groups)
        return (function(inputs[0], inputs[1], None if self.nobias else inputs[2], *args),)

    def forward_expected(self, inputs):
        nd = len(self.size)
        stride, pad, dilate = (
            v if isinstance(v, tuple) else (v,) * nd for v in (self.stride, self.pad, self.dilate)
        )
        b = None if self.nobias else inputs[2]
        y = conv_reference(
            inputs[0], inputs[1], b, stride, pad, dilate, self.groups, self.cover_all
        )
        return (y,)


@pytest.mark.parametrize(
    "function, shape, expected",
    [(F.convolution_1d, (1, 1, 4, 4), 1), (F.convolution_3d, (1, 1, 4, 4), 3)],
)
def test_fixed_rank_wrappers_reject_other_ranks(function, shape, expected):
    W = numpy.ones((1, 1) + (2,) * (len(shape) - 2), numpy.float32)
    with pytest.raises(ValueError, match=f"must have {expected} spatial axis"):
        function(numpy.ones(shape, numpy.float32), W)


def test_input_without_spatial_axes_is_a_value_error():
    with pytest.raises(ValueError, match="at least one spatial axis"):
        F.convolution_nd(numpy.ones((2, 3), numpy.float32), numpy.ones((2, 3), numpy.float32))


def test_weight_rank_must_match_the_input():
    x = numpy.ones((1, 2, 4, 4, 4), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"W\.ndim == 5"):
        F.convolution_nd(x, numpy.ones((1, 2, 2, 2), numpy.float32))


def test_per_axis_arguments_must_have_one_entry_per_axis():
    x = numpy.ones((1, 1, 4, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"pad must be an int or 3 ints .*\(1, 1\)"):
        F.convolution_nd(x, numpy.ones((1, 1, 2, 2, 2), numpy.float32), pad=(1, 1))
