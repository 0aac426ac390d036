"""A ``--puzzle`` that none of the run's instances is of is refused in one line naming the
puzzles they are of (:func:`bench.run.names.unknown_names`), not "no task matches"."""

from __future__ import annotations

import pytest

from bench.run.plan import PlanError, make_plan
from tests.cli.test_cli import cli
from tests.conftest import ROOT, SHIKAKU_SEEDS


def project(tmp_path):
    """A project whose suite ``s`` holds Shikaku and Yin-Yang instances only."""
    root = tmp_path / "proj"
    for puzzle, source in (("shikaku", SHIKAKU_SEEDS[0]),
                           ("yinyang", ROOT / "instances" / "yinyang" / "seed-01.txt")):
        (root / "instances" / puzzle).mkdir(parents=True)
        (root / "instances" / puzzle / "a.txt").write_text(source.read_text())
    (root / "instances" / "suites.toml").write_text(
        '[s]\nversion = 1\ninstances = ["shikaku/a.txt", "yinyang/a.txt"]\n')
    return root


def test_a_puzzle_the_suite_has_no_instance_of_names_the_suites_puzzles(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(project(tmp_path)))
    with pytest.raises(PlanError) as e:
        make_plan("s", puzzles=["nurikabe"])
    assert str(e.value) == ("--puzzle 'nurikabe': suite s has no nurikabe instance (its "
                            "puzzles: shikaku, yinyang)")
    with pytest.raises(PlanError) as e:  # a misspelt formulation is not the first thing wrong
        make_plan("s", puzzles=["nurikabe", "fillomino"], formulations=["sat-hybrid"])
    assert str(e.value) == ("--puzzle 'nurikabe' --puzzle 'fillomino': suite s has no nurikabe "
                            "or fillomino instance (its puzzles: shikaku, yinyang)")
    assert make_plan("s", puzzles=["nurikabe", "shikaku"]).plan.tasks  # one of them is there


def test_a_puzzle_the_paths_have_no_instance_of_names_their_puzzles():
    with pytest.raises(PlanError) as e:
        make_plan(None, [str(SHIKAKU_SEEDS[0])], puzzles=["yinyang"])
    assert str(e.value) == ("--puzzle 'yinyang': no yinyang instance among these (their "
                            "puzzle: shikaku)")


def test_the_command_says_it_in_one_line(tmp_path):
    root = project(tmp_path)
    out = tmp_path / "out"
    p = cli("run", "--suite", "s", "--puzzle", "fillomino", "--out", str(out),
            env={"PUZZLEBENCH_ROOT": str(root)}, cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.splitlines() == [
        "puzzlebench: --puzzle 'fillomino': suite s has no fillomino instance (its puzzles: "
        "shikaku, yinyang)"]
    assert not out.exists()
