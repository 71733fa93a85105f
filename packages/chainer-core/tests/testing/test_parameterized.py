import numpy
import pytest

from chainer import testing
from chainer.testing import _bundle, parameterized

# product / product_dict / from_pytest_parameterize


def test_product_of_dict_is_every_combination_with_sorted_names():
    result = testing.product({"b": [1, 2], "a": ["x", "y", "z"]})
    expected = [{"a": a, "b": b} for a in ["x", "y", "z"] for b in [1, 2]]
    assert result == expected
    assert [list(d) for d in result] == [["a", "b"]] * 6


def test_product_accepts_tuples_and_ranges():
    assert testing.product({"n": range(2), "s": ("p",)}) == [
        {"n": 0, "s": "p"},
        {"n": 1, "s": "p"},
    ]


def test_product_of_empty_candidates_is_empty():
    assert testing.product({"a": [1, 2], "b": []}) == []


def test_product_of_list_is_product_dict():
    parts = [[{"a": 1}, {"a": 2}], [{"b": 3}, {"b": 4, "c": 5}]]
    assert testing.product(parts) == testing.product_dict(*parts)
    assert testing.product(parts) == [
        {"a": 1, "b": 3},
        {"a": 1, "b": 4, "c": 5},
        {"a": 2, "b": 3},
        {"a": 2, "b": 4, "c": 5},
    ]


def test_product_dict_later_lists_win_on_shared_names():
    assert testing.product_dict([{"a": 1, "b": 1}], [{"b": 2}]) == [{"a": 1, "b": 2}]


def test_product_dict_without_lists_is_one_empty_set():
    assert testing.product_dict() == [{}]


def test_product_rejects_a_string_of_candidates():
    with pytest.raises(TypeError, match=r"product: the value of 'dtype' must be a list.*str"):
        testing.product({"dtype": "float32"})


def test_product_rejects_other_types():
    with pytest.raises(TypeError, match="product expects a dict of lists or a list of lists"):
        testing.product(3)


def test_product_dict_rejects_non_dicts():
    with pytest.raises(TypeError, match=r"product_dict \(argument 1\) expects dicts.*int 3"):
        testing.product_dict([{"a": 1}], [3])
    with pytest.raises(TypeError, match="product_dict expects lists of dicts, got dict"):
        testing.product_dict({"a": 1})


def test_from_pytest_parameterize_with_comma_names():
    result = testing.from_pytest_parameterize("x, y", [(1, "a"), (2, "b")])
    assert result == [{"x": 1, "y": "a"}, {"x": 2, "y": "b"}]


def test_from_pytest_parameterize_with_one_name_takes_bare_values():
    assert testing.from_pytest_parameterize(["x"], [(1, 2), 3]) == [{"x": (1, 2)}, {"x": 3}]


def test_from_pytest_parameterize_length_mismatch():
    with pytest.raises(ValueError, match=r"2 names \['x', 'y'\] but 3 values \(1, 2, 3\)"):
        testing.from_pytest_parameterize("x,y", [(1, 2, 3)])


# parameterize on classes


def test_parameterize_generates_named_subclasses_and_removes_the_original(fake_module):
    base = fake_module.make_class(test_a=lambda self: None)
    record = testing.parameterize({"x": 1, "dtype": numpy.float32}, {"x": 2, "dtype": "s"})(base)
    assert isinstance(record, _bundle.GeneratedTestClasses)
    assert not callable(record) and not isinstance(record, type)
    names = ["TestFoo_param_0_{x=1, dtype=float32}", "TestFoo_param_1_{x=2, dtype='s'}"]
    assert fake_module.class_names() == names
    assert [c.__name__ for c in record.classes] == names
    first, second = (fake_module.get(name) for name in names)
    assert issubclass(first, base) and first.x == 1 and first.dtype is numpy.float32
    assert second.x == 2 and second.dtype == "s"
    assert first.__module__ == fake_module.module.__name__ and first.__qualname__ == names[0]
    assert "TestFoo" not in vars(fake_module.module)


def test_parameterized_unittest_methods_see_their_parameters(fake_module, run_unittest):
    seen = []
    base = fake_module.make_class(test_a=lambda self: seen.append(self.x))
    record = testing.parameterize({"x": 1}, {"x": 2}, {"x": 3})(base)
    result = run_unittest(record.classes)
    assert result.wasSuccessful() and result.testsRun == 3
    assert sorted(seen) == [1, 2, 3]


def test_stacked_parameterize_is_a_product(fake_module):
    base = fake_module.make_class(test_a=lambda self: None)
    inner = testing.parameterize({"a": 1}, {"a": 2})(base)
    outer = testing.parameterize({"b": "u"}, {"b": "v"})(inner)
    assert fake_module.class_names() == sorted(c.__name__ for c in outer.classes)
    assert len(outer.classes) == 4
    assert sorted((c.a, c.b) for c in outer.classes) == [(1, "u"), (1, "v"), (2, "u"), (2, "v")]
    assert "TestFoo_param_0_{a=1}_param_1_{b='v'}" in fake_module.class_names()


def test_parameterize_with_no_sets_generates_nothing(fake_module):
    record = testing.parameterize()(fake_module.make_class())
    assert record.classes == [] and fake_module.class_names() == []


def test_long_values_are_shortened_in_names(fake_module):
    record = testing.parameterize({"v": list(range(100))})(fake_module.make_class())
    (name,) = [c.__name__ for c in record.classes]
    assert name.startswith("TestFoo_param_0_{v=[0, 1, 2") and name.endswith("...}")
    assert len(name) < 80


def test_parameterize_rejects_non_dicts_and_bad_names():
    with pytest.raises(TypeError, match=r"parameterize expects dicts.*list \[1\] at position 1"):
        testing.parameterize({"a": 1}, [1])
    with pytest.raises(TypeError, match="parameter names must be identifiers, got 'a b'"):
        testing.parameterize({"a b": 1})


def test_parameterize_rejects_non_callables():
    with pytest.raises(
        TypeError, match="parameterize decorates a test class or function, got int"
    ):
        testing.parameterize({"a": 1})(3)


def test_parameterize_pytest_builds_dicts(fake_module):
    record = testing.parameterize_pytest("x,y", [(1, 2), (3, 4)])(fake_module.make_class())
    assert [(c.x, c.y) for c in record.classes] == [(1, 2), (3, 4)]


# parameterize on functions


def test_parameterize_on_a_function_is_pytest_parametrize():
    def test_f(x, y):
        pass

    decorated = testing.parameterize({"x": 1, "y": numpy.float16}, {"y": 2, "x": 3})(test_f)
    (mark,) = decorated.pytestmark
    assert mark.name == "parametrize"
    names, values = mark.args
    assert names == ["x", "y"]
    assert [p.values for p in values] == [(1, numpy.float16), (3, 2)]
    assert [p.id for p in values] == ["x=1, y=float16", "y=2, x=3"]


def test_parameterize_on_a_function_needs_the_same_names():
    def test_f(x):
        pass

    with pytest.raises(ValueError, match=r"position 0 has \['x'\], position 1 has \['y'\]"):
        testing.parameterize({"x": 1}, {"y": 2})(test_f)


def test_parameterize_on_a_function_without_sets_skips_it():
    def test_f():
        pass

    (mark,) = testing.parameterize()(test_f).pytestmark
    assert mark.name == "skip" and "no parameter sets" in mark.kwargs["reason"]


def test_describe_uses_names_of_types_and_functions():
    assert parameterized._describe({"f": numpy.sin, "t": int, "d": numpy.dtype("f4")}) == (
        "f=sin, t=int, d=dtype('float32')"
    )


def test_pytest_collects_every_parameterized_form(run_pytest):
    run = run_pytest(
        """
        import unittest
        from chainer import testing

        @testing.parameterize(*testing.product({'n': [1, 2], 's': ['a']}))
        class TestUnit(unittest.TestCase):
            def test_n(self):
                assert self.n in (1, 2) and self.s == 'a'

            def test_fails_for_two(self):
                assert self.n != 2

        @testing.parameterize({'n': 3}, {'n': 4})
        class TestPlain:
            def test_n(self, tmp_path):
                assert self.n in (3, 4) and tmp_path.exists()

        @testing.parameterize({'k': 5}, {'k': 6})
        def test_function(k):
            assert k in (5, 6)
        """
    )
    assert run.outcomes == {
        "TestUnit_param_0_{n=1, s='a'}::test_fails_for_two": "PASSED",
        "TestUnit_param_0_{n=1, s='a'}::test_n": "PASSED",
        "TestUnit_param_1_{n=2, s='a'}::test_fails_for_two": "FAILED",
        "TestUnit_param_1_{n=2, s='a'}::test_n": "PASSED",
        "TestPlain_param_0_{n=3}::test_n": "PASSED",
        "TestPlain_param_1_{n=4}::test_n": "PASSED",
        "test_function[k=5]": "PASSED",
        "test_function[k=6]": "PASSED",
    }, run.output


def test_parameterize_needs_an_imported_module():
    orphan = type("TestOrphan", (), {"__module__": "not_imported_anywhere"})
    with pytest.raises(
        ValueError, match="the module 'not_imported_anywhere' of TestOrphan is not"
    ):
        testing.parameterize({"a": 1})(orphan)


def test_other_decorators_stack_over_parameterize(run_pytest):
    run = run_pytest(
        """
        import unittest
        import numpy
        from chainer import testing
        from chainer.testing import attr

        FIRST = float(numpy.random.RandomState(0).uniform())

        @attr.slow
        @testing.with_requires('numpy<1.0')
        @testing.parameterize({'n': 1}, {'n': 2})
        class TestSkipped(unittest.TestCase):
            def test_a(self):
                pass

        @attr.slow
        @testing.fix_random()
        @testing.parameterize({'n': 1}, {'n': 2})
        class TestFixed(unittest.TestCase):
            def setUp(self):
                self.x = float(numpy.random.uniform())

            def test_a(self):
                assert self.x == FIRST
        """,
        "-m",
        "slow",
    )
    assert run.outcomes == {
        "TestSkipped_param_0_{n=1}::test_a": "SKIPPED",
        "TestSkipped_param_1_{n=2}::test_a": "SKIPPED",
        "TestFixed_param_0_{n=1}::test_a": "PASSED",
        "TestFixed_param_1_{n=2}::test_a": "PASSED",
    }, run.output


def test_product_comma_key_names_parameters_that_vary_together():
    result = testing.product({"shape,fans": [((2, 3), (3, 2)), ((4,), (4, 4))], "k": [1, 2]})
    assert result == [
        {"k": 1, "shape": (2, 3), "fans": (3, 2)},
        {"k": 1, "shape": (4,), "fans": (4, 4)},
        {"k": 2, "shape": (2, 3), "fans": (3, 2)},
        {"k": 2, "shape": (4,), "fans": (4, 4)},
    ]
    with pytest.raises(ValueError, match=r"each value of 'a,b' must be a list or tuple of 2"):
        testing.product({"a,b": [(1, 2, 3)]})


def _triple(x):
    return 3 * x


@testing.parameterize({"func": _triple}, {"func": lambda x: x + 1})
class TestFunctionValuedParameterIsNotBound:
    def test_called_with_its_own_arguments_only(self):
        assert self.func(2) in (6, 3)


def test_v7_product_dict_orig_is_the_product_dict_to_restore():
    assert parameterized._product_dict_orig is testing.product_dict
    assert parameterized._product_dict_orig([{"a": 1}], [{"b": 2}]) == [{"a": 1, "b": 2}]
