"""A correct answer recorded without its time: no measurement.

A task's time is its build + solve seconds (``build_s`` + ``solve_s``, both recorded by the
task process). Where a task answered correctly (``ok``: :func:`bench.report.data.prepare`) but
either part is missing, its time is unknown: it is never taken as 0 s (nor as the one part
that was measured), since a verdict rests only on what was measured. Such a row is
*untimed*: its ``time_s`` and ``par2_s`` are NaN and it is left out of every time, count, test
and verdict as a declined task is (:func:`bench.report.data.attempted` and
:func:`bench.report.data.per_instance` drop it: a pair is compared only on the instances it
was timed on). It is a sample all the same (the task answered): an error beside it is
folded out of its instance as beside any other sample (:func:`bench.report.invalid.apart`),
so a pair's instance with an untimed answer and no timed sample (:func:`left_out`) is
untimed, neither an error nor the penalty. It stays in the status grid (its answer is
real) and is counted on the report page (:func:`note`), so nothing is dropped silently. A
task that did not answer needs no time: its PAR-2 is the penalty at its limit whatever was
recorded.
"""

from __future__ import annotations

import pandas as pd


def missing(t: pd.DataFrame, ok: pd.Series) -> pd.Series:
    """Per task row of ``t`` (Result columns): True where the row answered correctly
    (``ok``) and its build or solve time is missing."""
    own = t["build_s"].astype(float) + t["solve_s"].astype(float)
    return ok.astype(bool) & own.isna()


def untimed(t: pd.DataFrame) -> pd.Series:
    """Per prepared task row: the ``untimed`` column :func:`bench.report.data.prepare` wrote
    (False for a frame without it)."""
    if "untimed" not in t:
        return pd.Series(False, index=t.index, dtype=bool)
    return t["untimed"].fillna(False).astype(bool)


def left_out(t: pd.DataFrame, by: list[str]) -> pd.Series:
    """Per task row of ``t``: True where it is untimed, or an ``error`` of a group ``by`` (a
    pair's instance) with an untimed answer and no other sample: folded out beside the answer
    (:func:`bench.report.invalid.apart`), which is no measurement, so nothing of the group
    is left to measure."""
    u = untimed(t)
    if not len(t) or not u.any():
        return u
    er = t["status"].eq("error")
    g = t.assign(_u=u, _s=~u & ~er).groupby(by, sort=False, dropna=False)
    return u | (er & g["_u"].transform("any") & ~g["_s"].transform("any"))


def _instance(t: pd.DataFrame) -> list[str]:
    """The columns of ``t`` that name a pair's instance (the puzzle too: pairs and instance
    names recur across puzzles)."""
    return [k for k in ("puzzle", "pair", "instance") if k in t]


def lone(t: pd.DataFrame) -> pd.Series:
    """Per task row of ``t``: True where its pair's instance is untimed, every row of it
    :func:`left_out` (an untimed answer, errors beside it at most)."""
    by = _instance(t)
    gone = left_out(t, by)
    if not gone.any():
        return gone
    return t.assign(_g=gone).groupby(by, sort=False, dropna=False)["_g"].transform("all")


def timed(t: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The prepared task rows ``t`` without the untimed ones and the errors beside them on a
    pair's instance with no timed sample (:func:`left_out`), and how many untimed ones there
    were (for a reader that compares times and has no place to keep a row without one)."""
    gone = left_out(t, _instance(t))
    return t[~gone], int(untimed(t).sum())


def note(t: pd.DataFrame) -> list[str]:
    """The report's one warning on the untimed rows of the prepared task rows ``t``, with
    their count per puzzle and pair; none when every answer was timed."""
    u = t[untimed(t)] if len(t) else t
    if not len(u):
        return []
    per = u.groupby(["puzzle", "pair"], sort=True).size()
    each = [f"{p}: {pair} ({n})" for (p, pair), n in zip(per.index, per, strict=True)]
    e = int((left_out(t, _instance(t)) & ~untimed(t)).sum())
    beside = (f"; {e} error(s) beside them on instances with no timed sample left out with "
              "them") if e else ""
    return [f"{len(u)} correct answer(s) recorded without a build or solve time (untimed: no "
            f"measurement, never counted as 0 s{beside}); left out of every time, count, test "
            "and verdict, each such pair compared only on the instances it was timed on, "
            "shown in the status grid: " + ", ".join(each) + "."]


def per_pair(t: pd.DataFrame) -> pd.Series:
    """Per pair: the instances of the task rows ``t`` (those attempted, untimed ones included)
    that are untimed (:func:`lone`), so that the pair has no time there and the instance is
    missing from its comparisons (no entry: none)."""
    u = t[lone(t)] if len(t) else t
    return u.groupby("pair")["instance"].nunique() if len(u) else pd.Series(dtype=int)


def matrix(t: pd.DataFrame, index: pd.Index) -> pd.DataFrame:
    """Instances (``index``) x pairs: True where the pair's instance is untimed among the task
    rows ``t`` (those attempted, untimed ones included: :func:`lone`), answered without a
    time; no column for a pair with none."""
    u = t[lone(t)] if len(t) else t
    if not len(u):
        return pd.DataFrame(False, index=index, columns=[])
    return (pd.crosstab(u["instance"], u["pair"]) > 0).reindex(index=index, fill_value=False)


def words(n: int) -> str:
    """", u untimed" after a pair's instance words ("13 of 14 run"): the instances it answered
    without a time are why it has fewer, not tasks that did not run; "" for none."""
    return f", {n} untimed" if n else ""


def absent(per: pd.Series, measured: pd.DataFrame) -> str:
    """The matrix note's clause on the pairs untimed on every instance (``per``: of
    :func:`per_pair`), so that none of their rows is in the per-instance rows ``measured``:
    "k pair(s) untimed on every instance", or "" for none."""
    k = len(set(per.index) - set(measured["pair"] if len(measured) else []))
    return f"{k} pair(s) untimed on every instance" if k else ""


def none_timed(t: pd.DataFrame) -> str:
    """The matrix note of a group without a task measured (``t``: its task rows attempted):
    "no task ran", or where some answered without a time "no task timed (u untimed)"."""
    u = int(untimed(t).sum()) if len(t) else 0
    return f"no task timed ({u} untimed)" if u else "no task ran"


def all_words(n: int) -> str:
    """The ranking's verdict for a pair with no instance timed, ``n`` of them answered without
    a time: "untimed all (n answered without a time)"; "" for n = 0."""
    return f"untimed all ({n} answered without a time)" if n else ""
