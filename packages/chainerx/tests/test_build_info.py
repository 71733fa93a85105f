"""The compiled chainerx._core module loads and reports how it was built."""

import importlib.metadata

import chainerx


def test_version_matches_distribution():
    assert chainerx.__version__ == importlib.metadata.version("chainerx")


def test_build_info_fields():
    info = chainerx.build_info()
    assert set(info) == {"version", "compiler", "cxx_standard", "cuda_enabled", "backends", "blas"}
    assert info["blas"] in {"openblas", "native"}
    assert "native" in info["backends"]
    assert info["cuda_enabled"] is False
    assert int(info["cxx_standard"]) >= 201703


def test_build_info_is_a_fresh_dict_each_call():
    first = chainerx.build_info()
    first["version"] = "tampered"
    assert chainerx.build_info()["version"] == chainerx.__version__


def test_is_available_reports_the_compiled_core():
    # v7 code checks this before using ChainerX (its own test conftest does).
    assert chainerx.is_available() is True
