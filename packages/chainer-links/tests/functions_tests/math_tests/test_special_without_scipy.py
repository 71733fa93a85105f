"""Without SciPy: erf, erfc, ndtr and lgamma fall back to the standard library; the other
special functions say how to install SciPy."""

import math
import sys

import numpy
import pytest

import chainer
import chainer.functions as F

_FALLBACKS = {
    "erf": math.erf,
    "erfc": math.erfc,
    "ndtr": lambda v: 0.5 * (1 + math.erf(v / math.sqrt(2))),
    "lgamma": math.lgamma,
}


@pytest.fixture
def no_scipy(monkeypatch):
    # A None entry makes ``import scipy`` raise ImportError.
    monkeypatch.setitem(sys.modules, "scipy", None)


@pytest.mark.usefixtures("no_scipy")
@pytest.mark.parametrize("name", sorted(_FALLBACKS))
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_standard_library_fallback(name, dtype):
    x = numpy.array([[0.5, 1.5], [2.0, 2.5]], dtype)
    y = getattr(F, name)(chainer.Variable(x))
    expected = numpy.vectorize(_FALLBACKS[name])(x.astype(numpy.float64))
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-3 if dtype == numpy.float16 else 1e-6)


@pytest.mark.usefixtures("no_scipy")
@pytest.mark.parametrize(
    "name, call",
    [
        ("erfinv", F.erfinv),
        ("erfcinv", F.erfcinv),
        ("erfcx", F.erfcx),
        ("ndtri", F.ndtri),
        ("log_ndtr", F.log_ndtr),
        ("digamma", F.digamma),
        ("polygamma", lambda x: F.polygamma(numpy.ones(2, numpy.int32), x)),
        ("zeta", lambda x: F.zeta(2.0, x)),
    ],
)
def test_functions_needing_scipy_say_how_to_install_it(name, call):
    message = rf"chainer\.functions\.{name} on the CPU requires SciPy: pip install scipy"
    with pytest.raises(ImportError, match=message):
        call(numpy.array([0.5, 0.7]))
