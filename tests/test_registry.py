from __future__ import annotations

import importlib.metadata

import pytest

from bench.registry import (
    ENTRY_POINT_GROUP,
    Formulation,
    formulation,
    get_formulation,
    parse_label,
    variant_label,
    variants,
)


def test_labels_round_trip():
    assert parse_label("sat-cover[card=ladder]") == ("sat-cover", {"card": "ladder"})
    assert parse_label("mip-cover") == ("mip-cover", {})
    assert variant_label("sat-cover", {"card": "ladder"}) == "sat-cover[card=ladder]"
    with pytest.raises(ValueError):
        parse_label("x[card]")


def test_get_formulation_defaults_and_parameters():
    assert get_formulation("shikaku", "sat-cover").params == {"card": "seqcounter"}
    assert get_formulation("shikaku", "sat-cover[card=totalizer]").label == \
        "sat-cover[card=totalizer]"
    with pytest.raises(ValueError, match="not one of"):
        get_formulation("shikaku", "sat-cover[card=magic]")
    with pytest.raises(KeyError, match="no formulation 'nope'"):
        get_formulation("shikaku", "nope")


def test_variants_expand_the_parameter_grid():
    cls = type(get_formulation("shikaku", "sat-cover"))
    assert len(variants(cls)) == len(cls.parameters["card"])


def test_decorator_rejects_incomplete_plugins():
    with pytest.raises(TypeError, match="'kind'"):
        @formulation
        class Incomplete(Formulation):
            puzzle = "shikaku"
            name = "broken"
            description = "no kind"


def test_builtin_formulations_are_an_entry_point():
    try:
        importlib.metadata.distribution("puzzlebench")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("puzzlebench is not installed (run through nox or pip install -e .)")
    names = {ep.value for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    assert "formulations" in names
