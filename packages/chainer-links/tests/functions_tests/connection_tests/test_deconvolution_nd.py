"""deconvolution_nd / deconvolution_1d / deconvolution_3d against a direct scatter."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, deconv_reference, loosen_for_float16, uniform

CASES = [
    {"size": (4,), "ksize": (3,), "stride": 2, "pad": 1, "outsize": (6,), "groups": 1},
    {"size": (3,), "ksize": (2,), "stride": 1, "pad": 0, "dilate": 2, "groups": 2},
    {"size": (2, 3, 2), "ksize": (2, 1, 2), "stride": (2, 1, 1), "pad": (0, 0, 1), "groups": 1},
    {"size": (2, 2, 2), "ksize": (2, 2, 2), "stride": 2, "pad": 1, "groups": 2, "nobias": True},
]  # fmt: skip


@testing.parameterize(
    *testing.product_dict(
        [{"outsize": None, "dilate": 1, "nobias": False, **case} for case in CASES],
        [{"dtype": dtype} for dtype in FLOAT_DTYPES],
        [{"wrapper": "nd"}, {"wrapper": "fixed"}],
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestDeconvolutionND(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        c_in, c_out = 2 * self.groups, 2 * self.groups
        x = uniform((2, c_in, *self.size), self.dtype)
        W = uniform((c_in, c_out // self.groups, *self.ksize), self.dtype)
        return (x, W) if self.nobias else (x, W, uniform((c_out,), self.dtype))

    def forward(self, inputs, device):
        x = inputs[0]
        function = F.deconvolution_nd
        if self.wrapper == "fixed":
            function = F.deconvolution_1d if x.ndim == 3 else F.deconvolution_3d
        b = None if self.nobias else inputs[2]
        args = (self.stride, self.pad, self.outsize, self.dilate, self.groups)
        return (function(x, inputs[1], b, *args),)

    def forward_expected(self, inputs):
        nd = len(self.size)
        stride, pad, dilate = (
            v if isinstance(v, tuple) else (v,) * nd for v in (self.stride, self.pad, self.dilate)
        )
        b = None if self.nobias else inputs[2]
        args = (stride, pad, dilate, self.groups, self.outsize)
        return (deconv_reference(inputs[0], inputs[1], b, *args),)


def test_fixed_rank_wrappers_reject_other_ranks():
    x = numpy.ones((1, 1, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match="must have 1 spatial axis"):
        F.deconvolution_1d(x, numpy.ones((1, 1, 2, 2), numpy.float32))
    with pytest.raises(ValueError, match="must have 3 spatial axis"):
        F.deconvolution_3d(x, numpy.ones((1, 1, 2, 2), numpy.float32))


def test_outsize_must_have_one_entry_per_axis():
    x = numpy.ones((1, 1, 3, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"outsize must be an int or 3 ints .*\(4, 4\)"):
        F.deconvolution_nd(x, numpy.ones((1, 1, 2, 2, 2), numpy.float32), outsize=(4, 4))
