"""Global and per-thread default contexts, context_scope, and grad's set_grad/retain_grad."""

import threading

import pytest

import chainerx


@pytest.fixture
def restore_contexts():
    global_context = chainerx.get_global_default_context()
    device = chainerx.get_default_device()
    yield
    chainerx.set_global_default_context(global_context)
    chainerx.set_default_context(None)
    chainerx.set_default_device(device)


@pytest.mark.usefixtures("restore_contexts")
def test_default_context_falls_back_to_the_global_one():
    global_context = chainerx.get_global_default_context()
    assert chainerx.get_default_context() is global_context
    mine = chainerx.Context()
    chainerx.set_default_context(mine)
    assert chainerx.get_default_context() is mine
    assert chainerx.get_default_device().context is mine
    assert chainerx.zeros((1,)).device.context is mine
    seen = []
    thread = threading.Thread(target=lambda: seen.append(chainerx.get_default_context()))
    thread.start()
    thread.join()
    assert seen == [global_context]  # another thread keeps the global default
    chainerx.set_default_context(None)
    assert chainerx.get_default_context() is global_context


@pytest.mark.usefixtures("restore_contexts")
def test_unset_contexts_raise_context_error():
    context = chainerx.Context()
    chainerx.set_global_default_context(None)
    with pytest.raises(chainerx.ContextError, match="the global default context is not set"):
        chainerx.get_global_default_context()
    with pytest.raises(chainerx.ContextError, match="neither this thread's nor the global"):
        chainerx.get_default_context()
    chainerx.set_default_context(context)
    assert chainerx.get_default_context() is context
    chainerx.set_default_context(None)
    chainerx.set_global_default_context(context)
    assert chainerx.get_default_context() is context


@pytest.mark.usefixtures("restore_contexts")
def test_context_scope_restores_context_and_device():
    outer, inner = chainerx.Context(), chainerx.Context()
    chainerx.set_default_context(outer)
    chainerx.set_default_device(outer.get_device("native:1"))
    scope = chainerx.context_scope(inner)
    assert chainerx.get_default_context() is outer  # takes effect on entering only
    with scope as entered:
        assert entered is inner
        assert chainerx.get_default_context() is inner
        assert chainerx.get_device("native:1").context is inner
    assert chainerx.get_default_context() is outer
    assert chainerx.get_default_device() is outer.get_device("native:1")
    with pytest.raises(TypeError, match="expects a chainerx.Context, got str"):
        chainerx.context_scope("native")


@pytest.mark.usefixtures("restore_contexts")
def test_default_context_is_kept_alive():
    chainerx.set_default_context(chainerx.Context())
    # No other reference: the setter holds one, so the context (and its device) stay valid.
    assert chainerx.get_default_device().name == "native:0"
    assert chainerx.ones((2,)).sum() == 2


def test_release_backprop_id():
    context = chainerx.get_default_context()
    backprop_id = context.make_backprop_id("bp1")
    assert backprop_id.name == "bp1" and backprop_id.context is context
    chainerx.zeros((1,)).require_grad(backprop_id)
    context.release_backprop_id(backprop_id)
    with pytest.raises(chainerx.ContextError, match="was released"):
        chainerx.zeros((1,)).require_grad(backprop_id)


def test_no_backprop_mode_accepts_a_context():
    with chainerx.no_backprop_mode(chainerx.get_default_context()):
        assert not chainerx.is_backprop_required()
    assert chainerx.is_backprop_required()


def test_grad_set_grad_and_retain_grad():
    x = chainerx.full((1,), 3.0).require_grad()
    w = chainerx.full((1,), 5.0).require_grad()
    a = x * 2
    b = a + w
    c = a + b
    gx, gw = chainerx.grad([c], [x, w], set_grad=True, retain_grad=True)
    assert float(gx[0]) == 4 and float(gw[0]) == 1
    assert float(x.grad[0]) == 4 and float(w.grad[0]) == 1
    assert float(a.get_grad()[0]) == 2 and float(b.get_grad()[0]) == 1
    y = chainerx.full((1,), 2.0).require_grad()
    h = y * y
    (gy,) = chainerx.grad([h * 3], [y])
    assert float(gy[0]) == 12
    assert y.grad is None and h.get_grad() is None
