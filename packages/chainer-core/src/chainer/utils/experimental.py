"""Marking APIs as experimental: ``chainer.utils.experimental``."""

from __future__ import annotations

import warnings

import chainer


def experimental(api_name: str) -> None:
    """Warn (``FutureWarning``) that the API ``api_name`` is experimental.

    Call it first thing in an experimental function or constructor. Python's default warning
    filter then shows the warning once per experimental API. Users silence it with
    ``chainer.disable_experimental_feature_warning = True`` (or the environment variable
    ``CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING=1``), or with :mod:`warnings` filters.

    Args:
        api_name: The name users know the API by, such as ``'chainer.functions.foo'``.

    Example:
        >>> def foo(x):
        ...     chainer.utils.experimental('my_project.foo')
        ...     return x
    """
    if not chainer.disable_experimental_feature_warning:
        warnings.warn(
            f"{api_name} is experimental. Interfaces can change in the future.",
            FutureWarning,
            # Point at the line of the experimental API that called us: one warning per API.
            stacklevel=2,
        )
