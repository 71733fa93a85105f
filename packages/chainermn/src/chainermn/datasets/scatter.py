"""``scatter_dataset`` and ``scatter_index``: each rank gets its part of root's dataset."""

from __future__ import annotations

import numpy
from mpi4py import MPI

from chainer import backend
from chainer.datasets import SubDataset
from chainermn.communicators import _communication_utility as _comm_util


class DataSizeError(RuntimeError):
    """The dataset given to ``scatter_dataset`` cannot be scattered (e.g. it has no length)."""


def _mpi_comm(comm):
    """The mpi4py communicator of a ChainerMN communicator (or ``comm`` itself)."""
    if isinstance(comm, MPI.Comm):
        return comm
    mpi_comm = getattr(comm, "mpi_comm", None)
    if not isinstance(mpi_comm, MPI.Comm):
        raise TypeError(
            f"comm must be a ChainerMN communicator or an mpi4py.MPI.Comm, got {type(comm)}"
        )
    return mpi_comm


def _scatter_index(n_total: int, size: int, force_equal_length: bool):
    """``(rank, begin, end)`` for every rank.

    Without ``force_equal_length`` the ranges partition ``range(n_total)`` and their lengths
    differ by at most one (the first ranks get the longer ones). With it every range has
    ``ceil(n_total / size)`` elements; consecutive ranges overlap where needed, so together
    they still cover every index.
    """
    if force_equal_length:
        length = -(-n_total // size)
        for rank in range(size):
            begin = n_total * rank // size
            yield rank, begin, begin + length
    else:
        base, extra = divmod(n_total, size)
        for rank in range(size):
            begin = rank * base + min(rank, extra)
            yield rank, begin, begin + base + (1 if rank < extra else 0)


def scatter_index(n_total_samples: int, comm, root: int = 0, *, force_equal_length: bool = True):
    """This rank's ``(begin, end)`` range of ``range(n_total_samples)`` (root's count counts).

    Ranges cover every index; see :func:`scatter_dataset` for ``force_equal_length``.
    """
    mpi_comm = _mpi_comm(comm)
    n_total = mpi_comm.bcast(int(n_total_samples) if mpi_comm.Get_rank() == root else None, root)
    ranges = list(_scatter_index(n_total, mpi_comm.Get_size(), force_equal_length))
    _, begin, end = ranges[mpi_comm.Get_rank()]
    return begin, end


def _length_or_error(dataset):
    try:
        return len(dataset), None
    except TypeError:
        return None, f"the dataset must have a length, got {type(dataset).__name__}"


def scatter_dataset(
    dataset,
    comm,
    root: int = 0,
    shuffle: bool = False,
    seed=None,
    max_buf_len: int = 256 * 1024 * 1024,
    *,
    force_equal_length: bool = True,
):
    """Split root's ``dataset`` among the ranks; return this rank's part as a ``SubDataset``.

    Root sends each rank only its own examples (in chunks of ``max_buf_len`` bytes, so parts
    over 2 GiB work); the datasets given on other ranks are ignored.

    Args:
        dataset: A dataset on ``root`` (anything with ``len`` and indexing).
        comm: A ChainerMN communicator or an mpi4py communicator.
        root: The rank holding the dataset.
        shuffle: Permute the examples before splitting.
        seed: Seed of that permutation (the same seed always gives the same split).
        max_buf_len: Largest message in bytes.
        force_equal_length: Give every rank ``ceil(n / size)`` examples, repeating a few if
            needed (what multi-node updaters and evaluators expect); otherwise the parts are
            disjoint and their lengths differ by at most one.

    Raises:
        DataSizeError: (on every rank) root's dataset has no length.
    """
    mpi_comm = _mpi_comm(comm)
    rank, size = mpi_comm.Get_rank(), mpi_comm.Get_size()
    n_total, error = _length_or_error(dataset) if rank == root else (None, None)
    n_total, error = mpi_comm.bcast((n_total, error), root=root)
    if error is not None:
        raise DataSizeError(f"scatter_dataset: rank {root} (root): {error}")
    if rank != root:
        examples = _comm_util.chunked_recv_obj(mpi_comm, root, _comm_util.GATHER_TAG)
        return SubDataset(examples, 0, len(examples))
    order = numpy.random.RandomState(seed).permutation(n_total) if shuffle else None
    mine = None
    for dest, begin, end in _scatter_index(n_total, size, force_equal_length):
        indices = range(begin, end) if order is None else order[begin:end]
        examples = [_to_host(dataset[int(i)]) for i in indices]
        if dest == root:
            mine = examples
        else:
            _comm_util.chunked_send_obj(
                examples, mpi_comm, dest, _comm_util.GATHER_TAG, chunk=max_buf_len
            )
    return SubDataset(mine, 0, len(mine))


def _to_host(example):
    """Device arrays (ChainerX, CuPy) in an example as NumPy arrays, so they can be pickled."""
    if isinstance(example, tuple):
        return tuple(_to_host(e) for e in example)
    if isinstance(example, backend.get_array_types()) and not isinstance(example, numpy.ndarray):
        return backend.CpuDevice().send(example)
    return example
