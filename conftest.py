"""Settings shared by the tests of every distribution in this repository."""

import random
import zlib

import numpy
import pytest


@pytest.fixture(autouse=True)
def _seed_random_per_test(request):
    """Seed Python's and NumPy's global random generators from the test's id.

    Inputs drawn with ``numpy.random`` and the random directions of the gradient checks then
    repeat exactly from run to run, whatever the order or selection of tests, so a numerical
    check either always passes or always fails (never flakes).
    """
    seed = zlib.crc32(request.node.nodeid.encode())
    random.seed(seed)
    numpy.random.seed(seed)
