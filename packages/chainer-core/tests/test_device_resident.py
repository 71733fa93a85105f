"""chainer.device_resident: DeviceResident and DeviceResidentsVisitor on the CPU."""

import warnings

import numpy
import pytest

import chainer
from chainer import backend
from chainer.backends import _chainerx, _cupy_probe
from chainer.device_resident import DeviceResident, DeviceResidentsVisitor


class FakeVariable:
    """Records the transfers a visitor asks of a variable."""

    def __init__(self):
        self.device = backend.CpuDevice()
        self.calls = []

    def to_device(self, device):
        self.calls.append(("to_device", device))
        self.device = device


class Node(DeviceResident):
    """A device resident owning arrays, variables and child nodes."""

    def __init__(self, arrays=(), variables=(), children=()):
        super().__init__()
        self.arrays = list(arrays)
        self.variables = list(variables)
        self.children = list(children)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.arrays = [visitor.visit_array(array) for array in self.arrays]
        for variable in self.variables:
            visitor.visit_variable(variable)
        for child in self.children:
            child.device_resident_accept(visitor)


class Collector(DeviceResidentsVisitor):
    def __init__(self):
        self.seen = []

    def visit_device_resident(self, device_resident):
        self.seen.append(("resident", device_resident))

    def visit_array(self, arr):
        self.seen.append(("array", arr))
        return arr * 2

    def visit_variable(self, param):
        self.seen.append(("variable", param))


def test_new_residents_are_on_the_cpu():
    node = Node()
    assert node.device == backend.CpuDevice()
    assert node.xp is numpy


def test_accept_visits_the_whole_hierarchy_in_order():
    array, variable = numpy.ones(2), FakeVariable()
    child = Node(arrays=[array])
    root = Node(variables=[variable], children=[child])
    collector = Collector()
    root.device_resident_accept(collector)
    assert [kind for kind, _ in collector.seen] == ["resident", "variable", "resident", "array"]
    assert collector.seen[0][1] is root and collector.seen[2][1] is child
    numpy.testing.assert_array_equal(child.arrays[0], [2, 2])  # the returned array is kept


def test_base_visitor_methods_are_abstract():
    visitor = DeviceResidentsVisitor()
    with pytest.raises(NotImplementedError, match="does not visit device residents"):
        visitor.visit_device_resident(Node())
    with pytest.raises(NotImplementedError, match="does not visit arrays"):
        visitor.visit_array(numpy.zeros(1))
    with pytest.raises(NotImplementedError, match="does not visit variables"):
        visitor.visit_variable(FakeVariable())


def test_to_cpu_and_to_device_numpy():
    array, variable = numpy.arange(3), FakeVariable()
    child = Node(arrays=[array, None])
    root = Node(variables=[variable], children=[child])
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        assert root.to_cpu() is root
    assert child.arrays[0] is array and child.arrays[1] is None
    assert variable.calls == [("to_device", backend.CpuDevice())]
    assert root.to_device("@numpy") is root and root.to_device(-1) is root
    assert child.device == backend.CpuDevice()
    assert len(variable.calls) == 3


def test_to_device_rejects_bad_specifiers():
    with pytest.raises(ValueError, match=r"invalid device specifier '@gpu'"):
        Node().to_device("@gpu")


def test_to_gpu_needs_cuda(monkeypatch):
    not_installed = _cupy_probe.CupyState(None, "CuPy is not installed")
    monkeypatch.setattr(_cupy_probe, "probe", lambda: not_installed)
    node = Node(arrays=[numpy.zeros(1)])
    with (
        pytest.warns(DeprecationWarning, match=r"to_gpu\(\) is deprecated"),
        pytest.raises(RuntimeError, match="CUDA is not available: CuPy is not installed"),
    ):
        node.to_gpu()
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        node.to_device("@cupy:0")
    assert node.device == backend.CpuDevice() and isinstance(node.arrays[0], numpy.ndarray)


def test_to_chx_needs_chainerx(monkeypatch):
    monkeypatch.setattr(
        _chainerx, "_load", lambda: (None, "the chainerx package is not installed")
    )
    with pytest.raises(
        RuntimeError, match=r"ChainerX is not available: .*pip install \./packages/chainerx ;"
    ):
        Node().to_chx()


def test_from_chx_off_chainerx_does_nothing():
    array = numpy.zeros(1)
    node = Node(arrays=[array], variables=[FakeVariable()])
    assert node.from_chx() is node
    assert node.arrays[0] is array and node.variables[0].calls == []


@pytest.mark.parametrize(
    ("method", "replacement"),
    [("to_cpu", "'@numpy'"), ("to_gpu", "'@cupy:N'"), ("to_intel64", "'@intel64'")],
)
def test_legacy_transfers_are_deprecated_as_in_chainer_v7(monkeypatch, method, replacement):
    not_installed = _cupy_probe.CupyState(None, "CuPy is not installed")
    monkeypatch.setattr(_cupy_probe, "probe", lambda: not_installed)
    message = rf"{method}\(\) is deprecated .*use to_device\({replacement}\) instead"
    with pytest.warns(DeprecationWarning, match=message) as record:
        try:
            getattr(Node(), method)()
        except RuntimeError:  # no CUDA / iDeep here: the warning comes first
            pass
    assert record[0].filename == __file__  # points at the caller


def test_to_device_and_chainerx_transfers_issue_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Node(arrays=[numpy.zeros(1)]).to_device("@numpy").from_chx()


@pytest.mark.parametrize("name", ["to_device", "to_chx", "from_chx"])
def test_final_moving_methods_cannot_be_overridden(name):
    with pytest.raises(TypeError, match=f"overrides {name}\\(\\), which a device resident"):
        type("Child", (chainer.Link,), {name: lambda self, *args: None})


def test_an_overridden_to_cpu_is_deprecated_and_still_called_on_moves():
    with pytest.warns(DeprecationWarning, match=r"Child overrides to_cpu\(\)"):

        class Child(chainer.Link):
            calls = 0

            def to_cpu(self):
                with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
                    super().to_cpu()
                type(self).calls += 1
                return self

    parent = chainer.Chain()
    with parent.init_scope():
        parent.child = Child()
    with pytest.warns(DeprecationWarning, match=r"moving Child through its overridden to_cpu"):
        parent.to_device("@numpy")
    assert Child.calls == 1
    with pytest.warns(DeprecationWarning):
        parent.to_cpu()
    assert Child.calls == 2
