"""chainer.functions.noise: noise injections (each in its own module)."""
