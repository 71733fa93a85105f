"""chainer.utils.error."""

import numpy

from chainer.utils import error


def test_format_array_props():
    arrays = [numpy.zeros((2, 3), numpy.float32), None, numpy.zeros((), numpy.int64)]
    assert error._format_array_props(arrays) == "(2, 3):float32, None, ():int64"
    assert error._format_array_props(()) == ""
