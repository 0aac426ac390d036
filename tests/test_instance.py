from __future__ import annotations

import pytest

from bench.instance import InstanceError, format_instance, parse_instance, read_instance
from tests.conftest import SHIKAKU_SEEDS, assert_malformed


def test_reads_seed_with_header_and_multidigit_clues():
    inst = read_instance(SHIKAKU_SEEDS[1])  # 36x20
    assert (inst.puzzle, inst.rows, inst.cols) == ("shikaku", 20, 36)
    assert inst.header["source"].startswith("003_")
    assert inst.grid[0][13] == 12
    assert sum(v for _, _, v in inst.clues()) == 720


def test_round_trip_through_format():
    inst = read_instance(SHIKAKU_SEEDS[0])
    again = parse_instance(format_instance(inst), inst.path)
    assert again.grid == inst.grid and again.header == inst.header


def test_header_comments_are_ignored():
    inst = parse_instance("# a comment\npuzzle: shikaku\n\n2 .\n")
    assert inst.grid == ((2, None),)


@pytest.mark.parametrize(
    ("content", "line", "needle"),
    [
        ("puzzle: sudoku\n\n1 2\n", 1, "unknown puzzle 'sudoku'"),
        ("source: x\n\n1 2\n", 1, "missing 'puzzle:'"),
        ("puzzle: shikaku\n\n2 .\n. . .\n", 4, "ragged grid"),
        ("puzzle: shikaku\n\n2 x\n. .\n", 3, "illegal token 'x'"),
        ("puzzle: shikaku\n\n2 0\n. .\n", 3, "at least 1"),
        ("puzzle: shikaku\n\n. 7\n. .\n", 3, "cannot fit"),
        ("puzzle: shikaku\n\n", None, "no grid"),
        ("puzzle: shikaku\n\n2 .\n\n2 .\n", 4, "blank line inside the grid"),
        ("puzzle shikaku\n\n2 .\n", 1, "expected 'key: value'"),
        ("puzzle: shikaku\npuzzle: nurikabe\n\n2 .\n. 2\n", 2,
         "a second 'puzzle:' header line"),
        ("# exported by X\npuzzle: sudoku\n\n1 2\n", 2, "unknown puzzle 'sudoku'"),
        ("puzzle: shikaku\nke\ty: 1\n\n2 .\n. 2\n", 2, "expected 'key: value'"),
        pytest.param("puzzle: nurikabe\n\n" + "9" * 5000 + " .\n", 3,
                     "of 5000 digits: at most 100", id="5000-digits"),
        pytest.param("puzzle: nurikabe\n\n" + "0" * 5000 + "1 .\n", 3,
                     "of 5001 digits: at most 100", id="5001-digits-leading-zeros"),
    ],
)
def test_malformed_instances_name_file_line_and_problem(write, content, line, needle):
    assert_malformed(write("bad.txt", content), line, needle)


@pytest.mark.parametrize(
    ("content", "needle"),
    [(b"", "empty file"), (b"  \n\n", "empty file"), (b"\x00\x01\x02puzzle", "binary file"),
     (b"puzzle: shikaku\n\n\xff\xfe 2\n", "not UTF-8")],
)
def test_empty_and_binary_files(write, content, needle):
    p = write("bad.txt", content)
    with pytest.raises(InstanceError, match=needle):
        read_instance(p)


@pytest.mark.parametrize(("content", "line"), [
    (b"puzzle: shikaku\nsource: caf\xe9\n\n2 . .\n. . 2\n", 2),
    (b"puzzle: shikaku\r\nsource: caf\xe9\r\n\r\n2 . .\r\n. . 2\r\n", 2),
    (b"puzzle: shikaku\r\r\n2 . .\r\xe9 . 2\r", 4),
])
def test_a_byte_that_is_not_utf8_is_named_by_value_offset_and_line(write, content, line):
    p = write("latin.txt", content)
    offset = content.index(b"\xe9")
    with pytest.raises(InstanceError) as e:
        read_instance(p)
    assert str(e.value) == f"{p}:{line}: not UTF-8 text (invalid byte 0xe9 at offset {offset})"


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InstanceError, match="no such file"):
        read_instance(tmp_path / "nope.txt")
    with pytest.raises(InstanceError, match="directory"):
        read_instance(tmp_path)


def test_an_empty_path_is_not_the_working_directory():
    with pytest.raises(InstanceError, match="empty path"):
        read_instance("")


def test_leading_zeros_read_as_the_number():
    assert parse_instance("puzzle: nurikabe\n\n02 .\n. .\n").grid[0][0] == 2


@pytest.mark.parametrize("entry", [{"#a": "x"}, {"a b": "x"}, {"a": "x\ny"}, {"a": "x\x0cy"},
                                   {"": "x"}, {"a:b": "x"}])
def test_a_header_entry_that_would_not_read_back_is_refused(entry):
    from bench.instance import check_header

    with pytest.raises(InstanceError, match="bad header entry"):
        check_header(entry, "f.txt")
    check_header({"licence": "CC BY 4.0"}, "f.txt")
