"""The formulation guides' examples keep run data where the project does: a run folder under
``results/`` (``reports/`` for reports), never a folder of its own; the guide's advice to copy a
formulation says to give the copy its own ``name``."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from tests.docs._blocks import commands

GUIDES = [ROOT / "docs" / "writing-a-formulation.md", ROOT / "docs" / "adding-a-puzzle.md"]


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_run_folders_in_the_guides_are_under_results(guide):
    outside = []
    for command in commands(guide):
        argv = command.argv()
        folders = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--out"
                   and argv[1] == "run"]
        if argv[1] == "report":
            folders += [a for a in argv[2:] if not a.startswith("-")][:1]
        outside += [command.where() for f in folders if not f.startswith("results/")]
    assert outside == []


def test_the_guide_says_a_copied_formulation_needs_its_own_name():
    """Copying a formulation in place of the template: the guide says to change the class's
    ``name`` (and why), as the registry refuses the original's name beside the original."""
    from bench import registry

    text = " ".join((ROOT / "docs" / "writing-a-formulation.md").read_text().split())
    copy = text[text.index("in place of the template"):][:700]
    assert "change `name`" in copy and "registered twice" in copy, copy
    original = type(registry.get_formulation("shikaku", "sat-cover"))
    copied = type("Copied", (original,), {})
    with pytest.raises(ValueError, match="shikaku/sat-cover registered twice"):
        registry.formulation(copied)
