"""Access to the special functions of SciPy (CPU) and CuPy (GPU), imported on first use.

SciPy is not a dependency of chainer-links: the functions that need it import it when they
first run on the CPU and say how to install it when it is missing. The few that the standard
library covers (erf, erfc, ndtr, lgamma) fall back to it, elementwise and slower.
"""

from __future__ import annotations

import math

import numpy

from chainer.functions.math._unary import UnaryFloat

_SQRT_HALF = math.sqrt(0.5)

_STDLIB_FALLBACKS = {
    "erf": math.erf,
    "erfc": math.erfc,
    "ndtr": lambda v: 0.5 * math.erfc(-v * _SQRT_HALF),
    "gammaln": math.lgamma,
}


def special_function(xp, name: str, function_name: str):
    """The elementwise function ``name`` of ``scipy.special`` or ``cupyx.scipy.special``.

    Args:
        xp: The array module of the inputs.
        name: The name in ``scipy.special``.
        function_name: The public Chainer function, for the error message.

    Raises:
        ImportError: On the CPU, when SciPy is missing and the standard library has no
            replacement.
    """
    if xp is not numpy:
        import cupyx.scipy.special

        return getattr(cupyx.scipy.special, name)
    try:
        from scipy import special
    except ImportError:
        fallback = _STDLIB_FALLBACKS.get(name)
        if fallback is None:
            raise ImportError(
                f"chainer.functions.{function_name} on the CPU requires SciPy: pip install scipy"
            ) from None
        return numpy.vectorize(fallback, otypes=[numpy.float64])
    return getattr(special, name)


class UnarySpecial(UnaryFloat):
    """A :class:`UnaryFloat` computed by ``scipy.special.<_special_name>``.

    ``_function_name`` is the public name, used in the message when SciPy is missing.
    """

    _special_name = ""
    _function_name = ""

    def _compute(self, xp, x):
        return special_function(xp, self._special_name, self._function_name)(x)
