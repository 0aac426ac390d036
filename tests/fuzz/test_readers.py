"""Property-based fuzzing (hypothesis) of every reader: instance text, puzz.link URLs, janko
files, ``.sol`` files, journal lines. Each reader may only fail with its own one-line error,
never a traceback; the saved corpus (tests/fuzz/corpus/<reader>/) replays the inputs that once
failed, so they stay fixed.

More examples: ``HYPOTHESIS_PROFILE=long pytest tests/fuzz``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.convert.formats import ConversionError, instance_from_puzzlink, read_janko
from bench.instance import InstanceError, parse_instance, read_instance
from bench.puzzles import get_puzzle, puzzle_names
from bench.run.execute import known_solution
from bench.run.storage import Journal

CORPUS = Path(__file__).parent / "corpus"
settings.register_profile("default", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

PUZZLES = sorted(puzzle_names())
#: pieces an instance is made of, so random joins reach past the header check
PIECES = st.sampled_from([
    "puzzle: ", *PUZZLES, "\n", "\r\n", "\r", " ", "\t", ".", "1", "2", "3", "9", "12", "0",
    "-1", "#", "B", "W", "x", "\ufeff", "\f", "\u00a0", "\uff11", "\u0663", ":", "# c\n",
    "source: s\n", "\n\n", "\x00", "\u2028", "é",
])
INSTANCE_TEXT = st.one_of(
    st.lists(PIECES, max_size=40).map("".join),
    st.builds(lambda p, rows: f"puzzle: {p}\n\n" + "\n".join(rows) + "\n",
              st.sampled_from(PUZZLES),
              st.lists(st.lists(st.sampled_from([".", "1", "2", "3", "4", "B", "W", "#", "0"]),
                                min_size=1, max_size=6).map(" ".join), min_size=1,
                       max_size=6)),
    st.text(max_size=200),
)


def corpus(reader: str) -> list[Path]:
    return sorted((CORPUS / reader).glob("*"))


def check_instance_text(data: bytes | str) -> None:
    try:
        inst = parse_instance(data, "f.txt")
    except InstanceError as e:
        assert "\n" not in str(e) and str(e).startswith("f.txt")
        return
    assert inst.rows >= 1 and all(len(row) == inst.cols for row in inst.grid)
    # what was read renders and checks without an exception
    get_puzzle(inst.puzzle).render(inst)


@given(INSTANCE_TEXT)
def test_instance_text_fails_only_with_an_instance_error(text):
    check_instance_text(text)


@given(st.binary(max_size=200))
def test_instance_bytes_fail_only_with_an_instance_error(data):
    check_instance_text(data)


@pytest.mark.parametrize("path", corpus("instance"), ids=lambda p: p.name)
def test_instance_corpus(path):
    check_instance_text(path.read_bytes())
    with pytest.raises(InstanceError) if path.name.startswith("bad-") else _nothing():
        read_instance(path)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


URL = st.builds(
    lambda host, pid, flags, cols, rows, body: f"{host}{pid}/{flags}{cols}/{rows}/{body}",
    st.sampled_from(["https://puzz.link/p?", "http://pzv.jp/p.html?", "puzz.link/p?",
                     "https://example.com/p?", ""]),
    st.sampled_from([*PUZZLES, "sikaku", "nuribou", "yinyang", "x"]),
    st.sampled_from(["", "a/", "b/", "//"]),
    st.sampled_from(["0", "1", "3", "5", "-1", "999999", "a", ""]),
    st.sampled_from(["0", "1", "3", "5", "-2", "99999999", ""]),
    st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.-+_%&=/", max_size=40),
)


def check_url(url: str) -> None:
    try:
        inst = instance_from_puzzlink(url)
    except (ConversionError, InstanceError) as e:
        assert "\n" not in str(e)
        return
    assert inst.rows >= 1


@given(st.one_of(URL, st.text(max_size=80)))
def test_puzzlink_urls_fail_only_with_a_conversion_error(url):
    check_url(url)


@pytest.mark.parametrize("path", corpus("url"), ids=lambda p: p.name)
def test_url_corpus(path):
    for url in path.read_text().splitlines():
        check_url(url)


JANKO = st.builds(
    lambda puzzle, size, problem, solution, tail: (
        f"[setup]\npuzzle {puzzle}\n{size}\n[problem]\n{problem}\n{solution}{tail}"),
    st.sampled_from(["nurikabe", "sikaku", "Yin-Yang", "fillomino", "shakashaka", "x", ""]),
    st.sampled_from(["size 2", "size 3", "rows 2\ncols 3", "size 0", "size -1", "size 99999",
                     "rows 2", ""]),
    st.lists(st.lists(st.sampled_from(["-", "1", "2", "3", "x", "w", "b", "0", "nw", "a"]),
                      max_size=4).map(" ".join), max_size=4).map("\n".join),
    st.sampled_from(["", "[solution]\n", "[solution]\n- -\n- -\n", "[solution]\nx x\nx x\n",
                     "[solution]\nnw ne\nsw se\n", "[solution]\na b b\na b b\n"]),
    st.sampled_from(["", "[end]\n", "[problem]\n", "[setup]\n", "[moves]\nx\n[end]\n"]),
)


def check_janko(text: str) -> None:
    try:
        inst, sol = read_janko(text, "j.txt")
    except (InstanceError, ConversionError) as e:
        assert "\n" not in str(e)
        return
    assert inst.rows >= 1
    if sol is not None:
        assert get_puzzle(inst.puzzle).verify(inst, sol) == []


@given(st.one_of(JANKO, st.text(max_size=200)))
def test_janko_files_fail_only_with_an_instance_error(text):
    check_janko(text)


@pytest.mark.parametrize("path", corpus("janko"), ids=lambda p: p.name)
def test_janko_corpus(path):
    check_janko(path.read_text())


JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from([".", "#", "B", "W", ""])
    | st.floats(allow_nan=True),
    lambda inner: st.lists(inner, max_size=4), max_leaves=30)

SOL_INSTANCES = {p: parse_instance(t, f"{p}.txt") for p, t in {
    "shikaku": "puzzle: shikaku\n\n2 .\n2 .\n",
    "nurikabe": "puzzle: nurikabe\n\n1 .\n. .\n",
    "fillomino": "puzzle: fillomino\n\n. .\n. .\n",
    "yinyang": "puzzle: yinyang\n\n. .\n. .\n",
}.items() if p in PUZZLES}


def check_sol(tmp: Path, content: bytes) -> None:
    """A ``.sol`` beside an instance: read, then compared by the rules as a task does."""
    (tmp / "i.sol").write_bytes(content)
    known = known_solution(str(tmp / "i.txt"))
    if known is None:
        return
    for puzzle, inst in SOL_INSTANCES.items():
        rules = get_puzzle(puzzle)
        problems = rules.verify(inst, known)
        assert isinstance(problems, list)
        if not problems:
            rules.same(inst, known, known)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.one_of(JSON_VALUE.map(lambda v: json.dumps(v).encode()), st.binary(max_size=60)))
def test_sol_files_never_raise(tmp_path, content):
    check_sol(tmp_path, content)


@pytest.mark.parametrize("path", corpus("sol"), ids=lambda p: p.name)
def test_sol_corpus(tmp_path, path):
    check_sol(tmp_path, path.read_bytes())


JOURNAL_LINE = st.one_of(
    st.binary(max_size=80),
    JSON_VALUE.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(["key", "puzzle", "status", "grid", "x", "rows"]),
                    JSON_VALUE, max_size=6).map(lambda d: json.dumps(d).encode()),
)


def check_journal(tmp: Path, content: bytes) -> None:
    journal = Journal(tmp)
    journal.path.write_bytes(content)
    keys = journal.keys()
    assert all(isinstance(k, str) for k in keys)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(JOURNAL_LINE, max_size=5).map(b"\n".join))
def test_journal_lines_never_raise(tmp_path, content):
    check_journal(tmp_path, content)


@pytest.mark.parametrize("path", corpus("journal"), ids=lambda p: p.name)
def test_journal_corpus(tmp_path, path):
    check_journal(tmp_path, path.read_bytes())
