"""Saving and loading chainer.Chain / ChainList models (the docs' Serializers section)."""

from __future__ import annotations

import numpy
import pytest

import chainer
from chainer import initializers, serializers
from chainer.link import Chain, ChainList, Link


class _Affine(Link):
    """A link with one (possibly lazily initialized) parameter and a persistent counter."""

    def __init__(self, n_in: int | None, n_out: int = 3) -> None:
        super().__init__()
        self.n_out = n_out
        with self.init_scope():
            shape = None if n_in is None else (n_out, n_in)
            self.W = chainer.Parameter(initializers.Normal(), shape)
        self.add_persistent("calls", 0)


class _Model(Chain):
    def __init__(self, lazy: bool = False) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = _Affine(None if lazy else 4)
            self.stack = ChainList(_Affine(3), _Affine(3, n_out=2))
        self.add_persistent("running_mean", numpy.zeros(3, dtype=numpy.float32))


def _trained(seed: int) -> _Model:
    model = _Model()
    rng = numpy.random.default_rng(seed)
    for _, param in model.namedparams():
        param.array[...] = rng.standard_normal(param.shape)
    model.running_mean[...] = rng.standard_normal(3)
    model.l1.calls = seed
    return model


def _assert_same(actual: _Model, expected: _Model) -> None:
    actual_params = dict(actual.namedparams())
    for name, param in expected.namedparams():
        numpy.testing.assert_array_equal(actual_params[name].array, param.array, err_msg=name)
    numpy.testing.assert_array_equal(actual.running_mean, expected.running_mean)
    assert actual.l1.calls == expected.l1.calls


@pytest.mark.parametrize("fmt", ["npz", "hdf5"])
def test_chain_round_trip_with_lazy_parameter(tmp_path, fmt):
    if fmt == "hdf5":
        pytest.importorskip("h5py")
    save = getattr(serializers, f"save_{fmt}")
    load = getattr(serializers, f"load_{fmt}")
    source = _trained(seed=1)
    target = _Model(lazy=True)
    assert target.l1.W.array is None
    save(tmp_path / "model", source)
    load(tmp_path / "model", target)
    assert target.l1.W.shape == (3, 4)
    _assert_same(target, source)


def test_chain_npz_keys_follow_link_hierarchy(tmp_path):
    serializers.save_npz(tmp_path / "model.npz", _trained(seed=2))
    with numpy.load(tmp_path / "model.npz", allow_pickle=False) as archive:
        assert set(archive.files) == {
            "l1/W",
            "l1/calls",
            "running_mean",
            "stack/0/W",
            "stack/0/calls",
            "stack/1/W",
            "stack/1/calls",
        }


def test_chain_load_sub_tree_and_ignore_names(tmp_path):
    class Snapshot:
        def __init__(self, model):
            self.model = model

        def serialize(self, serializer):
            self.model.serialize(serializer["updater"]["model:main"])

    source = _trained(seed=3)
    serializers.save_npz(tmp_path / "snapshot", Snapshot(source))
    target = _trained(seed=4)
    kept = target.stack[1].W.array.copy()
    serializers.load_npz(
        tmp_path / "snapshot", target, path="updater/model:main/", ignore_names=["stack/1/W"]
    )
    numpy.testing.assert_array_equal(target.stack[1].W.array, kept)
    numpy.testing.assert_array_equal(target.l1.W.array, source.l1.W.array)


def test_chain_shape_mismatch_names_parameter(tmp_path):
    serializers.save_npz(tmp_path / "model.npz", _trained(seed=5))
    target = _Model()
    with target.l1.init_scope():
        target.l1.W = chainer.Parameter(initializers.Zero(), (3, 5))
    message = r"cannot load 'l1/W': expected shape \(3, 5\) .* found shape \(3, 4\)"
    with pytest.raises(ValueError, match=message):
        serializers.load_npz(tmp_path / "model.npz", target)


def test_chain_strict_false_with_older_file(tmp_path):
    class Older(Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = _Affine(4)

    older = Older()
    serializers.save_npz(tmp_path / "old.npz", older)
    target = _trained(seed=6)
    with pytest.raises(KeyError, match=r"'running_mean' is not in the NPZ data"):
        serializers.load_npz(tmp_path / "old.npz", target)
    target = _trained(seed=6)
    serializers.load_npz(tmp_path / "old.npz", target, strict=False)
    numpy.testing.assert_array_equal(target.l1.W.array, older.l1.W.array)
    numpy.testing.assert_array_equal(target.stack[0].W.array, _trained(seed=6).stack[0].W.array)
