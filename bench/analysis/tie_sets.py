"""Compare the best-or-tie sets of two runs of one suite, cell by cell (puzzle x tier, and the
pooled row of each puzzle): a cell *changed* when the best pair of one run is outside the other
run's best-or-tie set. The sets are the report's verdict matrix
(:func:`bench.report.verdicts.compare`: "best" and "≈ best").

Usage: ``python -m bench.analysis.tie_sets RUN_A RUN_B`` (run or report folders); exit 0 when no
cell changed, 1 when some did, 2 on a folder it cannot read (one line naming it).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from bench.report.data import ReportError, load_run, prepare
from bench.report.verdicts import compare, per_instance

Cell = tuple[str, str]  # (puzzle, tier or "pooled")


@dataclass(frozen=True)
class Verdict:
    best: str
    tied: frozenset[str]  # the best-or-tie set, the best included


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

    def line(self) -> str:
        puzzle, tier = self.cell
        if self.a is None or self.b is None:
            return f"{puzzle} {tier}: in one run only"
        same = self.a.best == self.b.best
        return (f"{puzzle:<10} {tier:<7} best {'same' if same else 'differs'}"
                f"{'' if same else f' ({self.a.best} -> {self.b.best})'}; tie sets "
                f"{len(self.a.tied)} / {len(self.b.tied)}; "
                f"{'CHANGED outside the tie sets' if self.changed else 'within the tie sets'}")


def verdicts(folder: str) -> dict[Cell, Verdict]:
    """(puzzle, tier) -> the best pair and its best-or-tie set, as the report's matrix has them."""
    t = prepare(load_run(folder).df)
    out: dict[Cell, Verdict] = {}
    for puzzle, g in t.groupby("puzzle", sort=True):
        pi = per_instance(g)
        tiers = [x for x in dict.fromkeys(g["tier"]) if x]
        for tier, sub in [*((x, pi[pi["tier"] == x]) for x in tiers), ("pooled", pi)]:
            r = compare(sub)
            if len(r) and r.at[0, "verdict"] == "best":
                tied = r[r["verdict"].isin(["best", "≈ best"])]["pair"]
                out[(str(puzzle), str(tier))] = Verdict(str(r.at[0, "pair"]),
                                                        frozenset(map(str, tied)))
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
    n = sum(c.changed for c in found)
    print(f"{n} cell(s) changed outside the tie sets, of {len(found)}")
    return 1 if n else 0


if __name__ == "__main__":
    raise SystemExit(main())
