"""``puzzlebench new-formulation PUZZLE KIND NAME --out DIR``: an installable plugin package
with a minimal correct formulation to start from.

The package (``DIR``): ``pyproject.toml`` declaring the formulation's entry point, the package
``puzzlebench_<name>/`` with the module ``<kind>_<name>.py`` (and its rule file for ``asp``), a
test that runs the conformance checks (:mod:`bench.check`) and a README. ``pip install -e DIR``
installs it; ``puzzlebench check NAME`` passes as generated.

Templates exist for the puzzle x kind pairs in :data:`TEMPLATES` (files in ``templates/``,
:class:`string.Template` text): Shikaku's rectangle cover in each of ``sat``, ``cpsat``,
``mip``, ``asp`` and ``cpmpy``; Yin-Yang and Nurikabe in ``asp``, whose reachability rules state
connectivity in a few lines. Shakashaka, Fillomino and the other kinds of Yin-Yang and
Nurikabe need encodings (connectivity, regions) whose shortest correct form is an existing
formulation: for a pair without a template the error names the puzzle's formulations and their
files. A new puzzle's package is :mod:`bench.scaffold.puzzle`'s.
"""

from __future__ import annotations

import inspect
import keyword
import os
import re
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from string import Template

from bench.models import KINDS

#: (puzzle, kind) -> the template files of the module (the first is the module itself)
TEMPLATES: dict[tuple[str, str], tuple[str, ...]] = {
    ("shikaku", "sat"): ("shikaku_sat.py",),
    ("shikaku", "cpsat"): ("shikaku_cpsat.py",),
    ("shikaku", "mip"): ("shikaku_mip.py",),
    ("shikaku", "cpmpy"): ("shikaku_cpmpy.py",),
    ("shikaku", "asp"): ("shikaku_asp.py", "shikaku_asp.lp"),
    ("yinyang", "asp"): ("yinyang_asp.py", "yinyang_asp.lp"),
    ("nurikabe", "asp"): ("nurikabe_asp.py", "nurikabe_asp.lp"),
}

_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
#: the longest formulation name: it names the package folder, the module and the test file
#: (``tests/test_<name>.py``), each within a file system's 255-byte file name
MAX_NAME = 64


class ScaffoldError(ValueError):
    """A request the scaffold cannot fulfil; one line."""


def _template(file: str) -> Template:
    text = (resources.files("bench.scaffold") / "templates" / f"{file}.tmpl").read_text("utf-8")
    return Template(text)


def write_plugin(puzzle: str, kind: str, name: str, out: str | Path) -> list[Path]:
    """Write the plugin package for ``name`` into the new folder ``out``; the files written."""
    from bench.puzzles import puzzle_names

    if puzzle not in puzzle_names():
        raise ScaffoldError(f"no puzzle {puzzle!r} (one of {', '.join(puzzle_names())})")
    if kind not in KINDS:
        raise ScaffoldError(f"no model kind {kind!r} (one of {', '.join(KINDS)})")
    if (puzzle, kind) not in TEMPLATES:
        have = ", ".join(f"{p} {k}" for p, k in TEMPLATES)
        raise ScaffoldError(f"no template for {puzzle} {kind} (templates: {have}); "
                            + _start_from(puzzle, kind))
    if not _NAME.match(name):
        raise ScaffoldError(f"formulation name {name!r}: lower-case letters, digits and '-', "
                            "starting with a letter")
    if len(name) > MAX_NAME:
        raise ScaffoldError(f"formulation name of {len(name)} characters: at most {MAX_NAME}")
    _not_taken(puzzle, name)
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ScaffoldError(f"{root} exists and is not a folder")
    if root.is_dir() and any(root.iterdir()):
        raise ScaffoldError(f"{root} exists and is not empty")
    ident = name.replace("-", "_")
    package = f"puzzlebench_{ident}"
    module = f"{kind}_{ident}"
    cls = "".join(part.capitalize() for part in re.split(r"[-_]", name)) or "Mine"
    if keyword.iskeyword(cls) or not cls.isidentifier():
        cls = "Formulation" + cls
    values = {"puzzle": puzzle, "kind": kind, "name": name, "dist": f"puzzlebench-{name}",
              "package": package, "module": module, "cls": cls}
    files: dict[Path, str] = {
        root / "pyproject.toml": _template("pyproject.toml").substitute(values),
        root / "README.md": _template("README.md").substitute(values),
        root / package / "__init__.py": '"""A puzzlebench formulation plugin (its entry points: '
                                        'pyproject.toml)."""\n',
        root / "tests" / f"test_{ident}.py": _template("test.py").substitute(values),
    }
    for file in TEMPLATES[puzzle, kind]:
        suffix = Path(file).suffix
        files[root / package / f"{module}{suffix}"] = _template(file).substitute(values)
    _write_all(root, files)
    return list(files)


def _start_from(puzzle: str, kind: str) -> str:
    """Where a formulation of a pair without a template begins: the puzzle's formulations of
    ``kind`` (else of any kind) and their files, or the page that writes a puzzle's first."""
    from bench.registry import formulations

    forms = formulations(puzzle)
    same = [cls for cls in forms if cls.kind == kind]
    if not forms:
        return (f"{puzzle} has no formulation yet: write its first as "
                "docs/adding-a-puzzle.md shows (section 6)")
    listed = ", ".join(f"{cls.name} ({_source(cls)})" for cls in same or forms)
    return f"start from one of {puzzle}'s {kind + ' ' if same else ''}formulations: {listed}"


def _source(cls: type) -> str:
    """The file of ``cls``'s module, relative to the working folder when under it."""
    path = Path(inspect.getfile(cls))
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _not_taken(puzzle: str, name: str) -> None:
    """Refuse a name a formulation of ``puzzle`` already has (built-in or installed, name or
    alias): the plugin would be skipped as registered twice and ``check NAME`` would check the
    other one."""
    from bench.registry import formulations

    for cls in formulations(puzzle):
        if name == cls.name or name in cls.aliases:
            where = "built-in" if cls.__module__.startswith("formulations.") else "installed"
            raise ScaffoldError(f"formulation name {name!r} is taken by the {where} "
                                f"{puzzle} formulation {cls.name} ({cls.__module__}); choose "
                                "another name")


def _write_all(root: Path, files: dict[Path, str]) -> None:
    """Write ``files`` (paths under ``root``) into a temporary folder beside ``root`` and rename
    it to ``root`` at the end: a failure leaves nothing (and ``root`` as it was)."""
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{root.name[:40]}.", dir=root.parent))
    except OSError as e:
        raise ScaffoldError(f"{root}: cannot create the folder ({e.strerror or e})") from None
    try:
        for path, text in files.items():
            target = tmp / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o777 & ~_umask())
        os.replace(tmp, root)  # onto a missing or empty folder
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ScaffoldError(f"{root}: {e.strerror or e}; nothing written") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
