"""chainermn imports against its declared dependencies, and MPI works."""

import importlib.metadata

import pytest

import chainermn


def test_version_matches_distribution():
    assert chainermn.__version__ == importlib.metadata.version("chainermn")


def test_mpi_is_available_without_a_system_mpi():
    from mpi4py import MPI

    assert MPI.COMM_WORLD.Get_size() >= 1
    assert "MPICH" in MPI.Get_library_version() or "MPI" in MPI.Get_library_version()


@pytest.mark.mpi
def test_allreduce_over_two_ranks():
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    if comm.Get_size() < 2:
        pytest.skip("needs mpiexec -n 2 or more")
    total = comm.allreduce(comm.Get_rank() + 1, op=MPI.SUM)
    size = comm.Get_size()
    assert total == size * (size + 1) // 2
