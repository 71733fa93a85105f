"""One converter per exportable function node: it writes the node as Caffe layers.

``CONVERTERS`` maps the node's class name to its converter; the exporter looks nodes up there
and refuses any other node with the name of what it met and the list of what it converts.
"""

from __future__ import annotations

import typing as tp

import numpy

from chainer.links.caffe.protobuf3 import caffe_pb2 as caffe_pb

if tp.TYPE_CHECKING:
    from chainer.exporters.caffe import CaffeGraph

Converter = tp.Callable[["CaffeGraph", tp.Any], None]

#: Function node class name -> converter writing it as Caffe layers.
CONVERTERS: dict[str, Converter] = {}


def _converts(*class_names: str) -> tp.Callable[[Converter], Converter]:
    def register(converter: Converter) -> Converter:
        for name in class_names:
            CONVERTERS[name] = converter
        return converter

    return register


@_converts("LinearFunction")
def _inner_product(graph: CaffeGraph, node: tp.Any) -> None:
    layer = graph.add_layer(node, "InnerProduct", data_inputs=1)
    W = graph.array(node.inputs[1])
    has_bias = len(node.inputs) == 3
    layer.inner_product_param.num_output = W.shape[0]
    layer.inner_product_param.bias_term = has_bias
    graph.add_blob(layer, W)
    if has_bias:
        graph.add_blob(layer, graph.array(node.inputs[2]))


@_converts("Convolution2DFunction", "Deconvolution2DFunction")
def _convolution(graph: CaffeGraph, node: tp.Any) -> None:
    transposed = type(node).__name__ == "Deconvolution2DFunction"
    what = f"{node.label} (ranked {node.rank})"
    if getattr(node, "cover_all", False):
        raise NotImplementedError(f"{what} uses cover_all=True, which Caffe cannot express")
    W = graph.array(node.inputs[1])
    kh, kw = W.shape[2:]
    if transposed and node.outh is not None:
        h, w = node.inputs[0].shape[2:]
        natural = (
            node.sy * (h - 1) + kh - 2 * node.ph,
            node.sx * (w - 1) + kw - 2 * node.pw,
        )
        if (node.outh, node.outw) != natural:
            raise NotImplementedError(
                f"{what} has outsize {(node.outh, node.outw)}; Caffe's deconvolution always "
                f"gives {natural} here"
            )
    layer = graph.add_layer(node, "Deconvolution" if transposed else "Convolution", 1)
    param = layer.convolution_param
    # Chainer's (out, in / groups) kernel and its transposed (in, out / groups) form are
    # Caffe's blob layouts of the two layers as they are.
    param.num_output = W.shape[1] * node.groups if transposed else W.shape[0]
    param.bias_term = len(node.inputs) == 3
    param.kernel_h, param.kernel_w = kh, kw
    param.stride_h, param.stride_w = node.sy, node.sx
    param.pad_h, param.pad_w = node.ph, node.pw
    param.group = node.groups
    if (node.dy, node.dx) != (1, 1):
        param.dilation[:] = [node.dy, node.dx]
    graph.add_blob(layer, W)
    if param.bias_term:
        graph.add_blob(layer, graph.array(node.inputs[2]))


@_converts("MaxPoolingND", "AveragePooling2D")
def _pooling(graph: CaffeGraph, node: tp.Any) -> None:
    if len(node.inputs[0].shape) != 4:
        raise NotImplementedError(f"{node.label}: Caffe pools 2-D images (4-D input) only")
    layer = graph.add_layer(node, "Pooling", data_inputs=1)
    param = layer.pooling_param
    is_max = type(node).__name__ != "AveragePooling2D"
    param.pool = param.MAX if is_max else param.AVE
    param.kernel_h, param.kernel_w = node.ksize
    param.stride_h, param.stride_w = node.stride
    param.pad_h, param.pad_w = node.pad
    # Caffe rounds the output size up by default, as max pooling's cover_all=True does;
    # average pooling (and cover_all=False) round down.
    if not (is_max and node.cover_all):
        param.round_mode = param.FLOOR


@_converts("LocalResponseNormalization")
def _lrn(graph: CaffeGraph, node: tp.Any) -> None:
    layer = graph.add_layer(node, "LRN", data_inputs=1)
    local_size = 2 * node.half + 1  # the window Chainer sums over
    param = layer.lrn_param
    param.norm_region = param.ACROSS_CHANNELS
    param.local_size = local_size
    param.k = node.k
    param.alpha = node.alpha * local_size  # Caffe divides alpha by the window size
    param.beta = node.beta


@_converts("FixedBatchNormalization")
def _batch_normalization(graph: CaffeGraph, node: tp.Any) -> None:
    """Caffe splits it: BatchNorm (mean, variance) then Scale (gamma, beta)."""
    if len(node.inputs[0].shape) not in (2, 4) or node.axes not in ((0,), (0, 2, 3)):
        raise NotImplementedError(
            f"{node.label}: Caffe normalizes per channel of (N, C) or (N, C, H, W) inputs "
            f"only, got input shape {node.inputs[0].shape} with axes {node.axes}"
        )
    gamma, beta, mean, var = (graph.array(v) for v in node.inputs[1:])
    name = graph.layer_name(node)
    norm = graph.add_layer(node, "BatchNorm", data_inputs=1, name=f"{name}_bn")
    norm.batch_norm_param.use_global_stats = True
    norm.batch_norm_param.eps = node.eps
    graph.add_blob(norm, mean)
    graph.add_blob(norm, var)
    graph.add_blob(norm, numpy.ones(1, numpy.float32))  # the statistics' weight
    affine = graph.add_layer(node, "Scale", data_inputs=0, bottoms=[norm.name])
    affine.scale_param.axis = 1
    affine.scale_param.bias_term = True
    graph.add_blob(affine, gamma)
    graph.add_blob(affine, beta)


@_converts("ReLU")
def _relu(graph: CaffeGraph, node: tp.Any) -> None:
    graph.add_layer(node, "ReLU", data_inputs=1)


@_converts("LeakyReLU")
def _leaky_relu(graph: CaffeGraph, node: tp.Any) -> None:
    layer = graph.add_layer(node, "ReLU", data_inputs=1)
    layer.relu_param.negative_slope = node.slope


@_converts("Sigmoid")
def _sigmoid(graph: CaffeGraph, node: tp.Any) -> None:
    graph.add_layer(node, "Sigmoid", data_inputs=1)


@_converts("Tanh")
def _tanh(graph: CaffeGraph, node: tp.Any) -> None:
    graph.add_layer(node, "TanH", data_inputs=1)


@_converts("Softmax")
def _softmax(graph: CaffeGraph, node: tp.Any) -> None:
    if node.axis != 1:
        raise NotImplementedError(
            f"{node.label}: Caffe's Softmax runs along axis 1, got {node.axis}"
        )
    graph.add_layer(node, "Softmax", data_inputs=1)


@_converts("Concat")
def _concat(graph: CaffeGraph, node: tp.Any) -> None:
    layer = graph.add_layer(node, "Concat", data_inputs=None)
    layer.concat_param.axis = node.axis


@_converts("Reshape")
def _reshape(graph: CaffeGraph, node: tp.Any) -> None:
    layer = graph.add_layer(node, "Reshape", data_inputs=1)
    layer.reshape_param.shape.dim[:] = list(node.shape)


@_converts("Add")
def _add(graph: CaffeGraph, node: tp.Any) -> None:
    shapes = {tuple(v.shape) for v in node.inputs}
    if len(shapes) != 1:
        raise NotImplementedError(
            f"{node.label}: Caffe's Eltwise adds inputs of one shape, got {sorted(shapes)}"
        )
    layer = graph.add_layer(node, "Eltwise", data_inputs=None)
    layer.eltwise_param.operation = caffe_pb.EltwiseParameter.SUM
