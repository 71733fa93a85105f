"""Version of the ``chainer-links`` distribution and the chainer-core window it works with."""

__version__ = "8.0.0a1"

CORE_MINIMUM = "8.0.0a1"
CORE_BELOW = "9"


def check_core() -> None:
    """Fail at import with the exact fix when the installed chainer-core is out of window."""
    from chainer._siblings import require_core

    require_core("chainer-links", CORE_MINIMUM, CORE_BELOW)
