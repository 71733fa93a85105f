"""chainer.utils.precision._fp16_mixed_precision_helper."""

import numpy

from chainer.utils import precision


class Node:
    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        self.seen = tuple(None if x is None else x.dtype for x in inputs)
        x = inputs[0]
        # float16 would overflow here; the result fits in float16 again.
        return (x * 1000 * 1000 / 1e6, numpy.arange(2))


def test_float16_inputs_compute_in_float32():
    node = Node()
    x = numpy.array([60000, 1], numpy.float16)
    y, index = node.forward((x, None, numpy.array([1], numpy.int32)))
    assert node.seen == (numpy.float32, None, numpy.int32)
    assert y.dtype == numpy.float16 and index.dtype == numpy.arange(2).dtype
    numpy.testing.assert_array_equal(y, x)


def test_other_inputs_are_untouched():
    node = Node()
    x = numpy.array([1, 2], numpy.float32)
    y, _ = node.forward((x, numpy.zeros(1, numpy.float16)))
    assert node.seen == (numpy.float32, numpy.float16)
    assert y.dtype == numpy.float32
    assert Node.forward.__name__ == "forward"
