"""Fence removal (:mod:`bench.puzzles.nurikabe.generate.unfence`): every kept edit leaves the
intended solution the only one (checked by an exact count of up to 2 solutions), an edit
that lets another solution in is refused, and the fence share goes down."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from bench.generate import count_solutions, get_generator
from bench.grid import neighbours
from bench.instance import Instance, read_instance
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.nurikabe.generate import NurikabeGenerator
from bench.puzzles.nurikabe.generate.rigid import generate_rigid
from bench.puzzles.nurikabe.generate.unfence import (
    Unfence,
    big_rings,
    clue_cells,
    edit,
    edits,
    fences,
    main,
    makes_pool,
    shape,
)
from bench.puzzles.nurikabe.rules import BLACK
from tests.conftest import INSTANCES

BIGMIN = 20


def exact(inst: Instance) -> int:
    """Solutions of ``inst`` up to 2 (the exact lazy SAT formulation, enumerated)."""
    return count_solutions(inst, "sat-lazy", "cadical195", time_limit=120)


@pytest.fixture(scope="module")
def rigid() -> tuple[Instance, SolutionGrid]:
    """A unique 14x14 with one rigid big island of 20-30 cells."""
    gen = get_generator("nurikabe").with_params({"big": 1, "bigmin": BIGMIN, "bigmax": 30})
    assert isinstance(gen, NurikabeGenerator)
    inst, solution = generate_rigid(gen, 14, 14, random.Random(0))
    assert exact(inst) == 1
    return inst, solution


def test_edits_keep_the_solution_a_solution(rigid: tuple[Instance, SolutionGrid]) -> None:
    inst, solution = rigid
    _, rim = big_rings(solution, BIGMIN)
    seen = set()
    for f, (kind, new, sol) in ((g, e) for g in fences(inst, solution, BIGMIN)
                                for e in edits(inst, solution, g, BIGMIN)):
        seen.add(kind)
        assert get_puzzle("nurikabe").verify(new, sol) == []
        before, after = clue_cells(inst), clue_cells(new)
        assert f not in after
        changed = [(r, c) for r in range(inst.rows) for c in range(inst.cols)
                   if sol[r][c] != solution[r][c]]
        if kind == "blacken":
            assert changed == [f] and len(after) == len(before) - 1
        elif kind == "move":  # the clue moved off the fence, to a cell next to no ring cell
            (moved,) = set(after) - set(before)
            assert not any(n in rim for n in neighbours(moved, inst.rows, inst.cols))
            assert changed == [] and len(after) == len(before)
        elif kind == "grow":  # f stays white, no clue; its new clue 2 is next to no ring cell
            (g,) = changed
            assert after[g] == 2 and len(after) == len(before)
            assert not any(n in rim for n in neighbours(g, inst.rows, inst.cols))
        else:  # merge or absorb: one black cell turns white, one clue or more go
            (g,) = changed
            assert sol[g[0]][g[1]] != BLACK and len(after) < len(before)
            assert (g in rim) == (kind == "absorb")
        assert sol[f[0]][f[1]] != BLACK or kind == "blacken"
    assert len(seen) >= 2  # the puzzle has fences that can be edited, in more than one way


def test_pool_rule() -> None:
    sol = [[BLACK, BLACK, "."], [BLACK, ".", "."], [".", ".", "."]]
    assert makes_pool(sol, (1, 1)) and not makes_pool(sol, (2, 2))


def test_an_edit_that_lets_another_solution_in_is_refused(
        rigid: tuple[Instance, SolutionGrid]) -> None:
    inst, solution = rigid
    pas = Unfence(BIGMIN)
    assert pas.unique(inst, solution)
    verdicts = []
    for f in fences(inst, solution, BIGMIN):
        tried = edit(inst, solution, f, BIGMIN)
        if tried is not None:
            _, new, sol = tried
            verdicts.append((pas.unique(new, sol), exact(new)))
    # the check agrees with the exact count each time; some edits are refused, some kept
    assert all(kept == (count == 1) for kept, count in verdicts)
    assert {kept for kept, _ in verdicts} == {True, False}


def test_the_pass_ends_unique_with_fewer_fences(rigid: tuple[Instance, SolutionGrid]) -> None:
    inst, solution = rigid
    pas = Unfence(BIGMIN)
    out, sol = pas.run(inst, solution, random.Random(1))
    assert pas.steps
    assert get_puzzle("nurikabe").verify(out, sol) == []
    assert exact(out) == 1
    assert shape(out, sol, BIGMIN).fenced_share < shape(inst, solution, BIGMIN).fenced_share
    assert [s.kept for s in pas.steps] == list(range(1, len(pas.steps) + 1))
    # reproducible from the seed, and stops at the number asked
    again = Unfence(BIGMIN)
    first, _ = again.run(inst, solution, random.Random(1), removals=1)
    assert len(again.steps) == 1 and again.steps[0].cell == pas.steps[0].cell
    assert first.grid != inst.grid


def test_command_writes_a_unique_puzzle_and_its_solution(
        rigid: tuple[Instance, SolutionGrid], tmp_path: Path) -> None:
    from bench.generate import Generated, save_generated

    inst = replace(rigid[0], name="small", path="small.txt")
    src = save_generated(Generated(inst, rigid[1], 0.0, 0), tmp_path / "in", force=True)[0]
    log = tmp_path / "steps.jsonl"
    assert main([str(src), "--bigmin", str(BIGMIN), "--removals", "1", "--out",
                 str(tmp_path / "out"), "--log", str(log)]) == 0
    (path,) = (tmp_path / "out").glob("*.txt")
    assert path.stem == "small-unfence1"
    inst = read_instance(path)
    assert "small.txt --seed 1 --bigmin 20 --bigmax 60 --removals 1" in inst.header["source"]
    grid = json.loads(path.with_suffix(".sol").read_text())
    assert get_puzzle("nurikabe").verify(inst, grid) == []
    assert exact(inst) == 1
    assert [json.loads(x)["kept"] for x in log.read_text().splitlines()] == [1]


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.txt"
    bad.write_text("puzzle: nurikabe\n\n1 .\n. .\n")
    assert main([str(bad), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err


MANYBIG2 = sorted((INSTANCES / "nurikabe" / "manybig2").glob("*-unfence*.txt"))


@pytest.mark.parametrize("path", MANYBIG2, ids=lambda p: p.stem)
def test_committed_unfenced_puzzles_are_solved_and_less_fenced_than_their_source(
        path: Path) -> None:
    inst = read_instance(path)
    grid = json.loads(path.with_suffix(".sol").read_text())
    assert get_puzzle("nurikabe").verify(inst, grid) == []
    command = inst.header["source"].split()
    assert command[:4] == ["generated", "by", "python", "-m"]
    src = INSTANCES.parent / command[5]
    origin = read_instance(src)
    before = shape(origin, json.loads(src.with_suffix(".sol").read_text()), 40)
    after = shape(inst, grid, 40)
    assert after.fenced_share < before.fenced_share and len(after.bigs) == 6
    assert after.clues <= before.clues and after.ones <= before.ones
