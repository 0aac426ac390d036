"""The words of a verdict row (:mod:`bench.report.verdicts`): the factor over the best, as an
estimate with its 95 % interval or, where censored times cap it, as a bound without an
interval; the label; and the separable column's two words; a pair's SGM as an estimate or,
with censored instances, a bound.

A censored factor's interval is not printed, neither end: its t-interval is computed with each
censored time at the limit L, and neither end is monotone in a censored value. As a censored
time grows the mean of the log ratios grows, and their standard deviation grows faster: the
interval's lower end falls without bound on the log scale, and its upper end rises. Only the
estimate itself, exp of the mean of the log ratios, moves one way in every censored value,
so only it is a bound. The verdict words beside it rest on tests that hold under censoring
at a shared limit: the max-T permutation test (:func:`bench.report.paired.maxt`) and
equivalence, which no censored factor ever gets (:func:`bench.report.paired.equivalent`)."""

from __future__ import annotations

import pandas as pd

from bench.report.units import bound_end, duration, duration_interval, interval, number

#: in place of an interval below :data:`bench.report.paired.MIN_INTERVAL` instances
TOO_FEW = "too few"
#: the factor's mark where both the pair and the best have censored times on the instances
#: both ran: the ratio of the capped times is then neither an estimate nor a bound
BOTH_CENSORED = "both censored"
#: the separable column where no factor could be separated at the group's size
#: (:func:`bench.report.paired.threshold` has none)
NONE_SEPARABLE = "none at this size"
#: the separable column where every pair of the best's instance set is separated: no pair is
#: left in the test's last step, whose threshold would only echo the last pair's own factor
ALL_SEPARATED = "– (no pair left)"
#: in place of the interval of a factor that censored times make a bound (:func:`factor`)
NO_INTERVAL = "censored: no interval"
#: the mark beside a pair's SGM that is a lower bound: its unanswered instances counted at the
#: limit (:func:`bench.report.sgm_bound.at_limit`), no interval
CENSORED_SGM = "censored"


def factor(row: pd.Series) -> str:
    """"2.1x [1.6–2.8]"; where censored times make the factor a bound, the bound alone: "≥
    2.1x (censored: no interval)" where only the pair has censored times on the common
    instances (its times capped at the limit: the true factor is at least this), "≤ 0.1x
    (censored: no interval)" where only the best has; "1.3x (both censored)" where both have;
    "too few" in place of an interval below MIN_INTERVAL instances. A bound is rounded away
    from the true factor (:func:`bench.report.units.bound_end`) and has no interval (the
    module: neither end of the t-interval over capped times bounds anything)."""
    ratio, lo = row["ratio"], row["ratio_lo"]
    if ratio != ratio:
        return "–"
    few = f"{TOO_FEW}: {int(row['common'])}"
    cens = str(row.get("censored"))
    if cens == "both":
        return f"{number(ratio)}x ({BOTH_CENSORED}" + (f"; {few})" if lo != lo else ")")
    if cens in ("other", "best"):
        return f"{bound_end(ratio, cens == 'best')}x ({NO_INTERVAL if lo == lo else few})"
    return f"{number(ratio)}x " + (interval(lo, row["ratio_hi"]) if lo == lo else f"({few})")


def label(row: pd.Series) -> str:
    """The verdict word with "k of n run" (or "k run, m in common ...") where the pair ran
    another instance set than the best, and "equivalent pooled, not on the T tier" where a
    tier alone showed apart a pair the pooled tiers call equivalent
    (:func:`bench.report.verdicts.tier_apart`)."""
    return str(row["verdict"]) + "".join(
        f" ({x})" for x in (f"equivalent pooled, not on the {row.get('apart')} tier"
                            if row.get("apart") else "", row.get("run") or "") if x)


def sgm_words(row: pd.Series) -> str:
    """A pair's SGM (:func:`bench.report.sgm_bound.at_limit`): "2.9 s [1.4–5.9]" where it
    answered every instance ("too few" in place of the interval below MIN_INTERVAL); where it
    left k unanswered, "≥ 2.9 s (censored: k of n at the limit)", a lower bound without an
    interval."""
    k = int(row["censored_n"])
    if k and row["sgm_limit"] == row["sgm_limit"]:
        return (f"≥ {duration(row['sgm_limit'])} ({CENSORED_SGM}: {k} of "
                f"{int(row['instances'])} at the limit)")
    return duration_interval(row["sgm_limit"], row["sgm_limit_lo"], row["sgm_limit_hi"], TOO_FEW)
