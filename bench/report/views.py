"""Two views across one puzzle's pairs: the same model on different solvers, and the same
solver on different models, each a table with the report's verdicts (pure functions over the
results DataFrame; the page's part is in :mod:`.sections`).

- :func:`same_model`: per formulation variant (its label, ``cpmpy-islands[wall=tree]``) run on
  two or more solvers, one row per solver. What the solvers make of one model.
- :func:`same_solver`: per solver engine with two or more formulation variants, one row per
  variant. A modelling layer's solver is counted as the engine it drives (:data:`ENGINES`:
  ``cpmpy:ortools`` is OR-tools CP-SAT, the native ``cpsat``), so CP-SAT through CPMpy stands
  beside the native ``cpsat-*`` formulations; :func:`layer_cost` then sets each layered pair
  against the best native pair of its engine, build and solve apart.

Statistics: those of the verdicts, unchanged (:func:`bench.report.verdicts.analyse` on the
group's per-instance rows: the best, each other row's factor over it with its 95 %
t-interval, "too few" below :data:`bench.report.paired.MIN_INTERVAL` instances, the step-down
Westfall-Young max-T test, TOST at :data:`bench.report.paired.MARGIN`); a group is a smaller
family of pairs than the puzzle's, so its labels are its own. A pair's SGM is the overview's
(:func:`bench.report.wording.sgm_words` over :func:`bench.report.sgm_bound.at_limit`): with its
t-interval where it answered every instance, else a lower bound with its unanswered instances
at the limit and no interval. Tasks that did not run
(:func:`bench.report.data.did_not_run`) and tasks their formulation declined
(:func:`bench.report.data.was_declined`: not applicable) are dropped first: never scored.

Build and solve apart (``build_s``: the model's construction; ``solve_s``: the backend's
calls, a modelling layer's translation included; ``solver_s``: the solver's own reported
time): per (pair, instance) the median over the answered repetitions and seeds, then the
shifted geometric mean (:data:`bench.report.data.SGM_SHIFT_S`) over the instances every row of
the table answered, so the rows' figures are of the same instances (where no instance was
answered by every row: each row over its own answered ones, and the group's sentence says so).
``outside_s`` is ``solve_s - solver_s`` (at least 0): for a modelling layer, its translation
and its work around the solver.

Every function takes one puzzle's rows (a formulation's name is a model of one puzzle).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

import bench.report.paired as paired
import bench.report.verdicts as verdicts
from bench.report.data import SGM_SHIFT_S, attempted, declines, per_instance, sgm
from bench.report.units import duration, interval, number
from bench.report.wording import CENSORED_SGM, sgm_words

#: a modelling layer's solver -> the native solver (engine) it drives
ENGINES = {"cpmpy:ortools": "cpsat"}
#: a solver name's prefix before ":" -> the modelling layer it names
LAYERS = {"cpmpy": "CPMpy"}
#: the table's columns (Markdown keeps these names; the page shows :mod:`.columns` labels)
COLUMNS = ["pair", "answered_run", "sgm_interval", "vs_best", "verdict", "p", "build_s",
           "solve_s", "solver_s", "outside_s"]
LAYER_COLUMNS = ["layered", "native", "common", "build_x", "solve_x", "solver_x",
                 "layered_outside_s"]
NOTE = (f"Per group its own verdicts (the report's statistics over this group's pairs alone): "
        f"'best', and each other row's factor over it on the instances both ran with its 95 % "
        f"t-interval ('{verdicts.TOO_FEW}' below {paired.MIN_INTERVAL} instances) and its label "
        f"(max-T p < {verdicts.ALPHA:g}: separated; interval within 1/{paired.MARGIN:g}.."
        f"{paired.MARGIN:g}x: equivalent). SGM: where the pair answered every instance it ran, "
        "the shifted geometric mean of its build + solve times with its 95 % t-interval on "
        f"log(t + shift) ('{verdicts.TOO_FEW}' below {paired.MIN_INTERVAL} instances); where it "
        f"left k of n unanswered (a timeout or memout), '≥ s ({CENSORED_SGM}: k of n at the "
        "limit)': the shifted geometric mean with each unanswered instance at its limit, a "
        "lower bound on that of its true times, with no interval (not PAR-2, which counts them "
        "at twice the limit). build, solve, solver's own, outside the solver: SGMs (shift "
        f"{SGM_SHIFT_S * 1000:g} ms) of the answered tasks' times over the instances every row "
        "answered (how many: in the group's line); 'outside the solver' is solve minus the "
        "solver's own time: a modelling layer's translation and work around the solver. Tasks "
        "that did not run, and instances a formulation declined, are left out.")


def engine(solver: str) -> str:
    """The solver engine behind a solver name: a modelling layer's solver the native one it
    drives (:data:`ENGINES`), any other solver itself."""
    return ENGINES.get(solver, solver)


def layer(solver: str) -> str:
    """The modelling layer a solver name goes through ("CPMpy"), "" for a native solver."""
    head, sep, _ = solver.partition(":")
    return LAYERS.get(head, "") if sep else ""


@dataclass(frozen=True)
class View:
    """One group: ``title``, ``key`` (the formulation variant or the engine), the ``table``
    (:data:`COLUMNS`, best first), its ``pairs`` in that order, and sentences (``lines``)."""

    title: str
    key: str
    table: pd.DataFrame
    pairs: list[str]
    lines: list[str] = field(default_factory=list)




def _apart(t: pd.DataFrame) -> pd.DataFrame:
    """Per (pair, instance) answered: the medians of build_s, solve_s and solver_s over the
    answered tasks, and outside_s = solve_s - solver_s (at least 0; NaN without solver_s)."""
    ok = t[t["ok"]]
    cols = {c: (c, "median") for c in ("build_s", "solve_s", "solver_s")}
    m = ok.assign(**{c: pd.to_numeric(ok[c], errors="coerce") for c in cols}).groupby(
        ["pair", "instance"], sort=False).agg(**cols)
    m["outside_s"] = (m["solve_s"] - m["solver_s"]).clip(lower=0)
    return m


def _table(t: pd.DataFrame, dec: pd.Series | None = None) -> tuple[pd.DataFrame, int]:
    """The group's table (rows of task rows ``t`` that ran, one group) and the instances its
    build and solve columns cover."""
    g = verdicts.analyse(per_instance(t), dec).table
    apart = _apart(t)
    answered = [set(apart.loc[p].index) for p in g["pair"] if p in apart.index]
    common = set.intersection(*answered) if answered else set()
    own = not common  # no instance every row answered: each row over its own answered ones
    rows = []
    for _, r in g.iterrows():
        out = {"pair": r["pair"], "answered_run": f"{int(r['solved'])}/{int(r['instances'])}",
               "sgm_interval": sgm_words(r),
               "vs_best": verdicts.factor(r) if r["verdict"] != "best" else "–",
               "verdict": verdicts.label(r) or "–", "p": r["p"]}
        mine = apart.loc[r["pair"]] if r["pair"] in apart.index else None
        for c in ("build_s", "solve_s", "solver_s", "outside_s"):
            vals = (mine.loc[own | mine.index.isin(common), c] if mine is not None
                    else pd.Series(dtype=float))
            out[c] = sgm(vals)
        rows.append(out)
    return pd.DataFrame(rows, columns=COLUMNS), len(common)


def _one_puzzle(t: pd.DataFrame) -> pd.DataFrame:
    """The rows attempted (:func:`bench.report.data.attempted`) of ``t``, which must hold one
    puzzle's rows (a ValueError otherwise)."""
    if len(t) and t["puzzle"].nunique() > 1:
        raise ValueError(f"the views take one puzzle's rows, not {t['puzzle'].nunique()} "
                         "puzzles'")
    return attempted(t)


def _groups(t: pd.DataFrame, by: pd.Series, within: str) -> list[tuple[str, pd.DataFrame]]:
    """(key, rows) per value of ``by`` whose rows hold two or more distinct ``within``."""
    out = []
    for key, g in t.groupby(by, sort=True):
        if g[within].nunique() >= 2:
            out.append((str(key), g))
    return out


def same_model(t: pd.DataFrame) -> list[View]:
    """Per formulation variant run on two or more solvers (``t``: one puzzle's prepared task
    rows; those that did not run are dropped), its solvers' table, best first."""
    dec = declines(t)
    t = _one_puzzle(t)
    views = []
    for form, g in _groups(t, t["formulation"], "solver") if len(t) else []:
        tab, common = _table(g, dec)
        n = g["instance"].nunique()
        views.append(View(f"{form} on {g['solver'].nunique()} solvers", form, tab,
                          list(tab["pair"]),
                          [_line(tab, n, common, "solvers")]))
    return views


def same_solver(t: pd.DataFrame) -> list[View]:
    """Per solver engine (:func:`engine`) with two or more formulation variants (``t``: one
    puzzle's prepared task rows; those that did not run are dropped), its variants' table, best
    first; a group holding a modelling layer's pairs says so in its title."""
    dec = declines(t)
    t = _one_puzzle(t)
    views = []
    for eng, g in _groups(t, t["solver"].map(engine), "formulation") if len(t) else []:
        tab, common = _table(g, dec)
        solvers = sorted(set(g["solver"]))
        layered = sorted({(layer(s), s) for s in solvers if s in ENGINES})
        native = any(s not in ENGINES for s in solvers)
        name = eng if native else ", ".join(solvers)
        title = f"{name}: {g['formulation'].nunique()} formulations"
        if layered and native:
            title += (", natively and through " + ", ".join(f"{name} ({s})" for name, s in
                                                             layered)
                      + ": what the modelling layer costs")
        views.append(View(title, eng, tab, list(tab["pair"]),
                          [_line(tab, g["instance"].nunique(), common, "formulations")]))
    return views


def _line(tab: pd.DataFrame, n: int, common: int, what: str) -> str:
    best = tab.iloc[0]
    if best["verdict"] != "best":
        return f"No best among these {what}: none answered an instance without a wrong answer."
    counts = tab["verdict"].iloc[1:].str.replace(r" \(.*", "", regex=True).value_counts()
    labels = ", ".join(f"{k} {v}" for k, v in counts.items())
    tail = f"; {labels}" if labels else ""
    few = " (too few for intervals)" if n < paired.MIN_INTERVAL else ""
    over = (f"the {common} instance(s) every row answered" if common else
            "each row's own answered instances (no instance did every row answer)")
    return (f"Best: {best['pair']} ({best['answered_run']} answered){tail}. {n} instance(s)"
            f"{few}; build and solve over {over}.")


def layer_cost(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Each layered pair (a solver of :data:`ENGINES`) against the best native pair of its
    engine (``t``: one puzzle's prepared task rows; those that did not run are dropped), over
    the instances both answered: the ratios layered / native of the geometric means of build,
    solve and the solver's own time, each plus the 10 ms shift, with its 95 % t-interval
    ('too few' below MIN_INTERVAL), and
    the layered pair's time outside the solver (SGM); and a sentence per row."""
    t = _one_puzzle(t)
    rows: list[dict[str, object]] = []
    lines: list[str] = []
    if not len(t):
        return pd.DataFrame(columns=LAYER_COLUMNS), lines
    eng = t["solver"].map(engine)
    for name in sorted(set(eng[t["solver"].isin(ENGINES)])):
        g = t[eng == name]
        native = g[~g["solver"].isin(ENGINES)]
        if not len(native):
            continue
        order = verdicts.analyse(per_instance(native)).table
        clean = order[order["verdict"] == "best"]
        if not len(clean):
            continue
        nat = str(clean.iloc[0]["pair"])
        apart = _apart(g)
        for pair in sorted(set(g.loc[g["solver"].isin(ENGINES), "pair"])):
            row, line = _versus(apart, pair, nat, str(name))
            rows.append(row)
            lines.append(line)
    return pd.DataFrame(rows, columns=LAYER_COLUMNS), lines


def _ratio(a: pd.Series, b: pd.Series) -> str:
    both = a.notna() & b.notna()
    est, lo, hi = verdicts.ratio_interval(a[both].to_numpy(float), b[both].to_numpy(float))
    if est != est:
        return "–"
    if int(both.sum()) < paired.MIN_INTERVAL or lo != lo:
        return f"{number(est)}x ({verdicts.TOO_FEW}: {int(both.sum())})"
    return f"{number(est)}x {interval(lo, hi)}"


def _versus(apart: pd.DataFrame, pair: str, nat: str,
            eng: str) -> tuple[dict[str, object], str]:
    mine = apart.loc[pair] if pair in apart.index else apart.iloc[:0].droplevel(0)
    theirs = apart.loc[nat] if nat in apart.index else apart.iloc[:0].droplevel(0)
    common = mine.index.intersection(theirs.index)
    a, b = mine.loc[common], theirs.loc[common]
    outside = sgm(a["outside_s"]) if len(common) else math.nan
    x = {c: _ratio(a[c], b[c]) for c in ("build_s", "solve_s", "solver_s")}
    row: dict[str, object] = {"layered": pair, "native": nat, "common": len(common),
                              "build_x": x["build_s"], "solve_x": x["solve_s"],
                              "solver_x": x["solver_s"], "layered_outside_s": outside}
    if not len(common):
        return row, f"{pair} against {nat} ({eng}): no instance both answered."
    ms = {c: (duration(sgm(a[c])), duration(sgm(b[c]))) for c in ("build_s", "solve_s", "solver_s")}
    line = (f"The modelling layer on {eng}: {pair} against the best native {nat}, over the "
            f"{len(common)} instance(s) both answered: build {x['build_s']} "
            f"({ms['build_s'][0]} against {ms['build_s'][1]}), solve "
            f"{x['solve_s']} ({ms['solve_s'][0]} against {ms['solve_s'][1]}), of "
            f"which the solver's own time {x['solver_s']} ({ms['solver_s'][0]} against "
            f"{ms['solver_s'][1]}); outside the solver (the layer's translation and "
            f"work) {duration(outside)} SGM.")
    return row, line
