"""Figures (matplotlib, PNG at 2x resolution): cactus, performance profile, scaling, memory,
pairwise scatter.

Colours are the Okabe-Ito colour-blind-safe palette; at most MAX_LINES pairs are drawn per
figure, each with its own colour and marker (the rest as thin grey "others"), so no two drawn
series share a colour. Log axes carry plain-number ticks (1, 2, 5 per decade on a narrow range)
and no minor labels; count axes carry integers. A log axis is set only where the data hold a
positive value (a run where every task ran out of memory has no times to draw).
"""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench.report.units import duration, number

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000",
             "#F0E442"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]
LINES = ["-", "--", "-.", ":"]
MAX_LINES = 8  # pairs drawn per figure; more would repeat a colour
#: the page shows a figure at SCALE x 96 px per inch of its size: PNGs at DPI hold SCALE device
#: pixels per CSS pixel (sharp on a 2x screen); the page sets each image's width to its pixel
#: width / SCALE. Legend text at LEGEND_PT is LEGEND_PT x 96 / 72 = 12 px on the page (>= 11).
SCALE = 2
DPI = 96 * SCALE
LEGEND_PT = 9
OTHERS = "0.75"


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def styles(n: int) -> list[dict[str, Any]]:
    """n (colour, marker, line style) triples; the first len(OKABE_ITO) differ in all three."""
    combos = itertools.islice(zip(itertools.cycle(OKABE_ITO), itertools.cycle(MARKERS),
                                  itertools.cycle(LINES), strict=False), n)
    return [{"color": c, "marker": m, "linestyle": ls} for c, m, ls in combos]


def _save(fig: Any, path: Path) -> Path:
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    _plt().close(fig)
    return path


def _legend(ax: Any) -> None:
    """Below the axes, two columns: the figure keeps its width and its text stays legible."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=LEGEND_PT,
                  frameon=False, ncol=2)


def _positive(values: Any) -> np.ndarray:
    v = np.asarray(pd.Series(values, dtype=float).to_numpy(float), dtype=float)
    return v[np.isfinite(v) & (v > 0)]


def log_axis(ax: Any, which: str, values: Any) -> bool:
    """Put ``which`` ("x" or "y") on a log scale with readable ticks when ``values`` hold a
    positive number; otherwise leave it linear. Whether it is logarithmic."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    v = _positive(values)
    if not len(v):
        return False
    axis = ax.xaxis if which == "x" else ax.yaxis
    if v.min() == v.max():  # one value (every task at the limit, say): a range around it,
        # set before the scale so the log axis never autoscales to a singular range
        (ax.set_xlim if which == "x" else ax.set_ylim)(v.min() / 2, v.max() * 2)
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    decades = np.log10(v.max() / v.min()) if v.min() > 0 else 0.0
    subs = (1.0, 2.0, 5.0) if decades < 2.5 else (1.0,)
    axis.set_major_locator(LogLocator(base=10, subs=subs, numticks=12))
    axis.set_major_formatter(FuncFormatter(lambda x, _pos: number(x)))
    axis.set_minor_formatter(NullFormatter())
    return True


def _split(pairs: list[str]) -> tuple[list[str], list[str]]:
    return pairs[:MAX_LINES], pairs[MAX_LINES:]


def cactus(pi: pd.DataFrame, pairs: list[str], limit: float, path: Path) -> Path:
    """Instances solved (x, integers) within a time (y, log), per pair and the virtual best;
    one dotted line per time limit of the instances (tiers of different limits pooled)."""
    return _save(cactus_figure(pi, pairs, limit), path)


def cactus_figure(pi: pd.DataFrame, pairs: list[str], limit: float) -> Any:
    """The cactus plot's matplotlib figure (see :func:`cactus`)."""
    from matplotlib.ticker import MaxNLocator

    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4))
    drawn, rest = _split(pairs)
    solved = pi[pi["ok"]]
    for i, pair in enumerate(rest):
        times = np.sort(solved.loc[solved["pair"] == pair, "time_s"].to_numpy(float))
        if len(times):
            ax.plot(np.arange(1, len(times) + 1), times, color=OTHERS, linewidth=0.8,
                    label=f"{len(rest)} other{'s' if len(rest) > 1 else ''}" if i == 0
                    else None)
    for pair, st in zip(drawn, styles(len(drawn)), strict=True):
        times = np.sort(solved.loc[solved["pair"] == pair, "time_s"].to_numpy(float))
        if len(times):
            ax.plot(np.arange(1, len(times) + 1), times, label=pair, markersize=4,
                    markevery=max(1, len(times) // 10), **st)
    vbs = np.sort(solved.groupby("instance")["time_s"].min().to_numpy(float))
    if len(vbs):
        ax.plot(np.arange(1, len(vbs) + 1), vbs, color="0.4", linewidth=4, alpha=0.35,
                label="virtual best solver")
    limits = (sorted(set(pi["time_limit"].dropna().astype(float))) if "time_limit" in pi
              else []) or [limit]
    for k, lim in enumerate(limits):
        tiers = sorted(set(pi.loc[pi["time_limit"] == lim, "tier"].dropna().astype(str))) \
            if "tier" in pi and len(limits) > 1 else []
        ax.axhline(lim, color="black", linestyle=(0, (1, 1 + 2 * k)), linewidth=1,
                   label=f"time limit {duration(lim)}"
                   + (f" ({', '.join(tiers)})" if tiers else ""))
    log_axis(ax, "y", [*solved["time_s"], *limits])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(left=0)
    ax.set_xlabel("instances solved")
    ax.set_ylabel("build + solve time [s]")
    ax.grid(alpha=0.3, which="major")
    _legend(ax)
    return fig


def profile(pi: pd.DataFrame, pairs: list[str], path: Path) -> Path:
    """Dolan-More performance profile: fraction of instances a pair solves within tau x the
    best time among the shown pairs."""
    plt = _plt()
    drawn, _rest = _split(pairs)
    sub = pi[pi["pair"].isin(pairs) & pi["ok"]]
    times = sub.pivot_table(index="instance", columns="pair", values="time_s", aggfunc="min")
    times = times.reindex(columns=pairs)
    best = times.min(axis=1)
    ratio = times.div(best.where(best > 0, np.nan), axis=0)
    fig, ax = plt.subplots(figsize=(7, 4))
    top = float(np.nanmax(ratio.to_numpy())) if ratio.notna().any().any() else 2.0
    taus = np.logspace(0, np.log10(max(top, 1.01) * 1.1), 200)
    n = len(pi["instance"].unique())
    for pair, st in zip(drawn, styles(len(drawn)), strict=True):
        r = ratio[pair].to_numpy(float)
        frac = [(np.nan_to_num(r, nan=np.inf) <= tau).sum() / max(n, 1) for tau in taus]
        ax.plot(taus, frac, label=pair, markevery=25, markersize=4, **st)
    log_axis(ax, "x", taus)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("tau: within this factor of the best shown pair's time")
    ax.set_ylabel("fraction of instances")
    ax.grid(alpha=0.3, which="major")
    _legend(ax)
    return _save(fig, path)


def scaling(pi: pd.DataFrame, pairs: list[str], limit: float, path: Path) -> Path:
    """Log-log time against cells per pair (one panel each), markers per instance family;
    unanswered tasks drawn censored at the limit as open upward triangles."""
    plt = _plt()
    families = sorted(pi["family"].unique())
    fst = dict(zip(families, styles(len(families)), strict=True))
    cols = min(3, max(len(pairs), 1))
    nrows = max(-(-len(pairs) // cols), 1)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.7 * cols, 3.1 * nrows), squeeze=False,
                             sharex=True, sharey=True)
    sub = pi[pi["pair"].isin(pairs)]
    for ax, pair in zip(axes.flat, pairs, strict=False):
        g = sub[sub["pair"] == pair]
        for fam in families:
            f = g[(g["family"] == fam) & g["ok"]]
            st = fst[fam]
            ax.scatter(f["cells"], f["time_s"], s=14, color=st["color"], marker=st["marker"],
                       label=fam)
        cens = g[~g["ok"]]
        ax.scatter(cens["cells"], np.full(len(cens), limit), s=30, marker="^",
                   facecolors="none", edgecolors="black", label="censored (no answer)")
        ax.axhline(limit, color="black", linestyle=":", linewidth=1)
        ax.set_title("\n".join(textwrap.wrap(pair, 34)), fontsize=LEGEND_PT)
        ax.grid(alpha=0.3, which="major")
    for ax in list(axes.flat)[len(pairs):]:
        ax.set_visible(False)
    log_axis(axes[0, 0], "x", sub["cells"])
    log_axis(axes[0, 0], "y", [*sub["time_s"], limit])
    for ax in axes[:, 0]:
        ax.set_ylabel("time [s]")
    for ax in axes[-1, :]:
        ax.set_xlabel("cells")
    handles: dict[str, Any] = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(lab, h)
    fig.legend(handles.values(), handles.keys(), loc="upper left", bbox_to_anchor=(1.0, 0.95),
               fontsize=LEGEND_PT, frameon=False)
    fig.tight_layout()
    return _save(fig, path)


#: the memory figure is drawn only when the pairs' median peaks differ by more than this
MEMORY_DIFFERENCE = 1.25


def memory_peaks(t: pd.DataFrame, pairs: list[str]) -> pd.DataFrame:
    """Per pair and instance: the largest peak RSS of the task's process tree (worker and
    solver children; of the pages a forked task shares with its template, those it touched)
    over its repeats [MB]."""
    sub = t[t["pair"].isin(pairs)]
    return (sub.groupby(["pair", "instance"], sort=False)["peak_rss_mb"].max().astype(float)
            .dropna().reset_index())


def memory_line(peaks: pd.DataFrame, every: pd.DataFrame | None = None) -> str:
    """One line on the peaks of the pairs shown (``peaks``): their range, and whether the pairs
    differ; where ``every`` (the peaks of all the puzzle's pairs) holds more pairs, their range
    too, so a range over the shown pairs is never read as every task's."""
    if peaks.empty:
        return "No task recorded its peak memory."
    med = peaks.groupby("pair")["peak_rss_mb"].median()
    lo, hi = float(peaks["peak_rss_mb"].min()), float(peaks["peak_rss_mb"].max())
    if len(med) == 1:
        line = (f"Peak memory of a task's process tree, {med.index[0]} (the one pair shown): "
                f"{lo:,.0f} to {hi:,.0f} MB, median {med.iloc[0]:,.0f} MB (one pair, so no "
                "figure).")
    else:
        same = med.max() <= MEMORY_DIFFERENCE * med.min()
        line = (f"Peak memory of a task's process tree: {lo:,.0f} to {hi:,.0f} MB; the pairs' "
                f"medians {med.min():,.0f} to {med.max():,.0f} MB"
                + (" (no pair differs by more than "
                   f"{(MEMORY_DIFFERENCE - 1) * 100:.0f} %, so no figure)." if same else "."))
    if every is None or every["pair"].nunique() <= len(med):
        return line
    all_med = every.groupby("pair")["peak_rss_mb"].median()
    shown = [f"{x:,.0f}" for x in (lo, hi, med.min(), med.max())]
    wider = [f"{x:,.0f}" for x in (every["peak_rss_mb"].min(), every["peak_rss_mb"].max(),
                                   all_med.min(), all_med.max())]
    if wider != shown:  # the other pairs change a number: say so
        line += (f" Over all {len(all_med):,} pairs: {wider[0]} to {wider[1]} MB, the pairs' "
                 f"medians {wider[2]} to {wider[3]} MB.")
    return line


def memory(t: pd.DataFrame, pairs: list[str], path: Path) -> Path | None:
    """Per shown pair, the distribution over instances of the process tree's peak memory (box
    plot, log axis when the peaks span more than a factor 10); None (no figure) when the pairs'
    median peaks are within MEMORY_DIFFERENCE of each other."""
    drawn, _rest = _split(pairs)
    peaks = memory_peaks(t, drawn)
    if peaks.empty:
        return None
    med = peaks.groupby("pair")["peak_rss_mb"].median()
    if med.max() <= MEMORY_DIFFERENCE * med.min():
        return None
    plt = _plt()
    order = [p for p in drawn if p in set(peaks["pair"])]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(order) + 1.2))
    data = [peaks.loc[peaks["pair"] == p, "peak_rss_mb"].to_numpy(float) for p in order]
    import matplotlib

    major, minor = (int(x) for x in matplotlib.__version__.split(".")[:2])
    side = ({"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False})
    ax.boxplot(data, widths=0.6, showfliers=True, flierprops={"marker": ".", "markersize": 4},
               **side)
    ax.set_yticks(range(1, len(order) + 1), order, fontsize=LEGEND_PT)
    ax.invert_yaxis()
    v = _positive(peaks["peak_rss_mb"])
    if len(v) and v.max() > 10 * v.min():
        log_axis(ax, "x", v)
    ax.set_xlabel("peak memory of the task's process tree [MB]")
    ax.grid(alpha=0.3, which="major", axis="x")
    fig.tight_layout()
    return _save(fig, path)


def scatter(pi: pd.DataFrame, a: str, b: str, limit: float, path: Path) -> Path:
    """Per instance, pair a's time against pair b's (log-log, diagonal), the axes fitted to the
    data; an unanswered task sits at the limit (open squares), and the limit is drawn where it
    is on the axes, else named in the legend."""
    plt = _plt()
    cols = ["instance", "time_s", "ok"]
    both = pi.loc[pi["pair"] == a, cols].merge(pi.loc[pi["pair"] == b, cols], on="instance",
                                               suffixes=("_a", "_b"))
    xa = both["time_s_a"].where(both["ok_a"]).fillna(limit)
    yb = both["time_s_b"].where(both["ok_b"]).fillna(limit)
    cens = ~(both["ok_a"] & both["ok_b"])
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.scatter(xa[~cens], yb[~cens], s=16, color=OKABE_ITO[0], marker="o", label="both answered")
    ax.scatter(xa[cens], yb[cens], s=30, facecolors="none", edgecolors=OKABE_ITO[5],
               marker="s", label="censored at the limit")
    v = _positive([*xa, *yb])
    lo, hi = (float(v.min()) / 1.6, float(v.max()) * 1.6) if len(v) else (limit / 10, limit * 2)
    ax.plot([lo, hi], [lo, hi], color="black", linewidth=1, linestyle="--", label="equal time")
    if lo <= limit <= hi:
        ax.axhline(limit, color="black", linestyle=":", linewidth=1)
        ax.axvline(limit, color="black", linestyle=":", linewidth=1,
                   label=f"time limit {duration(limit)}")
    else:
        ax.plot([], [], " ", label=f"time limit {duration(limit)} (beyond the axes)")
    if log_axis(ax, "x", [lo, hi]):
        log_axis(ax, "y", [lo, hi])
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
    ax.set_xlabel(f"{a} [s]")
    ax.set_ylabel(f"{b} [s]")
    ax.grid(alpha=0.3, which="major")
    _legend(ax)
    return _save(fig, path)
