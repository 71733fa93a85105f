"""Warning about code whose results may differ from run to run."""

from __future__ import annotations

import warnings

from chainer.configuration import config


def nondeterministic(f_name: str) -> None:
    """Warn that ``f_name`` may be nondeterministic, when ``config.warn_nondeterministic`` is on.

    Functions call it before running code whose result depends on the order of parallel work,
    such as CUDA ``atomicAdd`` reductions.

    Args:
        f_name: The name of the function, shown in the warning.
    """
    if config.warn_nondeterministic:
        warnings.warn(
            "Potentially non-deterministic code is being executed while "
            f"config.warn_nondeterministic is set. Source: {f_name}",
            stacklevel=2,
        )
