"""`puzzlebench report` options that name nothing in the run: ``--instance`` PATTERN matching
no instance name (a literal one, or a pattern such as ``[`` that is no class) is one line
naming the pattern, exit 2, and nothing written, as ``--scatter`` naming a pair the run does not
have; a pattern that matches still adds its per-instance table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.cli import main


@pytest.mark.parametrize("pattern", ["nomatch", "[", "seed-10x10x"])
def test_an_instance_pattern_matching_nothing_is_one_line_and_exit_2(single_run: Path,
                                                                      tmp_path: Path, capsys,
                                                                      pattern: str):
    out = tmp_path / "rep"
    code = main(["report", str(single_run), "--out", str(out), "--instance", "seed-*",
                 "--instance", pattern])
    stdout, err = capsys.readouterr()
    assert (code, stdout) == (2, "")
    lines = [x for x in err.splitlines() if not x.startswith("WARNING")]
    assert lines == [f"puzzlebench: --instance {pattern!r}: no instance of the run matches it (a "
                     "shell-style pattern: *, ?, [...])"
                     + (" (did you mean seed-10x10?)" if pattern == "seed-10x10x" else "")
                     + "; no report written"], err
    assert not out.exists()


def test_an_instance_pattern_that_matches_adds_its_table(single_run: Path, tmp_path: Path):
    code = main(["report", str(single_run), "--out", str(tmp_path / "rep"), "--instance",
                 "seed-*"])
    assert code == 0
    assert "## Per instance (seed-*): build + solve" in (tmp_path / "rep" / "summary.md") \
        .read_text()
