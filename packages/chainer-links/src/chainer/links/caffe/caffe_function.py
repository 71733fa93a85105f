"""``CaffeFunction``: a Caffe model (``.caffemodel``) run as a Chainer link."""

from __future__ import annotations

import collections.abc
import os
import typing as tp
import warnings

import numpy

import chainer
from chainer import link
from chainer.links.caffe import _layer_calls as calls
from chainer.links.caffe import _params as params
from chainer.links.caffe.protobuf3 import caffe_pb2 as caffe_pb
from chainer.links.connection import convolution_2d, deconvolution_2d, linear, scale
from chainer.links.normalization import batch_normalization
from chainer.utils import argument

#: Layer type (``LayerParameter.type``) -> setup method; legacy V1 enum value -> setup method.
_SETUPS: dict[str, tp.Callable] = {}
_V1_SETUPS: dict[int, tp.Callable] = {}


def _layer(type_name: str, v1_name: str | None) -> tp.Callable:
    def register(setup: tp.Callable) -> tp.Callable:
        _SETUPS[type_name] = setup
        if v1_name is not None:
            _V1_SETUPS[caffe_pb.V1LayerParameter.LayerType.Value(v1_name)] = setup
        return setup

    return register


class CaffeFunction(link.Chain):
    """Caffe emulator based on the model file of Caffe.

    Reads a binary Caffe model (``.caffemodel``: a serialized ``caffe.NetParameter``, new or
    legacy V1 layer format) and runs its layers on :class:`~chainer.Variable` objects.
    Layers with parameters become child links named after the Caffe layer
    (``func.conv1`` is an :class:`~chainer.links.Convolution2D`), so the model can be
    fine-tuned, saved with :mod:`chainer.serializers` or moved to a device like any chain.

    Supported layer types: Convolution, Deconvolution, InnerProduct, Pooling (MAX, AVE),
    LRN (across channels), ReLU (leaky with ``negative_slope``), Sigmoid, TanH, Softmax,
    SoftmaxWithLoss, Dropout, BatchNorm, Scale, Eltwise, Concat, Slice, Split, Reshape.
    Data and Input layers are skipped silently. A layer of any other type is skipped with a
    warning; a layer that has no top blob or whose bottoms are not all available when the
    network runs is skipped too. Parameter values Chainer cannot emulate (stochastic pooling,
    within-channel LRN, softmax along another axis than 1, ...) raise :class:`RuntimeError`
    when the model is read.

    Needs the ``protobuf`` package (``pip install 'chainer-links[caffe]'``).

    Args:
        model_path: Path to the binary-proto model file of Caffe.

    Attributes:
        forwards (dict): Layer name -> the callable that runs the layer.
        layers (list): ``(layer name, bottom blob names, top blob names)`` in model order.
        split_map (dict): Top blob of a Split layer -> the blob it copies.
        variables (dict): Blob name -> :class:`~chainer.Variable` of the last call.

    Example:
        The trained model is a download (BVLC's CaffeNet), so the doctests skip it.

        >>> func = CaffeFunction('bvlc_reference_caffenet.caffemodel')  # doctest: +SKIP
        >>> x = numpy.zeros((10, 3, 227, 227), numpy.float32)
        >>> y, = func(inputs={'data': x}, outputs=['fc8'])  # doctest: +SKIP
    """

    def __init__(self, model_path: str | os.PathLike) -> None:
        super().__init__()
        net = _read_net(model_path)
        self.forwards: dict[str, tp.Callable] = {}
        self.split_map: dict[str, str] = {}
        self.layers: list[tuple[str, list[str], list[str]]] = []
        if net.layer:
            for layer in net.layer:
                self._setup_layer(_SETUPS.get(layer.type), layer, layer.type)
        else:
            for layer in net.layers:
                type_name = caffe_pb.V1LayerParameter.LayerType.Name(layer.type)
                self._setup_layer(_V1_SETUPS.get(layer.type), layer, type_name)

    def forward(
        self,
        inputs: collections.abc.Mapping,
        outputs: collections.abc.Iterable[str],
        disable: collections.abc.Iterable[str] = (),
        **kwargs: tp.Any,
    ) -> tuple:
        """forward(self, inputs, outputs, disable=())

        Runs the part of the network that computes ``outputs`` from ``inputs``.

        Each layer runs, in model order, once all its bottom blobs are known; its results
        become the values of its top blobs. The graph is recorded as usual, so gradients
        flow back through the network.

        Args:
            inputs: Blob name -> :class:`~chainer.Variable` or array to start from (arrays
                are wrapped in variables that need no gradient).
            outputs: Names of the blobs to return.
            disable: Names of layers to skip.

        Returns:
            tuple: The :class:`~chainer.Variable` of each name in ``outputs``.

        Raises:
            KeyError: A requested output blob was not computed.
        """
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, train="train argument is not supported anymore. Use chainer.using_config"
            )
            argument.assert_kwargs_empty(kwargs)
        variables = {name: chainer.as_variable(value) for name, value in inputs.items()}
        disabled = set(disable)
        for name, bottom, top in self.layers:
            if not top or name in disabled or any(blob not in variables for blob in bottom):
                continue
            results = self.forwards[name](*(variables[blob] for blob in bottom))
            if not isinstance(results, (tuple, list)):
                results = (results,)
            variables.update(zip(top, results))
        self.variables = variables
        missing = [blob for blob in outputs if blob not in variables]
        if missing:
            raise KeyError(
                f"blobs {missing} were not computed from the inputs {sorted(inputs)}; computed "
                f"blobs: {sorted(variables)}"
            )
        return tuple(variables[blob] for blob in outputs)

    def _setup_layer(self, setup: tp.Callable | None, layer: tp.Any, type_name: str) -> None:
        params.check_text(layer)
        if setup is None:
            warnings.warn(
                f"Skip the layer {layer.name!r}, since CaffeFunction does not support "
                f"{type_name} layer",
                stacklevel=3,
            )
            return
        setup(self, layer)

    def _add_layer(self, layer: tp.Any, forward: tp.Callable) -> None:
        self.forwards[layer.name] = forward
        bottom = [self.split_map.get(blob, blob) for blob in layer.bottom]
        self.layers.append((layer.name, bottom, list(layer.top)))

    def _add_child(self, layer: tp.Any, child: link.Link, **call_options: tp.Any) -> None:
        name = layer.name
        if name in self._children:
            raise ValueError(
                f"two Caffe layers with parameters are named {name!r}: the model file is "
                "damaged or inconsistent"
            )
        if hasattr(self, name):
            raise ValueError(
                f"the Caffe layer {name!r} cannot become a child link: CaffeFunction has an "
                "attribute of that name"
            )
        with self.init_scope():
            setattr(self, name, child)
        self._add_layer(layer, calls.ChildLinkCall(self, name, **call_options))

    @_layer("Data", "DATA")
    def _setup_data(self, layer: tp.Any) -> None:
        """Data layers read Caffe's databases: the caller gives their blobs as inputs."""

    @_layer("Input", None)
    def _setup_input(self, layer: tp.Any) -> None:
        """Input layers only declare input blobs, which the caller gives."""

    @_layer("Convolution", "CONVOLUTION")
    def _setup_convolution(self, layer: tp.Any) -> None:
        self._setup_convolution_like(layer, convolution_2d.Convolution2D, transposed=False)

    @_layer("Deconvolution", "DECONVOLUTION")
    def _setup_deconvolution(self, layer: tp.Any) -> None:
        self._setup_convolution_like(layer, deconvolution_2d.Deconvolution2D, transposed=True)

    def _setup_convolution_like(self, layer: tp.Any, link_class: type, transposed: bool) -> None:
        param = layer.convolution_param
        if param.axis != 1:
            raise RuntimeError(
                f"layer {layer.name!r}: convolution over axis {param.axis} is not supported "
                "(only the channel axis 1)"
            )
        weight = params.require_blobs(layer, 1 + int(param.bias_term))[0]
        num, channels = params.num_and_channels(weight, layer.name)
        ksize = params.pair_param(param, "kernel", layer.name, default=None)
        if ksize is None:
            raise RuntimeError(f"layer {layer.name!r} gives no kernel size")
        group = param.group
        stride = params.pair_param(param, "stride", layer.name, default=1)
        pad = params.pair_param(param, "pad", layer.name, default=0)
        dilate = params.repeated_value(param.dilation, "dilation", layer.name, default=1)
        for field, value, minimum in [
            ("the kernel size", ksize, 1),
            ("group", group, 1),
            ("stride", stride, 1),
            ("dilation", dilate, 1),
        ]:
            params.check_at_least(layer.name, field, value, minimum)
        # Grouped weights become one block-diagonal kernel, as in Chainer v7.
        in_channels, out_channels = (
            (num, channels * group) if transposed else (channels * group, num)
        )
        shape = (num, channels * group) + params.as_pair(ksize)
        W = params.block_diagonal(params.blob_values(weight, layer.name), shape, group, layer.name)
        bias = None
        if param.bias_term:
            bias = params.blob_values(layer.blobs[1], layer.name, out_channels)
        child = link_class(
            in_channels,
            out_channels,
            ksize,
            stride,
            pad,
            nobias=not param.bias_term,
            initialW=W,
            initial_bias=bias,
            dilate=dilate,
        )
        self._add_child(layer, child)

    @_layer("InnerProduct", "INNER_PRODUCT")
    def _setup_inner_product(self, layer: tp.Any) -> None:
        param = layer.inner_product_param
        if param.axis != 1:
            raise RuntimeError(
                f"layer {layer.name!r}: InnerProduct with a non-default axis ({param.axis}) is "
                "not supported (only 1)"
            )
        weight = params.require_blobs(layer, 1)[0]
        dims = params.blob_dims(weight)
        if weight.height > 0 or weight.width > 0:
            rows, columns = weight.height, weight.width
        elif len(dims) in (2, 4):
            rows, columns = dims[-2:]
        else:
            raise RuntimeError(
                f"layer {layer.name!r}: a {len(dims)}-dimensional InnerProduct weight is not "
                "supported (2 or 4 dimensions)"
            )
        params.check_at_least(layer.name, "the weight's shape", (rows, columns), 1)
        W = params.blob_values(weight, layer.name, rows * columns).reshape(rows, columns)
        if param.transpose:
            W = W.T
        out_size, in_size = W.shape
        bias = None
        if param.bias_term:
            bias = params.blob_values(params.require_blobs(layer, 2)[1], layer.name, out_size)
        child = linear.Linear(
            in_size,
            out_size,
            nobias=not param.bias_term,
            initialW=numpy.ascontiguousarray(W),
            initial_bias=bias,
        )
        self._add_child(layer, child)

    @_layer("BatchNorm", None)
    def _setup_batchnorm(self, layer: tp.Any) -> None:
        param = layer.batch_norm_param
        blobs = params.require_blobs(layer, 2)
        mean = params.blob_values(blobs[0], layer.name)
        var = params.blob_values(blobs[1], layer.name, mean.size)
        if len(blobs) >= 3:
            # Caffe keeps the running sums and their weight: statistic = sum / weight.
            factor = params.blob_values(blobs[2], layer.name, 1)[0]
            scale_by = 0.0 if factor == 0 else 1.0 / factor
            mean, var = mean * scale_by, var * scale_by
        child = batch_normalization.BatchNormalization(
            mean.size,
            decay=param.moving_average_fraction,
            eps=param.eps,
            use_gamma=False,
            use_beta=False,
        )
        child.avg_mean[...] = mean
        child.avg_var[...] = var
        self._add_child(layer, child, test_mode=param.use_global_stats, finetune=False)

    @_layer("Scale", None)
    def _setup_scale(self, layer: tp.Any) -> None:
        param = layer.scale_param
        if param.axis < 0:
            raise RuntimeError(
                f"layer {layer.name!r}: Scale with a negative axis ({param.axis}) is not "
                "supported; count the axis from the front"
            )
        if len(layer.bottom) < 2:
            # The scale is a learnt parameter.
            blobs = params.require_blobs(layer, 1 + int(param.bias_term))
            W_shape = params.checked_shape(blobs[0], layer.name)
            child = scale.Scale(param.axis, W_shape, param.bias_term)
            child.W.array[...] = params.blob_values(blobs[0], layer.name, child.W.size).reshape(
                W_shape
            )
            bias_blob = blobs[1] if param.bias_term else None
        else:
            # The scale is the second bottom.
            blobs = params.require_blobs(layer, int(param.bias_term))
            bias_shape = params.checked_shape(blobs[0], layer.name) if param.bias_term else None
            child = scale.Scale(param.axis, bias_term=param.bias_term, bias_shape=bias_shape)
            bias_blob = blobs[0] if param.bias_term else None
        if bias_blob is not None:
            b = child.bias.b
            b.array[...] = params.blob_values(bias_blob, layer.name, b.size).reshape(b.shape)
        self._add_child(layer, child)

    @_layer("Pooling", "POOLING")
    def _setup_pooling(self, layer: tp.Any) -> None:
        param = layer.pooling_param
        methods = {param.MAX: "max_pooling_2d", param.AVE: "average_pooling_2d"}
        if param.pool not in methods:
            raise RuntimeError(
                f"layer {layer.name!r}: only MAX and AVE pooling are supported, got "
                f"{caffe_pb.PoolingParameter.PoolMethod.Name(param.pool)}"
            )
        name = methods[param.pool]
        options: dict[str, tp.Any] = {
            "stride": params.pair_param(param, "stride", layer.name, default=1),
            "pad": params.pair_param(param, "pad", layer.name, default=0),
        }
        # Chainer's average pooling always rounds the output size down (FLOOR); with CEIL,
        # Caffe's default, sizes differ where the windows do not tile the input (as in v7).
        if param.round_mode == param.FLOOR and param.pool == param.MAX:
            options["cover_all"] = False
        ksize = params.pair_param(param, "kernel", layer.name, default=0)
        params.check_at_least(layer.name, "stride", options["stride"], 1)
        if not param.global_pooling or ksize:
            params.check_at_least(layer.name, "the kernel size", ksize, 1)
        if param.global_pooling and not ksize:
            self._add_layer(layer, calls.GlobalPooling(name, **options))
        else:
            self._add_layer(layer, calls.FunctionCall(name, ksize, **options))

    @_layer("LRN", "LRN")
    def _setup_lrn(self, layer: tp.Any) -> None:
        param = layer.lrn_param
        if param.norm_region != param.ACROSS_CHANNELS:
            raise RuntimeError(
                f"layer {layer.name!r}: within-channel LRN is not supported (only ACROSS_CHANNELS)"
            )
        params.check_at_least(layer.name, "local_size", param.local_size, 1)
        forward = calls.FunctionCall(
            "local_response_normalization",
            n=param.local_size,
            k=param.k,
            alpha=param.alpha / param.local_size,  # Caffe divides alpha by the window size
            beta=param.beta,
        )
        self._add_layer(layer, forward)

    @_layer("ReLU", "RELU")
    def _setup_relu(self, layer: tp.Any) -> None:
        slope = layer.relu_param.negative_slope
        if slope != 0:
            self._add_layer(layer, calls.FunctionCall("leaky_relu", slope=slope))
        else:
            self._add_layer(layer, calls.FunctionCall("relu"))

    @_layer("Sigmoid", "SIGMOID")
    def _setup_sigmoid(self, layer: tp.Any) -> None:
        self._add_layer(layer, _with_engine("sigmoid", layer.sigmoid_param.engine))

    @_layer("TanH", "TANH")
    def _setup_tanh(self, layer: tp.Any) -> None:
        self._add_layer(layer, _with_engine("tanh", layer.tanh_param.engine))

    @_layer("Softmax", "SOFTMAX")
    def _setup_softmax(self, layer: tp.Any) -> None:
        _check_softmax_axis(layer)
        self._add_layer(layer, _with_engine("softmax", layer.softmax_param.engine))

    @_layer("SoftmaxWithLoss", "SOFTMAX_LOSS")
    def _setup_softmax_with_loss(self, layer: tp.Any) -> None:
        _check_softmax_axis(layer)
        options = {}
        if layer.loss_param.HasField("ignore_label"):
            options["ignore_label"] = layer.loss_param.ignore_label
        self._add_layer(layer, calls.FunctionCall("softmax_cross_entropy", **options))

    @_layer("Dropout", "DROPOUT")
    def _setup_dropout(self, layer: tp.Any) -> None:
        ratio = layer.dropout_param.dropout_ratio
        self._add_layer(layer, calls.FunctionCall("dropout", ratio=ratio))

    @_layer("Eltwise", "ELTWISE")
    def _setup_eltwise(self, layer: tp.Any) -> None:
        param = layer.eltwise_param
        coeffs = list(param.coeff) or None
        self._add_layer(layer, calls.EltwiseCall(param.operation, coeffs, layer.name))

    @_layer("Concat", "CONCAT")
    def _setup_concat(self, layer: tp.Any) -> None:
        param = layer.concat_param
        axis = param.axis
        if not param.HasField("axis") and param.HasField("concat_dim"):
            axis = param.concat_dim
        self._add_layer(layer, calls.FunctionCall("concat", pack_inputs=True, axis=axis))

    @_layer("Slice", "SLICE")
    def _setup_slice(self, layer: tp.Any) -> None:
        param = layer.slice_param
        if param.HasField("axis"):
            axis = param.axis
        elif param.HasField("slice_dim"):
            axis = param.slice_dim
        else:
            axis = 1
        sections = list(param.slice_point) or len(layer.top)
        forward = calls.FunctionCall("split_axis", indices_or_sections=sections, axis=axis)
        self._add_layer(layer, forward)

    @_layer("Split", "SPLIT")
    def _setup_split(self, layer: tp.Any) -> None:
        if len(layer.bottom) != 1:
            raise ValueError(
                f"Split layer {layer.name!r} has {len(layer.bottom)} bottoms, expected 1; the "
                "model file is damaged or inconsistent"
            )
        for top in layer.top:
            self.split_map[top] = layer.bottom[0]

    @_layer("Reshape", None)
    def _setup_reshape(self, layer: tp.Any) -> None:
        param = layer.reshape_param
        dims = list(param.shape.dim)
        if param.axis == 0 and param.num_axes == -1 and 0 not in dims:
            self._add_layer(layer, calls.FunctionCall("reshape", shape=dims))
        else:
            self._add_layer(layer, calls.CaffeReshape(dims, param.axis, param.num_axes))


def _read_net(model_path: str | os.PathLike) -> tp.Any:
    with open(model_path, "rb") as model_file:
        content = model_file.read()
    net = caffe_pb.NetParameter()
    try:
        net.MergeFromString(content)
    except Exception as error:  # protobuf's DecodeError, or a RuntimeError from upb
        raise ValueError(
            f"{os.fspath(model_path)!r} is not a binary Caffe model (a serialized "
            f"caffe.NetParameter, usually named *.caffemodel): {error}. A .prototxt text "
            "file holds no weights and cannot be read."
        ) from error
    if not net.layer and not net.layers:
        raise ValueError(f"{os.fspath(model_path)!r} holds no layers: it is not a Caffe model")
    return net


def _with_engine(name: str, engine: int) -> calls.FunctionCall:
    # Caffe's engine: DEFAULT (0) leaves chainer.config.use_cudnn alone, CAFFE (1) avoids
    # cuDNN, CUDNN (2) asks for it.
    use_cudnn = {1: "never", 2: "always"}.get(engine)
    return calls.FunctionCall(name, use_cudnn=use_cudnn)


def _check_softmax_axis(layer: tp.Any) -> None:
    if layer.softmax_param.axis != 1:
        raise RuntimeError(
            f"layer {layer.name!r}: softmax along axis {layer.softmax_param.axis} is not "
            "supported (only the channel axis 1)"
        )
