"""Chainer v7's Theano bridge (``chainer.functions.theano``); see :mod:`.theano_function`."""
