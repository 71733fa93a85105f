"""chainer.link.Chain and ChainList: child registration, list behaviour, copies, text, docs."""

import numpy
import pytest

import chainer
from chainer import initializers
from chainer._ops.array_ops import sum as sum_all
from chainer._ops.matmul import matmul
from chainer.link import Chain, ChainList, Link


class Linear(Link):
    """A stand-in for L.Linear: ``x @ W.T + b`` with W drawn from a seeded normal."""

    def __init__(self, in_size, out_size, seed=0):
        super().__init__()
        self.in_size, self.out_size = in_size, out_size
        w = numpy.random.default_rng(seed).standard_normal((out_size, in_size))
        with self.init_scope():
            self.W = chainer.Parameter(w.astype(numpy.float32))
            self.b = chainer.Parameter(initializers.Constant(0.1), (out_size,))

    def forward(self, x):
        return matmul(x, self.W, transb=True) + self.b

    @property
    def printable_specs(self):
        yield "in_size", self.in_size
        yield "out_size", self.out_size


# -- Chain ----------------------------------------------------------------------------------------


def test_chain_registers_links_assigned_in_scope_and_names_them():
    chain = Chain()
    with chain.init_scope():
        chain.encoder = Linear(2, 2)
    chain.helper = Linear(2, 2)  # outside the scope: a plain attribute
    assert list(chain.children()) == [chain.encoder]
    assert chain.encoder.name == "encoder"
    assert chain.helper.name is None
    assert chain["encoder"] is chain.encoder


def test_chain_refuses_to_register_over_an_existing_attribute():
    chain = Chain()
    chain.l1 = 3
    with pytest.raises(AttributeError, match="cannot register a new link l1: attribute exists"):
        with chain.init_scope():
            chain.l1 = Linear(1, 1)
    with pytest.raises(AttributeError, match="cannot register a new link l1: attribute exists"):
        chain.add_link("l1", Linear(1, 1))


def test_add_link_and_old_style_constructor():
    chain = Chain(second=Linear(1, 1), first=Linear(1, 1))
    chain.add_link("third", Linear(1, 1))
    assert [name for name, _ in chain.namedlinks(skipself=True)] == ["/first", "/second", "/third"]
    with pytest.raises(TypeError, match="non-link object as a child: got 3"):
        chain.add_link("fourth", 3)


def test_deleting_a_child_unregisters_it():
    chain = Chain(a=Linear(1, 1), b=Linear(1, 1))
    del chain.a
    assert [path for path, _ in chain.namedparams()] == ["/b/W", "/b/b"]


# -- ChainList ------------------------------------------------------------------------------------


def test_chain_list_holds_links_by_position():
    links = [Linear(1, 1, seed) for seed in range(3)]
    chain_list = ChainList(links[0])
    chain_list.add_link(links[1])
    chain_list.append(links[2])
    assert len(chain_list) == 3
    assert list(chain_list) == links
    assert chain_list[1] is links[1] and chain_list[-1] is links[2]
    assert chain_list[1:] == links[1:]
    assert [link.name for link in links] == ["0", "1", "2"]
    assert [path for path, _ in chain_list.namedparams()][::2] == ["/0/W", "/1/W", "/2/W"]
    assert links[1] in chain_list


def test_chain_list_insert_set_and_delete_renumber_the_children():
    a, b, c, d = (Linear(1, 1, seed) for seed in range(4))
    chain_list = ChainList(a, b)
    chain_list.insert(0, c)
    assert list(chain_list) == [c, a, b]
    chain_list[1] = d
    assert list(chain_list) == [c, d, b]
    del chain_list[0]
    assert list(chain_list) == [d, b]
    assert [link.name for link in chain_list] == ["0", "1"]
    assert list(chain_list.children()) == [d, b]


def test_chain_list_accepts_only_links():
    with pytest.raises(TypeError, match="a ChainList holds only links, got function"):
        ChainList(lambda x: x)
    chain_list = ChainList()
    with pytest.raises(TypeError, match="holds only links, got int"):
        chain_list.append(1)
    with pytest.raises(TypeError, match="cannot register the link 'l' by assignment"):
        with chain_list.init_scope():
            chain_list.l = Linear(1, 1)


def test_chain_list_copy_share_copies_every_child():
    chain_list = ChainList(Linear(2, 2), Linear(2, 2, 1))
    shared = chain_list.copy("share")
    assert [c.name for c in shared] == ["0", "1"]
    assert all(s is not o and s.W.array is o.W.array for s, o in zip(shared, chain_list))
    shared.append(Linear(1, 1))
    assert len(chain_list) == 2


def test_chain_list_serializes_children_under_their_positions():
    keys = []

    class KeyRecorder:
        def __init__(self, prefix=""):
            self.prefix = prefix

        def __getitem__(self, name):
            return KeyRecorder(f"{self.prefix}{name}/")

        def __call__(self, key, value):
            keys.append(self.prefix + key)
            return value

    ChainList(Linear(1, 1), ChainList(Linear(1, 1))).serialize(KeyRecorder())
    assert keys == ["0/W", "0/b", "1/0/W", "1/0/b"]


# -- traversal --------------------------------------------------------------------------------


class Unordered(Chain):
    """Children and parameters registered out of alphabetical order."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.zeta = Linear(2, 2)
            self.b = chainer.Parameter(numpy.zeros(1, numpy.float32))
            self.alpha = ChainList(Linear(1, 1), Link(b=1, W=None))  # W: uninitialized
            self.a = chainer.Parameter(numpy.zeros(1, numpy.float32))


def test_traversal_order_is_own_parameters_then_children_by_name_depth_first():
    model = Unordered()
    assert [path for path, _ in model.namedparams()] == [
        "/a",
        "/b",
        "/alpha/0/W",
        "/alpha/0/b",
        "/alpha/1/W",
        "/alpha/1/b",
        "/zeta/W",
        "/zeta/b",
    ]
    assert list(model.params()) == [param for _, param in model.namedparams()]
    assert [path for path, _ in model.namedlinks()] == [
        "/",
        "/alpha",
        "/alpha/0",
        "/alpha/1",
        "/zeta",
    ]
    assert list(model.links()) == [link for _, link in model.namedlinks()]
    assert list(model.links(skipself=True)) == list(model.links())[1:]
    assert [path for path, _ in model.namedlinks(skipself=True)] == [
        "/alpha",
        "/alpha/0",
        "/alpha/1",
        "/zeta",
    ]
    assert list(model.children()) == [model.alpha, model.zeta]


def test_uninitialized_parameters_are_skipped_on_request():
    model = Unordered()
    initialized = [path for path, _ in model.namedparams(include_uninit=False)]
    assert "/alpha/1/W" not in initialized
    assert len(initialized) == 7
    assert len(list(model.params(include_uninit=False))) == 7


def test_very_deep_trees_are_walked_without_recursion():
    depth = 3000  # deeper than Python's default recursion limit
    model = Link()
    model.add_param("W", 1)
    for _ in range(depth):
        outer = Chain()
        with outer.init_scope():
            outer.c = model
        model = outer
    ((path, _),) = model.namedparams()
    assert path == "/c" * depth + "/W"
    assert len(list(model.links())) == depth + 1
    model.cleargrads()


# -- text -----------------------------------------------------------------------------------------


def test_str_prints_the_tree_as_chainer_does():
    class Net(Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = Linear(4, 3)
                self.blocks = ChainList(Linear(3, 3), Chain())

    assert str(Net()) == (
        "Net(\n"
        "  (blocks): ChainList(\n"
        "    (0): Linear(in_size=3, out_size=3),\n"
        "    (1): Chain(),\n"
        "  ),\n"
        "  (l1): Linear(in_size=4, out_size=3),\n"
        ")"
    )
    assert repr(ChainList()) == "ChainList()"


# -- the docs' "Creating Models" ----------------------------------------------------------------


class MyChain(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = Linear(4, 3, seed=1)
            self.l2 = Linear(3, 2, seed=2)

    def forward(self, x):
        h = self.l1(x)
        return self.l2(h)


class MyChain2(ChainList):
    def __init__(self):
        super().__init__(Linear(4, 3, seed=1), Linear(3, 2, seed=2))

    def forward(self, x):
        h = self[0](x)
        return self[1](h)


@pytest.mark.parametrize("model_class", [MyChain, MyChain2])
def test_creating_models_example_computes_values_and_gradients(model_class):
    model = model_class()
    x = numpy.random.default_rng(3).uniform(-1, 1, (2, 4)).astype(numpy.float32)
    model.cleargrads()
    loss = sum_all(model(chainer.Variable(x)))
    loss.backward()

    w1, b1, w2, b2 = (p.array for p in model.params())
    h = x @ w1.T + b1
    numpy.testing.assert_allclose(loss.array, (h @ w2.T + b2).sum(), rtol=1e-5)
    g_y = numpy.ones((2, 2), numpy.float32)
    g_h = g_y @ w2
    expected = [g_h.T @ x, g_h.sum(0), g_y.T @ h, g_y.sum(0)]
    for param, grad in zip(model.params(), expected):
        numpy.testing.assert_allclose(param.grad, grad, rtol=1e-5, atol=1e-6)
    assert len(list(model.children())) == 2
    assert model.count_params() == 4 * 3 + 3 + 3 * 2 + 2


def test_children_is_a_set_of_names_as_in_v7_and_traversal_is_sorted():
    chain = Chain()
    with chain.init_scope():
        chain.zeta = Linear(2, 2)
        chain.alpha = Linear(2, 2)
    assert isinstance(chain._children, set) and chain._children == {"alpha", "zeta"}
    assert [name for name, _ in chain.namedlinks(skipself=True)] == ["/alpha", "/zeta"]
    copied = chain.copy()
    assert isinstance(copied._children, set) and copied._children is not chain._children
    with copied.init_scope():
        copied.beta = Linear(2, 2)
    assert chain._children == {"alpha", "zeta"}  # the copy has its own registry
    del chain.alpha
    assert chain._children == {"zeta"} and [c.name for c in chain.children()] == ["zeta"]


def test_device_id_is_deprecated_and_none_off_the_gpu():
    with pytest.warns(DeprecationWarning, match=r"Link._device_id is deprecated.*Link.device"):
        assert Linear(2, 2)._device_id is None
