"""Trainer extensions for multi-node training."""

from chainermn.extensions import (
    allreduce_persistent,
    multi_node_early_stopping_trigger,
    multi_node_evaluator,
    observation_aggregator,
)
from chainermn.extensions.allreduce_persistent import AllreducePersistent
from chainermn.extensions.multi_node_early_stopping_trigger import MultiNodeEarlyStoppingTrigger
from chainermn.extensions.multi_node_evaluator import (
    GenericMultiNodeEvaluator,
    create_multi_node_evaluator,
)
from chainermn.extensions.observation_aggregator import ObservationAggregator

__all__ = [
    "AllreducePersistent",
    "GenericMultiNodeEvaluator",
    "MultiNodeEarlyStoppingTrigger",
    "ObservationAggregator",
    "create_multi_node_evaluator",
]
