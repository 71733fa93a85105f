"""The public surface of chainer.datasets: Chainer 7.8.1's names and signatures."""

import inspect

import pytest

import chainer.datasets

_I32 = "<class 'numpy.int32'>"
_MNIST = f"(withlabel=True, ndim=1, scale=1.0, dtype=None, label_dtype={_I32}, rgb_format=False)"
_SIGNATURES = {
    "ConcatenatedDataset": "(*datasets)",
    "DictDataset": "(**datasets)",
    "ImageDataset": "(paths, root='.', dtype=None)",
    "LabeledImageDataset": f"(pairs, root='.', dtype=None, label_dtype={_I32})",
    "LabeledZippedImageDataset": f"(zipfilename, labelfilename, dtype=None, label_dtype={_I32})",
    "MultiZippedImageDataset": "(zipfilenames, dtype=None)",
    # keyword-only opt-in to unpickling any object (a deliberate addition, see its docstring)
    "PickleDataset": "(reader, *, trusted=False)",
    "PickleDatasetWriter": "(writer, protocol=5)",
    "SubDataset": "(dataset, start, finish, order=None)",
    "TextDataset": "(paths, encoding=None, errors=None, newline=None, filter_func=None)",
    "TransformDataset": "(dataset, transform)",
    "TupleDataset": "(*datasets)",
    "ZippedImageDataset": "(zipfilename, dtype=None)",
    "get_cifar10": "(withlabel=True, ndim=3, scale=1.0, dtype=None)",
    "get_cifar100": "(withlabel=True, ndim=3, scale=1.0, dtype=None)",
    "get_cross_validation_datasets": "(dataset, n_folds=None, order=None, **kwargs)",
    "get_cross_validation_datasets_random": "(dataset, n_folds, seed=None, **kwargs)",
    "get_fashion_mnist": _MNIST,
    "get_fashion_mnist_labels": "()",
    "get_kuzushiji_mnist": _MNIST,
    "get_kuzushiji_mnist_labels": "()",
    "get_mnist": _MNIST,
    "get_ptb_words": "()",
    "get_ptb_words_vocabulary": "()",
    "get_svhn": f"(withlabel=True, scale=1.0, dtype=None, label_dtype={_I32}, add_extra=False)",
    "open_pickle_dataset": "(path, *, trusted=False)",
    "open_pickle_dataset_writer": "(path, protocol=5)",
    "split_dataset": "(dataset, split_at, order=None)",
    "split_dataset_n": "(dataset, n, order=None)",
    "split_dataset_n_random": "(dataset, n, seed=None)",
    "split_dataset_random": "(dataset, first_size, seed=None)",
}
_MODULES = [
    "cifar",
    "concatenated_dataset",
    "dict_dataset",
    "fashion_mnist",
    "image_dataset",
    "kuzushiji_mnist",
    "mnist",
    "pickle_dataset",
    "ptb",
    "sub_dataset",
    "svhn",
    "text_dataset",
    "transform_dataset",
    "tuple_dataset",
]


def _plain(signature: inspect.Signature) -> str:
    bare = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=bare, return_annotation=inspect.Signature.empty))


def test_exported_names():
    assert sorted(chainer.datasets.__all__) == sorted([*_SIGNATURES, *_MODULES])


@pytest.mark.parametrize(("name", "expected"), sorted(_SIGNATURES.items()))
def test_signatures_match_chainer(name, expected):
    assert _plain(inspect.signature(getattr(chainer.datasets, name))) == expected


def test_importing_does_not_load_pillow_or_scipy():
    import subprocess
    import sys

    code = "import sys, chainer.datasets; print('PIL' in sys.modules, 'scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
