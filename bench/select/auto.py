"""The ``auto`` rule: per puzzle, a formulation x solver pair chosen from an instance's cheap
features (:mod:`bench.select.features`) by one threshold on one feature (a decision stump),
or one pair for every instance when no threshold earned its place on the training data.

A rule is small data (:class:`Rule`) learned by :func:`bench.select.learn.stump` from a run's
performance matrix; :func:`choose` applies it and says why: the feature's value and the
branch taken. It needs no pandas and no solver, so a solve can afford it. It only ever names
pairs that were exact in the runs it was learned from.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """``low`` when ``feature`` <= ``threshold``, else ``high``; a constant rule has no
    feature (``low`` == ``high``). ``evidence`` says what it was learned from."""

    puzzle: str
    low: str
    high: str
    feature: str = ""
    threshold: float = 0.0
    evidence: str = ""

    def text(self) -> str:
        if not self.feature:
            return f"{self.puzzle}: always {self.low}"
        return (f"{self.puzzle}: {self.low} if {self.feature} <= {self.threshold:g}, "
                f"else {self.high}")


@dataclass(frozen=True)
class Choice:
    """The pair ``auto`` chose for an instance and why."""

    pair: str
    why: str


def choose(rule: Rule, features: dict[str, float]) -> Choice:
    """The rule's pair for an instance's features, with the branch taken and the value that
    decided it."""
    if not rule.feature:
        return Choice(rule.low, f"one pair for every {rule.puzzle} instance ({rule.low})")
    v = features[rule.feature]
    if v <= rule.threshold:
        return Choice(rule.low, f"{rule.feature} = {v:g} <= {rule.threshold:g}: {rule.low}")
    return Choice(rule.high, f"{rule.feature} = {v:g} > {rule.threshold:g}: {rule.high}")
