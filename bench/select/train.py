"""``auto`` learned on the training suite and judged on held-back data, as algorithm-selection
work does (ASlib, SATzilla): per puzzle, a stump and a depth-2 tree (:mod:`.learn`) learned
on the training run's generated families (suite ``training``) with the generator seeds of
:data:`HELD_BACK` left out, plus a default run's ladder tier; each judged on the held-back
seeds and on the real and hard tiers of the default runs, beside the virtual best (VBS), the
training single best pair (SBS) and the puzzle's declared default.

The split is by family, never by instance: a family is a generator seed of a size and
parameter set (``gen-<puzzle>-<R>x<C>-s<seed>...``), and every instance of a held-back seed is
held back. The training data may span several runs (a later run adding families or a pair:
their rows are pooled by pair label, whatever code digest each run recorded) and several
ladder runs (a pair run apart on the same ladder tier). A test run is judged on its real and
hard tiers, or whole when it has neither (a suite without tiers, as ``nurikabe-hard``:
:data:`SUITE`); an instance learned on (by content digest) is left out of every test set.

The virtual best is that of the portfolio: the candidate pairs a rule may choose (our own exact
pairs tried on every training instance, a declined one counted unsolved:
:mod:`bench.select.learn`) and the declared default. A task a default run did
not run (its ladder rule, or the cap on a pair its pilot found hopeless) counts as unsolved
at PAR-2 for a pair that ran some instance of the tier: both rules leave a pair out only where
it failed before (the report's VBS tables, :mod:`bench.report.vbs`, leave such tasks out
instead). Every figure is over the instances of a test set on which every compared pair has a
value; an untimed answer is never filled, in training or test (:mod:`bench.select.untimed`);
``auto``'s times include
the measured cost of computing the instance's features (:func:`feature_costs`, in this
process) wherever its rule reads a feature.
``lost`` counts the instances the training SBS or the declared default answered and the
selector did not.

:func:`verdict` says per puzzle whether ``auto`` earns the declared default: on every judged
test set of the test runs (real, hard, suite), a lower PAR-2 sum than both the training SBS
and the declared default, and no answer lost.
"""

from __future__ import annotations

import functools
import logging
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from bench.report.data import (
    ReportError,
    content_digests,
    load_run,
    prepare,
    sgm,
)
from bench.select import features, untimed
from bench.select.auto import Rule, choose
from bench.select.learn import candidates, sbs, stump, tree
from bench.select.matrices import tier_matrix, training_matrix
from bench.select.untimed import LeftOut
from bench.suites import locate

#: generator seeds whose families are held back from learning (the rest train)
HELD_BACK = frozenset({905, 906})
#: the tiers of a default run that a rule is judged on
TEST_TIERS = ("real", "hard")
#: the tiers of a default run that rules are learned on (with the training run)
TRAINED_TIERS = ("ladder",)
#: the test set of a test run without :data:`TEST_TIERS`: every instance not trained on
SUITE = "suite"
#: feature computations timed per instance (the least counts)
REPEAT_COST = 3

log = logging.getLogger(__name__)

_SEED = re.compile(r"-s(\d+)(?:-|$)")


def seed_of(instance: str) -> int | None:
    """The generator seed in a generated instance's name (``gen-nurikabe-10x10-s902-1``:
    902), None for a name without one."""
    m = _SEED.search(instance)
    return int(m.group(1)) if m else None


def feature_costs(t: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Instance x feature for prepared rows, and each instance's seconds to compute its
    features from the read instance (this process, the least of :data:`REPEAT_COST` runs: the
    price ``auto`` adds before a solve, which reads the instance file anyway to learn its
    puzzle)."""
    from bench.instance import read_instance

    paths = dict(zip(t["instance"].astype(str), t["instance_path"].astype(str), strict=True))
    rows, cost = {}, {}
    for i, p in paths.items():
        inst = read_instance(locate(p))
        spent = []
        for _ in range(REPEAT_COST):
            start = time.perf_counter()
            rows[i] = features.of_instance(inst)
            spent.append(time.perf_counter() - start)
        cost[i] = min(spent)
    return pd.DataFrame(rows).T, pd.Series(cost, dtype=float)


def declared_pair(puzzle: str, pairs: list[str]) -> str | None:
    """The run's pair label of the puzzle's declared default (``Puzzle.default``): the same
    label, else the pair of the same formulation name and solver (the default variant). A
    declared selector is judged by its pair (:data:`bench.select.rules.FALLBACK`, the pair
    its escape leaves): a selector to be judged is held against that pair, as before it was
    declared."""
    from bench.puzzles import get_puzzle
    from bench.select.rules import FALLBACK, is_selector

    d = getattr(get_puzzle(puzzle), "default", None)
    if d is None:
        return None
    form, solver = d.formulation, d.solver
    if is_selector(form) or is_selector(solver):
        if puzzle not in FALLBACK:
            return None
        form, solver = FALLBACK[puzzle].rsplit(" / ", 1)
    exact = f"{form} / {solver}"
    if exact in pairs:
        return exact
    name = form.split("[")[0]
    return next((p for p in pairs if p.split(" / ")[0].split("[")[0] == name
                 and p.split(" / ")[1] == solver), None)


@dataclass(frozen=True)
class Score:
    """One selector on one test set: PAR-2 sum and SGM (seconds), answered, answers lost."""

    par2_s: float
    sgm_s: float
    solved: int
    lost: int


@dataclass
class Test:
    """One puzzle x test set: the compared instances, the VBS and each selector's score."""

    puzzle: str
    test: str
    instances: int
    left_out: int
    vbs: Score
    scores: dict[str, Score] = field(default_factory=dict)
    feature_s: float = 0.0  # auto's feature cost summed over the compared instances
    not_run: int = 0  # tasks of the tier not run (ladder rule, cap), counted unsolved
    untimed: int = 0  # of left_out: an instance where a compared pair is untimed
    #: per selector: each compared instance's PAR-2 seconds (features' cost included)
    times: dict[str, pd.Series] = field(default_factory=dict)
    #: per selector: whether it answered each compared instance
    answered: dict[str, pd.Series] = field(default_factory=dict)


@dataclass
class Learned:
    """One puzzle's learned rules and what they were learned from."""

    puzzle: str
    training: int
    pairs: list[str]
    sbs: str
    default: str | None
    stump: Rule
    tree: Rule
    tests: list[Test] = field(default_factory=list)
    #: the training instances' features (instance x feature), as the rules were learned on
    features: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: instances of the test runs left out of every test set because they were trained on
    trained_out: int = 0
    #: further selectors judged beside the stump and the tree (name: rule)
    extra: dict[str, Rule] = field(default_factory=dict)
    #: what the training left out as untimed (:mod:`bench.select.untimed`)
    untimed: LeftOut = field(default_factory=LeftOut)


def _score(t: Test, key: str, par2: pd.DataFrame, ok: pd.DataFrame, pick: pd.Series,
           extra: pd.Series, guards: list[str]) -> None:
    """``t.scores[key]`` of the picks ``pick`` (instance: pair), and their per-instance
    times and answers in ``t.times`` and ``t.answered``."""
    times = pd.Series([par2.at[i, pick[i]] for i in par2.index], index=par2.index,
                      dtype=float) + extra
    ans = pd.Series([bool(ok.at[i, pick[i]]) for i in par2.index], index=par2.index,
                    dtype=bool)
    guard = ok[guards].any(axis=1) if guards else pd.Series(False, index=par2.index)
    t.scores[key] = Score(float(times.sum()), sgm(times), int(ans.sum()),
                          int((guard & ~ans).sum()))
    t.times[key], t.answered[key] = times, ans


def judge_set(puzzle: str, name: str, par2: pd.DataFrame, ok: pd.DataFrame,
              feats: pd.DataFrame, cost: pd.Series, rules: dict[str, Rule], train_sbs: str,
              default: str | None, portfolio: list[str] | None = None,
              untimed_at: pd.DataFrame | None = None) -> Test:
    """The selectors on one test matrix (see the module); the VBS over ``portfolio`` (the
    candidate pairs; every pair of the matrix when None), the declared default and every pair
    a selector picks on the set; an instance where one of those is untimed (``untimed_at``,
    :func:`bench.select.untimed.cells`) left out."""
    portfolio = list(par2.columns) if portfolio is None else portfolio
    picks = {k: pd.Series({i: choose(r, feats.loc[i].to_dict()).pair for i in par2.index},
                          dtype=object) for k, r in rules.items()}
    fixed = [p for p in (train_sbs, default) if p]
    need = [p for p in fixed if p in par2]
    # the portfolio: the pairs a selector may choose (a judged rule's picks among them, as a
    # committed rule learned with other candidates) and the declared default
    chosen = {p for pk in picks.values() for p in pk}
    cols = [c for c in par2.columns if c in portfolio or c in fixed or c in chosen]
    ran = par2.notna()
    gone = untimed.on(untimed_at, par2)[cols].any(axis=1)
    have = [i for i in par2.index
            if len(need) == len(fixed) and all(bool(ran.at[i, p]) for p in need) and not gone[i]
            and all(pk[i] in par2 and bool(ran.at[i, pk[i]]) for pk in picks.values())]
    p, o = par2.loc[have, cols], ok.loc[have, cols].fillna(0) > 0
    zero = pd.Series(0.0, index=have)
    c = cost.reindex(have).fillna(0.0)
    vbs = p.min(axis=1)
    t = Test(puzzle, name, len(have), len(par2) - len(have),
             Score(float(vbs.sum()), sgm(vbs), int(o.any(axis=1).sum()), 0),
             feature_s=float(c.sum()), untimed=int(gone.sum()))
    _score(t, "SBS", p, o, pd.Series(train_sbs, index=have), zero, fixed)
    if default:
        _score(t, "default", p, o, pd.Series(default, index=have), zero, fixed)
    for k, pk in picks.items():  # a rule of one pair reads no feature
        _score(t, k, p, o, pk.loc[have], c if rules[k].feature else zero, fixed)
    return t


def _rows(folder: Path) -> pd.DataFrame:
    """A run's rows with its folder (``run_folder``): prepared with other runs' rows, each
    row's instance file is looked for from its own run folder, as the report does."""
    run = load_run(folder)
    return run.df.assign(run_folder=str(run.folder))


def training_rows(training: list[Path], ladder: Path | list[Path]
                  ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Prepared rows of the training runs and of the ladder runs' ladder tier, prepared
    together so that an instance name is one instance across all of them
    (:func:`bench.report.data.prepare` gives a name held by files of different content their
    folder); a training row and a ladder row of one name are then the same file. Several
    ladder runs add pairs to the same ladder instances (a pair run apart on that tier)."""
    raw = [_rows(r).assign(_source="training") for r in training]
    raw += [_rows(r).assign(_source="ladder")
            for r in (ladder if isinstance(ladder, list) else [ladder])]
    both = prepare(pd.concat(raw, ignore_index=True))
    tr = both[both["_source"] == "training"].drop(columns="_source")
    la = both[(both["_source"] == "ladder") & (both["tier"] == "ladder")].drop(columns="_source")
    return tr, la


@functools.lru_cache(maxsize=2)
def training_digests(held_back: bool = True) -> frozenset[str]:
    """The content digests (the start of a task key) of the instances of the committed rules'
    (:mod:`bench.select.rules`) training: every instance of their training run and of their
    ladder run's :data:`TRAINED_TIERS`, less the seeds of :data:`HELD_BACK` without
    ``held_back`` (then: the instances they were learned on); empty, with a warning, when
    those runs are not at hand."""
    from bench.select.rules import LADDER, TRAINING
    from bench.suites import project_root

    try:
        tr, la = training_rows([project_root() / r for r in TRAINING],
                               [project_root() / r for r in LADDER])
    except (ReportError, OSError, ValueError) as e:
        log.warning("auto's training runs not read (%s): its training data not known", e)
        return frozenset()
    tr = tr if held_back else tr[~tr["instance"].map(seed_of).isin(HELD_BACK)]
    return _learned(pd.concat([tr, la]))


def _committed() -> list[Rule]:
    """The committed selectors' rules (:data:`bench.select.rules.SELECTORS`)."""
    from bench.select.rules import SELECTORS

    return [r for table in SELECTORS.values() for r in table.values()]


def learning_set(g: pd.DataFrame, lad: pd.DataFrame
                 ) -> tuple[pd.DataFrame, list[str], LeftOut]:
    """One puzzle's training matrix (PAR-2, instance x pair) of its training rows ``g`` with
    the seeds of :data:`HELD_BACK` left out, and its ladder rows ``lad``, less the instances
    where a candidate is untimed; the candidate pairs, judged on those rows only (a held-back
    instance decides nothing); and what was left out as untimed (:mod:`.untimed`).
    ValueError when an instance would be counted twice."""
    train_rows = g[~g["instance"].map(seed_of).isin(HELD_BACK)]
    parts = [m for m in (training_matrix(train_rows), training_matrix(lad)) if not m.empty]
    if not parts:
        return pd.DataFrame(), [], LeftOut()
    par2 = pd.concat(parts)
    twice = par2.index[par2.index.duplicated()]
    if len(twice):
        raise ValueError("instances both in the training run and the ladder tier: "
                         + ", ".join(sorted(map(str, set(twice)))))
    u = pd.concat([untimed.cells(train_rows), untimed.cells(lad)])
    pairs = candidates(pd.concat([train_rows, lad]), par2, u)
    kept, left = untimed.leave_out(par2, u, pairs)
    return kept, pairs, left


def _learned(t: pd.DataFrame) -> frozenset[str]:
    """The content digests of the instances of rows learned on (rows without one left out)."""
    return frozenset(d for d in content_digests(t) if d.startswith("sha256:"))


def test_sets(t: pd.DataFrame, trained: frozenset[str]) -> list[tuple[str, pd.DataFrame]]:
    """The test sets of one puzzle's rows of a test run: each of its :data:`TEST_TIERS`; a run
    with none of them (a suite without tiers, as ``nurikabe-hard``) is one set, ``suite``,
    of every row outside :data:`TRAINED_TIERS`. Rows of an instance in ``trained`` (content
    digests learned on) are left out of every set: a test set is held out."""
    tiered = bool(t["tier"].isin(TEST_TIERS).any())  # before the trained rows go
    t = t[~content_digests(t).isin(trained)]
    sets = [(tier, t[t["tier"] == tier]) for tier in TEST_TIERS]
    if not tiered:
        sets = [(SUITE, t[~t["tier"].isin(TRAINED_TIERS)])]
    return [(name, g) for name, g in sets if len(g)]


#: further selectors of one puzzle from its training matrix, features, candidate pairs, declared
#: default and training rows (as :func:`bench.select.robust.candidates`)
Extra = Callable[[str, pd.DataFrame, pd.DataFrame, list[str], "str | None", pd.DataFrame],
                 dict[str, Rule]]


def learn_and_judge(training: Path | list[Path], ladder: Path | list[Path],
                    tests: list[Path], extra: Extra | None = None) -> list[Learned]:
    """Per puzzle: rules learned on the training runs' unheld seeds and the ladder runs'
    ladder tier, judged on the held-back seeds and on each of ``tests``' test sets
    (:func:`test_sets`: its real and hard tiers, or the whole of a suite without tiers; an
    instance learned on is never judged); with ``extra``, the selectors it makes judged
    beside them (where one is a committed rule, the instances it was learned on,
    :func:`training_digests`, are judged by none)."""
    runs_in = training if isinstance(training, list) else [training]
    tr, la = training_rows(runs_in, ladder)
    runs = {p: prepare(load_run(p).df, p) for p in tests}
    out = []
    for puzzle, g in tr.groupby("puzzle", sort=True):
        held = g["instance"].map(seed_of).isin(HELD_BACK)
        lad = la[la["puzzle"] == puzzle]
        fr, cr = feature_costs(pd.concat([g, lad]))
        par2, pairs, left = learning_set(g, lad)
        trained = _learned(pd.concat([g[~held], lad]))
        if par2.empty or not pairs:
            continue
        par2 = par2[pairs]
        best = sbs(par2, pairs)
        st = stump(str(puzzle), par2, fr, pairs)
        tr2 = tree(str(puzzle), par2, fr, pairs)
        default = declared_pair(str(puzzle), pairs)
        more = extra(str(puzzle), par2, fr, pairs, default,
                     pd.concat([g[~held], lad])) if extra else {}
        rules = {"stump": st, "tree": tr2, **more}
        res = Learned(str(puzzle), len(par2), pairs, best, default, st, tr2,
                      features=fr.loc[par2.index], extra=more, untimed=left)
        if any(r in _committed() for r in more.values()):  # its training data is no test
            trained |= training_digests(held_back=False)
        hp, ho, gaps, hu = tier_matrix(g[held & ~content_digests(g).isin(trained)])
        if len(hp):
            res.tests.append(judge_set(str(puzzle), "held back (seeds "
                                       + ", ".join(map(str, sorted(HELD_BACK))) + ")",
                                       hp, ho, fr, cr, rules, best, default, pairs, hu))
            res.tests[-1].not_run = gaps
        for run, t in runs.items():
            gt = t[t["puzzle"] == puzzle]
            ft, ct = feature_costs(gt) if len(gt) else (fr, cr)
            sets = test_sets(gt, trained)
            res.trained_out += gt.loc[content_digests(gt).isin(trained), "instance"].nunique()
            for tier, rows in sets:
                tp, to, gaps, tu = tier_matrix(rows)
                if len(tp):
                    res.tests.append(judge_set(str(puzzle), f"{tier} ({run.name})", tp, to,
                                               ft, ct, rules, best, default, pairs, tu))
                    res.tests[-1].not_run = gaps
        out.append(res)
    return out


def verdict(res: Learned, selector: str = "stump") -> tuple[bool, str]:
    """Whether ``selector`` earns the declared default (see the module), and why not."""
    judged = [t for t in res.tests if t.test.split(" ")[0] in (*TEST_TIERS, SUITE)]
    if not judged:
        return False, "no real, hard or suite test set judged"
    why = []
    for t in judged:
        a = t.scores[selector]
        rivals = {k: t.scores[k] for k in ("SBS", "default") if k in t.scores}
        if res.default == res.sbs:
            rivals.pop("default", None)
        for k, s in rivals.items():
            if a.par2_s >= s.par2_s:
                why.append(f"{t.test}: PAR-2 {a.par2_s:.3f} s not below the {k}'s "
                           f"{s.par2_s:.3f} s")
        if a.lost:
            why.append(f"{t.test}: {a.lost} answers lost")
    return (not why), "; ".join(why) if why else "beats the SBS and the default everywhere"


def _r(a: float, b: float) -> str:
    return f"{a / b:.3f}" if b > 0 else "-"


def markdown(results: list[Learned]) -> str:
    """The rules, and per puzzle x test set the selectors' PAR-2 and SGM as ratios to the
    VBS, answers and answers lost. The declared default is a pair: a declared selector's
    fallback pair (:func:`declared_pair`)."""
    lines = ["| puzzle | training | single best (SBS) | declared default (pair) | stump | tree |",
             "|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r.puzzle} | {r.training} | {r.sbs} | {r.default} | {r.stump.body()} "
                     f"| {r.tree.body() if r.tree.depth() > r.stump.depth() else 'the stump'} |")
    lines += ["", "| puzzle | test | n | left out | VBS PAR-2 s | PAR-2 / VBS: SBS, default, "
              "stump, tree | SGM / VBS: SBS, default, stump, tree | solved VBS/SBS/default/"
              "stump/tree | lost stump/tree | features s | not run |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    keys = ("SBS", "default", "stump", "tree")
    for r in results:
        for t in r.tests:
            s = {k: t.scores.get(k) for k in keys}
            par = ", ".join(_r(v.par2_s, t.vbs.par2_s) if v else "-" for v in s.values())
            gm = ", ".join(_r(v.sgm_s, t.vbs.sgm_s) if v else "-" for v in s.values())
            sol = "/".join([str(t.vbs.solved)] + [str(v.solved) if v else "-"
                                                  for v in s.values()])
            lost = f"{t.scores['stump'].lost}/{t.scores['tree'].lost}"
            lines.append(f"| {r.puzzle} | {t.test} | {t.instances} | {t.left_out} | "
                         f"{t.vbs.par2_s:.3f} | {par} | {gm} | {sol} | {lost} | "
                         f"{t.feature_s:.4f} | {t.not_run} |")
    said = untimed.note([(f"{r.puzzle}, training", r.untimed, 0) for r in results]
                        + [(f"{r.puzzle}, {t.test}", LeftOut(), t.untimed)
                           for r in results for t in r.tests])
    return "\n".join([*lines, *(["", *said] if said else [])])


def judged(argv: list[str], prog: str, extra: Extra | None = None) -> list[Learned] | None:
    """:func:`learn_and_judge` on the arguments of ``python -m PROG TRAINING[,TRAINING...]
    LADDER[,LADDER...] TEST...`` (run names or folders); None, with one line on stderr, when
    they are too few, a run cannot be read or an instance file of a run cannot be read (its
    features are needed)."""
    from bench.instance import InstanceError
    from bench.select.learn import run_folder

    def folder(a: str) -> Path:
        return Path(a) if Path(a, "results.parquet").is_file() else run_folder(a)

    if len(argv) < 3:
        print(f"usage: python -m {prog} TRAINING[,TRAINING...] LADDER[,LADDER...] TEST...",
              file=sys.stderr)
        return None
    try:
        return learn_and_judge([folder(a) for a in argv[0].split(",")],
                               [folder(a) for a in argv[1].split(",")],
                               [folder(a) for a in argv[2:]], extra=extra)
    except (FileNotFoundError, ReportError, ValueError, InstanceError) as e:
        print(f"{prog}: {e}", file=sys.stderr)  # an instance file of a run: gone or unreadable
        return None


def main(argv: list[str]) -> int:
    """``python -m bench.select.train TRAINING[,TRAINING...] LADDER[,LADDER...] TEST...``
    (run names or folders)."""
    results = judged(argv, "bench.select.train")
    if results is None:
        return 2
    print(markdown(results))
    print()
    for r in results:
        for sel in ("stump", "tree"):
            ok, why = verdict(r, sel)
            print(f"{r.puzzle} {sel}: {'earns the default' if ok else 'keeps the default'}: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
