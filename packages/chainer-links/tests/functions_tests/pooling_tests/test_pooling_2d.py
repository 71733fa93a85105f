"""chainer.functions.pooling.pooling_2d.Pooling2D: the base of 2-D poolings."""

import numpy
import pytest

from chainer.functions.pooling import pooling_nd
from chainer.functions.pooling.average_pooling_nd import AveragePoolingND
from chainer.functions.pooling.max_pooling_nd import MaxPoolingND
from chainer.functions.pooling.pooling_2d import Pooling2D
from chainer.utils import type_check


class _CornerPooling(Pooling2D):
    """Takes the top-left pixel of each window (no padding, for the test)."""

    def forward(self, inputs):
        x = inputs[0]
        sy, sx = self.stride
        return (x[:, :, ::sy, ::sx].copy(),)


def test_parameters_are_parsed_per_axis():
    pooling = _CornerPooling(3, pad=(1, 0), return_indices=True)
    assert pooling.ksize == (3, 3)
    assert pooling.stride == (3, 3)
    assert pooling.pad == (1, 0)
    assert pooling.cover_all is True
    assert pooling.return_indices is True


def test_subclass_computes_and_checks_images():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    y = _CornerPooling(2).apply((x,))[0]
    numpy.testing.assert_array_equal(y.array, [[[[0, 2], [8, 10]]]])
    with pytest.raises(type_check.InvalidType):
        _CornerPooling(2).apply((numpy.ones((2, 3), numpy.float32),))


def test_forward_must_be_implemented():
    with pytest.raises(NotImplementedError, match="Pooling2D"):
        Pooling2D(2).apply((numpy.ones((1, 1, 2, 2), numpy.float32),))


def test_nd_poolings_share_the_base():
    assert issubclass(Pooling2D, pooling_nd._PoolingND)
    assert issubclass(MaxPoolingND, pooling_nd._PoolingND)
    assert issubclass(AveragePoolingND, pooling_nd._PoolingND)
