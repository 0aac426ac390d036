"""The learned ``auto`` rules, one per puzzle (:class:`bench.select.auto.Rule`): the depth-2
tree where it saved 5 % of the stump's training PAR-2 sum (Nurikabe), else the stump, as
``python -m bench.select.train`` learns them from the committed runs :data:`TRAINING` and
:data:`LADDER` (tests/select/test_rules.py checks that they still do; the pages
docs/results/2026-11-29-auto-training.md and docs/results/2026-11-30-auto-frontier.md have
the figures). A puzzle with no rule here has no ``auto``. No puzzle's declared default is
``auto``: none beats its single best pair on every judged test set (on the default runs'
hard tier none is below it). Nurikabe's declared default is ``robust`` (below).

:data:`ROBUST` holds the ``robust`` selector of a puzzle: its declared pair with an escape to an
exact pair where that pair is known to answer what the declared one loses, learned the same way
with the candidates restricted to those two (:func:`bench.select.robust.candidates`,
``escape``) and kept here only where it earned the robust-default verdict
(:func:`bench.select.robust.verdict`; docs/results/2026-11-30-robust-default.md).
:data:`SELECTORS` names both; a puzzle's declared default may name a selector
(``Default("robust", "robust")``), and :data:`FALLBACK` is then the pair that runs where the
selector's pick declines the instance.

:func:`resolve` is what ``solve --formulation auto`` (or ``--solver auto``, or ``robust``) runs:
the selector's pair for an instance and why. It imports no solver and no pandas.

Each rule carries its support (:attr:`bench.select.auto.Rule.support`, as the learning gives
it): the training range of the grid's shape and of each feature it reads. Outside it the rule
still chooses, and the reason says which feature lies outside (an extrapolation).
"""

from __future__ import annotations

from dataclasses import replace

from bench.puzzles.base import Instance
from bench.select import features
from bench.select.auto import Choice, Rule, Support, choose

#: the committed runs the rules were learned from
TRAINING = ("results/training-20261129", "results/training-20261130")
#: the runs whose ladder tier is learned on too (the second: ``frontier`` on the same tier)
LADDER = ("results/default-20261129-045741", "results/frontier-default-20261129")
_FROM = (f"{' + '.join(TRAINING)} (generator seeds 905-906 held back) and the ladder tier of "
         f"{' + '.join(LADDER)}")


def _square(least: float, largest: float, aspect: float = 1.0) -> Support:
    """The support in shape of training grids of ``least`` to ``largest`` rows and columns
    and aspects up to ``aspect``."""
    return (("rows", least, largest), ("cols", least, largest), ("aspect", 1.0, aspect))


#: the training range of Nurikabe's clue density and mean clue (the learned rules' support)
_NURIKABE_DENSITY = ("clue_density", 0.01818181818181818, 0.20918367346938777)
_NURIKABE_MEAN = ("number_mean", 1.8780487804878048, 41.5)
_NURIKABE_SHAPE = _square(7.0, 28.0, 1.3333333333333333)

HYBRID = "sat-hybrid[wall=auto,islands=layers,enclose=3,card=rings] / cadical195"
REACH = "asp-reach[wall=reach] / clingo"
FRONTIER = "frontier / external"
FILLOMINO = "sat-regions[big=8,pieces=3] / cadical195"
SHAKASHAKA = "sat-local[card=seqcounter] / cadical195"
SHIKAKU_CPSAT = "cpsat-cover / cpsat"
SHIKAKU_SAT = "sat-cover[card=seqcounter] / cadical195"
YINYANG = "sat-lazy[implied=all] / cadical195"

#: Nurikabe's clue-density stump: ``frontier`` below the density, else ``sat-hybrid``; the
#: tree's large-mean branch (:data:`RULES`) and, with its own evidence, the ``robust`` selector
#: (:data:`ROBUST`)
NURIKABE_DENSITY = Rule("nurikabe", FRONTIER, HYBRID, "clue_density", 0.03851851851851852)

RULES: dict[str, Rule] = {
    "fillomino": Rule("fillomino", FILLOMINO, FILLOMINO, evidence=(
        f"{_FROM}: 34 training instances; no threshold saved 5% of the single best's PAR-2 "
        "sum 4.709 s"), support=_square(6.0, 14.0)),
    # depth 2: by the mean clue, then small means by the height and large ones (few clues on
    # most of the grid) by the clue density
    "nurikabe": Rule(
        "nurikabe",
        Rule("nurikabe", REACH, HYBRID, "rows", 17.0),
        NURIKABE_DENSITY,
        "number_mean", 11.8, evidence=(
            f"{_FROM}: 67 training instances: PAR-2 sum 30.291 s against 40.358 s for the "
            "stump and 81.756 s for the single best sat-hybrid"),
        support=(*_NURIKABE_SHAPE, _NURIKABE_DENSITY, _NURIKABE_MEAN)),
    "shakashaka": Rule("shakashaka", SHAKASHAKA, SHAKASHAKA, evidence=(
        f"{_FROM}: 28 training instances; no threshold saved 5% of the single best's PAR-2 "
        "sum 1.127 s"), support=_square(6.0, 28.0)),
    "shikaku": Rule("shikaku", SHIKAKU_SAT, SHIKAKU_CPSAT, "rows", 18.5, evidence=(
        f"{_FROM}: 32 training instances: PAR-2 sum 1.485 s against 1.671 s for the single "
        "best cpsat-cover / cpsat"), support=_square(8.0, 40.0, 1.3888888888888888)),
    "yinyang": Rule("yinyang", YINYANG, YINYANG, evidence=(
        f"{_FROM}: 34 training instances; no threshold saved 5% of the single best's PAR-2 "
        "sum 0.736 s"), support=_square(6.0, 25.0)),
}


#: the ``robust`` selectors (see the module): the declared pair, with an escape to an exact pair
ROBUST: dict[str, Rule] = {
    "nurikabe": replace(NURIKABE_DENSITY, evidence=(
        f"{_FROM}, the candidates restricted to {HYBRID} and {FRONTIER}: 67 training "
        f"instances: PAR-2 sum 40.358 s against 81.756 s for the single best {HYBRID}; it "
        "earned the robust-default verdict on the held-back seeds, the real and hard tiers "
        "of results/default-20261129-045741 and -043634 and results/nurikabe-hard-20261130"),
        support=(*_NURIKABE_SHAPE, _NURIKABE_DENSITY)),
}
#: the pair a puzzle runs where its selector's pick declines the instance and its declared
#: default is a selector (the pair the selector's escape leaves)
FALLBACK: dict[str, str] = {"nurikabe": HYBRID}
#: the selectors by the name ``solve`` takes in place of a formulation or solver
SELECTORS: dict[str, dict[str, Rule]] = {"auto": RULES, "robust": ROBUST}


def is_selector(name: str | None) -> bool:
    """Whether a formulation or solver name given to ``solve`` names a selector."""
    return name in SELECTORS


def resolve(inst: Instance, selector: str = "auto") -> tuple[str, str, Choice]:
    """The formulation and solver the selector ``selector`` (:data:`SELECTORS`) runs on a read
    instance, and the choice with its reason; KeyError when the puzzle has no rule of that
    selector, ValueError when its rule reads a feature the instance's features lack (each with
    a one-line message)."""
    rule = SELECTORS[selector].get(inst.puzzle)
    if rule is None:
        have = sorted(SELECTORS[selector])
        raise KeyError(f"no {selector} rule for {inst.puzzle} (rules: {', '.join(have)})")
    feats = features.of_instance(inst) if rule.feature else features.shape(inst)
    try:
        c = choose(rule, feats)
    except KeyError as e:
        raise ValueError(f"the {selector} rule of {inst.puzzle} reads the feature "
                         f"{e.args[0]!r}, which is not one of the instance's features "
                         f"({', '.join(sorted(feats))})") from None
    form, solver = c.pair.rsplit(" / ", 1)
    return form, solver, c
