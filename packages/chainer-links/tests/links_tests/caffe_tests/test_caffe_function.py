"""CaffeFunction: running sub-networks, legacy V1 models, gradients, saving, bad input."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import serializers, testing

pytest.importorskip("google.protobuf", reason="Caffe support needs the protobuf package")

from chainer.links.caffe import CaffeFunction

from ._caffe_nets import blob, layer, save, v1_layer


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


_KERNEL_3 = {"kernel_size": [3]}


def _small_convnet(tmp_path):
    """conv (2 -> 3 channels, 3x3) -> relu -> max pool 2x2 -> fc (12 -> 4) -> softmax."""
    W, b, W2, b2 = _uniform(3, 2, 3, 3), _uniform(3), _uniform(4, 12), _uniform(4)
    pool = {"kernel_size": 2, "stride": 2}
    layers = [
        layer("conv1", "Convolution", ["data"], ["conv1"], [W, b], convolution_param=_KERNEL_3),
        layer("relu1", "ReLU", ["conv1"], ["conv1"]),
        layer("pool1", "Pooling", ["conv1"], ["pool1"], pooling_param=pool),
        layer("fc2", "InnerProduct", ["pool1"], ["fc2"], [W2, b2]),
        layer("prob", "Softmax", ["fc2"], ["prob"]),
    ]
    return save(tmp_path / "convnet.caffemodel", *layers), (W, b, W2, b2)


def _convnet_reference(x, W, b, W2, b2):
    windows = numpy.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(2, 3))
    h = numpy.maximum(numpy.einsum("nchwij,ocij->nohw", windows, W) + b[:, None, None], 0)
    h = h.reshape(len(x), 3, 2, 2, 2, 2).max(axis=(3, 5))
    logits = h.reshape(len(x), -1) @ W2.T + b2
    return numpy.exp(logits) / numpy.exp(logits).sum(axis=1, keepdims=True)


def test_a_small_convnet_matches_numpy_and_names_children_after_layers(tmp_path):
    path, params = _small_convnet(tmp_path)
    func = CaffeFunction(path)
    assert sorted(name for name, _ in func.namedlinks(skipself=True)) == ["/conv1", "/fc2"]
    assert [name for name, _, _ in func.layers] == ["conv1", "relu1", "pool1", "fc2", "prob"]
    x = _uniform(2, 2, 6, 6)
    with chainer.using_config("train", False):
        prob, fc2 = func(inputs={"data": x}, outputs=["prob", "fc2"])
    testing.assert_allclose(prob.array, _convnet_reference(x, *params), atol=1e-5)
    assert func.variables["fc2"] is fc2


def test_disabled_layers_and_intermediate_inputs(tmp_path):
    path, (W, b, W2, b2) = _small_convnet(tmp_path)
    func = CaffeFunction(path)
    pool1 = _uniform(2, 3, 2, 2)
    (fc2,) = func(inputs={"pool1": pool1}, outputs=["fc2"])
    testing.assert_allclose(fc2.array, pool1.reshape(2, -1) @ W2.T + b2, atol=1e-5)
    with pytest.raises(KeyError, match=r"\['prob'\] were not computed"):
        func(inputs={"pool1": pool1}, outputs=["prob"], disable=["fc2"])


def test_layers_without_top_blobs_do_not_run(tmp_path):
    layers = [layer("check", "SoftmaxWithLoss", ["x", "t"]), layer("r", "ReLU", ["x"], ["y"])]
    func = CaffeFunction(save(tmp_path / "m.caffemodel", *layers))
    # The loss would fail on these labels if it ran.
    (y,) = func(inputs={"x": _uniform(2, 3), "t": numpy.array([7, 9], numpy.int32)}, outputs=["y"])
    assert sorted(func.variables) == ["t", "x", "y"]


def test_backprop_reaches_the_imported_parameters(tmp_path):
    path, _ = _small_convnet(tmp_path)
    func = CaffeFunction(path)
    func.cleargrads()
    x = chainer.Variable(_uniform(2, 2, 6, 6))
    (fc2,) = func(inputs={"data": x}, outputs=["fc2"])
    chainer.functions.sum(fc2 * fc2).backward()
    assert func.conv1.W.grad is not None and numpy.abs(func.conv1.W.grad).sum() > 0
    assert x.grad.shape == x.shape


def test_fine_tuning_gradient_is_correct(tmp_path):
    W, b = _uniform(3, 4), _uniform(3)
    func = CaffeFunction(
        save(tmp_path / "ip.caffemodel", layer("fc", "InnerProduct", ["x"], ["y"], [W, b]))
    )

    def forward(x):
        return func(inputs={"x": x}, outputs=["y"])[0]

    chainer.gradient_check.check_backward(
        forward, _uniform(2, 4), _uniform(2, 3), atol=1e-3, rtol=1e-3
    )


def test_the_imported_model_round_trips_through_npz(tmp_path):
    path, _ = _small_convnet(tmp_path)
    func = CaffeFunction(path)
    serializers.save_npz(str(tmp_path / "model.npz"), func)
    with numpy.load(tmp_path / "model.npz") as saved:
        assert sorted(saved.files) == ["conv1/W", "conv1/b", "fc2/W", "fc2/b"]
        testing.assert_allclose(saved["fc2/W"], func.fc2.W.array)


def test_train_argument_is_rejected(tmp_path):
    path, _ = _small_convnet(tmp_path)
    func = CaffeFunction(path)
    with pytest.raises(ValueError, match="train argument is not supported anymore"):
        func(inputs={}, outputs=[], train=False)


def test_legacy_v1_model(tmp_path):
    W, b, W2, b2 = _uniform(3, 2, 3, 3), _uniform(3), _uniform(4, 12), _uniform(4)
    conv_blobs = [blob(W, legacy_shape=True), blob(b, legacy_shape=True)]
    fc_blobs = [blob(W2, legacy_shape=True), blob(b2, legacy_shape=True)]
    pool = {"kernel_size": 2, "stride": 2}
    layers = [
        v1_layer("conv1", "CONVOLUTION", ["data"], ["c"], conv_blobs, convolution_param=_KERNEL_3),
        v1_layer("relu1", "RELU", ["c"], ["c"]),
        v1_layer("pool1", "POOLING", ["c"], ["pool1"], pooling_param=pool),
        v1_layer("fc2", "INNER_PRODUCT", ["pool1"], ["fc2"], fc_blobs),
        v1_layer("prob", "SOFTMAX", ["fc2"], ["prob"]),
    ]
    func = CaffeFunction(save(tmp_path / "v1.caffemodel", *layers))
    assert isinstance(func.conv1, L.Convolution2D) and isinstance(func.fc2, L.Linear)
    x = _uniform(2, 2, 6, 6)
    (prob,) = func(inputs={"data": x}, outputs=["prob"])
    testing.assert_allclose(prob.array, _convnet_reference(x, W, b, W2, b2), atol=1e-5)


def test_unsupported_layers_are_skipped_with_a_warning(tmp_path):
    layers = [layer("acc", "Accuracy", ["x", "t"], ["acc"]), layer("r", "ReLU", ["x"], ["y"])]
    with pytest.warns(UserWarning, match=r"Skip the layer 'acc'.*does not support Accuracy"):
        func = CaffeFunction(save(tmp_path / "m.caffemodel", *layers))
    assert [name for name, _, _ in func.layers] == ["r"]
    v1 = [v1_layer("acc", "ACCURACY", ["x", "t"], ["acc"])]
    with pytest.warns(UserWarning, match=r"Skip the layer 'acc'.*does not support ACCURACY"):
        CaffeFunction(save(tmp_path / "v1.caffemodel", *v1))


def _conv(weight_shape, **conv_param):
    weight = numpy.zeros(weight_shape)
    return layer(
        "c", "Convolution", blobs=[weight], convolution_param=dict(conv_param, bias_term=False)
    )


@pytest.mark.parametrize(
    ("bad_layer", "message"),
    [
        (layer("p", "Pooling", pooling_param={"pool": 2}), "only MAX and AVE pooling.*STOCHASTIC"),
        (layer("n", "LRN", lrn_param={"norm_region": 1}), "within-channel LRN"),
        (layer("s", "Softmax", softmax_param={"axis": 2}), "softmax along axis 2"),
        (layer("s", "SoftmaxWithLoss", softmax_param={"axis": 0}), "softmax along axis 0"),
        (layer("f", "InnerProduct", inner_product_param={"axis": 2}), "non-default axis"),
        (layer("f", "InnerProduct", blobs=[numpy.zeros((1, 2, 2, 2, 2))]), "5-dimensional"),
        (_conv((2, 1, 1, 1), axis=2), "over axis 2"),
        (_conv((2, 1, 1, 1, 1), kernel_size=[1, 1, 1]), "only 2-D"),
        (_conv((3, 1, 1, 1), kernel_size=[1], group=2), "3 filters do not split into 2"),
        (layer("s", "Scale", ["x"], blobs=[[1.0]], scale_param={"axis": -1}), "negative axis"),
    ],
)  # fmt: skip
def test_unsupported_parameters_raise_runtime_error(tmp_path, bad_layer, message):
    with pytest.raises(RuntimeError, match=message):
        CaffeFunction(save(tmp_path / "m.caffemodel", bad_layer))


def test_a_weightless_layer_names_its_missing_blobs(tmp_path):
    path = save(tmp_path / "m.caffemodel", layer("fc", "InnerProduct", ["x"], ["y"]))
    with pytest.raises(ValueError, match=r"layer 'fc' needs 1 parameter blobs, the model has 0"):
        CaffeFunction(path)


def test_a_blob_of_the_wrong_size_is_reported(tmp_path):
    c = layer(
        "c",
        "Convolution",
        blobs=[blob(numpy.zeros(5))],
        convolution_param={"kernel_size": [2], "bias_term": False},
    )
    c.blobs[0].ClearField("shape")
    c.blobs[0].num, c.blobs[0].channels = 2, 1
    with pytest.raises(ValueError, match=r"'c': the weight blob holds 5 values.*needs 8"):
        CaffeFunction(save(tmp_path / "m.caffemodel", c))


def test_eltwise_with_the_wrong_number_of_coefficients(tmp_path):
    e = layer("e", "Eltwise", ["a", "b"], ["y"], eltwise_param={"operation": 1, "coeff": [1.0]})
    func = CaffeFunction(save(tmp_path / "m.caffemodel", e))
    with pytest.raises(AssertionError, match="has 1 coefficients for 2 bottoms"):
        func(inputs={"a": _uniform(2), "b": _uniform(2)}, outputs=["y"])


def test_a_layer_name_that_hides_an_attribute_is_refused(tmp_path):
    fc = layer("forwards", "InnerProduct", ["x"], ["y"], [numpy.zeros((1, 1)), [0]])
    with pytest.raises(ValueError, match="'forwards' cannot become a child link"):
        CaffeFunction(save(tmp_path / "m.caffemodel", fc))


def test_truncated_file(tmp_path):
    path, _ = _small_convnet(tmp_path)
    content = (tmp_path / "convnet.caffemodel").read_bytes()
    (tmp_path / "cut.caffemodel").write_bytes(content[: len(content) // 2])
    with pytest.raises(ValueError, match="is not a binary Caffe model"):
        CaffeFunction(str(tmp_path / "cut.caffemodel"))


def test_text_prototxt_and_empty_files(tmp_path):
    (tmp_path / "net.prototxt").write_text('name: "net"\nlayer { name: "r" type: "ReLU" }\n')
    with pytest.raises(ValueError, match=r"is not a binary Caffe model.*\.prototxt"):
        CaffeFunction(str(tmp_path / "net.prototxt"))
    (tmp_path / "empty.caffemodel").write_bytes(b"")
    with pytest.raises(ValueError, match="holds no layers"):
        CaffeFunction(str(tmp_path / "empty.caffemodel"))


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        CaffeFunction("/nonexistent/model.caffemodel")
