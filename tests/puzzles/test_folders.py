"""The puzzle folders are the registry: rules, codec and generator found by folder; the base
types import nothing from bench; no import cycle among the modules of bench/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bench.codec import codec_of, codecs, janko_table, pid_table
from bench.generate import generator_names, get_generator
from bench.grid import all_cells
from bench.puzzles import Default, get_puzzle, puzzle_names
from bench.puzzles.base import DEFAULT_REPORT
from bench.puzzles.nurikabe.rules import pools
from bench.puzzles.registry import folders
from bench.puzzles.shikaku.rules import Box, boxes
from bench.registry import get_formulation

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"


def test_every_folder_is_a_puzzle_with_a_codec():
    assert folders() == puzzle_names() == [
        "fillomino", "nurikabe", "shakashaka", "shikaku", "yinyang"]
    assert sorted(c.puzzle for c in codecs()) == puzzle_names()
    for name in puzzle_names():
        codec = codec_of(name)
        assert codec is not None and codec.pids[0] == name
        assert pid_table()[name] is codec
    assert pid_table()["sikaku"].puzzle == "shikaku"  # aliases are declared, not dispatched
    assert janko_table()["sikaku"].puzzle == "shikaku"


def test_generators_are_found_by_puzzle_folder():
    assert generator_names() == ["fillomino", "nurikabe", "shakashaka", "shikaku", "yinyang"]
    for name in generator_names():
        assert type(get_generator(name)).__module__ == f"bench.generate.{name}"


def test_declared_defaults_name_their_evidence():
    import pandas as pd

    assert get_puzzle("shikaku").default == Default("cpsat-cover", "cpsat", DEFAULT_REPORT)
    assert get_puzzle("nurikabe").default == Default(
        "sat-hybrid", "cadical195", "results/robust-nurikabe-20261127")
    for name in puzzle_names():  # every default names a committed run that measured it
        default = get_puzzle(name).default
        assert default is not None, name
        results = pd.read_parquet(ROOT / default.evidence / "results.parquet")
        label = get_formulation(name, default.formulation).label
        mine = results[(results["puzzle"] == name) & (results["solver"] == default.solver)]
        assert (mine["formulation"] == label).any(), (name, label, default.evidence)


def test_declared_defaults_are_the_robust_choice_of_their_evidence():
    """Each default justified by the default suite's report is the pair that report finds
    robust (lowest PAR-2 over its hard and real tiers)."""
    import pandas as pd

    from bench.report import defaults
    from bench.report.data import prepare

    t = prepare(pd.read_parquet(ROOT / DEFAULT_REPORT / "results.parquet"))
    table = defaults.table(t)[0].set_index("puzzle")
    for name in puzzle_names():
        default = get_puzzle(name).default
        if default is not None and default.evidence == DEFAULT_REPORT:
            assert table.at[name, "declared"] == table.at[name, "robust"], name


def test_pools_finds_every_all_black_block_and_those_around_a_cell():
    black = {(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)}
    assert pools(black.__contains__, 3, 3) == [(0, 0), (1, 1)]
    assert pools(black.__contains__, 3, 3, at=(2, 2)) == [(1, 1)]
    assert pools(black.__contains__, 3, 3, at=(0, 2)) == []
    # a cell about to turn black: (0, 2) would complete the block at (0, 1)
    assert pools(lambda v: v == (0, 2) or v in black, 3, 3, at=(0, 2)) == [(0, 1)]
    assert pools(lambda v: True, 1, 5) == []  # one row: no 2x2 block at all


def test_box_has_named_fields_and_boxes_of_a_grid_use_it():
    b = Box(top=1, left=2, height=2, width=3)
    assert (b.area, len(list(b.cells()))) == (6, 6)
    assert boxes([[0, 0, 1], [0, 0, 1]]) == {Box(0, 0, 2, 2), Box(0, 2, 2, 1)}
    assert all_cells(2, 1) == [(0, 0), (1, 0)]


def module_imports(path: Path) -> set[str]:
    """The bench modules a module imports, at module level or inside functions."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in out if m.startswith("bench")}


def test_base_types_import_nothing_from_bench():
    assert module_imports(BENCH / "puzzles" / "base.py") == set()


def bench_modules() -> dict[str, Path]:
    out = {}
    for p in BENCH.rglob("*.py"):
        parts = p.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


@pytest.mark.parametrize("start", ["bench.instance", "bench.interchange.formats",
                                   "bench.cli.interchange", "bench.puzzles",
                                   "bench.puzzles.registry"])
def test_no_import_cycle(start):
    """Depth-first from ``start`` over every import (late imports inside functions too): no
    module reaches itself (bench.instance <-> bench.puzzles was one). A module inside a
    package importing a sibling runs the package's __init__ first, which is already being
    imported: that parent edge is not counted. (Modules that reach bench.backends are left
    out: its registration by import is another helper's part of the issue.)"""
    mods = bench_modules()

    def deps(m: str) -> set[str]:
        out = set()
        for t in module_imports(mods[m]):
            parts = t.split(".")
            for i in range(1, len(parts) + 1):
                cand = ".".join(parts[:i])
                own_parent = m.startswith(cand + ".") and i < len(parts)
                if cand in mods and cand != m and not own_parent:
                    out.add(cand)
        return out

    path: list[str] = []

    def visit(m: str, done: set[str]) -> None:
        assert m not in path, " -> ".join([*path[path.index(m):], m])
        if m in done:
            return
        path.append(m)
        for d in sorted(deps(m)):
            visit(d, done)
        path.pop()
        done.add(m)

    visit(start, set())
