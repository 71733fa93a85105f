"""chainer.memory_layouts: channel-last conversion, shapes, gradients."""

import numpy
import pytest

import chainer
from chainer import gradient_check, memory_layouts


def test_layout_constants():
    assert memory_layouts.CUDNN_CHANNEL_FIRST_X is None
    assert memory_layouts.CUDNN_CHANNEL_FIRST_W is None
    assert memory_layouts.CUDNN_CHANNEL_LAST_X == "CUDNN_CHANNEL_LAST_X"
    assert memory_layouts.CUDNN_CHANNEL_LAST_W == "CUDNN_CHANNEL_LAST_W"


@pytest.mark.parametrize(
    "layout", [memory_layouts.CUDNN_CHANNEL_LAST_X, memory_layouts.CUDNN_CHANNEL_LAST_W]
)
def test_as_layout_stores_channels_last(layout):
    x = numpy.random.default_rng(0).standard_normal((2, 3, 4, 5)).astype(numpy.float32)
    y = memory_layouts.AsLayout(layout).apply((x,))[0]
    numpy.testing.assert_array_equal(y.array, numpy.moveaxis(x, 1, -1))
    assert memory_layouts.get_raw_shape(y) == (2, 4, 5, 3)
    assert memory_layouts.get_semantic_shape(y.array, assumed_layout=layout) == (2, 3, 4, 5)


def test_as_layout_standard_is_identity_and_variables_are_standard():
    x = chainer.Variable(numpy.ones((2, 3, 4), numpy.float32))
    y = memory_layouts.AsLayout(None).apply((x,))[0]
    numpy.testing.assert_array_equal(y.array, x.array)
    assert memory_layouts.get_semantic_shape(x) == (2, 3, 4)


def test_as_layout_gradients():
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((2, 3, 2, 2))
    gy = rng.standard_normal((2, 2, 2, 3))
    ggx = rng.standard_normal((2, 3, 2, 2))

    def f(x):
        return memory_layouts.AsLayout(memory_layouts.CUDNN_CHANNEL_LAST_X).apply((x,))[0]

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_unknown_layout_is_rejected():
    with pytest.raises(ValueError, match="unknown memory layout 'NHWC'"):
        memory_layouts.AsLayout("NHWC")
    with pytest.raises(ValueError, match="unknown memory layout 'NHWC'"):
        memory_layouts.get_semantic_shape(numpy.ones((1, 2)), assumed_layout="NHWC")


def test_channel_last_needs_two_axes():
    with pytest.raises(ValueError, match="needs at least 2 axes, got an array of 1"):
        memory_layouts.AsLayout(memory_layouts.CUDNN_CHANNEL_LAST_X).apply((numpy.ones(3),))
