"""``puzzlebench compare`` on real runs of Shikaku (python-sat and CP-SAT, two small instances):
a task whose status changed is never "within noise", per task or per pair; and every sample's
identity counts, so a merged run whose samples of one task were made by other code or under
other limits is never said to have "the same identity".

The other code is real: a copy of the project's ``bench`` and ``formulations`` packages with
one edit, run with that copy first on PYTHONPATH (from outside the checkout, so the copy is
the one imported): Shikaku's rule verifier made to refuse every 1-wide rectangle (every answer
becomes infeasible), or a comment added to the formulation modules (their code digest
changes, their answers do not).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import INSTANCES, ROOT

SHIKAKU = INSTANCES / "shikaku"
SELECTION = [str(SHIKAKU / "seed-10x10.txt"), str(SHIKAKU / "gen-shikaku-5x5-s1-0.txt"),
             "--formulation", "sat-cover[card=seqcounter]", "--formulation", "cpsat-cover",
             "--solver", "cadical195", "--solver", "cpsat"]
PAIRS = {"sat-cover[card=seqcounter] / cadical195", "cpsat-cover / cpsat"}
TASKS = 4


def cli(*args: str, tree: Path | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    path = [str(tree)] if tree else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [*path, str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600)


def edited_tree(root: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of the project's packages under ``root`` with ``edits`` (file -> (old, new))."""
    for pkg in ("bench", "formulations"):
        shutil.copytree(ROOT / pkg, root / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for name, (old, new) in edits.items():
        text = (root / name).read_text()
        assert old in text, name
        (root / name).write_text(text.replace(old, new))
    return root


def run(out: Path, *extra: str, tree: Path | None = None) -> Path:
    p = cli("run", *SELECTION, "--out", str(out), *extra, tree=tree, cwd=out.parent)
    assert p.returncode == 0, p.stderr
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``base`` (limit 5 s), ``t6`` (limit 6 s), ``edited`` (formulation modules with an added
    comment), ``strict`` (a rule verifier that refuses 1-wide rectangles)."""
    tmp = tmp_path_factory.mktemp("compare")
    strict = edited_tree(tmp / "strict-tree", {"bench/puzzles/shikaku/rules.py": (
        "if inside == 1:", "if inside == 1 and w != 1:")})
    comment = ("\n", "\n# an edit that changes nothing but the code digest\n")
    edited = edited_tree(tmp / "edited-tree", {"formulations/shikaku/cpsat_cover.py": comment,
                                               "formulations/shikaku/sat_cover.py": comment})
    return {"base": run(tmp / "base", "--time-limit", "5"),
            "t6": run(tmp / "t6", "--time-limit", "6"),
            "edited": run(tmp / "edited", "--time-limit", "5", tree=edited),
            "strict": run(tmp / "strict", "--time-limit", "5", tree=strict)}


def statuses(folder: Path) -> set[str]:
    return {json.loads(x)["status"] for x in (folder / "journal.jsonl").read_text().split("\n")
            if x}


def test_a_status_change_is_never_within_noise(runs):
    from bench.report.compare import compare, compare_markdown

    assert statuses(runs["base"]) == {"solved"} and statuses(runs["strict"]) == {"infeasible"}
    changes, pairs = compare(runs["base"], runs["strict"])
    assert len(changes) == TASKS and changes["significant"].all()
    assert set(changes["change"]) == {"solved → infeasible"}
    assert set(pairs["pair"]) == PAIRS
    # one instance per pair and tier: too few to test, whatever the statuses say
    assert len(pairs) == 4 and set(pairs["tier"]) == {"seeds", "generated"}
    assert set(pairs["status changes"]) == {1} and set(pairs["verdict"]) == {"inconclusive"}
    assert set(pairs["answers differ"]) == {1} and set(pairs["instances"]) == {1}
    md = compare_markdown(runs["base"], runs["strict"])
    assert "within noise" not in md and "solved → infeasible" in md
    p = cli("compare", str(runs["base"]), str(runs["strict"]))
    assert p.returncode == 0 and "within noise" not in p.stdout, p.stderr
    # the control: a run against itself changes nothing, within the noise
    same, same_pairs = compare(runs["base"], runs["base"])
    assert not same["significant"].any() and set(same_pairs["verdict"]) == {"inconclusive"}
    assert set(same_pairs["factor"]) == {1.0} and "changed" not in set(same_pairs["verdict"])


@pytest.fixture(scope="module")
def merged(runs) -> Path:
    """``base``, ``edited`` and ``t6`` merged: each task has three samples, of two code
    versions and two time limits."""
    out = runs["base"].parent / "m2"
    p = cli("merge", str(runs["base"]), str(runs["edited"]), str(runs["t6"]), "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert "the inputs differ in formulation code (" in p.stdout
    assert "limits (" in p.stdout
    return out


def test_compare_counts_the_identity_of_every_sample_of_a_merged_run(runs, merged):
    from bench.report.compare import compare, compare_markdown

    changes, pairs = compare(runs["base"], merged)
    assert len(changes) == TASKS
    for d in changes["differs"]:
        assert "formulation code" in d and "limits" in d, d
    assert all("formulation code" in x and "limits" in x for x in pairs["identity differs"])
    md = compare_markdown(runs["base"], merged)
    assert "Every paired task has the same identity" not in md
    assert f"- formulation code: {TASKS} of {TASKS} tasks" in md
    assert f"- limits: {TASKS} of {TASKS} tasks" in md
    # the control: the base run against itself has one identity per task
    assert "Every paired task has the same identity" in compare_markdown(runs["base"],
                                                                         runs["base"])


def test_the_report_ranks_each_identity_of_a_merged_pair_apart(merged, tmp_path):
    from bench.report import write_report

    md = (write_report(merged, tmp_path / "rep") / "summary.md").read_text()
    notes = [x for x in md.splitlines() if x.startswith("Note: ") and "its results differ" in x]
    assert len(notes) == 2, md
    for pair in PAIRS:  # three kinds: two code versions at 5 s, the first one's at 6 s
        note = next(x for x in notes if x.startswith(f"Note: {pair}:"))
        assert "differ in formulation code, time limit (3 kinds: " in note, note
        assert note.count("time limit 5 s") == 2 and note.count("time limit 6 s") == 1
    for pair in PAIRS:
        assert len(set(re.findall(re.escape(pair) + r" \(formulation code \w+, time limit "
                                  r"\d s\)", md))) == 3
    # one run of one identity is not split
    plain = (write_report(merged.parent / "base", tmp_path / "plain") / "summary.md").read_text()
    assert "its results differ" not in plain and "(time limit" not in plain


def test_compare_says_how_to_see_the_rows_it_leaves_out(runs, tmp_path):
    """``compare`` writes no HTML: the rows past its limit are counted with the options that
    show them (``--all``, ``--csv``), not sent to an HTML report."""
    from bench.report.compare import compare_markdown

    md = compare_markdown(runs["base"], runs["strict"], limit=1)
    assert f"({TASKS - 1} more rows: `puzzlebench compare --all` lists every one" in md
    assert "HTML" not in md
    csv = tmp_path / "all.csv"
    p = cli("compare", str(runs["base"]), str(runs["strict"]), "--all", "--csv", str(csv))
    assert p.returncode == 0, p.stderr
    assert "more rows" not in p.stdout and p.stdout.count("solved → infeasible") == TASKS
    lines = csv.read_text().splitlines()
    assert len(lines) == TASKS + 1 and lines[0].startswith("puzzle,pair,instance,key,")
    p = cli("compare", str(runs["base"]), str(runs["strict"]), "--csv",
            str(tmp_path / "no" / "such" / "dir.csv"))
    assert p.returncode != 0 and p.stderr.count("\n") == 1 and "dir.csv" in p.stderr


def _calibrated(src: Path, dst: Path, seconds: float, load: float = 0.5,
                host: str | None = None) -> Path:
    """A copy of the run ``src`` whose environment says its calibration loop took ``seconds``
    throughout and its load average was ``load`` (on ``host``: by default the run's)."""
    shutil.copytree(src, dst)
    path = dst / "environment.json"
    records = json.loads(path.read_text())
    for r in records:
        r["host"] = host or r["host"]
        r["calibration"] = {"start_s": seconds, "end_s": seconds}
        r["samples"] = [{"at": "2026-01-01T00:00:00+00:00", "calibration_s": seconds,
                         "load1": load, "others_cpu": 0.0}]
    path.write_text(json.dumps(records))
    return dst


def test_compare_and_the_report_say_when_machines_differ_in_speed_or_a_run_was_disturbed(
        runs, tmp_path):
    from bench.report import write_report
    from bench.report.compare import compare_markdown

    quiet = _calibrated(runs["base"], tmp_path / "quiet", 0.064)
    slow = _calibrated(runs["base"], tmp_path / "slow", 0.142, host="elsewhere")
    md = compare_markdown(quiet, slow)
    assert ("**The machines differ in speed**: the calibration loop took 142 ms in B against "
            "64 ms in A (B's machine was 2.22x slower)") in md
    assert "limits and machine)" not in md and "but the machine's speed differed" in md
    assert "was disturbed" not in md
    assert "B's machine was 2.22x faster" in compare_markdown(slow, quiet)
    # the control: the same speed is said to be the same
    same = compare_markdown(quiet, _calibrated(runs["base"], tmp_path / "same", 0.07))
    assert "Machine speed: the calibration loop took 64 ms in A and 70 ms in B " \
           "(within 1.2x)" in same and "differ in speed" not in same
    assert "limits and machine)." in same
    busy = _calibrated(runs["base"], tmp_path / "busy", 0.064, load=9.0)
    md = compare_markdown(quiet, busy)
    assert "**Run B was disturbed**: the load average reached 9.0 with 1 job" in md
    assert "Run A was disturbed" not in md
    summary = (write_report(busy, tmp_path / "report") / "summary.md").read_text()
    assert "Note: This run was disturbed: the load average reached 9.0 with 1 job." in summary
    assert "| disturbed | the load average reached 9.0 with 1 job |" in summary
    summary = (write_report(quiet, tmp_path / "report-q") / "summary.md").read_text()
    assert "This run was disturbed" not in summary
    assert "| disturbed | no (the samples show a quiet machine) |" in summary


def test_compare_blames_the_load_not_the_machine_for_a_slower_loop_on_the_same_host(
        runs, tmp_path):
    from bench.report.compare import compare_markdown

    host = json.loads((runs["base"] / "environment.json").read_text())[-1]["host"]
    quiet = _calibrated(runs["base"], tmp_path / "quiet", 0.064)
    slow = _calibrated(runs["base"], tmp_path / "slow", 0.142)
    md = compare_markdown(quiet, slow)
    assert (f"**The calibration loop differed on the same machine** (host {host}): it took "
            "142 ms in B against 64 ms in A (2.22x slower in B): the machine's load differed "
            "between the runs, and time changes of about that factor are the load's, not the "
            "code's.") in md
    assert "differ in speed" not in md and "B's machine" not in md
    assert "but the same machine's load differed between the runs" in md
    assert "machine's speed" not in md
    assert "2.22x faster in B" in compare_markdown(slow, quiet)
    # the same host name on another machine type (another Python) is another machine
    records = json.loads((slow / "environment.json").read_text())
    (slow / "environment.json").write_text(json.dumps([{**r, "python": "3.99.0"}
                                                       for r in records]))
    assert "**The machines differ in speed**" in compare_markdown(quiet, slow)
