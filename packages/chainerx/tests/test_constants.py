"""NumPy's constants under chainerx's names, and the aliases v7 had."""

import math

import numpy

import chainerx


def test_constants_are_numpys():
    assert chainerx.pi is numpy.pi
    assert chainerx.e is numpy.e
    assert chainerx.euler_gamma is numpy.euler_gamma
    assert chainerx.inf is numpy.inf
    assert chainerx.nan is numpy.nan
    assert chainerx.newaxis is None


def test_numpy1_aliases_keep_their_values():
    for name in ("Inf", "Infinity", "PINF", "infty"):
        assert getattr(chainerx, name) == math.inf
    assert chainerx.NINF == -math.inf
    for name in ("NAN", "NaN"):
        assert math.isnan(getattr(chainerx, name))
    assert chainerx.PZERO == 0.0 and math.copysign(1, chainerx.PZERO) == 1
    assert chainerx.NZERO == 0.0 and math.copysign(1, chainerx.NZERO) == -1
    for name in ("NINF", "NZERO", "PZERO"):
        if name in numpy.__dict__:  # NumPy 1: the very same objects
            assert getattr(chainerx, name) is numpy.__dict__[name]


def test_max_and_min_are_amax_and_amin():
    assert chainerx.max is chainerx.amax
    assert chainerx.min is chainerx.amin
    assert float(chainerx.max(chainerx.array([1.0, 3.0, 2.0]))) == 3.0
