"""The few-clue kind of the Nurikabe generator (parameter ``cover``,
:mod:`bench.puzzles.nurikabe.generate.few`): its settings, the rule that accepts a puzzle, and the
committed family (``instances/nurikabe/few/``)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bench.generate import GenerationError, get_generator
from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.puzzles.nurikabe.generate import NurikabeGenerator, few
from tests.conftest import INSTANCES
from tests.generate.test_nurikabe_generator import regenerates, unique_by_a_second_formulation

FEW = INSTANCES / "nurikabe" / "few"  # the committed family made with --param cover=P


def few_generator(cover: int) -> NurikabeGenerator:
    gen = get_generator("nurikabe").with_params({"cover": cover})
    assert isinstance(gen, NurikabeGenerator)
    return gen


def test_few_clue_settings_apply_to_a_copy_only() -> None:
    gen = few_generator(70)
    copy = few.few_clue(gen)
    assert copy is not gen and copy.cover == 70
    assert (copy.black_share, copy.max_island) == (few.SETTINGS["black_share"], 60)
    assert gen.black_share == NurikabeGenerator.black_share  # the generator itself unchanged
    # islands up to 60 cells on a 10x10, where the usual cap is one cell in ten (9)
    assert copy.cap(10, 10) == 60 and NurikabeGenerator().cap(10, 10) == 10
    # the checks and the final count: the formulation with eager islands, not sat-lazy
    assert gen.uniqueness_formulation() == copy.uniqueness_formulation() == few.FORMULATION
    assert few.FORMULATION == "sat-hybrid"
    assert NurikabeGenerator().uniqueness_formulation() == "sat-lazy"


def test_big_with_cover_and_a_cover_above_100_are_clear_errors() -> None:
    gen = get_generator("nurikabe").with_params({"cover": 70, "big": 1})
    with pytest.raises(GenerationError, match="big and cover are two kinds"):
        gen.generate_solved(10, 10, random.Random(1))
    with pytest.raises(GenerationError, match=r"bad parameter cover=101: a percentage"):
        few_generator(101).generate_solved(10, 10, random.Random(1))


@pytest.mark.parametrize(("white", "clues", "kept"), [
    (70, 6, True),  # 70 % white, 6 clues on 100 cells (at most one per 15: 6)
    (69, 6, False),  # 69 % white: short of cover=70
    (80, 7, False),  # 7 clues: more than one per 15 cells
])
def test_a_puzzle_of_the_kind_covers_the_grid_with_few_clues(white: int, clues: int,
                                                             kept: bool) -> None:
    assert few.covered(100, white, clues, 70) is kept


@pytest.mark.parametrize("path", sorted(FEW.glob("*.txt")), ids=lambda p: p.stem)
def test_committed_few_clue_family_covers_its_grid_with_few_clues(path: Path) -> None:
    """Islands on at least P % of the grid (P from the file name), at most one clue per 15
    cells, and the .sol a solution."""
    inst = read_instance(path)
    clues = [int(v) for _, _, v in inst.clues()]
    cover = int(re.search(r"-cover(\d+)-", path.name)[1])  # type: ignore[index]
    assert few.covered(inst.cells, sum(clues), len(clues), cover)
    sol = json.loads(path.with_suffix(".sol").read_text())
    assert get_puzzle("nurikabe").verify(inst, sol) == []


def test_the_committed_family_is_there() -> None:
    assert len(sorted(FEW.glob("*.txt"))) >= 5


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(FEW.glob("*.txt")), ids=lambda p: p.stem)
def test_committed_few_clue_family_is_unique_by_a_second_formulation(path: Path) -> None:
    """Counted to 2 by other island constraints on another solver than the generator's
    (``islands=owner`` on Glucose, not ``islands=layers`` on CaDiCaL)."""
    assert unique_by_a_second_formulation(path)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(FEW.glob("*.txt")), ids=lambda p: p.stem)
def test_committed_few_clue_family_regenerates_from_its_seed(path: Path,
                                                            tmp_path: Path) -> None:
    """The command in the ``source`` header writes the same files again, byte for byte."""
    regenerates(path, tmp_path)
