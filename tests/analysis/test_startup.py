"""`python -m bench.analysis.startup`: the real commands, one repeat on one puzzle."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from bench.analysis import startup
from tests.conftest import ROOT


def test_one_repeat_on_nurikabe_gives_a_row_with_a_positive_ratio():
    p = subprocess.run([sys.executable, "-m", "bench.analysis.startup", "--repeats", "1",
                        "--puzzle", "nurikabe"], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("medians of 1 runs"), lines
    header, rows = lines[1], lines[2:]
    assert header.split() == " ".join(startup.HEADER).split()
    assert len(rows) == 1, rows
    cells = rows[0].split()
    assert cells[0] == "nurikabe" and "cadical195" in rows[0]
    assert "pysat.solvers," in cells and "numpy" not in rows[0]
    python_s, import_s, solve_s, ratio = map(float, cells[-4:])
    assert min(python_s, import_s, solve_s) > 0
    assert ratio > 0 and abs(ratio - solve_s / import_s) < 0.02 * ratio + 0.01


def test_the_measured_instance_and_pair_per_puzzle():
    case = startup.case_of("nurikabe")
    assert case.instance.name == "seed-p01.txt"
    # the declared default is the selector robust: the pair it picks for the instance
    assert case.formulation.startswith("sat-hybrid[") and case.solver == "cadical195"
    assert case.modules == ("pysat.solvers", "pysat.card")
    assert startup.case_of("shikaku").modules == ("ortools.sat.python.cp_model",)


def test_a_puzzle_without_a_default_is_one_line_and_exit_2(capsys):
    assert startup.main(["--puzzle", "nosuchpuzzle", "--repeats", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("startup: ") and len(err.strip().splitlines()) == 1


def fake_tree(root: Path, exit_code: int) -> Path:
    """A source tree whose `python -m bench.cli` only exits with ``exit_code``."""
    (root / "bench" / "cli").mkdir(parents=True)
    (root / "bench" / "__init__.py").write_text("")
    (root / "bench" / "cli" / "__init__.py").write_text("")
    (root / "bench" / "cli" / "__main__.py").write_text(f"import sys\nsys.exit({exit_code})\n")
    return root


def test_a_baseline_tree_s_solve_is_timed_beside_from_that_tree(tmp_path, capsys):
    """The baseline's solve runs with bench from the baseline tree: one that only exits 0 is
    timed (its own ratio), one that exits 3 is "not solved" there and the command exits 1,
    while this tree's solve stays solved."""
    quick = fake_tree(tmp_path / "quick", 0)
    failing = fake_tree(tmp_path / "failing", 3)
    for tree, code in ((quick, 0), (failing, 1)):
        assert startup.main(["--puzzle", "nurikabe", "--repeats", "1",
                             "--baseline", str(tree)]) == code
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].endswith(f"; baseline: bench from {tree}")
        assert lines[1].split() == " ".join(startup.HEADER + startup.BASELINE_HEADER).split()
        row = lines[2]
        ratio, base_s, base_ratio = re.split(r"\s{2,}", row)[-3:]
        assert "not solved" not in ratio and float(base_s) > 0
        assert base_ratio.endswith("(not solved)") == (code == 1), row


def test_a_baseline_that_is_no_source_tree_is_one_line_and_exit_2(tmp_path, capsys):
    assert startup.main(["--puzzle", "nurikabe", "--baseline", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"startup: {tmp_path}: not a puzzlebench source tree")
    assert len(err.strip().splitlines()) == 1


def test_a_pick_whose_backend_lists_no_module_times_the_interpreter_and_solves(capsys):
    """A two-clue 10x10 Nurikabe is picked ``frontier / external`` by the declared selector;
    ``external`` lists no module, so the bare import is the interpreter alone, shown
    ``(none)``, not a failing ``import `` that marked the row not solved."""
    f = ROOT / "instances/nurikabe/two/gen-nurikabe-10x10-s1-clues2-0.txt"
    case = startup.case_of("nurikabe", f)
    assert (case.formulation, case.solver, case.modules) == ("frontier", "external", ())
    assert startup.commands(case)["import"][-1] == "pass"
    assert startup.main(["--instance", str(f), "--repeats", "1"]) == 0
    row = re.split(r"\s{2,}", capsys.readouterr().out.splitlines()[2])
    assert row[:3] == ["nurikabe", "frontier / external", "(none)"]
    assert "not solved" not in row[-1] and float(row[-1]) > 0


def test_an_instance_that_cannot_be_read_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("no header\n")
    assert startup.main(["--instance", str(bad), "--repeats", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("startup: ") and len(err.strip().splitlines()) == 1
