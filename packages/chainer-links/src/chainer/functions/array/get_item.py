"""``get_item``: basic and advanced indexing of a variable (``x[slices]``).

The implementation is chainer-core's (``Variable.__getitem__`` uses the same node); this module
gives it Chainer's public path.
"""

from chainer._ops.get_item import GetItem, GetItemGrad, get_item

__all__ = ["GetItem", "GetItemGrad", "get_item"]
