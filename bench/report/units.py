"""How the report prints numbers and times, one rule for every table, sentence and view.

- A number: 3 significant figures in positional notation, never an exponent
  (``0.0000738``, ``12.3``, ``523``); from 1,000 a whole number with thousands separators
  (``5,230``); trailing zeros trimmed as ``%g`` does (``2``, not ``2.00``).
- A time (stored in seconds): its unit beside it, milliseconds below one second and seconds
  from one second (``0.07 ms``, ``12.3 ms``, ``523 ms``, ``5.23 s``, ``1,250 s``), the number
  by the rule above; below a microsecond ``< 0.001 ms`` (``> -0.001 ms`` below zero).
- An interval (:func:`ends`, the one rule for every interval and range): its ends rounded
  outward, the low end down and the high end up, so the printed interval holds the computed
  one and an end never crosses a threshold it did not cross (``[0.799–1.26]`` for
  [0.79996, 1.2503] against a margin of 1.25), with digits added until the two ends differ
  unless they are equal in fact; a time interval in the unit of its estimate,
  ``5.23 s [2–13.6]``, or without an estimate in the unit of its larger end, ``[2–13.6] s``.
  A bound's end (``≥ 0.65``) is rounded away from the estimate the same way.
- A p-value (:func:`p_value`): 2 significant figures rounded away from the threshold alpha
  (below it down, from it up), so a p below 0.05 never prints as "0.05".

The page's instance view (``templates/page.js``, ``dur``) prints its times by the same rule.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

#: significant figures of every number the report prints
DIGITS = 3
#: the smallest time printed as a number (seconds); below it "< 0.001 ms"
RESOLUTION_S = 1e-6


def number(v: float, digits: int = DIGITS) -> str:
    """``v`` to ``digits`` significant figures, positional, never an exponent; from
    10**digits a whole number with thousands separators; "–" for NaN."""
    if v != v:
        return "–"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    if v == 0:
        return "0"
    rounded = float(f"{v:.{digits}g}")  # rounding first: 999.7 reads "1,000"
    if abs(rounded) >= 10 ** digits:
        return f"{rounded:,.0f}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded))))
    text = f"{rounded:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _unit(seconds: float) -> tuple[float, str]:
    """The factor from seconds and the unit a time of ``seconds`` is printed in."""
    return (1000.0, "ms") if float(f"{abs(seconds):.{DIGITS}g}") < 1 else (1.0, "s")


def duration(seconds: float) -> str:
    """A time in seconds as a person writes it: "12.3 ms", "5.23 s", "1,250 s"; "–" for NaN
    (or None)."""
    if seconds is None or seconds != seconds:
        return "–"
    if seconds == 0:
        return "0 ms"
    if 0 < abs(seconds) < RESOLUTION_S:
        return "< 0.001 ms" if seconds > 0 else "> -0.001 ms"
    factor, unit = _unit(seconds)
    return f"{number(seconds * factor)} {unit}"


def directed(v: float, digits: int, up: bool, scale: float = 1.0) -> float:
    """``v * scale`` rounded to ``digits`` significant figures towards +∞ (``up``) or -∞,
    computed in decimal from the shortest text of ``v`` (no binary noise: 0.8 stays 0.8)."""
    if v != v or math.isinf(v) or v == 0:
        return v * scale
    d = Decimal(repr(float(v))) * Decimal(repr(float(scale)))
    q = Decimal(1).scaleb(d.adjusted() - digits + 1)
    return float(d.quantize(q, rounding=ROUND_CEILING if up else ROUND_FLOOR))


def ends(lo: float, hi: float, scale: float = 1.0) -> tuple[str, str]:
    """The two ends of an interval times ``scale``, rounded outward (``lo`` down, ``hi`` up)
    to :data:`DIGITS` significant figures, and to more (up to 15) where they would print
    alike although they differ."""
    for digits in range(DIGITS, 16):
        a, b = directed(lo, digits, False, scale), directed(hi, digits, True, scale)
        ta, tb = number(a, digits), number(b, digits)
        if ta != tb or lo == hi:
            break
    return ta, tb


def interval(lo: float, hi: float, scale: float = 1.0) -> str:
    """An interval of plain numbers (a factor's), ``[0.799–1.26]`` (:func:`ends`)."""
    a, b = ends(lo, hi, scale)
    return f"[{a}–{b}]"


def bound_end(v: float, up: bool) -> str:
    """A one-sided interval's end: "≥ 0.65" rounded down (``up`` False), "≤ 0.8" up."""
    return f"{'≤' if up else '≥'} {number(directed(v, DIGITS, up), DIGITS)}"


def p_value(p: float, alpha: float = 0.05) -> str:
    """A p-value to 2 significant figures rounded away from ``alpha`` (below it down, from
    it up): 0.04995 reads "0.049", never "0.05"; "–" for NaN."""
    if p != p:
        return "–"
    return number(directed(p, 2, p >= alpha), 2)


def duration_range(lo: float, hi: float, est: float | None = None) -> str:
    """Two times as an interval in the unit of ``est`` (else of the larger end),
    "[2.33–16] s" (:func:`ends`); "–" where either is NaN."""
    if lo != lo or hi != hi:
        return "–"
    factor, unit = _unit(max(abs(lo), abs(hi)) if est is None or est != est else est)
    return f"{interval(lo, hi, factor)} {unit}"


def duration_interval(est: float, lo: float, hi: float, few: str) -> str:
    """An estimate with its 95 % interval in the estimate's unit, "5.23 s [2–13.6]"
    (:func:`ends`); the estimate with ``few`` in parentheses where the interval is NaN; "–"
    without an estimate."""
    if est != est:
        return "–"
    if lo != lo:
        return f"{duration(est)} ({few})"
    factor, _ = _unit(est)
    return f"{duration(est)} {interval(lo, hi, factor)}"
