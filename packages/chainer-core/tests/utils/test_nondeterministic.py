"""chainer.utils.nondeterministic."""

import warnings

import pytest

import chainer
from chainer import utils


def test_warns_only_when_configured():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with chainer.using_config("warn_nondeterministic", False):
            utils.nondeterministic("atomicAdd")
    with chainer.using_config("warn_nondeterministic", True):
        with pytest.warns(
            UserWarning,
            match=r"Potentially non-deterministic code .* "
            r"config\.warn_nondeterministic is set\. Source: atomicAdd$",
        ):
            utils.nondeterministic("atomicAdd")
