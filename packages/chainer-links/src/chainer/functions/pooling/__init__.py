"""chainer.functions.pooling: spatial pooling, unpooling and ROI pooling functions."""
