"""The instance contract at its edges: each malformed case is a one-line error naming the file."""

from __future__ import annotations

import os

import pytest

from bench.instance import InstanceError, parse_instance, read_instance
from tests.conftest import assert_malformed


@pytest.mark.parametrize("digit", ["\uff11", "\u0663", "\U0001d7d1", "\u00b2"])
def test_non_ascii_digits_are_not_clues(write, digit):
    for puzzle in ("shikaku", "nurikabe", "fillomino"):
        assert_malformed(write("bad.txt", f"puzzle: {puzzle}\n\n{digit} .\n. .\n"), 3,
                         "non-ASCII token")


def test_tabs_runs_of_spaces_and_cr_line_ends_are_accepted_knowingly():
    strict = parse_instance("puzzle: shikaku\n\n2 .\n2 .\n")
    for text in ("puzzle: shikaku\r\rx\t\r", "puzzle: shikaku\r\r2\t.\r2  .\r",
                 "puzzle: shikaku\r\n\r\n 2 \t .\r\n2 .\r\n", "puzzle: shikaku\n\n2 .\n2 .\n\n"):
        if "x" in text:
            with pytest.raises(InstanceError, match="illegal token 'x'"):
                parse_instance(text)
            continue
        assert parse_instance(text).grid == strict.grid, repr(text)


def test_a_byte_order_mark_is_accepted(write):
    p = write("bom.txt", "\ufeffpuzzle: shikaku\n\n2 .\n2 .\n".encode())
    assert read_instance(p).puzzle == "shikaku"


@pytest.mark.parametrize("ch", ["\f", "\v", "\x1c", "\x85", "\u2028", "\x01"])
def test_control_characters_are_rejected_on_their_own_line(write, ch):
    # a form feed inside row 2 (file line 4) used to split the line and shift every number
    p = write("ctl.txt", f"puzzle: shikaku\n\n2 .\n2{ch}.\n. 3\n")
    assert_malformed(p, 4, f"U+{ord(ch):04X}")


def test_non_breaking_space_is_not_a_separator(write):
    assert_malformed(write("nbsp.txt", "puzzle: shikaku\n\n2\u00a0.\n2 .\n"), 3,
                     "non-ASCII token")


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(InstanceError, match="not a regular file"):
        read_instance(fifo)
