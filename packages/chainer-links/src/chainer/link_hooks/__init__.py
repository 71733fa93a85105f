"""chainer.link_hooks: hooks that change or observe the forward pass of links (shipped by the
chainer-links distribution)."""

# ruff: noqa: E402  (the core version check must run before anything else is imported)

from chainer._links_distribution import check_core as _check_core

_check_core()

from chainer.link_hooks.spectral_normalization import SpectralNormalization
from chainer.link_hooks.timer import TimerHook
from chainer.link_hooks.weight_standardization import WeightStandardization

__all__ = ["SpectralNormalization", "TimerHook", "WeightStandardization"]
