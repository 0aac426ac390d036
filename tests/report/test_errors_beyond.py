"""A pair with errors is never presented as plainly equivalent to the best: wherever it is named
equivalent (the ranking, the matrix's best column and count, the summary sentence) it carries
"k of n run, e error"; and where its errors lie beyond every instance it measured (larger, or
slower for the best: not missing at random) it is not equivalent at all but inconclusive, in
every one of those places alike (:func:`bench.report.invalid.beyond`).

Hand-made runs through the real journal writer (:mod:`tests.report.declined_run`), and one real
run of a plugin formulation whose build raises on grids over 150 cells."""

from __future__ import annotations

from pathlib import Path

from bench.report import tables, write_report
from bench.report import verdicts as V
from bench.report.data import attempted, per_instance
from bench.report.invalid import beyond
from tests.conftest import plugin_package
from tests.report.conftest import _root, run
from tests.report.declined_run import write

A, E, C = (f"sat-{x} / cadical195" for x in "aec")
N = 9
TIMES = [0.5 + 0.1 * i for i in range(N)]  # sat-a's: the later instances take it longer


def _plan(errors: set[int]) -> dict[str, list[str | float]]:
    """sat-a answers every instance; sat-e within 1 % of it, erroring on ``errors``; sat-c
    times out everywhere (a separated third pair)."""
    return {"sat-a": list(TIMES),
            "sat-e": ["error" if i in errors else t * (1.01 if i % 2 else 0.99)
                      for i, t in enumerate(TIMES)],
            "sat-c": ["timeout"] * N}


def test_errors_on_the_instances_the_best_took_longest_on_are_no_equivalence(
        tmp_path: Path) -> None:
    """sat-e errors on the 3 instances sat-a took longest on: within 1 % of sat-a on the other
    6, but what it does on those 3 is unknown: inconclusive, nowhere equivalent or tied."""
    t = write(tmp_path / "run", _plan({6, 7, 8}))
    r = tables.ranking(t).set_index("pair")
    assert r.loc[E, "verdict"].startswith("inconclusive (6 of 9 run, 3 error: 3 on"), r.loc[E]
    assert not r.loc[E, "tie"]
    line = tables.verdict("nurikabe", t, r.reset_index())
    assert "equivalent to it" not in line, line

    m, lines = V.matrix(t)
    row = m.iloc[0]
    assert (row["best"], row["equivalent"], row["inconclusive"]) == (A, "0", "1"), row
    assert any("1 with errors beyond the instances measured" in x for x in lines), lines

    pi = per_instance(attempted(t))
    e = V.compare(pi).set_index("pair").loc[E]
    assert e["verdict"] == "inconclusive" and e["beyond"] == 3, e
    assert e["run"] == ("6 of 9 run, 3 error: 3 on instances where the best took longer than "
                        "on any it measured"), e["run"]
    assert beyond(pi, A, E) == (3, e["run"].split(": ", 1)[1])


def test_errors_within_what_it_measured_keep_equivalence_qualified_everywhere(
        tmp_path: Path) -> None:
    """sat-e errors on 2 instances in the middle (a larger and a slower one it measured on
    either side): equivalent on the 7 it measured, and named so with "7 of 9 run, 2 error" in
    the ranking, the matrix's best column and count, and the summary sentence."""
    t = write(tmp_path / "run", _plan({2, 5}))
    qualified = f"{E} (7 of 9 run, 2 error)"

    r = tables.ranking(t)
    e = r.set_index("pair").loc[E]
    assert e["verdict"] == "equivalent (7 of 9 run, 2 error)" and e["tie"], e
    line = tables.verdict("nurikabe", t, r)
    assert f"all tiers pooled): {qualified};" in line, line

    m, _ = V.matrix(t)
    row = m.iloc[0]
    assert row["best"] == f"{A} ≈ {qualified}", row["best"]
    assert row["equivalent"] == "1 (1 on part of the best's instances)", row["equivalent"]
    assert beyond(per_instance(attempted(t)), A, E) == (0, "")


def test_a_pair_without_errors_reads_as_before(tmp_path: Path) -> None:
    plan = _plan(set())
    t = write(tmp_path / "run", plan)
    m, _ = V.matrix(t)
    row = m.iloc[0]
    assert (row["best"], row["equivalent"]) in ((f"{A} ≈ {E}", "1"), (f"{E} ≈ {A}", "1")), row
    line = tables.verdict("nurikabe", t, tables.ranking(t))
    assert line.count("equivalent to it") == 1 and "error" not in line, line


#: a Shikaku formulation: sat-cover whose build raises on grids over 150 cells
LARGE_RAISES = '''
from bench.registry import formulation
from formulations.shikaku.sat_cover import SatCover


@formulation
class Mine(SatCover):
    name = "mine"
    description = "sat-cover whose build raises on grids over 150 cells"
    parameters = {"card": ["seqcounter"]}

    def build(self, inst):
        if inst.rows * inst.cols > 150:
            raise RuntimeError("mine: grid too large")
        return super().build(inst)
'''


def test_a_real_run_whose_plugin_raises_on_the_largest_grids(tmp_path: Path) -> None:
    """Shikaku 5x5, 10x10 and 14x14 (seeds 1-3) at a 5 s limit: the plugin errors on the three
    14x14 grids, which every other pair solved. It is inconclusive with its errors named, in
    the ranking, the matrix and the summary, never ≈ nor "equivalent to it"."""
    files = [f"shikaku/gen-shikaku-{s}-s{k}-0.txt" for s in ("5x5", "10x10", "14x14")
             for k in (1, 2, 3)]
    root = _root(tmp_path, files)
    (tmp_path / "plugin").mkdir()
    env = plugin_package(tmp_path / "plugin", "mine-pkg", "0.1", {"mine": LARGE_RAISES},
                         {"shikaku.sat.mine": "mine_pkg.mine"})
    run(root, tmp_path / "run", "--formulation", "mine", "--formulation",
        "sat-cover[card=seqcounter]", "--formulation", "cpsat-cover", "--solver", "kissat404",
        "--solver", "cpsat", "--time-limit", "5", env=env)
    out = write_report(tmp_path / "run", tmp_path / "report")
    md = (out / "summary.md").read_text(encoding="utf-8")
    mine = "mine[card=seqcounter] / kissat404"
    assert f"≈ {mine}" not in md, md
    sentences = [x for x in md.splitlines() if "equivalent to it" in x]
    assert not any(mine in x for x in sentences), sentences
    rows = [x for x in md.splitlines() if x.startswith("| mine[card=seqcounter] | kissat404 |")]
    assert rows and all("inconclusive (6 of 9 run, 3 error: 3 on instances larger than any "
                        "it measured" in x for x in rows), rows
