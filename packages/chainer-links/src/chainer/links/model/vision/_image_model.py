"""What the model-zoo architectures share: running the network up to named layers, feature
extraction and prediction from images, image preparation, and finding pre-trained weights.

There is no download: pre-trained weights are read from a local NPZ file, either given as
``pretrained_model`` or, for ``'auto'``, from the directory where Chainer caches converted
models (``$CHAINER_DATASET_ROOT/pfnet/chainer/models``), where a Caffe release of the model
placed there is converted on first use.
"""

from __future__ import annotations

import importlib.util
import os
import typing as tp
from collections.abc import Sequence

import numpy

import chainer
from chainer import configuration, variable
from chainer._dataset_root import get_dataset_root
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import sum as sum_
from chainer.utils import argument, imgproc

#: Whether Pillow (needed by ``prepare`` and ``predict`` for images) is installed; each
#: architecture module exposes it as ``available``, as in Chainer. Pillow is not imported here.
PILLOW_AVAILABLE = importlib.util.find_spec("PIL") is not None

#: The arguments of Chainer v1 that are now configuration values.
_RETIRED = {
    "test": "test argument is not supported anymore. Use chainer.using_config",
    "volatile": "volatile argument is not supported anymore. Use chainer.using_config",
}


class PretrainedImageModel:
    """Mixin of the model-zoo chains: ``forward(x, layers)``, ``extract`` and ``predict``.

    A subclass defines :attr:`functions` (layer name -> the callables that compute the layer
    from the previous layer's output, in network order), ``_prepare`` (one image -> one
    input array) and ``_default_extract_layer``. ``_branches`` maps a layer to the earlier
    layer its computation starts from (side branches, placed after the main path).

    It comes after :class:`~chainer.Chain` in the bases, so the models are chains first, as
    in Chainer (the chain classes define none of these methods).
    """

    _branches: dict[str, str] = {}
    _default_extract_layer: str

    @property
    def available_layers(self) -> list[str]:
        """The layer names :meth:`forward` can return, in network order."""
        return list(self.functions)

    def forward(self, x: tp.Any, layers: Sequence[str] | None = None, **kwargs: tp.Any) -> dict:
        """Compute the outputs of the named layers.

        Only the layers up to the last requested one are computed.

        Args:
            x: Input images ``(B, 3, H, W)`` (BGR, mean subtracted: see ``prepare``).
            layers: Names of the layers to return (see :attr:`available_layers`); ``None``
                means ``['prob']``.

        Returns:
            dict: Layer name -> output :class:`~chainer.Variable`.

        Raises:
            ValueError: A name in ``layers`` is not a layer of this model.
        """
        argument.check_unexpected_kwargs(kwargs, test=_RETIRED["test"])
        argument.assert_kwargs_empty(kwargs)
        functions = self.functions
        remaining = {"prob"} if layers is None else set(layers)
        unknown = sorted(remaining - set(functions))
        if unknown:
            raise ValueError(
                f"{type(self).__name__} has no layer named {', '.join(map(repr, unknown))}; "
                f"available layers: {list(functions)}"
            )
        sources = set(self._branches.values())
        outputs: dict = {}
        saved: dict = {}
        h = x
        for name, funcs in functions.items():
            if not remaining:
                break
            if name in self._branches:
                h = saved[self._branches[name]]
            for func in funcs:
                h = func(h)
            if name in remaining:
                outputs[name] = h
                remaining.discard(name)
            if name in sources:
                saved[name] = h
        return outputs

    def extract(
        self,
        images: Sequence[tp.Any],
        layers: Sequence[str] | None = None,
        size: tuple[int, int] | None = (224, 224),
        **kwargs: tp.Any,
    ) -> dict:
        """Compute the named layers' outputs for images (``prepare`` then :meth:`forward`).

        The configuration is left as it is: wrap the call in
        ``chainer.using_config('train', False)`` (and ``no_backprop_mode()``) to extract
        features without dropout and without a graph.

        Args:
            images: PIL images or arrays (``(H, W)``, ``(H, W, 3)`` RGB, or ``(3, H, W)``).
            layers: Layer names; ``None`` means this model's usual feature layer.
            size: The size images are resized to (``None`` keeps them as they are).

        Returns:
            dict: Layer name -> output :class:`~chainer.Variable`.
        """
        argument.check_unexpected_kwargs(kwargs, **_RETIRED)
        argument.assert_kwargs_empty(kwargs)
        if layers is None:
            layers = [self._default_extract_layer]
        x = numpy.stack([self._prepare(image, size=size) for image in images])
        return self(variable.Variable(self.device.send(x)), layers=layers)

    def predict(self, images: Sequence[tp.Any], oversample: bool = True) -> variable.Variable:
        """Class probabilities ``(len(images), 1000)`` of images, in test mode, without a graph.

        Images are resized to 256x256; with ``oversample`` the prediction averages ten
        224x224 crops (corners, center and their mirrors), otherwise it uses the center crop.
        """
        x = numpy.stack([self._prepare(image, size=(256, 256)) for image in images])
        if oversample:
            x = imgproc.oversample(x, crop_dims=(224, 224))
        else:
            x = x[:, :, 16:240, 16:240]
        with chainer.no_backprop_mode(), configuration.using_config("train", False):
            y = self(variable.Variable(self.device.send(x)), layers=["prob"])["prob"]
            if oversample:
                y = sum_(reshape(y, (len(images), 10) + y.shape[1:]), axis=1) / 10
        return y


def prepare_image(image: tp.Any, size: tuple[int, int] | None, mean_bgr: Sequence[float]):
    """An image as a network input: ``(3, H, W)``, BGR, ``mean_bgr`` subtracted.

    Args:
        image: A PIL image, or an array: ``(H, W)`` gray, ``(H, W, 3)`` RGB, ``(1, H, W)`` or
            ``(3, H, W)`` (values 0-255).
        size: ``(width, height)`` to resize to (as PIL's ``resize``), or ``None``.
        mean_bgr: Per-channel mean, in BGR order.

    Returns:
        numpy.ndarray: Array of the default dtype (``chainer.get_dtype()``).

    Raises:
        ImportError: Pillow is not installed.
    """
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError(
            f"preparing images needs Pillow: pip install Pillow (import error: {error})"
        ) from error
    dtype = chainer.get_dtype()
    if isinstance(image, numpy.ndarray):
        if image.ndim == 3 and image.shape[0] == 1:
            image = image[0]
        elif image.ndim == 3 and image.shape[0] == 3:
            image = image.transpose(1, 2, 0)
        image = Image.fromarray(image.astype(numpy.uint8))
    image = image.convert("RGB")
    if size:
        image = image.resize(size)
    array = numpy.asarray(image, dtype=dtype)[:, :, ::-1]  # RGB -> BGR
    array = array - numpy.asarray(mean_bgr, dtype=dtype)
    return array.transpose(2, 0, 1)


def _models_directory() -> str:
    """Where Chainer keeps converted pre-trained models (under the dataset root)."""
    return os.path.join(get_dataset_root(), "pfnet", "chainer", "models")


def weights_path(
    model_name: str,
    pretrained_model: tp.Any,
    npz_name: str,
    caffemodel_name: str,
    convert: tp.Callable[[str, str], None],
) -> str | None:
    """The NPZ file to load pre-trained weights from, or ``None`` for random weights.

    Args:
        model_name: The class name, for error messages.
        pretrained_model: ``'auto'`` (the cached NPZ ``npz_name``), a path to an NPZ file,
            or a false value (no pre-trained weights).
        npz_name: The file name of the converted model in Chainer's model cache.
        caffemodel_name: The file name of the Caffe release of the model; for ``'auto'``
            without the NPZ file, a file of this name in the model cache is converted into it
            with ``convert(path_caffemodel, path_npz)``, as Chainer v7 did.
        convert: The model's ``convert_caffemodel_to_npz``.

    Raises:
        OSError: ``'auto'`` and neither the NPZ file nor the Caffe model in the cache.
        ValueError: A ``.caffemodel`` path (convert it to NPZ first).
    """
    if not pretrained_model:
        return None
    if pretrained_model == "auto":
        directory = _models_directory()
        path = os.path.join(directory, npz_name)
        if not os.path.exists(path):
            path_caffemodel = os.path.join(directory, caffemodel_name)
            if not os.path.exists(path_caffemodel):
                raise OSError(
                    f"{model_name}(pretrained_model='auto') needs the pre-trained weights in "
                    f"{path}, or the Caffe model {caffemodel_name} in {directory} to convert "
                    "them from; neither exists, and they cannot be downloaded here. Place "
                    "either file there, pass an NPZ path as pretrained_model, or use "
                    "pretrained_model=None for random weights."
                )
            convert(path_caffemodel, path)
        return path
    path = os.fspath(pretrained_model)
    if path.endswith(".caffemodel"):
        raise ValueError(
            f"{model_name}(pretrained_model={path!r}) loads NPZ files: convert the Caffe model "
            f"first with {model_name}.convert_caffemodel_to_npz({path!r}, 'model.npz') and "
            "pass the .npz path"
        )
    return path
