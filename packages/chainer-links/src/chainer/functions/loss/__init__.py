"""chainer.functions.loss: loss functions (each in its own module, at Chainer's path)."""
