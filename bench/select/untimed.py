"""Untimed answers in learning and judging a selector: missing data, never imputed.

A pair's instance is *untimed* where it ran, was not declined, and every sample of it is a
correct answer recorded without its build or solve time (errors beside one at most): the
report's definition (:func:`bench.report.untimed.lone`, :func:`bench.report.untimed.matrix`)
on the rows :func:`bench.report.data.attempted` keeps before it drops them. Its cell of a
performance matrix (:func:`bench.report.data.performance`) is NaN, as is that of a task not
run or declined; but where learning fills those (a declined task or one the ladder rule did not run
counts unsolved, at PAR-2), an untimed answer is neither a time nor a timeout, so its cell is
left out instead. A cost-sensitive rule needs every candidate's cost on each training instance
(:func:`bench.select.learn.stump` sums a whole row), so an instance where a candidate is
untimed leaves the training set (:func:`leave_out`); a judged test set leaves out an instance
where a compared pair is untimed (every figure is over the instances where each compared pair
was measured). Both are counted (:class:`LeftOut`) and said beside the printed tables
(:func:`note`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from bench.report.data import attempted
from bench.report.untimed import matrix


def cells(t: pd.DataFrame) -> pd.DataFrame:
    """Instance x pair (bool) of one puzzle's prepared rows ``t``: True where the pair's
    instance is untimed (see the module): the report's :func:`bench.report.untimed.matrix` of
    the rows :func:`bench.report.data.attempted` keeps, untimed ones included."""
    a = attempted(t, timed=False) if len(t) else t
    return matrix(a, pd.Index(a["instance"].unique() if len(a) else []))


def on(untimed: pd.DataFrame | None, like: pd.DataFrame) -> pd.DataFrame:
    """``untimed`` (:func:`cells`) on the cells of the matrix ``like``: False where it has no
    entry."""
    if untimed is None or untimed.empty:
        return pd.DataFrame(False, index=like.index, columns=like.columns, dtype=bool)
    return untimed.reindex(index=like.index, columns=like.columns).eq(True)


@dataclass(frozen=True)
class LeftOut:
    """What learning left out as untimed: the untimed (instance, pair) cells of a training
    matrix, and the training instances left out with them."""

    cells: int = 0
    instances: int = 0

    def __add__(self, other: LeftOut) -> LeftOut:
        return LeftOut(self.cells + other.cells, self.instances + other.instances)


def leave_out(par2: pd.DataFrame, untimed: pd.DataFrame | None, pairs: list[str]
              ) -> tuple[pd.DataFrame, LeftOut]:
    """A training matrix (instance x pair) without the instances where one of ``pairs`` (the
    candidates) is untimed, and what was left out (every untimed cell of the matrix counted,
    none of them imputed)."""
    u = on(untimed, par2)
    gone = u[[p for p in pairs if p in u]].any(axis=1)
    return par2[~gone], LeftOut(int(u.to_numpy().sum()), int(gone.sum()))


def note(judged: list[tuple[str, LeftOut, int]]) -> list[str]:
    """The lines said beside the tables where anything was left out as untimed (none when
    nothing was): per name (a puzzle's training, a judged test set), what the training left
    out (:class:`LeftOut`) and how many test instances were left out."""
    said = []
    for name, left, tested in judged:
        parts = ([f"{left.cells} training (instance, pair) cells, with {left.instances} "
                  "training instances where a candidate pair was untimed"] if left.cells else [])
        parts += [f"{tested} test instances where a compared pair was untimed"] if tested else []
        if parts:
            said.append(f"- {name}: " + "; ".join(parts))
    if not said:
        return []
    return ["Left out as untimed (a correct answer recorded without its build or solve time: "
            "no measurement, never a time or a timeout):", *said]
