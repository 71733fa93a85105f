"""CaffeFunction on damaged or inconsistent models: the cases the fuzzing harness found
(test_fuzz_caffe.py), each a ValueError naming the layer, before anything is allocated."""

import tracemalloc

import numpy
import pytest

pytest.importorskip("google.protobuf", reason="Caffe support needs the protobuf package")

from chainer.links.caffe import CaffeFunction

from ._caffe_nets import blob, layer, save, v1_layer


def _conv(weight_shape, **param):
    weight = blob(numpy.zeros(weight_shape))
    return layer("c", "Convolution", ["x"], ["y"], [weight], convolution_param=param)


def _scale_with_shape(dims):
    scale = layer("s", "Scale", ["x"], ["y"], [blob(numpy.ones(2))])
    scale.blobs[0].shape.dim[:] = dims
    return scale


_NO_BIAS = {"kernel_size": [1], "bias_term": False}


@pytest.mark.parametrize(
    ("bad_layer", "message"),
    [
        (_conv((2,), **_NO_BIAS), r"'c': a convolution weight blob needs at least 2 dim.*\[2\]"),
        (_conv((0, 1, 1, 1), **_NO_BIAS), r"'c': a convolution weight blob .* states 0 filters"),
        (_conv((2, 1, 1, 1), **_NO_BIAS, group=0), r"'c': group must be at least 1.*gives 0"),
        (_conv((2, 1, 1, 1), **_NO_BIAS, stride=[0]), r"'c': stride must be at least 1"),
        (_conv((2, 1, 1, 1), **_NO_BIAS, dilation=[0]), r"'c': dilation must be at least 1"),
        (_conv((2, 1, 1, 1), kernel_size=[0], bias_term=False), r"kernel size must be at least"),
        (layer("n", "LRN", lrn_param={"local_size": 0}), r"'n': local_size must be at least 1"),
        (layer("p", "Pooling", pooling_param={"kernel_size": 2, "stride": 0}), "'p': stride"),
        (layer("p", "Pooling", pooling_param={"kernel_size": 0}), "'p': the kernel size"),
        (layer("sp", "Split", [], ["a", "b"]), r"Split layer 'sp' has 0 bottoms, expected 1"),
        (layer("bn", "BatchNorm", blobs=[[0.0], [1.0], []]), r"'bn': a blob holds 0 values .* 1"),
        (_scale_with_shape([2**20, 2**20]), r"'s': a blob of shape \[1048576, 1048576\] holds 2"),
        (_scale_with_shape([-2, -1]), r"'s': a blob of shape \[-2, -1\] holds 2 values"),
    ],
)  # fmt: skip
def test_inconsistent_layers_raise_value_error(tmp_path, bad_layer, message):
    path = save(tmp_path / "m.caffemodel", bad_layer)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=message):
            CaffeFunction(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20


def test_an_inner_product_weight_of_the_wrong_size(tmp_path):
    fc = layer("f", "InnerProduct", ["x"], ["y"], [numpy.zeros((2, 3))])
    fc.inner_product_param.bias_term = False
    fc.blobs[0].data.append(1.0)  # 7 values for a 2x3 weight (v7 would fail to assign them)
    with pytest.raises(ValueError, match=r"'f': a blob holds 7 values where its shape needs 6"):
        CaffeFunction(save(tmp_path / "m.caffemodel", fc))


def test_two_layers_with_parameters_of_one_name(tmp_path):
    fc = layer("fc", "InnerProduct", ["x"], ["y"], [numpy.zeros((1, 1)), [0]])
    path = save(tmp_path / "m.caffemodel", fc, fc)
    with pytest.raises(ValueError, match="two Caffe layers with parameters are named 'fc'"):
        CaffeFunction(path)


@pytest.mark.parametrize("make_layer", [layer, v1_layer])
def test_a_name_that_is_not_utf8(tmp_path, make_layer):
    relu = make_layer("r\x01\x01", "ReLU" if make_layer is layer else "RELU", ["x"], ["y"])
    path = save(tmp_path / "m.caffemodel", relu)
    with open(path, "rb") as f:
        content = f.read()
    with open(path, "wb") as f:
        f.write(content.replace(b"r\x01\x01", b"r\xff\xfe"))
    with pytest.raises(ValueError, match=r"a layer or blob name is not valid UTF-8 text: b'r"):
        CaffeFunction(path)
