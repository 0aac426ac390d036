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
and where repetitions of a pair's instance are folded its answered status counts every
sample that answered, timed or not, while its time comes from the timed samples only
(:func:`settle`): a pair's instance answered with no timed answer (:func:`left_out`) is
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
    """Per task row of ``t``: True where it is untimed, or it belongs to a group ``by`` (a
    pair's instance) that is untimed as a whole: a group with an untimed answer and no timed
    one that answered by the majority rule of :func:`settle` (its errors folded out beside
    the answer, :func:`bench.report.invalid.apart`), so nothing of it is left to measure (an
    error beside an untimed answer and no other sample is such a group)."""
    u = untimed(t)
    if not len(t) or not u.any():
        return u
    er = t["status"].eq("error")
    g = t.assign(_u=u, _a=~u & t["ok"].eq(True), _s=~u & ~er).groupby(
        by, sort=False, dropna=False)
    n_u = g["_u"].transform("sum")
    return u | ((n_u > 0) & ~g["_a"].transform("any") & (n_u > g["_s"].transform("sum")))


def beside(t: pd.DataFrame, by: list[str]) -> pd.Series:
    """Per task row of ``t``: the untimed answers of its group ``by`` (a pair's instance),
    among its rows and those an earlier :func:`bench.report.data.attempted` left out (its
    ``untimed_beside`` column), which the group's fold counts as answered
    (:func:`settle`)."""
    if not len(t):
        return pd.Series(0, index=t.index, dtype=int)
    here = t.assign(_u=untimed(t)).groupby(by, sort=False, dropna=False)["_u"].transform("sum")
    before = t["untimed_beside"].fillna(0) if "untimed_beside" in t else 0
    return (here + before).astype(int)


def kept(t: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The task rows ``t`` without those :func:`left_out` of their group ``by`` (a pair's
    instance); where any is left out, each row kept has its group's untimed answers in an
    ``untimed_beside`` column (:func:`beside`), for the fold that counts them answered."""
    gone = left_out(t, by)
    if not len(t) or not gone.any():
        return t
    return t[~gone].assign(untimed_beside=beside(t, by)[~gone])


def settle(out: pd.DataFrame) -> pd.DataFrame:
    """The status and time of each pair's instance folded by
    :func:`bench.report.data.per_instance` (``out``: per group ``ok_sum`` timed answers of
    ``ok_n`` timed samples in the fold, ``untimed_beside`` untimed answers, ``par2_s`` the
    median PAR-2 of the timed samples, ``ans_s`` that of the timed answers), those helper
    columns dropped but ``ok_frac`` (the timed samples' share answered).

    The rule: ``ok`` (answered) when a strict majority of the samples answered, counting
    every sample that answered, timed or not (exactly half: unanswered); the time is taken
    from the timed samples only: their median PAR-2 (the rule without untimed answers), but
    where the untimed answers alone make the instance answered (its timed samples alone
    fold unanswered) the median of its timed answers, since a failure's penalty is no time
    of an answered instance. An answered instance with no timed answer is untimed for the
    pair and has no group here (:func:`left_out`)."""
    out["ok_frac"] = out["ok_sum"] / out["ok_n"].where(out["ok_n"] > 0)
    every = out["ok_n"] + out["untimed_beside"]
    out["ok"] = (out["ok_sum"] + out["untimed_beside"]) / every.where(every > 0) > 0.5
    lifted = out["ok"] & ~(out["ok_frac"] > 0.5)
    out["par2_s"] = out["par2_s"].mask(lifted, out["ans_s"])
    return out.drop(columns=["ok_sum", "ok_n", "ans_s"])


def _instance(t: pd.DataFrame) -> list[str]:
    """The columns of ``t`` that name a pair's instance (the puzzle too: pairs and instance
    names recur across puzzles)."""
    return [k for k in ("puzzle", "pair", "instance") if k in t]


def lone(t: pd.DataFrame) -> pd.Series:
    """Per task row of ``t``: True where its pair's instance is untimed, every row of it
    :func:`left_out` (answered with no timed answer)."""
    by = _instance(t)
    gone = left_out(t, by)
    if not gone.any():
        return gone
    return t.assign(_g=gone).groupby(by, sort=False, dropna=False)["_g"].transform("all")


def timed(t: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The prepared task rows ``t`` without the untimed ones and the samples beside them on a
    pair's instance answered with no timed answer (:func:`kept`: the rows kept count them),
    and how many untimed ones there were (for a reader that compares times and has no place
    to keep a row without one)."""
    return kept(t, _instance(t)), int(untimed(t).sum())


def note(t: pd.DataFrame) -> list[str]:
    """The report's one warning on the untimed rows of the prepared task rows ``t``, with
    their count per puzzle and pair; none when every answer was timed."""
    u = t[untimed(t)] if len(t) else t
    if not len(u):
        return []
    per = u.groupby(["puzzle", "pair"], sort=True).size()
    each = [f"{p}: {pair} ({n})" for (p, pair), n in zip(per.index, per, strict=True)]
    with_them = left_out(t, _instance(t)) & ~untimed(t)
    e = int((with_them & t["status"].eq("error")).sum())
    f = int(with_them.sum()) - e
    said = "".join([
        f"; {e} error(s) beside them on instances with no timed sample left out with them"
        if e else "",
        f"; {f} unanswered sample(s) beside them on instances answered only without a time "
        "left out with them" if f else ""])
    return [f"{len(u)} correct answer(s) recorded without a build or solve time (untimed: no "
            f"measurement, never counted as 0 s{said}); left out of every time, count, test "
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
