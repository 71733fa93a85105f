"""Hyperparameter: parent chaining, get_dict, copies; HyperparameterProxy."""

import copy
import pickle

import pytest

from chainer.optimizer import Hyperparameter, HyperparameterProxy


@pytest.fixture
def chain():
    root = Hyperparameter()
    root.lr = 0.1
    root.eps = 1e-8
    middle = Hyperparameter(root)
    middle.beta = 0.9
    leaf = Hyperparameter(middle)
    return root, middle, leaf


def test_lookup_falls_back_through_every_parent(chain):
    root, middle, leaf = chain
    assert leaf.lr == 0.1
    assert leaf.beta == 0.9
    assert leaf.parent is middle
    assert middle.parent is root
    assert root.parent is None


def test_parent_changes_are_seen_live(chain):
    root, _, leaf = chain
    root.lr = 0.5
    assert leaf.lr == 0.5


def test_setting_on_child_overrides_without_touching_parent(chain):
    root, middle, leaf = chain
    leaf.lr = 0.01
    assert leaf.lr == 0.01
    assert middle.lr == 0.1
    assert root.lr == 0.1
    assert "lr" not in vars(middle)


def test_get_dict_merges_parents_child_wins(chain):
    root, middle, leaf = chain
    leaf.eps = 1e-3
    assert leaf.get_dict() == {"lr": 0.1, "eps": 1e-3, "beta": 0.9}
    assert middle.get_dict() == {"lr": 0.1, "eps": 1e-8, "beta": 0.9}
    assert root.get_dict() == {"lr": 0.1, "eps": 1e-8}


def test_missing_entry_names_it_and_the_set_ones(chain):
    _, _, leaf = chain
    with pytest.raises(AttributeError, match=r"'alpha' is not set; set ones: \['beta', 'eps'"):
        leaf.alpha  # noqa: B018
    assert getattr(leaf, "alpha", None) is None
    assert not hasattr(Hyperparameter(), "lr")


def test_repr_lists_visible_entries_sorted(chain):
    _, _, leaf = chain
    assert repr(leaf) == "Hyperparameter(beta=0.9, eps=1e-08, lr=0.1)"


def test_public_module_path():
    assert Hyperparameter.__module__ == "chainer.optimizer"
    assert HyperparameterProxy.__module__ == "chainer.optimizer"


@pytest.mark.parametrize(
    "clone", [copy.deepcopy, lambda hp: pickle.loads(pickle.dumps(hp))], ids=["deepcopy", "pickle"]
)
def test_copies_keep_values_and_chain_but_are_independent(chain, clone):
    root, _, leaf = chain
    leaf.eps = 1e-3
    twin = clone(leaf)
    assert twin.get_dict() == leaf.get_dict()
    assert twin.parent.parent.lr == 0.1
    assert twin.parent.parent is not root
    twin.lr = 7.0
    root.beta = 0.0
    assert leaf.lr == 0.1
    assert twin.beta == 0.9


def test_shallow_copy_shares_parent(chain):
    _, middle, leaf = chain
    twin = copy.copy(leaf)
    assert twin.parent is middle
    assert twin.lr == 0.1


class _Owner:
    lr = HyperparameterProxy("lr")

    def __init__(self):
        self.hyperparam = Hyperparameter()
        self.hyperparam.lr = 0.25


def test_proxy_reads_and_writes_the_hyperparameter():
    owner = _Owner()
    assert owner.lr == 0.25
    owner.lr = 0.5
    assert owner.hyperparam.lr == 0.5
    assert "lr" not in vars(owner)


def test_proxy_on_the_class_is_the_descriptor_with_a_doc():
    assert isinstance(_Owner.lr, HyperparameterProxy)
    assert _Owner.lr.__doc__ == "Alias to ``self.hyperparam.lr``."
