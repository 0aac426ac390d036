"""The committed ``auto`` rules are the ones the committed runs teach: learning again on
the training runs and the ladder runs' ladder tier (:data:`bench.select.rules.TRAINING`,
:data:`~bench.select.rules.LADDER`) gives the same tree or stump, with the same support, per
puzzle (the tree where it earned its place, else the stump), each training instance once and
with the features of its own file."""

from __future__ import annotations

from bench.instance import read_instance
from bench.select import features, train
from bench.select.auto import Branch, Rule
from bench.select.rules import LADDER, RULES, TRAINING
from tests.conftest import ROOT


def _shape(b: Branch) -> object:
    if isinstance(b, Rule):
        return (b.feature, round(b.threshold, 9), _shape(b.low), _shape(b.high))
    return b


def _support(r: Rule) -> object:
    return tuple((n, round(lo, 9), round(hi, 9)) for n, lo, hi in r.support)


def test_the_committed_rules_are_the_learned_ones() -> None:
    learned = train.learn_and_judge([ROOT / r for r in TRAINING], [ROOT / r for r in LADDER], [])
    assert {r.puzzle for r in learned} == set(RULES)
    for r in learned:
        best = r.tree if r.tree.depth() > r.stump.depth() else r.stump
        assert _shape(RULES[r.puzzle]) == _shape(best), r.puzzle
        assert best.evidence in RULES[r.puzzle].evidence, r.puzzle
        assert _support(RULES[r.puzzle]) == _support(best), r.puzzle
    # the learning leaves the held-back seeds out: fewer training instances than instances
    nurikabe = next(r for r in learned if r.puzzle == "nurikabe")
    assert nurikabe.training == 67 and nurikabe.tree.depth() == 2
    # frontier, which declines more than three clues, is a candidate and the rule's choice
    # for few clues on most of the grid
    assert "frontier / external" in nurikabe.pairs
    assert "frontier / external" in RULES["nurikabe"].pairs()


def test_the_two_clue_10x10s_held_out_of_training_resolve_to_frontier() -> None:
    from bench.select.rules import resolve

    for f in sorted((ROOT / "instances/nurikabe/two").glob("*-10x10-*.txt")):
        form, solver, why = resolve(read_instance(f))
        assert (form, solver) == ("frontier", "external"), (f.name, why.why)
    # a real-like many-clue grid keeps sat-hybrid
    sparse = ROOT / "instances/nurikabe/sparse/gen-nurikabe-50x50-s1-0.txt"
    form, _, _ = resolve(read_instance(sparse))
    assert form.startswith("sat-hybrid")


def test_a_name_in_both_the_training_run_and_the_ladder_is_two_instances_with_own_features(
        ) -> None:
    """gen-nurikabe-14x14-s1-0 is a sparse training file and a different ladder file: each is
    a training instance of its own, with the features of its own file."""
    learned = train.learn_and_judge([ROOT / r for r in TRAINING], [ROOT / r for r in LADDER], [])
    nurikabe = next(r for r in learned if r.puzzle == "nurikabe")
    f = nurikabe.features
    assert f.index.is_unique and len(f) == nurikabe.training
    sparse = f.loc["gen-nurikabe-14x14-s1-0 (sparse)"]
    ladder = f.loc["gen-nurikabe-14x14-s1-0 (nurikabe)"]
    own = features.of_instance(read_instance(
        ROOT / "instances/nurikabe/sparse/gen-nurikabe-14x14-s1-0.txt"))
    assert sparse["clues"] == own["clues"] == 22
    assert abs(sparse["number_mean"] - own["number_mean"]) < 1e-9
    assert ladder["clues"] != sparse["clues"]


def test_the_robust_rules_are_the_learned_escape_rules() -> None:
    """Each :data:`~bench.select.rules.ROBUST` rule is the one learned with the candidates
    restricted to the declared default and the pairs that decline some training instance
    (:func:`bench.select.robust.candidates`, ``escape``), with its evidence; and it only ever
    chooses those pairs."""
    from bench.select import robust
    from bench.select.rules import FALLBACK, ROBUST

    learned = train.learn_and_judge([ROOT / r for r in TRAINING], [ROOT / r for r in LADDER], [],
                                    extra=robust.candidates)
    for r in learned:
        if r.puzzle not in ROBUST:
            continue
        esc = r.extra["escape"]
        assert _shape(ROBUST[r.puzzle]) == _shape(esc), r.puzzle
        assert esc.evidence in ROBUST[r.puzzle].evidence, r.puzzle
        assert _support(ROBUST[r.puzzle]) == _support(esc), r.puzzle
        assert FALLBACK[r.puzzle] == r.default and FALLBACK[r.puzzle] in esc.pairs()
    assert ROBUST["nurikabe"].pairs() == {FALLBACK["nurikabe"], "frontier / external"}
