"""``chainer.functions`` and ``chainer.links`` import their names on first access.

Every check runs in a fresh interpreter: the test session has long imported everything.
"""

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
PUBLIC_NAMES = ROOT / "ci" / "public-names.json"
API_LISTING = pathlib.Path(os.environ.get("CHAINER_API_DIR", ROOT.parent / "shared" / "api")) / (
    "chainer-7.8.1.json"
)
PACKAGES = ["chainer.functions", "chainer.links"]
# v7 names absent here on purpose (ci/test_public_names.py keeps the list of gaps).
KNOWN_GAPS = {"TheanoFunction"}


def _run(code: str) -> str:
    """Run ``code`` in a fresh interpreter; return its stdout (fails with its stderr)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_loads_no_function_or_link_module():
    loaded = _run(
        """
        import sys
        import chainer.functions, chainer.links
        print([m for m in sys.modules if m.startswith(('chainer.functions.', 'chainer.links.'))])
        """
    )
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("package", PACKAGES)
def test_each_name_is_the_object_an_eager_import_gives(package):
    # The stub's statements, run as Python, are exactly the old eager __init__.py.
    _run(
        f"""
        import importlib, pathlib, types
        package = importlib.import_module({package!r})
        eager = {{'__name__': {package!r} + '._eager', '__package__': {package!r}}}
        exec(pathlib.Path(package.__file__).with_suffix('.pyi').read_text(), eager)
        names = [name for name in eager if not name.startswith('__')]
        wrong = [name for name in names if getattr(package, name) is not eager[name]]
        assert not wrong, wrong
        assert all(vars(package)[name] is eager[name] for name in names)
        modules = {{n for n in names if isinstance(eager[n], types.ModuleType)}}
        assert sorted(package.__all__) == sorted(set(names) - modules)
        """
    )


@pytest.mark.skipif(not PUBLIC_NAMES.is_file(), reason="no ci/public-names.json here")
@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_of_chainer_v7_is_declared(package):
    v7_names = set(json.loads(PUBLIC_NAMES.read_text())["chainer-links"][package]) - KNOWN_GAPS
    out = _run(
        f"""
        import types
        import {package} as package
        modules = [n for n in dir(package) if isinstance(getattr(package, n), types.ModuleType)]
        print(sorted(package.__all__))
        print(sorted(n for n in modules if not n.startswith('_')))
        """
    )
    names, subpackages = (eval(line) for line in out.splitlines())
    assert sorted(names + subpackages) == sorted(v7_names)
    assert not set(names) & set(subpackages)  # star import binds no module (such as math)


@pytest.mark.skipif(not API_LISTING.is_file(), reason=f"no API listing at {API_LISTING}")
@pytest.mark.parametrize("package", PACKAGES)
def test_names_are_those_of_the_modules_chainer_v7_defined_them_in(package):
    entries = json.loads(API_LISTING.read_text())[package]
    where = {n: entry.get("module") for n, entry in entries.items() if n not in KNOWN_GAPS}
    _run(
        f"""
        import importlib
        package = importlib.import_module({package!r})
        wrong = []
        for name, module in {where!r}.items():
            if module is None:  # a subpackage
                expected = importlib.import_module({package!r} + '.' + name)
            else:
                expected = getattr(importlib.import_module(module), name)
            if getattr(package, name) is not expected:
                wrong.append(name)
        assert not wrong, wrong
        """
    )


@pytest.mark.parametrize(
    ("setup", "path", "expected"),
    [
        ("import chainer", "chainer.functions.activation.relu.ReLU", "ReLU"),
        ("import chainer.links", "chainer.links.connection.linear.Linear", "Linear"),
        (
            "import chainer.functions as F",
            "F.connection.convolution_2d.Convolution2DFunction",
            "Convolution2DFunction",
        ),
        ("import chainer.links as L", "L.model.vision.resnet.ResNet50Layers", "ResNet50Layers"),
        ("import chainer", "chainer.basic_math.add", "add"),
        ("import chainer.functions as F", "F.math.basic_math.add is F.add", "True"),
        ("import chainer.functions as F", "F.activation.relu.relu is F.relu", "True"),
    ],
)
def test_attribute_paths_through_subpackages_not_yet_imported(setup, path, expected):
    out = _run(f"{setup}\nvalue = {path}\nprint(getattr(value, '__name__', value))")
    assert out.strip() == expected


@pytest.mark.parametrize("package", PACKAGES)
def test_star_import_binds_every_name(package):
    _run(
        f"""
        import importlib
        namespace = {{}}
        exec('from {package} import *', namespace)
        package = importlib.import_module({package!r})
        assert set(package.__all__) <= set(namespace), set(package.__all__) - set(namespace)
        assert all(namespace[name] is getattr(package, name) for name in package.__all__)
        """
    )


def test_dir_lists_names_and_submodules_before_they_are_imported():
    _run(
        """
        import sys
        import chainer.functions as F, chainer.links as L
        assert {'relu', 'activation', 'softmax_cross_entropy'} <= set(dir(F))
        assert {'Linear', 'connection', 'Classifier'} <= set(dir(L))
        assert {'relu', 'leaky_relu'} <= set(dir(F.activation))
        assert {'vision', 'classifier'} <= set(dir(L.model))
        assert 'chainer.functions.activation.relu' not in sys.modules
        """
    )


def test_unknown_names_are_attribute_errors_with_the_usual_message():
    _run(
        """
        import chainer.functions as F, chainer.links as L
        for module, name in [(F, 'nonexistent'), (L, 'Nonexistent'), (F.activation, 'nope')]:
            assert not hasattr(module, name)
            try:
                getattr(module, name)
            except AttributeError as error:
                expected = f"module {module.__name__!r} has no attribute {name!r}"
                assert str(error) == expected, str(error)
            else:
                raise AssertionError(name)
        try:
            from chainer.functions import nonexistent
        except ImportError as error:
            assert "cannot import name 'nonexistent'" in str(error), str(error)
        else:
            raise AssertionError('imported')
        """
    )


def test_links_and_nodes_pickle_and_copy_across_fresh_processes():
    pickled = _run(
        """
        import copy, pickle, sys
        import numpy
        import chainer.functions as F, chainer.links as L
        model = L.Classifier(L.Linear(3, 2))
        clone = copy.deepcopy(model)
        assert clone.predictor.W is not model.predictor.W
        assert (clone.predictor.W.array == model.predictor.W.array).all()
        node = F.activation.relu.ReLU()
        print(pickle.dumps((model, node, F.relu)).hex())
        """
    )
    _run(
        f"""
        import pickle, sys
        model, node, relu = pickle.loads(bytes.fromhex({pickled.strip()!r}))
        assert 'chainer.links.connection.linear' in sys.modules
        import chainer.functions as F, chainer.links as L
        assert type(model) is L.Classifier and type(model.predictor) is L.Linear
        assert type(node) is F.activation.relu.ReLU and relu is F.relu
        assert model.predictor.W.shape == (2, 3)
        """
    )


def test_mock_patch_of_module_paths_is_undone():
    _run(
        """
        from unittest import mock
        import numpy
        import chainer.functions as F
        x = numpy.array([-1.0, 2.0], dtype=numpy.float32)
        with mock.patch('chainer.functions.relu', return_value='patched'):
            assert F.relu(x) == 'patched'
        assert F.relu is F.activation.relu.relu
        assert (F.relu(x).array == numpy.array([0.0, 2.0], dtype=numpy.float32)).all()
        with mock.patch.object(F, 'sigmoid') as patched:
            F.sigmoid(x)
            patched.assert_called_once_with(x)
        assert F.sigmoid is F.activation.sigmoid.sigmoid
        with mock.patch('chainer.functions.activation.tanh.tanh', return_value=1):
            assert F.activation.tanh.tanh(x) == 1
        assert F.tanh(x).array.dtype == numpy.float32
        """
    )


def test_lazy_loading_keeps_what_modules_install_at_import():
    # Variable's operators come from the core; the static-graph decorator of dropout and the
    # basic_math alias of chainer's top level come from modules loaded on first use.
    _run(
        """
        import numpy
        import chainer
        import chainer.functions as F
        x = chainer.Variable(numpy.array([1.0, 2.0], dtype=numpy.float32))
        y = (x * 2 + 1) ** 2
        assert (y.array == numpy.array([9.0, 25.0], dtype=numpy.float32)).all()
        assert isinstance(y.creator_node, chainer.FunctionNode)
        assert chainer.basic_math is F.math.basic_math
        with chainer.using_config('train', False):
            assert (F.dropout(x).array == x.array).all()
        """
    )
