"""The ``auto`` rule: per puzzle, a formulation x solver pair chosen from an instance's cheap
features (:mod:`bench.select.features`) by a small decision tree: one threshold on one feature
(a decision stump), a threshold under each branch of that (depth 2), or one pair for every
instance when no threshold earned its place on the training data.

A rule is small data (:class:`Rule`) learned by :mod:`bench.select.learn` from runs'
performance matrices; the learned rules are :data:`bench.select.rules.RULES`. :func:`choose`
applies a rule and says why: each feature's value and the branch taken. It needs no pandas
and no solver, so a solve can afford it. It only ever names pairs that were exact in the runs
it was learned from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

#: a branch of a rule: a pair ("formulation / solver") or a further split
Branch = Union[str, "Rule"]


@dataclass(frozen=True)
class Rule:
    """``low`` when ``feature`` <= ``threshold``, else ``high``; each branch a pair or a
    further rule. A constant rule has no feature (``low`` == ``high``, a pair). ``evidence``
    says what it was learned from."""

    puzzle: str
    low: Branch
    high: Branch
    feature: str = ""
    threshold: float = 0.0
    evidence: str = ""

    def text(self) -> str:
        if not self.feature:
            return f"{self.puzzle}: always {_text(self.low)}"
        return f"{self.puzzle}: {self.body()}"

    def body(self) -> str:
        """The rule without the puzzle's name."""
        if not self.feature:
            return f"always {_text(self.low)}"
        return f"{_text(self.low)} if {self.feature} <= {self.threshold:g}, else {_text(self.high)}"

    def pairs(self) -> set[str]:
        """Every pair the rule can choose."""
        return {p for b in (self.low, self.high)
                for p in (b.pairs() if isinstance(b, Rule) else {b})}

    def depth(self) -> int:
        """Splits on the longest path (0: one pair always)."""
        if not self.feature:
            return 0
        return 1 + max(b.depth() if isinstance(b, Rule) else 0 for b in (self.low, self.high))


def _text(b: Branch) -> str:
    return f"({b.body()})" if isinstance(b, Rule) else b


@dataclass(frozen=True)
class Choice:
    """The pair ``auto`` chose for an instance and why."""

    pair: str
    why: str


def choose(rule: Rule, features: dict[str, float]) -> Choice:
    """The rule's pair for an instance's features, with each branch taken and the value that
    decided it."""
    if not rule.feature:
        return Choice(str(rule.low), f"one pair for every {rule.puzzle} instance ({rule.low})")
    why: list[str] = []
    node: Branch = rule
    while isinstance(node, Rule) and node.feature:
        v = features[node.feature]
        if v <= node.threshold:
            why.append(f"{node.feature} = {v:g} <= {node.threshold:g}")
            node = node.low
        else:
            why.append(f"{node.feature} = {v:g} > {node.threshold:g}")
            node = node.high
    pair = str(node.low) if isinstance(node, Rule) else node
    return Choice(pair, ", ".join(why) + f": {pair}")
