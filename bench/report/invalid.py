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
measured: its verdict reads "k of n run, e error" (:func:`run_words`).
"""

from __future__ import annotations

import pandas as pd

#: the verdict of a pair with no valid answer (every task an error)
NO_VALID = "no valid answer"
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
    any."""
    head = f"{k} of {n_best} run" if m == k < n_best else \
        f"{k} run, {m} in common with the best's {n_best}"
    return head + (f", {declined} declined" if declined else "") + (
        f", {errors} error" if errors else "")
