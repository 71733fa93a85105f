"""GoogLeNet (Szegedy et al., 2015) as trained by BVLC: ``GoogLeNet`` and ``prepare``."""

from __future__ import annotations

import collections
import typing as tp

from chainer import initializers, link
from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.functions.noise.dropout import dropout
from chainer.functions.normalization.local_response_normalization import (
    local_response_normalization,
)
from chainer.functions.pooling.average_pooling_2d import average_pooling_2d
from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.inception import Inception
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import _caffe_conversion
from chainer.links.model.vision._image_model import (
    PILLOW_AVAILABLE,
    PretrainedImageModel,
    prepare_image,
    weights_path,
)
from chainer.serializers import load_npz

#: Attribute name and Inception arguments (in, out1, proj3, out3, proj5, out5, proj_pool).
_INCEPTIONS = (
    ("inc3a", (192, 64, 96, 128, 16, 32, 32)),
    ("inc3b", (256, 128, 128, 192, 32, 96, 64)),
    ("inc4a", (480, 192, 96, 208, 16, 48, 64)),
    ("inc4b", (512, 160, 112, 224, 24, 64, 64)),
    ("inc4c", (512, 128, 128, 256, 24, 64, 64)),
    ("inc4d", (512, 112, 144, 288, 32, 64, 64)),
    ("inc4e", (528, 256, 160, 320, 32, 128, 128)),
    ("inc5a", (832, 256, 160, 320, 32, 128, 128)),
    ("inc5b", (832, 384, 192, 384, 48, 128, 128)),
)

#: Whether Pillow is installed (image preparation and prediction need it), as in Chainer.
available = PILLOW_AVAILABLE


def _max_pooling_2d(x: tp.Any) -> tp.Any:
    return max_pooling_2d(x, ksize=3, stride=2)


def _local_response_normalization(x: tp.Any) -> tp.Any:
    return local_response_normalization(x, n=5, k=1, alpha=1e-4 / 5)


def _average_pooling_2d_k5(x: tp.Any) -> tp.Any:
    return average_pooling_2d(x, ksize=5, stride=3)


def _average_pooling_2d_k7(x: tp.Any) -> tp.Any:
    return average_pooling_2d(x, ksize=7, stride=1)


def _dropout(x: tp.Any) -> tp.Any:
    return dropout(x, ratio=0.4)


class GoogLeNet(link.Chain, PretrainedImageModel):
    """GoogLeNet (Inception v1) for 224x224 BGR images minus the mean (see :func:`prepare`).

    Its layers are ``conv1, pool1, conv2_reduce, conv2, pool2, inception_3a, inception_3b,
    pool3, inception_4a .. inception_4e, pool4, inception_5a, inception_5b, pool5,
    loss3_fc, prob``, then the auxiliary classifiers ``loss1_fc2`` (from ``inception_4a``)
    and ``loss2_fc2`` (from ``inception_4d``), which are computed only when asked for.

    Args:
        pretrained_model: ``'auto'`` loads the converted weights ``bvlc_googlenet.npz`` from
            Chainer's model cache (``$CHAINER_DATASET_ROOT/pfnet/chainer/models``); a path
            loads that NPZ file; ``None`` initializes the weights randomly (LeCun uniform
            convolutions and linear maps as in BVLC's definition).

    Attributes:
        functions (collections.OrderedDict): Layer name -> the callables computing it.
        available_layers (list): The layer names, in order.

    Raises:
        OSError: ``'auto'`` and no cached weights.

    Example:
        >>> model = L.GoogLeNet(pretrained_model=None)
        >>> x = numpy.zeros((1, 3, 224, 224), numpy.float32)
        >>> with chainer.using_config('train', False):
        ...     model(x, layers=['pool5'])['pool5'].shape
        (1, 1024, 1, 1)
    """

    _default_extract_layer = "pool5"
    _branches = {"loss1_fc2": "inception_4a", "loss2_fc2": "inception_4d"}

    def __init__(self, pretrained_model: tp.Any = "auto") -> None:
        path = weights_path(
            type(self).__name__,
            pretrained_model,
            "bvlc_googlenet.npz",
            "bvlc_googlenet.caffemodel",
            GoogLeNet.convert_caffemodel_to_npz,
        )
        super().__init__()
        if path is None:
            initialW = initializers.LeCunUniform(scale=1.0)
        else:  # the weights are overwritten: skip sampling random ones
            initialW = initializers.Zero()
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, initialW=initialW)
            self.conv2_reduce = Convolution2D(64, 64, 1, initialW=initialW)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, initialW=initialW)
            for name, args in _INCEPTIONS:
                setattr(self, name, Inception(*args, conv_init=initialW))
            self.loss3_fc = Linear(1024, 1000, initialW=initialW)
            self.loss1_conv = Convolution2D(512, 128, 1, initialW=initialW)
            self.loss1_fc1 = Linear(2048, 1024, initialW=initialW)
            self.loss1_fc2 = Linear(1024, 1000, initialW=initialW)
            self.loss2_conv = Convolution2D(528, 128, 1, initialW=initialW)
            self.loss2_fc1 = Linear(2048, 1024, initialW=initialW)
            self.loss2_fc2 = Linear(1024, 1000, initialW=initialW)
        if path is not None:
            load_npz(path, self)

    @property
    def functions(self) -> collections.OrderedDict:
        """Layer name -> the callables that compute it from the previous layer's output
        (for ``loss1_fc2``/``loss2_fc2``: from ``inception_4a``/``inception_4d``)."""
        return collections.OrderedDict(
            [
                ("conv1", [self.conv1, relu]),
                ("pool1", [_max_pooling_2d, _local_response_normalization]),
                ("conv2_reduce", [self.conv2_reduce, relu]),
                ("conv2", [self.conv2, relu, _local_response_normalization]),
                ("pool2", [_max_pooling_2d]),
                ("inception_3a", [self.inc3a]),
                ("inception_3b", [self.inc3b]),
                ("pool3", [_max_pooling_2d]),
                ("inception_4a", [self.inc4a]),
                ("inception_4b", [self.inc4b]),
                ("inception_4c", [self.inc4c]),
                ("inception_4d", [self.inc4d]),
                ("inception_4e", [self.inc4e]),
                ("pool4", [_max_pooling_2d]),
                ("inception_5a", [self.inc5a]),
                ("inception_5b", [self.inc5b]),
                ("pool5", [_average_pooling_2d_k7]),
                ("loss3_fc", [_dropout, self.loss3_fc]),
                ("prob", [softmax]),
                # The auxiliary classifiers come last so that the main path never waits for
                # them; forward starts them from their branching points.
                ("loss1_fc2", self._auxiliary(self.loss1_conv, self.loss1_fc1, self.loss1_fc2)),
                ("loss2_fc2", self._auxiliary(self.loss2_conv, self.loss2_fc1, self.loss2_fc2)),
            ]
        )

    @staticmethod
    def _auxiliary(conv: Convolution2D, fc1: Linear, fc2: Linear) -> list:
        return [_average_pooling_2d_k5, conv, relu, fc1, relu, fc2]

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel: str, path_npz: str) -> None:
        """Convert BVLC's Caffe release (``bvlc_googlenet.caffemodel``) into an NPZ file
        that ``pretrained_model`` loads.

        Needs protobuf (``pip install 'chainer-links[caffe]'``).

        Args:
            path_caffemodel: The ``.caffemodel`` file.
            path_npz: The NPZ file to write.

        Raises:
            ValueError: The Caffe model lacks a layer of the network or has another shape.
        """
        _caffe_conversion.convert(
            GoogLeNet(pretrained_model=None), path_caffemodel, path_npz, _transfer_caffe_weights
        )

    def _prepare(self, image: tp.Any, size: tuple[int, int] | None) -> tp.Any:
        return prepare(image, size)


#: Caffe layer name suffix -> link of an Inception block, in BVLC's GoogLeNet.
_INCEPTION_LAYERS = (
    ("1x1", "conv1"),
    ("3x3_reduce", "proj3"),
    ("3x3", "conv3"),
    ("5x5_reduce", "proj5"),
    ("5x5", "conv5"),
    ("pool_proj", "projp"),
)


def _transfer_caffe_weights(weights: _caffe_conversion.CaffeWeights, model: GoogLeNet) -> None:
    weights.copy("conv1/7x7_s2", model.conv1)
    weights.copy("conv2/3x3_reduce", model.conv2_reduce)
    weights.copy("conv2/3x3", model.conv2)
    for name, _ in _INCEPTIONS:
        inception = getattr(model, name)
        for suffix, link_name in _INCEPTION_LAYERS:
            weights.copy(f"inception_{name[3:]}/{suffix}", getattr(inception, link_name))
    for aux in (1, 2):
        weights.copy(f"loss{aux}/conv", getattr(model, f"loss{aux}_conv"))
        weights.copy(f"loss{aux}/fc", getattr(model, f"loss{aux}_fc1"))
        weights.copy(f"loss{aux}/classifier", getattr(model, f"loss{aux}_fc2"))
    weights.copy("loss3/classifier", model.loss3_fc)


def prepare(image: tp.Any, size: tuple[int, int] | None = (224, 224)) -> tp.Any:
    """Convert an image to the input array of :class:`GoogLeNet`.

    Args:
        image: A PIL image or an array (``(H, W)``, ``(H, W, 3)`` RGB, ``(3, H, W)``).
        size: ``(width, height)`` to resize to; ``None`` keeps the image's size.

    Returns:
        numpy.ndarray: ``(3, H, W)``, BGR, minus the mean ``(104, 117, 123)``.
    """
    return prepare_image(image, size, (104.0, 117.0, 123.0))
