"""Bad input to `solve`, `export` and `import` is one line naming the file (or the option) and
the problem, exit 2 as every other command's (``solve --json`` prints the contract's JSON,
status ``error``, and exits 2), never a traceback; exit 1 is kept for a `solve` that ran and
did not solve (:data:`bench.cli.solve.NOT_SOLVED`). The files: empty, binary, a folder, not
UTF-8. Run in this process (no task starts on bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.cli import main
from tests.conftest import SHIKAKU_SEEDS

#: a bad instance file's name -> its bytes (None: a folder)
BAD = {"empty.txt": b"", "binary.txt": b"puzzle: shikaku\x00\xff\n\n2 .\n",
       "folder.txt": None, "latin1.txt": b"puzzle: shikaku\nsource: caf\xe9\n\n2 . .\n. . 2\n"}


@pytest.fixture(params=sorted(BAD))
def bad(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / request.param
    content = BAD[request.param]
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    return path


def one_line(capsys: pytest.CaptureFixture[str], code: int, path: Path) -> str:
    """The command's one stderr line, checked: exit 2, nothing on stdout, the file named."""
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), err
    assert len(err.splitlines()) == 1 and str(path) in err and "Traceback" not in err, err
    return err


def test_solve_of_a_bad_file_is_one_line_and_exit_2(bad, capsys):
    one_line(capsys, main(["solve", str(bad)]), bad)


def test_solve_json_of_a_bad_file_prints_the_error_and_exits_2(bad, capsys):
    code = main(["solve", str(bad), "--json"])
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert (code, err) == (2, ""), err
    assert got["status"] == "error" and str(bad) in got["message"] and "grid" not in got


def test_export_of_a_bad_file_is_one_line_and_exit_2(bad, capsys):
    one_line(capsys, main(["export", str(bad), "--to", "puzzlink"]), bad)


def test_import_of_a_bad_file_is_one_line_and_exit_2(bad, capsys, tmp_path):
    err = one_line(capsys, main(["import", str(bad), "--out", str(tmp_path / "o")]), bad)
    assert err.startswith(f"puzzlebench: {bad}: "), err
    assert not (tmp_path / "o").exists()


#: a puzz.link URL, decoded without a fetch
URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


@pytest.mark.parametrize("below", ["", "sub"])
def test_import_into_an_out_that_is_a_file_is_one_line_and_exit_2(below, capsys, tmp_path):
    """``--out`` (or the first of its parents that exists) is a file: one line naming it,
    before any source is read, not one OS error per source."""
    file = tmp_path / "empty.txt"
    file.write_text("")
    out = file / below if below else file
    code = main(["import", URL, URL, "--out", str(out)])
    where = f": {file}" if below else ""
    assert (code, capsys.readouterr()) == (
        2, ("", f"puzzlebench: --out {out}{where} exists and is not a folder\n"))
    assert file.read_text() == ""


#: (the options, the start of the JSON's message)
OPTIONS = [
    (("--formulation", "nosuch"), "--formulation 'nosuch': no formulation 'nosuch' for shikaku"),
    (("--formulation", "nosuch", "--solver", "cpsat"),
     "--formulation 'nosuch': no formulation 'nosuch' for shikaku"),
    (("--solver", "nosuch"), "--solver 'nosuch': unknown solver 'nosuch'"),
    (("--formulation", "sat-cover[card=x]", "--solver", "cadical195"),
     "--formulation 'sat-cover[card=x]': sat-cover: card='x' not one of "),
    (("--formulation", "cpsat-cover", "--solver", "cadical195"),
     "--formulation 'cpsat-cover' is a cpsat model, which solver cadical195 does not take "
     "(it takes sat)"),
]


@pytest.mark.parametrize(("options", "said"), OPTIONS,
                         ids=["formulation", "both", "solver", "value", "kind"])
def test_solve_with_an_option_naming_nothing_runs_no_task_and_exits_2(options, said, capsys):
    code = main(["solve", str(SHIKAKU_SEEDS[0]), "--json", *options])
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert (code, got["status"], got["wall_s"]) == (2, "error", None), (out, err)
    assert got["message"].startswith(said), got["message"]
    code = main(["solve", str(SHIKAKU_SEEDS[0]), *options])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and len(err.splitlines()) == 1, err
    assert err.startswith(f"puzzlebench: error: {said}"), err


def test_the_help_of_solve_export_and_import_states_the_exit_codes(capsys):
    for command in ("solve", "export", "import"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "Exit codes: 0 " in text and "; 2 " in text, command
        if command == "solve":
            assert "1 the solve ran and did not solve" in text


def test_import_that_cannot_write_under_out_names_the_path_and_the_problem(capsys, tmp_path):
    (tmp_path / "nurikabe").write_text("")  # where the URL's instance would go: a file
    code = main(["import", URL, "--out", str(tmp_path)])
    assert (code, capsys.readouterr()) == (
        2, ("", f"puzzlebench: {URL}: cannot write {tmp_path / 'nurikabe'}: File exists\n"))
