"""normalize (L2) and local_response_normalization compute ChainerX inputs natively, with the
values and dtypes of the NumPy path (the ChainerX configurations of their own tests check
gradients of both orders on ChainerX arrays)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.normalization.l2_normalization import NormalizeL2
from chainer.functions.normalization.local_response_normalization import (
    LocalResponseNormalization,
)

from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES

CASES = {
    "normalize": (NormalizeL2, lambda x: F.normalize(x, axis=(1, 2))),
    "lrn": (LocalResponseNormalization, lambda x: F.local_response_normalization(x, 3, 1, 0.5)),
    "lrn_one_channel_window": (
        LocalResponseNormalization,
        lambda x: F.local_response_normalization(x, 1, 2, 0.1, 0.5),
    ),
}


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_normalizations_match_the_numpy_path(monkeypatch, name, dtype):
    node, function = CASES[name]
    x = numpy.random.uniform(-2, 2, (2, 4, 3)).astype(dtype)
    expected = function(x)
    forbid_fallback(monkeypatch, node)
    y = function(*to_chainerx(x))
    assert y.dtype == dtype
    tol = 2e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(to_numpy(y), expected.array, rtol=tol, atol=tol)


def test_chainerx_normalize_of_a_zero_vector_has_finite_gradients(monkeypatch):
    forbid_fallback(monkeypatch, NormalizeL2)
    x = chainer.Variable(to_chainerx(numpy.zeros((1, 3)))[0])
    y = F.normalize(x, eps=0.25)
    gy = to_chainerx(numpy.array([[1.0, -2.0, 3.0]]))
    (gx,) = chainer.grad([y], [x], gy, enable_double_backprop=True)
    numpy.testing.assert_allclose(to_numpy(gx), [[4.0, -8.0, 12.0]])
    (ggx,) = chainer.grad([gx], [x], to_chainerx(numpy.ones((1, 3))))
    assert numpy.isfinite(to_numpy(ggx)).all()
