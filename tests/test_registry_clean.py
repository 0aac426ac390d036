"""Each test starts from the registries the previous one found (tests/conftest.py's autouse
``clean_registries``): a class a test registers is gone in the next test, one it unregisters is
back, and what the registries' loaders registered on first use stays. The tests of this module
run in file order: the second checks what the first left."""

from __future__ import annotations

import sys

import pytest

from bench import registry
from bench.models import SatModel
from bench.puzzles import Puzzle, register_puzzle
from bench.puzzles import registry as puzzle_registry
from bench.registry import Formulation, find_formulation, formulation
from tests.conftest import _restore

#: the names the first test registered, for the second (empty: the first did not run)
REGISTERED: list[tuple[str, str]] = []


def test_a_test_registers_a_throwaway_formulation_and_puzzle():
    @formulation
    class Throwaway(Formulation[SatModel]):
        puzzle = "shikaku"
        name = "sat-throwaway-clean"
        kind = "sat"
        description = "registered by one test only"

    @register_puzzle
    class ThrowawayPuzzle(Puzzle):
        name = "throwaway_clean"

    assert registry._FORMULATIONS[("shikaku", "sat-throwaway-clean")] is Throwaway
    assert "throwaway_clean" in puzzle_registry._PUZZLES
    REGISTERED.append(("shikaku", "sat-throwaway-clean"))


def test_the_next_test_finds_neither():
    if not REGISTERED:
        pytest.skip("checks what the previous test of this module registered")
    assert not set(REGISTERED) & set(registry._FORMULATIONS)
    assert all(cls.name != "sat-throwaway-clean" for cls in registry.formulations("shikaku"))
    assert "throwaway_clean" not in puzzle_registry._PUZZLES


class _Local(Formulation[SatModel]):
    puzzle = "shikaku"
    name = "sat-local-clean"
    kind = "sat"
    description = "never registered: a value for the table below"


def test_a_loaders_registration_stays_and_a_removed_entry_comes_back():
    """A class of a built-in module still imported, or of a module the registry imported
    itself, stays (importing it again would not register it again); another goes; an entry
    removed meanwhile is put back, in the same table."""
    builtin = find_formulation("shikaku", "sat-cover", ["sat"])
    assert builtin.__module__ in sys.modules
    table: dict[tuple[str, str], type] = {("shikaku", "kept"): _Local}
    saved = dict(table)
    del table[("shikaku", "kept")]
    table |= {("shikaku", "builtin"): builtin, ("shikaku", "plugin"): _Local,
              ("shikaku", "throwaway"): _Local}
    _restore(table, saved, "formulations", loaded=set())
    assert table == {("shikaku", "kept"): _Local, ("shikaku", "builtin"): builtin}
    table[("shikaku", "plugin")] = _Local
    _restore(table, saved, "formulations", loaded={__name__})
    assert ("shikaku", "plugin") in table
