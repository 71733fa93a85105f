"""chainer.functions.normalization: batch, layer, group and response normalizations."""
