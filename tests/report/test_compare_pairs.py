"""``puzzlebench compare``'s per-pair test on synthetic runs with a known truth, written through
the real writers (:class:`bench.records.Result`, :class:`bench.run.storage.Journal`,
:func:`bench.run.storage.consolidate`, :func:`bench.run.storage.record_environment`): runs
that differ by nothing change nothing; one pair made 2x slower is changed, the others not; a
54x change is never equivalent; an instance answered in one run and timed out in the other
enters at min(t, L) with the shared limit; tasks that did not run are never scored."""

from __future__ import annotations

import hashlib
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from bench.records import NOT_RUN, Result
from bench.run.storage import Journal, consolidate, record_environment
from tests.conftest import ROOT

PUZZLE = "shikaku"
PAIRS = [("sat-a", "cadical195", "sat"), ("cpsat-a", "cpsat", "cpsat"),
         ("mip-a", "highs", "mip")]
N = 12
#: log-scale spread of instance difficulty and of run-to-run noise
SPREAD, NOISE = 1.0, 0.08


def digest(name: str) -> str:
    return "sha256:" + hashlib.sha256(name.encode()).hexdigest()[:16]


def result(form: str, solver: str, kind: str, instance: str, seconds: float, *,
           status: str = "solved", limit: float = 600.0, seed: int = 0, tier: str = "real",
           message: str = "") -> Result:
    ran = not message
    return Result(
        key=f"{digest(instance)}|{form}|{solver}|seed={seed}", puzzle=PUZZLE,
        instance=instance, instance_path=f"{instance}.txt", rows=10, cols=10, formulation=form,
        kind=kind, solver=solver, solver_version="1", status=status,  # type: ignore[arg-type]
        message=message, build_s=seconds * 0.1 if ran else None,
        solve_s=seconds * 0.9 if ran else None, wall_s=seconds + 0.02 if ran else None,
        start="fork" if ran else "", time_limit=limit, exact=True,
        checked=status == "solved" or None, seed=seed, tier=tier)


def write(folder: Path, results: list[Result], calibration: float = 0.07) -> Path:
    Journal(folder).extend(results)
    consolidate(folder)
    record_environment(folder, {"calibration": {"start_s": calibration, "end_s": calibration},
                                "samples": [{"at": "2026-01-01T00:00:00+00:00",
                                             "calibration_s": calibration, "load1": 0.2,
                                             "others_cpu": 0.0}]})
    return folder


def times(rng: np.random.Generator) -> dict[tuple[str, str], float]:
    """Per (formulation, instance) a base time: instances of spread difficulty."""
    inst = [f"real-{i:02d}" for i in range(N)]
    hard = rng.normal(0, SPREAD, N)
    return {(f, x): float(np.exp(h + rng.normal(0, 0.3)))
            for f, _, _ in PAIRS for x, h in zip(inst, hard, strict=True)}


def run(folder: Path, base: dict[tuple[str, str], float], rng: np.random.Generator,
        factors: dict[str, float] | None = None, noise: float = NOISE, seed: int = 0) -> Path:
    factors = factors or {}
    out = []
    for f, s, k in PAIRS:
        for (f2, x), t in base.items():
            if f2 == f:
                out.append(result(f, s, k, x, t * factors.get(f, 1.0)
                                  * float(np.exp(rng.normal(0, noise))) if noise else
                                  t * factors.get(f, 1.0), seed=seed))
    return write(folder, out)


def test_identical_runs_change_nothing_and_one_pair_2x_slower_is_changed_alone(tmp_path):
    from bench.report.compare import compare, compare_markdown

    rng = np.random.default_rng(7)
    base = times(rng)
    a = run(tmp_path / "a", base, rng, noise=0)
    same = run(tmp_path / "same", base, rng, noise=0)
    _, pairs = compare(a, same)
    assert len(pairs) == len(PAIRS) and set(pairs["instances"]) == {N}
    assert set(pairs["verdict"]) == {"equivalent"}, pairs  # no difference at all
    # runs that differ by timing noise alone: nothing changed
    noisy = run(tmp_path / "noisy", base, rng)
    _, pairs = compare(a, noisy)
    assert "changed" not in set(pairs["verdict"]), pairs
    # one pair 2x slower on 12 instances: changed, slower, for that pair only
    slow = run(tmp_path / "slow", base, rng, factors={"cpsat-a": 2.0})
    _, pairs = compare(a, slow)
    got = dict(zip(pairs["pair"], pairs["verdict"], strict=True))
    assert got.pop("cpsat-a / cpsat") == "changed" and "changed" not in got.values(), pairs
    row = pairs[pairs["pair"] == "cpsat-a / cpsat"].iloc[0]
    assert 1.8 < row["factor"] < 2.2 and row["factor_lo"] < 2 < row["factor_hi"]
    assert row["label"].startswith("changed: ") and "x slower [" in row["label"]
    md = compare_markdown(a, slow)
    assert "Pairs (per puzzle and tier): 1 of 3 changed (1 slower, 0 faster)" in md
    assert "Westfall-Young max-T sign-flip" in md and "Wilcoxon" not in md
    # the same change measured on other seeds (no task key in both runs) still pairs by
    # instance
    other = run(tmp_path / "seed1", base, rng, factors={"cpsat-a": 2.0}, seed=1)
    changes, pairs = compare(a, other)
    assert changes.empty
    assert dict(zip(pairs["pair"], pairs["verdict"], strict=True))["cpsat-a / cpsat"] == \
        "changed"
    assert "No task key is in both runs (other seeds" in compare_markdown(a, other)


def test_a_54x_change_is_never_equivalent(tmp_path):
    from bench.report.compare import compare

    rng = np.random.default_rng(3)
    base = times(rng)
    a = run(tmp_path / "a", base, rng)
    b = run(tmp_path / "b", base, rng, factors={"mip-a": 54.0}, noise=1.5)
    _, pairs = compare(a, b)
    row = pairs[pairs["pair"] == "mip-a / highs"].iloc[0]
    assert row["verdict"] == "changed" and row["factor"] > 10, row
    # on 4 instances (too few to test or to bound) it is inconclusive, never equivalent
    few = [r for r in _rows(a) if r.instance < "real-04"]
    fb = [r for r in _rows(b) if r.instance < "real-04"]
    _, pairs = compare(write(tmp_path / "a4", few), write(tmp_path / "b4", fb))
    row = pairs[pairs["pair"] == "mip-a / highs"].iloc[0]
    assert row["verdict"] == "inconclusive" and row["instances"] == 4, row
    assert math.isnan(row["factor_lo"]) and "too few" in row["label"]


def _rows(folder: Path) -> list[Result]:
    for r in (rs := Journal(folder).results()):
        r.sample_id = r.run_id = ""  # a new measurement in the folder it is written to
    return rs


def test_an_instance_answered_in_one_run_and_timed_out_in_the_other_enters_at_the_limit(
        tmp_path):
    from bench.report.compare import compare, paired_instances
    from bench.report.data import SGM_SHIFT_S, load_run, prepare

    f, s, k = PAIRS[0]
    inst = [f"real-{i:02d}" for i in range(N)]
    # A (limit 10 s) answers all in 1 s, one in 7 s; B (limit 5 s) times out on the first
    # six and on the 7 s one, answers the rest in 1 s
    ra = [result(f, s, k, x, 7.0 if i == 6 else 1.0, limit=10.0) for i, x in enumerate(inst)]
    rb = [result(f, s, k, x, 5.0, status="timeout", limit=5.0) if i <= 6 else
          result(f, s, k, x, 1.0, limit=5.0) for i, x in enumerate(inst)]
    a, b = write(tmp_path / "a", ra), write(tmp_path / "b", rb)
    m = paired_instances(prepare(load_run(a).df), prepare(load_run(b).df))
    m = m.set_index("instance")
    assert set(m["limit"]) == {5.0}  # the shared limit: the smaller of the two
    up = math.log(5 + SGM_SHIFT_S) - math.log(1 + SGM_SHIFT_S)
    assert np.allclose(m.loc[inst[:6], "d"], up)  # min(t, L): the timeout at L, not 2L
    assert m.loc[inst[6], "d"] == 0  # 7 s under A's limit is at least L = 5 s: a tie
    assert np.allclose(m.loc[inst[7:], "d"], 0) and int(m["censored"].sum()) == 7
    _, pairs = compare(a, b)
    row = pairs.iloc[0]
    assert row["instances"] == N and row["censored"] == 7
    assert math.isclose(row["factor"], math.exp(6 * up / N))
    assert row["verdict"] == "changed" and "slower" in row["label"], row  # 6 of 12 at 5x


def test_tasks_that_did_not_run_are_never_scored(tmp_path):
    from bench.report.compare import compare

    f, s, k = PAIRS[1]
    inst = [f"real-{i:02d}" for i in range(N)]
    ra = [result(f, s, k, x, 0.5) for x in inst]
    # B: half the instances recorded by a ladder rule without running (a timeout at the limit)
    rb = [result(f, s, k, x, 20.0, status="timeout", message=f"{NOT_RUN} ladder rule")
          if i % 2 else result(f, s, k, x, 0.5) for i, x in enumerate(inst)]
    _, pairs = compare(write(tmp_path / "a", ra), write(tmp_path / "b", rb))
    row = pairs.iloc[0]
    assert row["instances"] == N // 2 and row["censored"] == 0
    assert row["verdict"] == "equivalent", row


def test_the_command_prints_the_labels(tmp_path):
    rng = np.random.default_rng(11)
    base = times(rng)
    a = run(tmp_path / "a", base, rng)
    b = run(tmp_path / "b", base, rng, factors={"sat-a": 0.5})
    p = subprocess.run([sys.executable, "-m", "bench.cli", "compare", str(a), str(b)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    assert re.search(r"changed: 1\.9\dx faster \[", p.stdout), p.stdout
    assert "1 of 3 changed (0 slower, 1 faster)" in p.stdout


def test_the_sign_flip_max_t_holds_its_level_over_many_pairs_and_finds_a_2x_pair():
    """Seeded simulation (log-scale spread 0.4, 7 pairs, 12 instances, 200 draws): no change
    anywhere -> some pair changed in at most 9 % of draws (5 % nominal); one pair 2x slower ->
    that pair changed in at least 80 %."""
    from bench.report.signflip import sign_flip_maxt

    rng = np.random.default_rng(2026)
    draws, false, found = 200, 0, 0
    for _ in range(draws):
        d = rng.normal(0, 0.4, (12, 7))
        false += bool((sign_flip_maxt(d).p < 0.05).any())
        d[:, 0] += math.log(2)
        found += bool(sign_flip_maxt(d).p[0] < 0.05)
    assert false / draws <= 0.09 and found / draws >= 0.8, (false, found)


def test_the_sign_flip_p_is_exact_where_every_sign_vector_is_enumerated():
    """Equal non-zero differences on 8 instances: only the identity and its mirror are as
    extreme, p = 2 / 2^8 (never 0); no difference at all: p = 1; one instance: not tested."""
    from bench.report.signflip import sign_flip_maxt

    t = sign_flip_maxt(np.full((8, 1), 0.7))
    assert t.exact and t.draws == 256 and t.p[0] == 2 / 256
    assert list(sign_flip_maxt(np.zeros((8, 2))).p) == [1.0, 1.0]
    one = np.full((8, 2), np.nan)
    one[0, 0], one[:, 1] = 0.5, 0.0
    assert math.isnan(sign_flip_maxt(one).p[0])


def test_one_instance_at_two_solution_counts_is_two_units_of_the_test(tmp_path):
    # a merged run may hold an instance solved once plain and once with --count 2: both are
    # paired and both enter the test (neither overwrites the other)
    from dataclasses import replace

    from bench.report.compare import compare

    rng = np.random.default_rng(3)
    base = times(rng)

    def two_counts(folder: Path, factor: float) -> Path:
        out = []
        for (f, x), t in base.items():
            _, s, k = next(p for p in PAIRS if p[0] == f)
            plain = result(f, s, k, x, t * (factor if f == "sat-a" else 1.0))
            out += [plain, replace(plain, key=plain.key + "|count=2",
                                   count=2, wall_s=(plain.wall_s or 0) * 1.5,
                                   solve_s=(plain.solve_s or 0) * 1.5)]
        return write(folder, out)

    _, pairs = compare(two_counts(tmp_path / "a", 1.0), two_counts(tmp_path / "b", 3.0))
    assert set(pairs["instances"]) == {2 * N}, pairs
    row = pairs[pairs["pair"] == "sat-a / cadical195"].iloc[0]
    assert row["verdict"] == "changed" and 2.5 < row["factor"] < 3.5, row
