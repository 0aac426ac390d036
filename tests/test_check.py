"""`puzzlebench check`: passes a correct formulation and fails, with the reason, one that forbids a
valid solution, one whose block is not projected onto the cell values or cannot exclude a grid,
one whose solves fail (its count is not passed on boards never counted), and one whose lazy loop
does not end; exit code 0 only when every check passes; the instances it solves are package
data, the same as the repository's; a puzzle without instances, or tiny boards that hold no
infeasible or no ambiguous board, are said, never passed in silence."""

from __future__ import annotations

import tomllib
from itertools import combinations

import pytest

from bench.backends import get_backend
from bench.check import Check, check_variant, untested
from bench.check.tiny import solutions, tiny_cases
from bench.cli import main
from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.shikaku.rules import (
    candidate_rectangles,
    cells_to_rects,
    chosen,
    grid_from_rects,
)
from bench.registry import Formulation, formulation
from tests.conftest import INSTANCES, ROOT


class Cover(Formulation[SatModel]):
    """The scaffold's Shikaku SAT cover (correct), the base of the broken ones below."""

    puzzle = "shikaku"
    kind = "sat"
    description = "test cover"

    def build(self, inst: Instance) -> SatModel:
        m = SatModel()
        rects = candidate_rectangles(inst)
        x = [m.var(("rect", i)) for i in range(len(rects))]
        for lits in cells_to_rects(inst, rects).values():
            m.add([x[i] for i in lits])
            m.extend([-x[a], -x[b]] for a, b in combinations(lits, 2))
        m.handles.update(rects=rects, x=x)
        return m

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        rects, x = model.handles["rects"], model.handles["x"]
        return grid_from_rects(inst, [r for r, v in zip(rects, x, strict=True) if value(v) > 0.5])

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        x = model.handles["x"]
        model.add([-x[i] for i in chosen(model.handles["rects"], grid)])
        return True


@formulation
class Good(Cover):
    name = "test-check-good"


@formulation
class Inexact(Cover):
    """Claims to be exact but forbids every rectangle one row high: valid solutions lost."""

    name = "test-check-inexact"

    def build(self, inst: Instance) -> SatModel:
        m = super().build(inst)
        for i, r in enumerate(m.handles["rects"]):
            if r.height == 1 and r.width > 1:
                m.add([-m.handles["x"][i]])
        return m


@formulation
class Unprojected(Cover):
    """Blocks the whole assignment, a free auxiliary variable included: each grid twice."""

    name = "test-check-unprojected"

    def build(self, inst: Instance) -> SatModel:
        m = super().build(inst)
        aux = m.var("aux")
        m.add([aux, -aux])  # mentioned, so the solver assigns it; free either way
        return m

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        x, aux = model.handles["x"], model.var("aux")
        value = model.handles.setdefault("aux_seen", [])
        value.append(len(value) % 2)  # alternate the sign: blocks one aux value at a time
        lits = [-x[i] for i in chosen(model.handles["rects"], grid)]
        model.add([*lits, aux if value[-1] == 0 else -aux])
        return True


@formulation
class Endless(Cover):
    """A lazy formulation whose separate always reports a cut and adds none."""

    name = "test-check-endless"
    lazy = True

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        return 1


def checks(form: Formulation) -> dict[str, Check]:
    return {c.name: c for c in check_variant(form, get_backend("cadical195"), 20.0)}


def test_a_correct_formulation_passes_every_check():
    got = checks(Good())
    assert {n: c.status for n, c in got.items()} == {
        "solve": "pass", "unsat": "pass", "exact": "pass", "count": "pass"}


def test_a_formulation_that_forbids_a_valid_solution_fails_with_the_solution_it_forbids():
    got = checks(Inexact())
    assert "fail" in (got["exact"].status, got["count"].status)
    failed = got["count"] if got["count"].status == "fail" else got["exact"]
    assert "forbids" in failed.detail and "tiny-" in failed.detail


def test_a_block_that_is_not_projected_fails_the_count():
    got = checks(Unprojected())
    assert got["exact"].status == "pass"
    assert got["count"].status == "fail"
    assert "not projected" in got["count"].detail


def test_a_lazy_loop_that_adds_nothing_fails_and_names_separate():
    got = checks(Endless())
    assert got["lazy"].status == "fail"
    assert "separate" in got["lazy"].detail and "did not grow" in got["lazy"].detail


class Broken(Cover):
    """Raises in build on every instance: no solve runs, so nothing is counted."""

    name = "test-check-broken"

    def build(self, inst: Instance) -> SatModel:
        by_cell: dict[tuple[int, int], int] = {}
        return by_cell[(10, 0)]  # type: ignore[return-value]


def test_a_count_whose_solves_all_failed_fails_and_says_why(capsys):
    """No tiny instance counted is no count passed: the line says how many could not be
    counted and the error that stopped them."""
    from bench import registry

    formulation(Broken)
    try:
        assert main(["check", "test-check-broken", "--solver", "cadical195"]) == 1
    finally:
        del registry._FORMULATIONS[(Broken.puzzle, Broken.name)]
    count = [line for line in capsys.readouterr().out.splitlines() if " count " in line]
    assert len(count) == 1 and count[0].startswith("FAIL count"), count
    assert "4 of 4 tiny instances could not be counted" in count[0], count
    assert "build: KeyError: (10, 0)" in count[0], count


def test_a_count_pass_names_the_instances_counted():
    got = checks(Good())["count"]
    solvable = [c.name for c in tiny_cases("shikaku") if c.solutions]
    assert got.status == "pass"
    assert f"on the {len(solvable)} tiny instances with solutions ({', '.join(solvable)}:" \
        in got.detail, got.detail


def test_a_block_that_returns_false_fails_the_count_and_the_exact_check_sees_every_board():
    """A block that cannot exclude the grid stops the counting, not the exact check: every
    tiny board is still solved, so the exact line's count is the boards checked."""
    seen: list[str] = []

    class NoExclude(Cover):
        name = "test-check-noexclude"

        def build(self, inst: Instance) -> SatModel:
            seen.append(inst.name)
            return super().build(inst)

        def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
            return False

    got = checks(NoExclude())
    assert got["count"].status == "fail" and "cannot count" in got["count"].detail
    assert got["exact"].status == "pass"
    assert {c.inst.name for c in tiny_cases("shikaku")} <= set(seen), seen


def test_a_puzzle_without_instances_skips_the_solve_check_and_says_why(monkeypatch, tmp_path):
    """A plugin installed without its data/*.txt: the solve check must not pass on 0 of 0."""
    monkeypatch.setattr(type(get_puzzle("shikaku")), "folder", lambda self: tmp_path)
    got = checks(Good())
    assert got["solve"].status == "skip"
    assert "no shikaku instance with a solution shipped" in got["solve"].detail
    assert "package data" in got["solve"].detail


def test_tiny_boards_without_an_infeasible_or_ambiguous_one_are_named():
    cases = tiny_cases("shikaku")
    assert untested(cases) == ""
    feasible = [c for c in cases if c.solutions]
    assert "no board without a solution (infeasibility)" in untested(feasible)
    assert "several" not in untested(feasible)
    single = [c for c in cases if len(c.solutions) == 1]
    assert single and "infeasibility" in untested(single) and "counting" in untested(single)


def test_a_formulation_without_block_skips_the_count_and_says_what_to_implement():
    @formulation
    class NoBlock(Cover):
        name = "test-check-noblock"
        block = Formulation.block  # type: ignore[assignment]

    got = checks(NoBlock())
    assert got["count"].status == "skip"
    assert "implement block(inst, model, grid)" in got["count"].detail


def test_the_command_exits_0_only_when_every_check_passes(capsys):
    assert main(["check", "shikaku:test-check-good", "--solver", "cadical195"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[:-1]] == ["PASS"] * 4
    assert main(["check", "test-check-unprojected", "--solver", "cadical195"]) == 1
    assert any(line.startswith("FAIL count") for line in capsys.readouterr().out.splitlines())


def test_an_unknown_name_is_an_error_with_close_matches(capsys):
    assert main(["check", "test-check-god"]) == 2
    assert "did you mean test-check-good" in capsys.readouterr().err


@pytest.mark.parametrize("puzzle", ["nurikabe", "yinyang", "shakashaka", "fillomino", "shikaku"])
def test_tiny_cases_are_counted_by_brute_force_and_test_counting(puzzle: str):
    cases = tiny_cases(puzzle)
    assert len(cases) == 4
    assert any(len(c.solutions) >= 2 for c in cases)  # counting has something to count
    assert any(not c.solutions for c in cases)  # and infeasibility is asked
    for case in cases:
        assert len(solutions(case.inst)) == len(case.solutions)


def test_the_instances_are_package_data_equal_to_the_repository_files():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["bench"]
    shipped = {p for pattern in patterns for p in (ROOT / "bench").glob(pattern)}
    builtin = ("nurikabe", "yinyang", "shakashaka", "fillomino", "shikaku")
    files = {puzzle: [*get_puzzle(puzzle).check_instances(),
                      *get_puzzle(puzzle).infeasible_instances()] for puzzle in builtin}
    assert all(files.values()) and {p for f in files.values() for p in f} <= shipped
    for puzzle, paths in files.items():
        for path in paths:
            origin = (ROOT / "tests" / "data" / "infeasible" / path.name
                      if path.parent.name == "infeasible" else INSTANCES / puzzle / path.name)
            assert path.read_bytes() == origin.read_bytes(), f"{path} differs from {origin}"


def test_shipped_seeds_are_every_seed_of_the_repository():
    for puzzle in ("nurikabe", "yinyang", "shakashaka", "shikaku"):
        repo = {p.name for p in (INSTANCES / puzzle).glob("seed-*.txt")}
        assert repo <= {p.name for p in get_puzzle(puzzle).check_instances()}, puzzle
