"""Chainer v7's Theano link (``chainer.links.theano``); see :mod:`.theano_function`."""

from chainer.links.theano.theano_function import TheanoFunction
