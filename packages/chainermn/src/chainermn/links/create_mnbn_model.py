"""``create_mnbn_model``: a copy of a model with multi-node batch normalization."""

from __future__ import annotations

import copy

import chainer
from chainermn.links.batch_normalization import MultiNodeBatchNormalization


def _converted(link, comm, communication_backend):
    from chainer.links import BatchNormalization

    if isinstance(link, BatchNormalization):
        mnbn = MultiNodeBatchNormalization(
            size=link.avg_mean.shape,
            comm=comm,
            decay=link.decay,
            eps=link.eps,
            dtype=link.avg_mean.dtype,
            use_gamma=link.gamma is not None,
            use_beta=link.beta is not None,
            communication_backend=communication_backend,
        )
        mnbn.copyparams(link)
        return mnbn
    if isinstance(link, chainer.Sequential):
        for index, layer in enumerate(link):
            if isinstance(layer, chainer.Link):
                link[index] = _converted(layer, comm, communication_backend)
    elif isinstance(link, chainer.ChainList):
        for index, child in enumerate(list(link.children())):
            # ChainList has no public way to swap a child; its list keeps the order.
            link._children[index] = _converted(child, comm, communication_backend)
    elif isinstance(link, chainer.Chain):
        for child in list(link.children()):
            name = child.name
            new = _converted(child, comm, communication_backend)
            if new is not child:
                delattr(link, name)
                with link.init_scope():
                    setattr(link, name, new)
    return link


def create_mnbn_model(link, comm, communication_backend: str = "auto"):
    """A deep copy of ``link`` in which every ``BatchNormalization`` (at any depth, in
    ``Chain``, ``ChainList`` or ``Sequential``) is a :class:`MultiNodeBatchNormalization`
    with the same parameters and statistics.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> model = chainermn.links.create_mnbn_model(MyConvNet(), comm)  # doctest: +SKIP
    """
    return _converted(copy.deepcopy(link), comm, communication_backend)
