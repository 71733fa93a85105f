"""Links for multi-node training (they need the chainer-links distribution)."""

from chainermn.links import batch_normalization
from chainermn.links.batch_normalization import MultiNodeBatchNormalization
from chainermn.links.create_mnbn_model import create_mnbn_model

__all__ = ["MultiNodeBatchNormalization", "create_mnbn_model"]
