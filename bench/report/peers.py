"""Our best pair against each peer package: the pairs whose formulation calls another
project's solver (its result's ``origin``, :func:`bench.records.row_origin`), never a pair of
ours, whatever its kind (Nurikabe's ``frontier`` runs on the external backend and is ours).

Per puzzle and peer pair: solved counts and PAR-2 of both sides, and the distribution of the
per-instance ratio *peer time / our time* over the instances both answered (above 1: ours is
faster), on the real instances (puz.link and janko families) and on all instances both ran.
An instance only one side answered is not a ratio (one time is censored at the limit); it is
counted apart (``only_ours``, ``only_peer``). Times are build + solve; a peer's one-time set-up
is in the ranking's ``setup_s`` column, never in these times.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

import bench.report.figures as figures
from bench.records import OURS
from bench.report.data import origins
from bench.report.units import number

REAL = ("real (puzz.link)", "real (janko)")  # bench.report.data.family
QUANTILES = {"min": 0.0, "p10": 0.1, "median": 0.5, "p90": 0.9, "max": 1.0}


def pair_origins(pi: pd.DataFrame, rank: pd.DataFrame) -> dict[str, str]:
    """Each pair's origin (``ours`` or its peer package): from the per-instance rows, else
    (rows without the column) from the ranking's kind and formulation by the rule for rows
    written before it was recorded (:func:`bench.report.data.origins`)."""
    rows = pi if len(pi) and "origin" in pi else rank
    if not len(rows) or "pair" not in rows:
        return {}
    if "formulation" not in rows:
        rows = rows.assign(formulation=rows["pair"].astype(str).str.split(" / ").str[0])
    o = rows.assign(origin=origins(rows)).groupby("pair", sort=False)["origin"].first()
    return {str(k): str(v) for k, v in o.items()}


def _ours(rank: pd.DataFrame, origin: dict[str, str]) -> str | None:
    """Our best pair: the first ranked pair of ours that answered something."""
    own = rank[rank["pair"].map(origin).eq(OURS) & (rank["solved"] > 0)]
    return str(own["pair"].iloc[0]) if len(own) else None


def ratios(pi: pd.DataFrame, ours: str, peer: str, real_only: bool) -> pd.DataFrame:
    """Per instance both pairs ran: their ``ok`` flags, times and ``ratio`` = peer / ours
    (NaN unless both answered)."""
    scope = pi[pi["family"].isin(REAL)] if real_only else pi
    a = scope[scope["pair"] == ours].set_index("instance")[["ok", "time_s", "par2_s"]]
    b = scope[scope["pair"] == peer].set_index("instance")[["ok", "time_s", "par2_s"]]
    both = a.add_suffix("_ours").join(b.add_suffix("_peer"), how="inner")
    answered = both["ok_ours"] & both["ok_peer"]
    # a zero time (below the clock's resolution) would make an infinite ratio: floor at 1 us
    ratio = both["time_s_peer"].clip(lower=1e-6) / both["time_s_ours"].clip(lower=1e-6)
    return both.assign(ratio=ratio.where(answered))


def versus(pi: pd.DataFrame, rank: pd.DataFrame) -> pd.DataFrame:
    """One row per peer pair and scope (``real``, ``all``) with solved counts, PAR-2 means and
    the quantiles of the per-instance ratio peer / ours."""
    origin = pair_origins(pi, rank)
    ours = _ours(rank, origin) if len(rank) else None
    peers = [p for p in rank["pair"] if origin.get(p, OURS) != OURS] if len(rank) else []
    rows = []
    for peer in peers if ours else []:
        for scope in ("real", "all"):
            r = ratios(pi, str(ours), peer, scope == "real")
            if r.empty:
                continue
            q = r["ratio"].dropna()
            row = {"peer": peer, "ours": ours, "scope": scope, "instances": len(r),
                   "ours_solved": int(r["ok_ours"].sum()), "peer_solved": int(r["ok_peer"].sum()),
                   "ours_par2_s": float(r["par2_s_ours"].mean()),
                   "peer_par2_s": float(r["par2_s_peer"].mean()),
                   "ratios": len(q), "ours_faster": int((q > 1).sum()),
                   "only_ours": int((r["ok_ours"] & ~r["ok_peer"]).sum()),
                   "only_peer": int((~r["ok_ours"] & r["ok_peer"]).sum())}
            for name, p in QUANTILES.items():
                row[f"ratio_{name}"] = float(q.quantile(p)) if len(q) else float("nan")
            row["ratio_geomean"] = float(np.exp(np.log(q).mean())) if len(q) else float("nan")
            rows.append(row)
    return pd.DataFrame(rows)


def verdict(v: pd.DataFrame) -> list[str]:
    """One sentence per peer, on the real instances where there are any, else on all."""
    lines = []
    for peer, g in v.groupby("peer", sort=False):
        row = g[g["scope"] == "real"].iloc[0] if (g["scope"] == "real").any() else g.iloc[0]
        where = ("real " if row["scope"] == "real" else "") + (
            "instance" if row["instances"] == 1 else "instances")
        median = row["ratio_median"]
        how = (f"median ratio {number(median)}x (ours faster on {row['ours_faster']} of "
               f"{row['ratios']}; range {number(row['ratio_min'])}x to "
               f"{number(row['ratio_max'])}x)"
               if median == median else "no instance answered by both")
        lines.append(f"Against {peer} on {row['instances']} {where}: ours ({row['ours']}) "
                     f"solves {row['ours_solved']}, the peer {row['peer_solved']}; {how}.")
    return lines


def figure(pi: pd.DataFrame, v: pd.DataFrame, path: Path) -> Path:
    """The distribution of log ratios peer / ours per peer (all instances both answered), as an
    empirical CDF; right of the vertical line ours is faster."""
    plt = figures._plt()
    fig, ax = plt.subplots(figsize=(7.5, 3.5))
    peers = list(dict.fromkeys(v["peer"]))
    drawn: list[float] = []
    for peer, st in zip(peers, figures.styles(len(peers)), strict=True):
        ours = str(v.loc[v["peer"] == peer, "ours"].iloc[0])
        q = np.sort(ratios(pi, ours, peer, real_only=False)["ratio"].dropna().to_numpy(float))
        drawn += list(q)
        if len(q):
            ax.step(q, np.arange(1, len(q) + 1) / len(q), where="post",
                    label=f"{peer} vs {ours}", color=st["color"], linestyle=st["linestyle"])
    ax.axvline(1.0, color="0.3", linewidth=1, linestyle=":")
    figures.log_axis(ax, "x", [*drawn, 1.0])
    ax.set_xlabel("per-instance time ratio, peer / ours (log; > 1: ours faster)")
    ax.set_ylabel("fraction of instances")
    ax.grid(True, which="major", alpha=0.3)
    figures._legend(ax)
    return figures._save(fig, path)


COLUMNS = ["scope", "ours", "peer", "instances", "ours_solved", "peer_solved", "ours_par2_s",
           "peer_par2_s", "ratios", "ours_faster", "only_ours", "only_peer", "ratio_min",
           "ratio_p10", "ratio_median", "ratio_p90", "ratio_max", "ratio_geomean"]
NOTE = ("ratio = peer time / our time per instance both answered (build + solve; the peer's "
        "one-time set-up is apart, in setup_s); only_*: answered by one side alone, not a ratio.")
