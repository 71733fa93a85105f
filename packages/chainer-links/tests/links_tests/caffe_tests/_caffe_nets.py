"""Small hand-built Caffe models (``.caffemodel`` files) for the tests, written with our
``caffe_pb2``."""

import numpy

from chainer.links.caffe.protobuf3 import caffe_pb2


def blob(array, legacy_shape=False):
    """A ``BlobProto`` holding ``array``; ``legacy_shape`` writes num/channels/height/width."""
    array = numpy.asarray(array, dtype=numpy.float32)
    message = caffe_pb2.BlobProto()
    if legacy_shape:
        dims = (1,) * (4 - array.ndim) + array.shape
        message.num, message.channels, message.height, message.width = dims
    else:
        message.shape.dim[:] = array.shape
    message.data[:] = array.ravel()
    return message


def _fill(message, blobs, params):
    for b in blobs:
        message.blobs.append(b if isinstance(b, caffe_pb2.BlobProto) else blob(b))
    for field, values in params.items():
        part = getattr(message, field)
        part.CopyFrom(type(part)(**values))
    return message


def layer(name, layer_type, bottom=(), top=(), blobs=(), **params):
    """A ``LayerParameter``; ``params`` are its ``*_param`` messages given as dicts."""
    message = caffe_pb2.LayerParameter(
        name=name, type=layer_type, bottom=list(bottom), top=list(top)
    )
    return _fill(message, blobs, params)


def v1_layer(name, layer_type, bottom=(), top=(), blobs=(), **params):
    """A legacy ``V1LayerParameter``; ``layer_type`` is the enum name (``'CONVOLUTION'``)."""
    message = caffe_pb2.V1LayerParameter(
        name=name,
        type=caffe_pb2.V1LayerParameter.LayerType.Value(layer_type),
        bottom=list(bottom),
        top=list(top),
    )
    return _fill(message, blobs, params)


def save(path, *layers):
    """Write the layers (all new-format or all V1) as a ``.caffemodel`` at ``path``."""
    net = caffe_pb2.NetParameter(name="test")
    if layers and isinstance(layers[0], caffe_pb2.V1LayerParameter):
        net.layers.extend(layers)
    else:
        net.layer.extend(layers)
    path.write_bytes(net.SerializeToString())
    return str(path)
