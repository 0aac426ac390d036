"""A resumed run keeps a task key's results as its own, so the folder must hold only results
this run would measure the same way (bench/run/session.py step 1): a result of other code,
threads or start, or a table row the journal lacks (the table is written from the journal),
makes the run refuse before anything is run or rewritten. Real tasks of one Shikaku
instance on CP-SAT."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from bench.identity import identity
from bench.run.session import Options, SessionError, run_suite
from bench.run.storage import JOURNAL, TABLE, Journal, samples, unjournaled
from tests.conftest import ROOT, SHIKAKU_SEEDS

PATHS = [str(SHIKAKU_SEEDS[0])]
SELECT: dict[str, Any] = {"formulations": ["cpsat-cover"], "solvers": ["cpsat"],
                          "time_limit": 20.0}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _recode(folder: Path) -> None:
    """Rewrite the journal's results as if an older formulation code had measured them: the
    code digest and the identity made from it, as such a run would have written them."""
    path = folder / JOURNAL
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        data["code"] = "0" * len(data["code"])
        data["identity"] = identity(data)
        lines.append(json.dumps(data))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_resume_over_results_of_other_code_is_refused_and_a_new_folder_reruns_them(
        tmp_path):
    run_suite(None, tmp_path / "a", PATHS, **SELECT)
    _recode(tmp_path / "a")
    before = _files(tmp_path / "a")
    with pytest.raises(SessionError, match=r"1 result\(s\) .* measured otherwise .*"
                                           r"\(formulation code: seed-"):
        run_suite(None, tmp_path / "a", PATHS, **SELECT)
    assert _files(tmp_path / "a") == before  # nothing run, the table not rewritten
    said: list[str] = []
    fresh = run_suite(None, tmp_path / "b", PATHS, options=Options(reuse=[tmp_path / "a"]),
                      say=said.append, **SELECT)
    assert fresh.reusable == 0 and fresh.results == 1
    [res] = Journal(tmp_path / "b").results()
    assert res.code != "0" * len(res.code) and res.run == "b"


def test_a_resume_with_other_threads_is_refused(tmp_path):
    run_suite(None, tmp_path / "a", PATHS, **SELECT)
    with pytest.raises(SessionError, match=r"measured otherwise .*\(limits: "):
        run_suite(None, tmp_path / "a", PATHS, options=Options(threads=2), threads=2, **SELECT)
    assert len(Journal(tmp_path / "a").results()) == 1


def test_results_started_otherwise_are_neither_resumed_nor_reused(tmp_path):
    run_suite(None, tmp_path / "a", PATHS, options=Options(start="fork"), **SELECT)
    with pytest.raises(SessionError, match=r"started by fork"):
        run_suite(None, tmp_path / "a", PATHS, options=Options(start="spawn"), **SELECT)
    spawned = run_suite(None, tmp_path / "b", PATHS,
                        options=Options(start="spawn", reuse=[tmp_path / "a"]), **SELECT)
    assert spawned.reusable == 0
    [res] = Journal(tmp_path / "b").results()
    assert res.start == "spawn"


def _spawned(folder: Path) -> None:
    """Mark the journal's results as spawned, as a forking run records a task whose fork
    failed (bench.run.pool falls back to spawning it)."""
    path = folder / JOURNAL
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        data["start"] = "spawn"
        lines.append(json.dumps(data))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_forking_runs_spawned_fallback_is_resumed_as_its_own_but_not_by_another_start(
        tmp_path):
    run_suite(None, tmp_path / "a", PATHS, options=Options(start="fork"), **SELECT)
    _spawned(tmp_path / "a")
    again = run_suite(None, tmp_path / "a", PATHS, options=Options(start="fork"), **SELECT)
    assert again.results == 1
    assert [r.start for r in Journal(tmp_path / "a").results()] == ["spawn"]
    run_suite(None, tmp_path / "b", PATHS, options=Options(start="spawn"), **SELECT)
    with pytest.raises(SessionError, match=r"started by spawn"):
        run_suite(None, tmp_path / "b", PATHS, options=Options(start="fork"), **SELECT)


def test_a_run_puts_back_what_only_the_table_holds_and_runs_nothing_twice(tmp_path):
    """A committed run keeps its table and no journal; a journal that lost lines since the
    table was written is the same case for the rows it lost. A run into the folder puts
    those results back into the journal before it runs anything, so the table written from
    the journal at its end keeps them, and their tasks do not run again."""
    run_suite(None, tmp_path / "a", PATHS, **SELECT)
    assert unjournaled(tmp_path / "a") == []
    [kept] = Journal(tmp_path / "a").results()
    (tmp_path / "a" / JOURNAL).unlink()
    assert [r.sample_id for r in unjournaled(tmp_path / "a")] == [kept.sample_id]
    said: list[str] = []
    again = run_suite(None, tmp_path / "a", PATHS, say=said.append, **SELECT)
    assert any("1 result(s) of" in s and "were put back" in s for s in said)
    assert again.results == 1
    [back] = Journal(tmp_path / "a").results()
    assert back.sample_id == kept.sample_id and back.solve_s == kept.solve_s
    assert list(pd.read_parquet(tmp_path / "a" / TABLE)["sample_id"]) == [kept.sample_id]
    # a journal of garbage beside the table: the same
    (tmp_path / "a" / JOURNAL).write_text("not a result\n", encoding="utf-8")
    run_suite(None, tmp_path / "a", PATHS, **SELECT)
    assert [r.sample_id for r in Journal(tmp_path / "a").results()] == [kept.sample_id]


def test_a_table_of_other_code_beside_no_journal_is_refused_untouched(tmp_path):
    run_suite(None, tmp_path / "a", PATHS, **SELECT)
    _recode(tmp_path / "a")
    from bench.run.storage import consolidate

    consolidate(tmp_path / "a")
    (tmp_path / "a" / JOURNAL).unlink()
    before = _files(tmp_path / "a")
    with pytest.raises(SessionError, match=r"measured otherwise .*\(formulation code: "):
        run_suite(None, tmp_path / "a", PATHS, **SELECT)
    assert _files(tmp_path / "a") == before


def test_what_stale_judges_and_what_it_leaves(tmp_path):
    """Not judged: tasks the ladder rule recorded as not run, the pinning of a task that did
    not answer (killed before it reported, it carries no pin), the machine of results a
    cluster's workers made (``here=False``). Judged: an answer's pinning, the machine here."""
    import dataclasses

    from bench.records import NOT_RUN
    from bench.run.plan import make_plan
    from bench.run.reuse import stale

    run_suite(None, tmp_path / "a", PATHS, **SELECT)
    [res] = Journal(tmp_path / "a").results()
    tasks = make_plan(None, PATHS, **SELECT).plan.tasks
    assert stale([res], tasks) == ""
    assert "(not pinned: " in stale([res], tasks, pinned=True)
    assert "(pinned to cpu 1: " in stale([dataclasses.replace(res, pinned_cpu=1)], tasks)
    memout = dataclasses.replace(res, status="memout", grid=None)
    assert stale([memout], tasks, pinned=True) == ""
    ladder = dataclasses.replace(res, status="timeout", message=f"{NOT_RUN} ladder rule")
    assert stale([ladder], tasks, pinned=True) == ""
    other = res.to_dict() | {"cpu": "another processor", "cores": 64}
    elsewhere = dataclasses.replace(res, cpu="another processor", cores=64,
                                    identity=identity(other))
    assert "(machine: " in stale([elsewhere], tasks)
    assert stale([elsewhere], tasks, here=False) == ""


def test_results_put_back_are_held_to_the_folders_limits(tmp_path):
    """A committed run's table of one time limit beside a new run of another: refused as
    a journal of that limit would be, the folder untouched."""
    run_suite(None, tmp_path / "a", PATHS, **SELECT)
    (tmp_path / "a" / JOURNAL).unlink()
    before = _files(tmp_path / "a")
    other = {**SELECT, "time_limit": 10.0}
    with pytest.raises(SessionError, match="holds results run with --time-limit 20, not 10"):
        run_suite(None, tmp_path / "a", [str(SHIKAKU_SEEDS[1])], **other)
    assert _files(tmp_path / "a") == before


def test_a_changed_known_solution_judges_kept_and_reused_results_again(tmp_path):
    """The verdict against the ``.sol`` beside an instance is no measurement: a resume and a
    reuse take it again from the file as it is now."""
    import shutil

    source = ROOT / "instances" / "shikaku" / "gen-shikaku-10x10-s1-0.txt"
    inst = tmp_path / "p.txt"
    shutil.copy(source, inst)
    right = source.with_suffix(".sol").read_text()
    grid = json.loads(right)
    wrong = json.dumps([list(reversed(row)) for row in grid])  # the mirror: same format
    assert wrong != json.dumps(grid)
    (tmp_path / "p.sol").write_text(wrong)
    run_suite(None, tmp_path / "a", [str(inst)], **SELECT)
    [first] = Journal(tmp_path / "a").results()
    assert first.status == "solved" and first.known is False
    (tmp_path / "p.sol").write_text(right)
    said: list[str] = []
    run_suite(None, tmp_path / "a", [str(inst)], say=said.append, **SELECT)
    assert any("1 result(s)" in s and "judged again" in s for s in said), said
    [kept] = samples(Journal(tmp_path / "a").results())
    assert (kept.known, kept.message, kept.sample_id) == (True, "", first.sample_id)
    assert pd.read_parquet(tmp_path / "a" / TABLE)["known"].tolist() == [True]
    (tmp_path / "p.sol").write_text(wrong)
    run_suite(None, tmp_path / "b", [str(inst)], options=Options(reuse=[tmp_path / "a"]),
              **SELECT)
    [reused] = Journal(tmp_path / "b").results()
    assert reused.known is False and "differs from the known solution" in reused.message
