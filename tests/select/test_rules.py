"""The committed ``auto`` rules are the ones the committed runs teach: learning again on
results/training-20261129 and the default run's ladder tier gives the same tree or stump per
puzzle (the tree where it earned its place, else the stump)."""

from __future__ import annotations

from bench.select import train
from bench.select.auto import Branch, Rule
from bench.select.rules import LADDER, RULES, TRAINING
from tests.conftest import ROOT


def _shape(b: Branch) -> object:
    if isinstance(b, Rule):
        return (b.feature, round(b.threshold, 9), _shape(b.low), _shape(b.high))
    return b


def test_the_committed_rules_are_the_learned_ones() -> None:
    learned = train.learn_and_judge(ROOT / TRAINING, ROOT / LADDER, [])
    assert {r.puzzle for r in learned} == set(RULES)
    for r in learned:
        best = r.tree if r.tree.depth() > r.stump.depth() else r.stump
        assert _shape(RULES[r.puzzle]) == _shape(best), r.puzzle
    # the learning leaves the held-back seeds out: fewer training instances than instances
    nurikabe = next(r for r in learned if r.puzzle == "nurikabe")
    assert nurikabe.training == 55 and nurikabe.tree.depth() == 2
