"""chainer.utils.array helpers."""

import numpy
import pytest

from chainer.utils import array


def test_size_of_shape():
    assert array.size_of_shape(()) == 1
    assert array.size_of_shape((2, 3, 4)) == 24
    assert array.size_of_shape((2, 0)) == 0
    assert type(array.size_of_shape(numpy.array([2, 3]))) is int


def test_as_vec_and_as_mat():
    x = numpy.arange(24).reshape(2, 3, 4)
    numpy.testing.assert_array_equal(array.as_vec(x), numpy.arange(24))
    v = numpy.arange(3)
    assert array.as_vec(v) is v
    assert array.as_mat(x).shape == (2, 12)
    m = numpy.zeros((2, 5))
    assert array.as_mat(m) is m


@pytest.mark.parametrize(
    ("shape", "target"),
    [
        ((2, 3, 4), (3, 4)),
        ((2, 3, 4), (3, 1)),
        ((2, 3, 4), (1, 1, 4)),
        ((2, 3), ()),
        ((2, 1, 4), (1, 1, 4)),
        ((5,), (1,)),
    ],
)
def test_sum_to_undoes_broadcasting(shape, target):
    x = numpy.random.default_rng(0).standard_normal(shape)
    y = array.sum_to(x, target)
    assert y.shape == target
    # Reference: accumulate every element of x onto the target position it broadcast from.
    expected = numpy.zeros(target)
    lead = len(shape) - len(target)
    for index in numpy.ndindex(*shape):
        tail = index[lead:]
        expected[tuple(0 if t == 1 else i for i, t in zip(tail, target))] += x[index]
    numpy.testing.assert_allclose(y, expected)


def test_sum_to_same_shape_is_identity():
    x = numpy.zeros((2, 3))
    assert array.sum_to(x, (2, 3)) is x


@pytest.mark.parametrize("target", [(4,), (2, 2, 3, 4), (3, 2)])
def test_sum_to_rejects_incompatible_shapes(target):
    with pytest.raises(ValueError, match=r"cannot sum an array of shape \(2, 3\) to shape"):
        array.sum_to(numpy.zeros((2, 3)), target)


def test_sum_to_rejects_variable():
    variable = pytest.importorskip("chainer.variable")
    x = variable.Variable(numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(TypeError, match="Use chainer.functions.sum_to instead"):
        array.sum_to(x, (3,))
