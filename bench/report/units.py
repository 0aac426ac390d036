"""How the report prints numbers and times, one rule for every table, sentence and view.

- A number: 3 significant figures in positional notation, never an exponent
  (``0.0000738``, ``12.3``, ``523``); from 1,000 a whole number with thousands separators
  (``5,230``); trailing zeros trimmed as ``%g`` does (``2``, not ``2.00``).
- A time (stored in seconds): its unit beside it, milliseconds below one second and seconds
  from one second (``0.07 ms``, ``12.3 ms``, ``523 ms``, ``5.23 s``, ``1,250 s``), the number
  by the rule above; below a microsecond ``< 0.001 ms``. An interval is printed in the
  estimate's unit: ``5.23 s [2–13.6]``.

The page's instance view (``templates/page.js``, ``dur``) prints its times by the same rule.
"""

from __future__ import annotations

import math

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
        return "< 0.001 ms"
    factor, unit = _unit(seconds)
    return f"{number(seconds * factor)} {unit}"


def duration_range(lo: float, hi: float, sep: str = " .. ") -> str:
    """Two times in the unit of the larger: "2.33 .. 16 s", "0.5 .. 12 ms"; "–" where
    either is NaN."""
    if lo != lo or hi != hi:
        return "–"
    factor, unit = _unit(max(abs(lo), abs(hi)))
    return f"{number(lo * factor)}{sep}{number(hi * factor)} {unit}"


def duration_interval(est: float, lo: float, hi: float, few: str) -> str:
    """An estimate with its 95 % interval in the estimate's unit, "5.23 s [2–13.6]"; the
    estimate with ``few`` in parentheses where the interval is NaN; "–" without an
    estimate."""
    if est != est:
        return "–"
    if lo != lo:
        return f"{duration(est)} ({few})"
    factor, _ = _unit(est)
    return f"{duration(est)} [{number(lo * factor)}–{number(hi * factor)}]"
