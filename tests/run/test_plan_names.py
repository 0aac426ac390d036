"""A name of a run's selection that names nothing is one line, exit 2, before any run folder is
made (:mod:`bench.run.names`): a suite's ``formulations``, ``solvers`` or ``capped`` entry (the
line names the suites file, the suite, the entry, what is unknown in it and the known names of
its puzzle), a ``--formulation``/``--add-formulation``/``--solver`` option (an unknown
formulation, parameter or value, a puzzle the instances are not of), and a run whose instances
are all unreadable (the first one's file and problem). A named formulation or solver that gets
no task in a run that has others is a warning line, and the run goes on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.run.names import formulation_problem, solver_problem, suite_problem
from bench.run.plan import PlanError, make_plan
from bench.suites import load_suites
from tests.cli.test_cli import cli
from tests.conftest import ROOT, SHIKAKU_SEEDS

SHIKAKU_KNOWN = "known: asp-cover, cpmpy-cover, cpsat-cover, cpsat-sugar, mip-cover"


def says(line: str, said: str) -> bool:
    """``line`` starts as ``said`` does; where ``said`` lists the known Shikaku formulations,
    the line names each of them (other tests of this process may register more)."""
    head, known, _ = said.partition(SHIKAKU_KNOWN)
    if not known:
        return line.startswith(said)
    listed = line[len(head):]
    shown = {n.strip() for n in listed.removeprefix("known: ").split(",")}
    wanted = {n.strip() for n in SHIKAKU_KNOWN.removeprefix("known: ").split(",")}
    return line.startswith(head) and listed.startswith("known: ") and wanted <= shown


def project(tmp_path: Path, entries: str) -> Path:
    """A project folder with one Shikaku instance and a suite ``s`` with ``entries``."""
    root = tmp_path / "proj"
    (root / "instances" / "shikaku").mkdir(parents=True)
    (root / "instances" / "shikaku" / "a.txt").write_text(SHIKAKU_SEEDS[0].read_text())
    (root / "instances" / "suites.toml").write_text(
        f'[s]\nversion = 1\ninstances = ["shikaku/a.txt"]\n{entries}\n')
    return root


#: (the suite's entries, what its one line says after "FILE: suite s")
SUITE_CASES = [
    ('formulations = ["cpsat-cover", "cpsat-covr"]\nsolvers = ["cpsat"]',
     ": formulations entry 'cpsat-covr': no formulation 'cpsat-covr' for shikaku (did you "
     f"mean cpsat-cover, sat-cover, cpsat-sugar?); {SHIKAKU_KNOWN}"),
    ('formulations = ["shikaku:cpsat-covr"]',
     ": formulations entry 'shikaku:cpsat-covr': no formulation 'cpsat-covr' for shikaku"),
    ('formulations = ["nurikab:sat-hybrid"]',
     ": formulations entry 'nurikab:sat-hybrid': no puzzle 'nurikab' (did you mean "
     "nurikabe?) (known: fillomino, nurikabe, shakashaka, shikaku, yinyang)"),
    ('formulations = ["sat-hybrid[wall=bogus]"]',
     ": formulations entry 'sat-hybrid[wall=bogus]': sat-hybrid has no wall='bogus' "
     "(wall: auto, cut, anchor, tree)"),
    ('formulations = ["nurikabe:sat-hybrid[wal=auto]"]',
     ": formulations entry 'nurikabe:sat-hybrid[wal=auto]': sat-hybrid has no parameter "
     "'wal' (did you mean wall?) (its parameters: wall, islands, enclose, card)"),
    ('formulations = ["cpsat-cover"]\nsolvers = ["cpsat", "shikaku:cpsatt"]',
     ": solvers entry 'shikaku:cpsatt': unknown solver 'cpsatt' (did you mean cpsat?) "
     "(known: cpsat, "),
    ('[s.tiers.t]\ninstances = ["shikaku/a.txt"]\ncap = 1\n'
     'capped = ["shikaku:cpsat-cover/cpsatt"]',
     ", tier t: capped pair 'shikaku:cpsat-cover/cpsatt': unknown solver 'cpsatt'"),
]


@pytest.mark.parametrize(("entries", "said"), SUITE_CASES,
                         ids=["name", "puzzle-name", "puzzle", "value", "parameter", "solver",
                              "capped"])
def test_a_suite_naming_what_does_not_exist_is_one_line_naming_it(
        tmp_path, monkeypatch, entries, said):
    if "[s.tiers.t]" in entries:  # a tiered suite declares no instances of its own
        root = project(tmp_path, "")
        text = (root / "instances" / "suites.toml").read_text()
        (root / "instances" / "suites.toml").write_text(
            text.replace('instances = ["shikaku/a.txt"]\n', "", 1) + entries + "\n")
    else:
        root = project(tmp_path, entries)
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    with pytest.raises(PlanError) as e:
        make_plan("s")
    line = str(e.value)
    assert says(line, f"{root / 'instances' / 'suites.toml'}: suite s{said}"), line
    assert "\n" not in line


def test_a_suite_with_an_unknown_formulation_exits_2_and_makes_no_run_folder(tmp_path):
    root = project(tmp_path, 'formulations = ["cpsat-covr"]')
    out = tmp_path / "out"
    p = cli("run", "--suite", "s", "--out", str(out), env={"PUZZLEBENCH_ROOT": str(root)},
            cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.splitlines() == [
        f"puzzlebench: {root / 'instances' / 'suites.toml'}: suite s: formulations entry "
        "'cpsat-covr': no formulation 'cpsat-covr' for shikaku (did you mean cpsat-cover, "
        f"sat-cover, cpsat-sugar?); {SHIKAKU_KNOWN}, mip-sugar, puzzlekit, sat-cover"]
    assert not out.exists()


#: (the options, what the one line says)
OPTION_CASES = [
    (("--formulation", "cpsat-covr"),
     "--formulation 'cpsat-covr' selects no formulation variant: no formulation 'cpsat-covr' "
     "for shikaku (did you mean cpsat-cover, sat-cover, cpsat-sugar?); " + SHIKAKU_KNOWN),
    (("--formulation", "cpsat-cover[card=x]"),
     "--formulation 'cpsat-cover[card=x]' selects no formulation variant: cpsat-cover has no "
     "parameter 'card' (its parameters: none)"),
    (("--formulation", "sat-cover", "--add-formulation", "sat-cover[card=ladderr]"),
     "--add-formulation 'sat-cover[card=ladderr]' selects no formulation variant: sat-cover "
     "has no card='ladderr' (did you mean ladder?) (card: "),
    (("--formulation", "sat-hybrid"),
     "--formulation 'sat-hybrid' selects no formulation variant: no formulation 'sat-hybrid' "
     "for shikaku (it is a formulation of nurikabe); " + SHIKAKU_KNOWN),
    (("--formulation", "nurikabe:sat-hybrid"),
     "--formulation 'nurikabe:sat-hybrid' selects no formulation variant: no instance of "
     "nurikabe here (these are shikaku)"),
    (("--solver", "cpsatt"),
     "--solver 'cpsatt': unknown solver 'cpsatt' (did you mean cpsat?) (known: cpsat, "),
]


@pytest.mark.parametrize(("options", "said"), OPTION_CASES,
                         ids=["name", "parameter", "value", "puzzle", "other-puzzle", "solver"])
def test_an_option_naming_what_does_not_exist_is_one_line_naming_it(options, said):
    kw: dict[str, list[str]] = {"formulations": [], "add": [], "solvers": []}
    for flag, value in zip(options[::2], options[1::2], strict=True):
        kw[{"--formulation": "formulations", "--add-formulation": "add",
            "--solver": "solvers"}[flag]].append(value)
    with pytest.raises(PlanError) as e:
        make_plan(None, [str(SHIKAKU_SEEDS[0])], **kw)  # type: ignore[arg-type]
    assert says(str(e.value), said), str(e.value)


def test_a_formulation_of_an_instance_left_out_says_whose_it_is_not_itself():
    """Shikaku and Nurikabe instances, ``--puzzle nurikabe``, ``--formulation sat-cover``:
    the line says sat-cover is Shikaku's, never "did you mean sat-cover"."""
    nurikabe = sorted((ROOT / "instances" / "nurikabe").glob("*.txt"))[0]
    with pytest.raises(PlanError) as e:
        make_plan(None, [str(SHIKAKU_SEEDS[0]), str(nurikabe)], formulations=["sat-cover"],
                  puzzles=["nurikabe"])
    said = str(e.value)
    assert "(it is a formulation of shikaku)" in said and "did you mean" not in said, said


def test_a_label_of_known_names_and_values_names_nothing_wrong():
    assert formulation_problem("sat-hybrid[wall=cut]", ["nurikabe"]) == ""
    assert formulation_problem("nurikabe:sat-hybrid[*]", []) == ""
    assert formulation_problem("sat-tree", ["nurikabe"]) == ""  # an alias
    assert solver_problem("fillomino:scip") == "" and solver_problem("cpmpy:ortools") == ""


def test_the_committed_suites_name_only_what_exists():
    for suite in load_suites(ROOT / "instances" / "suites.toml").values():
        assert suite_problem(suite, lambda: ()) == "", suite.name


def test_a_run_whose_every_instance_is_unreadable_is_one_line_naming_the_file(tmp_path):
    empty, latin = tmp_path / "empty.txt", tmp_path / "latin.txt"
    empty.write_text("")
    latin.write_bytes(b"puzzle: shikaku\nsource: caf\xe9\n\n2 . .\n. . 2\n")
    with pytest.raises(PlanError) as e:
        make_plan(None, [str(empty), str(latin)], formulations=["cpsat-cover"])
    assert str(e.value) == (f"{empty}: empty file (no readable instance: nothing to run; "
                            "1 more unreadable)")
    out = tmp_path / "out"
    p = cli("run", str(latin), "--out", str(out), cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.splitlines() == [f"puzzlebench: {latin}:2: not UTF-8 text (invalid byte "
                                     "0xe9 at offset 27) (no readable instance: nothing to "
                                     "run)"]
    assert not out.exists()


def test_a_formulation_and_a_solver_that_never_pair_say_why_in_one_line(tmp_path):
    """``cpsat-cover`` runs on CP-SAT only and ``highs`` takes MIP formulations: no task, and
    the line names the solvers of the one and the formulations of the other, exit 2."""
    out = tmp_path / "out"
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--solver", "highs",
            "--out", str(out), cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.splitlines() == ["puzzlebench: no task matches the selection: cpsat-cover "
                                     "runs on cpsat; highs takes mip formulations (mip-cover, "
                                     "mip-sugar)"]
    assert not out.exists()
    with pytest.raises(PlanError, match=r"sat-cover runs on cadical195, .*; shikaku:clingo "
                                        r"takes asp formulations \(asp-cover\)"):
        make_plan(None, [str(SHIKAKU_SEEDS[0])], formulations=["sat-cover"],
                  solvers=["shikaku:clingo"])


def test_a_named_formulation_or_solver_left_without_a_task_is_warned_and_the_rest_runs(
        tmp_path, caplog):
    """A run that still has tasks says, one warning line each, of a named formulation no
    selected solver runs (what it runs on) and of a named solver none of the selected
    formulations runs on (what it takes, or that its puzzle has no instance here), in the
    words of the no-task line; the rest is planned and the exit code is unchanged."""
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "mip-cover", "--solver", "highs",
            "--formulation", "cpsat-cover", "--dry-run", cwd=tmp_path)
    assert p.returncode == 0 and "mip-cover / highs: 1" in p.stdout, p.stderr
    assert p.stderr.splitlines() == ["WARNING bench.run.plan: --formulation 'cpsat-cover' gets "
                                     "no task: cpsat-cover runs on cpsat; the run goes on "
                                     "without it"]
    caplog.set_level("WARNING", logger="bench.run.plan")
    for add, solvers in ((["cpsat-cover[*]"], ["highs", "nurikabe:cpsat", "shikaku:highs"]),
                         ([], ["highs", "cpsat"])):
        planned = make_plan(None, [str(SHIKAKU_SEEDS[0])], formulations=["mip-cover"],
                            add=add, solvers=solvers)
        assert {(t.formulation, t.solver) for t in planned.plan.tasks} == {
            ("mip-cover", "highs")}
    said = [r.getMessage() for r in caplog.records]
    assert said[:2] == [
        "--add-formulation 'cpsat-cover[*]' gets no task: cpsat-cover runs on cpsat; the run "
        "goes on without it",
        "--solver 'nurikabe:cpsat' gets no task: no nurikabe instance here (these are "
        "shikaku); the run goes on without it"], said
    [last] = said[2:]  # other tests of this process may register more CP-SAT formulations
    took = re.fullmatch(r"--solver 'cpsat' gets no task: cpsat takes cpsat formulations "
                        r"\((.*)\); the run goes on without it", last)
    assert took and {"cpsat-cover", "cpsat-sugar"} <= set(took.group(1).split(", ")), last


def test_a_cpmpy_solver_that_never_pairs_or_cannot_run_is_named_not_a_traceback(tmp_path):
    """CPMpy's solver names hold a colon (``cpmpy:ortools``), which a ``PUZZLE:SOLVER`` entry
    also has: an available one is named with the formulations it takes, one that cannot run
    here with its reason (Gurobi is never benchmarked: its pip licence is size-limited), with
    or without a puzzle before it, and none raises."""
    with pytest.raises(PlanError, match=r"sat-cover runs on cadical195, .*; cpmpy:ortools "
                                        r"takes cpmpy formulations \(cpmpy-cover\)$"):
        make_plan(None, [str(SHIKAKU_SEEDS[0])], formulations=["sat-cover"],
                  solvers=["cpmpy:ortools"])
    for entry in ("cpmpy:gurobi", "shikaku:cpmpy:gurobi"):
        with pytest.raises(PlanError, match=rf"; {entry} is unavailable here \(.+\)$"):
            make_plan(None, [str(SHIKAKU_SEEDS[0])], solvers=[entry])
    out = tmp_path / "out"
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--solver", "cpmpy:gurobi", "--out", str(out),
            cwd=tmp_path)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert "; cpmpy:gurobi is unavailable here (" in p.stderr.splitlines()[-1], p.stderr
    assert not out.exists()


def test_an_unknown_formulation_is_looked_up_among_the_selected_puzzles_only():
    """Shikaku and Nurikabe instances, ``--puzzle shikaku``, a misspelt ``--formulation``: the
    line names Shikaku's formulations and suggestions, not Nurikabe's."""
    nurikabe = sorted((ROOT / "instances" / "nurikabe").glob("*.txt"))[0]
    with pytest.raises(PlanError) as e:
        make_plan(None, [str(SHIKAKU_SEEDS[0]), str(nurikabe)], formulations=["cpsat-covr"],
                  puzzles=["shikaku"])
    said = str(e.value)
    assert "no formulation 'cpsat-covr' for shikaku (did you mean" in said, said
    assert "nurikabe" not in said and "sat-hybrid" not in said, said
