"""Learning and judging the ``auto`` rule (:mod:`bench.select.auto`) the way algorithm
selection work does (ASlib, SATzilla): learned on some instances (generated families), judged
on others (the real tier, and generated families held back), as the gap of the selector's
PAR-2 sum and SGM to the virtual best (VBS) and to the single best pair of the training data
(SBS), and the answers it loses against that SBS.

Method: the performance matrix is the run's PAR-2 per instance and pair (repeats folded to the
median, tasks not run left out as missing: :mod:`bench.report.vbs`). The candidates are the
pairs that were tried on every training instance, are exact, and are our own (a result's
``origin``: not a peer package's, whatever the kind, so Nurikabe's ``frontier`` is one).
Tried means a row for the instance, whatever it says: an answer, a failure, a task the
ladder rule did not run, or an instance the formulation declined. Declining is a result, not
a gap (ASlib's ``not_applicable``): the training matrix counts a declined task unsolved at
PAR-2 for that pair (:func:`bench.select.matrices.training_matrix`), so a pair that declines most
instances, as ``frontier`` does above three clues, is a candidate that can only win a branch
of instances it takes; a pair with no row for some training instance was never tried there
and is none. That is the
training matrix of :mod:`bench.select.train`, which the committed rules come from; the
single-run helpers here (:func:`evaluate`, :func:`held_back`, ``python -m bench.select.learn
RUN``) read the report's matrix, with no row kept for a declined task: :func:`evaluate` fills
nothing, so there a pair that declined a training instance is no candidate, and
:func:`_one` fills every missing task at PAR-2 under :data:`IMPUTE`, never-tried ones
included. An untimed answer (correct, recorded without its time: :mod:`bench.select.untimed`)
is neither a time nor a timeout: never filled, its pair still tried there, its instance left
out of the training set where the pair is a candidate and out of a judged test set where a
pair of the matrix is untimed, and both counted (:class:`Judged`, :func:`markdown`). The
rule is the decision stump of least training PAR-2 sum over every feature, every threshold
halfway between two training values (each side at least :data:`MIN_LEAF` instances) and every
pair on each side; it replaces the training SBS only when it lowers the training PAR-2 sum by
at least :data:`MARGIN` (a rule that wins by noise is not worth a branch). :func:`tree` grows
it to depth 2 the same way, kept only where it saves :data:`MARGIN` of the stump's sum. The
search is exhaustive and cost-sensitive: it minimises PAR-2 sums, not misclassifications.
:mod:`bench.select.train` learns on a training run's families and judges on held-back data.

The committed runs' tables are found through :data:`RUN_DIRS` (``results/<run>`` first, then
``reports/<run>``), so the evidence follows the data when it moves.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from bench.records import OURS
from bench.report.data import PAR_K, load_run, origins, performance, prepare, sgm
from bench.select import features, untimed
from bench.select.auto import SHAPE, Rule, choose
from bench.select.untimed import LeftOut
from bench.suites import locate

#: where a committed run's folder may be, in order
RUN_DIRS = ("results", "reports")
#: the share of the training PAR-2 sum a stump must save over the training SBS
MARGIN = 0.05
#: learning only: a training task not run (the ladder rule: it timed out on a smaller instance
#: of its family) counts as unsolved, at PAR-2, so that such a pair stays a candidate; the
#: VBS and every judged figure still leave it out as missing
IMPUTE = True


def run_folder(name: str, root: Path | None = None) -> Path:
    """The folder of a committed run, looked up under each of :data:`RUN_DIRS`."""
    from bench.suites import project_root

    base = root or project_root()
    for d in RUN_DIRS:
        if (base / d / name / "results.parquet").is_file():
            return base / d / name
    raise FileNotFoundError(f"no results.parquet of run {name} under "
                            + " or ".join(str(base / d) for d in RUN_DIRS))


def feature_table(t: pd.DataFrame) -> pd.DataFrame:
    """Instance x feature for the instances of prepared rows (one puzzle)."""
    paths = dict(zip(t["instance"].astype(str), t["instance_path"].astype(str), strict=True))
    return pd.DataFrame({i: features.of_file(locate(p)) for i, p in paths.items()}).T


def candidates(t: pd.DataFrame, par2: pd.DataFrame,
               untimed_at: pd.DataFrame | None = None) -> list[str]:
    """Pairs with a value on every training instance of ``par2`` (tried there: answered,
    failed, not run by the ladder rule or declined, each filled by the caller) or an untimed
    answer there (``untimed_at``: :func:`bench.select.untimed.cells`; tried, its cell left out
    by :func:`bench.select.untimed.leave_out`), exact in every row, and of ours (prepared
    rows' ``origin``: not a peer package's)."""
    own = t[origins(t) == OURS]
    inexact = set(own.loc[own["exact"].eq(False), "pair"])
    u = untimed.on(untimed_at, par2)
    full = [p for p in par2.columns if (par2[p].notna() | u[p]).all()]
    return [p for p in full if p in set(own["pair"]) and p not in inexact]


def sbs(par2: pd.DataFrame, pairs: list[str]) -> str:
    """The single best of ``pairs``: least PAR-2 sum, then least SGM, then by name."""
    def key(p: str) -> tuple[float, float, str]:
        v = np.asarray(par2[p], float)
        return float(v.sum()), sgm(v), p

    return min(pairs, key=key)


#: the fewest training instances a branch of a learned rule may hold
MIN_LEAF = 2


def _split(cost: np.ndarray, x: np.ndarray) -> tuple[float, int, float, int, int] | None:
    """The best single split of a cost matrix (instances x pairs) on a feature matrix
    (instances x features): (training cost, feature index, threshold, low pair, high pair),
    each branch's pair the one of least cost sum on its side; thresholds halfway between two
    distinct values, each side at least :data:`MIN_LEAF` instances; ties go to the earlier
    feature, then the lower threshold. None when no feature splits."""
    total = cost.sum(axis=0)
    top: tuple[float, int, float, int, int] | None = None
    n = len(cost)
    for f in range(x.shape[1]):
        order = np.argsort(x[:, f], kind="stable")
        xs = x[order, f]
        low = np.cumsum(cost[order], axis=0)[:-1]
        size = np.arange(1, n)
        cut = (xs[:-1] < xs[1:]) & (size >= MIN_LEAF) & (n - size >= MIN_LEAF)
        if not cut.any():
            continue
        lo, at = low[cut], np.flatnonzero(cut)
        hi = total - lo
        a, b = lo.argmin(axis=1), hi.argmin(axis=1)
        c = lo[np.arange(len(a)), a] + hi[np.arange(len(b)), b]
        k = int(c.argmin())
        if top is None or float(c[k]) < top[0] - 1e-12:
            i = int(at[k])
            top = (float(c[k]), f, float((xs[i] + xs[i + 1]) / 2), int(a[k]), int(b[k]))
    return top


def with_support(rule: Rule, feats: pd.DataFrame) -> Rule:
    """The rule with its support (:attr:`bench.select.auto.Rule.support`): the least and
    largest value over the training instances ``feats`` (instance x feature) of each feature
    of :data:`bench.select.auto.SHAPE` and each feature the rule reads, in the order of
    :data:`bench.select.features.NAMES`."""
    read = set(SHAPE) | rule.reads()
    return replace(rule, support=tuple(
        (n, float(feats[n].min()), float(feats[n].max()))
        for n in features.NAMES if n in read and n in feats))


def stump(puzzle: str, par2: pd.DataFrame, feats: pd.DataFrame, pairs: list[str]) -> Rule:
    """The rule learned from a training matrix (see the module), with its support over the
    training instances (:func:`with_support`)."""
    return with_support(_stump(puzzle, par2, feats, pairs), feats.loc[par2.index])


def _stump(puzzle: str, par2: pd.DataFrame, feats: pd.DataFrame, pairs: list[str]) -> Rule:
    best = sbs(par2, pairs)
    base = float(par2[best].sum())
    x = feats.loc[par2.index, list(features.NAMES)].to_numpy(float)
    top = _split(par2[pairs].to_numpy(float), x)
    n = len(par2)
    if top is None or top[0] > base * (1 - MARGIN) or top[3] == top[4]:
        return Rule(puzzle, best, best, evidence=f"{n} training instances; no threshold saved "
                    f"{MARGIN:.0%} of the single best's PAR-2 sum {base:.3f} s")
    cost, f, th, a, b = top
    return Rule(puzzle, pairs[a], pairs[b], features.NAMES[f], th,
                f"{n} training instances: PAR-2 sum {cost:.3f} s against {base:.3f} s for the "
                f"single best {best}")


def _node(cost: np.ndarray, x: np.ndarray, pairs: list[str],
          puzzle: str) -> tuple[float, Rule | str]:
    """The better of one pair and one split for the instances of a branch (each at least
    :data:`MARGIN` below the other to be chosen), and its training cost."""
    sums = cost.sum(axis=0)
    one = int(sums.argmin())
    top = _split(cost, x) if len(cost) >= 2 * MIN_LEAF else None
    if top is None or top[0] > float(sums[one]) * (1 - MARGIN) or top[3] == top[4]:
        return float(sums[one]), pairs[one]
    c, f, th, a, b = top
    return c, Rule(puzzle, pairs[a], pairs[b], features.NAMES[f], th)


def tree(puzzle: str, par2: pd.DataFrame, feats: pd.DataFrame, pairs: list[str]) -> Rule:
    """A cost-sensitive decision tree of depth 2 learned from a training matrix: the root
    split (over every feature and threshold, as :func:`stump`) of least training PAR-2 sum
    when each side takes its own best split or pair (:func:`_node`). It is kept only where it
    saves :data:`MARGIN` of the stump's training PAR-2 sum; otherwise the stump is the tree.
    Either has its support over the training instances (:func:`with_support`)."""
    base_rule = stump(puzzle, par2, feats, pairs)
    cost = par2[pairs].to_numpy(float)
    x = feats.loc[par2.index, list(features.NAMES)].to_numpy(float)
    base = float(np.sum([cost[i, pairs.index(choose(base_rule, feats.loc[k].to_dict()).pair)]
                         for i, k in enumerate(par2.index)]))
    n = len(cost)
    top: tuple[float, int, float, Rule | str, Rule | str] | None = None
    for f in range(x.shape[1]):
        values = np.unique(x[:, f])
        for th in (values[:-1] + values[1:]) / 2:
            below = x[:, f] <= th
            if below.sum() < MIN_LEAF or n - below.sum() < MIN_LEAF:
                continue
            c1, lo = _node(cost[below], x[below], pairs, puzzle)
            c2, hi = _node(cost[~below], x[~below], pairs, puzzle)
            if top is None or c1 + c2 < top[0] - 1e-12:
                top = (c1 + c2, f, float(th), lo, hi)
    if top is None or top[0] > base * (1 - MARGIN) or not any(
            isinstance(b, Rule) for b in top[3:]):
        return base_rule
    c, f, th, lo, hi = top
    return with_support(Rule(
        puzzle, lo, hi, features.NAMES[f], th,
        f"{n} training instances: PAR-2 sum {c:.3f} s against {base:.3f} s for the stump and "
        f"{float(par2[sbs(par2, pairs)].sum()):.3f} s for the single best"), feats.loc[par2.index])


@dataclass(frozen=True)
class Judged:
    """One puzzle x test tier: the rule's result beside the VBS and the training SBS."""

    puzzle: str
    tier: str
    instances: int
    rule: str
    sbs: str
    vbs_par2_s: float
    sbs_par2_s: float
    auto_par2_s: float
    vbs_sgm_s: float
    sbs_sgm_s: float
    auto_sgm_s: float
    vbs_solved: int
    sbs_solved: int
    auto_solved: int
    missing: int  # test instances the chosen pair did not run (left out of every column)
    #: what the training left out as untimed (:mod:`bench.select.untimed`)
    trained_untimed: LeftOut = field(default_factory=LeftOut)
    #: test instances left out of every column because a pair of the matrix is untimed there
    test_untimed: int = 0


def judge(puzzle: str, tier: str, rule: Rule, train_sbs: str, par2: pd.DataFrame,
          ok: pd.DataFrame, feats: pd.DataFrame, untimed_at: pd.DataFrame | None = None,
          left: LeftOut | None = None) -> Judged:
    """The rule on a test matrix beside the VBS (over every pair of the matrix) and the
    training SBS, over the instances where the chosen pair and the SBS ran and no pair is
    untimed (``untimed_at``: :func:`bench.select.untimed.cells`); ``left``: what the
    training left out as untimed."""
    picks = pd.Series({i: choose(rule, feats.loc[i].to_dict()).pair for i in par2.index})
    ran = par2.notna()
    gone = untimed.on(untimed_at, par2).any(axis=1)
    have = [i for i in par2.index if picks[i] in par2 and train_sbs in par2 and not gone[i]
            and bool(ran.at[i, picks[i]]) and bool(ran.at[i, train_sbs])]
    n_untimed = int(gone.sum())
    p, o = par2.loc[have], ok.loc[have].fillna(0) > 0
    auto = pd.Series([p.at[i, picks[i]] for i in have], index=have, dtype=float)
    auto_ok = sum(bool(o.at[i, picks[i]]) for i in have)
    vbs = p.min(axis=1)
    return Judged(puzzle, tier, len(have), rule.text(), train_sbs, float(vbs.sum()),
                  float(p[train_sbs].sum()), float(auto.sum()), sgm(vbs), sgm(p[train_sbs]),
                  sgm(auto), int(o.any(axis=1).sum()), int(o[train_sbs].sum()), auto_ok,
                  len(par2) - len(have) - n_untimed, left or LeftOut(), n_untimed)


def evaluate(run: Path, train: tuple[str, ...] = ("ladder",),
             test: tuple[str, ...] = ("real", "hard")) -> tuple[list[Rule], list[Judged]]:
    """Learn a rule per puzzle on the ``train`` tiers of a run and judge it on each ``test``
    tier."""
    t = prepare(load_run(run).df, run)
    rules, judged = [], []
    for puzzle, g in t.groupby("puzzle", sort=True):
        tr = g[g["tier"].isin(train)]
        par2, _ = performance(tr)
        u = untimed.cells(tr)
        pairs = candidates(g, par2, u)
        par2, left = untimed.leave_out(par2, u, pairs)
        if par2.empty or not pairs:
            continue
        feats = feature_table(g)
        rule = stump(str(puzzle), par2[pairs], feats, pairs)
        rules.append(rule)
        best = sbs(par2, pairs)
        for tier in test:
            tp, tok = performance(g[g["tier"] == tier])
            if len(tp):
                judged.append(judge(str(puzzle), tier, rule, best, tp, tok, feats,
                                    untimed.cells(g[g["tier"] == tier]), left))
    return rules, judged


def _one(puzzle: str, g: pd.DataFrame, train: pd.Series, test: pd.Series, name: str,
         feats: pd.DataFrame) -> tuple[Rule, Judged] | None:
    par2, _ = performance(g[train])
    u = untimed.cells(g[train])
    if IMPUTE and len(par2):  # a pair left out by the ladder rule: as if it timed out
        limit = g[train].groupby("instance")["time_limit"].max().reindex(par2.index)
        par2 = par2.apply(lambda col: col.fillna(PAR_K * limit)).where(~untimed.on(u, par2))
    pairs = candidates(g, par2, u)
    par2, left = untimed.leave_out(par2, u, pairs)
    tp, tok = performance(g[test])
    if par2.empty or not pairs or tp.empty:
        return None
    rule = stump(puzzle, par2[pairs], feats, pairs)
    return rule, judge(puzzle, name, rule, sbs(par2, pairs), tp, tok, feats,
                       untimed.cells(g[test]), left)


def held_back(run: Path, generated: tuple[str, ...] = ("ladder", "hard"),
              real: str = "real") -> list[tuple[Rule, Judged]]:
    """Per puzzle: for each folder of generated instances in turn, the rule learned on the
    other generated folders and judged on it (a held-back family); and the rule learned on
    every generated folder, judged on the ``real`` tier."""
    t = prepare(load_run(run).df, run)
    out = []
    for puzzle, g in t.groupby("puzzle", sort=True):
        feats = feature_table(g)
        folder = g["instance_path"].astype(str).map(lambda p: str(Path(p).parent))
        gen = g["tier"].isin(generated)
        for f in sorted(set(folder[gen])):
            one = _one(str(puzzle), g, gen & (folder != f), gen & (folder == f),
                       f"held back: {f}", feats)
            if one:
                out.append(one)
        one = _one(str(puzzle), g, gen, g["tier"] == real, real, feats)
        if one:
            out.append(one)
    return out


def ratio(a: float, b: float) -> float:
    return a / b if b > 0 else math.nan


def markdown(judged: list[tuple[Rule, Judged]]) -> str:
    """The judged rules as a Markdown table: gaps to the VBS and to the training SBS."""
    lines = ["| puzzle | test | n | rule | auto/VBS PAR-2 | auto/VBS SGM | SBS/VBS PAR-2 | "
             "SBS/VBS SGM | auto/SBS PAR-2 | solved VBS/SBS/auto | left out |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r, j in judged:
        lines.append(
            f"| {j.puzzle} | {j.tier} | {j.instances} | {r.text().split(': ', 1)[1]} | "
            f"{ratio(j.auto_par2_s, j.vbs_par2_s):.3f} | {ratio(j.auto_sgm_s, j.vbs_sgm_s):.3f} | "
            f"{ratio(j.sbs_par2_s, j.vbs_par2_s):.3f} | {ratio(j.sbs_sgm_s, j.vbs_sgm_s):.3f} | "
            f"{ratio(j.auto_par2_s, j.sbs_par2_s):.3f} | "
            f"{j.vbs_solved}/{j.sbs_solved}/{j.auto_solved} | {j.missing} |")
    said = untimed.note([(f"{j.puzzle}, {j.tier}", j.trained_untimed, j.test_untimed)
                         for _, j in judged])
    return "\n".join([*lines, *(["", *said] if said else [])])


def main(argv: list[str]) -> int:
    """``python -m bench.select.learn RUN`` (a run name or folder): the two evaluations; 2,
    with one line on stderr, when the run or an instance file of it cannot be read."""
    from bench.instance import InstanceError
    from bench.report.data import ReportError

    if len(argv) != 1:
        print("usage: python -m bench.select.learn RUN", file=sys.stderr)
        return 2
    try:
        folder = Path(argv[0]) if Path(argv[0], "results.parquet").is_file() else run_folder(
            argv[0])
        rules, first = evaluate(folder)
        again = held_back(folder)
    except (FileNotFoundError, ReportError, ValueError, InstanceError) as e:
        print(f"bench.select.learn: {e}", file=sys.stderr)
        return 2
    print("Trained on the ladder tier, judged on the real and hard tiers:\n")
    print(markdown([(next(r for r in rules if r.puzzle == j.puzzle), j) for j in first]))
    print("\nHeld-back generated folders, and real after training on every generated one:\n")
    print(markdown(again))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
