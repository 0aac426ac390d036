"""What was measured, per puzzle and tier, and what was not: the design table of the report
(:func:`design`: limits, repeats, seeds, pairs, instances and tasks run, tasks not run and
why, tasks declined by their formulation, the seed-to-seed and instance-to-instance spread) and
the overview's sentences naming the tasks not run (:func:`not_run`) and the instances declined
(:func:`declined_line`). A task not run and a task declined (not applicable) are both left
out of every count, time and test (:mod:`bench.report.verdicts`); here they are counted.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from bench.records import NOT_RUN
from bench.report.data import SGM_SHIFT_S, attempted, declines, did_not_run, was_declined
from bench.report.units import duration


def _reason(message: str) -> str:
    if message.startswith(f"{NOT_RUN} capped"):
        return "the suite's cap on a pair its pilot showed hopeless"
    return ("the suite's ladder rule (timed out on an earlier instance of its family)"
            if message.startswith(NOT_RUN) else "recorded without running: " + message[:80])


def not_run(puzzle: str, g: pd.DataFrame) -> list[str]:
    """The sentence naming a puzzle's tasks that did not run (``g``: those rows), per pair and
    reason; none when there are none."""
    if g.empty:
        return []
    msg = g["message"].fillna("").astype(str) if "message" in g else pd.Series("", index=g.index)
    out = []
    for why, part in g.groupby(msg.map(_reason), sort=True):
        per = ", ".join(f"{p} ({n})" for p, n in part["pair"].value_counts().sort_index().items())
        out.append(f"{puzzle}: {len(part)} task(s) not run ({why}); left out of every count, "
                   f"time and test: {per}.")
    return out


def declined_line(puzzle: str, g: pd.DataFrame) -> list[str]:
    """The sentence naming a puzzle's instances declined by their formulation, per pair
    (``g``: those task rows); none when there are none."""
    if g.empty:
        return []
    per = declines(g)
    return [f"{puzzle}: {int(per.sum())} instance(s) declined by their formulation (not "
            "applicable; status K): no time and no failure, left out of every count, time and "
            "test; each such pair is compared only on the instances it attempted: "
            + ", ".join(f"{p} ({n})" for p, n in per.sort_index().items()) + "."]


def design(t: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle and tier what was measured: time limit(s), repeats, seeds (and the most seeds
    a seeded pair ran on one instance), pairs, instances run, tasks run (attempted), tasks not
    run and why, tasks declined by their formulation, and beside each other the seed-to-seed
    and the instance-to-instance spread (:func:`spread`, over the tasks attempted) (``t``:
    prepared task rows, with those that did not run or were declined). Where any answer was
    untimed (:mod:`bench.report.untimed`), ``untimed`` counts the tasks left out as such (the
    answers and the samples beside them on a pair's instance answered with no timed answer),
    which ``tasks run`` does not count, as the ranking does not (:func:`design_note`)."""
    if t.empty:
        return pd.DataFrame()
    skipped, refused = did_not_run(t), was_declined(t)
    msg = t["message"].fillna("").astype(str) if "message" in t else pd.Series("", index=t.index)
    rows, some = [], bool(t["untimed"].any()) if "untimed" in t else False
    for (puzzle, tier), g in t.groupby(["puzzle", "tier"], sort=True):
        gone = skipped.loc[g.index]
        every = g[~gone & ~refused.loc[g.index]]
        r = attempted(every)
        why = msg.loc[g.index][gone].map(_reason).value_counts()
        lim = sorted(set(g["time_limit"].dropna().astype(float)))
        seed_sd, inst_sd = spread(r)
        per = (r.groupby(["pair", "instance"])["seed"].nunique().max()
               if "seed" in r and len(r) else 0)
        rows.append({"puzzle": puzzle, "tier": tier,
                     "limit": " / ".join(duration(x) for x in lim) or "–",
                     "repeats": _span(r["rep"]) if "rep" in r else "–",
                     "seeds": _span(r["seed"]) if "seed" in r else "–",
                     "seeds a task": int(per) if per == per else "–",
                     "pairs": int(r["pair"].nunique()),
                     "instances run": int(every["instance"].nunique()), "tasks run": len(r),
                     **({"untimed": len(every) - len(r)} if some else {}),
                     "not run": int(gone.sum()),
                     "why not run": "; ".join(f"{n}: {w}" for w, n in why.items()) or "–",
                     "tasks declined": int(refused.loc[g.index].sum()),
                     "seed spread": _factor(seed_sd), "instance spread": _factor(inst_sd)})
    return pd.DataFrame(rows)


def spread(r: pd.DataFrame) -> tuple[float, float]:
    """(seed-to-seed, instance-to-instance) standard deviation of the test's value
    y = log(min(t, L) + shift) over task rows that ran (an unanswered task at its limit L):
    the first pooled over (pair, instance) groups with two or more seeds (first repetitions),
    the square root of their mean variance; the second over each pair's instances (each folded
    to its median y), pooled over pairs alike. NaN where no group has two values."""
    if r.empty or "time_limit" not in r:
        return math.nan, math.nan
    lim = r["time_limit"].astype(float)
    tt = r["time_s"].astype(float).where(r["ok"].astype(bool), lim).clip(upper=lim)
    y = np.log(tt + SGM_SHIFT_S)
    d = pd.DataFrame({"pair": r["pair"], "instance": r["instance"], "y": y,
                      "rep": r.get("rep", 0)})
    first = d[d["rep"] == 0]
    by_seed = first.groupby(["pair", "instance"])["y"].agg(["var", "count"])
    seed_var = by_seed.loc[by_seed["count"] > 1, "var"]
    folded = d.groupby(["pair", "instance"])["y"].median().reset_index()
    by_inst = folded.groupby("pair")["y"].agg(["var", "count"])
    inst_var = by_inst.loc[by_inst["count"] > 1, "var"]
    return (math.sqrt(seed_var.mean()) if len(seed_var) else math.nan,
            math.sqrt(inst_var.mean()) if len(inst_var) else math.nan)


def _factor(sd: float) -> str:
    return f"×{math.exp(sd):.2f}" if sd == sd else "–"


DESIGN_NOTE = ("limit: the tier's time limit per task; repeats and seeds: how many of each "
               "ran (lowest–highest), not necessarily on every instance; seeds a task: the "
               "most solver seeds one pair ran on one instance (a deterministic solver runs "
               "one); pairs: formulation x solver pairs with a task that ran; instances run: "
               "instances some pair attempted; tasks run: the tasks attempted; not run: tasks "
               "recorded without running, left out of every count, time, test and figure, with "
               "why; tasks declined: tasks whose formulation declined the instance (not "
               "applicable, K), likewise left out. The unit of analysis is "
               "the instance: each pair's repetitions and seeds on an instance are folded to "
               "their median before any comparison, so seeds narrow each instance's value and "
               "the tests count instances. seed spread and instance spread: one standard deviation "
               "as a factor (exp of the pooled standard deviation of log(min(t, limit) + "
               "0.01 s)): a seed's time typically lies within it of the pair's geometric mean "
               "on the instance, an instance's within it of the pair's over its instances (two "
               "seeds, or two instances, typically differ by this factor to the power "
               "√2). "
               "In a tier whose further runs are gated (run only where the first run answered "
               "quickly: the suite's repeat_under), seeds a task and the seed spread describe "
               "those quick tasks only; a tier that declares seeds runs them on every task.")


#: the note's sentence on the ``untimed`` column, where the table has one
UNTIMED_NOTE = ("untimed: tasks that answered correctly without a recorded build or solve "
                "time (no measurement, never 0 s), with the samples beside them on an instance "
                "a pair answered only so, left out of tasks run and of every time, count and "
                "test.")


def design_note(t: pd.DataFrame) -> str:
    """The note under the design table of the prepared task rows ``t`` (:func:`design`):
    :data:`DESIGN_NOTE`, and :data:`UNTIMED_NOTE` where the table has an ``untimed`` column
    (some row is untimed)."""
    some = bool(t["untimed"].any()) if len(t) and "untimed" in t else False
    return DESIGN_NOTE + (" " + UNTIMED_NOTE if some else "")


def _span(s: pd.Series) -> str:
    v = sorted(set(s.dropna().astype(int)))
    if not v:
        return "–"
    return f"{len(v)} ({v[0]}–{v[-1]})" if len(v) > 1 else f"1 ({v[0]})"
