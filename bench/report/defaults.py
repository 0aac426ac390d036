"""Each puzzle's declared default pair against the robust choice its run supports.

The declared default (:attr:`bench.puzzles.Puzzle.default`) is what ``puzzlebench solve`` runs
when no pair is named. A default has to be robust rather than fastest on easy puzzles: it must
not time out where another pair of ours answers. The robust choice of a run is therefore the
pair of ours (peer packages left out: a result's ``origin``, not its kind) with the lowest
PAR-2 over the ``hard`` and ``real``
tiers together (each instance's median over its repetitions; unsolved at PAR_K x the limit),
among the pairs that attempted every instance of those tiers (a task not run, or declined by
its formulation, is no measurement: such a pair is no robust choice). A puzzle whose run has
neither tier is not judged.

A declared default may be a selector (``Default("robust", "robust")``: a rule of
:data:`bench.select.rules.SELECTORS` that picks a pair per instance from its features). Its
figures are then those of the pair it picks for each instance, from the run's rows; an
instance whose pick did not run here (or declined it: the rows do not hold the time of the
pair ``solve`` falls back on) counts unanswered at PAR-2 and is counted in ``not_run``, never
left out.
"""

from __future__ import annotations

import pandas as pd

from bench.puzzles import get_puzzle
from bench.records import OURS
from bench.report.data import PAR_K, attempted, origins, per_instance
from bench.select.auto import Rule

#: the tiers a default is chosen on: the hard one and the real puzzles
TIERS = ("hard", "real")

NOTE = (f"The declared default is what `puzzlebench solve` runs when no pair is named. The "
        f"robust choice is the pair of ours with the lowest PAR-{PAR_K} (unsolved at "
        f"{PAR_K}x the limit) over the {' and '.join(TIERS)} tiers together, peer packages "
        "left out; hard and real give answered / instances.")

COLUMNS = ["puzzle", "declared", "hard", "real", "par2_s", "robust", "robust_hard",
           "robust_real", "robust_par2_s", "x_robust", "not_run"]


def _params(label: str) -> tuple[str, set[str]]:
    name, _, rest = label.partition("[")
    return name, {p for p in rest.rstrip("]").split(",") if p}


def declared_pairs(puzzle: str, pairs: pd.Series) -> list[str]:
    """The run's pairs that are ``puzzle``'s declared default: its formulation name and solver,
    with at least the declared parameters (a bare name matches the variants that ran)."""
    try:
        d = get_puzzle(puzzle).default
    except (KeyError, ValueError):
        return []
    if d is None:
        return []
    name, want = _params(d.formulation)
    out = []
    for pair in pairs.unique():
        form, _, solver = str(pair).partition(" / ")
        n, have = _params(form)
        if n == name and solver == d.solver and want <= have:
            out.append(str(pair))
    return out


def declared_selector(puzzle: str) -> tuple[str, Rule] | None:
    """The selector ``puzzle``'s declared default names and its rule for the puzzle, None when
    the declared default is a pair (or the selector has no rule for the puzzle)."""
    from bench.select.rules import SELECTORS, is_selector

    try:
        d = get_puzzle(puzzle).default
    except (KeyError, ValueError):
        return None
    if d is None:
        return None
    name = next((n for n in (d.formulation, d.solver) if is_selector(n)), None)
    rule = SELECTORS[name].get(puzzle) if name else None
    return (name, rule) if name and rule else None


def picked(g: pd.DataFrame, rule: Rule, paths: dict[str, str]) -> tuple[pd.DataFrame, int]:
    """One puzzle's per-instance rows ``g`` -> the row of the pair ``rule`` picks for each
    instance (from the features of its file, ``paths``), and how many instances have no row of
    their pick: for each of those a row of the pick, unanswered at :data:`PAR_K` x the
    instance's limit (a file that cannot be read has no pick: the same)."""
    from bench.instance import InstanceError
    from bench.select import features
    from bench.select.auto import choose
    from bench.suites import locate

    rows, missing = [], 0
    for inst, gi in g.groupby("instance", sort=True):
        try:
            feats = features.of_file(locate(paths[str(inst)])) if rule.feature else {}
            pick = choose(rule, feats).pair
        except (InstanceError, OSError, KeyError):
            pick = "(no pick)"
        hit = gi[gi["pair"] == pick]
        if len(hit):
            rows.append(hit.iloc[0])
            continue
        missing += 1
        row = gi.iloc[0].copy()
        row["pair"], row["ok"] = pick, False
        row["par2_s"] = PAR_K * float(gi["time_limit"].max())
        rows.append(row)
    return pd.DataFrame(rows), missing


def _row(g: pd.DataFrame) -> dict[str, object]:
    hard, real = (g[g["tier"] == tier] for tier in TIERS)
    return {"hard": f"{int(hard['ok'].sum())}/{len(hard)}" if len(hard) else "–",
            "real": f"{int(real['ok'].sum())}/{len(real)}" if len(real) else "–",
            "par2_s": float(g["par2_s"].mean())}


def table(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Per puzzle with a hard or real tier: the declared default's answered counts and PAR-2
    there (a declared selector's: :func:`picked`, with ``not_run``), the robust choice's, and
    the declared one's PAR-2 as a multiple of the robust choice's (1 when they are the same
    pair); and one sentence per puzzle."""
    if t.empty or "tier" not in t:
        return pd.DataFrame(columns=COLUMNS), []
    pi = per_instance(attempted(t))  # a task not run or declined is no measurement
    pi = pi[pi["tier"].isin(TIERS) & origins(pi).eq(OURS)]
    paths = dict(zip(t["instance"].astype(str), t["instance_path"].astype(str), strict=False))
    rows, lines = [], []
    for puzzle, g in pi.groupby("puzzle", sort=True):
        n = g.groupby("pair")["instance"].nunique()
        full = n[n == g["instance"].nunique()].index
        per = {p: _row(g[g["pair"] == p]) for p in full}
        if not per:
            continue
        par2 = {p: float(g.loc[g["pair"] == p, "par2_s"].mean()) for p in per}
        robust = min(sorted(par2), key=par2.__getitem__)
        mine = [p for p in declared_pairs(str(puzzle), g["pair"]) if p in per]
        r = {"puzzle": puzzle, "robust": robust,
             **{f"robust_{k}": v for k, v in per[robust].items()}}
        sel = declared_selector(str(puzzle))
        if sel is not None:
            chosen, missing = picked(g, sel[1], paths)
            ratio = float(chosen["par2_s"].mean()) / par2[robust]
            r.update(declared=f"{sel[0]} (a pair per instance)", **_row(chosen),
                     x_robust=round(ratio, 2), not_run=missing)
            lines.append(f"{puzzle}: the declared default is the selector {sel[0]}; the pairs "
                         f"it picks have {ratio:.2f}x the PAR-{PAR_K} of the robust choice "
                         f"{robust}" + (f" ({missing} instances' picks did not run here, "
                                        "counted unanswered)." if missing else "."))
        elif len(mine) == 1:
            d = per[mine[0]]
            ratio = par2[mine[0]] / par2[robust]
            r.update(declared=mine[0], **d, x_robust=round(ratio, 2))
            lines.append(f"{puzzle}: the declared default {mine[0]} "
                         + ("is the robust choice." if mine[0] == robust else
                            f"has {ratio:.2f}x the PAR-{PAR_K} of the robust choice {robust}."))
        else:
            d0 = get_puzzle(str(puzzle)).default
            what = f"{d0.formulation} / {d0.solver}" if d0 else "none"
            why = "several variants of it ran" if mine else "it did not run here"
            r.update(declared=f"{what} ({why})")
            lines.append(f"{puzzle}: the declared default is {what} ({why}); the robust "
                         f"choice is {robust}.")
        rows.append(r)
    return pd.DataFrame(rows).reindex(columns=COLUMNS).astype(object).fillna("–"), lines
