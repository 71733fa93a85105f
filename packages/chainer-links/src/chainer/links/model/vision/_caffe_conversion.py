"""Converting the Caffe releases of the model-zoo networks (BVLC's VGG and GoogLeNet, MSRA's
ResNet) into Chainer's NPZ weights.

Each architecture lists which Caffe layer feeds which of its links; :func:`convert` reads the
``.caffemodel`` with :class:`~chainer.links.caffe.CaffeFunction` (which needs protobuf: the
``caffe`` extra), copies the weights, checking every shape, and saves the NPZ file.
"""

from __future__ import annotations

import os
import typing as tp

import numpy

from chainer import link
from chainer.serializers import save_npz


class CaffeWeights:
    """The layers of a read Caffe model, copied into links by name."""

    def __init__(self, caffemodel: link.Chain, model_name: str, path: str) -> None:
        self.caffemodel = caffemodel
        self.model_name = model_name
        self.path = path

    def _layer(self, name: str) -> link.Link:
        layer = getattr(self.caffemodel, name, None)
        if not isinstance(layer, link.Link):
            raise ValueError(
                f"{self.path!r} has no layer {name!r} with weights, which "
                f"{self.model_name} reads: it is not the Caffe release of {self.model_name}"
            )
        return layer

    def copy(self, name: str, target: link.Link) -> None:
        """The weight (and bias, where ``target`` has one) of the Caffe layer ``name``."""
        source = self._layer(name)
        self._assign(name, "W", target.W.array, source.W.array)
        if getattr(target, "b", None) is not None:
            self._assign(name, "b", target.b.array, source.b.array)

    def copy_batch_normalization(self, bn_name: str, scale_name: str, target: link.Link) -> None:
        """Caffe's BatchNorm layer (statistics) and Scale layer (gamma, beta) into one link."""
        statistics, scale = self._layer(bn_name), self._layer(scale_name)
        self._assign(bn_name, "avg_mean", target.avg_mean, statistics.avg_mean)
        self._assign(bn_name, "avg_var", target.avg_var, statistics.avg_var)
        self._assign(scale_name, "W", target.gamma.array, scale.W.array)
        self._assign(scale_name, "bias", target.beta.array, scale.bias.b.array)

    def _assign(self, name: str, what: str, target: tp.Any, source: tp.Any) -> None:
        if target.shape != source.shape:
            raise ValueError(
                f"the {what} of Caffe layer {name!r} in {self.path!r} has shape {source.shape}, "
                f"{self.model_name} needs {target.shape}"
            )
        target[...] = numpy.asarray(source)


def convert(
    model: link.Chain,
    path_caffemodel: str | os.PathLike,
    path_npz: str | os.PathLike,
    transfer: tp.Callable[[CaffeWeights, tp.Any], None],
) -> None:
    """Read ``path_caffemodel``, let ``transfer`` copy its weights into ``model``, save NPZ."""
    from chainer.links.caffe import CaffeFunction  # needs protobuf, only here

    path = os.fspath(path_caffemodel)
    transfer(CaffeWeights(CaffeFunction(path), type(model).__name__, path), model)
    save_npz(os.fspath(path_npz), model, compression=False)
