"""Instances and pairs with no measurement: a task that ended in ``error`` (a crash, a build
bug, a formulation that raised) says nothing about how fast the pair is, so the verdicts never
read it as a time.

Method: in :func:`bench.report.data.per_instance` an instance's error samples are left out of
its fold wherever it has another sample; an instance whose every sample errored is
*unmeasured* (:func:`unmeasured`): missing from the paired comparisons, like a task not run,
never censored at the limit as a timeout is. A timeout is right-censored evidence (the pair
needs more than the limit); so is a memout: the memory limit is a resource bound of the run as
the time limit is, and a pair that exceeds it gave no answer within the run's resources
(leaving memouts out would compare a memory-hungry pair only on the instances it fitted, a
selection in its favour; ASlib scores memout like timeout). A pair whose every instance is
unmeasured has *no valid answer* (:func:`no_valid_answer`): it is ranked nowhere, tested
against nothing, and listed apart by name with its error count (:func:`line`), so nothing is
dropped silently. A pair with some unmeasured instances is compared on the instances it
measured: its verdict reads "k of n run, e error" (:func:`run_words`), and every sentence or
cell that names it equivalent carries those words.

Errors that are not missing at random (:func:`beyond`, applied by :func:`restrict`): an
errored instance of a pair lies *beyond* the instances it measured where it has more cells
than every instance the pair measured, or where the best pair's time on it (min(t, limit))
exceeds the best's time on every instance both measured. The pair's comparison then rests on
a selection that stops short of its failures (a formulation that raises on large grids is
timed on the small ones only), not on the best's instance set, and what it would do beyond is
unknown: such a pair is never "equivalent" but "inconclusive", its label saying how many
errors lie beyond ("6 of 9 run, 3 error: 3 on instances larger than any it measured"). A pair
whose errors lie within the range it measured (each has a measured instance at least as large
and one the best took at least as long on) keeps its verdict on the measured instances, named
"equivalent (k of n run, e error)" wherever it is named (:func:`named`, :func:`counted`).
A range rule, not a test of randomness: a few errors give no test the power to show them
random, and equivalence is claimed only where it was measured. Tasks not run and instances
declined are named the same way ("k of n run", ", d declined") and keep their verdict: they
are missing by the suite's or the formulation's design, not failures.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

#: the verdict of a pair with no valid answer (every task an error)
NO_VALID = "no valid answer"
#: the labels of :mod:`bench.report.verdicts` that :func:`restrict` reads and sets
EQUIVALENT, INCONCLUSIVE = "equivalent", "inconclusive"
#: what such a pair is, in the sentences that list them
WHY = "every task an error: no measurement, in no verdict"


def unmeasured(pi: pd.DataFrame) -> pd.Series:
    """Per row of :func:`bench.report.data.per_instance`: True where every sample of the
    instance ended in ``error`` (no answer, no timeout, no memout: no measurement)."""
    if not len(pi):
        return pd.Series(False, index=pi.index, dtype=bool)
    return (pi["errors"] >= pi["n"]) & (pi["n"] > 0)


def apart(t: pd.DataFrame, by: list[str]) -> pd.Series:
    """Per sample row of ``t``: an ``error`` beside another sample of its group ``by`` (one
    not every sample of which errored), which is left out of the group's fold as
    :func:`bench.report.data.per_instance` leaves it."""
    if not len(t):
        return pd.Series(False, index=t.index, dtype=bool)
    er = t["status"].eq("error")
    return er & ~t.assign(_er=er).groupby(by, sort=False, dropna=False)["_er"].transform("all")


def out_of_fold(t: pd.DataFrame, by: list[str]) -> tuple[pd.DataFrame, pd.Series]:
    """``t`` with the time (``par2_s``) and ``ok`` of each error beside other samples of its
    group ``by`` blanked, so that folding the group leaves it out, and those rows
    (:func:`apart`)."""
    gone = apart(t, by)
    return t.assign(par2_s=t["par2_s"].astype(float).mask(gone),
                    ok=t["ok"].astype(float).mask(gone)), gone


def measured(pi: pd.DataFrame) -> pd.DataFrame:
    """The per-instance rows ``pi`` without the unmeasured ones (:func:`unmeasured`): a pair
    with no valid answer has no row left."""
    return pi[~unmeasured(pi)] if len(pi) else pi


def errored(pi: pd.DataFrame) -> pd.Series:
    """Per pair: its unmeasured instances among ``pi`` (a pair without any: no entry)."""
    gone = pi[unmeasured(pi)]
    return gone.groupby("pair")["instance"].nunique() if len(gone) else pd.Series(dtype=int)


def no_valid_answer(pi: pd.DataFrame) -> pd.Series:
    """Per pair with no valid answer (every instance unmeasured): its error tasks, in the
    order of ``pi``."""
    if not len(pi):
        return pd.Series(dtype=int)
    bad = unmeasured(pi).groupby(pi["pair"], sort=False).all()
    names = [p for p in bad.index if bad[p]]
    errors = pi.groupby("pair", sort=False)["errors"].sum()
    return pd.Series({p: int(errors[p]) for p in names}, dtype=int)


def line(where: str, pi: pd.DataFrame) -> list[str]:
    """The sentence that lists the pairs of ``pi`` with no valid answer, "{where}: pairs with
    no valid answer (...): a / s: 8 error; ..."; none where every pair measured something."""
    bad = no_valid_answer(pi)
    if not len(bad):
        return []
    return [f"{where}: pairs with no valid answer ({WHY}): "
            + "; ".join(f"{p}: {n} error" for p, n in bad.items()) + "."]


#: the verdicts of the ranking's pairs that were never tested against the best: no valid
#: answer, or every instance declined (nothing attempted)
UNTESTED = (NO_VALID, "declined all")


def tested(r: pd.DataFrame) -> pd.DataFrame:
    """The rows of a ranking ``r`` (best first; columns ``clean`` and ``verdict``) tested
    against the best: after the first, without wrong answers, and neither with no valid answer
    nor declining every instance. The rule of the verdict matrix, which counts the clean pairs
    after the best of :func:`bench.report.verdicts.compare` (a table without the untested)."""
    rest = r.iloc[1:]
    return rest[rest["clean"].astype(bool) & ~rest["verdict"].isin(UNTESTED)]


def run_words(k: int, m: int, n_best: int, declined: int, errors: int) -> str:
    """A pair's instance set beside the best's: "k of n run" (``m`` == ``k`` < ``n_best``: a
    subset of the best's), else "k run, m in common with the best's n", then ", d declined"
    and ", e error" (its instances not measured: left out, not censored) where there are
    any (:func:`restrict` adds ": b on instances ..." after the errors beyond)."""
    head = f"{k} of {n_best} run" if m == k < n_best else \
        f"{k} run, {m} in common with the best's {n_best}"
    return head + (f", {declined} declined" if declined else "") + (
        f", {errors} error" if errors else "")


#: the note's sentence on errors beyond the instances a pair measured (:func:`beyond`)
BEYOND_NOTE = ("A pair with errors: compared on the instances it measured, 'k of n run, e "
               "error' wherever it is named; where some of its errors lie beyond every "
               "instance it measured (more cells, or a longer time of the best, than on any "
               "of them: not missing at random), never 'equivalent' but 'inconclusive' "
               "(': b on instances larger than any it measured').")


def beyond(pi: pd.DataFrame, best: str, pair: str) -> tuple[int, str]:
    """(b, words): how many of ``pair``'s unmeasured instances (:func:`unmeasured`) among
    the per-instance rows ``pi`` (errors included) lie beyond every instance it measured: more
    cells than each of those, or, where ``best`` measured it, a time of ``best`` (min(t,
    limit)) above its time on every instance both measured; and the words that say so
    ("b on instances larger than any it measured", "... where the best took longer than on
    any it measured", or both). (0, "") where none does, or ``pair`` measured nothing."""
    gone = unmeasured(pi)
    mine = pi[pi["pair"] == pair]
    done = set(mine.loc[~gone.loc[mine.index], "instance"])
    lost = set(mine.loc[gone.loc[mine.index], "instance"])
    if not done or not lost:
        return 0, ""
    big: set[str] = set()
    if "cells" in pi and pi["cells"].notna().any():
        cells = pi.groupby("instance")["cells"].max()
        top = cells.reindex(list(done)).max()
        big = {i for i in lost if cells.get(i, float("nan")) > top}
    theirs = pi[(pi["pair"] == best) & ~gone]
    t = theirs.groupby("instance")["par2_s"].min().clip(
        upper=theirs.groupby("instance")["time_limit"].min().fillna(float("inf")))
    both = [i for i in done if i in t.index]
    slow = {i for i in lost if i in t.index and both and t[i] > t.reindex(both).max()}
    n = len(big | slow)
    if not n:
        return 0, ""
    where = ("larger than any it measured" if not slow else
             "where the best took longer than on any it measured" if not big else
             "larger than any it measured or where the best took longer")
    return n, f"{n} on instances {where}"


def restrict(rows: list[dict[str, Any]], whole: pd.DataFrame, best: str) -> None:
    """Apply :func:`beyond` to the per-pair rows of :func:`bench.report.verdicts.analyse`
    (``whole``: the group's per-instance rows, errors included; ``best``: the best pair), in
    place: each row's ``beyond`` (0 where none), and for a pair tested against the best with
    errors beyond what it measured, its ``run`` words extended (": b on instances ...") and
    an "equivalent" verdict made "inconclusive"."""
    for r in rows:
        r["beyond"], words = (beyond(whole, best, str(r["pair"]))
                              if r["errored"] and r["pair"] != best and r["run"] else (0, ""))
        if words:
            r["run"] += f": {words}"
            r["verdict"] = INCONCLUSIVE if r["verdict"] == EQUIVALENT else r["verdict"]


def named(eq: pd.DataFrame) -> list[str]:
    """The pairs of verdict rows ``eq`` (columns ``pair``, ``run``), each with its instance
    words where it ran another set than the best: "a / s (6 of 9 run, 1 error)"."""
    return [f"{p} ({w})" if w else str(p) for p, w in zip(eq["pair"], eq["run"].fillna(""),
                                                           strict=True)]


def counted(eq: pd.DataFrame) -> str:
    """The count of equivalent pairs ``eq`` (verdict rows), with how many of them ran only part
    of the best's instances: "3" or "3 (1 on part of the best's instances)"."""
    part = int((eq["run"].fillna("") != "").sum()) if len(eq) else 0
    return f"{len(eq)}" + (f" ({part} on part of the best's instances)" if part else "")


def clause(inc: pd.DataFrame) -> str:
    """The overview sentence's words on inconclusive rows ``inc`` whose errors lie beyond the
    instances they measured ("" when none)."""
    n = int((inc["beyond"].fillna(0) > 0).sum()) if "beyond" in inc else 0
    return f"{n} with errors beyond the instances measured, not missing at random" if n else ""
