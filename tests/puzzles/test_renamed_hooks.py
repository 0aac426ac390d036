"""The puzzle hooks' old names (``check``, ``check_cells``, ``check_shape``, until 0.3): a
puzzle that defines ``check`` is verified by it, with a DeprecationWarning naming ``verify``;
calling an old name warns and answers as the new one; a puzzle that uses the new names warns
about nothing."""

from __future__ import annotations

import warnings

import pytest

from bench.instance import parse_instance
from bench.puzzles import Puzzle, get_puzzle

INST = parse_instance("puzzle: nurikabe\n\n2 . . .\n. . . 2\n. . 1 .\n2 . . .\n", "n.txt")
GOOD = [list(row) for row in ("..#.", "###.", ".#.#", ".###")]
BAD = [list(row) for row in ("....", "###.", ".#.#", ".###")]


def test_calling_check_warns_and_answers_as_verify():
    rules = get_puzzle("nurikabe")
    assert rules.verify(INST, GOOD) == [] and rules.verify(INST, BAD) != []
    for grid in (GOOD, BAD):
        with pytest.warns(DeprecationWarning, match=r"Puzzle\.check is renamed Puzzle\.verify "
                          r"\(the old name works until 0\.3\)"):
            assert rules.check(INST, grid) == rules.verify(INST, grid)
    with pytest.warns(DeprecationWarning, match=r"Puzzle\.check_shape is renamed"):
        assert rules.check_shape(INST, [["."]]) == rules.verify_shape(INST, [["."]]) != []


def test_a_puzzle_defining_check_is_verified_by_it():
    with pytest.warns(DeprecationWarning, match=r"\.Old\.check: the puzzle hook 'check' is "
                      r"renamed 'verify' \(the old name works until 0\.3\)"):
        class Old(Puzzle):
            name = "old"

            def check(self, inst, grid):
                return self.check_cells(inst, grid, lambda v: v == "x", "'x'")

    old = Old()
    with pytest.warns(DeprecationWarning, match=r"Puzzle\.check_cells is renamed "
                      r"Puzzle\.verify_cells"):
        assert old.verify(INST, GOOD) == [f"cell ({r},{c}) holds {v!r}, not 'x'"
                                          for r, row in enumerate(GOOD)
                                          for c, v in enumerate(row)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert old.check(INST, [["x"] * 4] * 4) == []  # its own method: it warns of nothing
    assert [str(w.message).split(" is ")[0] for w in caught] == ["Puzzle.check_cells"]


def test_a_puzzle_using_the_new_names_warns_about_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        class New(Puzzle):
            name = "new"

            def verify(self, inst, grid):
                return self.verify_shape(inst, grid)

        assert New().verify(INST, GOOD) == []
        assert New().verify(INST, [["."]]) == ["grid has 1 rows, expected 4"]


def test_an_old_plugin_extending_a_built_in_reaches_the_built_ins_rules():
    # a plugin written for 0.1 that overrides `check` of a built-in puzzle and calls super():
    # its own rule is added to the built-in's verification, no recursion through the alias
    nurikabe = type(get_puzzle("nurikabe"))
    with pytest.warns(DeprecationWarning, match="renamed 'verify'"):
        class Stricter(nurikabe):  # type: ignore[misc,valid-type]
            def check(self, inst, grid):
                extra = ["no 1-island in the corner"] if grid[0][0] == "." else []
                return super().check(inst, grid) + extra

    rules = Stricter()
    with pytest.warns(DeprecationWarning):
        assert rules.verify(INST, GOOD) == ["no 1-island in the corner"]
        assert rules.verify(INST, BAD)[:-1] == get_puzzle("nurikabe").verify(INST, BAD)
