"""Every result label a past run may hold still resolves, to a formulation with that label
(results stay comparable across the merge of sat-tree into sat-lazy and of cpsat-tree and
cpsat-lazy into one class), and the merged variants report laziness per variant."""

from __future__ import annotations

import pytest

from bench.registry import formulations, get_formulation
from bench.variants import variants

LABELS = {
    "nurikabe": [
        "sat-lazy[islands=lazy,wall=count]", "sat-lazy[islands=lazy,wall=pair]",
        "sat-lazy[islands=eager,wall=count]", "sat-lazy[islands=eager,wall=pair]", "sat-tree",
        "cpsat-tree", "cpsat-lazy", "mip-flow", "mip-lazy[cut=component]",
        "mip-lazy[cut=anchor]",
    ],
    "shikaku": [
        "mip-sugar[propagate=none]", "mip-sugar[propagate=root]", "cpsat-sugar", "mip-cover",
        "cpsat-cover",
        *(f"sat-cover[card={c}]" for c in
          ("seqcounter", "pairwise", "ladder", "bitwise", "totalizer", "cardnetwrk")),
    ],
}
CASES = [(p, label) for p, labels in LABELS.items() for label in labels]


@pytest.mark.parametrize(("puzzle", "label"), CASES)
def test_old_label_resolves_to_itself(puzzle: str, label: str) -> None:
    form = get_formulation(puzzle, label)
    assert form.label == label
    assert label in {v.label for cls in formulations(puzzle) for v in variants(cls)}


@pytest.mark.parametrize(("name", "label"), [
    ("sat-lazy", "sat-lazy[islands=lazy,wall=count]"),
    ("cpsat-islands", "cpsat-tree"),
    ("mip-lazy", "mip-lazy[cut=component]"),
])
def test_a_bare_class_name_gives_its_default_variant(name: str, label: str) -> None:
    assert get_formulation("nurikabe", name).label == label


@pytest.mark.parametrize(("label", "lazy"), [
    ("sat-tree", False), ("sat-lazy[islands=eager,wall=tree]", False),
    ("sat-lazy[islands=lazy,wall=tree]", True), ("sat-lazy", True),
    ("cpsat-tree", False), ("cpsat-lazy", True), ("mip-flow", False), ("mip-lazy", True),
])
def test_laziness_is_per_variant(label: str, lazy: bool) -> None:
    assert get_formulation("nurikabe", label).is_lazy() is lazy
