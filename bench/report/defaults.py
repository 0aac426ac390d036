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

That lowest mean is a point estimate over the instances, not a finding. What the data show
is the verdicts' own (:func:`evidence`): :func:`bench.report.verdicts.analyse` over the same
instances and pairs (the max-T test against the best, the equivalence margin, "too few"
below :data:`~bench.report.paired.MIN_INTERVAL` instances). Where the robust choice is that
test's best, the declared pair's verdict against it is the report's (separated, equivalent
or inconclusive, with its factor); a declared pair that is the robust choice reads how many
of the others the test separates from it. Below MIN_INTERVAL instances, or where the test's
best (lowest mean log time, timeouts at the limit) is another pair than the robust choice,
there is no verdict against the robust choice: inconclusive, and the sentence says why. A
declared selector's figures are a point estimate only (the test compares pairs).

A declared default may be a selector (``Default("robust", "robust")``: a rule of
:data:`bench.select.rules.SELECTORS` that picks a pair per instance from its features). Its
figures are then those of the pair it picks for each instance, from the run's rows. Where the
pick declined the instance (a ``skipped`` row) the row of the puzzle's fallback pair
(:data:`bench.select.rules.FALLBACK`, what ``solve`` runs in its place) stands in, counted in
``fallback`` (the declined task's own short process is not added); where the pick did not run
here, or declined with no fallback row, the instance counts unanswered at PAR-2 and in
``not_run``. A pick is unknown where the instance's file cannot be read, its content digest
(:func:`bench.records.instance_digest`) is not the one in the row's task key (the file
changed since the run), or the run holds two files under one (tier, instance) name: such an
instance is left out of the selector's figures and of the robust choice's it is compared
with, and counted in ``unknown``. A key written
before keys carried a content digest cannot be checked: the file is read as it is.
"""

from __future__ import annotations

import pandas as pd

import bench.report.verdicts as V
from bench.puzzles import get_puzzle
from bench.records import OURS
from bench.report.data import (
    PAR_K,
    attempted,
    content_digests,
    origins,
    per_instance,
    was_declined,
)
from bench.report.paired import MIN_INTERVAL
from bench.report.units import p_value
from bench.select.auto import Rule

#: the tiers a default is chosen on: the hard one and the real puzzles
TIERS = ("hard", "real")

NOTE = (f"The declared default is what `puzzlebench solve` runs when no pair is named. The "
        f"robust choice is the pair of ours with the lowest mean PAR-{PAR_K} (unsolved at "
        f"{PAR_K}x the limit) over the {' and '.join(TIERS)} tiers together, peer packages "
        "left out: a point estimate over those instances (`instances`), not a test; hard and "
        "real give answered / instances. vs_robust: the verdicts' test over the same "
        "instances and pairs (as in the verdict matrix: max-T p < 0.05 'separated', within "
        f"1/1.25..1.25x 'equivalent', else '{V.INCONCLUSIVE}'), the declared pair's verdict "
        "against the robust choice where that is the test's best; for a declared pair that "
        "is the robust choice, how many of the others the test separates from it; "
        f"'{V.INCONCLUSIVE}' with the reason where there is no such verdict (fewer than "
        f"{MIN_INTERVAL} instances, or the test's best is another pair). A declared selector "
        "is judged by "
        "the pair it picks per instance, against the robust choice over the same instances: "
        "`fallback` counts instances its pick declined, where the fallback pair's row stands "
        "in; `not_run` those whose pick did not run here, or declined with no fallback row "
        "(counted unanswered), and `unknown` those whose pick cannot be known (the file is "
        "unreadable or not the run's content: left out of both).")

COLUMNS = ["puzzle", "declared", "hard", "real", "par2_s", "robust", "robust_hard",
           "robust_real", "robust_par2_s", "instances", "x_robust", "vs_robust", "fallback",
           "not_run", "unknown"]

#: a (puzzle, tier, instance) -> (file path, content digest of the run's rows) map; None where
#: the run holds more than one file (or digest) under that name
Files = dict[tuple[str, str, str], tuple[str, str] | None]


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


def files(t: pd.DataFrame) -> Files:
    """The run's instance files by (puzzle, tier, instance): each one's path and the content
    digest of its rows' task keys (:func:`bench.report.data.content_digests`); None where one
    name has several paths or digests."""
    out: Files = {}
    cols = zip(t["puzzle"].astype(str), t["tier"].astype(str), t["instance"].astype(str),
               t["instance_path"].astype(str), content_digests(t), strict=True)
    for puzzle, tier, inst, path, digest in cols:
        key = (puzzle, tier, inst)
        out[key] = (path, digest) if out.get(key, (path, digest)) == (path, digest) else None
    return out


def pick_of(rule: Rule, file: tuple[str, str] | None) -> str | None:
    """The pair ``rule`` picks for the instance ``file`` (path, the run's content digest); None
    (unknown) where the file cannot be read or its digest is not the run's (a run's digest
    that is none, from a key written before keys carried one, is not checked)."""
    from bench.instance import InstanceError
    from bench.records import instance_digest
    from bench.select import features
    from bench.select.auto import choose
    from bench.suites import locate

    if file is None:
        return None
    try:
        path = locate(file[0])
        if file[1].startswith("sha256:") and instance_digest(path) != file[1]:
            return None
        return choose(rule, features.of_file(path) if rule.feature else {}).pair
    except (InstanceError, OSError, KeyError, ValueError):
        return None


def picked(g: pd.DataFrame, rule: Rule, paths: Files, declined: set[tuple[str, ...]],
           fallback: str | None = None) -> tuple[pd.DataFrame, dict[str, int]]:
    """One puzzle's per-instance rows ``g`` -> per (tier, instance) the row of the pair ``rule``
    picks (:func:`pick_of`), or where the pick declined it (``declined``: puzzle, tier,
    instance, pair) the ``fallback`` pair's row; and the counts ``fallback`` (the fallback's
    row stood in), ``not_run`` (no row: a row unanswered at :data:`PAR_K` x the instance's
    limit) and ``unknown`` (no pick known: left out)."""
    rows, n = [], {"fallback": 0, "not_run": 0, "unknown": 0}
    for (puzzle, tier, inst), gi in g.groupby(["puzzle", "tier", "instance"], sort=True):
        pick = pick_of(rule, paths.get((str(puzzle), str(tier), str(inst))))
        if pick is None:
            n["unknown"] += 1
            continue
        hit = gi[gi["pair"] == pick]
        if not len(hit) and fallback is not None \
                and (str(puzzle), str(tier), str(inst), pick) in declined:
            hit = gi[gi["pair"] == fallback]
            n["fallback"] += bool(len(hit))
        if len(hit):
            rows.append(hit.iloc[0])
            continue
        n["not_run"] += 1
        row = gi.iloc[0].copy()
        row["pair"], row["ok"] = pick, False
        row["par2_s"] = PAR_K * float(gi["time_limit"].max())
        rows.append(row)
    return pd.DataFrame(rows, columns=g.columns), n


def _row(g: pd.DataFrame) -> dict[str, object]:
    hard, real = (g[g["tier"] == tier] for tier in TIERS)
    return {"hard": f"{int(hard['ok'].sum())}/{len(hard)}" if len(hard) else "–",
            "real": f"{int(real['ok'].sum())}/{len(real)}" if len(real) else "–",
            "par2_s": float(g["par2_s"].mean())}


def _selector(puzzle: str, sel: tuple[str, Rule], g: pd.DataFrame, paths: Files,
              declined: set[tuple[str, ...]], robust: str) -> tuple[dict[str, object], str]:
    """A declared selector's table row and sentence (:func:`picked`), its PAR-2 against the
    robust choice's over the same instances (those with a known pick)."""
    from bench.select.rules import FALLBACK

    chosen, n = picked(g, sel[1], paths, declined, FALLBACK.get(puzzle))
    why = ("no pick can be known here (the files unreadable or not the run's content)"
           if chosen.empty else "none of the pairs it picks ran here"
           if n["not_run"] == len(chosen) else "")
    if why:  # nothing to judge
        return ({"declared": f"{sel[0]} ({why})", **n},
                f"{puzzle}: the declared default is the selector {sel[0]} ({why}); the robust "
                f"choice (the lowest mean PAR-{PAR_K}, a point estimate) is {robust}.")
    known = set(zip(chosen["tier"], chosen["instance"], strict=True))
    same = pd.Series([k in known for k in zip(g["tier"], g["instance"], strict=True)],
                     index=g.index)
    mine = g[(g["pair"] == robust) & same]
    ratio = float(chosen["par2_s"].mean()) / float(mine["par2_s"].mean())
    notes = [f"{n['fallback']} instances' picks declined them and the fallback pair "
             f"{FALLBACK.get(puzzle)}'s row stands in"] if n["fallback"] else []
    if n["not_run"]:
        notes.append(f"{n['not_run']} instances' picks did not run here (or declined with no "
                     "row of the fallback pair), counted unanswered")
    if n["unknown"]:
        notes.append(f"{n['unknown']} instances left out of both: their picks are unknown "
                     "(the file unreadable or not the run's content)")
    notes.append(f"over {len(chosen)} instance(s), a point estimate: the test compares pairs")
    line = (f"{puzzle}: the declared default is the selector {sel[0]}; the pairs it picks "
            f"have {ratio:.2f}x the mean PAR-{PAR_K} of the robust choice {robust}"
            f" ({'; '.join(notes)}).")
    return {"declared": f"{sel[0]} (a pair per instance)", **_row(chosen),
            "x_robust": round(ratio, 2), **n}, line


def evidence(g: pd.DataFrame, pairs: list[str], robust: str, declared: str,
             n: int) -> tuple[str, str]:
    """(vs_robust, clause): what the verdicts' test says of ``declared`` against ``robust`` on
    one puzzle's per-instance rows ``g`` (hard and real) of ``pairs`` (those that attempted
    every instance): :func:`bench.report.verdicts.analyse` over them (an instance named by its
    tier and name). Where ``robust`` is the test's best, the declared pair's verdict with its
    factor (or, for the robust choice itself, how many others are separated from it); else
    inconclusive, with the reason (too few of its ``n`` instances, or the test's best is
    another pair)."""
    if n < MIN_INTERVAL:
        return (f"{V.INCONCLUSIVE} ({V.TOO_FEW}: {n} instance(s))",
                f"{V.INCONCLUSIVE}: {n} instance(s), too few for a verdict (at least "
                f"{MIN_INTERVAL})")
    sub = g[g["pair"].isin(pairs)].assign(instance=g["tier"].astype(str) + "/"
                                          + g["instance"].astype(str))
    r = V.compare(sub).set_index("pair")
    best = [p for p in r.index if r.at[p, "verdict"] == "best"]
    if best != [robust]:
        other = f"the test's best (lowest mean log time, timeouts at the limit) is {best[0]}" \
            if best else "the test names no best"
        return (f"{V.INCONCLUSIVE} (no verdict against it: {other})",
                f"{V.INCONCLUSIVE}: no verdict against it, as {other}")
    if declared == robust:
        others = r.drop(index=robust)
        sep = int((others["verdict"] == V.SEPARATED).sum())
        words = f"best; {sep} of {len(others)} other pair(s) separated from it"
        return words, f"the verdicts' test: {words}"
    row = r.loc[[declared]].iloc[0]
    words = f"{V.label(row)}, {V.factor(row)}"
    return words, (f"the verdicts' test against it: {words} "
                   "(max-T p = "
                   f"{p_value(float(row['p']))})")


def table(t: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Per puzzle with a hard or real tier: the declared default's answered counts and PAR-2
    there (a declared selector's: :func:`picked`, with ``fallback``, ``not_run`` and
    ``unknown``), the robust choice's, and the declared one's PAR-2 as a multiple of the
    robust choice's (1 when they are the same pair); and one sentence per puzzle. ``t`` is the
    run's rows, declined tasks included (they tell where a selector's fallback ran)."""
    if t.empty or "tier" not in t:
        return pd.DataFrame(columns=COLUMNS), []
    pi = per_instance(attempted(t))  # a task not run or declined is no measurement
    pi = pi[pi["tier"].isin(TIERS) & origins(pi).eq(OURS)]
    paths = files(t)
    gone = t[was_declined(t)]
    declined = {tuple(map(str, k)) for k in zip(gone["puzzle"], gone["tier"], gone["instance"],
                                                gone["pair"], strict=True)}
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
        count = int(g[["tier", "instance"]].drop_duplicates().shape[0])
        point = (f"the robust choice {robust} has the lowest mean PAR-{PAR_K} of {len(per)} "
                 f"pair(s) over {count} instance(s), a point estimate")
        r = {"puzzle": puzzle, "robust": robust, "instances": count,
             **{f"robust_{k}": v for k, v in per[robust].items()}}
        sel = declared_selector(str(puzzle))
        if sel is not None:
            fields, line = _selector(str(puzzle), sel, g, paths, declined, robust)
            r.update(fields, vs_robust="– (a selector: the test compares pairs)")
            lines.append(line)
        elif len(mine) == 1:
            ratio = par2[mine[0]] / par2[robust]
            vs, clause = evidence(g, list(per), robust, mine[0], count)
            r.update(declared=mine[0], **per[mine[0]], x_robust=round(ratio, 2), vs_robust=vs)
            lines.append(f"{puzzle}: the declared default {mine[0]} " + (
                f"has the lowest mean PAR-{PAR_K} of {len(per)} pair(s) over {count} instance(s) "
                "(a point estimate: what defines the robust choice)" if mine[0] == robust
                else f"has {ratio:.2f}x the mean PAR-{PAR_K} of the robust choice {robust}, "
                f"the lowest of {len(per)} pair(s) over {count} instance(s) (a point estimate)")
                + f"; {clause}.")
        else:
            d0 = get_puzzle(str(puzzle)).default
            what = f"{d0.formulation} / {d0.solver}" if d0 else "none"
            why = "several variants of it ran" if mine else "it did not run here"
            r.update(declared=f"{what} ({why})")
            lines.append(f"{puzzle}: the declared default is {what} ({why}); {point}.")
        rows.append(r)
    out = pd.DataFrame(rows, columns=COLUMNS, dtype=object)
    return out.where(out.notna(), "–"), lines
