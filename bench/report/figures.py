"""Figures (matplotlib, PNG): cactus, performance profile, scaling, memory, pairwise scatter.

Colours are the Okabe-Ito colour-blind-safe palette, and every series also differs by marker
and line style (no information by colour alone); legends sit outside the axes.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
             "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">"]
LINES = ["-", "--", "-.", ":"]


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def styles(n: int) -> list[dict[str, Any]]:
    """n distinct (colour, marker, line style) triples."""
    combos = itertools.islice(zip(itertools.cycle(OKABE_ITO), itertools.cycle(MARKERS),
                                  itertools.cycle(LINES), strict=False), n)
    return [{"color": c, "marker": m, "linestyle": ls} for c, m, ls in combos]


def _save(fig: Any, path: Path) -> Path:
    fig.savefig(path, dpi=96, bbox_inches="tight")
    _plt().close(fig)
    return path


def _log(ax: Any, *names: str) -> None:
    """Log scale on these axes ("x", "y") where they hold a positive value; linear where they
    hold none (a run of nothing but memouts has no time, size or memory to plot)."""
    for name in names:
        lo, hi = getattr(ax.dataLim, f"interval{name}")
        if np.isfinite([lo, hi]).all() and hi > 0:
            getattr(ax, f"set_{name}scale")("log")


def _legend(ax: Any) -> None:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)


def cactus(pi: pd.DataFrame, pairs: list[str], limit: float, path: Path) -> Path:
    """Instances solved (x) within a time (y, log), per pair and the virtual best solver."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 4))
    for pair, st in zip(pairs, styles(len(pairs)), strict=True):
        times = np.sort(pi.loc[(pi["pair"] == pair) & pi["ok"], "time_s"].to_numpy(float))
        if len(times):
            ax.plot(np.arange(1, len(times) + 1), times, label=pair, markersize=4,
                    markevery=max(1, len(times) // 12), **st)
    vbs = np.sort(pi[pi["ok"]].groupby("instance")["time_s"].min().to_numpy(float))
    if len(vbs):
        ax.plot(np.arange(1, len(vbs) + 1), vbs, color="0.4", linewidth=3, alpha=0.5,
                label="virtual best solver")
    ax.axhline(limit, color="black", linestyle=":", linewidth=1, label=f"time limit {limit:g} s")
    _log(ax, "y")
    ax.set_xlabel("instances solved")
    ax.set_ylabel("build + solve time [s]")
    ax.grid(alpha=0.3, which="both")
    _legend(ax)
    return _save(fig, path)


def profile(pi: pd.DataFrame, pairs: list[str], path: Path) -> Path:
    """Dolan-More performance profile: fraction of instances a pair solves within tau x the
    best time among the shown pairs."""
    plt = _plt()
    sub = pi[pi["pair"].isin(pairs)]
    times = sub.pivot_table(index="instance", columns="pair", values="time_s", aggfunc="min")
    times = times.reindex(columns=pairs)
    best = times.min(axis=1)
    ratio = times.div(best.where(best > 0, np.nan), axis=0)
    fig, ax = plt.subplots(figsize=(7.5, 4))
    top = float(np.nanmax(ratio.to_numpy())) if ratio.notna().any().any() else 2.0
    taus = np.logspace(0, np.log10(max(top, 1.01) * 1.1), 200)
    n = len(pi["instance"].unique())
    for pair, st in zip(pairs, styles(len(pairs)), strict=True):
        r = ratio[pair].to_numpy(float)
        frac = [(np.nan_to_num(r, nan=np.inf) <= tau).sum() / max(n, 1) for tau in taus]
        ax.plot(taus, frac, label=pair, markevery=20, markersize=4, **st)
    _log(ax, "x")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("tau: within this factor of the best pair's time")
    ax.set_ylabel("fraction of instances")
    ax.grid(alpha=0.3, which="both")
    _legend(ax)
    return _save(fig, path)


def scaling(pi: pd.DataFrame, pairs: list[str], limit: float, path: Path) -> Path:
    """Log-log time against cells per pair (one panel each), markers per instance family;
    unanswered tasks drawn censored at the limit as open upward triangles."""
    plt = _plt()
    families = sorted(pi["family"].unique())
    fst = dict(zip(families, styles(len(families)), strict=True))
    cols = min(3, len(pairs))
    nrows = -(-len(pairs) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.6 * cols, 2.9 * nrows), squeeze=False,
                             sharex=True, sharey=True)
    for ax, pair in zip(axes.flat, pairs, strict=False):
        g = pi[pi["pair"] == pair]
        for fam in families:
            f = g[(g["family"] == fam) & g["ok"]]
            st = fst[fam]
            ax.scatter(f["cells"], f["time_s"], s=14, color=st["color"], marker=st["marker"],
                       label=fam)
        cens = g[~g["ok"]]
        ax.scatter(cens["cells"], np.full(len(cens), limit), s=30, marker="^",
                   facecolors="none", edgecolors="black", label="censored (no answer)")
        ax.axhline(limit, color="black", linestyle=":", linewidth=1)
        _log(ax, "x", "y")
        ax.set_title(pair, fontsize=9)
        ax.grid(alpha=0.3, which="both")
    for ax in list(axes.flat)[len(pairs):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("time [s]")
    for ax in axes[-1, :]:
        ax.set_xlabel("cells")
    handles: dict[str, Any] = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(lab, h)
    fig.legend(handles.values(), handles.keys(), loc="upper left", bbox_to_anchor=(1.0, 0.95),
               fontsize=8, frameon=False)
    fig.tight_layout()
    return _save(fig, path)


def memory(pi: pd.DataFrame, pairs: list[str], path: Path) -> Path:
    """Peak RSS (own increase) and model size (constraints / clauses) against cells."""
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for pair, st in zip(pairs, styles(len(pairs)), strict=True):
        g = pi[pi["pair"] == pair].sort_values("cells")
        kw = {"color": st["color"], "marker": st["marker"], "s": 16, "label": pair}
        axes[0].scatter(g["cells"], g["mem_mb"].clip(lower=0.1), **kw)
        axes[1].scatter(g["cells"], g["constraints"].astype(float), **kw)
    for ax, label in zip(axes, ("peak RSS above the template [MB]",
                                "constraints / clauses"), strict=True):
        _log(ax, "x", "y")
        ax.set_xlabel("cells")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3, which="both")
    _legend(axes[1])
    fig.tight_layout()
    return _save(fig, path)


def scatter(pi: pd.DataFrame, a: str, b: str, limit: float, path: Path) -> Path:
    """Per instance, pair a's time against pair b's (log-log, diagonal; unanswered at the
    limit, drawn as open squares)."""
    plt = _plt()
    cols = ["instance", "time_s", "ok"]
    both = pi.loc[pi["pair"] == a, cols].merge(pi.loc[pi["pair"] == b, cols], on="instance",
                                               suffixes=("_a", "_b"))
    xa = both["time_s_a"].fillna(limit)
    yb = both["time_s_b"].fillna(limit)
    cens = ~(both["ok_a"] & both["ok_b"])
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.scatter(xa[~cens], yb[~cens], s=16, color=OKABE_ITO[0], marker="o", label="both answered")
    ax.scatter(xa[cens], yb[cens], s=30, facecolors="none", edgecolors=OKABE_ITO[5],
               marker="s", label="censored at the limit")
    lo = max(min(float(xa.min()), float(yb.min())) / 2, 1e-4) if len(both) else 1e-3
    ax.plot([lo, limit * 1.5], [lo, limit * 1.5], color="black", linewidth=1, linestyle="--",
            label="equal time")
    _log(ax, "x", "y")
    ax.set_xlabel(f"{a} [s]")
    ax.set_ylabel(f"{b} [s]")
    ax.grid(alpha=0.3, which="both")
    _legend(ax)
    return _save(fig, path)
