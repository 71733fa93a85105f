"""Checks shared by the model-zoo tests: layer shapes and NPZ round trips on one image."""

import numpy

import chainer
from chainer import serializers


def image_batch(seed=0):
    """One random 224x224 BGR image, centered like the prepared inputs."""
    rng = numpy.random.RandomState(seed)
    return rng.uniform(-120, 120, (1, 3, 224, 224)).astype(numpy.float32)


def evaluate(model, x, layers):
    """The named layers' output arrays in test mode, without a graph."""
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        return {name: out.array for name, out in model(x, layers=layers).items()}


def check_layer_shapes(model, expected):
    """Every available layer, in order, has the expected output shape on one image."""
    assert model.available_layers == list(expected)
    outputs = evaluate(model, image_batch(), model.available_layers)
    assert {name: out.shape for name, out in outputs.items()} == expected
    for name, out in outputs.items():
        assert numpy.all(numpy.isfinite(out)), name
    numpy.testing.assert_allclose(outputs["prob"].sum(axis=1), 1, rtol=1e-5)
    return outputs


def check_npz_reload(model, make_reloaded, path, layers):
    """Weights saved to NPZ and loaded through ``pretrained_model=path`` give equal outputs."""
    serializers.save_npz(path, model, compression=False)
    reloaded = make_reloaded(str(path))
    x = image_batch(seed=1)
    got, expected = evaluate(reloaded, x, layers), evaluate(model, x, layers)
    for name in layers:
        numpy.testing.assert_array_equal(got[name], expected[name], err_msg=name)
