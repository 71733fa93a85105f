"""chainer.utils.meta: final methods."""

import abc
import warnings

import pytest

from chainer import utils


class Base(utils.enable_final()):
    @utils.final
    def run(self):
        return "base"

    @utils.final(action=DeprecationWarning)
    def legacy(self):
        return "base"

    def free(self):
        return "base"


def test_overriding_a_final_method_raises():
    with pytest.raises(TypeError, match=r"\.Derived\.run overrides the final method Base\.run$"):

        class Derived(Base):
            def run(self):
                return "derived"


def test_grandchildren_are_checked_too():
    class Child(Base):
        pass

    with pytest.raises(TypeError, match=r"Grandchild\.run overrides the final method Base\.run"):

        class Grandchild(Child):
            run = None


def test_warning_action():
    with pytest.warns(
        DeprecationWarning,
        match=r"Derived\.legacy overrides the final method "
        r"Base\.legacy",
    ) as record:

        class Derived(Base):
            def legacy(self):
                return "derived"

    assert record[0].filename == __file__  # points at the class statement
    assert Derived().legacy() == "derived"


def test_other_methods_can_be_overridden():
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        class Derived(Base):
            def free(self):
                return "derived"

    assert Derived().free() == "derived"
    assert Derived().run() == "base"


def test_bases_and_metaclasses():
    class Mixin:
        def hello(self):
            return "hi"

    class Abstract(utils.enable_final(base=Mixin, meta_base=abc.ABCMeta)):
        @abc.abstractmethod
        def need(self): ...

        @utils.final
        def fixed(self): ...

    assert isinstance(Abstract, abc.ABCMeta)
    with pytest.raises(TypeError, match="abstract"):
        Abstract()
    with pytest.raises(TypeError, match=r"Impl\.fixed overrides the final method"):

        class Impl(Abstract):
            def need(self): ...

            def fixed(self): ...

    class Good(Abstract):
        def need(self):
            return self.hello()

    assert Good().need() == "hi"


def test_final_arguments():
    with pytest.raises(TypeError, match=r"action must be an exception or warning class, got 3"):
        utils.final(action=3)
    with pytest.raises(TypeError, match=r"final\(\) got unexpected keyword argument\(s\) 'bad'"):
        utils.final(bad=1)
    with pytest.raises(TypeError, match=r"final\(\) takes a method"):
        utils.final(1, 2)
