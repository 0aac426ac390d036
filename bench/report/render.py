"""Formatting: tables as cell strings for the jinja2 HTML template and for Markdown."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd


def fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else ""
    if isinstance(v, float):
        if math.isnan(v):
            return "–"
        if v == 0:
            return "0"
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


@dataclass
class Table:
    """Header and formatted rows; ``left`` columns hold names (left-aligned, no wrapping);
    ``marks`` a CSS class per row ("best", "tie" or "")."""

    columns: list[str]
    rows: list[list[str]]
    left: set[str] = field(default_factory=set)
    marks: list[str] = field(default_factory=list)
    more: int = 0  # rows left out (shown as a note)

    @classmethod
    def of(cls, df: pd.DataFrame, columns: list[str] | None = None, limit: int | None = None,
           marks: list[str] | None = None) -> Table:
        cols = columns or list(df.columns)
        shown = df if limit is None else df.head(limit)
        rows = [[fmt(v) for v in rec] for rec in shown[cols].itertuples(index=False)]
        left = {c for c in cols if not pd.api.types.is_numeric_dtype(df[c])
                or pd.api.types.is_bool_dtype(df[c])}
        return cls(cols, rows, left, (marks or [""] * len(df))[:len(rows)],
                   max(0, len(df) - len(rows)))

    def markdown(self) -> str:
        esc = [[c.replace("|", "\\|") for c in r] for r in self.rows]
        marked = any(self.marks)  # a last column: the best row, and rows within its noise
        cols = [*self.columns, "best"] if marked else self.columns
        lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        for r, mark in zip(esc, self.marks or [""] * len(esc), strict=False):
            extra = [{"best": "★", "tie": "≈"}.get(mark, "")] if marked else []
            lines.append("| " + " | ".join([*r, *extra]) + " |")
        if self.more:
            lines.append(f"\n({self.more} more rows in the HTML report and results.parquet)")
        return "\n".join(lines)
