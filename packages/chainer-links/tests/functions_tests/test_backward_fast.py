"""``_backward_fast`` of linear, relu and softmax_cross_entropy: bitwise their ``backward``."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import Variable
from chainer.functions.activation.relu import ReLU
from chainer.functions.connection.linear import LinearFunction
from chainer.functions.loss.softmax_cross_entropy import SoftmaxCrossEntropy
from chainer.testing._fast_backward import assert_same_gradients, gradients_both_ways

FLOATS = (numpy.float16, numpy.float32, numpy.float64)


def _array(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", [1, 8])
@pytest.mark.parametrize("input_is_variable", [False, True])
def test_mlp(dtype, batch, input_is_variable):
    rng = numpy.random.default_rng(0)
    x = _array(rng, (batch, 12), dtype)
    x_in = Variable(x) if input_is_variable else x
    W1, b1 = Variable(_array(rng, (7, 12), dtype)), Variable(_array(rng, (7,), dtype))
    W2, b2 = Variable(_array(rng, (5, 7), dtype)), Variable(_array(rng, (5,), dtype))
    t = rng.integers(0, 5, batch).astype(numpy.int32)

    def build():
        h = F.relu(F.linear(x_in, W1, b1))
        return F.softmax_cross_entropy(F.linear(h, W2, b2), t)

    leaves = [W1, b1, W2, b2] + ([x_in] if input_is_variable else [])
    fast, generic = gradients_both_ways(build, leaves, [LinearFunction, ReLU, SoftmaxCrossEntropy])
    assert_same_gradients(fast, generic)
    assert all(g.dtype == dtype for g, _ in fast)


def test_linear_without_bias_and_against_numpy():
    rng = numpy.random.default_rng(1)
    x, W = Variable(_array(rng, (3, 4), numpy.float32)), Variable(_array(rng, (2, 4), "f"))
    gy = _array(rng, (3, 2), numpy.float32)

    def build():
        return F.sum(F.linear(x, W) * gy)

    fast, generic = gradients_both_ways(build, [x, W], [LinearFunction])
    assert_same_gradients(fast, generic)
    numpy.testing.assert_allclose(fast[0][0], gy.dot(W.array), rtol=1e-6)
    numpy.testing.assert_allclose(fast[1][0], gy.T.dot(x.array), rtol=1e-6)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"ignore_label": -1},
        {"class_weight": numpy.array([1.0, 2.0, 0.5, 1.0], numpy.float32)},
        {"normalize": False},
        {"cache_score": False},
    ],
)
def test_softmax_cross_entropy_options(kwargs):
    rng = numpy.random.default_rng(2)
    x = Variable(_array(rng, (6, 4), numpy.float32))
    t = numpy.array([0, 3, -1, 2, 1, -1], numpy.int32)
    build = lambda: F.softmax_cross_entropy(x, t, **kwargs)  # noqa: E731
    fast, generic = gradients_both_ways(build, [x], [SoftmaxCrossEntropy])
    assert_same_gradients(fast, generic)


def test_softmax_cross_entropy_without_reduction_uses_backward():
    rng = numpy.random.default_rng(3)
    x = Variable(_array(rng, (3, 4), numpy.float32))
    t = numpy.array([0, 3, 2], numpy.int32)
    build = lambda: F.sum(F.softmax_cross_entropy(x, t, reduce="no"))  # noqa: E731
    fast, generic = gradients_both_ways(build, [x], [])
    assert_same_gradients(fast, generic)


def test_labels_as_a_variable_get_no_gradient():
    rng = numpy.random.default_rng(4)
    x = Variable(_array(rng, (3, 4), numpy.float32))
    t = Variable(numpy.array([0, 3, 2], numpy.int32))
    build = lambda: F.softmax_cross_entropy(x, t)  # noqa: E731
    fast, generic = gradients_both_ways(build, [x, t], [SoftmaxCrossEntropy])
    assert_same_gradients(fast, generic)
    assert fast[1] == (None, None)


def test_relu_values():
    x = Variable(numpy.array([-1.0, 0.0, 2.0], numpy.float32))
    F.sum(F.relu(x) * 3.0).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.array([0.0, 0.0, 3.0], numpy.float32))


def test_wrong_shape_gradient_of_linear_still_reported():
    rng = numpy.random.default_rng(5)
    x, W = Variable(_array(rng, (3, 4), numpy.float32)), Variable(_array(rng, (2, 4), "f"))
    gy = numpy.ones((3, 3), numpy.float32)
    with pytest.raises(ValueError):
        chainer.grad([F.linear(x, W)], [x, W], grad_outputs=[gy])


# (n, c_in, dims, c_out, ksize, stride, pad, dilate, groups, cover_all): per-sample and
# batch-last layouts, padded, strided, dilated, grouped, cover_all, 1-D and 3-D.
CONVOLUTIONS = [
    (1, 2, (9, 8), 3, (3, 2), 1, (1, 0), 1, 1, False),
    (4, 4, (7, 9), 6, (3, 3), (2, 1), 1, (1, 2), 2, True),
    (6, 6, (5, 5), 4, (2, 2), 1, 0, 1, 2, False),
    (3, 2, (10,), 4, (3,), 2, 1, 1, 1, True),
    (2, 3, (4, 5, 4), 2, (2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 2), 1, False),
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("case", CONVOLUTIONS)
@pytest.mark.parametrize("input_is_variable", [False, True])
@pytest.mark.parametrize("with_bias", [False, True])
def test_convolution_and_max_pooling(dtype, case, input_is_variable, with_bias):
    from chainer.functions.connection.convolution_nd import ConvolutionND
    from chainer.functions.pooling.max_pooling_nd import MaxPoolingND

    n, c_in, dims, c_out, ksize, stride, pad, dilate, groups, cover_all = case
    rng = numpy.random.default_rng(6)
    x = _array(rng, (n, c_in, *dims), dtype)
    x.reshape(-1)[::3] = -0.0
    x_in = Variable(x) if input_is_variable else x
    W = Variable(_array(rng, (c_out, c_in // groups, *ksize), dtype))
    b = Variable(_array(rng, (c_out,), dtype)) if with_bias else None
    conv_args = (stride, pad, cover_all, dilate, groups)
    pools = F.convolution_nd(x, W.array, None, *conv_args).shape[2:]
    pooled = all(d % 2 == 0 for d in pools)  # the tournament's case
    gy = None

    def build():
        nonlocal gy
        h = F.convolution_nd(x_in, W, b, *conv_args)
        if pooled:
            h = F.max_pooling_nd(F.relu(h), 2)
        if gy is None:
            gy = _array(rng, h.shape, dtype)
            gy.reshape(-1)[::4] = -0.0
        return F.sum(h * gy)

    leaves = [W] + ([b] if with_bias else []) + ([x_in] if input_is_variable else [])
    classes = [ConvolutionND] + ([MaxPoolingND] if pooled else [])
    fast, generic = gradients_both_ways(build, leaves, classes)
    assert_same_gradients(fast, generic)
    assert all(g.dtype == dtype for g, _ in fast)


def test_convolution_of_mixed_dtypes_and_pooling_with_indexes_use_backward():
    from chainer.functions.connection.convolution_nd import ConvolutionND

    rng = numpy.random.default_rng(7)
    x = Variable(_array(rng, (2, 3, 6, 6), numpy.float32))
    W = Variable(_array(rng, (4, 3, 3, 3), numpy.float64))
    build = lambda: F.sum(F.convolution_2d(x, W))  # noqa: E731
    fast, generic = gradients_both_ways(build, [x, W], [])
    assert_same_gradients(fast, generic)
    with pytest.raises(AssertionError):  # the fast run called ConvolutionND.backward
        gradients_both_ways(build, [x, W], [ConvolutionND])

    # 3x3 windows: the general window kernels, whose backward runs as before.
    build = lambda: F.sum(F.max_pooling_2d(x, 3) ** 2)  # noqa: E731
    fast, generic = gradients_both_ways(build, [x], [])
    assert_same_gradients(fast, generic)


def test_wrong_shape_gradient_of_convolution_still_reported():
    rng = numpy.random.default_rng(8)
    x = Variable(_array(rng, (2, 3, 6, 6), numpy.float32))
    W = Variable(_array(rng, (4, 3, 3, 3), numpy.float32))
    y = F.convolution_2d(x, W)
    for shape in [(2, 4, 3, 4), (2, 5, 4, 4)]:
        with pytest.raises(chainer.utils.type_check.InvalidType, match="DeconvolutionND"):
            chainer.grad([y], [x, W], grad_outputs=[numpy.ones(shape, numpy.float32)])
