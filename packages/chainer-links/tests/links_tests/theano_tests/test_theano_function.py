"""chainer.links.theano: the v7 path imports; using it says why it is not available."""

import pytest

from chainer.links.theano import TheanoFunction


def test_constructing_says_why_and_what_to_use_instead():
    with pytest.raises(RuntimeError, match="no Theano .* bridge.*chainer.functions"):
        TheanoFunction(inputs=[], outputs=[])
