"""NumPy's mathematical constants under NumPy's names (v7's ``chainerx.pi``, ``inf``, ...).

Each one is NumPy's own object where this NumPy still has the name (NumPy 2 dropped the aliases
``Inf``, ``Infinity``, ``NAN``, ``NaN``, ``NINF``, ``NZERO``, ``PINF``, ``PZERO`` and
``infty``), else a float of the same value.
"""

import numpy

e: float = numpy.e
euler_gamma: float = numpy.euler_gamma
pi: float = numpy.pi
inf: float = numpy.inf
nan: float = numpy.nan

_ALIASES = {
    "Inf": inf,
    "Infinity": inf,
    "PINF": inf,
    "infty": inf,
    "NINF": -inf,
    "NAN": nan,
    "NaN": nan,
    "PZERO": 0.0,
    "NZERO": -0.0,
}


def _numpy_constant(name: str) -> float:
    """NumPy's object for ``name`` if this NumPy has it, else the same value."""
    return numpy.__dict__.get(name, _ALIASES[name])


Inf = _numpy_constant("Inf")
Infinity = _numpy_constant("Infinity")
PINF = _numpy_constant("PINF")
infty = _numpy_constant("infty")
NINF = _numpy_constant("NINF")
NAN = _numpy_constant("NAN")
NaN = _numpy_constant("NaN")
PZERO = _numpy_constant("PZERO")
NZERO = _numpy_constant("NZERO")
