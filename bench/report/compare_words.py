"""The words of ``puzzlebench compare``'s per-pair verdicts (:mod:`bench.report.compare`): the
labels, and the factor B/A as an estimate or, where a run's times are censored, a bound
without an interval (:mod:`bench.report.wording`: neither end of a t-interval over times
capped at the limit is a bound)."""

from __future__ import annotations

import bench.report.paired as paired
from bench.report.signflip import testable
from bench.report.units import bound_end, interval, number
from bench.report.wording import NO_INTERVAL

CHANGED, EQUIVALENT, INCONCLUSIVE = "changed", "equivalent", "inconclusive"

AT_LEAST, AT_MOST, BOTH = "≥", "≤", "both censored"
#: (A censored on some instance, B censored on some): what the factor B/A is. B's times
#: capped at L make B/A too small (a lower bound), A's too large (an upper bound); both: the
#: capped ratio is neither
BOUNDS = {(False, False): "", (False, True): AT_LEAST, (True, False): AT_MOST,
          (True, True): BOTH}


def factor(est: float, lo: float, hi: float, bound: str, faster: bool) -> tuple[str, str]:
    """The factor and its interval: ("2.01x", " [1.81–2.23]") (faster: A/B), or where a run's
    times are censored a bound, rounded away from the true factor, without an interval:
    ("≥ 2.01x", " (censored: no interval)"); ("1.3x", " (both censored)")."""
    if faster:  # A/B: the bounds swap
        est, lo, hi = 1 / est, 1 / hi, 1 / lo
        bound = {AT_LEAST: AT_MOST, AT_MOST: AT_LEAST}.get(bound, bound)
    if bound == BOTH:
        return f"{number(est)}x", f" ({BOTH})"
    if bound:
        return f"{bound_end(est, bound == AT_MOST)}x", f" ({NO_INTERVAL})"
    return f"{number(est)}x", f" {interval(lo, hi)}" if lo == lo else ""


def label(verdict: str, est: float, lo: float, hi: float, n: int, cens: int,
           other: int, bound: str = "", on: str = "") -> str:
    """The verdict in words: "changed: 2.01x slower [1.81–2.23]" (faster: the factor A/B and
    its interval; a bound where a run's times are censored, :func:`factor`: "changed:
    ≥ 2.01x slower (censored: no interval)"), "equivalent (within 1.25x)", "inconclusive (n
    instances)"; ``on``: the instances it rests on where some were left out ("6 of 8
    instances, 2 error in B"), said in each."""
    if verdict == CHANGED:
        faster = est < 1
        head, tail = factor(est, lo, hi, bound, faster)
        return (f"{CHANGED}: {head} {'faster' if faster else 'slower'}{tail}"
                + (f" ({on})" if on else ""))
    if verdict == EQUIVALENT:
        return f"{EQUIVALENT} (within {paired.MARGIN:g}x" + (f"; {on})" if on else ")")
    why = on or f"{n} instance{'s' if n != 1 else ''}"
    if n < paired.MIN_INTERVAL:
        why += ", too few for an interval"
    elif not testable(n):  # no sign flip on n instances gives a p below the level
        why += ", too few for the test"
    elif cens:
        why += f", {cens} censored in a run"
    elif other:
        why += f", {other} answered otherwise"
    return f"{INCONCLUSIVE} ({why})"
