"""Every committed instance file reads and validates; every known solution passes the checker;
every suite resolves."""

from __future__ import annotations

import json

import pytest

from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.suites import load_suites
from tests.conftest import INSTANCES

FILES = sorted(INSTANCES.glob("*/**/*.txt"))  # generated families may sit in a subfolder


def puzzle_folder(path):
    """The puzzle an instance file belongs to: the first folder below instances/."""
    return path.relative_to(INSTANCES).parts[0]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(INSTANCES).with_suffix("")))
def test_instance_file_is_valid(path):
    inst = read_instance(path)
    assert inst.puzzle == puzzle_folder(path)
    assert inst.header.get("source"), "every instance says where it came from"
    sol = path.with_suffix(".sol")
    if sol.exists():
        assert get_puzzle(inst.puzzle).verify(inst, json.loads(sol.read_text())) == []


def test_every_generated_instance_has_its_solution():
    generated = [p for p in FILES if p.name.startswith("gen-")]
    assert generated
    assert [p for p in generated if not p.with_suffix(".sol").exists()] == []


def test_every_puzzle_has_instances_and_suites_resolve():
    assert {puzzle_folder(p) for p in FILES} == {"nurikabe", "shikaku", "yinyang", "shakashaka",
                                              "fillomino"}
    suites = load_suites()
    assert {"quick", "default", "scaling", "hard"} <= set(suites)
    for suite in suites.values():
        assert suite.instances()
    assert {read_instance(p).puzzle for p in suites["quick"].instances()} == {
        "nurikabe", "shikaku", "yinyang", "shakashaka", "fillomino"}
