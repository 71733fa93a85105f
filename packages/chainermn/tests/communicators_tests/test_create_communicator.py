"""create_communicator: names, the CPU default, configuration."""

import warnings

import numpy
import pytest
from _helpers import CPU_COMMUNICATORS
from mpi4py import MPI

import chainermn
from chainer.backends import cuda
from chainermn.communicators.flat_communicator import FlatCommunicator


@pytest.mark.parametrize("name", CPU_COMMUNICATORS)
def test_every_cpu_name_creates_a_communicator_of_the_world(name):
    comm = chainermn.create_communicator(name)
    assert isinstance(comm, chainermn.CommunicatorBase)
    assert (comm.rank, comm.size) == (MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size())
    assert 0 <= comm.intra_rank < comm.intra_size <= comm.size
    assert 0 <= comm.inter_rank < comm.inter_size
    comm.finalize()


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown communicator name 'nccl2'.*naive.*flat"):
        chainermn.create_communicator("nccl2")


@pytest.mark.skipif(cuda.available, reason="checks the CPU-only fallback")
def test_default_on_a_cpu_machine_warns_and_uses_flat():
    with pytest.warns(UserWarning, match="using the 'flat' communicator"):
        comm = chainermn.create_communicator()
    assert isinstance(comm, FlatCommunicator)


@pytest.mark.skipif(cuda.available, reason="checks the CPU-only error")
def test_pure_nccl_by_name_on_a_cpu_machine_is_a_clear_error():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeError, match="needs CUDA GPUs.*'flat'"):
            chainermn.create_communicator("pure_nccl")


def test_keyword_configuration_and_get_config():
    comm = chainermn.create_communicator(
        "naive", allreduce_grad_dtype=numpy.float16, batched_copy=False
    )
    assert comm.get_config("allreduce_grad_dtype") == numpy.float16
    assert comm.get_config("batched_copy") is False
    assert comm.get_config() == {
        "allreduce_grad_dtype": numpy.float16,
        "batched_copy": False,
        "recv_timeout": None,
    }
    comm.set_config("allreduce_grad_dtype", None)
    assert comm.allreduce_grad_dtype is None


def test_bad_configuration_is_refused():
    comm = chainermn.create_communicator("naive")
    with pytest.raises(ValueError, match="unknown configuration name 'blah'"):
        comm.set_config("blah")
    with pytest.raises(ValueError, match="unknown configuration name 'blah'"):
        comm.get_config("blah")
    with pytest.raises(ValueError, match="allreduce_grad_dtype must be"):
        comm.set_config("allreduce_grad_dtype", numpy.int32)
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['bogus'\\]"):
        chainermn.create_communicator("naive", bogus=1)


def test_mpi_comm_must_be_an_mpi4py_communicator():
    with pytest.raises(TypeError, match="mpi_comm must be an mpi4py.MPI.Comm, got builtins.int"):
        chainermn.create_communicator("flat", mpi_comm=3)


def test_explicit_mpi_comm_and_split():
    comm = chainermn.create_communicator("flat", mpi_comm=MPI.COMM_WORLD)
    sub = comm.split(comm.rank % 2, comm.rank)
    assert isinstance(sub, FlatCommunicator)
    assert sub.rank == comm.rank // 2
    assert sub.size == (comm.size + 1 - comm.rank % 2) // 2


def test_configuration_reads_as_attributes_and_config_scope_sets_it():
    comm = chainermn.create_communicator("flat")
    assert comm.batched_copy is True
    with comm.config_scope():
        assert comm.within_config_scope
        comm.batched_copy = False
    assert not comm.within_config_scope
    assert comm.get_config("batched_copy") is False
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        _ = comm.nonexistent
