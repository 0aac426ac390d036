"""The learned ``auto`` rules, one per puzzle (:class:`bench.select.auto.Rule`), as
``python -m bench.select.train`` learned them from the committed runs named in each rule's
evidence (the page docs/results/2026-11-29-auto-training.md has the figures). A puzzle with no
rule here has no ``auto``.

:func:`resolve` is what ``solve --formulation auto`` (or ``--solver auto``) runs: the rule's
pair for an instance and why. It imports no solver and no pandas.
"""

from __future__ import annotations

from bench.puzzles.base import Instance
from bench.select import features
from bench.select.auto import Choice, Rule, choose

_EVIDENCE = "results/training-20261129 (seeds 901-904) and the ladder tier of " \
    "results/default-20261129-045741"

HYBRID = "sat-hybrid[wall=auto,islands=layers,enclose=3,card=rings] / cadical195"
FILLOMINO = "sat-regions[big=8,pieces=3] / cadical195"
SHAKASHAKA = "sat-local[card=seqcounter] / cadical195"
SHIKAKU = "cpsat-cover / cpsat"
YINYANG = "sat-lazy[implied=all] / cadical195"

RULES: dict[str, Rule] = {
    "fillomino": Rule("fillomino", FILLOMINO, FILLOMINO, evidence=_EVIDENCE),
    "nurikabe": Rule("nurikabe", HYBRID, HYBRID, evidence=_EVIDENCE),
    "shakashaka": Rule("shakashaka", SHAKASHAKA, SHAKASHAKA, evidence=_EVIDENCE),
    "shikaku": Rule("shikaku", SHIKAKU, SHIKAKU, evidence=_EVIDENCE),
    "yinyang": Rule("yinyang", YINYANG, YINYANG, evidence=_EVIDENCE),
}


def resolve(inst: Instance) -> tuple[str, str, Choice]:
    """The formulation and solver ``auto`` runs on a read instance, and the choice with its
    reason; KeyError when the puzzle has no rule."""
    rule = RULES.get(inst.puzzle)
    if rule is None:
        raise KeyError(f"no auto rule for {inst.puzzle} (rules: {', '.join(sorted(RULES))})")
    c = choose(rule, features.of_instance(inst) if rule.feature else {})
    form, solver = c.pair.rsplit(" / ", 1)
    return form, solver, c
