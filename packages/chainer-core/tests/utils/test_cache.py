"""chainer.utils.cache.cached_property."""

import chainer
from chainer.utils import cache


class Distribution:
    def __init__(self):
        self.calls = 0

    @cache.cached_property
    def mean(self):
        """The mean."""
        self.calls += 1
        return ("value", self.calls, bool(chainer.config.enable_backprop))


def test_computed_once_per_instance_and_mode():
    d = Distribution()
    assert d.mean == ("value", 1, True)
    assert d.mean == ("value", 1, True)
    with chainer.using_config("enable_backprop", False):
        assert d.mean == ("value", 2, False)
        assert d.mean == ("value", 2, False)
    assert d.mean == ("value", 1, True)
    assert d.calls == 2
    assert Distribution().mean == ("value", 1, True)


def test_is_a_documented_read_only_property():
    assert isinstance(Distribution.mean, property)
    assert Distribution.mean.__doc__ == "The mean."
    d = Distribution()
    try:
        d.mean = 3
    except AttributeError:
        pass
    else:
        raise AssertionError("cached_property must be read-only")


def test_the_property_knows_its_name():
    assert Distribution.mean.__name__ == "mean"
