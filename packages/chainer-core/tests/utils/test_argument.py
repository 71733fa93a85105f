"""chainer.utils.argument: keyword options and their errors."""

import pytest

from chainer.utils import argument


def dropout(x, **kwargs):
    return argument.parse_kwargs(
        kwargs,
        ("mask", None),
        ("return_mask", False),
        train="train argument is not supported anymore. Use chainer.using_config",
    )


class Link:
    def __init__(self, **kwargs):
        argument.assert_kwargs_empty(kwargs)


def test_defaults_and_given_values_in_order():
    assert dropout(1) == (None, False)
    assert dropout(1, return_mask=True) == (None, True)
    assert dropout(1, return_mask=True, mask="m") == ("m", True)


def test_given_dict_is_not_modified():
    kwargs = {"mask": 1}
    assert argument.parse_kwargs(kwargs, ("mask", None)) == (1,)
    assert kwargs == {"mask": 1}


def test_retired_option_raises_its_message():
    with pytest.raises(
        ValueError,
        match=r"^train argument is not supported anymore\. "
        r"Use chainer\.using_config$",
    ):
        dropout(1, train=True)


def test_unknown_option_names_the_caller_and_arguments():
    with pytest.raises(
        TypeError,
        match=r"^dropout\(\) got unexpected keyword argument\(s\) "
        r"'bar', 'foo'$",
    ):
        dropout(1, foo=1, bar=2, mask=None)


def test_assert_kwargs_empty():
    Link()
    with pytest.raises(TypeError, match=r"__init__\(\) got unexpected keyword argument\(s\) 'x'$"):
        Link(x=1)


def test_check_unexpected_kwargs():
    argument.check_unexpected_kwargs({"a": 1}, b="b is gone")
    with pytest.raises(ValueError, match="^b is gone$"):
        argument.check_unexpected_kwargs({"a": 1, "b": 2}, b="b is gone")
