"""Fuzzing resume: damaged trainer snapshots given to load_npz and to snapshot(autoload=True).

A snapshot of a trained trainer (model, optimizer state, iterator position, extensions) is
mutated or truncated, then loaded into a fresh trainer. Every case must load or raise
ValueError / KeyError with a message, within the time limit and the allocation bound,
writing nothing; a load that succeeds must give the very state that was saved. Cases:
1,000 (CI) or $CHAINER_FUZZ_EXAMPLES (the `fuzz` nox session).
"""

from __future__ import annotations

import warnings

import numpy
import pytest

from chainer import serializers
from chainer.serializers import DictionarySerializer
from chainer.testing import _fuzzing
from chainer.training import extensions

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies
pytestmark = pytest.mark.fuzz


def _state(trainer) -> dict:
    serializer = DictionarySerializer()
    serializer.save(trainer)
    return {key: numpy.array(value, copy=True) for key, value in serializer.target.items()}


def test_damaged_snapshots(make_trainer, tmp_path):
    trained = make_trainer(stop=(3, "iteration"))
    trained.extend(extensions.LogReport(trigger=(1, "iteration")))
    trained.run()
    saved = tmp_path / "saved"
    serializers.save_npz(saved, trained)
    valid = saved.read_bytes()
    expected = _state(trained)
    outdir = tmp_path / "result"
    snapshot_path = outdir / "snapshot_iter_3"
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()

    @_fuzzing.hypothesis_settings()
    @hypothesis.given(
        flips=st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 255)), max_size=6),
        cut=st.one_of(st.none(), st.integers(0, 2**20)),
        how=st.sampled_from(["load_npz", "autoload"]),
    )
    def case(flips, cut, how):
        data = bytearray(valid)
        for position, byte in flips:
            data[position % len(data)] = byte
        if cut is not None:
            del data[cut % len(data) :]
        outdir.mkdir(exist_ok=True)
        snapshot_path.write_bytes(bytes(data))
        trainer = make_trainer(stop=(3, "iteration"))
        trainer.extend(extensions.LogReport(trigger=(1, "iteration")))
        if how == "load_npz":
            load = lambda: serializers.load_npz(str(snapshot_path), trainer)  # noqa: E731
        else:
            extension = extensions.snapshot(autoload=True)
            load = lambda: extension.initialize(trainer)  # noqa: E731
        with warnings.catch_warnings(record=True) as warned:
            # As in v7, triggers and reports warn, not fail, when a snapshot lacks some of
            # their state (as snapshots of older versions do) and make do without it.
            warnings.filterwarnings("always", "The (previous value|names) of", UserWarning)
            caught = _fuzzing.run_case(
                load, (ValueError, KeyError), str(sandbox), max_bytes=8 * 2**20
            )
        if caught is None:
            state = _state(trainer)
            assert state.keys() == expected.keys()
            for key, value in expected.items():
                if warned and not key.startswith("updater/"):
                    continue  # trigger or report state guessed, and the user was told
                numpy.testing.assert_array_equal(state[key], value, err_msg=key)

    case()
