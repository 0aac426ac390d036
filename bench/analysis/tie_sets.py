"""Compare two runs of one suite, cell by cell (puzzle x tier, and the pooled row of each puzzle
whose tiers share one time limit; tasks that did not run left out)
and pair by pair, with the report's verdicts (:func:`bench.report.verdicts.compare`): a cell
*changed* when the best pair of one run is outside the other run's best-or-tie set ("best" and
the pairs "equivalent" to it); a cell is *reversed* when each run's best pair is separated from
the best in the other run (separated both ways); and each pair whose label differs between the
runs is listed.

Usage: ``python -m bench.analysis.tie_sets RUN_A RUN_B`` (run or report folders); exit 0 when no
cell changed, 1 when some did, 2 on a folder it cannot read (one line naming it).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from bench.report.data import ReportError, load_run, per_instance, prepare, ran
from bench.report.verdicts import compare

Cell = tuple[str, str]  # (puzzle, tier or "pooled")


@dataclass(frozen=True)
class Verdict:
    best: str
    tied: frozenset[str]  # the best-or-tie set, the best included
    #: every pair's label in the cell (best, separated, equivalent, inconclusive, ...)
    labels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Change:
    cell: Cell
    a: Verdict | None
    b: Verdict | None

    @property
    def changed(self) -> bool:
        """In one run only, or a best pair outside the other run's best-or-tie set."""
        if self.a is None or self.b is None:
            return True
        return self.b.best not in self.a.tied or self.a.best not in self.b.tied

    @property
    def reversed(self) -> bool:
        """Each run's best pair separated from the best in the other run."""
        if self.a is None or self.b is None or self.a.best == self.b.best:
            return False
        la, lb = dict(self.a.labels), dict(self.b.labels)
        return la.get(self.b.best) == "separated" and lb.get(self.a.best) == "separated"

    def relabelled(self) -> list[str]:
        """``pair: A -> B`` for every pair of the cell whose label differs between the runs
        ("–" where a run has no label for it)."""
        la = dict(self.a.labels) if self.a else {}
        lb = dict(self.b.labels) if self.b else {}
        return [f"{pair}: {la.get(pair, '–')} -> {lb.get(pair, '–')}"
                for pair in sorted(set(la) | set(lb)) if la.get(pair) != lb.get(pair)]

    def line(self) -> str:
        puzzle, tier = self.cell
        if self.a is None or self.b is None:
            return f"{puzzle} {tier}: in one run only"
        same = self.a.best == self.b.best
        return (f"{puzzle:<10} {tier:<7} best {'same' if same else 'differs'}"
                f"{'' if same else f' ({self.a.best} -> {self.b.best})'}; tie sets "
                f"{len(self.a.tied)} / {len(self.b.tied)}; "
                f"{'CHANGED outside the tie sets' if self.changed else 'within the tie sets'}"
                f"{'; REVERSED (separated both ways)' if self.reversed else ''}")


def verdicts(folder: str) -> dict[Cell, Verdict]:
    """(puzzle, tier) -> the best pair and its best-or-tie set, as the report's matrix has them."""
    t = ran(prepare(load_run(folder).df))  # tasks that did not run are never scored
    out: dict[Cell, Verdict] = {}
    for puzzle, g in t.groupby("puzzle", sort=True):
        pi = per_instance(g)
        tiers = [x for x in dict.fromkeys(g["tier"]) if x]
        # a pooled row only where every tier has one time limit, as in the report's matrix
        pooled = [("pooled", pi)] if len(tiers) != 1 and g["time_limit"].nunique() == 1 else []
        for tier, sub in [*((x, pi[pi["tier"] == x]) for x in tiers), *pooled]:
            r = compare(sub)
            if len(r) and r.at[0, "verdict"] == "best":
                tied = r[r["verdict"].isin(["best", "equivalent"])]["pair"]
                labels = tuple((str(p), str(v)) for p, v in zip(r["pair"], r["verdict"],
                                                                  strict=True))
                out[(str(puzzle), str(tier))] = Verdict(str(r.at[0, "pair"]),
                                                        frozenset(map(str, tied)), labels)
    return out


def changes(run_a: str, run_b: str) -> list[Change]:
    """Every cell of either run, in order."""
    a, b = verdicts(run_a), verdicts(run_b)
    return [Change(cell, a.get(cell), b.get(cell)) for cell in sorted(set(a) | set(b))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.analysis.tie_sets",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("run_a")
    ap.add_argument("run_b")
    args = ap.parse_args(argv)
    try:
        found = changes(args.run_a, args.run_b)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for c in found:
        print(c.line())
        for change in c.relabelled():
            print(f"  {change}")
    n = sum(c.changed for c in found)
    pairs = sum(len(dict(c.a.labels) | dict(c.b.labels)) for c in found if c.a and c.b)
    print(f"{sum(len(c.relabelled()) for c in found)} pair label(s) changed, of {pairs}; "
          f"{sum(c.reversed for c in found)} cell(s) reversed")
    print(f"{n} cell(s) changed outside the tie sets, of {len(found)}")
    return 1 if n else 0


if __name__ == "__main__":
    raise SystemExit(main())
