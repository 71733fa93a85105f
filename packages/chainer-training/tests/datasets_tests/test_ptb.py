"""get_ptb_words and get_ptb_words_vocabulary end to end against a local server."""

import numpy
import pytest

from chainer import datasets
from chainer.datasets import ptb

TEXTS = {
    "train": " the cat sat \n the dog \n",
    "valid": " dog sat \n",
    "test": " the \n\n cat \n",
}


@pytest.fixture
def served(server, dataset_root, monkeypatch):
    monkeypatch.setattr(ptb, "BASE_URL", server.url + "lstm/")
    for split, text in TEXTS.items():
        server.files[f"/lstm/ptb.{split}.txt"] = text.encode()
    return server


def test_words_and_vocabulary(served):
    vocabulary = datasets.get_ptb_words_vocabulary()
    assert vocabulary == {"the": 0, "cat": 1, "sat": 2, "<eos>": 3, "dog": 4}
    train, valid, test = datasets.get_ptb_words()
    for array, text in ((train, TEXTS["train"]), (valid, TEXTS["valid"]), (test, TEXTS["test"])):
        words = [w for line in text.splitlines() for w in [*line.split(), "<eos>"]]
        assert array.dtype == numpy.int32
        numpy.testing.assert_array_equal(array, [vocabulary[w] for w in words])
    assert len(served.requests) == 3  # converted once, then read from the cache


def test_words_outside_the_training_vocabulary_are_reported(served):
    served.files["/lstm/ptb.test.txt"] = b" the bird \n"
    with pytest.raises(ValueError, match="ptb.test.txt contains the word 'bird'"):
        datasets.get_ptb_words()
