"""Generated files are reproducible from what they record: every committed generated instance
whose recorded generator version is current regenerates to its bytes and those of its
``.sol``; the rest are listed as not checkable, never passed.

The committed generated instances are those under ``instances/`` and the reference files
beside this test (``reference/``: small puzzles of every generator, written by the current
generator; after a change of the generator's version refresh them with ``python -m
bench.generate.regenerate tests/generate/reference --refresh``). A file is checked in the quick
run when it is small (:data:`QUICK_CELLS` cells, :data:`QUICK_CELLS_WITH_PARAMS` with generator
parameters: well under 5 s), otherwise it is marked slow.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import bench
from bench.generate.provenance import (
    PARAMS,
    SOLVER,
    VERSION,
    Recipe,
    generated_files,
    parse_recipe,
    read_header,
    recipe_of,
    strip_fields,
)
from bench.generate.regenerate import Provenance, current, differences, provenance
from bench.instance import read_instance
from tests.conftest import INSTANCES

REFERENCE = Path(__file__).parent / "reference"
COMMITTED = list(generated_files([INSTANCES, REFERENCE]))
STATES = {path: provenance(path) for path in COMMITTED}
CURRENT = [p for p, s in STATES.items() if s.state == "current"]
#: cells of the largest generated file checked in the quick run (10x10 and below regenerate
#: in about a second; a few-clue or big-island family takes minutes)
QUICK_CELLS = 100
#: the same for a file made with generator parameters (the few-clue Nurikabe 10x10 takes
#: minutes)
QUICK_CELLS_WITH_PARAMS = 64
#: committed generated files written before the generator's version was recorded (none may
#: be added: a new generated file records its version)
LEGACY_FILES = 153


def _param(path: Path) -> object:
    recipe = STATES[path].recipe
    assert recipe is not None
    cells = recipe.rows * recipe.cols
    quick = cells <= QUICK_CELLS and (not recipe.params or cells <= QUICK_CELLS_WITH_PARAMS)
    marks = () if quick else (pytest.mark.slow,)
    return pytest.param(path, id=path.name, marks=marks)


def test_there_are_current_committed_files_of_every_generator() -> None:
    """The reference files are current (else the regeneration test below checks nothing:
    refresh them as the module docstring says) and cover every generator, a ``--count``
    and a generator parameter."""
    reference = [p for p in CURRENT if p.is_relative_to(REFERENCE)]
    stale = [STATES[p].reason for p in STATES if p.is_relative_to(REFERENCE)
             and p not in reference]
    assert not stale, ("refresh: python -m bench.generate.regenerate tests/generate/reference "
                       f"--refresh; {stale}")
    recipes = [STATES[p].recipe for p in reference]
    assert {r.puzzle for r in recipes if r} == {
        "fillomino", "nurikabe", "shakashaka", "shikaku", "yinyang"}
    assert any(r and r.count > 1 and r.index > 0 for r in recipes)
    assert any(r and r.params for r in recipes)


@pytest.mark.parametrize("path", [_param(p) for p in CURRENT])
def test_current_generated_file_regenerates_to_its_bytes(path: Path) -> None:
    recipe = STATES[path].recipe
    assert recipe is not None
    assert differences(path, recipe) == []


def test_files_that_cannot_be_checked_are_counted_and_listed() -> None:
    """Every committed generated file is current (checked above) or not checkable, with a
    reason; the not checkable ones are counted in a warning, and no new file lacks the
    generator's version."""
    by_state: dict[str, list[Provenance]] = {}
    for prov in STATES.values():
        by_state.setdefault(prov.state, []).append(prov)
    assert set(by_state) <= {"current", "unversioned", "older", "other-solver"}, \
        [p.reason for p in by_state.get("bad", [])]
    unchecked = [p for p in STATES.values() if p.state != "current"]
    assert all(p.reason.startswith(str(p.path)) for p in unchecked)
    if unchecked:
        counts = ", ".join(f"{len(v)} {k}" for k, v in sorted(by_state.items())
                           if k != "current")
        warnings.warn(f"{len(unchecked)} of {len(STATES)} committed generated instances are "
                      f"not checkable by regeneration ({counts}); "
                      f"`python -m bench.generate.regenerate instances` lists them",
                      stacklevel=1)
    unversioned = len(by_state.get("unversioned", []))
    assert unversioned <= LEGACY_FILES, (
        f"{unversioned} generated files without {VERSION}: write new ones with "
        "`puzzlebench generate`, which records it")


# --- the recorded fields ---------------------------------------------------------------------


def test_a_written_file_records_its_recipe_and_version(tmp_path: Path) -> None:
    from bench.generate import generate_one, write_generated

    path = write_generated(generate_one("shikaku", 5, 6, 7, index=1, count=3), tmp_path)
    header = read_instance(path).header  # the instance reader accepts the new fields
    assert header[PARAMS] == "size=5x6 seed=7 count=3 index=1"
    assert parse_recipe("shikaku", header[PARAMS]) == Recipe("shikaku", 5, 6, 7, 3, 1, {})
    assert {k: header[k] for k in (VERSION, SOLVER)} == current("shikaku")
    assert header[VERSION].startswith(f"puzzlebench {bench.__version__} code-")
    assert header[SOLVER].startswith("sat-cover/cadical195 CaDiCaL")
    assert provenance(path).state == "current"
    assert differences(path, Recipe("shikaku", 5, 6, 7, 3, 1, {})) == []


def test_version_is_the_same_in_another_process_and_changes_with_the_generator(
        tmp_path: Path) -> None:
    """The digest is read from source files (module names and bytes), so a fresh process
    computes the same one; a copy of the package with one generator line changed computes
    another, and an unchanged copy in another folder the same."""
    import os
    import shutil
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    script = "from bench.generate.regenerate import current; print(current('shikaku'))"

    def version_in(folder: Path) -> str:
        env = {**os.environ, "PYTHONPATH": str(folder)}
        done = subprocess.run([sys.executable, "-c", script], env=env, cwd=folder,
                              capture_output=True, text=True, check=True)
        return done.stdout.strip()

    here = str(current("shikaku"))
    copy = tmp_path / "copy"
    shutil.copytree(root / "bench", copy / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(root / "formulations", copy / "formulations",
                    ignore=shutil.ignore_patterns("__pycache__"))
    assert version_in(copy) == here
    module = copy / "bench" / "puzzles" / "shikaku" / "generate.py"
    module.write_text(module.read_text() + "\n# changed\n")
    assert version_in(copy) != here


def test_a_file_from_an_older_generator_is_not_checkable(tmp_path: Path) -> None:
    """A file without the version (as written before it existed) and one with another
    version: neither is current; the first is still compared with a regeneration without
    the fields it predates."""
    from bench.generate import generate_one, write_generated

    path = write_generated(generate_one("shikaku", 5, 5, 1), tmp_path)
    text = path.read_text()
    old = tmp_path / "old" / path.name
    old.parent.mkdir()
    old.write_text(strip_fields(text))
    old.with_suffix(".sol").write_bytes(path.with_suffix(".sol").read_bytes())
    prov = provenance(old)
    assert prov.state == "unversioned"
    assert prov.reason == f"{old}: from an older generator (no {VERSION} recorded)"
    recipe = recipe_of(read_header(old))  # from the source command
    assert recipe == Recipe("shikaku", 5, 5, 1)
    assert differences(old, recipe) == []

    other = tmp_path / "other" / path.name
    other.parent.mkdir()
    version = read_header(path)[VERSION]
    other.write_text(text.replace(version, "puzzlebench 0.0.1 code-0000000000000000"))
    assert provenance(other).state == "older"
    assert "puzzlebench 0.0.1 code-0000000000000000" in provenance(other).reason


def test_a_changed_grid_is_caught(tmp_path: Path) -> None:
    """The regeneration check fails when a current file's grid or solution is not what its
    recipe makes."""
    src = next(p for p in CURRENT if p.name == "gen-shikaku-5x6-s2-0.txt")
    path = tmp_path / src.name
    text = src.read_text()
    head, _, body = text.partition("\n\n")
    path.write_text(head + "\n\n" + body[::-1].strip("\n") + "\n")
    path.with_suffix(".sol").write_bytes(src.with_suffix(".sol").read_bytes())
    recipe = STATES[src].recipe
    assert recipe is not None
    assert differences(path, recipe) == [f"{path}: regenerates to different bytes"]


def test_the_command_lists_checks_and_refreshes(tmp_path: Path, capsys) -> None:
    """``python -m bench.generate.regenerate``: states and counts; ``--regenerate`` exits 1
    on a current file that does not regenerate; ``--refresh`` rewrites a file that records
    its recipe (saying whether only the version changed) and leaves an older unversioned
    file alone."""
    from bench.generate.regenerate import main

    src = REFERENCE / "gen-shikaku-5x6-s2-0.txt"
    stale, changed, legacy = (tmp_path / d / src.name for d in ("stale", "changed", "legacy"))
    for f in (stale, changed, legacy):
        f.parent.mkdir()
        f.with_suffix(".sol").write_bytes(src.with_suffix(".sol").read_bytes())
    text = src.read_text()
    version = read_header(src)[VERSION]
    stale.write_text(text.replace(version, "puzzlebench 0.0.1 code-0000000000000000"))
    head, _, body = text.partition("\n\n")
    row = next(r for r in body.splitlines() if set(r.split()) != {"."})
    other = head + "\n\n" + body.replace(row, " ".join("." for _ in row.split()), 1)
    changed.write_text(other)
    legacy.write_text(strip_fields(other))
    capsys.readouterr()

    assert main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 current, 1 older, 1 unversioned"
    assert main([str(tmp_path), "--regenerate"]) == 1
    assert f"{changed}: regenerates to different bytes" in capsys.readouterr().out
    assert main([str(tmp_path), "--refresh"]) == 0
    out = capsys.readouterr().out
    assert f"{stale}: replaced (the version only)" in out
    assert f"{changed}: replaced (the puzzle changed)" in out
    assert stale.read_text() == changed.read_text() == text
    assert legacy.read_text() == strip_fields(other)
