"""chainer.utils.experimental."""

import warnings

import pytest

import chainer
from chainer import utils


def experimental_api():
    utils.experimental("my_project.experimental_api")


def test_warns_future_warning(monkeypatch):
    monkeypatch.setattr(chainer, "disable_experimental_feature_warning", False, raising=False)
    with pytest.warns(
        FutureWarning,
        match=r"^my_project\.experimental_api is experimental\. "
        r"Interfaces can change in the future\.$",
    ) as record:
        experimental_api()
    # The warning points at the experimental API, so the default filter shows it once per API.
    assert record[0].filename == __file__
    assert record[0].lineno == experimental_api.__code__.co_firstlineno + 1


def test_default_filter_shows_it_once(monkeypatch):
    monkeypatch.setattr(chainer, "disable_experimental_feature_warning", False, raising=False)
    with warnings.catch_warnings(record=True) as record:
        warnings.resetwarnings()
        warnings.simplefilter("default")
        experimental_api()
        experimental_api()
    assert len(record) == 1


def test_can_be_disabled(monkeypatch):
    monkeypatch.setattr(chainer, "disable_experimental_feature_warning", True, raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        experimental_api()
