"""``import`` never replaces an existing file by different content unless ``--force`` is
given (as ``generate``): the instance fails with one line naming the file, the others still
import, exit 2; an identical file is left alone; files are written to a temporary file and
renamed into place, so an interrupted write leaves the old file whole. A puzz.link URL is
decoded locally (no network)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from bench.cli.convert import add_commands
from tests.convert.test_convert import JANKO_FILES

URL = "http://puzz.link/p?shakashaka/10/10/1b..icp2bj.jd.ckehdk2dch.l..rbg.c.a"
OTHER = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["import", *argv])
    return int(args.func(args))


def _imported(tmp_path: Path, capsys) -> Path:
    assert run_cli(URL, "--out", str(tmp_path)) == 0
    return Path(capsys.readouterr().out.split()[0])


def test_a_differing_file_is_refused_and_kept(tmp_path: Path, capsys) -> None:
    path = _imported(tmp_path, capsys)
    edited = path.read_text(encoding="utf-8") + "# my note\n"
    path.write_text(edited, encoding="utf-8")
    assert run_cli(URL, OTHER, "--out", str(tmp_path)) == 2
    io = capsys.readouterr()
    assert path.read_text(encoding="utf-8") == edited
    err = io.err.splitlines()
    assert err == [f"puzzlebench: {URL}: {path} exists with different content: not "
                   "overwritten (--force replaces it)",
                   "puzzlebench: imported 1, failed 1"], io.err
    assert "nurikabe-5x5-" in io.out and str(path) not in io.out


def test_force_replaces_a_differing_file(tmp_path: Path, capsys) -> None:
    path = _imported(tmp_path, capsys)
    fresh = path.read_bytes()
    path.write_text("# my note\n", encoding="utf-8")
    assert run_cli(URL, "--out", str(tmp_path), "--force") == 0
    assert path.read_bytes() == fresh
    assert capsys.readouterr().out == f"{path}  replaced (--force)\n"


def test_an_identical_file_is_left_alone(tmp_path: Path, capsys) -> None:
    path = _imported(tmp_path, capsys)
    os.utime(path, (1e9, 1e9))
    before = path.stat()
    assert run_cli(URL, "--out", str(tmp_path)) == 0
    assert capsys.readouterr().out == f"{path}  unchanged (the existing file has this content)\n"
    after = path.stat()
    assert (after.st_ino, after.st_mtime) == (before.st_ino, before.st_mtime)


def test_a_differing_solution_file_is_refused(tmp_path: Path, capsys) -> None:
    source = next(p for p in JANKO_FILES if "[solution]" in p.read_text(encoding="utf-8"))
    assert run_cli(str(source), "--out", str(tmp_path)) == 0
    sol = Path(capsys.readouterr().out.split()[0]).with_suffix(".sol")
    sol.write_text("[]\n", encoding="utf-8")
    assert run_cli(str(source), "--out", str(tmp_path)) == 2
    assert capsys.readouterr().err == (f"puzzlebench: {source}: {sol} exists with different "
                                       "content: not overwritten (--force replaces it)\n")
    assert sol.read_text(encoding="utf-8") == "[]\n"


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path: Path, capsys,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = _imported(tmp_path, capsys)
    path.write_text("# my note\n", encoding="utf-8")

    def cut(*args: object) -> None:
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(os, "replace", cut)
    assert run_cli(URL, "--out", str(tmp_path), "--force") == 2
    assert path.read_text(encoding="utf-8") == "# my note\n"
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert f"cannot write {path}: No space left on device" in capsys.readouterr().err
