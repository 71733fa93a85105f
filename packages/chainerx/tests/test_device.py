"""Backends, devices and the default device."""

import threading

import pytest

import chainerx


def test_get_backend_and_devices():
    native = chainerx.get_backend("native")
    assert native.name == "native"
    assert native.get_device_count() >= 2
    d = chainerx.get_device("native:1")
    assert d is chainerx.get_device("native", 1)
    assert d is native.get_device(1)
    assert d.index == 1 and d.backend is native
    assert chainerx.get_device(d) is d
    assert d.context is chainerx.get_default_context()


def test_bad_device_and_backend_names():
    with pytest.raises(chainerx.DeviceError, match="invalid device specifier 'native:x'"):
        chainerx.get_device("native:x")
    with pytest.raises(
        chainerx.DeviceError, match="device index 99 is out of range for backend 'native'"
    ):
        chainerx.get_device("native:99")
    with pytest.raises(chainerx.BackendError, match="backend 'nosuchbackend' not found"):
        chainerx.get_backend("nosuchbackend")
    with pytest.raises(chainerx.DeviceError, match="expected a chainerx.Device or a specifier"):
        chainerx.zeros((1,), device=3.5)


def test_using_device_and_default_device():
    assert chainerx.get_default_device().name == "native:0"
    with chainerx.using_device("native:1") as scope:
        device = scope.device
        assert device.name == "native:1"
        assert chainerx.zeros((1,)).device is device
        assert chainerx.array([1]).device is device
        with chainerx.using_device("native", 2):
            assert chainerx.get_default_device().name == "native:2"
        assert chainerx.get_default_device() is device
    assert chainerx.get_default_device().name == "native:0"


def test_default_device_is_per_thread():
    seen = []
    with chainerx.using_device("native:1"):
        thread = threading.Thread(target=lambda: seen.append(chainerx.get_default_device().name))
        thread.start()
        thread.join()
    assert seen == ["native:0"]


def test_to_device_copies_and_mixing_devices_fails():
    a = chainerx.array([1.0, 2.0])
    b = a.to_device("native:1")
    assert b.device.name == "native:1" and b.data_ptr != a.data_ptr
    assert a.to_device(a.device) is not None
    assert a.to_device("native", 1).device.name == "native:1"
    with pytest.raises(chainerx.DeviceError, match="native:0 and native:1"):
        a + b


def test_context_objects():
    context = chainerx.Context()
    device = context.get_device("native:0")
    assert device is not chainerx.get_device("native:0")
    assert device.context is context


def test_device_scope_closed_by_hand_and_by_exception():
    scope = chainerx.using_device("native:1")
    assert isinstance(scope, chainerx.DeviceScope)
    assert scope.__enter__() is scope and scope.device.name == "native:1"
    assert chainerx.get_default_device().name == "native:1"
    scope.__exit__()  # v7's conftest closes scopes without exception arguments
    assert chainerx.get_default_device().name == "native:0"
    with pytest.raises(KeyError):
        with chainerx.DeviceScope(chainerx.get_device("native:2")):
            raise KeyError("inside")
    assert chainerx.get_default_device().name == "native:0"
    with pytest.raises(RuntimeError, match="exited without being entered"):
        scope.__exit__()


def test_get_device_none_is_the_default_device():
    assert chainerx.get_device(None) is chainerx.get_default_device()
    assert chainerx.get_device() is chainerx.get_default_device()
    with chainerx.using_device("native:1"):
        assert chainerx.get_device(None).name == "native:1"
