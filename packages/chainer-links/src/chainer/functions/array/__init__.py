"""chainer.functions.array: array manipulations (each in its own module, at Chainer's path)."""
