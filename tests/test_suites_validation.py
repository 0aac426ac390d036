"""A bad ``instances/suites.toml`` is one line naming the file, the suite (and tier), the field,
what it must be and what it is (:class:`bench.suites.SuitesFileError`), through the command
line (``run --suite``, ``run --dry-run``, ``list --suites``: exit code 2, no traceback) and in
:func:`bench.suites.load_suites`; the ranges are those of the CLI's options (a time limit is
positive and finite, a count at least 1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.bounds import MAX_INT64, MAX_RUNS, MAX_SEED
from bench.suites import SuitesFileError, load_suites
from tests.conftest import ROOT, SHIKAKU_SEEDS

HEAD = '[s]\nversion = 1\nformulations = ["shikaku:cpsat-cover"]\nsolvers = ["cpsat"]\n'
GLOB = 'instances = ["shikaku/a.txt"]\n'
TIERED = HEAD + '[s.tiers.t]\ninstances = ["shikaku/a.txt"]\n'


def project(tmp_path: Path, text: str | bytes) -> Path:
    """A project folder whose ``instances/suites.toml`` is ``text``, with one instance."""
    root = tmp_path / "proj"
    (root / "instances" / "shikaku").mkdir(parents=True)
    (root / "instances" / "shikaku" / "a.txt").write_text(SHIKAKU_SEEDS[0].read_text())
    suites = root / "instances" / "suites.toml"
    suites.write_bytes(text if isinstance(text, bytes) else text.encode())
    return root


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PUZZLEBENCH_ROOT": str(root), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bench.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=300,
    )


#: what a suite's ``version`` and a tier's ``cap`` must be (:data:`bench.bounds.MAX_INT64`)
VERSION = f"an integer, 1 .. {MAX_INT64}"
CAP = f"an integer, 0 .. {MAX_INT64}"

#: (name, the file, what the one line says after the file's path)
CLI_CASES = (
    [
        (
            "list-of-ints",
            HEAD + "instances = [1, 2]\n",
            "suite s: instances must be a non-empty list of glob strings, not a list holding an "
            "integer: 1",
        ),
        (
            "not-a-table",
            "s = 5\n",
            "suite s must be a table ([s] and its fields), not an integer: 5",
        ),
        (
            "absolute-glob",
            HEAD + f'instances = ["{SHIKAKU_SEEDS[0]}"]\n',
            f"suite s: instances glob '{SHIKAKU_SEEDS[0]}' is absolute: globs are relative to the "
            "instances folder",
        ),
        (
            "string-not-list",
            HEAD + 'instances = "shikaku/a.txt"\n',
            "suite s: instances must be a non-empty list of glob strings, not a string: "
            "'shikaku/a.txt'",
        ),
        (
            "syntax",
            "[s\nversion = 1\n",
            "not valid TOML: Expected ']' at the end of a table declaration (at line 1, column 3)",
        ),
        ("not-utf8", b"\xff\xfe\n", "not UTF-8 text (byte 0xff at offset 0)"),
        (
            "version-text",
            HEAD.replace("version = 1", 'version = "x"') + GLOB,
            f"suite s: version must be {VERSION}, not a string: 'x'",
        ),
    ]
    + [
        (
            f"time-limit-{v}",
            HEAD + f"time_limit = {v}\n" + GLOB,
            f"suite s: time_limit must be a positive finite number of seconds, not {v}",
        )
        for v in ("-5", "0", "nan", "inf")
    ]
    + [
        (
            f"tier-time-limit-{v}",
            TIERED + f"time_limit = {v}\n",
            f"suite s, tier t: time_limit must be a positive finite number of seconds, not {v}",
        )
        for v in ("-5", "0", "nan", "inf")
    ]
)


@pytest.mark.parametrize(
    ("text", "said"), [c[1:] for c in CLI_CASES], ids=[c[0] for c in CLI_CASES]
)
def test_a_bad_suites_file_is_one_line_through_the_cli(tmp_path, text, said):
    root = project(tmp_path, text)
    path = root / "instances" / "suites.toml"
    for args in (
        ("run", "--suite", "s", "--out", str(tmp_path / "out")),
        ("run", "--suite", "s", "--dry-run", "--jobs", "2"),
        ("list", "--suites"),
    ):
        p = cli(root, *args)
        assert (p.returncode, p.stdout) == (2, ""), (args, p.stdout, p.stderr)
        assert "Traceback" not in p.stderr and p.stderr.count("\n") == 1, (args, p.stderr)
        assert p.stderr.startswith("puzzlebench: ") and f"{path}: {said}\n" in p.stderr, args
    assert not (tmp_path / "out").exists()  # nothing run, nothing written


#: what a tier's ``repeats`` and ``seeds`` must be (:data:`bench.bounds.MAX_RUNS`)
RUNS = f"an integer, 1 .. {MAX_RUNS} (every run of every task is planned before any starts)"

#: (name, the file, what the error says after the file's path)
CASES = [
    (
        "version-0",
        HEAD.replace("version = 1", "version = 0") + GLOB,
        f"suite s: version must be {VERSION}, not 0",
    ),
    (
        "version-past-int64",
        HEAD.replace("version = 1", f"version = {MAX_INT64 + 1}") + GLOB,
        f"suite s: version must be {VERSION}, not {MAX_INT64 + 1}",
    ),
    (
        "version-float",
        HEAD.replace("version = 1", "version = 1.5") + GLOB,
        f"suite s: version must be {VERSION}, not a float: 1.5",
    ),
    (
        "time-limit-bool",
        HEAD + "time_limit = true\n" + GLOB,
        "suite s: time_limit must be a positive finite number of seconds, not a boolean: true",
    ),
    (
        "description",
        HEAD + "description = 5\n" + GLOB,
        "suite s: description must be a string, not an integer: 5",
    ),
    (
        "repeat-under-negative",
        HEAD + "repeat_under = -1\n" + GLOB,
        "suite s: repeat_under must be a finite number of seconds, 0 or more (0: no gate), not -1",
    ),
    (
        "repeat-under-nan",
        HEAD + "repeat_under = nan\n" + GLOB,
        "suite s: repeat_under must be a finite number of seconds, 0 or more (0: no gate), not nan",
    ),
    (
        "repeat-under-inf",
        HEAD + "repeat_under = inf\n" + GLOB,
        "suite s: repeat_under must be a finite number of seconds, 0 or more (0: no gate), not inf",
    ),
    (
        "variants",
        HEAD + "variants = 1\n" + GLOB,
        "suite s: variants must be 'all' or 'default', not an integer: 1",
    ),
    (
        "variants-word",
        HEAD + 'variants = "some"\n' + GLOB,
        "suite s: variants must be 'all' or 'default', not 'some'",
    ),
    (
        "formulations",
        HEAD.replace('["shikaku:cpsat-cover"]', '"shikaku:cpsat-cover"') + GLOB,
        "suite s: formulations must be a list of formulation labels (strings), not a string: "
        "'shikaku:cpsat-cover'",
    ),
    (
        "solvers",
        HEAD.replace('["cpsat"]', "[1]") + GLOB,
        "suite s: solvers must be a list of solver names (strings), not a list holding an "
        "integer: 1",
    ),
    (
        "estimate",
        HEAD + "estimate = 5\n" + GLOB,
        "suite s: estimate must be a list of run folders (strings), not an integer: 5",
    ),
    (
        "ladder-rule-word",
        HEAD + 'ladder_rule = "t"\n' + GLOB,
        "suite s: ladder_rule must be true, false or a list of tier names, not a string: 't'",
    ),
    (
        "unknown-field",
        HEAD + "time_limt = 5\n" + GLOB,
        "suite s: unknown field 'time_limt' (known: version, description, time_limit,",
    ),
    (
        "empty-instances",
        HEAD + "instances = []\n",
        "suite s: instances must be a non-empty list of glob strings, not []",
    ),
    ("empty-glob", HEAD + 'instances = [""]\n', "suite s: instances glob '' is empty"),
    (
        "inner-double-star",
        HEAD + 'instances = ["shikaku/a**.txt"]\n',
        "suite s: instances glob 'shikaku/a**.txt' is not supported: '**' must be a whole path "
        "component",
    ),
    (
        "windows-absolute",
        HEAD + "instances = ['C:\\x\\a.txt']\n",
        "suite s: instances glob 'C:\\\\x\\\\a.txt' is absolute",
    ),
    (
        "instances-and-tiers",
        TIERED.replace("[s.tiers.t]", GLOB + "[s.tiers.t]"),
        "suite s: declare `instances` or `tiers`, not both",
    ),
    (
        "tiers-not-a-table",
        HEAD + "tiers = 5\n",
        "suite s: tiers must be a table of tier tables ([SUITE.tiers.TIER]), not an integer: 5",
    ),
    (
        "tier-not-a-table",
        HEAD + "tiers = {t = 5}\n",
        "suite s: tiers must be a table of tier tables ([SUITE.tiers.TIER]), not a table holding "
        "an integer: 5",
    ),
    (
        "tier-without-instances",
        HEAD + "[s.tiers.t]\nrepeats = 2\n",
        "suite s, tier t: instances is missing (a non-empty list of glob strings)",
    ),
    (
        "tier-unknown-field",
        TIERED + "repeat = 3\n",
        "suite s, tier t: unknown field 'repeat' (known: instances, time_limit, repeats, seeds,",
    ),
    (
        "tier-repeats-0",
        TIERED + "repeats = 0\n",
        f"suite s, tier t: repeats must be {RUNS}, not 0",
    ),
    (
        "tier-repeats-float",
        TIERED + "repeats = 2.5\n",
        f"suite s, tier t: repeats must be {RUNS}, not a float: 2.5",
    ),
    (
        "tier-repeats-bool",
        TIERED + "repeats = true\n",
        f"suite s, tier t: repeats must be {RUNS}, not a boolean: true",
    ),
    (
        "tier-seeds-negative",
        TIERED + "seeds = -3\n",
        f"suite s, tier t: seeds must be {RUNS}, not -3",
    ),
    (
        "tier-repeats-past-most",
        TIERED + "repeats = 10001\n",
        f"suite s, tier t: repeats must be {RUNS}, not 10001",
    ),
    (
        "tier-repeats-2-40",
        TIERED + "repeats = 1099511627776\n",
        f"suite s, tier t: repeats must be {RUNS}, not 1099511627776",
    ),
    (
        "tier-repeats-10-12",
        TIERED + "repeats = 1000000000000\n",
        f"suite s, tier t: repeats must be {RUNS}, not 1000000000000",
    ),
    (
        "tier-seeds-past-most",
        TIERED + "seeds = 10001\n",
        f"suite s, tier t: seeds must be {RUNS}, not 10001",
    ),
    (
        "tier-seeds-2-40",
        TIERED + "seeds = 1099511627776\n",
        f"suite s, tier t: seeds must be {RUNS}, not 1099511627776",
    ),
    (
        "tier-seeds-10-12",
        TIERED + "seeds = 1000000000000\n",
        f"suite s, tier t: seeds must be {RUNS}, not 1000000000000",
    ),
    (
        "tier-seeds-past-int64",
        TIERED + "seeds = 99999999999999999999\n",
        f"suite s, tier t: seeds must be {RUNS}, not 99999999999999999999",
    ),
    (
        "tier-cap-negative",
        TIERED + "cap = -1\n",
        f"suite s, tier t: cap must be {CAP}, not -1",
    ),
    (
        "tier-cap-past-int64",
        TIERED + "cap = 99999999999999999999\ncapped = [\"shikaku:cpsat-cover/cpsat\"]\n",
        f"suite s, tier t: cap must be {CAP}, not 99999999999999999999",
    ),
    (
        "tier-capped-string",
        TIERED + 'cap = 1\ncapped = "shikaku:cpsat-cover/cpsat"\n',
        "suite s, tier t: capped must be a list of PUZZLE:FORMULATION/SOLVER strings, not a "
        "string: 'shikaku:cpsat-cover/cpsat'",
    ),
    (
        "tier-instances-string",
        HEAD + '[s.tiers.t]\ninstances = "shikaku/a.txt"\n',
        "suite s, tier t: instances must be a non-empty list of glob strings, not a string: "
        "'shikaku/a.txt'",
    ),
    (
        "glob-leaving-the-instances-folder",
        HEAD + 'instances = ["../../*.txt"]\n',
        "suite s: instances glob '../../*.txt' leaves the instances folder ('..'): globs are "
        "relative to it",
    ),
    (
        "tier-absolute-glob",
        HEAD + '[s.tiers.t]\ninstances = ["/tmp/*.txt"]\n',
        "suite s, tier t: instances glob '/tmp/*.txt' is absolute",
    ),
]


@pytest.mark.parametrize(("text", "said"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_bad_field_is_one_line_naming_file_suite_field_and_value(tmp_path, text, said):
    path = project(tmp_path, text) / "instances" / "suites.toml"
    with pytest.raises(SuitesFileError) as e:
        load_suites(path)
    assert isinstance(e.value, ValueError)  # what the callers (make_plan, list) catch
    message = str(e.value)
    assert "\n" not in message and message.startswith(f"{path}: {said}"), message


def test_the_edges_of_every_range_are_accepted(tmp_path):
    """The smallest valid values, and the largest runs of a task, load as written (the checks
    are not stricter than the CLI)."""
    text = (
        HEAD + "time_limit = 0.001\nrepeat_under = 0\nladder_rule = false\n"
        'variants = "all"\nestimate = []\n'
        '[s.tiers.t]\ninstances = ["shikaku/a.txt"]\nrepeats = 1\ntime_limit = 1e-9\n'
        'cap = 0\n[s.tiers.u]\ninstances = ["shikaku/*.txt"]\nseeds = 1\n'
        f'[s.tiers.v]\ninstances = ["shikaku/*.txt"]\nrepeats = {MAX_RUNS}\n'
        f'[s.tiers.w]\ninstances = ["shikaku/*.txt"]\nseeds = {MAX_RUNS}\n'
        f'[s.tiers.x]\ninstances = ["shikaku/*.txt"]\ncap = {MAX_INT64}\n'
        'capped = ["shikaku:cpsat-cover/cpsat"]\n'
    )
    s = load_suites(project(tmp_path, text) / "instances" / "suites.toml")["s"]
    assert (s.version, s.time_limit, s.repeat_under, s.ladder_rule) == (1, 0.001, 0.0, False)
    assert [(t.name, t.repeats, t.seeds, t.time_limit, t.cap) for t in s.tiers] == [
        ("t", 1, 1, 1e-9, 0),
        ("u", 1, 1, None, 0),
        ("v", MAX_RUNS, 1, None, 0),
        ("w", 1, MAX_RUNS, None, 0),
        ("x", 1, 1, None, MAX_INT64),
    ]


def test_a_glob_matching_nothing_and_a_missing_file_name_the_file(tmp_path, monkeypatch):
    root = project(tmp_path, HEAD + 'instances = ["shikaku/none-*.txt"]\n')
    path = root / "instances" / "suites.toml"
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(root))
    with pytest.raises(FileNotFoundError, match="no instance matches 'shikaku/none-") as e:
        load_suites()["s"].instances()
    assert str(e.value).startswith(f"{path}: suite s: ")
    path.unlink()
    with pytest.raises(FileNotFoundError) as e:
        load_suites()
    assert str(e.value) == f"no suites file: {path} not found"
    p = cli(root, "run", "--suite", "s", "--dry-run")
    assert p.returncode == 2 and p.stderr == f"puzzlebench: no suites file: {path} not found\n"
    path.mkdir()
    with pytest.raises(SuitesFileError, match=f"^{path}: cannot read the file: "):
        load_suites()
    # `list --suites` says what is there, not "not found"
    p = cli(root, "list", "--suites")
    assert (p.returncode, p.stderr) == (2, f"puzzlebench: {path}: cannot read the file: Is a "
                                           "directory\n"), p.stderr


def test_the_committed_suites_file_loads_and_names_itself():
    suites = load_suites(ROOT / "instances" / "suites.toml")
    assert {"quick", "default"} <= set(suites)
    assert {s.source for s in suites.values()} == {str(ROOT / "instances" / "suites.toml")}


@pytest.mark.parametrize(
    ("field", "says"),
    [("seeds", "seeds = 3"), ("repeats", "repeats = 3, run as seeds by a seeded solver")],
)
def test_a_tiers_seeds_past_the_largest_seed_are_one_line(tmp_path, field, says):
    """A tier's declared seeds (and a seeded solver's repeats, run as seeds) start at
    ``--seed``: past :data:`bench.bounds.MAX_SEED` the run is refused before any task, as
    ``--seeds`` is, not left to fail in the solver."""
    root = project(tmp_path, TIERED + f"{field} = 3\n")
    for args in (("--dry-run",), ("--out", str(tmp_path / "out"))):
        p = cli(root, "run", "--suite", "s", "--seed", str(MAX_SEED - 1), *args)
        assert (p.returncode, p.stdout) == (2, ""), (args, p.stderr)
        assert p.stderr == (
            f"puzzlebench: --seed {MAX_SEED - 1} (suite s, tier t: {says}) runs seeds up to "
            f"{MAX_SEED + 1}, past {MAX_SEED} (the largest every seeded solver takes)\n"
        ), args
    assert not (tmp_path / "out").exists()
    p = cli(root, "run", "--suite", "s", "--seed", str(MAX_SEED - 2), "--dry-run")
    assert p.returncode == 0 and "3 tasks" in p.stdout, p.stdout + p.stderr  # the last fits
