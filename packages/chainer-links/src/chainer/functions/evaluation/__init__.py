"""chainer.functions.evaluation: metrics of predictions (not differentiable)."""
