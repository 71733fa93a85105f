"""chainer.link_hooks (shipped by the chainer-links distribution)."""

from chainer._links_distribution import check_core as _check_core

_check_core()
