"""chainer.link_hook.LinkHook: local and global (thread-local) hooks around Link.__call__."""

import threading

import numpy
import pytest

import chainer
from chainer.link import Chain, Link
from chainer.link_hook import LinkHook


class Scale(Link):
    def __init__(self, factor):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.array(factor, numpy.float32))

    def forward(self, x, *, shift=0.0):
        return x * self.w + shift


class Pair(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.first = Scale(2.0)
            self.second = Scale(3.0)

    def forward(self, x):
        return self.second(self.first(x))


class Recording(LinkHook):
    """Appends ``(hook name, event, link name, ...)`` to a shared log."""

    def __init__(self, name, log):
        self.name = name
        self.log = log

    def added(self, link):
        self.log.append((self.name, "added", link))

    def deleted(self, link):
        self.log.append((self.name, "deleted", link))

    def forward_preprocess(self, args):
        self.log.append(
            (self.name, "pre", args.link.name, args.forward_name, args.args, args.kwargs)
        )

    def forward_postprocess(self, args):
        self.log.append((self.name, "post", args.link.name, float(args.out.array)))


def test_base_hook_does_nothing_and_is_named_link_hook():
    hook = LinkHook()
    assert hook.name == "LinkHook"
    link = Scale(2.0)
    link.add_hook(hook)
    assert float(link(numpy.float32(1.0)).array) == 2.0


def test_local_hook_sees_arguments_and_output_of_its_link_only():
    log = []
    model = Pair()
    hook = Recording("rec", log)
    assert model.first.add_hook(hook) is model.first
    assert model.first.local_link_hooks == {"rec": hook}
    x = numpy.float32(1.5)
    model(x)
    model.first(x, shift=1.0)
    assert log == [
        ("rec", "added", model.first),
        ("rec", "pre", "first", "forward", (x,), {}),
        ("rec", "post", "first", 3.0),
        ("rec", "pre", "first", "forward", (x,), {"shift": 1.0}),
        ("rec", "post", "first", 4.0),
    ]
    model.first.delete_hook("rec")
    assert log[-1] == ("rec", "deleted", model.first)
    model(x)
    assert len(log) == 6


def test_global_hooks_run_for_every_link_before_local_ones():
    log = []
    model = Pair()
    model.add_hook(Recording("local", log), name="mine")
    assert log.pop() == ("local", "added", model)
    with Recording("global", log) as hook:
        assert isinstance(hook, Recording)
        model(numpy.float32(1.0))
    assert [entry[:3] for entry in log] == [
        ("global", "added", None),
        ("global", "pre", None),
        ("local", "pre", None),
        ("global", "pre", "first"),
        ("global", "post", "first"),
        ("global", "pre", "second"),
        ("global", "post", "second"),
        ("global", "post", None),
        ("local", "post", None),
        ("global", "deleted", None),
    ]
    assert list(model.local_link_hooks) == ["mine"]


def test_global_hooks_are_local_to_their_thread():
    log = []
    seen_in_other_thread = []

    def call_in_other_thread():
        Scale(1.0)(numpy.float32(1.0))
        seen_in_other_thread.append(len(log))

    with Recording("global", log):
        thread = threading.Thread(target=call_in_other_thread)
        thread.start()
        thread.join()
    assert seen_in_other_thread == [1]  # only the "added" entry


def test_registration_errors_name_the_problem():
    link = Scale(1.0)
    with pytest.raises(TypeError, match="hook must be a chainer.LinkHook, got function"):
        link.add_hook(lambda args: None)
    link.add_hook(LinkHook())
    with pytest.raises(KeyError, match="link hook 'LinkHook' already exists on this link"):
        link.add_hook(LinkHook())
    with pytest.raises(KeyError, match="link hook 'missing' does not exist"):
        link.delete_hook("missing")
    with LinkHook():
        with pytest.raises(KeyError, match="'LinkHook' already exists in this thread"):
            LinkHook().__enter__()


def test_callback_args_repr_lists_the_fields():
    seen = []

    class Keep(LinkHook):
        def forward_postprocess(self, args):
            seen.append(repr(args))

    link = Scale(1.0)
    link.add_hook(Keep())
    link(numpy.float32(2.0))
    assert seen[0].startswith(
        "<_ForwardPostprocessCallbackArgs link=Scale(), forward_name='forward'"
    )
    assert "out=variable(2.)>" in seen[0]
