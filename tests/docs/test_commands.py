"""Every `puzzlebench ...` example in a code block of README.md or docs/ parses with the real
command-line parser, so an example cannot outlive a renamed command or flag."""

from __future__ import annotations

import contextlib
import io

import pytest

from bench.cli import parser
from tests.docs._blocks import Command, commands, documents

EXAMPLES = [c for doc in documents() for c in commands(doc)]


def test_the_docs_have_examples_to_check() -> None:
    """The extraction finds the README's and the docs' examples (an empty list passes nothing)."""
    where = {c.path.name for c in EXAMPLES}
    assert {"README.md", "instances.md", "dask.md", "report.md"} <= where
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda c: f"{c.path.name}:{c.line}")
def test_example_parses(example: Command) -> None:
    argv = example.argv()
    assert argv[0] == "puzzlebench"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            args = parser().parse_args(argv[1:])
        except SystemExit as e:
            pytest.fail(f"{example.where()}\n  does not parse (exit {e.code}): "
                        f"{err.getvalue().strip()}")
    assert callable(args.func), example.where()


def test_a_broken_example_is_caught(tmp_path) -> None:
    """The check itself: an unknown flag and an unknown command fail to parse."""
    doc = tmp_path / "x.md"
    doc.write_text("```sh\npuzzlebench run --suite quick --nosuch 1\npuzzlebench frobnicate\n"
                   "puzzlebench report results/x \\\n    --out reports/x\n```\n")
    found = commands(doc)
    assert found[2].argv() == ["puzzlebench", "report", "results/x", "--out", "reports/x"]
    for bad in found[:2]:
        with contextlib.redirect_stderr(io.StringIO()), pytest.raises(SystemExit):
            parser().parse_args(bad.argv()[1:])
    parser().parse_args(found[2].argv()[1:])
