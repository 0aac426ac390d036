"""A puzzle is one folder found through the ``puzzlebench.puzzles`` entry points: rules, codec,
picture, tiny boards, generator and check instances reached through its hooks; the base types
import nothing from bench; no import cycle among the modules of bench/."""

from __future__ import annotations

import ast
import logging
import tomllib
from pathlib import Path

import pytest

from bench.check.tiny import tiny_cases
from bench.codec import codec_of, codecs, janko_table, pid_table
from bench.generate import generator_names, get_generator
from bench.grid import all_cells
from bench.puzzles import Default, get_puzzle, puzzle_names, registry
from bench.puzzles.base import DEFAULT_REPORT
from bench.puzzles.nurikabe.rules import pools
from bench.puzzles.registry import ENTRY_POINT_GROUP, folders, packages
from bench.puzzles.shikaku.rules import Box, boxes
from bench.registry import get_formulation
from bench.report.pictures import svg
from bench.select.rules import SELECTORS, is_selector

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"


def test_every_builtin_folder_is_declared_by_an_entry_point_and_is_a_puzzle():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = project["project"]["entry-points"][ENTRY_POINT_GROUP]
    assert declared == {name: f"bench.puzzles.{name}" for name in folders()}
    assert folders() and set(folders()) <= set(puzzle_names()) == set(packages())
    for name in puzzle_names():
        assert get_puzzle(name).name == name
        assert get_puzzle(name).package == packages()[name]


def test_every_builtin_puzzle_has_a_codec():
    assert {c.puzzle for c in codecs()} >= set(folders())
    for name in folders():
        codec = codec_of(name)
        assert codec is not None and codec.pids[0] == name
        assert pid_table()[name] is codec
    assert pid_table()["sikaku"].puzzle == "shikaku"  # aliases are declared, not dispatched
    assert janko_table()["sikaku"].puzzle == "shikaku"


def test_generators_are_found_in_the_puzzle_folders():
    assert set(folders()) <= set(generator_names()) <= set(puzzle_names())
    for name in generator_names():
        module = type(get_generator(name)).__module__
        assert module.startswith(f"{get_puzzle(name).package}.generate"), module


@pytest.mark.parametrize("name", puzzle_names())
def test_every_puzzle_folder_has_check_instances_tiny_boards_and_a_picture(name: str):
    rules = get_puzzle(name)
    assert rules.check_instances() and rules.infeasible_instances(), name
    assert all(p.is_relative_to(rules.folder() / "data") for p in rules.check_instances())
    cases = tiny_cases(name)
    assert cases and any(c.solutions for c in cases), name
    case = next(c for c in cases if c.solutions)
    drawn = rules.draw(case.solutions[0], [list(r) for r in case.inst.grid])
    assert drawn, name  # its own picture.py, not the clues-only fallback


def _plugin(tmp: Path, dist: str, entry_points: str, rules: str) -> None:
    """A package ``<dist>`` with ``rules.py`` and an installed distribution's metadata
    (``<dist>.dist-info``) declaring ``entry_points``: what pip writes, read by
    importlib.metadata from sys.path. One package name per test: imports are cached."""
    (tmp / dist).mkdir()
    (tmp / dist / "__init__.py").write_text("")
    (tmp / dist / "rules.py").write_text(rules)
    info = tmp / f"{dist}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry_points}\n")


TOY_RULES = """
from bench.puzzles import Puzzle, register_puzzle


@register_puzzle
class Toy(Puzzle):
    name = "toy"

    def verify(self, inst, grid):
        return self.verify_shape(inst, grid)
"""


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch):
    """The puzzle registry's caches as now, restored after the test."""
    monkeypatch.setattr(registry, "_packages", None)
    monkeypatch.setattr(registry, "_PUZZLES", dict(registry._PUZZLES))
    monkeypatch.setattr(registry, "_modules", dict(registry._modules))


def test_an_installed_puzzle_plugin_is_found_and_drawn_without_a_picture(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None):
    _plugin(tmp_path, "toy_puzzle", "toy = toy_puzzle", TOY_RULES)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert packages()["toy"] == "toy_puzzle"
    assert "toy" in puzzle_names() and get_puzzle("toy").package == "toy_puzzle"
    assert get_puzzle("toy").tiny() is None and get_puzzle("toy").draw([[1]], [[2]]) is None
    (tmp_path / "toy.txt").write_text("puzzle: toy\n\n2 .\n")
    assert svg("toy", [[1, 1]], str(tmp_path / "toy.txt")).count("<text") == 1  # its clue
    assert set(folders()) <= set(puzzle_names())


def test_a_bad_puzzle_plugin_is_logged_and_skipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None,
        caplog: pytest.LogCaptureFixture):
    entry = "nurikabe = toy_bad\nbad-name = toy_bad\nother = toy_bad"
    _plugin(tmp_path, "toy_bad", entry, TOY_RULES.replace('"toy"', '"toy2"'))
    monkeypatch.syspath_prepend(str(tmp_path))
    with caplog.at_level(logging.ERROR, logger="bench.puzzles.registry"):
        assert packages()["nurikabe"] == "bench.puzzles.nurikabe"
        assert "bad-name" not in packages()
        names = puzzle_names()
    assert "other" not in names and "toy2" not in names and "nurikabe" in names
    text = caplog.text
    assert "nurikabe is already the puzzle of bench.puzzles.nurikabe" in text
    assert "bad-name = toy_bad skipped" in text
    assert "toy_bad.rules registered no puzzle named other" in text
    assert "toy_bad.rules registered toy2, not declared" in text


def test_declared_defaults_name_their_evidence():
    import pandas as pd

    assert get_puzzle("shikaku").default == Default("cpsat-cover", "cpsat", DEFAULT_REPORT)
    assert get_puzzle("nurikabe").default == Default(
        "robust", "robust", "results/nurikabe-hard-20261130")
    for name in folders():  # every built-in default names a committed run that measured it
        default = get_puzzle(name).default
        assert default is not None, name
        results = pd.read_parquet(ROOT / default.evidence / "results.parquet")
        mine = results[results["puzzle"] == name]
        ran = set(mine["formulation"] + " / " + mine["solver"])
        if is_selector(default.formulation):  # every pair the selector can pick ran there
            assert SELECTORS[default.formulation][name].pairs() <= ran, (name, default)
            continue
        label = get_formulation(name, default.formulation).label
        assert f"{label} / {default.solver}" in ran, (name, label, default.evidence)


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


@pytest.mark.parametrize("start", ["bench.instance", "bench.convert.formats",
                                   "bench.cli.convert", "bench.puzzles",
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
