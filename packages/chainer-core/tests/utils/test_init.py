"""chainer.utils itself: its names and the helpers defined there."""

import os
import types

import numpy
import pytest

from chainer import utils

# Every public name of chainer.utils in Chainer 7.8.1.
_PUBLIC = {
    "CooMatrix",
    "WalkerAlias",
    "argument",
    "array",
    "cache",
    "conv",
    "conv_nd",
    "conv_nd_kernel",
    "enable_final",
    "error",
    "experimental",
    "final",
    "force_array",
    "force_type",
    "get_conv_outsize",
    "get_deconv_outsize",
    "get_order",
    "imgproc",
    "meta",
    "nondeterministic",
    "precision",
    "size_of_shape",
    "sparse",
    "sum_to",
    "tempdir",
    "to_coo",
    "type_check",
    "walker_alias",
}
_MODULES = {
    "argument",
    "array",
    "cache",
    "conv",
    "conv_nd",
    "conv_nd_kernel",
    "error",
    "imgproc",
    "meta",
    "precision",
    "sparse",
    "type_check",
    "walker_alias",
}


def test_public_names():
    assert _PUBLIC <= set(dir(utils))
    for name in _PUBLIC:
        value = getattr(utils, name)
        assert isinstance(value, types.ModuleType) == (name in _MODULES), name
    # experimental and nondeterministic are functions that shadow their modules' names.
    assert utils.experimental.__module__ == "chainer.utils.experimental"
    assert utils.nondeterministic.__module__ == "chainer.utils.nondeterministic"
    assert utils.WalkerAlias.__module__ == "chainer.utils.walker_alias"


def test_unknown_name():
    with pytest.raises(AttributeError, match="module 'chainer.utils' has no attribute 'nope'"):
        utils.nope  # noqa: B018


@pytest.mark.parametrize("value", [3, 2.5, numpy.float32(1.5), numpy.int64(2)])
def test_force_array_turns_scalars_into_arrays(value):
    result = utils.force_array(value)
    assert isinstance(result, numpy.ndarray) and result.ndim == 0
    assert result == value
    assert result.dtype == numpy.asarray(value).dtype
    assert utils.force_array(value, numpy.float16).dtype == numpy.float16


def test_force_array_keeps_arrays():
    x = numpy.zeros(3, numpy.float32)
    assert utils.force_array(x) is x
    assert utils.force_array(x, numpy.float32) is x
    cast = utils.force_array(x, numpy.float64)
    assert cast.dtype == numpy.float64 and cast.shape == (3,)


def test_force_type():
    value = utils.force_type(numpy.dtype(numpy.float32), 3)
    assert type(value) is numpy.float32 and value == 3
    assert type(utils.force_type(numpy.float16, 2.5)) is numpy.float16
    x = numpy.zeros(2, numpy.float64)
    assert utils.force_type(numpy.float64, x) is x
    assert utils.force_type(numpy.float32, x).dtype == numpy.float32


def test_tempdir_is_removed_with_its_contents():
    with utils.tempdir(prefix="chainer-test-") as path:
        assert os.path.isdir(path)
        assert os.path.basename(path).startswith("chainer-test-")
        with open(os.path.join(path, "file"), "w") as f:
            f.write("x")
    assert not os.path.exists(path)
    with pytest.raises(KeyError), utils.tempdir() as path:
        raise KeyError
    assert not os.path.exists(path)


def test_collections_abc_is_the_standard_library_module():
    import collections.abc

    assert utils.collections_abc is collections.abc
    assert isinstance([1], utils.collections_abc.Iterable)
