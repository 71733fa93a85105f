"""shift: channel groups moved by the offsets of a kh x kw window, zero-filled."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import FLOAT_DTYPES, uniform


def _offsets(kh, kw):
    """Group i takes window tap i (row-major); the centre tap and the last one trade places."""
    taps = list(range(kh * kw))
    centre = (kh * kw - 1) // 2
    taps[centre], taps[-1] = taps[-1], taps[centre]
    return [(t // kw - kh // 2, t % kw - kw // 2) for t in taps]


@testing.parameterize(
    *testing.product_dict(
        [
            {"channels": 9, "ksize": 3, "dilate": 1},
            {"channels": 11, "ksize": (3, 1), "dilate": (2, 1)},
            {"channels": 5, "ksize": (1, 5), "dilate": -1},
        ],
        [{"dtype": dtype} for dtype in FLOAT_DTYPES],
    )
)
@testing.inject_backend_tests(None, [{}])
class TestShift(testing.FunctionTestCase):
    def generate_inputs(self):
        return (uniform((2, self.channels, 4, 3), self.dtype),)

    def forward(self, inputs, device):
        return (F.shift(inputs[0], self.ksize, self.dilate),)

    def forward_expected(self, inputs):
        (x,) = inputs
        kh, kw = self.ksize if isinstance(self.ksize, tuple) else (self.ksize,) * 2
        dy, dx = self.dilate if isinstance(self.dilate, tuple) else (self.dilate,) * 2
        offsets = _offsets(kh, kw)
        size = self.channels // len(offsets)
        y = numpy.zeros_like(x)
        for c in range(self.channels):
            oy, ox = offsets[min(c // size, len(offsets) - 1)]
            for r in range(4):
                for s in range(3):
                    src_r, src_s = r - oy * dy, s - ox * dx
                    if 0 <= src_r < 4 and 0 <= src_s < 3:
                        y[:, c, r, s] = x[:, c, src_r, src_s]
        return (y,)


def test_too_few_channels_is_an_invalid_type():
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[1\] >= ksize\[0\] \* ksize\[1\]"):
        F.shift(numpy.ones((1, 8, 3, 3), numpy.float32), 3)


@pytest.mark.parametrize(
    "ksize, dilate, message",
    [(2, 1, r"ksize must be odd and positive, got \(2, 2\)"), (3, 0, "dilate must not be zero")],
)
def test_bad_arguments_raise_value_error(ksize, dilate, message):
    with pytest.raises(ValueError, match=message):
        F.shift(numpy.ones((1, 9, 3, 3), numpy.float32), ksize, dilate)
