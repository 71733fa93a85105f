"""LocalConvolution2D: unshared filters, parameter shapes from the input size."""

import itertools

import numpy
import pytest

import chainer.links as L
from chainer import testing


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def local_reference(x, W, b, stride):
    out_channels, out_h, out_w, _, kh, kw = W.shape
    y = numpy.zeros((len(x), out_channels, out_h, out_w))
    for i, j in itertools.product(range(out_h), range(out_w)):
        patch = x[:, :, i * stride[0] : i * stride[0] + kh, j * stride[1] : j * stride[1] + kw]
        y[:, :, i, j] = numpy.einsum("nckl,ockl->no", patch, W[:, i, j])
    if b is not None:
        y += b
    return y


@testing.parameterize(
    {"lazy": False, "nobias": False, "stride": (1, 1)},
    {"lazy": True, "nobias": True, "stride": (2, 1)},
)
@testing.inject_backend_tests(None, [{}])
class TestLocalConvolution2D(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W",) if self.nobias else ("W", "b")

    def generate_params(self):
        out_h = (4 - 2) // self.stride[0] + 1
        out_w = (5 - 3) // self.stride[1] + 1
        self.W = _uniform(3, out_h, out_w, 2, 2, 3)
        self.b = _uniform(3, out_h, out_w)
        return (self.W,) if self.nobias else (self.W, self.b)

    def create_link(self, initializers):
        return L.LocalConvolution2D(
            None if self.lazy else 2,
            3,
            None if self.lazy else (4, 5),
            (2, 3),
            self.stride,
            self.nobias,
            initializers[0],
            None if self.nobias else initializers[1],
        )

    def generate_inputs(self):
        return (_uniform(2, 2, 4, 5),)

    def forward_expected(self, link, inputs):
        b = None if self.nobias else self.b
        return (local_reference(inputs[0], self.W, b, self.stride).astype(numpy.float32),)


def test_parameters_wait_for_in_size():
    link = L.LocalConvolution2D(2, 3, ksize=2)
    assert link.W.array is None and link.b.array is None
    link(_uniform(1, 2, 4, 4))
    assert link.W.shape == (3, 3, 3, 2, 2, 2) and link.b.shape == (3, 3, 3)


def test_errors():
    with pytest.raises(ValueError, match="LocalConvolution2D needs ksize"):
        L.LocalConvolution2D(2, 3, in_size=4)
    with pytest.raises(ValueError, match=r"input size \(2, 2\) is smaller than the filters"):
        L.LocalConvolution2D(2, 3, in_size=2, ksize=3)
    with pytest.raises(TypeError, match="pad"):
        L.LocalConvolution2D(2, 3, in_size=4, ksize=3, pad=1)
