"""The robust-default verdict: may a per-instance selector replace a puzzle's declared default?

The strict verdict (:func:`bench.select.train.verdict`) asks whether a selector *beats* the
declared default and the training single best on PAR-2 sums. A default has another job: never
to time out where an exact pair of ours answers, and not to make the easy instances slower.
:func:`verdict` therefore lets a selector S replace the declared default D when, on every test
set :func:`bench.select.train.learn_and_judge` judged (the held-back seeds and every test run's
sets), over the instances where both have a value:

1. S loses no answer D gave;
2. S answers strictly more than D on at least one set;
3. S is not slower than D by more than :data:`MARGIN` (non-inferiority): with
   r_i = ln(PAR-2 of S / PAR-2 of D) per instance (S's features' cost included), the one-sided
   Wilcoxon signed-rank test (Wilcoxon 1945, *Biometrics Bulletin* 1: 80-83) of
   r - ln(1 + MARGIN) against the alternative "less" rejects at :data:`ALPHA`. A set where it
   does not reject is inconclusive, which is not earned. Every set must reject: an
   intersection-union test (Berger 1982, *Technometrics* 24: 295-300), of level ALPHA overall
   without a multiplicity correction.

:func:`candidates` makes the selectors judged beside the learned stump and tree: the committed
rule (:data:`bench.select.rules.RULES`), the rule learned with the candidates restricted to the
declared default and the exact pairs (their formulation variant's ``is_exact()`` in the
registry) that decline what they cannot take (``escape``), and the declared default with the
first of those declining exact pairs (in the order of the candidates) wherever that pair's own
acceptance test takes the instance (``accepts``; a formulation stating ``max_clues``, as
Nurikabe's ``frontier``; the other declining pairs get no such rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

from bench.report.data import declines
from bench.select.auto import Rule
from bench.select.learn import stump, tree
from bench.select.train import Learned

#: the largest slowdown of S against D (a ratio of per-instance PAR-2 less 1) still accepted
MARGIN = 0.10
#: the level of each set's one-sided test
ALPHA = 0.05
#: the least time a ratio is taken of (seconds)
TINY = 1e-6


@dataclass(frozen=True)
class Check:
    """One selector against the declared default on one test set."""

    test: str
    n: int
    solved: int  # by the selector
    solved_default: int
    lost: int  # answered by the default, not by the selector
    gm_ratio: float  # exp(mean r): the geometric mean of the per-instance PAR-2 ratios
    p: float  # the one-sided Wilcoxon p-value of H0: location of r >= ln(1 + MARGIN)

    @property
    def not_slower(self) -> bool:
        return self.p < ALPHA


def check(test: str, s: pd.Series, d: pd.Series, s_ok: pd.Series, d_ok: pd.Series) -> Check:
    """The selector's per-instance PAR-2 ``s`` and answers ``s_ok`` against the default's
    (``d``, ``d_ok``) on one set; p is 1 (inconclusive) for an empty set. A time of 0 counts
    as :data:`TINY` seconds (a ratio needs both sides positive)."""
    r = np.log(np.maximum(s.to_numpy(float), TINY) / np.maximum(d.to_numpy(float), TINY))
    shifted = r - math.log(1 + MARGIN)
    p = float(wilcoxon(shifted, alternative="less").pvalue) if len(r) else 1.0
    return Check(test, len(r), int(s_ok.sum()), int(d_ok.sum()), int((d_ok & ~s_ok).sum()),
                 float(np.exp(r.mean())) if len(r) else math.nan, p)


def checks(res: Learned, selector: str) -> list[Check]:
    """``selector`` against the declared default on every test set of a
    :class:`bench.select.train.Learned` (none when the puzzle has no declared default)."""
    out = []
    for t in res.tests:
        if "default" not in t.times or selector not in t.times:
            continue
        out.append(check(t.test, t.times[selector], t.times["default"], t.answered[selector],
                         t.answered["default"]))
    return out


def verdict(res: Learned, selector: str) -> tuple[bool, str]:
    """Whether ``selector`` earns the declared default as a robust default (see the module),
    and why not."""
    cs = checks(res, selector)
    if not cs:
        return False, "no test set with the declared default judged"
    why = [f"{c.test}: {c.lost} answers lost" for c in cs if c.lost]
    why += [f"{c.test}: not shown within {MARGIN:.0%} of the default's time (n = {c.n}, "
            f"ratio {c.gm_ratio:.3f}, p = {c.p:.3g}: inconclusive)"
            for c in cs if not c.not_slower]
    if not any(c.solved > c.solved_default for c in cs):
        why.append("answers no more than the default on any test set")
    if why:
        return False, "; ".join(why)
    return True, (f"loses no answer, answers more on {sum(c.solved > c.solved_default for c in cs)}"
                  f" of {len(cs)} sets, within {MARGIN:.0%} of the default's time on every set")


def candidates(puzzle: str, par2: pd.DataFrame, feats: pd.DataFrame, pairs: list[str],
               default: str | None, rows: pd.DataFrame) -> dict[str, Rule]:
    """The selectors judged for the robust default beside the learned stump and tree (see the
    module): ``committed``, and where the declared default is a candidate and some exact
    candidate (:func:`_is_exact`) declined a training instance, ``escape`` and (for the first
    such pair, where it states ``max_clues``) ``accepts``."""
    from bench.select.rules import RULES

    out: dict[str, Rule] = {}
    if puzzle in RULES:
        out["committed"] = RULES[puzzle]
    declined = declines(rows)
    esc = [p for p in pairs if p in declined.index and p != default and _is_exact(puzzle, p)]
    if default is None or default not in pairs or not esc:
        return out
    allowed = [default, *esc]
    st = stump(puzzle, par2[allowed], feats, allowed)
    tr = tree(puzzle, par2[allowed], feats, allowed)
    out["escape"] = tr if tr.depth() > st.depth() else st
    most = _max_clues(puzzle, esc[0])
    if most is not None:
        out["accepts"] = Rule(puzzle, esc[0], default, "clues", most + 0.5, evidence=(
            f"{esc[0]} where it takes the instance (at most {most} clues), else {default}"))
    return out


def _is_exact(puzzle: str, pair: str) -> bool:
    """Whether the formulation variant of ``pair`` is exact (its ``is_exact()`` in the registry;
    a label the registry does not know is not)."""
    from bench.registry import get_formulation

    try:
        return get_formulation(puzzle, pair.split(" / ")[0]).is_exact()
    except (KeyError, ValueError):
        return False


def _max_clues(puzzle: str, pair: str) -> int | None:
    """The ``max_clues`` a pair's formulation declares, None when it declares none."""
    from bench.registry import find_formulation, parse_label

    try:
        cls = find_formulation(puzzle, parse_label(pair.split(" / ")[0])[0])
    except (KeyError, ValueError):
        return None
    most = getattr(cls, "max_clues", None)
    return int(most) if isinstance(most, int) else None


def markdown(results: list[Learned]) -> str:
    """Per puzzle x selector x test set: answers of the selector and the default, answers
    lost, the geometric mean PAR-2 ratio, the one-sided p and whether the set passes."""
    lines = ["| puzzle | selector | rule | test | n | solved S/D | lost | PAR-2 ratio S/D (GM) "
             f"| p (H0: ratio >= {1 + MARGIN:g}) | set passes |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        for sel, rule in r.extra.items():
            for c in checks(r, sel):
                ok = c.lost == 0 and c.not_slower
                lines.append(f"| {r.puzzle} | {sel} | {rule.body()} | {c.test} | {c.n} | "
                             f"{c.solved}/{c.solved_default} | {c.lost} | {c.gm_ratio:.3f} | "
                             f"{c.p:.3g} | {'yes' if ok else 'no'} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``python -m bench.select.robust TRAINING[,TRAINING...] LADDER[,LADDER...] TEST...``: what
    ``python -m bench.select.train`` prints (the same rules, test sets and strict verdicts),
    then every selector of :func:`candidates` on every test set, and both verdicts of each."""
    from bench.select import train

    results = train.judged(argv, "bench.select.robust", extra=candidates)
    if results is None:
        return 2
    print(train.markdown(results), markdown(results), sep="\n\n", end="\n\n")
    for r in results:
        for sel in ("stump", "tree", *r.extra):
            ok, why = train.verdict(r, sel)
            print(f"{r.puzzle} {sel} (strict, beats): "
                  f"{'earns the default' if ok else 'keeps the default'}: {why}")
        for sel in r.extra:
            ok, why = verdict(r, sel)
            print(f"{r.puzzle} {sel} (robust default): "
                  f"{'earns the default' if ok else 'keeps the default'}: {why}")
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
