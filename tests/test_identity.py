"""A result's identity (bench/identity.py): the same inputs give the same identity, any one
input changed gives another, and a moved instance file or a moved package keeps it."""

from __future__ import annotations

import dataclasses
import shutil
import sys
from pathlib import Path

import pytest

from bench.identity import (
    code_digest,
    code_files,
    differing_parts,
    formulation_files,
    identity,
    machine,
    planned_identity,
    task_files,
)
from bench.records import Task, instance_digest
from tests.conftest import SHIKAKU_SEEDS

HELPER = "SIZE = 3\n"
FORM = '''
from pathlib import Path
from {pkg} import helper
from {pkg}.rules import RULES

HERE = Path(__file__).parent


def programs(wall):
    return [HERE / "own.lp", HERE / f"connect_{{wall}}.lp", helper.SIZE, RULES]
'''
OTHER = "from {pkg} import helper\n"
#: a module whose prose (its docstrings, a bare string) names files its code never reads, and
#: whose rules are the ``.lp`` file of its own name (the ASP scaffold's ``with_suffix``)
DOCUMENTED = '''"""Its notes are the files beside it: idplug/*.txt"""
from pathlib import Path

RULES = Path(__file__).with_suffix(".lp")
"""The rules: documented.lp; not idplug/extra.lp"""


class Rules:
    """Documented in idplug/README.md"""

    def path(self) -> Path:
        """See idplug/notes.md"""
        f"{RULES}.cfg"
        return RULES
'''


#: a module of a subfolder whose names are its own folder's, a shared folder's (a name it
#: imports: ``SHARED``, which ``shared`` binds to its own folder) and a temporary folder's
SUB = '''
from pathlib import Path
from tempfile import gettempdir

from {pkg}.shared import SHARED

HERE = Path(__file__).parent


def files(x):
    return [HERE / "own.cfg", SHARED / f"common_{{x}}.cfg", Path(gettempdir()) / "model.lp"]
'''


def package(root: Path, pkg: str) -> Path:
    """A plugin package: ``form`` imports ``helper`` and ``rules`` and names three data
    files; ``other`` imports only ``helper``; ``unused.py`` and ``stray.lp`` nobody names;
    ``documented`` reads ``documented.lp`` and only its prose names the rest."""
    d = root / pkg
    d.mkdir(parents=True)
    files = {"__init__.py": "", "helper.py": HELPER, "rules.py": "RULES = 1\n",
             "form.py": FORM.format(pkg=pkg), "other.py": OTHER.format(pkg=pkg),
             "unused.py": "X = 1\n", "own.lp": "a.\n", "connect_edge.lp": "e.\n",
             "connect_reach.lp": "r.\n", "stray.lp": "s.\n", "documented.py": DOCUMENTED,
             "documented.lp": "d.\n", "extra.lp": "x.\n", "README.md": "read me\n",
             "notes.md": "n\n"}
    for name, text in files.items():
        (d / name).write_text(text)
    (d / "sub").mkdir()
    sub = {"__init__.py": "", "mod.py": SUB.format(pkg=pkg), "own.cfg": "o\n",
           "common_b.cfg": "b\n", "model.lp": "m.\n"}
    for name, text in sub.items():
        (d / "sub" / name).write_text(text)
    (d / "shared.py").write_text("from pathlib import Path\n\nSHARED = Path(__file__).parent\n")
    for name in ("common_a.cfg", "model.lp"):
        (d / name).write_text("x\n")
    return d


@pytest.fixture
def plug(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield package(tmp_path, "idplug"), tmp_path
    for name in [m for m in sys.modules if m.startswith("idplug")]:
        del sys.modules[name]


def test_a_formulations_code_covers_its_imports_and_the_data_files_it_names(plug):
    d, _ = plug
    files = code_files("idplug.form")
    assert set(files) == {"idplug.form", "idplug.helper", "idplug.rules", "idplug",
                          "idplug/own.lp", "idplug/connect_edge.lp", "idplug/connect_reach.lp"}
    before = {m: code_digest(f"idplug.{m}") for m in ("form", "other")}
    assert before == {m: code_digest(f"idplug.{m}") for m in ("form", "other")}  # stable
    (d / "unused.py").write_text("X = 2\n")
    (d / "stray.lp").write_text("changed.\n")
    assert {m: code_digest(f"idplug.{m}") for m in ("form", "other")} == before
    (d / "rules.py").write_text("RULES = 2\n")  # only form imports rules
    after = {m: code_digest(f"idplug.{m}") for m in ("form", "other")}
    assert after["form"] != before["form"] and after["other"] == before["other"]
    (d / "helper.py").write_text(HELPER + "# a comment is a change\n")  # both import helper
    again = {m: code_digest(f"idplug.{m}") for m in ("form", "other")}
    assert again["form"] != after["form"] and again["other"] != after["other"]
    (d / "connect_edge.lp").write_text("e2.\n")  # named through an f-string
    assert code_digest("idplug.form") != again["form"]


def test_files_only_a_docstring_or_bare_string_names_are_not_in_the_code(plug):
    """A docstring (module, class, function), an attribute's docstring and a bare f-string
    name no file the code reads: a stray ``notes.txt`` beside the module changes nothing. A
    bare suffix names the module's own file with it (``Path(__file__).with_suffix(".lp")``,
    how the ASP scaffold reads its rules)."""
    d, _ = plug
    files = code_files("idplug.documented")
    assert set(files) == {"idplug.documented", "idplug/documented.lp"}
    before = code_digest("idplug.documented")
    (d / "notes.txt").write_text("a stray note\n")
    (d / "x.cfg").write_text("c\n")
    # what the rule before took from this prose, which names them all
    prose = {"idplug/notes.txt", "idplug/extra.lp", "idplug/README.md", "idplug/notes.md",
             "idplug/x.cfg", "idplug/common_a.cfg"}
    assert _data_files(files) == _data_files(files, "prose") == prose
    for name in ("README.md", "extra.lp", "notes.md"):
        (d / name).write_text("edited\n")
    assert code_digest("idplug.documented") == before
    (d / "documented.lp").write_text("d2.\n")
    assert code_digest("idplug.documented") != before


def test_a_file_name_names_files_in_its_own_modules_folder_or_an_imported_names(plug):
    """``"model.lp"`` in ``sub/mod.py`` names ``sub/model.lp``, not the ``model.lp`` of the
    shared module's folder (which the digest walks too); ``SHARED / "common_*.cfg"`` names the
    shared folder's ``common_a.cfg``, not ``sub/common_b.cfg``."""
    d, _ = plug
    files = code_files("idplug.sub.mod")
    assert set(files) == {"idplug.sub.mod", "idplug.shared", "idplug/sub/own.cfg",
                          "idplug/sub/model.lp", "idplug/common_a.cfg"}
    # the rule before: every name in every folder of the digest
    assert _data_files(files, "code") - set(files) == {"idplug/model.lp",
                                                       "idplug/sub/common_b.cfg"}
    before = code_digest("idplug.sub.mod")
    (d / "model.lp").write_text("changed\n")
    (d / "sub" / "common_b.cfg").write_text("changed\n")
    assert code_digest("idplug.sub.mod") == before
    (d / "common_a.cfg").write_text("changed\n")
    assert code_digest("idplug.sub.mod") != before


def test_a_moved_package_keeps_its_code_digest(plug, tmp_path_factory, monkeypatch):
    _, root = plug
    digest = code_digest("idplug.form")
    for name in [m for m in sys.modules if m.startswith("idplug")]:
        del sys.modules[name]
    elsewhere = tmp_path_factory.mktemp("moved")
    shutil.move(str(root / "idplug"), str(elsewhere / "idplug"))
    monkeypatch.syspath_prepend(str(elsewhere))
    sys.path_importer_cache.clear()
    assert str(code_files("idplug.form")["idplug.form"]).startswith(str(elsewhere))
    assert code_digest("idplug.form") == digest


def test_built_in_formulations_follow_formulations_and_encodings_only():
    files = code_files("formulations.nurikabe.mip_flow")
    assert "formulations.nurikabe.mip_flow" in files and "bench.encodings.mip" in files
    assert not any(n.startswith(("pyomo", "bench.run", "bench.backends")) for n in files)
    asp = code_files("formulations.nurikabe.asp_reach")
    assert {"formulations/nurikabe/asp_reach.lp", "formulations/grid.lp",
            "formulations/connect_edge.lp", "formulations/connect_reach.lp",
            "formulations._asp"} <= set(asp)
    assert code_digest("no_such_module_anywhere") == ""


def _form(puzzle: str, name: str) -> type:
    from bench.registry import formulations

    return next(c for c in formulations(puzzle) if c.name == name)


def test_a_formulations_code_covers_its_puzzles_rules_and_the_code_every_task_runs():
    files = set(formulation_files(_form("shikaku", "sat-cover")))
    shared = {"bench.grid", "bench.instance", "bench.registry", "bench.models", "bench.solve",
              "bench.failure", "bench.records", "bench.puzzles", "bench.puzzles.registry"}
    assert shared <= files and shared <= set(task_files())
    assert {"bench.puzzles.shikaku.rules", "formulations.shikaku.sat_cover",
            "formulations.shikaku._cover", "bench.encodings.sat"} <= files
    # not: another puzzle's rules, another kind's encoding, the backends (their own part),
    # the run, report and command-line layers
    assert not any(n.startswith(("bench.puzzles.nurikabe", "bench.encodings.cpsat",
                                 "bench.backends", "bench.run", "bench.report", "bench.cli"))
                   for n in files), sorted(files)
    nuri = set(formulation_files(_form("nurikabe", "cpsat-islands")))
    assert "bench.puzzles.nurikabe.rules" in nuri and "bench.encodings.cpsat" in nuri
    assert not any(n.startswith(("bench.puzzles.shikaku", "bench.encodings.sat")) for n in nuri)


def test_a_backends_code_covers_its_module_and_what_it_imports_only():
    from bench.backends import get_backend
    from bench.identity import BACKEND_PACKAGES, NOT_FOLLOWED

    files = set(code_files(type(get_backend("cadical195")).__module__, BACKEND_PACKAGES,
                           exclude=NOT_FOLLOWED))
    assert files == {"bench.backends.sat", "bench.backends.base", "bench.backends.kinds",
                     "bench.effort"}


def test_every_backend_module_a_formulation_imports_enters_a_digest_of_its_results():
    """A formulation's digest leaves ``bench.backends`` to the backends' own digests, so a
    backend module a formulation imports must be one its kind's backends import: else a
    change to it would change no digest of the results it shapes, and a resume or
    ``--reuse`` would take them as current."""
    from bench.backends import backends_for
    from bench.identity import BACKEND_PACKAGES, NOT_FOLLOWED
    from bench.registry import formulations

    missed = []
    for puzzle in ("fillomino", "nurikabe", "shakashaka", "shikaku", "yinyang"):
        for cls in formulations(puzzle):
            if not cls.__module__.startswith("formulations."):  # other tests' own plugins
                continue
            used = {m for m in code_files(cls.__module__, exclude=NOT_FOLLOWED)
                    if m.startswith("bench.backends")}
            covered = set().union(*(code_files(type(b).__module__, BACKEND_PACKAGES,
                                               exclude=NOT_FOLLOWED)
                                    for b in backends_for(cls.kind)))
            missed += [f"{puzzle}/{cls.name}: {m}" for m in sorted(used - covered)]
    assert missed == []


BASE = Task(str(SHIKAKU_SEEDS[0]), "cpsat-cover", "cpsat", 3.0, 4096, 0, 1, 0, 0,
            code="code-a", backend_code="code-b")


def test_the_same_inputs_give_the_same_identity_and_any_one_changed_another(tmp_path):
    ident = planned_identity(BASE, "9.15")
    assert ident.startswith("id-") and ident == planned_identity(dataclasses.replace(BASE), "9.15")
    assert planned_identity(dataclasses.replace(BASE, time_limit=3), "9.15") == ident
    other = tmp_path / "other.txt"
    other.write_text(Path(BASE.instance).read_text() + "\n# another puzzle\n")
    changes = {"instance": {"instance": str(other)}, "variant": {"formulation": "cpsat-sugar"},
               "solver": {"solver": "highs"}, "seed": {"seed": 1}, "rep": {"rep": 1},
               "count": {"count": 2}, "time": {"time_limit": 5.0},
               "memory": {"memory_limit_mb": 2048}, "threads": {"threads": 2},
               "code": {"code": "code-c"}, "backend": {"backend_code": "code-d"}}
    seen = {ident}
    for what, change in changes.items():
        other_ident = planned_identity(dataclasses.replace(BASE, **change), "9.15")
        assert other_ident not in seen, what
        seen.add(other_ident)
    assert planned_identity(BASE, "9.16") not in seen
    here = machine()
    for k, v in {"cpu": "Another CPU", "cores": 64, "memory_gb": 1.5, "python": "3.12.1"}.items():
        assert planned_identity(BASE, "9.15", {**here, k: v}) not in seen, k


def test_a_moved_or_renamed_instance_file_keeps_its_identity(tmp_path):
    moved = tmp_path / "deeper" / "renamed.txt"
    moved.parent.mkdir()
    shutil.copyfile(BASE.instance, moved)
    assert instance_digest(moved) == instance_digest(BASE.instance)
    assert planned_identity(dataclasses.replace(BASE, instance=str(moved)), "9.15") \
        == planned_identity(BASE, "9.15")


def test_a_result_without_code_has_no_identity_and_differences_are_named():
    row = {"key": BASE.key, "code": "code-a", "backend_code": "code-b", "time_limit": 3.0,
           "memory_limit_mb": 4096, "threads": 1, "solver_version": "1", **machine()}
    assert identity(row) and identity({**row, "code": ""}) == ""
    assert differing_parts(row, {**row, "code": "code-z", "cores": 99}) == \
        ["formulation code", "machine"]
    assert differing_parts(row, {**row, "solver_version": "2", "time_limit": 9}) == \
        ["solver version", "limits"]


def test_the_judging_rules_are_in_every_results_code():
    """What decides a result's status, ``checked`` and ``known`` (the checker's verdict, the
    time limit rule, a killed task's status, the known solution's verdict, what the task's
    solve raised) is in
    :func:`task_files`, whichever module calls it."""
    import inspect

    from bench import judge
    from bench.run import execute, outcome, reuse

    files = {p.resolve() for p in task_files().values()}
    for rule in (execute.conclude, execute.over_time_limit, execute.failed, outcome.ended,
                 outcome.memory_status, reuse.rejudged, execute.checked_known,
                 judge.out_of_memory, judge.crashed):
        assert Path(inspect.getsourcefile(rule) or "").resolve() in files, rule.__name__
    # measuring stays out, and so does the digest machinery (the task process imports it)
    assert not any(n.startswith(("bench.run", "bench.identity")) for n in task_files())


DIGESTS = """
import json
from bench.identity import formulation_code
from bench.registry import formulations
print(json.dumps({f"{p}/{c.name}": formulation_code(c) for p in ("shikaku", "nurikabe")
                  for c in formulations(p) if c.__module__.startswith("formulations.")}))
"""


def test_editing_the_judging_code_changes_every_results_code(tmp_path):
    """A real copy of ``bench`` and ``formulations``: an edit to the judging rules changes
    every formulation's ``code`` (and so every identity); an edit to the run layer's
    measuring code changes none."""
    import json
    import os
    import subprocess

    root = Path(__file__).resolve().parents[1]
    for pkg in ("bench", "formulations"):
        shutil.copytree(root / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def digests() -> dict[str, str]:
        out = subprocess.run([sys.executable, "-c", DIGESTS], cwd=tmp_path, env=env,
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out.splitlines()[-1])

    before = digests()
    assert len(before) > 4 and all(before.values())
    judge = tmp_path / "bench" / "judge.py"
    text = judge.read_text()
    judge.write_text(text.replace('res.status = "solved" if not problems else "wrong"',
                                  'res.status = "wrong"', 1))
    assert judge.read_text() != text
    after = digests()
    assert set(after) == set(before)
    assert all(after[k] != before[k] for k in before)
    judge.write_text(text)
    assert digests() == before
    execute = tmp_path / "bench" / "run" / "execute.py"
    measuring = execute.read_text()
    execute.write_text(measuring.replace("PROGRESS_S = 0.25", "PROGRESS_S = 0.5"))
    assert execute.read_text() != measuring
    assert digests() == before


def _old_patterns(path: Path, part: str) -> set[str]:
    """File names as the rule before prose was left out read them from a module: every
    string constant and f-string (and each f-string's pieces), docstrings too (``part`` "all"),
    or only those of its string statements, docstrings and bare strings ("prose"), or only
    the rest ("code")."""
    import ast

    from bench import named_files as ident

    tree = ast.parse(path.read_bytes())
    strings = [n for n in ast.walk(tree) if isinstance(n, (ast.Constant, ast.JoinedStr))]
    prose = {id(n) for s in ast.walk(tree) if isinstance(s, ast.Expr) and ident.is_text(s.value)
             for n in ast.walk(s)}
    keep = {"all": strings, "prose": [n for n in strings if id(n) in prose],
            "code": [n for n in strings if id(n) not in prose]}[part]
    return {name.rsplit("/", 1)[-1] for _, name in ident.patterns(keep, "")}


def _data_files(files: dict[str, Path], part: str = "all") -> set[str]:
    """The data files beside ``files``' modules that :func:`_old_patterns` names, keyed as
    the digests key them (by their path from their package root)."""
    import fnmatch

    from bench.named_files import package_root

    modules = {n: p for n, p in files.items() if p.suffix == ".py"}
    patterns = set().union(*(_old_patterns(p, part) for p in modules.values()))
    roots = {p.parent: package_root(n, p)[0] for n, p in modules.items()}
    return {f.relative_to(root).as_posix() for d, root in roots.items() for f in d.iterdir()
            if f.is_file() and f.suffix not in (".py", ".pyc")
            and any(fnmatch.fnmatchcase(f.name, p) for p in patterns)}


def test_every_data_file_the_code_names_is_still_in_the_digests():
    """Each built-in formulation's, backend's and the task's digest keeps every data file the
    rule before prose was left out took, but those only a docstring or bare string named,
    and every one the rule before names were limited to their module's folder took (each
    name in every folder of the digest); the files it adds are its modules' own (a bare
    suffix). The ``.lp`` rules are all in, and each ASP formulation's digest holds every
    file its variants open."""
    from bench.backends import all_backends
    from bench.identity import BACKEND_PACKAGES, NOT_FOLLOWED
    from bench.puzzles import puzzle_names
    from bench.registry import formulations

    digests = {f"{p}/{c.name}": formulation_files(c) for p in puzzle_names()
               for c in formulations(p) if c.__module__.startswith("formulations.")}
    digests |= {b.name: code_files(type(b).__module__, BACKEND_PACKAGES, exclude=NOT_FOLLOWED)
                for b in all_backends()}
    digests["task"] = task_files()
    used: set[str] = set()
    for name, files in digests.items():
        now = {n for n, p in files.items() if p.suffix != ".py"}
        old = _data_files(files)
        lost = old - now
        assert lost <= _data_files(files, "prose") - _data_files(files, "code"), (name, lost)
        assert _data_files(files, "code") <= now, (name, _data_files(files, "code") - now)
        stems = {p.stem for p in files.values() if p.suffix == ".py"}
        assert all(Path(n).stem in stems for n in now - old), (name, sorted(now - old))
        used |= now
    root = Path(__file__).resolve().parents[1]
    assert used == {p.relative_to(root).as_posix()
                    for p in (root / "formulations").rglob("*.lp")}
    assert len(digests) > 20 and used
    assert _opened_files_are_in(digests) > 10


def _opened_files_are_in(digests: dict[str, dict[str, Path]]) -> int:
    """Every rules file each variant of each built-in ASP formulation reads (the shared
    ``grid.lp`` and its :meth:`programs`) is in its digest; how many were checked."""
    from bench.puzzles import puzzle_names
    from bench.registry import formulations
    from bench.variants import variants
    from formulations._asp import SHARED

    n = 0
    for p in puzzle_names():
        for c in formulations(p):
            if c.kind != "asp" or not c.__module__.startswith("formulations."):
                continue
            have = {f.resolve() for f in digests[f"{p}/{c.name}"].values()}
            for form in variants(c):
                opened = {f.resolve() for f in [SHARED / "grid.lp", *form.programs()]}
                assert opened <= have, (p, form.label, sorted(map(str, opened - have)))
                n += len(opened)
    return n


STRAY = """
import json, sys
from pathlib import Path
from bench.identity import formulation_code
from bench.puzzles import puzzle_names
from bench.registry import formulations

def digests():
    return {f"{p}/{c.name}": formulation_code(c) for p in puzzle_names()
            for c in formulations(p) if c.__module__.startswith("formulations.")}

before = digests()
for folder in sys.argv[1:]:
    for name in ("notes.txt", "README.md", "todo.lp.orig"):
        (Path(folder) / name).write_text("a stray note\\n")
print(json.dumps([before, digests()]))
"""


def test_a_stray_note_in_a_formulation_folder_changes_no_digest(tmp_path):
    """A real copy of ``bench`` and ``formulations``: ``notes.txt`` (and the like) dropped
    beside every formulation, encoding and puzzle's rules changes no formulation's ``code``,
    though the puzzle base's code globs ``*.txt`` (in a puzzle's ``data/`` subfolder)."""
    import json
    import os
    import subprocess

    root = Path(__file__).resolve().parents[1]
    for pkg in ("bench", "formulations"):
        shutil.copytree(root / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    folders = [tmp_path / "formulations", *(tmp_path / "formulations").glob("[!_]*/"),
               tmp_path / "bench", tmp_path / "bench" / "encodings", tmp_path / "bench" / "puzzles",
               *(tmp_path / "bench" / "puzzles").glob("[!_]*/")]
    assert len(folders) > 10
    out = subprocess.run([sys.executable, "-c", STRAY, *map(str, folders)], cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True,
                         text=True, check=True).stdout
    before, after = json.loads(out.splitlines()[-1])
    assert len(before) > 20 and all(before.values()) and after == before
