"""Checks shared by the link tests: NPZ round trips, copies and device transfers."""

import io

import numpy

import chainer
from chainer import serializers


def npz_keys(link):
    """The keys ``save_npz`` writes for ``link``."""
    serializer = serializers.DictionarySerializer()
    serializer.save(link)
    return set(serializer.target)


def state_of(link):
    """Every parameter and persistent value of ``link`` by its NPZ key, as host data."""
    serializer = serializers.DictionarySerializer()
    serializer.save(link)
    return {key: numpy.array(value) for key, value in serializer.target.items()}


def assert_same_state(a, b):
    state_a, state_b = state_of(a), state_of(b)
    assert state_a.keys() == state_b.keys()
    for key, value in state_a.items():
        numpy.testing.assert_array_equal(value, state_b[key], err_msg=key)


def evaluate(link, inputs, call=None):
    """Output arrays of ``link`` on ``inputs`` in evaluation mode, without a graph."""
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        out = call(link, *inputs) if call else link(*inputs)
    outs = out if isinstance(out, tuple) else (out,)
    return [o.array if isinstance(o, chainer.Variable) else o for o in outs]


def check_npz_round_trip(make_link, inputs, call=None):
    """A trained-looking link saved to NPZ loads into a fresh one with equal results."""
    source = make_link()
    with chainer.using_config("train", False):
        call(source, *inputs) if call else source(*inputs)  # lazy parameters get shapes
    for param in source.params():
        param.array[...] = numpy.random.uniform(-1, 1, param.shape)
    buffer = io.BytesIO()
    serializers.save_npz(buffer, source)
    buffer.seek(0)
    target = make_link()
    serializers.load_npz(buffer, target)
    assert_same_state(source, target)
    for got, expected in zip(evaluate(target, inputs, call), evaluate(source, inputs, call)):
        numpy.testing.assert_array_equal(got, expected)


def check_copies(link):
    """``copy('share')`` shares the arrays, ``copy('copy')`` duplicates them."""
    shared, copied = link.copy("share"), link.copy("copy")
    for (name, p), (_, s), (_, c) in zip(
        link.namedparams(), shared.namedparams(), copied.namedparams()
    ):
        assert s is not p and s.array is p.array, name
        assert c.array is not p.array, name
        numpy.testing.assert_array_equal(c.array, p.array)
    assert_same_state(link, copied)


def check_cpu_transfer(link):
    """Moving to the CPU device keeps every array a NumPy array with the same values."""
    before = state_of(link)
    assert link.to_device("@numpy") is link
    assert link.device == chainer.get_device("@numpy")
    for param in link.params(include_uninit=False):
        assert isinstance(param.array, numpy.ndarray)
    after = state_of(link)
    for key, value in before.items():
        numpy.testing.assert_array_equal(after[key], value, err_msg=key)
