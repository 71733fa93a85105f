"""The ``kit`` fixture (models, data and stand-ins of ``_kit.py``) and a trainer factory."""

import importlib.util
import pathlib

import pytest

_KIT_PATH = pathlib.Path(__file__).with_name("_kit.py")


def _load_kit():
    spec = importlib.util.spec_from_file_location("training_tests_kit", _KIT_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_KIT = _load_kit()


@pytest.fixture
def kit():
    return _KIT


@pytest.fixture
def make_trainer(tmp_path):
    """``make_trainer(stop, batch_size=4, lr=0.1, **updater_kwargs)``: a StandardUpdater over
    the kit's regression data with SGD, and a trainer writing to ``tmp_path``."""
    from chainer import iterators, optimizers, training

    def factory(stop=(2, "epoch"), batch_size=4, lr=0.1, n=24, model=None, **updater_kwargs):
        model = _KIT.LinearRegression() if model is None else model
        optimizer = optimizers.SGD(lr=lr).setup(model)
        iterator = iterators.SerialIterator(_KIT.regression_data(n), batch_size, shuffle=False)
        updater = training.updaters.StandardUpdater(iterator, optimizer, **updater_kwargs)
        return training.Trainer(updater, stop, out=str(tmp_path / "result"))

    return factory
