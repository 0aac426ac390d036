"""Names that forgive: labels and pairs with or without spaces, close matches for unknown names,
a formulation's sweep apart from its parameters (NAME[*] the whole grid)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from bench.labels import close_matches, normal_label, normal_pair, parse_label
from bench.registry import formulation, get_formulation
from bench.run.pool import Selection
from bench.variants import recommended, variants
from tests.test_check import Cover


@formulation
class Swept(Cover):
    name = "test-swept"
    parameters: ClassVar[dict[str, list[Any]]] = {"a": [1, 2, 3], "b": ["x", "y"]}
    sweep: ClassVar[dict[str, list[Any]] | None] = {"a": [1, 3]}


def test_spaces_around_brackets_commas_and_equals_are_ignored():
    assert parse_label(" sat-cover [ card = ladder , x=1 ] ") == (
        "sat-cover", {"card": "ladder", "x": "1"})
    assert normal_label("sat-cover [card = ladder]") == "sat-cover[card=ladder]"
    assert normal_pair("sat-mine/cadical195") == "sat-mine / cadical195"
    assert normal_pair(" sat-cover [card= ladder]  /cadical195") == \
        "sat-cover[card=ladder] / cadical195"
    assert parse_label("sat-hybrid[*]") == ("sat-hybrid", {"*": "*"})


def test_unknown_names_values_and_parameters_list_close_matches():
    assert close_matches("sat-covr", ["sat-cover", "mip-cover", "xyz"]).startswith(
        " (did you mean sat-cover")
    with pytest.raises(KeyError, match="did you mean test-swept"):
        get_formulation("shikaku", "test-swep")
    with pytest.raises(ValueError, match="did you mean b"):
        get_formulation("shikaku", "test-swept[bb=x]")
    with pytest.raises(ValueError, match="not one of x, y"):
        get_formulation("shikaku", "test-swept[b=z]")
    with pytest.raises(ValueError, match="every variant"):
        get_formulation("shikaku", "test-swept[*]")
    with pytest.raises(ValueError, match="parameter 'b' given twice"):
        parse_label("test-swept[b=x, b=y]")


def test_a_named_formulation_runs_its_sweep_and_name_star_the_grid():
    assert [v.label for v in recommended(Swept)] == ["test-swept[a=1,b=x]", "test-swept[a=3,b=x]"]
    grid = variants(Swept)
    assert len(grid) == 6
    picked = [v.label for v in grid if Selection((), ("test-swept",)).wants(v)]
    assert picked == ["test-swept[a=1,b=x]", "test-swept[a=3,b=x]"]
    assert sum(Selection((), ("test-swept[*]",)).wants(v) for v in grid) == 6
    assert sum(Selection((), ("test-swept",), every=True).wants(v) for v in grid) == 6
    assert sum(Selection((), ("test-swept[ b = y ]",)).wants(v) for v in grid) == 3
    assert sum(Selection(()).wants(v) for v in grid) == 2  # nothing named: the sweep


def test_a_sweep_value_outside_the_parameters_is_refused():
    with pytest.raises(TypeError, match="sweep"):
        @formulation
        class Bad(Cover):
            name = "test-bad-sweep"
            parameters: ClassVar[dict[str, list[Any]]] = {"a": [1]}
            sweep: ClassVar[dict[str, list[Any]] | None] = {"a": [2]}
