"""The public surface of chainer.dataset: Chainer 7.8.1's names and signatures."""

import inspect

import pytest

import chainer
import chainer.dataset

_SIGNATURES = {
    "ConcatWithAsyncTransfer": "(stream=None, compute_stream=None)",
    "Converter": "()",
    "DatasetMixin": "()",
    "Iterator": "()",
    "TabularDataset": "()",
    "cache_or_load_file": "(path, creator, loader)",
    "cached_download": "(url)",
    "concat_examples": "(*args, **kwargs)",
    "converter": "()",
    "get_dataset_directory": "(dataset_name, create_directory=True)",
    "get_dataset_root": "()",
    "set_dataset_root": "(path)",
    "to_device": "(device, x)",
}
_MODULES = ["convert", "dataset_mixin", "download", "iterator", "tabular"]


def _plain(signature: inspect.Signature) -> str:
    bare = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=bare, return_annotation=inspect.Signature.empty))


def test_exported_names():
    assert sorted(chainer.dataset.__all__) == sorted([*_SIGNATURES, *_MODULES])
    assert chainer.dataset is chainer.__getattr__("dataset")
    assert sorted(chainer.dataset.tabular.__all__) == [
        "DelegateDataset",
        "delegate_dataset",
        "from_data",
        "tabular_dataset",
    ]


@pytest.mark.parametrize(("name", "expected"), sorted(_SIGNATURES.items()))
def test_signatures_match_chainer(name, expected):
    assert _plain(inspect.signature(getattr(chainer.dataset, name))) == expected


def test_tabular_dataset_is_a_dataset_mixin_in_its_chainer_module():
    assert chainer.dataset.TabularDataset.__bases__ == (chainer.dataset.DatasetMixin,)
    assert chainer.dataset.TabularDataset.__module__ == "chainer.dataset.tabular.tabular_dataset"
