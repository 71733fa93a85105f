"""The rnn links live in chainer.links.rnn.<module>, as in Chainer, and are re-exported."""

import importlib

import pytest

import chainer
import chainer.links as L

MODULES = {
    "gru": ["GRU", "StatefulGRU", "StatelessGRU"],
    "lstm": ["LSTM", "StatelessLSTM"],
    "mgu": ["StatefulMGU", "StatelessMGU"],
    "n_step_gru": ["NStepBiGRU", "NStepGRU"],
    "n_step_lstm": ["NStepBiLSTM", "NStepLSTM"],
    "n_step_rnn": ["NStepBiRNNReLU", "NStepBiRNNTanh", "NStepRNNReLU", "NStepRNNTanh"],
    "peephole": ["StatefulPeepholeLSTM"],
    "tree_lstm": ["ChildSumTreeLSTM", "NaryTreeLSTM"],
    "zoneoutlstm": ["StatefulZoneoutLSTM"],
}


@pytest.mark.parametrize(
    ("module", "name"), [(module, name) for module, names in MODULES.items() for name in names]
)
def test_rnn_link_module_and_reexport(module, name):
    path = f"chainer.links.rnn.{module}"
    cls = getattr(importlib.import_module(path), name)
    assert cls.__module__ == path
    assert getattr(L, name) is cls and name in L.__all__
    assert issubclass(cls, chainer.Link)
