"""The `bench` session's arguments to `run` (noxfile.bench_args), without running a bench: the
user's ``--opt VALUE`` and ``--opt=VALUE`` both replace the session's defaults, and `run`
takes no abbreviation the session would fail to see."""

from __future__ import annotations

import importlib.util

import pytest

from bench.cli import parser
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def noxfile():
    spec = importlib.util.spec_from_file_location("noxfile_under_test", ROOT / "noxfile.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _last(args: list[str], option: str) -> str:
    """The value argparse keeps for ``option``: `run`'s own parser reads ``args``."""
    ns = parser(["run", *args]).parse_args(["run", *args])
    return getattr(ns, option.lstrip("-").replace("-", "_"))


@pytest.mark.parametrize("given", [
    ["--suite=quick", "--jobs=1", "--time-limit", "5"],
    ["--suite", "quick", "--jobs", "1", "--time-limit", "5"],
])
def test_the_users_suite_and_jobs_are_kept(noxfile, given):
    plan, args, out, dry = noxfile.bench_args(given, "20260101-000000")
    assert not dry and out == "results/default-20260101-000000"
    for run in (plan, args):
        assert _last(run, "--suite") == "quick"
        assert _last(run, "--jobs") == 1
        assert _last(run, "--time_limit") == 5
    assert "--out" not in plan and _last(args, "--out") == out


def test_defaults_when_not_given(noxfile):
    plan, args, out, dry = noxfile.bench_args([], "S")
    assert (_last(args, "--suite"), _last(args, "--jobs"), _last(args, "--out")) == (
        "default", 2, out)
    assert out == "results/default-S"
    assert _last(args, "--reuse_latest") == "results/default-*"
    assert _last(plan, "--out") is None and not dry


@pytest.mark.parametrize("given", [["--out=x/run"], ["--out", "x/run"]])
def test_the_users_folder_is_the_runs_and_left_out_of_the_plan(noxfile, given):
    plan, args, out, _ = noxfile.bench_args([*given, "--dry-run"], "S")
    assert out == "x/run" and _last(args, "--out") == "x/run"
    assert [a for a in plan if "x/run" in a or a.startswith("--out")] == []
    assert "--dry-run" not in plan


@pytest.mark.parametrize("given", [["--formulation=shikaku:x"], ["--formulation", "shikaku:x"]])
def test_a_formulation_is_added_in_either_form(noxfile, given):
    _, args, _, _ = noxfile.bench_args(given, "S")
    assert _last(args, "--add-formulation") == ["shikaku:x"]
    assert _last(args, "--formulation") is None


def test_no_reuse_and_a_given_pattern(noxfile):
    _, args, _, _ = noxfile.bench_args(["--no-reuse"], "S")
    assert "--no-reuse" not in args and _last(args, "--reuse_latest") is None
    _, args, _, _ = noxfile.bench_args(["--reuse-latest=results/x-*"], "S")
    assert _last(args, "--reuse_latest") == "results/x-*"


@pytest.mark.parametrize("abbreviated", [["--sui", "quick"], ["--jo=1"], ["--ou", "x"],
                                         ["--dry"]])
def test_run_takes_no_abbreviated_option(abbreviated, capsys):
    """An abbreviation would pass the session's checks unseen: `run` refuses it instead."""
    with pytest.raises(SystemExit) as e:
        parser(["run", *abbreviated]).parse_args(["run", *abbreviated])
    assert e.value.code == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_the_options_the_session_reads_are_runs(noxfile):
    """Each option the session looks for is one of `run`'s (a rename would go unseen)."""
    source = (ROOT / "noxfile.py").read_text()
    run = parser(["run"])._subparsers._group_actions[0].choices["run"]  # type: ignore[union-attr]
    known = {s for action in run._actions for s in action.option_strings}
    for option in ("--out", "--suite", "--jobs", "--reuse-latest", "--dry-run",
                   "--add-formulation", "--formulation"):
        assert f'"{option}"' in source and option in known, option


class FakeSession:
    """What `bench` asks of its session, recorded: nothing installed or run."""

    def __init__(self, posargs: list[str]) -> None:
        self.posargs, self.runs, self.installs = posargs, [], []

    def install(self, *args: str) -> None:
        self.installs.append(list(args))

    def error(self, message: str) -> None:
        raise RuntimeError(message)

    def run(self, *args: str, **kwargs: object) -> None:
        self.runs.append(list(args))


def test_the_session_runs_the_users_choices(noxfile):
    session = FakeSession(["--suite=quick", "--jobs=1", "--time-limit", "5", "--dry-run"])
    noxfile.bench(session)
    assert len(session.runs) == 1  # the plan only
    run = session.runs[0]
    assert run[:2] == ["puzzlebench", "run"]
    assert (_last(run[2:], "--suite"), _last(run[2:], "--jobs")) == ("quick", 1)


def test_a_plugin_is_installed_into_the_session_and_not_passed_to_run(noxfile, tmp_path):
    """The session's environment holds only this package and the peers: `--install PATH`
    puts a plugin package there (either form), and `run` never sees the option."""
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    session = FakeSession(["--install", str(one), f"--install={two}", "--formulation", "mine",
                           "--dry-run"])
    noxfile.bench(session)
    assert session.installs[1:] == [["-e", str(one)], ["-e", str(two)]]
    run = session.runs[0]
    assert not any(a.startswith("--install") for a in run) and str(one) not in run
    assert _last(run[2:], "--add-formulation") == ["mine"]
    with pytest.raises(RuntimeError, match="no such folder"):
        noxfile.bench(FakeSession(["--install", str(tmp_path / "missing"), "--dry-run"]))
