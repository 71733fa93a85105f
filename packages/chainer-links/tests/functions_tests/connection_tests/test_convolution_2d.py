"""convolution_2d: values against direct loops, gradients of two orders, argument errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection.convolution_2d import (
    Convolution2DFunction,
    Convolution2DGradW,
)
from chainer.functions.connection.deconvolution_nd import DeconvolutionND
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, conv_reference, deconv_reference, loosen_for_float16, uniform

# Each case names its geometry; together they cover stride, pad, dilate, groups, cover_all,
# batch size 1, a 1x1 kernel, odd sizes, and both CPU layouts (batch-last for small maps with
# many channels, per-sample for wide maps with few channels).
CASES = [
    {"n": 2, "c_in": 3, "c_out": 2, "size": (5, 4), "ksize": (3, 2), "stride": 1, "pad": 0},
    {"n": 2, "c_in": 2, "c_out": 3, "size": (5, 6), "ksize": 3, "stride": (2, 1), "pad": (1, 2),
     "cover_all": True},
    {"n": 2, "c_in": 2, "c_out": 2, "size": (6, 5), "ksize": 2, "stride": 1, "pad": 1,
     "dilate": 2},
    {"n": 2, "c_in": 4, "c_out": 6, "size": (5, 5), "ksize": 2, "stride": 2, "pad": 0,
     "groups": 2, "cover_all": True},
    {"n": 1, "c_in": 3, "c_out": 2, "size": (3, 2), "ksize": 1, "stride": 1, "pad": 0,
     "nobias": True},
    {"n": 2, "c_in": 1, "c_out": 3, "size": (3, 9), "ksize": 2, "stride": 1, "pad": 0},
]  # fmt: skip


@testing.parameterize(
    *testing.product_dict(
        [
            {"cover_all": False, "dilate": 1, "groups": 1, "nobias": False, **case}
            for case in CASES
        ],
        [{"dtype": dtype} for dtype in FLOAT_DTYPES],
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestConvolution2D(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        ksize = self.ksize if isinstance(self.ksize, tuple) else (self.ksize,) * 2
        x = uniform((self.n, self.c_in, *self.size), self.dtype)
        W = uniform((self.c_out, self.c_in // self.groups, *ksize), self.dtype)
        if self.nobias:
            return x, W
        return x, W, uniform((self.c_out,), self.dtype)

    def _options(self):
        return {"stride": self.stride, "pad": self.pad, "cover_all": self.cover_all}

    def forward(self, inputs, device):
        y = F.convolution_2d(*inputs, **self._options(), dilate=self.dilate, groups=self.groups)
        return (y,)

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = None if self.nobias else inputs[2]
        stride, pad, dilate = (
            v if isinstance(v, tuple) else (v, v) for v in (self.stride, self.pad, self.dilate)
        )
        return (conv_reference(x, W, b, stride, pad, dilate, self.groups, self.cover_all),)


def _inputs(x_shape, w_shape, dtype=numpy.float32):
    return numpy.ones(x_shape, dtype), numpy.ones(w_shape, dtype)


def test_output_is_contiguous_in_both_layouts():
    for x_shape, w_shape in [((4, 6, 4, 4), (5, 6, 3, 3)), ((4, 1, 12, 12), (3, 1, 2, 2))]:
        y = F.convolution_2d(*_inputs(x_shape, w_shape), numpy.zeros(w_shape[0], numpy.float32))
        assert y.array.flags.c_contiguous
        numpy.testing.assert_array_equal(y.array, numpy.prod(w_shape[1:]))


def test_backward_is_a_deconvolution_and_a_weight_gradient_node():
    x = chainer.Variable(uniform((2, 3, 4, 4), numpy.float32))
    W = chainer.Variable(uniform((2, 3, 2, 2), numpy.float32))
    y = F.convolution_2d(x, W, stride=2)
    assert isinstance(y.creator_node, Convolution2DFunction)
    gx, gW = chainer.grad(
        [y], [x, W], [numpy.ones(y.shape, numpy.float32)], enable_double_backprop=True
    )
    assert isinstance(gx.creator_node, DeconvolutionND)
    assert isinstance(gW.creator_node, Convolution2DGradW)


def test_mixed_dtypes_keep_the_dtype_of_x_and_of_the_weight_gradient():
    x = chainer.Variable(uniform((1, 2, 4, 4), numpy.float16))
    W = chainer.Variable(uniform((3, 2, 3, 3), numpy.float32))
    y = F.convolution_2d(x, W)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones(y.shape, numpy.float16)
    y.backward()
    assert x.grad.dtype == numpy.float16 and W.grad.dtype == numpy.float32
    expected = conv_reference(x.array.astype(numpy.float64), W.array.astype(numpy.float64))
    numpy.testing.assert_allclose(y.array, expected, atol=1e-2, rtol=1e-2)


def test_channel_mismatch_is_an_invalid_type():
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[1\] == W\.shape\[1\] \* groups"):
        F.convolution_2d(*_inputs((1, 3, 5, 5), (2, 2, 3, 3)))


def test_groups_must_divide_the_output_channels():
    with pytest.raises(type_check.InvalidType, match=r"W\.shape\[0\] % groups == 0"):
        F.convolution_2d(*_inputs((1, 4, 5, 5), (3, 2, 3, 3)), groups=2)


def test_kernel_larger_than_the_padded_input_is_an_invalid_type():
    with pytest.raises(type_check.InvalidType, match=r"positive output size[\s\S]*\(0, 0\)"):
        F.convolution_2d(*_inputs((1, 1, 2, 2), (1, 1, 5, 5)), pad=1)


def test_bias_of_the_wrong_length_is_an_invalid_type():
    x, W = _inputs((1, 1, 4, 4), (2, 1, 3, 3))
    with pytest.raises(type_check.InvalidType, match=r"b\.shape\[0\] == W\.shape\[0\]"):
        F.convolution_2d(x, W, numpy.zeros(3, numpy.float32))


def test_integer_input_is_an_invalid_type():
    x, W = _inputs((1, 1, 4, 4), (2, 1, 3, 3))
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.convolution_2d(x.astype(numpy.int32), W)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"pad": -1}, "pad must be non-negative, got -1"),
        ({"stride": (1, 0)}, r"stride must be positive, got \(1, 0\)"),
        ({"dilate": 0}, "dilate must be positive, got 0"),
        ({"groups": 0}, "groups must be a positive int, got 0"),
        ({"stride": (1, 2, 3)}, r"stride must be an int or 2 ints .*\(1, 2, 3\)"),
        ({"deterministic": True}, "deterministic argument is not supported anymore"),
    ],
)
def test_bad_arguments_raise_value_error(options, message):
    with pytest.raises(ValueError, match=message):
        F.convolution_2d(*_inputs((1, 1, 4, 4), (1, 1, 3, 3)), **options)


def test_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument.*'dilation'"):
        F.convolution_2d(*_inputs((1, 1, 4, 4), (1, 1, 3, 3)), dilation=2)


@pytest.mark.parametrize("shapes", [((0, 6, 4, 4), (5, 6, 3, 3)), ((0, 1, 12, 12), (3, 1, 2, 2))])
def test_empty_batch_gives_empty_output_and_zero_weight_gradient(shapes):
    x = chainer.Variable(numpy.ones(shapes[0], numpy.float32))
    W = chainer.Variable(numpy.ones(shapes[1], numpy.float32))
    b = chainer.Variable(numpy.ones(shapes[1][0], numpy.float32))
    y = F.convolution_2d(x, W, b, pad=1)
    assert y.shape == (0, shapes[1][0], *(s + 3 - shapes[1][2] for s in shapes[0][2:]))
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert x.grad.shape == x.shape
    numpy.testing.assert_array_equal(W.grad, 0)
    numpy.testing.assert_array_equal(b.grad, 0)


def test_node_has_the_per_axis_attributes_of_chainer():
    node = Convolution2DFunction(stride=(2, 3), pad=1, cover_all=True, dilate=(1, 2), groups=2)
    assert (node.sy, node.sx, node.ph, node.pw, node.dy, node.dx) == (2, 3, 1, 1, 1, 2)
    assert node.groups == 2 and node.cover_all


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("nobias", [False, True])
def test_chainerx_convolutions_are_computed_natively(monkeypatch, dtype, nobias):
    forbid_fallback(monkeypatch, Convolution2DFunction, DeconvolutionND)
    x, W = uniform((2, 3, 5, 4), dtype), uniform((2, 3, 3, 2), dtype)
    b = None if nobias else uniform((2,), dtype)
    y = F.convolution_2d(*to_chainerx(x, W, b), stride=(2, 1), pad=1, cover_all=True)
    assert y.dtype == dtype
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    expected = conv_reference(x, W, b, (2, 1), (1, 1), cover_all=True)
    numpy.testing.assert_allclose(to_numpy(y), expected, rtol=tol, atol=tol)
    gy = uniform(y.shape, dtype)  # W (out=2, in=3) maps gy's 2 channels back to 3
    z = F.deconvolution_2d(*to_chainerx(gy, W), stride=(2, 1), pad=1, outsize=(5, 4))
    assert z.dtype == dtype
    expected = deconv_reference(gy, W, None, (2, 1), (1, 1), outsize=(5, 4))
    numpy.testing.assert_allclose(to_numpy(z), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize(
    "options", [{"dilate": 2}, {"groups": 2}, {"dilate": (1, 3), "groups": 3, "cover_all": True}]
)
def test_chainerx_dilated_and_grouped_convolutions_are_native(monkeypatch, dtype, options):
    forbid_fallback(monkeypatch, Convolution2DFunction, DeconvolutionND)
    groups, dilate = options.get("groups", 1), options.get("dilate", 1)
    x, W = uniform((2, 6, 7, 8), dtype), uniform((3 * groups, 6 // groups, 2, 3), dtype)
    b = uniform((3 * groups,), dtype)
    y = F.convolution_2d(*to_chainerx(x, W, b), stride=2, pad=1, **options)
    assert y.dtype == dtype
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    dilate2 = dilate if isinstance(dilate, tuple) else (dilate, dilate)
    cover_all = options.get("cover_all", False)
    expected = conv_reference(x, W, b, (2, 2), (1, 1), dilate2, groups, cover_all)
    numpy.testing.assert_allclose(to_numpy(y), expected, rtol=tol, atol=tol)
    gy = uniform(y.shape, dtype)  # the adjoint: channels of y back to those of x
    z = F.deconvolution_2d(
        *to_chainerx(gy, W), stride=2, pad=1, outsize=(7, 8), dilate=dilate, groups=groups
    )
    expected = deconv_reference(gy, W, None, (2, 2), (1, 1), dilate2, groups, (7, 8))
    numpy.testing.assert_allclose(to_numpy(z), expected, rtol=tol, atol=tol)


def test_chainerx_mixed_dtypes_fall_back():
    x, W = to_chainerx(numpy.ones((1, 2, 3, 3), numpy.float16), numpy.ones((2, 2, 2, 2)))
    assert Convolution2DFunction().forward_chainerx((x, W)) is chainer.Fallback
    assert F.convolution_2d(x, W).dtype == numpy.float16
