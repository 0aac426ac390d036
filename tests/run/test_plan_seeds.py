"""Seeds as part of a suite's design and the pilot's caps, at planning time: a tier's declared
``seeds`` (every seeded solver that many, a deterministic one once, never gated), a capped
pair's tasks recorded not run (never scored), disjoint seed sets for a run given ``--seed``,
the ladder rule limited to the tiers a suite names, and the default suite itself (its cells
can decide, its dry run states the expected time). Real files, real solvers, real processes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from bench.backends import get_backend
from bench.records import NOT_RUN
from bench.report.paired import MIN_INTERVAL
from bench.run.estimate import cost
from bench.run.plan import Plan, PlanError, content, make_plan
from bench.run.session import split_repeats
from bench.suites import load_suites
from tests.cli.test_cli import cli
from tests.conftest import INSTANCES, ROOT, SHIKAKU_SEEDS

SUITE = """[s]
version = 1
description = "seeds and caps"
time_limit = 20
variants = "default"
solvers = ["cpsat", "glpk", "clingo"]
repeat_under = 1.0

[s.tiers.fast]
repeats = 3
time_limit = 4
instances = ["shikaku/a.txt"]

[s.tiers.hard]
seeds = 3
time_limit = 5
cap = 1
capped = ["shikaku:mip-cover/glpk"]
instances = ["shikaku/b.txt", "shikaku/c.txt"]
"""


def project(tmp_path: Path, suite: str = SUITE) -> Path:
    root = tmp_path / "proj"
    (root / "instances" / "shikaku").mkdir(parents=True)
    for name, src in (("a.txt", SHIKAKU_SEEDS[0]), ("b.txt", SHIKAKU_SEEDS[1]),
                      ("c.txt", INSTANCES / "shikaku" / "gen-shikaku-7x7-s1-0.txt")):
        shutil.copyfile(src, root / "instances" / "shikaku" / name)
    (root / "instances" / "suites.toml").write_text(suite)
    return root


def plan_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suite: str = SUITE, **kw):
    root = project(tmp_path, suite)
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    monkeypatch.chdir(tmp_path)
    return make_plan("s", formulations=("mip-cover", "cpsat-cover", "asp-cover"), **kw)


def test_clingo_declares_no_seed_so_it_runs_once_on_a_seeds_tier(tmp_path, monkeypatch):
    # clasp's default search ignores --seed (tests/backends/test_asp.py): declared unseeded
    assert not get_backend("clingo").seeding.takes and not get_backend("glpk").seeding.takes
    assert get_backend("cpsat").seeding.takes
    planned = plan_of(tmp_path, monkeypatch)
    hard = [t for t in planned.plan.tasks if t.tier == "hard"]
    seeds: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for t in hard:
        seeds.setdefault((Path(t.instance).name, t.solver), []).append((t.seed, t.rep))
    assert sorted(seeds[("b.txt", "cpsat")]) == [(0, 0), (1, 0), (2, 0)]
    assert seeds[("b.txt", "clingo")] == [(0, 0)] and seeds[("c.txt", "clingo")] == [(0, 0)]
    # the fast tier keeps its repeats: seeds for CP-SAT, repetitions for clingo
    fast = [(t.solver, t.seed, t.rep) for t in planned.plan.tasks if t.tier == "fast"]
    assert sorted(x for x in fast if x[0] == "clingo") == [("clingo", 0, r) for r in range(3)]
    assert sorted(x for x in fast if x[0] == "cpsat") == [("cpsat", s, 0) for s in range(3)]
    assert planned.fixed == frozenset({"hard"})


def _digests(plan: Plan, *names: str) -> list[str]:
    """The content digests of the plan's instance files of these names (as the estimate
    tells instances)."""
    of = {Path(t.instance).name: content(t) for t in plan.tasks}
    return [of[n] for n in names]


def test_a_seeds_tier_is_never_gated_a_repeats_tier_is(tmp_path, monkeypatch):
    planned = plan_of(tmp_path, monkeypatch)
    first, extra = split_repeats(planned.plan, planned.fixed)
    assert {t.tier for t in extra} == {"fast"}  # every hard seed is a first run
    assert sum(t.tier == "hard" and t.solver == "cpsat" for t in first) == 6
    # without the declaration the hard seeds would be gated like repetitions
    _, gated = split_repeats(planned.plan)
    assert any(t.tier == "hard" for t in gated)
    # the estimate gates alike: a slow first run keeps the fast tier's further runs out only
    known = pd.DataFrame({"content": _digests(planned.plan, "a.txt", "b.txt", "c.txt") * 3,
                          "formulation": ["cpsat-cover"] * 3 + ["mip-cover"] * 3
                          + ["asp-cover"] * 3,
                          "solver": ["cpsat"] * 3 + ["glpk"] * 3 + ["clingo"] * 3,
                          "time_s": [2.0] * 9, "answered": [1.0] * 9})
    c = cost(planned.plan, known, planned.under, fixed=planned.fixed)
    assert c.gated == 6  # the fast tier's further runs of the three pairs, none of the hard's


def test_a_capped_pair_runs_on_the_first_instances_and_the_rest_are_recorded_not_run(
        tmp_path, monkeypatch):
    planned = plan_of(tmp_path, monkeypatch)
    glpk = [t for t in planned.plan.tasks if t.solver == "glpk" and t.tier == "hard"]
    assert [Path(t.instance).name for t in glpk] == ["b.txt"]  # cap 1: the first in order
    (rec,) = [e for e in planned.plan.errors if e.message.startswith(NOT_RUN)]
    assert Path(rec.instance_path).name == "c.txt" and rec.solver == "glpk"
    assert rec.status == "timeout" and rec.tier == "hard" and rec.time_limit == 5.0
    assert "capped" in rec.message and rec.kind == "mip" and rec.identity
    # an uncapped pair of the same tier runs on both
    assert {Path(t.instance).name for t in planned.plan.tasks
            if t.solver == "cpsat" and t.tier == "hard"} == {"b.txt", "c.txt"}
    # the estimate costs the capped task nothing
    assert cost(planned.plan).tasks == len(planned.plan.tasks)


def test_a_capped_seeded_pair_runs_its_lowest_seed_only(tmp_path, monkeypatch):
    suite = SUITE.replace('capped = ["shikaku:mip-cover/glpk"]',
                          'capped = ["shikaku:mip-cover/glpk", "shikaku:cpsat-cover/cpsat"]')
    planned = plan_of(tmp_path, monkeypatch, suite, seed=3)
    cp = [(Path(t.instance).name, t.seed) for t in planned.plan.tasks
          if t.solver == "cpsat" and t.tier == "hard"]
    assert cp == [("b.txt", 3)]
    rec = {(Path(e.instance_path).name, e.solver, e.seed) for e in planned.plan.errors}
    assert rec == {("c.txt", "glpk", 3), ("c.txt", "cpsat", 3)}
    # the uncapped clingo pair keeps both instances, once each
    assert sorted(Path(t.instance).name for t in planned.plan.tasks
                  if t.solver == "clingo" and t.tier == "hard") == ["b.txt", "c.txt"]


def test_a_run_given_seed_3_plans_seeds_disjoint_from_the_default(tmp_path, monkeypatch):
    a = plan_of(tmp_path, monkeypatch)
    b = make_plan("s", formulations=("mip-cover", "cpsat-cover", "asp-cover"), seed=3)
    seeded = {t.seed for t in a.plan.tasks if t.solver == "cpsat"}
    assert seeded == {0, 1, 2}
    assert {t.seed for t in b.plan.tasks if t.solver == "cpsat"} == {3, 4, 5}
    assert not {t.key for t in a.plan.tasks} & {t.key for t in b.plan.tasks}
    # a seed-3 plan's first runs are first runs: the estimate does not gate them away
    known = pd.DataFrame({"content": _digests(a.plan, "a.txt", "b.txt", "c.txt"),
                          "formulation": ["cpsat-cover"] * 3, "solver": ["cpsat"] * 3,
                          "time_s": [2.0] * 3, "answered": [1.0] * 3})
    assert cost(b.plan, known, b.under, fixed=b.fixed).gated == \
        cost(a.plan, known, a.under, fixed=a.fixed).gated == 2


def test_results_of_seeds_0_to_2_are_not_reused_by_a_seed_3_run(tmp_path, monkeypatch):
    from bench.run.reuse import Sources, matches

    root = project(tmp_path)
    out = tmp_path / "out"
    env = {"PUZZLEBENCH_ROOT": str(root)}
    p = cli("run", "--suite", "s", "--out", str(out), "--formulation", "cpsat-cover",
            "--formulation", "mip-cover", "--solver", "cpsat", "--solver", "glpk",
            env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "error" not in p.stderr  # a capped task is recorded not run, not an error
    done = pd.read_parquet(out / "results.parquet")
    hard = done[(done["tier"] == "hard") & (done["solver"] == "cpsat")]
    assert set(hard["seed"]) == {0, 1, 2} and len(hard) == 6
    capped = done[done["message"].fillna("").str.startswith(f"{NOT_RUN} capped")]
    assert list(capped["instance"]) == ["c"] and list(capped["solver"]) == ["glpk"]
    assert len(done[(done["tier"] == "hard") & (done["solver"] == "glpk")]) == 2
    src = Sources.load([out])
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    monkeypatch.chdir(tmp_path)
    same = make_plan("s", formulations=("cpsat-cover",), solvers=("cpsat",))
    shifted = make_plan("s", formulations=("cpsat-cover",), solvers=("cpsat",), seed=3)
    again = [t for t in same.plan.tasks if t.tier == "hard"]
    assert len(matches(again, src)) == 6  # the same seeds: every hard task reusable
    assert matches([t for t in shifted.plan.tasks if t.tier == "hard"], src) == []


def test_a_tier_with_both_repeats_and_seeds_is_one_clear_error(tmp_path):
    root = project(tmp_path, SUITE.replace("seeds = 3", "seeds = 3\nrepeats = 2"))
    p = cli("run", "--suite", "s", "--dry-run", env={"PUZZLEBENCH_ROOT": str(root)},
            cwd=tmp_path)
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert "suite s, tier hard: declare `repeats` or `seeds`, not both" in p.stderr
    bad = SUITE.replace('capped = ["shikaku:mip-cover/glpk"]', 'capped = ["mip-cover"]')
    with pytest.raises(ValueError, match="capped pair 'mip-cover' is not"):
        load_suites_text(tmp_path, bad)
    with pytest.raises(ValueError, match="ladder_rule names no tier 'nope'"):
        load_suites_text(tmp_path, SUITE.replace("repeat_under", 'ladder_rule = ["nope"]\n'
                                                 "repeat_under"))


def load_suites_text(tmp_path: Path, text: str):
    path = tmp_path / "suites.toml"
    path.write_text(text)
    return load_suites(path)


def test_plan_error_names_a_bad_suite(tmp_path, monkeypatch):
    root = project(tmp_path, SUITE.replace("cap = 1\n", ""))
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    with pytest.raises(PlanError, match="`capped` needs a `cap` of 1 or more"):
        make_plan("s")


def test_the_ladder_rule_holds_only_in_the_tiers_a_suite_names(tmp_path):
    """``ladder_rule = ["tiny"]``: a timeout in the tiny tier leaves out the later instances of
    its family in that tier, but not those of another tier (a longer limit there)."""
    root = tmp_path / "proj"
    f = root / "instances" / "shikaku" / "f"
    f.mkdir(parents=True)
    for n in ("gen-shikaku-10x10-s1-0", "gen-shikaku-10x10-s2-0", "gen-shikaku-14x14-s1-0"):
        shutil.copyfile(INSTANCES / "shikaku" / f"{n}.txt", f / f"{n}.txt")
    (root / "instances" / "suites.toml").write_text("""[l]
version = 1
description = "ladder in one tier"
time_limit = 20
ladder_rule = ["tiny"]

[l.tiers.tiny]
time_limit = 0.001
instances = ["shikaku/f/gen-shikaku-10x10-s*.txt"]

[l.tiers.rest]
instances = ["shikaku/f/gen-shikaku-14x14-s1-0.txt"]
""")
    out = tmp_path / "out"
    p = cli("run", "--suite", "l", "--out", str(out), "--formulation", "cpsat-cover",
            "--solver", "cpsat", "--jobs", "1", env={"PUZZLEBENCH_ROOT": str(root)},
            cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr
    df = pd.read_parquet(out / "results.parquet").set_index("instance")
    assert df.at["gen-shikaku-10x10-s1-0", "status"] == "timeout"
    assert str(df.at["gen-shikaku-10x10-s2-0", "message"]).startswith(NOT_RUN)  # same tier
    assert df.at["gen-shikaku-14x14-s1-0", "status"] == "solved"  # another tier: it ran


def test_every_cell_of_the_default_suite_can_decide():
    """Each puzzle x tier of the default suite holds at least as many instances as an interval
    needs; the hard tier runs 3 seeds; every capped pair is one of the suite's pairs."""
    from bench.instance import read_instance

    s = load_suites()["default"]
    assert [t.name for t in s.tiers] == ["real", "ladder", "hard"]
    assert s.seeds_of() == {"hard": 3} and s.ladder_in() == frozenset({"ladder"})
    cells: dict[tuple[str, str], int] = {}
    for path, tier in s.tier_of().items():
        key = (read_instance(path).puzzle, tier)
        cells[key] = cells.get(key, 0) + 1
    small = {k: n for k, n in cells.items() if n < MIN_INTERVAL}
    assert not small, small
    assert {p for p, t in cells if t == "hard"} == {
        "shikaku", "nurikabe", "yinyang", "shakashaka", "fillomino"}
    cap, capped = s.caps_of().get("hard", (0, frozenset()))
    solvers = {x.split(":")[-1] for x in s.solvers}
    for pair in capped:
        assert pair.rsplit("/", 1)[1] in solvers, pair
    assert cap == 0 or cap >= 1


def test_the_default_suites_dry_run_states_its_expected_time():
    p = cli("run", "--suite", "default", "--dry-run", "--jobs", "2")
    assert p.returncode == 0, p.stderr
    assert "worst case (every task at its limit)" in p.stdout
    line = next(x for x in p.stdout.splitlines() if x.startswith("expected: "))
    minutes = float(line.split()[1])
    assert 0 < minutes <= 20, line


def test_a_capped_pair_is_held_to_instances_it_has_a_task_on_and_a_misspelt_one_is_logged(
        tmp_path, monkeypatch, caplog):
    # the capped pair's first instance in order (b.txt) has no task of it (a --formulation
    # filter keeps mip-cover to c.txt here by leaving b.txt's glpk tasks out): the cap then
    # admits c.txt, the first instance the pair has a task on
    from bench.run.plan import apply_caps

    planned = plan_of(tmp_path, monkeypatch, SUITE.replace("cap = 1", "cap = 5"))
    plan = planned.plan
    plan.tasks = [t for t in plan.tasks
                  if not (t.solver == "glpk" and Path(t.instance).name == "b.txt")]
    plan.errors = []
    order = sorted({t.instance for t in plan.tasks})
    apply_caps(plan, order, {"hard": (1, frozenset({"shikaku:mip-cover/glpk"}))})
    assert [Path(t.instance).name for t in plan.tasks
            if t.solver == "glpk" and t.tier == "hard"] == ["c.txt"]
    assert not [e for e in plan.errors if e.solver == "glpk"]
    with caplog.at_level("WARNING"):
        apply_caps(plan, order, {"hard": (1, frozenset({"shikaku:mip-covr/glpk"}))})
    assert "caps shikaku:mip-covr/glpk in tier hard, but the plan has no task of it" in \
        caplog.text


def test_a_task_its_formulation_skipped_is_estimated_at_no_time():
    """The committed run of frontier on the default suite: every task skipped (too many
    clues); the estimate takes them as answered in no time, not at the limit."""
    from bench.run.estimate import measured

    m = measured([ROOT / "results" / "frontier-default-20261129"])
    assert len(m) > 20
    assert bool(m["answered"].eq(1.0).all()) and bool(m["time_s"].eq(0.0).all())
