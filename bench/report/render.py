"""Formatting: tables as cell strings for the jinja2 HTML template and for Markdown.

A :class:`Table` keeps the data's column names (or the table's own ``labels``) and cells for
Markdown (``rows``) and, for the HTML page, readable headers and hover definitions
(:mod:`.columns`, or the table's own), cells as shown (``view``: times with their unit), a
numeric sort key per cell (``order``, so "–" and units never break sorting) and links
per cell (an instance name opens its view).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from bench.report.columns import column
from bench.report.units import duration, number, p_value


def fmt(v: Any, time: bool = False, p: bool = False) -> str:
    """A cell's text: a number by :func:`bench.report.units.number` (never an exponent); with
    ``time`` (a column stored in seconds) a number as a time with its unit
    (:func:`bench.report.units.duration`); with ``p`` (the ``p`` column) a p-value rounded
    away from the threshold (:func:`bench.report.units.p_value`)."""
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else ""
    if isinstance(v, float):
        return duration(v) if time else p_value(v) if p else number(v)
    return str(v)


#: a column of times in seconds: its name ends in ``_s`` (``compare``'s two runs: ``_s_a``,
#: ``_s_b``)
_TIME = re.compile(r"_s(_[ab])?$")


def is_time(name: str) -> bool:
    """Whether a column holds times in seconds (:data:`_TIME`)."""
    return bool(_TIME.search(name))


def _key(v: Any) -> str:
    """A cell's sort key for the page: the number itself; "" (sorted apart) otherwise."""
    if isinstance(v, bool) or v is None:
        return ""
    if isinstance(v, int | float) and not (isinstance(v, float) and math.isnan(v)):
        return repr(float(v))
    return ""


#: what starts raw HTML in Markdown (CommonMark): "<" before a tag name, "/", "!" or "?"
#: (tags, comments, declarations, autolinks), and "&" before an entity or character reference
_HTML_START = re.compile(r"<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)")


def markdown_text(text: str) -> str:
    """``text`` with every start of raw HTML escaped (``&lt;``, ``&amp;``), so Markdown shows
    names and messages read from a run as written and a renderer meets no HTML in them; a
    ``<`` or ``&`` that starts no HTML (``p >= 0.05``, ``a < b``) stays as it is."""
    return _HTML_START.sub(lambda m: "&lt;" if m.group() == "<" else "&amp;", text)


def _cell(text: str) -> str:
    """A table cell's text for Markdown: on one line, ``|`` escaped."""
    return " ".join(text.splitlines()).replace("|", "\\|")


def instance_href(puzzle: str, instance: str) -> str:
    """The page address of an instance's view (built in the page from ``instances.js``)."""
    return f"#i/{puzzle}/{instance}"


@dataclass
class Table:
    """Header and formatted rows; ``left`` columns hold names (left-aligned, no wrapping);
    ``marks`` a CSS class per row ("best", "tie" or ""); ``hidden`` columns start hidden on
    the page (a reader shows them with the Columns button)."""

    columns: list[str]
    rows: list[list[str]]
    left: set[str] = field(default_factory=set)
    marks: list[str] = field(default_factory=list)
    more: int = 0  # rows left out (shown as a note)
    view: list[list[str]] = field(default_factory=list)
    order: list[list[str]] = field(default_factory=list)
    links: dict[int, list[str]] = field(default_factory=dict)  # column index -> href per row
    hidden: set[str] = field(default_factory=set)
    labels: dict[str, str] = field(default_factory=dict)  # column -> shown header
    definitions: dict[str, str] = field(default_factory=dict)  # column -> hover beside a label

    @classmethod
    def of(cls, df: pd.DataFrame, columns: list[str] | None = None, limit: int | None = None,
           marks: list[str] | None = None, puzzle: str | None = None,
           hidden: set[str] | None = None, labels: dict[str, str] | None = None,
           definitions: dict[str, str] | None = None) -> Table:
        """``puzzle`` (or a ``puzzle`` column) links every ``instance`` cell to its view;
        ``labels`` are headers in place of the column names, on the page and in Markdown,
        with ``definitions`` on hover."""
        cols = columns or list(df.columns)
        shown = df if limit is None else df.head(limit)
        recs = list(shown[cols].itertuples(index=False))
        times = [is_time(str(c)) for c in cols]
        rows = [[fmt(v, tm, c == "p") for v, tm, c in zip(rec, times, cols, strict=True)]
                for rec in recs]
        view = [list(row) for row in rows]
        order = [[_key(v) for v in rec] for rec in recs]
        left = {c for c in cols if not pd.api.types.is_numeric_dtype(df[c])
                or pd.api.types.is_bool_dtype(df[c])}
        links: dict[int, list[str]] = {}
        if "instance" in cols and (puzzle or "puzzle" in shown):
            puz = [puzzle] * len(shown) if puzzle else list(shown["puzzle"])
            links[cols.index("instance")] = [instance_href(str(p), str(i)) for p, i in
                                             zip(puz, shown["instance"], strict=True)]
        return cls(cols, rows, left, (marks or [""] * len(df))[:len(rows)],
                   max(0, len(df) - len(rows)), view, order, links,
                   set(hidden or ()) & set(cols), dict(labels or {}), dict(definitions or {}))

    def header(self, c: str) -> tuple[str, str]:
        """(label, hover definition) of column ``c`` on the page."""
        if c in self.labels:
            return self.labels[c], self.definitions.get(c, column(c).definition or c)
        col = column(c)
        return col.label, col.definition

    def cells(self) -> list[list[tuple[str, str, str]]]:
        """Per row and column: (shown text, sort key, link) for the page."""
        view = self.view or self.rows
        order = self.order or [[""] * len(self.columns) for _ in view]
        return [[(v, k, self.links[j][i] if j in self.links else "")
                 for j, (v, k) in enumerate(zip(vr, kr, strict=True))]
                for i, (vr, kr) in enumerate(zip(view, order, strict=True))]

    def markdown(self) -> str:
        esc = [[_cell(c) for c in r] for r in self.rows]
        marked = any(self.marks)  # a last column: the best row, and rows within its noise
        cols = [_cell(self.labels.get(c, c)) for c in [*self.columns, *(["best"] if marked
                                                                         else [])]]
        lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        for r, mark in zip(esc, self.marks or [""] * len(esc), strict=False):
            extra = [{"best": "★", "tie": "≈"}.get(mark, "")] if marked else []
            lines.append("| " + " | ".join([*r, *extra]) + " |")
        if self.more:
            lines.append(f"\n({self.more} more rows in the HTML report and results.parquet)")
        return "\n".join(lines)
