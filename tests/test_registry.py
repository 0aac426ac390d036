from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from bench.registry import (
    ENTRY_POINT_GROUP,
    Formulation,
    formulation,
    formulations,
    get_formulation,
    parse_label,
    variant_label,
)
from bench.solve import default_choice
from bench.variants import variant_info, variants


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


def test_a_builtin_formulation_in_a_wrongly_named_file_is_an_error():
    from bench.registry import PluginError

    with pytest.raises(PluginError, match=r"formulations/shikaku/cpsat_\*\.py"):
        @formulation
        class Misplaced(Formulation):
            __module__ = "formulations.shikaku.sat_cover"
            puzzle = "shikaku"
            name = "cpsat-misplaced"
            kind = "cpsat"
            description = "a cpsat model in a sat file: a cpsat task would not find it"
    with pytest.raises(PluginError):
        @formulation
        class OtherPuzzle(Formulation):
            __module__ = "formulations.nurikabe.cpsat_mine"
            puzzle = "shikaku"
            name = "cpsat-elsewhere"
            kind = "cpsat"
            description = "a shikaku model in the nurikabe folder"
    assert ("shikaku", "cpsat-misplaced") not in {(c.puzzle, c.name) for c in formulations()}


def test_exact_and_lazy_are_reported_per_variant():
    @formulation
    class Eager(Formulation):
        puzzle = "shikaku"
        name = "test-eager-or-lazy"
        kind = "sat"
        description = "lazy only with cuts=lazy, inexact only with card=approx"
        parameters: ClassVar[dict[str, list[Any]]] = {"cuts": ["eager", "lazy"],
                                                      "card": ["exact", "approx"]}

        def is_lazy(self) -> bool:
            return bool(self.params["cuts"] == "lazy")

        def is_exact(self) -> bool:
            return bool(self.params["card"] == "exact")

    info = {v.label: (v.exact, v.lazy) for v in variant_info(Eager)}
    assert info == {
        "test-eager-or-lazy[cuts=eager,card=exact]": (True, False),
        "test-eager-or-lazy[cuts=eager,card=approx]": (False, False),
        "test-eager-or-lazy[cuts=lazy,card=exact]": (True, True),
        "test-eager-or-lazy[cuts=lazy,card=approx]": (False, True),
    }


def test_default_choice_is_the_puzzles_declared_default(monkeypatch):
    from bench.backends import get_backend
    from bench.puzzles import get_puzzle

    form, solver = default_choice("fillomino")  # a declared pair
    assert get_formulation("fillomino", form).kind in get_backend(solver).kinds
    assert default_choice("nurikabe") == ("robust", "robust")  # a declared selector

    @dataclass(frozen=True)
    class Declared:
        formulation: str
        solver: str
        evidence: str

    monkeypatch.setattr(get_puzzle("shikaku"), "default",
                        Declared("sat-cover", "glucose4", "reports/x/summary.md"), raising=False)
    assert default_choice("shikaku") == ("sat-cover", "glucose4")


def test_backends_are_registered_once_each():
    from bench.backends import all_backends, backends_for, get_backend

    names = [b.name for b in all_backends()]
    assert len(names) == len(set(names))
    assert {"cpsat", "glpk", "cbc", "highs", "cadical195"} <= set(names)
    assert get_backend("cbc") in backends_for("mip")
    with pytest.raises(KeyError, match="unknown solver"):
        get_backend("nope")


def test_every_formulation_is_typed_with_its_kinds_model_and_asserts_no_types():
    """One shape: ``Formulation[KindModel]`` on every registered class (directly or through a
    base), the model class of its kind's solvers; no ``assert isinstance`` in formulations/ or
    bench/encodings/ (the parametrised base types ``build``/``decode``/``block``)."""
    import typing

    from bench.backends import backends_for
    from bench.registry import Formulation, formulations
    from tests.conftest import ROOT

    def model_of(cls: type) -> object:
        for klass in cls.__mro__:
            for base in getattr(klass, "__orig_bases__", ()):
                origin = typing.get_origin(base)
                if isinstance(origin, type) and issubclass(origin, Formulation):
                    arg = typing.get_args(base)[0]
                    if not isinstance(arg, typing.TypeVar):
                        return arg
        return None

    untyped = []
    for cls in formulations():
        if not cls.__module__.startswith("formulations."):  # tests' deliberately broken ones
            continue
        want = {b.model_type for b in backends_for(cls.kind)}
        if model_of(cls) not in want:
            untyped.append(f"{cls.puzzle}/{cls.name}: {model_of(cls)}")
    assert not untyped
    asserts = [f"{p.relative_to(ROOT)}:{i}" for folder in ("formulations", "bench/encodings")
               for p in (ROOT / folder).rglob("*.py")
               for i, line in enumerate(p.read_text().splitlines(), 1)
               if "assert isinstance" in line]
    assert not asserts
