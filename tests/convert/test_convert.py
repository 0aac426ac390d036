"""puzz.link / janko.at import and export (bench/convert/formats.py, bench/cli/convert.py).

The real URLs come from the committed copy instances/puzzlink-urls.txt (MIT, see its header).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bench.cli.convert import add_commands, url_lines
from bench.convert.formats import (
    ConversionError,
    canonical_url,
    decode_puzzlink,
    encode_body,
    encode_puzzlink,
    instance_from_puzzlink,
    instance_name,
    read_janko,
    split_puzzlink,
    write_instance,
)
from bench.instance import InstanceError, read_instance
from tests.conftest import INSTANCES

URL_FILE = INSTANCES / "puzzlink-urls.txt"
URLS = [(url, expect) for _, url, _, expect in url_lines(URL_FILE.read_text())]


def test_url_file_has_every_puzzle() -> None:
    assert len(URLS) >= 50
    assert {e[0] for _, e in URLS if e} == {
        "nurikabe", "shikaku", "shakashaka", "yinyang", "fillomino"}


@pytest.mark.parametrize(("url", "expect"), URLS, ids=[u.split("?")[1][:40] for u, _ in URLS])
def test_real_url_round_trips(url: str, expect: tuple[str, int, int]) -> None:
    puzzle, header, grid = decode_puzzlink(url)
    assert (puzzle, len(grid[0]), len(grid)) == expect
    assert header == {"puzzle": puzzle, "source": url}
    body = split_puzzlink(url)[4]
    assert encode_body(puzzle, grid) == body
    inst = instance_from_puzzlink(url, {"licence": "MIT"})
    assert inst.header["source"] == url and inst.header["licence"] == "MIT"
    assert encode_puzzlink(inst) == canonical_url(url)
    assert encode_puzzlink(inst).endswith(f"/{expect[1]}/{expect[2]}/{body}")


# Expected grids derived by hand from the encoding rules (see bench/convert/formats.py).
VECTORS = {
    # g=1 empty, 5, k=5 empties, 2, o=9 empties, 1, k, 3, g
    "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g": [
        ". 5 . . .",
        ". . 2 . .",
        ". . . . .",
        ". . 1 . .",
        ". . . 3 .",
    ],
    # base 27, 3 cells a char, 0 empty 1 white 2 black: 0=000 1=001 6=020 6=020 1=001
    # 2=002 3=010 0=000 0=0(00)
    "https://puzz.link/p?yinyang/5/5/016612300": [
        ". . . . .",
        "w . b . .",
        "b . . . w",
        ". . b . w",
        ". . . . .",
    ],
    # c=2+2 empties, g, b=1+2, h, d=3+2, h, e=4+2, g, d=3+2, r=12 empties, b=1+2
    "https://puzz.link/p?shakashaka/6/6/cgbhdhegdrb": [
        "2 . . . 1 .",
        ". . . 3 . .",
        ". . 4 . . .",
        "3 . . . . .",
        ". . . . . .",
        ". . . 1 . .",
    ],
    # j=4, 3, g, 5, 6, h=2, 6, t=14, 6, h, 2, 3, g, 5, j
    "https://puzz.link/p?shikaku/6/6/j3g56h6t6h23g5j": [
        ". . . . 3 .",
        "5 6 . . 6 .",
        ". . . . . .",
        ". . . . . .",
        ". 6 . . 2 3",
        ". 5 . . . .",
    ],
    # h, 4, j, 5, 3, g, 2, k, 5, 2, 3, 3, k, 2, g, 1, 4, j, 3, h
    "https://puzz.link/p?fillomino/6/6/h4j53g2k5233k2g14j3h": [
        ". . 4 . . .",
        ". 5 3 . 2 .",
        ". . . . 5 2",
        "3 3 . . . .",
        ". 2 . 1 4 .",
        ". . . 3 . .",
    ],
}


@pytest.mark.parametrize("url", list(VECTORS))
def test_pzprjs_vectors_decode_to_hand_derived_grids(url: str) -> None:
    _, _, grid = decode_puzzlink(url)
    assert [" ".join(row) for row in grid] == VECTORS[url]
    assert url in [u for u, _ in URLS]


@pytest.mark.parametrize(("body", "cells"), [
    ("-14", ["20"]), ("+1f4", ["500"]), ("=000", ["4096"]), ("z", ["."] * 20),
])
def test_number16_multi_digit_forms(body: str, cells: list[str]) -> None:
    n = len(cells)
    _, _, grid = decode_puzzlink(f"https://puzz.link/p?fillomino/{n}/1/{body}")
    assert grid == [cells]
    assert encode_body("fillomino", grid) == body


def test_url_normalisations() -> None:
    body = "g5k2o1k3g"
    for url in (f"http://pzv.jp/p.html?nurikabe/5/5/{body}",
                f"https://puzz.link/p?nurikabe/5/5/{body}&id=abc",
                f"puzz.link/p?nurikabe/5/5/{body}%22",
                f'"https://puzz.link/p?nurikabe/5/5/{body}"',
                f"https://puzz.link/p?nurikabe/5/5/{body}/"):
        assert canonical_url(url) == f"https://puzz.link/p?nurikabe/5/5/{body}", url
    assert canonical_url("https://puzz.link/p?sikaku/1/1/1") == "https://puzz.link/p?shikaku/1/1/1"


@pytest.mark.parametrize(("url", "needle"), [
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3", "truncated body"),
    ("https://puzz.link/p?nurikabe/5/6/g5k2o1k3g", "truncated body"),
    ("https://puzz.link/p?nurikabe/5/4/g5k2o1k3g", "passes the end"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g1", "overlong body"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k.g", "'?' clue"),
    ("https://puzz.link/p?nurikabe/2/1/-1", "needs 2 hex digits"),
    ("https://puzz.link/p?nurikabe/2/1/1G", "illegal character"),
    ("https://puzz.link/p?heyawake/5/5/g5k2o1k3g", "unsupported puzzle type 'heyawake'"),
    ("https://puzz.link/p?nurikabe/v/5/5/g5k2o1k3g", "unsupported flags"),
    ("https://example.com/p?nurikabe/5/5/g5k2o1k3g", "unsupported host"),
    ("ftp://puzz.link/p?nurikabe/5/5/g5k2o1k3g", "unsupported scheme"),
    ("https://puzz.link/p?nurikabe/5/5", "empty body"),
    ("https://puzz.link/p?nurikabe/5", "missing size"),
    ("https://puzz.link/p?nurikabe/0/5/g", "at least 1"),
    ("https://puzz.link/p?nurikabe/99999/99999/g", "more than 999"),
    ("https://puzz.link/p?nurikabe/5/5/g5/k", "extra part"),
    ("https://puzz.link/p?shakashaka/6/6/cgbhdhegdr", "truncated body"),
    ("https://puzz.link/p?shakashaka/6/6/cgbhdhegdrbg", "overlong body"),
    ("https://puzz.link/p?shakashaka/3/1/5f", "illegal character"),
    ("https://puzz.link/p?yinyang/5/5/01661230", "truncated body"),
    ("https://puzz.link/p?yinyang/5/5/0166123000", "overlong body"),
    ("https://puzz.link/p?yinyang/5/5/016612301", "past the end"),
    ("https://puzz.link/p?yinyang/3/1/r", "illegal character"),
])
def test_malformed_urls_give_one_line_errors(url: str, needle: str) -> None:
    with pytest.raises(ConversionError) as err:
        decode_puzzlink(url)
    assert needle in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(("url", "needle"), [
    ("https://puzz.link/p?shikaku/2/1/0g", "at least 1"),
    ("https://puzz.link/p?nurikabe/2/1/9g", "larger than the grid"),
    ("https://puzz.link/p?shikaku/2/2/5i", "cannot fit"),
])
def test_invalid_instances_are_rejected_by_the_rules(url: str, needle: str) -> None:
    with pytest.raises(InstanceError) as err:
        instance_from_puzzlink(url)
    msg = str(err.value)
    assert msg.startswith(url) and needle in msg and "\n" not in msg


def test_shakashaka_black_cells_and_last_cell_numbers() -> None:
    grid = [["#", "0", ".", "#"], [".", ".", "#", "4"]]
    body = encode_body("shakashaka", grid)
    assert body == ".5.h.e"  # '#', 0 + one empty, '#', 2 empties, '#', 4 (+ 2 past the end)
    _, _, back = decode_puzzlink(f"https://puzz.link/p?shakashaka/4/2/{body}")
    assert back == grid


JANKO_SHAKASHAKA = """\
[setup]
author     Someone
puzzle     shakashaka
size       2
[problem]
- -
- -
[solution]
{solution}
[moves]
whatever 1 2
[end]
"""


def test_janko_shakashaka_solution_triangles_by_black_corner() -> None:
    inst, sol = read_janko(JANKO_SHAKASHAKA.format(solution="nw ne\nsw se"), "j.txt")
    assert inst.puzzle == "shakashaka" and inst.header["author"] == "Someone"
    assert sol == [["◤", "◥"], ["◣", "◢"]]  # a white diamond in the middle


def test_janko_shakashaka_5_is_a_black_cell_without_number() -> None:
    text = JANKO_SHAKASHAKA.format(solution="x -\nx -").replace("[problem]\n- -\n- -",
                                                                  "[problem]\n5 -\n0 -")
    inst, sol = read_janko(text, "j.txt")
    assert inst.grid == (("#", None), (0, None)) and sol == [["#", "."], ["#", "."]]


def test_janko_solution_that_breaks_the_rules_is_an_error() -> None:
    with pytest.raises(InstanceError) as err:
        read_janko(JANKO_SHAKASHAKA.format(solution="se sw\nne nw"), "j.txt")
    assert str(err.value).startswith("j.txt:8: [solution] breaks the rules")


@pytest.mark.parametrize(("text", "grid", "solution"), [
    ("[setup]\npuzzle sikaku\nrows 2\ncols 3\n[problem]\n2 - 4\n- - -\n"
     "[solution]\na b b\na b b\n[end]\n",
     [[2, None, 4], [None, None, None]], [[0, 1, 1], [0, 1, 1]]),
    ("[setup]\npuzzle Yin-Yang\nsize 2\n[problem]\nw -\n- b\n[solution]\nw w\nw b\n[end]\n",
     [["w", None], [None, "b"]], [["w", "w"], ["w", "b"]]),
    ("[setup]\npuzzle nurikabe\nsize 3\n[problem]\n1 - -\n- - -\n- - 3\n"
     "[solution]\n1 x x\nx x -\nx - 3\n[end]\n",
     [[1, None, None], [None] * 3, [None, None, 3]],
     [[".", "#", "#"], ["#", "#", "."], ["#", ".", "."]]),
    ("[setup]\npuzzle fillomino\nsize 2\n[problem]\n- 2\n2 -\n[solution]\n2 2\n2 2\n[end]\n",
     None, None),  # 2 2 / 2 2 is one region of four 2s: rejected below
    ("[setup]\npuzzle shakashaka\nrows 1\ncols 3\n[problem]\nx 0 -\n[end]\n",
     [["#", 0, None]], None),
])
def test_janko_files(text: str, grid: list | None, solution: list | None) -> None:
    if grid is None:
        with pytest.raises(InstanceError, match="breaks the rules"):
            read_janko(text, "f.txt")
        return
    inst, sol = read_janko(text, "f.txt")
    assert [list(row) for row in inst.grid] == grid
    assert sol == solution
    assert inst.header["source"] == "f.txt"


@pytest.mark.parametrize(("text", "needle"), [
    ("[setup]\npuzzle nurikabe\nsize 3\n[problem]\n1 - -\n- - -\n[end]\n",
     "f.txt:4: [problem] has 2 rows, expected 3"),
    ("[setup]\npuzzle nurikabe\nsize 2\n[problem]\n1 - -\n- -\n[end]\n",
     "f.txt:5: [problem] row has 3 cells, expected 2"),
    ("[setup]\npuzzle sudoku\nsize 2\n[problem]\n- -\n- -\n[end]\n",
     "f.txt:2: unsupported puzzle 'sudoku'"),
    ("[setup]\npuzzle nurikabe\nsize 2\n[problem]\n? -\n- -\n[end]\n",
     "f.txt:5: column 0: '?' clue"),
    ("[setup]\npuzzle yinyang\nsize 2\n[problem]\nw -\n- q\n[end]\n",
     "f.txt:6: column 1: illegal yinyang problem token 'q'"),
    ("[setup]\npuzzle shikaku\nsize 2\n[problem]\n- 9\n- -\n[end]\n",
     "f.txt:5: clue 9 at row 0, column 1 cannot fit"),
    ("[setup]\npuzzle shikaku\n[problem]\n- 9\n- -\n[end]\n", "no 'size'"),
    ("[problem]\n- 9\n", "no [setup] section"),
])
def test_malformed_janko_files_give_one_line_errors(text: str, needle: str) -> None:
    with pytest.raises(InstanceError) as err:
        read_janko(text, "f.txt")
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_names_are_stable_and_source_independent(tmp_path: Path) -> None:
    a = instance_from_puzzlink("http://pzv.jp/p.html?nurikabe/5/5/g5k2o1k3g")
    b = instance_from_puzzlink("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g&id=x")
    assert instance_name(a) == instance_name(b)
    assert instance_name(a).startswith("nurikabe-5x5-") and len(instance_name(a)) == 21
    janko, sol = read_janko(
        "[setup]\npuzzle nurikabe\nsize 5\n[problem]\n- 5 - - -\n- - 2 - -\n- - - - -\n"
        "- - 1 - -\n- - - 3 -\n", "n.txt")
    assert instance_name(janko) == instance_name(a) and sol is None
    path = write_instance(a, tmp_path)
    assert read_instance(path).grid == a.grid
    assert not path.with_suffix(".sol").exists()


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_import_cli_keeps_going_and_names_failures(tmp_path: Path, capsys) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text(
        "# Source: somewhere. MIT License, Copyright (c) 2026 Someone.\n"
        "nurikabe 5 5 https://puzz.link/p?nurikabe/5/5/g5k2o1k3g\n"
        "https://puzz.link/p?nurikabe/5/5/g5k2o1k.g\n"
        "shikaku 6 5 https://puzz.link/p?shikaku/6/6/j3g56h6t6h23g5j\n"
        "not a url line\n")
    janko = tmp_path / "j.txt"
    janko.write_text(JANKO_SHAKASHAKA.format(solution="nw ne\nsw se"))
    out = tmp_path / "out"
    code = run_cli(["import", str(urls), str(janko), "https://puzz.link/p?heyawake/1/1/g",
                    str(tmp_path / "missing.txt"), "--out", str(out)])
    assert code == 2  # bad input, as every command's
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 6  # 5 failures and the summary
    assert all(line.startswith("puzzlebench: ") for line in err), err  # as every command's
    err = [line.removeprefix("puzzlebench: ") for line in err]
    assert err[0].startswith(f"{urls}:3: https://puzz.link/p?nurikabe/5/5/g5k2o1k.g: '?' clue")
    assert err[1].startswith(f"{urls}:4: ") and "line says shikaku 6x5" in err[1]
    assert err[2].startswith(f"{urls}:5: not a url line: cannot read line")
    assert err[3].startswith("https://puzz.link/p?heyawake/1/1/g: unsupported puzzle type")
    assert err[4].startswith(f"{tmp_path / 'missing.txt'}: no such file")
    assert err[5] == "imported 2, failed 5"
    nuri = list((out / "nurikabe").glob("*.txt"))
    assert len(nuri) == 1
    inst = read_instance(nuri[0])
    assert inst.header["source"] == "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    assert inst.header["licence"] == "MIT License, Copyright (c) 2026 Someone."
    sols = list((out / "shakashaka").glob("*.sol"))
    assert len(sols) == 1
    assert json.loads(sols[0].read_text()) == [["◤", "◥"], ["◣", "◢"]]
    assert sols[0].with_suffix(".txt").exists()


def test_export_cli_prints_the_url(tmp_path: Path, capsys) -> None:
    path = write_instance(instance_from_puzzlink("http://puzz.link/p?yinyang/5/5/016612300"),
                          tmp_path)
    assert run_cli(["export", str(path), "--to", "puzzlink"]) == 0
    assert capsys.readouterr().out == "https://puzz.link/p?yinyang/5/5/016612300\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("puzzle: shikaku\n\n2 y\n")
    assert run_cli(["export", str(bad), "--to", "puzzlink"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert run_cli(["export", str(empty), "--to", "puzzlink"]) == 2
    assert capsys.readouterr().err == f"puzzlebench: {empty}: empty file\n"


def test_imported_instances_are_committed() -> None:
    """Every real URL of the list was imported into instances/<puzzle>/ with its licence."""
    for url, expect in URLS:
        assert expect is not None
        inst = instance_from_puzzlink(url)
        path = INSTANCES / expect[0] / f"{instance_name(inst)}.txt"
        stored = read_instance(path)
        assert stored.grid == inst.grid and stored.header["source"] == url
        assert "MIT" in stored.header["licence"]


JANKO_FILES = sorted((Path(__file__).parents[1] / "data" / "janko").glob("*.txt"))


@pytest.mark.parametrize("path", JANKO_FILES, ids=[p.stem for p in JANKO_FILES])
def test_janko_solution_conventions_import(path: Path, tmp_path: Path) -> None:
    """One small file per puzzle in janko.at's own solution conventions (Shakashaka: ``-`` on
    every cell that is not a triangle, the problem's black cells included)."""
    from tests.cli.test_cli import cli

    p = cli("import", str(path), "--out", str(tmp_path))
    assert p.returncode == 0, p.stderr
    written = Path(p.stdout.split()[0])
    inst = read_instance(written)
    from bench.puzzles import get_puzzle

    sol = json.loads(written.with_suffix(".sol").read_text())
    assert get_puzzle(inst.puzzle).verify(inst, sol) == []
    if inst.puzzle == "shakashaka":
        assert [row[0] for row in sol] == ["#", "#"] and sol[0][3] == "#"


def test_import_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    import os

    from tests.cli.test_cli import cli

    fifo = tmp_path / "f.txt"
    os.mkfifo(fifo)
    p = cli("import", str(fifo), "--out", str(tmp_path / "o"), timeout=60)
    assert p.returncode == 2 and f"{fifo}: not a regular file" in p.stderr, p.stderr


@pytest.mark.parametrize("licence", ["CC-BY\n\n# . .", "CC\rjunk", "a\x0cb"])
def test_janko_import_refuses_a_header_value_that_would_not_read_back(
        licence: str, tmp_path: Path) -> None:
    """A ``--licence`` with a line end would write a file the reader refuses: refused, no file."""
    from tests.cli.test_cli import cli

    p = cli("import", str(JANKO_FILES[0]), "--out", str(tmp_path), "--licence", licence)
    assert p.returncode != 0
    assert "bad header entry 'licence'" in p.stderr
    assert not list(tmp_path.rglob("*.txt"))


def test_import_of_an_empty_path_is_one_failure(tmp_path: Path, capsys) -> None:
    assert run_cli(["import", "", "--out", str(tmp_path / "out")]) == 2
    assert "'': empty path, not a file or URL" in capsys.readouterr().err
