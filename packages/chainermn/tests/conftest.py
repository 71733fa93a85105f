"""Makes the shared ``_helpers`` module importable from every chainermn test module, and
provides the ``comm`` fixture of the multi-process tests.

With ``--import-mode=importlib`` pytest does not put test directories on ``sys.path``.
"""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))


@pytest.fixture(scope="module")
def comm():
    """A naive communicator over the whole job; skips with fewer than 2 processes.

    Test modules that need another communicator define their own ``comm``.
    """
    import chainermn

    communicator = chainermn.create_communicator("naive")
    if communicator.size < 2:
        pytest.skip("needs mpiexec -n 2 or more")
    return communicator
