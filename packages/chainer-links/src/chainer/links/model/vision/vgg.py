"""VGG networks (Simonyan & Zisserman, 2014): ``VGG16Layers``, ``VGG19Layers``, ``prepare``."""

from __future__ import annotations

import collections
import typing as tp

from chainer import initializers, link
from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.functions.noise.dropout import dropout
from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import _caffe_conversion
from chainer.links.model.vision._image_model import (
    PILLOW_AVAILABLE,
    PretrainedImageModel,
    prepare_image,
    weights_path,
)
from chainer.serializers import load_npz

#: Output channels of the convolutions of each block, for 16 and 19 layers.
_BLOCKS = {
    16: ((64, 64), (128, 128), (256,) * 3, (512,) * 3, (512,) * 3),
    19: ((64, 64), (128, 128), (256,) * 4, (512,) * 4, (512,) * 4),
}

#: Whether Pillow is installed (image preparation and prediction need it), as in Chainer.
available = PILLOW_AVAILABLE


def _max_pooling_2d(x: tp.Any) -> tp.Any:
    return max_pooling_2d(x, ksize=2)


class VGGLayers(link.Chain, PretrainedImageModel):
    """A VGG network with 16 or 19 layers, as trained on ImageNet by the VGG team.

    Five blocks of 3x3 convolutions (``conv{block}_{k}``, each followed by ReLU) and 2x2 max
    pooling (``pool{block}``), then ``fc6``, ``fc7`` (ReLU and dropout) and ``fc8`` with
    ``prob`` (softmax) over 1000 classes. Inputs are 224x224 BGR images minus the mean
    (see :func:`prepare`).

    Args:
        pretrained_model: ``'auto'`` loads the converted weights
            ``VGG_ILSVRC_{16,19}_layers.npz`` from Chainer's model cache
            (``$CHAINER_DATASET_ROOT/pfnet/chainer/models``); a path loads that NPZ file;
            ``None`` initializes the weights randomly (normal with std 0.01, zero biases).
        n_layers: 16 or 19.

    Attributes:
        functions (collections.OrderedDict): Layer name -> the callables computing it.
        available_layers (list): The layer names, in order.

    Raises:
        ValueError: ``n_layers`` is neither 16 nor 19.
        OSError: ``'auto'`` and no cached weights.
    """

    _default_extract_layer = "fc7"

    def __init__(self, pretrained_model: tp.Any = "auto", n_layers: int = 16) -> None:
        if n_layers not in _BLOCKS:
            raise ValueError(
                f"The n_layers argument should be either 16 or 19, but {n_layers} was given."
            )
        path = weights_path(
            type(self).__name__,
            pretrained_model,
            f"VGG_ILSVRC_{n_layers}_layers.npz",
            f"VGG_ILSVRC_{n_layers}_layers.caffemodel",
            lambda caffemodel, npz: VGGLayers.convert_caffemodel_to_npz(caffemodel, npz, n_layers),
        )
        super().__init__()
        if path is None:
            kwargs = {"initialW": initializers.Normal(0.01), "initial_bias": initializers.Zero()}
        else:  # the weights are overwritten: skip sampling random ones
            kwargs = {"initialW": initializers.Zero(), "initial_bias": initializers.Zero()}
        self._blocks: list[list[str]] = []
        in_channels = 3
        with self.init_scope():
            for block, widths in enumerate(_BLOCKS[n_layers], start=1):
                names = [f"conv{block}_{k}" for k in range(1, len(widths) + 1)]
                for name, out_channels in zip(names, widths):
                    setattr(
                        self, name, Convolution2D(in_channels, out_channels, 3, 1, 1, **kwargs)
                    )
                    in_channels = out_channels
                self._blocks.append(names)
            self.fc6 = Linear(512 * 7 * 7, 4096, **kwargs)
            self.fc7 = Linear(4096, 4096, **kwargs)
            self.fc8 = Linear(4096, 1000, **kwargs)
        if path is not None:
            load_npz(path, self)

    @property
    def functions(self) -> collections.OrderedDict:
        """Layer name -> the callables that compute it from the previous layer's output."""
        layers: collections.OrderedDict = collections.OrderedDict()
        for block, names in enumerate(self._blocks, start=1):
            for name in names:
                layers[name] = [getattr(self, name), relu]
            layers[f"pool{block}"] = [_max_pooling_2d]
        layers["fc6"] = [self.fc6, relu, dropout]
        layers["fc7"] = [self.fc7, relu, dropout]
        layers["fc8"] = [self.fc8]
        layers["prob"] = [softmax]
        return layers

    @classmethod
    def convert_caffemodel_to_npz(
        cls, path_caffemodel: str, path_npz: str, n_layers: int = 16
    ) -> None:
        """Convert the VGG team's Caffe release (``VGG_ILSVRC_{16,19}_layers.caffemodel``)
        into an NPZ file that ``pretrained_model`` loads.

        Needs protobuf (``pip install 'chainer-links[caffe]'``).

        Args:
            path_caffemodel: The ``.caffemodel`` file.
            path_npz: The NPZ file to write.
            n_layers: 16 or 19, the depth of the Caffe model.

        Raises:
            ValueError: The Caffe model lacks a layer of the network or has another shape.
        """
        _caffe_conversion.convert(
            VGGLayers(pretrained_model=None, n_layers=n_layers),
            path_caffemodel,
            path_npz,
            _transfer_caffe_weights,
        )

    def _prepare(self, image: tp.Any, size: tuple[int, int] | None) -> tp.Any:
        return prepare(image, size)


def _transfer_caffe_weights(weights: _caffe_conversion.CaffeWeights, model: VGGLayers) -> None:
    # The Caffe layers have the names of the links.
    for names in model._blocks:
        for name in names:
            weights.copy(name, getattr(model, name))
    for name in ("fc6", "fc7", "fc8"):
        weights.copy(name, getattr(model, name))


class VGG16Layers(VGGLayers):
    """VGG network with 16 layers (13 convolutions, 3 fully-connected layers).

    Its layers are ``conv1_1, conv1_2, pool1, conv2_1, conv2_2, pool2, conv3_1 .. conv3_3,
    pool3, conv4_1 .. conv4_3, pool4, conv5_1 .. conv5_3, pool5, fc6, fc7, fc8, prob``.

    Args:
        pretrained_model: ``'auto'``, a path to an NPZ file, or ``None``: see
            :class:`VGGLayers`.

    Example:
        >>> model = L.VGG16Layers(pretrained_model=None)
        >>> x = numpy.zeros((1, 3, 224, 224), numpy.float32)
        >>> with chainer.using_config('train', False):
        ...     model(x, layers=['pool5'])['pool5'].shape
        (1, 512, 7, 7)
    """

    def __init__(self, pretrained_model: tp.Any = "auto") -> None:
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):
    """VGG network with 19 layers (16 convolutions, 3 fully-connected layers).

    As :class:`VGG16Layers` with a fourth convolution (``conv3_4``, ``conv4_4``,
    ``conv5_4``) in each of the last three blocks.

    Args:
        pretrained_model: ``'auto'``, a path to an NPZ file, or ``None``: see
            :class:`VGGLayers`.
    """

    def __init__(self, pretrained_model: tp.Any = "auto") -> None:
        super().__init__(pretrained_model, 19)


def prepare(image: tp.Any, size: tuple[int, int] | None = (224, 224)) -> tp.Any:
    """Convert an image to the input array of the VGG models.

    Args:
        image: A PIL image or an array (``(H, W)``, ``(H, W, 3)`` RGB, ``(3, H, W)``).
        size: ``(width, height)`` to resize to; ``None`` keeps the image's size.

    Returns:
        numpy.ndarray: ``(3, H, W)``, BGR, minus the ImageNet mean ``(103.939, 116.779,
        123.68)``.
    """
    return prepare_image(image, size, (103.939, 116.779, 123.68))
