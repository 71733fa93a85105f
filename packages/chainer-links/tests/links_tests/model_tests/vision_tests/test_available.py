"""The architecture modules say whether Pillow, which image preparation needs, is installed."""

import importlib
import subprocess
import sys

import pytest

MODULES = ["resnet", "vgg", "googlenet"]


@pytest.mark.parametrize("name", MODULES)
def test_available_is_true_with_pillow(name):
    pytest.importorskip("PIL")
    module = importlib.import_module(f"chainer.links.model.vision.{name}")
    assert module.available is True


def test_available_is_false_without_pillow_and_pillow_is_not_imported():
    # A blocked PIL (None in sys.modules) behaves as not installed for find_spec.
    code = (
        "import sys\n"
        "sys.modules['PIL'] = None\n"
        "from chainer.links.model.vision import googlenet, resnet, vgg\n"
        "print(resnet.available, vgg.available, googlenet.available)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_importing_the_modules_does_not_import_pillow():
    code = (
        "import sys\nfrom chainer.links.model.vision import resnet\nprint('PIL' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
