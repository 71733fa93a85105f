"""Residual networks (He et al., 2016) as released by MSRA: ``ResNet50Layers``,
``ResNet101Layers``, ``ResNet152Layers``, their building blocks, and ``prepare``."""

from __future__ import annotations

import collections
import typing as tp

from chainer import initializers, link
from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.functions.array.reshape import reshape
from chainer.functions.pooling.average_pooling_2d import average_pooling_2d
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
from chainer.links.normalization.batch_normalization import BatchNormalization
from chainer.serializers import load_npz
from chainer.variable import Variable

#: Number of bottleneck blocks in res2 .. res5 for each depth.
_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}

#: Whether Pillow is installed (image preparation and prediction need it), as in Chainer.
available = PILLOW_AVAILABLE


def _max_pooling_2d(x: tp.Any) -> tp.Any:
    return max_pooling_2d(x, ksize=3, stride=2)


def _global_average_pooling_2d(x: tp.Any) -> Variable:
    n, channels, rows, cols = x.shape
    return reshape(average_pooling_2d(x, (rows, cols), stride=1), (n, channels))


class ResNetLayers(link.Chain, PretrainedImageModel):
    """A residual network with 50, 101 or 152 layers of bottleneck blocks.

    Its layers are ``conv1`` (7x7 convolution, batch normalization, ReLU), ``pool1``,
    ``res2`` .. ``res5`` (:class:`BuildingBlock`), ``pool5`` (global average pooling),
    ``fc6`` and ``prob`` (softmax over 1000 classes). Inputs are 224x224 BGR images minus the
    mean (see :func:`prepare`).

    Args:
        pretrained_model: ``'auto'`` loads the converted weights ``ResNet-{n}-model.npz``
            from Chainer's model cache (``$CHAINER_DATASET_ROOT/pfnet/chainer/models``); a
            path loads that NPZ file; ``None`` initializes the weights randomly (He normal
            convolutions).
        n_layers: 50, 101 or 152.
        downsample_fb: Downsample in the 3x3 convolution of each first block, as Facebook's
            ResNet does, instead of in its first 1x1 convolution (MSRA's).

    Attributes:
        functions (collections.OrderedDict): Layer name -> the callables computing it.
        available_layers (list): The layer names, in order.

    Raises:
        ValueError: ``n_layers`` is not 50, 101 or 152.
        OSError: ``'auto'`` and no cached weights.
    """

    _default_extract_layer = "pool5"

    def __init__(
        self, pretrained_model: tp.Any, n_layers: int, downsample_fb: bool = False
    ) -> None:
        if n_layers not in _BLOCKS:
            raise ValueError(
                "The n_layers argument should be either 50, 101, or 152, but "
                f"{n_layers} was given."
            )
        path = weights_path(
            type(self).__name__,
            pretrained_model,
            f"ResNet-{n_layers}-model.npz",
            f"ResNet-{n_layers}-model.caffemodel",
            lambda caffemodel, npz: ResNetLayers.convert_caffemodel_to_npz(
                caffemodel, npz, n_layers
            ),
        )
        super().__init__()
        if path is None:
            initialW = initializers.HeNormal(scale=1.0)
        else:  # the weights are overwritten: skip sampling random ones
            initialW = initializers.Zero()
        blocks = _BLOCKS[n_layers]
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=initialW)
            self.bn1 = BatchNormalization(64)
            self.res2 = BuildingBlock(blocks[0], 64, 64, 256, 1, initialW, downsample_fb)
            self.res3 = BuildingBlock(blocks[1], 256, 128, 512, 2, initialW, downsample_fb)
            self.res4 = BuildingBlock(blocks[2], 512, 256, 1024, 2, initialW, downsample_fb)
            self.res5 = BuildingBlock(blocks[3], 1024, 512, 2048, 2, initialW, downsample_fb)
            self.fc6 = Linear(2048, 1000)
        if path is not None:
            load_npz(path, self)

    @property
    def functions(self) -> collections.OrderedDict:
        """Layer name -> the callables that compute it from the previous layer's output."""
        return collections.OrderedDict(
            [
                ("conv1", [self.conv1, self.bn1, relu]),
                ("pool1", [_max_pooling_2d]),
                ("res2", [self.res2]),
                ("res3", [self.res3]),
                ("res4", [self.res4]),
                ("res5", [self.res5]),
                ("pool5", [_global_average_pooling_2d]),
                ("fc6", [self.fc6]),
                ("prob", [softmax]),
            ]
        )

    @classmethod
    def convert_caffemodel_to_npz(
        cls, path_caffemodel: str, path_npz: str, n_layers: int = 50
    ) -> None:
        """Convert MSRA's Caffe release (``ResNet-{50,101,152}-model.caffemodel``) into an
        NPZ file that ``pretrained_model`` loads.

        Needs protobuf (``pip install 'chainer-links[caffe]'``).

        Args:
            path_caffemodel: The ``.caffemodel`` file.
            path_npz: The NPZ file to write.
            n_layers: 50, 101 or 152, the depth of the Caffe model.

        Raises:
            ValueError: The Caffe model lacks a layer of the network or has another shape.
        """
        _caffe_conversion.convert(
            ResNetLayers(None, n_layers), path_caffemodel, path_npz, _transfer_caffe_weights
        )

    def _prepare(self, image: tp.Any, size: tuple[int, int] | None) -> tp.Any:
        return prepare(image, size)


def _transfer_caffe_weights(weights: _caffe_conversion.CaffeWeights, model: ResNetLayers) -> None:
    weights.copy("conv1", model.conv1)
    weights.copy_batch_normalization("bn_conv1", "scale_conv1", model.bn1)
    # MSRA names the bottlenecks of stage s "{s}a", "{s}b", ... or, in the long stages of the
    # deeper networks, "{s}a", "{s}b1", "{s}b2", ...
    lettered = len(model.res4._forward) == _BLOCKS[50][2]
    for stage in (2, 3, 4, 5):
        block = getattr(model, f"res{stage}")
        for i, name in enumerate(block._forward):
            if lettered or stage in (2, 5):
                caffe_name = f"{stage}{'abcdefgh'[i]}"
            else:
                caffe_name = f"{stage}a" if i == 0 else f"{stage}b{i}"
            _transfer_bottleneck(weights, getattr(block, name), caffe_name)
    weights.copy("fc1000", model.fc6)


def _transfer_bottleneck(
    weights: _caffe_conversion.CaffeWeights, bottleneck: link.Chain, caffe_name: str
) -> None:
    branches = [("2a", "1"), ("2b", "2"), ("2c", "3")]
    if isinstance(bottleneck, BottleneckA):
        branches.append(("1", "4"))  # the projection of the input
    for branch, index in branches:
        suffix = f"{caffe_name}_branch{branch}"
        weights.copy(f"res{suffix}", getattr(bottleneck, f"conv{index}"))
        weights.copy_batch_normalization(
            f"bn{suffix}", f"scale{suffix}", getattr(bottleneck, f"bn{index}")
        )


class ResNet50Layers(ResNetLayers):
    """ResNet with 50 layers: 3, 4, 6 and 3 bottleneck blocks in ``res2`` .. ``res5``.

    Args:
        pretrained_model: ``'auto'``, a path to an NPZ file, or ``None``: see
            :class:`ResNetLayers`.
        downsample_fb: See :class:`ResNetLayers`.

    Example:
        >>> model = L.ResNet50Layers(pretrained_model=None)
        >>> x = numpy.zeros((1, 3, 224, 224), numpy.float32)
        >>> with chainer.using_config('train', False):
        ...     model(x, layers=['pool5'])['pool5'].shape
        (1, 2048)
    """

    def __init__(self, pretrained_model: tp.Any = "auto", downsample_fb: bool = False) -> None:
        super().__init__(pretrained_model, 50, downsample_fb)


class ResNet101Layers(ResNetLayers):
    """ResNet with 101 layers: 3, 4, 23 and 3 bottleneck blocks in ``res2`` .. ``res5``.

    Arguments as :class:`ResNet50Layers`.
    """

    def __init__(self, pretrained_model: tp.Any = "auto", downsample_fb: bool = False) -> None:
        super().__init__(pretrained_model, 101, downsample_fb)


class ResNet152Layers(ResNetLayers):
    """ResNet with 152 layers: 3, 8, 36 and 3 bottleneck blocks in ``res2`` .. ``res5``.

    Arguments as :class:`ResNet50Layers`.
    """

    def __init__(self, pretrained_model: tp.Any = "auto", downsample_fb: bool = False) -> None:
        super().__init__(pretrained_model, 152, downsample_fb)


class BuildingBlock(link.Chain):
    """A stage of a ResNet: one :class:`BottleneckA` (``a``), then ``n_layer - 1``
    :class:`BottleneckB` (``b1``, ``b2``, ...).

    Args:
        n_layer: Number of bottleneck blocks.
        in_channels: Input channels.
        mid_channels: Channels inside the bottlenecks.
        out_channels: Output channels.
        stride: Stride of the first block (2 halves the resolution).
        initialW: Initializer of the convolutions.
        downsample_fb: Stride in the 3x3 convolution instead of the first 1x1 one.
    """

    def __init__(
        self,
        n_layer: int,
        in_channels: int,
        mid_channels: int,
        out_channels: int,
        stride: int,
        initialW: tp.Any = None,
        downsample_fb: bool = False,
    ) -> None:
        super().__init__()
        with self.init_scope():
            self.a = BottleneckA(
                in_channels, mid_channels, out_channels, stride, initialW, downsample_fb
            )
            self._forward = ["a"]
            for i in range(1, n_layer):
                setattr(self, f"b{i}", BottleneckB(out_channels, mid_channels, initialW))
                self._forward.append(f"b{i}")

    def forward(self, x: tp.Any) -> Variable:
        for name in self._forward:
            x = getattr(self, name)(x)
        return x


class BottleneckA(link.Chain):
    """A bottleneck block that changes the resolution and width: 1x1, 3x3 and 1x1
    convolutions with batch normalization, plus a 1x1 projection of the input.

    Args:
        in_channels: Input channels.
        mid_channels: Channels of the 3x3 convolution.
        out_channels: Output channels.
        stride: Stride of the block.
        initialW: Initializer of the convolutions.
        downsample_fb: Stride in the 3x3 convolution instead of the first 1x1 one.
    """

    def __init__(
        self,
        in_channels: int,
        mid_channels: int,
        out_channels: int,
        stride: int = 2,
        initialW: tp.Any = None,
        downsample_fb: bool = False,
    ) -> None:
        super().__init__()
        # MSRA's ResNet strides in the first 1x1 convolution, Facebook's in the 3x3 one.
        stride_1x1, stride_3x3 = (1, stride) if downsample_fb else (stride, 1)
        with self.init_scope():
            self.conv1 = Convolution2D(
                in_channels, mid_channels, 1, stride_1x1, 0, initialW=initialW, nobias=True
            )
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(
                mid_channels, mid_channels, 3, stride_3x3, 1, initialW=initialW, nobias=True
            )
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(
                mid_channels, out_channels, 1, 1, 0, initialW=initialW, nobias=True
            )
            self.bn3 = BatchNormalization(out_channels)
            self.conv4 = Convolution2D(
                in_channels, out_channels, 1, stride, 0, initialW=initialW, nobias=True
            )
            self.bn4 = BatchNormalization(out_channels)

    def forward(self, x: tp.Any) -> Variable:
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + self.bn4(self.conv4(x)))


class BottleneckB(link.Chain):
    """A bottleneck block that keeps the resolution and width: 1x1, 3x3 and 1x1
    convolutions with batch normalization, plus the input itself.

    Args:
        in_channels: Input (and output) channels.
        mid_channels: Channels of the 3x3 convolution.
        initialW: Initializer of the convolutions.
    """

    def __init__(self, in_channels: int, mid_channels: int, initialW: tp.Any = None) -> None:
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(
                in_channels, mid_channels, 1, 1, 0, initialW=initialW, nobias=True
            )
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(
                mid_channels, mid_channels, 3, 1, 1, initialW=initialW, nobias=True
            )
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(
                mid_channels, in_channels, 1, 1, 0, initialW=initialW, nobias=True
            )
            self.bn3 = BatchNormalization(in_channels)

    def forward(self, x: tp.Any) -> Variable:
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + x)


def prepare(image: tp.Any, size: tuple[int, int] | None = (224, 224)) -> tp.Any:
    """Convert an image to the input array of the ResNet models.

    Args:
        image: A PIL image or an array (``(H, W)``, ``(H, W, 3)`` RGB, ``(3, H, W)``).
        size: ``(width, height)`` to resize to; ``None`` keeps the image's size.

    Returns:
        numpy.ndarray: ``(3, H, W)``, BGR, minus the mean ``(103.063, 115.903, 123.152)``.
    """
    return prepare_image(image, size, (103.063, 115.903, 123.152))
