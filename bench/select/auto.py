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
#: the features of the grid's shape whose training range a learned rule records, whether or not
#: it reads them (a transposed grid is the same puzzle, and a rule may read only one side)
SHAPE = ("rows", "cols", "aspect")
#: a rule's support: ``(feature, least, largest)`` over its training instances
Support = tuple[tuple[str, float, float], ...]


@dataclass(frozen=True)
class Rule:
    """``low`` when ``feature`` <= ``threshold``, else ``high``; each branch a pair or a
    further rule. A constant rule has no feature (``low`` == ``high``, a pair). ``evidence``
    says what it was learned from; ``support`` is ``(feature, least, largest)`` over the
    training instances for each of :data:`SHAPE` and each feature the rule reads (empty: not
    recorded, nothing is said of the range)."""

    puzzle: str
    low: Branch
    high: Branch
    feature: str = ""
    threshold: float = 0.0
    evidence: str = ""
    support: Support = ()

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

    def reads(self) -> set[str]:
        """Every feature a split of the rule reads."""
        if not self.feature:
            return set()
        return {self.feature}.union(*(b.reads() for b in (self.low, self.high)
                                      if isinstance(b, Rule)))

    def depth(self) -> int:
        """Splits on the longest path (0: one pair always)."""
        if not self.feature:
            return 0
        return 1 + max(b.depth() if isinstance(b, Rule) else 0 for b in (self.low, self.high))


def _text(b: Branch) -> str:
    return f"({b.body()})" if isinstance(b, Rule) else b


@dataclass(frozen=True)
class Choice:
    """The pair ``auto`` chose for an instance and why; ``outside``: each feature of the
    rule's support the instance lies outside of (the rule extrapolates there)."""

    pair: str
    why: str
    outside: tuple[str, ...] = ()


def outside(rule: Rule, features: dict[str, float]) -> list[tuple[str, str]]:
    """Each feature of the rule's support (:attr:`Rule.support`) whose value in ``features``
    lies outside its training range, with what to say of it (``rows = 50 > 28``); a feature
    absent from ``features`` is not judged."""
    out = []
    for name, least, largest in rule.support:
        v = features.get(name)
        if v is not None and v < least:
            out.append((name, f"{name} = {v:g} < {least:g}"))
        elif v is not None and v > largest:
            out.append((name, f"{name} = {v:g} > {largest:g}"))
    return out


def choose(rule: Rule, features: dict[str, float]) -> Choice:
    """The rule's pair for an instance's features, with each branch taken and the value that
    decided it, and each feature outside the rule's training range (:func:`outside`)."""
    far = outside(rule, features)
    note = ("; outside the training range: " + ", ".join(t for _, t in far)) if far else ""
    names = tuple(n for n, _ in far)
    if not rule.feature:
        return Choice(str(rule.low),
                      f"one pair for every {rule.puzzle} instance ({rule.low}){note}", names)
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
    return Choice(pair, ", ".join(why) + f": {pair}{note}", names)
