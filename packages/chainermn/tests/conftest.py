"""Makes the shared ``_helpers`` module importable from every chainermn test module, and
provides the ``comm`` fixture of the multi-process tests.

With ``--import-mode=importlib`` pytest does not put test directories on ``sys.path``.
"""

import os
import pathlib
import sys
import tempfile

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

# The ranks of one mpiexec job would share pytest's temporary root and race in its clean-up
# (one rank removing what another is listing); each rank gets its own root.
_RANK = os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK"))
if _RANK is not None and "PYTEST_DEBUG_TEMPROOT" not in os.environ:
    _ROOT = pathlib.Path(tempfile.gettempdir()) / f"chainermn-tests-rank{_RANK}"
    _ROOT.mkdir(exist_ok=True)
    os.environ["PYTEST_DEBUG_TEMPROOT"] = str(_ROOT)


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
